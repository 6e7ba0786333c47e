//! The `engine` binary: subcommands for perft, equivalence sweeps, SEE,
//! evaluation and benchmarking; UCI when started without one.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::run()
}
