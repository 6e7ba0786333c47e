//! `Position`: one chess position kept in two representations at once
//! (ARCHITECTURE.md, "Position and its primitives").
//!
//! * Mailbox (old): a 128-entry 0x88 array. On-board cell `sq` holds the
//!   piece code and the piece's index in its colour's list; the off-board
//!   twin `sq | 8` holds the square's attack words, one per colour, which the
//!   mailbox evaluation rebuilds on every full eval. Piece lists: pawns per
//!   colour, non-pawns per colour with the king at index 0. Counts, non-pawn
//!   material (king included) and bishop counts per square shade, and the
//!   same counts packed into one word, the material key.
//! * Bitboards (new): per colour and type, per colour, and all pieces.
//!
//! The invariants between them are kept by three primitives only,
//! `slide_known`, `lift_known` and `place_known` (in `board.rs`), each in a
//! hashing form for make and a non-hashing form for unmake. Nothing else
//! writes the board.

mod board;
pub mod epd;
pub(crate) mod fen;
mod make;
pub(crate) mod verify;
pub(crate) mod zobrist;

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::sliders::{FastSliders, Sliders};
use crate::tables::{BISHOP_LINES, KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS, ROOK_LINES};
use crate::types::{CastleRights, Color, Piece, PieceType, Square, Square88};

pub use epd::{Epd, EpdError};
pub use fen::{FenError, START_FEN};
pub use verify::VerifyError;

/// Maximum pawns per side in a legal position.
pub const MAX_PAWNS: usize = 8;
/// Maximum non-pawns (king included) per side in a legal position.
pub const MAX_NON_PAWNS: usize = 16;

/// What one piece of `color` and `kind` standing on a square of `shade`
/// adds to [`Position::material_key`] (kings add nothing). No count exceeds
/// 15 in a position that passes [`Position::verify`] (at most 15 non-pawns
/// besides the king), so the nibbles never carry into each other.
#[inline(always)]
pub const fn material_unit(color: Color, kind: PieceType, shade: usize) -> u64 {
    let nibble = match kind {
        PieceType::Pawn => 0,
        PieceType::Knight => 1,
        PieceType::Bishop => 2 + shade,
        PieceType::Rook => 4,
        PieceType::Queen => 5,
        PieceType::King => return 0,
    };
    1 << (24 * color.index() + 4 * nibble)
}

/// One 0x88 cell: `[piece code, list index]` on the board,
/// `[white attack word, black attack word]` on the off-board twin.
type Cell = [u32; 2];

/// The state a move changes that unmake cannot recompute from the move.
/// Kept as one block in [`Position`] so make saves it, and unmake restores
/// it, with one copy of the whole rather than a load and store per field.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Irreversible {
    pub key: u64,
    pub pawn_key: u64,
    /// Wider than any FEN gives it (at most 65535) plus the plies a game
    /// could add: it never wraps.
    pub halfmove: u32,
    pub castling: CastleRights,
    pub ep: Option<Square88>,
}

/// What make() saves so unmake() can take the move back.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    pub state: Irreversible,
}

/// A chess position in both representations (see the module docs), with the
/// history make/unmake need.
#[derive(Clone)]
pub struct Position {
    cells: [Cell; 128],
    pawn_list: [[Square88; MAX_PAWNS]; 2],
    pawn_count: [u8; 2],
    piece_list: [[Square88; MAX_NON_PAWNS]; 2],
    piece_count: [u8; 2],
    type_count: [[u8; 6]; 2],
    non_pawn_material: [i32; 2],
    bishop_shades: [[u8; 2]; 2],
    material_key: u64,
    by_type: [[Bitboard; 6]; 2],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
    side: Color,
    /// The FEN fullmove number when `history` was last empty; the current
    /// number is derived from it and the moves made since
    /// ([`fullmove_number`](Self::fullmove_number)), so make and unmake
    /// keep no counter.
    fullmove_base: u16,
    /// Whether Black was to move when `history` was last empty.
    black_at_base: bool,
    state: Irreversible,
    history: Vec<Undo>,
}

impl Position {
    /// An empty board with White to move and no rights; the FEN parser fills
    /// it through `place`.
    pub(crate) fn empty() -> Position {
        Position {
            cells: [[0; 2]; 128],
            pawn_list: [[Square88::from_raw(0x88); MAX_PAWNS]; 2],
            pawn_count: [0; 2],
            piece_list: [[Square88::from_raw(0x88); MAX_NON_PAWNS]; 2],
            piece_count: [0; 2],
            type_count: [[0; 6]; 2],
            non_pawn_material: [0; 2],
            bishop_shades: [[0; 2]; 2],
            material_key: 0,
            by_type: [[Bitboard::EMPTY; 6]; 2],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            side: Color::White,
            fullmove_base: 1,
            black_at_base: false,
            state: Irreversible { key: 0, pawn_key: 0, halfmove: 0, castling: CastleRights::NONE, ep: None },
            history: Vec::new(),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start position parses")
    }

    // ----- mailbox -----

    /// Piece on an on-board 0x88 square (empty for none).
    #[inline(always)]
    pub fn piece_at(&self, sq: Square88) -> Piece {
        debug_assert!(sq.is_on_board());
        Piece::from_code_or_empty(self.cells[sq.index()][0] as u8)
    }

    /// Piece on a 64-index square.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.piece_at(sq.to_88())
    }

    /// Index of the piece on `sq` in its colour's pawn or non-pawn list.
    #[inline(always)]
    pub fn list_index(&self, sq: Square88) -> usize {
        self.cells[sq.index()][1] as usize
    }

    /// The attack word of `sq` for `color` (bits in
    /// [`eval::attacks`](crate::eval::attacks)), stored in the
    /// square's off-board twin.
    #[inline(always)]
    pub fn attack_word(&self, sq: Square88, color: Color) -> u32 {
        self.cells[sq.twin()][color.index()]
    }

    /// OR bits into the attack word of `sq` for `color`.
    #[inline(always)]
    pub fn add_attack_bits(&mut self, sq: Square88, color: Color, bits: u32) {
        self.cells[sq.twin()][color.index()] |= bits;
    }

    /// Zero every square's attack words (start of a mailbox full eval).
    #[inline]
    pub fn clear_attack_words(&mut self) {
        for row in 0..8 {
            for file in 8..16 {
                self.cells[row * 16 + file] = [0; 2];
            }
        }
    }

    /// Squares of `color`'s pawns, in list order.
    #[inline(always)]
    pub fn pawn_list(&self, color: Color) -> &[Square88] {
        &self.pawn_list[color.index()][..self.pawn_count[color.index()] as usize]
    }

    /// Squares of `color`'s non-pawns, king first.
    #[inline(always)]
    pub fn piece_list(&self, color: Color) -> &[Square88] {
        &self.piece_list[color.index()][..self.piece_count[color.index()] as usize]
    }

    /// The square of `color`'s king, 0x88.
    #[inline(always)]
    pub fn king_square88(&self, color: Color) -> Square88 {
        self.piece_list[color.index()][0]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        // The king bitboard has one bit: one load and a bit scan, cheaper
        // than converting the list's 0x88 square. The mask changes nothing
        // for that bit; it bounds the index for the compiler, so the
        // 64-entry tables the square indexes need no bounds check.
        Square::from_index(self.by_type[color.index()][PieceType::King.index()].lsb().index() & 63)
    }

    /// Number of `kind` pieces of `color`.
    #[inline(always)]
    pub fn count(&self, color: Color, kind: PieceType) -> u32 {
        self.type_count[color.index()][kind.index()] as u32
    }

    /// Non-pawn material of `color`, king included (the defect count's
    /// material test reads it).
    #[inline(always)]
    pub fn non_pawn_material(&self, color: Color) -> i32 {
        self.non_pawn_material[color.index()]
    }

    /// Pawn material of `color`.
    #[inline(always)]
    pub fn pawn_material(&self, color: Color) -> i32 {
        self.pawn_count[color.index()] as i32 * PieceType::Pawn.value()
    }

    /// `color`'s bishops standing on light (`shade` 0) or dark (1) squares.
    #[inline(always)]
    pub fn bishops_on_shade(&self, color: Color, shade: usize) -> u32 {
        self.bishop_shades[color.index()][shade] as u32
    }

    /// The material of both sides packed exactly: per colour (White in bits
    /// 0-23, Black in 24-47) four bits each for pawns, knights, bishops on
    /// light squares, bishops on dark squares, rooks and queens. Equal keys
    /// mean equal material, so it keys the evaluation's material table
    /// without collisions. See [`material_unit`].
    #[inline(always)]
    pub fn material_key(&self) -> u64 {
        self.material_key
    }

    /// Men on the board, kings and pawns included.
    #[inline(always)]
    pub fn men(&self) -> u32 {
        self.occupied.count()
    }

    // ----- bitboards -----

    /// `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn bb(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_type[color.index()][kind.index()]
    }

    /// Both colours' pieces of `kind`.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceType) -> Bitboard {
        self.by_type[0][kind.index()] | self.by_type[1][kind.index()]
    }

    /// Every piece of `color`.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Every piece.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Rooks and queens of `color`.
    #[inline(always)]
    pub fn rook_likes(&self, color: Color) -> Bitboard {
        self.bb(color, PieceType::Rook) | self.bb(color, PieceType::Queen)
    }

    /// Bishops and queens of `color`.
    #[inline(always)]
    pub fn bishop_likes(&self, color: Color) -> Bitboard {
        self.bb(color, PieceType::Bishop) | self.bb(color, PieceType::Queen)
    }

    // ----- state -----

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The castling rights.
    #[inline(always)]
    pub fn castling(&self) -> CastleRights {
        self.state.castling
    }

    /// The en-passant target square, if any.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square88> {
        self.state.ep
    }

    /// Half-moves since the last capture or pawn move (the fifty-move rule's
    /// clock).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.state.halfmove
    }

    /// The FEN fullmove number: 1 at the start, up after each Black move
    /// (null moves and passes included), at most 65535.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        let black_moves = (self.history.len() + self.black_at_base as usize) / 2;
        (self.fullmove_base as usize + black_moves).min(u16::MAX as usize) as u32
    }

    /// Zobrist key of the whole position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state.key
    }

    /// Zobrist key of the pawns alone.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.state.pawn_key
    }

    /// Moves made since the position was set up.
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The last move made, if any.
    #[inline(always)]
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// Make room for `plies` more moves so make() does not allocate in a
    /// search.
    pub fn reserve_history(&mut self, plies: usize) {
        self.history.reserve(plies);
    }

    /// Forget the move history (keeps the position). Used after a UCI
    /// `position` command so the history stays bounded.
    pub fn clear_history(&mut self) {
        self.fullmove_base = self.fullmove_number() as u16;
        self.black_at_base = self.side == Color::Black;
        self.history.clear();
    }

    // ----- attacks (bitboard; the mailbox forms live in `attackers`) -----

    /// Pieces of either colour attacking `sq` given occupancy `occupied`:
    /// [`attackers_to_by`](Self::attackers_to_by) for both colours with one
    /// slider probe per line kind instead of one per colour (SEE wants both).
    #[inline(always)]
    pub fn attackers_to<S: Sliders>(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let i = sq.index();
        let pawns = (PAWN_ATTACKS[Color::Black.index()][i] & self.bb(Color::White, PieceType::Pawn))
            | (PAWN_ATTACKS[Color::White.index()][i] & self.bb(Color::Black, PieceType::Pawn));
        let mut all = pawns
            | (KNIGHT_ATTACKS[i] & self.kind_bb(PieceType::Knight))
            | (KING_ATTACKS[i] & self.kind_bb(PieceType::King));
        // `sliders_attacking` written out: through the helper, SEE's set-up
        // compiled to 8 more instructions per call (callgrind, bench depth 7).
        let rook_likes = (self.rook_likes(Color::White) | self.rook_likes(Color::Black)) & ROOK_LINES[i];
        if rook_likes.is_nonempty() {
            all |= S::rook(sq, occupied) & rook_likes;
        }
        let bishop_likes = (self.bishop_likes(Color::White) | self.bishop_likes(Color::Black)) & BISHOP_LINES[i];
        if bishop_likes.is_nonempty() {
            all |= S::bishop(sq, occupied) & bishop_likes;
        }
        all
    }

    /// Pieces of `by` attacking `sq` given occupancy `occupied`.
    #[inline(always)]
    pub fn attackers_to_by<S: Sliders>(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let i = sq.index();
        let pawns = PAWN_ATTACKS[by.flip().index()][i] & self.bb(by, PieceType::Pawn);
        let knights = KNIGHT_ATTACKS[i] & self.bb(by, PieceType::Knight);
        let kings = KING_ATTACKS[i] & self.bb(by, PieceType::King);
        pawns | knights | kings | self.sliders_attacking::<S>(sq, self.rook_likes(by), self.bishop_likes(by), occupied)
    }

    /// The pieces of `rook_likes` and `bishop_likes` that reach `sq` over
    /// `occupied`, probing a slider table only when one of them shares a
    /// line with `sq` (most of the time none does).
    #[inline(always)]
    pub fn sliders_attacking<S: Sliders>(
        &self,
        sq: Square,
        rook_likes: Bitboard,
        bishop_likes: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        let i = sq.index();
        let rook_likes = rook_likes & ROOK_LINES[i];
        let bishop_likes = bishop_likes & BISHOP_LINES[i];
        let rooks = if rook_likes.is_nonempty() { S::rook(sq, occupied) & rook_likes } else { Bitboard::EMPTY };
        let bishops = if bishop_likes.is_nonempty() { S::bishop(sq, occupied) & bishop_likes } else { Bitboard::EMPTY };
        rooks | bishops
    }

    /// Does `by` attack `sq` given occupancy `occupied`? The yes/no form of
    /// [`attackers_to_by`](Self::attackers_to_by): cheapest tests first,
    /// stopping at the first hit.
    #[inline(always)]
    pub fn is_attacked_by<S: Sliders>(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        self.attacked_by::<S, true>(sq, by, occupied)
    }

    /// [`is_attacked_by`](Self::is_attacked_by), testing the enemy king only
    /// when `KINGS` (a king never gives check, so `in_check` skips it).
    #[inline(always)]
    fn attacked_by<S: Sliders, const KINGS: bool>(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let i = sq.index();
        if (PAWN_ATTACKS[by.flip().index()][i] & self.bb(by, PieceType::Pawn)).is_nonempty()
            || (KNIGHT_ATTACKS[i] & self.bb(by, PieceType::Knight)).is_nonempty()
            || (KINGS && (KING_ATTACKS[i] & self.bb(by, PieceType::King)).is_nonempty())
        {
            return true;
        }
        // Probe a slider table only when such a slider shares a line.
        let rooks = self.rook_likes(by) & ROOK_LINES[i];
        if rooks.is_nonempty() && (S::rook(sq, occupied) & rooks).is_nonempty() {
            return true;
        }
        let bishops = self.bishop_likes(by) & BISHOP_LINES[i];
        bishops.is_nonempty() && (S::bishop(sq, occupied) & bishops).is_nonempty()
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        self.attackers_to_by::<FastSliders>(self.king_square(us), us.flip(), self.occupied)
    }

    /// Is the side to move in check? Cheapest attackers first, stopping at
    /// the first hit (a king never gives check).
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        let them = self.side.flip();
        self.attacked_by::<FastSliders, false>(self.king_square(self.side), them, self.occupied)
    }

    /// Is `color`'s king attacked?
    #[inline]
    pub fn king_attacked(&self, color: Color) -> bool {
        self.is_attacked_by::<FastSliders>(self.king_square(color), color.flip(), self.occupied)
    }

    // ----- draws -----

    /// Has the current position occurred before since the last irreversible
    /// move (searching back at most `halfmove` plies of history)?
    pub fn is_repetition(&self) -> bool {
        let n = self.history.len();
        let limit = (self.state.halfmove as usize).min(n);
        let mut back = 4;
        while back <= limit {
            if self.history[n - back].state.key == self.state.key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// Neither side can possibly mate: K v K, K+minor v K, K+B v K+B with
    /// bishops on the same shade.
    pub fn insufficient_material(&self) -> bool {
        // Pawns, rooks or queens on either side: the material key's nibbles
        // answer with one test.
        const fn pawns_rooks_queens(color: Color) -> u64 {
            material_unit(color, PieceType::Pawn, 0)
                | material_unit(color, PieceType::Rook, 0)
                | material_unit(color, PieceType::Queen, 0)
        }
        const PAWNS_ROOKS_QUEENS: u64 = 0xF * (pawns_rooks_queens(Color::White) | pawns_rooks_queens(Color::Black));
        if self.material_key & PAWNS_ROOKS_QUEENS != 0 {
            return false;
        }
        let minors = self.kind_bb(PieceType::Knight) | self.kind_bb(PieceType::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = self.kind_bb(PieceType::Bishop);
        self.kind_bb(PieceType::Knight).is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// A simple text diagram, rank 8 first.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                s.push(self.piece_at(Square88::new(file, rank)).letter());
            }
            s.push('\n');
        }
        s
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::randpos::random_positions;

    /// The definition on the board itself: no pawn, rook or queen, and at
    /// most one minor, or only bishops all on one shade.
    fn insufficient_by_pieces(pos: &Position) -> bool {
        let mut minors = Vec::new();
        for sq in Square::all() {
            let p = pos.piece_on(sq);
            match (p.is_empty(), p.kind()) {
                (true, _) | (false, PieceType::King) => {}
                (false, PieceType::Knight | PieceType::Bishop) => minors.push((p.kind(), sq.shade())),
                (false, _) => return false,
            }
        }
        minors.len() <= 1 || minors.iter().all(|&(k, shade)| k == PieceType::Bishop && shade == minors[0].1)
    }

    #[test]
    fn insufficient_material_matches_the_pieces_on_the_board() {
        let cases = [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false), // c8 light, c1 dark
            ("3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),   // both on dark squares
            ("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false),
            ("4k3/p7/8/8/8/8/8/4K3 w - - 0 1", false),
        ];
        for (fen, expected) in cases {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(pos.insufficient_material(), expected, "{fen}");
            assert_eq!(insufficient_by_pieces(&pos), expected, "reference on {fen}");
        }
        let mut insufficient = 0;
        for pos in random_positions(5000, 0x1A5F) {
            assert_eq!(pos.insufficient_material(), insufficient_by_pieces(&pos), "{}", pos.to_fen());
            insufficient += pos.insufficient_material() as u32;
        }
        assert!(insufficient > 0, "the random positions include insufficient material");
    }
}
