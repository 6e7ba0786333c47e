//! The evaluation's exactness and symmetry: the chain mobility reproduces
//! the mailbox walk in every term (each piece type toggled on its own and all
//! together), and every position scores the same as its colour mirror.

use engine::defects::MailboxDefects;
use engine::eval::trace::Trace;
use engine::eval::weights::Weights;
use engine::eval::{DynamicSet, EvalConfig, Evaluation, MobilityKind};
use engine::movegen::legal_moves;
use engine::tools::randpos::random_positions;
use engine::Position;

fn trace(kinds: [MobilityKind; 4], pos: &Position) -> Trace {
    let mut e = Evaluation::<DynamicSet, MailboxDefects>::new(
        DynamicSet::new(kinds),
        Weights::default(),
        EvalConfig::default(),
    );
    e.trace(&mut pos.clone())
}

fn toggles() -> Vec<[MobilityKind; 4]> {
    use MobilityKind::{Chain as C, Mailbox as M};
    vec![[C, M, M, M], [M, C, M, M], [M, M, C, M], [M, M, M, C], [C, C, C, C]]
}

#[test]
fn chain_equals_mailbox_in_every_term() {
    let positions = random_positions(2000, 0xE7A1);
    let mut compared = 0;
    for pos in &positions {
        let base = trace([MobilityKind::Mailbox; 4], pos);
        for kinds in toggles() {
            let t = trace(kinds, pos);
            assert_eq!(t, base, "{kinds:?} differs on {}", pos.to_fen());
            compared += 1;
        }
    }
    assert_eq!(compared, 10_000);
}

#[test]
fn colour_mirror_scores_the_same_for_every_mobility_implementation() {
    let positions = random_positions(3000, 0x5EE1);
    for kind in MobilityKind::ALL {
        for pos in &positions {
            let mirror = pos.color_mirror();
            assert_eq!(mirror.color_mirror().to_fen(), pos.to_fen());
            let a = trace([kind; 4], pos);
            let b = trace([kind; 4], &mirror);
            assert_eq!(a.side_to_move, b.side_to_move, "{kind} {} vs {}", pos.to_fen(), mirror.to_fen());
            for (i, term) in a.terms.iter().enumerate() {
                assert_eq!(term[0], b.terms[i][1], "{kind} term {i} on {}", pos.to_fen());
                assert_eq!(term[1], b.terms[i][0], "{kind} term {i} on {}", pos.to_fen());
            }
        }
    }
}

#[test]
fn material_and_pawn_tables_score_what_recomputing_scores() {
    // One evaluator keeps its tables across positions: each random
    // position is traced twice (the second trace reads the material entry,
    // the pawn entry and the king shelters back), then every king move from
    // it (same pawns, so the pawn entry is found with the shelter of the
    // king's old square). Each must trace exactly as an evaluator with both
    // tables off, which recomputes everything.
    let positions = random_positions(1500, 0x3A7E);
    let evaluator = |bytes: fn(EvalConfig) -> EvalConfig| {
        Evaluation::<DynamicSet, MailboxDefects>::new(
            DynamicSet::new([MobilityKind::Chain; 4]),
            Weights::default(),
            bytes(EvalConfig::default()),
        )
    };
    let mut cached = evaluator(|c| c);
    let mut off = evaluator(|c| EvalConfig { material_hash_bytes: 0, pawn_hash_bytes: 0, ..c });
    let mut distinct = std::collections::HashSet::new();
    let mut king_moves = 0;
    for pos in &positions {
        distinct.insert(pos.material_key());
        cached.trace(&mut pos.clone());
        let hit = cached.trace(&mut pos.clone());
        assert_eq!(hit, off.trace(&mut pos.clone()), "{}", pos.to_fen());
        let king = pos.king_square(pos.side_to_move());
        for mv in legal_moves(pos).iter().filter(|m| m.from().to_64() == king && !m.is_capture()) {
            let mut after = pos.clone();
            after.make(*mv);
            let moved = cached.trace(&mut after.clone());
            assert_eq!(moved, off.trace(&mut after.clone()), "{} after {mv}", pos.to_fen());
            king_moves += 1;
        }
    }
    assert!(distinct.len() > 100, "only {} material signatures", distinct.len());
    assert!(king_moves > 1000, "only {king_moves} king moves");
}
