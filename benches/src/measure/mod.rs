//! Measuring: everything between "run this routine" and "here are its
//! numbers", with nothing about which routines or what a report holds.
//!
//! * [`clock`]: the [`clock::Measurement`] trait and its clocks (TSC ticks
//!   through `engine::tsc`, the monotonic fallback); [`calibration`]: the
//!   clock's facts measured in the same run (frequency, granularity, fixed
//!   overhead, core cycles per unit).
//! * [`runner`]: the one `#[inline(never)]` runner, interleaved rounds,
//!   batch sizing, stopping on precision; [`stats`]: floors, bootstrap
//!   intervals, correlations; [`random_effects`]: one quantity measured in
//!   several processes, combined with its between-process spread.
//! * [`pin`]: pinning and real-time scheduling; [`counters`]: hardware
//!   counters where the machine has them; [`aslr`]: address-space
//!   randomisation off, or on for a child; [`placement`]: a measuring
//!   process's random placement; [`sysinfo`]: the machine facts a result
//!   records.
//! * [`context`]: the [`context::Context`] a benchmark runs in, and its one
//!   builder; [`case`]: one prepared case and the counted pass.

pub mod aslr;
pub mod calibration;
pub mod case;
pub mod clock;
pub mod context;
pub mod counters;
pub mod pin;
pub mod placement;
pub mod random_effects;
pub mod runner;
pub mod stats;
pub mod sysinfo;
