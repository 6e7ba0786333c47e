//! The evaluation commands end to end: `eval` terms in JSON, `evaldiff` on
//! random positions and a suite, `evaldna` round trip, and one-line errors.

use crate::cli::{engine, json, positions, rejects};
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("engine-cli-eval-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn eval_reports_every_term_for_both_sides() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let chain = json(&engine(&["eval", "--fen", fen, "--json"]));
    let mailbox = json(&engine(&["eval", "--fen", fen, "--mobility", "mailbox", "--json"]));
    assert_eq!(chain["terms"], mailbox["terms"]);
    assert_eq!(chain["score"], mailbox["score"]);
    assert_eq!(chain["terms"]["material"]["white"], chain["terms"]["material"]["black"]);
    let total: i64 = chain["terms"]
        .as_object()
        .unwrap()
        .values()
        .map(|t| t["white"].as_i64().unwrap() - t["black"].as_i64().unwrap())
        .sum();
    assert_eq!(total + chain["scale_delta"].as_i64().unwrap(), chain["white_score"].as_i64().unwrap());
    let mixed = json(&engine(&[
        "eval",
        "--fen",
        fen,
        "--mobility-rook",
        "single-probe",
        "--mobility-knight",
        "mailbox",
        "--json",
    ]));
    assert_eq!(mixed["mobility"]["rook"], "single-probe");
    assert_eq!(mixed["mobility"]["knight"], "mailbox");
    assert_eq!(mixed["mobility"]["queen"], "chain");
}

#[test]
fn evaldiff_finds_chain_exact_and_single_probe_explained() {
    let v = json(&engine(&["evaldiff", "--random", "1500", "--seed", "3", "--json"]));
    assert_eq!(v["positions"], 1500);
    assert_eq!(v["mailbox_vs_chain_differences"], 0);
    assert_eq!(v["mailbox_vs_chain"]["all"]["compared"], 1500);
    let classes = &v["chain_vs_single_probe"]["classes"];
    assert_eq!(classes["other"], 0);
    assert!(classes["battery"].as_u64().unwrap() > 0, "random positions contain batteries");
    let v = json(&engine(&["evaldiff", &positions("wac.epd"), "--json"]));
    assert_eq!(v["positions"], 300);
    assert_eq!(v["mailbox_vs_chain_differences"], 0);
    assert_eq!(v["chain_vs_single_probe"]["classes"]["other"], 0);
}

#[test]
fn evaldna_round_trip_and_bad_files() {
    let dir = temp_dir("dna");
    let dna = dir.join("dna.json");
    let d = dna.to_str().unwrap();
    json(&engine(&["evaldna", "dump", d, "--json"]));
    let v = json(&engine(&["evaldna", "load", d, "--json"]));
    assert_eq!(v["valid"], true);
    assert_eq!(v["differs_from_default"], false);
    // A changed weight is loaded and changes the evaluation.
    let mut w: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&dna).unwrap()).unwrap();
    w["rook_open_file"] = serde_json::json!(200);
    std::fs::write(&dna, w.to_string()).unwrap();
    assert_eq!(json(&engine(&["evaldna", "load", d, "--json"]))["differs_from_default"], true);
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    let base = json(&engine(&["eval", "--fen", fen, "--json"]));
    let tuned = json(&engine(&["eval", "--fen", fen, "--weights", d, "--json"]));
    assert_eq!(
        tuned["terms"]["rooks"]["white"].as_i64().unwrap() - base["terms"]["rooks"]["white"].as_i64().unwrap(),
        180
    );

    std::fs::write(&dna, "{ not json").unwrap();
    rejects(&["evaldna", "load", d], "not a valid weights table");
    w["pawn_square"] = serde_json::json!([1, 2]);
    std::fs::write(&dna, w.to_string()).unwrap();
    rejects(&["evaldna", "load", d], "expected 64 numbers");
    rejects(&["evaldna", "load", "/nonexistent/dna.json"], "cannot read weights file");
    rejects(&["eval", "--fen", fen, "--weights", "/nonexistent/dna.json"], "cannot read weights file");
    rejects(&["evaldna", "dump", "/nonexistent/dir/dna.json"], "cannot write");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn eval_bad_input() {
    rejects(&["eval", "--fen", "8/8/8/8 w - -"], "bad FEN");
    rejects(&["eval", "--fen", "4k3/8/8/8/8/8/8/4K3 w - -", "--mobility", "magic"], "invalid value");
    rejects(&["evaldiff"], "required");
    rejects(&["evaldiff", "--random", "0"], "--random 0: expected 1 to 1000000 positions");
    rejects(&["evaldiff", "--random", "18446744073709551615"], "expected 1 to 1000000 positions");
    rejects(&["evaldiff", "/nonexistent.epd"], "cannot read");
}
