//! Command lines, through the real `boardbench` binary: a benchmark
//! subcommand (or `all`, `run NAMES`, `list`, an unknown one) with flags
//! drawn from the run flags (and unknown ones), each given a value from
//! a set of awkward ones (empty, negative, huge, NaN, a device, a
//! missing path, another flag), in `--flag value` or `--flag=value` form.
//! Every command line ends with `--out` naming a folder that cannot be
//! made, so that one that is valid fails at that check, before anything
//! is measured, and each case takes milliseconds. No command line panics
//! or is killed by a signal; each ends with status 0 (help, version,
//! `list`), 1 or 2, and a failure's last line on stderr is boardbench's
//! one-line message.
//!
//! A case is a process, thousands of times slower than an in-process
//! target: this target runs a hundredth of `BOARDBENCH_FUZZ_CASES`.

use crate::{cases, ensure, run_target};
use proptest::collection::vec;
use proptest::prelude::*;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SUBCOMMANDS: [&str; 9] = [
    "getattacksbench",
    "kingdefectsbench",
    "all",
    "run getattacksbench",
    "run getattacksbench nosuchbench",
    "run",
    "list",
    "nosuchcommand",
    "",
];

const FLAGS: [&str; 22] = [
    "--quick",
    "--positions",
    "--core",
    "--rounds",
    "--seconds",
    "--precision",
    "--min-sample-us",
    "--per-bucket",
    "--per-count",
    "--seed",
    "--clock",
    "--cycles",
    "--no-plots",
    "--exclusive",
    "--no-realtime",
    "--strict",
    "--out",
    "--help",
    "--version",
    "-h",
    "--no-such-flag",
    "-x",
];

const VALUES: [&str; 26] = [
    "",
    "0",
    "1",
    "2",
    "-1",
    "3",
    "100001",
    "18446744073709551616",
    "nan",
    "inf",
    "-inf",
    "1e400",
    "0.5",
    "abc",
    "--",
    "-",
    "/dev/null",
    "/dev/zero",
    "/nonexistent/x.epd",
    "positions/wac.epd",
    "positions",
    "tsc",
    "monotonic",
    "é",
    " 5",
    "--quick",
];

/// One flag: which, its value if any, and whether written `--flag=value`.
type Flag = (usize, Option<usize>, bool);

fn command_line() -> impl Strategy<Value = (usize, Vec<Flag>)> {
    let flag = (0..FLAGS.len(), proptest::option::weighted(0.7, 0..VALUES.len()), proptest::bool::weighted(0.3));
    (0..SUBCOMMANDS.len(), vec(flag, 0..6))
}

fn args_of((sub, flags): &(usize, Vec<Flag>)) -> Vec<String> {
    let mut args: Vec<String> = SUBCOMMANDS[*sub].split_whitespace().map(str::to_string).collect();
    for &(f, value, joined) in flags {
        match (value, joined) {
            (Some(v), true) => args.push(format!("{}={}", FLAGS[f], VALUES[v])),
            (Some(v), false) => args.extend([FLAGS[f].to_string(), VALUES[v].to_string()]),
            (None, _) => args.push(FLAGS[f].to_string()),
        }
    }
    // Below a regular file: never a folder, so never a run.
    args.extend(["--out".to_string(), "/dev/null/boardbench-fuzz".to_string()]);
    args
}

/// Longest a case may take (a whole process, on a loaded machine).
const CASE_LIMIT: Duration = Duration::from_secs(30);

#[test]
fn command_lines() {
    let root = boardbench::workspace::root();
    run_target("command-lines", (cases(30_000) / 100).max(1), command_line(), |input| {
        let args = args_of(input);
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardbench"))
            .args(&args)
            .current_dir(&root)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| TestCaseError::fail(format!("cannot start boardbench: {e}")))?;
        // Read stderr on a thread so that a full pipe cannot stall the child.
        let mut pipe = child.stderr.take().expect("piped");
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        });
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| TestCaseError::fail(e.to_string()))? {
                break status;
            }
            if started.elapsed() > CASE_LIMIT {
                let _ = child.kill();
                let _ = child.wait();
                return Err(TestCaseError::fail(format!("{args:?}: still running after {CASE_LIMIT:?}")));
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let err = reader.join().unwrap_or_default();
        ensure(!err.contains("panicked"), || format!("{args:?}: {err}"))?;
        let code = status.code();
        ensure(matches!(code, Some(0..=2)), || format!("{args:?}: {status:?}\n{err}"))?;
        if code != Some(0) {
            let last = err.lines().last().unwrap_or_default();
            ensure(last.starts_with("boardbench: ") && last.len() < 600, || format!("{args:?}: last line {last:?}"))?;
        }
        Ok(())
    });
}
