//! The evaluation's ablation variants ([`engine::eval::ablation`]) from the
//! command line. A separate program from `engine` on purpose: compiled into
//! a program, the variants change how the compiler inlines the helpers the
//! engine's own evaluation shares with them.
//!
//! * `ablation list [--json]`: the variants.
//! * `ablation run FILE [--mobility M] [--variant V] [--reps N] [--json]`:
//!   evaluate every position of FILE N times in full with one variant,
//!   inside `evaluate_passes` (what `scripts/eval-instructions.sh` has
//!   callgrind collect), after an untimed warm-up pass.
//! * `ablation passes FILE... [--mobility M]... [--reps N]`: for every
//!   file, mobility and variant in turn (a fresh evaluator each), one
//!   untimed warm-up pass and `evaluate_passes`; one JSON object listing
//!   the runs in order. Under callgrind with
//!   `--dump-after='*evaluate_passes'` each run's count is its own dump, so
//!   one process counts every variant (boardbench evalcycles does this).
//! * `ablation compare FILE [--mobility M] [--rounds R] [--json]`: a quick
//!   in-process look: each variant against the full evaluation, the two
//!   evaluating the same positions in interleaved passes (ABBA), each pass
//!   timed with the TSC; per pairing the fastest pass of each (floors), per
//!   group the difference of floors. A sanity check, not the measurement
//!   (boardbench's runner does that, with intervals).
//!
//! `cargo build --release -p engine --example ablation`, then
//! `target/release/examples/ablation compare positions/wac.epd --mobility mailbox`

use clap::{Parser, Subcommand, ValueEnum};
use engine::eval::ablation::{ablated, evaluate_passes, full_eval_config, warm_up, Ablation, DynEvaluation};
use engine::eval::groups::Group;
use engine::eval::weights::Weights;
use engine::eval::MobilityKind;
use engine::position::epd::load_file;
use engine::Position;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "ablation", about = "The evaluation with one group of its work left out")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum MobilityArg {
    Mailbox,
    Chain,
    SingleProbe,
}

impl From<MobilityArg> for MobilityKind {
    fn from(a: MobilityArg) -> MobilityKind {
        match a {
            MobilityArg::Mailbox => MobilityKind::Mailbox,
            MobilityArg::Chain => MobilityKind::Chain,
            MobilityArg::SingleProbe => MobilityKind::SingleProbe,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// List the variants.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Evaluate every position REPS times with one variant.
    Run {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "chain")]
        mobility: MobilityArg,
        /// `full`, `without_GROUP` or `without_GROUP_state` (see `list`).
        #[arg(long, default_value = "full")]
        variant: String,
        #[arg(long, default_value_t = 1)]
        reps: u32,
        #[arg(long)]
        json: bool,
    },
    /// Every variant on every file and mobility, one `evaluate_passes` each,
    /// in order (file, mobility, variant); JSON on stdout.
    Passes {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Mobility implementations (default: all three).
        #[arg(long, value_enum)]
        mobility: Vec<MobilityArg>,
        #[arg(long, default_value_t = 1)]
        reps: u32,
    },
    /// Floor and median of passes of the full evaluation alone (built with
    /// `--features eval-time`: with the counters in their default mode, or
    /// off with --counters-off).
    Floor {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "chain")]
        mobility: MobilityArg,
        #[arg(long, default_value_t = 200)]
        rounds: u32,
        #[arg(long)]
        counters_off: bool,
        /// Time one run of 64 evaluations in N (built with the counters).
        #[arg(long, default_value_t = 1)]
        duty: u32,
        #[arg(long)]
        json: bool,
    },
    /// Each variant's floor against the full evaluation's, interleaved.
    Compare {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "chain")]
        mobility: MobilityArg,
        #[arg(long, default_value_t = 200)]
        rounds: u32,
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            eprintln!(
                "error: {} (try --help)",
                text.lines().next().unwrap_or("bad arguments").trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::List { json } => {
            list(json);
            Ok(())
        }
        Command::Run { file, mobility, variant, reps, json } => run(&file, mobility.into(), &variant, reps, json),
        Command::Passes { files, mobility, reps } => passes(&files, &mobility, reps),
        Command::Floor { file, mobility, rounds, counters_off, duty, json } => {
            floor(&file, mobility.into(), rounds, counters_off, duty, json)
        }
        Command::Compare { file, mobility, rounds, json } => compare(&file, mobility.into(), rounds, json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn variant_json(a: &Ablation) -> Value {
    json!({"name": a.name, "group": a.group.map(|g| g.name()), "label": a.group.map(|g| g.label()),
           "state": a.state, "score_exact": a.score_exact(), "mask": a.mask})
}

fn list(as_json: bool) {
    if as_json {
        println!("{}", json!({"variants": Ablation::ALL.iter().map(variant_json).collect::<Vec<_>>()}));
        return;
    }
    for v in Ablation::ALL {
        let what = match (v.group, v.state) {
            (None, false) => "the whole evaluation".to_string(),
            (None, true) => "every group's work and state left out: the inputs alone (timing only)".to_string(),
            (Some(g), false) => format!("{}: its own work left out (score exact)", g.label()),
            (Some(g), true) => format!(
                "{}: its work and the state it builds left out ({})",
                g.label(),
                if v.score_exact() { "score exact" } else { "timing only" }
            ),
        };
        println!("{:<28} {what}", v.name);
    }
}

fn positions(file: &Path) -> Result<Vec<Position>, String> {
    let epd = load_file(file).map_err(|e| e.to_string())?;
    if epd.is_empty() {
        return Err(format!("{}: no positions", file.display()));
    }
    Ok(epd.iter().map(|e| e.position().clone()).collect())
}

fn run(file: &Path, kind: MobilityKind, variant: &str, reps: u32, as_json: bool) -> Result<(), String> {
    let Some(variant) = Ablation::parse(variant) else {
        let names: Vec<&str> = Ablation::ALL.iter().map(|v| v.name).collect();
        return Err(format!("--variant {variant}: expected one of {}", names.join(", ")));
    };
    if reps == 0 {
        return Err("--reps 0: give at least one repetition".into());
    }
    let mut ps = positions(file)?;
    let mut e = ablated(kind, variant, Weights::default(), full_eval_config());
    warm_up(e.as_mut(), &mut ps);
    let checksum = evaluate_passes(e.as_mut(), &mut ps, reps);
    let evals = ps.len() as u64 * u64::from(reps);
    if as_json {
        println!(
            "{}",
            json!({"variant": variant_json(&variant), "mobility": kind.name(), "file": file.display().to_string(),
                   "positions": ps.len(), "reps": reps, "evals": evals, "checksum": checksum})
        );
    } else {
        println!("{} ({kind}): {evals} evaluations of {} positions, checksum {checksum}", variant.name, ps.len());
    }
    Ok(())
}

fn passes(files: &[PathBuf], mobility: &[MobilityArg], reps: u32) -> Result<(), String> {
    if reps == 0 {
        return Err("--reps 0: give at least one repetition".into());
    }
    let kinds: Vec<MobilityKind> =
        if mobility.is_empty() { MobilityKind::ALL.to_vec() } else { mobility.iter().map(|&m| m.into()).collect() };
    // Every file read before anything runs: a bad one fails at once.
    let sets = files.iter().map(|f| positions(f)).collect::<Result<Vec<_>, _>>()?;
    let mut runs = Vec::new();
    for (file, set) in files.iter().zip(&sets) {
        for &kind in &kinds {
            for variant in Ablation::ALL {
                let mut ps = set.clone();
                let mut e = ablated(kind, variant, Weights::default(), full_eval_config());
                warm_up(e.as_mut(), &mut ps);
                let checksum = evaluate_passes(e.as_mut(), &mut ps, reps);
                runs.push(json!({"file": file.display().to_string(), "mobility": kind.name(),
                                 "variant": variant.name, "positions": ps.len(),
                                 "evals": ps.len() as u64 * u64::from(reps), "checksum": checksum}));
            }
        }
    }
    println!("{}", json!({"reps": reps, "runs": runs}));
    Ok(())
}

/// One pass over the positions, in ticks per evaluation.
fn timed_pass(e: &mut dyn DynEvaluation, ps: &mut [Position]) -> f64 {
    let t0 = engine::tsc::start();
    std::hint::black_box(evaluate_passes(e, ps, 1));
    engine::tsc::stop().wrapping_sub(t0) as f64 / ps.len() as f64
}

fn floor(
    file: &Path,
    kind: MobilityKind,
    rounds: u32,
    counters_off: bool,
    duty: u32,
    as_json: bool,
) -> Result<(), String> {
    if rounds == 0 {
        return Err("--rounds 0: give at least one round".into());
    }
    let mut ps = positions(file)?;
    let mut e = ablated(kind, Ablation::FULL, Weights::default(), full_eval_config());
    #[cfg(feature = "eval-time")]
    {
        e.counters_mut().set_duty(duty);
        if counters_off {
            e.counters_mut().set_mode(engine::eval::counters::CounterMode::Off);
        }
    }
    #[cfg(not(feature = "eval-time"))]
    if counters_off || duty != 1 {
        return Err("--counters-off, --duty: this build has no counters (build with --features eval-time)".into());
    }
    warm_up(e.as_mut(), &mut ps);
    let mut passes: Vec<f64> = (0..rounds).map(|_| timed_pass(e.as_mut(), &mut ps)).collect();
    passes.sort_by(f64::total_cmp);
    let (min, median) = (passes[0], passes[passes.len() / 2]);
    let counters = match (cfg!(feature = "eval-time"), counters_off) {
        (false, _) => "not compiled".to_string(),
        (true, false) => format!("rotating, one run in {duty} timed"),
        (true, true) => "compiled, off".to_string(),
    };
    if as_json {
        println!(
            "{}",
            json!({"file": file.display().to_string(), "mobility": kind.name(), "positions": ps.len(),
                   "rounds": rounds, "counters": counters, "min_ticks_per_eval": min, "median_ticks_per_eval": median})
        );
    } else {
        println!(
            "{}: {} positions, {kind}, counters {counters}: fastest pass {min:.1} ticks per evaluation, median {median:.1}",
            file.display(),
            ps.len()
        );
    }
    Ok(())
}

fn compare(file: &Path, kind: MobilityKind, rounds: u32, as_json: bool) -> Result<(), String> {
    if rounds == 0 {
        return Err("--rounds 0: give at least one round".into());
    }
    let mut ps = positions(file)?;
    // Each variant against the full evaluation on its own, ABBA: only the
    // two evaluators' pawn hashes and code are in the caches (with every
    // variant at once, seventeen pawn hashes overflow them).
    let mut full_eval = ablated(kind, Ablation::FULL, Weights::default(), full_eval_config());
    warm_up(full_eval.as_mut(), &mut ps);
    // Per variant: the full evaluation's floor in its pairing, the variant's.
    let mut pairs = vec![(f64::INFINITY, f64::INFINITY); Ablation::ALL.len()];
    for (i, a) in Ablation::ALL.iter().enumerate().skip(1) {
        let mut v = ablated(kind, *a, Weights::default(), full_eval_config());
        warm_up(v.as_mut(), &mut ps);
        for _ in 0..rounds {
            let (f1, v1) = (timed_pass(full_eval.as_mut(), &mut ps), timed_pass(v.as_mut(), &mut ps));
            let (v2, f2) = (timed_pass(v.as_mut(), &mut ps), timed_pass(full_eval.as_mut(), &mut ps));
            pairs[i] = (pairs[i].0.min(f1).min(f2), pairs[i].1.min(v1).min(v2));
        }
    }
    // The full evaluation's floor over every pairing; a variant's cost is
    // the difference of floors within its own pairing.
    let full = pairs.iter().skip(1).map(|p| p.0).fold(f64::INFINITY, f64::min);
    let mut floor = vec![full; Ablation::ALL.len()];
    for (i, p) in pairs.iter().enumerate().skip(1) {
        floor[i] = full - (p.0 - p.1);
    }
    let at = |g: Group, state: bool| Ablation::of(g, state).and_then(|a| Ablation::ALL.iter().position(|b| *b == a));
    struct Row {
        group: Group,
        work: Option<f64>,
        state: Option<f64>,
        whole: f64,
    }
    let rows: Vec<Row> = Group::ALL
        .iter()
        .map(|&g| {
            let without = at(g, false).map(|i| floor[i]).unwrap_or(full);
            Row {
                group: g,
                work: at(g, false).map(|i| full - floor[i]),
                state: at(g, true).map(|i| without - floor[i]),
                whole: at(g, true).or(at(g, false)).map(|i| full - floor[i]).unwrap_or(0.0),
            }
        })
        .collect();
    // What no group removes, measured alone.
    let inputs = floor[Ablation::ALL.iter().position(|a| *a == Ablation::INPUTS_ONLY).expect("a variant")];
    let sum: f64 = rows.iter().map(|r| r.whole).sum::<f64>() + inputs;
    if as_json {
        let groups: Vec<Value> = rows
            .iter()
            .map(|r| {
                json!({"group": r.group.name(), "label": r.group.label(), "work_ticks": r.work,
                            "state_ticks": r.state, "ticks": r.whole})
            })
            .collect();
        let floors: Vec<Value> =
            Ablation::ALL.iter().zip(&floor).map(|(a, f)| json!({"variant": a.name, "floor_ticks": f})).collect();
        println!(
            "{}",
            json!({"file": file.display().to_string(), "mobility": kind.name(), "positions": ps.len(),
                   "rounds": rounds, "full_ticks": full, "floors": floors, "groups": groups,
                   "inputs_ticks": inputs, "sum_of_rows": sum, "unattributed": full - sum})
        );
        return Ok(());
    }
    println!("{}: {} positions, {kind}, {rounds} rounds; floors in ticks per evaluation", file.display(), ps.len());
    println!("{:<28} {:>8} {:>8} {:>8} {:>7}", "group", "work", "state", "whole", "share");
    let show = |x: Option<f64>| x.map(|v| format!("{v:.1}")).unwrap_or_else(|| "-".into());
    for r in &rows {
        println!(
            "{:<28} {:>8} {:>8} {:>8.1} {:>6.1}%",
            r.group.label(),
            show(r.work),
            show(r.state),
            r.whole,
            100.0 * r.whole / full
        );
    }
    println!("{:<28} {:>8} {:>8} {:>8.1} {:>6.1}%", "inputs alone", "", "", inputs, 100.0 * inputs / full);
    println!("{:<28} {:>8} {:>8} {:>8.1} {:>6.1}%", "sum of rows", "", "", sum, 100.0 * sum / full);
    println!("{:<28} {:>8} {:>8} {:>8.1} {:>6.1}%", "unattributed", "", "", full - sum, 100.0 * (full - sum) / full);
    println!("{:<28} {:>8} {:>8} {:>8.1}", "full evaluation", "", "", full);
    Ok(())
}
