//! A case ready to run: one arm's routine over one workload's prepared
//! inputs, with the input type erased. It is the unit of the harnesses
//! that take one case at a time: the criterion target times its passes,
//! the callgrind target and the commit gate count their instructions. And
//! [`counted_pass`], the only code those instruction counts collect in
//! (callgrind `--toggle-collect`).

use crate::measure::clock::Clock;
use crate::measure::runner::{self, Routine};

/// One bucket (or ladder rung) × arm of one benchmark.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct CaseId {
    pub bench: String,
    pub bucket: String,
    pub arm: String,
}

impl std::fmt::Display for CaseId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.bench, self.bucket, self.arm)
    }
}

/// A prepared case.
pub trait Case {
    /// Calls one pass makes (one per input).
    fn calls(&self) -> usize;
    /// One pass of the routine over the inputs, through [`counted_pass`]:
    /// the sum of the routine's checksums.
    fn pass(&mut self) -> u64;
    /// One pass over a copy of the inputs, not through [`counted_pass`]:
    /// builds lazily built state (an evaluator and its pawn hash) and warms
    /// the caches, leaving the inputs as they were.
    fn warm(&mut self);
    /// Make the inputs exactly `n`: the first `n`, repeated from the first
    /// when there are fewer (none stay none).
    fn cycle_to(&mut self, n: usize);
    /// `reps` passes over the inputs timed with `clock` through the one
    /// runner ([`runner::time_batch`], as every arm of a report run is):
    /// elapsed clock units and the checksum. The clock is matched once per
    /// call, outside the timed region.
    fn timed(&mut self, clock: &Clock, reps: u64) -> (f64, u64);
}

/// A routine and its inputs: the [`Case`] of a benchmark over inputs `I`.
pub struct Prepared<I> {
    routine: Routine<I>,
    inputs: Vec<I>,
}

impl<I> Prepared<I> {
    pub fn new(routine: Routine<I>, inputs: Vec<I>) -> Prepared<I> {
        Prepared { routine, inputs }
    }
}

impl<I: Clone> Case for Prepared<I> {
    fn calls(&self) -> usize {
        self.inputs.len()
    }

    fn pass(&mut self) -> u64 {
        counted_pass(self.routine, &mut self.inputs)
    }

    fn warm(&mut self) {
        let mut copy = self.inputs.clone();
        for x in copy.iter_mut() {
            std::hint::black_box((self.routine)(std::hint::black_box(x)));
        }
    }

    fn cycle_to(&mut self, n: usize) {
        let have = self.inputs.len();
        if have > 0 {
            self.inputs = (0..n).map(|i| self.inputs[i % have].clone()).collect();
        }
    }

    fn timed(&mut self, clock: &Clock, reps: u64) -> (f64, u64) {
        match clock {
            Clock::Tsc(m) => runner::time_batch(m, self.routine, &mut self.inputs, reps),
            Clock::Monotonic(m) => runner::time_batch(m, self.routine, &mut self.inputs, reps),
        }
    }
}

/// One pass of `routine` over `inputs`: the only code the instruction
/// counts (callgrind `--toggle-collect`) collect in.
#[inline(never)]
pub fn counted_pass<I>(routine: Routine<I>, inputs: &mut [I]) -> u64 {
    let routine = std::hint::black_box(routine);
    let mut sum = 0u64;
    for x in inputs.iter_mut() {
        sum = sum.wrapping_add(routine(std::hint::black_box(x)));
    }
    std::hint::black_box(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bump(x: &mut u64) -> u64 {
        *x += 1;
        *x
    }

    #[test]
    fn a_prepared_case_passes_warms_on_a_copy_and_cycles() {
        let mut c = Prepared::new(bump, vec![10u64, 20, 30]);
        assert_eq!(c.calls(), 3);
        c.warm();
        // The warm-up ran on a copy: the first pass still sees 10, 20, 30.
        assert_eq!(c.pass(), 11 + 21 + 31);
        assert_eq!(c.pass(), 12 + 22 + 32);
        c.cycle_to(5);
        assert_eq!(c.calls(), 5);
        assert_eq!(c.pass(), 13 + 23 + 33 + 13 + 23);
        c.cycle_to(2);
        assert_eq!(c.pass(), 14 + 24);
        // Timed passes run the routine as a pass does (twice here).
        let clock = Clock::choose(false).0;
        let (elapsed, sum) = c.timed(&clock, 2);
        assert_eq!(sum, (15 + 25) + (16 + 26));
        assert!(elapsed >= 0.0);
        assert_eq!(c.pass(), 17 + 27);
        let mut none = Prepared::new(bump, Vec::new());
        none.cycle_to(4);
        assert_eq!((none.calls(), none.pass()), (0, 0));
        let id = CaseId { bench: "b".into(), bucket: "opening".into(), arm: "a x".into() };
        assert_eq!(id.to_string(), "b opening a x");
    }
}
