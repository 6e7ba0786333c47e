//! The bench: a fixed-depth search of a fixed set of positions, one thread,
//! the hash and evaluation caches cleared before each position. Its total
//! node count is the engine's signature (like Stockfish's `Bench:`): it
//! changes exactly when the search or the evaluation changes what it
//! searches, and [`BENCH_SIGNATURE`] pins it.
//!
//! Updating the signature on purpose: after a change that is meant to alter
//! the tree, run `cargo run --release -p engine -- bench --depth
//! <SIGNATURE_DEPTH>` (any profile but `single-probe`: mailbox and bitboard
//! search identical trees), copy the total node count into
//! [`BENCH_SIGNATURE`], and say so in the commit message.

use crate::eval::EvalStats;
use crate::position::Position;
use crate::search::{nps, Limits, Profile, ProfileKind, Searcher};
use std::time::Duration;

/// Default depth of `engine bench`.
pub const DEFAULT_BENCH_DEPTH: u32 = 11;
/// Transposition table size of the bench, in MiB.
pub const BENCH_HASH_MB: usize = 16;
/// Depth at which the signature is taken (shallower than the default so the
/// test that checks it stays quick).
pub const SIGNATURE_DEPTH: u32 = 7;
/// Total nodes of the bench positions at [`SIGNATURE_DEPTH`] with the
/// `mailbox` or `bitboard` profile.
pub const BENCH_SIGNATURE: u64 = 789_035;

/// The bench positions: opening, middlegame and endgame (by men on the board,
/// kings and pawns included: 26-32, 13-25, 2-12), each with where it comes
/// from in `positions/`.
pub const BENCH_POSITIONS: [(&str, &str); 20] = [
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("lichess_popular_20k.epd:501", "rnbqk2r/pppp1ppp/4pn2/8/1b1P1B2/2N5/PPP1PPPP/R2QKBNR w KQkq - 0 1"),
    ("lichess_popular_20k.epd:5001", "rn1qk1nr/pb1pppbp/1p4p1/2p5/4P3/3P1NP1/PPP2PBP/RNBQK2R w KQkq - 0 1"),
    ("lichess_popular_20k.epd:12001", "rnbqkbnr/pp3ppp/3pp3/2p5/2P5/2N1P3/PP1PNPPP/R1BQKB1R b KQkq - 0 1"),
    ("bk.epd BK.20", "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1"),
    ("wac.epd WAC.200", "2rqrn1k/pb4pp/1p2pp2/n2P4/2P3N1/P2B2Q1/1B3PPP/2R1R1K1 w - - 0 1"),
    ("ecm.epd ECM.401", "r2rnbk1/pp3ppp/1q4n1/3p1N2/5P2/1PQB4/PBP3PP/4RR1K w - - 0 1"),
    ("ecm.epd ECM.051", "1k1r1b1r/p1p1q3/2p1p3/4Ppp1/4nP2/P2BQ3/1PP3PB/2KR3R b - - 0 1"),
    ("wac.epd WAC.010", "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1"),
    ("bk.epd BK.12", "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1"),
    ("bk.epd BK.02", "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1"),
    ("endgames_20k.epd:12001", "8/1p3k2/2p1b3/2P3pp/pB2P3/P4P1P/1r4P1/3R2K1 b - - 0 33"),
    ("endgames_20k.epd:2001", "2r5/7k/2P3r1/1PN4p/4p1p1/4P2p/5P1K/2R5 w - - 0 43"),
    ("wac.epd WAC.100", "8/k1b5/P4p2/1Pp2p1p/K1P2P1P/8/3B4/8 w - - 0 1"),
    ("ecm.epd ECM.598", "8/8/1p1k4/5ppp/PPK1p3/6P1/5PP1/8 b - - 0 1"),
    ("endgames_20k.epd:312", "6k1/1p1r4/4bN2/2P5/1B6/P4P1p/1P3K2/8 b - - 0 50"),
    ("endgames_20k.epd:11", "8/4R3/p1rk2p1/R1p5/2P3KP/6P1/8/8 b - - 0 55"),
    ("endgames_20k.epd:242", "8/5pk1/8/r4R1p/8/5P2/2P2KP1/1R6 b - - 0 70"),
    ("endgames_20k.epd:18", "8/6R1/k7/3r4/3P4/4nbB1/1P6/1K6 w - - 0 41"),
    ("endgames_20k.epd:8565", "5k2/R3b3/6np/8/8/1B6/6K1/8 w - - 0 49"),
];

/// The bench positions, parsed.
pub fn default_positions() -> Vec<Position> {
    BENCH_POSITIONS.iter().map(|(_, fen)| Position::from_fen(fen).expect("bench FENs are valid")).collect()
}

/// One bench position's search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The position.
    pub fen: String,
    /// Nodes searched (moves made, as Crafty counts them).
    pub nodes: u64,
    /// Of `nodes`, moves pruned unsearched.
    pub pruned: u64,
    /// Search time.
    pub elapsed: Duration,
    /// The best move, UCI.
    pub best: String,
    /// Its internal score.
    pub score: i32,
}

/// The whole bench.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// The profile that searched.
    pub profile: &'static str,
    /// The depth of every search.
    pub depth: u32,
    /// The transposition table size, MiB.
    pub hash_mb: usize,
    /// One line per position, in bench order.
    pub lines: Vec<BenchLine>,
    /// Evaluation counters over the whole bench.
    pub eval: EvalStats,
    /// The process's memory on transparent huge pages at the end of the
    /// bench, tables still allocated, in KiB (`None` where the system does
    /// not say).
    pub huge_pages_kib: Option<u64>,
}

impl BenchReport {
    /// Nodes over all positions.
    pub fn nodes(&self) -> u64 {
        self.lines.iter().map(|l| l.nodes).sum()
    }

    /// Of [`nodes`](Self::nodes), the moves pruned unsearched.
    pub fn pruned(&self) -> u64 {
        self.lines.iter().map(|l| l.pruned).sum()
    }

    /// Search time, summed over positions (table clearing excluded).
    pub fn elapsed(&self) -> Duration {
        self.lines.iter().map(|l| l.elapsed).sum()
    }

    /// Nodes per second over the search time.
    pub fn nps(&self) -> u64 {
        nps(self.nodes(), self.elapsed())
    }
}

/// Search every position to `depth` with profile `P`.
pub fn run_bench<P: Profile>(positions: &[Position], depth: u32, hash_mb: usize) -> BenchReport {
    let mut searcher = Searcher::<P>::new(hash_mb);
    let eval_before = searcher.eval_stats();
    let mut lines = Vec::with_capacity(positions.len());
    for pos in positions {
        let mut pos = pos.clone();
        searcher.clear();
        let result = searcher.go(&mut pos, &Limits::depth(depth), &mut |_| {});
        lines.push(BenchLine {
            fen: pos.to_fen(),
            nodes: result.nodes,
            pruned: result.pruned,
            elapsed: result.elapsed,
            best: result.best.uci().to_string(),
            score: result.score,
        });
    }
    BenchReport {
        profile: P::NAME,
        depth,
        hash_mb,
        lines,
        eval: searcher.eval_stats().since(&eval_before),
        huge_pages_kib: crate::large_pages::anon_huge_page_kib(),
    }
}

/// [`run_bench`] for a profile chosen at run time.
pub fn bench(kind: ProfileKind, positions: &[Position], depth: u32, hash_mb: usize) -> BenchReport {
    with_profile!(kind, P => run_bench::<P>(positions, depth, hash_mb))
}
