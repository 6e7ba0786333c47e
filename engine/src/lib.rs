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
//! * [`attackers`]: is-square-attacked in both forms.
//! * [`search`]: the search, generic over an engine profile; [`bench`];
//!   [`san`] move notation; [`uci`], the protocol loop; [`suite`], EPD
//!   test-suite solving.

pub mod attackers;
pub mod bench;
pub mod bitboard;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod rng;
pub mod san;
pub mod search;
pub mod sliders;
pub mod suite;
pub mod tables;
pub mod types;
pub mod uci;

pub use bitboard::Bitboard;
pub use moves::{Move, MoveList};
pub use position::Position;
pub use types::{CastleRights, Color, Piece, PieceType, Square, Square88};
