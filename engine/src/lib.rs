//! `engine`: a chess engine core in which every routine a mailbox-to-bitboard
//! migration touches exists in its old (0x88 mailbox) and new (bitboard:
//! magic and PEXT) form over one shared [`Position`].
//!
//! The core, each layer using only those above it:
//!
//! * [`types`], [`bitboard`], [`moves`]: the value types; [`fixed_vec`],
//!   the allocation-free list behind [`MoveList`].
//! * [`sliders`]: slider attacks by ray walk, magic and PEXT behind the
//!   [`sliders::Sliders`] trait.
//! * [`position`]: the board in both representations, FEN/EPD,
//!   make/unmake, `verify()`.
//! * [`movegen`]: legal move generation, mailbox and bitboard, behind
//!   [`movegen::MoveGen`].
//! * [`attackers`]: is-square-attacked and the SEE attacker list in both
//!   forms, over the bitboard `who_attacks` primitive.
//! * [`see`]: static exchange evaluation over either attacker builder.
//! * [`defects`]: king-safety defect counts in both forms.
//! * [`eval`]: the evaluation, generic over its mobility implementations,
//!   and the [`eval::Evaluator`] interface the search uses.
//! * [`search`]: the search, generic over an engine profile.
//! * [`uci`]: the protocol loop.
//!
//! Utilities the core and its users share: [`rng`] (seeded random numbers),
//! [`tsc`] (the fenced time-stamp-counter clock), [`atomic_file`] (results
//! and tables written whole or not at all).
//!
//! Apart from the core, [`tools`]: the bench, test suites, perft, random
//! positions and the equivalence sweep.

#![warn(missing_docs)]

pub mod atomic_file;
pub mod attackers;
pub mod bitboard;
pub mod defects;
pub mod eval;
pub mod fixed_vec;
#[cfg(any(feature = "inject-hook", feature = "inject-instructions-attackers"))]
pub(crate) mod inject;
pub(crate) mod large_pages;
pub mod movegen;
pub mod moves;
pub mod position;
pub mod rng;
// `with_profile!` is written by the profile table, so the modules declared
// after this one (`tools`, `uci`) reach it by textual scope.
#[macro_use]
pub mod search;
pub mod see;
pub mod sliders;
pub(crate) mod tables;
pub mod tools;
pub mod tsc;
pub mod types;
pub mod uci;

pub use bitboard::Bitboard;
pub use moves::{Move, MoveList};
pub use position::Position;
pub use types::{CastleRights, Color, Piece, PieceType, Square, Square88};
