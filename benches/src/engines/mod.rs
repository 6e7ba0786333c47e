//! Comparisons with other engines: whole-engine speed beside Crafty's and
//! Stockfish's own benches.
//!
//! * [`nps`]: nodes per second, our profiles and the baselines interleaved
//!   as pinned child processes.
//! * [`instructions`]: instructions per node under callgrind, ours beside
//!   Crafty's (noise-free, unlike NPS).
//! * [`baseline_engine`]: how each baseline engine is run and its output
//!   read (Crafty, Stockfish, our own `engine bench`).
//! * [`process`]: child processes with a deadline, capped output and
//!   resource usage.

pub mod baseline_engine;
pub mod instructions;
pub mod nps;
pub mod process;
