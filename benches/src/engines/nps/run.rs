//! The NPS comparison run: every engine once per round, each as a separate
//! process pinned to one core in a fresh temporary directory, the rounds
//! in a first-order balanced order; then the report written atomically.

use crate::engines::baseline_engine::{self, BenchFigures, EngineKind};
use crate::engines::nps::cli::{resolve_programs, validate, NpsArgs};
use crate::engines::nps::report::{plot_nps, ratios, EngineReport, NpsMetadata, NpsReport, RunRecord, Spread, SCHEMA};
use crate::engines::process::{self, Ending, Job, TempDir};
use crate::measure::runner::balanced_orders;
use crate::measure::sysinfo;
use crate::output::write_atomic;
use crate::workspace;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    /// A run of the `--base-engine` build.
    base: bool,
}

/// The FENs our bench searches: the positions file's, or the built-in set.
pub(crate) fn bench_fens(positions: Option<&Path>) -> Result<Vec<String>, String> {
    match positions {
        None => Ok(engine::tools::bench::BENCH_POSITIONS.iter().map(|(_, fen)| fen.to_string()).collect()),
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
        // One `engine bench` run of this profile by `program`.
        let bench = |label: String, program: &PathBuf, base: bool| Plan {
            label,
            kind: EngineKind::Ours,
            program: program.clone(),
            args: args.clone(),
            processes: vec![None],
            home_is_cwd: false,
            crafty_reset: None,
            positions: 0,
            base,
        };
        // The other build's same profile, with the same arguments.
        if let Some(base) = &a.base_engine {
            v.push(bench(format!("base {p}"), base, true));
        }
        v.push(bench(format!("ours {p}"), &a.engine, false));
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
            base: false,
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
            base: false,
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
                    engine::tools::bench::BENCH_HASH_MB,
                    crafty_reset,
                    "",
                )
                .into_iter()
                .map(Some)
                .collect(),
                home_is_cwd: true,
                crafty_reset: Some(crafty_reset),
                positions: fens.len(),
                base: false,
            });
        }
    }
    v
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
                base: p.base,
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
    let (commit, dirty) = workspace::git_state(&workspace::root());
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
