//! The search: single-threaded iterative deepening with aspiration windows
//! over a principal-variation alpha-beta search, generic over an engine
//! [`Profile`] so each profile is its own monomorphised search.
//!
//! * Interior nodes: transposition table cutoffs (non-PV), reverse futility
//!   and null-move pruning, futility and late move pruning of quiet moves,
//!   late move reductions, killers and history, check extension, and the
//!   one-legal-reply extension when the king is short of defenders (a
//!   king-safety defect count above 1, [`crate::defects`]).
//! * Quiescence: stand pat on the (lazy) evaluation, captures and queen
//!   promotions in MVV/LVA order, losing captures pruned by SEE, delta
//!   pruning, and the qsearch-in-check extension under the same condition.
//! * Draws: repetition, the fifty-move rule, insufficient material. Mates
//!   are `±(MATE - ply)`.
//! * Limits: depth, nodes, move time, clock, infinite; a shared stop flag.
//!   The root moves may be restricted (UCI `searchmoves`), and a search for
//!   a mate in N moves runs a separate full-width search ([`mate`]).
//!
//! Nodes are counted as Crafty counts them: one per move made on the board
//! (and one for the root), and one per quiet move pruned by futility or
//! late move pruning, which Crafty makes before pruning it because making
//! it is how Crafty learns whether it gives check. The bitboard attack
//! routines answer that without making the move, so such a move is counted
//! though it may never be made; [`SearchResult::pruned`] says how many of
//! the nodes were these.
//!
//! Determinism: the move order is a total order on the moves themselves
//! (see `ordering.rs`), and nothing time-dependent happens at fixed depth, so
//! two profiles whose generators emit the same moves in different orders,
//! and whose evaluations agree, search identical trees.

pub mod attacks;
pub mod mate;
pub(crate) mod ordering;
// `with_profile!` is written by the profile table, so this crate reaches it
// by textual scope (`#[macro_use]`), not by path.
#[macro_use]
pub mod profile;
pub mod tt;

pub use attacks::{AttackRoutines, BitboardAttacks, MailboxAttacks};
pub use profile::{
    BitboardProfile, MailboxProfile, MixedProfile, Profile, ProfileKind, SingleProbeProfile, UnknownProfile,
};

use crate::bitboard::Bitboard;
use crate::defects::DefectCounter;
use crate::eval::{EvalStats, Evaluator};
use crate::fixed_vec::FixedVec;
use crate::movegen::MoveGen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::PieceType;
use ordering::{class, key_class, order_key, History, Killers, ScoredMoves};
use std::fmt;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable};

/// Deepest ply the search reaches (extensions and quiescence included).
pub const MAX_PLY: usize = 128;
/// Deepest iteration a search starts.
pub const MAX_DEPTH: u32 = 100;
/// Longest mate (in moves) a mate search looks for: its lines must fit in
/// [`MAX_PLY`].
pub const MAX_MATE_MOVES: u32 = (MAX_PLY as u32 - 2) / 2;
/// Score of mate at the root; mate at ply `n` scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than every score.
pub const INFINITY: i32 = MATE + 1;
/// Score of a draw.
pub const DRAW: i32 = 0;
/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// Nodes between checks of the stop flag and the clock.
const POLL_INTERVAL: u64 = 1024;
/// Initial half-width of the aspiration window.
const ASPIRATION_DELTA: i32 = 25;
/// Depth from which iterations start with an aspiration window.
const ASPIRATION_DEPTH: u32 = 4;
/// Reverse futility: margin per ply of remaining depth.
const REVERSE_FUTILITY_MARGIN: i32 = 110;
const REVERSE_FUTILITY_DEPTH: i32 = 3;
/// Delta pruning in quiescence: a capture must be able to lift the score
/// to within this of alpha.
const DELTA_MARGIN: i32 = 200;
/// Futility pruning (quiet moves of a node whose static evaluation plus
/// this margin, by remaining depth, cannot reach alpha) up to this depth.
const FUTILITY_DEPTH: i32 = 6;
const FUTILITY_MARGIN: [i32; FUTILITY_DEPTH as usize + 1] = [0, 100, 160, 220, 280, 340, 400];
/// Late move pruning: a quiet move tried after this many moves, by
/// remaining depth, is not searched.
const LMP_DEPTH: i32 = 8;
const LMP_MOVES: [usize; LMP_DEPTH as usize + 1] = [0, 5, 8, 13, 20, 29, 40, 53, 68];
/// Late move reductions start after this many moves.
const LMR_FIRST_MOVE: usize = 3;
const LMR_MIN_DEPTH: i32 = 3;
/// Quiet moves remembered per node for the history malus.
const MAX_QUIETS: usize = 64;

/// When to stop searching.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (default [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Spend exactly this long.
    pub movetime: Option<Duration>,
    /// Manage time from a game clock.
    pub clock: Option<Clock>,
    /// Search only these root moves (UCI `searchmoves`); empty, or none of
    /// them legal: every move.
    pub searchmoves: Vec<Move>,
    /// Look for a mate in at most this many moves (UCI `go mate`), with a
    /// full-width search that finds the shortest such mate or proves there
    /// is none; then stop (see [`mate`]).
    pub mate: Option<u32>,
}

/// The side to move's clock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control (`None`: sudden death).
    pub moves_to_go: Option<u32>,
}

impl Limits {
    /// Search to `depth` and stop.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Stop after `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// Does anything but `stop` end the search before [`MAX_DEPTH`]?
    pub fn is_bounded(&self) -> bool {
        self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.clock.is_some()
            || self.mate.is_some()
    }
}

/// A score as UCI reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Score {
    /// The UCI form of an internal score: mates within [`MAX_PLY`] become
    /// moves to mate, everything else centipawns.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Progress of a search, reported after every completed iteration (and once
/// more when a search is stopped inside one).
#[derive(Clone, Debug)]
pub struct SearchInfo<'a> {
    /// The iteration just completed.
    pub depth: u32,
    /// Deepest ply reached, extensions and quiescence included.
    pub seldepth: u32,
    /// Internal score (see [`Score::from_internal`]).
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Transposition table use, in permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: &'a [Move],
}

/// Nodes per second, 0 for no time.
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as u128 * 1_000_000).checked_div(elapsed.as_micros()).unwrap_or(0) as u64
}

impl SearchInfo<'_> {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; [`Move::NULL`] when there is none (mate, stalemate).
    pub best: Move,
    /// Internal score of `best` (see [`Score::from_internal`]).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Deepest ply reached, extensions and quiescence included.
    pub seldepth: u32,
    /// Nodes: every move the search made (see the module documentation),
    /// the root and null moves included.
    pub nodes: u64,
    /// Of `nodes`, the moves pruned unsearched (see the module documentation).
    pub pruned: u64,
    /// Time the search took.
    pub elapsed: Duration,
    /// The principal variation, `best` first.
    pub pv: Vec<Move>,
    /// What a mate search ([`Limits::mate`]) found; `None` for other searches.
    pub mate_search: Option<mate::MateOutcome>,
}

/// Reduction (plies) by depth and move number, `0.75 + ln d · ln n / 2.25`.
fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as u8;
        }
    }
    t
}

/// The principal variation of every ply: row `ply` holds the line from that
/// ply on.
struct PvTable {
    moves: [[Move; MAX_PLY + 1]; MAX_PLY + 1],
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    #[inline(always)]
    fn update(&mut self, ply: usize, m: Move) {
        let child_len = self.len[ply + 1].min(MAX_PLY - ply);
        let (head, tail) = self.moves.split_at_mut(ply + 1);
        head[ply][0] = m;
        // Most children are leaves with no line to copy: skip the call to
        // `memcpy` for them.
        if child_len > 0 {
            head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        }
        self.len[ply] = child_len + 1;
    }
}

/// A search with its tables, for one profile. Reused across searches: the
/// transposition table persists until [`clear`](Self::clear).
pub struct Searcher<P: Profile> {
    eval: P::Eval,
    tt: TranspositionTable,
    killers: Box<Killers>,
    history: Box<History>,
    pv: Box<PvTable>,
    lmr: Box<[[u8; 64]; 64]>,
    stop: Arc<AtomicBool>,
    nodes: u64,
    /// Moves pruned unsearched (counted in `nodes`, as Crafty counts).
    pruned: u64,
    next_poll: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    seldepth: usize,
    root_best: Move,
    root_score: i32,
    /// The root moves a search is restricted to ([`Limits::searchmoves`]);
    /// empty: every move.
    root_filter: Vec<Move>,
    _profile: PhantomData<fn() -> P>,
}

impl<P: Profile> Searcher<P> {
    /// A searcher with a `hash_mb` MiB transposition table.
    pub fn new(hash_mb: usize) -> Searcher<P> {
        Searcher::with_eval(hash_mb, P::Eval::default())
    }

    /// A searcher around a given evaluator (a non-default mobility mix, or
    /// weights loaded from a file).
    pub fn with_eval(hash_mb: usize, eval: P::Eval) -> Searcher<P> {
        Searcher {
            eval,
            tt: TranspositionTable::new(hash_mb),
            killers: Box::default(),
            history: Box::default(),
            pv: Box::new(PvTable { moves: [[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1], len: [0; MAX_PLY + 1] }),
            lmr: lmr_table(),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
            pruned: 0,
            next_poll: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            seldepth: 0,
            root_best: Move::NULL,
            root_score: 0,
            root_filter: Vec::new(),
            _profile: PhantomData,
        }
    }

    /// The flag that stops a running search when set. The search never
    /// clears it: whoever starts a search resets it first.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Forget everything learnt: transposition table, evaluation caches,
    /// history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.eval.clear();
        self.history.clear();
        self.killers.clear();
    }

    /// Replace the transposition table with an empty one of `mb` MiB. The
    /// old table is freed first, so memory for both is never needed at
    /// once; on an error the table is back at its old size, empty.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), tt::HashSizeError> {
        tt::check_hash_mb(mb)?;
        let old_mb = self.tt.bytes() >> 20;
        self.tt = TranspositionTable::new(0);
        match TranspositionTable::try_new(mb) {
            Ok(table) => {
                self.tt = table;
                Ok(())
            }
            Err(e) => {
                self.tt = TranspositionTable::new(old_mb);
                Err(e)
            }
        }
    }

    /// Size of the transposition table in bytes.
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// The evaluator's counters since it was created.
    pub fn eval_stats(&self) -> EvalStats {
        self.eval.stats()
    }

    /// The evaluator (for counters kept beside the search).
    pub fn evaluator(&self) -> &P::Eval {
        &self.eval
    }

    /// The evaluator, to reset counters kept beside the search.
    pub fn evaluator_mut(&mut self) -> &mut P::Eval {
        &mut self.eval
    }

    /// Search `pos` within `limits`, reporting each completed iteration to
    /// `on_info`. `pos` is restored before returning. Never inlined: the
    /// instruction counts (`scripts/bench-instructions.sh`, callgrind's
    /// `--toggle-collect='*Searcher*go*'`) count inside this function.
    #[inline(never)]
    pub fn go(&mut self, pos: &mut Position, limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        if let Some(moves) = limits.mate {
            return self.go_mate(pos, limits, moves, on_info);
        }
        let start = Instant::now();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        let (soft, hard) = plan_time(limits);
        self.deadline = hard.map(|d| start + d);
        self.nodes = 0;
        self.pruned = 0;
        self.next_poll = POLL_INTERVAL.min(self.node_limit);
        self.aborted = false;
        self.seldepth = 0;
        self.root_best = Move::NULL;
        self.root_score = 0;
        self.killers.clear();
        self.history.clear();
        self.tt.new_search();
        pos.reserve_history(MAX_PLY + 8);

        let mut root_moves = MoveList::new();
        P::Gen::legal(pos, &mut root_moves);
        self.restrict_root(&mut root_moves, &limits.searchmoves);
        if root_moves.is_empty() {
            let score = if P::Attacks::in_check(pos) { -MATE } else { DRAW };
            on_info(&SearchInfo {
                depth: 0,
                seldepth: 0,
                score,
                nodes: 0,
                elapsed: start.elapsed(),
                hashfull: 0,
                pv: &[],
            });
            return SearchResult {
                best: Move::NULL,
                score,
                depth: 0,
                seldepth: 0,
                nodes: 0,
                pruned: 0,
                elapsed: start.elapsed(),
                pv: Vec::new(),
                mate_search: None,
            };
        }
        // A fallback if the search is stopped before any move completes:
        // the first move in a fixed order.
        let fallback = *root_moves.iter().max_by_key(|m| m.raw()).expect("non-empty");

        let mut best_pv: Vec<Move> = Vec::with_capacity(MAX_PLY);
        let mut score = 0;
        let mut completed = 0;
        let mut reported_nodes = 0;
        for depth in 1..=max_depth {
            let s = self.aspiration(pos, depth, score);
            if self.aborted {
                break;
            }
            score = s;
            completed = depth;
            best_pv.clear();
            best_pv.extend_from_slice(&self.pv.moves[0][..self.pv.len[0]]);
            reported_nodes = self.nodes;
            on_info(&SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score,
                nodes: self.nodes,
                elapsed: start.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: &best_pv,
            });
            let timed = limits.clock.is_some() || limits.movetime.is_some();
            if timed && root_moves.len() == 1 {
                break;
            }
            // A mate within the depth searched: deeper iterations only
            // repeat it. Without a depth limit (a clock, a node budget, or
            // `stop` alone) they would run on to MAX_DEPTH in no time and
            // report that depth.
            if (timed || limits.depth.is_none()) && score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth {
                break;
            }
            if let Some(soft) = soft {
                if start.elapsed() >= soft / 2 {
                    break;
                }
            }
        }
        // Stopped inside an iteration: a root move that completed with a
        // better score than the previous best replaces it.
        if self.aborted && !self.root_best.is_null() && best_pv.first() != Some(&self.root_best) {
            best_pv.clear();
            best_pv.push(self.root_best);
            score = self.root_score;
        }
        if best_pv.is_empty() {
            best_pv.push(fallback);
        }
        let elapsed = start.elapsed();
        if self.nodes != reported_nodes {
            on_info(&SearchInfo {
                depth: completed.max(1),
                seldepth: self.seldepth as u32,
                score,
                nodes: self.nodes,
                elapsed,
                hashfull: self.tt.hashfull(),
                pv: &best_pv,
            });
        }
        SearchResult {
            best: best_pv[0],
            score,
            depth: completed,
            seldepth: self.seldepth as u32,
            nodes: self.nodes,
            pruned: self.pruned,
            elapsed,
            pv: best_pv,
            mate_search: None,
        }
    }

    /// Keep only the root moves `searchmoves` names (all of them if it
    /// names none of them), and remember the restriction for the root node.
    fn restrict_root(&mut self, root_moves: &mut MoveList, searchmoves: &[Move]) {
        self.root_filter.clear();
        if searchmoves.is_empty() || !root_moves.iter().any(|m| searchmoves.contains(m)) {
            return;
        }
        root_moves.retain(|m| searchmoves.contains(&m));
        self.root_filter.extend_from_slice(root_moves.as_slice());
    }

    /// The quiescence score of `pos` with a full window: what the search
    /// sees at a leaf. Counts nodes like a search (no limits apply).
    pub fn quiesce(&mut self, pos: &mut Position) -> i32 {
        self.nodes = 0;
        self.next_poll = POLL_INTERVAL;
        self.node_limit = u64::MAX;
        self.deadline = None;
        self.aborted = false;
        pos.reserve_history(MAX_PLY + 8);
        let in_check = P::Attacks::in_check(pos);
        self.qsearch(pos, 0, -INFINITY, INFINITY, in_check)
    }

    /// Nodes visited by the last search or [`quiesce`](Self::quiesce).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// One iteration, starting with a window around the previous score and
    /// widening it on failure.
    fn aspiration(&mut self, pos: &mut Position, depth: u32, previous: i32) -> i32 {
        let in_check = P::Attacks::in_check(pos);
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = (-INFINITY, INFINITY);
        if depth >= ASPIRATION_DEPTH && previous.abs() < MATE_BOUND {
            alpha = (previous - delta).max(-INFINITY);
            beta = (previous + delta).min(INFINITY);
        }
        loop {
            let score = self.search(pos, depth as i32, 0, alpha, beta, true, false, in_check);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta;
            if delta > 800 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Check the stop flag, the node limit and the clock.
    #[cold]
    fn poll(&mut self) {
        self.next_poll = (self.nodes + POLL_INTERVAL).min(self.node_limit);
        if self.nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Count a node and stop if a limit is reached.
    #[inline(always)]
    fn enter_node(&mut self, ply: usize) -> bool {
        if self.aborted {
            return false;
        }
        self.pv.len[ply] = 0;
        self.count_node();
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        !self.aborted
    }

    /// Count a move pruned unsearched as a node (see the module
    /// documentation), and stop if a limit is reached.
    #[inline(always)]
    fn count_pruned(&mut self) -> bool {
        self.pruned += 1;
        self.count_node();
        !self.aborted
    }

    /// Count `n` moves pruned unsearched at once, as
    /// [`count_pruned`](Self::count_pruned) counts one.
    #[inline(always)]
    fn count_pruned_many(&mut self, n: u64) -> bool {
        self.pruned += n;
        self.nodes += n;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        !self.aborted
    }

    /// One more node; every so many, check the limits.
    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }

    /// Ordering key of a move at an interior node other than the hash move
    /// (which is searched first, with its own key).
    #[inline(always)]
    fn main_key(&self, pos: &Position, m: Move, killers: [Move; 2]) -> u64 {
        if m.is_tactical() {
            return tactical_key::<P>(pos, m);
        }
        self.quiet_key(m, killers)
    }

    /// [`main_key`](Self::main_key) of a quiet move.
    #[inline(always)]
    fn quiet_key(&self, m: Move, killers: [Move; 2]) -> u64 {
        debug_assert!(!m.is_tactical());
        if m == killers[0] {
            order_key(class::KILLER_1, 0, m)
        } else if m == killers[1] {
            order_key(class::KILLER_2, 0, m)
        } else {
            order_key(class::QUIET, self.history.get(m), m)
        }
    }

    /// The principal-variation alpha-beta search. `in_check` is whether
    /// the side to move is in check: the parent has just tested it (its
    /// gives-check test), so no node tests it twice. Inline, so that a
    /// node with no depth left (most nodes: the children of the last
    /// interior ply) goes straight to [`qsearch`](Self::qsearch) without
    /// first setting up an interior node's frame.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        null_ok: bool,
        in_check: bool,
    ) -> i32 {
        debug_assert_eq!(in_check, P::Attacks::in_check(pos));
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta, in_check);
        }
        self.interior(pos, depth, ply, alpha, beta, pv_node, null_ok, in_check)
    }

    /// [`search`](Self::search) with depth left.
    #[allow(clippy::too_many_arguments)]
    fn interior(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
        null_ok: bool,
        in_check: bool,
    ) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        let root = ply == 0;
        if !root {
            if pos.is_repetition() || pos.insufficient_material() || (pos.halfmove_clock() >= 100 && !in_check) {
                return DRAW;
            }
            // Mate distance pruning: no line from here beats a mate already
            // found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return self.eval.evaluate(pos, alpha, beta);
            }
        }

        let key = pos.key();
        let mut hash_move = Move::NULL;
        if let Some(hit) = self.tt.probe(key, ply) {
            hash_move = hit.mv;
            if !pv_node
                && hit.depth >= depth
                && match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                }
            {
                return hit.score;
            }
        }
        if root && !self.root_best.is_null() {
            hash_move = self.root_best;
        }

        // The static evaluation, where the node may prune on it. In full:
        // near the horizon a cheaper estimate (the cheap part plus the last
        // full evaluation's positional part) erred by over 100 cp at one
        // node in eight, and its wrong prunings cost about 19 Elo
        // (results/history.md, 2026-12-06).
        let static_eval =
            (!pv_node && !in_check && beta.abs() < MATE_BOUND).then(|| self.eval.evaluate(pos, alpha, beta));
        if let Some(static_eval) = static_eval {
            if depth <= REVERSE_FUTILITY_DEPTH && static_eval - REVERSE_FUTILITY_MARGIN * depth >= beta {
                return static_eval;
            }
            if null_ok && depth >= 2 && static_eval >= beta && !ordering::pawns_and_king_only(pos) {
                let reduction = if depth >= 6 { 3 } else { 2 };
                pos.make_null();
                // Not in check after a pass: the side that passed was not, and
                // the side now to move cannot be (it would have been our move
                // with its king attacked).
                let score = -self.search(pos, depth - 1 - reduction, ply + 1, -beta, -beta + 1, false, false, false);
                pos.unmake();
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // The quiet moves are generated when the node gets to them, so a
        // cutoff by the hash move or a capture leaves them ungenerated.
        // Every move up front where the node needs them: in check (the
        // evasions), to validate a quiet hash move, at the root, and when
        // fewer than two tactical moves leave mate or the one-reply
        // extension open.
        let mut list = MoveList::new();
        let mut quiets_pending = false;
        // Where the quiet moves start in `list` when they were generated
        // on their own, after the tactical moves (`None`: mixed in).
        let mut quiets_from = None;
        if root || in_check || (!hash_move.is_null() && !hash_move.is_tactical()) {
            P::Gen::legal(pos, &mut list);
            if root && !self.root_filter.is_empty() {
                list.retain(|m| self.root_filter.contains(&m));
            }
        } else {
            P::Gen::tactical_not_in_check(pos, &mut list);
            quiets_pending =
                list.len() >= 2 || (list.len() == 1 && P::Defects::count(pos, pos.side_to_move()).count <= 1);
            if !quiets_pending {
                quiets_from = Some(list.len());
                P::Gen::quiet_not_in_check(pos, &mut list);
            }
        }
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        if !root && pos.halfmove_clock() >= 100 {
            return DRAW; // in check but not mated: the fifty-move rule holds
        }
        // One-legal-reply extension: only when the king is short of
        // defenders (defect count above 1).
        let one_reply = !quiets_pending && list.len() == 1 && P::Defects::count(pos, pos.side_to_move()).count > 1;

        let killers = self.killers.get(ply);
        self.killers.clear_ply(ply + 1);
        // Moves are keyed in stages, so a cutoff leaves the later stages
        // unkeyed: the hash move alone; then the tactical moves, picked while
        // they beat every quiet move; then the quiet moves. Each stage's
        // keys rank below the stages before, except the losing tactical
        // moves, which wait in the list until the quiets join them. Later
        // stages are keyed with the history their predecessors' subtrees
        // left.
        let mut moves = ScoredMoves::new();
        let mut stage = Stage::Tactical;
        if !hash_move.is_null() && list.iter().any(|&m| m == hash_move) {
            moves.push(order_key(class::HASH, 0, hash_move));
            stage = Stage::Hash;
        } else if let Some(end) = if quiets_pending { Some(list.len()) } else { quiets_from } {
            // Generated apart (the whole list while the quiets are pending,
            // else up to them), the tactical moves need no filtering.
            moves.extend_all(&list.as_slice()[..end], |m| tactical_key::<P>(pos, m));
        } else {
            moves.extend(list.as_slice(), |m| m.is_tactical().then(|| self.main_key(pos, m, killers)));
        }
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        // Moves made at this node, pruned or searched.
        let mut tried = 0usize;
        // Whether quiet moves may be pruned here, and the futility bound.
        let prune = match static_eval {
            Some(eval) if depth <= LMP_DEPTH && alpha > -MATE_BOUND => {
                Some(if depth <= FUTILITY_DEPTH { eval + FUTILITY_MARGIN[depth as usize] } else { INFINITY })
            }
            _ => None,
        };
        // Uninitialised until pushed: a node that cuts off early writes none.
        let mut quiets = FixedVec::<Move, MAX_QUIETS>::new();
        // Check information for the moves' gives-check test, set up once.
        let check_info = P::Attacks::check_info(pos);
        // Once the futility bound is at or below alpha, or the next move is
        // past the late move count, every quiet move still to come that may
        // be pruned will be. With the new attack routines (gives-check
        // known before make) those are then set aside in one pass instead of
        // being picked one by one: `aside` holds their keys, and each is
        // counted when the move it would have been picked before is picked
        // (all of them when the node runs out of moves), so the counts are
        // what picking them in turn gives.
        let mut aside: Option<Range<usize>> = None;
        let mut aside_counted = 0usize;
        loop {
            if P::Attacks::CHECKS_UNMADE && stage == Stage::Quiet && aside.is_none() && searched > 0 {
                if let Some(bound) = prune {
                    if bound <= alpha || tried >= LMP_MOVES[depth as usize] {
                        aside = Some(moves.set_aside_unpicked(|key| {
                            let m = Move::from_raw(key as u32);
                            key_class(key) == class::QUIET
                                && !(m.moved_kind() == PieceType::Pawn && m.to().relative_rank(m.moved().color()) >= 5)
                                && !P::Attacks::gives_check_unmade(pos, &check_info, m)
                        }));
                    }
                }
            }
            let floor = if stage == Stage::Quiet { 0 } else { QUIET_FLOOR };
            let picked = moves.pick_at_least(floor);
            // Count the set-aside moves that rank above this pick (every one
            // left, when there is none).
            if let Some(range) = &aside {
                let above = match picked {
                    Some((_, key)) => range.clone().filter(|&i| moves.key_at(i) > key).count(),
                    None => range.len(),
                };
                if above > aside_counted {
                    tried += above - aside_counted;
                    if !self.count_pruned_many((above - aside_counted) as u64) {
                        return 0;
                    }
                    aside_counted = above;
                }
            }
            let Some((m, move_key)) = picked else {
                stage = match stage {
                    Stage::Hash => Stage::Tactical,
                    Stage::Tactical => {
                        if quiets_pending {
                            // Pending only where the node was not in check.
                            quiets_from = Some(list.len());
                            P::Gen::quiet_not_in_check(pos, &mut list);
                        }
                        Stage::Quiet
                    }
                    Stage::Quiet => break,
                };
                match (stage, quiets_from) {
                    // Generated apart, the quiet moves need no filtering: the
                    // hash move is among them only where the list was
                    // generated whole.
                    (Stage::Quiet, Some(from)) => {
                        moves.extend_all(&list.as_slice()[from..], |m| self.quiet_key(m, killers));
                    }
                    _ => {
                        let tactical = stage == Stage::Tactical;
                        moves.extend(list.as_slice(), |m| {
                            (m != hash_move && m.is_tactical() == tactical).then(|| self.main_key(pos, m, killers))
                        });
                    }
                }
                continue;
            };
            let quiet = !m.is_tactical();
            tried += 1;
            // Futility and late move pruning: a quiet move that gives no
            // check, is no killer and pushes no pawn to the sixth rank or
            // beyond. The new attack routines say whether it checks before
            // the move is made, so a pruned move is never made; the old ones
            // learn it by making the move, as Crafty does.
            let mut checks_before_make = false;
            if let (true, Some(bound)) = (P::Attacks::CHECKS_UNMADE, prune) {
                if searched > 0
                    && quiet
                    && key_class(move_key) == class::QUIET
                    && (bound <= alpha || tried > LMP_MOVES[depth as usize])
                    && !(m.moved_kind() == PieceType::Pawn && m.to().relative_rank(m.moved().color()) >= 5)
                {
                    if !P::Attacks::gives_check_unmade(pos, &check_info, m) {
                        if !self.count_pruned() {
                            return 0;
                        }
                        continue;
                    }
                    checks_before_make = true;
                }
            }
            pos.make(m);
            self.tt.prefetch(pos.key());
            let gives_check = checks_before_make || P::Attacks::gives_check(pos, &check_info, m);
            if let (false, Some(bound)) = (P::Attacks::CHECKS_UNMADE, prune) {
                // The same test as above, with the check known. (One helper
                // for both costs the bitboard search 10 instructions per
                // position searched: measured.)
                if searched > 0
                    && quiet
                    && !gives_check
                    && key_class(move_key) == class::QUIET
                    && (bound <= alpha || tried > LMP_MOVES[depth as usize])
                    && !(m.moved_kind() == PieceType::Pawn && m.to().relative_rank(m.moved().color()) >= 5)
                {
                    pos.unmake();
                    if !self.count_pruned() {
                        return 0;
                    }
                    continue;
                }
            }
            let extension = i32::from(gives_check || one_reply);
            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 0 {
                score = -self.search(pos, new_depth, ply + 1, -beta, -alpha, pv_node, true, gives_check);
            } else {
                let mut reduction = 0;
                if depth >= LMR_MIN_DEPTH
                    && searched >= LMR_FIRST_MOVE
                    && quiet
                    && !in_check
                    && !gives_check
                    && key_class(move_key) == class::QUIET
                {
                    let r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32 - i32::from(pv_node);
                    reduction = r.clamp(0, new_depth - 1);
                }
                score = -self.search(pos, new_depth - reduction, ply + 1, -alpha - 1, -alpha, false, true, gives_check);
                if score > alpha && reduction > 0 {
                    score = -self.search(pos, new_depth, ply + 1, -alpha - 1, -alpha, false, true, gives_check);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(pos, new_depth, ply + 1, -beta, -alpha, true, true, gives_check);
                }
            }
            pos.unmake();
            if self.aborted {
                return 0;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.pv.update(ply, m);
                    if root {
                        self.root_best = m;
                        self.root_score = score;
                    }
                    if score >= beta {
                        if quiet {
                            self.killers.record(ply, m);
                            let bonus = depth * depth;
                            self.history.update(m, bonus);
                            for &q in &quiets {
                                self.history.update(q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(m); // ignored once full
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, best_move, best_score, depth, bound);
        best_score
    }

    /// Quiescence search: captures and queen promotions until the position
    /// is quiet, standing pat on the evaluation. `in_check` as for
    /// [`search`](Self::search). Inline up to the stand-pat cutoff, where
    /// most quiescence nodes end; the moves are searched out of line
    /// ([`qsearch_moves`](Self::qsearch_moves)), so a node that stands pat
    /// never sets up the move lists' frame.
    #[inline(always)]
    fn qsearch(&mut self, pos: &mut Position, ply: usize, alpha: i32, beta: i32, in_check: bool) -> i32 {
        debug_assert_eq!(in_check, P::Attacks::in_check(pos));
        if !self.enter_node(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.eval.evaluate(pos, alpha, beta);
        }
        if pos.insufficient_material() {
            return DRAW;
        }
        if in_check && P::Defects::count(pos, pos.side_to_move()).count > 1 {
            // The qsearch-in-check extension: a king short of defenders
            // (defect count above 1) searches every evasion and may not
            // stand pat.
            return self.qsearch_moves(pos, ply, alpha, beta, None);
        }
        // Stand pat. In check without the extension the captures searched
        // next are the capturing evasions.
        let stand_pat = self.eval.evaluate(pos, alpha, beta);
        let stand_pat = discount_en_prise(pos, stand_pat, self.eval.en_prise());
        if stand_pat >= beta {
            return stand_pat;
        }
        self.qsearch_moves(pos, ply, alpha, beta, Some((stand_pat, in_check)))
    }

    /// The moves of a quiescence node: every evasion for the in-check
    /// extension (`stand_pat` is `None`), else the captures and queen
    /// promotions worth searching below a stand-pat score that did not
    /// reach `beta` (with whether the side to move is in check).
    #[inline(never)]
    fn qsearch_moves(
        &mut self,
        pos: &mut Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        stand_pat: Option<(i32, bool)>,
    ) -> i32 {
        let mut list = MoveList::new();
        let mut moves = ScoredMoves::new();
        let mut best_score;
        match stand_pat {
            None => {
                if pos.is_repetition() {
                    return DRAW;
                }
                P::Gen::legal(pos, &mut list);
                if list.is_empty() {
                    return -MATE + ply as i32;
                }
                moves.fill(list.as_slice(), |m| {
                    if m.is_tactical() {
                        order_key(class::GOOD_TACTICAL, ordering::mvv_lva(m), m)
                    } else {
                        order_key(class::QUIET, self.history.get(m), m)
                    }
                });
                best_score = -INFINITY;
            }
            Some((stand_pat, in_check)) => {
                alpha = alpha.max(stand_pat);
                best_score = stand_pat;
                if in_check {
                    P::Gen::tactical(pos, &mut list);
                } else {
                    P::Gen::tactical_not_in_check(pos, &mut list);
                }
                for &m in &list {
                    if m.is_promotion() && !ordering::is_queen_promotion(m) {
                        continue;
                    }
                    // Delta pruning: even winning the piece cannot reach alpha.
                    if !in_check && !m.is_promotion() && stand_pat + m.material_gain() + DELTA_MARGIN <= alpha {
                        continue;
                    }
                    // SEE pruning: losing captures are not searched (and
                    // one that a cheaper recapture refutes needs no
                    // exchange played out to know it).
                    if !in_check && P::Attacks::loses_to_recapture(pos, m) {
                        continue;
                    }
                    let value = exchange_value::<P>(pos, m);
                    if value < 0 && !in_check {
                        continue;
                    }
                    moves.push(order_key(class::GOOD_TACTICAL, tactical_score(value, m), m));
                }
            }
        }

        while let Some((m, _)) = moves.pick() {
            pos.make(m);
            // The scan, not check information: with about one capture made
            // per node here, setting it up costs more than it saves
            // (measured by instruction counts).
            let gives_check = P::Attacks::in_check(pos);
            let score = -self.qsearch(pos, ply + 1, -beta, -alpha, gives_check);
            pos.unmake();
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best_score
    }
}

/// Which moves of an interior node have been keyed (see `Searcher::interior`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Only the hash move.
    Hash,
    /// The hash move and the tactical moves.
    Tactical,
    /// Every move.
    Quiet,
}

/// Keys from here up outrank every quiet move (killers included): what a
/// node may pick before its quiet moves are keyed.
const QUIET_FLOOR: u64 = (class::KILLER_1 + 1) << 60;

/// The exchange value of a capture or promotion: SEE with the profile's
/// attacker lists, except where the answer is known without it — a capture
/// of a piece worth at least the capturer never loses material, so its
/// victim-minus-attacker value is a lower bound good enough to order by,
/// and a king captures only undefended pieces.
#[inline(always)]
fn exchange_value<P: Profile>(pos: &Position, m: Move) -> i32 {
    if m.is_capture() && !m.is_promotion() {
        let victim = m.captured_value();
        if m.moved_kind() == PieceType::King {
            return victim;
        }
        let attacker = m.moved_value();
        if victim >= attacker {
            return victim - attacker;
        }
    }
    P::Attacks::see(pos, m)
}

/// [`Searcher::main_key`] of a tactical move.
#[inline(always)]
fn tactical_key<P: Profile>(pos: &Position, m: Move) -> u64 {
    debug_assert!(m.is_tactical());
    if m.is_promotion() && !ordering::is_queen_promotion(m) {
        return order_key(class::UNDER_PROMOTION, ordering::mvv_lva(m), m);
    }
    let value = exchange_value::<P>(pos, m);
    if value < 0 {
        return order_key(class::BAD_CAPTURE, value, m);
    }
    order_key(class::GOOD_TACTICAL, tactical_score(value, m), m)
}

/// In-class score of a winning or equal capture: its exchange value, then
/// most valuable victim / least valuable attacker.
#[inline(always)]
fn tactical_score(value: i32, m: Move) -> i32 {
    value * 128 + ordering::mvv_lva(m)
}

/// Stand-pat score when the evaluation found pieces of the side to move en
/// prise: with two or more hanging, one move can save at most one, so the
/// cheapest is counted as lost. (One hanging piece is left to the capture
/// search and the opponent's reply.)
#[inline]
fn discount_en_prise(pos: &Position, stand_pat: i32, en_prise: Bitboard) -> i32 {
    if !en_prise.has_many() {
        return stand_pat;
    }
    let cheapest = en_prise.into_iter().map(|sq| pos.piece_on(sq).kind().value()).min().unwrap_or(0);
    stand_pat - cheapest
}

/// Soft (stop starting iterations) and hard (abort) time budgets.
fn plan_time(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    const OVERHEAD: Duration = Duration::from_millis(10);
    if let Some(t) = limits.movetime {
        let hard = t.saturating_sub(OVERHEAD.min(t / 10)).max(Duration::from_millis(1));
        return (None, Some(hard));
    }
    let Some(clock) = &limits.clock else {
        return (None, None);
    };
    let available = clock.time.saturating_sub(OVERHEAD).max(Duration::from_millis(1));
    let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 50);
    let soft = (available / moves + clock.increment * 3 / 4).min(available / 2);
    let hard = (soft * 4).min(available * 3 / 4).max(soft);
    (Some(soft), Some(hard))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn two_hanging_pieces_cost_the_cheaper_one() {
        let pos = Position::from_fen("4k3/8/8/3p4/2N1B3/8/8/4K3 w - - 0 1").unwrap();
        let sq = |s: &str| Square::parse(s).unwrap();
        let knight = Bitboard::from_square(sq("c4"));
        let both = knight.with(sq("e4"));
        assert_eq!(discount_en_prise(&pos, 50, Bitboard::EMPTY), 50);
        assert_eq!(discount_en_prise(&pos, 50, knight), 50);
        assert_eq!(discount_en_prise(&pos, 50, both), 50 - PieceType::Knight.value());
    }

    #[test]
    fn exchange_values() {
        let pos = Position::from_fen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1").unwrap();
        let rxe5 = *crate::movegen::legal_moves(&pos).iter().find(|m| m.uci().as_str() == "e1e5").unwrap();
        assert_eq!(exchange_value::<MailboxProfile>(&pos, rxe5), 100);
        assert_eq!(exchange_value::<BitboardProfile>(&pos, rxe5), 100);
        let pos = Position::from_fen("3rk3/3r4/8/3p4/8/8/3Q4/3RK3 w - - 0 1").unwrap();
        let qxd5 = *crate::movegen::legal_moves(&pos).iter().find(|m| m.uci().as_str() == "d2d5").unwrap();
        assert_eq!(exchange_value::<BitboardProfile>(&pos, qxd5), -875);
        assert!(tactical_score(100, rxe5) > tactical_score(0, qxd5));
    }
}
