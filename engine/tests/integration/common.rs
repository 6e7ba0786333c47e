//! The UCI test harness shared by the tests that drive the real `engine`
//! binary over pipes: start it, send lines, collect its output up to a
//! marker line, and quit with a check that it exited cleanly.

#![allow(dead_code)] // each test file uses its own part of the harness

use engine::movegen::legal_moves;
use engine::{Move, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long to wait for an expected line before failing.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A running `engine` process speaking UCI.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start engine");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine stdin");
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no {prefix:?} within {PATIENCE:?}; got {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited before {prefix:?}; got {seen:#?}"),
            }
        }
    }

    /// Every line the engine sends within `wait` (for checking that
    /// nothing more comes).
    pub fn lines_within(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            seen.push(line);
        }
        seen
    }

    /// Send `quit`; the process must exit successfully without a panic.
    pub fn quit(mut self) {
        self.send("quit");
        let out = self.child.wait_with_output().expect("engine exits");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "exit status {:?}, stderr {stderr}", out.status);
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

pub fn find_move(pos: &Position, text: &str) -> Option<Move> {
    legal_moves(pos).iter().copied().find(|m| m.uci().as_str() == text)
}

/// The move of a `bestmove` line.
pub fn bestmove_of(line: &str) -> &str {
    assert!(line.starts_with("bestmove "), "not a bestmove line: {line}");
    line.split_whitespace().nth(1).unwrap()
}
