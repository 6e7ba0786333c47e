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

use super::{best_ray, mirror_to_words, MobilityInputs, PieceMobility};
use crate::bitboard::Bitboard;
use crate::eval::attacks::{Accumulators, BISHOP_XRAY, MINOR_BIT, QUEEN_BIT, QUEEN_XRAY, ROOK_BIT, ROOK_XRAY};
use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::{ray_beyond, KING_ATTACKS};
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

pub fn bishop<S: Sliders, const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    inp: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let enemy = color.flip();
    let occ = pos.occupied();
    let enemy_pawns = pos.bb(enemy, PieceType::Pawn);
    let direct = S::bishop(sq, occ);
    let enemy_ge = pos.rook_likes(enemy) | pos.bb(enemy, PieceType::King);
    let xray = xray_past(S::bishop, sq, occ, direct, enemy_ge);
    let own_transient_pawns = pos.bb(color, PieceType::Pawn) & !inp.stationary[color.index()];
    let if_safe = (!occ | enemy_pawns) & !acc.unsafe_for_minor(color);
    let always = (pos.color_bb(enemy) & !enemy_pawns) | own_transient_pawns;
    let mobile = direct & (if_safe | always);
    acc.minor[color.index()] |= direct;
    acc.minor_xray[color.index()] |= xray;
    if MIRROR {
        mirror_to_words(pos, color, direct, MINOR_BIT, xray, BISHOP_XRAY);
    }
    PieceMobility { mobility: mobile.count() as u8, best_ray: best_ray(mobile, sq, 4..8), ..PieceMobility::default() }
}

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
    let enemy_lesser = pos.color_bb(enemy) & !pos.rook_likes(enemy) & !pos.bb(enemy, PieceType::King);
    let if_safe = (!occ | enemy_lesser) & !acc.unsafe_for_rook(color);
    let always = pos.bb(enemy, PieceType::Rook) | enemy_ge;
    let mobile = direct & (if_safe | always);
    let partners = direct & pos.bb(color, PieceType::Rook);
    let on_rank = partners & Bitboard::rank(sq.rank());
    acc.rook[color.index()] |= direct;
    acc.rook_xray[color.index()] |= xray;
    if MIRROR {
        mirror_to_words(pos, color, direct, ROOK_BIT, xray, ROOK_XRAY);
    }
    PieceMobility {
        mobility: mobile.count() as u8,
        best_ray: best_ray(mobile, sq, 0..4),
        connected_rank: on_rank.count() as u8,
        connected_file: (partners & !on_rank).count() as u8,
        ..PieceMobility::default()
    }
}

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
    let if_safe = (!occ | (pos.color_bb(enemy) & !enemy_ge)) & !acc.unsafe_for_queen(color);
    let mobile = direct & (if_safe | enemy_ge);
    acc.queen[color.index()] |= direct;
    acc.queen_xray[color.index()] |= xray;
    if MIRROR {
        mirror_to_words(pos, color, direct, QUEEN_BIT, xray, QUEEN_XRAY);
    }
    let enemy_king_zone = KING_ATTACKS[pos.king_square(enemy).index()];
    PieceMobility {
        mobility: mobile.count() as u8,
        king_walks: (direct & enemy_king_zone).count() as u8,
        ..PieceMobility::default()
    }
}
