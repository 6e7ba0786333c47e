//! A match between two UCI engines, A and B: game pairs from the openings
//! (each opening twice, A with White first), one game at a time, both
//! engines pinned to the same core (only the side to move searches: no
//! pondering), until the SPRT decides or the game limit is reached. After
//! every game a progress line goes to stderr; the games (PGN) and the
//! report (JSON) are written atomically under the output folder every few
//! pairs and at the end, so an interrupted run keeps what it played.
//!
//! An engine that crashed or hung is started again for the next game; if
//! that fails the match stops with an error (results so far written).
//! Ctrl-C stops the match after the current game (a second one kills it).
//!
//! Exit status: 0 H1 accepted (A stronger by elo1), 3 H0 accepted (H1
//! rejected), 4 inconclusive (game limit reached or interrupted between
//! the bounds), 1 error, 2 bad usage.

use super::game::{play_game, Budget, GameRecord, GameResult, GameSettings, TimeControl};
use super::openings::Book;
use super::pgn::{game_pgn, PgnHeader};
use super::score::{show_elo, Estimate, Outcome, Tally};
use super::sprt::{Sprt, Verdict};
use super::uci_engine::{EngineSpec, Timeouts, UciEngine};
use crate::measure::sysinfo;
use engine::rng::Rng;
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Report format name.
pub const SCHEMA: &str = "boardbench-match/1";
/// Write the results at least this often while the match runs.
const CHECKPOINT: Duration = Duration::from_secs(15);

/// Exit statuses.
pub const EXIT_ACCEPTED: i32 = 0;
pub const EXIT_REJECTED: i32 = 3;
pub const EXIT_INCONCLUSIVE: i32 = 4;

/// What limits the moves, per engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Limits {
    Clock(TimeControl),
    /// Nodes per move for A and B, and the jitter fraction.
    Nodes {
        a: u64,
        b: u64,
        jitter: f64,
    },
}

/// Everything a match needs.
pub struct MatchPlan {
    pub engines: [EngineSpec; 2],
    /// Names for the PGN and the report (`None`: made from `id name`).
    pub names: [Option<String>; 2],
    pub limits: Limits,
    pub time_margin: Duration,
    pub move_timeout: Duration,
    pub adjudication: Option<super::adjudication::WinAdjudication>,
    pub max_moves: Option<u32>,
    pub book: Book,
    pub seed: u64,
    pub core: Option<usize>,
    pub max_games: u64,
    pub sprt: Sprt,
    pub out_dir: PathBuf,
    pub timeouts: Timeouts,
    /// Quiet: no progress lines (tests).
    pub quiet: bool,
}

#[derive(Serialize)]
struct EngineInfo {
    label: &'static str,
    name: String,
    command: Vec<String>,
    options: Vec<String>,
    id_name: Option<String>,
    nodes: Option<u64>,
    restarts: u32,
}

#[derive(Serialize)]
struct SettingsInfo {
    time_control: Option<String>,
    nodes_jitter: Option<f64>,
    time_margin_ms: u64,
    move_timeout_s: f64,
    adjudicate: Option<super::adjudication::WinAdjudication>,
    max_moves: Option<u32>,
    openings: String,
    openings_count: usize,
    seed: u64,
    core: Option<usize>,
    max_games: u64,
}

#[derive(Serialize)]
struct SprtInfo {
    #[serde(flatten)]
    settings: Sprt,
    bounds: [f64; 2],
    llr: f64,
    verdict: Verdict,
}

#[derive(Serialize)]
struct GameEntry<'a> {
    number: u64,
    pair: u64,
    /// Which engine had White: "A" or "B".
    white: &'static str,
    /// A's result: "win", "draw", "loss".
    a_result: Outcome,
    #[serde(flatten)]
    record: &'a GameRecord,
}

#[derive(Serialize)]
struct MatchReport<'a> {
    schema: &'static str,
    date: String,
    command_line: Vec<String>,
    git_commit: Option<String>,
    load_average: Option<[f64; 3]>,
    engines: [EngineInfo; 2],
    settings: SettingsInfo,
    tally: &'a Tally,
    /// Score, its 95% interval (lower end: LOWER95), Elo and normalized Elo.
    estimate: Option<Estimate>,
    lower95: Option<f64>,
    sprt: SprtInfo,
    /// Why the match stopped.
    stopped: String,
    seconds: f64,
    games: Vec<GameEntry<'a>>,
}

/// Set by the first Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Stop after the current game on the first Ctrl-C; the handler resets
/// itself, so a second one ends the program as usual.
fn catch_interrupt() {
    #[cfg(target_os = "linux")]
    // SAFETY: installs a handler that only stores to an atomic.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as usize;
        action.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
    }
}

/// `YYYY.MM.DD` for PGN.
fn pgn_date(secs: u64) -> String {
    sysinfo::iso8601(secs)[..10].replace('-', ".")
}

/// A name for an engine: `id name` (or the program's file name) with its
/// options and node budget.
fn default_name(engine: &UciEngine, spec: &EngineSpec, nodes: Option<u64>) -> String {
    let base = engine.id_name.clone().unwrap_or_else(|| {
        Path::new(&spec.command[0]).file_name().map_or(spec.command[0].clone(), |f| f.to_string_lossy().into_owned())
    });
    let mut extra: Vec<String> = spec.options.iter().map(|(n, v)| format!("{n}={v}")).collect();
    if let Some(n) = nodes {
        extra.push(format!("nodes={n}"));
    }
    if extra.is_empty() {
        base
    } else {
        format!("{base} ({})", extra.join(", "))
    }
}

/// Run the match; the exit status, or an error (one line).
pub fn run_match(plan: &MatchPlan) -> Result<i32, String> {
    let _out_dir = crate::output::RunDir::claim(&plan.out_dir).map_err(|e| e.to_string())?;
    let mut engines = Vec::with_capacity(2);
    for (spec, label) in plan.engines.iter().zip(["A", "B"]) {
        engines.push(UciEngine::start(spec, plan.core, plan.timeouts).map_err(|e| format!("engine {label}: {e}"))?);
    }
    let (node_budget, jitter) = match plan.limits {
        Limits::Nodes { a, b, jitter } => (Some([a, b]), Some(jitter)),
        Limits::Clock(_) => (None, None),
    };
    let mut names: Vec<String> = (0..2)
        .map(|i| {
            plan.names[i]
                .clone()
                .unwrap_or_else(|| default_name(&engines[i], &plan.engines[i], node_budget.map(|n| n[i])))
        })
        .collect();
    if names[0] == names[1] {
        names[0].push_str(" [A]");
        names[1].push_str(" [B]");
    }
    catch_interrupt();
    let started = Instant::now();
    let date_secs = sysinfo::now_secs();
    let order = plan.book.order(plan.seed);
    let time_control = match &plan.limits {
        Limits::Clock(tc) => tc.pgn(),
        Limits::Nodes { .. } => "-".to_string(),
    };
    let mut tally = Tally::default();
    let mut records: Vec<(u64, bool, Outcome, GameRecord)> = Vec::new();
    let mut pgn = String::new();
    let mut llr = 0.0;
    let mut verdict = Verdict::Continue;
    let mut stopped = String::new();
    let mut error = None;
    let mut last_write = Instant::now();
    let pairs = plan.max_games.div_ceil(2);
    let tty = std::io::stderr().is_terminal() && !plan.quiet;
    let write = |tally: &Tally,
                 records: &[(u64, bool, Outcome, GameRecord)],
                 pgn: &str,
                 llr: f64,
                 verdict: Verdict,
                 stopped: &str,
                 engines: &[UciEngine]|
     -> Result<(), String> {
        let estimate = Estimate::of(tally);
        let (lower, upper) = plan.sprt.bounds();
        let report = MatchReport {
            schema: SCHEMA,
            date: sysinfo::iso8601(date_secs),
            command_line: sysinfo::command_line(),
            git_commit: crate::workspace::git_state(&crate::workspace::root()).0,
            load_average: sysinfo::load_average(),
            engines: [0, 1].map(|i| EngineInfo {
                label: ["A", "B"][i],
                name: names[i].clone(),
                command: plan.engines[i].command.clone(),
                options: plan.engines[i].options.iter().map(|(n, v)| format!("{n}={v}")).collect(),
                id_name: engines[i].id_name.clone(),
                nodes: node_budget.map(|n| n[i]),
                restarts: engines[i].restarts,
            }),
            settings: SettingsInfo {
                time_control: matches!(plan.limits, Limits::Clock(_)).then(|| time_control.clone()),
                nodes_jitter: jitter,
                time_margin_ms: plan.time_margin.as_millis() as u64,
                move_timeout_s: plan.move_timeout.as_secs_f64(),
                adjudicate: plan.adjudication,
                max_moves: plan.max_moves,
                openings: plan.book.path.display().to_string(),
                openings_count: plan.book.openings.len(),
                seed: plan.seed,
                core: plan.core,
                max_games: plan.max_games,
            },
            tally,
            lower95: estimate.as_ref().map(Estimate::lower95),
            estimate,
            sprt: SprtInfo { settings: plan.sprt, bounds: [lower, upper], llr, verdict },
            stopped: stopped.to_string(),
            seconds: started.elapsed().as_secs_f64(),
            games: records
                .iter()
                .enumerate()
                .map(|(i, (pair, a_white, a_result, record))| GameEntry {
                    number: i as u64 + 1,
                    pair: *pair + 1,
                    white: if *a_white { "A" } else { "B" },
                    a_result: *a_result,
                    record,
                })
                .collect(),
        };
        let json = serde_json::to_vec_pretty(&report).map_err(|e| e.to_string())?;
        // Both or neither: the JSON and the games it counts always match.
        let mut staging = crate::output::staging::Staging::new(&plan.out_dir).map_err(|e| e.to_string())?;
        staging.file("match.json", &json).map_err(|e| e.to_string())?;
        staging.file("games.pgn", pgn.as_bytes()).map_err(|e| e.to_string())?;
        staging.commit().map_err(|e| e.to_string())
    };

    'pairs: for pair in 0..pairs {
        let opening = &plan.book.openings[order[(pair as usize) % order.len()]];
        let mut outcomes = [Outcome::Draw; 2];
        for (g, outcome) in outcomes.iter_mut().enumerate() {
            if INTERRUPTED.load(Ordering::SeqCst) {
                stopped = "interrupted (Ctrl-C)".to_string();
                break 'pairs;
            }
            let a_white = g == 0;
            let number = records.len() as u64 + 1;
            let (first, second) = engines.split_at_mut(1);
            let (a, b) = (&mut first[0], &mut second[0]);
            let (white, black) = if a_white { (a, b) } else { (b, a) };
            let budget = match &plan.limits {
                Limits::Clock(tc) => Budget::Clock(*tc),
                Limits::Nodes { a, b, jitter } => {
                    Budget::Nodes { nodes: if a_white { [*a, *b] } else { [*b, *a] }, jitter: *jitter }
                }
            };
            let settings = GameSettings {
                budget,
                time_margin: plan.time_margin,
                move_timeout: plan.move_timeout,
                adjudication: plan.adjudication,
                max_moves: plan.max_moves,
            };
            let mut rng = Rng::new(plan.seed ^ number.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let record = play_game(white, black, opening, &settings, &mut rng);
            *outcome = match (record.result, a_white) {
                (GameResult::Draw, _) => Outcome::Draw,
                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Outcome::Win,
                _ => Outcome::Loss,
            };
            tally.add_game(*outcome);
            let (white_name, black_name) = if a_white { (&names[0], &names[1]) } else { (&names[1], &names[0]) };
            pgn.push_str(&game_pgn(
                &record,
                &PgnHeader {
                    event: &format!("{} vs {}", names[0], names[1]),
                    date: &pgn_date(date_secs),
                    round: &format!("{}.{}", pair + 1, g + 1),
                    white: white_name,
                    black: black_name,
                    time_control: &time_control,
                },
            ));
            if let Some(side) = record.needs_restart {
                let index = usize::from((side == engine::Color::White) != a_white);
                if let Err(e) = engines[index].restart() {
                    error = Some(format!("engine {} could not be started again: {e}", ["A", "B"][index]));
                }
            }
            if !plan.quiet {
                progress(tty, number, plan.max_games, &tally, &plan.sprt, llr, &record);
            }
            records.push((pair, a_white, *outcome, record));
            if let Some(e) = &error {
                stopped = format!("error: {e}");
                break 'pairs;
            }
        }
        tally.add_pair(outcomes[0], outcomes[1]);
        llr = plan.sprt.llr(&tally.pentanomial);
        verdict = plan.sprt.verdict(llr);
        if verdict != Verdict::Continue {
            stopped = match verdict {
                Verdict::AcceptH1 => "SPRT: H1 accepted".to_string(),
                _ => "SPRT: H0 accepted".to_string(),
            };
            break;
        }
        if last_write.elapsed() >= CHECKPOINT {
            write(&tally, &records, &pgn, llr, verdict, "running", &engines)?;
            last_write = Instant::now();
        }
    }
    if stopped.is_empty() {
        stopped = format!("game limit ({} games)", records.len());
    }
    if tty {
        eprintln!();
    }
    write(&tally, &records, &pgn, llr, verdict, &stopped, &engines)?;
    crate::output::print_out(&summary(plan, &names, &tally, llr, verdict, &stopped, started.elapsed()))?;
    if let Some(e) = error {
        return Err(format!("{e} (results so far in {})", plan.out_dir.display()));
    }
    Ok(match verdict {
        Verdict::AcceptH1 => EXIT_ACCEPTED,
        Verdict::AcceptH0 => EXIT_REJECTED,
        Verdict::Continue => EXIT_INCONCLUSIVE,
    })
}

/// The running score after a game, on one line (rewritten in place on a terminal).
fn progress(tty: bool, number: u64, max: u64, tally: &Tally, sprt: &Sprt, llr: f64, last: &GameRecord) {
    let (lower, upper) = sprt.bounds();
    let mut line = format!(
        "game {number}/{max}: A {:.1}-{:.1} B (+{} ={} -{})",
        tally.points(),
        tally.games() as f64 - tally.points(),
        tally.wins,
        tally.draws,
        tally.losses
    );
    if let Some(e) = Estimate::of(tally) {
        line.push_str(&format!(
            ", pairs {}, score {:.3} [{:.3}, {:.3}], Elo {}",
            e.pairs,
            e.score,
            e.score_interval[0],
            e.score_interval[1],
            show_elo(e.elo, e.score - 0.5)
        ));
    }
    line.push_str(&format!(", LLR {llr:.2} [{lower:.2}, {upper:.2}]"));
    let mut err = std::io::stderr().lock();
    if tty {
        let _ = write!(err, "\r\x1b[2K{line}");
    } else {
        let _ = writeln!(err, "{line} ({} {}, {:.1} s)", last.result.pgn(), last.detail, last.seconds);
    }
    let _ = err.flush();
}

/// The score with LOWER95 and the Elo of the pairs counted in `tally`,
/// for people (two lines).
pub(crate) fn estimate_lines(tally: &Tally) -> String {
    let mut s = String::new();
    match Estimate::of(tally) {
        Some(e) => {
            s.push_str(&format!(
                "score {:.4} [95%: {:.4}, {:.4}]  LOWER95 {:.4}\n",
                e.score, e.score_interval[0], e.score_interval[1], e.score_interval[0]
            ));
            s.push_str(&format!(
                "Elo {} [{}, {}] (logistic)",
                show_elo(e.elo, e.score - 0.5),
                show_elo(e.elo_interval[0], e.score_interval[0] - 0.5),
                show_elo(e.elo_interval[1], e.score_interval[1] - 0.5)
            ));
            match (e.nelo, e.nelo_interval) {
                (Some(n), Some([lo, hi])) => s.push_str(&format!("; nElo {n:+.1} [{lo:+.1}, {hi:+.1}]\n")),
                _ => s.push_str("; nElo undefined (every pair scored alike)\n"),
            }
        }
        None => s.push_str("no complete pair\n"),
    }
    s
}

/// What a verdict of `sprt` means, for people. H1 is "A is stronger" only
/// when even H0 has A no weaker; with H0 below zero (a non-regression test
/// such as [-10, 0]) accepting H1 says A is not weaker.
pub(crate) fn outcome(verdict: Verdict, sprt: &Sprt) -> String {
    match verdict {
        Verdict::AcceptH1 if sprt.elo0 >= 0.0 => "H1 accepted: A is stronger".into(),
        Verdict::AcceptH1 => {
            format!("H1 accepted: A is not weaker (Elo {:+} rather than {:+})", sprt.elo1, sprt.elo0)
        }
        Verdict::AcceptH0 => "H0 accepted: H1 rejected".into(),
        Verdict::Continue => "inconclusive".into(),
    }
}

/// The result for people.
fn summary(
    plan: &MatchPlan,
    names: &[String],
    tally: &Tally,
    llr: f64,
    verdict: Verdict,
    stopped: &str,
    took: Duration,
) -> String {
    let mut s = format!("A: {}\nB: {}\n", names[0], names[1]);
    s.push_str(&format!(
        "games {}: A +{} ={} -{} ({:.1} points); pairs {}: LL {} LD {} WL+DD {} WD {} WW {}\n",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.pairs(),
        tally.pentanomial[0],
        tally.pentanomial[1],
        tally.pentanomial[2],
        tally.pentanomial[3],
        tally.pentanomial[4]
    ));
    s.push_str(&estimate_lines(tally));
    let (lower, upper) = plan.sprt.bounds();
    let outcome = outcome(verdict, &plan.sprt);
    s.push_str(&format!(
        "SPRT [{}, {}] {} Elo, alpha {} beta {}: LLR {llr:.3} (bounds {lower:.3}, {upper:.3}): {outcome}\n",
        plan.sprt.elo0, plan.sprt.elo1, plan.sprt.model, plan.sprt.alpha, plan.sprt.beta
    ));
    s.push_str(&format!("stopped: {stopped}; {:.1} s; results in {}\n", took.as_secs_f64(), plan.out_dir.display()));
    s
}
