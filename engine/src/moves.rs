//! `Move`: one compact 32-bit word carrying everything make/unmake and move
//! ordering need, and `MoveList`, a fixed-capacity list that never allocates.
//!
//! Layout: bits 0-7 from (0x88), 8-15 to (0x88), 16-19 moved piece code,
//! 20-23 captured piece code, 24-27 promotion piece code, 28-31 flags.

use crate::fixed_vec::FixedVec;
use crate::types::{Piece, PieceType, Square88};
use std::fmt;

/// A move in one 32-bit word (layout in the module docs); the null move is all zeros.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u32);

/// The kind of the piece in each 4-bit piece field of a move, as
/// `Piece::from_code_or_empty(field).kind()` gives it (the empty piece's
/// kind is the king's), and that kind's value: one load per field where
/// the piece's accessors take a validating load, a shift, a subtract and a
/// clamp. The search and SEE decode several fields of every capture.
static FIELD_KIND: [PieceType; 16] = {
    let mut t = [PieceType::King; 16];
    let mut field = 0;
    while field < 16 {
        if let Some(p) = Piece::from_code(field as u8) {
            t[field] = p.kind();
        }
        field += 1;
    }
    t
};
static FIELD_VALUE: [i32; 16] = {
    let mut t = [0; 16];
    let mut field = 0;
    while field < 16 {
        t[field] = FIELD_KIND[field].value();
        field += 1;
    }
    t
};

impl Move {
    /// No move: a null move, or no best move.
    pub const NULL: Move = Move(0);

    /// Flag: castling (the king's move; make moves the rook too).
    pub const FLAG_CASTLE: u32 = 1;
    /// Flag: en passant.
    pub const FLAG_EN_PASSANT: u32 = 2;
    /// Flag: a pawn's double push.
    pub const FLAG_DOUBLE_PUSH: u32 = 4;

    /// A move from its squares, pieces (empty where none) and flags.
    #[inline(always)]
    pub const fn new(
        from: Square88,
        to: Square88,
        moved: Piece,
        captured: Piece,
        promotion: Piece,
        flags: u32,
    ) -> Move {
        Move(
            from.raw() as u32
                | (to.raw() as u32) << 8
                | (moved.code() as u32) << 16
                | (captured.code() as u32) << 20
                | (promotion.code() as u32) << 24
                | flags << 28,
        )
    }

    /// A quiet move or capture without special flags.
    #[inline(always)]
    pub const fn normal(from: Square88, to: Square88, moved: Piece, captured: Piece) -> Move {
        Move::new(from, to, moved, captured, Piece::EMPTY, 0)
    }

    /// The 32-bit encoding.
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The move with this encoding.
    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Move {
        Move(raw)
    }

    /// Is this the null move?
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square88 {
        Square88::from_raw(self.0 as u8)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square88 {
        Square88::from_raw((self.0 >> 8) as u8)
    }

    /// Bits 8-19, the destination (0x88) and the moved piece's code side
    /// by side: a 12-bit index distinct for every (piece, destination).
    #[inline(always)]
    pub const fn piece_to_index(self) -> usize {
        (self.0 >> 8) as usize & 0xFFF
    }

    /// The moving piece.
    #[inline(always)]
    pub fn moved(self) -> Piece {
        Piece::from_code_or_empty(((self.0 >> 16) & 15) as u8)
    }

    /// The captured piece (the pawn for en passant), or empty.
    #[inline(always)]
    pub fn captured(self) -> Piece {
        Piece::from_code_or_empty(((self.0 >> 20) & 15) as u8)
    }

    /// The piece a pawn promotes to, or empty.
    #[inline(always)]
    pub fn promotion(self) -> Piece {
        Piece::from_code_or_empty(((self.0 >> 24) & 15) as u8)
    }

    /// `self.moved().kind()` with one load.
    #[inline(always)]
    pub fn moved_kind(self) -> PieceType {
        FIELD_KIND[((self.0 >> 16) & 15) as usize]
    }

    /// `self.captured().kind()` with one load (the king's kind when
    /// nothing is captured).
    #[inline(always)]
    pub fn captured_kind(self) -> PieceType {
        FIELD_KIND[((self.0 >> 20) & 15) as usize]
    }

    /// `self.moved().kind().value()` with one load.
    #[inline(always)]
    pub fn moved_value(self) -> i32 {
        FIELD_VALUE[((self.0 >> 16) & 15) as usize]
    }

    /// `self.captured().kind().value()` with one load (the king's value
    /// when nothing is captured: test [`is_capture`](Self::is_capture)).
    #[inline(always)]
    pub fn captured_value(self) -> i32 {
        FIELD_VALUE[((self.0 >> 20) & 15) as usize]
    }

    /// The material a capture or promotion gains on the spot: the victim,
    /// plus the promoted piece less its pawn (SEE's first gain, the
    /// search's delta pruning).
    #[inline(always)]
    pub fn material_gain(self) -> i32 {
        let mut gain = if self.is_capture() { self.captured_value() } else { 0 };
        if self.is_promotion() {
            gain += self.promotion().kind().value() - PieceType::Pawn.value();
        }
        gain
    }

    /// The flags (`FLAG_*`).
    #[inline(always)]
    pub const fn flags(self) -> u32 {
        self.0 >> 28
    }

    /// Does it capture (en passant included)?
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (15 << 20) != 0
    }

    /// Does it promote?
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (15 << 24) != 0
    }

    /// Capture or promotion: the moves quiescence search looks at.
    #[inline(always)]
    pub const fn is_tactical(self) -> bool {
        self.0 & (0xFF << 20) != 0
    }

    /// A move that neither captures nor promotes and carries no flag (no
    /// castling, en passant or double push): make and unmake move one piece
    /// and nothing else. The null move is one too.
    #[inline(always)]
    pub const fn is_plain_quiet(self) -> bool {
        self.0 & (0xFFF << 20) == 0
    }

    /// Is it castling?
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flags() & Self::FLAG_CASTLE != 0
    }

    /// Is it an en-passant capture?
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.flags() & Self::FLAG_EN_PASSANT != 0
    }

    /// Is it a pawn's double push?
    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        self.flags() & Self::FLAG_DOUBLE_PUSH != 0
    }

    /// The move in UCI long algebraic notation without allocating.
    pub fn uci(self) -> UciMove {
        let mut buf = [0u8; 5];
        if self.is_null() {
            buf[..4].copy_from_slice(b"0000");
            return UciMove { buf, len: 4 };
        }
        let (f, t) = (self.from(), self.to());
        buf[0] = b'a' + f.file();
        buf[1] = b'1' + f.rank();
        buf[2] = b'a' + t.file();
        buf[3] = b'1' + t.rank();
        let mut len = 4;
        if self.is_promotion() {
            buf[4] = self.promotion().kind().letter() as u8;
            len = 5;
        }
        UciMove { buf, len }
    }

    /// The promotion kind, if any.
    pub fn promotion_kind(self) -> Option<PieceType> {
        self.is_promotion().then(|| self.promotion().kind())
    }
}

/// A move's UCI text in a fixed buffer.
#[derive(Copy, Clone)]
pub struct UciMove {
    buf: [u8; 5],
    len: usize,
}

impl UciMove {
    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("????")
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.uci().as_str())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}", self.uci())?;
        if self.is_capture() {
            write!(f, " x{}", self.captured().letter())?;
        }
        if self.flags() != 0 {
            write!(f, " flags={}", self.flags())?;
        }
        f.write_str(")")
    }
}

/// Upper bound on legal moves in any position (218) with headroom.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity move list on the stack.
pub type MoveList = FixedVec<Move, MAX_MOVES>;

/// Pushes onto a [`MoveList`] with the length kept in a register (see
/// [`FixedVec::appender`]).
pub type MoveAppender<'a> = crate::fixed_vec::Appender<'a, Move, MAX_MOVES>;

impl FixedVec<Move, MAX_MOVES> {
    /// Does the list hold `m`?
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, Square};

    #[test]
    fn fields_round_trip() {
        let from = Square::parse("e7").unwrap().to_88();
        let to = Square::parse("d8").unwrap().to_88();
        let m = Move::new(
            from,
            to,
            Piece::new(Color::White, PieceType::Pawn),
            Piece::new(Color::Black, PieceType::Rook),
            Piece::new(Color::White, PieceType::Knight),
            0,
        );
        assert_eq!(m.from(), from);
        assert_eq!(m.to(), to);
        assert_eq!(m.moved(), Piece::new(Color::White, PieceType::Pawn));
        assert_eq!(m.captured(), Piece::new(Color::Black, PieceType::Rook));
        assert!(m.is_capture() && m.is_promotion() && m.is_tactical());
        assert_eq!(m.uci().as_str(), "e7d8n");
        assert_eq!(Move::NULL.uci().as_str(), "0000");
    }

    #[test]
    fn list_push_and_slice() {
        let mut l = MoveList::new();
        assert!(l.is_empty());
        let m = Move::from_raw(0x1234);
        l.push(m);
        l.push(Move::from_raw(7));
        assert_eq!(l.len(), 2);
        assert_eq!(l[0], m);
        assert!(l.contains(Move::from_raw(7)));
        for _ in 0..300 {
            l.push(m);
        }
        assert_eq!(l.len(), MAX_MOVES);
    }
}
