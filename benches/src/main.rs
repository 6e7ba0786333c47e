//! `boardbench`: run the measurement suite from the command line.
//!
//! Every bad input (missing or unreadable positions file, a file with an
//! empty bucket, an unwritable output directory, an unknown benchmark, bad
//! flags) ends with one line on stderr and a non-zero exit, never a panic.

use boardbench::suite::benchmarks::{self, Runnable};
use boardbench::suite::run::{self, RunArgs};
use boardbench::suite::{calibrate, compare, density, worker};
use boardbench::{engines, gate, measure, output, workspace};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The subcommands that are not benchmarks. Every registered benchmark (and
/// family of them) is a subcommand too, added from the registry
/// ([`command`]).
#[derive(Parser)]
#[command(name = "boardbench", version, about = "Old-vs-new cycle measurement of the engine's migrated routines")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every registered benchmark.
    All(RunArgs),
    /// The named benchmarks, in order.
    Run {
        /// Benchmark names (see `boardbench list`).
        #[arg(required = true)]
        names: Vec<String>,
        #[command(flatten)]
        args: RunArgs,
    },
    /// List the registered benchmarks.
    List,
    /// Are the intervals honest here? N back-to-back runs of the named
    /// benchmarks (or earlier reports, --from), then per case how often
    /// another run's estimate lies inside a run's 95% interval, the spread
    /// against the printed half-width, and the variance components.
    Calibrate(calibrate::CalibrateCli),
    /// Two run reports case by case: the difference of each new/old ratio
    /// with a 95% interval from both runs' between-process spread. Exit 0
    /// when no case differs by more than --tolerance, 3 when one does, 1
    /// on an error, 2 usage.
    Compare(compare::CompareCli),
    /// Whole-engine NPS: our `engine bench` beside Crafty's and/or
    /// Stockfish's own bench, and our profiles beside our mailbox profile,
    /// interleaved on one pinned core.
    Nps(engines::nps::cli::NpsCli),
    /// Instructions per node under callgrind: our bench search beside
    /// Crafty searching the same positions (noise-free, unlike NPS).
    Instructions(engines::instructions::InstructionsCli),
    /// Commit gate: fail when a routine got slower than in --base (lock-step
    /// timing of both builds with an A/A control, and gungraun instruction
    /// counts). Exit 0 pass, 3 regression, 4 undecided, 1 error, 2 usage.
    Gate(gate::cli::GateCli),
    /// A co-tenant for trying the gate on a busy machine: a memory-thrashing,
    /// branch-heavy or compute loop on one core for a given time.
    Load(gate::load::LoadCli),
    /// A match between two UCI engines: game pairs from the openings, the
    /// score with LOWER95, Elo, and an SPRT. Exit 0 H1 accepted, 3 H0
    /// accepted (rejected), 4 inconclusive, 1 error, 2 usage.
    Match(boardbench::strength::cli::MatchCli),
    /// One verdict from several runs of one match played at once (one per
    /// core, each with its own --seed): their pairs summed, the score with
    /// LOWER95, Elo, and the SPRT over all of them. Exit as `match`.
    Pool(boardbench::strength::pool::PoolCli),
    /// The curated-suite head reference: `save` a fixed-depth run, `compare`
    /// a candidate with it (exit 3 on a solve-count regression), `curate`
    /// the suites.
    Reference(boardbench::strength::cli::ReferenceCli),
    /// May the old form of a routine be deleted? The plans' five criteria
    /// (equivalence sweep, isolated cycles, curated suites, match gate, head
    /// reference) as a checklist with evidence, and a verdict. Exit 0 safe
    /// to retire, 3 not safe, 1 error, 2 usage.
    Retire(boardbench::verdict::cli::RetireCli),
    /// The evaluation's cut candidates: ticks saved, curated-suite solves
    /// and a fixed-nodes match each, with a recommendation by stated rules.
    Cutlist(boardbench::verdict::cli::CutlistCli),
    /// (for the gate) A lock-step timing worker of this build.
    #[command(hide = true)]
    GateWorker(gate::lockstep::worker::WorkerCli),
    /// (for the gate) This build's cases (benchmark, bucket, arm), one per line.
    #[command(hide = true)]
    GateCases(gate::instructions::cases::CasesCli),
    /// Regenerate positions/derived_low_men.epd: ladder positions for men
    /// counts the real-game files lack, by seeded capture playouts.
    DerivePositions {
        /// Output file.
        #[arg(long, default_value_os_t = workspace::positions_dir().join(density::DERIVED_FILE))]
        out: PathBuf,
        /// Positions per men count.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=MAX_DERIVED_PER_COUNT))]
        per_count: u32,
        /// Playout seed.
        #[arg(long, default_value_t = 0x10_3E11)]
        seed: u64,
    },
}

/// The command line: [`Cli`] plus one subcommand per registered benchmark
/// and family, each taking [`RunArgs`], listed first.
fn command(runnables: &[Runnable]) -> clap::Command {
    let mut cmd = Cli::command().mut_subcommands(|s| {
        let order = s.get_display_order();
        s.display_order(order + runnables.len())
    });
    for (i, r) in runnables.iter().enumerate() {
        // About after the arguments: `augment_args` sets RunArgs' own.
        let sub = RunArgs::augment_args(clap::Command::new(r.name)).about(r.about.clone()).long_about(None);
        cmd = cmd.subcommand(sub.display_order(i));
    }
    cmd
}

fn run(names: &[String], args: &RunArgs) -> Result<i32, String> {
    let entries = run::resolve(names, &[])?;
    let outcome = run::execute(args, &entries, measure::sysinfo::command_line())?;
    Ok(run::finish(&outcome, args.strict))
}

/// Most positions per men count `derive-positions` makes (the real files
/// hold a few hundred of most counts).
const MAX_DERIVED_PER_COUNT: i64 = 10_000;

fn derive(out: &std::path::Path, per_count: usize, seed: u64) -> Result<i32, String> {
    let dir = workspace::positions_dir();
    let sources = density::default_sources(&dir);
    // Counts the real files hold fewer than `per_count` distinct positions of.
    let mut have = std::collections::BTreeMap::<u32, std::collections::HashSet<String>>::new();
    for p in &sources {
        for r in density::read_source(p).map_err(|e| e.to_string())? {
            have.entry(r.men).or_default().insert(r.text);
        }
    }
    let counts: Vec<u32> =
        (density::LADDER.0..=density::LADDER.1).filter(|c| have.get(c).map_or(0, |s| s.len()) < per_count).collect();
    // An empty file would break every default run that reads it.
    if counts.is_empty() {
        return Err(format!(
            "nothing to derive: the real-game files hold at least {per_count} positions of every men count; {} left as it is",
            out.display()
        ));
    }
    // Name sources relative to the repository, not this checkout's path.
    let body = density::derive_low_men(&sources, &counts, per_count, seed)?
        .replace(&format!("{}/", dir.display()), "positions/");
    let text = format!(
        "# Ladder positions for men counts {counts:?}, which the real-game files in positions/ hold\n\
         # fewer than {per_count} of. Derived from real positions by seeded capture playouts;\n\
         # regenerate with: cargo run --release -p boardbench -- derive-positions --per-count {per_count} --seed {seed:#x}\n{body}"
    );
    output::write_atomic(out, text.as_bytes()).map_err(|e| e.to_string())?;
    output::print_out(&format!(
        "wrote {} ({} positions for men counts {counts:?})\n",
        out.display(),
        body.lines().count()
    ))?;
    Ok(0)
}

fn main() -> ExitCode {
    // A measuring process of a run keeps its randomised layout and speaks
    // only the run's protocol.
    if std::env::args_os().nth(1).is_some_and(|a| a == worker::WORKER_ARG) {
        return ExitCode::from(worker::serve(&[]) as u8);
    }
    // Before anything else: this process (and every engine it starts)
    // runs with a fixed address layout.
    measure::aslr::reexec_without_randomisation();
    // Ctrl-C or SIGTERM: stop, remove this run's temporaries, say so.
    output::interrupt::install();
    let runnables = benchmarks::runnables();
    let matches = match command(&runnables).try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) || !e.use_stderr() {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if matches!(e.kind(), ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand) {
                eprintln!("boardbench: no subcommand given (`boardbench list` names the benchmarks; try --help)");
                return ExitCode::from(2);
            }
            // One line: clap's message up to its first blank line (a missing
            // argument's name is on the next line), without "error: ".
            let text = e.to_string();
            let lines: Vec<&str> = text.lines().map(str::trim).take_while(|l| !l.is_empty()).collect();
            let message = lines.join(" ");
            let message = message.trim_start_matches("error: ");
            eprintln!("boardbench: {} (try --help)", if message.is_empty() { "bad arguments" } else { message });
            return ExitCode::from(2);
        }
    };
    let result = match matches.subcommand() {
        Some((name, sub)) if runnables.iter().any(|r| r.name == name) => {
            let r = runnables.iter().find(|r| r.name == name).expect("just found");
            let names: Vec<String> = r.members.iter().map(|s| s.to_string()).collect();
            RunArgs::from_arg_matches(sub).map_err(|e| e.to_string()).and_then(|a| run(&names, &a))
        }
        _ => match Cli::from_arg_matches(&matches) {
            Ok(cli) => dispatch(&cli.command),
            Err(e) => Err(e.to_string()),
        },
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            eprintln!("boardbench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Run a subcommand that is not a benchmark.
fn dispatch(command: &Command) -> Result<i32, String> {
    match command {
        Command::All(a) => run(&benchmarks::names().iter().map(|s| s.to_string()).collect::<Vec<_>>(), a),
        Command::Run { names, args } => run(names, args),
        Command::List => {
            let width = benchmarks::REGISTRY.iter().map(|e| e.name.len()).max().unwrap_or(0);
            let text: String =
                benchmarks::REGISTRY.iter().map(|e| format!("{:<width$}  {}\n", e.name, e.about)).collect();
            output::print_out(&text).map(|()| 0)
        }
        Command::DerivePositions { out, per_count, seed } => derive(out, *per_count as usize, *seed),
        Command::Calibrate(a) => calibrate::calibrate_main(a, measure::sysinfo::command_line()),
        Command::Compare(a) => compare::compare_main(a),
        Command::Nps(a) => engines::nps::main(a),
        Command::Instructions(a) => engines::instructions::main(a),
        Command::Gate(a) => gate::run::gate_main(a),
        Command::GateWorker(a) => gate::lockstep::worker::worker_main(a),
        Command::Load(a) => gate::load::load_main(a),
        Command::GateCases(a) => gate::instructions::cases::cases_main(a),
        Command::Match(a) => boardbench::strength::cli::match_main(a),
        Command::Pool(a) => boardbench::strength::pool::main(a),
        Command::Reference(a) => boardbench::strength::cli::reference_main(a),
        Command::Retire(a) => boardbench::verdict::cli::retire_main(a),
        Command::Cutlist(a) => boardbench::verdict::cli::cutlist_main(a),
    }
}
