//! Static exchange evaluation over either attacker builder (the rules are
//! in ARCHITECTURE.md, "Old and new routines").
//!
//! [`see`] builds both colours' attacker lists of the move's destination
//! with an [`AttackerBuilder`] (the old mailbox `GetAttacks` or the new
//! bitboard one), plays the cheapest legal capture for each side in turn,
//! and folds the gain sequence with min/max (either side may stop
//! capturing). Everything after the list build is shared, so the two
//! builders are interchangeable and must give identical results.
//!
//! The rules, as the original engine played them:
//!
//! * Cheapest first. Each list is sorted by value once (the original
//!   heapified it); ties are broken by square (a8 first), so the exchange
//!   depends only on the *set* of attackers, never on the order a builder
//!   produced them in. That is what makes the two builders' SEE values
//!   identical rather than merely close.
//! * X-rays. When a piece leaves a square on a line through the target, the
//!   first piece behind it on that line joins its colour's list if it slides
//!   that way (a rook behind a rook, a queen behind a bishop or pawn, ...).
//! * The king captures only if the other side then has nothing left to
//!   recapture with, and the exchange ends with it.
//! * A piece whose move to the target would expose its own king along the
//!   line through it is skipped (it stays in the list: a pinned piece still
//!   guards the square against the enemy king). Pieces that have already
//!   captured in this exchange no longer stand on their squares, so they
//!   neither pin nor block; the original special-cased only the piece just
//!   moved, this tracks every square the exchange has emptied.
//! * A pawn capturing onto the first or last rank becomes a queen.
//!
//! What the first move is worth:
//!
//! * A capture starts with the captured piece's value (a pawn for en
//!   passant, whose removal can also reveal a rook or queen behind it).
//! * A promotion adds the promoted piece's value minus a pawn, and the
//!   promoted piece is what stands on the square.
//! * A quiet move is still defined: the exchange on the destination with
//!   the moving piece standing there and a first gain of 0. It is 0 when
//!   the square is safe and negative when the opponent wins material there,
//!   which is what move ordering wants to know. Castling counts as the
//!   king's move (0: a legal king move goes to a safe square).
//!
//! The move is assumed legal (the first capture is never checked for pins).
//! No allocation: the lists and the gain stack live on the stack.

use super::{recapture_margin, Gains};
use crate::attackers::mailbox::ray_is_open_after;
use crate::attackers::{AttackerBuilder, SeeEntry, SeeList, PIECE_VECTOR_BIT};
use crate::moves::Move;
use crate::position::Position;
use crate::tables::{ATTACK_VECTOR, DIFF_STEP, PAWN_CAPTURES, PAWN_PUSH};
use crate::types::{Color, Piece, PieceType, Square88};

/// The board as the exchange has changed it: squares emptied by pieces that
/// have captured (and by an en-passant victim), and the target, which is
/// always occupied by the last piece to arrive.
struct Exchange<'a> {
    pos: &'a Position,
    target: Square88,
    /// Emptied squares, one bit per 64-index.
    vacated: u64,
}

impl Exchange<'_> {
    #[inline(always)]
    fn vacate(&mut self, sq: Square88) {
        self.vacated |= 1u64 << sq.to_64().index();
    }

    #[inline(always)]
    fn occupied(&self, sq: Square88) -> bool {
        sq == self.target || (self.vacated >> sq.to_64().index() & 1 == 0 && !self.pos.piece_at(sq).is_empty())
    }

    /// The first piece behind `from`, seen from the target, if it attacks
    /// the target along that line once `from` is empty.
    #[inline]
    fn xray_behind(&self, from: Square88) -> Option<(Square88, Piece)> {
        let step = DIFF_STEP[Square88::diff_index(self.target, from)];
        if step == 0 {
            return None; // a knight (or nothing on a line): reveals nothing
        }
        let mut sq = from.offset(step);
        while sq.is_on_board() {
            if self.occupied(sq) {
                let p = self.pos.piece_at(sq);
                let slides_here = ATTACK_VECTOR[Square88::diff_index(sq, self.target)] & PIECE_VECTOR_BIT[p.index()];
                return (slides_here != 0).then_some((sq, p));
            }
            sq = sq.offset(step);
        }
        None
    }

    /// Add the attacker a piece leaving `from` reveals, if any.
    #[inline]
    fn reveal(&self, from: Square88, lists: &mut [SeeList; 2]) {
        if let Some((sq, p)) = self.xray_behind(from) {
            lists[p.color().index()].insert_sorted(SeeEntry::new(sq, p));
        }
    }

    /// Would moving `side`'s piece from `from` to the target expose `side`'s
    /// king to an enemy slider on the line through `from`?
    #[inline]
    fn exposes_king(&self, from: Square88, side: Color) -> bool {
        let king = self.pos.king_square88(side);
        let step = DIFF_STEP[Square88::diff_index(king, from)];
        if step == 0 {
            return false;
        }
        let mut sq = king.offset(step);
        while sq != from {
            if self.occupied(sq) {
                return false; // something else shields the king
            }
            sq = sq.offset(step);
        }
        let mut sq = from.offset(step);
        while sq.is_on_board() {
            if sq == self.target {
                return false; // the piece lands on the line and still shields
            }
            if self.occupied(sq) {
                let p = self.pos.piece_at(sq);
                return p.color() != side
                    && ATTACK_VECTOR[Square88::diff_index(sq, king)] & PIECE_VECTOR_BIT[p.index()] != 0;
            }
            sq = sq.offset(step);
        }
        false
    }

    /// Index of the cheapest piece `side` may capture with, if any.
    #[inline]
    fn cheapest_legal(&self, lists: &[SeeList; 2], side: Color) -> Option<usize> {
        for (i, e) in lists[side.index()].iter().enumerate() {
            if e.piece.kind() == PieceType::King {
                // Sorted last. It may take only if nothing can take it back,
                // including a slider its own departure would reveal.
                let safe = lists[side.flip().index()].is_empty()
                    && !self.xray_behind(e.square).is_some_and(|(_, p)| p.color() != side);
                return safe.then_some(i);
            }
            if !self.exposes_king(e.square, side) {
                return Some(i);
            }
        }
        None
    }
}

/// Static exchange evaluation of `m` in `pos`, in centipawns from the moving
/// side's point of view, with attacker lists from `A`. See the module
/// documentation for the rules and for what a quiet move returns. A null
/// move (or one with no moving piece) is worth 0.
pub fn see<A: AttackerBuilder>(pos: &Position, m: Move) -> i32 {
    let moved = m.moved();
    if m.is_null() || moved.is_empty() {
        return 0;
    }
    let (from, to) = (m.from(), m.to());
    let us = moved.color();
    let mut lists = [SeeList::new(), SeeList::new()];
    A::build(pos, to, Color::White, &mut lists[0]);
    A::build(pos, to, Color::Black, &mut lists[1]);
    lists[0].sort_for_see();
    lists[1].sort_for_see();

    let mut gains = Gains::first(m);

    let mut ex = Exchange { pos, target: to, vacated: 0 };
    lists[us.index()].remove_square(from);
    ex.vacate(from);
    if m.is_en_passant() {
        let victim = to.offset(-PAWN_PUSH[us.index()]);
        ex.vacate(victim);
        ex.reveal(victim, &mut lists);
    }
    ex.reveal(from, &mut lists);

    let mut side = us.flip();
    while gains.has_room() {
        let Some(i) = ex.cheapest_legal(&lists, side) else {
            break;
        };
        let e = lists[side.index()].remove(i);
        gains.capture(e.piece.kind(), e.value);
        if e.piece.kind() == PieceType::King {
            break; // nothing can recapture
        }
        ex.vacate(e.square);
        ex.reveal(e.square, &mut lists);
        side = side.flip();
    }
    gains.resolve()
}

/// Does `m` surely lose material by the rules of [`see`]? The old form of
/// [`super::loses_to_recapture_bitboard`]: the opponent's pawns on the two
/// squares that guard the target, then its piece list by the 0x88
/// difference table (sliders only along an open line once the capturer has
/// left), each unless pinned; true at the first piece worth less than
/// `recapture_margin`. `false` says nothing: play the exchange out.
#[inline]
pub fn loses_to_recapture_mailbox(pos: &Position, m: Move) -> bool {
    let Some(margin) = recapture_margin(m) else {
        return false;
    };
    let (from, to) = (m.from(), m.to());
    let them = m.moved().color().flip();
    let mut ex = Exchange { pos, target: to, vacated: 0 };
    ex.vacate(from);
    for &d in &PAWN_CAPTURES[them.index()] {
        let sq = to.offset(-d);
        if sq.is_on_board() && pos.piece_at(sq).is(them, PieceType::Pawn) && !ex.exposes_king(sq, them) {
            return true;
        }
    }
    if margin <= PieceType::Knight.value() {
        return false;
    }
    // Index 0 is the king.
    for &sq in &pos.piece_list(them)[1..] {
        let p = pos.piece_at(sq);
        let kind = p.kind();
        if kind.value() >= margin || ATTACK_VECTOR[Square88::diff_index(sq, to)] & PIECE_VECTOR_BIT[p.index()] == 0 {
            continue;
        }
        // The line is tested on the board without the capturer.
        if (kind == PieceType::Knight || ray_is_open_after(pos, sq, to, [from, from], to)) && !ex.exposes_king(sq, them)
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attackers::{BitboardAttackers, MailboxAttackers};
    use crate::movegen::legal_moves;
    use crate::sliders::{FastSliders, Magic};
    use crate::types::Square;

    fn find(pos: &Position, uci: &str) -> Move {
        *legal_moves(pos).iter().find(|m| m.uci().as_str() == uci).unwrap_or_else(|| panic!("{uci} not legal"))
    }

    fn see_all(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = find(&pos, uci);
        let a = see::<MailboxAttackers>(&pos, m);
        assert_eq!(a, see::<BitboardAttackers<Magic>>(&pos, m), "{fen} {uci}");
        assert_eq!(a, see::<BitboardAttackers<FastSliders>>(&pos, m), "{fen} {uci}");
        assert_eq!(a, super::super::see_bitboard::<Magic>(&pos, m), "bitboard SEE {fen} {uci}");
        assert_eq!(a, super::super::see_bitboard::<FastSliders>(&pos, m), "bitboard SEE {fen} {uci}");
        a
    }

    /// The five reference exchanges, valued by hand (ARCHITECTURE.md, "Old
    /// and new routines").
    #[test]
    fn reference_positions() {
        assert_eq!(see_all("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - -", "e1e5"), 100);
        assert_eq!(see_all("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - -", "d3e5"), -200);
        assert_eq!(see_all("3rk3/3r4/8/3p4/8/8/3Q4/3RK3 w - -", "d2d5"), -875);
        assert_eq!(see_all("5k2/4n3/8/3p4/1B6/8/3R4/4K3 w - -", "d2d5"), 100);
        assert_eq!(see_all("5k2/4n3/8/3p4/8/8/3R4/4K3 w - -", "d2d5"), -400);
    }

    #[test]
    fn quiet_moves_promotions_and_en_passant() {
        // A quiet queen move onto a pawn-guarded square loses the queen.
        assert_eq!(see_all("4k3/8/2p5/8/8/8/8/3QK3 w - -", "d1d5"), -975);
        // ... and onto a safe square is worth 0.
        assert_eq!(see_all("4k3/8/2p5/8/8/8/8/3QK3 w - -", "d1d4"), 0);
        // Castling is the king's move to a safe square.
        assert_eq!(see_all("4k3/8/8/8/8/8/8/4K2R w K -", "e1g1"), 0);
        // Promotion push to a safe square gains queen minus pawn...
        assert_eq!(see_all("7k/P7/8/8/8/8/8/4K3 w - -", "a7a8q"), 875);
        // ... and into a rook's guard loses the pawn: 875 - 975.
        assert_eq!(see_all("1r5k/P7/8/8/8/8/8/4K3 w - -", "a7a8q"), -100);
        // Capture-promotion guarded by nothing: rook plus queen minus pawn.
        assert_eq!(see_all("1r5k/P7/8/8/8/8/8/4K3 w - -", "a7b8q"), 500 + 875);
        // Under-promotion keeps its own piece value.
        assert_eq!(see_all("1r5k/P7/8/8/8/8/8/4K3 w - -", "a7b8n"), 500 + 200);
        // En passant wins a pawn, which the pawn on c7 wins back: 100 - 100.
        assert_eq!(see_all("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6", "e5d6"), 0);
        // Removing the captured pawn from d5 reveals the rook on d1, which
        // then retakes on d6: 100 - 100 + 100.
        assert_eq!(see_all("4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6", "e5d6"), 100);
    }

    #[test]
    fn king_captures_only_when_nothing_can_recapture() {
        // Kxd2 with nothing guarding d2: wins the rook.
        assert_eq!(see_all("4k3/8/8/8/8/8/3r4/4K3 w - -", "e1d2"), 500);
        // Rxd2 Rxd2 Kxd2: pawn, lose a rook, win a rook.
        assert_eq!(see_all("4k3/3r4/8/8/8/8/3p4/3RK3 w - -", "d1d2"), 100);
        // With a queen behind the black rook, the x-ray it reveals guards d2,
        // so the king may not retake: pawn for a rook.
        assert_eq!(see_all("3qk3/3r4/8/8/8/8/3p4/3RK3 w - -", "d1d2"), 100 - 500);
    }

    #[test]
    fn pins_count_on_the_board_the_exchange_has_left() {
        // The fourth reference exchange: the knight on e7 is pinned and
        // skipped.
        assert_eq!(see_all("5k2/4n3/8/3p4/1B6/8/3R4/4K3 w - -", "d2d5"), 100);
        // The queen on d4 pins the knight on f6 until it captures on d5
        // itself; then the knight takes it.
        assert_eq!(see_all("7k/8/5n2/3p4/3Q4/8/8/4K3 w - -", "d4d5"), 100 - 975);
        // A pinned rook may capture along its pin line.
        assert_eq!(see_all("4k3/4r3/8/4p3/8/8/4R3/4K3 w - -", "e2e5"), 100 - 500);
    }

    #[test]
    fn null_and_empty_moves_are_zero() {
        let pos = Position::startpos();
        assert_eq!(see::<MailboxAttackers>(&pos, Move::NULL), 0);
        let e4 = Square::parse("e4").unwrap().to_88();
        let bogus = Move::normal(e4, e4.offset(-16), Piece::EMPTY, Piece::EMPTY);
        assert_eq!(see::<BitboardAttackers<Magic>>(&pos, bogus), 0);
        assert_eq!(super::super::see_bitboard::<Magic>(&pos, bogus), 0);
        assert_eq!(super::super::see_bitboard::<Magic>(&pos, Move::NULL), 0);
    }
}
