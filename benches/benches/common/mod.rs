//! Shared by the `cargo bench` targets: argument handling and the perft
//! comparison (which needs cozy-chess, a dev-dependency, so it lives here
//! rather than in the library).

#![allow(dead_code)]

pub mod perft;

use boardbench::suite::run::{self, RunArgs};
use boardbench::suite::spec::Entry;

/// Arguments after the ones cargo adds (`--bench`): `--quick`, and names.
pub fn args() -> (bool, Vec<String>) {
    let rest: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let quick = rest.iter().any(|a| a == "--quick");
    let names = rest.into_iter().filter(|a| !a.starts_with("--")).collect();
    (quick, names)
}

/// Run `names` (or `default` when none were given) with default settings;
/// or, started by such a run as one of its measuring processes, measure.
pub fn run_named(default: &[&str], extra: &[Entry]) -> i32 {
    if std::env::args_os().nth(1).is_some_and(|a| a == boardbench::suite::worker::WORKER_ARG) {
        return boardbench::suite::worker::serve(extra);
    }
    boardbench::measure::aslr::reexec_without_randomisation();
    let (quick, names) = args();
    let names: Vec<String> = if names.is_empty() { default.iter().map(|s| s.to_string()).collect() } else { names };
    let mut run = RunArgs::defaults();
    run.quick = quick;
    run.cycles = true;
    let entries = match run::resolve(&names, extra) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("boardbench: {e}");
            return 1;
        }
    };
    match run::execute(&run, &entries, std::env::args().collect()) {
        Ok(outcome) => run::finish(&outcome, false),
        Err(e) => {
            eprintln!("boardbench: {e}");
            1
        }
    }
}
