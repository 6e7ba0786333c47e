//! The engine's tooling, apart from its core: what the `engine` binary's
//! subcommands, the tests and boardbench run on top of the core API, and
//! nothing the search or the evaluation needs.
//!
//! * [`bench`](mod@bench): the fixed-depth bench and its node-count signature.
//! * [`suite`]: EPD test-suite solving, with [`san`] move notation.
//! * [`perft`]: leaf counts of the legal move tree.
//! * [`randpos`]: seeded random legal positions; [`equiv`]: the sweep that
//!   proves old and new forms agree on them.
//! * [`routine_equiv`]: the sweep of one routine's old and new forms, as
//!   its retirement needs it.
//! * [`defectscorr`]: whether the defect count still tracks the
//!   evaluation's king danger.

pub mod bench;
pub mod defectscorr;
pub mod equiv;
pub mod perft;
pub mod randpos;
pub mod routine_equiv;
pub mod san;
pub mod suite;
