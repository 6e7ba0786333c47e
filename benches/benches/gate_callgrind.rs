//! The commit gate's instruction counts (`boardbench gate`): one gungraun
//! (callgrind) benchmark per case — benchmark × bucket × arm of every
//! registered per-call benchmark, found through the registry, so new
//! benchmarks join without code here. Each case prepares its benchmark's
//! inputs (positions from `BOARDBENCH_GATE_POSITIONS`, 32 per bucket), runs
//! the arm over them once uncounted, then once more inside
//! `boardbench::measure::case::counted_pass`, the only function callgrind collects
//! in (`--toggle-collect`): preparation and warm-up are not counted.
//!
//! The case list comes from `BOARDBENCH_GATE_CASES` (the gate passes the
//! base's list to both builds, so gungraun's case numbers mean the same
//! case in both); run by hand (`cargo bench -p boardbench --bench
//! gate_callgrind`), every case of this build on the default positions. A
//! case this build lacks counts nothing (0 instructions). Not part of plain
//! `cargo bench`; needs valgrind and gungraun-runner 0.20.0.

use boardbench::gate::instructions::cases as gate_cases;
use boardbench::measure::case::CaseId;
use gungraun::{
    library_benchmark, library_benchmark_group, main, Callgrind, EntryPoint, EventKind, LibraryBenchmarkConfig,
};
use std::hint::black_box;

fn inputs() -> (boardbench::suite::density::PositionSet, Vec<CaseId>) {
    gate_cases::callgrind_inputs().unwrap_or_else(|e| {
        eprintln!("gate_callgrind: {e}");
        std::process::exit(1)
    })
}

fn cases() -> Vec<CaseId> {
    inputs().1
}

#[library_benchmark]
#[benches::case(iter = cases())]
fn gate(case: CaseId) -> u64 {
    let (set, _) = inputs();
    match gate_cases::count_case(&case, &set) {
        Ok(sum) => black_box(sum.unwrap_or(0)),
        Err(e) => {
            eprintln!("gate_callgrind: {case}: {e}");
            std::process::exit(1)
        }
    }
}

library_benchmark_group!(name = gate_group; benchmarks = gate);

fn config() -> LibraryBenchmarkConfig {
    let mut config = LibraryBenchmarkConfig::default();
    // gungraun clears the environment of the measured process by default.
    config.pass_through_envs([gate_cases::ENV_POSITIONS, gate_cases::ENV_CASES]);
    config.tool(
        Callgrind::with_args(["--cache-sim=no"])
            .entry_point(EntryPoint::Custom("*boardbench::measure::case::counted_pass*".to_string()))
            .format([EventKind::Ir]),
    );
    config
}

main!(config = config(); library_benchmark_groups = gate_group);
