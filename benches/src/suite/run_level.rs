//! The run-to-run component of this machine's intervals.
//!
//! A run's interval comes from the spread of its measuring processes
//! ([`crate::measure::random_effects`]): placement and the host's state
//! while the run lasts. On a shared host the state also moves over
//! minutes, longer than a run: ten back-to-back runs of getattacksbench on
//! a quiet 2-vCPU guest moved every old/new ratio together by 1-3% from one
//! run to the next, while the processes inside each run agreed. No run can
//! see that from its own processes, so its interval covered the next run's
//! estimate in two pairs of three, not the five of six a 95% interval
//! promises (ARCHITECTURE.md, "Between runs").
//!
//! `boardbench calibrate --save` measures that component per case from
//! its back-to-back runs (method of moments: the variance of the runs'
//! estimates beyond what their processes' spread predicts) and writes it,
//! with the machine it was measured on, to this machine's file under
//! `results/run-level/` (one file per machine kind, so a project measured
//! on more than one kind of host keeps each calibration). Every later run
//! on a machine like it folds the component into its old/new intervals
//! ([`crate::measure::random_effects::Combined::with_run_level`]), says so
//! in its report, and `boardbench compare` then judges differences with it
//! too. A run on a machine with no file, or with `--no-run-level`, reports
//! intervals over its own processes only and says that as well.

use crate::measure::runner::Role;
use crate::measure::sysinfo;
use crate::output::{read_back, write_atomic};
use crate::suite::report::{case_name, RunReport};
use crate::workspace;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Schema of the file.
pub const SCHEMA: &str = "boardbench.run-level/1";

/// What a report's `settings.run_level` says when the component was
/// applied (and only then).
pub const FOLDED: &str = "folded into the old/new intervals";

/// Fewest runs a component is estimated from.
pub const MIN_RUNS: usize = 5;

/// The run-to-run component of one machine, per case.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunLevel {
    pub schema: String,
    /// The machine it was measured on ([`this_machine`]).
    pub machine: String,
    /// When (UTC) and at which commit.
    pub date: String,
    pub git_commit: Option<String>,
    /// Back-to-back runs it was estimated from.
    pub runs: usize,
    /// Per case ("benchmark bucket arm"), the run-to-run standard
    /// deviation of the log ratio.
    pub cases: BTreeMap<String, f64>,
}

/// The machine, as a run-level file names it: CPU model and logical CPUs.
pub fn this_machine() -> String {
    format!("{}, {} logical CPUs", sysinfo::cpu_model().unwrap_or_else(|| "unknown CPU".into()), sysinfo::cpu_count())
}

/// The folder of the committed calibrations, one file per machine kind.
pub fn default_dir() -> PathBuf {
    workspace::root().join("results").join("run-level")
}

/// Where `calibrate --save` writes and runs look by default: this
/// machine's file in [`default_dir`].
pub fn default_path() -> PathBuf {
    this_machines_file_in(&default_dir())
}

/// This machine's calibration file in `dir`.
fn this_machines_file_in(dir: &Path) -> PathBuf {
    dir.join(file_name_for(&this_machine()))
}

/// The file name of `machine`'s calibration: its description in lower
/// case, each run of other characters one dash ("AMD EPYC, 2 logical
/// CPUs" is `amd-epyc-2-logical-cpus.json`).
pub fn file_name_for(machine: &str) -> String {
    let mut name = String::new();
    for c in machine.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-');
    format!("{}.json", if name.is_empty() { "unknown-machine" } else { name })
}

/// The component per case from back-to-back `reports` (at least
/// [`MIN_RUNS`]): the variance of the runs' log estimates less the mean
/// variance their own processes predict for them (sd²/K), at least 0. A
/// case some run lacks is left out.
pub fn estimate(reports: &[RunReport]) -> Result<RunLevel, String> {
    if reports.len() < MIN_RUNS {
        return Err(format!(
            "the run-to-run component needs at least {MIN_RUNS} runs ({} given): use --runs {MIN_RUNS} or more",
            reports.len()
        ));
    }
    let mut per_case: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in reports {
        for (case, c) in r.old_new_arms().filter_map(|(case, a)| a.ratio_spread.as_ref().map(|s| (case, s))) {
            if c.mean_log.is_finite() && c.sd_log.is_finite() {
                per_case.entry(case).or_default().push((c.mean_log, c.sd_log * c.sd_log / c.processes() as f64));
            }
        }
    }
    let n = reports.len();
    let cases = per_case
        .into_iter()
        .filter(|(_, v)| v.len() == n)
        .map(|(case, v)| (case, component(&v)))
        .collect::<BTreeMap<_, _>>();
    if cases.is_empty() {
        return Err("the runs have no old/new case in common with a spread over processes".into());
    }
    let first = &reports[0].metadata;
    Ok(RunLevel {
        schema: SCHEMA.into(),
        machine: this_machine(),
        date: first.date.clone(),
        git_commit: first.git_commit.clone(),
        runs: n,
        cases,
    })
}

/// The run-to-run sd from each run's (mean log, its squared standard error
/// over processes).
fn component(runs: &[(f64, f64)]) -> f64 {
    let n = runs.len() as f64;
    let mean = runs.iter().map(|r| r.0).sum::<f64>() / n;
    let across = runs.iter().map(|r| (r.0 - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let predicted = runs.iter().map(|r| r.1).sum::<f64>() / n;
    (across - predicted).max(0.0).sqrt()
}

impl RunLevel {
    /// Write atomically to `path`, creating its folder if need be.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
    }

    /// Read `path`; errors name the file and what is wrong with it.
    pub fn read(path: &Path) -> Result<RunLevel, String> {
        let text = read_back(path).map_err(|e| format!("run-level file {}: {e}", path.display()))?;
        let r: RunLevel = serde_json::from_slice(&text).map_err(|e| {
            format!(
                "run-level file {}: not a run-level file ({})",
                path.display(),
                crate::output::one_line(&e.to_string())
            )
        })?;
        if r.schema != SCHEMA {
            return Err(format!("run-level file {}: schema {:?}, expected {SCHEMA:?}", path.display(), r.schema));
        }
        if let Some((case, sd)) = r.cases.iter().find(|(_, sd)| !(sd.is_finite() && **sd >= 0.0 && **sd < 1.0)) {
            return Err(format!("run-level file {}: case {case}: {sd} is not a spread from 0 to 1", path.display()));
        }
        Ok(r)
    }

    /// A line for reports and the terminal.
    pub fn describe(&self, path: &Path) -> String {
        format!(
            "run-to-run component from {} ({} back-to-back runs, {}, commit {}) {FOLDED}",
            path.display(),
            self.runs,
            self.date,
            self.git_commit.as_deref().map_or("unknown", |c| &c[..c.len().min(10)])
        )
    }

    /// Fold the component into every old/new case of `report` it has;
    /// the number of cases changed.
    pub fn apply(&self, report: &mut RunReport) -> usize {
        let mut applied = 0;
        for b in &mut report.benchmarks {
            for bucket in &mut b.buckets {
                for a in bucket.arms.iter_mut().filter(|a| a.role == Role::Candidate) {
                    let key = case_name(&b.name, &bucket.bucket, &a.arm);
                    let (Some(&sd), Some(spread), Some(ratio)) =
                        (self.cases.get(&key), a.ratio_spread.as_mut(), a.ratio.as_mut())
                    else {
                        continue;
                    };
                    *spread = spread.clone().with_run_level(sd);
                    ratio.interval = spread.interval;
                    applied += 1;
                }
            }
        }
        applied
    }
}

/// What a run does about the run-to-run component, as its report says.
pub fn resolve(explicit: Option<&Path>, disabled: bool) -> Result<(Option<RunLevel>, String), String> {
    resolve_in(&default_dir(), explicit, disabled)
}

/// [`resolve`] with the calibrations in `dir`.
fn resolve_in(dir: &Path, explicit: Option<&Path>, disabled: bool) -> Result<(Option<RunLevel>, String), String> {
    if disabled {
        return Ok((None, "no run-to-run component (--no-run-level): intervals over this run's processes".into()));
    }
    let path = explicit.map_or_else(|| this_machines_file_in(dir), Path::to_path_buf);
    if explicit.is_none() && !path.exists() {
        return Ok((
            None,
            format!(
                "no run-to-run component for this machine ({} is missing; calibrated: {}): intervals over this \
                 run's processes; `boardbench calibrate NAMES --save` measures it here",
                path.display(),
                calibrated_machines(dir)
            ),
        ));
    }
    let profile = RunLevel::read(&path)?;
    let here = this_machine();
    if profile.machine != here {
        if explicit.is_some() {
            return Err(format!(
                "run-level file {} was measured on {}, not on this machine ({here})",
                path.display(),
                profile.machine
            ));
        }
        return Ok((
            None,
            format!(
                "no run-to-run component ({} is for {}, this is {here}): intervals over this run's processes; \
                 `boardbench calibrate NAMES --save` measures it here",
                path.display(),
                profile.machine
            ),
        ));
    }
    let line = profile.describe(&path);
    Ok((Some(profile), line))
}

/// The file names in `dir` that may be calibrations, for a message.
fn calibrated_machines(dir: &Path) -> String {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).filter(|n| n.ends_with(".json")).collect()
        })
        .unwrap_or_default();
    names.sort();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::random_effects::{combine, Combined, ProcessEstimate};

    /// Deterministic normal draws (Box-Muller on SplitMix64).
    fn normals(seed: u64, n: usize) -> Vec<f64> {
        let mut rng = engine::rng::Rng::new(seed);
        let mut u = || (rng.below(1 << 30) as f64 + 0.5) / (1u64 << 30) as f64;
        (0..n).map(|_| (-2.0 * u().ln()).sqrt() * (2.0 * std::f64::consts::PI * u()).cos()).collect()
    }

    #[test]
    fn the_component_is_found_on_runs_with_a_known_one_and_is_zero_without() {
        // 400 runs of 8 processes; process spread 2%, run spread 1.5%.
        let (runs, k, within, run_sd) = (400, 8, 0.02, 0.015);
        let z = normals(11, runs * (k + 1));
        let estimates: Vec<(f64, f64)> = (0..runs)
            .map(|r| {
                let shift = run_sd * z[r * (k + 1)];
                let logs: Vec<f64> = (0..k).map(|p| shift + within * z[r * (k + 1) + 1 + p]).collect();
                let c = combine(
                    &logs
                        .iter()
                        .map(|l| ProcessEstimate { estimate: l.exp(), interval: [l.exp(), l.exp()] })
                        .collect::<Vec<_>>(),
                    0.95,
                );
                (c.mean_log, c.sd_log * c.sd_log / k as f64)
            })
            .collect();
        let got = component(&estimates);
        assert!((got - run_sd).abs() < 0.2 * run_sd, "{got}");
        let without: Vec<(f64, f64)> = estimates.iter().map(|&(m, v)| (m - 0.0, v + run_sd * run_sd * 10.0)).collect();
        assert_eq!(component(&without), 0.0);
    }

    #[test]
    fn the_interval_widens_by_the_component_in_quadrature() {
        let c = combine(&[0.98, 1.0, 1.02, 1.01].map(|e| ProcessEstimate { estimate: e, interval: [e, e] }), 0.95);
        let w = c.clone().with_run_level(0.02);
        assert_eq!(w.estimate, c.estimate);
        let se = ((c.sd_log * c.sd_log) / 4.0 + 0.0004).sqrt();
        assert!((w.se_log() - se).abs() < 1e-12);
        let half = |x: &Combined| (x.interval[1].ln() - x.interval[0].ln()) / 2.0;
        assert!((half(&w) / half(&c) - se / c.se_log()).abs() < 1e-9);
        assert_eq!(c.clone().with_run_level(0.0).interval, c.interval);
        assert_eq!(c.clone().with_run_level(f64::NAN).interval, c.interval);
    }

    #[test]
    fn each_machine_has_its_own_file() {
        assert_eq!(file_name_for("AMD EPYC, 2 logical CPUs"), "amd-epyc-2-logical-cpus.json");
        assert_eq!(
            file_name_for("Intel(R) Xeon(R) Processor, 2 logical CPUs"),
            "intel-r-xeon-r-processor-2-logical-cpus.json"
        );
        assert_eq!(file_name_for("(?)"), "unknown-machine.json");
        let dir = tempfile::tempdir().unwrap();
        let other = RunLevel {
            schema: SCHEMA.into(),
            machine: "Another CPU, 64 logical CPUs".into(),
            date: "2026-12-03T12:00:00Z".into(),
            git_commit: None,
            runs: 10,
            cases: BTreeMap::from([("getattacksbench opening bitboard-magic".to_string(), 0.01)]),
        };
        other.save(&dir.path().join(file_name_for(&other.machine))).unwrap();
        // Another machine's calibration is not this one's, and is named.
        let (none, note) = resolve_in(dir.path(), None, false).unwrap();
        assert!(none.is_none());
        assert!(note.contains("another-cpu-64-logical-cpus.json") && note.contains("for this machine"), "{note}");
        // This machine's, beside it, is the one a run takes.
        let here = RunLevel { machine: this_machine(), ..other.clone() };
        here.save(&dir.path().join(file_name_for(&here.machine))).unwrap();
        let (found, note) = resolve_in(dir.path(), None, false).unwrap();
        assert_eq!(found, Some(here), "{note}");
        assert!(note.contains(FOLDED));
    }

    #[test]
    fn bad_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run-level.json");
        std::fs::write(&path, "{ not json").unwrap();
        assert!(RunLevel::read(&path).unwrap_err().contains("not a run-level file"));
        let mut good = RunLevel {
            schema: SCHEMA.into(),
            machine: this_machine(),
            date: "2026-12-03T12:00:00Z".into(),
            git_commit: None,
            runs: 10,
            cases: BTreeMap::from([("getattacksbench opening bitboard-magic".to_string(), 0.01)]),
        };
        good.save(&path).unwrap();
        assert_eq!(RunLevel::read(&path).unwrap(), good);
        assert!(resolve(Some(&path), false).unwrap().0.is_some());
        good.cases.insert("x y z".into(), -1.0);
        good.save(&path).unwrap();
        assert!(RunLevel::read(&path).unwrap_err().contains("case x y z"));
        good.cases.remove("x y z");
        good.machine = "another machine".into();
        good.save(&path).unwrap();
        assert!(resolve(Some(&path), false).unwrap_err().contains("not on this machine"));
        assert!(resolve(Some(&path), true).unwrap().0.is_none());
        assert!(RunLevel::read(&dir.path().join("missing.json")).unwrap_err().contains("missing.json"));
    }
}
