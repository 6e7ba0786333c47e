//! `engine evalcycles`: without the `eval-time` feature it says how to get
//! it; with the feature (`cargo test --release -p engine --features
//! eval-time --test cli_evalcycles`) its rows sum to the measured whole.

use std::process::Command;

const FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8";

#[cfg(not(feature = "eval-time"))]
#[test]
fn without_the_feature_it_explains_how_to_build_it() {
    let out = Command::new(env!("CARGO_BIN_EXE_engine")).args(["evalcycles", "--fen", FEN]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--features eval-time"), "{stderr}");
}

#[cfg(feature = "eval-time")]
#[test]
fn phases_and_the_rest_sum_to_the_whole() {
    for mobility in ["mailbox", "chain", "single-probe"] {
        let out = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(["evalcycles", "--fen", FEN, "--depth", "6", "--mobility", mobility, "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v["evals"].as_u64().unwrap() > 100);
        let phases: u64 = v["phases"].as_array().unwrap().iter().map(|p| p["ticks"].as_u64().unwrap()).sum();
        assert_eq!(phases + v["outside_phases"]["ticks"].as_u64().unwrap(), v["whole_ticks"].as_u64().unwrap());
        let shares = v["lazy_percent"].as_f64().unwrap()
            + v["hash_percent"].as_f64().unwrap()
            + v["full_percent"].as_f64().unwrap();
        assert!((shares - 100.0).abs() < 1e-6, "{shares}");
        assert!(v["counter_overhead"]["ticks_per_region"].as_u64().unwrap() > 0);
    }
    // A per-piece mix runs through the mixed profile.
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["evalcycles", "--fen", FEN, "--depth", "4", "--mobility-rook", "mailbox", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mobility"]["rook"], "mailbox");
    assert_eq!(v["mobility"]["bishop"], "chain");
}

/// `--full-evals REPS`: every evaluation is full (no hash, no lazy exit),
/// there are positions × REPS of them, and the rows still sum to the whole.
#[cfg(feature = "eval-time")]
#[test]
fn full_evaluations_mode() {
    let dir = std::env::temp_dir().join(format!("evalcycles-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("p.epd");
    std::fs::write(&epd, format!("{FEN}\n8/5pk1/6p1/8/3R4/6P1/5PK1/8 b - - 0 40\n")).unwrap();
    for mobility in ["mailbox", "chain", "single-probe"] {
        let out = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(["evalcycles", epd.to_str().unwrap(), "--full-evals", "7", "--mobility", mobility, "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["mode"], "full-evals");
        assert_eq!(v["evals"].as_u64(), Some(14));
        assert_eq!(v["full_percent"].as_f64(), Some(100.0));
        let phases = v["phases"].as_array().unwrap();
        let ticks = |name: &str| phases.iter().find(|p| p["phase"] == name).unwrap()["ticks"].as_u64().unwrap();
        assert!(ticks("knights") > 0 && ticks("kings") > 0 && ticks("pawn_attacks") > 0);
        let sum: u64 = phases.iter().map(|p| p["ticks"].as_u64().unwrap()).sum();
        assert_eq!(sum + v["outside_phases"]["ticks"].as_u64().unwrap(), v["whole_ticks"].as_u64().unwrap());
    }
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["evalcycles", epd.to_str().unwrap(), "--full-evals", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--full-evals 0"));
    std::fs::remove_dir_all(&dir).unwrap();
}
