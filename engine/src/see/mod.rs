//! Static exchange evaluation in two forms that must agree on every move:
//!
//! * Over lists (`lists.rs`): the original algorithm over attacker lists
//!   from any [`AttackerBuilder`](crate::attackers::AttackerBuilder), with
//!   x-rays and pins found by walking 0x88 rays ([`see`](fn@see)). With the
//!   mailbox builder this is the old routine entire; with the bitboard
//!   builder only the lists are new.
//! * On bitboards (`bitboard.rs`): the same rules end to end — attacker sets
//!   instead of lists, x-rays and pins from slider probes on the occupancy the
//!   exchange has left ([`see_bitboard`]).
//!
//! `engine equiv` and the tests compare both forms move by move.
//!
//! Each form also answers, without playing the exchange out, the question
//! a quiescence search asks most (is this capture's SEE negative?) for the
//! captures a cheaper recapture refutes ([`loses_to_recapture_mailbox`],
//! [`loses_to_recapture_bitboard`]; `recapture_margin` in this module gives
//! the bound).

pub(crate) mod bitboard;
pub(crate) mod lists;

pub use bitboard::{loses_to_recapture_bitboard, see_bitboard};
pub use lists::{loses_to_recapture_mailbox, see};

use crate::fixed_vec::FixedVec;
use crate::moves::Move;
use crate::types::PieceType;

/// Longest exchange kept: one capture per man on the board, plus the first.
const MAX_EXCHANGE: usize = 40;

/// What a pawn gains by becoming a queen.
const QUEEN_BONUS: i32 = PieceType::Queen.value() - PieceType::Pawn.value();

/// How much cheaper than the capturer a recapturer must be for `m` to surely
/// lose material: `capturer − victim` when `m` is a capture (not en
/// passant, not a promotion, not onto the first or last rank) by a piece
/// worth more than its victim and a pawn together; `None` otherwise.
///
/// The bound, in the rules of both forms: the opponent's cheapest legal
/// recapturer, worth `c`, takes the capturer; the capturing side can then
/// win back at most `c`, and either side may stop. So SEE(`m`) ≤ victim −
/// capturer + `c`, and one legal recapturer worth less than the margin
/// (hence `c` too) makes it negative. Kings never count: they recapture
/// only undefended pieces. The first and last ranks are left out because
/// a pawn taking back there becomes a queen, which breaks the bound.
#[inline(always)]
fn recapture_margin(m: Move) -> Option<i32> {
    let rank = m.to().rank();
    if !m.is_capture() || m.is_promotion() || m.is_en_passant() || rank == 0 || rank == 7 {
        return None;
    }
    let margin = m.moved_value() - m.captured_value();
    (margin > PieceType::Pawn.value() && m.moved_kind() != PieceType::King).then_some(margin)
}

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
        let first = m.material_gain();
        let at_stake = if m.is_promotion() { m.promotion().kind().value() } else { m.moved_value() };
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

    /// The first move's value once every capture may be declined. By
    /// reference: taking `self` by value copied the whole swap list (160
    /// bytes) before the fold, on every exchange.
    #[inline(always)]
    fn resolve(&self) -> i32 {
        let g = self.gain.as_slice();
        // One recapture, the commonest exchange: the fold below, unrolled
        // and vectorised by the compiler, spent a dozen instructions
        // setting up for a list this short.
        if let [first, _] = *g {
            return first.min(-self.last);
        }
        let mut best = self.last;
        for &earlier in g[..g.len() - 1].iter().rev() {
            best = -(-earlier).max(best);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attackers::MailboxAttackers;
    use crate::movegen::legal_moves;
    use crate::position::Position;
    use crate::sliders::{FastSliders, Magic};
    use crate::tools::randpos::random_positions;

    /// Both forms' answer for `uci` in `fen` (they must agree).
    fn loses(fen: &str, uci: &str) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let m = *legal_moves(&pos)
            .iter()
            .find(|m| m.uci().as_str() == uci)
            .unwrap_or_else(|| panic!("{uci} not legal in {fen}"));
        let old = loses_to_recapture_mailbox(&pos, m);
        assert_eq!(old, loses_to_recapture_bitboard::<Magic>(&pos, m), "{fen} {uci}");
        assert_eq!(old, loses_to_recapture_bitboard::<FastSliders>(&pos, m), "{fen} {uci}");
        if old {
            assert!(see::<MailboxAttackers>(&pos, m) < 0, "{fen} {uci}");
        }
        old
    }

    #[test]
    fn cheaper_recaptures() {
        // Queen takes a pawn-guarded pawn; rook takes one; knight takes one.
        assert!(loses("4k3/8/2p5/3p4/8/8/8/3QK3 w - -", "d1d5"));
        assert!(loses("4k3/8/2p5/3p4/8/8/8/3RK3 w - -", "d1d5"));
        assert!(loses("4k3/8/2p5/3p4/8/4N3/8/4K3 w - -", "e3d5"));
        // Bishop takes a pawn-guarded knight: not a loss by the bound.
        assert!(!loses("4k3/8/2p5/3n4/8/8/6B1/4K3 w - -", "g2d5"));
        // A knight guard refutes a rook, not a bishop.
        assert!(loses("4k3/8/5n2/3p4/8/8/8/3RK3 w - -", "d1d5"));
        assert!(!loses("4k3/8/5n2/3p4/8/8/6B1/4K3 w - -", "g2d5"));
        // Nothing on the last rank: there a pawn taking back becomes a
        // queen (here Nxf1 exf1=Q would leave Black the knight up).
        assert!(!loses("7k/8/8/8/8/8/3Np1K1/3q1N2 b - -", "d1f1"));
        // A rook guard refutes only a queen.
        assert!(loses("3rk3/8/8/3p4/8/8/8/3QK3 w - -", "d1d5"));
        assert!(!loses("3rk3/8/8/3p4/8/8/8/3RK3 w - -", "d1d5"));
        // The pawn guard is pinned to its king (by the bishop on a2, by the
        // rook on f1) ...
        assert!(!loses("8/8/4k3/3p4/4p3/8/B4N2/4K3 w - -", "f2e4"));
        assert!(!loses("5k2/8/5p2/4p3/8/8/8/4RRK1 w - -", "e1e5"));
        // ... but not when the capturer lands on the pin line.
        assert!(loses("8/6k1/5p2/4p3/8/8/1B6/4R1K1 w - -", "e1e5"));
        // A rook guard that only sees the target once the queen has left d4.
        assert!(loses("3rk3/8/8/3p4/3Q4/8/8/4K3 w - -", "d4d5"));
        assert!(loses("4k3/8/8/3p4/3Q4/8/3r4/7K w - -", "d4d5"));
        // En passant and promotions are left to the exchange.
        assert!(!loses("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6", "e5d6"));
    }

    /// Over random positions the forms agree, the bound holds, and it
    /// decides a fair share of the captures whose SEE is negative.
    #[test]
    fn agrees_with_the_exchange_on_random_positions() {
        let (mut decided, mut negative) = (0, 0);
        for pos in random_positions(3000, 0x5EE) {
            for &m in legal_moves(&pos).iter().filter(|m| m.is_capture()) {
                let old = loses_to_recapture_mailbox(&pos, m);
                assert_eq!(old, loses_to_recapture_bitboard::<FastSliders>(&pos, m), "{} {m}", pos.to_fen());
                let value = see::<MailboxAttackers>(&pos, m);
                assert!(!old || value < 0, "{} {m}: SEE {value}", pos.to_fen());
                decided += old as u32;
                negative += (value < 0) as u32;
            }
        }
        assert!(decided * 5 > negative, "decided {decided} of {negative} negative captures");
    }
}
