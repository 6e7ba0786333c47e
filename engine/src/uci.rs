//! The UCI protocol loop. Commands are read line by line; a search runs on
//! its own thread so `stop`, `isready` and `quit` are answered while it
//! thinks. Every malformed line is answered with `info string error: ...`
//! and the loop carries on.
//!
//! Supported: `uci`, `isready`, `ucinewgame`, `setoption name Hash|Threads|
//! Profile|Weights|EvalCut value ...` (Weights: a DNA file as `engine evaldna
//! dump` writes it, `<builtin>` for the built-in table; EvalCut: the bitboard
//! profile with cut candidates left out, see [`crate::eval::mobility::cuts`]), `position startpos|fen ... [moves ...]` (the null
//! move `0000` among the moves is a pass), `go` with `depth nodes movetime
//! wtime btime winc binc movestogo infinite mate searchmoves`, `stop`,
//! `quit`, and `d` (prints the current FEN as an `info string`).
//!
//! Every `go` is answered by exactly one `bestmove` (`bestmove 0000` when
//! there is no legal move): a `go` whose limits are all invalid says so and
//! searches to depth 1; a `go` that arrives while a search runs until
//! `stop` (`go infinite`, a bare `go`) stops that search, which answers
//! first; a finite search still running is waited for; a search that fails
//! still answers with a legal move.

use crate::eval::mobility::cuts::Cuts;
use crate::eval::weights::Weights;
use crate::eval::{DynamicSet, EngineEval, EvalConfig, EvalStats, Evaluation, Evaluator};
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::search::tt::MAX_HASH_MB;
use crate::search::{
    Clock, Limits, MixedProfile, ProfileKind, Score, SearchInfo, SearchResult, Searcher, DEFAULT_HASH_MB, MAX_DEPTH,
    MAX_MATE_MOVES,
};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Stack of the search thread: deep enough for [`crate::search::MAX_PLY`]
/// plies of move lists with room to spare for any evaluation.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// A searcher of any profile, behind one object-safe interface so the UCI
/// loop can switch profiles at run time. Dispatch happens once per command,
/// never inside the search.
pub trait Engine: Send {
    /// Search `pos` within `limits`, reporting iterations to `on_info`.
    fn go(&mut self, pos: &mut Position, limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult;
    /// Forget the hash and the evaluation caches (new game).
    fn clear(&mut self);
    /// Resize the transposition table to `mb` MiB (it is cleared).
    fn resize_hash(&mut self, mb: usize) -> Result<(), crate::search::tt::HashSizeError>;
    /// The flag that stops a running search.
    fn stop_flag(&self) -> Arc<AtomicBool>;
    /// The profile this engine searches with.
    fn profile(&self) -> ProfileKind;
    /// The evaluator's counters.
    fn eval_stats(&self) -> EvalStats;
    /// Evaluate with `weights` from now on (see [`Evaluator::set_weights`]).
    fn set_weights(&mut self, weights: Weights) -> Result<(), String>;
}

struct ProfiledSearcher<P: crate::search::Profile> {
    kind: ProfileKind,
    searcher: Searcher<P>,
}

impl<P: crate::search::Profile> Engine for ProfiledSearcher<P> {
    fn go(&mut self, pos: &mut Position, limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        self.searcher.go(pos, limits, on_info)
    }
    fn clear(&mut self) {
        self.searcher.clear();
    }
    fn resize_hash(&mut self, mb: usize) -> Result<(), crate::search::tt::HashSizeError> {
        self.searcher.resize_hash(mb)
    }
    fn stop_flag(&self) -> Arc<AtomicBool> {
        self.searcher.stop_flag()
    }
    fn profile(&self) -> ProfileKind {
        self.kind
    }
    fn eval_stats(&self) -> EvalStats {
        self.searcher.eval_stats()
    }
    fn set_weights(&mut self, weights: Weights) -> Result<(), String> {
        self.searcher.evaluator_mut().set_weights(weights)
    }
}

/// A new engine of profile `kind` with a `hash_mb` MiB table.
pub fn new_engine(kind: ProfileKind, hash_mb: usize) -> Box<dyn Engine> {
    with_profile!(kind, P => Box::new(ProfiledSearcher::<P> { kind, searcher: Searcher::new(hash_mb) }))
}

/// The bitboard profile with `cuts` left out of its mobility (chain
/// routines behind function pointers chosen once), a `hash_mb` MiB table.
pub fn new_cut_engine(cuts: Cuts, hash_mb: usize) -> Box<dyn Engine> {
    let eval = Evaluation::new(DynamicSet::chain_with_cuts(cuts), Weights::default(), EvalConfig::default());
    Box::new(ProfiledSearcher::<MixedProfile> {
        kind: ProfileKind::Bitboard,
        searcher: Searcher::with_eval(hash_mb, EngineEval::new(eval)),
    })
}

/// The profile that cuts apply to.
const CUT_PROFILE: ProfileKind = ProfileKind::Bitboard;

/// The engine the options ask for: profile `kind` (or, with cuts, the
/// bitboard profile without them) scoring with `weights`.
fn configured_engine(kind: ProfileKind, cuts: Cuts, weights: Option<&Weights>, hash_mb: usize) -> Box<dyn Engine> {
    let mut engine = if cuts.is_none() { new_engine(kind, hash_mb) } else { new_cut_engine(cuts, hash_mb) };
    if let Some(w) = weights {
        // Every profile's evaluation has a weights table.
        engine.set_weights(w.clone()).expect("every profile's evaluation takes weights");
    }
    engine
}

/// Where UCI output goes; shared with the search thread, one line at a time.
type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(out: &Output, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed output (the GUI went away) is not worth a panic.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// The `info` line of one iteration.
pub fn info_line(info: &SearchInfo) -> String {
    let mut s = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        Score::from_internal(info.score),
        info.nodes,
        info.nps(),
        info.hashfull,
        info.elapsed.as_millis()
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in info.pv {
            s.push(' ');
            s.push_str(m.uci().as_str());
        }
    }
    s
}

/// A search running on its own thread. The thread hands its engine back,
/// or `None` if the search failed (a fresh engine replaces it).
struct Running {
    handle: JoinHandle<Option<Box<dyn Engine>>>,
    stop: Arc<AtomicBool>,
    /// Set once `bestmove` has been sent: the thread is about to finish.
    done: Arc<AtomicBool>,
    /// `go infinite`: answers only after `stop`.
    infinite: bool,
    /// Runs until `stop` in practice: `go infinite`, or a `go` without any
    /// limit. Commands that need the idle engine are refused, not queued
    /// behind it (queueing would stop the input loop from reading `stop`).
    until_stop: bool,
}

/// The protocol state.
pub struct Uci {
    out: Output,
    position: Position,
    profile: ProfileKind,
    hash_mb: usize,
    engine: Option<Box<dyn Engine>>,
    running: Option<Running>,
    /// At most this many nodes per search (see [`Uci::with_node_cap`]).
    node_cap: Option<u64>,
    /// The weights of the `Weights` option (`None`: the built-in table).
    weights: Option<Weights>,
    /// The `EvalCut` option.
    cuts: Cuts,
}

/// What to do after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

impl Uci {
    /// A protocol loop writing its answers to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Uci {
        Uci {
            out: Arc::new(Mutex::new(out)),
            position: Position::startpos(),
            profile: ProfileKind::default(),
            hash_mb: DEFAULT_HASH_MB,
            engine: Some(new_engine(ProfileKind::default(), DEFAULT_HASH_MB)),
            running: None,
            node_cap: None,
            weights: None,
            cuts: Cuts::NONE,
        }
    }

    /// The same loop with a `hash_mb` MiB table from the start, and every
    /// search stopped after at most `node_cap` nodes whatever its limits
    /// (`go infinite` still answers only after `stop`): for driving the
    /// protocol in-process with bounded work, as the fuzz tests do.
    pub fn with_node_cap(out: Box<dyn Write + Send>, hash_mb: usize, node_cap: u64) -> Uci {
        let hash_mb = hash_mb.clamp(1, MAX_HASH_MB);
        Uci {
            out: Arc::new(Mutex::new(out)),
            position: Position::startpos(),
            profile: ProfileKind::default(),
            hash_mb,
            engine: Some(new_engine(ProfileKind::default(), hash_mb)),
            running: None,
            node_cap: Some(node_cap.max(1)),
            weights: None,
            cuts: Cuts::NONE,
        }
    }

    fn send(&self, line: &str) {
        send(&self.out, line);
    }

    /// A fresh engine as the options ask for, with a `hash_mb` MiB table.
    fn fresh_engine(&self, hash_mb: usize) -> Box<dyn Engine> {
        configured_engine(self.profile, self.cuts, self.weights.as_ref(), hash_mb)
    }

    fn error(&self, message: &str) {
        self.send(&format!("info string error: {}", shorten(message)));
    }

    /// Read commands until `quit` or the end of the input.
    pub fn run(&mut self, input: impl BufRead) {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf);
            if self.command(&line) == Flow::Quit {
                break;
            }
        }
        self.stop_search();
    }

    /// Stop a running search and take the engine back (`bestmove` is sent
    /// by the search thread).
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            self.reclaim(r);
        }
    }

    fn reclaim(&mut self, r: Running) {
        match r.handle.join() {
            Ok(Some(engine)) => self.engine = Some(engine),
            Ok(None) | Err(_) => {
                self.error("the search failed; starting a fresh engine");
                self.engine = Some(self.fresh_engine(self.hash_mb));
            }
        }
    }

    /// The idle engine. A finite search still running is waited for (so
    /// scripted input queues up as a GUI would); during a search that runs
    /// until `stop` (`go infinite`, a bare `go`) the command is refused
    /// with an error and `None` is returned.
    fn idle_engine(&mut self, command: &str) -> Option<&mut Box<dyn Engine>> {
        if let Some(r) = self.running.take() {
            if r.until_stop && !r.done.load(Ordering::Acquire) {
                let what = if r.infinite { "an infinite search" } else { "a search without limits" };
                self.running = Some(r);
                self.error(&format!("{command} ignored: {what} is running (send stop first)"));
                return None;
            }
            self.reclaim(r);
        }
        self.engine.as_mut()
    }

    /// Handle one line.
    fn command(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&name, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        match name {
            "uci" => {
                self.send(concat!("id name boardbench ", env!("CARGO_PKG_VERSION")));
                self.send("id author the boardbench authors");
                self.send(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"));
                self.send("option name Threads type spin default 1 min 1 max 1");
                let vars: String = ProfileKind::EVERY.iter().map(|k| format!(" var {k}")).collect();
                self.send(&format!("option name Profile type combo default {}{vars}", ProfileKind::default()));
                self.send("option name Weights type string default <builtin>");
                self.send("option name EvalCut type string default none");
                self.send("uciok");
            }
            "isready" => self.send("readyok"),
            "ucinewgame" => {
                if let Some(engine) = self.idle_engine("ucinewgame") {
                    engine.clear();
                    self.position = Position::startpos();
                }
            }
            "setoption" => self.setoption(args),
            "position" => match parse_position(args) {
                Ok(pos) => self.position = pos,
                Err(e) => self.error(&format!("position ignored: {e}")),
            },
            "go" => self.go(args),
            "stop" => self.stop_search(),
            "quit" => return Flow::Quit,
            "d" => self.send(&format!("info string fen {}", self.position.to_fen())),
            other => self.error(&format!("unknown command {other:?}")),
        }
        Flow::Continue
    }

    fn setoption(&mut self, args: &[&str]) {
        let (name, value) = match parse_setoption(args) {
            Ok(nv) => nv,
            Err(e) => return self.error(&format!("setoption ignored: {e}")),
        };
        let lower = name.to_ascii_lowercase();
        if !matches!(lower.as_str(), "hash" | "threads" | "profile" | "weights" | "evalcut") {
            return self.error(&format!(
                "setoption ignored: unknown option {name:?} (Hash, Threads, Profile, Weights, EvalCut)"
            ));
        }
        let Some(value) = value else {
            return self.error(&format!("setoption ignored: option {name:?} needs a value"));
        };
        if self.idle_engine("setoption").is_none() {
            return;
        }
        match lower.as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                    if let Some(e) = self.engine.as_mut() {
                        match e.resize_hash(mb) {
                            Ok(()) => self.hash_mb = mb,
                            Err(err) => self
                                .error(&format!("setoption ignored: {err}; the table stays at {} MiB", self.hash_mb)),
                        }
                    }
                }
                _ => self.error(&format!("setoption ignored: Hash {value:?} is not a size in 1..={MAX_HASH_MB} MiB")),
            },
            "threads" => {
                if value.trim() != "1" {
                    self.error(&format!("setoption ignored: Threads {value:?}: this engine searches with 1 thread"));
                }
            }
            "weights" => {
                let trimmed = value.trim();
                let weights = if trimmed.is_empty() || trimmed.eq_ignore_ascii_case("<builtin>") {
                    None
                } else {
                    match Weights::load(std::path::Path::new(trimmed)) {
                        Ok(w) => Some(w),
                        Err(e) => return self.error(&format!("setoption ignored: {e}")),
                    }
                };
                self.weights = weights;
                self.engine = Some(self.fresh_engine(self.hash_mb));
            }
            "evalcut" => match Cuts::parse(&value) {
                Ok(cuts) if !cuts.is_none() && self.profile != CUT_PROFILE => self.error(&format!(
                    "setoption ignored: EvalCut applies to the {CUT_PROFILE} profile, not {} (set Profile first)",
                    self.profile
                )),
                Ok(cuts) => {
                    if cuts != self.cuts {
                        self.cuts = cuts;
                        self.engine = Some(self.fresh_engine(self.hash_mb));
                    }
                }
                Err(e) => self.error(&format!("setoption ignored: EvalCut: {e}")),
            },
            _ => match value.parse::<ProfileKind>() {
                Ok(kind) if kind != CUT_PROFILE && !self.cuts.is_none() => self.error(&format!(
                    "setoption ignored: EvalCut {} applies to the {CUT_PROFILE} profile only (set EvalCut none first)",
                    self.cuts
                )),
                Ok(kind) => {
                    if kind != self.profile {
                        self.profile = kind;
                        self.engine = Some(self.fresh_engine(self.hash_mb));
                    }
                }
                Err(e) => self.error(&format!("setoption ignored: {e}")),
            },
        }
    }

    fn go(&mut self, args: &[&str]) {
        let out = self.out.clone();
        let GoCommand { mut limits, infinite, .. } = parse_go(args, &self.position, &mut |e| {
            send(&out, &format!("info string error: go: {}", shorten(e)));
        });
        if let Some(cap) = self.node_cap {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        // A search that runs until `stop` is ended by the next `go` (it
        // answers first), so neither `go` is left without its `bestmove`.
        if self.running.as_ref().is_some_and(|r| r.until_stop && !r.done.load(Ordering::Acquire)) {
            self.send("info string go during a search that runs until stop: stopping it first");
            self.stop_search();
        }
        if self.idle_engine("go").is_none() {
            // Not reached: the running search was stopped above. Answer
            // anyway rather than leave the `go` hanging.
            return self.answer_without_engine(&limits);
        }
        let until_stop = infinite || !limits.is_bounded();
        let Some(mut engine) = self.engine.take() else {
            return self.answer_without_engine(&limits);
        };
        let stop = engine.stop_flag();
        stop.store(false, Ordering::Relaxed);
        let done = Arc::new(AtomicBool::new(false));
        let mut pos = self.position.clone();
        let out = self.out.clone();
        let (thread_stop, thread_done) = (stop.clone(), done.clone());
        let spawned =
            std::thread::Builder::new().name("search".into()).stack_size(SEARCH_STACK_BYTES).spawn(move || {
                let root = pos.clone();
                let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    engine.go(&mut pos, &limits, &mut |info| send(&out, &info_line(info)))
                }));
                // `go infinite` must not answer before `stop`.
                while infinite && !thread_stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                let (line, engine) = match searched {
                    Ok(result) => {
                        if let Some(outcome) = result.mate_search {
                            send(&out, &format!("info string {outcome}"));
                        }
                        (bestmove_line(&result), Some(engine))
                    }
                    Err(_) => {
                        send(&out, "info string error: the search failed; answering with a legal move");
                        (format!("bestmove {}", any_legal_move(&root, &limits.searchmoves).uci()), None)
                    }
                };
                thread_done.store(true, Ordering::Release);
                send(&out, &line);
                engine
            });
        match spawned {
            Ok(handle) => self.running = Some(Running { handle, stop, done, infinite, until_stop }),
            Err(e) => {
                self.error(&format!("cannot start the search thread: {e}; searching to depth 1 here"));
                self.engine = Some(self.fresh_engine(self.hash_mb));
                let limits = Limits { depth: Some(1), ..Limits::default() };
                self.answer_without_engine(&limits);
            }
        }
    }

    /// Answer a `go` on this thread with a fresh engine searching to depth
    /// 1 (the searchmoves kept): the fallback where no search thread runs.
    fn answer_without_engine(&mut self, limits: &Limits) {
        let limits = Limits { depth: Some(1), searchmoves: limits.searchmoves.clone(), ..Limits::default() };
        let mut engine = self.fresh_engine(1);
        let mut pos = self.position.clone();
        let result = engine.go(&mut pos, &limits, &mut |_| {});
        self.send(&bestmove_line(&result));
    }
}

/// The `bestmove` line of a search.
fn bestmove_line(result: &SearchResult) -> String {
    let mut line = format!("bestmove {}", result.best.uci());
    if let Some(ponder) = result.pv.get(1) {
        line.push_str(&format!(" ponder {}", ponder.uci()));
    }
    line
}

/// A legal move of `pos` (one of `searchmoves` if any is legal), or the
/// null move when there is none.
fn any_legal_move(pos: &Position, searchmoves: &[Move]) -> Move {
    let legal = legal_moves(pos);
    legal
        .iter()
        .copied()
        .find(|m| searchmoves.contains(m))
        .or_else(|| legal.iter().copied().next())
        .unwrap_or(Move::NULL)
}

/// At most 200 characters of an error message: it may quote a garbage line
/// of megabytes.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Split `setoption` arguments into the option name and value (both may
/// contain spaces).
fn parse_setoption(args: &[&str]) -> Result<(String, Option<String>), String> {
    if args.first() != Some(&"name") {
        return Err("expected `setoption name <id> [value <x>]`".into());
    }
    let value_at = args.iter().position(|&t| t == "value");
    let name_end = value_at.unwrap_or(args.len());
    let name = args[1..name_end].join(" ");
    if name.is_empty() {
        return Err("missing option name".into());
    }
    let value = value_at.map(|i| args[i + 1..].join(" "));
    if value.as_deref() == Some("") {
        return Err(format!("missing value for option {name:?}"));
    }
    Ok((name, value))
}

/// Parse `position startpos|fen <fen> [moves ...]` into a position with
/// the moves played (their history kept for repetition detection).
pub fn parse_position(args: &[&str]) -> Result<Position, String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let mut pos = match setup.split_first() {
        Some((&"startpos", [])) => Position::startpos(),
        Some((&"startpos", extra)) => return Err(format!("unexpected {:?} after startpos", extra.join(" "))),
        Some((&"fen", [])) => return Err("missing FEN after `fen`".into()),
        Some((&"fen", fen)) => {
            let text = fen.join(" ");
            Position::from_fen(&text).map_err(|e| format!("bad FEN {text:?}: {e}"))?
        }
        Some((other, _)) => return Err(format!("expected startpos or fen, found {other:?}")),
        None => return Err("expected startpos or fen".into()),
    };
    if let Some(i) = moves_at {
        for (n, text) in args[i + 1..].iter().enumerate() {
            if *text == "0000" {
                // A pass: fine unless it would leave a king in check.
                if pos.in_check() {
                    return Err(format!(
                        "move {} \"0000\" (a null move) is not allowed with the side to move in check in {}",
                        n + 1,
                        pos.to_fen()
                    ));
                }
                pos.make_pass();
                continue;
            }
            let found = legal_moves(&pos).iter().copied().find(|m| m.uci().as_str() == *text);
            match found {
                Some(m) => pos.make(m),
                None => {
                    return Err(format!("move {} {text:?} is not legal in {}", n + 1, pos.to_fen()));
                }
            }
        }
    }
    Ok(pos)
}

/// A parsed `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// The limits the command sets.
    pub limits: Limits,
    /// `go infinite`: search until `stop`, and answer only then.
    pub infinite: bool,
    /// Some limit's value was rejected (reported through `error`).
    pub rejected: bool,
}

/// The parameters of `go`; `searchmoves` takes every token up to the next
/// of these.
const GO_KEYWORDS: [&str; 12] = [
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
];

/// Parse `go` arguments in `pos`. Bad or unknown parameters, and moves
/// after `searchmoves` that are not legal in `pos`, are reported through
/// `error` and skipped. When a limit was given but none survived (and not
/// `infinite`), the search goes to depth 1, and `error` says so: every
/// `go` is answered.
pub fn parse_go(args: &[&str], pos: &Position, error: &mut dyn FnMut(&str)) -> GoCommand {
    let mut limits = Limits::default();
    let (mut infinite, mut rejected) = (false, false);
    let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) = (None, None, None, None, None);
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        match key {
            "infinite" => {
                infinite = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                let legal = legal_moves(pos);
                let end = args[i + 1..].iter().position(|t| GO_KEYWORDS.contains(t)).map_or(args.len(), |n| i + 1 + n);
                for &text in &args[i + 1..end] {
                    match legal.iter().copied().find(|m| m.uci().as_str() == text) {
                        Some(m) if !limits.searchmoves.contains(&m) => limits.searchmoves.push(m),
                        Some(_) => {}
                        None => error(&format!("searchmoves: {text:?} is not a legal move here; skipped")),
                    }
                }
                // Not a limit: a bad list leaves the limits as they are.
                if limits.searchmoves.is_empty() && !legal.is_empty() {
                    error("searchmoves names no legal move; searching every move");
                }
                i = end;
                continue;
            }
            "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo" | "mate" => {}
            other => {
                error(&format!("unknown parameter {other:?} skipped"));
                i += 1;
                continue;
            }
        }
        let Some(&text) = args.get(i + 1).filter(|t| !GO_KEYWORDS.contains(t)) else {
            error(&format!("{key} needs a value"));
            rejected = true;
            i += 1;
            continue;
        };
        i += 2;
        // Clocks may go negative in some GUIs (a flag fell): read as zero.
        // Any other negative number is an error.
        let number = match text.parse::<i64>() {
            Ok(n) if n >= 0 => n as u64,
            Ok(_) if matches!(key, "wtime" | "btime") => 0,
            Ok(_) => {
                error(&format!("{key} {text} is negative; skipped"));
                rejected = true;
                continue;
            }
            Err(_) => {
                error(&format!("{key} {text:?} is not a number; skipped"));
                rejected = true;
                continue;
            }
        };
        let ms = Duration::from_millis(number);
        match key {
            "depth" => {
                if number == 0 || number > MAX_DEPTH as u64 {
                    error(&format!("depth {number} is out of range 1..={MAX_DEPTH}; skipped"));
                    rejected = true;
                } else {
                    limits.depth = Some(number as u32);
                }
            }
            "mate" => {
                if number == 0 || number > MAX_MATE_MOVES as u64 {
                    error(&format!("mate {number} is out of range 1..={MAX_MATE_MOVES}; skipped"));
                    rejected = true;
                } else {
                    limits.mate = Some(number as u32);
                }
            }
            "nodes" if number == 0 => {
                error("nodes 0 is not a budget; skipped");
                rejected = true;
            }
            "nodes" => limits.nodes = Some(number),
            "movetime" => limits.movetime = Some(ms),
            "wtime" => wtime = Some(ms),
            "btime" => btime = Some(ms),
            "winc" => winc = Some(ms),
            "binc" => binc = Some(ms),
            _ => movestogo = Some(number.clamp(1, u32::MAX as u64) as u32),
        }
    }
    let (time, inc) = match pos.side_to_move() {
        crate::types::Color::White => (wtime, winc),
        crate::types::Color::Black => (btime, binc),
    };
    if let Some(time) = time {
        limits.clock = Some(Clock { time, increment: inc.unwrap_or_default(), moves_to_go: movestogo });
    }
    if infinite {
        limits.clock = None;
        limits.movetime = None;
    }
    // A limit was asked for but none survived: searching until `stop` was
    // not what the user wanted, and no answer at all hangs the GUI.
    if rejected && !infinite && !limits.is_bounded() {
        error("no valid limit left; searching to depth 1 (go infinite searches until stop)");
        limits.depth = Some(1);
    }
    GoCommand { limits, infinite, rejected }
}

/// Run the UCI loop on stdin and stdout.
pub fn run_stdio() {
    let stdin = std::io::stdin();
    let mut uci = Uci::new(Box::new(std::io::stdout()));
    uci.run(stdin.lock());
}
