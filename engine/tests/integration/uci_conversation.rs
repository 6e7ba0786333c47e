//! UCI conversations through the real binary on what a GUI may send at the
//! edges: every `go` is answered by exactly one `bestmove` (invalid limits,
//! `stop` after an answered search, a `go` during a search that runs until
//! `stop`, positions with no legal move), `go searchmoves`, `go mate N`,
//! the null move `0000` in `position ... moves`, and the depth reported
//! once a mate is found.

use crate::common;

use common::{bestmove_of, find_move, Engine};
use engine::uci::parse_position;
use engine::Position;
use std::time::Duration;

/// Mate in 2 (Qd8+ Bxd8 Re8#) and not in 1.
const MATE_IN_2: &str = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1";
/// Back-rank mate in 1 (Ra8#).
const MATE_IN_1: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
/// Black is checkmated; and a stalemate.
const CHECKMATED: &str = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
const STALEMATE: &str = "K7/8/1k6/8/8/8/7b/8 w - - 0 1";

/// Send `go_line`, then `isready`; return everything up to `readyok`,
/// having checked that exactly one `bestmove` came and that it is legal in
/// `pos` (or `0000` where `pos` has no legal move).
fn one_answer(e: &mut Engine, pos: &Position, go_line: &str) -> Vec<String> {
    e.send(go_line);
    let mut lines = e.until("bestmove");
    e.send("isready");
    lines.extend(e.until("readyok"));
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 1, "{go_line}: {lines:#?}");
    let best = bestmove_of(answers[0]);
    if engine::movegen::legal_moves(pos).is_empty() {
        assert_eq!(best, "0000", "{go_line}");
    } else {
        assert!(find_move(pos, best).is_some(), "{go_line}: illegal bestmove {best} in {}", pos.to_fen());
    }
    lines
}

/// Whatever arrives within a short wait must hold no `bestmove`.
fn no_more_answers(e: &mut Engine, after: &str) {
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "after {after}: {lines:#?}");
}

#[test]
fn a_go_with_only_invalid_limits_says_why_and_searches_to_depth_1() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    let pos = Position::startpos();
    for (go, reason) in [
        ("go depth 0", "depth 0 is out of range"),
        ("go nodes 0", "nodes 0 is not a budget"),
        ("go depth -1", "depth -1 is negative"),
        ("go movetime -5", "movetime -5 is negative"),
        ("go depth abc", "depth \"abc\" is not a number"),
        ("go depth", "depth needs a value"),
        ("go mate 0", "mate 0 is out of range"),
        ("go mate x", "mate \"x\" is not a number"),
        ("go depth 0 nodes 0 movetime -1", "nodes 0 is not a budget"),
    ] {
        let lines = one_answer(&mut e, &pos, go);
        assert!(lines.iter().any(|l| l.starts_with("info string") && l.contains(reason)), "{go}: {lines:#?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.contains("no valid limit left; searching to depth 1")),
            "{go}: {lines:#?}"
        );
        let depths: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
        assert!(!depths.is_empty() && depths.iter().all(|l| l.starts_with("info depth 1 ")), "{go}: {depths:#?}");
        // The search is over and answered: stop adds nothing.
        e.send("stop");
        no_more_answers(&mut e, go);
    }
    // The valid limits of a go are kept when others are rejected.
    let lines = one_answer(&mut e, &pos, "go depth 0 nodes 500");
    assert!(lines.iter().all(|l| !l.contains("no valid limit left")), "{lines:#?}");
    // The reproduction from the report, with the pauses of a GUI.
    e.send("go depth 0");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    e.send("isready");
    let lines = e.until("readyok");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{lines:#?}");
    e.quit();
}

#[test]
fn stop_answers_searches_that_run_until_stop_and_a_new_go_ends_them() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves e2e4");
    let pos = parse_position(&["startpos", "moves", "e2e4"]).unwrap();
    for go in ["go infinite", "go", "go searchmoves e7e5 c7c5"] {
        e.send(go);
        std::thread::sleep(Duration::from_millis(50));
        no_more_answers(&mut e, go);
        e.send("stop");
        let lines = e.until("bestmove");
        assert!(find_move(&pos, bestmove_of(lines.last().unwrap())).is_some(), "{go}: {lines:#?}");
        e.send("stop");
        no_more_answers(&mut e, "a second stop");
    }
    // A go while a search runs until stop: the running search answers,
    // then the new one does; one bestmove each.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("go depth 2");
    let first = e.until("bestmove");
    assert!(first.iter().any(|l| l.contains("stopping it first")), "{first:#?}");
    let second = e.until("bestmove");
    assert!(second.iter().any(|l| l.starts_with("info depth 2 ")), "{second:#?}");
    for answer in [first.last().unwrap(), second.last().unwrap()] {
        assert!(find_move(&pos, bestmove_of(answer)).is_some(), "{answer}");
    }
    e.send("stop");
    no_more_answers(&mut e, "go depth 2 after go infinite");
    // Finite searches queue: each is answered in turn.
    e.send("go nodes 20000");
    e.send("go depth 3");
    e.send("go nodes 1");
    for _ in 0..3 {
        let answer = e.until("bestmove").pop().unwrap();
        assert!(find_move(&pos, bestmove_of(&answer)).is_some(), "{answer}");
    }
    no_more_answers(&mut e, "three queued searches");
    e.quit();
}

#[test]
fn positions_without_a_legal_move_answer_0000() {
    let mut e = Engine::start(&[]);
    for fen in [CHECKMATED, STALEMATE] {
        let pos = Position::from_fen(fen).unwrap();
        e.send(&format!("position fen {fen}"));
        for go in
            ["go depth 3", "go nodes 1000", "go movetime 50", "go wtime 1000 btime 1000", "go mate 3", "go depth 0"]
        {
            one_answer(&mut e, &pos, go);
        }
        // Without limits the answer comes at once; infinite waits for stop.
        one_answer(&mut e, &pos, "go");
        e.send("go infinite");
        no_more_answers(&mut e, "go infinite with no legal move");
        e.send("stop");
        assert_eq!(e.until("bestmove").last().unwrap(), "bestmove 0000");
    }
    e.quit();
}

#[test]
fn searchmoves_restricts_the_root_moves() {
    let mut e = Engine::start(&[]);
    // White wins the queen with Rxd5 (or Bxd5); restricted to quiet moves
    // elsewhere it must play one of them.
    let fen = "4k3/8/8/3q4/8/4B3/8/3RK3 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    e.send(&format!("position fen {fen}"));
    let lines = one_answer(&mut e, &pos, "go depth 4");
    assert_eq!(bestmove_of(lines.iter().find(|l| l.starts_with("bestmove")).unwrap()), "d1d5", "{lines:#?}");
    for (go, allowed) in [
        ("go searchmoves e1f2 e1e2 depth 4", &["e1f2", "e1e2"][..]),
        ("go depth 4 searchmoves e3f4", &["e3f4"][..]),
        ("go searchmoves e1f2 zz e7e5 e3f4 nodes 5000", &["e1f2", "e3f4"][..]),
        ("go movetime 100 searchmoves e1e2", &["e1e2"][..]),
        ("go searchmoves e1f1 mate 2", &["e1f1"][..]),
    ] {
        let lines = one_answer(&mut e, &pos, go);
        let best = bestmove_of(lines.iter().find(|l| l.starts_with("bestmove")).unwrap());
        assert!(allowed.contains(&best), "{go}: bestmove {best} not among {allowed:?}");
        for info in lines.iter().filter(|l| l.starts_with("info depth")) {
            let first = info.split(" pv ").nth(1).and_then(|pv| pv.split_whitespace().next());
            assert!(first.is_some_and(|m| allowed.contains(&m)), "{go}: {info}");
        }
        if go.contains("zz") {
            for bad in ["\"zz\" is not a legal move", "\"e7e5\" is not a legal move"] {
                assert!(lines.iter().any(|l| l.contains(bad)), "{go}: {lines:#?}");
            }
        }
    }
    // No legal move named: every move is searched, and it says so.
    let lines = one_answer(&mut e, &pos, "go searchmoves a1a2 depth 3");
    assert!(lines.iter().any(|l| l.contains("searchmoves names no legal move; searching every move")), "{lines:#?}");
    e.quit();
}

#[test]
fn go_mate_finds_the_mate_or_says_there_is_none() {
    let mut e = Engine::start(&[]);
    let pos = Position::from_fen(MATE_IN_2).unwrap();
    e.send(&format!("position fen {MATE_IN_2}"));
    for go in ["go mate 2", "go mate 5", "go mate 3 movetime 10000"] {
        let lines = one_answer(&mut e, &pos, go);
        let info = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
        assert!(info.starts_with("info depth 3 seldepth 3 score mate 2 "), "{go}: {info}");
        assert!(info.ends_with(" pv d5d8 e7d8 e1e8"), "{go}: {info}");
        assert_eq!(bestmove_of(lines.iter().find(|l| l.starts_with("bestmove")).unwrap()), "d5d8");
        assert!(lines.iter().any(|l| l == "info string mate in 2 found"), "{go}: {lines:#?}");
    }
    // None in 1: proven, and a move is still played.
    let lines = one_answer(&mut e, &pos, "go mate 1");
    assert!(lines.iter().any(|l| l == "info string no mate in 1 (every line searched)"), "{lines:#?}");
    // Cut short by a node budget: it says what it settled.
    e.send("position startpos");
    let lines = one_answer(&mut e, &Position::startpos(), "go mate 5 nodes 20000");
    assert!(lines.iter().any(|l| l.starts_with("info string mate search stopped")), "{lines:#?}");
    // Stopped by stop.
    e.send("go mate 8");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(find_move(&Position::startpos(), bestmove_of(lines.last().unwrap())).is_some());
    e.quit();
}

#[test]
fn the_null_move_in_a_move_list_is_a_pass() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves e2e4 0000 d2d4");
    e.send("d");
    let fen = e.until("info string fen").pop().unwrap();
    // Black passed, so White moved twice; the pass moved the fullmove
    // number on.
    assert_eq!(fen, "info string fen rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2");
    let pos = parse_position(&["startpos", "moves", "e2e4", "0000", "d2d4"]).unwrap();
    one_answer(&mut e, &pos, "go depth 3");
    e.send("position startpos moves g1f3 0000 f3g1 0000");
    e.send("d");
    assert_eq!(
        e.until("info string fen").pop().unwrap(),
        "info string fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3"
    );
    // A pass with the king in check would leave it capturable: refused.
    e.send("position startpos moves e2e4 f7f6 d1h5 0000");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.iter().any(|l| l.contains("\"0000\" (a null move) is not allowed")), "{lines:#?}");
    e.quit();
}

#[test]
fn passes_keep_the_repetition_history() {
    // The start position again after two knight moves and two passes: the
    // positions before the passes count, as python-chess counts them.
    let pos = parse_position(&["startpos", "moves", "g1f3", "0000", "f3g1", "0000"]).unwrap();
    assert!(pos.is_repetition());
    assert_eq!(pos.halfmove_clock(), 4);
    let pos = parse_position(&["startpos", "moves", "g1f3", "g8f6", "f3g1", "0000"]).unwrap();
    assert!(!pos.is_repetition(), "White to move with Black's knight on f6 is new");
    // A pawn move still resets the count.
    let pos = parse_position(&["startpos", "moves", "g1f3", "0000", "e2e4"]).unwrap();
    assert_eq!(pos.halfmove_clock(), 0);
}

#[test]
fn a_mate_found_reports_its_own_depth() {
    let mut e = Engine::start(&[]);
    let pos = Position::from_fen(MATE_IN_1).unwrap();
    e.send(&format!("position fen {MATE_IN_1}"));
    for go in ["go nodes 200000", "go wtime 5000 btime 5000", "go movetime 2000"] {
        let lines = one_answer(&mut e, &pos, go);
        let depths: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
        let last = depths.last().unwrap();
        assert!(last.starts_with("info depth 1 seldepth 1 score mate 1 "), "{go}: {depths:#?}");
    }
    // go infinite stops deepening too, and still waits for stop.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "{lines:#?}");
    let depths: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(depths.iter().all(|l| l.starts_with("info depth 1 ")), "{depths:#?}");
    e.send("stop");
    assert_eq!(e.until("bestmove").last().unwrap(), "bestmove a1a8");
    // An explicit depth is searched as asked.
    let lines = one_answer(&mut e, &pos, "go depth 6");
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")), "{lines:#?}");
    e.quit();
}
