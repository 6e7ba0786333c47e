//! Instructions per group, deterministic: the ablation again under
//! callgrind (the engine's `ablation` example, as
//! `scripts/eval-instructions.sh` runs it), instructions of the full
//! evaluation minus those of each variant, per bucket and implementation.
//!
//! One callgrind process counts everything: `ablation passes` runs every
//! file × implementation × variant in turn (a fresh evaluator, an untimed
//! warm-up pass that fills its pawn hash, then `evaluate_passes`), callgrind
//! collects only inside `evaluate_passes` and dumps its counts each time
//! that returns (`--dump-after`), so dump i holds run i's instructions. The
//! example is built without the counters into `target/eval-time`; it is
//! not boardbench's own binary, so its inlining may differ a little from
//! the code the ablation timed (the counts are the same code in kind, not
//! byte for byte). Where valgrind is missing the instruction column is left
//! empty and the report says why.

use super::attribution::{attribute, Attributed, GroupParts};
use super::counters::build;
use crate::suite::report::Cost;
use engine::eval::ablation::Ablation;
use engine::eval::groups::Group;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why instructions cannot be counted here, if they cannot.
pub fn unavailable() -> Option<String> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(format!("valgrind --version failed ({})", o.status)),
        Err(e) => Some(format!("valgrind not found ({e}); install valgrind to count them")),
    }
}

/// The `ablation` example (no counters), built into `target/eval-time`.
pub fn build_example() -> Result<PathBuf, String> {
    build("the ablation example", &["--example", "ablation"], "examples/ablation")
}

/// Instructions per evaluation of every variant, per (bucket, implementation).
pub type Counts = HashMap<(String, String), HashMap<String, f64>>;

/// Count every variant on every bucket file (`(bucket, file)`) for every
/// implementation in `arms`, in one callgrind process.
pub fn count(example: &Path, files: &[(String, PathBuf)], arms: &[&str], dir: &Path) -> Result<Counts, String> {
    let out_file = dir.join("callgrind.out");
    let mut cmd = Command::new("valgrind");
    cmd.arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        // No `*` after the name: with one there, callgrind 3.19 collects
        // under --toggle-collect but never dumps under --dump-after.
        .arg("--toggle-collect=*evaluate_passes")
        .arg("--dump-after=*evaluate_passes")
        .arg(example)
        .arg("passes");
    for (_, f) in files {
        cmd.arg(f);
    }
    for a in arms {
        cmd.args(["--mobility", a]);
    }
    let run = crate::output::children::output(cmd.args(["--reps", "1"])).map_err(|e| format!("instructions: cannot run valgrind: {e}"))?;
    if !run.status.success() {
        let err = String::from_utf8_lossy(&run.stderr);
        let line = err.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("no message");
        return Err(format!("instructions: callgrind of the ablation example failed ({}): {line}", run.status));
    }
    let runs = parse_runs(&run.stdout)?;
    let dumps = read_dumps(dir, "callgrind.out")?;
    if dumps.len() < runs.len() || dumps[runs.len()..].iter().any(|&n| n != 0) {
        return Err(format!(
            "instructions: {} callgrind dumps with counts for {} runs of evaluate_passes",
            dumps.iter().filter(|&&n| n != 0).count(),
            runs.len()
        ));
    }
    let bucket_of: HashMap<String, &str> =
        files.iter().map(|(b, f)| (f.display().to_string(), b.as_str())).collect();
    let mut counts = Counts::new();
    for (run, instructions) in runs.iter().zip(dumps) {
        let bucket = bucket_of.get(&run.file).ok_or_else(|| format!("instructions: a run of an unknown file {}", run.file))?;
        counts
            .entry((bucket.to_string(), run.arm.clone()))
            .or_default()
            .insert(run.variant.clone(), instructions as f64 / run.evals as f64);
    }
    Ok(counts)
}

/// One run `ablation passes` reports.
#[derive(Debug, PartialEq)]
struct Run {
    file: String,
    arm: String,
    variant: String,
    evals: u64,
}

fn parse_runs(json: &[u8]) -> Result<Vec<Run>, String> {
    let bad = || "instructions: the ablation example printed no list of runs".to_string();
    let v: serde_json::Value = serde_json::from_slice(json).map_err(|_| bad())?;
    v["runs"]
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|r| {
            Ok(Run {
                file: r["file"].as_str().ok_or_else(bad)?.to_string(),
                arm: r["mobility"].as_str().ok_or_else(bad)?.to_string(),
                variant: r["variant"].as_str().ok_or_else(bad)?.to_string(),
                evals: r["evals"].as_u64().filter(|&n| n > 0).ok_or_else(bad)?,
            })
        })
        .collect()
}

/// The instruction totals of the dumps `STEM.1`, `STEM.2`, ... in `dir`, in
/// order (callgrind numbers the dumps of one process so).
fn read_dumps(dir: &Path, stem: &str) -> Result<Vec<u64>, String> {
    let mut numbered = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("instructions: cannot list {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(n) = name.strip_prefix(stem).and_then(|r| r.strip_prefix('.')).and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let text = std::fs::read_to_string(entry.path())
            .map_err(|e| format!("instructions: cannot read {}: {e}", entry.path().display()))?;
        numbered.push((n, total(&text).ok_or_else(|| format!("instructions: no totals in {name}"))?));
    }
    numbered.sort_unstable();
    Ok(numbered.into_iter().map(|(_, t)| t).collect())
}

/// The first event (instructions) of a callgrind dump's `totals:` line (or
/// `summary:`, in older formats).
fn total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("totals:")).or_else(|| text.lines().find(|l| l.starts_with("summary:")))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The attribution of one (bucket, implementation)'s counts.
pub fn attribution(counts: &HashMap<String, f64>) -> Result<Attributed, String> {
    let of = |a: Option<Ablation>| a.map(|a| counts.get(a.name).copied().ok_or_else(|| format!("instructions: no count for {}", a.name)));
    let full = of(Some(Ablation::FULL)).expect("some")?;
    let groups = Group::ALL
        .iter()
        .map(|&g| {
            let without = of(Ablation::of(g, false)).transpose()?;
            let without_state = of(Ablation::of(g, true)).transpose()?;
            Ok(GroupParts::from_counts(g, full, without, without_state))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let inputs = counts.get(Ablation::INPUTS_ONLY.name).map(|&c| Cost::exact(c));
    Ok(attribute(Cost::exact(full), groups, inputs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dumps_are_read_in_number_order() {
        let dir = tempfile::tempdir().unwrap();
        let dump = |n: u32, total: u64| {
            let text = format!("# callgrind format\nversion: 1\nevents: Ir\nfn=(1) x\n0 {total}\ntotals: {total}\n");
            std::fs::write(dir.path().join(format!("callgrind.out.{n}")), text).unwrap();
        };
        dump(10, 7);
        dump(2, 300);
        dump(1, 200);
        std::fs::write(dir.path().join("callgrind.out"), "totals: 5\n").unwrap();
        std::fs::write(dir.path().join("other.1"), "totals: 5\n").unwrap();
        assert_eq!(read_dumps(dir.path(), "callgrind.out").unwrap(), vec![200, 300, 7]);
        assert_eq!(total("events: Ir\nsummary: 42\n"), Some(42));
        assert_eq!(total("events: Ir\n"), None);
    }

    #[test]
    fn runs_and_counts_make_rows_that_add_up() {
        let runs = parse_runs(
            br#"{"reps": 1, "runs": [{"file": "a.epd", "mobility": "chain", "variant": "full", "positions": 2, "evals": 2, "checksum": 0}]}"#,
        )
        .unwrap();
        assert_eq!(runs, vec![Run { file: "a.epd".into(), arm: "chain".into(), variant: "full".into(), evals: 2 }]);
        assert!(parse_runs(b"{}").is_err());
        let mut counts: HashMap<String, f64> = Ablation::ALL.iter().map(|a| (a.name.to_string(), 900.0)).collect();
        counts.insert("full".into(), 1000.0);
        counts.insert("without_knights".into(), 950.0);
        counts.insert("without_knights_state".into(), 880.0);
        let a = attribution(&counts).unwrap();
        let knights = a.groups.iter().find(|g| g.group == Group::Knights).unwrap();
        assert_eq!((knights.work.unwrap().value, knights.state.unwrap().value), (50.0, 70.0));
        counts.insert("inputs_only".into(), 100.0);
        let a = attribution(&counts).unwrap();
        assert_eq!(a.inputs, Some(Cost::exact(100.0)));
        let sum: f64 = a.groups.iter().map(|g| g.whole().value).sum();
        assert_eq!(sum + 100.0 + a.unattributed.value, 1000.0);
        counts.remove("without_rooks_state");
        assert!(attribution(&counts).unwrap_err().contains("without_rooks_state"));
    }
}
