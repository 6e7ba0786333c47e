//! The attack routines a profile picks as one unit: check detection (of the
//! side to move, and of the move just made), static exchange evaluation and
//! the cheap "loses to a recapture" test, old and new side by side. All of
//! them build attacker sets, so a profile takes them in one form or the
//! other, never mixed.

use crate::attackers::{is_attacked_mailbox, CheckInfo, MailboxAttackers};
use crate::moves::Move;
use crate::position::Position;
use crate::see::{loses_to_recapture_bitboard, loses_to_recapture_mailbox, see, see_bitboard};
use crate::sliders::FastSliders;

/// Check detection and static exchange evaluation: the routines that build
/// attacker sets. Both forms give the same answers (`engine equiv`
/// compares them on random positions).
pub trait AttackRoutines {
    /// What a node computes once, before making its moves, for
    /// [`gives_check`](Self::gives_check).
    type CheckInfo: Copy;
    /// Whether [`gives_check_unmade`](Self::gives_check_unmade) answers
    /// without making the move. If not, the search makes a move it may
    /// prune and asks [`gives_check`](Self::gives_check), the old way.
    const CHECKS_UNMADE: bool;
    /// Is the side to move in check?
    fn in_check(pos: &Position) -> bool;
    /// The check information of `pos`'s side to move.
    fn check_info(pos: &Position) -> Self::CheckInfo;
    /// `m` has just been made in the position `info` was computed for, and
    /// `pos` is the position after it: is the side now to move in check?
    fn gives_check(pos: &Position, info: &Self::CheckInfo, m: Move) -> bool;
    /// `m`, a quiet move of `pos` (the position `info` was computed for),
    /// not yet made: would it give check? `pos` is left as it was. The
    /// search asks this of a move it would prune unless it checks.
    fn gives_check_unmade(pos: &mut Position, info: &Self::CheckInfo, m: Move) -> bool;
    /// Static exchange evaluation of `m`.
    fn see(pos: &Position, m: Move) -> i32;
    /// Is SEE of `m` surely negative, by a cheaper legal recapture?
    /// (`false`: not known without the exchange.)
    fn loses_to_recapture(pos: &Position, m: Move) -> bool;
}

/// The old forms: the piece-list scan for check, SEE over mailbox
/// attacker lists.
pub struct MailboxAttacks;

/// The new forms: bitboard attackers for check, SEE on bitboards end to
/// end.
pub struct BitboardAttacks;

impl AttackRoutines for MailboxAttacks {
    /// Nothing: the old form scans the king's attackers after the move.
    type CheckInfo = ();
    const CHECKS_UNMADE: bool = false;

    #[inline(always)]
    fn in_check(pos: &Position) -> bool {
        let us = pos.side_to_move();
        is_attacked_mailbox(pos, pos.king_square88(us), us.flip())
    }

    #[inline(always)]
    fn check_info(_: &Position) {}

    #[inline(always)]
    fn gives_check(pos: &Position, _: &(), _: Move) -> bool {
        Self::in_check(pos)
    }

    /// The old way: make the move, scan, take it back (the search does
    /// not call it: [`CHECKS_UNMADE`](AttackRoutines::CHECKS_UNMADE) is
    /// false; the equivalence checks do).
    #[inline(always)]
    fn gives_check_unmade(pos: &mut Position, _: &(), m: Move) -> bool {
        pos.make(m);
        let check = Self::in_check(pos);
        pos.unmake();
        check
    }

    #[inline(always)]
    fn see(pos: &Position, m: Move) -> i32 {
        see::<MailboxAttackers>(pos, m)
    }

    #[inline(always)]
    fn loses_to_recapture(pos: &Position, m: Move) -> bool {
        loses_to_recapture_mailbox(pos, m)
    }
}

impl AttackRoutines for BitboardAttacks {
    type CheckInfo = CheckInfo;
    const CHECKS_UNMADE: bool = true;

    #[inline(always)]
    fn in_check(pos: &Position) -> bool {
        pos.in_check()
    }

    #[inline(always)]
    fn check_info(pos: &Position) -> CheckInfo {
        CheckInfo::new::<FastSliders>(pos)
    }

    #[inline(always)]
    fn gives_check(pos: &Position, info: &CheckInfo, m: Move) -> bool {
        info.gives_check(pos, m)
    }

    /// From the check information alone, except for castling (rare among
    /// the moves asked about), which is made and scanned.
    #[inline(always)]
    fn gives_check_unmade(pos: &mut Position, info: &CheckInfo, m: Move) -> bool {
        if m.is_castle() {
            pos.make(m);
            let check = info.gives_check(pos, m);
            pos.unmake();
            return check;
        }
        info.gives_check_unmade::<FastSliders>(pos, m)
    }

    #[inline(always)]
    fn see(pos: &Position, m: Move) -> i32 {
        see_bitboard::<FastSliders>(pos, m)
    }

    #[inline(always)]
    fn loses_to_recapture(pos: &Position, m: Move) -> bool {
        loses_to_recapture_bitboard::<FastSliders>(pos, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_detection_agrees() {
        for (fen, check) in [
            ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", true),
            ("4k3/8/8/8/1b6/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/4P3/r2BK3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", true),
            ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR w KQkq - 0 2", false),
            ("4k3/8/8/8/8/8/r7/6K1 b - - 0 1", false),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(MailboxAttacks::in_check(&pos), check, "{fen}");
            assert_eq!(BitboardAttacks::in_check(&pos), check, "{fen}");
        }
    }
}
