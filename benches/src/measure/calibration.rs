//! The facts a run needs about its clock, measured in the same run: the
//! TSC's frequency, the clock's granularity, the fixed cost of one
//! start/stop pair (subtracted from every sample and reported), and on
//! request the core cycles per clock unit from a dependent add chain timed
//! at N and 2N iterations (TSC ticks are not core cycles; they are
//! converted only with this calibration).

use crate::measure::clock::{Clock, Measurement};
use crate::measure::stats;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// What the run measured about its clock.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ClockInfo {
    /// "tsc" or "monotonic".
    pub kind: String,
    /// "ticks" or "ns".
    pub unit: String,
    /// Why the TSC was not used, when it was not.
    pub fallback_reason: Option<String>,
    /// TSC frequency measured against the monotonic clock (MHz).
    pub tsc_mhz: Option<f64>,
    /// Smallest non-zero difference between two back-to-back readings.
    pub granularity: f64,
    /// Median cost of an empty start/stop pair, subtracted from every sample.
    pub fixed_overhead: f64,
    /// Core cycles per unit from the dependent add chain, when asked for.
    pub cycles_per_unit: Option<f64>,
}

impl ClockInfo {
    /// Measure the facts of `clock`: the TSC's frequency over about
    /// `tsc_window` (a TSC clock only), granularity, fixed overhead, and
    /// with `cycles` the core cycles per unit. `fallback_reason`: why the
    /// TSC was wanted but not taken.
    pub fn measure(clock: &Clock, tsc_window: Duration, cycles: bool, fallback_reason: Option<String>) -> ClockInfo {
        match clock {
            Clock::Tsc(t) => {
                let mhz = tsc_mhz(tsc_window);
                facts(t, Some(mhz), cycles, fallback_reason)
            }
            Clock::Monotonic(m) => facts(m, None, cycles, fallback_reason),
        }
    }

    /// The facts recorded for a run that times nothing (the gate's
    /// collecting runs): the monotonic clock, nothing calibrated, `why`.
    pub fn untimed(why: &str) -> ClockInfo {
        ClockInfo {
            kind: "monotonic".into(),
            unit: "ns".into(),
            fallback_reason: Some(why.into()),
            tsc_mhz: None,
            granularity: 0.0,
            fixed_overhead: 0.0,
            cycles_per_unit: None,
        }
    }

    /// Clock units per microsecond: the TSC's MHz, or 1000 nanoseconds.
    pub fn units_per_us(&self) -> f64 {
        self.tsc_mhz.unwrap_or(1000.0)
    }
}

fn facts<M: Measurement>(m: &M, tsc_mhz: Option<f64>, cycles: bool, reason: Option<String>) -> ClockInfo {
    ClockInfo {
        kind: m.name().to_string(),
        unit: m.unit().to_string(),
        fallback_reason: reason,
        tsc_mhz,
        granularity: granularity(m),
        fixed_overhead: fixed_overhead(m),
        cycles_per_unit: cycles.then(|| cycles_per_unit(m)),
    }
}

/// Smallest positive step between back-to-back readings.
pub fn granularity<M: Measurement>(m: &M) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..20_000 {
        let t = m.start();
        let mut d = m.end(t);
        let mut spins = 0;
        while d <= 0.0 && spins < 1000 {
            d = m.end(t);
            spins += 1;
        }
        if d > 0.0 && d < best {
            best = d;
        }
    }
    if best.is_finite() {
        best
    } else {
        0.0
    }
}

/// Median of `n` empty start/stop readings: the fixed part of every sample.
pub fn fixed_overhead<M: Measurement>(m: &M) -> f64 {
    let mut v: Vec<f64> = (0..10_001)
        .map(|_| {
            let t = m.start();
            m.end(t)
        })
        .collect();
    stats::median_mut(&mut v)
}

/// TSC frequency in MHz, measured over about `window` of monotonic time
/// (median of three windows).
pub fn tsc_mhz(window: Duration) -> f64 {
    let mut v: Vec<f64> = (0..3)
        .map(|_| {
            let t0 = Instant::now();
            let c0 = engine::tsc::start();
            while t0.elapsed() < window {
                std::hint::spin_loop();
            }
            let c1 = engine::tsc::stop();
            let ns = t0.elapsed().as_nanos() as f64;
            (c1 - c0) as f64 / ns * 1000.0
        })
        .collect();
    stats::median_mut(&mut v)
}

/// Adds per iteration of [`add_chain`].
const CHAIN_ADDS: u64 = 128;

/// `iters * CHAIN_ADDS` register-register adds, each depending on the one
/// before: one core cycle each on any out-of-order x86 core (a reg-reg add
/// cannot be eliminated at rename the way an add-immediate sometimes is).
#[inline(never)]
pub fn add_chain(iters: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut x: u64 = 0;
        let one: u64 = std::hint::black_box(1);
        if iters == 0 {
            return 0;
        }
        // SAFETY: pure register arithmetic; `n` is consumed as the counter.
        unsafe {
            std::arch::asm!(
                "2:",
                ".rept 128",
                "add {x}, {one}",
                ".endr",
                "dec {n}",
                "jnz 2b",
                x = inout(reg) x,
                one = in(reg) one,
                n = inout(reg) iters => _,
                options(nostack, nomem),
            );
        }
        x
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut x = 0u64;
        for _ in 0..iters * CHAIN_ADDS {
            x = std::hint::black_box(x + 1);
        }
        x
    }
}

/// Core cycles per unit of `m`: time the add chain at N and 2N iterations
/// (interleaved, 15 times each); the difference holds N × 128 dependent adds
/// and no fixed cost. Medians of each.
pub fn cycles_per_unit<M: Measurement>(m: &M) -> f64 {
    // Size N so one chain takes about 2 ms (assume at most 6 GHz).
    let n = 2_000_000 * 6 / CHAIN_ADDS / 1000 * 1000;
    let mut one = Vec::new();
    let mut two = Vec::new();
    add_chain(n); // warm up: let the core reach its running clock
    for _ in 0..15 {
        let t = m.start();
        std::hint::black_box(add_chain(std::hint::black_box(n)));
        one.push(m.end(t));
        let t = m.start();
        std::hint::black_box(add_chain(std::hint::black_box(2 * n)));
        two.push(m.end(t));
    }
    let d = stats::median_mut(&mut two) - stats::median_mut(&mut one);
    (n * CHAIN_ADDS) as f64 / d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::clock::{MonotonicNanos, TscTicks};

    #[test]
    fn add_chain_counts_its_adds() {
        assert_eq!(add_chain(3), 3 * CHAIN_ADDS);
        assert_eq!(add_chain(0), 0);
    }

    #[test]
    fn clock_facts_are_sane() {
        let m = MonotonicNanos;
        assert!(granularity(&m) > 0.0);
        assert!(fixed_overhead(&m) >= 0.0);
        if let Ok(t) = TscTicks::new() {
            let g = granularity(&t);
            assert!(g > 0.0 && g < 1000.0, "granularity {g}");
            let mhz = tsc_mhz(Duration::from_millis(5));
            assert!(mhz > 100.0 && mhz < 10_000.0, "tsc {mhz} MHz");
            let c = cycles_per_unit(&t);
            // A core runs between 0.2x and 5x its TSC rate.
            assert!(c > 0.2 && c < 5.0, "cycles per tick {c}");
        }
    }

    #[test]
    fn measured_facts_name_their_clock() {
        let (mono, reason) = Clock::choose(false);
        assert_eq!(reason, None);
        let i = ClockInfo::measure(&mono, Duration::from_millis(5), false, Some("why".into()));
        assert_eq!((i.kind.as_str(), i.unit.as_str(), i.tsc_mhz, i.cycles_per_unit), ("monotonic", "ns", None, None));
        assert_eq!(i.fallback_reason.as_deref(), Some("why"));
        assert!(i.granularity > 0.0);
        assert_eq!(i.units_per_us(), 1000.0);
        if let (tsc @ Clock::Tsc(_), None) = Clock::choose(true) {
            let i = ClockInfo::measure(&tsc, Duration::from_millis(5), true, None);
            assert_eq!((i.kind.as_str(), i.unit.as_str()), ("tsc", "ticks"));
            let mhz = i.tsc_mhz.expect("a TSC clock measures its frequency");
            assert_eq!(i.units_per_us(), mhz);
            assert!(i.cycles_per_unit.is_some_and(|c| c > 0.2 && c < 5.0), "{i:?}");
        }
        let u = ClockInfo::untimed("collecting, not measuring");
        assert_eq!((u.granularity, u.fixed_overhead, u.tsc_mhz), (0.0, 0.0, None));
        assert_eq!(u.fallback_reason.as_deref(), Some("collecting, not measuring"));
    }
}
