//! Counter ticks per group: the engine's `eval-time` counters in their
//! sampled mode (no timer reads in the evaluation: each phase writes its
//! name to one byte, and a timer signal at random intervals counts the
//! phase it interrupts; a group's ticks are its share of the samples times
//! the whole evaluation's floor, so the rows add up to the whole). The TSC
//! pairs read something else than the ablation: plain reads, a region's
//! front-end progress (on an AMD EPYC host 44 of 86 groups of 30+ ticks
//! within 20% of their ablation cost for the prefix marks, 20 of 87 for
//! the rotating regions; on an Intel Xeon host chain's rooks read 1-13
//! ticks against 45-60 by ablation, the knights 65 against 8-12); fenced
//! reads, a region's latency from a drained pipeline, at 1.2-2x the cost
//! of an evaluation.
//!
//! The counters must not be compiled into the code the runner times, so
//! they live in a separate build: `cargo build --release -p engine
//! --features eval-time` into `target/eval-time` (a no-op when it is up to
//! date; minutes on a fresh clone), run from the workspace root so the same
//! `.cargo/config.toml` flags apply. Its `engine evalcycles FILE
//! --full-evals REPS --json` evaluates one bucket's positions in the
//! configuration of the whole-evaluation arms, pass after pass, each pass
//! timing one slot for every position, and reports per row the mean over
//! the evaluations that timed it and the lowest mean of a pass (a floor);
//! it also times its passes from outside (the instrumented evaluation:
//! every evaluation pays one pair) interleaved with passes of an evaluator
//! whose counters are off, so what the counters cost is measured in one
//! process under the same conditions.

use super::attribution::{CounterRow, CounterRows};
use crate::measure::pin::unpinned;
use crate::workspace;
use engine::eval::groups::Group;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the eval-time build goes, under the workspace's target directory.
pub fn eval_time_target_dir() -> PathBuf {
    workspace::target_dir().join("eval-time")
}

/// Build `cargo build --release -p engine ARGS` into
/// [`eval_time_target_dir`] (`what` names the build in messages) and
/// return the program `release/PROGRAM` there.
pub fn build(what: &str, args: &[&str], program: &str) -> Result<PathBuf, String> {
    let root = workspace::root();
    if !root.join("engine").join("Cargo.toml").is_file() {
        return Err(format!("{what}: no engine sources at {} to build", root.join("engine").display()));
    }
    let target = eval_time_target_dir();
    eprintln!("boardbench: evalcycles: building {what} into {} (minutes the first time)", target.display());
    let out = crate::output::children::output(unpinned(
        workspace::cargo(&root).args(["build", "--release", "-p", "engine"]).args(args).arg("--target-dir").arg(&target),
    ))
    .map_err(|e| {
        let cargo = workspace::cargo_program();
        format!("{what}: cannot run {} to build it: {e}", Path::new(&cargo).display())
    })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let why = stderr
            .lines()
            .find(|l| l.starts_with("error"))
            .or_else(|| stderr.lines().rfind(|l| !l.trim().is_empty()))
            .unwrap_or("no message");
        return Err(format!("{what}: `cargo build -p engine {}` failed ({}): {why}", args.join(" "), out.status));
    }
    let bin = target.join("release").join(format!("{program}{}", std::env::consts::EXE_SUFFIX));
    if !bin.is_file() {
        return Err(format!("{what}: the build left no binary at {}", bin.display()));
    }
    Ok(bin)
}

/// The engine with `--features eval-time`.
pub fn build_eval_time_engine() -> Result<PathBuf, String> {
    build("the engine with --features eval-time", &["--features", "eval-time", "--bin", "engine"], "engine")
}

/// Timed passes of the instrumented and the uninstrumented copy per
/// bucket (the engine's `--full-evals`: the counters' cost and the floor
/// the shares are scaled to).
pub fn reps(quick: bool) -> u32 {
    if quick {
        30
    } else {
        300
    }
}

/// Seconds of sampling per bucket and implementation (about 20,000
/// samples a second).
pub fn sample_seconds(quick: bool) -> f64 {
    if quick {
        0.5
    } else {
        2.0
    }
}

/// The counter mode boardbench runs (`engine evalcycles --counters`).
pub const MODE: &str = "sampled";

/// Run the counters over one bucket's EPD `file` with implementation `arm`.
pub fn run(engine: &Path, file: &Path, bucket: &str, arm: &str, reps: u32, seconds: f64) -> Result<CounterRows, String> {
    let out = crate::output::children::output(
        Command::new(engine).arg("evalcycles").arg(file).args([
            "--full-evals",
            &reps.to_string(),
            "--mobility",
            arm,
            "--counters",
            MODE,
            "--sample-seconds",
            &seconds.to_string(),
            "--json",
        ]),
    )
        .map_err(|e| format!("counters: cannot run {}: {e}", engine.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "counters: engine evalcycles failed on {bucket} ({arm}): {}",
            err.lines().next().unwrap_or("no message")
        ));
    }
    parse(bucket, arm, &out.stdout)
}

/// Read one `engine evalcycles --full-evals --json` document ([`MODE`]).
/// Every group and input row is net of the pair's cost and never below
/// zero (the engine clamps; a negative figure here is clamped too); the
/// unattributed row (whole minus rows) keeps its sign.
pub fn parse(bucket: &str, arm: &str, json: &[u8]) -> Result<CounterRows, String> {
    let bad = |what: &str| format!("counters: engine evalcycles gave no {what} for {arm} on {bucket}");
    let v: Value = serde_json::from_slice(json).map_err(|e| format!("counters: bad JSON from engine evalcycles: {e}"))?;
    if v["counters"].as_str() != Some(MODE) {
        return Err(format!(
            "counters: engine evalcycles ran in mode {} for {arm} on {bucket}, not {MODE}",
            v["counters"].as_str().unwrap_or("?")
        ));
    }
    let rows = |key: &str| -> Result<Vec<CounterRow>, String> {
        v[key]
            .as_array()
            .ok_or_else(|| bad(key))?
            .iter()
            .map(|r| {
                let name = r["name"].as_str().ok_or_else(|| bad("row name"))?.to_string();
                let ticks = r["ticks_per_eval"].as_f64().ok_or_else(|| bad("row ticks"))?;
                Ok((name, ticks.max(0.0), r["floor_ticks_per_eval"].as_f64().map(|f| f.max(0.0))))
            })
            .collect()
    };
    let groups = rows("groups")?;
    for g in Group::ALL {
        if !groups.iter().any(|(n, _, _)| n == g.name()) {
            return Err(bad(&format!("row for group {}", g.name())));
        }
    }
    let inputs = rows("inputs")?;
    let whole = v["whole"]["ticks_per_eval"].as_f64();
    // The remainder of the clamped rows (as the engine computes it).
    let sum: f64 = groups.iter().chain(&inputs).map(|r| r.1).sum();
    let floor_sum: Option<f64> = groups.iter().chain(&inputs).map(|r| r.2).sum();
    let whole_floor = v["floors"]["whole"].as_f64();
    let instrumented = &v["instrumented"];
    Ok(CounterRows {
        groups,
        inputs,
        whole,
        unattributed: whole.map(|w| w - sum),
        unattributed_floor: whole_floor.zip(floor_sum).map(|(w, s)| w - s),
        pair_ticks: v["counter_overhead"]["ticks_per_region"].as_f64().ok_or_else(|| bad("pair cost"))?,
        instrumented_floor: instrumented["floor_ticks_per_eval"].as_f64(),
        uninstrumented_floor: instrumented["uninstrumented"]["floor_ticks_per_eval"].as_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape `engine evalcycles --full-evals N --json` prints.
    fn document(rooks: f64, pawn_entry: f64) -> String {
        let groups: Vec<String> = Group::ALL
            .iter()
            .map(|g| {
                let t = if *g == Group::Rooks { rooks } else { 10.0 };
                format!(r#"{{"name": "{}", "ticks_per_eval": {t}, "floor_ticks_per_eval": {}}}"#, g.name(), t - 1.0)
            })
            .collect();
        format!(
            r#"{{"counters": "{MODE}", "evals": 1000, "groups": [{}],
                "inputs": [{{"name": "pawn_entry", "ticks_per_eval": {pawn_entry}, "floor_ticks_per_eval": 2.0}}],
                "whole": {{"ticks_per_eval": 120.0}}, "floors": {{"whole": 110.0}},
                "counter_overhead": {{"ticks_per_region": 21.5}},
                "instrumented": {{"ticks_per_eval": 140.0, "min_ticks_per_eval": 128.0, "floor_ticks_per_eval": 131.0,
                                  "uninstrumented": {{"floor_ticks_per_eval": 110.0}}}}}}"#,
            groups.join(", ")
        )
    }

    #[test]
    fn rows_are_read_net_and_never_negative() {
        let c = parse("opening", "chain", document(25.0, 3.0).as_bytes()).unwrap();
        assert_eq!(c.groups.len(), 10);
        assert_eq!(c.groups[Group::Rooks as usize], ("rooks".to_string(), 25.0, Some(24.0)));
        assert_eq!(c.pair_ticks, 21.5);
        assert_eq!((c.instrumented_floor, c.uninstrumented_floor), (Some(131.0), Some(110.0)));
        // 9 × 10 + 25 + 3 = 118 of a whole of 120.
        assert_eq!(c.unattributed, Some(2.0));
        assert_eq!(c.unattributed_floor, Some(110.0 - (9.0 * 9.0 + 24.0 + 2.0)));
        // A negative row (a region cheaper than the pair) reads zero; the
        // remainder is taken over the rows as reported.
        let c = parse("opening", "chain", document(-4.0, -1.0).as_bytes()).unwrap();
        assert!(c.groups.iter().chain(&c.inputs).all(|r| r.1 >= 0.0 && r.2.is_none_or(|f| f >= 0.0)), "{c:?}");
        assert_eq!(c.unattributed, Some(120.0 - 90.0));
    }

    #[test]
    fn bad_documents_get_one_line() {
        let e = parse("opening", "chain", b"not json").unwrap_err();
        assert!(e.contains("bad JSON"), "{e}");
        let e = parse("opening", "chain", br#"{"counters": "all-phases"}"#).unwrap_err();
        assert!(e.contains("mode all-phases") && e.contains(&format!("not {MODE}")), "{e}");
        let doc = document(1.0, 1.0).replace(r#""name": "kings""#, r#""name": "king""#);
        let e = parse("endgame", "mailbox", doc.as_bytes()).unwrap_err();
        assert!(e.contains("no row for group kings for mailbox on endgame"), "{e}");
    }
}
