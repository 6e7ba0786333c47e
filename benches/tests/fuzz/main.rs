//! Property-based fuzzing of what boardbench reads: the JSON files it
//! reads back, run reports (`suite::report::read_report`, and the table
//! printed from one), saved references (the input of `boardbench
//! reference compare`: read, suite files checked, compared, printed)
//! ([`json`]);
//! position files (`--positions` EPD and CSV files, a match's openings)
//! ([`epd`]); and command lines, through the binary ([`cli`]). No input
//! may panic, hang or allocate without bound; a rejected input gets a
//! one-line message. (A match's `match.json` is written, never read back.)
//!
//! Inputs are real documents (`results/baseline.json`,
//! `results/reference/head.json`) with their
//! arrays shortened, then edited: values replaced by any JSON (numbers at
//! the edges included), removed, renamed, duplicated; or their text
//! mutated byte by byte; or noise ([`json`]). Built on `proptest` as the
//! engine's fuzzing is (`engine/tests/fuzz`): seeded runs, failures shrunk
//! to a small input.
//!
//! Profiles:
//! * quick (default): a few thousand inputs per target, seconds in all, as
//!   part of `cargo test --profile test-release --workspace`;
//! * long: `BOARDBENCH_FUZZ_CASES=N` runs N inputs in each in-process
//!   target (run reports, references, position files) and N/100
//!   command lines (a process each); N = 3,400,000 makes over 10
//!   million inputs.
//!   `BOARDBENCH_FUZZ_SEED` changes the seed. Each target prints its count
//!   and time (`--nocapture` shows them).
//!
//! Guards: the engine's fuzzing harness ([`harness`]: a watchdog for
//! hangs, a counting allocator for oversized allocations and unbounded
//! live memory; rerun a failing target alone to be sure of the culprit).

mod cli;
mod epd;
mod json;
mod reference;
mod run_report;

/// One harness for both fuzz suites: the engine's file, included here.
#[path = "../../../engine/tests/fuzz/harness.rs"]
mod harness;

pub use harness::{cases, ensure, run_target, CaseResult};
