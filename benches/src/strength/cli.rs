//! The command lines of `boardbench match` and `boardbench reference`.

use super::adjudication::WinAdjudication;
use super::game::TimeControl;
use super::match_run::{run_match, Limits, MatchPlan};
use super::openings::{Book, DEFAULT_FILE};
use super::sprt::{EloModel, Sprt};
use super::uci_engine::{parse_option, split_command, EngineSpec, Timeouts};
use clap::{ArgGroup, Args};
use std::path::PathBuf;
use std::time::Duration;

/// `boardbench match A B`.
#[derive(Args, Clone, Debug)]
#[command(group(ArgGroup::new("limit").required(true).args(["tc", "nodes"])))]
pub struct MatchCli {
    /// Engine A, the candidate: a UCI command line (program and arguments,
    /// quoted as in a shell), e.g. target/release/engine.
    pub engine_a: String,
    /// Engine B, the reference.
    pub engine_b: String,
    /// A UCI option for engine A, NAME=VALUE (repeat for more), e.g. Profile=bitboard.
    #[arg(long = "option-a", value_name = "NAME=VALUE")]
    pub option_a: Vec<String>,
    /// A UCI option for engine B.
    #[arg(long = "option-b", value_name = "NAME=VALUE")]
    pub option_b: Vec<String>,
    /// Engine A's name in the PGN and report (default: its `id name` and options).
    #[arg(long = "name-a")]
    pub name_a: Option<String>,
    /// Engine B's name.
    #[arg(long = "name-b")]
    pub name_b: Option<String>,
    /// Clock per side: BASE+INC in seconds, e.g. 1+0.01.
    #[arg(long, value_parser = TimeControl::parse)]
    pub tc: Option<TimeControl>,
    /// Nodes per move for both engines (deterministic: for CI).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Nodes per move for engine A instead of --nodes.
    #[arg(long = "nodes-a", requires = "nodes", conflicts_with = "tc", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes_a: Option<u64>,
    /// Nodes per move for engine B instead of --nodes.
    #[arg(long = "nodes-b", requires = "nodes", conflicts_with = "tc", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes_b: Option<u64>,
    /// Vary each move's node budget uniformly by up to this fraction (seeded,
    /// reproducible), so that the two games of a pair between like engines differ.
    #[arg(long, default_value_t = 0.0, conflicts_with = "tc", value_parser = parse_jitter)]
    pub nodes_jitter: f64,
    /// Most games (whole pairs: an odd number is rounded up).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub games: u64,
    /// SPRT bounds `elo0,elo1[,alpha,beta]` (default 0,10,0.05,0.05 in normalized Elo).
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    pub sprt: Option<String>,
    /// The Elo the SPRT bounds are in.
    #[arg(long, value_enum, default_value_t = EloModel::Normalized)]
    pub elo_model: EloModel,
    /// Openings file: one FEN/EPD per line (default positions/lichess_popular_20k.epd).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Seed of the openings' order (and of the node jitter).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Core both engines are pinned to (default: the last this process may use).
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
    /// How far past its clock a move may end before it loses on time, in ms.
    #[arg(long, default_value_t = 50)]
    pub time_margin_ms: u64,
    /// With --nodes: the longest a move may take, in seconds, before it is a hang.
    #[arg(long, default_value_t = 30.0, value_parser = parse_seconds)]
    pub move_timeout: f64,
    /// Adjudicate a win when both engines' scores are beyond CP centipawns
    /// for the same side for their last MOVES moves each.
    #[arg(long, value_name = "CP,MOVES", value_parser = WinAdjudication::parse)]
    pub adjudicate: Option<WinAdjudication>,
    /// Draw a game after this many moves of each side from the opening.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_moves: Option<u32>,
    /// Output folder (default `results/matches/<UTC time>-<pid>`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_jitter(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=0.5).contains(&v) => Ok(v),
        _ => Err(format!("{text} is not a fraction from 0 to 0.5")),
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err(format!("{text} is not a number of seconds above 0 (at most 86400)")),
    }
}

/// A timestamped folder under results/`kind`.
pub fn stamped_dir(kind: &str) -> PathBuf {
    let stamp = crate::measure::sysinfo::iso8601(crate::measure::sysinfo::now_secs()).replace([':', '-'], "");
    crate::workspace::root().join("results").join(kind).join(format!("{stamp}-{}", std::process::id()))
}

fn engine_spec(command: &str, options: &[String], which: &str) -> Result<EngineSpec, String> {
    let command = split_command(command).map_err(|e| format!("engine {which}: {e}"))?;
    let options = options
        .iter()
        .map(|o| parse_option(o).map_err(|e| format!("--option-{}: {e}", which.to_ascii_lowercase())))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(EngineSpec { command, options })
}

/// Run `boardbench match`.
pub fn match_main(a: &MatchCli) -> Result<i32, String> {
    let engines = [engine_spec(&a.engine_a, &a.option_a, "A")?, engine_spec(&a.engine_b, &a.option_b, "B")?];
    let limits = match (a.tc, a.nodes) {
        (Some(tc), None) => Limits::Clock(tc),
        (None, Some(n)) => {
            Limits::Nodes { a: a.nodes_a.unwrap_or(n), b: a.nodes_b.unwrap_or(n), jitter: a.nodes_jitter }
        }
        _ => return Err("give either --tc or --nodes".to_string()),
    };
    let sprt = match &a.sprt {
        Some(text) => Sprt::parse(text, a.elo_model)?,
        None => Sprt { model: a.elo_model, ..Sprt::default_normalized() },
    };
    let openings = a.openings.clone().unwrap_or_else(|| crate::workspace::positions_dir().join(DEFAULT_FILE));
    let book = Book::load(&openings)?;
    let core = Some(crate::measure::pin::choose_core(a.core)?);
    let plan = MatchPlan {
        engines,
        names: [a.name_a.clone(), a.name_b.clone()],
        limits,
        time_margin: Duration::from_millis(a.time_margin_ms),
        move_timeout: Duration::from_secs_f64(a.move_timeout),
        adjudication: a.adjudicate,
        max_moves: a.max_moves,
        book,
        seed: a.seed,
        core,
        max_games: a.games,
        sprt,
        out_dir: a.out.clone().unwrap_or_else(|| stamped_dir("matches")),
        timeouts: Timeouts::default(),
        quiet: a.quiet,
    };
    run_match(&plan)
}

/// `boardbench reference save|compare|curate`.
#[derive(Args, Clone, Debug)]
pub struct ReferenceCli {
    #[command(subcommand)]
    pub action: ReferenceAction,
}

#[derive(clap::Subcommand, Clone, Debug)]
pub enum ReferenceAction {
    /// Search the curated suites to a fixed depth and save the results as the
    /// reference (results/reference/head.json; an existing one only with --force).
    Save(SaveArgs),
    /// Search them the same way with a candidate and compare with the
    /// reference. Exit 0 no regression, 3 a suite's solve count fell, 1 error.
    Compare(CompareArgs),
    /// Regenerate the curated suites (positions/ringers.epd,
    /// confident_quick.epd, hard_quick.epd) from the shipped test suites.
    Curate(CurateArgs),
}

/// The engine a reference run uses.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    /// A UCI engine command line (default: our engine, beside this program).
    #[arg(long)]
    pub engine: Option<String>,
    /// A UCI option, NAME=VALUE (repeat for more), e.g. Profile=mailbox.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub option: Vec<String>,
    /// Core the engine is pinned to (default: the last this process may use).
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
    /// The longest one position may take, in seconds.
    #[arg(long, default_value_t = 600.0, value_parser = parse_seconds)]
    pub position_timeout: f64,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args, Clone, Debug)]
pub struct SaveArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Search depth.
    #[arg(long, default_value_t = super::reference::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// A suite file instead of the curated ones (repeat for more).
    #[arg(long = "suite")]
    pub suites: Vec<PathBuf>,
    /// Where to save (default results/reference/head.json).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace an existing reference.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Clone, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The saved reference (default results/reference/head.json).
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// Where to write the comparison (default `results/reference/compare-<UTC time>-<pid>.json`).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Args, Clone, Debug)]
pub struct CurateArgs {
    /// Search depth.
    #[arg(long, default_value_t = super::reference::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// A position is quick when every profile completes the depth within this many nodes.
    #[arg(long, default_value_t = super::curate::DEFAULT_NODE_CAP, value_parser = clap::value_parser!(u64).range(1..))]
    pub node_cap: u64,
    /// Where the three files go (default positions/).
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
}

fn default_reference() -> PathBuf {
    crate::workspace::root().join("results").join("reference").join("head.json")
}

fn reference_engine(a: &EngineArgs) -> Result<(EngineSpec, super::reference::RunSettings), String> {
    let command = match &a.engine {
        Some(text) => split_command(text).map_err(|e| format!("--engine: {e}"))?,
        None => vec![crate::workspace::engine_beside_this_program()?.display().to_string()],
    };
    let options =
        a.option.iter().map(|o| parse_option(o).map_err(|e| format!("--option: {e}"))).collect::<Result<_, _>>()?;
    let settings = super::reference::RunSettings {
        core: Some(crate::measure::pin::choose_core(a.core)?),
        depth: super::reference::DEFAULT_DEPTH,
        position_timeout: Duration::from_secs_f64(a.position_timeout),
        timeouts: Timeouts::default(),
        quiet: a.quiet,
    };
    Ok((EngineSpec { command, options }, settings))
}

/// Run `boardbench reference`.
pub fn reference_main(a: &ReferenceCli) -> Result<i32, String> {
    use super::reference as r;
    match &a.action {
        ReferenceAction::Save(s) => {
            let (spec, mut settings) = reference_engine(&s.engine)?;
            settings.depth = s.depth;
            let out = s.out.clone().unwrap_or_else(default_reference);
            // Before the searches, not after.
            r::check_may_write(&out, s.force)?;
            let suites = if s.suites.is_empty() {
                r::CURATED.iter().map(|f| crate::workspace::positions_dir().join(f)).collect()
            } else {
                s.suites.clone()
            };
            let run = r::run_suites(&spec, &suites, &settings)?;
            r::write_run(&out, &run, s.force)?;
            let mut text = String::new();
            for suite in &run.suites {
                text.push_str(&format!("{}: {}/{} solved\n", suite.name, suite.solved, suite.positions.len()));
            }
            text.push_str(&format!("saved {} (depth {}, {:.1} s)\n", out.display(), run.depth, run.seconds));
            crate::output::print_out(&text)?;
            Ok(0)
        }
        ReferenceAction::Compare(c) => {
            let path = c.reference.clone().unwrap_or_else(default_reference);
            let reference = r::read_run(&path)?;
            let suites = r::suites_of(&reference)?;
            let (spec, mut settings) = reference_engine(&c.engine)?;
            settings.depth = reference.depth;
            let candidate = r::run_suites(&spec, &suites, &settings)?;
            let rows = r::compare(&reference, &candidate)?;
            let regression = rows.iter().any(r::SuiteComparison::regressed);
            let out = c.out.clone().unwrap_or_else(|| {
                let dir = stamped_dir("reference");
                let name = format!(
                    "compare-{}.json",
                    dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                );
                dir.with_file_name(name)
            });
            let json = serde_json::json!({
                "schema": "boardbench-reference-compare/1",
                "reference_file": path.display().to_string(),
                "reference_engine": reference.engine,
                "candidate": candidate,
                "suites": rows,
                "regression": regression,
            });
            if let Some(dir) = out.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            let bytes = serde_json::to_vec_pretty(&json).map_err(|e| e.to_string())?;
            crate::output::write_atomic(&out, &bytes).map_err(|e| e.to_string())?;
            let mut text = r::comparison_text(&reference, &candidate, &rows);
            text.push_str(&format!("comparison written to {}\n", out.display()));
            crate::output::print_out(&text)?;
            Ok(if regression { r::EXIT_REGRESSION } else { 0 })
        }
        ReferenceAction::Curate(c) => {
            let positions = crate::workspace::positions_dir();
            let out_dir = c.out_dir.clone().unwrap_or_else(|| positions.clone());
            crate::output::check_writable(&out_dir).map_err(|e| e.to_string())?;
            let summary = super::curate::curate(&positions, &out_dir, c.depth, c.node_cap, c.quiet)?;
            crate::output::print_out(&summary)?;
            Ok(0)
        }
    }
}
