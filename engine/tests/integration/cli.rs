//! Running the `engine` binary's subcommands from the tests: the process,
//! the one JSON object a `--json` run prints, and a position file of the
//! repository's `positions/` as a command-line argument.

use std::path::PathBuf;
use std::process::{Command, Output};

/// `engine ARGS`, run to its end.
pub fn engine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine")).args(args).output().expect("run engine")
}

/// The one JSON object, on one line, that a successful `--json` run printed.
pub fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(text.trim().lines().count(), 1, "exactly one JSON object: {text}");
    serde_json::from_str(&text).unwrap()
}

/// `positions/FILE`, as an argument.
pub fn positions(file: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../positions").join(file).display().to_string()
}
