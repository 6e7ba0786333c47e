//! `boardbench instructions` end to end: our real engine under callgrind
//! (the `engine` binary the workspace build puts beside boardbench) and a
//! Crafty stand-in (tests/fixtures/fake-crafty.sh, run by valgrind as a
//! shell script).

use boardbench::engines::instructions::InstructionsReport;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// Our engine, built beside boardbench by `cargo test --workspace`.
fn engine() -> PathBuf {
    let p = Path::new(env!("CARGO_BIN_EXE_boardbench")).with_file_name("engine");
    assert!(p.is_file(), "{} is missing: run the tests with --workspace (or build -p engine first)", p.display());
    p
}

fn instructions(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_boardbench"));
    c.arg("instructions").args(args).env_remove("FAKE_MODE");
    for (k, v) in envs {
        c.env(k, v);
    }
    c.output().expect("boardbench runs")
}

/// Non-zero exit and one stderr line holding `want`.
fn fails_with(out: &Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "succeeded: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("boardbench: ") && err.contains(want), "{err}");
}

#[test]
fn counts_our_search_and_craftys_nodes() {
    let engine = engine();
    let crafty = fixture("fake-crafty.sh");
    let out = instructions(
        &["--engine", engine.to_str().unwrap(), "--depth", "3", "--crafty", crafty.to_str().unwrap(), "--json"],
        &[],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: InstructionsReport = serde_json::from_slice(&out.stdout).unwrap();
    let positions = engine::tools::bench::BENCH_POSITIONS.len();
    assert_eq!(r.position_count, positions);

    // Ours: the node count is the bench's own, and callgrind counted the
    // search (not zero, not start-up-sized per node).
    let bench = Command::new(&engine).args(["bench", "--depth", "3", "--json"]).output().unwrap();
    let bench: serde_json::Value = serde_json::from_slice(&bench.stdout).unwrap();
    assert_eq!(r.ours.len(), 1);
    assert_eq!(r.ours[0].profile, "bitboard");
    assert_eq!(Some(r.ours[0].nodes), bench["nodes"].as_u64());
    let per_node = r.ours[0].per_node();
    assert!((100.0..100_000.0).contains(&per_node), "{per_node} instructions per node");

    // The stand-in, acting Crafty 25.2: it refuses `new`, so a process per
    // position (a fresh one reports 1,000,000 nodes, a reused one 600,000),
    // fp=150.0K and mcp=100.0K pruned; the searches ran more of the shell
    // than the same input without "go" did.
    let c = r.crafty.expect("crafty counted");
    assert_eq!(format!("{:?}", c.reset), "ProcessPerPosition");
    assert_eq!(c.processes, positions);
    assert_eq!(c.searches.searches, positions);
    assert_eq!(c.searches.nodes, 1_000_000 * positions as u64);
    assert_eq!(c.searches.pruned, Some(250_000 * positions as u64));
    assert_eq!(c.searches.futility_pruned, Some(150_000 * positions as u64));
    assert!(c.instructions > 0 && c.startup_instructions > 0);
    assert!(c.per_searched_node().unwrap() > c.per_counted_node());
}

#[test]
fn crafty_23_searches_every_position_in_one_process() {
    let engine = engine();
    let crafty = fixture("fake-crafty.sh");
    let out = instructions(
        &["--engine", engine.to_str().unwrap(), "--depth", "1", "--crafty", crafty.to_str().unwrap(), "--json"],
        &[("FAKE_CRAFTY", "23.4")],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: InstructionsReport = serde_json::from_slice(&out.stdout).unwrap();
    let positions = engine::tools::bench::BENCH_POSITIONS.len() as u64;
    let c = r.crafty.expect("crafty counted");
    assert_eq!((format!("{:?}", c.reset), c.processes), ("NewCommand".to_string(), 1));
    assert_eq!((c.searches.nodes, c.searches.pruned), (1_000_000 * positions, Some(250_000 * positions)));
    assert_eq!(c.searches.futility_pruned, None);
    assert!(c.instructions > 0 && c.startup_instructions > 0);
}

#[test]
fn a_build_against_itself_searches_the_same_tree_at_the_same_cost() {
    let engine = engine();
    let engine = engine.to_str().unwrap();
    let args = ["--engine", engine, "--base-engine", engine, "--depth", "3", "--engine-profile", "mailbox"];
    let out = instructions(&[&args[..], &["--json"]].concat(), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: InstructionsReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r.base_engine.as_deref(), Some(engine));
    let (ours, base) = r.base_pairs().next().expect("mailbox counted in both builds");
    assert_eq!((ours.profile.as_str(), ours.nodes, ours.pruned), ("mailbox", base.nodes, base.pruned));
    // The search is deterministic: the counts agree to well within 0.1%.
    let ratio = ours.per_searched_node() / base.per_searched_node();
    assert!((ratio - 1.0).abs() < 1e-3, "{ratio}");
    // A relative path works too (callgrind runs elsewhere).
    let dir = Path::new(engine).parent().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .current_dir(dir)
        .args(["instructions", "--engine", "./engine", "--base-engine", "engine"])
        .args(&args[4..])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("base, mailbox, searched"), "{text}");
    assert!(text.contains(&format!("the same tree ({} nodes)", group(ours.nodes))), "{text}");
}

/// `n` with thousands separators, as the table prints counts.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn bad_input_is_named() {
    let engine = engine();
    let engine = engine.to_str().unwrap();
    fails_with(&instructions(&["--engine", engine, "--crafty", "/nonexistent/crafty"], &[]), "--crafty");
    fails_with(&instructions(&["--engine", engine, "--engine-profile", "bitbored"], &[]), "--engine-profile");
    fails_with(&instructions(&["--engine", "/nonexistent/engine"], &[]), "our engine");
    fails_with(&instructions(&["--engine", engine, "--base-engine", "/nonexistent/engine"], &[]), "--base-engine");
    // A base build that is not our engine says which build failed.
    fails_with(
        &instructions(&["--engine", engine, "--depth", "1", "--base-engine", "/bin/true"], &[]),
        "--base-engine /bin/true: engine bench --profile bitboard: no JSON object",
    );
    fails_with(&instructions(&["--engine", engine, "--valgrind", "/nonexistent/valgrind"], &[]), "valgrind is needed");
    // A Crafty that fails, and one that refuses every other position.
    let crafty = fixture("fake-crafty.sh");
    let args = ["--engine", engine, "--depth", "1", "--crafty", crafty.to_str().unwrap()];
    fails_with(
        &instructions(&args, &[("FAKE_MODE", "fail")]),
        "crafty (position 1) under callgrind exited with status 2: Crafty v25.2 | machine has 2 processors | \
         ERROR: hash table allocation failed",
    );
    let white_to_move = engine::tools::bench::BENCH_POSITIONS.iter().filter(|(_, fen)| fen.contains(" w ")).count();
    fails_with(&instructions(&args, &[("FAKE_MODE", "refuse")]), &format!("crafty: {white_to_move} search summaries"));
}
