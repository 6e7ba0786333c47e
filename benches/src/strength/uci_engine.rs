//! A UCI engine run as a child process for a whole match or suite run, and
//! talked to line by line: `uci`/`uciok`, options, `isready`/`readyok`,
//! `ucinewgame`, and `position` + `go` answered by `bestmove`, every wait
//! bounded by a deadline.
//!
//! The child is set up the way [`crate::engines::process`] sets up a measured one: in
//! its own process group (a hang is ended by killing the group, helpers
//! included; a Ctrl-C in the terminal does not reach it) and pinned to one
//! core with `sched_setaffinity` before `exec`, so every thread it starts
//! inherits the pin. Its stdout and stderr are read by two threads into one
//! channel; the last [`TAIL_LINES`] lines of both are kept so that a crash,
//! a hang or an illegal move can be recorded with what the engine said last.
//!
//! An engine that does not answer `go` within the time allowed is sent
//! `stop` and given a short grace ([`Timeouts::stop_grace`]) to answer; one
//! that answers then was late (the caller decides: a flag at a clock), one
//! that does not hangs and must be restarted.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

/// Lines of output kept for the record of a fault.
pub const TAIL_LINES: usize = 12;
/// Longest line kept whole (a longer one is cut and continued as the next).
const MAX_LINE: u64 = 64 << 10;
/// Lines queued between the readers and us before a chatty engine waits.
const QUEUE_LINES: usize = 4096;

/// What to start: the program with its arguments, and options to set.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The program and its arguments (see [`split_command`]).
    pub command: Vec<String>,
    /// `setoption name N value V`, in this order, after `uci`.
    pub options: Vec<(String, String)>,
}

/// How long to wait for the engine outside of its moves.
#[derive(Copy, Clone, Debug)]
pub struct Timeouts {
    /// For `uciok` after `uci` and `readyok` after `isready`.
    pub handshake: Duration,
    /// For `bestmove` after `stop`, once a move's allowance is spent.
    pub stop_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts { handshake: Duration::from_secs(10), stop_grace: Duration::from_secs(1) }
    }
}

/// A score as the engine reports it, from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// The engine's answer to `go`.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The move text after `bestmove` (empty when there was none).
    pub bestmove: String,
    /// From sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// From the last `info` line that had each.
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// It answered only after `stop`, past its allowance.
    pub after_stop: bool,
}

/// Why the engine gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It exited or closed its output; how, as words ("exited with status 3").
    Crashed(String),
    /// No answer within the time allowed nor after `stop`.
    Hung(Duration),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crashed(how) => write!(f, "crashed ({how})"),
            Fault::Hung(waited) => {
                write!(f, "hung (no bestmove {:.3} s after go, nor after stop)", waited.as_secs_f64())
            }
        }
    }
}

/// A line from one of the child's streams.
enum Line {
    Out(String),
    Err(String),
    /// Its stdout ended.
    OutClosed,
}

/// What waiting for a line brought.
enum Next {
    Line(String),
    Closed,
    Timeout,
}

/// A running UCI engine.
pub struct UciEngine {
    spec: EngineSpec,
    core: Option<usize>,
    timeouts: Timeouts,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    tail: VecDeque<String>,
    /// `id name`, if it sent one.
    pub id_name: Option<String>,
    /// Option names it advertised.
    pub option_names: Vec<String>,
    /// How many times it was started again after a fault.
    pub restarts: u32,
}

/// Split a command line into words as a POSIX shell would for plain
/// words: spaces separate, '...' keeps everything, "..." keeps all but `\"`
/// and `\\`, and a backslash outside quotes keeps the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("{text:?}: a ' quote is not closed")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("{text:?}: a \" quote is not closed")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("{text:?}: a \" quote is not closed")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("{text:?}: ends with a lone backslash")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("an engine command is empty".to_string());
    }
    Ok(words)
}

/// Parse `NAME=VALUE`.
pub fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("option {text:?} is not NAME=VALUE")),
    }
}

/// The move of a `bestmove` line (empty when it names none), or `None` for
/// any other line.
fn parse_bestmove(line: &str) -> Option<String> {
    let mut t = line.split_whitespace();
    (t.next() == Some("bestmove")).then(|| t.next().unwrap_or("").to_string())
}

/// Score, depth and nodes of an `info` line, where it has them.
fn parse_info(line: &str, score: &mut Option<EngineScore>, depth: &mut Option<u32>, nodes: &mut Option<u64>) {
    let t: Vec<&str> = line.split_whitespace().collect();
    if t.first() != Some(&"info") || t.get(1) == Some(&"string") {
        return;
    }
    let mut i = 1;
    while i < t.len() {
        match t[i] {
            // `pv` and `string` run to the end of the line.
            "pv" | "string" => break,
            "depth" => *depth = t.get(i + 1).and_then(|v| v.parse().ok()).or(*depth),
            "nodes" => *nodes = t.get(i + 1).and_then(|v| v.parse().ok()).or(*nodes),
            "score" => {
                let value = t.get(i + 2).and_then(|v| v.parse::<i32>().ok());
                match (t.get(i + 1), value) {
                    (Some(&"cp"), Some(v)) => *score = Some(EngineScore::Cp(v)),
                    (Some(&"mate"), Some(v)) => *score = Some(EngineScore::Mate(v)),
                    _ => {}
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
}

/// Start `command` in its own process group, pinned to `core`, with piped
/// stdin, stdout and stderr.
#[cfg(target_os = "linux")]
fn spawn(command: &[String], core: Option<usize>) -> Result<Child, String> {
    use std::os::unix::process::CommandExt;
    let program = crate::engines::process::resolve_program(std::path::Path::new(&command[0]))?;
    let mut cmd = Command::new(&program);
    cmd.args(&command[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: only async-signal-safe calls (setpgid, sched_setaffinity)
    // between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setpgid(0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if let Some(c) = core {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(c, &mut set);
                if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    crate::output::children::spawn(&mut cmd).map_err(|e| format!("cannot start {}: {e}", program.display()))
}

#[cfg(not(target_os = "linux"))]
fn spawn(_command: &[String], _core: Option<usize>) -> Result<Child, String> {
    Err("running UCI engines is only supported on Linux".to_string())
}

/// Forward each line of `from` as `wrap(line)`; then `end`, if any.
fn forward(from: impl Read, to: SyncSender<Line>, wrap: fn(String) -> Line, end: Option<Line>) {
    let mut reader = BufReader::new(from);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                if to.send(wrap(text)).is_err() {
                    return;
                }
            }
        }
    }
    if let Some(end) = end {
        let _ = to.send(end);
    }
}

impl UciEngine {
    /// Start the engine and complete the handshake: `uci` answered by
    /// `uciok`, the options set (each must be one it advertised; `Threads`
    /// is set to 1 where it has that option), `isready` answered by
    /// `readyok` with no error reported on the way.
    pub fn start(spec: &EngineSpec, core: Option<usize>, timeouts: Timeouts) -> Result<UciEngine, String> {
        let (child, stdin, lines) = Self::launch(spec, core)?;
        let mut engine = UciEngine {
            spec: spec.clone(),
            core,
            timeouts,
            child,
            stdin,
            lines,
            tail: VecDeque::new(),
            id_name: None,
            option_names: Vec::new(),
            restarts: 0,
        };
        engine.handshake()?;
        Ok(engine)
    }

    fn launch(spec: &EngineSpec, core: Option<usize>) -> Result<(Child, ChildStdin, Receiver<Line>), String> {
        let mut child = spawn(&spec.command, core)?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::sync_channel(QUEUE_LINES);
        let tx_err = tx.clone();
        // Detached: a process that escaped the group may hold the pipes;
        // these threads then end with that process, not with us.
        std::thread::spawn(move || forward(stdout, tx, Line::Out, Some(Line::OutClosed)));
        std::thread::spawn(move || forward(stderr, tx_err, Line::Err, None));
        Ok((child, stdin, rx))
    }

    /// The command line, for messages.
    pub fn command_line(&self) -> String {
        self.spec.command.join(" ")
    }

    fn handshake(&mut self) -> Result<(), String> {
        let who = self.command_line();
        let fail = |e: &UciEngine, what: String| format!("engine {who:?}: {what}; last output: {}", e.tail_text());
        if self.send("uci").is_err() {
            let how = self.exit_words();
            return Err(fail(self, format!("exited at start-up ({how})")));
        }
        let deadline = Instant::now() + self.timeouts.handshake;
        loop {
            match self.next_line(deadline) {
                Next::Line(l) if l.trim() == "uciok" => break,
                Next::Line(l) => {
                    let t: Vec<&str> = l.split_whitespace().collect();
                    if t.len() > 2 && t[0] == "id" && t[1] == "name" {
                        self.id_name = Some(t[2..].join(" "));
                    }
                    if t.len() > 2 && t[0] == "option" && t[1] == "name" {
                        let end = t.iter().position(|&w| w == "type").unwrap_or(t.len());
                        self.option_names.push(t[2..end.max(2)].join(" "));
                    }
                }
                Next::Closed => {
                    let how = self.exit_words();
                    return Err(fail(self, format!("exited at start-up ({how})")));
                }
                Next::Timeout => {
                    return Err(fail(
                        self,
                        format!(
                            "no uciok within {} s of uci (not a UCI engine?)",
                            self.timeouts.handshake.as_secs_f64()
                        ),
                    ))
                }
            }
        }
        let mut options = self.spec.options.clone();
        for (name, value) in &options {
            if !self.option_names.iter().any(|o| o.eq_ignore_ascii_case(name)) {
                let offered =
                    if self.option_names.is_empty() { "none".to_string() } else { self.option_names.join(", ") };
                return Err(format!("engine {who:?} has no option {name:?} (it offers: {offered})"));
            }
            if name.eq_ignore_ascii_case("threads") && value != "1" {
                return Err(format!("engine {who:?}: Threads={value}: matches are single-threaded (Threads=1)"));
            }
        }
        let has = |n: &str| self.option_names.iter().any(|o| o.eq_ignore_ascii_case(n));
        if has("Threads") && !options.iter().any(|(n, _)| n.eq_ignore_ascii_case("threads")) {
            options.insert(0, ("Threads".to_string(), "1".to_string()));
        }
        for (name, value) in &options {
            self.send(&format!("setoption name {name} value {value}")).map_err(|f| fail(self, f.to_string()))?;
        }
        // An engine that rejects an option says so before `readyok`.
        let said = self.ready().map_err(|f| fail(self, f.to_string()))?;
        if let Some(bad) = said.iter().find(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("error") || l.contains("no such option") || l.contains("unknown option")
        }) {
            return Err(format!("engine {who:?} refused its options: {bad}"));
        }
        Ok(())
    }

    /// `isready`, and the lines before `readyok`.
    fn ready(&mut self) -> Result<Vec<String>, Fault> {
        self.send("isready")?;
        let started = Instant::now();
        let deadline = started + self.timeouts.handshake;
        let mut said = Vec::new();
        loop {
            match self.next_line(deadline) {
                Next::Line(l) if l.trim() == "readyok" => return Ok(said),
                Next::Line(l) => said.push(l),
                Next::Closed => return Err(Fault::Crashed(self.exit_words())),
                Next::Timeout => return Err(Fault::Hung(started.elapsed())),
            }
        }
    }

    /// `ucinewgame` and wait until ready. The kept output starts afresh, so
    /// that a fault is recorded with this game's lines.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        self.tail.clear();
        self.send("ucinewgame")?;
        self.ready().map(|_| ())
    }

    /// Send `position` and `go` and wait for `bestmove`: up to `allowed`,
    /// then after `stop` up to the stop grace.
    pub fn go(&mut self, position: &str, go: &str, allowed: Duration) -> Result<Answer, Fault> {
        self.send(position)?;
        self.send(go)?;
        let started = Instant::now();
        let (mut score, mut depth, mut nodes) = (None, None, None);
        let mut deadline = started.checked_add(allowed).unwrap_or_else(|| started + Duration::from_secs(86_400 * 365));
        let mut after_stop = false;
        loop {
            match self.next_line(deadline) {
                Next::Line(l) => {
                    if let Some(bestmove) = parse_bestmove(&l) {
                        return Ok(Answer { bestmove, elapsed: started.elapsed(), score, depth, nodes, after_stop });
                    }
                    parse_info(&l, &mut score, &mut depth, &mut nodes);
                }
                Next::Closed => return Err(Fault::Crashed(self.exit_words())),
                Next::Timeout if after_stop => return Err(Fault::Hung(started.elapsed())),
                Next::Timeout => {
                    after_stop = true;
                    self.send("stop")?;
                    deadline = Instant::now() + self.timeouts.stop_grace;
                }
            }
        }
    }

    /// Kill the engine (its whole group) and start it again with the same
    /// options; a failure to start is an error for the whole run.
    pub fn restart(&mut self) -> Result<(), String> {
        self.kill();
        let (child, stdin, lines) = Self::launch(&self.spec, self.core)?;
        self.child = child;
        self.stdin = stdin;
        self.lines = lines;
        self.tail.clear();
        self.option_names.clear();
        self.restarts += 1;
        self.handshake()
    }

    /// The last lines of output (stderr lines marked), oldest first.
    pub fn last_output(&self) -> Vec<String> {
        self.tail.iter().cloned().collect()
    }

    fn tail_text(&self) -> String {
        if self.tail.is_empty() {
            "(none)".to_string()
        } else {
            self.tail.iter().rev().take(4).rev().cloned().collect::<Vec<_>>().join(" | ")
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let r = self.stdin.write_all(format!("{line}\n").as_bytes()).and_then(|()| self.stdin.flush());
        r.map_err(|e| Fault::Crashed(format!("{}; writing {line:?}: {e}", self.exit_words())))
    }

    /// The next stdout line before `deadline`; stderr lines go to the tail.
    fn next_line(&mut self, deadline: Instant) -> Next {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Line::Out(l)) => {
                    self.remember(&l);
                    return Next::Line(l);
                }
                Ok(Line::Err(l)) => self.remember(&format!("[stderr] {l}")),
                Ok(Line::OutClosed) | Err(RecvTimeoutError::Disconnected) => return Next::Closed,
                Err(RecvTimeoutError::Timeout) => return Next::Timeout,
            }
        }
    }

    fn remember(&mut self, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        if self.tail.len() == TAIL_LINES {
            self.tail.pop_front();
        }
        self.tail.push_back(match crate::engines::process::clip(line, 200) {
            (kept, true) => format!("{kept}..."),
            (whole, false) => whole.to_string(),
        });
    }

    /// How the process ended, in words, waiting briefly for it; one that
    /// is still running (it only closed its output) is killed.
    fn exit_words(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    crate::output::children::forget(self.child.id());
                    return describe_status(status);
                }
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                Ok(None) => {
                    self.kill();
                    return "closed its output while still running; killed".to_string();
                }
                Err(e) => return format!("status unknown: {e}"),
            }
        }
    }

    /// Kill the process group and reap the child.
    fn kill(&mut self) {
        #[cfg(target_os = "linux")]
        // SAFETY: signals the child's own process group (its pid).
        unsafe {
            libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
        }
        let _ = self.child.kill();
        if self.child.wait().is_ok() {
            crate::output::children::forget(self.child.id());
        }
    }
}

impl Drop for UciEngine {
    /// `quit`, a moment to exit, then the group is killed.
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n").and_then(|()| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

/// An exit status in words: "exited with status 3", "killed by signal 11 (SIGSEGV)".
fn describe_status(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGILL => " (SIGILL)",
                libc::SIGBUS => " (SIGBUS)",
                libc::SIGFPE => " (SIGFPE)",
                libc::SIGTERM => " (SIGTERM)",
                _ => "",
            };
            return format!("killed by signal {sig}{name}");
        }
    }
    match status.code() {
        Some(c) => format!("exited with status {c}"),
        None => "ended".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(split_command("  engine  uci ").unwrap(), ["engine", "uci"]);
        assert_eq!(split_command("'my engine' \"a \\\"b\\\" c\" x\\ y").unwrap(), ["my engine", "a \"b\" c", "x y"]);
        assert_eq!(split_command("a '' b").unwrap(), ["a", "", "b"]);
        assert!(split_command("a 'b").unwrap_err().contains("not closed"));
        assert!(split_command("   ").unwrap_err().contains("empty"));
    }

    #[test]
    fn options_are_name_equals_value() {
        assert_eq!(parse_option("Profile=mailbox").unwrap(), ("Profile".into(), "mailbox".into()));
        assert_eq!(parse_option("Skill Level = 3").unwrap(), ("Skill Level".into(), "3".into()));
        assert!(parse_option("Profile").unwrap_err().contains("not NAME=VALUE"));
        assert!(parse_option("=3").is_err());
    }

    #[test]
    fn info_and_bestmove_lines() {
        let (mut s, mut d, mut n) = (None, None, None);
        parse_info("info depth 7 seldepth 9 score cp -31 nodes 5123 nps 1 pv e2e4 e7e5", &mut s, &mut d, &mut n);
        assert_eq!((s, d, n), (Some(EngineScore::Cp(-31)), Some(7), Some(5123)));
        parse_info("info depth 8 score mate -3 lowerbound nodes 9000", &mut s, &mut d, &mut n);
        assert_eq!((s, d, n), (Some(EngineScore::Mate(-3)), Some(8), Some(9000)));
        // `info string` carries no figures, whatever its words.
        parse_info("info string depth 99 score cp 5", &mut s, &mut d, &mut n);
        assert_eq!(d, Some(8));
        assert_eq!(parse_bestmove("bestmove e7e8q ponder a1a2").as_deref(), Some("e7e8q"));
        assert_eq!(parse_bestmove("bestmove").as_deref(), Some(""));
        assert_eq!(parse_bestmove("info bestmove e2e4"), None);
    }
}
