//! The per-call suite: old and new forms of each migrated routine timed
//! side by side on the same positions, with controls, and reported.
//!
//! * [`spec`]: a benchmark as data ([`spec::Spec`], [`spec::Entry`]);
//!   [`benchmarks`]: the benchmarks and the registry, the one list every
//!   target and subcommand is made from.
//! * [`benchmark`]: one benchmark measured into its report (controls,
//!   buckets, ladder, statistics); [`cases`]: the registered benchmarks as
//!   cases for the per-case harnesses (the gate, criterion, callgrind).
//! * [`density`]: positions by men on the board.
//! * [`report`], [`table`], [`plot`]: the JSON document, the stdout table,
//!   the SVG/PNG plots; [`publish`]: a run's plots and JSON put in place
//!   whole or not at all.
//! * [`args`]: a run's options; [`run`]: its orchestration (`boardbench
//!   NAME`, `cargo bench`); [`worker`]: one measuring process of a
//!   benchmark; [`combine`]: a benchmark's processes combined into its
//!   report.
//! * [`calibrate`]: how often one run's intervals hold another run's
//!   estimates; [`compare`]: two runs case by case.

pub mod args;
pub mod benchmark;
pub mod benchmarks;
pub mod calibrate;
pub mod cases;
pub mod combine;
pub mod compare;
pub mod density;
pub mod plot;
pub mod publish;
pub mod report;
pub mod run;
pub mod run_level;
pub mod spec;
pub mod table;
pub mod worker;
