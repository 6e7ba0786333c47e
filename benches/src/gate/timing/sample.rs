//! One process's timing sample: the hidden `gate-sample` subcommand. Each
//! process the timing check starts runs one registered benchmark briefly
//! ([`Purpose::GateTiming`]: every bucket × arm, the benchmark's own arms
//! only), pinned and real-time, and prints per case the floor (10th
//! percentile) of its samples as JSON.

use crate::gate::cli::{check_range, MAX_SECONDS};
use crate::gate::positions::positions_from;
use crate::measure::calibration::ClockInfo;
use crate::measure::context::{ClockChoice, Context, Options, Purpose};
use crate::measure::pin;
use crate::measure::runner::Role;
use crate::output::print_out;
use crate::suite::{benchmarks, run};
use crate::workspace;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

pub const SAMPLE_SCHEMA: &str = "boardbench.gate-sample/1";

/// `boardbench gate-sample`: one short timing run, JSON on stdout.
#[derive(clap::Args, Clone, Debug)]
pub struct SampleCli {
    /// Positions (EPD): every bucket's positions, as the gate wrote them.
    #[arg(long, value_name = "FILE")]
    pub positions: PathBuf,
    /// Positions per bucket.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub per_bucket: usize,
    /// Seconds of kept rounds per benchmark.
    #[arg(long, value_name = "S", default_value_t = 0.3)]
    pub seconds: f64,
    /// Pin to core N [default: the last core].
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
    /// Do not ask for real-time scheduling.
    #[arg(long)]
    pub no_realtime: bool,
    /// Benchmarks to run [default: all registered].
    #[arg(long = "bench", value_name = "NAME")]
    pub benches: Vec<String>,
}

/// Floors and medians of one case in one process.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SampleCase {
    pub bucket: String,
    pub arm: String,
    /// 10th percentile of this process's samples (units per call).
    pub floor: f64,
    /// Median over this process's rounds of the round medians.
    pub median: f64,
    pub samples: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SampleBench {
    pub name: String,
    pub unit: String,
    pub cases: Vec<SampleCase>,
}

/// What one `gate-sample` process prints.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Sample {
    pub schema: String,
    pub git_commit: Option<String>,
    pub pinned: bool,
    pub realtime: bool,
    pub core: Option<usize>,
    pub clock: ClockInfo,
    pub benches: Vec<SampleBench>,
}

/// Run `gate-sample`; the exit status.
pub fn sample_main(a: &SampleCli) -> Result<i32, String> {
    check_range("--seconds", a.seconds, MAX_SECONDS)?;
    let set = positions_from(&a.positions, a.per_bucket)?;
    let names: Vec<String> = if a.benches.is_empty() {
        benchmarks::names().iter().map(|s| s.to_string()).collect()
    } else {
        a.benches.clone()
    };
    let entries = run::resolve(&names, &[])?;
    let mut pinning = pin::pin(a.core)?;
    if !a.no_realtime {
        (pinning.realtime, pinning.realtime_detail) = pin::go_realtime();
    }
    let _normal = pin::LeaveRealtimeOnDrop(pinning.realtime);
    let ctx = Context::build(Options {
        clock: ClockChoice::Tsc,
        tsc_window: Duration::from_millis(10),
        cycles: false,
        rounds: 3,
        budget_s: Some(a.seconds),
        warmup_rounds: 1,
        min_sample_us: 10.0,
        visit_warmup: true,
        // The gate sizes its own rounds (processes, extra rounds).
        precision: None,
        bucket_samples: 9,
        ladder_samples: 1,
        counters: false,
        progress: false,
        quick: false,
        purpose: Purpose::GateTiming,
    });
    let mut benches = Vec::new();
    for e in entries {
        let r = (e.run)(&ctx, &set).map_err(|err| format!("{}: {err}", e.name))?;
        let mut cases = Vec::new();
        for b in &r.buckets {
            for arm in b.arms.iter().filter(|x| matches!(x.role, Role::Baseline | Role::Candidate)) {
                cases.push(SampleCase {
                    bucket: b.bucket.clone(),
                    arm: arm.arm.clone(),
                    floor: arm.summary.floor,
                    median: arm.summary.median,
                    samples: arm.samples,
                });
            }
        }
        benches.push(SampleBench { name: r.name.clone(), unit: r.unit.clone(), cases });
    }
    let sample = Sample {
        schema: SAMPLE_SCHEMA.into(),
        git_commit: workspace::git_state(&workspace::root()).0,
        pinned: pinning.pinned,
        realtime: pinning.realtime,
        core: pinning.core,
        clock: ctx.clock_info,
        benches,
    };
    print_out(&format!("{}\n", serde_json::to_string(&sample).map_err(|e| e.to_string())?))?;
    Ok(0)
}
