//! `cargo bench --bench callgrind`: gungraun 0.20 (callgrind) counts of
//! every case (benchmark × bucket × arm) of every registered benchmark:
//! instructions and, with valgrind's branch simulation (`--branch-sim=yes`),
//! conditional and indirect branches and their mispredictions (Bc/Bcm,
//! Bi/Bim) — the direct test of whether the mailbox's per-square dispatch
//! is what costs. The cases come from the registry
//! (`boardbench::suite::cases`), so a new benchmark joins without code here.
//!
//! Each case runs its arm over CALLS positions of its bucket: the first
//! CALLS of the cycles run's default selection that the benchmark measures
//! (for mobility, those holding a piece of the type), repeated from the
//! first where the bucket has fewer. It runs them once uncounted (lazily
//! built state such as evalcycles' evaluators and pawn hash, and the
//! simulated branch predictor, see them first), then once more inside
//! `boardbench::measure::case::counted_pass`, the only function callgrind
//! collects in: preparation and warm-up are not counted.
//! `scripts/callgrind.sh` prints the counts per call, naming each case from
//! the case list this target leaves in `target/boardbench-callgrind/`.
//!
//! Needs valgrind and `gungraun-runner` at exactly the library's version
//! (`scripts/install-gungraun.sh`). Where either is missing this target says
//! so and exits 0 (so plain `cargo bench` still runs the other targets);
//! with BOARDBENCH_REQUIRE_CALLGRIND=1 it exits 1 instead.

use boardbench::gate::instructions::GUNGRAUN_VERSION;
use boardbench::measure::case::{Case, CaseId};
use boardbench::suite::cases::{self, cases_text, parse_cases};
use boardbench::suite::density::{self, Bucket, Chosen, PositionSet, Sizes};
use engine::Position;
use gungraun::{
    library_benchmark, library_benchmark_group, main, Callgrind, EntryPoint, EventKind, LibraryBenchmarkConfig,
};
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

/// Calls per case (the positions of one counted pass).
const CALLS: usize = 32;

/// Where the parent process leaves each bucket's positions (FENs, in
/// selection order) and the case list, so the processes under valgrind
/// need not read and select from the real-game files (seconds each there).
fn cache_dir() -> PathBuf {
    boardbench::workspace::target_dir().join("boardbench-callgrind")
}

fn fen_file(bucket: Bucket) -> PathBuf {
    cache_dir().join(format!("{bucket}.fen"))
}

fn cases_file() -> PathBuf {
    cache_dir().join("cases.tsv")
}

fn fail(why: String) -> ! {
    eprintln!("callgrind: {why}");
    std::process::exit(1)
}

/// The cycles run's default bucket selection, no ladder.
fn select() -> PositionSet {
    let dir = boardbench::workspace::positions_dir();
    let sizes = Sizes { per_count: 0, ..Sizes::default() };
    density::select(&density::default_sources(&dir), None, sizes).unwrap_or_else(|e| fail(format!("positions: {e}")))
}

/// The selection as the parent cached it, in order; else selected afresh.
fn positions() -> PositionSet {
    let mut buckets = Vec::new();
    for b in Bucket::ALL {
        let Ok(text) = std::fs::read_to_string(fen_file(b)) else { return select() };
        let chosen = text
            .lines()
            .enumerate()
            .map(|(i, fen)| {
                let position = Position::from_fen(fen).unwrap_or_else(|e| fail(format!("cached position: {e}")));
                Chosen { men: position.men(), position, origin: format!("{}:{}", fen_file(b).display(), i + 1) }
            })
            .collect();
        buckets.push((b, chosen));
    }
    PositionSet { buckets, ladder: Vec::new(), sources: Vec::new(), derived_used: 0 }
}

/// Write the cache (parent process, native speed); a failure leaves no
/// stale file behind, and each case then selects its own (slower).
fn write_cache() -> Result<(), String> {
    let dir = cache_dir();
    let _ = std::fs::remove_file(cases_file());
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let set = select();
    for (bucket, chosen) in &set.buckets {
        let text: Vec<String> = chosen.iter().map(|c| c.position.to_fen()).collect();
        let path = fen_file(*bucket);
        std::fs::write(&path, text.join("\n")).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let (list, _) = cases::list_cases(&set)?;
    std::fs::write(cases_file(), cases_text(&list)).map_err(|e| format!("{}: {e}", cases_file().display()))
}

/// Every case, in registry order (gungraun's case numbers index it).
fn case_list() -> Vec<CaseId> {
    match std::fs::read_to_string(cases_file()) {
        Ok(text) => parse_cases(&text).unwrap_or_else(|e| fail(e)),
        Err(_) => cases::list_cases(&positions()).unwrap_or_else(|e| fail(e)).0,
    }
}

/// Case `id` on CALLS positions, warmed up.
fn prepare(id: CaseId) -> Box<dyn Case> {
    let mut case = match cases::prepare(&id, &positions()) {
        Ok(Some(c)) => c,
        Ok(None) => fail(format!("no case {id} in this build")),
        Err(e) => fail(e),
    };
    case.cycle_to(CALLS);
    case.warm();
    case
}

#[library_benchmark]
#[benches::case(iter = case_list(), setup = prepare)]
fn registry_case(mut case: Box<dyn Case>) -> u64 {
    black_box(case.pass())
}

library_benchmark_group!(name = cases_group; benchmarks = registry_case);

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
        eprintln!("callgrind: cannot cache the positions ({e}); each case selects its own (slower)");
    }
    let mut config = LibraryBenchmarkConfig::default();
    config.tool(
        Callgrind::with_args(["--branch-sim=yes", "--cache-sim=no"])
            .entry_point(EntryPoint::Custom("*boardbench::measure::case::counted_pass*".to_string()))
            .format([EventKind::Ir, EventKind::Bc, EventKind::Bcm, EventKind::Bi, EventKind::Bim]),
    );
    config
}

main!(config = preflight(); library_benchmark_groups = cases_group);
