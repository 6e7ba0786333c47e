//! The old generator: walk the side's pawn and piece lists on the 0x88
//! board with step deltas. Legality comes from a ray scan around the king
//! (checkers and pinned pieces) done once per call; king steps and en
//! passant are tested directly with the mailbox attack scan.

use super::{MailboxGen, MoveGen};
use crate::attackers::mailbox::{is_attacked_after, is_attacked_mailbox};
use crate::moves::{Move, MoveAppender, MoveList};
use crate::position::Position;
use crate::tables::{
    BISHOP_DELTAS, DIFF_STEP, KING_DELTAS, KNIGHT_DELTAS, PAWN_CAPTURES, PAWN_PUSH, QUEEN_DELTAS, ROOK_DELTAS,
};
use crate::types::{CastleRights, Color, Piece, PieceType, Square88};

/// An off-board square that never equals a real one.
const NOWHERE: Square88 = Square88::from_raw(0x88);

/// Checks and pins around the side to move's king.
struct KingSafety {
    king: Square88,
    checkers: u32,
    checker: Square88,
    /// Step from the king towards a sliding checker, 0 for a leaper.
    checker_step: i8,
    pinned: [(Square88, i8); 8],
    pinned_count: usize,
}

impl KingSafety {
    fn new(pos: &Position, us: Color) -> KingSafety {
        let them = us.flip();
        let king = pos.king_square88(us);
        let mut ks = KingSafety {
            king,
            checkers: 0,
            checker: NOWHERE,
            checker_step: 0,
            pinned: [(NOWHERE, 0); 8],
            pinned_count: 0,
        };
        for &d in &PAWN_CAPTURES[them.index()] {
            let from = king.offset(-d);
            if from.is_on_board() && pos.piece_at(from).is(them, PieceType::Pawn) {
                ks.add_checker(from, 0);
            }
        }
        for &d in &KNIGHT_DELTAS {
            let from = king.offset(d);
            if from.is_on_board() && pos.piece_at(from).is(them, PieceType::Knight) {
                ks.add_checker(from, 0);
            }
        }
        for (i, &d) in QUEEN_DELTAS.iter().enumerate() {
            let slider = if i < 4 { PieceType::Rook } else { PieceType::Bishop };
            let mut own: Option<Square88> = None;
            let mut sq = king.offset(d);
            while sq.is_on_board() {
                let p = pos.piece_at(sq);
                if !p.is_empty() {
                    if p.color() == us {
                        if own.is_some() {
                            break;
                        }
                        own = Some(sq);
                    } else {
                        if p.kind() == slider || p.kind() == PieceType::Queen {
                            match own {
                                None => ks.add_checker(sq, d),
                                Some(pinned) => {
                                    ks.pinned[ks.pinned_count] = (pinned, d);
                                    ks.pinned_count += 1;
                                }
                            }
                        }
                        break;
                    }
                }
                sq = sq.offset(d);
            }
        }
        ks
    }

    fn add_checker(&mut self, sq: Square88, step: i8) {
        self.checkers += 1;
        self.checker = sq;
        self.checker_step = step;
    }

    /// The pin direction of the piece on `sq`, if pinned.
    #[inline]
    fn pin_step(&self, sq: Square88) -> Option<i8> {
        self.pinned[..self.pinned_count].iter().find(|(p, _)| *p == sq).map(|&(_, d)| d)
    }

    /// Does a non-king move to `to` resolve the (single) check, if any?
    #[inline]
    fn resolves_check(&self, to: Square88) -> bool {
        if self.checkers == 0 || to == self.checker {
            return true;
        }
        if self.checker_step == 0 {
            return false;
        }
        // A block: `to` lies on the ray from the king towards the checker,
        // nearer than the checker.
        let step = DIFF_STEP[Square88::diff_index(self.king, to)];
        step == self.checker_step && distance(self.king, to) < distance(self.king, self.checker)
    }

    /// May a piece standing on `from` legally move to `to`?
    #[inline]
    fn allows(&self, from: Square88, to: Square88) -> bool {
        if let Some(d) = self.pin_step(from) {
            if DIFF_STEP[Square88::diff_index(self.king, to)] != d {
                return false;
            }
        }
        self.resolves_check(to)
    }
}

#[inline]
fn distance(a: Square88, b: Square88) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

fn push_promotions(list: &mut MoveAppender<'_>, from: Square88, to: Square88, moved: Piece, captured: Piece) {
    for kind in PieceType::PROMOTIONS {
        list.push(Move::new(from, to, moved, captured, Piece::new(moved.color(), kind), 0));
    }
}

fn pawn_moves<const TACTICAL: bool, const QUIET: bool>(pos: &Position, ks: &KingSafety, list: &mut MoveAppender<'_>) {
    let us = pos.side_to_move();
    let them = us.flip();
    let push = PAWN_PUSH[us.index()];
    let pawn = Piece::new(us, PieceType::Pawn);
    for &from in pos.pawn_list(us) {
        let promotes = from.relative_rank(us) == 6;
        let one = from.offset(push);
        if pos.piece_at(one).is_empty() {
            if promotes {
                if TACTICAL && ks.allows(from, one) {
                    push_promotions(list, from, one, pawn, Piece::EMPTY);
                }
            } else if QUIET {
                if ks.allows(from, one) {
                    list.push(Move::normal(from, one, pawn, Piece::EMPTY));
                }
                let two = one.offset(push);
                if from.relative_rank(us) == 1 && pos.piece_at(two).is_empty() && ks.allows(from, two) {
                    list.push(Move::new(from, two, pawn, Piece::EMPTY, Piece::EMPTY, Move::FLAG_DOUBLE_PUSH));
                }
            }
        }
        if !TACTICAL {
            continue;
        }
        for &d in &PAWN_CAPTURES[us.index()] {
            let to = from.offset(d);
            if !to.is_on_board() {
                continue;
            }
            let target = pos.piece_at(to);
            if !target.is_empty() && target.color() == them {
                if ks.allows(from, to) {
                    if promotes {
                        push_promotions(list, from, to, pawn, target);
                    } else {
                        list.push(Move::normal(from, to, pawn, target));
                    }
                }
            } else if Some(to) == pos.ep_square() {
                // En passant empties two squares on the capturer's rank, so
                // test the king directly on the board after the capture.
                let captured_sq = to.offset(-push);
                if !is_attacked_after(pos, ks.king, them, [from, captured_sq], to, captured_sq) {
                    let captured = Piece::new(them, PieceType::Pawn);
                    list.push(Move::new(from, to, pawn, captured, Piece::EMPTY, Move::FLAG_EN_PASSANT));
                }
            }
        }
    }
}

fn leaper_moves<const TACTICAL: bool, const QUIET: bool>(
    pos: &Position,
    ks: &KingSafety,
    from: Square88,
    deltas: &[i8],
    list: &mut MoveAppender<'_>,
) {
    let moved = pos.piece_at(from);
    let us = moved.color();
    for &d in deltas {
        let to = from.offset(d);
        if !to.is_on_board() {
            continue;
        }
        let target = pos.piece_at(to);
        if (target.is_empty() && QUIET || TACTICAL && !target.is_empty() && target.color() != us) && ks.allows(from, to)
        {
            list.push(Move::normal(from, to, moved, target));
        }
    }
}

fn slider_moves<const TACTICAL: bool, const QUIET: bool>(
    pos: &Position,
    ks: &KingSafety,
    from: Square88,
    deltas: &[i8],
    list: &mut MoveAppender<'_>,
) {
    let moved = pos.piece_at(from);
    let us = moved.color();
    let pin = ks.pin_step(from);
    for &d in deltas {
        // A pinned slider only moves along its pin line.
        if let Some(p) = pin {
            if d != p && d != -p {
                continue;
            }
        }
        let mut to = from.offset(d);
        while to.is_on_board() {
            let target = pos.piece_at(to);
            if target.is_empty() {
                if QUIET && ks.resolves_check(to) {
                    list.push(Move::normal(from, to, moved, target));
                }
            } else {
                if TACTICAL && target.color() != us && ks.resolves_check(to) {
                    list.push(Move::normal(from, to, moved, target));
                }
                break;
            }
            to = to.offset(d);
        }
    }
}

fn king_moves<const TACTICAL: bool, const QUIET: bool>(pos: &Position, ks: &KingSafety, list: &mut MoveAppender<'_>) {
    let us = pos.side_to_move();
    let them = us.flip();
    let from = ks.king;
    let king = pos.piece_at(from);
    for &d in &KING_DELTAS {
        let to = from.offset(d);
        if !to.is_on_board() {
            continue;
        }
        let target = pos.piece_at(to);
        let wanted = if target.is_empty() { QUIET } else { TACTICAL && target.color() != us };
        if !wanted {
            continue;
        }
        // The king must not shelter behind its own square on a checking ray.
        if !is_attacked_after(pos, to, them, [from, from], NOWHERE, NOWHERE) {
            list.push(Move::normal(from, to, king, target));
        }
    }
    if !QUIET || ks.checkers > 0 {
        return;
    }
    let rights = pos.castling();
    for (bit, rook_file, empty_files, safe_files) in [
        (CastleRights::king_side(us), 7u8, &[5u8, 6][..], &[5u8, 6][..]),
        (CastleRights::queen_side(us), 0u8, &[1u8, 2, 3][..], &[3u8, 2][..]),
    ] {
        if !rights.has(bit) {
            continue;
        }
        let back = if us == Color::White { 0 } else { 7 };
        debug_assert!(pos.piece_at(Square88::new(rook_file, back)).is(us, PieceType::Rook));
        if empty_files.iter().all(|&f| pos.piece_at(Square88::new(f, back)).is_empty())
            && safe_files.iter().all(|&f| !is_attacked_mailbox(pos, Square88::new(f, back), them))
        {
            let to = Square88::new(if rook_file == 7 { 6 } else { 2 }, back);
            list.push(Move::new(from, to, king, Piece::EMPTY, Piece::EMPTY, Move::FLAG_CASTLE));
        }
    }
}

/// The legal moves of the kinds asked for: `TACTICAL` (captures, en
/// passant, promotions) and / or `QUIET` (every other move).
fn generate<const TACTICAL: bool, const QUIET: bool>(pos: &Position, list: &mut MoveAppender<'_>) {
    let us = pos.side_to_move();
    let ks = KingSafety::new(pos, us);
    king_moves::<TACTICAL, QUIET>(pos, &ks, list);
    if ks.checkers > 1 {
        return;
    }
    pawn_moves::<TACTICAL, QUIET>(pos, &ks, list);
    for &from in &pos.piece_list(us)[1..] {
        match pos.piece_at(from).kind() {
            PieceType::Knight => leaper_moves::<TACTICAL, QUIET>(pos, &ks, from, &KNIGHT_DELTAS, list),
            PieceType::Bishop => slider_moves::<TACTICAL, QUIET>(pos, &ks, from, &BISHOP_DELTAS, list),
            PieceType::Rook => slider_moves::<TACTICAL, QUIET>(pos, &ks, from, &ROOK_DELTAS, list),
            PieceType::Queen => slider_moves::<TACTICAL, QUIET>(pos, &ks, from, &QUEEN_DELTAS, list),
            PieceType::Pawn | PieceType::King => {}
        }
    }
}

impl MoveGen for MailboxGen {
    const NAME: &'static str = "mailbox";

    fn legal(pos: &Position, list: &mut MoveList) {
        generate::<true, true>(pos, &mut list.appender());
    }

    fn tactical(pos: &Position, list: &mut MoveList) {
        generate::<true, false>(pos, &mut list.appender());
    }

    fn quiet(pos: &Position, list: &mut MoveList) {
        generate::<false, true>(pos, &mut list.appender());
    }
}
