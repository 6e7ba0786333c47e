//! getattacksbench: the attacker lists SEE plays out (ARCHITECTURE.md, "Old
//! and new routines"), the old `GetAttacks` (a scan of both piece lists with
//! the 0x88 difference table, slider rays walked square by square) against
//! the bitboard builder on `who_attacks` (leaper tables and one rook and one
//! bishop probe, magic or PEXT).
//!
//! One call builds both colours' lists for one target square of one
//! position: what SEE does before it plays a capture. The target is where
//! SEE is asked about in search: the destination of one of the position's
//! legal captures (picked by the position's hash key, so every run and every
//! arm takes the same one); a position without captures falls back to an
//! occupied square other than a king (likewise picked), and a bare-kings
//! position to the king of the side not to move. So the old cost grows with
//! the pieces on the board (every list entry is looked at) and the new one
//! should not (the bitboard builder was planned to be flat in the number of
//! pieces): the correlation with men on the board means what it says.

use crate::measure::context::Context;
use crate::suite::benchmark::run_spec;
use crate::suite::spec::{ArmSpec, Entry, Spec};
use engine::attackers::{AttackerBuilder, BitboardAttackers, MailboxAttackers, SeeList};
use engine::movegen::legal_moves;
use engine::sliders::Magic;
use engine::types::{Color, PieceType, Square88};
use engine::Position;

/// One position and the square whose attackers are wanted.
#[derive(Clone)]
pub struct Target {
    pub pos: Position,
    pub square: Square88,
}

/// An order-independent checksum of a list: SEE sorts the lists itself, so
/// the builders may emit the same attackers in different orders.
#[inline(always)]
fn checksum(list: &SeeList) -> u64 {
    list.iter().fold(list.len() as u64, |s, e| {
        let id = (u64::from(e.square.raw()) << 8) | u64::from(e.piece.code());
        s.wrapping_add(id.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    })
}

#[inline(always)]
fn lists<B: AttackerBuilder>(t: &mut Target) -> u64 {
    let (mut white, mut black) = (SeeList::new(), SeeList::new());
    B::build(&t.pos, t.square, Color::White, &mut white);
    B::build(&t.pos, t.square, Color::Black, &mut black);
    checksum(&white) ^ checksum(&black).rotate_left(29)
}

fn mailbox(t: &mut Target) -> u64 {
    lists::<MailboxAttackers>(t)
}

fn bitboard_magic(t: &mut Target) -> u64 {
    lists::<BitboardAttackers<Magic>>(t)
}

#[cfg(target_feature = "bmi2")]
fn bitboard_pext(t: &mut Target) -> u64 {
    lists::<BitboardAttackers<engine::sliders::Pext>>(t)
}

/// The target square of a position (see the module documentation).
pub fn target_square(pos: &Position) -> Square88 {
    let pick = |n: usize| (pos.key() % n as u64) as usize;
    let captures: Vec<Square88> = legal_moves(pos).iter().filter(|m| m.is_capture()).map(|m| m.to()).collect();
    if !captures.is_empty() {
        return captures[pick(captures.len())];
    }
    let pieces: Vec<Square88> = (pos.occupied() & !pos.kind_bb(PieceType::King)).iter().map(|s| s.to_88()).collect();
    if !pieces.is_empty() {
        return pieces[pick(pieces.len())];
    }
    pos.king_square88(pos.side_to_move().flip())
}

fn prepare(pos: &Position) -> Target {
    let mut p = pos.clone();
    p.clear_history();
    Target { square: target_square(&p), pos: p }
}

/// The benchmark.
pub fn spec() -> Spec<Target> {
    #[allow(unused_mut)]
    let mut arms = vec![
        ArmSpec { name: "mailbox", routine: mailbox },
        ArmSpec { name: "bitboard-magic", routine: bitboard_magic },
    ];
    #[cfg(target_feature = "bmi2")]
    arms.push(ArmSpec { name: "bitboard-pext", routine: bitboard_pext });
    Spec {
        name: "getattacksbench",
        about: "SEE attacker lists (GetAttacks): mailbox piece-list scan vs bitboard who-attacks",
        call: "both colours' attacker lists of one square (a legal capture's destination, else an occupied square)",
        prepare,
        arms,
        must_agree: true,
    }
}

pub const ENTRY: Entry = Entry {
    name: "getattacksbench",
    about: "SEE attacker lists: mailbox / bitboard magic / bitboard PEXT",
    run: |ctx: &Context, set| run_spec(ctx, spec(), set),
};

#[cfg(test)]
mod tests {
    use super::*;
    use engine::attackers::same_attackers;

    #[test]
    fn arms_agree_on_real_positions_and_the_checksum_sees_the_lists() {
        let set = crate::suite::benchmarks::tests::real_positions();
        let spec = spec();
        let mut nonempty = 0;
        for pos in set {
            let mut t = prepare(pos);
            let want = (spec.arms[0].routine)(&mut t);
            for a in &spec.arms {
                assert_eq!((a.routine)(&mut t), want, "{} on {}", a.name, pos.to_fen());
            }
            // The lists themselves are the same multiset.
            for c in Color::ALL {
                let (mut a, mut b) = (SeeList::new(), SeeList::new());
                MailboxAttackers::build(&t.pos, t.square, c, &mut a);
                BitboardAttackers::<Magic>::build(&t.pos, t.square, c, &mut b);
                assert!(same_attackers(&a, &b), "{} {c:?}", pos.to_fen());
                nonempty += usize::from(!a.is_empty());
            }
        }
        assert!(nonempty > set.len() / 2, "most targets have attackers: {nonempty} of {}", 2 * set.len());
        // A different target square gives a different checksum.
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let mut t = prepare(&pos);
        let a = mailbox(&mut t);
        t.square = pos.king_square88(Color::White);
        assert_ne!(mailbox(&mut t), a);
    }

    #[test]
    fn targets_are_capture_destinations_when_there_are_captures() {
        // Kiwipete: White has captures; the target is one of their destinations.
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let sq = target_square(&pos);
        assert!(legal_moves(&pos).iter().any(|m| m.is_capture() && m.to() == sq));
        // The start position has none: an occupied non-king square.
        let start = Position::startpos();
        let sq = target_square(&start);
        assert!(!start.piece_at(sq).is_empty() && start.piece_at(sq).kind() != PieceType::King);
        // Bare kings: the king of the side not to move.
        let kk = Position::from_fen("8/8/3k4/8/8/4K3/8/8 w - - 0 1").unwrap();
        assert_eq!(target_square(&kk), kk.king_square88(Color::Black));
    }
}
