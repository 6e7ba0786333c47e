//! The new generator: legal moves set-wise. One pass computes the checkers,
//! a check mask (squares a non-king move must land on) and the pinned
//! pieces; every piece's targets are then a few ANDs. Output goes to a
//! `Sink`: a move list, or a counter that popcounts whole target sets
//! (perft's bulk counting never builds the moves).

use super::{BitboardGen, MoveGen};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveAppender, MoveList};
use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::{between, line, BISHOP_LINES, KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS, ROOK_LINES};
use crate::types::{CastleRights, Color, Piece, PieceType, Square, Square88};

/// Each square as a move's destination field alone (a raw `Move` from a8,
/// the origin field's zero, with no pieces): one load per generated move
/// where converting the square and shifting it took four instructions.
static TO_FIELD: [u32; 64] = {
    let mut t = [0; 64];
    let mut i = 0;
    while i < 64 {
        let to = Square::from_index(i).to_88();
        t[i] = Move::normal(Square88::from_raw(0), to, Piece::EMPTY, Piece::EMPTY).raw();
        i += 1;
    }
    t
};

/// Each square as both a move's origin and destination fields: a pawn move
/// to `to` is `FROM_AND_TO_FIELDS[to]` less the step in 0x88 terms (which
/// lowers the origin field alone, never below zero), one load and one add
/// per move.
static FROM_AND_TO_FIELDS: [u32; 64] = {
    let mut t = [0; 64];
    let mut i = 0;
    while i < 64 {
        let sq = Square::from_index(i).to_88();
        t[i] = Move::normal(sq, sq, Piece::EMPTY, Piece::EMPTY).raw();
        i += 1;
    }
    t
};

/// A pawn step `shift` in 64-square indexes (±7, ±8, ±9, ±16) as a 0x88
/// step: sixteen per rank instead of eight.
#[inline(always)]
const fn step_88(shift: i32) -> i32 {
    shift + 8 * (shift + 4).div_euclid(8)
}

/// The fields of a pawn move to `to` by `shift` other than the squares.
/// Added to `FROM_AND_TO_FIELDS[to]` (wrapping: the step is subtracted).
#[inline(always)]
fn pawn_move_base(shift: i32, rest: Move) -> u32 {
    rest.raw().wrapping_sub(step_88(shift) as u32)
}

/// Where generated moves go.
trait Sink {
    /// Moves of the piece on `from` to each square of `targets`.
    fn targets(&mut self, pos: &Position, from: Square, targets: Bitboard);
    /// `us`'s pawn moves `to - shift -> to` for each `to` of `targets` (no
    /// promotion).
    fn pawns(&mut self, pos: &Position, us: Color, targets: Bitboard, shift: i32, flags: u32);
    /// `us`'s promotions `to - shift -> to` for each `to`, four per square.
    fn promotions(&mut self, pos: &Position, us: Color, targets: Bitboard, shift: i32);
    /// One fully built move (castling, en passant).
    fn one(&mut self, m: Move);

    /// [`targets`](Self::targets) onto empty squares only: nothing to look
    /// up on the destination (quiet generation, most of the moves).
    fn quiet_targets(&mut self, pos: &Position, from: Square, targets: Bitboard);
    /// [`pawns`](Self::pawns) onto empty squares only (pushes).
    fn quiet_pawns(&mut self, us: Color, targets: Bitboard, shift: i32, flags: u32);
}

impl Sink for MoveAppender<'_> {
    #[inline(always)]
    fn targets(&mut self, pos: &Position, from: Square, targets: Bitboard) {
        let f = from.to_88();
        let moved = pos.piece_at(f);
        for to in targets {
            self.push(Move::normal(f, to.to_88(), moved, pos.piece_on(to)));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, pos: &Position, us: Color, targets: Bitboard, shift: i32, flags: u32) {
        let pawn = Piece::new(us, PieceType::Pawn);
        for to in targets {
            let from = Square::from_index((to.index() as i32 - shift) as usize);
            self.push(Move::new(from.to_88(), to.to_88(), pawn, pos.piece_on(to), Piece::EMPTY, flags));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, pos: &Position, us: Color, targets: Bitboard, shift: i32) {
        let pawn = Piece::new(us, PieceType::Pawn);
        for to in targets {
            let from = Square::from_index((to.index() as i32 - shift) as usize);
            let captured = pos.piece_on(to);
            for kind in PieceType::PROMOTIONS {
                self.push(Move::new(from.to_88(), to.to_88(), pawn, captured, Piece::new(us, kind), 0));
            }
        }
    }

    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }

    #[inline(always)]
    fn quiet_targets(&mut self, pos: &Position, from: Square, targets: Bitboard) {
        let f = from.to_88();
        // Everything but the destination.
        let base = Move::normal(f, Square88::from_raw(0), pos.piece_at(f), Piece::EMPTY).raw();
        for to in targets {
            self.push(Move::from_raw(base | TO_FIELD[to.index()]));
        }
    }

    #[inline(always)]
    fn quiet_pawns(&mut self, us: Color, targets: Bitboard, shift: i32, flags: u32) {
        let pawn = Piece::new(us, PieceType::Pawn);
        let a8 = Square88::from_raw(0);
        let base = pawn_move_base(shift, Move::new(a8, a8, pawn, Piece::EMPTY, Piece::EMPTY, flags));
        for to in targets {
            self.push(Move::from_raw(FROM_AND_TO_FIELDS[to.index()].wrapping_add(base)));
        }
    }
}

/// Counts moves without building them.
struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn targets(&mut self, _: &Position, _: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn pawns(&mut self, _: &Position, _: Color, targets: Bitboard, _: i32, _: u32) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn promotions(&mut self, _: &Position, _: Color, targets: Bitboard, _: i32) {
        self.0 += 4 * targets.count() as u64;
    }

    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn quiet_targets(&mut self, pos: &Position, from: Square, targets: Bitboard) {
        self.targets(pos, from, targets);
    }

    #[inline(always)]
    fn quiet_pawns(&mut self, _: Color, targets: Bitboard, _: i32, _: u32) {
        self.0 += targets.count() as u64;
    }
}

/// Moves of the piece on `from` to `targets`; with `TACTICAL` off every
/// target is empty, and the destination goes unread. (Splitting `legal`'s
/// targets into captures and quiet moves the same way cost more than it
/// saved.)
#[inline(always)]
fn piece_moves<K: Sink, const TACTICAL: bool>(sink: &mut K, pos: &Position, from: Square, targets: Bitboard) {
    if TACTICAL {
        sink.targets(pos, from, targets);
    } else {
        sink.quiet_targets(pos, from, targets);
    }
}

/// Pieces of `us` pinned to their king, one bit each.
#[inline(always)]
fn pinned(pos: &Position, us: Color, king: Square) -> Bitboard {
    let them = us.flip();
    let occ = pos.occupied();
    // Enemy sliders on a line with the king, whatever stands between: one
    // blocked by its own side's piece pins nothing (that blocker is not
    // ours), so no slider probe is needed to leave it out.
    let snipers =
        (ROOK_LINES[king.index()] & pos.rook_likes(them)) | (BISHOP_LINES[king.index()] & pos.bishop_likes(them));
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = between(king, sniper) & occ;
        if !blockers.has_many() {
            pinned |= blockers & pos.color_bb(us);
        }
    }
    pinned
}

#[inline(always)]
fn pawn_moves<S: Sliders, K: Sink, const TACTICAL: bool, const QUIET: bool>(
    pos: &Position,
    sink: &mut K,
    us: Color,
    king: Square,
    check_mask: Bitboard,
    pinned: Bitboard,
) {
    let them = us.flip();
    let occ = pos.occupied();
    let empty = !occ;
    let theirs = pos.color_bb(them);
    let pawns = pos.bb(us, PieceType::Pawn);
    let last_rank = Bitboard::relative_rank(us, 7);
    let third_rank = Bitboard::relative_rank(us, 2);
    // Index shift from source to destination: forward is -8 for White
    // (towards rank 8, the low bits) and +8 for Black; west is -1.
    let push = if us == Color::White { -8 } else { 8 };
    let (west_shift, east_shift) = (push - 1, push + 1);

    // Unpinned pawns set-wise; pinned pawns one by one along their pin line.
    let free = pawns & !pinned;
    let one = free.forward(us) & empty;
    let two = (one & third_rank).forward(us) & empty & check_mask;
    let one = one & check_mask;
    let forward = free.forward(us);
    let cap_left = forward.west() & theirs & check_mask;
    let cap_right = forward.east() & theirs & check_mask;
    if QUIET {
        sink.quiet_pawns(us, one & !last_rank, push, 0);
        sink.quiet_pawns(us, two, 2 * push, Move::FLAG_DOUBLE_PUSH);
    }
    if TACTICAL {
        sink.promotions(pos, us, one & last_rank, push);
        sink.pawns(pos, us, cap_left & !last_rank, west_shift, 0);
        sink.pawns(pos, us, cap_right & !last_rank, east_shift, 0);
        sink.promotions(pos, us, cap_left & last_rank, west_shift);
        sink.promotions(pos, us, cap_right & last_rank, east_shift);
    }

    for from in pawns & pinned {
        let along = line(king, from) & check_mask;
        let b = Bitboard::from_square(from);
        let one = b.forward(us) & empty;
        let mut quiet = one & along;
        if from.relative_rank(us) == 1 {
            quiet |= (one.forward(us) & empty) & along;
        }
        let caps = PAWN_ATTACKS[us.index()][from.index()] & theirs & along;
        for to in quiet | caps {
            let shift = to.index() as i32 - from.index() as i32;
            let tb = Bitboard::from_square(to);
            let tactical = last_rank.has(to) || caps.has(to);
            if !(if tactical { TACTICAL } else { QUIET }) {
                continue;
            }
            if last_rank.has(to) {
                sink.promotions(pos, us, tb, shift);
            } else {
                let flags = if shift.abs() == 16 { Move::FLAG_DOUBLE_PUSH } else { 0 };
                sink.pawns(pos, us, tb, shift, flags);
            }
        }
    }

    if !TACTICAL {
        return;
    }
    if let Some(ep) = pos.ep_square() {
        let to = ep.to_64();
        let captured = Square::from_index((to.index() as i32 - push) as usize);
        // Legal only if it removes the checker or blocks the check.
        if check_mask.has(to) || check_mask.has(captured) {
            for from in PAWN_ATTACKS[them.index()][to.index()] & pawns {
                let after =
                    (occ ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured)) | Bitboard::from_square(to);
                let exposed =
                    (S::rook(king, after) & pos.rook_likes(them)) | (S::bishop(king, after) & pos.bishop_likes(them));
                if exposed.is_empty() {
                    sink.one(Move::new(
                        from.to_88(),
                        to.to_88(),
                        Piece::new(us, PieceType::Pawn),
                        Piece::new(them, PieceType::Pawn),
                        Piece::EMPTY,
                        Move::FLAG_EN_PASSANT,
                    ));
                }
            }
        }
    }
}

/// The legal moves of the kinds asked for: `TACTICAL` (captures, en
/// passant, promotions) and / or `QUIET` (every other move). With
/// `NOT_IN_CHECK` the caller vouches that the side to move is not in check,
/// and the checkers are not looked for. `WHITE` says who is to move: each
/// colour gets its own copy, so the colour-dependent shifts, ranks and
/// piece-set offsets are constants rather than selects and address
/// arithmetic.
#[inline(always)]
fn generate_for<
    S: Sliders,
    K: Sink,
    const TACTICAL: bool,
    const QUIET: bool,
    const NOT_IN_CHECK: bool,
    const WHITE: bool,
>(
    pos: &Position,
    sink: &mut K,
) {
    debug_assert_eq!(pos.side_to_move() == Color::White, WHITE);
    let us = if WHITE { Color::White } else { Color::Black };
    let them = us.flip();
    let occ = pos.occupied();
    let ours = pos.color_bb(us);
    let theirs = pos.color_bb(them);
    let king = pos.king_square(us);
    debug_assert!(!NOT_IN_CHECK || !pos.in_check());
    let checkers = if NOT_IN_CHECK { Bitboard::EMPTY } else { pos.attackers_to_by::<S>(king, them, occ) };

    // The squares a move of the kinds asked for may go to.
    let kinds = match (TACTICAL, QUIET) {
        (true, true) => !ours,
        (true, false) => theirs,
        (false, true) => !occ,
        (false, false) => Bitboard::EMPTY,
    };
    // King steps: test each target with the king lifted off the board, so
    // it cannot hide behind itself on a checking ray.
    let king_targets = KING_ATTACKS[king.index()] & kinds;
    let without_king = occ.without(king);
    let mut safe = Bitboard::EMPTY;
    for to in king_targets {
        if !pos.is_attacked_by::<S>(to, them, without_king) {
            safe = safe.with(to);
        }
    }
    piece_moves::<K, TACTICAL>(sink, pos, king, safe);
    if checkers.has_many() {
        return;
    }

    let check_mask = if checkers.is_empty() { Bitboard::FULL } else { between(king, checkers.lsb()) | checkers };
    let pinned = pinned(pos, us, king);
    let target_mask = kinds & check_mask;

    pawn_moves::<S, K, TACTICAL, QUIET>(pos, sink, us, king, check_mask, pinned);

    for from in pos.bb(us, PieceType::Knight) & !pinned {
        piece_moves::<K, TACTICAL>(sink, pos, from, KNIGHT_ATTACKS[from.index()] & target_mask);
    }
    // Free sliders first, then the pinned ones along their pin lines (rare:
    // testing each slider for a pin cost more than the second loops).
    for from in pos.bishop_likes(us) & !pinned {
        piece_moves::<K, TACTICAL>(sink, pos, from, S::bishop(from, occ) & target_mask);
    }
    for from in pos.rook_likes(us) & !pinned {
        piece_moves::<K, TACTICAL>(sink, pos, from, S::rook(from, occ) & target_mask);
    }
    for from in pos.bishop_likes(us) & pinned {
        piece_moves::<K, TACTICAL>(sink, pos, from, S::bishop(from, occ) & target_mask & line(king, from));
    }
    for from in pos.rook_likes(us) & pinned {
        piece_moves::<K, TACTICAL>(sink, pos, from, S::rook(from, occ) & target_mask & line(king, from));
    }

    if !QUIET || checkers.is_nonempty() {
        return;
    }
    let rights = pos.castling();
    let back = if us == Color::White { 0 } else { 7 };
    let sq = |file: u8| Square::new(file, back);
    let king_piece = Piece::new(us, PieceType::King);
    let attacked = |s: Square| pos.is_attacked_by::<S>(s, them, occ);
    if rights.has(CastleRights::king_side(us))
        && (occ & (Bitboard::from_square(sq(5)) | Bitboard::from_square(sq(6)))).is_empty()
        && !attacked(sq(5))
        && !attacked(sq(6))
    {
        sink.one(Move::new(king.to_88(), sq(6).to_88(), king_piece, Piece::EMPTY, Piece::EMPTY, Move::FLAG_CASTLE));
    }
    if rights.has(CastleRights::queen_side(us))
        && (occ & (Bitboard::from_square(sq(1)) | Bitboard::from_square(sq(2)) | Bitboard::from_square(sq(3))))
            .is_empty()
        && !attacked(sq(3))
        && !attacked(sq(2))
    {
        sink.one(Move::new(king.to_88(), sq(2).to_88(), king_piece, Piece::EMPTY, Piece::EMPTY, Move::FLAG_CASTLE));
    }
}

/// [`generate_for`] the side to move.
#[inline(always)]
fn generate<S: Sliders, K: Sink, const TACTICAL: bool, const QUIET: bool, const NOT_IN_CHECK: bool>(
    pos: &Position,
    sink: &mut K,
) {
    if pos.side_to_move() == Color::White {
        generate_for::<S, K, TACTICAL, QUIET, NOT_IN_CHECK, true>(pos, sink);
    } else {
        generate_for::<S, K, TACTICAL, QUIET, NOT_IN_CHECK, false>(pos, sink);
    }
}

impl<S: Sliders> MoveGen for BitboardGen<S> {
    const NAME: &'static str = "bitboard";

    #[inline]
    fn legal(pos: &Position, list: &mut MoveList) {
        generate::<S, _, true, true, false>(pos, &mut list.appender());
    }

    #[inline]
    fn tactical(pos: &Position, list: &mut MoveList) {
        generate::<S, _, true, false, false>(pos, &mut list.appender());
    }

    #[inline]
    fn tactical_not_in_check(pos: &Position, list: &mut MoveList) {
        generate::<S, _, true, false, true>(pos, &mut list.appender());
    }

    #[inline]
    fn quiet_not_in_check(pos: &Position, list: &mut MoveList) {
        generate::<S, _, false, true, true>(pos, &mut list.appender());
    }

    #[inline]
    fn quiet(pos: &Position, list: &mut MoveList) {
        generate::<S, _, false, true, false>(pos, &mut list.appender());
    }

    #[inline]
    fn count(pos: &Position) -> u64 {
        let mut c = Counter(0);
        generate::<S, Counter, true, true, false>(pos, &mut c);
        c.0
    }
}
