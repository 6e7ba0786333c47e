//! New form: attack questions answered with leaper tables and slider probes
//! intersected with the piece bitboards.
//!
//! [`who_attacks`] is the shared primitive of seed 001: per piece type, the
//! pieces of one colour attacking a square. [`BitboardAttackers`] turns it
//! into a SEE list; callers that only count or classify attackers use the
//! per-type sets directly.

use super::{AttackerBuilder, SeeEntry, SeeList};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::{KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};
use crate::types::{Color, Piece, PieceType, Square, Square88};
use std::marker::PhantomData;

/// Is `sq` attacked by any piece of `by`? Cheapest tests first.
#[inline]
pub fn is_attacked_bitboard<S: Sliders>(pos: &Position, sq: Square, by: Color) -> bool {
    let i = sq.index();
    if (PAWN_ATTACKS[by.flip().index()][i] & pos.bb(by, PieceType::Pawn)).is_nonempty()
        || (KNIGHT_ATTACKS[i] & pos.bb(by, PieceType::Knight)).is_nonempty()
        || (KING_ATTACKS[i] & pos.bb(by, PieceType::King)).is_nonempty()
    {
        return true;
    }
    let occ = pos.occupied();
    let rooks = pos.rook_likes(by);
    if rooks.is_nonempty() && (S::rook(sq, occ) & rooks).is_nonempty() {
        return true;
    }
    let bishops = pos.bishop_likes(by);
    bishops.is_nonempty() && (S::bishop(sq, occ) & bishops).is_nonempty()
}

/// The attackers of one square by one colour, one bitboard per piece type
/// (indexed by [`PieceType::index`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct AttackerSets {
    /// Attackers of each piece type, indexed by [`PieceType::index`].
    pub by_kind: [Bitboard; 6],
}

impl AttackerSets {
    /// The attackers of type `kind`.
    #[inline(always)]
    pub fn of(&self, kind: PieceType) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Every attacker, whatever its type.
    #[inline(always)]
    pub fn all(&self) -> Bitboard {
        self.by_kind.iter().fold(Bitboard::EMPTY, |a, &b| a | b)
    }

    /// How many attackers, whatever their type.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.by_kind.iter().map(|b| b.count()).sum()
    }
}

/// Which pieces of `color` attack `sq`: pawns and leapers by table, sliders
/// by one rook and one bishop probe on the current occupancy (so only
/// through empty squares), queens from both probes.
#[inline]
pub fn who_attacks<S: Sliders>(pos: &Position, sq: Square, color: Color) -> AttackerSets {
    let i = sq.index();
    let occ = pos.occupied();
    let mut by_kind = [Bitboard::EMPTY; 6];
    by_kind[PieceType::Pawn.index()] = PAWN_ATTACKS[color.flip().index()][i] & pos.bb(color, PieceType::Pawn);
    by_kind[PieceType::Knight.index()] = KNIGHT_ATTACKS[i] & pos.bb(color, PieceType::Knight);
    by_kind[PieceType::King.index()] = KING_ATTACKS[i] & pos.bb(color, PieceType::King);
    // Probe only when there is something to find: most squares have no
    // slider of a colour on any of their lines.
    let rook_likes = pos.rook_likes(color);
    let bishop_likes = pos.bishop_likes(color);
    let queens = pos.bb(color, PieceType::Queen);
    if rook_likes.is_nonempty() {
        let r = S::rook(sq, occ);
        by_kind[PieceType::Rook.index()] = r & pos.bb(color, PieceType::Rook);
        by_kind[PieceType::Queen.index()] = r & queens;
    }
    if bishop_likes.is_nonempty() {
        let b = S::bishop(sq, occ);
        by_kind[PieceType::Bishop.index()] = b & pos.bb(color, PieceType::Bishop);
        by_kind[PieceType::Queen.index()] |= b & queens;
    }
    AttackerSets { by_kind }
}

/// `GetAttacks` on bitboards: [`who_attacks`] with sliders from `S`, written
/// out type by type, cheapest first (so the list is already in SEE order).
#[derive(Copy, Clone, Default, Debug)]
pub struct BitboardAttackers<S: Sliders>(PhantomData<S>);

impl<S: Sliders> AttackerBuilder for BitboardAttackers<S> {
    const NAME: &'static str = "bitboard";

    #[inline]
    fn build(pos: &Position, sq: Square88, color: Color, list: &mut SeeList) {
        // The commit gate's proof switches (off by default; src/inject.rs).
        // The delay runs for White's list only, once per SEE pair of
        // lists: a single step on both came to 7-10%, above the ~5% aimed at.
        #[cfg(feature = "inject-hook")]
        if color == Color::White {
            crate::inject::attacker_delay();
        }
        #[cfg(feature = "inject-instructions-attackers")]
        crate::inject::extra_instructions();
        list.clear();
        let sets = who_attacks::<S>(pos, sq.to_64(), color);
        // A side with no attacker at all (most lists once few men are left)
        // skips the six per-type loops: without this test the builder lost
        // to the piece-list scan at 3-6 men (getattacksbench's ladder).
        if sets.all().is_empty() {
            return;
        }
        for kind in PieceType::ALL {
            let piece = Piece::new(color, kind);
            for s in sets.of(kind) {
                list.push(SeeEntry::new(s.to_88(), piece));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sliders::Magic;

    #[test]
    fn who_attacks_by_type() {
        // Target e5 (a black pawn). White: pawn d4, knight f3 and queen g3
        // (through the empty f4) attack it; knight c3 does not; rook e1 is
        // blocked by the pawn on e2. Black: only the king on f6.
        let pos = Position::from_fen("8/8/5k2/4p3/3P4/2N2NQ1/4P3/4RK2 w - - 0 1").unwrap();
        let sq = Square::parse("e5").unwrap();
        let names = |b: Bitboard| b.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let w = who_attacks::<Magic>(&pos, sq, Color::White);
        assert_eq!(names(w.of(PieceType::Pawn)), ["d4"]);
        assert_eq!(names(w.of(PieceType::Knight)), ["f3"]);
        assert_eq!(names(w.of(PieceType::Queen)), ["g3"]);
        assert!(w.of(PieceType::Rook).is_empty() && w.of(PieceType::Bishop).is_empty());
        assert_eq!(w.count(), 3);
        assert_eq!(names(w.all()), ["d4", "f3", "g3"]);
        let b = who_attacks::<Magic>(&pos, sq, Color::Black);
        assert_eq!(names(b.of(PieceType::King)), ["f6"]);
        assert_eq!(b.count(), 1);
        // The SEE list is written cheapest first.
        let mut list = SeeList::new();
        BitboardAttackers::<Magic>::build(&pos, sq.to_88(), Color::White, &mut list);
        let kinds: Vec<PieceType> = list.iter().map(|e| e.piece.kind()).collect();
        assert_eq!(kinds, [PieceType::Pawn, PieceType::Knight, PieceType::Queen]);
    }
}
