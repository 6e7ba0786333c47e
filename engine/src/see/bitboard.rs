//! SEE on bitboards: the rules of [`super::lists`] (cheapest first with ties
//! by square, x-rays, the king-capture rule, the pinned-piece skip,
//! promotion on the last rank), with each side's attackers kept as one
//! bitboard and every ray walk replaced by a slider probe on the occupancy
//! the exchange has left. Same values as the list form on every move; no
//! allocation.

use super::Gains;
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::{between, direction, BISHOP_LINES, RAYS, ROOK_LINES};
use crate::types::{Color, PieceType, Square};

/// The board as the exchange has changed it.
struct Exchange<'a, S: Sliders> {
    pos: &'a Position,
    target: Square,
    /// Occupied squares: the position's, minus those emptied by pieces that
    /// have captured (and an en-passant victim), plus the target.
    occupied: Bitboard,
    /// Each side's attackers still waiting to capture.
    listed: [Bitboard; 2],
    /// Rooks and queens, and bishops and queens, of both colours: a ray
    /// with none of them on it reveals and pins nothing, no probe needed.
    rook_likes: Bitboard,
    bishop_likes: Bitboard,
    /// Whether an enemy slider stands anywhere on a line through each
    /// side's king (on an empty board); if not, no piece of that side can
    /// be pinned.
    pin_watch: [bool; 2],
    _sliders: std::marker::PhantomData<S>,
}

impl<S: Sliders> Exchange<'_, S> {
    /// The nearest occupied square beyond `through` on the ray from `from`
    /// through it, and whether a piece there slides along that line.
    #[inline(always)]
    fn first_beyond(&self, from: Square, through: Square) -> Option<(Square, bool)> {
        let d = direction(from, through)?;
        let ray = RAYS[d][through.index()];
        let orthogonal = d < 4;
        // Only a slider's answer matters to the callers.
        let sliders = if orthogonal { self.rook_likes } else { self.bishop_likes };
        if (ray & sliders & self.occupied).is_empty() {
            return None;
        }
        let reach = if orthogonal { S::rook(through, self.occupied) } else { S::bishop(through, self.occupied) };
        let hit = reach & ray & self.occupied;
        if hit.is_empty() {
            return None;
        }
        let sq = hit.lsb();
        let kind = self.pos.piece_on(sq).kind();
        let slides =
            kind == PieceType::Queen || if orthogonal { kind == PieceType::Rook } else { kind == PieceType::Bishop };
        Some((sq, slides))
    }

    /// The slider a piece leaving `from` reveals behind it, seen from the
    /// target, if any.
    #[inline(always)]
    fn xray_behind(&self, from: Square) -> Option<Square> {
        match self.first_beyond(self.target, from) {
            Some((sq, true)) if sq != self.target => Some(sq),
            _ => None,
        }
    }

    /// Empty `sq` and add the attacker it reveals to its colour's set.
    #[inline(always)]
    fn vacate_and_reveal(&mut self, sq: Square) {
        self.occupied = self.occupied.without(sq);
        if let Some(x) = self.xray_behind(sq) {
            let c = self.pos.piece_on(x).color();
            self.listed[c.index()] = self.listed[c.index()].with(x);
        }
    }

    /// Would moving `side`'s piece from `from` to the target expose `side`'s
    /// king to an enemy slider on the line through `from`?
    #[inline(always)]
    fn exposes_king(&self, from: Square, side: Color) -> bool {
        if !self.pin_watch[side.index()] {
            return false;
        }
        let king = self.pos.king_square(side);
        if direction(king, from).is_none() || (between(king, from) & self.occupied).is_nonempty() {
            return false;
        }
        match self.first_beyond(king, from) {
            Some((sq, true)) => sq != self.target && self.pos.piece_on(sq).color() != side,
            _ => false,
        }
    }

    /// The cheapest piece `side` may capture with, if any: by class, then by
    /// square (a8 first, the lowest index), skipping pinned pieces; the king
    /// only when nothing can take it back. The classes are the list form's
    /// order by value: pawns; knights and bishops together (they are worth
    /// the same, so their ties go by square); rooks; queens; the king.
    #[inline(always)]
    fn cheapest_legal(&self, side: Color) -> Option<(Square, PieceType)> {
        let mine = self.listed[side.index()];
        if mine.is_empty() {
            return None;
        }
        let of = |kind: PieceType| mine & self.pos.bb(side, kind);
        let knights = of(PieceType::Knight);
        // Every class but the king's, with the kind of its pieces (the
        // minor class's kind is looked up per square).
        let classes = [
            (of(PieceType::Pawn), PieceType::Pawn),
            (knights | of(PieceType::Bishop), PieceType::Bishop),
            (of(PieceType::Rook), PieceType::Rook),
            (of(PieceType::Queen), PieceType::Queen),
        ];
        for (in_class, kind) in classes {
            for sq in in_class {
                if !self.exposes_king(sq, side) {
                    let kind = if knights.has(sq) { PieceType::Knight } else { kind };
                    return Some((sq, kind));
                }
            }
        }
        let king = of(PieceType::King);
        if king.is_empty() {
            return None;
        }
        let sq = king.lsb();
        let safe = self.listed[side.flip().index()].is_empty()
            && !self.xray_behind(sq).is_some_and(|x| self.pos.piece_on(x).color() != side);
        safe.then_some((sq, PieceType::King))
    }
}

/// Static exchange evaluation of `m` in `pos`, in centipawns from the moving
/// side's point of view; equal to [`super::see`] with any builder.
pub fn see_bitboard<S: Sliders>(pos: &Position, m: Move) -> i32 {
    let moved = m.moved();
    if m.is_null() || moved.is_empty() {
        return 0;
    }
    let (from, to) = (m.from().to_64(), m.to().to_64());
    let us = moved.color();
    // Both colours' attackers at once: one probe per slider kind.
    let attackers = pos.attackers_to::<S>(to, pos.occupied());
    let listed = Color::ALL.map(|c| attackers & pos.color_bb(c));
    let pin_watch = Color::ALL.map(|c| {
        let king = pos.king_square(c).index();
        let them = c.flip();
        ((ROOK_LINES[king] & pos.rook_likes(them)) | (BISHOP_LINES[king] & pos.bishop_likes(them))).is_nonempty()
    });
    let mut ex = Exchange::<S> {
        pos,
        target: to,
        occupied: pos.occupied().with(to),
        listed,
        rook_likes: pos.rook_likes(Color::White) | pos.rook_likes(Color::Black),
        bishop_likes: pos.bishop_likes(Color::White) | pos.bishop_likes(Color::Black),
        pin_watch,
        _sliders: std::marker::PhantomData,
    };

    let mut gains = Gains::first(m);
    ex.listed[us.index()] = ex.listed[us.index()].without(from);
    if m.is_en_passant() {
        // The victim stands behind the target, seen from the capturer.
        let victim = Square::from_index(if us == Color::White { to.index() + 8 } else { to.index() - 8 });
        ex.occupied = ex.occupied.without(from);
        ex.vacate_and_reveal(victim);
    }
    ex.vacate_and_reveal(from);

    let mut side = us.flip();
    while gains.has_room() {
        let Some((sq, kind)) = ex.cheapest_legal(side) else {
            break;
        };
        ex.listed[side.index()] = ex.listed[side.index()].without(sq);
        gains.capture(kind, kind.value());
        if kind == PieceType::King {
            break; // nothing can recapture
        }
        ex.vacate_and_reveal(sq);
        side = side.flip();
    }
    gains.resolve()
}
