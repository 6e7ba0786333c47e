//! Property-based fuzzing of everything the engine reads from outside: FEN,
//! EPD lines, move strings (UCI and SAN), weights ("DNA") JSON, and whole
//! UCI sessions through the protocol loop in-process. No input may panic,
//! hang or allocate without bound, and what is accepted must be
//! consistent (each target says how).
//!
//! Built on `proptest`: its strategies generate grammar-shaped inputs
//! (regular-expression strings, structured FEN fields, mutated real
//! positions) that get past the first checks of a parser, where blind
//! bytes mostly do not, and a failure is shrunk to a small input before it
//! is reported. Runs are seeded, so a failure reproduces.
//!
//! Profiles:
//! * quick (default): a few thousand inputs per target, seconds in all, as
//!   part of `cargo test --profile test-release --workspace`;
//! * long: `BOARDBENCH_FUZZ_CASES=N` runs N inputs in each of the five
//!   parser targets (FEN, EPD lines, move strings, UCI move lists, weights
//!   JSON), N/50 EPD files and N/40 UCI sessions of up to 12 lines;
//!   N = 2,000,000 makes over 10 million inputs. `BOARDBENCH_FUZZ_SEED`
//!   changes the seed. Each target prints its count and time
//!   (`--nocapture` shows them).
//!
//! Guards ([`harness`], shared with boardbench's fuzzing): a watchdog for
//! hangs, and a counting allocator for oversized allocations and unbounded
//! live memory. A memory failure is process-wide: rerun that target alone
//! (`cargo test --release -p engine --test fuzz -- uci`) to be sure of the
//! culprit.

mod epd;
mod fen;
mod grammar;
mod moves;
mod uci;
mod weights;

mod harness;

pub use harness::{cases, ensure, run_target, CaseResult};
