//! `cargo bench --bench callgrind`: gungraun 0.20 (callgrind) benchmarks of
//! the same routines, old and new, on 32 positions of each density bucket
//! (the first 32 of the cycles run's selection; for mobility the first 32
//! holding a piece of the type; knights' single probe is the chain routine
//! and is not repeated here):
//! instruction counts and, with valgrind's branch simulation
//! (`--branch-sim=yes`), conditional and indirect branches and their
//! mispredictions (Bc/Bcm, Bi/Bim) — the direct test of seed 002's bet that
//! the mailbox's per-square dispatch is what costs. Every benchmark makes
//! CALLS calls; `scripts/callgrind.sh` prints the counts per call.
//!
//! Needs valgrind and `gungraun-runner` at exactly the library's version
//! (`scripts/install-gungraun.sh`). Where either is missing this target says
//! so and exits 0 (so plain `cargo bench` still runs the other targets);
//! with BOARDBENCH_REQUIRE_CALLGRIND=1 it exits 1 instead.

use boardbench::benchmarks::{evalcycles, getattacks, kingdefects, mobility, movegen, slider};
use boardbench::density::{self, Bucket, Sizes};
use boardbench::suite::Spec;
use engine::types::PieceType;
use engine::{Bitboard, Position};
use gungraun::{library_benchmark, library_benchmark_group, main, Callgrind, EventKind, LibraryBenchmarkConfig};
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

/// Calls per benchmark: the first CALLS positions of the cycles run's bucket
/// selection (for mobility, the first CALLS holding a piece of the type).
const CALLS: usize = 32;

/// The library version the runner must match.
const GUNGRAUN_VERSION: &str = "0.20.0";

/// Where the parent process leaves each bucket's positions (FENs), so the
/// benchmark processes under valgrind need not read and select from the
/// real-game files (seconds each under valgrind).
fn cache_file(bucket: Bucket) -> PathBuf {
    boardbench::cli::workspace_root().join("target").join("boardbench-callgrind").join(format!("{bucket}.fen"))
}

/// The default bucket selection (the cycles run's), as FENs.
fn select(bucket: Bucket) -> Vec<String> {
    let dir = boardbench::cli::default_positions_dir();
    let set = density::select(&density::default_sources(&dir), None, Sizes::default())
        .unwrap_or_else(|e| panic!("positions: {e}"));
    let (_, chosen) = set.buckets.into_iter().find(|(b, _)| *b == bucket).expect("every bucket is selected");
    chosen.iter().map(|c| c.position.to_fen()).collect()
}

/// Write the cache (parent process, native speed).
fn write_cache() -> Result<(), String> {
    for bucket in Bucket::ALL {
        let path = cache_file(bucket);
        let dir = path.parent().expect("a directory");
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        std::fs::write(&path, select(bucket).join("\n")).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

fn bucket(name: &str) -> Bucket {
    Bucket::ALL.into_iter().find(|b| b.name() == name).expect("a bucket name")
}

/// CALLS positions of bucket `name` that `keep` accepts, in selection order
/// (cycled if the bucket holds fewer).
fn positions_where(name: &str, keep: fn(&Position) -> bool) -> Vec<Position> {
    let b = bucket(name);
    let fens = match std::fs::read_to_string(cache_file(b)) {
        Ok(text) => text.lines().map(String::from).collect(),
        Err(_) => select(b),
    };
    let all: Vec<Position> =
        fens.iter().map(|f| Position::from_fen(f).expect("cached FENs parse")).filter(keep).collect();
    assert!(!all.is_empty(), "no position for this benchmark in the {name} bucket");
    (0..CALLS).map(|i| all[i % all.len()].clone()).collect()
}

fn boards(name: &str) -> Vec<Position> {
    positions_where(name, |_| true)
}

fn occupancies(name: &str) -> Vec<Bitboard> {
    boards(name).iter().map(|p| p.occupied()).collect()
}

/// Inputs of `spec` on bucket `name`.
fn inputs<I>(spec: Spec<I>, name: &str, keep: fn(&Position) -> bool) -> Vec<I> {
    positions_where(name, keep).iter().map(|p| (spec.prepare)(p)).collect()
}

fn arm<I>(spec: Spec<I>, name: &str) -> fn(&mut I) -> u64 {
    spec.arms.iter().find(|a| a.name == name).expect("arm").routine
}

fn run_all<I>(f: fn(&mut I) -> u64, mut inputs: Vec<I>) -> u64 {
    let mut s = 0u64;
    for x in inputs.iter_mut() {
        s = s.wrapping_add(f(black_box(x)));
    }
    s
}

fn slider_arm(name: &str) -> fn(&mut Bitboard) -> u64 {
    arm(slider::spec(), name)
}

fn movegen_arm(name: &str) -> fn(&mut Position) -> u64 {
    arm(movegen::spec(), name)
}

#[library_benchmark]
#[bench::opening(occupancies("opening"))]
#[bench::middlegame(occupancies("middlegame"))]
#[bench::endgame(occupancies("endgame"))]
fn slider_raywalk(inputs: Vec<Bitboard>) -> u64 {
    black_box(run_all(slider_arm("raywalk"), inputs))
}

#[library_benchmark]
#[bench::opening(occupancies("opening"))]
#[bench::middlegame(occupancies("middlegame"))]
#[bench::endgame(occupancies("endgame"))]
fn slider_magic(inputs: Vec<Bitboard>) -> u64 {
    black_box(run_all(slider_arm("magic"), inputs))
}

#[library_benchmark]
#[bench::opening(occupancies("opening"))]
#[bench::middlegame(occupancies("middlegame"))]
#[bench::endgame(occupancies("endgame"))]
fn slider_pext(inputs: Vec<Bitboard>) -> u64 {
    black_box(run_all(slider_arm("pext"), inputs))
}

#[library_benchmark]
#[bench::opening(boards("opening"))]
#[bench::middlegame(boards("middlegame"))]
#[bench::endgame(boards("endgame"))]
fn movegen_mailbox(inputs: Vec<Position>) -> u64 {
    black_box(run_all(movegen_arm("mailbox"), inputs))
}

#[library_benchmark]
#[bench::opening(boards("opening"))]
#[bench::middlegame(boards("middlegame"))]
#[bench::endgame(boards("endgame"))]
fn movegen_bitboard_magic(inputs: Vec<Position>) -> u64 {
    black_box(run_all(movegen_arm("bitboard-magic"), inputs))
}

#[library_benchmark]
#[bench::opening(boards("opening"))]
#[bench::middlegame(boards("middlegame"))]
#[bench::endgame(boards("endgame"))]
fn movegen_bitboard_pext(inputs: Vec<Position>) -> u64 {
    black_box(run_all(movegen_arm("bitboard-pext"), inputs))
}

// ---- attacker lists (getattacksbench) ----

fn targets(name: &str) -> Vec<getattacks::Target> {
    inputs(getattacks::spec(), name, |_| true)
}

#[library_benchmark]
#[bench::opening(targets("opening"))]
#[bench::middlegame(targets("middlegame"))]
#[bench::endgame(targets("endgame"))]
fn getattacks_mailbox(inputs: Vec<getattacks::Target>) -> u64 {
    black_box(run_all(arm(getattacks::spec(), "mailbox"), inputs))
}

#[library_benchmark]
#[bench::opening(targets("opening"))]
#[bench::middlegame(targets("middlegame"))]
#[bench::endgame(targets("endgame"))]
fn getattacks_bitboard_magic(inputs: Vec<getattacks::Target>) -> u64 {
    black_box(run_all(arm(getattacks::spec(), "bitboard-magic"), inputs))
}

#[library_benchmark]
#[bench::opening(targets("opening"))]
#[bench::middlegame(targets("middlegame"))]
#[bench::endgame(targets("endgame"))]
fn getattacks_bitboard_pext(inputs: Vec<getattacks::Target>) -> u64 {
    black_box(run_all(arm(getattacks::spec(), "bitboard-pext"), inputs))
}

// ---- king-safety defects (kingdefectsbench) ----

#[library_benchmark]
#[bench::opening(boards("opening"))]
#[bench::middlegame(boards("middlegame"))]
#[bench::endgame(boards("endgame"))]
fn kingdefects_mailbox(inputs: Vec<Position>) -> u64 {
    black_box(run_all(arm(kingdefects::spec(), "mailbox"), inputs))
}

#[library_benchmark]
#[bench::opening(boards("opening"))]
#[bench::middlegame(boards("middlegame"))]
#[bench::endgame(boards("endgame"))]
fn kingdefects_bitboard(inputs: Vec<Position>) -> u64 {
    black_box(run_all(arm(kingdefects::spec(), "bitboard"), inputs))
}

// ---- whole evaluation (evalcycles) ----

/// The bucket's positions, each evaluated once by arm `name` first, so its
/// evaluator is built and its pawn hash warm before anything is counted.
fn warm_boards(name: &str, arm_name: &str) -> Vec<Position> {
    let mut v = boards(name);
    let f = arm(evalcycles::spec(), arm_name);
    for p in v.iter_mut() {
        black_box(f(p));
    }
    v
}

#[library_benchmark]
#[bench::opening(warm_boards("opening", "mailbox"))]
#[bench::middlegame(warm_boards("middlegame", "mailbox"))]
#[bench::endgame(warm_boards("endgame", "mailbox"))]
fn eval_mailbox(inputs: Vec<Position>) -> u64 {
    black_box(run_all(arm(evalcycles::spec(), "mailbox"), inputs))
}

#[library_benchmark]
#[bench::opening(warm_boards("opening", "chain"))]
#[bench::middlegame(warm_boards("middlegame", "chain"))]
#[bench::endgame(warm_boards("endgame", "chain"))]
fn eval_chain(inputs: Vec<Position>) -> u64 {
    black_box(run_all(arm(evalcycles::spec(), "chain"), inputs))
}

#[library_benchmark]
#[bench::opening(warm_boards("opening", "single-probe"))]
#[bench::middlegame(warm_boards("middlegame", "single-probe"))]
#[bench::endgame(warm_boards("endgame", "single-probe"))]
fn eval_single_probe(inputs: Vec<Position>) -> u64 {
    black_box(run_all(arm(evalcycles::spec(), "single-probe"), inputs))
}

// ---- mobility per piece type (mobilitybench) ----

fn states(kind: PieceType, name: &str) -> Vec<mobility::MobilityState> {
    inputs(mobility::spec(kind), name, mobility::filter(kind).keep)
}

fn mob(kind: PieceType, arm_name: &str, inputs: Vec<mobility::MobilityState>) -> u64 {
    run_all(arm(mobility::spec(kind), arm_name), inputs)
}

macro_rules! mobility_bench {
    ($fn:ident, $kind:expr, $arm:literal) => {
        #[library_benchmark]
        #[bench::opening(states($kind, "opening"))]
        #[bench::middlegame(states($kind, "middlegame"))]
        #[bench::endgame(states($kind, "endgame"))]
        fn $fn(inputs: Vec<mobility::MobilityState>) -> u64 {
            black_box(mob($kind, $arm, inputs))
        }
    };
}

mobility_bench!(knight_mailbox, PieceType::Knight, "mailbox");
mobility_bench!(knight_chain, PieceType::Knight, "chain");
mobility_bench!(bishop_mailbox, PieceType::Bishop, "mailbox");
mobility_bench!(bishop_chain, PieceType::Bishop, "chain");
mobility_bench!(bishop_single_probe, PieceType::Bishop, "single-probe");
mobility_bench!(rook_mailbox, PieceType::Rook, "mailbox");
mobility_bench!(rook_chain, PieceType::Rook, "chain");
mobility_bench!(rook_single_probe, PieceType::Rook, "single-probe");
mobility_bench!(queen_mailbox, PieceType::Queen, "mailbox");
mobility_bench!(queen_chain, PieceType::Queen, "chain");
mobility_bench!(queen_single_probe, PieceType::Queen, "single-probe");

library_benchmark_group!(name = slider_group; benchmarks = slider_raywalk, slider_magic, slider_pext);
library_benchmark_group!(name = movegen_group; benchmarks = movegen_mailbox, movegen_bitboard_magic, movegen_bitboard_pext);
library_benchmark_group!(name = getattacks_group; benchmarks = getattacks_mailbox, getattacks_bitboard_magic, getattacks_bitboard_pext);
library_benchmark_group!(name = kingdefects_group; benchmarks = kingdefects_mailbox, kingdefects_bitboard);
library_benchmark_group!(name = eval_group; benchmarks = eval_mailbox, eval_chain, eval_single_probe);
library_benchmark_group!(
    name = mobility_group;
    benchmarks = knight_mailbox, knight_chain, bishop_mailbox, bishop_chain, bishop_single_probe,
        rook_mailbox, rook_chain, rook_single_probe, queen_mailbox, queen_chain, queen_single_probe
);

/// Check valgrind and the runner before gungraun tries them; say how to get
/// them instead of failing obscurely. Evaluated only in the parent process.
fn preflight() -> LibraryBenchmarkConfig {
    let require = std::env::var_os("BOARDBENCH_REQUIRE_CALLGRIND").is_some_and(|v| v != "0");
    let skip = |why: String| -> ! {
        eprintln!("callgrind benchmarks skipped: {why}");
        eprintln!("  install: scripts/install-gungraun.sh (cargo install gungraun-runner --version ={GUNGRAUN_VERSION} --locked; valgrind from your OS)");
        std::process::exit(if require { 1 } else { 0 });
    };
    let runner = option_env!("GUNGRAUN_RUNNER").unwrap_or("gungraun-runner");
    match Command::new(runner).arg("--version").output() {
        Err(e) => skip(format!("{runner} not found ({e})")),
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            if !text.split_whitespace().any(|w| w == GUNGRAUN_VERSION) {
                skip(format!("{runner} is {:?}, the library is {GUNGRAUN_VERSION}", text.trim()));
            }
        }
    }
    if Command::new("valgrind").arg("--version").output().is_err() {
        skip("valgrind not found".to_string());
    }
    if let Err(e) = write_cache() {
        eprintln!("callgrind: cannot cache the positions ({e}); each benchmark selects its own (slower)");
    }
    let mut config = LibraryBenchmarkConfig::default();
    config.tool(Callgrind::with_args(["--branch-sim=yes", "--cache-sim=no"]).format([
        EventKind::Ir,
        EventKind::Bc,
        EventKind::Bcm,
        EventKind::Bi,
        EventKind::Bim,
    ]));
    config
}

main!(
    config = preflight();
    library_benchmark_groups = slider_group, movegen_group, getattacks_group, kingdefects_group, eval_group, mobility_group
);
