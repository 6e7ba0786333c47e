//! The exact bitboard port of the mailbox walk. One probe gives the first
//! segment of every ray. The walk goes on past each pass-through blocker
//! (per the mailbox walk's case table, ARCHITECTURE.md "Evaluation") to the
//! next piece, and on again while that piece is itself a pass-through
//! blocker: a second probe over the board without the pass-through pieces
//! gives every such chain at once (`extend_through`).
//! The mobility rules are then set operations over all walked squares, so
//! every count, bonus and attack set equals the mailbox walk's.
//!
//! Writes accumulators (direct and x-ray sets), never the attack words,
//! except with `MIRROR` in mixed per-piece configurations.

use super::{
    best_ray, queen_report, record, rook_report, Counting, MobilityInputs, PieceMobility, THROUGH_ENEMY, THROUGH_FRIEND,
};
use crate::bitboard::Bitboard;
use crate::eval::attacks::{Accumulators, BISHOP_XRAY, MINOR_BIT, QUEEN_BIT, QUEEN_XRAY, ROOK_BIT, ROOK_XRAY};
use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::KNIGHT_ATTACKS;
use crate::types::{Color, PieceType, Square};

/// Squares past the pass-through blockers of `direct`, following each
/// blocker's ray until a square that is not a pass-through blocker stops
/// it. `probe` is the slider's attack function.
///
/// A walk goes on past every pass-through piece and stops at the first
/// other piece, so the walked squares are exactly what one probe sees on the
/// board without the pass-through pieces: every chain at once, with no
/// loop. (Probing again per blocker cost a data-dependent branch per piece,
/// and lost to the mailbox walk with full boards.)
#[inline(always)]
pub(super) fn extend_through(
    probe: fn(Square, Bitboard) -> Bitboard,
    sq: Square,
    occupied: Bitboard,
    direct: Bitboard,
    pass: Bitboard,
) -> Bitboard {
    probe(sq, occupied & !pass) & !direct
}

/// Flags for the evaldiff classification: which kinds of blocker the
/// chain went past.
#[inline(always)]
pub(super) fn through_flags(walked: Bitboard, friend_pass: Bitboard, enemy_pass: Bitboard) -> u8 {
    let mut t = 0;
    if (walked & friend_pass).is_nonempty() {
        t |= THROUGH_FRIEND;
    }
    if (walked & enemy_pass).is_nonempty() {
        t |= THROUGH_ENEMY;
    }
    t
}

/// Knights were never loopy: one table lookup (shared by the single-probe
/// set, where it is the same routine).
#[inline(always)]
pub fn knight<const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    _: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let enemy = color.flip();
    let attacks = KNIGHT_ATTACKS[sq.index()];
    let enemy_pawns = pos.bb(enemy, PieceType::Pawn);
    let enemy_pieces = pos.color_bb(enemy) & !enemy_pawns;
    let if_safe = (!pos.occupied() | enemy_pawns) & !acc.unsafe_for_minor(color);
    let mobile = attacks & (if_safe | enemy_pieces);
    record::<MIRROR>(pos, acc, color, (MINOR_BIT, 0), attacks, Bitboard::EMPTY);
    PieceMobility { mobility: mobile.count() as u8, ..PieceMobility::default() }
}

/// Bishops: one probe for the direct attacks, one past the pass-through
/// blockers.
#[inline(always)]
pub fn bishop<S: Sliders, const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    inp: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let enemy = color.flip();
    let occ = pos.occupied();
    // Passed: enemy rooks, queens, king; own bishops and queens.
    let enemy_pass = pos.rook_likes(enemy) | pos.bb(enemy, PieceType::King);
    let friend_pass = pos.bishop_likes(color);
    let direct = S::bishop(sq, occ);
    let xray = extend_through(S::bishop, sq, occ, direct, enemy_pass | friend_pass);
    let walked = direct | xray;
    let mobile = Counting::bishop(pos, acc, inp, color).mobile(walked);
    record::<MIRROR>(pos, acc, color, (MINOR_BIT, BISHOP_XRAY), direct, xray);
    PieceMobility {
        mobility: mobile.count() as u8,
        best_ray: best_ray(mobile, sq, 4..8),
        through: through_flags(walked, friend_pass, enemy_pass),
        ..PieceMobility::default()
    }
}

/// Rooks: one probe for the direct attacks, one past the pass-through
/// blockers.
#[inline(always)]
pub fn rook<S: Sliders, const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    _: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let enemy = color.flip();
    let occ = pos.occupied();
    // Passed: the enemy queen and king; own rooks and queens.
    let enemy_pass = pos.bb(enemy, PieceType::Queen) | pos.bb(enemy, PieceType::King);
    let friend_pass = pos.rook_likes(color);
    let direct = S::rook(sq, occ);
    let xray = extend_through(S::rook, sq, occ, direct, enemy_pass | friend_pass);
    let walked = direct | xray;
    let mobile = Counting::rook(pos, acc, color).mobile(walked);
    record::<MIRROR>(pos, acc, color, (ROOK_BIT, ROOK_XRAY), direct, xray);
    PieceMobility {
        through: through_flags(walked, friend_pass, enemy_pass),
        ..rook_report(pos, color, sq, mobile, walked)
    }
}

/// Queens: line and diagonal probes, chained through own rooks and queens
/// on lines and own bishops and queens on diagonals.
#[inline(always)]
pub fn queen<S: Sliders, const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    _: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let occ = pos.occupied();
    // Passed: own rooks and queens on lines, own bishops and queens on
    // diagonals; no enemy piece.
    let line_pass = pos.rook_likes(color);
    let diagonal_pass = pos.bishop_likes(color);
    let direct_line = S::rook(sq, occ);
    let direct_diagonal = S::bishop(sq, occ);
    let xray_line = extend_through(S::rook, sq, occ, direct_line, line_pass);
    let xray_diagonal = extend_through(S::bishop, sq, occ, direct_diagonal, diagonal_pass);
    let (direct, xray) = (direct_line | direct_diagonal, xray_line | xray_diagonal);
    let passed = ((direct_line | xray_line) & line_pass) | ((direct_diagonal | xray_diagonal) & diagonal_pass);
    let walked = direct | xray;
    let mobile = Counting::queen(pos, acc, color).mobile(walked);
    record::<MIRROR>(pos, acc, color, (QUEEN_BIT, QUEEN_XRAY), direct, xray);
    PieceMobility {
        through: if passed.is_nonempty() { THROUGH_FRIEND } else { 0 },
        ..queen_report(pos, color, mobile, walked)
    }
}
