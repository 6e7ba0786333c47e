//! SEE on bitboards: the rules of [`super::lists`] (cheapest first with ties
//! by square, x-rays, the king-capture rule, the pinned-piece skip,
//! promotion on the last rank) played set-wise. Both colours' attackers
//! are one bitboard; when a piece leaves a line through the target, one
//! slider probe from the target on the occupancy the exchange has left
//! finds what its departure uncovers, and a pin is one probe from the
//! piece along its king's line. Same values as the list form on every
//! move; no allocation.

use super::{recapture_margin, Gains};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::{between, direction, KNIGHT_ATTACKS, PAWN_ATTACKS, RAYS};
use crate::types::{Color, PieceType, Square};

/// The board as the exchange has changed it.
struct Exchange<'a, S: Sliders> {
    pos: &'a Position,
    target: Square,
    /// Occupied squares: the position's, minus those emptied by pieces that
    /// have captured (and an en-passant victim), plus the target.
    occupied: Bitboard,
    /// Pieces of both colours attacking the target through `occupied` that
    /// have not captured yet.
    attackers: Bitboard,
    /// Rooks and queens, and bishops and queens, of both colours (as they
    /// stood before the exchange: intersect with `occupied`).
    rook_likes: Bitboard,
    bishop_likes: Bitboard,
    _sliders: std::marker::PhantomData<S>,
}

impl<S: Sliders> Exchange<'_, S> {
    /// Sliders of both colours that move along direction `d` (see
    /// `tables::RAYS`: the first four are orthogonal).
    #[inline(always)]
    fn sliders_along(&self, d: usize) -> Bitboard {
        if d < 4 {
            self.rook_likes
        } else {
            self.bishop_likes
        }
    }

    /// Squares a slider along direction `d` on `from` reaches over
    /// `occupied`.
    #[inline(always)]
    fn reach(d: usize, from: Square, occupied: Bitboard) -> Bitboard {
        if d < 4 {
            S::rook(from, occupied)
        } else {
            S::bishop(from, occupied)
        }
    }

    /// The slider that would attack the target through `sq` once `sq` is
    /// empty (`occupied` without it), as a set of at most one square:
    /// the first piece beyond `sq` on the line from the target, if it
    /// slides that way. The path from the target to `sq` is always clear
    /// (`sq` held an attacker, or the moving piece, or the en-passant
    /// victim next to the target), so a probe from the target sees it.
    #[inline(always)]
    fn uncovered_by(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let Some(d) = direction(self.target, sq) else {
            return Bitboard::EMPTY; // a knight's square: on no line
        };
        let behind = RAYS[d][self.target.index()] & self.sliders_along(d) & occupied;
        if behind.is_empty() {
            return Bitboard::EMPTY;
        }
        Self::reach(d, self.target, occupied) & behind
    }

    /// Empty `sq` and add the attacker it uncovers.
    #[inline(always)]
    fn vacate(&mut self, sq: Square) {
        self.occupied = self.occupied.without(sq);
        self.attackers = self.attackers.without(sq) | self.uncovered_by(sq, self.occupied);
    }

    /// Would moving `side`'s piece from `from` to the target expose `side`'s
    /// king to an enemy slider on the line through `from`?
    #[inline(always)]
    fn exposes_king(&self, from: Square, side: Color) -> bool {
        let king = self.pos.king_square(side);
        let Some(d) = direction(king, from) else {
            return false;
        };
        // No enemy slider of that kind on the ray: nothing to pin against.
        let enemy = self.sliders_along(d) & self.pos.color_bb(side.flip()) & self.occupied;
        let ray = RAYS[d][king.index()];
        if (ray & enemy).is_empty() || (between(king, from) & self.occupied).is_nonempty() {
            return false;
        }
        // The first piece beyond `from`; the target shields even when the
        // piece that stood there was an enemy slider.
        let first = Self::reach(d, from, self.occupied) & ray & self.occupied;
        (first & enemy).without(self.target).is_nonempty()
    }

    /// The first square of `class` (a8 first) whose piece may leave it
    /// without exposing `side`'s king. A plain loop: `Iterator::find` (or
    /// `any`) here compiled to an out-of-line `try_fold` call per set.
    #[allow(clippy::manual_find)]
    #[inline(always)]
    fn first_unpinned(&self, class: Bitboard, side: Color) -> Option<Square> {
        for sq in class {
            if !self.exposes_king(sq, side) {
                return Some(sq);
            }
        }
        None
    }

    /// The cheapest piece `side` may capture with, if any: by class, then by
    /// square (a8 first, the lowest index), skipping pinned pieces; the king
    /// only when nothing can take it back. The classes are the list form's
    /// order by value: pawns; knights and bishops together (they are worth
    /// the same, so their ties go by square); rooks; queens; the king. Each
    /// class is looked up only when the cheaper ones had no legal capturer
    /// (most exchanges stop at the first class that has a piece).
    #[inline(always)]
    fn cheapest_legal(&self, side: Color) -> Option<(Square, PieceType)> {
        let mine = self.attackers & self.pos.color_bb(side);
        if mine.is_empty() {
            return None;
        }
        let of = |kind: PieceType| mine & self.pos.bb(side, kind);
        if let Some(sq) = self.first_unpinned(of(PieceType::Pawn), side) {
            return Some((sq, PieceType::Pawn));
        }
        let knights = of(PieceType::Knight);
        if let Some(sq) = self.first_unpinned(knights | of(PieceType::Bishop), side) {
            let kind = if knights.has(sq) { PieceType::Knight } else { PieceType::Bishop };
            return Some((sq, kind));
        }
        if let Some(sq) = self.first_unpinned(of(PieceType::Rook), side) {
            return Some((sq, PieceType::Rook));
        }
        if let Some(sq) = self.first_unpinned(of(PieceType::Queen), side) {
            return Some((sq, PieceType::Queen));
        }
        let king = of(PieceType::King);
        if king.is_empty() {
            return None;
        }
        let sq = king.lsb();
        let them = self.pos.color_bb(side.flip());
        let safe =
            (self.attackers & them).is_empty() && (self.uncovered_by(sq, self.occupied.without(sq)) & them).is_empty();
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
    // The board once the capturer (and an en-passant victim) has left:
    // one attacker probe on it finds every attacker, the sliders that
    // stood behind those squares included, with no separate x-ray probe.
    let mut occupied = pos.occupied().without(from).with(to);
    if m.is_en_passant() {
        // The victim stands behind the target, seen from the capturer.
        let victim = Square::from_index(if us == Color::White { to.index() + 8 } else { to.index() - 8 });
        occupied = occupied.without(victim);
    }
    // Both colours' attackers at once: one probe per slider kind.
    let attackers = pos.attackers_to::<S>(to, occupied).without(from);
    if (attackers & pos.color_bb(us.flip())).is_empty() {
        return m.material_gain(); // nothing takes back
    }
    let mut ex = Exchange::<S> {
        pos,
        target: to,
        occupied,
        attackers,
        rook_likes: pos.rook_likes(Color::White) | pos.rook_likes(Color::Black),
        bishop_likes: pos.bishop_likes(Color::White) | pos.bishop_likes(Color::Black),
        _sliders: std::marker::PhantomData,
    };

    let mut gains = Gains::first(m);
    let mut side = us.flip();
    while gains.has_room() {
        let Some((sq, kind)) = ex.cheapest_legal(side) else {
            break;
        };
        gains.capture(kind, kind.value());
        if kind == PieceType::King {
            break; // nothing can recapture
        }
        ex.vacate(sq);
        side = side.flip();
    }
    gains.resolve()
}

/// Does `m` surely lose material by the rules of [`see_bitboard`]? True when
/// an enemy piece worth less than `recapture_margin` attacks the target
/// once the capturer has left its square (a slider behind it included) and
/// may legally recapture (is not pinned to its king on that board). `false`
/// says nothing: play the exchange out.
#[inline(always)]
pub fn loses_to_recapture_bitboard<S: Sliders>(pos: &Position, m: Move) -> bool {
    let Some(margin) = recapture_margin(m) else {
        return false;
    };
    let (from, to) = (m.from().to_64(), m.to().to_64());
    let us = m.moved().color();
    let them = us.flip();
    let occupied = pos.occupied().without(from);
    // Queens are worth more than any margin.
    let mut guards = PAWN_ATTACKS[us.index()][to.index()] & pos.bb(them, PieceType::Pawn);
    if margin > PieceType::Knight.value() {
        guards |= (KNIGHT_ATTACKS[to.index()] & pos.bb(them, PieceType::Knight))
            | (S::bishop(to, occupied) & pos.bb(them, PieceType::Bishop));
    }
    if margin > PieceType::Rook.value() {
        guards |= S::rook(to, occupied) & pos.bb(them, PieceType::Rook);
    }
    if guards.is_empty() {
        return false;
    }
    let ex = Exchange::<S> {
        pos,
        target: to,
        occupied,
        attackers: Bitboard::EMPTY,
        rook_likes: pos.rook_likes(Color::White) | pos.rook_likes(Color::Black),
        bishop_likes: pos.bishop_likes(Color::White) | pos.bishop_likes(Color::Black),
        _sliders: std::marker::PhantomData,
    };
    ex.first_unpinned(guards, them).is_some()
}
