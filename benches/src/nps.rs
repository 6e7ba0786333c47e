//! `boardbench nps`: whole-engine nodes per second, ours beside Crafty's and
//! Stockfish's own `bench`, measured in one job on one core.
//!
//! Every run is a separate process pinned to the same core (the pin is set
//! before `exec`, so threads inherit it), each in a fresh temporary working
//! directory. A round runs every engine once; the order inside a round
//! follows a first-order balanced (Williams) design, so that with two
//! engines it is AB, BA, AB, … and with more every engine runs in every
//! position and after every other engine equally often: load that drifts
//! over the job hits all engines alike. Each run records the engine's own
//! node count and NPS, its CPU time (user + system, from `wait4`) against
//! wall time, and the load average before and after.
//!
//! Per engine: median, min and max NPS. Per pair ours/theirs: the median
//! over rounds of the per-round NPS ratio, with a bootstrap 95% interval
//! (rounds resampled; the two runs of a round are neighbours in time, so
//! drift cancels in their ratio). Whole-process timings swing up to 2x here
//! under load from other jobs: quote these ratios, measured in
//! one job, not one absolute figure.
//!
//! With `--crafty`, Crafty also searches our bench positions to a fixed
//! depth (`crafty-positions`), so the two engines are timed on the same
//! positions, and its search summaries say how many of the nodes it counts
//! are moves it made and then pruned unsearched. Our engine counts nodes
//! the same way (one per move made) and its bench says how many were pruned
//! moves, so the ratios are given both counted against counted and searched
//! positions against searched positions (`ours P searched /
//! crafty-positions searched`). Each position is searched from a clean
//! state: Crafty 23 gets `new` before each, in one process; Crafty 25,
//! which refuses `new`, a fresh process per position (its version is read
//! from the banner of a start-and-quit before the first round). A run of
//! several processes is timed by Crafty's own clock as before (its
//! summaries' `time=`); its CPU and wall times are the processes' sums.

use crate::baseline_engine::{self, BenchFigures, CraftySearches, EngineKind};
use crate::plot::{self, Bar};
use crate::process::{self, Ending, Job, TempDir};
use crate::report::{self, write_atomic};
use crate::runner::balanced_orders;
use crate::stats::{self, Ratio};
use crate::sysinfo;
use engine::search::ProfileKind;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub const SCHEMA: &str = "boardbench.nps/1";

/// A run whose CPU time is below this share of its wall time had its core
/// taken by something else part of the time: flagged in the table.
pub const DISTURBED_SHARE: f64 = 0.9;

/// Stockfish's default bench spelled out: hash MiB, threads, limit, positions, limit type.
pub const STOCKFISH_BENCH: &str = "16 1 13 default depth";

/// Most seconds `--timeout` may give one run: a week, far past any bench.
pub const MAX_TIMEOUT_S: u64 = 7 * 24 * 3600;

/// `boardbench nps` on the command line.
#[derive(clap::Args, Clone, Debug)]
pub struct NpsCli {
    /// Crafty binary (25.2, or 23.4 from Debian's non-free `crafty` package,
    /// see scripts/fetch-crafty.sh): driven through stdin ("bench", then
    /// "quit") in a fresh temporary directory that is also its $HOME; and,
    /// unless --no-crafty-positions, run again on our bench positions
    /// (`crafty-positions`; Crafty 25 in a fresh process per position).
    #[arg(long, value_name = "PATH")]
    pub crafty: Option<PathBuf>,
    /// Stockfish binary (e.g. /usr/games/stockfish): `bench 16 1 13 default depth`.
    #[arg(long, value_name = "PATH")]
    pub stockfish: Option<PathBuf>,
    /// Our engine binary [default: `engine` beside this program].
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Our profiles to run (repeat the flag) [default: mailbox, bitboard, single-probe]; also the profiles
    /// with one routine swapped (`engine bench --help`), e.g. bitboard-old-movegen.
    #[arg(long = "engine-profile", value_name = "P")]
    pub engine_profile: Vec<String>,
    /// Depth of our `engine bench` [default: the bench's own].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// EPD file of positions for our `engine bench --positions` and for
    /// Crafty's searches of them [default: the bench's built-in 20].
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Depth of Crafty's searches of our bench positions.
    #[arg(long, value_name = "D", default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub crafty_depth: u32,
    /// Run Crafty's own bench only, not its searches of our bench positions.
    #[arg(long)]
    pub no_crafty_positions: bool,
    /// Arguments of Stockfish's bench command.
    #[arg(long, value_name = "ARGS", default_value = STOCKFISH_BENCH)]
    pub stockfish_bench: String,
    /// Rounds: every engine runs once per round.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Pin every run to core N [default: the last core].
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
    /// Run every engine in the real-time FIFO class. Off by default: an
    /// engine that spins while waiting for its own threads (Crafty's SMP
    /// part) could then starve them on the one core.
    #[arg(long)]
    pub realtime: bool,
    /// Seconds one run may take before it is killed (at most a week).
    #[arg(long, value_name = "SECS", default_value_t = 900,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_S))]
    pub timeout: u64,
    /// Directory for the JSON and the plot [default: results/runs].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Skip the plot.
    #[arg(long)]
    pub no_plots: bool,
    /// Print the JSON report on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

impl NpsCli {
    /// Resolve defaults into [`NpsArgs`].
    pub fn resolve(&self, command_line: Vec<String>) -> Result<NpsArgs, String> {
        let engine = match &self.engine {
            Some(p) => p.clone(),
            None => crate::cli::engine_beside_this_program()?,
        };
        let profiles = if self.engine_profile.is_empty() {
            vec!["mailbox".into(), "bitboard".into(), "single-probe".into()]
        } else {
            self.engine_profile.clone()
        };
        Ok(NpsArgs {
            crafty: self.crafty.clone(),
            stockfish: self.stockfish.clone(),
            engine,
            profiles,
            depth: self.depth,
            positions: self.positions.clone(),
            crafty_positions_depth: (!self.no_crafty_positions).then_some(self.crafty_depth),
            stockfish_bench: self.stockfish_bench.clone(),
            runs: self.runs as usize,
            // An explicit core is checked with the rest, by `validate`.
            core: Some(match self.core {
                Some(c) => c,
                None => crate::pin::choose_core(None)?,
            }),
            realtime: self.realtime,
            timeout: Duration::from_secs(self.timeout),
            out: self.out.clone().unwrap_or_else(crate::cli::default_out_dir),
            plots: !self.no_plots,
            command_line,
        })
    }
}

/// Run from the command line: the table (or JSON) on stdout; exit status.
pub fn main(c: &NpsCli) -> Result<i32, String> {
    let a = c.resolve(crate::sysinfo::command_line())?;
    let r = run(&a)?;
    if c.json {
        crate::cli::print_out(&format!("{}\n", serde_json::to_string(&r).map_err(|e| e.to_string())?))?;
    } else {
        let mut text = format!("{}JSON:  {}\n", table(&r), a.out.join("nps-latest.json").display());
        if let Some(p) = r.plots.iter().find(|p| p.ends_with(".png")) {
            text.push_str(&format!("plot:  {}\n", a.out.join(p).display()));
        }
        crate::cli::print_out(&text)?;
    }
    Ok(0)
}

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct NpsArgs {
    pub crafty: Option<PathBuf>,
    pub stockfish: Option<PathBuf>,
    /// Our engine binary.
    pub engine: PathBuf,
    pub profiles: Vec<String>,
    /// `engine bench --depth`, when given.
    pub depth: Option<u32>,
    /// Our bench's positions file, when not the built-in set.
    pub positions: Option<PathBuf>,
    /// Depth of Crafty's searches of our bench positions; `None`: Crafty
    /// runs its own bench only.
    pub crafty_positions_depth: Option<u32>,
    pub stockfish_bench: String,
    pub runs: usize,
    pub core: Option<usize>,
    pub realtime: bool,
    pub timeout: Duration,
    pub out: PathBuf,
    pub plots: bool,
    pub command_line: Vec<String>,
}

/// One engine as run: how, and every run's result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EngineReport {
    /// "ours bitboard", "stockfish", "crafty".
    pub label: String,
    pub kind: EngineKind,
    pub program: String,
    pub args: Vec<String>,
    /// What was written to stdin, if anything (for a run of several
    /// processes, their scripts one after another: each ends with `quit`).
    pub stdin: Option<String>,
    /// How Crafty was brought back to a clean state between our positions
    /// (`crafty-positions` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crafty_reset: Option<baseline_engine::CraftyReset>,
    /// The line of its output kept for the record: its version banner, or
    /// for our engine how much memory it had on huge pages.
    pub banner: Option<String>,
    pub runs: Vec<RunRecord>,
    pub nps: Spread,
    /// [`RunRecord::searched_nps`] over the runs, for an engine whose node
    /// count includes moves it did not search and says how many
    /// (`crafty-positions`, ours).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub searched_nps: Option<Spread>,
    /// Whether every run searched the same number of nodes (all three
    /// benches are deterministic at fixed depth with one thread).
    pub nodes_consistent: bool,
}

/// One run of one engine.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunRecord {
    pub round: usize,
    /// Position of this run inside its round (0 = first).
    pub slot: usize,
    pub nodes: u64,
    pub nps: f64,
    pub wall_s: f64,
    pub user_s: f64,
    pub system_s: f64,
    /// (user + system) / wall.
    pub cpu_share: f64,
    pub load_before: Option<[f64; 3]>,
    pub load_after: Option<[f64; 3]>,
    /// "exited 0", or "stopped after the first totals block" (Crafty).
    pub ending: String,
    /// Crafty's search summaries, summed (`crafty-positions` runs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crafty: Option<CraftySearches>,
    /// Of `nodes`, the moves our engine made and pruned unsearched (its
    /// bench's `pruned` line; our runs only, where the engine prints it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pruned: Option<u64>,
}

impl RunRecord {
    /// NPS counting only the positions searched: moves made less the ones
    /// pruned unsearched, where the engine says how many (Crafty's search
    /// summaries, our bench's `pruned` line); any other engine's own NPS.
    pub fn searched_nps(&self) -> f64 {
        if let Some(c) = self.crafty {
            return c.searched_nps().unwrap_or(self.nps);
        }
        match self.pruned {
            Some(p) if self.nodes > 0 => self.nps * self.nodes.saturating_sub(p) as f64 / self.nodes as f64,
            _ => self.nps,
        }
    }

    /// Whether the engine said how many of its nodes were pruned unsearched.
    fn counts_pruned(&self) -> bool {
        self.pruned.is_some() || self.crafty.is_some_and(|c| c.pruned.is_some())
    }
}

/// Median, min and max of a set of values.
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(v: &[f64]) -> Spread {
        Spread {
            median: stats::median(v),
            min: v.iter().copied().fold(f64::INFINITY, f64::min),
            max: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// Ours over theirs.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NpsRatio {
    pub ours: String,
    pub theirs: String,
    /// Median over rounds of the per-round NPS ratio, bootstrap 95% interval.
    pub ratio: Ratio,
    pub per_round: Vec<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NpsMetadata {
    pub boardbench_version: String,
    pub git_commit: Option<String>,
    pub git_dirty: Option<bool>,
    pub cpu_model: Option<String>,
    pub cpus: usize,
    pub core: Option<usize>,
    pub realtime: bool,
    pub date: String,
    pub duration_s: f64,
    pub load_average_start: Option<[f64; 3]>,
    pub load_average_end: Option<[f64; 3]>,
    pub command_line: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NpsReport {
    pub schema: String,
    pub metadata: NpsMetadata,
    pub runs: usize,
    pub engines: Vec<EngineReport>,
    pub ratios: Vec<NpsRatio>,
    /// Plot files, relative to the JSON's directory.
    pub plots: Vec<String>,
}

/// How to run one engine.
struct Plan {
    label: String,
    kind: EngineKind,
    program: PathBuf,
    args: Vec<String>,
    /// One run: the processes to start one after another, each with what is
    /// written to its stdin (`crafty-positions` of a Crafty that refuses
    /// `new`: one per position; everything else: one).
    processes: Vec<Option<String>>,
    /// Point $HOME at the working directory (Crafty reads ~/.craftyrc).
    home_is_cwd: bool,
    /// How Crafty is reset between positions (`crafty-positions` only).
    crafty_reset: Option<baseline_engine::CraftyReset>,
    /// Searches the stdin script asks for (`crafty-positions` only).
    positions: usize,
}

/// The FENs our bench searches: the positions file's, or the built-in set.
pub(crate) fn bench_fens(positions: Option<&Path>) -> Result<Vec<String>, String> {
    match positions {
        None => Ok(engine::bench::BENCH_POSITIONS.iter().map(|(_, fen)| fen.to_string()).collect()),
        Some(path) => engine::position::epd::load_file(path)
            .map(|epds| epds.iter().map(|e| e.position().to_fen()).collect())
            .map_err(|e| format!("--positions: {e}")),
    }
}

/// `fens`: what [`bench_fens`] read; `crafty_reset`: how the Crafty given
/// is reset between positions ([`baseline_engine::probe_crafty`]).
fn plans(a: &NpsArgs, fens: &[String], crafty_reset: baseline_engine::CraftyReset) -> Vec<Plan> {
    let mut v = Vec::new();
    for p in &a.profiles {
        let mut args = vec!["bench".to_string(), "--profile".to_string(), p.clone()];
        if let Some(d) = a.depth {
            args.extend(["--depth".to_string(), d.to_string()]);
        }
        if let Some(path) = &a.positions {
            args.extend(["--positions".to_string(), path.display().to_string()]);
        }
        v.push(Plan {
            label: format!("ours {p}"),
            kind: EngineKind::Ours,
            program: a.engine.clone(),
            args,
            processes: vec![None],
            home_is_cwd: false,
            crafty_reset: None,
            positions: 0,
        });
    }
    if let Some(sf) = &a.stockfish {
        let mut args = vec!["bench".to_string()];
        args.extend(a.stockfish_bench.split_whitespace().map(str::to_string));
        v.push(Plan {
            label: "stockfish".into(),
            kind: EngineKind::Stockfish,
            program: sf.clone(),
            args,
            processes: vec![None],
            home_is_cwd: false,
            crafty_reset: None,
            positions: 0,
        });
    }
    if let Some(c) = &a.crafty {
        v.push(Plan {
            label: "crafty".into(),
            kind: EngineKind::Crafty,
            program: c.clone(),
            args: Vec::new(),
            processes: vec![Some("bench\nquit\n".into())],
            home_is_cwd: true,
            crafty_reset: None,
            positions: 0,
        });
        if let Some(depth) = a.crafty_positions_depth {
            let fens: Vec<&str> = fens.iter().map(String::as_str).collect();
            v.push(Plan {
                label: "crafty-positions".into(),
                kind: EngineKind::CraftyPositions,
                program: c.clone(),
                args: Vec::new(),
                processes: baseline_engine::crafty_positions_scripts(
                    &fens,
                    depth,
                    engine::bench::BENCH_HASH_MB,
                    crafty_reset,
                    "",
                )
                .into_iter()
                .map(Some)
                .collect(),
                home_is_cwd: true,
                crafty_reset: Some(crafty_reset),
                positions: fens.len(),
            });
        }
    }
    v
}

/// Check everything that can be checked before the first run.
pub fn validate(a: &NpsArgs) -> Result<(), String> {
    let has_mailbox = a.profiles.iter().any(|p| p.parse::<ProfileKind>() == Ok(ProfileKind::Mailbox));
    if a.crafty.is_none() && a.stockfish.is_none() && !(has_mailbox && a.profiles.len() >= 2) {
        return Err("nothing to compare with: give --crafty PATH and/or --stockfish PATH, \
                    or run the mailbox profile beside another (--engine-profile mailbox --engine-profile bitboard)"
            .into());
    }
    if a.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    if a.profiles.is_empty() {
        return Err("no --engine-profile given".into());
    }
    let mut seen: Vec<ProfileKind> = Vec::new();
    for p in &a.profiles {
        let kind = p.parse::<ProfileKind>().map_err(|e| format!("--engine-profile {p}: {e}"))?;
        // Twice the same profile would be compared with nothing but itself.
        if seen.contains(&kind) {
            return Err(format!("--engine-profile {p}: {} is given more than once", kind.name()));
        }
        seen.push(kind);
    }
    if a.timeout.is_zero() {
        return Err("--timeout must be positive".into());
    }
    if a.timeout > Duration::from_secs(MAX_TIMEOUT_S) {
        return Err(format!("--timeout {}: at most {MAX_TIMEOUT_S} s (a week)", a.timeout.as_secs()));
    }
    if let Some(c) = a.core {
        crate::pin::choose_core(Some(c))?;
    }
    report::check_writable(&a.out).map_err(|e| format!("output directory: {e}"))?;
    Ok(())
}

/// Resolve the programs to absolute paths (runs start in temporary
/// directories) and check they exist and are executable.
fn resolve_programs(a: &NpsArgs) -> Result<NpsArgs, String> {
    let mut a = a.clone();
    for (flag, path) in [("--crafty", &mut a.crafty), ("--stockfish", &mut a.stockfish)] {
        if let Some(p) = path {
            *p = process::resolve_program(p).map_err(|e| format!("{flag} {e}"))?;
        }
    }
    // Runs start in temporary directories: the positions file must be
    // named from anywhere.
    if let Some(p) = &mut a.positions {
        *p = std::fs::canonicalize(&*p).map_err(|e| format!("--positions {}: {e}", p.display()))?;
    }
    a.engine = process::resolve_program(&a.engine)
        .map_err(|e| format!("our engine: {e} (build it: cargo build --release -p engine, or pass --engine PATH)"))?;
    Ok(a)
}

/// What one run of one engine gave.
struct Outcome {
    figures: BenchFigures,
    extras: baseline_engine::Extras,
    finished: process::Finished,
    banner: Option<String>,
}

/// Run one engine once (every process of its run, one after another, each
/// in a fresh temporary directory); the figures, or a one-line error.
fn run_once(p: &Plan, a: &NpsArgs) -> Result<Outcome, String> {
    let stop = |s: &str| baseline_engine::crafty_first_block_done(s);
    let stop_ref: &(dyn Fn(&str) -> bool + Sync) = &stop;
    let name = p.program.display();
    // --timeout bounds the whole run, however many processes it takes.
    let started = Instant::now();
    let mut run: Option<process::Finished> = None;
    for stdin in &p.processes {
        let dir = TempDir::new(&format!("boardbench-nps-{}", p.kind.name()))?;
        let env: Vec<(String, String)> =
            if p.home_is_cwd { vec![("HOME".into(), dir.path().display().to_string())] } else { Vec::new() };
        let f = process::run(&Job {
            program: &p.program,
            args: &p.args,
            stdin: stdin.as_deref(),
            cwd: dir.path(),
            env: &env,
            core: a.core,
            realtime: a.realtime,
            timeout: a.timeout.saturating_sub(started.elapsed()),
            stop_when: (p.kind == EngineKind::Crafty).then_some(stop_ref),
        })
        .map_err(|e| format!("{}: {e}", p.label))?;
        let tail = f.last_lines(3);
        match &f.ending {
            Ending::TimedOut => {
                return Err(format!(
                    "{name} did not finish within {} s (killed); last lines: {tail}",
                    a.timeout.as_secs()
                ))
            }
            Ending::Exited(0) | Ending::Stopped => {}
            Ending::Exited(c) => return Err(format!("{name} exited with status {c}; last lines: {tail}")),
            Ending::Signalled(s) => return Err(format!("{name} was killed by signal {s}; last lines: {tail}")),
        }
        run = Some(match run {
            None => f,
            Some(before) => process::Finished {
                stdout: before.stdout + &f.stdout,
                stderr: before.stderr + &f.stderr,
                ending: f.ending,
                wall: before.wall + f.wall,
                user: before.user + f.user,
                system: before.system + f.system,
            },
        });
    }
    let f = run.ok_or_else(|| format!("{}: no process to run", p.label))?;
    let tail = f.last_lines(3);
    let hint = if p.kind == EngineKind::CraftyPositions {
        " (--no-crafty-positions runs Crafty's own bench only)"
    } else {
        ""
    };
    let (figures, extras) = baseline_engine::parse(p.kind, &f.stdout, &f.stderr, p.positions)
        .map_err(|e| format!("{}: {name} printed no bench result ({e}){hint}; last lines: {tail}", p.label))?;
    let banner = baseline_engine::banner(&f.stdout, &f.stderr);
    Ok(Outcome { figures, extras, finished: f, banner })
}

fn ending_text(e: &Ending) -> String {
    match e {
        Ending::Exited(c) => format!("exited {c}"),
        Ending::Signalled(s) => format!("signal {s}"),
        Ending::Stopped => "stopped after the first totals block".into(),
        Ending::TimedOut => "timed out".into(),
    }
}

/// Run the whole comparison. Progress goes to stderr.
pub fn run(a: &NpsArgs) -> Result<NpsReport, String> {
    validate(a)?;
    let a = &resolve_programs(a)?;
    let started = Instant::now();
    let date_secs = sysinfo::now_secs();
    let load_start = sysinfo::load_average();
    let fens = bench_fens(a.positions.as_deref())?;
    // How this Crafty is reset between positions, from the version it
    // gives on start: only needed when it searches our positions.
    let crafty_reset = match (&a.crafty, a.crafty_positions_depth) {
        (Some(crafty), Some(_)) => baseline_engine::CraftyReset::for_version(
            baseline_engine::probe_crafty(crafty, a.timeout).map_err(|e| format!("crafty-positions: {e}"))?,
        ),
        _ => baseline_engine::CraftyReset::default(),
    };
    let plans = plans(a, &fens, crafty_reset);
    // Every round's lines aligned, however long the profile names.
    let label_width = plans.iter().map(|p| p.label.len()).max().unwrap_or(0).max(18);
    let orders = balanced_orders(plans.len());
    let mut records: Vec<Vec<RunRecord>> = vec![Vec::new(); plans.len()];
    let mut banners: Vec<Option<String>> = vec![None; plans.len()];
    for round in 0..a.runs {
        for (slot, &i) in orders[round % orders.len()].iter().enumerate() {
            let p = &plans[i];
            let load_before = sysinfo::load_average();
            let Outcome { figures: fig, extras, finished: f, banner } = run_once(p, a)?;
            let load_after = sysinfo::load_average();
            if banners[i].is_none() {
                banners[i] = banner;
            }
            let rec = RunRecord {
                round,
                slot,
                nodes: fig.nodes,
                nps: fig.nps,
                wall_s: f.wall.as_secs_f64(),
                user_s: f.user.as_secs_f64(),
                system_s: f.system.as_secs_f64(),
                cpu_share: f.cpu_share(),
                load_before,
                load_after,
                ending: ending_text(&f.ending),
                crafty: extras.crafty,
                pruned: extras.pruned,
            };
            eprintln!(
                "round {}/{}  {:<label_width$} {:>11} nodes {:>10.0} nps  cpu/wall {:.2}  load {}",
                round + 1,
                a.runs,
                p.label,
                rec.nodes,
                rec.nps,
                rec.cpu_share,
                load_before.map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into())
            );
            records[i].push(rec);
        }
    }
    let engines: Vec<EngineReport> = plans
        .iter()
        .zip(records)
        .zip(banners)
        .map(|((p, runs), banner)| {
            let nps: Vec<f64> = runs.iter().map(|r| r.nps).collect();
            EngineReport {
                label: p.label.clone(),
                kind: p.kind,
                program: p.program.display().to_string(),
                args: p.args.clone(),
                stdin: p.processes.iter().flatten().cloned().reduce(|all, one| all + &one),
                crafty_reset: p.crafty_reset,
                banner,
                nodes_consistent: runs.windows(2).all(|w| w[0].nodes == w[1].nodes),
                nps: Spread::of(&nps),
                searched_nps: runs
                    .iter()
                    .any(RunRecord::counts_pruned)
                    .then(|| Spread::of(&runs.iter().map(RunRecord::searched_nps).collect::<Vec<_>>())),
                runs,
            }
        })
        .collect();
    let ratios = ratios(&engines);
    let (commit, dirty) = sysinfo::git_state(&crate::cli::workspace_root());
    let stamp = format!(
        "nps-{}-{}",
        sysinfo::iso8601(date_secs).replace([':', '-'], ""),
        commit.as_deref().map(|c| &c[..c.len().min(10)]).unwrap_or("nogit")
    );
    let mut report = NpsReport {
        schema: SCHEMA.into(),
        metadata: NpsMetadata {
            boardbench_version: env!("CARGO_PKG_VERSION").into(),
            git_commit: commit,
            git_dirty: dirty,
            cpu_model: sysinfo::cpu_model(),
            cpus: sysinfo::cpu_count(),
            core: a.core,
            realtime: a.realtime,
            date: sysinfo::iso8601(date_secs),
            duration_s: 0.0,
            load_average_start: load_start,
            load_average_end: sysinfo::load_average(),
            command_line: a.command_line.clone(),
        },
        runs: a.runs,
        engines,
        ratios,
        plots: Vec::new(),
    };
    if a.plots {
        let files = plot_nps(&a.out.join(&stamp), &report)?;
        report.plots = files.iter().map(|p| p.strip_prefix(&a.out).unwrap_or(p).display().to_string()).collect();
    }
    report.metadata.duration_s = started.elapsed().as_secs_f64();
    let bytes = serde_json::to_vec_pretty(&report).map_err(|e| e.to_string())?;
    write_atomic(&a.out.join(format!("{stamp}.json")), &bytes).map_err(|e| e.to_string())?;
    write_atomic(&a.out.join("nps-latest.json"), &bytes).map_err(|e| e.to_string())?;
    Ok(report)
}

/// Every ours/theirs pair (against an engine that counts moves it did not
/// search, also searched positions against searched positions: ours less
/// our pruned moves where our bench counts them), then each of our other
/// profiles over our mailbox profile (the migration's own speed-up; the
/// two prune the same moves), all paired by round.
pub fn ratios(engines: &[EngineReport]) -> Vec<NpsRatio> {
    let ours = || engines.iter().filter(|e| e.kind == EngineKind::Ours);
    let mailbox_label = format!("ours {}", ProfileKind::Mailbox.name());
    // (ours, theirs, theirs counted by searched positions only)
    let mut pairs: Vec<(&EngineReport, &EngineReport, bool)> = Vec::new();
    for o in ours() {
        for t in engines.iter().filter(|e| e.kind != EngineKind::Ours) {
            pairs.push((o, t, false));
            if t.searched_nps.is_some() {
                pairs.push((o, t, true));
            }
        }
    }
    if let Some(mailbox) = ours().find(|e| e.label == mailbox_label) {
        pairs.extend(ours().filter(|o| o.label != mailbox_label).map(|o| (o, mailbox, false)));
    }
    pairs
        .into_iter()
        .map(|(o, t, searched)| {
            let nps = |r: &RunRecord| if searched { r.searched_nps() } else { r.nps };
            let ours: Vec<f64> = o.runs.iter().map(nps).collect();
            let theirs: Vec<f64> = t.runs.iter().map(nps).collect();
            let per_round: Vec<f64> = ours.iter().zip(&theirs).map(|(a, b)| a / b).collect();
            NpsRatio {
                ours: if searched && o.searched_nps.is_some() {
                    format!("{} searched", o.label)
                } else {
                    o.label.clone()
                },
                theirs: if searched { format!("{} searched", t.label) } else { t.label.clone() },
                ratio: stats::paired_ratio(&theirs, &ours),
                per_round,
            }
        })
        .collect()
}

fn plot_nps(stem: &Path, r: &NpsReport) -> Result<Vec<PathBuf>, String> {
    let mut groups: Vec<String> = Vec::new();
    let mut bars: Vec<Vec<Bar>> = Vec::new();
    for e in &r.engines {
        groups.push(e.label.clone());
        bars.push(vec![Bar { value: e.nps.median, interval: [e.nps.min, e.nps.max] }]);
        if let Some(n) = &e.searched_nps {
            groups.push(format!("{} searched", e.label));
            bars.push(vec![Bar { value: n.median, interval: [n.min, n.max] }]);
        }
    }
    plot::bucket_bars(
        stem,
        &format!("bench nodes per second, {} runs each on one pinned core (median; whiskers min..max)", r.runs),
        "nodes per second",
        &groups,
        &["median NPS".to_string()],
        &bars,
    )
}

/// `1428141.4` as `1,428,141`.
pub(crate) fn thousands(v: f64) -> String {
    let s = format!("{:.0}", v);
    let (sign, digits) = s.strip_prefix('-').map(|d| ("-", d)).unwrap_or(("", &s));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

/// The table printed after a run.
pub fn table(r: &NpsReport) -> String {
    let mut s = String::new();
    let m = &r.metadata;
    let _ = writeln!(
        s,
        "bench NPS, {} run(s) per engine, interleaved by round; core {}{}; load {} -> {}",
        r.runs,
        m.core.map(|c| c.to_string()).unwrap_or_else(|| "any (not pinned)".into()),
        if m.realtime { ", real-time" } else { "" },
        m.load_average_start.map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into()),
        m.load_average_end.map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into()),
    );
    let label_width = r.engines.iter().map(|e| e.label.len()).max().unwrap_or(0).max(18);
    let _ = writeln!(
        s,
        "  {:<label_width$} {:>12} {:>12} {:>12} {:>12} {:>9} {:>9}",
        "engine", "nodes", "median nps", "min nps", "max nps", "cpu/wall", "disturbed"
    );
    for e in &r.engines {
        let shares: Vec<f64> = e.runs.iter().map(|x| x.cpu_share).collect();
        let disturbed = shares.iter().filter(|&&c| c < DISTURBED_SHARE).count();
        let nodes = e.runs.first().map(|x| x.nodes).unwrap_or(0);
        let _ = writeln!(
            s,
            "  {:<label_width$} {:>12}{} {:>12} {:>12} {:>12} {:>9.2} {:>9}",
            e.label,
            thousands(nodes as f64),
            if e.nodes_consistent { " " } else { "*" },
            thousands(e.nps.median),
            thousands(e.nps.min),
            thousands(e.nps.max),
            stats::median(&shares),
            format!("{disturbed}/{}", e.runs.len()),
        );
    }
    if r.engines.iter().any(|e| !e.nodes_consistent) {
        let _ = writeln!(s, "  * node counts differed between runs of this engine");
    }
    // Ours: only the huge-page line (an older engine has none, and its
    // first line says nothing).
    let worth_showing =
        |e: &EngineReport, b: &str| e.kind != EngineKind::Ours || b.starts_with(baseline_engine::HUGE_PAGES_LABEL);
    for e in &r.engines {
        if let Some(b) = e.banner.as_deref().filter(|b| worth_showing(e, b)) {
            let _ = writeln!(s, "  {}: {b}", e.label);
        }
    }
    for e in &r.engines {
        let (Some(first), Some(searched)) = (e.runs.first(), &e.searched_nps) else {
            continue;
        };
        if let (Some(pruned), EngineKind::Ours) = (first.pruned, e.kind) {
            let _ = writeln!(
                s,
                "  {}: {:.1}% of the nodes it counts are moves it made and pruned unsearched (nodes as Crafty \
                 counts them); counting searched positions only: median {} nps",
                e.label,
                100.0 * pruned as f64 / first.nodes.max(1) as f64,
                thousands(searched.median),
            );
        }
    }
    for e in &r.engines {
        let Some(c) = e.runs.first().and_then(|x| x.crafty) else {
            continue;
        };
        let reset = e.crafty_reset.map(|r| format!(" ({})", r.describe())).unwrap_or_default();
        let _ = match (c.pruned, &e.searched_nps) {
            (Some(pruned), Some(searched)) => writeln!(
                s,
                "  {}: Crafty's fixed-depth searches of our {} bench positions{reset}; {:.1}% of the nodes it \
                 counts are moves it made and pruned unsearched (its {} counts, as Crafty rounds them: \
                 {} ±{}); counting searched positions only: median {} nps",
                e.label,
                c.searches,
                100.0 * pruned as f64 / c.nodes as f64,
                c.pruned_fields(),
                thousands(pruned as f64),
                thousands(c.pruned_rounding as f64),
                thousands(searched.median),
            ),
            _ => writeln!(
                s,
                "  {}: Crafty's fixed-depth searches of our {} bench positions{reset}; its summaries carry no \
                 pruned count (\"pruned=\", or \"fp=\" and \"mcp=\"), so only its own node count is reported",
                e.label, c.searches,
            ),
        };
    }
    let _ = writeln!(s, "ours / theirs NPS (median of per-round ratios, 95% bootstrap interval over rounds)");
    let width = r.ratios.iter().map(|x| x.theirs.len()).max().unwrap_or(0).max(12);
    let ours_width = r.ratios.iter().map(|x| x.ours.len()).max().unwrap_or(0).max(18);
    for x in &r.ratios {
        let _ = writeln!(
            s,
            "  {:<ours_width$} / {:<width$} {:.3} [{:.3}, {:.3}]",
            x.ours, x.theirs, x.ratio.estimate, x.ratio.interval[0], x.ratio.interval[1]
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eng(label: &str, kind: EngineKind, nps: &[f64]) -> EngineReport {
        EngineReport {
            label: label.into(),
            kind,
            program: "x".into(),
            args: vec![],
            stdin: None,
            crafty_reset: None,
            banner: None,
            runs: nps
                .iter()
                .enumerate()
                .map(|(i, &n)| RunRecord {
                    round: i,
                    slot: 0,
                    nodes: 100,
                    nps: n,
                    wall_s: 1.0,
                    user_s: 0.95,
                    system_s: 0.0,
                    cpu_share: if i == 0 { 0.5 } else { 0.95 },
                    load_before: None,
                    load_after: None,
                    ending: "exited 0".into(),
                    crafty: None,
                    pruned: None,
                })
                .collect(),
            nps: Spread::of(nps),
            searched_nps: None,
            nodes_consistent: true,
        }
    }

    /// A report around `engines` and their `ratios`, with fixed metadata
    /// (core 1, load 1.00 at the start), for the table tests.
    fn report(engines: Vec<EngineReport>, ratios: Vec<NpsRatio>, runs: usize) -> NpsReport {
        NpsReport {
            schema: SCHEMA.into(),
            metadata: NpsMetadata {
                boardbench_version: "0".into(),
                git_commit: None,
                git_dirty: None,
                cpu_model: None,
                cpus: 2,
                core: Some(1),
                realtime: false,
                date: "d".into(),
                duration_s: 1.0,
                load_average_start: Some([1.0, 1.0, 1.0]),
                load_average_end: None,
                command_line: vec![],
            },
            runs,
            engines,
            ratios,
            plots: vec![],
        }
    }

    #[test]
    fn ratios_pair_by_round() {
        // Load doubles in round 2 for both: the per-round ratio stays 2.
        let engines = vec![
            eng("ours bitboard", EngineKind::Ours, &[200.0, 100.0, 200.0]),
            eng("stockfish", EngineKind::Stockfish, &[100.0, 50.0, 100.0]),
            eng("crafty", EngineKind::Crafty, &[400.0, 200.0, 400.0]),
        ];
        let r = ratios(&engines);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].theirs, "stockfish");
        assert_eq!(r[0].per_round, vec![2.0, 2.0, 2.0]);
        assert_eq!(r[0].ratio.estimate, 2.0);
        assert_eq!(r[0].ratio.interval, [2.0, 2.0]);
        assert_eq!(r[1].ratio.estimate, 0.5);
        assert_eq!(Spread::of(&[3.0, 1.0, 2.0]), Spread { median: 2.0, min: 1.0, max: 3.0 });
        let rep = report(engines, r, 3);
        let t = table(&rep);
        assert!(t.contains("ours bitboard") && t.contains("1/3"), "{t}");
        assert!(t.contains("/ stockfish    2.000 [2.000, 2.000]"), "{t}");
    }

    #[test]
    fn profiles_pair_with_mailbox_by_round() {
        // No reference engine: each profile over the mailbox profile, round
        // by round, so a slow round for everyone leaves the ratio alone.
        let engines = vec![
            eng("ours mailbox", EngineKind::Ours, &[100.0, 50.0, 100.0, 100.0]),
            eng("ours bitboard", EngineKind::Ours, &[200.0, 100.0, 210.0, 190.0]),
            eng("ours single-probe", EngineKind::Ours, &[300.0, 150.0, 300.0, 300.0]),
        ];
        let r = ratios(&engines);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].ours.as_str(), r[0].theirs.as_str()), ("ours bitboard", "ours mailbox"));
        assert_eq!(r[0].per_round, vec![2.0, 2.0, 2.1, 1.9]);
        assert_eq!(r[0].ratio.estimate, 2.0);
        assert_eq!(r[1].per_round, vec![3.0; 4]);
        // Without the mailbox profile there is nothing to pair.
        assert!(ratios(&engines[1..]).is_empty());
    }

    #[test]
    fn crafty_positions_pair_twice() {
        // Crafty counts 1,000 nodes a run of which 250 were pruned unsearched
        // (a quarter): against its searched positions our ratio is 4/3 of
        // the ratio against its own count, round by round.
        let mut crafty = eng("crafty-positions", EngineKind::CraftyPositions, &[400.0, 200.0]);
        for (r, time_s) in crafty.runs.iter_mut().zip([2.5, 5.0]) {
            r.crafty = Some(CraftySearches {
                searches: 20,
                nodes: 1_000,
                pruned: Some(250),
                pruned_rounding: 500,
                time_s,
                ..Default::default()
            });
        }
        crafty.searched_nps = Some(Spread::of(&crafty.runs.iter().map(RunRecord::searched_nps).collect::<Vec<_>>()));
        let engines = vec![eng("ours bitboard", EngineKind::Ours, &[300.0, 150.0]), crafty];
        let r = ratios(&engines);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].theirs, "crafty-positions");
        assert_eq!(r[0].per_round, vec![0.75, 0.75]);
        assert_eq!(r[1].theirs, "crafty-positions searched");
        assert_eq!(r[1].per_round, vec![1.0, 1.0]);
        // Other engines' searched NPS is their own NPS.
        assert_eq!(engines[0].runs[0].searched_nps(), 300.0);
        assert_eq!(engines[1].searched_nps.unwrap().median, 225.0);
        // A Crafty whose summaries count no pruned moves: its own count only.
        let mut crafty = engines[1].clone();
        for r in &mut crafty.runs {
            r.crafty = r.crafty.map(|c| CraftySearches { pruned: None, ..c });
            assert_eq!(r.searched_nps(), r.nps);
        }
        crafty.searched_nps = None;
        let engines = vec![engines[0].clone(), crafty];
        let r = ratios(&engines);
        assert_eq!(r.iter().map(|x| x.theirs.as_str()).collect::<Vec<_>>(), ["crafty-positions"]);
        let rep = report(engines, r, 2);
        let t = table(&rep);
        assert!(t.contains("its summaries carry no pruned count"), "{t}");
    }

    #[test]
    fn our_pruned_moves_leave_the_searched_pair_too() {
        // Ours counts 100 nodes a run of which 40 were pruned unsearched;
        // Crafty 1,000 of which 250: searched against searched compares
        // 60% of our rate with 75% of Crafty's.
        let mut ours = eng("ours bitboard", EngineKind::Ours, &[300.0, 150.0]);
        for r in &mut ours.runs {
            r.pruned = Some(40);
        }
        ours.searched_nps = Some(Spread::of(&ours.runs.iter().map(RunRecord::searched_nps).collect::<Vec<_>>()));
        let mut crafty = eng("crafty-positions", EngineKind::CraftyPositions, &[400.0, 200.0]);
        for (r, time_s) in crafty.runs.iter_mut().zip([2.5, 5.0]) {
            r.crafty = Some(CraftySearches {
                searches: 20,
                nodes: 1_000,
                pruned: Some(250),
                pruned_rounding: 500,
                time_s,
                ..Default::default()
            });
        }
        crafty.searched_nps = Some(Spread::of(&crafty.runs.iter().map(RunRecord::searched_nps).collect::<Vec<_>>()));
        let mut mailbox = eng("ours mailbox", EngineKind::Ours, &[100.0, 50.0]);
        for r in &mut mailbox.runs {
            r.pruned = Some(40);
        }
        let engines = vec![ours, mailbox, crafty];
        assert_eq!(engines[0].runs[0].searched_nps(), 180.0);
        let r = ratios(&engines);
        let pairs: Vec<(&str, &str)> = r.iter().map(|x| (x.ours.as_str(), x.theirs.as_str())).collect();
        assert!(pairs.contains(&("ours bitboard searched", "crafty-positions searched")), "{pairs:?}");
        let searched = r.iter().find(|x| x.ours == "ours bitboard searched").unwrap();
        assert_eq!(searched.per_round, vec![0.6, 0.6]);
        let counted = r.iter().find(|x| x.ours == "ours bitboard" && x.theirs == "crafty-positions").unwrap();
        assert_eq!(counted.per_round, vec![0.75, 0.75]);
        // Bitboard over mailbox: counted against counted.
        let migration = r.iter().find(|x| x.theirs == "ours mailbox").unwrap();
        assert_eq!(migration.per_round, vec![3.0, 3.0]);
        let rep = report(engines, r, 2);
        let t = table(&rep);
        assert!(t.contains("ours bitboard: 40.0% of the nodes it counts are moves it made and pruned"), "{t}");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(1_428_141.4), "1,428,141");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(1000.0), "1,000");
    }

    #[test]
    fn validation_errors_are_one_line() {
        let dir = TempDir::new("bb-nps-validate").unwrap();
        let base = NpsArgs {
            crafty: None,
            stockfish: None,
            engine: PathBuf::from("/bin/sh"),
            profiles: vec!["bitboard".into()],
            depth: None,
            positions: None,
            crafty_positions_depth: Some(14),
            stockfish_bench: STOCKFISH_BENCH.into(),
            runs: 1,
            core: None,
            realtime: false,
            timeout: Duration::from_secs(1),
            out: dir.path().to_path_buf(),
            plots: false,
            command_line: vec![],
        };
        assert!(validate(&base).unwrap_err().contains("nothing to compare with"));
        let mut pair = base.clone();
        pair.profiles = vec!["mailbox".into(), "bitboard".into()];
        assert_eq!(validate(&pair), Ok(()));
        pair.profiles = vec!["mailbox".into()];
        assert!(validate(&pair).unwrap_err().contains("nothing to compare with"));
        let mut a = base.clone();
        a.stockfish = Some(dir.path().join("nope"));
        assert!(resolve_programs(&a).unwrap_err().starts_with("--stockfish "));
        a.stockfish = Some(PathBuf::from("sh"));
        assert!(resolve_programs(&a).unwrap().stockfish.unwrap().is_absolute());
        a.profiles = vec!["turbo".into()];
        assert!(validate(&a).unwrap_err().contains("--engine-profile turbo"));
        a.profiles = vec!["mailbox".into()];
        a.core = Some(100_000);
        assert!(validate(&a).unwrap_err().contains("--core 100000"));
        a.core = None;
        assert!(validate(&a).is_ok());
        assert_eq!(validate(&base).unwrap_err().lines().count(), 1);
        // A profile twice (in any spelling) has nothing to be compared with.
        a.profiles = vec!["mailbox".into(), "bitboard".into(), "Mailbox".into()];
        assert_eq!(validate(&a).unwrap_err(), "--engine-profile Mailbox: mailbox is given more than once");
        pair.profiles = vec!["mailbox".into(), "mailbox".into()];
        assert!(validate(&pair).unwrap_err().contains("mailbox is given more than once"));
        // A timeout past a week is refused here, so no run is ever started with it.
        a.profiles = vec!["mailbox".into()];
        a.timeout = Duration::from_secs(MAX_TIMEOUT_S);
        assert!(validate(&a).is_ok());
        a.timeout = Duration::from_secs(i64::MAX as u64);
        assert_eq!(validate(&a).unwrap_err(), "--timeout 9223372036854775807: at most 604800 s (a week)");
    }
}
