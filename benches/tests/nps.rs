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
    // Crafty 25.2 on our bench positions: it refuses `new`, so a fresh
    // process per position (a script each, no `new`), one search each,
    // summed. The fake answers a fresh process's search with 1,000,000 nodes
    // in 0.50 s, fp=150.0K and mcp=100.0K pruned, and any later search in
    // the same process with 600,000: the sums show every search was fresh.
    let positions = &r.engines[5];
    let script = positions.stdin.as_deref().unwrap();
    let fens = engine::tools::bench::BENCH_POSITIONS.len();
    // (Read by name, whatever module the type lives in.)
    assert_eq!(format!("{:?}", positions.crafty_reset), "Some(ProcessPerPosition)");
    assert!(script.starts_with("ponder off\nhash 16M\nsetboard "), "{script}");
    assert_eq!(script.matches("\nsd 14\ngo\nquit\n").count(), fens);
    assert_eq!(script.matches("ponder off\nhash 16M\nsetboard ").count(), fens);
    assert!(!script.contains("new\n"), "{script}");
    assert!(script.contains(&format!("setboard {}\n", engine::tools::bench::BENCH_POSITIONS[0].1)));
    for run in &positions.runs {
        let c = run.crafty.unwrap();
        let n = fens as u64;
        assert_eq!((c.searches, c.nodes, c.pruned), (fens, 1_000_000 * n, Some(250_000 * n)));
        assert_eq!((c.futility_pruned, c.move_count_pruned), (Some(150_000 * n), Some(100_000 * n)));
        // 150.0K and 100.0K: each within 50.
        assert_eq!(c.pruned_rounding, 100 * n);
        assert_eq!(run.nps, 2_000_000.0);
        assert_eq!(run.searched_nps(), 1_500_000.0);
        assert_eq!(run.ending, "exited 0");
        // Every process's CPU and wall time summed.
        assert!(run.wall_s > 0.0 && run.cpu_share > 0.0, "{run:?}");
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
    // Each Crafty process had a fresh working directory, which was also
    // $HOME, and nothing was left behind: one start for its version, then
    // per round one for its bench and one per position.
    let starts = std::fs::read_to_string(&record).unwrap();
    let dirs: Vec<(&str, &str)> = starts.lines().map(|l| l.split_once(' ').unwrap()).collect();
    assert_eq!(dirs.len(), 1 + 3 * (1 + fens), "Crafty processes started");
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
    assert!(stdout.contains("25.0% of the nodes it counts are moves it pruned unsearched"), "{stdout}");
    assert!(stdout.contains("positions (a fresh process per position (this Crafty refuses \"new\"))"), "{stdout}");
    assert!(stdout.contains("(its fp= + mcp= counts, as Crafty rounds them: 5,000,000 ±2,000)"), "{stdout}");
    assert!(stdout.contains("ours bitboard: 25.0% of the nodes it counts are moves it pruned"), "{stdout}");
    assert!(stdout.contains("searched positions only: median 1,500,000 nps"), "{stdout}");
    assert_eq!(r.plots.len(), 2);
    for p in &r.plots {
        assert!(std::fs::metadata(dir.path().join(p)).unwrap().len() > 1000);
    }
}

#[test]
fn fake_crafty_23_searches_our_positions_in_one_process_after_new() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("starts.txt");
    let out = nps(
        &[
            "--crafty",
            s(&fixture("fake-crafty.sh")),
            "--engine",
            s(&fixture("fake-engine.sh")),
            "--engine-profile",
            "bitboard",
            "--runs",
            "2",
            "--out",
            s(dir.path()),
            "--no-plots",
        ],
        &[("FAKE_CRAFTY", "23.4"), ("FAKE_RECORD", s(&record))],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let r: NpsReport = serde_json::from_slice(&std::fs::read(dir.path().join("nps-latest.json")).unwrap()).unwrap();
    let crafty = r.engines.iter().find(|e| e.label == "crafty").unwrap();
    assert_eq!(crafty.banner.as_deref(), Some("Crafty v23.4 (1 cpus)"));
    assert_eq!((crafty.runs[0].nodes, crafty.runs[0].nps), (380_970_457, 4_117_264.0));
    assert_eq!(crafty.runs[0].ending, "stopped after the first totals block");
    let positions = r.engines.iter().find(|e| e.label == "crafty-positions").unwrap();
    let fens = engine::tools::bench::BENCH_POSITIONS.len();
    assert_eq!(format!("{:?}", positions.crafty_reset), "Some(NewCommand)");
    let script = positions.stdin.as_deref().unwrap();
    assert!(script.starts_with("ponder off\nhash 16M\nnew\nsetboard "), "{script}");
    assert_eq!(script.matches("new\nsetboard ").count(), fens);
    assert_eq!(script.matches("quit\n").count(), 1);
    for run in &positions.runs {
        let c = run.crafty.unwrap();
        assert_eq!((c.searches, c.nodes, c.pruned), (fens, 1_000_000 * fens as u64, Some(250_000 * fens as u64)));
        assert_eq!((c.futility_pruned, c.move_count_pruned, c.pruned_rounding), (None, None, 500 * fens as u64));
    }
    // One start for its version, then two a round: its bench and one
    // process for all our positions.
    assert_eq!(std::fs::read_to_string(&record).unwrap().lines().count(), 1 + 2 * 2);
    assert!(stdout.contains("positions (one process, \"new\" before each position)"), "{stdout}");
    assert!(stdout.contains("(its pruned= counts, as Crafty rounds them: 5,000,000 ±10,000)"), "{stdout}");
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
fn another_build_of_our_engine_is_compared_profile_by_profile() {
    let dir = tempfile::tempdir().unwrap();
    let (ours, base) = (fixture("fake-engine.sh"), fixture("fake-engine-base.sh"));
    let builds = ["--engine", s(&ours), "--base-engine", s(&base), "--engine-profile", "bitboard"];
    let rest = ["--out", s(dir.path()), "--no-plots"];
    let out = nps(&[&builds[..], &rest, &["--runs", "2", "--json"]].concat(), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: NpsReport = serde_json::from_slice(&out.stdout).expect("one JSON object on stdout");
    let labels: Vec<(&str, bool)> = r.engines.iter().map(|e| (e.label.as_str(), e.base)).collect();
    assert_eq!(labels, [("base bitboard", true), ("ours bitboard", false)]);
    let pairs: Vec<(&str, &str, f64)> =
        r.ratios.iter().map(|x| (x.ours.as_str(), x.theirs.as_str(), x.ratio.estimate)).collect();
    // Both prune a quarter of their nodes: searched against searched is the same 1.25.
    assert_eq!(
        pairs,
        [("ours bitboard", "base bitboard", 1.25), ("ours bitboard searched", "base bitboard searched", 1.25)]
    );
    // The same run printed as a table names the pair.
    let out = nps(&[&builds[..], &rest, &["--runs", "1"]].concat(), &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("ours bitboard          / base bitboard          1.250"),
        "{stdout}"
    );
    let none = dir.path().join("none");
    fails_with(&nps(&["--engine", s(&ours), "--base-engine", s(&none), "--out", s(dir.path())], &[]), "--base-engine ");
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
        "exited with status 2; last lines: Crafty v25.2 | machine has 2 processors | ERROR: hash table allocation failed",
    );
    fails_with(&run(&crafty, "garbage"), "printed no bench result (no \"Total nodes:\" line); last lines:");
    let t = Instant::now();
    fails_with(&run(&crafty, "hang"), "did not finish within 3 s (killed)");
    assert!(t.elapsed() < Duration::from_secs(20));
    // Crafty's bench fine, but our positions with black to move refused:
    // said, not summed.
    let white_to_move = engine::tools::bench::BENCH_POSITIONS.iter().filter(|(_, fen)| fen.contains(" w ")).count();
    assert!(white_to_move < engine::tools::bench::BENCH_POSITIONS.len());
    fails_with(
        &run(&crafty_with_positions, "refuse"),
        &format!(
            "printed no bench result ({white_to_move} search summaries (\"time=... n=...\" or \"time=... nodes=...\") \
             for {} positions: a position was refused or a search cut short) (--no-crafty-positions runs Crafty's \
             own bench only); last lines:",
            engine::tools::bench::BENCH_POSITIONS.len()
        ),
    );
    // A Crafty that cannot even start and quit: its version is unknown.
    let broken = script(dir.path(), "broken-crafty.sh", "echo 'Crafty v25.2'; echo 'ERROR: no memory'; exit 3");
    fails_with(
        &run(&base("--crafty", broken), "ok"),
        "crafty-positions: crafty (start and quit, for its version) exited with status 3: Crafty v25.2 | ERROR: no memory",
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
            "echo 'Crafty v23.4 (1 cpus)'\n\
             pad=$(head -c 3000 /dev/zero | tr '\\0' .)\n\
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

/// `scripts/fetch-crafty.sh` with `args` and `envs` (and no $CRAFTY of the
/// caller's).
fn fetch_crafty(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/fetch-crafty.sh");
    let mut c = Command::new(script);
    c.args(args).env_remove("CRAFTY").env_remove("APT_GET").env_remove("FETCH_CRAFTY_DIR");
    for (k, v) in envs {
        c.env(k, v);
    }
    c.output().expect("fetch-crafty.sh runs")
}

/// Exit 1 and one stderr line starting "error: " and holding `want`.
fn script_fails_with(out: &Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: ") && err.contains(want), "{err}");
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn fetch_crafty_takes_a_given_crafty_or_the_package_clients() {
    let dir = tempfile::tempdir().unwrap();
    let fake = fixture("fake-crafty.sh");
    let printed = |out: &Output| String::from_utf8_lossy(&out.stdout).trim_end().to_string();
    // A Crafty the user built: the argument, or $CRAFTY; printed absolute.
    let out = fetch_crafty(&[s(&fake)], &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(printed(&out), s(&fake));
    let out = fetch_crafty(&[], &[("CRAFTY", s(&fake))]);
    assert_eq!(printed(&out), s(&fake));
    script_fails_with(&fetch_crafty(&["/nonexistent/crafty"], &[]), "/nonexistent/crafty is not an executable file");
    script_fails_with(&fetch_crafty(&[s(&fixture("README.md"))], &[]), "is not an executable file");
    // Nothing given, nothing unpacked yet, and the package client has no
    // crafty package: how to get one, exit 1, nothing left behind.
    let unpack = dir.path().join("crafty");
    let no_package =
        script(dir.path(), "apt-get-without-crafty", "echo \"E: Unable to locate package $2\" >&2; exit 100");
    let envs = [("APT_GET", s(&no_package)), ("FETCH_CRAFTY_DIR", s(&unpack))];
    let out = fetch_crafty(&[], &envs);
    script_fails_with(&out, "download crafty' found no crafty package (E: Unable to locate package crafty)");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("build Crafty from its source") && err.contains("non-free 'crafty' package"), "{err}");
    assert!(!unpack.exists());
    // No package client at all.
    let out = fetch_crafty(&[], &[("APT_GET", "/nonexistent/apt-get"), ("FETCH_CRAFTY_DIR", s(&unpack))]);
    script_fails_with(&out, "no package client (/nonexistent/apt-get) here; build Crafty from its source");
    // A package client that has it: asked for the package by name, the
    // package unpacked without root and the binary's path printed.
    if Command::new("dpkg-deb").arg("--version").output().is_err() {
        eprintln!("note: dpkg-deb is not installed; the unpacking half of this test skipped");
        return;
    }
    let tree = dir.path().join("pkg");
    std::fs::create_dir_all(tree.join("DEBIAN")).unwrap();
    std::fs::create_dir_all(tree.join("usr/games")).unwrap();
    std::fs::write(
        tree.join("DEBIAN/control"),
        "Package: crafty\nVersion: 23.4-7\nArchitecture: all\nMaintainer: test <test@invalid>\nDescription: test\n",
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        let packaged = tree.join("usr/games/crafty");
        std::fs::write(&packaged, "#!/bin/sh\necho 'Crafty v23.4 (1 cpus)'\n").unwrap();
        std::fs::set_permissions(&packaged, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let deb = dir.path().join("crafty_23.4-7_all.deb");
    let built = Command::new("dpkg-deb").args(["--root-owner-group", "--build", s(&tree), s(&deb)]).output().unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let with_package = script(
        dir.path(),
        "apt-get-with-crafty",
        &format!("[ \"$1 $2\" = 'download crafty' ] || exit 100\ncp '{}' .", s(&deb)),
    );
    let out = fetch_crafty(&[], &[("APT_GET", s(&with_package)), ("FETCH_CRAFTY_DIR", s(&unpack))]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bin = unpack.join("usr/games/crafty");
    assert_eq!(printed(&out), s(&bin));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unpacked crafty_23.4-7_all.deb under"));
    let banner = Command::new(&bin).stdin(std::process::Stdio::null()).current_dir(dir.path()).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&banner.stdout), "Crafty v23.4 (1 cpus)\n", "the unpacked program runs");
    // Once unpacked it is reused: the client is not asked again.
    let out = fetch_crafty(&[], &[("APT_GET", s(&no_package)), ("FETCH_CRAFTY_DIR", s(&unpack))]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(printed(&out), s(&bin));
    // Only the package's files are left: no download directory.
    let left: Vec<String> =
        std::fs::read_dir(&unpack).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(left, ["usr"]);
}
