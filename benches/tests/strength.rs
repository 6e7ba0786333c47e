//! `boardbench match` and `boardbench reference` end to end, with the
//! scripted UCI engine `tests/fixtures/fake-uci.sh`: games ended by each
//! rule, forfeits by a crash, a hang, an illegal move and a flag (each with
//! the offender's last output), the SPRT stopping a match and its exit
//! statuses, the reference's save/compare cycle, and one-line errors for
//! bad engines, options and opening files.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const FOOLS_MATE: &str = "f2f3 e7e5 g2g4 d8h4";

fn fake(args: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake-uci.sh");
    format!("{} {args}", path.display())
}

fn boardbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardbench")).args(args).output().expect("the binary runs")
}

/// A temporary folder with an openings file of `fens`.
struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new(fens: &[&str]) -> Setup {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("openings.epd"), fens.join("\n") + "\n").unwrap();
        Setup { dir }
    }

    fn openings(&self) -> String {
        self.dir.path().join("openings.epd").display().to_string()
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    /// `boardbench match A B` with the openings, output folder and `extra`.
    fn run(&self, a: &str, b: &str, extra: &[&str]) -> (Output, Value) {
        let (openings, out) = (self.openings(), self.out().display().to_string());
        let mut args = vec!["match", a, b, "--openings", &openings, "--out", &out, "--quiet"];
        args.extend_from_slice(extra);
        let output = boardbench(&args);
        let report = std::fs::read(self.out().join("match.json"))
            .map(|b| serde_json::from_slice(&b).unwrap())
            .unwrap_or(Value::Null);
        (output, report)
    }

    fn pgn(&self) -> String {
        std::fs::read_to_string(self.out().join("games.pgn")).unwrap()
    }
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The games of a report.
fn games(report: &Value) -> Vec<Value> {
    report["games"].as_array().cloned().unwrap_or_default()
}

#[test]
fn games_end_by_each_rule() {
    // (opening, the moves both scripted engines play, the rule, the result).
    let cases = [
        (START, FOOLS_MATE, "checkmate", "0-1"),
        // A stalemating queen move: Qc5-b6 leaves the king on a8 no move.
        ("k7/8/8/2Q5/8/8/8/7K w - - 0 1", "c5b6", "stalemate", "1/2-1/2"),
        // Knights out and back twice: the start position a third time.
        (START, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "threefold_repetition", "1/2-1/2"),
        // The hundredth reversible half-move.
        ("4k3/8/8/8/8/8/4P3/4K1N1 w - - 99 80", "g1f3", "fifty_moves", "1/2-1/2"),
        // King takes the last pawn: K v K.
        ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2", "insufficient_material", "1/2-1/2"),
    ];
    for (fen, moves, ending, result) in cases {
        let s = Setup::new(&[fen]);
        let engine = fake(&format!("play 0 {moves}"));
        let (out, report) = s.run(&engine, &engine, &["--nodes", "10", "--games", "2"]);
        assert_eq!(code(&out), 4, "{ending}: two games decide nothing: {}", stderr(&out));
        let g = games(&report);
        assert_eq!(g.len(), 2, "{ending}");
        for game in &g {
            assert_eq!(game["ending"], ending, "{game}");
            assert_eq!(game["result"], result, "{game}");
            assert!(game.get("forfeit").is_none(), "{game}");
        }
        assert_eq!(g[0]["white"], "A");
        assert_eq!(g[1]["white"], "B");
        assert_eq!(g[0]["moves"].as_array().unwrap().len(), moves.split_whitespace().count());
    }
}

#[test]
fn move_limit_and_adjudication() {
    let s = Setup::new(&[START]);
    let engine = fake("play 0 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    let (_, report) = s.run(&engine, &engine, &["--nodes", "10", "--games", "2", "--max-moves", "2"]);
    let g = games(&report);
    assert_eq!((g[0]["ending"].as_str(), g[0]["moves"].as_array().unwrap().len()), (Some("move_limit"), 4));
    // Every move reports +0.12 for the mover: White's engine says White is
    // better, Black's that Black is; they never agree, so no adjudication.
    let (_, report) = s.run(&engine, &engine, &["--nodes", "10", "--games", "2", "--adjudicate", "10,1"]);
    assert_eq!(games(&report)[0]["ending"], "threefold_repetition");
    // Both report White 9 pawns ahead: after two moves each, White wins.
    let ahead = fake("ahead 0 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    let (_, report) = s.run(&ahead, &ahead, &["--nodes", "10", "--games", "2", "--adjudicate", "500,2"]);
    for game in games(&report) {
        assert_eq!((game["ending"].as_str(), game["result"].as_str()), (Some("adjudication"), Some("1-0")), "{game}");
        assert_eq!(game["moves"].as_array().unwrap().len(), 4);
    }
    // Four moves each are due at the eighth half-move, which repeats the
    // start a third time: the rules come first.
    let (_, report) = s.run(&ahead, &ahead, &["--nodes", "10", "--games", "2", "--adjudicate", "500,4"]);
    assert_eq!(games(&report)[0]["ending"], "threefold_repetition");
}

#[test]
fn a_crashing_engine_forfeits_with_its_last_output() {
    let s = Setup::new(&[START]);
    let (out, report) = s.run(
        &fake(&format!("crash 2 {FOOLS_MATE}")),
        &fake(&format!("play 0 {FOOLS_MATE}")),
        &["--nodes", "10", "--games", "2"],
    );
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    let g = games(&report);
    // A crashes on its second move in both games: as White, then as Black.
    for (game, side, result) in [(&g[0], "white", "0-1"), (&g[1], "black", "1-0")] {
        assert_eq!(game["ending"], "crash", "{game}");
        assert_eq!(game["result"], result);
        assert_eq!(game["a_result"], "loss");
        assert_eq!(game["forfeit"]["side"], side);
        assert!(game["detail"].as_str().unwrap().contains("crashed (exited with status 3)"), "{game}");
        let last: Vec<&str> =
            game["forfeit"]["last_output"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
        assert_eq!(last.last(), Some(&"info string about to crash"), "{last:?}");
    }
    assert_eq!(report["engines"][0]["restarts"], 2, "started again after each crash");
    assert_eq!(report["tally"]["pentanomial"], serde_json::json!([1, 0, 0, 0, 0]));
    let pgn = s.pgn();
    assert!(pgn.contains("[Termination \"abandoned\"]"), "{pgn}");
    assert!(pgn.contains("last output:") && pgn.contains("info string about to crash"), "{pgn}");
}

#[test]
fn a_hanging_engine_forfeits_and_is_replaced() {
    let s = Setup::new(&[START]);
    let t = Instant::now();
    let (out, report) = s.run(
        &fake(&format!("hang 2 {FOOLS_MATE}")),
        &fake(&format!("play 0 {FOOLS_MATE}")),
        &["--nodes", "10", "--games", "2", "--move-timeout", "0.3"],
    );
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    // Two hangs: 0.3 s each, then 1 s of grace after stop.
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    for game in games(&report) {
        assert_eq!(game["ending"], "hang", "{game}");
        assert_eq!(game["a_result"], "loss");
        assert!(game["detail"].as_str().unwrap().contains("hung (no bestmove"), "{game}");
        assert_eq!(game["forfeit"]["last_output"].as_array().unwrap().last().unwrap(), "info depth 1");
    }
    assert_eq!(report["engines"][0]["restarts"], 2);
}

#[test]
fn an_illegal_move_forfeits() {
    let s = Setup::new(&[START]);
    let (_, report) = s.run(
        &fake(&format!("illegal 2 {FOOLS_MATE}")),
        &fake(&format!("play 0 {FOOLS_MATE}")),
        &["--nodes", "10", "--games", "2"],
    );
    let g = games(&report);
    assert_eq!(g[0]["ending"], "illegal_move");
    assert_eq!(g[0]["result"], "0-1");
    let detail = g[0]["detail"].as_str().unwrap();
    assert!(detail.starts_with("White played an illegal move: bestmove \"e2e5\" in "), "{detail}");
    assert_eq!(g[0]["forfeit"]["last_output"].as_array().unwrap().last().unwrap(), "bestmove e2e5");
    assert_eq!(report["engines"][0]["restarts"], 0, "an illegal move needs no restart");
    assert!(s.pgn().contains("[Termination \"rules infraction\"]"));
}

#[test]
fn a_slow_engine_loses_on_time() {
    let s = Setup::new(&[START]);
    // 0.3 s for the game; the slow engine takes 0.5 s for its second move.
    let (_, report) = s.run(
        &fake(&format!("slow 2 {FOOLS_MATE}")),
        &fake(&format!("play 0 {FOOLS_MATE}")),
        &["--tc", "0.3+0", "--games", "2"],
    );
    for game in games(&report) {
        assert_eq!(game["ending"], "time_forfeit", "{game}");
        assert_eq!(game["a_result"], "loss");
        assert!(game["detail"].as_str().unwrap().contains("lost on time"), "{game}");
    }
    // The clock after each of the fast moves: 0.3 s less what they took.
    let first = &games(&report)[0]["moves"][0];
    assert!(first["clock_ms"].as_u64().unwrap() <= 300, "{first}");
    assert_eq!(report["settings"]["time_control"], "0.3+0");
}

#[test]
fn the_sprt_stops_the_match_and_sets_the_exit_status() {
    let s = Setup::new(&[START]);
    // B crashes on every move: A wins every game, H1 is accepted.
    let winner = fake("play 0 e2e4 e7e5");
    let crasher = fake("crash 0 e2e4 e7e5");
    let (out, report) = s.run(&winner, &crasher, &["--nodes", "10", "--games", "400", "--sprt", "0,100"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(report["sprt"]["verdict"], "accept_h1");
    let played = report["tally"]["wins"].as_u64().unwrap();
    assert!(played < 400 && report["tally"]["losses"] == 0, "{}", report["tally"]);
    assert!(report["sprt"]["llr"].as_f64().unwrap() >= report["sprt"]["bounds"][1].as_f64().unwrap());
    assert!(report["lower95"].as_f64().unwrap() > 0.5);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("H1 accepted") && stdout.contains("LOWER95 1.0000"), "{stdout}");
    // The other way round: H0 accepted, exit 3.
    let (out, report) = s.run(&crasher, &winner, &["--nodes", "10", "--games", "400", "--sprt", "0,100"]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert_eq!(report["sprt"]["verdict"], "accept_h0");
    assert!(report["stopped"].as_str().unwrap().starts_with("SPRT: H0 accepted"));
}

#[test]
fn two_runs_of_one_match_pool_into_one_verdict() {
    let (one, two) = (Setup::new(&[START]), Setup::new(&[START]));
    let winner = fake("play 0 e2e4 e7e5");
    let crasher = fake("crash 0 e2e4 e7e5");
    let limits = ["--nodes", "10", "--games", "4", "--sprt", "0,100"];
    let (out, first) = one.run(&winner, &crasher, &[&limits[..], &["--seed", "1"]].concat());
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    // The same openings file for both runs: that is part of what makes them one match.
    let openings = one.openings();
    let out_two = two.out().display().to_string();
    let args = [
        &["match", &winner, &crasher, "--openings", &openings, "--out", &out_two, "--quiet"][..],
        &limits,
        &["--seed", "2"],
    ];
    assert_eq!(code(&boardbench(&args.concat())), 4);
    let (a, b) = (one.out().display().to_string(), two.out().join("match.json").display().to_string());
    let out = boardbench(&["pool", &a, &b, "--json"]);
    let pooled: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(pooled["tally"]["wins"], 2 * first["tally"]["wins"].as_u64().unwrap(), "{pooled}");
    assert_eq!(pooled["tally"]["pentanomial"][4], 4, "{pooled}");
    let verdict = pooled["verdict"].as_str().unwrap();
    assert_eq!(code(&out), if verdict == "accept_h1" { 0 } else { 4 }, "{verdict}");
    let text = String::from_utf8_lossy(&boardbench(&["pool", &a, &b]).stdout).into_owned();
    assert!(text.contains("pooled 2 runs, games 8: A +8 =0 -0"), "{text}");
    // The same run twice, and a run of another match, are refused.
    fails_with(&boardbench(&["pool", &a, &a]), "both played --seed 1");
    let (out, _) = two.run(&crasher, &winner, &[&limits[..], &["--seed", "3"]].concat());
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    fails_with(&boardbench(&["pool", &a, &b]), "not the same match");
    fails_with(&boardbench(&["pool", &a]), "RUN");
}

/// Non-zero exit, one line on stderr containing `want`, no panic.
fn fails_with(out: &Output, want: &str) {
    let err = stderr(out);
    assert!(!out.status.success(), "succeeded: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(want), "{err}");
}

#[test]
fn bad_inputs_are_one_line_errors() {
    let s = Setup::new(&[START]);
    let good = fake(&format!("play 0 {FOOLS_MATE}"));
    let nodes = ["--nodes", "10", "--games", "2"];
    let (out, _) = s.run("/no/such/engine", &good, &nodes);
    fails_with(&out, "engine A: /no/such/engine: No such file");
    assert!(!s.out().exists(), "a match that never started leaves no output directory");
    let (out, _) = s.run(&good, "/bin/true", &nodes);
    fails_with(&out, "engine B: engine \"/bin/true\": exited at start-up (exited with status 0)");
    let (out, _) = s.run(&good, &good, &["--nodes", "10", "--option-a", "Profil=mailbox"]);
    fails_with(&out, "has no option \"Profil\" (it offers: Threads, Style)");
    let (out, _) = s.run(&good, &good, &["--nodes", "10", "--option-b", "Style=broken"]);
    fails_with(&out, "refused its options: info string error: Style broken is not a style");
    let (out, _) = s.run(&good, &good, &["--nodes", "10", "--option-a", "Threads=4"]);
    fails_with(&out, "matches are single-threaded");
    let (out, _) = s.run(&good, &good, &["--nodes", "10", "--option-a", "Profile"]);
    fails_with(&out, "--option-a: option \"Profile\" is not NAME=VALUE");
    let (out, _) = s.run("'unclosed", &good, &nodes);
    fails_with(&out, "engine A: \"'unclosed\": a ' quote is not closed");
    // Openings.
    let out = boardbench(&["match", &good, &good, "--nodes", "10", "--openings", "/no/such/openings.epd"]);
    fails_with(&out, "openings /no/such/openings.epd: No such file");
    let bad = Setup::new(&[START, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"]);
    let (out, _) = bad.run(&good, &good, &nodes);
    fails_with(&out, "openings.epd:2: ");
    // Usage errors: exit 2.
    let (out, _) = s.run(&good, &good, &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    fails_with(&out, "required arguments were not provided: <--tc <TC>|--nodes <NODES>>");
    let (out, _) = s.run(&good, &good, &["--tc", "1+x"]);
    assert_eq!(code(&out), 2);
    fails_with(&out, "\"x\" is not a number");
    let (out, _) = s.run(&good, &good, &["--nodes", "10", "--sprt", "5,0"]);
    fails_with(&out, "elo0 must be below elo1");
    let (out, _) = s.run(&good, &good, &["--tc", "1", "--nodes-a", "5"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn reference_save_then_compare() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("tiny.epd");
    // e2e4 solves the first, not the second (bm d4).
    std::fs::write(&suite, format!("{START} bm e4; id \"one\";\n{START} bm d4; id \"two\";\n")).unwrap();
    let head = dir.path().join("head.json");
    let (suite_s, head_s) = (suite.display().to_string(), head.display().to_string());
    let save = |engine: &str, force: bool| {
        let mut args = vec!["reference", "save", "--engine", engine, "--suite", &suite_s, "--out", &head_s, "--quiet"];
        if force {
            args.push("--force");
        }
        boardbench(&args)
    };
    let e4 = fake("play 0 e2e4");
    let out = save(&e4, false);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("tiny: 1/2 solved"));
    let saved: Value = serde_json::from_slice(&std::fs::read(&head).unwrap()).unwrap();
    assert_eq!(saved["suites"][0]["positions"][0]["best_move"], "e2e4");
    assert_eq!(saved["suites"][0]["positions"][0]["nodes"], 34);
    assert_eq!(saved["suites"][0]["positions"][1]["solved"], false);
    // Not overwritten without --force, before anything is searched.
    fails_with(&save(&e4, false), "exists (a saved reference); pass --force");
    let compare = |engine: &str| {
        let report = dir.path().join("cmp.json").display().to_string();
        boardbench(&["reference", "compare", "--engine", engine, "--reference", &head_s, "--out", &report, "--quiet"])
    };
    // The same engine: identical, exit 0.
    let out = compare(&e4);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("identical to the reference"));
    // One that plays d4: gains "two", loses "one": same count, exit 0.
    let out = compare(&fake("play 0 d2d4"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(code(&out), 0, "{text}");
    assert!(text.contains("tiny gained: two (d4)") && text.contains("tiny lost: one (e4 -> d4)"), "{text}");
    assert!(text.contains("tiny best move changed: one: e4 -> d4; two: e4 -> d4"), "{text}");
    // One that solves nothing: a regression, exit 3.
    let out = compare(&fake("play 0 g1f3"));
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("REGRESSION: fewer positions solved in tiny"));
    let cmp: Value = serde_json::from_slice(&std::fs::read(dir.path().join("cmp.json")).unwrap()).unwrap();
    assert_eq!(cmp["regression"], true);
    // A suite changed since the reference was saved.
    std::fs::write(&suite, format!("{START} bm e4; id \"one\";\n")).unwrap();
    fails_with(&compare(&e4), "changed since the reference was saved");
    // An engine that crashes mid-run: one line, naming the position.
    std::fs::write(&suite, format!("{START} bm e4; id \"one\";\n{START} bm d4; id \"two\";\n")).unwrap();
    fails_with(&compare(&fake("crash 0 e2e4")), "tiny one: the engine crashed (exited with status 3)");
}
