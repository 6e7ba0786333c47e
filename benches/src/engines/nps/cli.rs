//! `boardbench nps` on the command line: its flags, their defaults
//! resolved ([`NpsArgs`]), and everything that can be checked before the
//! first run.

use crate::engines::process;
use crate::measure::pin;
use crate::output;
use crate::workspace;
use engine::search::ProfileKind;
use std::path::PathBuf;
use std::time::Duration;

/// Stockfish's default bench spelled out: hash MiB, threads, limit, positions, limit type.
pub const STOCKFISH_BENCH: &str = "16 1 13 default depth";

/// Most seconds `--timeout` may give one run: a week, far past any bench.
pub const MAX_TIMEOUT_S: u64 = 7 * 24 * 3600;

/// `boardbench nps` on the command line.
#[derive(clap::Args, Clone, Debug)]
pub struct NpsCli {
    /// Crafty binary (25.2, or 23.4 from Debian's non-free `crafty` package,
    /// see scripts/fetch-crafty.sh): driven through stdin ("bench", then
    /// "quit") in a fresh temporary directory that is also its $HOME; and,
    /// unless --no-crafty-positions, run again on our bench positions
    /// (`crafty-positions`; Crafty 25 in a fresh process per position).
    #[arg(long, value_name = "PATH")]
    pub crafty: Option<PathBuf>,
    /// Stockfish binary (e.g. /usr/games/stockfish): `bench 16 1 13 default depth`.
    #[arg(long, value_name = "PATH")]
    pub stockfish: Option<PathBuf>,
    /// Our engine binary [default: `engine` beside this program].
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Our profiles to run (repeat the flag) [default: mailbox, bitboard, single-probe]; also the profiles
    /// with one routine swapped (`engine bench --help`), e.g. bitboard-old-movegen.
    #[arg(long = "engine-profile", value_name = "P")]
    pub engine_profile: Vec<String>,
    /// A second build of our engine to compare with, e.g. the commit before
    /// a change: each --engine-profile of it runs in every round beside the
    /// same profile of --engine, and the report gives `ours P / base P`.
    #[arg(long = "base-engine", value_name = "PATH")]
    pub base_engine: Option<PathBuf>,
    /// Depth of our `engine bench` [default: the bench's own].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// EPD file of positions for our `engine bench --positions` and for
    /// Crafty's searches of them [default: the bench's built-in 20].
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Depth of Crafty's searches of our bench positions.
    #[arg(long, value_name = "D", default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub crafty_depth: u32,
    /// Run Crafty's own bench only, not its searches of our bench positions.
    #[arg(long)]
    pub no_crafty_positions: bool,
    /// Arguments of Stockfish's bench command.
    #[arg(long, value_name = "ARGS", default_value = STOCKFISH_BENCH)]
    pub stockfish_bench: String,
    /// Rounds: every engine runs once per round.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Pin every run to core N [default: the last core].
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
    /// Run every engine in the real-time FIFO class. Off by default: an
    /// engine that spins while waiting for its own threads (Crafty's SMP
    /// part) could then starve them on the one core.
    #[arg(long)]
    pub realtime: bool,
    /// Seconds one run may take before it is killed (at most a week).
    #[arg(long, value_name = "SECS", default_value_t = 900,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_S))]
    pub timeout: u64,
    /// Directory for the JSON and the plot [default: results/runs].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Skip the plot.
    #[arg(long)]
    pub no_plots: bool,
    /// Print the JSON report on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

impl NpsCli {
    /// Resolve defaults into [`NpsArgs`].
    pub fn resolve(&self, command_line: Vec<String>) -> Result<NpsArgs, String> {
        let engine = match &self.engine {
            Some(p) => p.clone(),
            None => workspace::engine_beside_this_program()?,
        };
        let profiles = if self.engine_profile.is_empty() {
            vec!["mailbox".into(), "bitboard".into(), "single-probe".into()]
        } else {
            self.engine_profile.clone()
        };
        Ok(NpsArgs {
            crafty: self.crafty.clone(),
            stockfish: self.stockfish.clone(),
            engine,
            base_engine: self.base_engine.clone(),
            profiles,
            depth: self.depth,
            positions: self.positions.clone(),
            crafty_positions_depth: (!self.no_crafty_positions).then_some(self.crafty_depth),
            stockfish_bench: self.stockfish_bench.clone(),
            runs: self.runs as usize,
            // An explicit core is checked with the rest, by `validate`.
            core: Some(match self.core {
                Some(c) => c,
                None => pin::choose_core(None)?,
            }),
            realtime: self.realtime,
            timeout: Duration::from_secs(self.timeout),
            out: self.out.clone().unwrap_or_else(workspace::results_dir),
            plots: !self.no_plots,
            command_line,
        })
    }
}

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct NpsArgs {
    pub crafty: Option<PathBuf>,
    pub stockfish: Option<PathBuf>,
    /// Our engine binary.
    pub engine: PathBuf,
    /// Another build of our engine, run beside it profile by profile.
    pub base_engine: Option<PathBuf>,
    pub profiles: Vec<String>,
    /// `engine bench --depth`, when given.
    pub depth: Option<u32>,
    /// Our bench's positions file, when not the built-in set.
    pub positions: Option<PathBuf>,
    /// Depth of Crafty's searches of our bench positions; `None`: Crafty
    /// runs its own bench only.
    pub crafty_positions_depth: Option<u32>,
    pub stockfish_bench: String,
    pub runs: usize,
    pub core: Option<usize>,
    pub realtime: bool,
    pub timeout: Duration,
    pub out: PathBuf,
    pub plots: bool,
    pub command_line: Vec<String>,
}

/// Check everything that can be checked before the first run.
pub fn validate(a: &NpsArgs) -> Result<(), String> {
    let has_mailbox = a.profiles.iter().any(|p| p.parse::<ProfileKind>() == Ok(ProfileKind::Mailbox));
    if a.crafty.is_none() && a.stockfish.is_none() && a.base_engine.is_none() && !(has_mailbox && a.profiles.len() >= 2)
    {
        return Err("nothing to compare with: give --crafty PATH, --stockfish PATH or --base-engine PATH, \
                    or run the mailbox profile beside another (--engine-profile mailbox --engine-profile bitboard)"
            .into());
    }
    if a.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    if a.profiles.is_empty() {
        return Err("no --engine-profile given".into());
    }
    let mut seen: Vec<ProfileKind> = Vec::new();
    for p in &a.profiles {
        let kind = p.parse::<ProfileKind>().map_err(|e| format!("--engine-profile {p}: {e}"))?;
        // Twice the same profile would be compared with nothing but itself.
        if seen.contains(&kind) {
            return Err(format!("--engine-profile {p}: {} is given more than once", kind.name()));
        }
        seen.push(kind);
    }
    if a.timeout.is_zero() {
        return Err("--timeout must be positive".into());
    }
    if a.timeout > Duration::from_secs(MAX_TIMEOUT_S) {
        return Err(format!("--timeout {}: at most {MAX_TIMEOUT_S} s (a week)", a.timeout.as_secs()));
    }
    if let Some(c) = a.core {
        pin::choose_core(Some(c))?;
    }
    output::check_writable(&a.out).map_err(|e| format!("output directory: {e}"))?;
    Ok(())
}

/// Resolve the programs to absolute paths (runs start in temporary
/// directories) and check they exist and are executable.
pub fn resolve_programs(a: &NpsArgs) -> Result<NpsArgs, String> {
    let mut a = a.clone();
    for (flag, path) in [("--crafty", &mut a.crafty), ("--stockfish", &mut a.stockfish)] {
        if let Some(p) = path {
            *p = process::resolve_program(p).map_err(|e| format!("{flag} {e}"))?;
        }
    }
    // Runs start in temporary directories: the positions file must be
    // named from anywhere.
    if let Some(p) = &mut a.positions {
        *p = std::fs::canonicalize(&*p).map_err(|e| format!("--positions {}: {e}", p.display()))?;
    }
    a.engine = process::resolve_program(&a.engine)
        .map_err(|e| format!("our engine: {e} (build it: cargo build --release -p engine, or pass --engine PATH)"))?;
    if let Some(p) = &mut a.base_engine {
        *p = process::resolve_program(p).map_err(|e| format!("--base-engine {e}"))?;
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::process::TempDir;

    #[test]
    fn validation_errors_are_one_line() {
        let dir = TempDir::new("bb-nps-validate").unwrap();
        let base = NpsArgs {
            crafty: None,
            stockfish: None,
            engine: PathBuf::from("/bin/sh"),
            base_engine: None,
            profiles: vec!["bitboard".into()],
            depth: None,
            positions: None,
            crafty_positions_depth: Some(14),
            stockfish_bench: STOCKFISH_BENCH.into(),
            runs: 1,
            core: None,
            realtime: false,
            timeout: Duration::from_secs(1),
            out: dir.path().to_path_buf(),
            plots: false,
            command_line: vec![],
        };
        assert!(validate(&base).unwrap_err().contains("nothing to compare with"));
        let mut pair = base.clone();
        pair.profiles = vec!["mailbox".into(), "bitboard".into()];
        assert_eq!(validate(&pair), Ok(()));
        pair.profiles = vec!["mailbox".into()];
        assert!(validate(&pair).unwrap_err().contains("nothing to compare with"));
        // Another build of our engine is something to compare with.
        let mut builds = base.clone();
        builds.base_engine = Some(dir.path().join("nope"));
        assert_eq!(validate(&builds), Ok(()));
        assert!(resolve_programs(&builds).unwrap_err().starts_with("--base-engine "), "{builds:?}");
        builds.base_engine = Some(PathBuf::from("sh"));
        assert!(resolve_programs(&builds).unwrap().base_engine.unwrap().is_absolute());
        let mut a = base.clone();
        a.stockfish = Some(dir.path().join("nope"));
        assert!(resolve_programs(&a).unwrap_err().starts_with("--stockfish "));
        a.stockfish = Some(PathBuf::from("sh"));
        assert!(resolve_programs(&a).unwrap().stockfish.unwrap().is_absolute());
        a.profiles = vec!["turbo".into()];
        assert!(validate(&a).unwrap_err().contains("--engine-profile turbo"));
        a.profiles = vec!["mailbox".into()];
        a.core = Some(100_000);
        assert!(validate(&a).unwrap_err().contains("--core 100000"));
        a.core = None;
        assert!(validate(&a).is_ok());
        assert_eq!(validate(&base).unwrap_err().lines().count(), 1);
        // A profile twice (in any spelling) has nothing to be compared with.
        a.profiles = vec!["mailbox".into(), "bitboard".into(), "Mailbox".into()];
        assert_eq!(validate(&a).unwrap_err(), "--engine-profile Mailbox: mailbox is given more than once");
        pair.profiles = vec!["mailbox".into(), "mailbox".into()];
        assert!(validate(&pair).unwrap_err().contains("mailbox is given more than once"));
        // A timeout past a week is refused here, so no run is ever started with it.
        a.profiles = vec!["mailbox".into()];
        a.timeout = Duration::from_secs(MAX_TIMEOUT_S);
        assert!(validate(&a).is_ok());
        a.timeout = Duration::from_secs(i64::MAX as u64);
        assert_eq!(validate(&a).unwrap_err(), "--timeout 9223372036854775807: at most 604800 s (a week)");
    }
}
