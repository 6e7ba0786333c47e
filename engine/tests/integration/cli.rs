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

/// A bad-input run: exit status 2 and one `error: ` line on stderr (ours or
/// clap's) that names the problem (`needle`) and is not a panic. Returns the
/// run, for checks of its own (a command may print a summary before it fails).
pub fn rejects(args: &[&str], needle: &str) -> Output {
    let out = engine(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr:?} lacks {needle:?}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    out
}
