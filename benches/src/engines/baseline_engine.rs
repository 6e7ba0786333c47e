//! The engines whole-engine NPS is compared with (ARCHITECTURE.md,
//! "Comparisons with other engines"), and how each one's own `bench` is
//! driven and read:
//!
//! * **Crafty 25.2**: started with no arguments in a fresh temporary
//!   directory (it writes `log.*` and `game.*` files where it runs, and reads
//!   `crafty.rc` / `.craftyrc` from there and from `$HOME`, which is pointed
//!   at the same empty directory so a user's settings cannot change the
//!   bench); `bench` and `quit` are written to its stdin. Its output holds
//!   two totals blocks: the first (`Total nodes:`, `Raw nodes per second:`)
//!   is the one-thread result and is the one read; the second adds a short
//!   2-thread run and is ignored — the run is stopped as soon as the first
//!   block is complete, so the 2-thread part never runs on the pinned core.
//!   Crafty 23.4 (Debian's non-free `crafty` package) prints one block of
//!   the same form, and is read the same way.
//! * **Stockfish**: `stockfish bench 16 1 13 default depth` (its default
//!   bench spelled out: 16 MiB hash, 1 thread, depth 13), summary on stderr:
//!   `Nodes searched  :` and `Nodes/second    :`.
//! * **ours**: `engine bench --profile P [--depth D]`, whose last line is
//!   `<nodes> nodes <nps> nps`, with a `pruned` line before it.
//! * **Crafty on our bench positions**: the same binary fed, through stdin,
//!   one fixed-depth search of every position our `engine bench` searches,
//!   each from a clean state as our bench clears its tables
//!   ([`crafty_positions_scripts`]). Crafty 23 does that in one process:
//!   `new`, `setboard FEN`, `sd D`, `go` per position. Crafty 25 answers
//!   `new` with "NOTICE: new command not implemented, please exit and
//!   restart crafty", so it gets a fresh process per position (`setboard`,
//!   `sd`, `go`, `quit`); which one a binary gets is read from the banner it
//!   prints on start ([`probe_crafty`]). Each search ends with a summary,
//!   summed by [`parse_crafty_searches`]: 23.4's `time=0.87  mat=0
//!   n=6185807 ...` then `... reduced=828K pruned=3.1M`; 25.2's
//!   `time=0.10(100%)  nodes=770553(770.6K)  fh1=89% ...` then `chk=4.3K
//!   qchk=6.4K  fp=295.2K  mcp=95.5K ...`, followed by the evaluation table
//!   it prints after every move (no `key=value` fields, so never read).
//!
//! Crafty counts a node each time it makes a move (`MakeMove` then
//! `nodes_searched++`), before it tests the move for legality and before
//! its pruning may drop the move unsearched; our engine counts the same way
//! (a node per move its pruning drops, whether or not it made the move
//! first: the bitboard profile learns that a move gives no check without
//! making it), Stockfish a node on entering a
//! search. The pruned figures of Crafty's summaries (23.4's `pruned=`, the
//! futility-pruned moves; 25.2's `fp=` futility-pruned and `mcp=`
//! move-count-pruned moves) and our bench's `pruned` count the moves
//! dropped that way, so nodes less those count positions searched
//! (Crafty's illegal pseudo-legal moves are still in it: it prints no count
//! of them). Crafty prints the pruned counts abbreviated (`828K`, `3.1M`):
//! each is off by up to half its last digit, summed in
//! [`CraftySearches::pruned_rounding`]; its node counts are exact (25.2
//! prints the abbreviation after the exact count, in parentheses).
//!
//! Each parser returns the figures or a one-line reason. Node counts must
//! be plain whole numbers above 0 and rates plain numbers above 0 (no sign,
//! exponent, `inf` or `NaN`): anything else would make the ratios infinite
//! or meaningless, so it is refused with the line that held it.

use serde::{Deserialize, Serialize};

/// What one bench run reported about itself.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchFigures {
    pub nodes: u64,
    /// Nodes per second as the engine itself measured them.
    pub nps: f64,
}

/// The kind of engine, which decides how it is driven and read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    Crafty,
    Stockfish,
    Ours,
    /// Crafty searching our bench positions, one summary per search.
    #[serde(rename = "crafty-positions")]
    CraftyPositions,
}

impl EngineKind {
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Crafty => "crafty",
            EngineKind::Stockfish => "stockfish",
            EngineKind::Ours => "ours",
            EngineKind::CraftyPositions => "crafty-positions",
        }
    }
}

/// Longest line quoted in an error, in characters.
const LINE_QUOTED: usize = 120;

/// `line` trimmed and shortened for an error message.
fn quoted(line: &str) -> String {
    match crate::engines::process::clip(line.trim(), LINE_QUOTED) {
        (kept, true) => format!("{kept:?}..."),
        (whole, false) => format!("{whole:?}"),
    }
}

/// A node count as the engines print it: digits only (Crafty may group
/// them with commas, removed before this), within a u64.
fn plain_count(token: &str) -> Option<u64> {
    (!token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())).then(|| token.parse().ok()).flatten()
}

/// A rate or a time as the engines print it: digits with at most one
/// decimal point, finite.
fn plain_number(token: &str) -> Option<f64> {
    let (int, frac) = token.split_once('.').unwrap_or((token, ""));
    let digits = !(int.is_empty() && frac.is_empty()) && int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit());
    digits.then(|| token.parse().ok()).flatten().filter(|v: &f64| v.is_finite())
}

/// The value after `label` on the first line holding it, at or after byte
/// `from` of `text`, without thousands commas; with that line and the byte
/// offset just past it.
fn value_after<'a>(text: &'a str, from: usize, label: &str) -> Option<(String, &'a str, usize)> {
    let at = text[from..].find(label)? + from;
    let rest = &text[at + label.len()..];
    let line_end = rest.find('\n').map(|i| at + label.len() + i + 1).unwrap_or(text.len());
    let line_start = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let value = strip_colon(rest.lines().next().unwrap_or(""));
    let token = value.split_whitespace().next().unwrap_or("");
    Some((token.chars().filter(|c| *c != ',').collect(), &text[line_start..line_end], line_end))
}

/// The node count after `label` (see [`value_after`]): a whole number
/// above 0.
fn count_after(text: &str, from: usize, label: &str) -> Option<Result<(u64, usize), String>> {
    let (token, line, end) = value_after(text, from, label)?;
    Some(match plain_count(&token) {
        Some(0) => Err(format!("{}: {label:?} is 0", quoted(line))),
        Some(n) => Ok((n, end)),
        None => Err(format!("{}: {label:?} is not followed by a whole number of nodes", quoted(line))),
    })
}

/// The nodes per second after `label` (see [`value_after`]): above 0.
fn rate_after(text: &str, from: usize, label: &str) -> Option<Result<f64, String>> {
    let (token, line, _) = value_after(text, from, label)?;
    Some(match plain_number(&token) {
        Some(v) if v > 0.0 => Ok(v),
        Some(_) => Err(format!("{}: a rate of 0 nodes per second", quoted(line))),
        None => Err(format!("{}: {label:?} is not followed by a number", quoted(line))),
    })
}

/// Crafty 25.2 `bench`: the FIRST totals block (the one-thread run).
pub fn parse_crafty(stdout: &str) -> Result<BenchFigures, String> {
    let (nodes, after) = match count_after(stdout, 0, "Total nodes:") {
        None => return Err("no \"Total nodes:\" line".to_string()),
        Some(r) => r?,
    };
    // The rate must belong to the same block: before any second block starts.
    let block_end = stdout[after..].find("Total nodes:").map(|i| after + i).unwrap_or(stdout.len());
    let nps = match rate_after(&stdout[..block_end], after, "Raw nodes per second:") {
        None => return Err("no \"Raw nodes per second:\" line after the first \"Total nodes:\"".to_string()),
        Some(r) => r?,
    };
    Ok(BenchFigures { nodes, nps })
}

/// Whether Crafty's first totals block is complete (the run may stop).
pub fn crafty_first_block_done(stdout: &str) -> bool {
    parse_crafty(stdout).is_ok() && {
        let at = stdout.find("Raw nodes per second:").unwrap_or(0);
        stdout[at..].contains('\n')
    }
}

/// A Crafty version, as its banner gives it (`Crafty v25.2`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CraftyVersion {
    pub major: u32,
    pub minor: u32,
}

impl std::fmt::Display for CraftyVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The version in the first `Crafty vMAJOR.MINOR` banner of `stdout`
/// (`Crafty v23.4 (1 cpus)`, `Crafty v25.2`); `None` when there is none.
pub fn crafty_version(stdout: &str) -> Option<CraftyVersion> {
    let at = stdout.find("Crafty v")?;
    let token = stdout[at + "Crafty v".len()..].split_whitespace().next()?;
    let (major, rest) = token.split_once('.')?;
    let minor: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some(CraftyVersion { major: plain_count(major)?.try_into().ok()?, minor: minor.parse().ok()? })
}

/// How Crafty is brought back to a clean state (empty hash tables, no
/// killers or history from the last search) before each of our positions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CraftyReset {
    /// `new` before each position, all in one process (Crafty 23 and older).
    #[default]
    NewCommand,
    /// A fresh process per position: Crafty 25 refuses `new` ("not
    /// implemented, please exit and restart crafty"). Also what a Crafty
    /// whose banner gives no version gets, since it is right for any version.
    ProcessPerPosition,
}

impl CraftyReset {
    /// The reset for a Crafty of `version`: `new` up to Crafty 23, whose
    /// `new` clears everything (23.4 measured that way); a fresh process
    /// from 24 on, and for a Crafty that gives no version.
    pub fn for_version(version: Option<CraftyVersion>) -> CraftyReset {
        match version {
            Some(v) if v.major <= 23 => CraftyReset::NewCommand,
            _ => CraftyReset::ProcessPerPosition,
        }
    }

    /// In words, for the tables.
    pub fn describe(self) -> &'static str {
        match self {
            CraftyReset::NewCommand => "one process, \"new\" before each position",
            CraftyReset::ProcessPerPosition => "a fresh process per position (this Crafty refuses \"new\")",
        }
    }
}

/// What Crafty 25 answers `new` with: its tables are not cleared.
const NEW_REFUSED: &str = "new command not implemented";

/// The stdin scripts that have Crafty search each of `fens` to `depth`
/// with a `hash_mb` MiB table, each position from a clean state as our
/// bench clears its own (see [`CraftyReset`]), with no pondering, so one
/// search per position: one script per process to start. `prelude` (e.g.
/// a time limit) opens every script.
pub fn crafty_positions_scripts(
    fens: &[&str],
    depth: u32,
    hash_mb: usize,
    reset: CraftyReset,
    prelude: &str,
) -> Vec<String> {
    let setup = format!("{prelude}ponder off\nhash {hash_mb}M\n");
    let search = |fen: &str| format!("setboard {fen}\nsd {depth}\ngo\n");
    match reset {
        CraftyReset::NewCommand => {
            let mut s = setup;
            for fen in fens {
                s.push_str("new\n");
                s.push_str(&search(fen));
            }
            s.push_str("quit\n");
            vec![s]
        }
        CraftyReset::ProcessPerPosition => fens.iter().map(|fen| format!("{setup}{}quit\n", search(fen))).collect(),
    }
}

/// `script` without its `go` commands: everything Crafty does for it
/// (start, table set-up, `new`, `setboard`, quit) except searching.
pub fn without_searches(script: &str) -> String {
    script.lines().filter(|l| l.trim() != "go").map(|l| format!("{l}\n")).collect()
}

/// Start `crafty` with only `quit` on stdin, in a fresh temporary directory
/// that is also its `$HOME`, and read the version from the banner it prints
/// on start (`None`: no banner with a version). A Crafty that fails to
/// start or to quit is an error.
pub fn probe_crafty(crafty: &std::path::Path, timeout: std::time::Duration) -> Result<Option<CraftyVersion>, String> {
    use crate::engines::process::{self, Ending, Job, TempDir};
    let dir = TempDir::new("boardbench-crafty-version")?;
    let env = [("HOME".to_string(), dir.path().display().to_string())];
    let f = process::run(&Job {
        program: crafty,
        args: &[],
        stdin: Some("quit\n"),
        cwd: dir.path(),
        env: &env,
        core: None,
        realtime: false,
        timeout,
        stop_when: None,
    })
    .map_err(|e| format!("crafty (start and quit, for its version): {e}"))?;
    let what = "crafty (start and quit, for its version)";
    match f.ending {
        Ending::Exited(0) => Ok(crafty_version(&f.stdout)),
        Ending::Exited(c) => Err(format!("{what} exited with status {c}: {}", f.last_lines(3))),
        Ending::Signalled(sig) => Err(format!("{what} was killed by signal {sig}: {}", f.last_lines(3))),
        Ending::TimedOut | Ending::Stopped => {
            Err(format!("{what} did not quit within {} s: {}", timeout.as_secs(), f.last_lines(3)))
        }
    }
}

/// Crafty's summaries of a series of searches, summed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CraftySearches {
    pub searches: usize,
    /// Sum of `n=` (23.4) or `nodes=` (25.2): every move made, searched or not.
    pub nodes: u64,
    /// Moves made and dropped unsearched: the sum of `pruned=` (23.4,
    /// futility pruning) or of `fp=` plus `mcp=` (25.2, futility and move
    /// count pruning); `None` when the summaries carry no such count (a
    /// Crafty that prints none is reported by its own count only).
    pub pruned: Option<u64>,
    /// Of `pruned`, the `fp=` (futility-pruned) sum, for a Crafty that
    /// prints it (25.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub futility_pruned: Option<u64>,
    /// Of `pruned`, the `mcp=` (move-count-pruned) sum, for a Crafty that
    /// prints it (25.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_count_pruned: Option<u64>,
    /// Most the printed pruned figures can be off in total: Crafty rounds
    /// them (`828K`, `3.1M`), each by up to half its last digit.
    pub pruned_rounding: u64,
    /// Sum of `time=` (Crafty's own search time, in hundredths of a second).
    pub time_s: f64,
}

impl CraftySearches {
    /// Nodes per second as Crafty counts nodes.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time_s
    }

    /// Nodes less the moves pruned unsearched: the positions searched.
    pub fn searched_nodes(&self) -> Option<u64> {
        self.pruned.map(|p| self.nodes.saturating_sub(p))
    }

    /// [`searched_nodes`](Self::searched_nodes) per second.
    pub fn searched_nps(&self) -> Option<f64> {
        self.searched_nodes().map(|n| n as f64 / self.time_s)
    }

    /// Which fields the pruned count was read from, for the tables.
    pub fn pruned_fields(&self) -> &'static str {
        if self.futility_pruned.is_some() {
            "fp= + mcp="
        } else {
            "pruned="
        }
    }
}

/// A count as Crafty prints it: `548`, `4K`, `3.1M` (also `B`); with the
/// most the printed figure can be off by.
fn crafty_count(s: &str) -> Option<(u64, u64)> {
    let (digits, unit) = match s.as_bytes().last()? {
        b'K' => (&s[..s.len() - 1], 1e3),
        b'M' => (&s[..s.len() - 1], 1e6),
        b'B' => (&s[..s.len() - 1], 1e9),
        _ => (s, 1.0),
    };
    let v = plain_number(digits)?;
    // Not `as u64`, which would saturate a count past u64 silently.
    let count = (v * unit).round();
    if count >= u64::MAX as f64 {
        return None;
    }
    let decimals = digits.split_once('.').map(|(_, d)| d.len() as i32).unwrap_or(0);
    let half_step = if unit == 1.0 { 0.0 } else { 0.5 * unit / 10f64.powi(decimals) };
    Some((count as u64, half_step.round() as u64))
}

/// The value of `key=` among the whitespace-separated tokens of `line`.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace().find_map(|t| t.strip_prefix(key)?.strip_prefix('='))
}

/// A summary value without a parenthesised suffix (`3.75(97%)`,
/// `nodes=770553(770.6K)` in Crafty 25).
fn bare(value: &str) -> &str {
    value.split('(').next().unwrap_or(value)
}

/// A search summary's time and node count, with the node count's key:
/// `time=` with `n=` (Crafty 23.4) or `nodes=` (25.2) on one line.
fn summary_fields(line: &str) -> Option<(&str, &'static str, &str)> {
    let time = field(line, "time")?;
    match (field(line, "n"), field(line, "nodes")) {
        (Some(n), _) => Some((time, "n", n)),
        (None, Some(n)) => Some((time, "nodes", n)),
        (None, None) => None,
    }
}

/// Whether `line` is the first line of a Crafty search summary.
pub fn is_search_summary(line: &str) -> bool {
    summary_fields(line).is_some()
}

/// The pruned counts a summary's second line carries: `pruned=` (23.4) or
/// `fp=` and `mcp=` (25.2); `Ok(None)` for a line with neither.
fn pruned_fields(line: &str) -> Result<Option<Vec<(&'static str, &str)>>, String> {
    if let Some(p) = field(line, "pruned") {
        return Ok(Some(vec![("pruned", p)]));
    }
    match (field(line, "fp"), field(line, "mcp")) {
        (None, None) => Ok(None),
        (Some(fp), Some(mcp)) => Ok(Some(vec![("fp", fp), ("mcp", mcp)])),
        _ => Err(format!("{}: \"fp=\" and \"mcp=\" must come together", quoted(line))),
    }
}

/// Sum Crafty's search summaries; there must be exactly `expected`, each
/// with its pruned counts (`pruned=`, or `fp=` and `mcp=`) or none with
/// any. Output in which Crafty refused `new` is refused: its tables would
/// have carried over from one position to the next.
pub fn parse_crafty_searches(stdout: &str, expected: usize) -> Result<CraftySearches, String> {
    if let Some(line) = stdout.lines().find(|l| l.contains(NEW_REFUSED)) {
        return Err(format!(
            "Crafty refused \"new\" ({}), so its tables would carry over between positions: \
             it must search each position in a fresh process",
            quoted(line)
        ));
    }
    let mut s = CraftySearches::default();
    let (mut with_pruned, mut with_split, mut fp, mut mcp) = (0usize, 0usize, 0u64, 0u64);
    let mut pruned = 0u64;
    // Whether the latest summary has had its pruned-count line.
    let mut pruned_seen = true;
    for line in stdout.lines() {
        if let Some((t, key, n)) = summary_fields(line) {
            let k = s.searches + 1;
            let time = plain_number(bare(t))
                .ok_or_else(|| format!("search {k}: \"time={t}\" is not a time in seconds in {}", quoted(line)))?;
            let n_nodes = match plain_count(bare(n)) {
                None => {
                    return Err(format!("search {k}: \"{key}={n}\" is not a whole number of nodes in {}", quoted(line)))
                }
                Some(0) => return Err(format!("search {k}: \"{key}={n}\", no nodes searched, in {}", quoted(line))),
                Some(v) => v,
            };
            s.searches = k;
            s.nodes = s
                .nodes
                .checked_add(n_nodes)
                .ok_or_else(|| format!("search {k}: the node counts add up past 2^64 at {}", quoted(line)))?;
            s.time_s += time;
            pruned_seen = false;
        } else if let Some(counts) = pruned_fields(line).map_err(|e| format!("search {}: {e}", s.searches))? {
            let (key, value) = counts[0];
            if pruned_seen {
                return Err(format!("a \"{key}={value}\" line with no search summary of its own before it"));
            }
            for &(key, value) in &counts {
                let (count, rounding) = crafty_count(value).ok_or_else(|| {
                    format!("search {}: \"{key}={value}\" is not a count in {}", s.searches, quoted(line))
                })?;
                let past = || format!("search {}: the pruned counts add up past 2^64 at {}", s.searches, quoted(line));
                pruned = pruned.checked_add(count).ok_or_else(past)?;
                match key {
                    "fp" => fp = fp.checked_add(count).ok_or_else(past)?,
                    "mcp" => mcp = mcp.checked_add(count).ok_or_else(past)?,
                    _ => {}
                }
                s.pruned_rounding = s.pruned_rounding.saturating_add(rounding);
            }
            with_pruned += 1;
            with_split += usize::from(counts.len() == 2);
            pruned_seen = true;
        }
    }
    if s.searches != expected {
        return Err(format!(
            "{} search summaries (\"time=... n=...\" or \"time=... nodes=...\") for {expected} positions: \
             a position was refused or a search cut short",
            s.searches
        ));
    }
    if with_pruned != 0 && with_pruned != s.searches {
        return Err(format!("{with_pruned} of {} search summaries have a pruned count", s.searches));
    }
    if with_split != 0 && with_split != with_pruned {
        return Err(format!(
            "{with_split} of {with_pruned} pruned counts are \"fp=\" and \"mcp=\", the others \"pruned=\": \
             the output of two Crafty versions"
        ));
    }
    if s.time_s <= 0.0 {
        return Err("the searches took 0.00 s in total by Crafty's clock: search deeper (--crafty-depth)".into());
    }
    // All pruned would leave no position searched: a searched NPS of 0.
    if pruned >= s.nodes {
        return Err(format!("{pruned} moves pruned of {} made: the summaries do not add up", s.nodes));
    }
    s.pruned = (with_pruned > 0).then_some(pruned);
    if with_split > 0 {
        (s.futility_pruned, s.move_count_pruned) = (Some(fp), Some(mcp));
    }
    Ok(s)
}

/// Stockfish `bench`: `Nodes searched  : N` and `Nodes/second    : N`, on
/// stderr (Stockfish 15.1); stdout is searched too for builds that print
/// them there.
pub fn parse_stockfish(stderr: &str, stdout: &str) -> Result<BenchFigures, String> {
    let one = |text: &str| -> Option<Result<BenchFigures, String>> {
        let nodes = match count_after(text, 0, "Nodes searched")? {
            Ok((n, _)) => n,
            Err(e) => return Some(Err(e)),
        };
        Some(match rate_after(text, 0, "Nodes/second") {
            None => Err("a \"Nodes searched\" line but no \"Nodes/second\" line".to_string()),
            Some(Err(e)) => Err(e),
            Some(Ok(nps)) => Ok(BenchFigures { nodes, nps }),
        })
    };
    one(stderr)
        .or_else(|| one(stdout))
        .unwrap_or_else(|| Err("no \"Nodes searched\" line on stderr or stdout".to_string()))
}

/// Stockfish's summary lines are `Label : value`: skip a colon before the
/// value (Crafty's labels include theirs).
fn strip_colon(v: &str) -> &str {
    let t = v.trim();
    t.strip_prefix(':').unwrap_or(t).trim()
}

/// How our `engine bench` starts the line that says how many of the nodes it
/// counts were moves pruned unsearched (`pruned          : N of them ...`).
pub const PRUNED_LABEL: &str = "pruned";

/// Our `engine bench`'s `pruned` line: how many of its nodes (moves made, as
/// Crafty counts) were pruned unsearched; `None` for an engine that prints
/// no such line (one from before it pruned moves).
pub fn parse_ours_pruned(stdout: &str) -> Result<Option<u64>, String> {
    let Some(line) = stdout.lines().map(str::trim).find(|l| l.split_whitespace().next() == Some(PRUNED_LABEL)) else {
        return Ok(None);
    };
    let value = line[PRUNED_LABEL.len()..].trim_start().strip_prefix(':').map(str::trim_start);
    match value.and_then(|v| v.split_whitespace().next()).and_then(plain_count) {
        Some(n) => Ok(Some(n)),
        None => Err(format!("{}: \"{PRUNED_LABEL} :\" is not followed by a whole count", quoted(line))),
    }
}

/// Our bench's pruned count checked against its node count (the pruned
/// moves are among the nodes, and something was searched).
pub fn check_ours_pruned(pruned: Option<u64>, nodes: u64) -> Result<Option<u64>, String> {
    match pruned {
        Some(p) if p >= nodes => Err(format!("{p} moves pruned of {nodes} nodes: the bench does not add up")),
        _ => Ok(pruned),
    }
}

/// Our `engine bench`: the last non-empty line, `<nodes> nodes <nps> nps`.
pub fn parse_ours(stdout: &str) -> Result<BenchFigures, String> {
    let last = stdout.lines().rev().map(str::trim).find(|l| !l.is_empty()).ok_or("no output")?;
    let w: Vec<&str> = last.split_whitespace().collect();
    match w.as_slice() {
        [n, "nodes", r, "nps"] => match (plain_count(n), plain_number(r)) {
            (Some(nodes), Some(nps)) if nodes > 0 && nps > 0.0 => Ok(BenchFigures { nodes, nps }),
            (Some(0), _) => Err(format!("last line {}: no nodes searched", quoted(last))),
            (_, Some(nps)) if nps <= 0.0 => Err(format!("last line {}: a rate of 0 nodes per second", quoted(last))),
            _ => Err(format!("last line {}: bad numbers (a whole node count, a rate)", quoted(last))),
        },
        _ => Err(format!("last line {} is not \"<nodes> nodes <nps> nps\"", quoted(last))),
    }
}

/// The line of output worth keeping with the figures, for the record: the
/// one that names the engine (Crafty 23.4 first says "Machine is NUMA,
/// ..."), or for our engine what its tables got (`huge pages : 18 MiB in
/// use ...`: our NPS depends on it), else the first line with anything on it.
pub fn banner(stdout: &str, stderr: &str) -> Option<String> {
    let lines = || stdout.lines().chain(stderr.lines()).map(str::trim);
    lines()
        .find(|l| l.starts_with("Crafty v") || l.starts_with("Stockfish ") || l.starts_with(HUGE_PAGES_LABEL))
        .or_else(|| lines().find(|l| !l.is_empty()))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(120).collect())
}

/// How our `engine bench` starts the line that says how much memory it has
/// on huge pages.
pub const HUGE_PAGES_LABEL: &str = "huge pages";

/// What a run says beside its figures: Crafty's search summaries
/// ([`EngineKind::CraftyPositions`]), or how many of our engine's nodes were
/// moves pruned unsearched ([`EngineKind::Ours`], where it says).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Extras {
    pub crafty: Option<CraftySearches>,
    pub pruned: Option<u64>,
}

/// Parse the figures of a `kind` run.
/// `positions` is how many searches a [`EngineKind::CraftyPositions`] run
/// was given (the others ignore it).
pub fn parse(kind: EngineKind, stdout: &str, stderr: &str, positions: usize) -> Result<(BenchFigures, Extras), String> {
    match kind {
        EngineKind::Crafty => parse_crafty(stdout).map(|f| (f, Extras::default())),
        EngineKind::Stockfish => parse_stockfish(stderr, stdout).map(|f| (f, Extras::default())),
        EngineKind::Ours => {
            let figures = parse_ours(stdout)?;
            let pruned = check_ours_pruned(parse_ours_pruned(stdout)?, figures.nodes)?;
            Ok((figures, Extras { crafty: None, pruned }))
        }
        EngineKind::CraftyPositions => parse_crafty_searches(stdout, positions)
            .map(|s| (BenchFigures { nodes: s.nodes, nps: s.nps() }, Extras { crafty: Some(s), pruned: None })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRAFTY: &str = include_str!("../../tests/fixtures/crafty-bench.txt");
    /// Debian's Crafty 23.4 (`scripts/fetch-crafty.sh`), captured here.
    const CRAFTY_23: &str = include_str!("../../tests/fixtures/crafty-23.4-bench.txt");
    const STOCKFISH: &str = include_str!("../../tests/fixtures/stockfish-bench-stderr.txt");

    #[test]
    fn crafty_fixture_reads_the_first_block() {
        let f = parse_crafty(CRAFTY).unwrap();
        assert_eq!(f, BenchFigures { nodes: 191_258_593, nps: 6_884_758.0 });
        assert!(crafty_first_block_done(CRAFTY));
        // Only the SMP block: the numbers are the 2-thread run's, and they
        // are read only because no other block precedes them.
        let smp = &CRAFTY[CRAFTY.find("Running SMP").unwrap()..];
        assert_eq!(parse_crafty(smp).unwrap().nodes, 194_049_215);
    }

    #[test]
    fn crafty_partial_and_malformed_output() {
        // Cut before the rate: not done, and an error naming what is missing.
        let cut = &CRAFTY[..CRAFTY.find("Raw nodes").unwrap()];
        assert!(!crafty_first_block_done(cut));
        assert!(parse_crafty(cut).unwrap_err().contains("Raw nodes per second"));
        // The rate line written but not yet ended by a newline.
        let half = &CRAFTY[..CRAFTY.find("Raw nodes").unwrap() + "Raw nodes per second: 68".len()];
        assert!(!crafty_first_block_done(half));
        assert!(parse_crafty("Crafty v25.2\nWhite(1): bench\n").unwrap_err().contains("no \"Total nodes:\""));
        let e = parse_crafty("Total nodes: lots\nRaw nodes per second: 5\n").unwrap_err();
        assert_eq!(e, r#""Total nodes: lots": "Total nodes:" is not followed by a whole number of nodes"#);
        let e = parse_crafty("Total nodes: 10\nRaw nodes per second: fast\n").unwrap_err();
        assert_eq!(e, r#""Raw nodes per second: fast": "Raw nodes per second:" is not followed by a number"#);
        assert!(parse_crafty("Total nodes: 0\nRaw nodes per second: 5\n").unwrap_err().contains("is 0"));
        // A first block without its rate does not borrow the second block's.
        let two = "Total nodes: 10\nTotal elapsed time: 1\n\nTotal nodes: 20\nRaw nodes per second: 99\n";
        assert!(parse_crafty(two).unwrap_err().contains("Raw nodes per second"));
        // Prompt prefixes and CRLF line ends are tolerated.
        let f = parse_crafty("White(1): Total nodes: 1,234\r\nRaw nodes per second: 567\r\n").unwrap();
        assert_eq!(f, BenchFigures { nodes: 1234, nps: 567.0 });
    }

    #[test]
    fn stockfish_fixture_and_malformed() {
        let f = parse_stockfish(STOCKFISH, "").unwrap();
        assert_eq!(f, BenchFigures { nodes: 3_467_381, nps: 1_499_732.0 });
        // Found on stdout when stderr lacks it.
        assert_eq!(parse_stockfish("", STOCKFISH).unwrap(), f);
        assert!(parse_stockfish("", "info depth 1\nbestmove e2e4\n").unwrap_err().contains("no \"Nodes searched\""));
        assert!(parse_stockfish("Nodes searched  : 12\n", "").unwrap_err().contains("no \"Nodes/second\""));
        let e = parse_stockfish("Nodes searched  : x\nNodes/second : 3\n", "").unwrap_err();
        assert!(e.starts_with("\"Nodes searched  : x\": ") && e.contains("whole number of nodes"), "{e}");
        let e = parse_stockfish("Nodes searched : 5\nNodes/second : ?\n", "").unwrap_err();
        assert!(e.starts_with("\"Nodes/second : ?\": ") && e.contains("not followed by a number"), "{e}");
    }

    #[test]
    fn ours_last_line() {
        let out = "info\nnodes searched  : 100\n9233665 nodes 1428141 nps\n\n";
        assert_eq!(parse_ours(out).unwrap(), BenchFigures { nodes: 9_233_665, nps: 1_428_141.0 });
        assert!(parse_ours("").unwrap_err().contains("no output"));
        assert!(parse_ours("9233665 nodes\n").unwrap_err().contains("is not"));
        assert!(parse_ours("x nodes 5 nps\n").unwrap_err().contains("bad numbers"));
        assert!(parse_ours("0 nodes 5 nps\n").unwrap_err().contains("no nodes searched"));
    }

    #[test]
    fn crafty_23_fixture_reads_its_one_block() {
        let f = parse_crafty(CRAFTY_23).unwrap();
        assert_eq!(f, BenchFigures { nodes: 380_970_457, nps: 4_117_264.0 });
        assert!(crafty_first_block_done(CRAFTY_23));
        assert_eq!(banner(CRAFTY_23, "").as_deref(), Some("Crafty v23.4 (1 cpus)"));
        // Cut before the rate: not done, and an error naming the missing line.
        let cut = &CRAFTY_23[..CRAFTY_23.find("Raw nodes").unwrap()];
        assert!(!crafty_first_block_done(cut));
        assert!(parse_crafty(cut).unwrap_err().contains("Raw nodes per second"));
    }

    /// Debian's Crafty 23.4 fed `crafty_positions_script` of three bench
    /// positions at depth 8 (a start, a middlegame, an endgame), captured.
    const CRAFTY_23_POSITIONS: &str = include_str!("../../tests/fixtures/crafty-23.4-positions.txt");

    #[test]
    fn crafty_search_summaries_are_summed() {
        let s = parse_crafty_searches(CRAFTY_23_POSITIONS, 3).unwrap();
        assert_eq!((s.searches, s.nodes), (3, 12_435 + 127_369 + 15_219));
        // 370, 65K (rounded: up to 500 either way), 289.
        assert_eq!((s.pruned, s.pruned_rounding), (Some(370 + 65_000 + 289), 500));
        assert!((s.time_s - 0.04).abs() < 1e-9);
        assert_eq!(s.searched_nodes(), Some(s.nodes - 65_659));
        assert!((s.nps() - s.nodes as f64 / 0.04).abs() < 1e-3);
        assert!(s.searched_nps().unwrap() < s.nps());
        let (f, searches) = parse(EngineKind::CraftyPositions, CRAFTY_23_POSITIONS, "", 3).unwrap();
        assert_eq!((f.nodes, searches.crafty, searches.pruned), (s.nodes, Some(s), None));
        // A position Crafty refused (or a run cut short) leaves a search missing.
        assert!(parse_crafty_searches(CRAFTY_23_POSITIONS, 4).unwrap_err().contains("3 search summaries"));
        // The last search's pruned= line lost: the counts no longer agree.
        let cut = &CRAFTY_23_POSITIONS[..CRAFTY_23_POSITIONS.rfind("extensions=").unwrap()];
        assert!(parse_crafty_searches(cut, 3).unwrap_err().contains("2 of 3 search summaries have a pruned count"));
        // 23.4 answers `new` silently and says which version it is.
        assert_eq!(crafty_version(CRAFTY_23_POSITIONS), Some(CraftyVersion { major: 23, minor: 4 }));
        assert_eq!((s.futility_pruned, s.move_count_pruned, s.pruned_fields()), (None, None, "pruned="));
    }

    #[test]
    fn crafty_summary_errors_name_the_field() {
        let ok = "time=1.50  mat=0  n=1000  fh=90%\nreduced=1K pruned=200\n";
        assert_eq!(parse_crafty_searches(ok, 1).unwrap().searched_nodes(), Some(800));
        // Summaries with a parenthesised share and no pruned count at all:
        // Crafty's own count only.
        let bare_summary = "time=2.00(97%)  nodes=5000(5.0K)  fh1=91%  nps=2.5K\nchk=1K  qchk=2K  50move=0\n";
        let s = parse_crafty_searches(bare_summary, 1).unwrap();
        assert_eq!((s.nodes, s.time_s, s.pruned, s.searched_nps()), (5_000, 2.0, None, None));
        let bad = |t: &str| parse_crafty_searches(t, 1).unwrap_err();
        assert!(bad("time=x  n=1000\npruned=1\n").contains("\"time=x\""));
        assert!(bad("time=1.0  n=lots\npruned=1\n").contains("\"n=lots\""));
        assert!(bad("time=1.0  n=10\npruned=many\n").contains("\"pruned=many\""));
        assert!(bad("pruned=5\ntime=1.0  n=10\npruned=1\n").contains("no search summary of its own"));
        assert!(bad("time=1.0  n=10\npruned=1\npruned=1\n").contains("no search summary of its own"));
        assert!(bad("time=0.00  n=10\npruned=1\n").contains("0.00 s"));
        assert!(bad("time=1.0  n=10\npruned=20\n").contains("do not add up"));
        assert!(bad("").contains("0 search summaries"));
    }

    #[test]
    fn zero_rates_and_odd_counts_are_refused_with_their_line() {
        // Crafty's bench: a rate of 0 would make every ratio infinite.
        let e = parse_crafty("Total nodes: 1000\nRaw nodes per second: 0\n").unwrap_err();
        assert_eq!(e, r#""Raw nodes per second: 0": a rate of 0 nodes per second"#);
        assert!(!crafty_first_block_done("Total nodes: 1000\nRaw nodes per second: 0\n"));
        for count in ["1e300", "1.5e3", "+5", "-5", "1.5", "inf", "NaN", "18446744073709551616"] {
            let e = parse_crafty(&format!("White(1): Total nodes: {count}\nRaw nodes per second: 5\n")).unwrap_err();
            assert!(e.starts_with(&format!("\"White(1): Total nodes: {count}\": ")), "{e}");
            assert!(e.ends_with("is not followed by a whole number of nodes"), "{e}");
        }
        for rate in ["0.0", "inf", "NaN", "1e9", "-5", "+5", ".", "1.2.3"] {
            let e = parse_crafty(&format!("Total nodes: 10\nRaw nodes per second: {rate}\n")).unwrap_err();
            assert!(e.starts_with(&format!("\"Raw nodes per second: {rate}\": ")), "{e}");
        }
        // Stockfish: the same, for either line.
        let e = parse_stockfish("Nodes searched  : 3467381\nNodes/second    : 0\n", "").unwrap_err();
        assert_eq!(e, r#""Nodes/second    : 0": a rate of 0 nodes per second"#);
        let e = parse_stockfish("Nodes searched  : 1e300\nNodes/second    : 5\n", "").unwrap_err();
        assert_eq!(e, r#""Nodes searched  : 1e300": "Nodes searched" is not followed by a whole number of nodes"#);
        let e = parse_stockfish("", "Nodes searched  : 0\nNodes/second    : 5\n").unwrap_err();
        assert_eq!(e, r#""Nodes searched  : 0": "Nodes searched" is 0"#);
        // Ours.
        assert_eq!(
            parse_ours("100 nodes 0 nps\n").unwrap_err(),
            r#"last line "100 nodes 0 nps": a rate of 0 nodes per second"#
        );
        assert!(parse_ours("100 nodes 0.0 nps\n").unwrap_err().contains("a rate of 0"));
        for bad in
            ["1e300 nodes 5 nps", "+100 nodes 5 nps", "100 nodes inf nps", "100 nodes NaN nps", "100 nodes -1 nps"]
        {
            let e = parse_ours(bad).unwrap_err();
            assert_eq!(e, format!("last line {bad:?}: bad numbers (a whole node count, a rate)"));
        }
        // Plain figures still read, fractional rates included.
        assert_eq!(parse_ours("100 nodes 2.5 nps\n").unwrap(), BenchFigures { nodes: 100, nps: 2.5 });
    }

    #[test]
    fn our_pruned_count_is_read_and_checked() {
        let out = "nodes           : 100 (moves made, as Crafty counts)\n\
                   pruned          : 40 of them pruned unsearched\n100 nodes 50 nps\n";
        assert_eq!(parse_ours_pruned(out), Ok(Some(40)));
        let (f, extras) = parse(EngineKind::Ours, out, "", 0).unwrap();
        assert_eq!((f.nodes, extras.pruned, extras.crafty), (100, Some(40), None));
        // An engine from before the line existed: no count, no error.
        assert_eq!(parse_ours_pruned("100 nodes 50 nps\n"), Ok(None));
        let e = parse_ours_pruned("pruned : many\n").unwrap_err();
        assert!(e.contains("not followed by a whole count"), "{e}");
        let e = parse(EngineKind::Ours, "pruned : 100 of them\n100 nodes 50 nps\n", "", 0).unwrap_err();
        assert!(e.contains("100 moves pruned of 100 nodes"), "{e}");
    }

    #[test]
    fn crafty_summaries_with_no_or_odd_counts_are_refused() {
        let bad = |t: &str, n: usize| parse_crafty_searches(t, n).unwrap_err();
        let e = bad("time=1.00  n=1000\npruned=1\ntime=1.00  n=0  fh=0%\npruned=0\n", 2);
        assert_eq!(e, r#"search 2: "n=0", no nodes searched, in "time=1.00  n=0  fh=0%""#);
        let e = bad("time=1.00  n=1e6\npruned=1\n", 1);
        assert_eq!(e, r#"search 1: "n=1e6" is not a whole number of nodes in "time=1.00  n=1e6""#);
        assert!(bad("time=1.00  n=+6\npruned=1\n", 1).contains("\"n=+6\""));
        assert!(bad("time=1e2  n=10\npruned=1\n", 1).contains("\"time=1e2\" is not a time"));
        assert!(bad("time=inf  n=10\npruned=1\n", 1).contains("\"time=inf\""));
        // Sums past u64 are refused, not wrapped.
        let max = format!("time=1.00  n={}\n", u64::MAX);
        assert!(bad(&max.repeat(2), 2).contains("search 2: the node counts add up past 2^64"));
        assert!(bad("time=1.00  n=10\npruned=1e3\n", 1).contains("\"pruned=1e3\" is not a count"));
        assert!(bad("time=1.00  n=10\npruned=99999999999B\n", 1).contains("is not a count"));
        // Every move made pruned: nothing searched, so no searched NPS.
        assert!(bad("time=1.00  n=10\npruned=10\n", 1).contains("10 moves pruned of 10 made"));
        // Whatever parses has positive rates.
        let (f, c) = parse(EngineKind::CraftyPositions, "time=0.01  n=1\npruned=0\n", "", 1).unwrap();
        assert!(f.nps > 0.0 && c.crafty.unwrap().searched_nps().unwrap() > 0.0);
    }

    #[test]
    fn crafty_counts_and_their_rounding() {
        assert_eq!(crafty_count("548"), Some((548, 0)));
        assert_eq!(crafty_count("4K"), Some((4_000, 500)));
        assert_eq!(crafty_count("3.1M"), Some((3_100_000, 50_000)));
        assert_eq!(crafty_count("2B"), Some((2_000_000_000, 500_000_000)));
        assert_eq!(crafty_count("K"), None);
        assert_eq!(crafty_count("-3"), None);
        assert_eq!(crafty_count(""), None);
        assert_eq!(crafty_count("1e3"), None);
        assert_eq!(crafty_count("+3K"), None);
        assert_eq!(crafty_count("20000000000B"), None);
    }

    const FENS: [&str; 2] = ["8/8/8/8/8/8/8/K6k w - - 0 1", "k7/8/8/8/8/8/8/7K b - - 0 1"];

    #[test]
    fn crafty_23_searches_every_position_in_one_process_after_new() {
        let v = crafty_version(CRAFTY_23);
        assert_eq!(CraftyReset::for_version(v), CraftyReset::NewCommand);
        let scripts = crafty_positions_scripts(&FENS, 12, 16, CraftyReset::NewCommand, "");
        assert_eq!(scripts.len(), 1);
        let s = &scripts[0];
        assert!(s.starts_with("ponder off\nhash 16M\n") && s.ends_with("go\nquit\n"), "{s}");
        assert_eq!(s.matches("new\nsetboard ").count(), 2);
        assert_eq!(s.matches("sd 12\ngo\n").count(), 2);
        // Without its searches: the same set-up, no `go`.
        let setup = without_searches(s);
        assert_eq!(setup, s.replace("go\n", ""));
        assert_eq!(setup.matches("new\nsetboard ").count(), 2);
    }

    #[test]
    fn crafty_25_gets_a_process_per_position_and_no_new() {
        let v = crafty_version(CRAFTY_25_POSITIONS);
        assert_eq!(v, Some(CraftyVersion { major: 25, minor: 2 }));
        assert_eq!(v.unwrap().to_string(), "25.2");
        assert_eq!(crafty_version(CRAFTY), v, "the bench capture's banner too");
        assert_eq!(CraftyReset::for_version(v), CraftyReset::ProcessPerPosition);
        // 24 is not known to take `new`, and no banner gives no version:
        // a fresh process, right for any version.
        assert_eq!(
            CraftyReset::for_version(Some(CraftyVersion { major: 24, minor: 0 })),
            CraftyReset::ProcessPerPosition
        );
        assert_eq!(CraftyReset::for_version(crafty_version("White(1): ")), CraftyReset::ProcessPerPosition);
        let scripts = crafty_positions_scripts(&FENS, 10, 16, CraftyReset::ProcessPerPosition, "st 86400\n");
        assert_eq!(
            scripts,
            [
                format!("st 86400\nponder off\nhash 16M\nsetboard {}\nsd 10\ngo\nquit\n", FENS[0]),
                format!("st 86400\nponder off\nhash 16M\nsetboard {}\nsd 10\ngo\nquit\n", FENS[1]),
            ]
        );
        assert!(scripts.iter().all(|s| !s.contains("new")));
        assert_eq!(
            without_searches(&scripts[0]),
            format!("st 86400\nponder off\nhash 16M\nsetboard {}\nsd 10\nquit\n", FENS[0])
        );
    }

    #[test]
    fn crafty_versions_from_banners() {
        let v = |s: &str| crafty_version(s).map(|v| (v.major, v.minor));
        assert_eq!(v("Crafty v23.4 (1 cpus)\n"), Some((23, 4)));
        assert_eq!(v("\nCrafty v25.2\n\nmachine has 2 processors\n"), Some((25, 2)));
        assert_eq!(v("Crafty v25.3a\n"), Some((25, 3)));
        assert_eq!(v("Crafty v\n"), None);
        assert_eq!(v("Crafty vX.Y\n"), None);
        assert_eq!(v("crafty 25.2\n"), None);
        assert!(CraftyVersion { major: 23, minor: 4 } < CraftyVersion { major: 25, minor: 2 });
    }

    /// Crafty 25.2 fed crafty25-positions-input.txt (our 20 bench
    /// positions at `sd 10`, each after `new`), captured.
    const CRAFTY_25_POSITIONS: &str = include_str!("../../tests/fixtures/crafty25-positions.txt");
    const CRAFTY_25_INPUT: &str = include_str!("../../tests/fixtures/crafty25-positions-input.txt");

    #[test]
    fn crafty_25_refusing_new_is_an_error() {
        // The capture's input is our one-process script with `new`: 25.2
        // refused it, so the hash carried over. Never summed.
        let fens: Vec<&str> = CRAFTY_25_INPUT.lines().filter_map(|l| l.strip_prefix("setboard ")).collect();
        assert_eq!(fens.len(), 20);
        assert_eq!(crafty_positions_scripts(&fens, 10, 16, CraftyReset::NewCommand, ""), [CRAFTY_25_INPUT]);
        let e = parse_crafty_searches(CRAFTY_25_POSITIONS, 20).unwrap_err();
        assert!(e.starts_with("Crafty refused \"new\" (\"White(1): NOTICE:  new command not implemented"), "{e}");
        assert!(e.contains("fresh process"), "{e}");
    }

    #[test]
    fn crafty_25_summaries_fp_and_mcp_are_summed_with_their_rounding() {
        // Its summaries, as 20 fresh processes print them (no NOTICE): the
        // capture less the two lines of each NOTICE.
        let fresh: String = CRAFTY_25_POSITIONS
            .lines()
            .filter(|l| !l.contains("new command not implemented") && !l.starts_with("restart crafty"))
            .map(|l| format!("{l}\n"))
            .collect();
        let s = parse_crafty_searches(&fresh, 20).unwrap();
        // Exact node counts (nodes=36094(36.1K) ...), summed by hand from the capture.
        assert_eq!((s.searches, s.nodes), (20, 2_972_523));
        // fp=3.0K ... 13.4K: 941,100, each within 50 (one decimal of K);
        // mcp=11.6K ... 337 ... 35.8K: 485,237, within 50 for 19 of them
        // (337 is exact).
        assert_eq!((s.futility_pruned, s.move_count_pruned), (Some(941_100), Some(485_237)));
        assert_eq!(s.pruned, Some(941_100 + 485_237));
        assert_eq!(s.pruned_rounding, 20 * 50 + 19 * 50);
        assert_eq!(s.searched_nodes(), Some(2_972_523 - 1_426_337));
        assert_eq!(s.pruned_fields(), "fp= + mcp=");
        // time=0.01(100%) ...: 0.40 s by Crafty's clock.
        assert!((s.time_s - 0.40).abs() < 1e-9, "{}", s.time_s);
        // The evaluation table after every move is not read: the same sums
        // without it.
        let no_tables: String = fresh
            .lines()
            .filter(|l| !l.contains("....") && !l.contains("+---") && !l.starts_with("note:"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(no_tables.len() < fresh.len());
        assert_eq!(parse_crafty_searches(&no_tables, 20), Ok(s));
        // Each search is a summary line: the completed-iteration counter
        // sees them.
        assert_eq!(fresh.lines().filter(|l| is_search_summary(l)).count(), 20);
        // A summary's fp/mcp line lost: the counts no longer agree.
        let cut = fresh.replacen("chk=36  qchk=138  fp=3.0K  mcp=11.6K  50move=1", "chk=36  qchk=138", 1);
        assert!(parse_crafty_searches(&cut, 20).unwrap_err().contains("19 of 20 search summaries have a pruned count"));
    }

    #[test]
    fn crafty_25_odd_pruned_lines_are_refused() {
        let bad = |t: &str| parse_crafty_searches(t, 1).unwrap_err();
        let head = "time=1.00(100%)  nodes=10000(10.0K)  fh1=90%\n";
        assert!(bad(&format!("{head}chk=1  fp=3.0K  50move=1\n")).contains("\"fp=\" and \"mcp=\" must come together"));
        assert!(bad(&format!("{head}chk=1  mcp=3.0K\n")).contains("must come together"));
        assert!(bad(&format!("{head}fp=lots  mcp=1\n")).contains("\"fp=lots\" is not a count"));
        assert!(bad(&format!("{head}fp=1  mcp=-1\n")).contains("\"mcp=-1\" is not a count"));
        assert!(bad(&format!("{head}fp=6.0K  mcp=4.0K\n")).contains("10000 moves pruned of 10000 made"));
        assert!(bad("fp=1  mcp=1\ntime=1.00(100%)  nodes=10(10)\n").contains("\"fp=1\" line with no search summary"));
        assert!(bad("time=1.00(100%)  nodes=lots(1K)\n").contains("\"nodes=lots(1K)\" is not a whole number"));
        // Two versions' summaries mixed in one output.
        let mixed = format!("{head}fp=1  mcp=1\ntime=1.00  n=100\npruned=5\n");
        assert!(parse_crafty_searches(&mixed, 2).unwrap_err().contains("the output of two Crafty versions"));
        let ok = parse_crafty_searches(&format!("{head}fp=1.5K  mcp=500\n"), 1).unwrap();
        assert_eq!((ok.pruned, ok.pruned_rounding, ok.searched_nodes()), (Some(2_000), 50, Some(8_000)));
    }

    #[test]
    fn banners() {
        assert_eq!(banner("\nCrafty v25.2\n", "").as_deref(), Some("Crafty v25.2"));
        assert_eq!(banner("Machine is NUMA\nCrafty v23.4 (1 cpus)\n", "").as_deref(), Some("Crafty v23.4 (1 cpus)"));
        assert_eq!(banner("", "Stockfish 15.1\n").as_deref(), Some("Stockfish 15.1"));
        assert_eq!(banner("", ""), None);
        let ours = "position  1/20  nodes 1\nhuge pages      : 18 MiB in use (the transposition table and pawn hash ask for them)\n1 nodes 1 nps\n";
        assert_eq!(
            banner(ours, "").as_deref(),
            Some("huge pages : 18 MiB in use (the transposition table and pawn hash ask for them)")
        );
    }
}
