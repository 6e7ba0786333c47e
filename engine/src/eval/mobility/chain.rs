//! The exact bitboard port of the mailbox walk. One probe gives the first
//! segment of every ray; each pass-through blocker on it (per the case
//! table of DESIGN §4.1) starts a chain along its own ray: probe again with
//! that blocker removed, keep the squares beyond it, repeat while the new
//! terminal square is itself a pass-through blocker. The mobility rules are
//! then set operations over all walked squares, so every count, bonus and
//! attack set equals the mailbox walk's.
//!
//! Writes accumulators (direct and x-ray sets), never the attack words,
//! except with `MIRROR` in mixed per-piece configurations.

use super::{best_ray, mirror_to_words, MobilityInputs, PieceMobility, THROUGH_ENEMY, THROUGH_FRIEND};
use crate::bitboard::Bitboard;
use crate::eval::attacks::{Accumulators, BISHOP_XRAY, MINOR_BIT, QUEEN_BIT, QUEEN_XRAY, ROOK_BIT, ROOK_XRAY};
use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::{ray_beyond, KNIGHT_ATTACKS};
use crate::types::{Color, PieceType, Square};

/// Squares past the pass-through blockers of `direct`, following each
/// blocker's ray until a square that is not a pass-through blocker stops
/// it. `probe` is the slider's attack function.
#[inline(always)]
fn extend_through(
    probe: fn(Square, Bitboard) -> Bitboard,
    sq: Square,
    occupied: Bitboard,
    direct: Bitboard,
    pass: Bitboard,
) -> Bitboard {
    let mut xray = Bitboard::EMPTY;
    for first in direct & pass {
        let ray = ray_beyond(sq, first);
        let mut occ = occupied.without(first);
        loop {
            let segment = probe(sq, occ) & ray & !xray;
            xray |= segment;
            let next = segment & occupied & pass;
            if next.is_empty() {
                break;
            }
            occ = occ.without(next.lsb());
        }
    }
    xray
}

/// Flags for the evaldiff classification: which kinds of blocker the
/// chain went past.
#[inline(always)]
fn through_flags(walked: Bitboard, friend_pass: Bitboard, enemy_pass: Bitboard) -> u8 {
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
    acc.minor[color.index()] |= attacks;
    if MIRROR {
        mirror_to_words(pos, color, attacks, MINOR_BIT, Bitboard::EMPTY, 0);
    }
    PieceMobility { mobility: mobile.count() as u8, ..PieceMobility::default() }
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
    let enemy_pass =
        pos.color_bb(enemy) & !enemy_pawns & !pos.bb(enemy, PieceType::Knight) & !pos.bb(enemy, PieceType::Bishop);
    let friend_pass = pos.bishop_likes(color);
    let direct = S::bishop(sq, occ);
    let xray = extend_through(S::bishop, sq, occ, direct, enemy_pass | friend_pass);
    let walked = direct | xray;
    let own_transient_pawns = pos.bb(color, PieceType::Pawn) & !inp.stationary[color.index()];
    let if_safe = (!occ | enemy_pawns) & !acc.unsafe_for_minor(color);
    let always = (pos.color_bb(enemy) & !enemy_pawns) | own_transient_pawns;
    let mobile = walked & (if_safe | always);
    acc.minor[color.index()] |= direct;
    acc.minor_xray[color.index()] |= xray;
    if MIRROR {
        mirror_to_words(pos, color, direct, MINOR_BIT, xray, BISHOP_XRAY);
    }
    PieceMobility {
        mobility: mobile.count() as u8,
        best_ray: best_ray(mobile, sq, 4..8),
        through: through_flags(walked, friend_pass, enemy_pass),
        ..PieceMobility::default()
    }
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
    let enemy_pass = pos.bb(enemy, PieceType::Queen) | pos.bb(enemy, PieceType::King);
    let own_rooks = pos.bb(color, PieceType::Rook);
    let friend_pass = own_rooks | pos.bb(color, PieceType::Queen);
    let direct = S::rook(sq, occ);
    let xray = extend_through(S::rook, sq, occ, direct, enemy_pass | friend_pass);
    let walked = direct | xray;
    let enemy_minors_and_pawns = pos.color_bb(enemy) & !pos.rook_likes(enemy) & !pos.bb(enemy, PieceType::King);
    let if_safe = (!occ | enemy_minors_and_pawns) & !acc.unsafe_for_rook(color);
    let always = pos.bb(enemy, PieceType::Rook) | enemy_pass;
    let mobile = walked & (if_safe | always);
    let partners = walked & own_rooks;
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
        king_walks: 0,
        through: through_flags(walked, friend_pass, enemy_pass),
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
    let own_queens = pos.bb(color, PieceType::Queen);
    let line_pass = pos.bb(color, PieceType::Rook) | own_queens;
    let diagonal_pass = pos.bb(color, PieceType::Bishop) | own_queens;
    let direct_line = S::rook(sq, occ);
    let direct_diagonal = S::bishop(sq, occ);
    let xray_line = extend_through(S::rook, sq, occ, direct_line, line_pass);
    let xray_diagonal = extend_through(S::bishop, sq, occ, direct_diagonal, diagonal_pass);
    let xray = xray_line | xray_diagonal;
    let direct = direct_line | direct_diagonal;
    let passed = ((direct_line | xray_line) & line_pass) | ((direct_diagonal | xray_diagonal) & diagonal_pass);
    let walked = direct | xray;
    let enemy_greater = pos.bb(enemy, PieceType::Queen) | pos.bb(enemy, PieceType::King);
    let if_safe = (!occ | (pos.color_bb(enemy) & !enemy_greater)) & !acc.unsafe_for_queen(color);
    let mobile = walked & (if_safe | enemy_greater);
    acc.queen[color.index()] |= direct;
    acc.queen_xray[color.index()] |= xray;
    if MIRROR {
        mirror_to_words(pos, color, direct, QUEEN_BIT, xray, QUEEN_XRAY);
    }
    let enemy_king_zone = crate::tables::KING_ATTACKS[pos.king_square(enemy).index()];
    PieceMobility {
        mobility: mobile.count() as u8,
        king_walks: (walked & enemy_king_zone).count() as u8,
        through: if passed.is_nonempty() { THROUGH_FRIEND } else { 0 },
        ..PieceMobility::default()
    }
}
