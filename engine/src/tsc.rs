//! Fenced time-stamp-counter reads (ARCHITECTURE.md, "Measuring"): `lfence;
//! rdtsc; lfence` to start a timed region, `rdtscp; lfence` to end it, never
//! CPUID (a VM exit under KVM). TSC ticks are not core cycles; callers report
//! ticks and convert only with a calibration. On targets without a TSC these
//! fall back to a monotonic nanosecond clock.

/// Read the counter at the start of a timed region.
#[inline(always)]
pub fn start() -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: lfence and rdtsc are available on every x86_64 CPU.
    unsafe {
        use core::arch::x86_64::{_mm_lfence, _rdtsc};
        _mm_lfence();
        let t = _rdtsc();
        _mm_lfence();
        t
    }
    #[cfg(not(target_arch = "x86_64"))]
    fallback()
}

/// Read the counter at the end of a timed region.
#[inline(always)]
pub fn stop() -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: rdtscp is available on every CPU this project targets
    // (x86-64-v3); lfence keeps later instructions from starting early.
    unsafe {
        use core::arch::x86_64::{__rdtscp, _mm_lfence};
        let mut aux = 0u32;
        let t = __rdtscp(&mut aux);
        _mm_lfence();
        t
    }
    #[cfg(not(target_arch = "x86_64"))]
    fallback()
}

/// Whether [`start`]/[`stop`] read a real TSC (else nanoseconds).
pub const fn is_tsc() -> bool {
    cfg!(target_arch = "x86_64")
}

#[cfg(not(target_arch = "x86_64"))]
fn fallback() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

#[cfg(test)]
mod tests {
    #[test]
    fn counter_advances() {
        let a = super::start();
        let mut x = 0u64;
        for i in 0..10_000u64 {
            x = x.wrapping_add(std::hint::black_box(i));
        }
        std::hint::black_box(x);
        let b = super::stop();
        assert!(b > a);
    }
}
