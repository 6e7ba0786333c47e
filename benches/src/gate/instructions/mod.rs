//! The instruction check, deterministic. gungraun (callgrind) counts the
//! instructions of one pass of every case over 32 positions per bucket,
//! collected only inside [`crate::measure::case::counted_pass`]: on the
//! base saved as a named baseline (`gate_<commit>`; cached), then on the
//! candidate compared with it (`--callgrind-limits=ir=1%`, exit 3 on
//! regression). A baseline file missing for any case is an error, never a
//! pass (gungraun's `--baseline=NAME` would silently create it). The gate
//! reads the counts from gungraun's files itself and checks that its
//! reading agrees with gungraun's exit status.

pub mod cases;
pub mod counts;

use crate::engines::process;
use crate::gate::builds::{feature_args, BuildInfo};
use crate::gate::instructions::cases::{CALLGRIND_PER_BUCKET, ENV_CASES, ENV_POSITIONS};
use crate::gate::instructions::counts::{callgrind_total, judge_counts, CountOutcome};
use crate::gate::verdict::Verdict;
use crate::measure::case::CaseId;
use crate::measure::sysinfo;
use crate::output::write_atomic;
use crate::suite::cases::{cases_text, parse_cases};
use crate::workspace::{self, one_line};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Find the callgrind output of gungraun case `index` under `home`:
/// `(current run, saved baseline)` files.
fn callgrind_files(home: &Path, index: usize, baseline: &str) -> (Option<PathBuf>, Option<PathBuf>) {
    let mut cur = None;
    let mut base = None;
    let want_dir = format!("gate.case_{index}");
    let mut stack = vec![home.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if d.file_name().is_none_or(|n| n.to_string_lossy() != want_dir) {
                continue;
            }
            let name = e.file_name().to_string_lossy().to_string();
            if !name.starts_with("callgrind.") || name.contains(".log") || name.contains("flamegraph") {
                continue;
            }
            if name.ends_with(&format!(".out.base@{baseline}")) {
                base = Some(p);
            } else if name.ends_with(".out") {
                cur = Some(p);
            }
        }
    }
    (cur, base)
}

/// Where the instruction check works: the candidate's sources, gungraun's
/// home (baselines and outputs), the positions and case list files.
pub(crate) struct CallgrindSetup<'a> {
    pub root: &'a Path,
    pub home: PathBuf,
    pub positions: PathBuf,
    pub cases_file: PathBuf,
}

/// `cargo bench` of the `gate_callgrind` target in `src` for build `b`;
/// gungraun's exit status (0, or 3 for a regression).
fn run_gungraun(src: &Path, b: &BuildInfo, set: &CallgrindSetup, extra: &[String]) -> Result<i32, String> {
    let mut args: Vec<String> =
        ["bench", "--profile", "release", "-p", "boardbench", "--bench", "gate_callgrind"].map(String::from).into();
    args.extend(feature_args(&b.features));
    args.push("--".into());
    args.extend(extra.iter().cloned());
    let out = crate::output::children::output(
        workspace::cargo(src)
            .args(&args)
            .env("CARGO_TARGET_DIR", &b.target_dir)
            .env("GUNGRAUN_HOME", &set.home)
            .env("GUNGRAUN_COLOR", "never")
            .env("BOARDBENCH_REQUIRE_CALLGRIND", "1")
            .env(ENV_POSITIONS, &set.positions)
            .env(ENV_CASES, &set.cases_file)
            .envs(b.env.iter().map(|(k, v)| (k, v))),
    )
    .map_err(|e| format!("cannot run cargo: {e}"))?;
    let code = out.status.code().unwrap_or(-1);
    if code != 0 && code != 3 {
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        // The first error that is not cargo's own wrapper of the failure.
        let why = stderr
            .lines()
            .chain(stdout.lines())
            .find(|l| l.to_ascii_lowercase().contains("error") && !l.starts_with("error: bench failed"))
            .map(|l| l.trim().to_string())
            .unwrap_or_else(|| process::last_lines(&stdout, &stderr, 3));
        return Err(format!("gungraun on the {} failed (status {code}): {why}", b.role));
    }
    Ok(code)
}

/// The instruction-count check.
pub(crate) fn counts(
    base: &BuildInfo,
    base_bin: &Path,
    cand: &BuildInfo,
    cand_bin: &Path,
    setup: &CallgrindSetup,
    limit: f64,
    benches: &[String],
) -> Result<CountOutcome, String> {
    let list = |bin: &Path| -> Result<Vec<CaseId>, String> {
        let out = crate::output::children::output(
            Command::new(bin).args(["gate-cases", "--positions"]).arg(&setup.positions),
        )
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
        if !out.status.success() {
            return Err(format!("{} gate-cases: {}", bin.display(), one_line(&String::from_utf8_lossy(&out.stderr))));
        }
        parse_cases(&String::from_utf8_lossy(&out.stdout))
    };
    let keep = |v: Vec<CaseId>| -> Vec<CaseId> {
        v.into_iter().filter(|c| benches.is_empty() || benches.contains(&c.bench)).collect()
    };
    let base_cases = keep(list(base_bin)?);
    let cand_cases = keep(list(cand_bin)?);
    if base_cases.is_empty() {
        return Err("the base build has no cases to count".into());
    }
    write_atomic(&setup.cases_file, cases_text(&base_cases).as_bytes()).map_err(|e| e.to_string())?;
    let commit = base.commit.as_deref().unwrap_or("worktree");
    // gungraun baseline names are ASCII alphanumerics and '_' only.
    let name = format!("gate_{}", &commit[..commit.len().min(12)]);
    // The baseline is cached per base commit, toolchain and case list.
    let stamp_path = setup.home.join(format!("{name}.complete"));
    let stamp = format!("{commit}\n{}\n{}", sysinfo::rustc_version(), cases_text(&base_cases));
    let cached = std::fs::read_to_string(&stamp_path).is_ok_and(|s| s == stamp)
        && (0..base_cases.len()).all(|i| callgrind_files(&setup.home, i, &name).1.is_some());
    if cached {
        eprintln!("boardbench gate: instruction counts of the base: cached gungraun baseline {name}");
    } else {
        let _ = std::fs::remove_file(&stamp_path);
        eprintln!(
            "boardbench gate: counting instructions of the base ({} cases, saved as baseline {name})",
            base_cases.len()
        );
        run_gungraun(&base.source, base, setup, &[format!("--save-baseline={name}")])?;
    }
    // Refuse to pass without a baseline for every case.
    let mut base_ir = Vec::new();
    for (i, c) in base_cases.iter().enumerate() {
        let (_, f) = callgrind_files(&setup.home, i, &name);
        let f = f.ok_or_else(|| {
            format!(
                "refusing to judge: gungraun baseline {name} has no file for case {i} ({c}) under {}",
                setup.home.display()
            )
        })?;
        let text = std::fs::read_to_string(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        base_ir.push(callgrind_total(&text).map_err(|e| format!("{}: {e}", f.display()))?);
    }
    if !cached {
        write_atomic(&stamp_path, stamp.as_bytes()).map_err(|e| e.to_string())?;
    }
    // No stale output of an earlier candidate run may stand in for this one.
    for i in 0..base_cases.len() {
        if let (Some(f), _) = callgrind_files(&setup.home, i, &name) {
            std::fs::remove_file(&f).map_err(|e| format!("cannot remove {}: {e}", f.display()))?;
        }
    }
    eprintln!("boardbench gate: counting instructions of the candidate against baseline {name}");
    let pct = format!("{limit}");
    let status = run_gungraun(
        setup.root,
        cand,
        setup,
        &[format!("--baseline={name}"), format!("--callgrind-limits=ir={pct}%")],
    )?;
    let mut cand_ir = Vec::new();
    for (i, c) in base_cases.iter().enumerate() {
        if !cand_cases.contains(c) {
            cand_ir.push(None);
            continue;
        }
        let (f, _) = callgrind_files(&setup.home, i, &name);
        let f = f.ok_or_else(|| format!("gungraun left no output for case {i} ({c})"))?;
        let text = std::fs::read_to_string(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        cand_ir.push(Some(callgrind_total(&text).map_err(|e| format!("{}: {e}", f.display()))?));
    }
    let cases = judge_counts(&base_cases, &base_ir, &cand_ir, limit / 100.0);
    let regressions = cases.iter().filter(|c| c.verdict == Verdict::Regression).count();
    if (regressions > 0) != (status == 3) {
        return Err(format!(
            "gungraun (status {status}) and the gate's own reading of its files ({regressions} regression(s)) disagree"
        ));
    }
    // (Cases only the base has are in `cases`, as CannotJudge.)
    let new_cases: Vec<String> = cand_cases
        .iter()
        .filter(|c| !base_cases.contains(c))
        .map(|c| format!("new case {c}: only the candidate has it (not judged)"))
        .collect();
    Ok(CountOutcome {
        baseline: name,
        limit: limit / 100.0,
        calls_per_pass: CALLGRIND_PER_BUCKET,
        cases,
        new_cases,
        regressions,
        gungraun_status: status,
    })
}

/// The gungraun library version the runner must match (benches/Cargo.toml).
pub const GUNGRAUN_VERSION: &str = "0.20.0";

/// valgrind and gungraun-runner at the library's version, or why not.
pub(crate) fn callgrind_preflight() -> Result<(), String> {
    let how = "scripts/install-gungraun.sh installs them; or pass --no-callgrind";
    let runner = std::env::var("GUNGRAUN_RUNNER").unwrap_or_else(|_| "gungraun-runner".into());
    match Command::new(&runner).arg("--version").output() {
        Err(e) => return Err(format!("the instruction-count check needs {runner} {GUNGRAUN_VERSION} ({e}); {how}")),
        Ok(o) => {
            let v = String::from_utf8_lossy(&o.stdout);
            if !v.split_whitespace().any(|w| w == GUNGRAUN_VERSION) {
                return Err(format!("{runner} is {:?}, the library is {GUNGRAUN_VERSION}; {how}", v.trim()));
            }
        }
    }
    if let Err(e) = Command::new("valgrind").arg("--version").output() {
        return Err(format!("the instruction-count check needs valgrind ({e}); {how}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gungraun_version_matches_the_pinned_library() {
        let manifest = include_str!("../../../Cargo.toml");
        assert!(manifest.contains(&format!("gungraun = {{ version = \"={GUNGRAUN_VERSION}\" }}")));
    }
}
