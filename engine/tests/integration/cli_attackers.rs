//! `see`, `seescores`, `kingdefects` and `equiv` on bad input: a non-zero
//! exit and one `error:` line naming the problem, never a panic. Plus the
//! `kingdefects` output of both implementations over real position files.

use crate::cli::{engine, positions};

const FEN: &str = "5k2/4n3/8/3p4/8/8/3R4/4K3 w - -";

/// [`crate::cli::rejects`], with nothing printed on stdout either.
fn rejects(args: &[&str], needle: &str) {
    let out = crate::cli::rejects(args, needle);
    assert!(out.stdout.is_empty(), "{args:?} printed {:?}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn see_bad_input() {
    rejects(&["see", "--fen", "5k2/4n3/8 w - -", "--move", "d2d5"], "bad FEN");
    rejects(&["see", "--fen", "5k2/4n3/8/3p4/8/8/3R4/4K3 w - - x", "--move", "d2d5"], "halfmove");
    rejects(&["see", "--fen", "", "--move", "d2d5"], "empty FEN");
    rejects(&["see", "--fen", FEN, "--move", "d2d8"], "not legal");
    rejects(&["see", "--fen", FEN, "--move", "e7d5"], "not legal"); // the opponent's piece
    rejects(&["see", "--fen", FEN, "--move", "d2"], "bad move");
    rejects(&["see", "--fen", FEN, "--move", "d2d5k"], "bad move");
    rejects(&["see", "--fen", FEN, "--move", "é2e4"], "bad move");
    rejects(&["see", "--fen", FEN, "--move", "D2D5"], "bad move");
    rejects(&["see", "--fen", FEN, "--move", "d2d5", "--attackers", "mailbox", "--sliders", "magic"], "--sliders");
    rejects(&["see", "--fen", FEN, "--move", "d2d5", "--attackers", "abacus"], "invalid value");
    rejects(&["see", "--fen", FEN], "--move");
}

#[test]
fn seescores_bad_input() {
    rejects(&["seescores", "/nonexistent/file.epd"], "cannot read");
    let dir = std::env::temp_dir().join(format!("engine-seescores-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K3 w - - id \"ok\";\n4k3/8/8/8/8/8/8/4K9 w - -\n").unwrap();
    rejects(&["seescores", bad.to_str().unwrap()], ":2:");
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "\n# nothing\n").unwrap();
    rejects(&["seescores", empty.to_str().unwrap()], "no positions");
    rejects(&["kingdefects", bad.to_str().unwrap()], ":2:");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn kingdefects_bad_input() {
    rejects(&["kingdefects"], "required");
    rejects(&["kingdefects", "--fen", FEN, &positions("wac.epd")], "cannot be used");
    rejects(&["kingdefects", "--fen", "nonsense"], "bad FEN");
    rejects(&["kingdefects", "/nonexistent.epd"], "cannot read");
    rejects(&["kingdefects", "--fen", FEN, "--impl", "magic"], "invalid value");
}

#[test]
fn equiv_bad_input() {
    rejects(&["equiv", "--random", "0"], "--random 0");
    rejects(&["equiv", "--random", "-5"], "-5");
    rejects(&["equiv", "--random", "many"], "invalid value");
    rejects(&["equiv", "--random", "20000000"], "expected 1 to");
    rejects(&["equiv", "--seed", "x"], "invalid value");
}

#[test]
fn kingdefects_both_implementations_print_the_same() {
    let v = |args: &[&str]| -> serde_json::Value {
        let out = engine(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let fen = "r6k/8/8/1b6/3q4/4n3/8/2B2RK1 w - - 0 1";
    for implementation in ["mailbox", "bitboard"] {
        let r = v(&["kingdefects", "--fen", fen, "--impl", implementation, "--json"]);
        assert_eq!(r["white"]["count"], 3);
        assert_eq!(r["white"]["pointing"], 3);
        assert_eq!(r["black"]["count"], 0);
        assert_eq!(r["black"]["pointing"], 0);
    }
    for file in ["wac.epd", "ecm.epd", "endgames_20k.epd"] {
        let path = positions(file);
        let run = |implementation: &str| {
            let out = engine(&["kingdefects", &path, "--impl", implementation]);
            assert!(out.status.success());
            String::from_utf8(out.stdout).unwrap()
        };
        let (mailbox, bitboard) = (run("mailbox"), run("bitboard"));
        assert_eq!(mailbox, bitboard, "{file}");
        // id, then count and pointing for each side; both sides vary.
        let rows: Vec<Vec<i32>> =
            mailbox.lines().map(|l| l.split(' ').skip(1).map(|x| x.parse().unwrap()).collect::<Vec<i32>>()).collect();
        assert!(rows.iter().all(|r| r.len() == 4 && r[0] >= r[1] && r[2] >= r[3]));
        assert!(rows.iter().any(|r| r[1] > 0) && rows.iter().any(|r| r[0] == 0), "{file}");
    }
}
