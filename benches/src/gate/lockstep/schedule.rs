//! Who measures when during a visit of one case: the steps of the
//! lock-step protocol, the same function in the gate and in every worker
//! (each worker runs only its own steps; the gate pairs the samples the
//! workers send back by the same schedule).
//!
//! Three workers: the base, the candidate and the A/A control (the base's
//! build again, a process of its own). A visit is a number of cycles of
//! three steps each.
//!
//! * [`Pairing::Turns`]: every worker on the one pinned core, one step
//!   each per cycle, in a first-order balanced order (a Williams design:
//!   over six cycles each worker runs first, second and third equally often
//!   and follows each other worker equally often), so each base sample has
//!   a candidate and a control sample taken tens of microseconds away.
//! * [`Pairing::Parallel`]: one worker per core at the same instant. Each
//!   cycle runs the three pairs (base and candidate, candidate and control,
//!   control and base) in a balanced order, the two of a pair starting
//!   together on the two cores; which of the two takes which core flips
//!   every six cycles, so neither build keeps the faster core.

use crate::measure::runner::balanced_orders;
use serde::{Deserialize, Serialize};

/// The base build's worker.
pub const BASE: usize = 0;
/// The candidate build's worker.
pub const CANDIDATE: usize = 1;
/// The A/A control: the base build again.
pub const CONTROL: usize = 2;
/// Workers in a gate run.
pub const WORKERS: usize = 3;
/// Steps per cycle, in either pairing.
pub const STEPS_PER_CYCLE: u32 = 3;

/// How the workers share the machine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Pairing {
    /// All workers on one pinned core, taking turns sample by sample.
    Turns,
    /// One worker per core (two cores), measuring at the same instant.
    Parallel,
}

impl Pairing {
    /// Cores the pairing uses.
    pub fn cores(self) -> usize {
        match self {
            Pairing::Turns => 1,
            Pairing::Parallel => 2,
        }
    }

    /// Workers measuring in each step.
    pub fn per_step(self) -> u64 {
        match self {
            Pairing::Turns => 1,
            Pairing::Parallel => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Pairing::Turns => "turns",
            Pairing::Parallel => "parallel",
        }
    }
}

/// The pairs of [`Pairing::Parallel`]: every two workers once per cycle.
const PAIRS: [(usize, usize); 3] = [(BASE, CANDIDATE), (CANDIDATE, CONTROL), (CONTROL, BASE)];

/// One step: who measures, each with the index of its core (into the run's
/// list of cores). One participant in turns, two in parallel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub who: [Option<(usize, usize)>; 2],
}

impl Step {
    /// The core index of worker `k` in this step, if it measures in it.
    pub fn core_of(&self, k: usize) -> Option<usize> {
        self.who.iter().flatten().find(|(w, _)| *w == k).map(|&(_, c)| c)
    }
}

/// Step `s` of a visit whose cycles start at row `offset` of the balanced
/// orders (visits start at different rows, so a short visit does not always
/// run the same order).
pub fn step(p: Pairing, s: u32, offset: u32) -> Step {
    let orders = balanced_orders(WORKERS);
    let cycle = s / STEPS_PER_CYCLE;
    let pos = (s % STEPS_PER_CYCLE) as usize;
    let n = (offset as usize).wrapping_add(cycle as usize);
    let row = &orders[n % orders.len()];
    match p {
        Pairing::Turns => Step { who: [Some((row[pos], 0)), None] },
        Pairing::Parallel => {
            let (a, b) = PAIRS[row[pos]];
            let flip = (n / orders.len()) % 2;
            Step { who: [Some((a, flip)), Some((b, 1 - flip))] }
        }
    }
}

/// The samples of one visit as comparisons with the base: `(base,
/// candidate)` pairs and `(base, control)` pairs, each measured in the same
/// cycle (turns) or at the same instant (parallel). `samples[k]` holds
/// worker k's samples in the order of its steps, `warm` cycles already left
/// out by the worker. `None` when a worker sent a different number of
/// samples than the schedule gives it.
pub fn pairs(p: Pairing, offset: u32, warm: u32, cycles: u32, samples: [&[f64]; WORKERS]) -> Option<Paired> {
    let mut next = [0usize; WORKERS];
    let mut out = Paired { candidate: Vec::new(), control: Vec::new() };
    for s in warm * STEPS_PER_CYCLE..(warm + cycles) * STEPS_PER_CYCLE {
        let st = step(p, s, offset);
        let mut got = [None; WORKERS];
        for &(k, _) in st.who.iter().flatten() {
            got[k] = Some(*samples[k].get(next[k])?);
            next[k] += 1;
        }
        match p {
            Pairing::Turns => {
                // A cycle's three samples: pair them once all are in.
                if s % STEPS_PER_CYCLE == STEPS_PER_CYCLE - 1 {
                    let at = |k: usize| samples[k].get(next[k].checked_sub(1)?).copied();
                    let (b, c, a) = (at(BASE)?, at(CANDIDATE)?, at(CONTROL)?);
                    out.candidate.push((b, c));
                    out.control.push((b, a));
                }
            }
            Pairing::Parallel => match (got[BASE], got[CANDIDATE], got[CONTROL]) {
                (Some(b), Some(c), None) => out.candidate.push((b, c)),
                (Some(b), None, Some(a)) => out.control.push((b, a)),
                _ => {}
            },
        }
    }
    (0..WORKERS).all(|k| next[k] == samples[k].len()).then_some(out)
}

/// [`pairs`]' result.
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// (base, candidate) per pair.
    pub candidate: Vec<(f64, f64)>,
    /// (base, control) per pair.
    pub control: Vec<(f64, f64)>,
}

/// Samples worker `k` takes in a visit of `warm + cycles` cycles, the
/// warm-up ones included.
pub fn samples_of(p: Pairing, k: usize, offset: u32, cycles: u32) -> usize {
    (0..cycles * STEPS_PER_CYCLE).filter(|&s| step(p, s, offset).core_of(k).is_some()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_run_each_worker_once_per_cycle_in_balanced_orders() {
        let mut first = [0; WORKERS];
        for s in 0..3 * 6 {
            let st = step(Pairing::Turns, s, 0);
            assert_eq!(st.who[1], None);
            let (k, core) = st.who[0].unwrap();
            assert_eq!(core, 0);
            if s % 3 == 0 {
                first[k] += 1;
            }
        }
        assert_eq!(first, [2, 2, 2], "each worker first in two cycles of six");
        for k in 0..WORKERS {
            assert_eq!(samples_of(Pairing::Turns, k, 5, 10), 10);
        }
    }

    #[test]
    fn parallel_runs_every_pair_on_both_core_orders() {
        let mut seen = std::collections::BTreeMap::new();
        for s in 0..3 * 12 {
            let st = step(Pairing::Parallel, s, 0);
            let (a, ca) = st.who[0].unwrap();
            let (b, cb) = st.who[1].unwrap();
            assert_ne!(a, b);
            assert_ne!(ca, cb);
            *seen.entry((a.min(b), a.max(b), if a < b { ca } else { cb })).or_insert(0) += 1;
        }
        // Three pairs x two core orders, six times each in twelve cycles.
        assert_eq!(seen.len(), 6, "{seen:?}");
        assert!(seen.values().all(|&n| n == 6), "{seen:?}");
        for k in 0..WORKERS {
            assert_eq!(samples_of(Pairing::Parallel, k, 3, 12), 24);
        }
    }

    #[test]
    fn samples_pair_by_the_schedule() {
        // Worker k's i-th sample is 100 k + i: pairs must pair cycle with cycle.
        for p in [Pairing::Turns, Pairing::Parallel] {
            let (warm, cycles, offset) = (2, 6, 1);
            let all = warm + cycles;
            let n: Vec<usize> = (0..WORKERS).map(|k| samples_of(p, k, offset, all)).collect();
            let warm_n: Vec<usize> = (0..WORKERS).map(|k| samples_of(p, k, offset, warm)).collect();
            let v: Vec<Vec<f64>> =
                (0..WORKERS).map(|k| (warm_n[k]..n[k]).map(|i| (100 * k + i) as f64).collect()).collect();
            let got = pairs(p, offset, warm, cycles, [&v[0], &v[1], &v[2]]).expect("counts match");
            assert_eq!(got.candidate.len(), cycles as usize, "{p:?}");
            assert_eq!(got.control.len(), cycles as usize, "{p:?}");
            if p == Pairing::Turns {
                assert_eq!(got.candidate[0], (2.0, 102.0));
                assert_eq!(got.control[5], (7.0, 207.0));
            }
            // One sample too few or too many is no visit.
            let short = &v[1][..v[1].len() - 1];
            assert_eq!(pairs(p, offset, warm, cycles, [&v[0], short, &v[2]]), None);
            let mut long = v[2].clone();
            long.push(0.0);
            assert_eq!(pairs(p, offset, warm, cycles, [&v[0], &v[1], &long]), None);
        }
    }
}
