//! Intervals over measuring processes, end to end: every measuring process
//! of a run gets its own placement (stack, heap and code at other
//! addresses), the report carries each process's estimate and the variance
//! components, and `compare` and `calibrate` read reports (and refuse bad
//! ones in one line).

use boardbench::suite::report::read_report;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn boardbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardbench")).args(args).output().expect("the binary runs")
}

/// One quick run of kingdefectsbench in `processes` processes into `dir`;
/// the report's path.
fn quick_run(dir: &Path, processes: &str) -> PathBuf {
    let out = boardbench(&[
        "kingdefectsbench",
        "--quick",
        "--no-plots",
        "--processes",
        processes,
        "--out",
        dir.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    dir.join("latest.json")
}

fn aslr_possible() -> bool {
    std::fs::read_to_string("/proc/sys/kernel/randomize_va_space").is_ok_and(|s| s.trim() != "0")
}

#[test]
fn every_process_lands_somewhere_else() {
    let dir = tempfile::tempdir().unwrap();
    let report = read_report(&quick_run(dir.path(), "4")).unwrap();
    let b = &report.benchmarks[0];
    assert_eq!(report.settings.processes, 4);
    assert_eq!(b.processes.len(), 4);
    let p: Vec<_> = b.processes.iter().map(|x| &x.placement).collect();
    for (i, x) in p.iter().enumerate() {
        assert_eq!(b.processes[i].index, i);
        assert_eq!(x.env_pad, x.plan.env_pad, "the padding variable arrived");
        if aslr_possible() {
            assert_eq!(x.aslr, boardbench::measure::aslr::Aslr::On, "process {i}");
        }
        for y in &p[i + 1..] {
            assert_ne!(x.stack_address, y.stack_address, "stack: {x:?} {y:?}");
            assert_ne!(x.heap_address, y.heap_address, "heap: {x:?} {y:?}");
            if aslr_possible() {
                assert_ne!(x.code_address, y.code_address, "code: {x:?} {y:?}");
            }
        }
    }
    // Processes ran one after another, the first with the extra parts.
    assert!(b.processes.windows(2).all(|w| w[0].started_s < w[1].started_s));
    assert_eq!(b.processes.iter().map(|x| x.extras).collect::<Vec<_>>(), [true, false, false, false]);
    // Every ratio carries its per-process estimates and components.
    for bucket in &b.buckets {
        for a in bucket.arms.iter().filter(|a| a.ratio.is_some()) {
            let s = a.ratio_spread.as_ref().unwrap();
            assert_eq!(s.per_process.len(), 4);
            assert_eq!(a.ratio.unwrap().interval, s.interval);
            assert!(s.within_sd > 0.0 && s.between_sd >= 0.0, "{s:?}");
        }
    }
    // A/A and x2 per bucket, and the between-process A/A.
    assert_eq!(b.controls.len(), 9);
    assert_eq!(b.controls.iter().filter(|c| c.across_processes).count(), 3);
}

/// Scale one case's ratio (every process's estimate) in a report.
fn scaled(report: &Value, bucket: usize, arm: usize, factor: f64) -> Value {
    let mut r = report.clone();
    let a = &mut r["benchmarks"][0]["buckets"][bucket]["arms"][arm];
    let scale = |x: &mut Value| *x = (x.as_f64().unwrap() * factor).into();
    for key in ["ratio", "ratio_spread"] {
        let ratio = &mut a[key];
        scale(&mut ratio["estimate"]);
        ratio["interval"].as_array_mut().unwrap().iter_mut().for_each(scale);
    }
    let s = &mut a["ratio_spread"];
    s["mean_log"] = (s["mean_log"].as_f64().unwrap() + factor.ln()).into();
    s["per_process"].as_array_mut().unwrap().iter_mut().for_each(scale);
    r
}

fn write(dir: &Path, name: &str, v: &Value) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_vec(v).unwrap()).unwrap();
    p.to_str().unwrap().to_string()
}

/// Exit code, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = boardbench(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn compare_and_calibrate_read_reports() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let report: Value = serde_json::from_slice(&std::fs::read(quick_run(d, "4")).unwrap()).unwrap();
    let base = write(d, "base.json", &report);
    // A run against itself: nothing differs. (Whether a case reads "same"
    // or "unresolved" depends on the run's spread, which a loaded host
    // widens to ±20%; the unit tests in suite::compare pin that down.)
    let (code, out, err) = run(&["compare", &base, &base]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 of 3 cases differ, "), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains("kingdefectsbench") && l.contains(" +0.00% ")).count(), 3, "{out}");
    // One case three times slower (far beyond any host's spread): that
    // case differs, exit 3.
    let slower = write(d, "slower.json", &scaled(&report, 1, 1, 3.0));
    let (code, out, _) = run(&["compare", &slower, &base]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("1 of 3 cases differ"), "{out}");
    let line = out.lines().find(|l| l.contains("DIFFERS")).unwrap();
    assert!(line.contains("kingdefectsbench middlegame bitboard") && line.contains("+200.00%"), "{line}");
    // Pooled sides: several runs each, or one run against a pool.
    let (code, out, err) = run(&["compare", "--runs", &slower, &slower, "--baselines", &base, &base, &base]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("run (geometric mean of 2 runs) and the baseline (geometric mean of 3 runs)"), "{out}");
    assert!(out.contains("1 of 3 cases differ"), "{out}");
    let (code, out, err) = run(&["compare", &base, "--baselines", &base, &base]);
    assert_eq!(code, 0, "{out}{err}");
    // Bad input: one line, exit 1.
    let garbage = d.join("garbage.json");
    std::fs::write(&garbage, "not json").unwrap();
    let garbage = garbage.to_str().unwrap();
    for (args, want) in [
        (vec!["compare", garbage, &base], "garbage.json: not a run report"),
        (vec!["compare", &base, "/nonexistent/b.json"], "cannot read /nonexistent/b.json"),
        (vec!["compare", &base, &base, "--tolerance", "-1"], "-1 is not a percentage"),
        (vec!["compare", "--runs", &base, &base], "BASELINE"),
        (vec!["compare", &base, "--runs", &base, &base], "cannot be used with"),
    ] {
        let (code, out, err) = run(&args);
        assert!(code == 1 || code == 2, "{args:?}: {code}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(out.is_empty());
    }
    let mut old = report.clone();
    old["schema"] = "boardbench.run/1".into();
    let old = write(d, "old.json", &old);
    let (code, _, err) = run(&["compare", &base, &old]);
    assert_eq!(code, 1);
    assert!(err.contains("old.json: schema boardbench.run/1 is not boardbench.run/2 (written before"), "{err}");
    let mut other = report.clone();
    other["benchmarks"][0]["name"] = "sliderbench".into();
    let other = write(d, "other.json", &other);
    let (code, _, err) = run(&["compare", &base, &other]);
    assert_eq!(code, 1);
    assert!(err.contains("have no case in common"), "{err}");
    // Calibrate from reports: three copies cover each other fully.
    let (code, out, err) = run(&["calibrate", "--from", &base, &base, &base]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("old/new ratios: 18 of 18 ordered case-pairs covered (100.0%)"), "{out}");
    let (code, out, _) = run(&["calibrate", "--from", &base, &base, &slower]);
    assert_eq!(code, 0);
    // The slower case: its copy in `slower` lies outside both others (and
    // they outside its interval).
    let line = out.lines().find(|l| l.contains("middlegame bitboard")).unwrap();
    assert!(line.contains(" 2/6 "), "only the two copies of base hold each other: {line}");
    let (code, _, err) = run(&["calibrate", "--from", &base]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["calibrate", "--from", &base, garbage]);
    assert_eq!(code, 1);
    assert!(err.contains("not a run report") && err.lines().count() == 1, "{err}");
}

/// The quick coverage check CI runs: `calibrate` measures three short runs
/// back to back, and its table's counts are those computed here from the
/// three reports it wrote (another run's estimate inside a run's
/// interval, over ordered pairs); `--from` on the same reports prints the
/// same table. The long campaign (ten default runs on a quiet host) is the
/// same command without `--quick`.
#[test]
fn calibrate_measures_runs_and_counts_their_coverage() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let (code, table, err) = run(&[
        "calibrate",
        "kingdefectsbench",
        "--runs",
        "3",
        "--quick",
        "--no-plots",
        "--processes",
        "3",
        "--out",
        out_dir,
    ]);
    assert_eq!(code, 0, "{err}");
    for i in 1..=3 {
        assert!(err.contains(&format!("calibrate: run {i} of 3 (load ")), "{err}");
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("latest.json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "one report per run: {files:?}");
    let reports: Vec<_> = files.iter().map(|p| read_report(p).unwrap()).collect();
    // Coverage counted here, case by case, from the reports.
    let (mut covered, mut pairs) = (0, 0);
    let first = &reports[0].benchmarks[0];
    for (bi, bucket) in first.buckets.iter().enumerate() {
        for (ai, arm) in bucket.arms.iter().enumerate() {
            if arm.role != boardbench::measure::runner::Role::Candidate {
                continue;
            }
            let ratios: Vec<_> = reports.iter().map(|r| r.benchmarks[0].buckets[bi].arms[ai].ratio.unwrap()).collect();
            let mut here = 0;
            for (i, ri) in ratios.iter().enumerate() {
                for (j, rj) in ratios.iter().enumerate() {
                    if i != j {
                        pairs += 1;
                        let inside = ri.interval[0] <= rj.estimate && rj.estimate <= ri.interval[1];
                        here += usize::from(inside);
                    }
                }
            }
            covered += here;
            let line = table
                .lines()
                .find(|l| l.contains(&format!("kingdefectsbench {} {} ", bucket.bucket, arm.arm)))
                .unwrap_or_else(|| panic!("no line for {} {}: {table}", bucket.bucket, arm.arm));
            assert!(line.contains(&format!(" {here}/6 ")), "{line}");
            // Both variance components, as percentages.
            assert_eq!(line.matches('%').count(), 6, "{line}");
        }
    }
    assert_eq!(pairs, 18, "three cases, six ordered pairs each");
    let total = format!("old/new ratios: {covered} of 18 ordered case-pairs covered ({:.1}%)", covered as f64 / 0.18);
    assert!(table.contains(&total), "{total}\n{table}");
    // The same reports read back give the same table.
    let mut args = vec!["calibrate", "--from"];
    args.extend(files.iter().map(|p| p.to_str().unwrap()));
    let (code, again, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, table);
}

/// The run-to-run component: a run folds the machine's file into its
/// old/new intervals (and says so), `--no-run-level` leaves it out, a bad
/// file is named in one line, and `calibrate --save` writes a file runs
/// accept.
#[test]
fn a_run_level_file_widens_the_old_new_intervals() {
    use boardbench::suite::run_level::{this_machine, RunLevel, SCHEMA};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = d.join("run-level.json");
    let profile = RunLevel {
        schema: SCHEMA.into(),
        machine: this_machine(),
        date: "2026-12-03T12:00:00Z".into(),
        git_commit: None,
        runs: 10,
        cases: [("kingdefectsbench opening bitboard".to_string(), 0.05)].into_iter().collect(),
    };
    profile.save(&file).unwrap();
    let quick = |extra: &[&str]| {
        let mut args = vec!["kingdefectsbench", "--quick", "--no-plots", "--processes", "3", "--out"];
        args.push(d.to_str().unwrap());
        args.extend_from_slice(extra);
        run(&args)
    };
    let (code, _, err) = quick(&["--run-level", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let report = read_report(&d.join("latest.json")).unwrap();
    let note = report.settings.run_level.clone().unwrap();
    assert!(note.contains("folded into the old/new intervals") && note.contains("10 back-to-back runs"), "{note}");
    for bucket in &report.benchmarks[0].buckets {
        let a = bucket.arms.iter().find(|a| a.arm == "bitboard").unwrap();
        let s = a.ratio_spread.as_ref().unwrap();
        let half = (s.interval[1].ln() - s.interval[0].ln()) / 2.0;
        if bucket.bucket == "opening" {
            assert_eq!(s.run_sd, 0.05);
            // t(2 df) 4.30 times a standard error of at least 0.05.
            assert!(half >= 4.3 * 0.05, "{s:?}");
        } else {
            assert_eq!(s.run_sd, 0.0, "{}: no component in the file", bucket.bucket);
        }
        assert_eq!(a.ratio.unwrap().interval, s.interval);
    }
    let (code, _, err) = quick(&["--no-run-level"]);
    assert_eq!(code, 0, "{err}");
    let plain = read_report(&d.join("latest.json")).unwrap();
    assert!(plain.settings.run_level.unwrap().contains("--no-run-level"));
    assert!(plain.benchmarks[0]
        .buckets
        .iter()
        .flat_map(|b| &b.arms)
        .all(|a| a.ratio_spread.as_ref().is_none_or(|s| s.run_sd == 0.0)));
    // A bad file stops the run before it measures, in one line.
    std::fs::write(&file, "{\"schema\": 1}").unwrap();
    let (code, _, err) = quick(&["--run-level", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("run-level.json: not a run-level file"), "{err}");
    // calibrate --save from five reports writes a file a run accepts.
    let one =
        write(d, "one.json", &serde_json::from_slice::<Value>(&std::fs::read(d.join("latest.json")).unwrap()).unwrap());
    let saved = d.join("saved.json");
    let mut args = vec!["calibrate", "--save", "--run-level", saved.to_str().unwrap(), "--from"];
    args.extend([one.as_str(); 5]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("run-to-run component per old/new case") && out.contains("saved to"), "{out}");
    let back = RunLevel::read(&saved).unwrap();
    assert_eq!(back.runs, 5);
    assert_eq!(back.cases.len(), 3);
    assert!(back.cases.values().all(|&sd| sd == 0.0), "identical runs: {back:?}");
    let (code, _, err) = run(&["calibrate", "--save", "--from", &one, &one]);
    assert_eq!(code, 1);
    assert!(err.contains("at least 5 runs"), "{err}");
}
