//! The time-stamp counter, read the way DESIGN §5 prescribes: `lfence;
//! rdtsc; lfence` to start a reading and `rdtscp; lfence` to stop it (never
//! CPUID, which is a VM exit under KVM). Also the facts a run needs about
//! the clock, measured in the same run: whether an invariant TSC exists (else
//! the caller falls back to the monotonic clock), its frequency, its
//! granularity, the fixed cost of one start/stop pair (subtracted from every
//! sample and reported), and on request the core cycles per tick from a
//! dependent add chain timed at N and 2N iterations.

use crate::measurement::Measurement;
use crate::stats;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// Whether this machine has a TSC the runner may use: x86_64 with `rdtscp`
/// and an invariant (constant, non-stop) TSC as the kernel reports it.
pub fn availability() -> Result<(), String> {
    #[cfg(not(target_arch = "x86_64"))]
    {
        Err("not an x86_64 machine: no TSC".to_string())
    }
    #[cfg(target_arch = "x86_64")]
    {
        let flags = crate::sysinfo::cpu_flags();
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
}

/// Start a reading: `lfence; rdtsc; lfence`. Earlier instructions finish
/// before the counter is read, later ones start after it.
#[inline(always)]
pub fn read_start() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let lo: u32;
        let hi: u32;
        // SAFETY: lfence and rdtsc have no memory effects; availability() was
        // checked before a TscTicks could be built. No `nomem`: the asm is a
        // compiler barrier, so timed work cannot be moved across it.
        unsafe {
            std::arch::asm!("lfence", "rdtsc", "lfence", out("eax") lo, out("edx") hi, options(nostack, preserves_flags));
        }
        ((hi as u64) << 32) | lo as u64
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        unreachable!("TscTicks cannot be built without a TSC")
    }
}

/// Stop a reading: `rdtscp; lfence`. rdtscp waits for earlier instructions;
/// the lfence keeps later ones from starting before the read.
#[inline(always)]
pub fn read_stop() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let lo: u32;
        let hi: u32;
        // SAFETY: as in read_start; rdtscp also writes ecx (TSC_AUX).
        unsafe {
            std::arch::asm!("rdtscp", "lfence", out("eax") lo, out("edx") hi, out("ecx") _, options(nostack, preserves_flags));
        }
        ((hi as u64) << 32) | lo as u64
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        unreachable!("TscTicks cannot be built without a TSC")
    }
}

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
            let c0 = read_start();
            while t0.elapsed() < window {
                std::hint::spin_loop();
            }
            let c1 = read_stop();
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
    use crate::measurement::{MonotonicNanos, TscTicks};

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
}
