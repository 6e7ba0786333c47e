//! Legal move generation in both representations behind one trait:
//! [`MailboxGen`] walks the 0x88 piece lists with step deltas,
//! [`BitboardGen`] works set-wise on bitboards with a slider implementation
//! chosen at compile time. Both produce exactly the legal moves (the same
//! set, not necessarily the same order); perft proves it.

pub(crate) mod bitboard;
pub(crate) mod mailbox;

use crate::moves::MoveList;
use crate::position::Position;
use crate::sliders::Sliders;
use std::marker::PhantomData;

/// A legal move generator.
pub trait MoveGen {
    /// Name used on the command line and in results.
    const NAME: &'static str;

    /// Append every legal move to `list`.
    fn legal(pos: &Position, list: &mut MoveList);

    /// Append the legal captures (en passant included) and promotions.
    fn tactical(pos: &Position, list: &mut MoveList);

    /// Append the other legal moves: quiet moves and castling (what
    /// [`legal`](Self::legal) adds to [`tactical`](Self::tactical)), for
    /// a search that generates them only when its tactical moves did not
    /// cut the node off.
    fn quiet(pos: &Position, list: &mut MoveList);

    /// [`tactical`](Self::tactical) for a side to move that the caller
    /// knows is not in check (the search knows it at every node): a
    /// generator may skip looking for checkers. The default ignores the
    /// knowledge.
    #[inline]
    fn tactical_not_in_check(pos: &Position, list: &mut MoveList) {
        debug_assert!(!pos.in_check());
        Self::tactical(pos, list);
    }

    /// [`quiet`](Self::quiet) for a side to move known not to be in check,
    /// as for [`tactical_not_in_check`](Self::tactical_not_in_check).
    #[inline]
    fn quiet_not_in_check(pos: &Position, list: &mut MoveList) {
        debug_assert!(!pos.in_check());
        Self::quiet(pos, list);
    }

    /// Number of legal moves (perft's bulk counting at the last ply).
    #[inline]
    fn count(pos: &Position) -> u64 {
        let mut list = MoveList::new();
        Self::legal(pos, &mut list);
        list.len() as u64
    }
}

/// The old generator: 0x88 deltas over the piece lists.
#[derive(Copy, Clone, Default, Debug)]
pub struct MailboxGen;

/// The new generator: set-wise bitboards with slider attacks from `S`.
#[derive(Copy, Clone, Default, Debug)]
pub struct BitboardGen<S: Sliders>(PhantomData<S>);

/// Which generator a command-line user asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// The 0x88 piece-list walk ([`MailboxGen`]).
    Mailbox,
    /// Bitboards ([`BitboardGen`]).
    Bitboard,
}

/// Legal moves of `pos` (with the bitboard generator), for callers that are
/// not measuring anything.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    BitboardGen::<crate::sliders::FastSliders>::legal(pos, &mut list);
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::sliders::Magic;

    fn sorted<G: MoveGen>(pos: &Position, tactical: bool) -> Vec<Move> {
        let mut l = MoveList::new();
        if tactical {
            G::tactical(pos, &mut l);
        } else {
            G::legal(pos, &mut l);
        }
        let mut v = l.as_slice().to_vec();
        v.sort();
        v
    }

    #[test]
    fn generators_agree_move_for_move() {
        for fen in [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",
            "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let m = sorted::<MailboxGen>(&pos, false);
            assert_eq!(m, sorted::<BitboardGen<Magic>>(&pos, false), "{fen}");
            assert_eq!(MailboxGen::count(&pos), BitboardGen::<Magic>::count(&pos), "{fen}");
            let t = sorted::<MailboxGen>(&pos, true);
            assert_eq!(t, sorted::<BitboardGen<Magic>>(&pos, true), "{fen}");
            assert!(t.iter().all(|mv| mv.is_tactical() && m.contains(mv)));
            assert_eq!(t.len(), m.iter().filter(|mv| mv.is_tactical()).count(), "{fen}");
        }
    }

    /// Told that the side to move is not in check, the generators emit the
    /// same moves as when they look for checkers themselves.
    #[test]
    fn not_in_check_forms_emit_the_same_moves() {
        let sorted_by = |generate: fn(&Position, &mut MoveList), pos: &Position| {
            let mut l = MoveList::new();
            generate(pos, &mut l);
            let mut v = l.as_slice().to_vec();
            v.sort();
            v
        };
        type B = BitboardGen<Magic>;
        for pos in crate::tools::randpos::random_positions(2000, 0x0C4E) {
            if pos.in_check() {
                continue;
            }
            assert_eq!(sorted_by(B::tactical, &pos), sorted_by(B::tactical_not_in_check, &pos), "{}", pos.to_fen());
            assert_eq!(sorted_by(B::quiet, &pos), sorted_by(B::quiet_not_in_check, &pos), "{}", pos.to_fen());
        }
    }
}
