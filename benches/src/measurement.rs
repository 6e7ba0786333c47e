//! What a timed sample counts, criterion-style: a [`Measurement`] starts and
//! ends a reading and turns the pair into a number of units. The runner and
//! the statistics never care whether that number is TSC ticks or
//! nanoseconds; the report records which one it was.

use crate::tsc;
use std::time::Instant;

/// A clock the runner can time batches with.
pub trait Measurement {
    /// What `start` hands to `end`.
    type Intermediate: Copy;

    /// Short name recorded in the report ("tsc", "monotonic").
    fn name(&self) -> &'static str;

    /// Unit of the values `end` returns ("ticks", "ns").
    fn unit(&self) -> &'static str;

    /// Begin a reading (fenced so earlier work cannot leak into it).
    fn start(&self) -> Self::Intermediate;

    /// End a reading begun by `start`: elapsed units.
    fn end(&self, start: Self::Intermediate) -> f64;
}

/// Time-stamp-counter ticks read with `lfence; rdtsc; lfence` at the start
/// and `rdtscp; lfence` at the end (DESIGN §5). Only constructible where the
/// CPU has an invariant TSC.
#[derive(Copy, Clone, Debug)]
pub struct TscTicks(());

impl TscTicks {
    /// The TSC clock, or `None` with the reason where there is none usable.
    pub fn new() -> Result<TscTicks, String> {
        tsc::availability().map(|()| TscTicks(()))
    }
}

impl Measurement for TscTicks {
    type Intermediate = u64;

    fn name(&self) -> &'static str {
        "tsc"
    }

    fn unit(&self) -> &'static str {
        "ticks"
    }

    #[inline(always)]
    fn start(&self) -> u64 {
        tsc::read_start()
    }

    #[inline(always)]
    fn end(&self, start: u64) -> f64 {
        tsc::read_stop().wrapping_sub(start) as f64
    }
}

/// The portable fallback: `std::time::Instant`, in nanoseconds.
#[derive(Copy, Clone, Debug, Default)]
pub struct MonotonicNanos;

impl Measurement for MonotonicNanos {
    type Intermediate = Instant;

    fn name(&self) -> &'static str {
        "monotonic"
    }

    fn unit(&self) -> &'static str {
        "ns"
    }

    #[inline(always)]
    fn start(&self) -> Instant {
        Instant::now()
    }

    #[inline(always)]
    fn end(&self, start: Instant) -> f64 {
        start.elapsed().as_nanos() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(n: u64) -> u64 {
        let mut x = 0u64;
        for i in 0..n {
            x = std::hint::black_box(x.wrapping_add(i));
        }
        x
    }

    fn grows<M: Measurement>(m: &M) {
        let t = m.start();
        spin(10);
        let short = m.end(t);
        let t = m.start();
        spin(2_000_000);
        let long = m.end(t);
        assert!(long > short, "{}: {long} <= {short}", m.name());
        assert!(long > 0.0);
    }

    #[test]
    fn clocks_measure_more_work_as_longer() {
        grows(&MonotonicNanos);
        if let Ok(t) = TscTicks::new() {
            grows(&t);
        }
    }
}
