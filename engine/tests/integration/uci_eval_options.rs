//! The UCI options that change the evaluation, through the real binary:
//! `Weights` (a DNA file) and `EvalCut` (the bitboard profile with cut
//! candidates left out). A search is deterministic at a fixed depth, so two
//! engines that score every position alike search the same tree: cutting
//! the best-ray bonus and loading weights with its tables zeroed must give
//! the same node count, and one different from the built-in evaluation's.

use crate::common;

use common::Engine;
use engine::eval::weights::Weights;

const POSITION: &str = "position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8";

/// Nodes and best move of `go depth 7` after `setup`, from a fresh game.
fn search(e: &mut Engine, setup: &[String]) -> (u64, String) {
    for line in setup {
        e.send(line);
    }
    e.send("ucinewgame");
    e.send(POSITION);
    e.send("go depth 7");
    let lines = e.until("bestmove");
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    let last_info = lines.iter().rfind(|l| l.starts_with("info depth 7 ")).expect("depth 7 reached");
    let nodes = last_info.split_whitespace().skip_while(|w| *w != "nodes").nth(1).unwrap().parse().unwrap();
    (nodes, lines.last().unwrap().clone())
}

#[test]
fn best_ray_cut_searches_as_its_weights_zeroed() {
    let dir = std::env::temp_dir().join(format!("uci-eval-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zeroed = dir.join("no-best-ray.json");
    Weights { bishop_best_ray: [0; 8], rook_best_ray: [0; 8], ..Weights::default() }.save(&zeroed).unwrap();
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until("uciok");
    for option in ["option name Weights type string default <builtin>", "option name EvalCut type string default none"]
    {
        assert!(lines.iter().any(|l| l == option), "{option} missing: {lines:?}");
    }
    let builtin = search(&mut e, &[]);
    let cut = search(&mut e, &["setoption name EvalCut value best-ray".into()]);
    let weights = search(
        &mut e,
        &["setoption name EvalCut value none".into(), format!("setoption name Weights value {}", zeroed.display())],
    );
    assert_eq!(cut, weights, "the cut and the zeroed weights search one tree");
    assert_ne!(cut.0, builtin.0, "the best-ray bonus changes the tree");
    // Back to the built-in table: the built-in tree again.
    let again = search(&mut e, &["setoption name Weights value <builtin>".into()]);
    assert_eq!(again, builtin);
    e.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_weights_and_cuts_are_refused_with_a_reason() {
    let mut e = Engine::start(&[]);
    let cases = [
        ("setoption name Weights value /no/such/dna.json", "cannot read weights file /no/such/dna.json"),
        ("setoption name EvalCut value rook-files", "unknown cut \"rook-files\""),
        ("setoption name Profile value mailbox", ""),
        ("setoption name EvalCut value battery-xray", "EvalCut applies to the bitboard profile, not mailbox"),
        ("setoption name Profile value bitboard", ""),
        ("setoption name EvalCut value battery-xray", ""),
        ("setoption name Profile value single-probe", "applies to the bitboard profile only"),
    ];
    for (line, want) in cases {
        e.send(line);
        e.send("isready");
        let lines = e.until("readyok");
        let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
        if want.is_empty() {
            assert!(errors.is_empty(), "{line}: {lines:?}");
        } else {
            assert!(errors.len() == 1 && errors[0].contains(want), "{line}: {lines:?}");
        }
    }
    // Still searching, with the battery cut.
    e.send("position startpos");
    e.send("go depth 3");
    e.until("bestmove");
    e.quit();
}
