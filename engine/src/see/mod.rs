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

use crate::moves::Move;
use crate::types::PieceType;

/// Longest exchange kept: one capture per man on the board, plus the first.
const MAX_EXCHANGE: usize = 40;

/// What a pawn gains by becoming a queen.
const QUEEN_BONUS: i32 = PieceType::Queen.value() - PieceType::Pawn.value();

/// The swap list both forms keep: what each capture in turn gains for the
/// side making it, folded at the end with min/max (either side may stop
/// capturing).
struct Gains {
    gain: [i32; MAX_EXCHANGE],
    len: usize,
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
        let mut g = Gains {
            gain: [0; MAX_EXCHANGE],
            len: 1,
            at_stake: m.moved().kind().value(),
            promotion_square: to.rank() == 0 || to.rank() == 7,
        };
        g.gain[0] = if captured.is_empty() { 0 } else { captured.kind().value() };
        if m.is_promotion() {
            let promoted = m.promotion().kind().value();
            g.gain[0] += promoted - PieceType::Pawn.value();
            g.at_stake = promoted;
        }
        g
    }

    /// Room for another capture?
    #[inline(always)]
    fn has_room(&self) -> bool {
        self.len < MAX_EXCHANGE
    }

    /// The next capture, by a piece of `kind` worth `value`.
    #[inline(always)]
    fn capture(&mut self, kind: PieceType, value: i32) {
        let bonus = if self.promotion_square && kind == PieceType::Pawn { QUEEN_BONUS } else { 0 };
        self.gain[self.len] = self.at_stake + bonus - self.gain[self.len - 1];
        self.at_stake = value + bonus;
        self.len += 1;
    }

    /// The first move's value once every capture may be declined.
    #[inline(always)]
    fn resolve(mut self) -> i32 {
        let mut d = self.len - 1;
        while d > 0 {
            self.gain[d - 1] = -(-self.gain[d - 1]).max(self.gain[d]);
            d -= 1;
        }
        self.gain[0]
    }
}
