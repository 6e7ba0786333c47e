//! The `engine` binary's perft commands: JSON output, mismatch exit status,
//! and one-line errors (never a panic) for bad input.

use crate::cli::{engine, json, positions, rejects};

#[test]
fn perft_json_and_divide() {
    let v = json(&engine(&["perft", "--depth", "3", "--json"]));
    assert_eq!(v["nodes"], 8902);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0 && v["nps"].as_f64().unwrap() > 0.0);
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for implementation in ["mailbox", "bitboard"] {
        let v =
            json(&engine(&["perft", "--fen", kiwi, "--depth", "2", "--impl", implementation, "--divide", "--json"]));
        assert_eq!(v["nodes"], 2039);
        let divide = v["divide"].as_object().unwrap();
        assert_eq!(divide.len(), 48);
        assert_eq!(divide["e1g1"], 43);
    }
    for sliders in ["magic", "pext"] {
        let v = json(&engine(&["perft", "--depth", "4", "--sliders", sliders, "--bulk", "--json"]));
        assert_eq!(v["nodes"], 197281);
    }
}

#[test]
fn perft_suite_counts_and_fails_on_a_mismatch() {
    let suite = positions("perftsuite.epd");
    let v = json(&engine(&["perft-suite", &suite, "--max-depth", "3", "--json"]));
    assert_eq!(v["positions"], 127);
    assert_eq!(v["checks"], 381);
    assert_eq!(v["mismatches"], 0);

    let dir = std::env::temp_dir().join(format!("engine-cli-perft-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 26\n").unwrap();
    let out = engine(&["perft-suite", bad.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mismatches"], 1);
    assert_eq!(v["failures"][0]["expected"], 26);
    assert_eq!(v["failures"][0]["got"], 25);

    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5\nnot a fen at all\n").unwrap();
    rejects(&["perft-suite", bad.to_str().unwrap()], "bad.epd:2");
    std::fs::write(&bad, "\n# only a comment\n").unwrap();
    rejects(&["perft-suite", bad.to_str().unwrap()], "holds no positions");
    // Positions but no count to check (or none shallow enough): not a pass.
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K3 w - - bm Kd1;\n").unwrap();
    rejects(&["perft-suite", bad.to_str().unwrap()], "nothing was checked");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K3 w - - ;D3 1\n").unwrap();
    rejects(&["perft-suite", bad.to_str().unwrap(), "--max-depth", "2"], "at depth 2 or less: nothing was checked");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K3 w - - ;D99999999999 5\n").unwrap();
    rejects(&["perft-suite", bad.to_str().unwrap()], "perft depth D99999999999");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_gets_one_line_errors() {
    rejects(&["perft", "--fen", "8/8/8 w - -", "--depth", "2"], "ranks");
    rejects(&["perft", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--depth", "99"], "too deep");
    rejects(&["perft", "--depth", "x"], "invalid value");
    rejects(&["perft"], "--depth");
    rejects(&["perft", "--depth", "2", "--impl", "mailbox", "--sliders", "magic"], "--sliders");
    rejects(&["perft", "--depth", "2", "--impl", "abacus"], "invalid value");
    rejects(&["perft-suite", "/nonexistent/file.epd"], "cannot read");
    rejects(&["perft-suite", "/nonexistent/file.epd", "--max-depth", "99"], "--max-depth 99 is too deep");
    rejects(&["no-such-command"], "unrecognized subcommand");
}

/// Flags clap refuses get one line and exit 2 like any other bad input (not
/// clap's usage block, nor `evaldna`'s whole help for a missing subcommand);
/// `--help` and `--version` still print in full and exit 0.
#[test]
fn flag_errors_are_one_line_with_exit_2() {
    for (args, needle) in [
        (&["bench", "--bogus"][..], "unexpected argument '--bogus'"),
        (&["uci", "--json"][..], "unexpected argument '--json'"),
        (&["perft", "--depth", "2", "--fen"][..], "a value is required for '--fen"),
        (&["evaldna"][..], "a subcommand is missing: engine evaldna"),
    ] {
        let out = engine(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        rejects(args, needle);
    }
    for args in [&["--help"][..], &["perft", "--help"][..], &["--version"][..]] {
        let out = engine(args);
        assert!(out.status.success(), "{args:?}");
        assert!(!out.stdout.is_empty() && out.stderr.is_empty(), "{args:?}");
    }
}
