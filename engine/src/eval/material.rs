//! Material and balance: piece values, bad trades, the bishop pair, and the
//! final scaling for drawish material (opposite lone bishops, a side with
//! nothing but a minor to win with).
//!
//! All of it depends on the piece counts alone, so the evaluation computes
//! it once per material signature ([`MaterialEntry::new`], on a miss of the
//! material table keyed by [`Position::material_key`]) and then reads the
//! entry: the counts change only on captures and promotions, while the same
//! few signatures come back at most nodes of a search.

use super::hash::Keyed;
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
/// score; exact integer arithmetic so it is colour-symmetric. The reference
/// [`MaterialEntry::scale`] is tested against.
#[cfg(test)]
pub fn scale(pos: &Position, score: i32) -> i32 {
    divide(score, scale_divisor(pos, if score > 0 { Color::White } else { Color::Black }))
}

/// `score` divided by a [`scale_divisor`] (1, 2 or 8), each a constant
/// division rather than one by a variable.
#[inline(always)]
fn divide(score: i32, divisor: u8) -> i32 {
    match divisor {
        1 => score,
        2 => score / 2,
        _ => score / 8,
    }
}

/// What [`scale`] divides by when `strong` is the side the score favours:
/// 2 for opposite-coloured lone bishops, 8 for a pawnless side at most a
/// minor ahead, else 1.
fn scale_divisor(pos: &Position, strong: Color) -> u8 {
    let weak = strong.flip();
    // Opposite-coloured lone bishops: halve.
    if lone_bishop(pos, Color::White)
        && lone_bishop(pos, Color::Black)
        && pos.bishops_on_shade(Color::White, 0) != pos.bishops_on_shade(Color::Black, 0)
    {
        return 2;
    }
    // No pawns and at most a minor more than the other side: hard to win.
    if pos.count(strong, PieceType::Pawn) == 0 {
        let lead = pos.non_pawn_material(strong) - pos.non_pawn_material(weak);
        if lead <= PieceType::Bishop.value() {
            return 8;
        }
    }
    1
}

/// Every material-only input of the evaluation for one material signature:
/// the scored terms per colour, the counts other terms scale by, and the
/// drawish-material divisor. Built by the functions above, so reading an
/// entry gives exactly what calling them would.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct MaterialEntry {
    /// [`Position::material_key`], mixed (see [`MaterialEntry::table_key`]).
    pub(crate) key: u64,
    /// [`material`] per colour.
    pub material: [i32; 2],
    /// [`bad_trades`] per colour.
    pub bad_trades: [i32; 2],
    /// [`bishop_pair`] per colour.
    pub bishop_pair: [i32; 2],
    /// [`army`] per colour.
    pub army: [i32; 2],
    /// [`piece_count`] per colour.
    pub pieces: [u8; 2],
    /// A lone bishop and no other piece, per colour (the only case where
    /// [`lone_bishop_wings`] can score).
    pub lone_bishop: [bool; 2],
    /// [`scale_divisor`] by the stronger side.
    divisor: [u8; 2],
    /// Rooks and queens on the board, both colours, capped at 4: the index
    /// of the doubled-pawn weight. Kept here (in the entry's padding) so an
    /// evaluation that may exit lazily does not count them.
    pub majors: u8,
}

// `majors` fits in what was padding: the entry stays 48 bytes, so the
// table keeps its number of slots.
const _: () = assert!(std::mem::size_of::<MaterialEntry>() == 48);

impl MaterialEntry {
    /// The entry for `pos`'s material.
    pub fn new(pos: &Position, w: &Weights) -> MaterialEntry {
        let material = Color::ALL.map(|c| self::material(pos, w, c));
        MaterialEntry {
            key: Self::table_key(pos.material_key()),
            material,
            bad_trades: Color::ALL.map(|c| bad_trades(pos, w, c, material)),
            bishop_pair: Color::ALL.map(|c| bishop_pair(pos, w, c)),
            army: Color::ALL.map(|c| army(pos, c)),
            pieces: Color::ALL.map(|c| piece_count(pos, c) as u8),
            lone_bishop: Color::ALL.map(|c| lone_bishop(pos, c)),
            divisor: Color::ALL.map(|c| scale_divisor(pos, c)),
            majors: (pos.kind_bb(PieceType::Rook) | pos.kind_bb(PieceType::Queen)).count().min(4) as u8,
        }
    }

    /// The table's key for a material key: a bijection (an odd multiplier,
    /// then a rotation), so keys stay exact, that spreads every count into
    /// the low bits the table indexes by. Bit 48, above the counts, is set
    /// first so no position maps to 0, the key of an empty slot.
    #[inline(always)]
    pub fn table_key(material_key: u64) -> u64 {
        (material_key | 1 << 48).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(24)
    }

    /// [`lone_bishop_wings`] for `color`, reading the pawns only when the
    /// material allows the term.
    #[inline(always)]
    pub fn lone_bishop_wings(&self, pos: &Position, w: &Weights, color: Color) -> i32 {
        if self.lone_bishop[color.index()] {
            lone_bishop_wings(pos, w, color)
        } else {
            0
        }
    }

    /// [`scale`] from the entry.
    #[inline(always)]
    pub fn scale(&self, score: i32) -> i32 {
        divide(score, self.divisor[if score > 0 { 0 } else { 1 }])
    }
}

impl Keyed for MaterialEntry {
    fn matches(&self, key: u64) -> bool {
        self.key == key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::randpos::random_positions;
    use std::collections::HashMap;

    #[test]
    fn material_key_is_the_counts_and_bishop_shades_exactly() {
        let key = |fen: &str| Position::from_fen(fen).unwrap().material_key();
        // Same men on other squares (bishops on the same shades): one key.
        assert_eq!(key("4k3/8/8/8/8/8/PPP5/2B1K2R w - - 0 1"), key("4k3/8/8/8/5B2/8/1PP2P2/R3K3 w - - 0 1"));
        // A bishop moved to the other shade, a pawn more, a side swapped: new keys.
        assert_ne!(key("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), key("4k3/8/8/8/8/8/8/3BK3 w - - 0 1"));
        assert_ne!(key("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), key("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1"));
        assert_ne!(key("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), key("3qk3/8/8/8/8/8/8/4K3 w - - 0 1"));
        assert_eq!(key("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0, "bare kings add nothing");
    }

    #[test]
    fn entries_follow_the_material_key_and_table_keys_are_distinct() {
        let w = Weights::default();
        let mut seen: HashMap<u64, (MaterialEntry, String)> = HashMap::new();
        let mut table_keys = HashMap::new();
        for pos in random_positions(3000, 0x3A7F) {
            let e = MaterialEntry::new(&pos, &w);
            assert_ne!(e.key, 0, "a table key must never look like an empty slot");
            let prev = table_keys.insert(e.key, pos.material_key());
            assert!(prev.is_none_or(|k| k == pos.material_key()), "two material keys share a table key");
            for score in [-300, -1, 0, 1, 300] {
                assert_eq!(e.scale(score), scale(&pos, score), "{}", pos.to_fen());
            }
            match seen.get(&pos.material_key()) {
                Some((first, fen)) => assert_eq!(&e, first, "{} and {fen} share material", pos.to_fen()),
                None => {
                    seen.insert(pos.material_key(), (e, pos.to_fen()));
                }
            }
        }
        assert!(seen.len() > 100, "only {} material signatures", seen.len());
    }
}
