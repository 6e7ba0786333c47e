//! `engine`: a chess engine core in which every routine a mailbox-to-bitboard
//! migration touches exists in its old (0x88 mailbox) and new (bitboard:
//! magic and PEXT) form over one shared [`Position`].
//!
//! * [`types`], [`bitboard`], [`moves`]: the value types.
//! * [`tables`], [`sliders`]: precomputed geometry; slider attacks by ray
//!   walk, magic and PEXT behind the [`sliders::Sliders`] trait.
//! * [`position`]: the board in both representations, FEN/EPD,
//!   make/unmake, `verify()`.
//! * [`movegen`]: legal move generation, mailbox and bitboard, behind
//!   [`movegen::MoveGen`]; [`perft`].
//! * [`attackers`]: is-square-attacked and the SEE attacker list
//!   (`GetAttacks`) in both forms, over the bitboard `who_attacks` primitive.
//! * [`see`]: static exchange evaluation over either attacker builder.
//! * [`defects`]: king-safety defect counts in both forms.
//! * [`randpos`]: seeded random legal positions; [`equiv`]: the sweep that
//!   proves old and new forms agree on them.
//! * [`atomic_file`]: results and tables written whole or not at all.
//! * [`search`]: the search, generic over an engine profile; [`bench`](mod@bench);
//!   [`san`] move notation; [`uci`], the protocol loop; [`suite`], EPD
//!   test-suite solving.

pub mod atomic_file;
pub mod attackers;
pub mod bench;
pub mod bitboard;
pub mod defects;
pub mod equiv;
pub mod eval;
pub mod fixed_vec;
#[cfg(any(feature = "inject-hook", feature = "inject-instructions-attackers"))]
pub mod inject;
pub mod large_pages;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod randpos;
pub mod rng;
pub mod san;
pub mod search;
pub mod see;
pub mod sliders;
pub mod suite;
pub mod tables;
pub mod tsc;
pub mod types;
pub mod uci;

pub use bitboard::Bitboard;
pub use moves::{Move, MoveList};
pub use position::Position;
pub use types::{CastleRights, Color, Piece, PieceType, Square, Square88};
