//! `cargo bench --bench callgrind`: gungraun 0.20 (callgrind) benchmarks of
//! the same routines, old and new, on 32 positions of each density bucket:
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

use boardbench::benchmarks::{movegen, slider};
use boardbench::density::{self, Bucket, Sizes};
use engine::{Bitboard, Position};
use gungraun::{library_benchmark, library_benchmark_group, main, Callgrind, EventKind, LibraryBenchmarkConfig};
use std::hint::black_box;
use std::process::Command;

/// Positions per bucket (= calls per benchmark).
const CALLS: usize = 32;

/// The library version the runner must match.
const GUNGRAUN_VERSION: &str = "0.20.0";

fn positions(bucket: Bucket) -> Vec<Position> {
    let dir = boardbench::cli::default_positions_dir();
    let set = density::select(
        &density::default_sources(&dir),
        None,
        Sizes { per_bucket: CALLS, per_count: 1, ..Sizes::default() },
    )
    .unwrap_or_else(|e| panic!("positions: {e}"));
    set.buckets
        .into_iter()
        .find(|(b, _)| *b == bucket)
        .map(|(_, v)| v.into_iter().map(|c| c.position).collect())
        .unwrap()
}

fn bucket(name: &str) -> Bucket {
    Bucket::ALL.into_iter().find(|b| b.name() == name).expect("a bucket name")
}

fn occupancies(name: &str) -> Vec<Bitboard> {
    positions(bucket(name)).iter().map(|p| p.occupied()).collect()
}

fn boards(name: &str) -> Vec<Position> {
    positions(bucket(name))
}

fn run_all<I>(f: fn(&mut I) -> u64, mut inputs: Vec<I>) -> u64 {
    let mut s = 0u64;
    for x in inputs.iter_mut() {
        s = s.wrapping_add(f(black_box(x)));
    }
    s
}

fn slider_arm(name: &str) -> fn(&mut Bitboard) -> u64 {
    slider::spec().arms.iter().find(|a| a.name == name).expect("arm").routine
}

fn movegen_arm(name: &str) -> fn(&mut Position) -> u64 {
    movegen::spec().arms.iter().find(|a| a.name == name).expect("arm").routine
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

library_benchmark_group!(name = slider_group; benchmarks = slider_raywalk, slider_magic, slider_pext);
library_benchmark_group!(name = movegen_group; benchmarks = movegen_mailbox, movegen_bitboard_magic, movegen_bitboard_pext);

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

main!(config = preflight(); library_benchmark_groups = slider_group, movegen_group);
