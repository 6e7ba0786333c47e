//! The clock: what a timed sample counts, criterion-style. A
//! [`Measurement`] starts and ends a reading and turns the pair into a
//! number of units. The runner and the statistics never care whether that
//! number is TSC ticks or nanoseconds; the report records which one it was.
//!
//! The TSC is read through [`engine::tsc`], the workspace's one fenced
//! reader (`lfence; rdtsc; lfence` to start, `rdtscp; lfence` to stop, never
//! CPUID, which is a VM exit under KVM): the engine's per-term counters,
//! this crate's runner and its criterion target all read the same
//! instructions. What this module adds is the check that the TSC may be
//! used for timing at all ([`availability`]); where it may not, runs fall
//! back to [`MonotonicNanos`].

use std::time::Instant;

/// Whether this machine has a TSC the runner may use: x86_64 with `rdtscp`
/// and an invariant (constant, non-stop) TSC as the kernel reports it.
pub fn availability() -> Result<(), String> {
    if !engine::tsc::is_tsc() {
        return Err("not an x86_64 machine: no TSC".to_string());
    }
    let flags = crate::measure::sysinfo::cpu_flags();
    if flags.is_empty() {
        return Err("cannot read CPU flags from /proc/cpuinfo to confirm an invariant TSC".to_string());
    }
    for need in ["tsc", "rdtscp", "constant_tsc", "nonstop_tsc"] {
        if !flags.iter().any(|f| f == need) {
            return Err(format!("CPU flag {need:?} is missing: TSC unusable for timing"));
        }
    }
    Ok(())
}

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

/// Time-stamp-counter ticks, read through [`engine::tsc`] (`lfence; rdtsc;
/// lfence` at the start, `rdtscp; lfence` at the end). Only constructible
/// where the CPU has an invariant TSC ([`availability`]).
#[derive(Copy, Clone, Debug)]
pub struct TscTicks(());

impl TscTicks {
    /// The TSC clock, or `None` with the reason where there is none usable.
    pub fn new() -> Result<TscTicks, String> {
        availability().map(|()| TscTicks(()))
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
        engine::tsc::start()
    }

    #[inline(always)]
    fn end(&self, start: u64) -> f64 {
        engine::tsc::stop().wrapping_sub(start) as f64
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

/// The clock a run uses, chosen once. The runner takes the concrete clock
/// inside (generic code per clock, no dispatch per reading); harnesses that
/// time one reading at a time (the criterion target) may use the enum as a
/// [`Measurement`] itself.
#[derive(Copy, Clone, Debug)]
pub enum Clock {
    Tsc(TscTicks),
    Monotonic(MonotonicNanos),
}

impl Clock {
    /// The TSC when `prefer_tsc` and it is usable, else the monotonic
    /// clock; the reason the TSC was not taken when it was wanted.
    pub fn choose(prefer_tsc: bool) -> (Clock, Option<String>) {
        if !prefer_tsc {
            return (Clock::Monotonic(MonotonicNanos), None);
        }
        match TscTicks::new() {
            Ok(t) => (Clock::Tsc(t), None),
            Err(why) => (Clock::Monotonic(MonotonicNanos), Some(why)),
        }
    }
}

/// A reading begun by [`Clock`]'s `start`.
#[derive(Copy, Clone, Debug)]
pub enum Reading {
    Tsc(u64),
    Monotonic(Instant),
}

impl Measurement for Clock {
    type Intermediate = Reading;

    fn name(&self) -> &'static str {
        match self {
            Clock::Tsc(m) => m.name(),
            Clock::Monotonic(m) => m.name(),
        }
    }

    fn unit(&self) -> &'static str {
        match self {
            Clock::Tsc(m) => m.unit(),
            Clock::Monotonic(m) => m.unit(),
        }
    }

    #[inline(always)]
    fn start(&self) -> Reading {
        match self {
            Clock::Tsc(m) => Reading::Tsc(m.start()),
            Clock::Monotonic(m) => Reading::Monotonic(m.start()),
        }
    }

    #[inline(always)]
    fn end(&self, start: Reading) -> f64 {
        match (self, start) {
            (Clock::Tsc(m), Reading::Tsc(t)) => m.end(t),
            (Clock::Monotonic(m), Reading::Monotonic(t)) => m.end(t),
            _ => unreachable!("a reading is ended by the clock that started it"),
        }
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
        grows(&Clock::choose(false).0);
        if let Ok(t) = TscTicks::new() {
            grows(&t);
            grows(&Clock::Tsc(t));
        }
    }
}
