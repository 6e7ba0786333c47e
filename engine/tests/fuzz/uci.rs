//! Whole UCI sessions through the protocol loop in-process
//! ([`Uci::with_node_cap`]: every search stops within a node budget): no
//! session panics or hangs, every `go` before `quit` gets exactly one
//! `bestmove` (a move or `0000`), no search fails, and no line the engine
//! writes is longer than an info line can be.

use crate::grammar::{fen_text, move_token, number_token, seed_fens};
use crate::{cases, ensure, run_target};
use engine::uci::Uci;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Nodes per search: enough for a few plies, little enough for millions of
/// sessions.
const NODE_CAP: u64 = 300;
/// Transposition tables above this are what the user asked for, not
/// unbounded: the sessions keep them small.
const MAX_HASH_MB: usize = 8;

fn go_line() -> impl Strategy<Value = String> {
    let keyword = select(vec![
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "infinite",
        "mate",
        "searchmoves",
        "ponder",
    ])
    .prop_map(str::to_string);
    let token = prop_oneof![4 => keyword, 3 => number_token(), 2 => move_token()];
    vec(token, 0..7).prop_map(|t| format!("go {}", t.join(" ")))
}

fn position_line() -> impl Strategy<Value = String> {
    let setup = prop_oneof![
        2 => Just("startpos".to_string()),
        2 => select(seed_fens().to_vec()).prop_map(|f| format!("fen {f}")),
        1 => fen_text().prop_map(|f| format!("fen {f}")),
        1 => "[a-z]{0,8}",
    ];
    (setup, prop_oneof![Just(""), Just(" moves")], vec(move_token(), 0..8))
        .prop_map(|(setup, moves, list)| format!("position {setup}{moves} {}", list.join(" ")))
}

fn setoption_line() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        select(vec!["1", "2", "8", "0", "-1", "lots", "99999999", "65537", "1 2"]).prop_map(str::to_string),
        select(vec!["mailbox", "bitboard", "single-probe", "bitboard-old-movegen", "nonsense"])
            .prop_map(str::to_string),
    ];
    let name = select(vec!["Hash", "hash", "Threads", "Profile", "Contempt", "", "Hash Size"]);
    (name, prop_oneof![3 => Just(" value "), 1 => Just(" "), 1 => Just("")], value)
        .prop_map(|(name, v, value)| format!("setoption name {name}{v}{value}"))
}

/// A line of a session.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => go_line(),
        4 => position_line(),
        1 => setoption_line(),
        3 => select(vec!["uci", "isready", "ucinewgame", "stop", "d", "quit", "ponderhit", "", "go infinite", "go"])
            .prop_map(str::to_string),
        1 => "\\PC{0,40}",
    ]
    // Lines are split on '\n' by the loop: a line holds none.
    .prop_map(|l| l.replace('\n', " "))
}

/// An output sink shared with the loop's threads.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether a `setoption` line asks for a table over [`MAX_HASH_MB`] that
/// the engine would allocate (larger than its maximum is refused).
fn asks_for_a_big_table(line: &str) -> bool {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let allocated = MAX_HASH_MB + 1..=engine::search::tt::MAX_HASH_MB;
    tokens.first() == Some(&"setoption")
        && tokens
            .iter()
            .position(|&t| t == "value")
            .is_some_and(|i| tokens[i + 1..].join(" ").parse::<usize>().is_ok_and(|mb| allocated.contains(&mb)))
}

fn is_move(text: &str) -> bool {
    let b = text.as_bytes();
    text == "0000"
        || ((b.len() == 4 || b.len() == 5)
            && b[0].is_ascii_lowercase()
            && b[1].is_ascii_digit()
            && b[2].is_ascii_lowercase()
            && b[3].is_ascii_digit())
}

#[test]
fn uci_sessions() {
    run_target("uci", (cases(12_000) / 40).max(1), vec(line(), 1..12), |lines| {
        let lines: Vec<&str> = lines.iter().map(String::as_str).filter(|l| !asks_for_a_big_table(l)).collect();
        let input = lines.join("\n");
        let sink = Sink::default();
        let mut uci = Uci::with_node_cap(Box::new(sink.clone()), 1, NODE_CAP);
        uci.run(input.as_bytes());
        drop(uci);
        let output = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        // The loop reads lossily: count commands as it sees them.
        let first = |l: &str| String::from_utf8_lossy(l.as_bytes()).split_whitespace().next().map(str::to_string);
        let processed = lines.iter().take_while(|l| first(l).as_deref() != Some("quit"));
        let gos = processed.filter(|l| first(l).as_deref() == Some("go")).count();
        let answers: Vec<&str> = output.lines().filter(|l| l.starts_with("bestmove")).collect();
        ensure(answers.len() == gos, || format!("{gos} go commands, {} bestmove lines:\n{output}", answers.len()))?;
        for answer in &answers {
            let best = answer.split_whitespace().nth(1).unwrap_or("");
            ensure(is_move(best), || format!("{answer:?} names no move"))?;
        }
        ensure(!output.contains("search failed"), || format!("a search failed:\n{output}"))?;
        let longest = output.lines().map(str::len).max().unwrap_or(0);
        ensure(longest <= 1500, || format!("a line of {longest} characters"))
    });
}
