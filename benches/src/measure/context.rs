//! The measurement context every benchmark runs in, and the one builder
//! that makes it: the clock chosen and calibrated, the plan (rounds,
//! budget, minimum sample length in the clock's units), samples per round,
//! hardware counters if asked for, and what the run is for ([`Purpose`]).
//! A report run (`boardbench NAME`, `cargo bench`), the gate's timing
//! samples and every collecting run (the gate's instruction counts, the
//! criterion and callgrind targets) differ only in the [`Options`] they
//! pass.

use crate::measure::calibration::ClockInfo;
use crate::measure::case::{Case, CaseId};
use crate::measure::clock::Clock;
use crate::measure::counters::{CounterStatus, Counters};
use crate::measure::runner::{Plan, Precision};
use std::cell::RefCell;
use std::time::Duration;

/// Everything a benchmark needs from the run.
pub struct Context {
    pub clock: Clock,
    pub clock_info: ClockInfo,
    pub plan: Plan,
    pub bucket_samples: usize,
    pub ladder_samples: usize,
    /// Open hardware counters, when asked for and the machine has them.
    pub counters: RefCell<Option<Counters>>,
    /// Whether counters could be opened, and if not, why.
    pub counter_status: CounterStatus,
    pub progress: bool,
    /// A `--quick` smoke run.
    pub quick: bool,
    /// What the run is for: a report, or one of the harnesses' uses.
    pub purpose: Purpose,
    /// Whether this process runs a report's extra parts: a report measured
    /// in several processes runs them in one (true as built).
    pub with_extras: bool,
    /// Processes the benchmark's measurement is split over (1 as built): a
    /// benchmark with a fixed plan of its own takes its share of rounds.
    pub processes: usize,
}

impl Context {
    /// Whether to run a benchmark's parts beyond the per-call timing (only
    /// full report runs do, in one of their measuring processes).
    pub fn extras(&self) -> bool {
        matches!(self.purpose, Purpose::Report) && self.with_extras
    }
}

/// What a run is for. Benchmarks see it through [`Context::extras`]; the
/// runner part lives in `suite::benchmark::measure`, so every benchmark
/// that measures through it serves the commit gate and the per-case
/// targets without code of its own.
pub enum Purpose {
    /// A full run: every arm, the A/A and x2 controls, and any extra parts
    /// of a benchmark (e.g. evalcycles' per-term breakdown).
    Report,
    /// The gate's timing samples: the benchmark's own arms only (the gate's
    /// control is a second process of the base build, not an in-process
    /// A/A), no extra parts. Control arms are not run; their rounds are
    /// left empty, so their statistics read NaN.
    GateTiming,
    /// Nothing is timed: the benchmark's cases are collected (see
    /// [`Collector`]), then measuring stops with [`COLLECTED`] as its error.
    Collect(Collector),
}

/// What a collecting run gathers: every workload × baseline/candidate arm
/// of a benchmark as a [`CaseId`], in order, and the wanted ones prepared
/// (routine and a copy of the inputs), ready to run.
pub struct Collector {
    pub want: Want,
    pub found: RefCell<Vec<CaseId>>,
    pub prepared: RefCell<Vec<(CaseId, Box<dyn Case>)>>,
}

/// Which cases a [`Collector`] prepares.
#[derive(Clone, Debug, PartialEq)]
pub enum Want {
    /// None: list the cases only.
    Nothing,
    /// This one.
    One(CaseId),
    /// Every case.
    Every,
}

impl Want {
    pub fn wants(&self, id: &CaseId) -> bool {
        match self {
            Want::Nothing => false,
            Want::One(one) => one == id,
            Want::Every => true,
        }
    }
}

/// The error measuring returns in [`Purpose::Collect`].
pub const COLLECTED: &str = "(collected for the gate, not measured)";

/// Which clock a context times with.
#[derive(Clone, Debug, PartialEq)]
pub enum ClockChoice {
    /// The TSC where usable, else the monotonic clock (the reason recorded
    /// as the fallback reason).
    Tsc,
    /// The monotonic clock.
    Monotonic,
    /// Nothing is timed: the monotonic clock, uncalibrated, with this
    /// reason ([`ClockInfo::untimed`]).
    Untimed(&'static str),
}

/// What a run asks of its context.
pub struct Options {
    pub clock: ClockChoice,
    /// Window of monotonic time over which the TSC's frequency is measured
    /// (each of three).
    pub tsc_window: Duration,
    /// Also calibrate core cycles per clock unit.
    pub cycles: bool,
    /// Kept rounds (with a budget: the least number kept).
    pub rounds: usize,
    pub budget_s: Option<f64>,
    pub warmup_rounds: usize,
    /// Minimum length of a timed sample in microseconds (0: one pass per
    /// sample); the plan holds it in the clock's units.
    pub min_sample_us: f64,
    pub visit_warmup: bool,
    /// Time each arm in a block after this many untimed passes
    /// ([`Plan::block_warmup`]).
    pub block_warmup: Option<usize>,
    pub precision: Option<Precision>,
    pub bucket_samples: usize,
    pub ladder_samples: usize,
    /// Open the hardware counters.
    pub counters: bool,
    pub progress: bool,
    pub quick: bool,
    pub purpose: Purpose,
}

impl Options {
    /// A run that times nothing and collects cases (`want`): one round, no
    /// warm-up, no batches, nothing calibrated.
    pub fn collecting(want: Want) -> Options {
        Options {
            clock: ClockChoice::Untimed("collecting, not measuring"),
            tsc_window: Duration::ZERO,
            cycles: false,
            rounds: 1,
            budget_s: None,
            warmup_rounds: 0,
            min_sample_us: 0.0,
            visit_warmup: false,
            block_warmup: None,
            precision: None,
            bucket_samples: 1,
            ladder_samples: 1,
            counters: false,
            progress: false,
            quick: true,
            purpose: Purpose::Collect(Collector {
                want,
                found: RefCell::new(Vec::new()),
                prepared: RefCell::new(Vec::new()),
            }),
        }
    }
}

impl Context {
    /// The context `o` asks for: the clock chosen and its facts measured,
    /// then the counters opened. Run it after pinning: the calibration
    /// belongs to the core the run measures on.
    pub fn build(o: Options) -> Context {
        let (clock, clock_info) = match o.clock {
            ClockChoice::Untimed(why) => (Clock::choose(false).0, ClockInfo::untimed(why)),
            choice => {
                let (clock, reason) = Clock::choose(choice == ClockChoice::Tsc);
                let info = ClockInfo::measure(&clock, o.tsc_window, o.cycles, reason);
                (clock, info)
            }
        };
        let plan = Plan {
            rounds: o.rounds,
            budget_s: o.budget_s,
            warmup_rounds: o.warmup_rounds,
            min_sample: o.min_sample_us * clock_info.units_per_us(),
            visit_warmup: o.visit_warmup,
            block_warmup: o.block_warmup,
            precision: o.precision,
        };
        let (counters, counter_status) = if o.counters {
            let opened = Counters::open();
            let status = Counters::status(&opened);
            (opened.ok(), status)
        } else {
            (None, CounterStatus { available: false, reason: Some("not opened: this run counts nothing".into()) })
        };
        Context {
            clock,
            clock_info,
            plan,
            bucket_samples: o.bucket_samples,
            ladder_samples: o.ladder_samples,
            counters: RefCell::new(counters),
            counter_status,
            progress: o.progress,
            quick: o.quick,
            purpose: o.purpose,
            with_extras: true,
            processes: 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collecting_context_times_nothing() {
        let ctx = Context::build(Options::collecting(Want::Nothing));
        assert_eq!(ctx.clock_info, ClockInfo::untimed("collecting, not measuring"));
        assert_eq!((ctx.plan.min_sample, ctx.plan.rounds, ctx.plan.warmup_rounds), (0.0, 1, 0));
        assert!(ctx.counters.borrow().is_none() && !ctx.counter_status.available);
        assert!(!ctx.extras());
        let one = CaseId { bench: "b".into(), bucket: "k".into(), arm: "a".into() };
        assert!(!Want::Nothing.wants(&one) && Want::Every.wants(&one) && Want::One(one.clone()).wants(&one));
        let other = CaseId { arm: "z".into(), ..one.clone() };
        assert!(!Want::One(one).wants(&other));
    }

    #[test]
    fn the_minimum_sample_is_held_in_the_clocks_units() {
        let mut o = Options::collecting(Want::Nothing);
        o.clock = ClockChoice::Monotonic;
        o.tsc_window = Duration::from_millis(5);
        o.min_sample_us = 10.0;
        o.purpose = Purpose::Report;
        let ctx = Context::build(o);
        assert_eq!(ctx.clock_info.kind, "monotonic");
        assert_eq!(ctx.clock_info.fallback_reason, None);
        assert_eq!(ctx.plan.min_sample, 10_000.0, "10 µs in nanoseconds");
        assert!(ctx.extras());
    }
}
