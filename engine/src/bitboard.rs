//! `Bitboard`: a set of squares as 64 bits, bit `row * 8 + file` with row 0 =
//! rank 8 (so bit 0 is a8 and bit 63 is h1).
//!
//! "North" (towards rank 8) is a right shift by 8 in this orientation.

use crate::types::{Color, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit `Square::index()` is set for each member (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);

    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Rank 8 is row 0: the low byte.
    pub const RANK_8: Bitboard = Bitboard(0xFF);
    /// Rank 1 is row 7: the high byte.
    pub const RANK_1: Bitboard = Bitboard(0xFF << 56);
    /// The light squares (a8, h1 and their shade).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
    /// The dark squares.
    pub const DARK_SQUARES: Bitboard = Bitboard(!0xAA55_AA55_AA55_AA55);

    /// The file with index `file` (0 = a).
    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Self::FILE_A.0 << file)
    }

    /// The rank with index `rank` (0 = rank 1).
    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xFF << ((7 - rank) * 8))
    }

    /// `color`'s rank `r` counted from its own back rank.
    #[inline(always)]
    pub const fn relative_rank(color: Color, r: u8) -> Bitboard {
        match color {
            Color::White => Self::rank(r),
            Color::Black => Self::rank(7 - r),
        }
    }

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    /// Is the set empty?
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Does the set hold any square?
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// Does the set hold `sq`?
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// How many squares the set holds.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline(always)]
    pub const fn has_many(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Lowest set square (the one nearest a8); the set must be non-empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index(self.0.trailing_zeros() as usize)
    }

    /// Highest set square (the one nearest h1); the set must be non-empty.
    #[inline(always)]
    pub const fn msb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index(63 - self.0.leading_zeros() as usize)
    }

    /// Remove and return the lowest set square.
    #[inline(always)]
    pub fn pop(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        sq
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u64 << sq.index())
    }

    /// The set without `sq`.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u64 << sq.index()))
    }

    /// One step towards rank 8.
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// One step towards rank 1.
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// One step towards the h-file (squares on it drop off).
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 << 1) & !Self::FILE_A.0)
    }

    /// One step towards the a-file (squares on it drop off).
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 >> 1) & !Self::FILE_H.0)
    }

    /// One step forward for `color`'s pawns.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.north(),
            Color::Black => self.south(),
        }
    }

    /// Squares attacked by pawns of `color` standing on `self`.
    #[inline(always)]
    pub const fn pawn_attacks(self, color: Color) -> Bitboard {
        let f = self.forward(color);
        Bitboard(f.east().0 | f.west().0)
    }

    /// Fill towards rank 8 (including the start squares).
    #[inline(always)]
    pub const fn fill_north(self) -> Bitboard {
        let mut b = self.0;
        b |= b >> 8;
        b |= b >> 16;
        b |= b >> 32;
        Bitboard(b)
    }

    /// Fill towards rank 1 (including the start squares).
    #[inline(always)]
    pub const fn fill_south(self) -> Bitboard {
        let mut b = self.0;
        b |= b << 8;
        b |= b << 16;
        b |= b << 32;
        Bitboard(b)
    }

    /// Fill forward for `color` (including the start squares).
    #[inline(always)]
    pub const fn fill_forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.fill_north(),
            Color::Black => self.fill_south(),
        }
    }

    /// Every file holding at least one square of the set.
    #[inline(always)]
    pub const fn file_fill(self) -> Bitboard {
        Bitboard(self.fill_north().0 | self.fill_south().0)
    }

    /// The squares, a8 first.
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

/// Iterates squares from a8 towards h1.
pub struct BitIter(u64);

impl Iterator for BitIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $atrait:ident, $afn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atrait for Bitboard {
            #[inline(always)]
            fn $afn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Eight lines, rank 8 first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for row in 0..8 {
            for file in 0..8 {
                let bit = self.0 >> (row * 8 + file) & 1;
                f.write_str(if bit == 1 { "X" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        let e2 = Square::parse("e2").unwrap();
        let e3 = Square::parse("e3").unwrap();
        assert_eq!(Bitboard::from_square(e2).north(), Bitboard::from_square(e3));
        assert_eq!(Bitboard::from_square(e3).south(), Bitboard::from_square(e2));
        let att = Bitboard::from_square(e2).pawn_attacks(Color::White);
        assert_eq!(att.count(), 2);
        assert!(att.has(Square::parse("d3").unwrap()) && att.has(Square::parse("f3").unwrap()));
        let a2 = Bitboard::from_square(Square::parse("a2").unwrap());
        assert_eq!(a2.pawn_attacks(Color::White).count(), 1);
        assert!(Bitboard::rank(0).has(Square::parse("c1").unwrap()));
        assert!(Bitboard::file(7).has(Square::parse("h5").unwrap()));
        for sq in Square::all() {
            let light = Bitboard::LIGHT_SQUARES.has(sq);
            assert_eq!(light, sq.shade() == 0, "{sq}");
        }
        let mut b = Bitboard(0b1011);
        assert_eq!(b.pop().index(), 0);
        assert_eq!(b.count(), 2);
        assert!(b.has_many());
    }
}
