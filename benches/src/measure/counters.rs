//! Hardware performance counters (cycles, instructions, branch misses) per
//! call through `perf_event_open`, where the machine has them. Under KVM
//! without a virtual PMU opening a cycles counter fails (ENOENT): then the
//! status says "unavailable" with the OS's reason and nothing is counted.

use perf_event::events::Hardware;
use perf_event::{Builder, Counter, Group};
use serde::{Deserialize, Serialize};

/// Whether counters could be opened, and if not, why.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CounterStatus {
    pub available: bool,
    /// The error that made them unavailable.
    pub reason: Option<String>,
}

/// Counts of one measured stretch, divided by the calls it made.
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PerCall {
    pub cycles: f64,
    pub instructions: f64,
    pub branch_misses: f64,
}

/// An open group of the three counters.
pub struct Counters {
    group: Group,
    cycles: Counter,
    instructions: Counter,
    branch_misses: Counter,
}

impl Counters {
    /// Open the counters for this thread, or say why not.
    pub fn open() -> Result<Counters, String> {
        let mut group = Group::new().map_err(|e| format!("perf_event_open (group): {e}"))?;
        let mut one = |kind: Hardware, name: &str| {
            Builder::new().group(&mut group).kind(kind).build().map_err(|e| format!("perf_event_open ({name}): {e}"))
        };
        let cycles = one(Hardware::CPU_CYCLES, "cycles")?;
        let instructions = one(Hardware::INSTRUCTIONS, "instructions")?;
        let branch_misses = one(Hardware::BRANCH_MISSES, "branch-misses")?;
        Ok(Counters { group, cycles, instructions, branch_misses })
    }

    /// The status to report for an attempt to open counters.
    pub fn status(opened: &Result<Counters, String>) -> CounterStatus {
        match opened {
            Ok(_) => CounterStatus { available: true, reason: None },
            Err(e) => CounterStatus { available: false, reason: Some(e.clone()) },
        }
    }

    /// Count `work`, which makes `calls` calls of the routine.
    pub fn per_call<F: FnOnce()>(&mut self, calls: u64, work: F) -> Result<PerCall, String> {
        let err = |e: std::io::Error| format!("perf counters: {e}");
        self.group.reset().map_err(err)?;
        self.group.enable().map_err(err)?;
        work();
        self.group.disable().map_err(err)?;
        let counts = self.group.read().map_err(err)?;
        let n = calls.max(1) as f64;
        Ok(PerCall {
            cycles: counts[&self.cycles] as f64 / n,
            instructions: counts[&self.instructions] as f64 / n,
            branch_misses: counts[&self.branch_misses] as f64 / n,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_either_counts_or_says_why_not() {
        let opened = Counters::open();
        let status = Counters::status(&opened);
        match opened {
            Ok(mut c) => {
                assert!(status.available);
                let pc = c
                    .per_call(1000, || {
                        for i in 0..1000u64 {
                            std::hint::black_box(i);
                        }
                    })
                    .unwrap();
                assert!(pc.instructions > 0.0);
            }
            Err(e) => {
                assert!(!status.available);
                assert_eq!(status.reason.as_deref(), Some(e.as_str()));
                assert!(e.starts_with("perf_event_open"), "{e}");
            }
        }
    }
}
