//! Old form: answer attack questions by scanning the attacker's piece list
//! and consulting the 0x88 difference table, walking slider rays square by
//! square to check they are open. [`MailboxAttackers`] is the old
//! `GetAttacks`.

use super::{AttackerBuilder, SeeEntry, SeeList, PIECE_VECTOR_BIT};
use crate::position::Position;
use crate::tables::{ATTACK_VECTOR, DIFF_STEP, PAWN_CAPTURES};
use crate::types::{Color, PieceType, Square88};

/// Is every square strictly between `from` and `to` (which share a line)
/// empty?
#[inline(always)]
pub(crate) fn ray_is_open(pos: &Position, from: Square88, to: Square88) -> bool {
    let step = DIFF_STEP[Square88::diff_index(from, to)];
    let mut sq = from.offset(step);
    while sq != to {
        if !pos.piece_at(sq).is_empty() {
            return false;
        }
        sq = sq.offset(step);
    }
    true
}

/// Like [`ray_is_open`] but treating `vacated` as empty and `filled` as
/// occupied: the board after a king or an en-passant pawn moves.
#[inline]
pub(crate) fn ray_is_open_after(
    pos: &Position,
    from: Square88,
    to: Square88,
    vacated: [Square88; 2],
    filled: Square88,
) -> bool {
    let step = DIFF_STEP[Square88::diff_index(from, to)];
    let mut sq = from.offset(step);
    while sq != to {
        if sq == filled || (!pos.piece_at(sq).is_empty() && sq != vacated[0] && sq != vacated[1]) {
            return false;
        }
        sq = sq.offset(step);
    }
    true
}

/// Does the piece of `by` on `from` attack `to`?
#[inline(always)]
pub(crate) fn piece_attacks(pos: &Position, from: Square88, to: Square88) -> bool {
    let piece = pos.piece_at(from);
    if ATTACK_VECTOR[Square88::diff_index(from, to)] & PIECE_VECTOR_BIT[piece.index()] == 0 {
        return false;
    }
    !piece.kind().is_slider() || ray_is_open(pos, from, to)
}

/// Is a `by` pawn standing where it attacks `sq`?
#[inline(always)]
pub(crate) fn pawn_attacks_square(pos: &Position, sq: Square88, by: Color) -> bool {
    PAWN_CAPTURES[by.index()].iter().any(|&d| {
        let from = sq.offset(-d);
        from.is_on_board() && pos.piece_at(from).is(by, PieceType::Pawn)
    })
}

/// Is `sq` attacked by any piece of `by`?
pub fn is_attacked_mailbox(pos: &Position, sq: Square88, by: Color) -> bool {
    if pawn_attacks_square(pos, sq, by) {
        return true;
    }
    pos.piece_list(by).iter().any(|&from| piece_attacks(pos, from, sq))
}

/// Would `sq` be attacked by `by` if the squares in `vacated` were empty,
/// `filled` were occupied, and the piece on `ignored` (a captured attacker)
/// were gone? Used for king steps and en-passant legality.
pub(crate) fn is_attacked_after(
    pos: &Position,
    sq: Square88,
    by: Color,
    vacated: [Square88; 2],
    filled: Square88,
    ignored: Square88,
) -> bool {
    let pawn_hit = PAWN_CAPTURES[by.index()].iter().any(|&d| {
        let from = sq.offset(-d);
        from.is_on_board() && from != ignored && pos.piece_at(from).is(by, PieceType::Pawn)
    });
    if pawn_hit {
        return true;
    }
    pos.piece_list(by).iter().any(|&from| {
        if from == ignored {
            return false;
        }
        let piece = pos.piece_at(from);
        if ATTACK_VECTOR[Square88::diff_index(from, sq)] & PIECE_VECTOR_BIT[piece.index()] == 0 {
            return false;
        }
        !piece.kind().is_slider() || ray_is_open_after(pos, from, sq, vacated, filled)
    })
}

/// The old `GetAttacks`: the two pawn squares first, then the non-pawn list
/// walked from its end, so the king (index 0) comes last. Every candidate
/// is screened with the difference table; sliders then walk the ray.
#[derive(Copy, Clone, Default, Debug)]
pub struct MailboxAttackers;

impl AttackerBuilder for MailboxAttackers {
    const NAME: &'static str = "mailbox";

    #[inline]
    fn build(pos: &Position, sq: Square88, color: Color, list: &mut SeeList) {
        list.clear();
        for &d in &PAWN_CAPTURES[color.index()] {
            let from = sq.offset(-d);
            if from.is_on_board() {
                let p = pos.piece_at(from);
                if p.is(color, PieceType::Pawn) {
                    list.push(SeeEntry::new(from, p));
                }
            }
        }
        for &from in pos.piece_list(color).iter().rev() {
            if piece_attacks(pos, from, sq) {
                list.push(SeeEntry::new(from, pos.piece_at(from)));
            }
        }
    }
}
