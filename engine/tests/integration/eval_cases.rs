//! Hand-checked mobility cases (the case table, ARCHITECTURE.md
//! "Evaluation") through all three
//! implementations, and the attack words the mailbox walk leaves behind.

use engine::defects::MailboxDefects;
use engine::eval::attacks::{BISHOP_XRAY, MINOR_BIT};
use engine::eval::mobility::PieceMobility;
use engine::eval::trace::Trace;
use engine::eval::weights::Weights;
use engine::eval::{DynamicSet, EvalConfig, Evaluation, MailboxSet, MobilityKind};
use engine::types::Color;
use engine::{Position, Square};

fn trace(kind: MobilityKind, fen: &str) -> Trace {
    let mut e = Evaluation::<DynamicSet, MailboxDefects>::new(
        DynamicSet::uniform(kind),
        Weights::default(),
        EvalConfig::default(),
    );
    e.trace(&mut Position::from_fen(fen).unwrap())
}

/// The mobility report of the piece on `square` under each implementation:
/// (mailbox, chain, single-probe).
fn reports(fen: &str, square: &str) -> [PieceMobility; 3] {
    let sq = Square::parse(square).unwrap();
    MobilityKind::ALL.map(|k| trace(k, fen).piece_at(sq).unwrap_or_else(|| panic!("no piece on {square}")).mobility)
}

#[test]
fn rook_behind_a_friendly_rook_on_an_open_file() {
    // a1 sees a2 (its partner: no count, connected on the file), then walks
    // on as an x-ray: a3..a8 count; b1, c1, d1 count. Single-probe stops at a2.
    let [mailbox, chain, single] = reports("4k3/8/8/8/8/8/R7/R3K3 w - - 0 1", "a1");
    assert_eq!(mailbox, chain);
    assert_eq!(chain.mobility, 9);
    assert_eq!(chain.best_ray, 6);
    assert_eq!(chain.connected_file, 1);
    assert_eq!(single.mobility, 3);
    assert_eq!(single.connected_file, 1);
}

#[test]
fn bishop_xrays_through_an_enemy_rook_to_the_king_ring() {
    let fen = "8/6k1/8/8/R2r4/R7/1B6/4K3 w - - 0 1";
    // b2: c3, d4 (the rook: counted, passed), e5, f6, g7 (the king: counted,
    // passed), h8 on one diagonal; c1 and a1; a3 is its own rook.
    let [mailbox, chain, single] = reports(fen, "b2");
    assert_eq!(mailbox, chain);
    assert_eq!(chain.mobility, 8);
    assert_eq!(single.mobility, 4, "single-probe counts c3, d4, c1, a1");
    // Mailbox and chain x-ray f6 and (past the king) h8; single-probe's one
    // extra probe past the rook reaches f6 and stops at the king.
    for (kind, xrayed) in [(MobilityKind::Mailbox, 2), (MobilityKind::Chain, 2), (MobilityKind::SingleProbe, 1)] {
        assert_eq!(trace(kind, fen).king[Color::Black.index()].ring_xray, xrayed, "{kind}");
    }
    // The mailbox walk leaves the bits in the attack words.
    let mut pos = Position::from_fen(fen).unwrap();
    let mut e = Evaluation::<MailboxSet, MailboxDefects>::new(MailboxSet, Weights::default(), EvalConfig::default());
    e.evaluate(&mut pos, -30000, 30000);
    let word = |s: &str| pos.attack_word(Square::parse(s).unwrap().to_88(), Color::White);
    assert_ne!(word("d4") & MINOR_BIT, 0);
    assert_eq!(word("d4") & BISHOP_XRAY, 0);
    assert_ne!(word("f6") & BISHOP_XRAY, 0);
    assert_ne!(word("h8") & BISHOP_XRAY, 0);
    assert_eq!(word("f6") & MINOR_BIT, 0);
}

#[test]
fn bishop_blocked_by_a_friendly_pawn() {
    // d2 can still move: the bishop counts it (1) and stops; b2, a3 count.
    let [mailbox, chain, single] = reports("4k3/8/8/8/8/8/3P4/2B1K3 w - - 0 1", "c1");
    assert_eq!(mailbox, chain);
    assert_eq!(chain.mobility, 3);
    assert_eq!(single.mobility, 3);
    // With a pawn in front of it, d2 is stationary and counts nothing.
    let [mailbox, chain, single] = reports("4k3/8/8/8/8/3p4/3P4/2B1K3 w - - 0 1", "c1");
    assert_eq!(mailbox, chain);
    assert_eq!(chain.mobility, 2);
    assert_eq!(single.mobility, 2);
}

#[test]
fn queen_behind_a_friendly_bishop_on_a_diagonal_and_on_a_line() {
    // Diagonal: the queen passes b2 and counts c3..h8.
    let [mailbox, chain, single] = reports("4k3/8/8/8/8/8/1B6/Q3K3 w - - 0 1", "a1");
    assert_eq!(mailbox, chain);
    assert_eq!(chain.mobility, 16);
    assert_eq!(single.mobility, 10);
    // Line: b2 stops the queen on the b-file; nothing beyond it counts.
    let [mailbox, chain, single] = reports("4k3/8/8/8/8/8/1B6/1Q2K3 w - - 0 1", "b1");
    assert_eq!(mailbox, chain);
    assert_eq!(chain.mobility, 10);
    assert_eq!(single.mobility, 10);
}
