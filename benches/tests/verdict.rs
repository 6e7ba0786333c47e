//! `boardbench retire` and `boardbench cutlist` end to end with our real
//! engine (the `engine` binary the workspace build puts beside boardbench),
//! kept short: a small sweep, a quick timing run, a head reference of three
//! positions at a shallow depth, a few games.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Our engine, built beside boardbench by `cargo test --workspace`.
fn engine() -> PathBuf {
    let p = Path::new(env!("CARGO_BIN_EXE_boardbench")).with_file_name("engine");
    assert!(p.is_file(), "{} is missing: run the tests with --workspace (or build -p engine first)", p.display());
    p
}

fn boardbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardbench")).args(args).output().expect("the binary runs")
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn text(o: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

/// A head reference of the first three ringers at depth 2, saved by the
/// mailbox profile (the old form of every routine).
fn small_reference(dir: &Path, engine: &str) -> PathBuf {
    let ringers = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../positions/ringers.epd"))
        .expect("the curated suites ship");
    let three: Vec<&str> = ringers.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).take(3).collect();
    let suite = dir.join("three.epd");
    std::fs::write(&suite, three.join("\n") + "\n").unwrap();
    let head = dir.join("head.json");
    let (s, h) = (suite.to_str().unwrap(), head.to_str().unwrap());
    let out = boardbench(&[
        "reference",
        "save",
        "--engine",
        engine,
        "--suite",
        s,
        "--depth",
        "2",
        "--option",
        "Profile=mailbox",
        "--out",
        h,
        "--quiet",
    ]);
    assert_eq!(code(&out), 0, "{}", text(&out));
    head
}

#[test]
fn retire_gathers_five_criteria_and_reuses_them_by_commit() {
    let engine = engine();
    let engine = engine.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let head = small_reference(dir.path(), engine);
    let first = dir.path().join("defects.json");
    let (h, f) = (head.to_str().unwrap(), first.to_str().unwrap());
    let out = boardbench(&[
        "retire",
        "defects",
        "--engine",
        engine,
        "--positions",
        "200",
        "--bench-quick",
        "--tc",
        "0.3+0.01",
        "--games",
        "2",
        "--reference",
        h,
        "--out",
        f,
        "--quiet",
    ]);
    let shown = text(&out);
    // Not safe: the sweep is short of 20,000 positions and the reference
    // was saved by the mailbox profile.
    assert_eq!(code(&out), 3, "{shown}");
    let r = json(&first);
    assert_eq!(r["schema"], "boardbench-retire/1");
    assert_eq!((r["routine"].as_str(), r["old_profile"].as_str()), (Some("defects"), Some("bitboard-old-defects")));
    let criteria = r["criteria"].as_array().unwrap();
    assert_eq!(criteria.len(), 5);
    let status = |n: usize| criteria[n - 1]["status"].as_str().unwrap().to_string();
    assert_eq!(status(1), "NOT_RUN", "{shown}");
    assert!(criteria[0]["evidence"].as_str().unwrap().contains("defects: 400 cases, 0 differ"), "{shown}");
    assert!(criteria[0]["evidence"].as_str().unwrap().contains("fewer than the 20000 positions"), "{shown}");
    assert_eq!(criteria[1]["details"]["benchmark"], "kingdefectsbench", "{shown}");
    assert_ne!(status(2), "NOT_RUN", "{shown}");
    // The three reference positions searched again by the bitboard profile.
    assert_eq!(criteria[2]["details"]["suites"][0]["positions"], 3, "{shown}");
    assert_ne!(status(3), "NOT_RUN", "{shown}");
    assert_eq!(criteria[3]["details"]["games"], 2, "{shown}");
    assert_eq!(status(5), "FAIL", "{shown}");
    assert!(criteria[4]["evidence"].as_str().unwrap().contains("Profile=mailbox"), "{shown}");
    assert!(criteria[4]["evidence"].as_str().unwrap().contains("the old form of defects"), "{shown}");
    let blocking: Vec<u64> = r["verdict"]["blocking"].as_array().unwrap().iter().filter_map(Value::as_u64).collect();
    assert!(blocking.contains(&1) && blocking.contains(&5), "{blocking:?}");
    assert!(shown.contains("VERDICT: not safe to retire the old defects: blocked by 1 (NOT RUN)"), "{shown}");
    for line in ["1 NOT RUN  20,000-position equivalence sweep clean", "5 FAIL     head reference rebuilt"] {
        assert!(shown.contains(line), "{line} missing: {shown}");
    }

    // Another routine of the same commit: 3 (suites) and 5 (reference)
    // may come from the defects run, 1 and 2 may not; 4 is skipped with
    // nothing to take it from. Nothing is measured but the reference.
    let second = dir.path().join("movegen.json");
    let s = second.to_str().unwrap();
    let out = boardbench(&[
        "retire",
        "movegen",
        "--engine",
        engine,
        "--skip",
        "1",
        "--skip",
        "2",
        "--skip",
        "3",
        "--skip",
        "4",
        "--reuse",
        f,
        "--reference",
        h,
        "--out",
        s,
        "--quiet",
    ]);
    assert_eq!(code(&out), 3, "{}", text(&out));
    let r = json(&second);
    let criteria = r["criteria"].as_array().unwrap();
    for n in [1, 2, 4] {
        assert_eq!(criteria[n - 1]["status"], "NOT_RUN", "{n}: {}", text(&out));
        assert!(criteria[n - 1]["evidence"].as_str().unwrap().contains(&format!("skipped (--skip {n})")));
    }
    assert_eq!(criteria[2], {
        let mut c = json(&first)["criteria"][2].clone();
        c["source"] = criteria[2]["source"].clone();
        c
    });
    assert!(criteria[2]["source"].as_str().unwrap().starts_with(&format!("from {f} (defects run of ")));
    assert_eq!(criteria[4]["source"], "this run");
    assert!(criteria[4]["evidence"].as_str().unwrap().contains("the old form of movegen"));

    // --quick cuts the suites to their first positions: no worse there is
    // NOT RUN (it cannot pass), the positions searched kept beside the JSON.
    let quick = dir.path().join("quick.json");
    let q = quick.to_str().unwrap();
    let out = boardbench(&[
        "retire",
        "defects",
        "--quick",
        "--engine",
        engine,
        "--skip",
        "1",
        "--skip",
        "2",
        "--skip",
        "4",
        "--suite-positions",
        "2",
        "--reference",
        h,
        "--out",
        q,
        "--quiet",
    ]);
    assert_eq!(code(&out), 3, "{}", text(&out));
    let r = json(&quick);
    let c3 = &r["criteria"][2];
    assert_eq!(c3["status"], "NOT_RUN", "{}", text(&out));
    assert_eq!(c3["details"]["suites"][0]["positions"], 2, "{}", text(&out));
    assert!(c3["evidence"].as_str().unwrap().contains("no worse on the first 2 positions"), "{}", text(&out));
    let kept = std::fs::read_to_string(dir.path().join("quick-suites").join("three.epd")).unwrap();
    assert_eq!(kept.lines().count(), 2);

    // A result of another commit is refused, in one line.
    let mut other = json(&first);
    other["git_commit"] = "0000000000000000000000000000000000000000".into();
    let stale = dir.path().join("stale.json");
    std::fs::write(&stale, other.to_string()).unwrap();
    let out = boardbench(&["retire", "movegen", "--skip", "3", "--reuse", stale.to_str().unwrap(), "--out", s]);
    assert_eq!(code(&out), 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.trim().lines().count() == 1 && err.contains("made at commit 0000000000"), "{err}");
}

#[test]
fn bad_retire_and_cutlist_input_is_one_line() {
    for (args, want) in [
        (&["retire", "mobility"][..], "unknown routine \"mobility\""),
        (&["retire", "movegen", "--skip", "6"][..], "6"),
        (&["retire", "movegen", "--reuse", "/no/such.json"][..], "--reuse /no/such.json"),
        (&["cutlist", "--term", "no_such_weight"][..], "no such weight"),
        (&["cutlist", "--cut", "none"][..], "no candidate"),
        (&["cutlist", "--term", "material"][..], "not valid"),
    ] {
        let out = boardbench(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && !err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// The cut list on a DNA term whose zeroing is known to change the score
/// (the bishop pair): every column measured, the evaluations changed, the
/// weights file the match loaded holding the zeroed term.
#[test]
fn cutlist_measures_a_term_that_changes_the_score() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("cut");
    let out = boardbench(&[
        "cutlist",
        "--cut",
        "none",
        "--term",
        "bishop_pair",
        "--engine",
        engine.to_str().unwrap(),
        "--games",
        "4",
        "--nodes",
        "300",
        "--depth",
        "2",
        "--bench-quick",
        "--per-bucket",
        "24",
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
    ]);
    let shown = text(&out);
    assert_eq!(code(&out), 0, "{shown}");
    let r = json(&out_dir.join("cutlist.json"));
    assert_eq!(r["schema"], "boardbench-cutlist/1");
    let row = &r["rows"][0];
    assert_eq!(row["candidate"], "term bishop_pair");
    assert!(row["evals_changed"].as_f64().unwrap() > 0.05, "{row}");
    assert!(row["mean_change_cp"].as_f64().unwrap() > 5.0, "{row}");
    assert_eq!(row["evidence"]["savings"].as_array().unwrap().len(), 3, "{row}");
    let suites = row["evidence"]["suites"].as_array().unwrap();
    assert_eq!(suites.len(), 3, "{row}");
    assert!(row["evidence"]["played"]["games"].as_u64().unwrap() >= 2, "{row}");
    assert!(["cut", "keep", "inconclusive"].contains(&row["recommendation"].as_str().unwrap()), "{row}");
    let weights = out_dir.join("weights-term-bishop_pair.json");
    assert_eq!(json(&weights)["bishop_pair"], serde_json::json!(vec![0; 17]));
    assert!(row["uci_options"].as_array().unwrap().iter().any(|o| o.as_str().unwrap().starts_with("Weights=")));
    assert!(shown.contains("term bishop_pair") && shown.contains("rules: keep when"), "{shown}");
}
