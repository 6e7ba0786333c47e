//! `engine evalcycles`: without the `eval-time` feature it says how to get
//! it; with the feature (`cargo test --release -p engine --features
//! eval-time --test cli_evalcycles`) the rotating counters time every group
//! and never report a negative cost, the all-phases rows sum to the
//! measured whole, and the prefix marks read every group of the full
//! evaluations in a search.

use std::process::{Command, Output};

const FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8";

fn engine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine")).args(args).output().unwrap()
}

/// Two positions (a middlegame and a rook ending) in a fresh EPD file.
#[cfg(feature = "eval-time")]
fn two_positions(tag: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("evalcycles-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("p.epd");
    std::fs::write(&epd, format!("{FEN}\n8/5pk1/6p1/8/3R4/6P1/5PK1/8 b - - 0 40\n")).unwrap();
    (dir, epd)
}

#[cfg(not(feature = "eval-time"))]
#[test]
fn without_the_feature_it_explains_how_to_build_it() {
    let out = engine(&["evalcycles", "--fen", FEN]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--features eval-time"), "{stderr}");
}

#[cfg(feature = "eval-time")]
fn json(args: &[&str]) -> serde_json::Value {
    let out = engine(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every group, input and phase has a cost of at least zero per evaluation.
#[cfg(feature = "eval-time")]
fn never_negative(v: &serde_json::Value) {
    for list in ["groups", "inputs"] {
        for g in v[list].as_array().unwrap() {
            assert!(g["ticks_per_eval"].as_f64().unwrap() >= 0.0, "{g}");
        }
    }
    for p in v["phases"].as_array().unwrap() {
        assert!(p["net_ticks_per_eval"].as_f64().unwrap() >= 0.0, "{p}");
    }
}

#[cfg(feature = "eval-time")]
#[test]
fn rotating_counters_in_a_search_time_every_group() {
    for mobility in ["mailbox", "chain", "single-probe"] {
        let v = json(&["evalcycles", "--fen", FEN, "--depth", "6", "--mobility", mobility, "--json"]);
        assert_eq!(v["counters"], "rotating");
        let evals = v["evals"].as_u64().unwrap();
        assert!(evals > 15 * 64 * 2, "{evals}");
        let groups = v["groups"].as_array().unwrap();
        assert_eq!(groups.len(), 10);
        // One slot of fifteen per evaluation, in runs of 64, one run in
        // four timed (the default duty): every group timed, about
        // evals / 60 times each.
        assert_eq!(v["duty"], 4);
        let mut timed = 0;
        for g in groups {
            let n = g["timed_evals"].as_u64().unwrap();
            assert!(n + 64 >= evals / 60 && n <= evals / 60 + 64, "{g}");
            timed += n;
        }
        assert!(timed < evals, "each evaluation timed at most one group");
        never_negative(&v);
        assert!(v["whole"]["ticks_per_eval"].as_f64().unwrap() > 0.0);
        // Net of the counter pair's cost one group may round to zero on a
        // busy runner; all of them together cannot.
        let net: f64 = groups.iter().map(|g| g["ticks_per_eval"].as_f64().unwrap()).sum();
        assert!(net > 0.0, "{mobility}: {v}");
        let shares = v["lazy_percent"].as_f64().unwrap()
            + v["hash_percent"].as_f64().unwrap()
            + v["full_percent"].as_f64().unwrap();
        assert!((shares - 100.0).abs() < 1e-6, "{shares}");
        assert!(v["counter_overhead"]["ticks_per_region"].as_f64().unwrap() > 0.0);
        assert!(v["counter_overhead"]["in_place"].as_bool().unwrap());
        let inputs: Vec<&str> = v["inputs"].as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap()).collect();
        let words = if mobility == "mailbox" { vec!["clear_words"] } else { vec![] };
        assert_eq!(inputs, [vec!["material_entry", "pawn_entry"], words].concat());
    }
    // A per-piece mix runs through the mixed profile.
    let v = json(&["evalcycles", "--fen", FEN, "--depth", "4", "--mobility-rook", "mailbox", "--json"]);
    assert_eq!(v["mobility"]["rook"], "mailbox");
    assert_eq!(v["mobility"]["bishop"], "chain");
}

#[cfg(feature = "eval-time")]
#[test]
fn prefix_marks_in_a_search_read_every_group_of_the_full_evaluations() {
    let v = json(&["evalcycles", "--fen", FEN, "--depth", "7", "--counters", "prefix", "--json"]);
    assert_eq!(v["counters"], "prefix");
    let evals = v["evals"].as_u64().unwrap();
    let full = v["full_percent"].as_f64().unwrap() / 100.0 * evals as f64;
    // Every group's phases were marked in some full evaluation (the marks
    // of evaluations that exited lazily or hit the hash are not counted).
    for g in v["groups"].as_array().unwrap() {
        let n = g["timed_evals"].as_u64().unwrap();
        assert!(n > 0 && (n as f64) <= full + 1.0, "{g} of {full} full evaluations");
    }
    never_negative(&v);
    assert!(v["whole"]["ticks_per_eval"].as_f64().unwrap() > 0.0, "{v}");
    // One pair per evaluation at most.
    assert!(v["counter_overhead"]["regions_per_eval"].as_f64().unwrap() <= 1.0);
}

#[cfg(feature = "eval-time")]
#[test]
fn all_phases_rows_sum_to_the_whole() {
    let v = json(&["evalcycles", "--fen", FEN, "--depth", "6", "--counters", "all-phases", "--json"]);
    assert_eq!(v["counters"], "all-phases");
    let evals = v["evals"].as_u64().unwrap();
    let phases = v["phases"].as_array().unwrap();
    let sum: f64 = phases.iter().map(|p| p["ticks"].as_f64().unwrap()).sum();
    let outside = v["outside_phases"]["ticks"].as_f64().unwrap();
    let whole = v["whole_ticks"].as_f64().unwrap();
    // Outside the phases is what the whole measured beyond them; none when
    // an interrupted whole evaluation (left out) made the phases add up to
    // more.
    if outside > 0.0 {
        assert_eq!(sum + outside, whole);
    } else {
        assert!(sum >= whole, "{sum} {whole}");
    }
    for g in v["groups"].as_array().unwrap() {
        assert_eq!(g["timed_evals"].as_u64(), Some(evals), "every evaluation times every group");
    }
    never_negative(&v);
}

/// `--full-evals REPS`: every evaluation is full (no hash, no lazy exit),
/// there are positions × REPS of them, and the instrumented passes are
/// reported beside passes with the counters off.
#[cfg(feature = "eval-time")]
#[test]
fn full_evaluations_mode() {
    let (dir, epd) = two_positions("full");
    let epd = epd.to_str().unwrap();
    for mobility in ["mailbox", "chain", "single-probe"] {
        for counters in ["rotating", "all-phases", "prefix"] {
            let v = json(&[
                "evalcycles",
                epd,
                "--full-evals",
                "150",
                "--mobility",
                mobility,
                "--counters",
                counters,
                "--json",
            ]);
            assert_eq!(v["mode"], "full-evals");
            assert_eq!(v["evals"].as_u64(), Some(300));
            assert_eq!(v["full_percent"].as_f64(), Some(100.0));
            // One group's net ticks may round to zero once the counter
            // pair's cost is subtracted (the endgame has no knights, and a
            // busy runner adds noise); the groups together cannot.
            let groups = v["groups"].as_array().unwrap();
            let net: f64 = groups.iter().map(|g| g["ticks_per_eval"].as_f64().unwrap()).sum();
            assert!(net > 0.0, "{counters} {mobility}: {v}");
            assert!(groups.iter().any(|g| g["name"] == "knights") && groups.iter().any(|g| g["name"] == "kings"));
            never_negative(&v);
            let i = &v["instrumented"];
            assert_eq!(i["passes"], 150);
            assert!(i["ticks_per_eval"].as_f64().unwrap() > 0.0);
            // The same passes with the counters off, interleaved: what the
            // counters cost is read in one process.
            let off = &i["uninstrumented"];
            assert!(off["floor_ticks_per_eval"].as_f64().unwrap() > 0.0, "{i}");
            assert!(off["ticks_per_eval"].as_f64().unwrap() >= off["min_ticks_per_eval"].as_f64().unwrap(), "{i}");
            let slots = i["per_slot"].as_array().unwrap();
            assert_eq!(slots.len(), 15);
            assert!(slots.iter().all(|s| s["ticks_per_eval"].as_f64().unwrap() > 0.0));
            if counters == "rotating" {
                // Each pass starts the rotation one slot later: every
                // slot timed 20 times (300 evaluations, 15 slots).
                assert!(v["groups"].as_array().unwrap().iter().all(|g| g["timed_evals"] == 20));
            }
            if counters == "prefix" {
                // 150 passes over 25 marks, one mark per pass: each mark
                // read in 6 passes of 2 positions, so every pass gives a
                // floor (a pass the OS interrupted gives none).
                assert!(v["whole"]["timed_evals"].as_u64().unwrap() >= 10, "{v}");
                assert!(v["floors"]["whole"].as_f64().is_some(), "{v}");
                assert!(v["counter_overhead"]["regions_per_eval"].as_f64().unwrap() <= 1.0);
            }
        }
    }
    let out = engine(&["evalcycles", epd, "--full-evals", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--full-evals 0"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sampled counters: no timer reads in the evaluation; every group
/// that runs gets samples, the rows (groups, inputs and the glue between
/// phases) share out the whole exactly, and each row's interval holds it.
#[cfg(feature = "eval-time")]
#[test]
fn sampled_counters_share_out_the_whole() {
    let (dir, epd) = two_positions("sampled");
    let epd = epd.to_str().unwrap();
    for mobility in ["mailbox", "chain", "single-probe"] {
        let v = json(&[
            "evalcycles",
            epd,
            "--full-evals",
            "5",
            "--mobility",
            mobility,
            "--counters",
            "sampled",
            "--sample-seconds",
            "0.3",
            "--json",
        ]);
        assert_eq!(v["counters"], "sampled");
        let inside = v["samples"]["inside"].as_u64().unwrap();
        // 0.3 s at a 50 us mean interval: thousands, unless the timer
        // signal never came.
        assert!(inside > 300, "{mobility}: {inside} samples");
        let whole = v["whole"]["ticks_per_eval"].as_f64().unwrap();
        assert!(whole > 0.0);
        let rows: Vec<&serde_json::Value> = v["groups"]
            .as_array()
            .unwrap()
            .iter()
            .chain(v["inputs"].as_array().unwrap())
            .chain(std::iter::once(&v["glue"]))
            .collect();
        let (mut ticks, mut samples) = (0.0, 0);
        for r in &rows {
            let t = r["ticks_per_eval"].as_f64().unwrap();
            let [lo, hi] = [r["interval"][0].as_f64().unwrap(), r["interval"][1].as_f64().unwrap()];
            assert!(t >= 0.0 && lo <= t && t <= hi, "{r}");
            ticks += t;
            samples += r["samples"].as_u64().unwrap();
        }
        assert_eq!(samples, inside, "{mobility}: every sample inside an evaluation is in one row");
        assert!((ticks - whole).abs() < 1e-6 * whole, "{mobility}: rows {ticks} of {whole}");
        let group = |name: &str| v["groups"].as_array().unwrap().iter().find(|g| g["name"] == name).unwrap().clone();
        for name in ["knights", "bishops", "rooks", "kings"] {
            assert!(group(name)["samples"].as_u64().unwrap() > 0, "{mobility}: {}", group(name));
        }
        let i = &v["instrumented"];
        assert!(i["floor_ticks_per_eval"].as_f64().unwrap() > 0.0, "{i}");
        assert_eq!(i["uninstrumented"]["floor_ticks_per_eval"].as_f64().unwrap(), whole);
        assert_eq!(v["counter_overhead"]["ticks_per_region"].as_f64().unwrap(), 0.0);
    }
    std::fs::remove_dir_all(dir).unwrap();
    // In a search the samples outside the evaluations are the search's own.
    let v = json(&[
        "evalcycles",
        "--fen",
        FEN,
        "--depth",
        "5",
        "--counters",
        "sampled",
        "--sample-seconds",
        "0.3",
        "--json",
    ]);
    assert!(v["samples"]["inside"].as_u64().unwrap() > 0 && v["samples"]["outside"].as_u64().unwrap() > 0, "{v}");
    assert!(v["whole"]["ticks_per_eval"].as_f64().unwrap() > 0.0 && v["evals"].as_u64().unwrap() > 0, "{v}");
    // Bad sampling flags are named.
    for (flag, value) in [("--sample-seconds", "0"), ("--sample-interval", "1")] {
        let out = engine(&["evalcycles", "--fen", FEN, "--counters", "sampled", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(flag), "{}", String::from_utf8_lossy(&out.stderr));
    }
}
