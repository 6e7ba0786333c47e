//! The `engine` binary: subcommands for perft, equivalence sweeps, SEE,
//! evaluation and benchmarking; UCI when started without one.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    restore_sigpipe();
    cli::run()
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`engine ... | head`)
/// would panic; restore the default so the process just ends, as Unix
/// tools do.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: resetting a signal disposition to its default at start-up,
    // before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
