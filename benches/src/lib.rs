//! `boardbench`: cycle-level old-versus-new measurement of the engine's
//! migrated routines on a noisy shared machine, and the tools around it.
//! Laid out by product; lower layers never import higher ones (a test,
//! `tests/module_graph.rs`, fails on an import cycle):
//!
//! * [`workspace`]: the checkout (root, positions, results, target), our
//!   `engine` binary, every `cargo` and `git` command; [`output`]: results
//!   written atomically, stdout.
//! * [`measure`]: the clock and its calibration, the one runner, statistics,
//!   pinning, counters, and the measurement context with its one builder.
//! * [`suite`]: the per-call suite — benchmark specs, the registry, density,
//!   the JSON report, table, plots, and a run's orchestration.
//! * [`gate`]: the commit gate (timing by process with an A/A control,
//!   instruction counts with gungraun).
//! * [`engines`]: comparisons with other engines — whole-engine NPS and
//!   instructions per node beside Crafty's and Stockfish's own bench, each
//!   run a pinned child process.
//! * [`strength`]: the strength gates — matches between UCI engines with
//!   an SPRT and LOWER95, and the curated-suite head reference.
//! * [`verdict`]: the answers the migration plans end with — may the old
//!   form of a routine be retired, and which evaluation terms to cut.

pub mod engines;
pub mod gate;
pub mod measure;
pub mod output;
pub mod strength;
pub mod suite;
pub mod verdict;
pub mod workspace;
