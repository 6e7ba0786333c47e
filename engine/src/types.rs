//! The small value types every other module speaks: colours, piece types,
//! piece codes, the two square numberings and castling rights.
//!
//! Square numbering: the 0x88 index is `row * 16 + file` and the
//! 64-square index is `row * 8 + file`, with row 0 = rank 8. So a8 is 0 in
//! both, h1 is 0x77 in 0x88 and 63 in the 64-square index, and "towards
//! rank 8" is a negative step in both.

use std::fmt;

/// Side: White or Black.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Moves first from the start position.
    White = 0,
    /// Moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: the index of per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The colour of index 0 (White) or 1 (Black).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Color {
        if i & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// +1 for White, -1 for Black: turns a White-relative score into one
    /// relative to this side.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        1 - 2 * (self as i32)
    }

    /// `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// Kind of piece, independent of colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// A pawn.
    Pawn = 0,
    /// A knight.
    Knight = 1,
    /// A bishop.
    Bishop = 2,
    /// A rook.
    Rook = 3,
    /// A queen.
    Queen = 4,
    /// The king.
    King = 5,
}

impl PieceType {
    /// Every piece type, pawn first, in index order.
    pub const ALL: [PieceType; 6] =
        [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King];
    /// Promotion choices, best first.
    pub const PROMOTIONS: [PieceType; 4] = [PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight];

    /// 0 for a pawn up to 5 for a king: the index of per-type arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece type of index `i`; indices past the queen give the king.
    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceType {
        // Branch-free: indices past the queen (including the wrapped
        // index of an empty piece) are the king, as a catch-all match arm
        // would give.
        let i = if i < 5 { i } else { 5 };
        // SAFETY: `PieceType` is `repr(u8)` with discriminants 0..=5.
        unsafe { core::mem::transmute::<u8, PieceType>(i as u8) }
    }

    /// Material value used by SEE and the material tallies: pawn 100,
    /// knight and bishop 300, rook 500, queen 975.
    /// The king's value only matters for the "king included" material test
    /// of the defect count and for ordering a king last.
    #[inline(always)]
    pub const fn value(self) -> i32 {
        PIECE_VALUES[self as usize]
    }

    /// Lower-case letter (`p n b r q k`).
    pub const fn letter(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// The piece type of a FEN letter, either case.
    pub fn from_letter(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        })
    }

    /// Bishop, rook or queen?
    #[inline(always)]
    pub const fn is_slider(self) -> bool {
        matches!(self, PieceType::Bishop | PieceType::Rook | PieceType::Queen)
    }
}

/// P 100, N 300, B 300, R 500, Q 975, K 10000.
pub const PIECE_VALUES: [i32; 6] = [100, 300, 300, 500, 975, 10_000];

/// A coloured piece or nothing, as the mailbox stores it: `(type + 1) << 1 |
/// colour`, so 0 is empty, 2/3 are the white/black pawn, ..., 12/13 the kings.
/// Per-piece tables indexed by the code have [`Piece::TABLE_SIZE`] entries.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// The empty square.
    pub const EMPTY: Piece = Piece(0);
    /// Entries of a table indexed by [`Piece::code`].
    pub const TABLE_SIZE: usize = 14;

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece((((kind as u8) + 1) << 1) | color as u8)
    }

    /// The piece with this code; `None` for codes that are not a piece.
    #[inline(always)]
    pub const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || (code >= 2 && code < 14) {
            Some(Piece(code))
        } else {
            None
        }
    }

    /// The piece with this code, or [`Piece::EMPTY`] for codes that are not
    /// a piece: one table load, no branch (the board and the move encoding
    /// decode pieces on every node).
    #[inline(always)]
    pub fn from_code_or_empty(code: u8) -> Piece {
        Piece(PIECE_CODES[code as usize])
    }

    /// The mailbox code: `(type + 1) << 1 | colour`, 0 for empty.
    #[inline(always)]
    pub const fn code(self) -> u8 {
        self.0
    }

    /// The code as a table index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Is this the empty square's code?
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Colour of a non-empty piece.
    #[inline(always)]
    pub const fn color(self) -> Color {
        Color::from_index((self.0 & 1) as usize)
    }

    /// Type of a non-empty piece.
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        PieceType::from_index(((self.0 >> 1) as usize).wrapping_sub(1))
    }

    /// Is this the piece of `color` and `kind`?
    #[inline(always)]
    pub const fn is(self, color: Color, kind: PieceType) -> bool {
        self.0 == Piece::new(color, kind).0
    }

    /// FEN letter: upper case for White.
    pub fn letter(self) -> char {
        if self.is_empty() {
            return '.';
        }
        let c = self.kind().letter();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece of a FEN letter: upper case for White.
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = PieceType::from_letter(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece::new(color, kind))
    }
}

/// `code` where it is a piece's code, else 0 ([`Piece::from_code_or_empty`]).
static PIECE_CODES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut code = 0;
    while code < 256 {
        if let Some(p) = Piece::from_code(code as u8) {
            t[code] = p.0;
        }
        code += 1;
    }
    t
};

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Piece({})", self.letter())
    }
}

/// A square of the 64-square index: `row * 8 + file`, row 0 = rank 8.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// A square of the 0x88 board: `row * 16 + file`, row 0 = rank 8. Indices with
/// bit 0x88 set are off the board; `sq | 8` is the off-board twin holding
/// the square's attack words.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square88(u8);

impl Square {
    /// From file (0 = a) and rank (0 = rank 1).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square((7 - rank) * 8 + file)
    }

    /// From a raw index 0..64; panics in debug builds if out of range.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        debug_assert!(i < 64);
        Square(i as u8)
    }

    /// The 64-square index: `row * 8 + file`, a8 = 0, h1 = 63.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 = a-file.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 = rank 1.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        7 - (self.0 >> 3)
    }

    /// 0 = rank 8 (the board's row index).
    #[inline(always)]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// Rank counted from `color`'s own back rank (0 = back rank).
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// 0 for light squares, 1 for dark squares (a1 is dark).
    #[inline(always)]
    pub const fn shade(self) -> usize {
        (((self.0 & 7) + (self.0 >> 3)) & 1) as usize
    }

    /// The same square in 0x88 numbering.
    #[inline(always)]
    pub const fn to_88(self) -> Square88 {
        Square88(self.0 + (self.0 & !7))
    }

    /// Parse `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square::new(file, rank))
    }

    /// Every square, a8 first, h1 last.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }
}

impl Square88 {
    /// From file (0 = a) and rank (0 = rank 1).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square88 {
        Square88((7 - rank) * 16 + file)
    }

    /// From a raw 0x88 index; the result may be off the board.
    #[inline(always)]
    pub const fn from_raw(i: u8) -> Square88 {
        Square88(i)
    }

    /// The raw 0x88 index, as [`from_raw`](Self::from_raw) takes it.
    #[inline(always)]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// The raw 0x88 index as a table index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Is the square on the board (no bit of 0x88 set)?
    #[inline(always)]
    pub const fn is_on_board(self) -> bool {
        self.0 & 0x88 == 0
    }

    /// The off-board twin holding this square's attack words.
    #[inline(always)]
    pub const fn twin(self) -> usize {
        (self.0 | 8) as usize
    }

    /// Step by a 0x88 delta; the result may be off the board.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square88 {
        Square88(self.0.wrapping_add(delta as u8))
    }

    /// 0 = a-file.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 = rank 1.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        7 - (self.0 >> 4)
    }

    /// The rank counted from `color`'s side: 0 is its back rank.
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    /// Conversion to the 64-square index (on-board squares only).
    #[inline(always)]
    pub const fn to_64(self) -> Square {
        Square((self.0 + (self.0 & 7)) >> 1)
    }

    /// Index into the 240-entry difference tables for `to - from`.
    #[inline(always)]
    pub const fn diff_index(from: Square88, to: Square88) -> usize {
        (to.0 as usize + 119) - from.0 as usize
    }

    /// Every on-board square, a8 first, h1 last.
    pub fn all() -> impl Iterator<Item = Square88> {
        Square::all().map(Square::to_88)
    }
}

impl From<Square> for Square88 {
    #[inline(always)]
    fn from(s: Square) -> Square88 {
        s.to_88()
    }
}

impl From<Square88> for Square {
    #[inline(always)]
    fn from(s: Square88) -> Square {
        s.to_64()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Square88 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_on_board() {
            fmt::Display::fmt(&self.to_64(), f)
        } else {
            write!(f, "off({:#04x})", self.0)
        }
    }
}

impl fmt::Debug for Square88 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Castling rights as four bits: White king side, White queen side, Black
/// king side, Black queen side.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct CastleRights(u8);

impl CastleRights {
    /// No rights.
    pub const NONE: CastleRights = CastleRights(0);
    /// All four rights.
    pub const ALL: CastleRights = CastleRights(15);
    /// White may castle king side.
    pub const WHITE_KING: u8 = 1;
    /// White may castle queen side.
    pub const WHITE_QUEEN: u8 = 2;
    /// Black may castle king side.
    pub const BLACK_KING: u8 = 4;
    /// Black may castle queen side.
    pub const BLACK_QUEEN: u8 = 8;

    /// The rights of the four low bits of `bits`.
    #[inline(always)]
    pub const fn from_bits(bits: u8) -> CastleRights {
        CastleRights(bits & 15)
    }

    /// The rights as four bits.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Is the right `bit` (one of the four constants) held?
    #[inline(always)]
    pub const fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    /// The king-side bit of `color`.
    #[inline(always)]
    pub const fn king_side(color: Color) -> u8 {
        match color {
            Color::White => Self::WHITE_KING,
            Color::Black => Self::BLACK_KING,
        }
    }

    /// The queen-side bit of `color`.
    #[inline(always)]
    pub const fn queen_side(color: Color) -> u8 {
        match color {
            Color::White => Self::WHITE_QUEEN,
            Color::Black => Self::BLACK_QUEEN,
        }
    }

    /// Both bits of `color`.
    #[inline(always)]
    pub const fn either(color: Color) -> u8 {
        Self::king_side(color) | Self::queen_side(color)
    }

    /// These rights without `bits`.
    #[inline(always)]
    pub const fn remove(self, bits: u8) -> CastleRights {
        CastleRights(self.0 & !bits)
    }

    /// These rights with `bits` added.
    #[inline(always)]
    pub const fn with(self, bits: u8) -> CastleRights {
        CastleRights(self.0 | bits)
    }
}

impl fmt::Display for CastleRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (bit, c) in
            [(Self::WHITE_KING, 'K'), (Self::WHITE_QUEEN, 'Q'), (Self::BLACK_KING, 'k'), (Self::BLACK_QUEEN, 'q')]
        {
            if self.has(bit) {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_conversions_round_trip() {
        for sq in Square::all() {
            let s88 = sq.to_88();
            assert!(s88.is_on_board());
            assert_eq!(s88.to_64(), sq);
            assert_eq!(s88.file(), sq.file());
            assert_eq!(s88.rank(), sq.rank());
        }
        assert_eq!(Square::parse("a8").unwrap().index(), 0);
        assert_eq!(Square::parse("h1").unwrap().index(), 63);
        assert_eq!(Square::parse("h1").unwrap().to_88().raw(), 0x77);
        assert_eq!(Square::parse("e4").unwrap().to_string(), "e4");
        assert!(Square::parse("i1").is_none());
        assert!(Square::parse("a9").is_none());
        assert!(Square::parse("a").is_none());
    }

    #[test]
    fn piece_codes() {
        for color in Color::ALL {
            for kind in PieceType::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), kind);
                assert!(p.index() < Piece::TABLE_SIZE && p.index() >= 2);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert!(Piece::EMPTY.is_empty());
        assert_eq!(Piece::from_code(1), None);
        assert_eq!(Piece::from_code(14), None);
    }

    #[test]
    fn shades() {
        assert_eq!(Square::parse("a1").unwrap().shade(), 1);
        assert_eq!(Square::parse("h1").unwrap().shade(), 0);
        assert_eq!(Square::parse("a8").unwrap().shade(), 0);
        assert_eq!(Square::parse("d4").unwrap().shade(), 1);
    }
}
