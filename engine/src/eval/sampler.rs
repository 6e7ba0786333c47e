//! Sampled attribution of evaluation time (feature `eval-time`): the
//! evaluation's sampled copy writes the phase it enters to one byte
//! ([`PHASE`]: a store at each phase boundary, no timer read), and a timer
//! signal, armed at random intervals, counts the phase it interrupts.
//!
//! Why sampling and not TSC pairs: an interrupt is taken at an instruction
//! boundary, with every older instruction retired and no younger one, so
//! the handler reads the phase of the instruction the core is about to
//! retire. A phase's share of the samples is its share of the time the
//! evaluation spends retiring (stalls included, charged to the instruction
//! that holds retirement up), which is where an out-of-order core's time
//! goes when evaluations run back to back — what the ablation measures. A
//! TSC pair instead reads a region's front-end progress (plain `rdtsc`
//! issues early, and on Intel cores the rooks' work read near zero while
//! the knights' read five times their ablation cost) or its latency from a
//! drained pipeline (fenced reads, which cost 1.2-2x an evaluation). The
//! stores cost an evaluation 0-5% (`engine evalcycles --counters sampled`
//! prints it), so the shares are those of the evaluation the engine runs.
//!
//! One sampler runs at a time in a process ([`Sampler::start`]): the
//! register and the counts are process-wide, as a signal handler needs, so
//! only the thread that evaluates should run the sampled copy. Intervals
//! are drawn uniformly from 0.5-1.5x the mean, so the samples cannot lock
//! onto a loop whose period divides the interval.

use super::counters::{Input, Phase, Slot};
use super::groups::Group;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::Duration;

/// The phase the sampled copy is in: a [`super::counters::Phase`] as a
/// byte, [`GLUE`] inside an evaluation between phases, [`OUTSIDE`] elsewhere.
pub static PHASE: AtomicU8 = AtomicU8::new(OUTSIDE);

/// [`PHASE`] outside every evaluation.
pub const OUTSIDE: u8 = 255;

/// [`PHASE`] inside an evaluation, in no phase (the code between phases,
/// the inputs' set-up, the return).
pub const GLUE: u8 = 254;

/// Samples per value of [`PHASE`].
static COUNTS: [AtomicU64; 256] = [const { AtomicU64::new(0) }; 256];

/// Whether a sampler is running (one per process).
static RUNNING: AtomicBool = AtomicBool::new(false);

/// Mean interval in microseconds, and the generator drawing each one.
static MEAN_US: AtomicU64 = AtomicU64::new(50);
static RNG: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);

/// Enter `phase` (the sampled copy, at a phase's start); returns the phase
/// to go back to at its end ([`leave`]). Phases nest (an input inside its
/// group's phase), so the outer one is restored rather than assumed.
#[inline(always)]
pub fn enter(phase: u8) -> u8 {
    use std::sync::atomic::{compiler_fence, Ordering::SeqCst};
    let outer = PHASE.load(Relaxed);
    // The fences keep the compiler from moving the phase's memory accesses
    // across the store; the core retires the store in program order anyway.
    compiler_fence(SeqCst);
    PHASE.store(phase, Relaxed);
    compiler_fence(SeqCst);
    outer
}

/// Go back to `outer` at a phase's end ([`enter`]).
#[inline(always)]
pub fn leave(outer: u8) {
    use std::sync::atomic::{compiler_fence, Ordering::SeqCst};
    compiler_fence(SeqCst);
    PHASE.store(outer, Relaxed);
    compiler_fence(SeqCst);
}

/// Why sampling could not start.
#[derive(Debug, thiserror::Error)]
pub enum SamplerError {
    /// Another sampler is running.
    #[error("a sampler is already running in this process (one at a time: the timer signal is process-wide)")]
    Busy,
    /// The mean interval is too short to be served.
    #[error("the sampling interval must be at least 2 microseconds (got {0:?})")]
    Interval(Duration),
    /// The signal handler could not be installed.
    #[error("cannot install the SIGALRM handler for sampling: {0}")]
    Signal(std::io::Error),
    /// No timer signal on this platform.
    #[error("sampling needs a Unix timer signal (SIGALRM); this platform has none")]
    Unsupported,
}

/// The counts a sampler took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Samples {
    counts: Box<[u64; 256]>,
}

impl Samples {
    /// Samples that found the evaluation in `phase` (a
    /// [`super::counters::Phase`] as a byte, or [`GLUE`], [`OUTSIDE`]).
    pub fn at(&self, phase: u8) -> u64 {
        self.counts[phase as usize]
    }

    /// Samples taken inside an evaluation (every phase and the glue).
    pub fn inside(&self) -> u64 {
        self.counts.iter().take(OUTSIDE as usize).sum()
    }

    /// Every sample.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The samples inside evaluations by row: per group (in
    /// [`Group::ALL`] order), per input (in [`Input::ALL`] order), and the
    /// glue (between phases, and the empty calibration region), in no row.
    /// A sample in an input nested in a group's phase counts for the input.
    pub fn by_slot(&self) -> SlotSamples {
        let mut t = SlotSamples { groups: [0; Group::ALL.len()], inputs: [0; Input::ALL.len()], glue: 0 };
        for v in 0..OUTSIDE {
            let n = self.at(v);
            match Phase::ALL.get(v as usize).map(|p| p.slot()) {
                Some(Slot::Group(g)) => t.groups[g as usize] += n,
                Some(Slot::Input(i)) => t.inputs[i as usize] += n,
                _ => t.glue += n,
            }
        }
        t
    }
}

/// [`Samples::by_slot`]: the samples inside evaluations, by row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotSamples {
    /// Per group, in [`Group::ALL`] order.
    pub groups: [u64; Group::ALL.len()],
    /// Per input, in [`Input::ALL`] order.
    pub inputs: [u64; Input::ALL.len()],
    /// Inside an evaluation, in no phase.
    pub glue: u64,
}

/// A running sampler: the handler is installed and the timer armed until
/// [`Sampler::stop`] (or drop) disarms it. The handler stays installed
/// afterwards: a signal already on its way (fired before the timer was
/// disarmed, or re-armed by a handler running on another thread as it was)
/// must find a handler that only counts, not the default action, which
/// ends the process.
pub struct Sampler {
    _private: (),
}

impl Sampler {
    /// Start sampling every `mean` on average (wall time: `ITIMER_REAL`,
    /// whose high-resolution timer serves microsecond intervals where the
    /// CPU-time timers tick at the scheduler's few milliseconds).
    pub fn start(mean: Duration) -> Result<Sampler, SamplerError> {
        if mean < Duration::from_micros(2) {
            return Err(SamplerError::Interval(mean));
        }
        if RUNNING.swap(true, Relaxed) {
            return Err(SamplerError::Busy);
        }
        for c in &COUNTS {
            c.store(0, Relaxed);
        }
        MEAN_US.store(mean.as_micros().min(u64::MAX as u128) as u64, Relaxed);
        Self::install().inspect_err(|_| RUNNING.store(false, Relaxed))
    }

    #[cfg(unix)]
    fn install() -> Result<Sampler, SamplerError> {
        // SAFETY: a zeroed sigaction is a valid "no flags, empty mask"
        // value; the handler only touches atomics and re-arms the timer
        // (setitimer is one system call on Linux, safe in a handler).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(libc::SIGALRM, &action, std::ptr::null_mut()) != 0 {
                return Err(SamplerError::Signal(std::io::Error::last_os_error()));
            }
            arm();
            Ok(Sampler { _private: () })
        }
    }

    #[cfg(not(unix))]
    fn install() -> Result<Sampler, SamplerError> {
        Err(SamplerError::Unsupported)
    }

    /// Stop sampling and return the counts.
    pub fn stop(self) -> Samples {
        drop(self);
        let mut counts = [0u64; 256];
        for (c, a) in counts.iter_mut().zip(&COUNTS) {
            *c = a.load(Relaxed);
        }
        Samples { counts: Box::new(counts) }
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        // Mean 0: a handler still running arms nothing more.
        MEAN_US.store(0, Relaxed);
        #[cfg(unix)]
        disarm();
        RUNNING.store(false, Relaxed);
    }
}

#[cfg(unix)]
extern "C" fn on_signal(_: libc::c_int) {
    let phase = PHASE.load(Relaxed);
    COUNTS[phase as usize].fetch_add(1, Relaxed);
    arm();
}

/// Arm the one-shot timer for an interval drawn from 0.5-1.5x the mean
/// (nothing when the sampler is stopping: mean 0).
#[cfg(unix)]
fn arm() {
    let mean = MEAN_US.load(Relaxed);
    if mean == 0 {
        return;
    }
    // xorshift64: the handler may not allocate or lock.
    let mut x = RNG.load(Relaxed);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    RNG.store(x, Relaxed);
    let us = mean / 2 + x % (mean + 1);
    set_timer(us);
}

#[cfg(unix)]
fn disarm() {
    set_timer(0);
}

#[cfg(unix)]
fn set_timer(us: u64) {
    let value =
        libc::timeval { tv_sec: (us / 1_000_000) as libc::time_t, tv_usec: (us % 1_000_000) as libc::suseconds_t };
    let t = libc::itimerval { it_interval: libc::timeval { tv_sec: 0, tv_usec: 0 }, it_value: value };
    // SAFETY: a valid itimerval; the old value is not asked for.
    unsafe {
        libc::setitimer(libc::ITIMER_REAL, &t, std::ptr::null_mut());
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// The sampler counts where the program is: a loop that stays in one
    /// phase gets nearly every sample, and a second sampler is refused.
    #[test]
    fn samples_land_in_the_phase_that_runs() {
        let s = Sampler::start(Duration::from_micros(20)).unwrap();
        assert!(matches!(Sampler::start(Duration::from_micros(20)), Err(SamplerError::Busy)));
        let outer = enter(7);
        let t = std::time::Instant::now();
        let mut x = 0u64;
        while t.elapsed() < Duration::from_millis(200) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        leave(outer);
        let samples = s.stop();
        assert_eq!(PHASE.load(Relaxed), OUTSIDE);
        // 200 ms at a 20 us mean: thousands of samples, unless the timer
        // never fired (then the test fails, as it should).
        assert!(samples.at(7) > 100, "{} samples in the phase", samples.at(7));
        assert!(samples.at(7) * 10 >= samples.total() * 9, "{} of {}", samples.at(7), samples.total());
        assert!(matches!(Sampler::start(Duration::from_micros(1)), Err(SamplerError::Interval(_))));
        // Stopped: a new one may start.
        drop(Sampler::start(Duration::from_micros(50)).unwrap());
    }

    /// Each phase's samples go to its group or input; the glue, the empty
    /// calibration region and the whole go to no row; outside is left out.
    #[test]
    fn samples_by_slot_follow_the_phases() {
        let mut counts = Box::new([0u64; 256]);
        for (i, p) in Phase::ALL.iter().enumerate() {
            counts[*p as usize] = 1 + i as u64;
        }
        counts[GLUE as usize] = 1000;
        counts[OUTSIDE as usize] = 1_000_000;
        let t = Samples { counts }.by_slot();
        let of = |slot: Slot| -> u64 {
            Phase::ALL.iter().enumerate().filter(|(_, p)| p.slot() == slot).map(|(i, _)| 1 + i as u64).sum()
        };
        for g in Group::ALL {
            assert_eq!(t.groups[g as usize], of(Slot::Group(g)), "{g:?}");
        }
        for i in Input::ALL {
            assert_eq!(t.inputs[i as usize], of(Slot::Input(i)), "{i:?}");
            assert!(t.inputs[i as usize] > 0, "{i:?} has a phase");
        }
        let placed: u64 = t.groups.iter().chain(&t.inputs).sum();
        let all_phases: u64 = (1..=Phase::ALL.len() as u64).sum();
        assert_eq!(t.glue, 1000 + all_phases - placed);
        assert!(t.glue > 1000, "the calibration phase is in no row");
    }
}
