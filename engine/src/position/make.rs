//! Make and unmake for every move kind, and the null move. Both are written
//! only in terms of the board primitives; unmake uses their non-hashing
//! twins and restores the saved keys.

use super::{zobrist, Position, Undo};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::tables::PAWN_PUSH;
use crate::types::{CastleRights, Color, Piece, PieceType, Square, Square88};

/// Castling rights that survive a move touching each 0x88 square.
static CASTLE_KEEP: [u8; 128] = {
    let mut t = [15u8; 128];
    t[0x70] = 15 & !CastleRights::WHITE_QUEEN; // a1
    t[0x77] = 15 & !CastleRights::WHITE_KING; // h1
    t[0x74] = 15 & !(CastleRights::WHITE_KING | CastleRights::WHITE_QUEEN); // e1
    t[0x00] = 15 & !CastleRights::BLACK_QUEEN; // a8
    t[0x07] = 15 & !CastleRights::BLACK_KING; // h8
    t[0x04] = 15 & !(CastleRights::BLACK_KING | CastleRights::BLACK_QUEEN); // e8
    t
};

/// Rook from/to of a castling move, by the king's destination square.
#[inline(always)]
pub(crate) fn castle_rook_squares(king_to: Square88) -> (Square88, Square88) {
    let base = king_to.raw() & 0x70;
    if king_to.file() == 6 {
        (Square88::from_raw(base | 7), Square88::from_raw(base | 5))
    } else {
        (Square88::from_raw(base), Square88::from_raw(base | 3))
    }
}

impl Position {
    /// Whether a pawn of the side to move could capture en passant onto
    /// `ep` (only then is the square hashed and kept after a double push).
    #[inline]
    pub(crate) fn ep_capturable(&self, ep: Square88, capturer: Color) -> bool {
        let target = ep.to_64();
        let from = Bitboard::from_square(target).pawn_attacks(capturer.flip());
        (from & self.bb(capturer, PieceType::Pawn)).is_nonempty()
    }

    /// Key contribution of the en-passant state: hashed only when a capture
    /// is possible, so the same position reached two ways has one key.
    #[inline]
    pub(crate) fn ep_key(&self, ep: Option<Square88>, capturer: Color) -> u64 {
        match ep {
            Some(sq) if self.ep_capturable(sq, capturer) => zobrist::ep_file(sq.file()),
            _ => 0,
        }
    }

    /// Play `m`, which must be legal in this position.
    #[inline(always)]
    pub fn make(&mut self, m: Move) {
        // One copy per side to move, with the colour a constant: the
        // colour-dependent indexes (lists, counts, bitboards, material key
        // shifts, the pawn push) fold, and the pieces' colours come from
        // the side instead of being decoded from the board.
        match self.side {
            Color::White => self.make_as::<{ Color::White as usize }>(m),
            Color::Black => self.make_as::<{ Color::Black as usize }>(m),
        }
        #[cfg(debug_assertions)]
        self.assert_consistent("make", m);
    }

    /// [`make`](Self::make) with White (`US` 0) or Black (`US` 1) to move.
    #[inline(always)]
    fn make_as<const US: usize>(&mut self, m: Move) {
        let us = Color::from_index(US);
        let them = us.flip();
        debug_assert_eq!(self.side, us);
        self.history.push(Undo { mv: m, state: self.state });
        if self.state.ep.is_some() {
            self.state.key ^= self.ep_key(self.state.ep, us);
            self.state.ep = None;
        }
        self.state.key ^= zobrist::black_to_move();
        self.side = them;

        let (from, to) = (m.from(), m.to());
        let moved = m.moved_kind();
        // Most moves made are quiet moves with no flag: one test sends them
        // past every special case.
        if m.is_plain_quiet() {
            self.slide_known::<true>(from, to, us, moved);
            self.state.halfmove = if moved == PieceType::Pawn { 0 } else { self.state.halfmove + 1 };
        } else {
            self.make_special::<US>(m);
        }

        // Most positions the search sees have no rights left to lose: one
        // test instead of the two table loads.
        if self.state.castling != CastleRights::NONE {
            let rights = self.state.castling.bits() & CASTLE_KEEP[from.index()] & CASTLE_KEEP[to.index()];
            if rights != self.state.castling.bits() {
                self.state.key ^=
                    zobrist::castling(self.state.castling) ^ zobrist::castling(CastleRights::from_bits(rights));
                self.state.castling = CastleRights::from_bits(rights);
            }
        }
    }

    /// The board changes of a move that captures, promotes, castles or
    /// pushes a pawn two squares (everything but
    /// [`Move::is_plain_quiet`]), with the halfmove clock and the
    /// en-passant state it sets.
    #[inline(always)]
    fn make_special<const US: usize>(&mut self, m: Move) {
        let us = Color::from_index(US);
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        let moved = m.moved_kind();
        self.state.halfmove += 1;
        if m.is_en_passant() {
            self.lift_known::<true>(to.offset(-PAWN_PUSH[US]), them, PieceType::Pawn);
        } else if m.is_capture() {
            self.lift_known::<true>(to, them, m.captured_kind());
        }
        if m.is_capture() {
            self.state.halfmove = 0;
        }
        if m.is_promotion() {
            self.lift_known::<true>(from, us, PieceType::Pawn);
            self.place_known::<true>(to, us, m.promotion().kind());
        } else {
            self.slide_known::<true>(from, to, us, moved);
        }
        if moved == PieceType::Pawn {
            self.state.halfmove = 0;
            if m.is_double_push() {
                let ep = from.offset(PAWN_PUSH[US]);
                if self.ep_capturable(ep, them) {
                    self.state.ep = Some(ep);
                    self.state.key ^= zobrist::ep_file(ep.file());
                }
            }
        } else if m.is_castle() {
            let (rook_from, rook_to) = castle_rook_squares(to);
            self.slide_known::<true>(rook_from, rook_to, us, PieceType::Rook);
        }
    }

    /// Take back the last move made with [`make`](Self::make) and return it.
    /// Panics if no move was made (a programming error).
    #[inline(always)]
    pub fn unmake(&mut self) -> Move {
        // Per colour, as for make: `US` is the side that made the move.
        let m = match self.side {
            Color::White => self.unmake_as::<{ Color::Black as usize }>(),
            Color::Black => self.unmake_as::<{ Color::White as usize }>(),
        };
        #[cfg(debug_assertions)]
        self.assert_consistent("unmake", m);
        m
    }

    /// [`unmake`](Self::unmake) of a move White (`US` 0) or Black (`US` 1)
    /// made.
    #[inline(always)]
    fn unmake_as<const US: usize>(&mut self) -> Move {
        let undo = self.history.pop().expect("unmake without a move to take back");
        let m = undo.mv;
        let us = Color::from_index(US);
        let them = us.flip();
        debug_assert_eq!(self.side, them);
        self.side = us;
        self.state = undo.state;
        let (from, to) = (m.from(), m.to());
        if m.is_plain_quiet() {
            // The null move is plain quiet too: it moves nothing.
            if !m.is_null() {
                self.slide_known::<false>(to, from, us, m.moved_kind());
            }
            return m;
        }
        if m.is_castle() {
            let (rook_from, rook_to) = castle_rook_squares(to);
            self.slide_known::<false>(rook_to, rook_from, us, PieceType::Rook);
        }
        if m.is_promotion() {
            self.lift_known::<false>(to, us, m.promotion().kind());
            self.place_known::<false>(from, us, PieceType::Pawn);
        } else {
            self.slide_known::<false>(to, from, us, m.moved_kind());
        }
        if m.is_en_passant() {
            self.place_known::<false>(to.offset(-PAWN_PUSH[US]), them, PieceType::Pawn);
        } else if m.is_capture() {
            self.place_known::<false>(to, them, m.captured_kind());
        }
        m
    }

    /// Pass the move to the other side (for null-move pruning). The side to
    /// move must not be in check. Undo with [`unmake`](Self::unmake).
    pub fn make_null(&mut self) {
        self.history.push(Undo { mv: Move::NULL, state: self.state });
        self.state.key ^= self.ep_key(self.state.ep, self.side);
        self.state.ep = None;
        // A null move is not a real move: repetitions do not reach across it.
        self.state.halfmove = 0;
        self.side = self.side.flip();
        self.state.key ^= zobrist::black_to_move();
        #[cfg(debug_assertions)]
        self.assert_consistent("make_null", Move::NULL);
    }

    /// Debug builds check the whole position after every make, unmake and
    /// null move, as Stockfish does with `pos_is_ok`: [`verify`](Self::verify)
    /// rebuilds every derived field from the mailbox, so a primitive that
    /// forgets a field fails at the move that broke it, not moves later.
    /// Release builds compile none of it (the callers' `cfg`).
    #[cfg(debug_assertions)]
    #[cold]
    #[track_caller]
    fn assert_consistent(&self, after: &str, m: Move) {
        if let Err(e) = self.verify() {
            panic!("{after} {m}: {e}\n{}", self.diagram());
        }
    }

    /// Pass in a game record: the null move `0000` that UCI GUIs (python-chess
    /// among them) send in `position ... moves`. The other side moves next
    /// in the same position. Unlike the search's [`make_null`](Self::make_null)
    /// the halfmove clock counts the pass, as python-chess counts it, so
    /// the positions before it stay within reach of repetition detection
    /// and the fifty-move count runs on. The side to move must not be in
    /// check. Undo with [`unmake`](Self::unmake).
    pub fn make_pass(&mut self) {
        let halfmove = self.state.halfmove;
        self.make_null();
        self.state.halfmove = halfmove.saturating_add(1);
    }

    /// Build the move `from`-`to` (with an optional promotion kind) from the
    /// board, filling in the moved and captured pieces and the flags. The
    /// result is only meaningful if the move is legal; callers that take
    /// moves from users check it against the generated legal moves.
    pub fn move_from_squares(&self, from: Square, to: Square, promotion: Option<PieceType>) -> Move {
        let (f, t) = (from.to_88(), to.to_88());
        let moved = self.piece_at(f);
        let mut captured = self.piece_at(t);
        let mut flags = 0;
        if !moved.is_empty() {
            match moved.kind() {
                PieceType::Pawn => {
                    let diff = t.raw() as i32 - f.raw() as i32;
                    if diff.abs() == 32 {
                        flags |= Move::FLAG_DOUBLE_PUSH;
                    } else if captured.is_empty() && (diff.abs() == 15 || diff.abs() == 17) && Some(t) == self.state.ep
                    {
                        flags |= Move::FLAG_EN_PASSANT;
                        captured = Piece::new(moved.color().flip(), PieceType::Pawn);
                    }
                }
                PieceType::King if (t.raw() as i32 - f.raw() as i32).abs() == 2 => flags |= Move::FLAG_CASTLE,
                _ => {}
            }
        }
        let promo = match promotion {
            Some(kind) if !moved.is_empty() => Piece::new(moved.color(), kind),
            _ => Piece::EMPTY,
        };
        Move::new(f, t, moved, captured, promo, flags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    /// The start position with `text` (UCI) made, if given.
    fn start_after(text: Option<&str>) -> Position {
        let mut pos = Position::startpos();
        if let Some(text) = text {
            let m = *legal_moves(&pos).iter().find(|m| m.to_string() == text).expect("a legal move");
            pos.make(m);
        }
        pos
    }

    /// Take the e2 pawn out of the bitboards behind the primitives' back.
    fn corrupt(pos: &mut Position) {
        let e2 = Square::parse("e2").unwrap();
        let white_pawns = &mut pos.by_type[Color::White.index()][PieceType::Pawn.index()];
        *white_pawns = white_pawns.without(e2);
    }

    /// Does `change` panic on a corrupted position?
    fn panics(change: impl FnOnce(&mut Position), mut pos: Position) -> bool {
        corrupt(&mut pos);
        assert!(pos.verify().is_err(), "the corruption is visible to verify()");
        catch_unwind(AssertUnwindSafe(|| change(&mut pos))).is_err()
    }

    /// The fullmove field of `pos`'s FEN.
    fn fen_fullmove(pos: &Position) -> u32 {
        pos.to_fen().rsplit(' ').next().unwrap().parse().unwrap()
    }

    #[test]
    fn the_fullmove_number_counts_black_moves_and_passes_and_survives_a_history_clear() {
        // Black to move at move 41: Black's move starts move 42.
        let mut pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 3 41").unwrap();
        let mut seen = vec![fen_fullmove(&pos)];
        for _ in 0..3 {
            let m = legal_moves(&pos)[0];
            pos.make(m);
            seen.push(fen_fullmove(&pos));
        }
        pos.make_null();
        seen.push(fen_fullmove(&pos));
        assert_eq!(seen, [41, 42, 42, 43, 43]);
        assert_eq!(pos.fullmove_number(), 43);
        // Black to move after White's null move; forget the history, play on.
        pos.clear_history();
        assert_eq!(pos.fullmove_number(), 43);
        let m = legal_moves(&pos)[0];
        pos.make(m);
        assert_eq!(pos.fullmove_number(), 44);
        let m = legal_moves(&pos)[0];
        pos.make(m);
        assert_eq!(pos.fullmove_number(), 44);
        pos.unmake();
        pos.unmake();
        assert_eq!(pos.fullmove_number(), 43);
        // The largest number stays the largest, and taking a move back
        // gives it again.
        let mut pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 65535").unwrap();
        let m = legal_moves(&pos)[0];
        pos.make(m);
        assert_eq!(fen_fullmove(&pos), 65535);
        pos.unmake();
        assert_eq!(fen_fullmove(&pos), 65535);
    }

    #[test]
    fn a_corrupted_position_fails_after_make_unmake_and_null_move_in_debug_builds() {
        // None of these moves touches the corrupted pawn; only the check
        // after the change can notice it. Release builds do not check.
        let knight = *legal_moves(&Position::startpos()).iter().find(|m| m.to_string() == "g1f3").unwrap();
        let debug = cfg!(debug_assertions);
        assert_eq!(panics(|p| p.make(knight), start_after(None)), debug, "make");
        assert_eq!(
            panics(
                |p| {
                    p.unmake();
                },
                start_after(Some("g1f3"))
            ),
            debug,
            "unmake"
        );
        assert_eq!(panics(|p| p.make_null(), start_after(None)), debug, "make_null");
        // And a clean position passes all three.
        let mut pos = Position::startpos();
        pos.make(knight);
        pos.make_null();
        pos.unmake();
        pos.unmake();
        assert_eq!(pos.to_fen(), Position::startpos().to_fen());
    }
}
