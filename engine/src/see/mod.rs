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
