//! Seed 000's approximation: one probe per piece (two for the queen).
//! Mobility comes from the first-blocker attack set only, with the same
//! safety masks; batteries are not walked through and squares beyond an
//! attacked enemy piece do not count. X-rays survive only where they matter
//! for king safety: through one directly attacked enemy queen or king
//! (bishop: rook, queen or king), with one extra probe per such piece,
//! restricted to that piece's ray. Knights share the chain routine.
//!
//! Differs from the mailbox walk by design; `engine evaldiff` classifies
//! every difference.

use super::{best_ray, queen_report, record, rook_report, Counting, MobilityInputs, PieceMobility};
use crate::bitboard::Bitboard;
use crate::eval::attacks::{Accumulators, BISHOP_XRAY, MINOR_BIT, QUEEN_BIT, QUEEN_XRAY, ROOK_BIT, ROOK_XRAY};
use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::ray_beyond;
use crate::types::{Color, PieceType, Square};

/// The x-ray squares past each directly attacked piece of `through`, one
/// probe each.
#[inline(always)]
fn xray_past(
    probe: fn(Square, Bitboard) -> Bitboard,
    sq: Square,
    occ: Bitboard,
    direct: Bitboard,
    through: Bitboard,
) -> Bitboard {
    let mut xray = Bitboard::EMPTY;
    for b in direct & through {
        xray |= probe(sq, occ.without(b)) & ray_beyond(sq, b);
    }
    xray
}

/// Bishops: one probe, x-rays only through a directly attacked enemy rook, queen or king.
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
    let direct = S::bishop(sq, occ);
    let enemy_ge = pos.rook_likes(enemy) | pos.bb(enemy, PieceType::King);
    let xray = xray_past(S::bishop, sq, occ, direct, enemy_ge);
    let mobile = Counting::bishop(pos, acc, inp, color).mobile(direct);
    record::<MIRROR>(pos, acc, color, (MINOR_BIT, BISHOP_XRAY), direct, xray);
    PieceMobility { mobility: mobile.count() as u8, best_ray: best_ray(mobile, sq, 4..8), ..PieceMobility::default() }
}

/// Rooks: one probe, x-rays only through a directly attacked enemy queen or king.
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
    let direct = S::rook(sq, occ);
    let enemy_ge = pos.bb(enemy, PieceType::Queen) | pos.bb(enemy, PieceType::King);
    let xray = xray_past(S::rook, sq, occ, direct, enemy_ge);
    let mobile = Counting::rook(pos, acc, color).mobile(direct);
    record::<MIRROR>(pos, acc, color, (ROOK_BIT, ROOK_XRAY), direct, xray);
    rook_report(pos, color, sq, mobile, direct)
}

/// Queens: a line and a diagonal probe, x-rays only through a directly
/// attacked enemy queen or king.
#[inline(always)]
pub fn queen<S: Sliders, const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    _: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let enemy = color.flip();
    let occ = pos.occupied();
    let direct_line = S::rook(sq, occ);
    let direct_diagonal = S::bishop(sq, occ);
    let enemy_ge = pos.bb(enemy, PieceType::Queen) | pos.bb(enemy, PieceType::King);
    let xray =
        xray_past(S::rook, sq, occ, direct_line, enemy_ge) | xray_past(S::bishop, sq, occ, direct_diagonal, enemy_ge);
    let direct = direct_line | direct_diagonal;
    let mobile = Counting::queen(pos, acc, color).mobile(direct);
    record::<MIRROR>(pos, acc, color, (QUEEN_BIT, QUEEN_XRAY), direct, xray);
    queen_report(pos, color, mobile, direct)
}
