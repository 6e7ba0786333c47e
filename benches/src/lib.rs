//! `boardbench`: cycle-level old-versus-new measurement of the engine's
//! migrated routines on a noisy shared machine (DESIGN §5).
//!
//! * [`tsc`], [`measurement`]: the clock (fenced TSC reads, monotonic fallback).
//! * [`pin`]: pinning to one core; [`counters`]: hardware counters if any.
//! * [`runner`]: the one `#[inline(never)]` runner, ABBA rounds, controls.
//! * [`stats`]: medians, bootstrap intervals, correlations.
//! * [`density`]: positions by men on the board.
//! * [`suite`], [`benchmarks`]: benchmark specs and the registry.
//! * [`report`], [`table`], [`plot`]: JSON, stdout table, SVG/PNG.
//! * [`cli`]: the command line shared by the binary and `cargo bench`.
//! * [`gate`]: the commit gate (timing by process with an A/A control,
//!   instruction counts with gungraun).
//! * [`nps`], [`baseline_engine`], [`process`]: whole-engine NPS beside
//!   Crafty's and Stockfish's own bench, each run a pinned child process.

pub mod aslr;
pub mod baseline_engine;
pub mod benchmarks;
pub mod cli;
pub mod counters;
pub mod density;
pub mod gate;
pub mod instructions;
pub mod measurement;
pub mod nps;
pub mod pin;
pub mod plot;
pub mod process;
pub mod report;
pub mod runner;
pub mod stats;
pub mod strength;
pub mod suite;
pub mod sysinfo;
pub mod table;
pub mod tsc;
