//! evalcycles: the whole evaluation per mobility implementation, and where
//! its ticks go.
//!
//! (a) Whole evaluation, timed by boardbench's runner: the three engine
//! evaluations — mailbox (attack words, mailbox defects), chain and single
//! probe (accumulators, bitboard defects) — each a full evaluation of one
//! position from the side to move's view with the eval hash off, the pawn
//! hash on (2 MiB; warm, since every round's untimed pass visits every
//! position first) and the lazy exit off. Each arm keeps its own evaluator
//! (its own pawn hash) in a thread-local, built once. The chain must return
//! the mailbox's score exactly; the single probe differs by design (its
//! differences are classified by `engine evaldiff`) and is not checked.
//!
//! (b) Per-term breakdown, from the engine's `eval-time` counters. The
//! counters must not be compiled into the code that (a) measures, so they
//! live in a separate build: `cargo build --release -p engine --features
//! eval-time` into `target/eval-time` (a no-op when it is up to date;
//! minutes on a fresh clone), run from the workspace root so the same
//! `.cargo/config.toml` flags apply. Its `engine evalcycles FILE
//! --full-evals REPS --json` evaluates each bucket's positions in the same
//! configuration as (a) and reports ticks per evaluation per phase (means,
//! not floors). The counters cost much more than they measure here (about
//! 60 ticks per timed region, 16 regions per evaluation, plus fences that
//! serialise the pipeline): each phase is reported net of its calibrated
//! timer cost, and net phases + ticks outside every phase (glue and timer
//! reads) + that timer cost sum to the counted whole, which is therefore
//! well above (a)'s figure. The
//! build runs at normal priority on every core; the measuring run inherits
//! boardbench's pinned core and real-time class. Where the build cannot
//! happen (no cargo, no workspace, a compile error) the benchmark fails
//! with one line saying why.

use crate::measure::context::Context;
use crate::measure::pin::unpinned;
use crate::suite::benchmark::run_arms_planned;
use crate::suite::density::PositionSet;
use crate::suite::report::{BenchReport, TermBreakdown, TermCost};
use crate::suite::spec::{ArmSpec, Entry, Spec};
use crate::workspace;
use engine::eval::weights::Weights;
use engine::eval::{ChainEval, ChainSet, EvalConfig, MailboxEval, MailboxSet, SingleProbeEval, SingleProbeSet};
use engine::Position;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Eval hash off, pawn hash on (default size), lazy exit off.
pub fn config() -> EvalConfig {
    EvalConfig { eval_hash_bytes: 0, lazy: false, ..EvalConfig::default() }
}

/// The time budget of (a) relative to the run's per-benchmark budget.
pub const BUDGET_FACTOR: f64 = 2.0;

/// A window no score leaves (the lazy exit is off anyway).
const WINDOW: i32 = engine::eval::EVAL_LIMIT + 1;

thread_local! {
    static MAILBOX: RefCell<MailboxEval> = RefCell::new(MailboxEval::new(MailboxSet, Weights::default(), config()));
    static CHAIN: RefCell<ChainEval> = RefCell::new(ChainEval::new(ChainSet, Weights::default(), config()));
    static SINGLE: RefCell<SingleProbeEval> =
        RefCell::new(SingleProbeEval::new(SingleProbeSet, Weights::default(), config()));
}

#[inline(always)]
fn checksum(score: i32) -> u64 {
    u64::from(score as u32) + 1
}

fn mailbox(pos: &mut Position) -> u64 {
    MAILBOX.with_borrow_mut(|e| checksum(e.evaluate(pos, -WINDOW, WINDOW)))
}

fn chain(pos: &mut Position) -> u64 {
    CHAIN.with_borrow_mut(|e| checksum(e.evaluate(pos, -WINDOW, WINDOW)))
}

fn single_probe(pos: &mut Position) -> u64 {
    SINGLE.with_borrow_mut(|e| checksum(e.evaluate(pos, -WINDOW, WINDOW)))
}

fn prepare(pos: &Position) -> Position {
    let mut p = pos.clone();
    p.clear_history();
    p
}

/// The arms' names, which are also the engine's `--mobility` values.
pub const ARMS: [&str; 3] = ["mailbox", "chain", "single-probe"];

/// The benchmark (a).
pub fn spec() -> Spec<Position> {
    Spec {
        name: "evalcycles",
        about: "whole evaluation (eval hash off, pawn hash warm, lazy off): mailbox vs chain vs single-probe mobility",
        call: "one full evaluation of one position",
        prepare,
        arms: vec![
            ArmSpec { name: ARMS[0], routine: mailbox },
            ArmSpec { name: ARMS[1], routine: chain },
            ArmSpec { name: ARMS[2], routine: single_probe },
        ],
        must_agree: true,
    }
}

fn run(ctx: &Context, set: &PositionSet) -> Result<BenchReport, String> {
    // Build first: a build that cannot happen fails before minutes of
    // measuring. Only report runs have the per-term part (not the gate's).
    let engine = if ctx.extras() { Some(build_eval_time_engine()?) } else { None };
    let spec = spec();
    let mut arms = spec.arms();
    for a in arms.iter_mut().filter(|a| a.name == "single-probe") {
        a.must_agree = false;
    }
    // Twice the time of the other benchmarks: a whole evaluation reaches
    // into the pawn hash, the weights and the slider tables (megabytes), so
    // a neighbour sharing the caches disturbs it far more than the
    // register-and-L1 routines, and its floors need more samples.
    let mut plan = ctx.plan;
    plan.budget_s = plan.budget_s.map(|b| b * BUDGET_FACTOR);
    let mut report = run_arms_planned(ctx, &plan, &spec, &arms, set, None)?;
    let Some(engine) = engine else { return Ok(report) };
    let reps = if ctx.quick { 20 } else { 200 };
    report.terms = term_breakdown(&engine, set, reps)?;
    for t in &report.terms {
        let top: Vec<String> = t.groups.iter().map(|g| format!("{} {:.0}", g.term, g.ticks)).collect();
        eprintln!("  terms {} {}: {:.0} ticks/eval = {}", t.bucket, t.arm, t.whole, top.join(" + "));
    }
    Ok(report)
}

pub const ENTRY: Entry = Entry {
    name: "evalcycles",
    about: "whole evaluation per mobility implementation, and its per-term breakdown (eval-time build)",
    run,
};

/// Where the eval-time build goes, under the workspace's target directory.
pub fn eval_time_target_dir() -> PathBuf {
    workspace::target_dir().join("eval-time")
}

/// Build the engine with `--features eval-time` into its own target
/// directory and return the binary's path.
pub fn build_eval_time_engine() -> Result<PathBuf, String> {
    let root = workspace::root();
    if !root.join("engine").join("Cargo.toml").is_file() {
        return Err(format!(
            "per-term breakdown: no engine sources at {} to build with --features eval-time",
            root.join("engine").display()
        ));
    }
    let target = eval_time_target_dir();
    eprintln!(
        "boardbench: evalcycles: building the engine with --features eval-time into {} (minutes the first time)",
        target.display()
    );
    let out = unpinned(
        workspace::cargo(&root)
            .args(["build", "--release", "-p", "engine", "--features", "eval-time", "--bin", "engine"])
            .arg("--target-dir")
            .arg(&target),
    )
    .output()
    .map_err(|e| {
        let cargo = workspace::cargo_program();
        format!("per-term breakdown: cannot run {} to build the eval-time engine: {e}", Path::new(&cargo).display())
    })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let why = stderr
            .lines()
            .find(|l| l.starts_with("error"))
            .or_else(|| stderr.lines().rfind(|l| !l.trim().is_empty()))
            .unwrap_or("no message");
        return Err(format!(
            "per-term breakdown: `cargo build -p engine --features eval-time` failed ({}): {why}",
            out.status
        ));
    }
    let bin = target.join("release").join(format!("engine{}", std::env::consts::EXE_SUFFIX));
    if !bin.is_file() {
        return Err(format!("per-term breakdown: the eval-time build left no binary at {}", bin.display()));
    }
    Ok(bin)
}

/// Plot groups of the engine's phases (net), bottom to top; then, on top,
/// what the counters add: their timer reads inside the phases plus
/// everything outside the phases (glue, the whole-evaluation timer, each
/// region's fences).
const GROUPS: [(&str, &[&str]); 11] = [
    ("hash probe/store", &["hash_probe", "lazy", "hash_store"]),
    ("material, trades, scaling", &["material", "passer_race", "bad_trades", "bishop_pair", "scaling"]),
    ("pawns", &["pawns"]),
    ("pawn attacks", &["pawn_attacks"]),
    ("knights", &["knights"]),
    ("bishops", &["bishops"]),
    ("rooks", &["rooks"]),
    ("queens", &["queens"]),
    ("kings", &["kings"]),
    ("passers, records", &["passers", "records"]),
    ("timers and glue", &["outside_phases", "counter_overhead"]),
];

/// Read one `engine evalcycles --json` document. Each phase's ticks are
/// taken net of the counters' calibrated cost of one timed region (times
/// its calls), which is booked as `counter_overhead`: net phases, the
/// ticks outside every phase and that overhead sum to the counted whole.
pub fn parse_breakdown(bucket: &str, arm: &str, json: &[u8]) -> Result<TermBreakdown, String> {
    let bad = |what: &str| format!("per-term breakdown: engine evalcycles gave no {what} for {arm} on {bucket}");
    let v: serde_json::Value =
        serde_json::from_slice(json).map_err(|e| format!("per-term breakdown: bad JSON: {e}"))?;
    let num = |x: &serde_json::Value, what: &str| x.as_f64().ok_or_else(|| bad(what));
    let evals = v["evals"].as_u64().filter(|&n| n > 0).ok_or_else(|| bad("evals"))?;
    let region = num(&v["counter_overhead"]["ticks_per_region"], "counter overhead")?;
    let mut phases = Vec::new();
    let mut overhead = 0.0;
    for p in v["phases"].as_array().ok_or_else(|| bad("phases"))? {
        let term = p["phase"].as_str().ok_or_else(|| bad("phase name"))?.to_string();
        let (ticks, calls) = (num(&p["ticks"], "phase ticks")?, num(&p["calls"], "phase calls")?);
        // The region's own cost, but never more than the phase measured.
        let timers = (calls * region).min(ticks);
        overhead += timers;
        phases.push(TermCost { term, ticks: (ticks - timers) / evals as f64 });
    }
    phases.push(TermCost {
        term: "outside_phases".into(),
        ticks: num(&v["outside_phases"]["ticks_per_eval"], "outside_phases")?,
    });
    let counter_overhead = overhead / evals as f64;
    let mut groups: Vec<TermCost> = GROUPS
        .iter()
        .map(|(name, members)| TermCost {
            term: name.to_string(),
            ticks: phases.iter().filter(|p| members.contains(&p.term.as_str())).map(|p| p.ticks).sum::<f64>()
                + if members.contains(&"counter_overhead") { counter_overhead } else { 0.0 },
        })
        .collect();
    // Phases the engine added since: shown on their own rather than lost.
    groups.extend(phases.iter().filter(|p| !GROUPS.iter().any(|(_, m)| m.contains(&p.term.as_str()))).cloned());
    Ok(TermBreakdown {
        bucket: bucket.to_string(),
        arm: arm.to_string(),
        evals,
        whole: num(&v["ticks_per_eval"], "ticks_per_eval")?,
        phases,
        groups,
        counter_overhead,
    })
}

/// (b): every bucket's positions through the eval-time engine, per arm.
fn term_breakdown(engine: &Path, set: &PositionSet, reps: u32) -> Result<Vec<TermBreakdown>, String> {
    let dir = std::env::temp_dir().join(format!("boardbench-evalterms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("per-term breakdown: cannot create {}: {e}", dir.display()))?;
    struct Remove(PathBuf);
    impl Drop for Remove {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let _remove = Remove(dir.clone());
    let mut out = Vec::new();
    for (bucket, chosen) in &set.buckets {
        let file = dir.join(format!("{bucket}.epd"));
        let text: String = chosen.iter().map(|c| c.position.to_fen() + "\n").collect();
        std::fs::write(&file, text).map_err(|e| format!("per-term breakdown: cannot write {}: {e}", file.display()))?;
        for arm in ARMS {
            let run = Command::new(engine)
                .arg("evalcycles")
                .arg(&file)
                .args(["--full-evals", &reps.to_string(), "--mobility", arm, "--json"])
                .output()
                .map_err(|e| format!("per-term breakdown: cannot run {}: {e}", engine.display()))?;
            if !run.status.success() {
                let err = String::from_utf8_lossy(&run.stderr);
                return Err(format!(
                    "per-term breakdown: engine evalcycles failed on {bucket} ({arm}): {}",
                    err.lines().next().unwrap_or("no message")
                ));
            }
            out.push(parse_breakdown(bucket.name(), arm, &run.stdout)?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_scores_as_the_mailbox_on_real_positions() {
        let set = crate::suite::benchmarks::tests::real_positions();
        let spec = spec();
        let mut single_differs = 0;
        let mut scores = std::collections::HashSet::new();
        for pos in set {
            let mut p = prepare(pos);
            let want = (spec.arms[0].routine)(&mut p);
            // Twice: the second call hits the pawn hash the first one filled.
            for _ in 0..2 {
                assert_eq!((spec.arms[0].routine)(&mut p), want, "{}", pos.to_fen());
                assert_eq!((spec.arms[1].routine)(&mut p), want, "chain on {}", pos.to_fen());
            }
            single_differs += usize::from((spec.arms[2].routine)(&mut p) != want);
            scores.insert(want);
        }
        assert!(scores.len() > set.len() / 2, "scores vary: {} distinct", scores.len());
        assert!(single_differs > 0, "the single probe is an approximation");
    }

    #[test]
    fn engine_json_is_read_and_grouped() {
        // 10 evaluations, 30 ticks per timed region.
        let json = br#"{"evals": 10, "ticks_per_eval": 100.0,
            "phases": [{"phase": "material", "ticks": 350, "calls": 10}, {"phase": "bishop_pair", "ticks": 310, "calls": 10},
                       {"phase": "rooks", "ticks": 20, "calls": 10}, {"phase": "new_phase", "ticks": 40, "calls": 0}],
            "outside_phases": {"ticks_per_eval": 28.0}, "counter_overhead": {"ticks_per_region": 30}}"#;
        let t = parse_breakdown("opening", "chain", json).unwrap();
        assert_eq!(t.evals, 10);
        assert_eq!(t.phases.len(), 5);
        let group = |n: &str| t.groups.iter().find(|g| g.term == n).unwrap().ticks;
        // Net of 30 ticks per region: material 5, bishop pair 1, rooks 0 (never negative).
        assert_eq!(group("material, trades, scaling"), 6.0);
        assert_eq!(group("rooks"), 0.0);
        assert_eq!(group("new_phase"), 4.0);
        // 30 + 30 + 2 (all of the rooks' 20 ticks over 10 evals), plus 28 outside.
        assert_eq!(t.counter_overhead, 62.0);
        assert_eq!(group("timers and glue"), 90.0);
        assert_eq!(t.groups.iter().map(|g| g.ticks).sum::<f64>(), t.whole);
        let e = parse_breakdown("opening", "chain", br#"{"evals": 1, "counter_overhead": {"ticks_per_region": 3}}"#)
            .unwrap_err();
        assert!(e.contains("no phases for chain on opening"), "{e}");
        assert!(parse_breakdown("opening", "chain", b"not json").unwrap_err().contains("bad JSON"));
    }
}
