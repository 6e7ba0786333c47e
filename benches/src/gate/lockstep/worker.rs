//! A lock-step worker: the hidden `gate-worker` subcommand of every build
//! the gate compares. It prepares every case of the benchmarks asked for
//! (the registry's own cases, [`crate::suite::cases::prepare_all`]: the
//! routines and inputs a report run measures), pins itself and asks for
//! real-time priority, times one pass of each case, says hello (one JSON
//! line), and then runs the gate's visits: for each, its steps of the
//! schedule ([`crate::gate::lockstep::schedule`]), each one untimed pass
//! (caches and predictors warm after the other workers' turns) and one
//! timed sample of `reps` passes through the one runner, waiting on the
//! shared page for its turn; then the visit's samples, one JSON line.
//!
//! It dies with the gate (parent-death signal), stops when the page's stop
//! flag is set, and exits on end of input.

use crate::gate::lockstep::page::{Page, WaitError, PROTOCOL};
use crate::gate::lockstep::protocol::{protocol_line, to_line, CaseInfo, Command, Hello, Message, Visit};
use crate::gate::lockstep::schedule::{self, Pairing, STEPS_PER_CYCLE};
use crate::gate::positions::positions_from;
use crate::measure::calibration;
use crate::measure::case::Case;
use crate::measure::clock::Clock;
use crate::measure::{aslr, pin, stats};
use crate::output::print_out;
use crate::suite::cases::{prepare_all, PreparedCase};
use crate::suite::{benchmarks, run};
use std::hint::black_box;
use std::io::BufRead;
use std::path::PathBuf;
use std::time::Duration;

/// `boardbench gate-worker`: one worker of the gate's lock-step timing.
#[derive(clap::Args, Clone, Debug)]
pub struct WorkerCli {
    /// Print the lock-step protocol version this build speaks, and exit.
    #[arg(long)]
    pub protocol: bool,
    /// The gate's shared page.
    #[arg(long, value_name = "FILE")]
    pub page: Option<PathBuf>,
    /// This worker's slot on the page (0 base, 1 candidate, 2 A/A control).
    #[arg(long, value_name = "K")]
    pub slot: Option<usize>,
    /// The gate's process id: the worker exits if it is gone.
    #[arg(long, value_name = "PID")]
    pub parent: Option<u32>,
    /// Positions (EPD), as the gate wrote them.
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Positions per bucket.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub per_bucket: usize,
    /// The cores: the one of turns, the two of parallel.
    #[arg(long, value_name = "N", value_delimiter = ',')]
    pub cores: Vec<usize>,
    /// Benchmarks to prepare [default: all registered].
    #[arg(long = "bench", value_name = "NAME")]
    pub benches: Vec<String>,
    /// Bytes of heap to set aside before preparing the cases (moves this
    /// worker's data relative to another process of the same build).
    #[arg(long, value_name = "BYTES", default_value_t = 0)]
    pub heap_offset: usize,
}

/// How long a worker waits for its step before it gives up on the others
/// (the gate's own limits are shorter; this only ends an orphan).
const STEP_LIMIT: Duration = Duration::from_secs(120);

/// Sleep slices while waiting for a step.
const SLICE: Duration = Duration::from_millis(50);

/// Most bytes of `--heap-offset`.
const MAX_HEAP_OFFSET: usize = 1 << 24;

/// Run `gate-worker`; the exit status.
pub fn worker_main(a: &WorkerCli) -> Result<i32, String> {
    let started = std::time::Instant::now();
    if a.protocol {
        print_out(&format!("{}\n", protocol_line(PROTOCOL)))?;
        return Ok(0);
    }
    let need = |what: &str| format!("gate-worker: --{what} is required (the gate starts workers; see boardbench gate)");
    let page_path = a.page.clone().ok_or_else(|| need("page"))?;
    let slot = a.slot.ok_or_else(|| need("slot"))?;
    let parent = a.parent.ok_or_else(|| need("parent"))?;
    let positions = a.positions.clone().ok_or_else(|| need("positions"))?;
    if a.cores.is_empty() {
        return Err(need("cores"));
    }
    if a.heap_offset > MAX_HEAP_OFFSET {
        return Err(format!("--heap-offset {}: at most {MAX_HEAP_OFFSET}", a.heap_offset));
    }
    die_with(parent)?;
    let page = Page::open(&page_path)?;
    if slot >= page.workers() {
        return Err(format!("--slot {slot}: the page has {} workers", page.workers()));
    }
    // Set aside before anything else is allocated: every later allocation
    // (the cases' inputs) moves by this much.
    let reserve = vec![0xA5u8; a.heap_offset];
    black_box(&reserve);
    let set = positions_from(&positions, a.per_bucket)?;
    let names: Vec<String> = if a.benches.is_empty() {
        benchmarks::names().iter().map(|s| s.to_string()).collect()
    } else {
        a.benches.clone()
    };
    let mut cases: Vec<PreparedCase> = Vec::new();
    for e in run::resolve(&names, &[])? {
        cases.extend(prepare_all(e, &set)?);
    }
    let mut pinning = pin::pin(Some(a.cores[0]))?;
    (pinning.realtime, pinning.realtime_detail) = pin::go_realtime();
    let _normal = pin::LeaveRealtimeOnDrop(pinning.realtime);
    let (clock, _) = Clock::choose(true);
    let units_per_us = match clock {
        Clock::Tsc(_) => calibration::tsc_mhz(Duration::from_millis(5)),
        Clock::Monotonic(_) => 1000.0,
    };
    let infos: Vec<CaseInfo> = cases
        .iter_mut()
        .map(|(id, c)| CaseInfo { id: id.clone(), calls: c.calls(), pass_units: probe(c.as_mut(), &clock) })
        .collect();
    let pid = std::process::id();
    page.set_pid(slot, pid);
    let hello = Hello {
        protocol: PROTOCOL,
        pid,
        unit: match clock {
            Clock::Tsc(_) => "ticks".into(),
            Clock::Monotonic(_) => "ns".into(),
        },
        units_per_us,
        aslr: aslr::state().name().into(),
        pinned: pinning.pinned,
        realtime: pinning.realtime,
        heap_offset: a.heap_offset,
        ready_s: started.elapsed().as_secs_f64(),
        cases: infos,
    };
    say(&Message::Hello(hello))?;
    let mut at = Placement { cores: a.cores.clone(), current: a.cores[0], cursor: 0 };
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("gate-worker: cannot read the gate's commands: {e}"))?;
        let command: Command =
            serde_json::from_str(&line).map_err(|e| format!("gate-worker: not a command ({e}): {line:?}"))?;
        match command {
            Command::Quit => break,
            Command::Visit(v) => {
                let Some((_, case)) = cases.get_mut(v.case) else {
                    return Err(format!("gate-worker: no case {} (this build has {})", v.case, cases.len()));
                };
                if v.pairing == Pairing::Parallel && at.cores.len() < 2 {
                    return Err("gate-worker: parallel pairing needs two --cores".into());
                }
                let units = run_visit(&page, slot, case.as_mut(), &clock, &v, &mut at)?;
                say(&Message::Samples { case: v.case, units })?;
            }
        }
    }
    Ok(0)
}

/// Where the worker runs and how many samples it has finished.
struct Placement {
    cores: Vec<usize>,
    current: usize,
    cursor: u64,
}

/// Run this worker's steps of visit `v`; the samples of the cycles after
/// the warm-up.
fn run_visit(
    page: &Page,
    slot: usize,
    case: &mut dyn Case,
    clock: &Clock,
    v: &Visit,
    at: &mut Placement,
) -> Result<Vec<f64>, String> {
    let all = v.warm + v.cycles;
    let warm_steps = v.warm * STEPS_PER_CYCLE;
    let mut units = Vec::with_capacity(schedule::samples_of(v.pairing, slot, v.offset, all));
    let per = v.pairing.per_step();
    let waited = |e: WaitError, s: u32| match e {
        WaitError::Stopped => "gate-worker: the gate stopped the run".to_string(),
        WaitError::TimedOut => {
            format!("gate-worker: waited {} s for step {s}; the other workers stalled", STEP_LIMIT.as_secs())
        }
    };
    for s in 0..all * STEPS_PER_CYCLE {
        let st = schedule::step(v.pairing, s, v.offset);
        let Some(core_index) = st.core_of(slot) else { continue };
        page.sleep_until_step(s, SLICE, STEP_LIMIT).map_err(|e| waited(e, s))?;
        match v.pairing {
            Pairing::Turns => {
                black_box(case.timed(clock, 1));
            }
            Pairing::Parallel => {
                let core = at.cores[core_index];
                if core != at.current {
                    // A triangle of pairs on two cores: some worker moves
                    // every cycle. One system call, outside the timed part.
                    if !core_affinity::set_for_current(core_affinity::CoreId { id: core }) {
                        return Err(format!("gate-worker: cannot move to core {core}"));
                    }
                    at.current = core;
                }
                black_box(case.timed(clock, 1));
                page.arrive();
                let want = per * (u64::from(s) + 1);
                page.spin_until(|p| p.arrivals() >= want, STEP_LIMIT).map_err(|e| waited(e, s))?;
            }
        }
        let (elapsed, sum) = case.timed(clock, v.reps);
        black_box(sum);
        if s >= warm_steps {
            units.push(elapsed);
        }
        at.cursor += 1;
        page.set_cursor(slot, at.cursor);
        match v.pairing {
            Pairing::Turns => page.advance_to(s + 1),
            Pairing::Parallel => {
                if page.finish() == per * (u64::from(s) + 1) {
                    page.advance_to(s + 1);
                }
            }
        }
    }
    Ok(units)
}

/// Clock units of one warm pass of `case` (median of five).
fn probe(case: &mut dyn Case, clock: &Clock) -> f64 {
    black_box(case.timed(clock, 1));
    let mut v: Vec<f64> = (0..5).map(|_| case.timed(clock, 1).0).collect();
    stats::median_mut(&mut v)
}

/// One message on stdout, flushed.
fn say(m: &Message) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", to_line(m))
        .and_then(|()| out.flush())
        .map_err(|e| format!("gate-worker: cannot write to the gate: {e}"))
}

/// Be killed when the gate (`parent`) dies; an error if it is gone already.
fn die_with(parent: u32) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sets this process's parent-death signal; no memory is passed.
        unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) };
        // SAFETY: reads this process's parent id.
        let now = unsafe { libc::getppid() } as u32;
        if now != parent {
            return Err(format!("gate-worker: the gate (pid {parent}) is gone"));
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = parent;
    Ok(())
}
