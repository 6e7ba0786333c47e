//! The UCI loop through the real binary: handshake, options, errors for
//! malformed input (the engine keeps running), `stop`/`isready` during
//! `go infinite`, and self-play games at a fast time control with every
//! move checked for legality, played to the end of the game.

use crate::common;

use common::{find_move, Engine};
use engine::movegen::legal_moves;
use engine::rng::Rng;
use engine::Position;
use std::collections::HashMap;
use std::time::{Duration, Instant};

#[test]
fn handshake_and_options() {
    for args in [&[][..], &["uci"][..]] {
        let mut e = Engine::start(args);
        e.send("uci");
        let lines = e.until("uciok");
        assert!(lines.iter().any(|l| l.starts_with("id name ")));
        for option in ["option name Hash type spin", "option name Threads type spin", "option name Profile type combo"]
        {
            assert!(lines.iter().any(|l| l.starts_with(option)), "{option} missing: {lines:?}");
        }
        e.send("isready");
        e.until("readyok");
        let combo = lines.iter().find(|l| l.starts_with("option name Profile type combo")).unwrap();
        for name in ["mailbox", "bitboard", "single-probe", "bitboard-old-movegen", "mailbox-new-mobility"] {
            assert!(combo.contains(&format!(" var {name}")), "{name} missing: {combo}");
        }
        for setting in [
            "Hash value 1",
            "Threads value 1",
            "Profile value mailbox",
            "Profile value bitboard-old-attacks",
            "Profile value single-probe",
        ] {
            e.send(&format!("setoption name {setting}"));
        }
        e.send("isready");
        let lines = e.until("readyok");
        assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
        e.send("position startpos moves e2e4 e7e5 g1f3");
        e.send("go depth 4");
        let lines = e.until("bestmove");
        let depths: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
        assert!(depths.len() >= 4, "{lines:?}");
        for l in &depths {
            for field in [" seldepth ", " score ", " nodes ", " nps ", " time ", " pv "] {
                assert!(l.contains(field), "{field} missing in {l}");
            }
        }
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
        let pos = engine::uci::parse_position(&["startpos", "moves", "e2e4", "e7e5", "g1f3"]).unwrap();
        assert!(find_move(&pos, &best).is_some(), "illegal bestmove {best}");
        e.quit();
    }
}

#[test]
fn malformed_input_gets_errors_and_the_engine_carries_on() {
    let mut e = Engine::start(&[]);
    // A megabyte of garbage: the error quotes only its start.
    let long_line = "x".repeat(1 << 20);
    let cases = [
        ("xyzzy", "unknown command"),
        ("position", "expected startpos or fen"),
        ("position fen", "missing FEN"),
        ("position fen 8/8/8/8 w", "bad FEN"),
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "bad FEN"),
        ("position startpos moves e2e4 e2e4", "move 2 \"e2e4\" is not legal"),
        ("position startpos moves e7e5", "move 1 \"e7e5\" is not legal"),
        ("position startpos moves zz", "not legal"),
        ("position startpos banana", "unexpected"),
        ("position somewhere", "expected startpos or fen"),
        ("setoption", "expected `setoption name"),
        ("setoption name", "missing option name"),
        ("setoption name Hash", "needs a value"),
        ("setoption name Hash value lots", "not a size"),
        ("setoption name Hash value 0", "not a size"),
        ("setoption name Threads value 2", "1 thread"),
        ("setoption name Profile value magic", "unknown profile"),
        ("setoption name Contempt value 10", "unknown option"),
        ("\u{fffd}\u{1b}[2J garbage \u{0}", "unknown command"),
        (long_line.as_str(), "unknown command \"xxxxxxxx"),
    ];
    for (line, needle) in cases {
        e.send(line);
        e.send("isready");
        let lines = e.until("readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error") && l.contains(needle)),
            "{line:?} should give an error containing {needle:?}; got {lines:?}"
        );
        assert!(lines.iter().all(|l| l.len() < 300), "an error quotes at most 200 characters: {line:.40}");
    }
    // A Hash larger than the machine is refused; the engine keeps its table.
    let max = engine::search::tt::MAX_HASH_MB;
    if engine::search::tt::check_hash_mb(max).is_err() {
        e.send(&format!("setoption name Hash value {max}"));
        e.send("isready");
        let lines = e.until("readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error") && l.contains("more than this machine's memory")),
            "{lines:?}"
        );
    }
    // Bad go parameters are reported and skipped; the search still runs.
    e.send("position startpos moves e2e4");
    e.send("go depth x nodes -5 movetime banana frobnicate depth 3 wtime");
    let lines = e.until("bestmove");
    for needle in [
        "depth \"x\" is not a number",
        "nodes -5 is negative",
        "movetime \"banana\" is not a number",
        "unknown parameter \"frobnicate\"",
        "wtime needs a value",
    ] {
        assert!(lines.iter().any(|l| l.contains(needle)), "{needle}: {lines:?}");
    }
    let pos = engine::uci::parse_position(&["startpos", "moves", "e2e4"]).unwrap();
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(find_move(&pos, best).is_some(), "{best}");
    // A go without limits runs until stop; commands that need the idle
    // engine are refused meanwhile instead of stalling the input. (What
    // every kind of go is answered with: tests/integration/uci_conversation.rs.)
    e.send("go");
    e.send("ucinewgame");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.iter().any(|l| l.contains("ucinewgame ignored: a search without limits is running")), "{lines:?}");
    e.send("stop");
    let lines = e.until("bestmove");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(find_move(&pos, best).is_some(), "{best}");
    // A bad position command leaves the previous position in place.
    e.send("position fen 7k/8/8/8/8/8/8/K5R1 w - - 0 1");
    e.send("position fen nonsense");
    e.send("d");
    let lines = e.until("info string fen");
    assert_eq!(lines.last().unwrap(), "info string fen 7k/8/8/8/8/8/8/K5R1 w - - 0 1");
    // Game over at the root: bestmove 0000.
    e.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.until("bestmove").last().unwrap(), "bestmove 0000");
    e.quit();
}

#[test]
fn stop_and_isready_during_infinite_search() {
    let mut e = Engine::start(&[]);
    e.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "{lines:?}");
    e.send("setoption name Hash value 2");
    e.send("position startpos");
    e.send("isready");
    let lines = e.until("readyok");
    assert_eq!(lines.iter().filter(|l| l.contains("infinite search is running")).count(), 1, "{lines:?}");
    e.send("stop");
    let lines = e.until("bestmove");
    let pos = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(find_move(&pos, best).is_some(), "{best}");
    // The engine is idle again: options and searches work.
    e.send("setoption name Hash value 2");
    e.send("go nodes 2000");
    let lines = e.until("bestmove");
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    // quit during a search ends the process promptly.
    e.send("go infinite");
    e.quit();
}

/// How a self-play game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Ending {
    Checkmate,
    Stalemate,
    FiftyMoves,
    Repetition,
    Material,
    MoveCap,
}

fn game_over(pos: &Position, seen: &HashMap<u64, u32>) -> Option<Ending> {
    if legal_moves(pos).is_empty() {
        return Some(if pos.in_check() { Ending::Checkmate } else { Ending::Stalemate });
    }
    if pos.halfmove_clock() >= 100 {
        return Some(Ending::FiftyMoves);
    }
    if seen.get(&pos.key()).copied().unwrap_or(0) >= 3 {
        return Some(Ending::Repetition);
    }
    if pos.insufficient_material() {
        return Some(Ending::Material);
    }
    None
}

#[test]
fn self_play_games_are_legal_to_the_end() {
    const GAMES: usize = 20;
    const MOVE_CAP: usize = 160;
    let profiles = ["bitboard", "mailbox", "single-probe"];
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    let mut rng = Rng::new(0x5e1f_91a7);
    let mut endings: HashMap<Ending, usize> = HashMap::new();
    for game in 0..GAMES {
        e.send(&format!("setoption name Profile value {}", profiles[game % profiles.len()]));
        e.send("ucinewgame");
        let mut pos = Position::startpos();
        let mut moves: Vec<String> = Vec::new();
        let mut seen: HashMap<u64, u32> = HashMap::from([(pos.key(), 1)]);
        // Two random plies per side open each game differently.
        for _ in 0..4 {
            let legal = legal_moves(&pos);
            let m = legal[rng.index(legal.len())];
            moves.push(m.uci().to_string());
            pos.make(m);
            *seen.entry(pos.key()).or_default() += 1;
        }
        let mut clock_ms = [200i64, 200];
        let increment_ms = 2;
        let ending = loop {
            if let Some(end) = game_over(&pos, &seen) {
                break end;
            }
            if moves.len() >= MOVE_CAP {
                break Ending::MoveCap;
            }
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            let side = pos.side_to_move().index();
            let started = Instant::now();
            e.send(&format!(
                "go wtime {} btime {} winc {increment_ms} binc {increment_ms}",
                clock_ms[0].max(1),
                clock_ms[1].max(1)
            ));
            let lines = e.until("bestmove");
            clock_ms[side] += increment_ms - started.elapsed().as_millis() as i64;
            assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
            let text = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
            let Some(m) = find_move(&pos, &text) else {
                panic!("game {game}: illegal bestmove {text} in {} after {}", pos.to_fen(), moves.join(" "));
            };
            let last_info = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
            assert!(last_info.contains(&format!(" pv {text}")), "{last_info} vs bestmove {text}");
            moves.push(text);
            pos.make(m);
            *seen.entry(pos.key()).or_default() += 1;
        };
        *endings.entry(ending).or_default() += 1;
    }
    e.quit();
    assert_eq!(endings.values().sum::<usize>(), GAMES);
    let decided = endings.iter().filter(|(k, _)| **k != Ending::MoveCap).map(|(_, v)| v).sum::<usize>();
    assert!(decided > 0, "some game ends by the rules: {endings:?}");
    eprintln!("endings: {endings:?}");
}
