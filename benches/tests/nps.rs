//! `boardbench nps` end to end, against stand-in baselines (shell scripts in
//! tests/fixtures that print Crafty's and Stockfish's captured bench output)
//! and, where Debian's stockfish is installed, against the real one.

use boardbench::engines::nps::report::NpsReport;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

fn nps(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_boardbench"));
    c.arg("nps").args(args).env_remove("FAKE_MODE");
    for (k, v) in envs {
        c.env(k, v);
    }
    c.output().expect("boardbench runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Non-zero exit and exactly one stderr line (after progress lines) holding `want`.
fn fails_with(out: &Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "succeeded: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with("round ")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("boardbench: ") && lines[0].contains(want), "{err}");
}

#[test]
fn fake_crafty_and_stockfish_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("starts.txt");
    let t = Instant::now();
    let out = nps(
        &[
            "--crafty",
            s(&fixture("fake-crafty.sh")),
            "--stockfish",
            s(&fixture("fake-stockfish.sh")),
            "--engine",
            s(&fixture("fake-engine.sh")),
            "--runs",
            "3",
            "--core",
            "0",
            "--out",
            s(dir.path()),
            "--timeout",
            "50",
        ],
        &[("FAKE_RECORD", s(&record))],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // The fake Crafty sleeps 60 s in its 2-thread part: it was stopped
    // after the first block, well before the 50 s timeout.
    assert!(t.elapsed() < Duration::from_secs(40), "{:?}", t.elapsed());
    let r: NpsReport = serde_json::from_slice(&std::fs::read(dir.path().join("nps-latest.json")).unwrap()).unwrap();
    assert_eq!(r.schema, boardbench::engines::nps::report::SCHEMA);
    let labels: Vec<&str> = r.engines.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(
        labels,
        ["ours mailbox", "ours bitboard", "ours single-probe", "stockfish", "crafty", "crafty-positions"]
    );
    let crafty = &r.engines[4];
    assert_eq!(crafty.runs.len(), 3);
    for run in &crafty.runs {
        // The first block only: the 2-thread block's 194049215 is ignored.
        assert_eq!((run.nodes, run.nps), (191_258_593, 6_884_758.0));
        assert_eq!(run.ending, "stopped after the first totals block");
        assert!(run.cpu_share >= 0.0 && run.load_before.is_some());
    }
    assert_eq!(crafty.banner.as_deref(), Some("Crafty v25.2"));
    assert_eq!(crafty.stdin.as_deref(), Some("bench\nquit\n"));
    // Crafty on our bench positions: one search per position, summed (the
    // fake answers every search with 1,000,000 nodes in 0.50 s, 250K pruned).
    let positions = &r.engines[5];
    let script = positions.stdin.as_deref().unwrap();
    let fens = engine::tools::bench::BENCH_POSITIONS.len();
    assert!(script.starts_with("ponder off\nhash 16M\n"), "{script}");
    assert_eq!(script.matches("\nsd 14\ngo\n").count(), fens);
    assert!(script.contains(&format!("setboard {}\n", engine::tools::bench::BENCH_POSITIONS[0].1)));
    for run in &positions.runs {
        let c = run.crafty.unwrap();
        assert_eq!((c.searches, c.nodes, c.pruned), (fens, 1_000_000 * fens as u64, Some(250_000 * fens as u64)));
        assert_eq!(run.nps, 2_000_000.0);
        assert_eq!(run.searched_nps(), 1_500_000.0);
        assert_eq!(run.ending, "exited 0");
    }
    assert_eq!(positions.searched_nps.unwrap().median, 1_500_000.0);
    let sf = &r.engines[3];
    assert_eq!((sf.runs[0].nodes, sf.nps.median), (3_467_381, 1_499_732.0));
    assert!(sf.nodes_consistent);
    // Ratios are ours over theirs, exact for the fixed figures.
    let ratio = |o: &str, t: &str| r.ratios.iter().find(|x| x.ours == o && x.theirs == t).unwrap().ratio;
    assert_eq!(ratio("ours bitboard", "crafty").estimate, 2_000_000.0 / 6_884_758.0);
    assert_eq!(ratio("ours mailbox", "stockfish").estimate, 1_000_000.0 / 1_499_732.0);
    assert_eq!(ratio("ours bitboard", "crafty-positions").estimate, 1.0);
    // Searched against searched: our fake bench prunes a quarter of its
    // nodes (mailbox and bitboard), single-probe says nothing (its own NPS).
    assert_eq!(ratio("ours bitboard searched", "crafty-positions searched").estimate, 1.5 / 1.5);
    assert_eq!(ratio("ours mailbox searched", "crafty-positions searched").estimate, 0.75 / 1.5);
    assert!((ratio("ours single-probe", "crafty-positions searched").estimate - 2.1 / 1.5).abs() < 1e-12);
    let bitboard = &r.engines[1];
    assert!(bitboard.runs.iter().all(|x| x.pruned == Some(250_000)));
    assert_eq!(bitboard.searched_nps.unwrap().median, 1_500_000.0);
    assert!(r.engines[2].runs.iter().all(|x| x.pruned.is_none()) && r.engines[2].searched_nps.is_none());
    // Three profiles over four references (Stockfish, Crafty's bench,
    // Crafty on our positions counted its way and by searched positions),
    // then two profiles over our mailbox profile.
    assert_eq!(r.ratios.len(), 14);
    assert_eq!(ratio("ours bitboard", "ours mailbox").estimate, 2.0);
    assert_eq!(ratio("ours single-probe", "ours mailbox").estimate, 2.1);
    // Every engine ran once per round, rounds interleaved, slots balanced.
    for e in &r.engines {
        assert_eq!(e.runs.iter().map(|x| x.round).collect::<Vec<_>>(), [0, 1, 2]);
    }
    let first_slots: Vec<usize> = r.engines.iter().map(|e| e.runs[0].slot).collect();
    let mut sorted = first_slots.clone();
    sorted.sort();
    assert_eq!(sorted, [0, 1, 2, 3, 4, 5], "a permutation per round: {first_slots:?}");
    assert_ne!(r.engines[0].runs[0].slot, r.engines[0].runs[1].slot, "order changes between rounds");
    // Each Crafty run had a fresh working directory, which was also $HOME,
    // and nothing was left behind.
    let starts = std::fs::read_to_string(&record).unwrap();
    let dirs: Vec<(&str, &str)> = starts.lines().map(|l| l.split_once(' ').unwrap()).collect();
    assert_eq!(dirs.len(), 6, "two Crafty runs a round");
    for (cwd, home) in &dirs {
        assert_eq!(cwd, home);
        assert!(!Path::new(cwd).exists(), "{cwd} removed");
    }
    let mut distinct: Vec<&str> = dirs.iter().map(|d| d.0).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), dirs.len());
    // The table and the plot.
    assert!(stdout.contains("crafty: Crafty v25.2"), "{stdout}");
    let words = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert!(
        stdout.lines().any(|l| words(l).starts_with(&["ours", "bitboard", "/", "crafty"].map(String::from))),
        "{stdout}"
    );
    assert!(stdout.contains("25.0% of the nodes it counts are moves it made and pruned unsearched"), "{stdout}");
    assert!(stdout.contains("ours bitboard: 25.0% of the nodes it counts are moves it made and pruned"), "{stdout}");
    assert!(stdout.contains("searched positions only: median 1,500,000 nps"), "{stdout}");
    assert_eq!(r.plots.len(), 2);
    for p in &r.plots {
        assert!(std::fs::metadata(dir.path().join(p)).unwrap().len() > 1000);
    }
}

#[test]
fn stockfish_alone_is_enough_and_json_goes_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let out = nps(
        &[
            "--stockfish",
            s(&fixture("fake-stockfish.sh")),
            "--engine",
            s(&fixture("fake-engine.sh")),
            "--engine-profile",
            "bitboard",
            "--runs",
            "2",
            "--out",
            s(dir.path()),
            "--no-plots",
            "--json",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: NpsReport = serde_json::from_slice(&out.stdout).expect("exactly one JSON object on stdout");
    assert_eq!(r.engines.len(), 2);
    assert_eq!(r.ratios[0].ratio.estimate, 2_000_000.0 / 1_499_732.0);
    assert!(r.plots.is_empty());
    assert!(dir.path().join("nps-latest.json").exists());
}

#[test]
fn baseline_failures_are_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = s(dir.path());
    let fake = fixture("fake-engine.sh");
    let base = |flag: &'static str, prog: PathBuf| -> Vec<String> {
        [
            flag,
            s(&prog),
            "--engine",
            s(&fake),
            "--engine-profile",
            "mailbox",
            "--runs",
            "1",
            "--out",
            d,
            "--timeout",
            "3",
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    let run = |args: &[String], mode: &str| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        nps(&a, &[("FAKE_MODE", mode)])
    };
    let mut crafty = base("--crafty", fixture("fake-crafty.sh"));
    let crafty_with_positions = crafty.clone();
    crafty.push("--no-crafty-positions".into());
    let sf = base("--stockfish", fixture("fake-stockfish.sh"));
    fails_with(
        &run(&crafty, "fail"),
        "exited with status 2; last lines: Crafty v25.2 | ERROR: hash table allocation failed",
    );
    fails_with(&run(&crafty, "garbage"), "printed no bench result (no \"Total nodes:\" line); last lines:");
    let t = Instant::now();
    fails_with(&run(&crafty, "hang"), "did not finish within 3 s (killed)");
    assert!(t.elapsed() < Duration::from_secs(20));
    // Crafty's bench fine, but half our positions refused: said, not summed.
    fails_with(
        &run(&crafty_with_positions, "refuse"),
        &format!(
            "printed no bench result ({} search summaries (\"time=... n=...\") for {} positions: a position was \
             refused or a search cut short) (--no-crafty-positions runs Crafty's own bench only); last lines:",
            engine::tools::bench::BENCH_POSITIONS.len() / 2,
            engine::tools::bench::BENCH_POSITIONS.len()
        ),
    );
    fails_with(&run(&sf, "fail"), "exited with status 1; last lines:");
    fails_with(&run(&sf, "garbage"), "no \"Nodes searched\" line on stderr or stdout");
    fails_with(&run(&sf, "hang"), "did not finish within 3 s");
    // Missing and non-executable baselines, checked before anything runs.
    fails_with(&run(&base("--crafty", dir.path().join("crafty")), "ok"), "--crafty ");
    let plain = dir.path().join("plain");
    std::fs::write(&plain, "#!/bin/sh\n").unwrap();
    fails_with(&run(&base("--stockfish", plain), "ok"), "not executable");
    // Alone, one profile has nothing to be compared with (the default three
    // pair with their mailbox profile).
    fails_with(
        &nps(&["--engine", s(&fake), "--engine-profile", "bitboard", "--out", d], &[]),
        "nothing to compare with",
    );
    fails_with(&nps(&["--stockfish", "/bin/true", "--runs", "0"], &[]), "invalid value '0'");
    // A timeout too large for the clock.
    fails_with(
        &nps(&["--stockfish", "/bin/true", "--timeout", "9223372036854775807", "--out", d], &[]),
        "for '--timeout <SECS>': 9223372036854775807 is not in 1..=604800",
    );
    fails_with(
        &nps(&["--stockfish", "/bin/true", "--engine", s(&fake), "--engine-profile", "x", "--out", d], &[]),
        "--engine-profile x",
    );
    fails_with(
        &nps(&["--engine", s(&fake), "--engine-profile", "mailbox", "--engine-profile", "mailbox", "--out", d], &[]),
        "--engine-profile mailbox: mailbox is given more than once",
    );
    fails_with(
        &nps(
            &["--stockfish", s(&fixture("fake-stockfish.sh")), "--engine", s(&dir.path().join("none")), "--out", d],
            &[],
        ),
        "our engine:",
    );
}

#[test]
fn real_stockfish_where_installed() {
    let sf = Path::new("/usr/games/stockfish");
    if !sf.exists() {
        eprintln!("note: /usr/games/stockfish is not installed (apt-get install stockfish); test skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = nps(
        &[
            "--stockfish",
            s(sf),
            "--stockfish-bench",
            "16 1 5 default depth",
            "--engine",
            s(&fixture("fake-engine.sh")),
            "--engine-profile",
            "bitboard",
            "--runs",
            "1",
            "--out",
            s(dir.path()),
            "--no-plots",
            "--json",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: NpsReport = serde_json::from_slice(&out.stdout).unwrap();
    let e = &r.engines[1];
    assert!(e.banner.as_deref().unwrap_or("").starts_with("Stockfish"), "{:?}", e.banner);
    assert_eq!(e.args, ["bench", "16", "1", "5", "default", "depth"]);
    assert!(e.runs[0].nodes > 1000 && e.runs[0].nps > 0.0, "{:?}", e.runs[0]);
    assert_eq!(e.runs[0].ending, "exited 0");
}

#[test]
fn a_positions_file_goes_to_both_engines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("two.epd"),
        "# two positions\n8/8/8/4k3/8/8/4P3/4K3 w - -\nr3k2r/8/8/8/8/8/8/R3K2R b KQkq - id \"castles\";\n",
    )
    .unwrap();
    // A path relative to where boardbench starts: every run starts in a
    // temporary directory, so it must reach them made absolute.
    let run = |positions: &str| {
        Command::new(env!("CARGO_BIN_EXE_boardbench"))
            .current_dir(dir.path())
            .env_remove("FAKE_MODE")
            .args(["nps", "--crafty", s(&fixture("fake-crafty.sh")), "--engine", s(&fixture("fake-engine.sh"))])
            .args(["--engine-profile", "bitboard", "--runs", "1", "--no-plots", "--crafty-depth", "9"])
            .args(["--positions", positions, "--out", s(dir.path())])
            .output()
            .unwrap()
    };
    let out = run("two.epd");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: NpsReport = serde_json::from_slice(&std::fs::read(dir.path().join("nps-latest.json")).unwrap()).unwrap();
    let ours = r.engines.iter().find(|e| e.label == "ours bitboard").unwrap();
    let at = ours.args.iter().position(|a| a == "--positions").expect("--positions passed to our bench");
    assert!(Path::new(&ours.args[at + 1]).is_absolute() && ours.args[at + 1].ends_with("two.epd"), "{:?}", ours.args);
    let crafty = r.engines.iter().find(|e| e.label == "crafty-positions").unwrap();
    let script = crafty.stdin.as_deref().unwrap();
    let boards: Vec<&str> = script.lines().filter_map(|l| l.strip_prefix("setboard ")).collect();
    assert_eq!(boards, ["8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"]);
    assert_eq!(script.matches("sd 9\ngo\n").count(), 2);
    assert_eq!(crafty.runs[0].crafty.unwrap().searches, 2);
    // A missing or unreadable file is one line naming the flag.
    let missing = run("none.epd");
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(!missing.status.success() && err.lines().count() == 1 && err.contains("--positions"), "{err}");
    std::fs::write(dir.path().join("bad.epd"), "not a position\n").unwrap();
    let bad = run("bad.epd");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success() && err.lines().count() == 1 && err.contains("--positions"), "{err}");
}

/// [`nps`] without extra environment, failing the test instead of hanging
/// it when boardbench has not finished within `limit`.
fn nps_within(limit: Duration, args: &[&str]) -> Output {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .arg("nps")
        .args(args)
        .env_remove("FAKE_MODE")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("boardbench runs");
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let t = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            panic!("boardbench nps still running after {limit:?}: deadlocked");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output { status, stdout: out.join().unwrap(), stderr: err.join().unwrap() }
}

/// An executable shell script `name` in `dir` with `body`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[test]
fn a_long_positions_script_answered_at_length_does_not_deadlock() {
    // 1,500 positions to search (120 KB of stdin) and 3 KB printed per
    // search: both pipes fill unless stdin is written while the output is
    // drained, and then not even --timeout ends the run.
    let dir = tempfile::tempdir().unwrap();
    let crafty = script(
        dir.path(),
        "chatty-crafty.sh",
        &format!(
            "pad=$(head -c 3000 /dev/zero | tr '\\0' .)\n\
             while read -r cmd; do\n\
             case \"$cmd\" in\n\
             bench) cat '{}' ;;\n\
             go) echo \"$pad\"; echo '  time=0.50  mat=0  n=1000000'; echo '  reduced=10K pruned=250K' ;;\n\
             quit) exit 0 ;;\n\
             esac\n\
             done",
            s(&fixture("crafty-bench.txt"))
        ),
    );
    let epd = dir.path().join("many.epd");
    std::fs::write(&epd, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n".repeat(1500)).unwrap();
    let t = Instant::now();
    let out = nps_within(
        Duration::from_secs(120),
        &[
            "--crafty",
            s(&crafty),
            "--engine",
            s(&fixture("fake-engine.sh")),
            "--engine-profile",
            "bitboard",
            "--positions",
            s(&epd),
            "--runs",
            "1",
            "--timeout",
            "60",
            "--out",
            s(dir.path()),
            "--no-plots",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(t.elapsed() < Duration::from_secs(50), "{:?}", t.elapsed());
    let r: NpsReport = serde_json::from_slice(&out.stdout).unwrap();
    let positions = r.engines.iter().find(|e| e.label == "crafty-positions").unwrap();
    assert_eq!(positions.runs[0].crafty.unwrap().searches, 1500);
    assert_eq!(positions.runs[0].ending, "exited 0");
}

/// `boardbench nps` of `stockfish` beside our mailbox profile, one run.
fn with_stockfish(stockfish: &Path, out: &Path) -> Output {
    let fake = fixture("fake-engine.sh");
    nps(
        &["--stockfish", s(stockfish), "--engine", s(&fake), "--engine-profile", "mailbox", "--runs", "1"]
            .into_iter()
            .chain(["--out", s(out), "--no-plots", "--timeout", "60"])
            .collect::<Vec<_>>(),
        &[],
    )
}

#[test]
fn odd_figures_fail_naming_the_engine_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    // A rate of 0 would make the ratio infinite.
    let zero = script(dir.path(), "zero-sf.sh", "echo 'Nodes searched  : 1000' >&2; echo 'Nodes/second    : 0' >&2");
    fails_with(
        &with_stockfish(&zero, dir.path()),
        &format!(
            "stockfish: {} printed no bench result (\"Nodes/second    : 0\": a rate of 0 nodes per second)",
            s(&zero)
        ),
    );
    // A count that is not a whole number would saturate.
    let huge = script(dir.path(), "huge-sf.sh", "echo 'Nodes searched  : 1e300' >&2; echo 'Nodes/second    : 5' >&2");
    fails_with(
        &with_stockfish(&huge, dir.path()),
        "\"Nodes searched  : 1e300\": \"Nodes searched\" is not followed by a whole number",
    );
}

#[test]
fn output_without_end_is_cut_at_the_cap() {
    // Killed at the output cap, long before the timeout, instead of taking
    // the machine's memory.
    let dir = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let yes = script(dir.path(), "yes-sf.sh", "exec yes \"$(head -c 1000 /dev/zero | tr '\\0' y)\"");
    fails_with(
        &with_stockfish(&yes, dir.path()),
        &format!("stockfish: {} printed more than 32 MiB on stdout (killed", s(&yes)),
    );
    assert!(t.elapsed() < Duration::from_secs(50), "{:?}", t.elapsed());
}

/// Under an affinity mask (`taskset -c N`, a container's CPU set) the cores
/// are those this process may use, not 0..count: the last of them is
/// accepted and is the default.
#[test]
fn cores_are_those_the_process_may_use() {
    use std::os::unix::process::CommandExt;
    let last = core_affinity::get_core_ids().and_then(|ids| ids.iter().map(|c| c.id).max()).expect("cores listed");
    let dir = tempfile::tempdir().unwrap();
    let run = |core: Option<usize>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_boardbench"));
        c.arg("nps").env_remove("FAKE_MODE");
        c.args(["--stockfish", s(&fixture("fake-stockfish.sh")), "--engine", s(&fixture("fake-engine.sh"))]);
        c.args(["--engine-profile", "bitboard", "--runs", "1", "--no-plots", "--json", "--out", s(dir.path())]);
        if let Some(core) = core {
            c.args(["--core", &core.to_string()]);
        }
        // SAFETY: sched_setaffinity on the child between fork and exec.
        unsafe {
            c.pre_exec(move || {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(last, &mut set);
                if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        c.output().expect("boardbench runs")
    };
    for core in [Some(last), None] {
        let out = run(core);
        assert!(out.status.success(), "{core:?}: {}", String::from_utf8_lossy(&out.stderr));
        let r: NpsReport = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(r.metadata.core, Some(last), "{core:?}");
    }
    if last > 0 {
        // A core outside the mask is refused, naming the ones allowed.
        let out = run(Some(0));
        fails_with(&out, &format!("--core 0: no such core (this process may run on cores [{last}])"));
    }
}
