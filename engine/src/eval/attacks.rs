//! The evaluation's shared attack state, in both representations.
//!
//! Old: the attack word of every square (the bits below), stored in the 0x88
//! board's off-board twin and rebuilt on every full eval. New: eval-local
//! bitboard accumulators per colour and attacker class, OR-ed in the same
//! piece order. "Unsafe for X" means the same in both: a minor fears enemy
//! pawns (0x80), a rook also minors (0xC0), a queen also rooks (0xE0); king
//! and x-ray bits never make a square unsafe.
//!
//! Consumers that are not mobility (king safety, passers, records) read
//! through [`AttackView`], implemented by both, so their code exists once.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::tables::{KING_ATTACKS, PAWN_CAPTURES};
use crate::types::{Color, PieceType, Square};

/// Attack-word bit: attacked by a king.
pub const KING_BIT: u32 = 0x08;
/// Attack-word bit: attacked by a queen.
pub const QUEEN_BIT: u32 = 0x10;
/// Attack-word bit: attacked by a rook.
pub const ROOK_BIT: u32 = 0x20;
/// Attack-word bit: attacked by a minor (knight or bishop).
pub const MINOR_BIT: u32 = 0x40;
/// Attack-word bit: attacked by a pawn.
pub const PAWN_BIT: u32 = 0x80;
/// Attack-word bit: attacked by a queen through a piece.
pub const QUEEN_XRAY: u32 = QUEEN_BIT << 24;
/// Attack-word bit: attacked by a rook through a piece.
pub const ROOK_XRAY: u32 = ROOK_BIT << 24;
/// Attack-word bit: attacked by a bishop through a piece.
pub const BISHOP_XRAY: u32 = MINOR_BIT << 24;

/// Enemy bits that make a square unsafe for a minor.
pub const UNSAFE_FOR_MINOR: u32 = PAWN_BIT;
/// Enemy bits that make a square unsafe for a rook.
pub const UNSAFE_FOR_ROOK: u32 = PAWN_BIT | MINOR_BIT;
/// Enemy bits that make a square unsafe for a queen.
pub const UNSAFE_FOR_QUEEN: u32 = PAWN_BIT | MINOR_BIT | ROOK_BIT;
/// Direct attacks of every class.
pub const DIRECT_BITS: u32 = PAWN_BIT | MINOR_BIT | ROOK_BIT | QUEEN_BIT | KING_BIT;
/// X-ray attacks of every class.
pub const XRAY_BITS: u32 = QUEEN_XRAY | ROOK_XRAY | BISHOP_XRAY;

/// Eval-local attack sets per colour, the bitboard replacement of the
/// attack words. Bishops' x-rays go to `minor_xray`.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Accumulators {
    /// Squares each colour's pawns attack.
    pub pawn: [Bitboard; 2],
    /// Squares each colour's knights and bishops attack.
    pub minor: [Bitboard; 2],
    /// Squares each colour's rooks attack.
    pub rook: [Bitboard; 2],
    /// Squares each colour's queens attack.
    pub queen: [Bitboard; 2],
    /// Squares each colour's king attacks.
    pub king: [Bitboard; 2],
    /// Squares each colour's bishops attack through a piece.
    pub minor_xray: [Bitboard; 2],
    /// Squares each colour's rooks attack through a piece.
    pub rook_xray: [Bitboard; 2],
    /// Squares each colour's queens attack through a piece.
    pub queen_xray: [Bitboard; 2],
    /// The union of every direct class (pawn to king), set by
    /// [`record_king_attacks`], the last record of an evaluation: the views
    /// read it instead of OR-ing five sets each time.
    pub direct: [Bitboard; 2],
}

impl Accumulators {
    /// Squares where a minor of `color` is unsafe.
    #[inline(always)]
    pub fn unsafe_for_minor(&self, color: Color) -> Bitboard {
        self.pawn[color.flip().index()]
    }

    /// Squares where a rook of `color` is unsafe.
    #[inline(always)]
    pub fn unsafe_for_rook(&self, color: Color) -> Bitboard {
        let e = color.flip().index();
        self.pawn[e] | self.minor[e]
    }

    /// Squares where a queen of `color` is unsafe.
    #[inline(always)]
    pub fn unsafe_for_queen(&self, color: Color) -> Bitboard {
        let e = color.flip().index();
        self.pawn[e] | self.minor[e] | self.rook[e]
    }

    /// Record `bits` (attack-word encoding) of `color` on the squares of
    /// `set`: the accumulator twin of OR-ing the words.
    #[inline(always)]
    pub fn record(&mut self, color: Color, bits: u32, set: Bitboard) {
        let c = color.index();
        match bits {
            PAWN_BIT => self.pawn[c] |= set,
            MINOR_BIT => self.minor[c] |= set,
            ROOK_BIT => self.rook[c] |= set,
            QUEEN_BIT => self.queen[c] |= set,
            KING_BIT => self.king[c] |= set,
            BISHOP_XRAY => self.minor_xray[c] |= set,
            ROOK_XRAY => self.rook_xray[c] |= set,
            QUEEN_XRAY => self.queen_xray[c] |= set,
            _ => debug_assert!(false, "not one attack class: {bits:#x}"),
        }
    }
}

/// Read access to the attack state in attack-word encoding.
pub trait AttackView {
    /// The attack word of `sq` for attacker `color`.
    fn word(&self, pos: &Position, sq: Square, color: Color) -> u32;

    /// The squares of `mask` whose `color` word has any of `bits`.
    fn attacked(&self, pos: &Position, color: Color, mask: Bitboard, bits: u32) -> Bitboard;

    /// The attacker classes of `color` present on the squares of `mask`
    /// ([`class_bits`] of the OR of its words there): the king's
    /// attack-pattern index.
    fn classes(&self, pos: &Position, color: Color, mask: Bitboard) -> u8;

    /// The squares of `mask` that `attacker` [`controls`] against the other
    /// side for a piece worth `value`. Square by square from the words
    /// unless the view knows a faster way.
    #[inline(always)]
    fn controlled(&self, pos: &Position, attacker: Color, mask: Bitboard, value: i32) -> Bitboard {
        let defender = attacker.flip();
        let mut out = Bitboard::EMPTY;
        for sq in mask {
            if controls(self.word(pos, sq, attacker), self.word(pos, sq, defender), value) {
                out = out.with(sq);
            }
        }
        out
    }

    /// The squares of `attacked` (pieces of `color` the enemy attacks
    /// directly) whose piece is en prise: the enemy [`controls`] the square
    /// against `color` for that piece's value. Square by square from the
    /// words unless the view knows a faster way.
    #[inline(always)]
    fn en_prise(&self, pos: &Position, color: Color, attacked: Bitboard) -> Bitboard {
        let enemy = color.flip();
        let mut out = Bitboard::EMPTY;
        for sq in attacked {
            if controls(self.word(pos, sq, enemy), self.word(pos, sq, color), pos.piece_on(sq).kind().value()) {
                out = out.with(sq);
            }
        }
        out
    }
}

/// Reads the mailbox attack words, square by square.
#[derive(Copy, Clone, Default)]
pub struct WordsView;

impl AttackView for WordsView {
    #[inline(always)]
    fn word(&self, pos: &Position, sq: Square, color: Color) -> u32 {
        pos.attack_word(sq.to_88(), color)
    }

    #[inline(always)]
    fn attacked(&self, pos: &Position, color: Color, mask: Bitboard, bits: u32) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in mask {
            if pos.attack_word(sq.to_88(), color) & bits != 0 {
                out = out.with(sq);
            }
        }
        out
    }

    #[inline(always)]
    fn classes(&self, pos: &Position, color: Color, mask: Bitboard) -> u8 {
        class_bits(mask.iter().fold(0, |u, sq| u | pos.attack_word(sq.to_88(), color)))
    }
}

impl Accumulators {
    /// The union of `color`'s accumulators whose classes are in `bits`.
    #[inline(always)]
    fn select(&self, color: Color, bits: u32) -> Bitboard {
        let c = color.index();
        let pick = |bit: u32, b: Bitboard| if bits & bit != 0 { b } else { Bitboard::EMPTY };
        let direct = if bits & DIRECT_BITS == DIRECT_BITS {
            self.direct[c]
        } else {
            pick(PAWN_BIT, self.pawn[c])
                | pick(MINOR_BIT, self.minor[c])
                | pick(ROOK_BIT, self.rook[c])
                | pick(QUEEN_BIT, self.queen[c])
                | pick(KING_BIT, self.king[c])
        };
        direct
            | pick(BISHOP_XRAY, self.minor_xray[c])
            | pick(ROOK_XRAY, self.rook_xray[c])
            | pick(QUEEN_XRAY, self.queen_xray[c])
    }
}

// `Accumulators::en_prise` decides by class sets what `controls` decides by
// values; it holds while the classes keep this order of value.
const _: () = {
    let v = crate::types::PIECE_VALUES;
    let (pawn, knight, bishop, rook, queen, king) = (v[0], v[1], v[2], v[3], v[4], v[5]);
    assert!(pawn < knight && knight == bishop && bishop < rook && rook < queen && queen < king);
};

impl AttackView for Accumulators {
    /// For knights, bishops, rooks and queens (what the records ask about).
    /// Set-wise: a piece attacked by anything is en prise when nothing of
    /// its own side defends it, when an enemy pawn attacks it (every piece
    /// is worth more), when it is a rook or queen and an enemy minor
    /// attacks it, or when it is a queen and an enemy rook attacks it — the
    /// cheapest attacker is worth less exactly when some attacker class is.
    #[inline(always)]
    fn en_prise(&self, pos: &Position, color: Color, attacked: Bitboard) -> Bitboard {
        let e = color.flip().index();
        let defended = self.select(color, DIRECT_BITS);
        attacked
            & (!defended
                | self.pawn[e]
                | (pos.rook_likes(color) & self.minor[e])
                | (pos.bb(color, PieceType::Queen) & self.rook[e]))
    }

    /// Set-wise: attacked directly, and either not defended directly or
    /// attacked by a class worth less than `value` (then the cheapest
    /// attacker is, as [`controls`] asks).
    #[inline(always)]
    fn controlled(&self, _: &Position, attacker: Color, mask: Bitboard, value: i32) -> Bitboard {
        let a = attacker.index();
        let cheaper = |kind: PieceType, b: Bitboard| if kind.value() < value { b } else { Bitboard::EMPTY };
        let cheaper_attacks = cheaper(PieceType::Pawn, self.pawn[a])
            | cheaper(PieceType::Knight, self.minor[a])
            | cheaper(PieceType::Rook, self.rook[a])
            | cheaper(PieceType::Queen, self.queen[a])
            | cheaper(PieceType::King, self.king[a]);
        mask & self.select(attacker, DIRECT_BITS) & (!self.select(attacker.flip(), DIRECT_BITS) | cheaper_attacks)
    }

    /// Builds the word from the accumulators, branch-free.
    #[inline(always)]
    fn word(&self, _: &Position, sq: Square, color: Color) -> u32 {
        let c = color.index();
        let i = sq.index();
        let bit = |b: Bitboard| ((b.0 >> i) & 1) as u32;
        bit(self.pawn[c]) << 7
            | bit(self.minor[c]) << 6
            | bit(self.rook[c]) << 5
            | bit(self.queen[c]) << 4
            | bit(self.king[c]) << 3
            | bit(self.minor_xray[c]) << 30
            | bit(self.rook_xray[c]) << 29
            | bit(self.queen_xray[c]) << 28
    }

    #[inline(always)]
    fn attacked(&self, _: &Position, color: Color, mask: Bitboard, bits: u32) -> Bitboard {
        self.select(color, bits) & mask
    }

    /// Set-wise: one class per bit, its direct and x-ray sets together.
    #[inline(always)]
    fn classes(&self, _: &Position, color: Color, mask: Bitboard) -> u8 {
        let c = color.index();
        let any = |b: Bitboard| (b & mask).is_nonempty() as u8;
        any(self.pawn[c])
            | any(self.minor[c] | self.minor_xray[c]) << 1
            | any(self.rook[c] | self.rook_xray[c]) << 2
            | any(self.queen[c] | self.queen_xray[c]) << 3
            | any(self.king[c]) << 4
    }
}

/// Attacker-class bits of a word (x-rays count as their class): pawn 1,
/// minor 2, rook 4, queen 8, king 16.
#[inline(always)]
pub fn class_bits(word: u32) -> u8 {
    let w = word | (word >> 24);
    (((w & PAWN_BIT) != 0) as u8)
        | (((w & MINOR_BIT) != 0) as u8) << 1
        | (((w & ROOK_BIT) != 0) as u8) << 2
        | (((w & QUEEN_BIT) != 0) as u8) << 3
        | (((w & KING_BIT) != 0) as u8) << 4
}

/// Value of the cheapest attacker class in a word's direct bits (pawn is
/// the cheapest), or `None` when nothing attacks directly.
#[inline(always)]
pub fn cheapest_attacker(word: u32) -> Option<i32> {
    let d = word & DIRECT_BITS;
    if d == 0 {
        return None;
    }
    // The highest set bit is the cheapest class.
    Some(match 31 - d.leading_zeros() {
        7 => PieceType::Pawn.value(),
        6 => PieceType::Knight.value(),
        5 => PieceType::Rook.value(),
        4 => PieceType::Queen.value(),
        _ => PieceType::King.value(),
    })
}

/// Does `attacker` control `sq` against `defender` for a piece worth
/// `value` standing (or arriving) there? The exchange on attack classes
/// decides: no attack, no control; an undefended attacked square is
/// controlled; otherwise the attacker controls it when its cheapest
/// attacker is worth less than the piece.
#[inline(always)]
pub fn controls(attacker_word: u32, defender_word: u32, value: i32) -> bool {
    match cheapest_attacker(attacker_word) {
        None => false,
        Some(cheapest) => defender_word & DIRECT_BITS == 0 || cheapest < value,
    }
}

/// Write pawn attacks for both colours, in the stores that are in use.
/// Words: a walk over each pawn list (the old way); accumulators: two shifts.
#[inline(always)]
pub fn record_pawn_attacks(pos: &mut Position, acc: &mut Accumulators, words: bool, accs: bool) {
    for color in Color::ALL {
        if words {
            let n = pos.pawn_list(color).len();
            for i in 0..n {
                let sq = pos.pawn_list(color)[i];
                for &d in &PAWN_CAPTURES[color.index()] {
                    let to = sq.offset(d);
                    if to.is_on_board() {
                        pos.add_attack_bits(to, color, PAWN_BIT);
                    }
                }
            }
        }
        if accs {
            acc.pawn[color.index()] = pos.bb(color, PieceType::Pawn).pawn_attacks(color);
        }
    }
}

/// Write both kings' attack bits (before either king is evaluated, so
/// each side sees the other's king attacks).
#[inline(always)]
pub fn record_king_attacks(pos: &mut Position, acc: &mut Accumulators, words: bool, accs: bool) {
    for color in Color::ALL {
        let k = pos.king_square(color);
        let att = KING_ATTACKS[k.index()];
        if words {
            for &d in &crate::tables::KING_DELTAS {
                let to = k.to_88().offset(d);
                if to.is_on_board() {
                    pos.add_attack_bits(to, color, KING_BIT);
                }
            }
        }
        if accs {
            let c = color.index();
            acc.king[c] = att;
            acc.direct[c] = acc.pawn[c] | acc.minor[c] | acc.rook[c] | acc.queen[c] | att;
        }
    }
}

/// What [`record_king_attacks`] leaves the accumulators besides the king
/// sets: the union of the direct classes, which the views read. For an
/// ablation variant that leaves king attacks out (timing only).
#[inline(always)]
pub fn finish_without_kings(acc: &mut Accumulators, accs: bool) {
    if accs {
        for c in 0..2 {
            acc.direct[c] = acc.pawn[c] | acc.minor[c] | acc.rook[c] | acc.queen[c];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::mobility::{attack_state_before, MobilityInputs};
    use crate::tools::randpos::random_positions;

    /// Both views hold the same attacks (pawns, minors, rooks and kings),
    /// so their set-wise and square-by-square answers must agree for every
    /// piece value, and on the classes attacking each king's ring.
    #[test]
    fn controlled_and_en_prise_agree_between_the_views() {
        let (mut checked, mut class_patterns) = (0, 0u32);
        for mut pos in random_positions(1500, 0xC0A7) {
            let inputs = MobilityInputs::new(&pos, [Bitboard::EMPTY; 2]);
            let mut acc = attack_state_before(&mut pos, &inputs, PieceType::Queen);
            record_king_attacks(&mut pos, &mut acc, true, true);
            for color in Color::ALL {
                for kind in PieceType::ALL {
                    let v = kind.value();
                    let words = WordsView.controlled(&pos, color, Bitboard::FULL, v);
                    assert_eq!(acc.controlled(&pos, color, Bitboard::FULL, v), words, "{kind:?} {}", pos.to_fen());
                    checked += words.count();
                }
                // The records ask about knights, bishops, rooks and queens.
                let pieces = pos.color_bb(color) & !pos.kind_bb(PieceType::Pawn) & !pos.kind_bb(PieceType::King);
                let attacked = WordsView.attacked(&pos, color.flip(), pieces, DIRECT_BITS);
                assert_eq!(acc.en_prise(&pos, color, attacked), WordsView.en_prise(&pos, color, attacked));
                for k in pos.kind_bb(PieceType::King) {
                    let ring = crate::eval::king::ring(k);
                    let classes = WordsView.classes(&pos, color, ring);
                    assert_eq!(acc.classes(&pos, color, ring), classes, "{}", pos.to_fen());
                    class_patterns |= 1 << classes;
                }
            }
        }
        assert!(checked > 10_000, "the positions exercise control ({checked} squares)");
        assert!(class_patterns.count_ones() >= 12, "king rings see {:#x} class patterns", class_patterns);
    }
}
