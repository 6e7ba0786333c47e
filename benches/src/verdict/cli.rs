//! The command lines of `boardbench retire` and `boardbench cutlist`.

use super::cutlist::{self, Candidate, Rules};
use super::games::Budget;
use super::retire::{self, SWEEP_POSITIONS};
use crate::strength::game::TimeControl;
use crate::strength::openings::DEFAULT_FILE;
use crate::strength::sprt::{EloModel, Sprt};
use crate::strength::uci_engine::split_command;
use crate::suite::run::RunArgs;
use crate::workspace;
use clap::Args;
use engine::eval::mobility::cuts::Cuts;
use engine::tools::routine_equiv::Routine;
use std::path::PathBuf;

/// `boardbench retire ROUTINE`.
#[derive(Args, Clone, Debug)]
pub struct RetireCli {
    /// attacks, defects, mobility-knight, mobility-bishop, mobility-rook,
    /// mobility-queen or movegen.
    pub routine: String,
    /// The UCI engine command line (default: our engine, beside this program).
    #[arg(long)]
    pub engine: Option<String>,
    /// Criterion 4: clock per side, BASE+INC in seconds [default: 1+0.01,
    /// --quick: 0.25+0.01].
    #[arg(long, value_parser = TimeControl::parse)]
    pub tc: Option<TimeControl>,
    /// Criterion 4: most games (whole pairs) [default: 200, --quick: 20].
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub games: Option<u64>,
    /// The quickest honest run, for CI and a first look: the suite's quick
    /// timing (--bench-quick), a short match (--tc 0.25+0.01 --games 20)
    /// and the curated suites cut to their first --suite-positions (10)
    /// positions each. The sweep keeps its 20,000 positions. Everything
    /// measured smaller than the plans ask can fail but not pass: the
    /// shortened suites are NOT RUN when no worse. Flags given explicitly win.
    #[arg(long)]
    pub quick: bool,
    /// Criterion 3: search only the first N positions of each curated suite
    /// (the comparison can then fail but not pass) [default: all; --quick: 10].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub suite_positions: Option<u32>,
    /// Criterion 4: SPRT bounds `elo0,elo1[,alpha,beta]` in normalized Elo (default 0,10).
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    pub sprt: Option<String>,
    /// Criterion 4: openings file (default positions/lichess_popular_20k.epd).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Criterion 4: seed of the openings' order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Core the measuring thread and the engines are pinned to (default: the last).
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
    /// Criterion 2: accept parity (no measured loss) where the new form is not
    /// faster, kept on purpose.
    #[arg(long)]
    pub accept_parity: bool,
    /// Leave criterion N out (1 to 5; repeat), taking it from a --reuse
    /// retirement result of this commit where one holds it.
    #[arg(long = "skip", value_name = "N", value_parser = clap::value_parser!(u8).range(1..=5))]
    pub skip: Vec<u8>,
    /// An earlier retirement result (JSON) of this commit for --skip, or a
    /// suite run (results/runs/*.json) of this commit for criterion 2 (repeat).
    #[arg(long = "reuse", value_name = "FILE")]
    pub reuse: Vec<PathBuf>,
    /// Criterion 1: positions of the equivalence sweep (passes only at 20,000 or more).
    #[arg(long, default_value_t = SWEEP_POSITIONS, value_parser = positions)]
    pub positions: usize,
    /// Criterion 1: seed of the sweep's positions (as `engine equiv --seed`).
    #[arg(long, default_value_t = 1)]
    pub sweep_seed: u64,
    /// Criterion 2: seconds per benchmark (the suite's --seconds; default 25).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub bench_seconds: Option<u32>,
    /// Criterion 2: a short smoke measurement (the suite's --quick).
    #[arg(long)]
    pub bench_quick: bool,
    /// Criteria 3 and 5: the head reference (default results/reference/head.json).
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// Where the JSON goes (default `results/retire/<UTC time>-<pid>-<routine>.json`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress lines from the suites and the match.
    #[arg(long)]
    pub quiet: bool,
}

/// Criterion 4's clock and games, and `--quick`'s.
const DEFAULT_TC: &str = "1+0.01";
const QUICK_TC: &str = "0.25+0.01";
const DEFAULT_GAMES: u64 = 200;
const QUICK_GAMES: u64 = 20;
/// Positions per curated suite under `--quick`.
const QUICK_SUITE_POSITIONS: usize = 10;

fn positions(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        _ => Err(format!("{text} is not a number of positions from 1 to 1000000")),
    }
}

/// The engine command line: given, or ours beside this program.
fn engine_command(given: &Option<String>) -> Result<Vec<String>, String> {
    match given {
        Some(text) => split_command(text).map_err(|e| format!("--engine: {e}")),
        None => Ok(vec![workspace::engine_beside_this_program()?.display().to_string()]),
    }
}

fn sprt(given: &Option<String>, default: Sprt) -> Result<Sprt, String> {
    given.as_deref().map_or(Ok(default), |t| Sprt::parse(t, EloModel::Normalized))
}

fn bench_args(seconds: Option<u32>, quick: bool, core: usize) -> RunArgs {
    RunArgs { seconds, quick, core: Some(core), no_plots: true, ..RunArgs::defaults() }
}

/// Run `boardbench retire`.
pub fn retire_main(a: &RetireCli) -> Result<i32, String> {
    retire::retire(&retire_settings(a)?)
}

/// The settings of `boardbench retire`, `--quick` applied where no flag
/// says otherwise.
fn retire_settings(a: &RetireCli) -> Result<retire::Settings, String> {
    let routine = Routine::parse(&a.routine).ok_or_else(|| {
        let names: Vec<&str> = Routine::ALL.iter().map(|r| r.name()).collect();
        format!("unknown routine {:?} (expected one of: {})", a.routine, names.join(", "))
    })?;
    let core = crate::measure::pin::choose_core(a.core)?;
    let out = a.out.clone().unwrap_or_else(|| {
        let dir = crate::strength::cli::stamped_dir("retire");
        dir.with_file_name(format!(
            "{}-{}.json",
            dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            routine
        ))
    });
    let settings = retire::Settings {
        routine,
        engine: engine_command(&a.engine)?,
        budget: Budget::Clock(a.tc.unwrap_or_else(|| {
            TimeControl::parse(if a.quick { QUICK_TC } else { DEFAULT_TC }).expect("a valid clock")
        })),
        games: a.games.unwrap_or(if a.quick { QUICK_GAMES } else { DEFAULT_GAMES }),
        suite_positions: a.suite_positions.map(|n| n as usize).or(a.quick.then_some(QUICK_SUITE_POSITIONS)),
        sprt: sprt(&a.sprt, Sprt::default_normalized())?,
        openings: a.openings.clone().unwrap_or_else(|| workspace::positions_dir().join(DEFAULT_FILE)),
        seed: a.seed,
        core,
        accept_parity: a.accept_parity,
        skip: a.skip.iter().copied().collect(),
        reuse: a.reuse.clone(),
        positions: a.positions,
        sweep_seed: a.sweep_seed,
        bench: bench_args(a.bench_seconds, a.bench_quick || a.quick, core),
        reference: a
            .reference
            .clone()
            .unwrap_or_else(|| workspace::root().join("results").join("reference").join("head.json")),
        out,
        quiet: a.quiet,
    };
    Ok(settings)
}

/// `boardbench cutlist`.
#[derive(Args, Clone, Debug)]
pub struct CutlistCli {
    /// A named candidate to measure (repeat; default all three: best-ray,
    /// bishop-transient-pawn, battery-xray; `none` for none of them).
    #[arg(long = "cut", value_name = "NAME")]
    pub cut: Vec<String>,
    /// A DNA weight to zero and measure too (a field of `engine evaldna dump`; repeat).
    #[arg(long = "term", value_name = "NAME")]
    pub term: Vec<String>,
    /// The UCI engine command line (default: our engine, beside this program).
    #[arg(long)]
    pub engine: Option<String>,
    /// Match: nodes per move for both engines.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Match: vary each move's node budget by up to this fraction (seeded).
    #[arg(long, default_value_t = 0.1, value_parser = jitter)]
    pub nodes_jitter: f64,
    /// Match: most games per candidate (0: no match).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub games: u64,
    /// Match: SPRT bounds `elo0,elo1[,alpha,beta]` in normalized Elo (default -10,0: H1, the cut costs nothing).
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    pub sprt: Option<String>,
    /// Match: openings file (default positions/lichess_popular_20k.epd).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Match: seed of the openings' order and of the node jitter.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Core the measuring thread and the engines are pinned to (default: the last).
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
    /// Curated suites: fixed search depth (0: no suites).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: u32,
    /// Rule: the score the cut may cost at the lower end of its interval.
    #[arg(long, default_value_t = 0.03, value_parser = margin)]
    pub margin: f64,
    /// Rule: fewer solved positions (all suites) that still count as no loss.
    #[arg(long, default_value_t = 2)]
    pub solve_tolerance: u32,
    /// Timing: seconds per candidate (the suite's --seconds; default 25, doubled for a whole evaluation).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub bench_seconds: Option<u32>,
    /// Timing: a short smoke measurement (the suite's --quick).
    #[arg(long)]
    pub bench_quick: bool,
    /// Positions per density bucket (timing and evals changed).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    pub per_bucket: u32,
    /// Output folder (default `results/cutlist/<UTC time>-<pid>`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress lines from the suites and the matches.
    #[arg(long)]
    pub quiet: bool,
}

fn jitter(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=0.5).contains(&v) => Ok(v),
        _ => Err(format!("{text} is not a fraction from 0 to 0.5")),
    }
}

fn margin(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..0.5).contains(&v) => Ok(v),
        _ => Err(format!("{text} is not a score margin from 0 to below 0.5")),
    }
}

/// The candidates of `--cut` and `--term`.
fn candidates(a: &CutlistCli) -> Result<Vec<Candidate>, String> {
    let mut out = if a.cut.is_empty() {
        Candidate::named()
    } else {
        let mut cuts = Cuts::NONE;
        for text in &a.cut {
            cuts = Cuts::parse(text).map(|c| c.list().into_iter().fold(cuts, Cuts::with))?;
        }
        cuts.list().into_iter().map(Candidate::Named).collect::<Vec<_>>()
    };
    for t in &a.term {
        cutlist::zero_term(t)?;
        out.push(Candidate::Term(t.clone()));
    }
    if out.is_empty() {
        return Err("no candidate to measure (--cut none and no --term)".to_string());
    }
    Ok(out)
}

/// Run `boardbench cutlist`.
pub fn cutlist_main(a: &CutlistCli) -> Result<i32, String> {
    let core = crate::measure::pin::choose_core(a.core)?;
    let mut bench = bench_args(a.bench_seconds, a.bench_quick, core);
    bench.per_bucket = a.per_bucket;
    let default_sprt = Sprt { elo0: -10.0, elo1: 0.0, ..Sprt::default_normalized() };
    let settings = cutlist::Settings {
        candidates: candidates(a)?,
        engine: engine_command(&a.engine)?,
        nodes: a.nodes,
        jitter: a.nodes_jitter,
        games: a.games,
        sprt: sprt(&a.sprt, default_sprt)?,
        openings: a.openings.clone().unwrap_or_else(|| workspace::positions_dir().join(DEFAULT_FILE)),
        seed: a.seed,
        core,
        depth: a.depth,
        rules: Rules { margin: a.margin, solve_tolerance: i64::from(a.solve_tolerance) },
        bench,
        out_dir: a.out.clone().unwrap_or_else(|| crate::strength::cli::stamped_dir("cutlist")),
        quiet: a.quiet,
    };
    cutlist::cutlist(&settings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        cli: CutlistCli,
    }

    #[derive(Parser)]
    struct WrapRetire {
        #[command(flatten)]
        cli: RetireCli,
    }

    fn retire_settings_of(args: &[&str]) -> retire::Settings {
        let a = WrapRetire::try_parse_from(
            ["retire", "defects", "--engine", "engine", "--out", "x.json"].iter().chain(args),
        )
        .unwrap()
        .cli;
        retire_settings(&a).unwrap()
    }

    #[test]
    fn quick_shortens_what_was_not_given() {
        let plain = retire_settings_of(&[]);
        assert_eq!((plain.budget.describe(), plain.games, plain.suite_positions), ("1+0.01".to_string(), 200, None));
        assert!(!plain.bench.quick);
        assert_eq!(plain.positions, SWEEP_POSITIONS);
        let quick = retire_settings_of(&["--quick"]);
        assert_eq!(
            (quick.budget.describe(), quick.games, quick.suite_positions),
            ("0.25+0.01".to_string(), 20, Some(10))
        );
        assert!(quick.bench.quick);
        // The sweep keeps the plans' size: it is quick already.
        assert_eq!(quick.positions, SWEEP_POSITIONS);
        let given = retire_settings_of(&["--quick", "--tc", "2+0.02", "--games", "40", "--suite-positions", "3"]);
        assert_eq!((given.budget.describe(), given.games, given.suite_positions), ("2+0.02".to_string(), 40, Some(3)));
    }

    fn parse(args: &[&str]) -> CutlistCli {
        Wrap::try_parse_from(std::iter::once("cutlist").chain(args.iter().copied())).unwrap().cli
    }

    #[test]
    fn candidates_from_flags() {
        let names = |a: &[&str]| candidates(&parse(a)).map(|v| v.iter().map(Candidate::name).collect::<Vec<_>>());
        assert_eq!(names(&[]).unwrap(), ["best-ray", "bishop-transient-pawn", "battery-xray"]);
        assert_eq!(
            names(&["--cut", "battery-xray", "--term", "bishop_pair"]).unwrap(),
            ["battery-xray", "term bishop_pair"]
        );
        assert_eq!(names(&["--cut", "none", "--term", "rook_open_file"]).unwrap(), ["term rook_open_file"]);
        assert!(names(&["--cut", "none"]).unwrap_err().contains("no candidate"));
        assert!(names(&["--term", "nonsense"]).unwrap_err().contains("no such weight"));
        assert!(names(&["--cut", "rook-files"]).unwrap_err().contains("unknown cut"));
    }
}
