//! A run of the suite, shared by the `boardbench` binary and the `cargo
//! bench` targets: check the output directory, the positions and the
//! core; then measure every benchmark in several measuring processes
//! ([`crate::suite::worker`]), each with its own random placement, taken in
//! turn across the run's benchmarks (process 1 of every benchmark, then
//! process 2, ...) so that the host's slow drift lands between processes
//! too; combine each benchmark's processes ([`crate::suite::combine`]),
//! publish the plots and the JSON whole or not at all
//! ([`crate::suite::publish`]), print the table. The options are
//! [`RunArgs`] ([`crate::suite::args`]).

use crate::measure::placement::PlacementPlan;
use crate::measure::{pin, sysinfo};
use crate::output::{self, print_out};
use crate::suite::combine;
use crate::suite::density::Sizes;
use crate::suite::report::{BenchReport, Metadata, PositionsInfo, RunReport, Settings, SCHEMA};
use crate::suite::spec::Entry;
use crate::suite::worker::{self, Measured, Request};
use crate::suite::{publish, run_level, table};
use crate::workspace;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use crate::suite::args::{resolve, ClockArg, RunArgs};

/// What a finished run produced.
pub struct Outcome {
    pub report: RunReport,
    pub json: PathBuf,
    pub plots: Vec<PathBuf>,
    pub controls_failed: usize,
}

/// Run `entries` with `args`; `argv` is recorded as the command line. The
/// measuring processes are this program started again
/// ([`worker::WORKER_ARG`]): its `main` must hand that argument to
/// [`worker::serve`].
pub fn execute(args: &RunArgs, entries: &[&Entry], argv: Vec<String>) -> Result<Outcome, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find this program to start measuring processes: {e}"))?;
    execute_with(&exe, args, entries, argv)
}

/// [`execute`] with the measuring processes started from `exe`.
pub fn execute_with(exe: &Path, args: &RunArgs, entries: &[&Entry], argv: Vec<String>) -> Result<Outcome, String> {
    execute_by(Measurer::Processes(exe), args, entries, argv)
}

/// [`execute`] for benchmarks whose inputs live in this process (the cut
/// list's candidates, loaded into thread-locals): each of the K
/// measurements runs here, on the calling thread, in turn, each under its
/// own stack depth and heap offset but in this process's address layout,
/// so the interval covers less of the between-process variation than a
/// run of registered benchmarks.
pub fn execute_here(args: &RunArgs, entries: &[&Entry], argv: Vec<String>) -> Result<Outcome, String> {
    execute_by(Measurer::ThisProcess, args, entries, argv)
}

/// Where a benchmark's K measurements run.
#[derive(Clone, Copy)]
enum Measurer<'a> {
    /// Measuring processes of this program.
    Processes(&'a Path),
    /// This process, this thread.
    ThisProcess,
}

fn execute_by(measurer: Measurer, args: &RunArgs, entries: &[&Entry], argv: Vec<String>) -> Result<Outcome, String> {
    let started = Instant::now();
    let date_secs = sysinfo::now_secs();
    let load_start = sysinfo::load_average();
    if !(args.min_sample_us > 0.0 && args.min_sample_us.is_finite()) {
        return Err(format!("--min-sample-us {}: must be a positive number", args.min_sample_us));
    }
    let out = args.out.clone().unwrap_or_else(workspace::results_dir);
    output::check_writable(&out).map_err(|e| format!("output directory: {e}"))?;
    // Checked here, once, before any process starts: every process selects
    // the same positions and pins the same core.
    let set = args.positions()?;
    let sizes = Sizes { per_bucket: args.per_bucket as usize, per_count: args.per_count as usize, seed: args.seed };
    let positions = PositionsInfo::of(&set, sizes);
    if let Some(short) = positions.shortfall() {
        eprintln!("boardbench: warning: {short}");
    }
    // Before measuring: a bad run-level file stops the run at once.
    let (run_level_profile, run_level_note) = run_level::resolve(args.run_level.as_deref(), args.no_run_level)?;
    let core = pin::choose_core(args.core)?;
    let exclusive = args.exclusive.then(|| pin::Exclusive::hold_all_but(core));
    match &exclusive {
        Some(x) if x.held.is_empty() => {
            eprintln!(
                "boardbench: --exclusive not honoured: real-time scheduling was refused (other processes may run)"
            )
        }
        Some(x) => eprintln!("boardbench: holding cores {:?} idle while measuring (--exclusive)", x.held),
        None => {}
    }
    let (commit, dirty) = workspace::git_state(&workspace::root());
    let run_id = format!(
        "{}-{}",
        sysinfo::iso8601(date_secs).replace([':', '-'], ""),
        commit.as_deref().map(|c| &c[..c.len().min(10)]).unwrap_or("nogit")
    );
    let k = args.processes();
    // A new draw of placements every run.
    let mut seeds = engine::rng::Rng::new(placement_seed());
    let mut measured: Vec<Vec<Measured>> = entries.iter().map(|_| Vec::with_capacity(k)).collect();
    for process in 0..k {
        for (e, done) in entries.iter().zip(measured.iter_mut()) {
            if process == 0 {
                eprintln!("boardbench: {} — {} ({k} measuring processes)", e.name, e.about);
            } else {
                eprintln!("boardbench: {}, measuring process {} of {k}", e.name, process + 1);
            }
            let request = Request {
                bench: e.name.to_string(),
                args: args.clone(),
                process,
                processes: k,
                placement: PlacementPlan::draw(seeds.next_u64()),
                extras: process == 0,
            };
            let at = started.elapsed().as_secs_f64();
            let mut m = match measurer {
                Measurer::Processes(exe) => worker::measure_in_process(exe, &request)?,
                Measurer::ThisProcess => worker::measure_here(&request, e)?,
            };
            m.info.started_s = at;
            done.push(m);
        }
    }
    drop(exclusive);
    let first = measured.first().and_then(|m| m.first()).ok_or("no benchmark to run")?.clone();
    let mut benches = Vec::new();
    for processes in measured {
        let parts: Vec<BenchReport> = processes.iter().map(|m| m.report.clone()).collect();
        let infos = processes.into_iter().map(|m| m.info).collect();
        benches.push(combine::combine(&parts, infos, args.precision_target())?);
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
            clock: first.clock.clone(),
            pinning: first.pinning.clone(),
            load_average_start: load_start,
            load_average_end: sysinfo::load_average(),
            date: sysinfo::iso8601(date_secs),
            duration_s: started.elapsed().as_secs_f64(),
            command_line: argv,
            counters: first.counters.clone(),
            aslr: first.info.placement.aslr,
        },
        settings: Settings {
            quick: args.quick,
            processes: k,
            plan: first.plan,
            min_sample_us: args.min_sample_us,
            bucket_samples_per_round: args.process_options(k).bucket_samples,
            ladder_samples_per_round: args.process_options(k).ladder_samples,
            run_level: None,
        },
        positions,
        benchmarks: benches,
    };
    let run_level_note = match &run_level_profile {
        Some(profile) => {
            let total = report.old_new_arms().filter(|(_, a)| a.ratio.is_some()).count();
            let applied = profile.apply(&mut report);
            let others = if applied < total { " (the file has no component for the others)" } else { "" };
            format!("{run_level_note} for {applied} of {total} cases{others}")
        }
        None => run_level_note,
    };
    eprintln!("boardbench: {run_level_note}");
    report.settings.run_level = Some(run_level_note);
    let published = publish::publish(&out, &run_id, &mut report, !args.no_plots)?;
    let controls_failed = report.controls().filter(|(_, c)| !c.pass).count();
    Ok(Outcome { report, json: published.json, plots: published.plots, controls_failed })
}

/// A seed for the run's placements: the clock's nanoseconds and the
/// process id, so that no two runs draw the same layouts.
fn placement_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
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
        let too_wide = outcome
            .report
            .controls()
            .filter(|(_, c)| c.failure() == Some(crate::suite::report::ControlFailure::TooWide))
            .count();
        let reason = if too_wide == outcome.controls_failed {
            " (all too noisy to judge, not off: give the run more --seconds)".to_string()
        } else if too_wide > 0 {
            format!(" ({too_wide} of them too noisy to judge, not off)")
        } else {
            String::new()
        };
        eprintln!("boardbench: {} control(s) outside their bounds{reason} (see the table)", outcome.controls_failed);
        if strict {
            return 3;
        }
    }
    0
}
