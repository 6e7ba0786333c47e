//! One measuring process: the protocol between a run and the processes it
//! measures each benchmark in. The run ([`measure_in_process`]) starts the
//! program again (its own executable, the hidden argument [`WORKER_ARG`])
//! with address-space randomisation on and an environment padded to a
//! random length, writes a [`Request`] (one benchmark, the run's options,
//! which process this is, its placement) as JSON on the child's stdin and
//! reads a [`Response`] as JSON from the child's stdout. The child
//! ([`serve`]) takes its random heap and stack offsets, pins itself, goes
//! real-time, builds its measurement context with its share of the budget,
//! measures the benchmark through its registered entry (the same
//! `Entry::run` as ever, so every benchmark is measured this way without
//! code of its own), and answers with the benchmark's report, its
//! placement and its clock facts — or with the one-line error that
//! stopped it.

use crate::measure::calibration::ClockInfo;
use crate::measure::context::Context;
use crate::measure::counters::CounterStatus;
use crate::measure::pin::{self, Pinning};
use crate::measure::placement::{self, PlacementPlan, PAD_VAR};
use crate::measure::runner::Plan;
use crate::measure::{aslr, sysinfo};
use crate::suite::args::{resolve, RunArgs};
use crate::suite::report::{BenchReport, ProcessInfo};
use crate::suite::spec::Entry;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// The hidden first argument that makes the program a measuring process.
pub const WORKER_ARG: &str = "measure-process";

/// What a measuring process is asked to do.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Request {
    /// The benchmark's registered name.
    pub bench: String,
    pub args: RunArgs,
    /// This process's index among the benchmark's processes, 0-based.
    pub process: usize,
    pub processes: usize,
    pub placement: PlacementPlan,
    /// Run the benchmark's extra parts (one process per benchmark does).
    pub extras: bool,
}

/// What a measuring process measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measured {
    pub report: BenchReport,
    /// The process's record; `started_s` is the run's to fill in.
    pub info: ProcessInfo,
    pub clock: ClockInfo,
    pub pinning: Pinning,
    pub counters: CounterStatus,
    pub plan: Plan,
}

/// A measuring process's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Response {
    Measured(Box<Measured>),
    /// The one-line error that stopped it (a bad position file, a build
    /// that failed, arms that disagree).
    Failed(String),
}

/// Measure `req` in a child process of `exe` and return what it measured.
/// The child's stderr (progress, warnings) goes to ours.
pub fn measure_in_process(exe: &Path, req: &Request) -> Result<Measured, String> {
    let which = format!("{}: measuring process {} of {}", req.bench, req.process + 1, req.processes);
    let mut cmd = Command::new(exe);
    cmd.arg(WORKER_ARG)
        .env(PAD_VAR, req.placement.env_value())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    aslr::randomise_child(&mut cmd);
    // Listed, so that an interrupt of the run ends it too.
    let mut child = crate::output::children::spawn(&mut cmd)
        .map_err(|e| format!("cannot start a {which} ({}): {e}", exe.display()))?;
    let request = serde_json::to_vec(req).map_err(|e| format!("{which}: cannot encode the request: {e}"))?;
    {
        let mut stdin = child.stdin.take().expect("piped");
        // A child that died at once is reported by its status below.
        let _ = stdin.write_all(&request);
    }
    let mut answer = Vec::new();
    let read = child.stdout.take().expect("piped").read_to_end(&mut answer);
    let status = child.wait().map_err(|e| format!("{which}: {e}"));
    crate::output::children::forget(child.id());
    let status = status?;
    read.map_err(|e| format!("{which}: cannot read its answer: {e}"))?;
    match serde_json::from_slice::<Response>(&answer) {
        Ok(Response::Measured(m)) if status.success() => Ok(*m),
        Ok(Response::Failed(e)) => Err(e),
        _ if !status.success() => Err(format!("{which} ended without a result ({status})")),
        Ok(Response::Measured(_)) => unreachable!("a successful status"),
        Err(e) => Err(format!("{which} answered something that is not a result: {e}")),
    }
}

/// The child's side: read a [`Request`] on stdin, measure, answer on
/// stdout; `extra` names benchmarks beyond the registry (a bench target's
/// own). Returns the exit status. Everything the measurement prints on
/// stdout (a build it starts, say) goes to stderr: stdout carries only the
/// answer.
pub fn serve(extra: &[Entry]) -> i32 {
    let Some(mut answer_to) = take_stdout() else {
        eprintln!("boardbench: {WORKER_ARG}: cannot set up its output");
        return 1;
    };
    let mut text = Vec::new();
    let response = match std::io::stdin().read_to_end(&mut text) {
        Err(e) => Response::Failed(format!("{WORKER_ARG}: cannot read the request: {e}")),
        Ok(_) => match serde_json::from_slice::<Request>(&text) {
            Err(e) => Response::Failed(format!("{WORKER_ARG}: not a request: {e}")),
            Ok(req) => match measure(&req, extra) {
                Ok(m) => Response::Measured(Box::new(m)),
                Err(e) => Response::Failed(e),
            },
        },
    };
    let bytes = serde_json::to_vec(&response).expect("a response serialises");
    match answer_to.write_all(&bytes).and_then(|()| answer_to.flush()) {
        Ok(()) => i32::from(matches!(response, Response::Failed(_))),
        Err(e) => {
            eprintln!("boardbench: {WORKER_ARG}: cannot answer: {e}");
            1
        }
    }
}

/// This process's stdout as a file of its own, with fd 1 pointed at stderr.
fn take_stdout() -> Option<std::fs::File> {
    use std::os::fd::FromRawFd;
    let _ = std::io::stdout().flush();
    // SAFETY: dup and dup2 on this process's standard descriptors; the
    // duplicate is owned by the returned file alone.
    unsafe {
        let fd = libc::dup(1);
        if fd < 0 || libc::dup2(2, 1) < 0 {
            return None;
        }
        Some(std::fs::File::from_raw_fd(fd))
    }
}

/// Measure one benchmark under the request's placement.
fn measure(req: &Request, extra: &[Entry]) -> Result<Measured, String> {
    let entry = *resolve(std::slice::from_ref(&req.bench), extra)?.first().expect("one name, one entry");
    measure_here(req, entry)
}

/// Measure `entry` in this process, on this thread, under the request's
/// stack depth and heap offset (the address layout and the environment
/// are this process's): for benchmarks whose inputs live in this process,
/// such as the cut list's loaded candidates.
pub fn measure_here(req: &Request, entry: &Entry) -> Result<Measured, String> {
    let started = Instant::now();
    let load = sysinfo::load_average();
    let (result, placement) = placement::run_placed(&req.placement, || -> Result<_, String> {
        let set = req.args.positions()?;
        let mut pinning = pin::pin(req.args.core)?;
        if !pinning.pinned {
            eprintln!("boardbench: warning: not pinned ({}); results are noisier", pinning.detail);
        }
        if !req.args.no_realtime {
            (pinning.realtime, pinning.realtime_detail) = pin::go_realtime();
            if !pinning.realtime && req.process == 0 {
                eprintln!("boardbench: warning: not real-time ({}); results are noisier", pinning.realtime_detail);
            }
        }
        let _normal = pin::LeaveRealtimeOnDrop(pinning.realtime);
        let mut ctx = Context::build(req.args.process_options(req.processes));
        ctx.with_extras = req.extras;
        ctx.processes = req.processes;
        let t = Instant::now();
        let report = (entry.run)(&ctx, &set).map_err(|e| format!("{}: {e}", entry.name))?;
        Ok((report, ctx, pinning, t.elapsed().as_secs_f64()))
    });
    let (report, ctx, pinning, measure_s) = result?;
    let info = ProcessInfo {
        index: req.process,
        started_s: 0.0,
        wall_s: started.elapsed().as_secs_f64(),
        measure_s,
        extras: req.extras,
        placement,
        tsc_mhz: ctx.clock_info.tsc_mhz,
        cycles_per_unit: ctx.clock_info.cycles_per_unit,
        pinned: pinning.pinned,
        realtime: pinning.realtime,
        load_average_start: load,
        precision: report.precision,
    };
    Ok(Measured {
        report,
        info,
        clock: ctx.clock_info.clone(),
        pinning,
        counters: ctx.counter_status.clone(),
        plan: ctx.plan,
    })
}
