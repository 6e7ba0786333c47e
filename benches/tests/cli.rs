//! The `boardbench` binary end to end: every bad input ends in one line on
//! stderr and a non-zero exit (never a panic), and `--quick` runs the whole
//! suite and leaves a readable JSON report and the plots (the CI smoke run).

use boardbench::suite::report::{read_report, RowKind};
use std::path::Path;
use std::process::{Command, Output};

fn boardbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardbench")).args(args).output().expect("the binary runs")
}

/// Non-zero exit, stderr of exactly one line containing `want`, no panic.
fn fails_with(args: &[&str], want: &str) {
    let out = boardbench(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with("boardbench: warning")).collect();
    assert_eq!(lines.len(), 1, "{args:?}: {err}");
    assert!(lines[0].contains(want), "{args:?}: {err}");
}

/// An error inside a benchmark, after the run has announced it: non-zero
/// exit, no panic, and the error is one line, the last.
fn fails_last_line(args: &[&str], want: &str) {
    let out = boardbench(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(err.lines().last().is_some_and(|l| l.starts_with(want)), "{args:?}: {err}");
}

#[test]
fn bad_inputs_get_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    fails_with(
        &["run", "nosuchbench", "--out", out],
        "unknown benchmark \"nosuchbench\" (known: sliderbench, movegenbench",
    );
    fails_with(&["nosuchcommand"], "unrecognized subcommand");
    fails_with(&["sliderbench", "--rounds", "many"], "invalid value 'many'");
    fails_with(&["sliderbench", "--rounds", "1"], "invalid value '1'");
    fails_with(&["gate", "--per-bucket", "0"], "invalid value '0' for '--per-bucket <N>': 0 is not in 1..");
    fails_with(&["gate", "--budget", "0", "--no-callgrind"], "--budget 0: must be a number above 0 and at most 3600");
    fails_with(&["sliderbench", "--core", "100000", "--out", out], "--core 100000: no such core");
    fails_with(&["sliderbench", "--min-sample-us=-3", "--out", out], "-3 is not a sample length");
    fails_with(
        &["sliderbench", "--min-sample-us", "1e9", "--out", out],
        "is not a sample length from above 0 to 100000",
    );
    fails_with(&["sliderbench", "--core", "-1", "--out", out], "invalid value '-1' for '--core <N>'");
    fails_with(&["sliderbench", "--rounds", "5", "--precision", "2", "--out", out], "cannot be used with");
    fails_with(&["sliderbench", "--exclusive", "--no-realtime", "--out", out], "cannot be used with '--no-realtime'");
    fails_with(&[], "no subcommand given");
    fails_with(&["run", "--out", out], "required arguments were not provided: <NAMES>");
    let derived = dir.path().join("derived.epd");
    fails_with(&["derive-positions", "--per-count", "0", "--out", derived.to_str().unwrap()], "0 is not in 1..=10000");
    // An argument that is not UTF-8 is kept in the report, not a panic.
    {
        use std::os::unix::ffi::OsStrExt;
        let odd = std::ffi::OsStr::from_bytes(b"/dev/null/out_\xff");
        let run = Command::new(env!("CARGO_BIN_EXE_boardbench"))
            .args(["kingdefectsbench", "--quick", "--no-plots", "--out"])
            .arg(odd)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success() && !err.contains("panicked"), "{err}");
        assert!(err.contains("output directory"), "{err}");
    }
    fails_with(&["sliderbench", "--precision", "tight", "--out", out], "not a number: \"tight\"");
    fails_with(&["sliderbench", "--precision", "50", "--out", out], "50 is not a percentage from 0 (off) to below 50");

    let missing = dir.path().join("missing.epd");
    fails_with(&["sliderbench", "--positions", missing.to_str().unwrap(), "--out", out], "cannot read positions file");

    let openings = dir.path().join("openings.epd");
    std::fs::write(&openings, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n").unwrap();
    fails_with(
        &["movegenbench", "--positions", openings.to_str().unwrap(), "--out", out],
        "no positions with 13-25 men",
    );

    let bad = dir.path().join("bad.epd");
    std::fs::write(&bad, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq -\n").unwrap();
    fails_with(&["movegenbench", "--positions", bad.to_str().unwrap(), "--out", out], "bad.epd:1");

    // A filtered benchmark whose filter empties every bucket (an empty
    // bucket alone is left out of the report).
    let no_queen = dir.path().join("no-queen.epd");
    std::fs::write(
        &no_queen,
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq -\n\
         r1b2rk1/pp3ppp/2n5/8/8/2N5/PP3PPP/R1B2RK1 w - -\n\
         8/5pk1/6p1/8/3R4/6P1/5PK1/8 b - -\n",
    )
    .unwrap();
    fails_last_line(
        &["run", "mobilitybench-queen", "--positions", no_queen.to_str().unwrap(), "--out", out],
        "boardbench: mobilitybench-queen: no position with a queen in any density bucket",
    );

    // The eval-time build cannot happen: one line saying why, before measuring.
    let cmd = Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .args(["evalcycles", "--quick", "--out", out])
        .env("CARGO", dir.path().join("no-such-cargo"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&cmd.stderr);
    assert!(!cmd.status.success());
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.contains("evalcycles: the engine with --features eval-time: cannot run") && last.contains("no-such-cargo"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let below = file.join("out");
    fails_with(&["sliderbench", "--out", below.to_str().unwrap()], "output directory: cannot write");
}

#[test]
fn quick_run_writes_json_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let out = boardbench(&["all", "--quick", "--out", dir.path().to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("new/old [95% interval]"), "{stdout}");
    let report = read_report(&dir.path().join("latest.json")).unwrap();
    let names: Vec<&str> = report.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, boardbench::suite::benchmarks::names());
    assert!(
        names.contains(&"evalcycles") && names.contains(&"mobilitybench-queen") && names.contains(&"getattacksbench")
    );
    assert!(report.metadata.command_line.iter().any(|a| a == "--quick"));
    for b in &report.benchmarks {
        assert_eq!(b.buckets.len(), 3);
        if b.name.starts_with("mobilitybench") {
            // Rungs without a piece of the type are left out; most remain.
            assert!(b.ladder.len() >= 20, "{}: {} rungs", b.name, b.ladder.len());
        } else {
            assert_eq!(b.ladder.len(), 30, "every count 3..32");
        }
        assert_eq!(b.correlations.len(), b.arms.len() - 2);
        assert_eq!(b.controls.len(), 9, "A/A and x2 per bucket, and A/A across processes");
        for c in &b.controls {
            let [lo, hi] = c.ratio.interval;
            assert!(lo > 0.0 && lo <= c.ratio.estimate && c.ratio.estimate <= hi, "{} {c:?}", b.name);
            // The A/A across processes compares the baseline's absolute
            // floors in the odd- and the even-numbered processes, two a side
            // in a --quick run, minutes apart: on a 2-core CI runner, with
            // this file's other tests running beside the first processes, it
            // read 0.62 [0.58, 0.68] once. It judges the host, not the code;
            // its logic has its own unit test (suite::combine).
            if c.across_processes {
                continue;
            }
            // A sanity bound only, wide enough for a loaded 2-core machine
            // (±15% failed once at load 4): a broken control is off by far
            // more (x2 read as 1 is -50%), with an interval that excludes
            // what it should read. The strict bounds are judged (and
            // printed) by every run and by known_difference.rs.
            let within = (c.ratio.estimate / c.expected - 1.0).abs() < 0.30;
            assert!(within || (lo <= c.expected && c.expected <= hi), "{} {c:?}", b.name);
        }
        // evalcycles: per bucket the attribution's stacked bars, and the
        // groups against men.
        let terms = if b.name == "evalcycles" { 8 } else { 0 };
        assert_eq!(b.plots.len(), 4 + terms, "{}: {:?}", b.name, b.plots);
        for p in &b.plots {
            assert!(Path::new(p).is_relative(), "{p}");
            let meta = std::fs::metadata(dir.path().join(p)).unwrap();
            assert!(meta.len() > 1000, "{p}");
        }
        assert!(b.plots.iter().any(|p| Path::new(p).extension().is_some_and(|e| e == "png")));
    }
    // The attribution: every bucket × implementation, every group a row,
    // the ablation's rows and remainder adding up to its full floor, the
    // counters' rows never below zero.
    let eval = report.benchmarks.iter().find(|b| b.name == "evalcycles").unwrap();
    let a = eval.attribution.as_ref().expect("an attribution");
    let has_valgrind = Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success());
    assert_eq!(a.tables.len(), 9);
    for t in &a.tables {
        for g in engine::eval::groups::Group::ALL {
            let row = t.rows.iter().find(|r| r.row == g.name()).unwrap_or_else(|| panic!("{g} in {t:?}"));
            assert!(row.ablation.is_some() && row.counter.is_some(), "{t:?}");
        }
        let full = t.whole.ablation_floor.unwrap();
        let sum: f64 = t.rows.iter().filter_map(|r| r.ablation).map(|c| c.value).sum();
        assert!((sum / full - 1.0).abs() < 1e-9, "{t:?}");
        for r in t.rows.iter().filter(|r| r.kind != RowKind::Unattributed) {
            assert!(r.counter.is_none_or(|c| c >= 0.0), "{t:?}");
        }
        assert_eq!(t.rows.last().unwrap().kind, RowKind::Unattributed);
        // The counters' own cost: no timer pair to subtract (the sampled
        // counters read no timer), and the instrumented evaluation set
        // against the same build with the counters off.
        assert_eq!(t.whole.counter_pair_ticks, Some(0.0), "{t:?}");
        assert!(t.whole.instrumented_ratio.is_some_and(|r| r > 0.5 && r < 5.0), "{t:?}");
        // Instructions per group where valgrind is installed (CI installs
        // it): rows and remainder add up to the counted whole.
        if has_valgrind {
            let whole = t.whole.instructions.unwrap_or_else(|| panic!("instructions counted: {t:?}"));
            assert!(t.rows.iter().filter(|r| r.kind == RowKind::Group).all(|r| r.instructions.is_some()), "{t:?}");
            let sum: f64 = t.rows.iter().filter_map(|r| r.instructions).sum();
            assert!((sum / whole - 1.0).abs() < 1e-9, "{t:?}");
        }
    }
    assert_eq!(a.ladder.len(), 30, "ten groups × three implementations");
}

/// Output into a pipe whose reader is gone (`boardbench list | true`, a
/// `| head` that has read enough) ends the program quietly, not in a panic.
#[test]
fn closed_stdout_is_not_a_panic() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: pipe() fills two new descriptors, which are owned below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors were just created and are owned only here.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    let out = Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .arg("list")
        .stdout(std::process::Stdio::from(write))
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
}
