//! The three board primitives. Every board change goes through
//! `slide_known` (move a piece to an empty square), `lift_known` (remove a
//! piece) and `place_known` (add a piece), each told the piece's colour and
//! kind; `place` is the set-up's form taking a `Piece`. Each updates the
//! mailbox cell, the piece list, counts, material and the material key,
//! bitboards and, when `HASH` is true, the full and pawn keys, all together.
//! Make uses `HASH = true`; unmake uses the `false` twins and restores the
//! saved keys instead.

use super::{material_unit, zobrist, Position};
use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, PieceType, Square, Square88};

/// [`Square88::to_64`] by the 0x88 square's index (off-board entries are
/// never read): one load where the conversion is four instructions, and
/// make and unmake convert every square they touch for the bitboards and
/// the keys.
static SQUARE_64: [Square; 128] = {
    let mut t = [Square::from_index(0); 128];
    let mut i = 0;
    while i < 128 {
        if Square88::from_raw(i as u8).is_on_board() {
            t[i] = Square88::from_raw(i as u8).to_64();
        }
        i += 1;
    }
    t
};

impl Position {
    /// Move the piece of `color` and `kind` on `from` to the empty square
    /// `to`. The caller names the piece (make and unmake read it from the
    /// move, with the colour a constant of their per-colour copy), so the
    /// colour- and kind-dependent indexes fold instead of being decoded
    /// from the cell.
    #[inline(always)]
    pub(crate) fn slide_known<const HASH: bool>(
        &mut self,
        from: Square88,
        to: Square88,
        color: Color,
        kind: PieceType,
    ) {
        let cell = self.cells[from.index()];
        let piece = Piece::new(color, kind);
        debug_assert_eq!(self.piece_at(from), piece, "slide of the wrong piece from {from}");
        debug_assert!(self.piece_at(to).is_empty(), "slide onto occupied {to}");
        let index = cell[1] as usize;
        self.cells[to.index()] = cell;
        self.cells[from.index()] = [0, 0];
        if kind == PieceType::Pawn {
            self.pawn_list[color.index()][index] = to;
        } else {
            self.piece_list[color.index()][index] = to;
        }
        let (f, t) = (SQUARE_64[from.index()], SQUARE_64[to.index()]);
        let change = Bitboard::from_square(f) | Bitboard::from_square(t);
        self.by_type[color.index()][kind.index()] ^= change;
        self.by_color[color.index()] ^= change;
        self.occupied ^= change;
        if HASH {
            let z = zobrist::piece_square(piece, f) ^ zobrist::piece_square(piece, t);
            self.state.key ^= z;
            if kind == PieceType::Pawn {
                self.state.pawn_key ^= z;
            }
        }
    }

    /// Remove the piece of `color` and `kind` on `sq` (named by the caller,
    /// as for [`slide_known`](Self::slide_known)). The last entry of its
    /// list moves into the gap.
    #[inline(always)]
    pub(crate) fn lift_known<const HASH: bool>(&mut self, sq: Square88, color: Color, kind: PieceType) {
        let piece = Piece::new(color, kind);
        debug_assert_eq!(self.piece_at(sq), piece, "lift of the wrong piece from {sq}");
        let (c, index) = (color.index(), self.cells[sq.index()][1] as usize);
        self.cells[sq.index()] = [0, 0];
        if kind == PieceType::Pawn {
            let last = self.pawn_count[c] as usize - 1;
            let moved = self.pawn_list[c][last];
            self.pawn_list[c][index] = moved;
            self.cells[moved.index()][1] = index as u32;
            self.pawn_count[c] -= 1;
            self.material_key -= material_unit(color, kind, 0);
        } else {
            debug_assert!(kind != PieceType::King, "the king is never lifted");
            let last = self.piece_count[c] as usize - 1;
            let moved = self.piece_list[c][last];
            self.piece_list[c][index] = moved;
            self.cells[moved.index()][1] = index as u32;
            self.piece_count[c] -= 1;
            self.non_pawn_material[c] -= kind.value();
            let shade = SQUARE_64[sq.index()].shade();
            if kind == PieceType::Bishop {
                self.bishop_shades[c][shade] -= 1;
            }
            self.material_key -= material_unit(color, kind, shade);
        }
        self.type_count[c][kind.index()] -= 1;
        let s = SQUARE_64[sq.index()];
        let bit = Bitboard::from_square(s);
        self.by_type[c][kind.index()] ^= bit;
        self.by_color[c] ^= bit;
        self.occupied ^= bit;
        if HASH {
            let z = zobrist::piece_square(piece, s);
            self.state.key ^= z;
            if kind == PieceType::Pawn {
                self.state.pawn_key ^= z;
            }
        }
    }

    /// Put `piece` on the empty square `sq`, appending it to its list. A
    /// king is only placed during set-up, into an empty list, so it lands at
    /// index 0.
    #[inline(always)]
    pub(crate) fn place<const HASH: bool>(&mut self, sq: Square88, piece: Piece) {
        self.place_known::<HASH>(sq, piece.color(), piece.kind());
    }

    /// [`place`](Self::place) with the piece as its colour and kind (see
    /// [`slide_known`](Self::slide_known)).
    #[inline(always)]
    pub(crate) fn place_known<const HASH: bool>(&mut self, sq: Square88, color: Color, kind: PieceType) {
        debug_assert!(self.piece_at(sq).is_empty(), "place onto occupied {sq}");
        let piece = Piece::new(color, kind);
        let c = color.index();
        let index = if kind == PieceType::Pawn {
            let i = self.pawn_count[c] as usize;
            self.pawn_list[c][i] = sq;
            self.pawn_count[c] += 1;
            self.material_key += material_unit(color, kind, 0);
            i
        } else {
            let i = self.piece_count[c] as usize;
            self.piece_list[c][i] = sq;
            self.piece_count[c] += 1;
            self.non_pawn_material[c] += kind.value();
            let shade = SQUARE_64[sq.index()].shade();
            if kind == PieceType::Bishop {
                self.bishop_shades[c][shade] += 1;
            }
            self.material_key += material_unit(color, kind, shade);
            i
        };
        self.cells[sq.index()] = [piece.code() as u32, index as u32];
        self.type_count[c][kind.index()] += 1;
        let s = SQUARE_64[sq.index()];
        let bit = Bitboard::from_square(s);
        self.by_type[c][kind.index()] ^= bit;
        self.by_color[c] ^= bit;
        self.occupied ^= bit;
        if HASH {
            let z = zobrist::piece_square(piece, s);
            self.state.key ^= z;
            if kind == PieceType::Pawn {
                self.state.pawn_key ^= z;
            }
        }
    }
}
