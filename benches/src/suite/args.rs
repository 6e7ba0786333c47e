//! The options of every measuring command ([`RunArgs`]) and what they turn
//! into: the benchmarks named, the positions, and one measuring process's
//! context options (its share of the budget and rounds).

use crate::measure::context::{ClockChoice, Options, Purpose};
use crate::measure::runner::Precision;
use crate::suite::benchmarks;
use crate::suite::density::{self, PositionSet, Sizes};
use crate::suite::spec::Entry;
use crate::workspace;
use clap::{Args, ValueEnum};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
pub enum ClockArg {
    /// The time-stamp counter (falls back to monotonic where there is none).
    Tsc,
    /// std::time::Instant, in nanoseconds.
    Monotonic,
}

/// Options of every measuring command.
#[derive(Args, Clone, Debug, Serialize, Deserialize)]
pub struct RunArgs {
    /// A short smoke run (under a minute for everything): fewer rounds.
    #[arg(long)]
    pub quick: bool,
    /// Take every position from this EPD (or Lichess-puzzle CSV) file
    /// instead of the default real-game files in positions/.
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Directory for the JSON result and plots [default: results/runs].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Pin the measuring thread to core N [default: the last core].
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub core: Option<usize>,
    /// Kept rounds, over all of a benchmark's processes (each gets its
    /// share, at least 2): exactly N; with --seconds at least N, as many as
    /// fill it up to 20 N (default: as many as fit in --seconds, at least
    /// 60; --quick: at least 8).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(2..))]
    pub rounds: Option<u32>,
    /// Seconds of kept rounds per benchmark, shared by its processes
    /// [default: 25, --quick: 5].
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub seconds: Option<u32>,
    /// Stop each measuring process on precision: after 40% of its share of
    /// --seconds, as soon as every ratio's 95% interval in it (controls
    /// included) is within ±PCT·√K% (K processes: the sampling inside them
    /// then adds at most about ±PCT% to the combined interval); past its
    /// share, keep going while one is wider, up to 160% of it. 0 spends
    /// exactly --seconds. Not with --rounds or --quick.
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = 1.0,
        allow_negative_numbers = true,
        value_parser = parse_precision,
        conflicts_with_all = ["rounds", "quick"]
    )]
    pub precision: f64,
    /// Minimum length of a timed sample in µs (the TSC steps in tens of
    /// ticks: at least 10; at most 100000).
    #[arg(long, value_name = "US", default_value_t = 10.0, allow_negative_numbers = true, value_parser = parse_min_sample)]
    pub min_sample_us: f64,
    /// Time each arm's samples of a visit in one block after N untimed
    /// passes of it, instead of interleaving the arms sample by sample (the
    /// core learns a repeated pass, and interleaved arms undo each other's
    /// learning: ARCHITECTURE.md, "A set the core learns"). For trying the
    /// effect on a benchmark; evalcycles' ablation always uses blocks.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..10_000))]
    #[serde(default)]
    pub block_warmup: Option<u32>,
    /// Positions per density bucket.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 256,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub per_bucket: u32,
    /// Positions per men count on the correlation ladder (3..32 men).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 64,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub per_count: u32,
    /// Seed of the position selection.
    #[arg(long, value_name = "S", default_value_t = Sizes::default().seed)]
    pub seed: u64,
    /// Clock to time samples with.
    #[arg(long, value_enum, default_value = "tsc")]
    pub clock: ClockArg,
    /// Also calibrate core cycles per clock unit (dependent add chain,
    /// N vs 2N) and report costs in core cycles too.
    #[arg(long)]
    pub cycles: bool,
    /// Skip the plots.
    #[arg(long)]
    pub no_plots: bool,
    /// Keep every other core idle while measuring (a real-time pause loop on
    /// each): no other process runs during the run. Needs real time.
    #[arg(long, conflicts_with = "no_realtime")]
    pub exclusive: bool,
    /// Do not ask for real-time (SCHED_FIFO) scheduling of the measuring
    /// thread (by default asked for; refused quietly where not permitted).
    #[arg(long)]
    pub no_realtime: bool,
    /// Exit with status 3 when a control (A/A within 1 ± 1%, x2 within
    /// 2 ± 2%, A/A across processes) fails.
    #[arg(long)]
    pub strict: bool,
    /// Measuring processes per benchmark, each with its own random
    /// placement, run in turn across the run's benchmarks; the intervals
    /// come from their spread [default: 8, --quick: 4].
    #[arg(
        long,
        value_name = "K",
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(2..=MAX_PROCESSES)
    )]
    pub processes: Option<u32>,
    /// The run-to-run component this machine adds to every old/new
    /// interval, as `boardbench calibrate --save` measured it [default:
    /// this machine's file in results/run-level/, if it has one].
    #[arg(long, value_name = "FILE", conflicts_with = "no_run_level")]
    #[serde(default)]
    pub run_level: Option<PathBuf>,
    /// Leave the run-to-run component out: intervals from this run's
    /// processes alone (they then describe this run, not the next one).
    #[arg(long)]
    #[serde(default)]
    pub no_run_level: bool,
}

/// Most measuring processes per benchmark.
pub const MAX_PROCESSES: i64 = 64;

/// Longest minimum sample `--min-sample-us` accepts: a tenth of a second.
const MAX_MIN_SAMPLE_US: f64 = 100_000.0;

/// `--min-sample-us`: a positive number of microseconds, at most
/// [`MAX_MIN_SAMPLE_US`].
fn parse_min_sample(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("not a number: {s:?}"))?;
    if v > 0.0 && v <= MAX_MIN_SAMPLE_US {
        Ok(v)
    } else {
        Err(format!("{v} is not a sample length from above 0 to {MAX_MIN_SAMPLE_US} µs"))
    }
}

/// `--precision`: a percentage in [0, 50).
fn parse_precision(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("not a number: {s:?}"))?;
    if (0.0..50.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not a percentage from 0 (off) to below 50"))
    }
}

impl RunArgs {
    /// The defaults, as `cargo bench` uses them.
    pub fn defaults() -> RunArgs {
        RunArgs {
            quick: false,
            positions: None,
            out: None,
            core: None,
            rounds: None,
            seconds: None,
            precision: 1.0,
            min_sample_us: 10.0,
            block_warmup: None,
            per_bucket: 256,
            per_count: 64,
            seed: Sizes::default().seed,
            clock: ClockArg::Tsc,
            cycles: false,
            no_plots: false,
            no_realtime: false,
            exclusive: false,
            strict: false,
            processes: None,
            run_level: None,
            no_run_level: false,
        }
    }

    /// Measuring processes per benchmark.
    pub fn processes(&self) -> usize {
        self.processes.map_or(if self.quick { 4 } else { 8 }, |k| k as usize)
    }

    /// Seconds of kept rounds per benchmark, over all its processes (none:
    /// fixed rounds).
    pub fn budget_s(&self) -> Option<f64> {
        match (self.rounds, self.seconds) {
            (Some(_), None) => None,
            (_, Some(s)) => Some(f64::from(s)),
            (None, None) => Some(if self.quick { 5.0 } else { 25.0 }),
        }
    }

    /// The precision the combined intervals are judged against (a
    /// fraction), when the run stops on precision.
    pub fn precision_target(&self) -> Option<f64> {
        (self.budget_s().is_some() && self.rounds.is_none() && !self.quick && self.precision > 0.0)
            .then_some(self.precision / 100.0)
    }

    /// The positions the run measures (every process selects the same).
    pub fn positions(&self) -> Result<PositionSet, String> {
        let sizes = Sizes { per_bucket: self.per_bucket as usize, per_count: self.per_count as usize, seed: self.seed };
        let set = match &self.positions {
            Some(file) => density::select(std::slice::from_ref(file), None, sizes),
            None => {
                let dir = workspace::positions_dir();
                let fill = dir.join(density::DERIVED_FILE);
                density::select(&density::default_sources(&dir), Some(&fill), sizes)
            }
        };
        set.map_err(|e| e.to_string())
    }

    /// The context options of one of `processes` measuring processes: its
    /// share of the budget and of the rounds, and a precision target that
    /// leaves the combined interval's within-process part at the run's.
    pub fn process_options(&self, processes: usize) -> Options {
        let k = processes.max(1);
        let budget = self.budget_s();
        let rounds = self.rounds.map(|r| r as usize).unwrap_or(if self.quick { 8 } else { 60 });
        Options {
            clock: match self.clock {
                ClockArg::Tsc => ClockChoice::Tsc,
                ClockArg::Monotonic => ClockChoice::Monotonic,
            },
            tsc_window: Duration::from_millis(20),
            cycles: self.cycles,
            rounds: rounds.div_ceil(k).max(2),
            budget_s: budget.map(|b| b / k as f64),
            warmup_rounds: if self.quick { 2 } else { 6 },
            min_sample_us: self.min_sample_us,
            visit_warmup: true,
            block_warmup: self.block_warmup.map(|n| n as usize),
            precision: self
                .precision_target()
                .map(|p| Precision { half_width: p * (k as f64).sqrt(), ..Precision::DEFAULT }),
            bucket_samples: if self.quick { 5 } else { 9 },
            ladder_samples: if self.quick { 1 } else { 2 },
            counters: true,
            progress: true,
            quick: self.quick,
            purpose: Purpose::Report,
        }
    }
}

/// Resolve benchmark names against the registry and `extra` entries.
pub fn resolve<'a>(names: &[String], extra: &'a [Entry]) -> Result<Vec<&'a Entry>, String>
where
    'static: 'a,
{
    let mut out = Vec::new();
    for n in names {
        let found = benchmarks::REGISTRY.iter().chain(extra).find(|e| e.name == n);
        match found {
            Some(e) => out.push(e),
            None => {
                let known: Vec<&str> = benchmarks::REGISTRY.iter().chain(extra).map(|e| e.name).collect();
                return Err(format!("unknown benchmark {n:?} (known: {})", known.join(", ")));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--block-warmup` reaches every measuring process's plan; without it
    /// the arms stay interleaved.
    #[test]
    fn block_warmup_reaches_the_plan() {
        assert_eq!(RunArgs::defaults().process_options(8).block_warmup, None);
        let args = RunArgs { block_warmup: Some(20), ..RunArgs::defaults() };
        assert_eq!(args.process_options(8).block_warmup, Some(20));
        // What a worker receives: the arguments as JSON.
        let back: RunArgs = serde_json::from_str(&serde_json::to_string(&args).unwrap()).unwrap();
        assert_eq!(back.block_warmup, Some(20));
    }
}
