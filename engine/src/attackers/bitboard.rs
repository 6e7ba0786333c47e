//! New form: attack questions answered with leaper tables and slider probes
//! intersected with the piece bitboards.

use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::{KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};
use crate::types::{Color, PieceType, Square};

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
