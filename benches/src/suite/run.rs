//! A run of the suite, shared by the `boardbench` binary and the `cargo
//! bench` targets: its options ([`RunArgs`]) and its orchestration — check
//! the output directory, choose positions, pin, build the measurement
//! context (clock, calibration, counters), run each benchmark, publish the
//! plots and the JSON whole or not at all ([`publish`]), print the table.

use crate::measure::context::{ClockChoice, Context, Options, Purpose};
use crate::measure::runner::Precision;
use crate::measure::{aslr, pin, sysinfo};
use crate::output::{self, print_out};
use crate::suite::density::{self, PositionSet, Sizes};
use crate::suite::report::{Metadata, PositionsInfo, RunReport, Settings, SCHEMA};
use crate::suite::spec::Entry;
use crate::suite::{benchmarks, publish, table};
use crate::workspace;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ClockArg {
    /// The time-stamp counter (falls back to monotonic where there is none).
    Tsc,
    /// std::time::Instant, in nanoseconds.
    Monotonic,
}

/// Options of every measuring command.
#[derive(Args, Clone, Debug)]
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
    /// Kept rounds: exactly N; with --seconds at least N, as many as fill
    /// it up to 20 N (default: as many as fit in --seconds, at least 60;
    /// --quick: at least 8).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(2..))]
    pub rounds: Option<u32>,
    /// Seconds of kept rounds per benchmark [default: 25, --quick: 5].
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub seconds: Option<u32>,
    /// Stop each benchmark on precision: after 40% of --seconds, as soon as
    /// every ratio's 95% interval (controls included) is within ±PCT%; past
    /// --seconds, keep going while one is wider, up to 160% of it. 0 spends
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
    /// 2 ± 2%) fails.
    #[arg(long)]
    pub strict: bool,
}

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
            per_bucket: 256,
            per_count: 64,
            seed: Sizes::default().seed,
            clock: ClockArg::Tsc,
            cycles: false,
            no_plots: false,
            no_realtime: false,
            exclusive: false,
            strict: false,
        }
    }
}

/// What a finished run produced.
pub struct Outcome {
    pub report: RunReport,
    pub json: PathBuf,
    pub plots: Vec<PathBuf>,
    pub controls_failed: usize,
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

fn sizes(args: &RunArgs) -> Sizes {
    Sizes { per_bucket: args.per_bucket as usize, per_count: args.per_count as usize, seed: args.seed }
}

fn select_positions(args: &RunArgs) -> Result<PositionSet, String> {
    let sizes = sizes(args);
    let set = match &args.positions {
        Some(file) => density::select(std::slice::from_ref(file), None, sizes),
        None => {
            let dir = workspace::positions_dir();
            let fill = dir.join(density::DERIVED_FILE);
            density::select(&density::default_sources(&dir), Some(&fill), sizes)
        }
    };
    set.map_err(|e| e.to_string())
}

/// Run `entries` with `args`; `argv` is recorded as the command line.
pub fn execute(args: &RunArgs, entries: &[&Entry], argv: Vec<String>) -> Result<Outcome, String> {
    let started = Instant::now();
    let date_secs = sysinfo::now_secs();
    let load_start = sysinfo::load_average();
    if !(args.min_sample_us > 0.0 && args.min_sample_us.is_finite()) {
        return Err(format!("--min-sample-us {}: must be a positive number", args.min_sample_us));
    }
    let out = args.out.clone().unwrap_or_else(workspace::results_dir);
    output::check_writable(&out).map_err(|e| format!("output directory: {e}"))?;
    let set = select_positions(args)?;
    let positions = PositionsInfo::of(&set, sizes(args));
    if let Some(short) = positions.shortfall() {
        eprintln!("boardbench: warning: {short}");
    }
    let mut pinning = pin::pin(args.core)?;
    if !pinning.pinned {
        eprintln!("boardbench: warning: not pinned ({}); results are noisier", pinning.detail);
    }
    if !args.no_realtime {
        (pinning.realtime, pinning.realtime_detail) = pin::go_realtime();
        if !pinning.realtime {
            eprintln!("boardbench: warning: not real-time ({}); results are noisier", pinning.realtime_detail);
        }
    }
    // Leave real time however this function returns.
    let _normal = pin::LeaveRealtimeOnDrop(pinning.realtime);
    if args.exclusive && !pinning.realtime {
        eprintln!("boardbench: --exclusive not honoured: real-time scheduling was refused (other processes may run)");
    }
    let exclusive =
        (args.exclusive && pinning.realtime).then(|| pin::Exclusive::hold_all_but(pinning.core.unwrap_or(0)));
    if let Some(x) = &exclusive {
        eprintln!("boardbench: holding cores {:?} idle while measuring (--exclusive)", x.held);
    }

    let budget = match (args.rounds, args.seconds) {
        (Some(_), None) => None,
        (_, Some(s)) => Some(f64::from(s)),
        (None, None) => Some(if args.quick { 5.0 } else { 25.0 }),
    };
    let ctx = Context::build(Options {
        clock: match args.clock {
            ClockArg::Tsc => ClockChoice::Tsc,
            ClockArg::Monotonic => ClockChoice::Monotonic,
        },
        tsc_window: Duration::from_millis(20),
        cycles: args.cycles,
        rounds: args.rounds.map(|r| r as usize).unwrap_or(if args.quick { 8 } else { 60 }),
        budget_s: budget,
        warmup_rounds: if args.quick { 2 } else { 6 },
        min_sample_us: args.min_sample_us,
        visit_warmup: true,
        precision: (budget.is_some() && args.rounds.is_none() && !args.quick && args.precision > 0.0)
            .then_some(Precision { half_width: args.precision / 100.0, ..Precision::DEFAULT }),
        bucket_samples: if args.quick { 5 } else { 9 },
        ladder_samples: if args.quick { 1 } else { 2 },
        counters: true,
        progress: true,
        quick: args.quick,
        purpose: Purpose::Report,
    });
    if let Some(r) = &ctx.clock_info.fallback_reason {
        eprintln!("boardbench: TSC unusable ({r}); using the monotonic clock");
    }
    let (commit, dirty) = workspace::git_state(&workspace::root());
    let run_id = format!(
        "{}-{}",
        sysinfo::iso8601(date_secs).replace([':', '-'], ""),
        commit.as_deref().map(|c| &c[..c.len().min(10)]).unwrap_or("nogit")
    );
    let mut benches = Vec::new();
    for e in entries {
        eprintln!("boardbench: {} — {}", e.name, e.about);
        let b = (e.run)(&ctx, &set).map_err(|err| format!("{}: {err}", e.name))?;
        benches.push(b);
    }
    let mut report = RunReport {
        schema: SCHEMA.to_string(),
        metadata: Metadata {
            boardbench_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: commit,
            git_dirty: dirty,
            rustc: sysinfo::rustc_version().to_string(),
            cpu_model: sysinfo::cpu_model(),
            cpu_flags: sysinfo::cpu_flags(),
            cpus: sysinfo::cpu_count(),
            clock: ctx.clock_info.clone(),
            pinning,
            load_average_start: load_start,
            load_average_end: sysinfo::load_average(),
            date: sysinfo::iso8601(date_secs),
            duration_s: started.elapsed().as_secs_f64(),
            command_line: argv,
            counters: ctx.counter_status.clone(),
            aslr: aslr::state(),
        },
        settings: Settings {
            quick: args.quick,
            plan: ctx.plan,
            min_sample_us: args.min_sample_us,
            bucket_samples_per_round: ctx.bucket_samples,
            ladder_samples_per_round: ctx.ladder_samples,
        },
        positions,
        benchmarks: benches,
    };
    let published = publish::publish(&out, &run_id, &mut report, !args.no_plots)?;
    let controls_failed = report.controls().filter(|(_, c)| !c.pass).count();
    Ok(Outcome { report, json: published.json, plots: published.plots, controls_failed })
}

/// Print the table and where things went; the exit status for the outcome.
pub fn finish(outcome: &Outcome, strict: bool) -> i32 {
    let mut text = format!("{}\nJSON:  {}\n", table::run_table(&outcome.report), outcome.json.display());
    if let Some(dir) = outcome.plots.first().and_then(|p| p.parent()) {
        text.push_str(&format!("plots: {} ({} files)\n", dir.display(), outcome.plots.len()));
    }
    text.push_str(&format!("took {:.1} s\n", outcome.report.metadata.duration_s));
    if let Err(e) = print_out(&text) {
        eprintln!("boardbench: {e}");
        return 1;
    }
    if outcome.controls_failed > 0 {
        eprintln!("boardbench: {} control(s) outside their bounds (see the table)", outcome.controls_failed);
        if strict {
            return 3;
        }
    }
    0
}
