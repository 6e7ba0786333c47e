//! Static exchange evaluation (DESIGN §4.3) in two forms that must agree on
//! every move:
//!
//! * [`lists`]: the original algorithm over attacker lists from any
//!   [`AttackerBuilder`](crate::attackers::AttackerBuilder), with x-rays and
//!   pins found by walking 0x88 rays ([`see`]). With the mailbox builder this
//!   is the old routine entire; with the bitboard builder only the lists are
//!   new.
//! * [`bitboard`]: the same rules on bitboards end to end — attacker sets
//!   instead of lists, x-rays and pins from slider probes on the occupancy the
//!   exchange has left ([`see_bitboard`]).
//!
//! `engine equiv` and the tests compare both forms move by move.

pub mod bitboard;
pub mod lists;

pub use bitboard::see_bitboard;
pub use lists::see;

use crate::fixed_vec::FixedVec;
use crate::moves::Move;
use crate::types::PieceType;

/// Longest exchange kept: one capture per man on the board, plus the first.
const MAX_EXCHANGE: usize = 40;

/// What a pawn gains by becoming a queen.
const QUEEN_BONUS: i32 = PieceType::Queen.value() - PieceType::Pawn.value();

/// The swap list both forms keep: what each capture in turn gains for the
/// side making it, folded at the end with min/max (either side may stop
/// capturing). A `FixedVec`, so starting an exchange writes no array.
struct Gains {
    gain: FixedVec<i32, MAX_EXCHANGE>,
    /// The last gain pushed.
    last: i32,
    /// The value of the piece now standing on the target.
    at_stake: i32,
    /// The target is on the first or last rank: a pawn capturing there
    /// becomes a queen.
    promotion_square: bool,
}

impl Gains {
    /// The first move's gain: the captured piece's value (nothing for a
    /// quiet move), plus a promotion's gain over the pawn.
    #[inline(always)]
    fn first(m: Move) -> Gains {
        let to = m.to();
        let captured = m.captured();
        let mut first = if captured.is_empty() { 0 } else { captured.kind().value() };
        let mut at_stake = m.moved().kind().value();
        if m.is_promotion() {
            let promoted = m.promotion().kind().value();
            first += promoted - PieceType::Pawn.value();
            at_stake = promoted;
        }
        let mut gain = FixedVec::new();
        gain.push(first);
        Gains { gain, last: first, at_stake, promotion_square: to.rank() == 0 || to.rank() == 7 }
    }

    /// Room for another capture?
    #[inline(always)]
    fn has_room(&self) -> bool {
        !self.gain.is_full()
    }

    /// The next capture, by a piece of `kind` worth `value`.
    #[inline(always)]
    fn capture(&mut self, kind: PieceType, value: i32) {
        let bonus = if self.promotion_square && kind == PieceType::Pawn { QUEEN_BONUS } else { 0 };
        self.last = self.at_stake + bonus - self.last;
        self.gain.push(self.last);
        self.at_stake = value + bonus;
    }

    /// The first move's value once every capture may be declined.
    #[inline(always)]
    fn resolve(self) -> i32 {
        let g = self.gain.as_slice();
        let mut best = self.last;
        for &earlier in g[..g.len() - 1].iter().rev() {
            best = -(-earlier).max(best);
        }
        best
    }
}
