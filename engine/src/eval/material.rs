//! Material and balance: piece values, bad trades, the bishop pair, and the
//! final scaling for drawish material (opposite lone bishops, a side with
//! nothing but a minor to win with).

use super::weights::Weights;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceType};

/// Non-pawn material without the king, in pawns, capped at 31: several
/// terms scale with the *enemy's* army.
#[inline(always)]
pub fn army(pos: &Position, color: Color) -> i32 {
    ((pos.non_pawn_material(color) - PieceType::King.value()) / 100).clamp(0, 31)
}

/// Minors and majors of `color`.
#[inline(always)]
pub fn piece_count(pos: &Position, color: Color) -> i32 {
    (pos.count(color, PieceType::Knight)
        + pos.count(color, PieceType::Bishop)
        + pos.count(color, PieceType::Rook)
        + pos.count(color, PieceType::Queen)) as i32
}

/// Material of `color` with the weights' piece values.
#[inline(always)]
pub fn material(pos: &Position, w: &Weights, color: Color) -> i32 {
    let n = |k: PieceType| pos.count(color, k) as i32;
    w.material[0] * n(PieceType::Pawn)
        + w.material[1] * n(PieceType::Knight)
        + w.material[2] * n(PieceType::Bishop)
        + w.material[3] * n(PieceType::Rook)
        + w.material[4] * n(PieceType::Queen)
}

/// Bad-trade terms for `color` given both sides' `material`: ahead in
/// pieces, it gains as the other side runs out of pieces; ahead in
/// material, it loses as its own pawns go.
#[inline(always)]
pub fn bad_trades(pos: &Position, w: &Weights, color: Color, material: [i32; 2]) -> i32 {
    let enemy = color.flip();
    let mut score = 0;
    let (mine, theirs) = (piece_count(pos, color), piece_count(pos, enemy));
    if mine > theirs {
        score += w.bad_trade_pieces[theirs.min(7) as usize];
    }
    let ahead = material[color.index()] - material[enemy.index()];
    if ahead >= w.material[0] {
        score -= w.pawn_trade_when_ahead[pos.count(color, PieceType::Pawn).min(8) as usize];
    }
    score
}

/// The bishop pair, by the number of pawns on the board.
pub fn bishop_pair(pos: &Position, w: &Weights, color: Color) -> i32 {
    if pos.bishops_on_shade(color, 0) > 0 && pos.bishops_on_shade(color, 1) > 0 {
        w.bishop_pair[pos.kind_bb(PieceType::Pawn).count().min(16) as usize]
    } else {
        0
    }
}

/// Does `color` have exactly one bishop and no other piece?
fn lone_bishop(pos: &Position, color: Color) -> bool {
    pos.count(color, PieceType::Bishop) == 1 && piece_count(pos, color) == 1
}

/// A lone bishop with pawns on both wings helps its side.
pub fn lone_bishop_wings(pos: &Position, w: &Weights, color: Color) -> i32 {
    let pawns = pos.bb(color, PieceType::Pawn);
    let queen_side = Bitboard(0x0F0F_0F0F_0F0F_0F0F);
    if lone_bishop(pos, color) && (pawns & queen_side).is_nonempty() && (pawns & !queen_side).is_nonempty() {
        w.lone_bishop_both_wings
    } else {
        0
    }
}

/// Scale a White-relative `score` for drawish material. Returns the scaled
/// score; exact integer arithmetic so it is colour-symmetric.
pub fn scale(pos: &Position, score: i32) -> i32 {
    let strong = if score > 0 { Color::White } else { Color::Black };
    let weak = strong.flip();
    // Opposite-coloured lone bishops: halve.
    if lone_bishop(pos, Color::White)
        && lone_bishop(pos, Color::Black)
        && pos.bishops_on_shade(Color::White, 0) != pos.bishops_on_shade(Color::Black, 0)
    {
        return score / 2;
    }
    // No pawns and at most a minor more than the other side: hard to win.
    if pos.count(strong, PieceType::Pawn) == 0 {
        let lead = pos.non_pawn_material(strong) - pos.non_pawn_material(weak);
        if lead <= PieceType::Bishop.value() {
            return score / 8;
        }
    }
    score
}
