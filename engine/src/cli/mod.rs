//! Command-line front end. Every subcommand but `uci` takes `--json` and
//! then prints exactly one JSON object on stdout. Errors, bad flags among
//! them, are one line on stderr and a non-zero exit status: 2 for bad input,
//! 1 for a failed check.

mod bench;
mod defects;
mod defectscorr;
mod equiv;
mod eval;
mod evalcycles;
mod perft;
mod see;
mod suite;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand, ValueEnum};
use engine::position::epd::{load_file, Epd};
use engine::Position;
use std::path::Path;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "engine",
    version,
    about = "Chess engine core with mailbox and bitboard forms of every migrated routine"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree to a depth.
    Perft(perft::PerftArgs),
    /// Check every expected perft count of an EPD file.
    PerftSuite(perft::SuiteArgs),
    /// Evaluate a position and show every term for each side.
    Eval(eval::EvalArgs),
    /// Compare mailbox with chain mobility (exact) and chain with single-probe (classified).
    #[command(name = "evaldiff")]
    EvalDiff(eval::EvalDiffArgs),
    /// Dump or load the evaluation weights ("DNA").
    #[command(name = "evaldna")]
    EvalDna(eval::EvalDnaArgs),
    /// Per-term TSC ticks of the evaluations in a fixed-depth search (needs the eval-time feature).
    #[command(name = "evalcycles")]
    EvalCycles(evalcycles::EvalCyclesArgs),
    /// Static exchange evaluation of one move.
    See(see::SeeArgs),
    /// SEE of every legal capture of every position in an EPD file.
    Seescores(see::SeeScoresArgs),
    /// King-safety defect and pointing counts of both sides.
    Kingdefects(defects::KingDefectsArgs),
    /// Prove old and new forms agree on seeded random positions.
    Equiv(equiv::EquivArgs),
    /// The defect count against the evaluation's king danger, per mobility implementation.
    #[command(name = "defectscorr")]
    DefectsCorr(defectscorr::DefectsCorrArgs),
    /// Fixed-depth search of the bench positions: nodes, NPS, eval statistics.
    Bench(bench::BenchArgs),
    /// Solve counts of a bm/am EPD test suite at a fixed depth or node budget.
    Suite(suite::SuiteArgs),
    /// Speak UCI on stdin/stdout (also the default without a subcommand).
    Uci,
}

/// Move generator choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ImplArg {
    Mailbox,
    Bitboard,
}

/// Slider implementation choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SlidersArg {
    Magic,
    Pext,
}

impl SlidersArg {
    pub fn name(self) -> &'static str {
        match self {
            SlidersArg::Magic => "magic",
            SlidersArg::Pext => "pext",
        }
    }
}

/// A failed command: what went wrong, and whether it was the user's input
/// (exit 2) or a check that did not hold (exit 1).
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub bad_input: bool,
}

impl CliError {
    pub fn input(message: impl Into<String>) -> CliError {
        CliError { message: message.into(), bad_input: true }
    }

    pub fn failed(message: impl Into<String>) -> CliError {
        CliError { message: message.into(), bad_input: false }
    }
}

pub type CliResult = Result<(), CliError>;

/// Parse a FEN argument or explain what is wrong with it.
pub fn parse_fen(fen: &str) -> Result<Position, CliError> {
    Position::from_fen(fen).map_err(|e| CliError::input(format!("bad FEN {fen:?}: {e}")))
}

/// Load an EPD file or explain what is wrong with it.
pub fn load_epd(path: &Path) -> Result<Vec<Epd>, CliError> {
    load_file(path).map_err(|e| CliError::input(e.to_string()))
}

/// Print a JSON value as one line on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!("{value}");
}

/// Check that PEXT was requested only where the build has BMI2.
pub fn check_sliders(sliders: SlidersArg) -> CliResult {
    if sliders == SlidersArg::Pext && !cfg!(target_feature = "bmi2") {
        return Err(CliError::input("--sliders pext needs a build with BMI2 (the workspace builds for x86-64-v3)"));
    }
    Ok(())
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let result = match cli.command {
        Some(Command::Perft(a)) => perft::perft(a),
        Some(Command::PerftSuite(a)) => perft::suite(a),
        Some(Command::Eval(a)) => eval::eval(a),
        Some(Command::EvalDiff(a)) => eval::evaldiff(a),
        Some(Command::EvalDna(a)) => eval::evaldna(a),
        Some(Command::EvalCycles(a)) => evalcycles::evalcycles(a),
        Some(Command::See(a)) => see::see_command(a),
        Some(Command::Seescores(a)) => see::seescores(a),
        Some(Command::Kingdefects(a)) => defects::kingdefects(a),
        Some(Command::Equiv(a)) => equiv::equiv(a),
        Some(Command::DefectsCorr(a)) => defectscorr::defectscorr(a),
        Some(Command::Bench(a)) => bench::bench(a),
        Some(Command::Suite(a)) => suite::suite(a),
        Some(Command::Uci) | None => {
            engine::uci::run_stdio();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message);
            ExitCode::from(if e.bad_input { 2 } else { 1 })
        }
    }
}

/// What a command line clap refused gets: `--help` and `--version` print as
/// usual (exit 0); anything else is one line on stderr, clap's message up to
/// its first blank line (a missing argument's name is on the next line)
/// without the usage block (for a missing subcommand, the usage line), and
/// exit 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) || !e.use_stderr() {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let text = e.to_string();
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        // `engine evaldna` alone: clap would print the whole help.
        let usage = text.lines().find_map(|l| l.trim().strip_prefix("Usage: ")).unwrap_or("engine");
        eprintln!("error: a subcommand is missing: {usage} (try --help)");
    } else {
        eprintln!("error: {} (try --help)", one_line(&text));
    }
    ExitCode::from(2)
}

/// Clap's rendered error as one line: its lines up to the first blank one,
/// trimmed and joined, without the leading "error: ".
fn one_line(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).take_while(|l| !l.is_empty()).collect();
    let message = lines.join(" ");
    let message = message.trim_start_matches("error: ");
    if message.is_empty() {
        "bad arguments".to_string()
    } else {
        message.to_string()
    }
}
