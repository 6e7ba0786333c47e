//! The registry: every benchmark the CLI and `cargo bench` know, by name.
//! Adding one is a file here with a `Spec` and an `ENTRY`, and a line below.
//! (getattacksbench, kingdefectsbench, evalcycles and mobilitybench join as
//! their engine routines land.)

pub mod movegen;
pub mod slider;

use crate::suite::Entry;

/// All registered benchmarks, in the order `all` runs them.
pub const REGISTRY: &[Entry] = &[slider::ENTRY, movegen::ENTRY];

/// Look a benchmark up by name.
pub fn find(name: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.name == name)
}

/// Names, for error messages.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|e| e.name).collect()
}
