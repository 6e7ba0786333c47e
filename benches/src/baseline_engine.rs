//! The engines whole-engine NPS is compared with (DESIGN §7), and how each
//! one's own `bench` is driven and read:
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
//!   Crafty 23.4 (Debian non-free, `scripts/fetch-crafty.sh`) prints one
//!   block of the same form, and is read the same way.
//! * **Stockfish**: `stockfish bench 16 1 13 default depth` (its default
//!   bench spelled out: 16 MiB hash, 1 thread, depth 13), summary on stderr:
//!   `Nodes searched  :` and `Nodes/second    :`.
//! * **ours**: `engine bench --profile P [--depth D]`, whose last line is
//!   `<nodes> nodes <nps> nps`.
//! * **Crafty on our bench positions**: the same binary fed, through stdin,
//!   one fixed-depth search of every position our `engine bench` searches
//!   (`new`, `setboard FEN`, `sd D`, `go`); each search ends with a summary
//!   (`time=0.87  mat=0  n=6185807 ...` and `... reduced=828K pruned=3.1M`),
//!   summed by [`parse_crafty_searches`].
//!
//! Crafty counts a node each time it makes a move (`MakeMove` then
//! `nodes_searched++`), before it tests the move for legality and before
//! its futility pruning may drop the move unsearched; our engine and
//! Stockfish count a node on entering a search. The `pruned` figure of
//! Crafty's summaries is the moves made and dropped that way, so
//! `n - pruned` is the comparable count (Crafty's illegal pseudo-legal
//! moves are still in it: it prints no count of them).
//!
//! Each parser returns the figures or a one-line reason.

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

/// The number after `label` on the first line holding it, at or after
/// byte `from` of `text`; with the byte offset just past that line.
fn number_after(text: &str, from: usize, label: &str) -> Option<Result<(f64, usize), String>> {
    let at = text[from..].find(label)? + from;
    let rest = &text[at + label.len()..];
    let line_end = rest.find('\n').map(|i| at + label.len() + i + 1).unwrap_or(text.len());
    let value = strip_colon(rest.lines().next().unwrap_or(""));
    let token = value.split_whitespace().next().unwrap_or("");
    let cleaned: String = token.chars().filter(|c| *c != ',').collect();
    Some(match cleaned.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok((v, line_end)),
        _ => Err(format!("{label:?} is followed by {value:?}, not a number")),
    })
}

/// Crafty 25.2 `bench`: the FIRST totals block (the one-thread run).
pub fn parse_crafty(stdout: &str) -> Result<BenchFigures, String> {
    let (nodes, after) = match number_after(stdout, 0, "Total nodes:") {
        None => return Err("no \"Total nodes:\" line".to_string()),
        Some(r) => r?,
    };
    // The rate must belong to the same block: before any second block starts.
    let block_end = stdout[after..].find("Total nodes:").map(|i| after + i).unwrap_or(stdout.len());
    let (nps, _) = match number_after(&stdout[..block_end], after, "Raw nodes per second:") {
        None => return Err("no \"Raw nodes per second:\" line after the first \"Total nodes:\"".to_string()),
        Some(r) => r?,
    };
    if nodes == 0.0 {
        return Err("\"Total nodes:\" is 0".to_string());
    }
    Ok(BenchFigures { nodes: nodes as u64, nps })
}

/// Whether Crafty's first totals block is complete (the run may stop).
pub fn crafty_first_block_done(stdout: &str) -> bool {
    parse_crafty(stdout).is_ok() && {
        let at = stdout.find("Raw nodes per second:").unwrap_or(0);
        stdout[at..].contains('\n')
    }
}

/// The stdin script that has Crafty search each of `fens` to `depth`
/// with a `hash_mb` MiB table, cleared before every position (`new`), as
/// our bench clears its own; no pondering, so one search per position.
pub fn crafty_positions_script(fens: &[&str], depth: u32, hash_mb: usize) -> String {
    let mut s = format!("ponder off\nhash {hash_mb}M\n");
    for fen in fens {
        s.push_str(&format!("new\nsetboard {fen}\nsd {depth}\ngo\n"));
    }
    s.push_str("quit\n");
    s
}

/// Crafty's summaries of a series of searches, summed.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CraftySearches {
    pub searches: usize,
    /// Sum of `n=`: every move made, searched or not.
    pub nodes: u64,
    /// Sum of `pruned=`: moves made and dropped by futility pruning;
    /// `None` when the summaries carry no such count (Crafty 23.4's do; a
    /// Crafty that prints none is reported by its own count only).
    pub pruned: Option<u64>,
    /// Most the printed `pruned` figures can be off in total: Crafty
    /// rounds them (`828K`, `3.1M`), each by up to half its last digit.
    pub pruned_rounding: u64,
    /// Sum of `time=` (Crafty's own search time, in hundredths of a second).
    pub time_s: f64,
}

impl CraftySearches {
    /// Nodes per second as Crafty counts nodes.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time_s
    }

    /// Moves made less the ones pruned unsearched: the positions searched.
    pub fn searched_nodes(&self) -> Option<u64> {
        self.pruned.map(|p| self.nodes.saturating_sub(p))
    }

    /// [`searched_nodes`](Self::searched_nodes) per second.
    pub fn searched_nps(&self) -> Option<f64> {
        self.searched_nodes().map(|n| n as f64 / self.time_s)
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
    let v: f64 = digits.parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
    let decimals = digits.split_once('.').map(|(_, d)| d.len() as i32).unwrap_or(0);
    let half_step = if unit == 1.0 { 0.0 } else { 0.5 * unit / 10f64.powi(decimals) };
    Some(((v * unit).round() as u64, half_step.round() as u64))
}

/// The value of `key=` among the whitespace-separated tokens of `line`.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace().find_map(|t| t.strip_prefix(key)?.strip_prefix('='))
}

/// A summary value without a parenthesised suffix (`3.75(97%)`, `n=123(0)`
/// in later Crafty versions).
fn bare(value: &str) -> &str {
    value.split('(').next().unwrap_or(value)
}

/// Sum Crafty's search summaries; there must be exactly `expected`, each
/// with its `pruned=` line.
pub fn parse_crafty_searches(stdout: &str, expected: usize) -> Result<CraftySearches, String> {
    let (mut searches, mut nodes, mut time_s) = (0usize, 0u64, 0.0f64);
    let (mut pruned, mut pruned_rounding, mut with_pruned) = (0u64, 0u64, 0usize);
    // Whether the latest summary has had its `pruned=` line.
    let mut pruned_seen = true;
    for line in stdout.lines() {
        if let (Some(t), Some(n)) = (field(line, "time"), field(line, "n")) {
            let time: f64 = bare(t)
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("search {}: \"time={t}\" is not a time in seconds", searches + 1))?;
            let n_nodes: u64 =
                bare(n).parse().map_err(|_| format!("search {}: \"n={n}\" is not a node count", searches + 1))?;
            searches += 1;
            nodes += n_nodes;
            time_s += time;
            pruned_seen = false;
        } else if let Some(p) = field(line, "pruned") {
            if pruned_seen {
                return Err(format!("a \"pruned={p}\" line with no search summary of its own before it"));
            }
            let (count, rounding) =
                crafty_count(p).ok_or_else(|| format!("search {searches}: \"pruned={p}\" is not a count"))?;
            pruned += count;
            pruned_rounding += rounding;
            with_pruned += 1;
            pruned_seen = true;
        }
    }
    if searches != expected {
        return Err(format!(
            "{searches} search summaries (\"time=... n=...\") for {expected} positions: a position was refused or a search cut short"
        ));
    }
    if with_pruned != 0 && with_pruned != searches {
        return Err(format!("{with_pruned} of {searches} search summaries have a \"pruned=\" count"));
    }
    if time_s <= 0.0 {
        return Err("the searches took 0.00 s in total by Crafty's clock: search deeper (--crafty-depth)".into());
    }
    if pruned > nodes {
        return Err(format!("{pruned} moves pruned of {nodes} made: the summaries do not add up"));
    }
    let pruned = (with_pruned > 0).then_some(pruned);
    Ok(CraftySearches { searches, nodes, pruned, pruned_rounding, time_s })
}

/// Stockfish `bench`: `Nodes searched  : N` and `Nodes/second    : N`, on
/// stderr (Stockfish 15.1); stdout is searched too for builds that print
/// them there.
pub fn parse_stockfish(stderr: &str, stdout: &str) -> Result<BenchFigures, String> {
    let one = |text: &str| -> Option<Result<BenchFigures, String>> {
        let (nodes, _) = match number_after(text, 0, "Nodes searched")? {
            Ok(x) => x,
            Err(_) => return Some(Err(malformed(text, "Nodes searched"))),
        };
        let nps = match number_after(text, 0, "Nodes/second") {
            None => return Some(Err("a \"Nodes searched\" line but no \"Nodes/second\" line".to_string())),
            Some(Err(_)) => return Some(Err(malformed(text, "Nodes/second"))),
            Some(Ok((v, _))) => v,
        };
        Some(if nodes == 0.0 {
            Err("\"Nodes searched\" is 0".to_string())
        } else {
            Ok(BenchFigures { nodes: nodes as u64, nps })
        })
    };
    one(stderr)
        .or_else(|| one(stdout))
        .unwrap_or_else(|| Err("no \"Nodes searched\" line on stderr or stdout".to_string()))
}

/// `Nodes searched  : N` has a colon between label and value.
fn malformed(text: &str, label: &str) -> String {
    let line = text.lines().find(|l| l.contains(label)).unwrap_or("").trim();
    format!("malformed {label:?} line: {line:?}")
}

/// Stockfish's summary lines are `Label : value`: skip a colon before the
/// value (Crafty's labels include theirs).
fn strip_colon(v: &str) -> &str {
    let t = v.trim();
    t.strip_prefix(':').unwrap_or(t).trim()
}

/// Our `engine bench`: the last non-empty line, `<nodes> nodes <nps> nps`.
pub fn parse_ours(stdout: &str) -> Result<BenchFigures, String> {
    let last = stdout.lines().rev().map(str::trim).find(|l| !l.is_empty()).ok_or("no output")?;
    let w: Vec<&str> = last.split_whitespace().collect();
    match w.as_slice() {
        [n, "nodes", r, "nps"] => match (n.parse::<u64>(), r.parse::<f64>()) {
            (Ok(nodes), Ok(nps)) if nodes > 0 && nps.is_finite() && nps >= 0.0 => Ok(BenchFigures { nodes, nps }),
            _ => Err(format!("last line {last:?}: bad numbers")),
        },
        _ => Err(format!("last line {last:?} is not \"<nodes> nodes <nps> nps\"")),
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

/// Parse the figures of a `kind` run.
/// `positions` is how many searches a [`EngineKind::CraftyPositions`] run
/// was given (the others ignore it); its summaries come back beside the
/// figures.
pub fn parse(
    kind: EngineKind,
    stdout: &str,
    stderr: &str,
    positions: usize,
) -> Result<(BenchFigures, Option<CraftySearches>), String> {
    match kind {
        EngineKind::Crafty => parse_crafty(stdout).map(|f| (f, None)),
        EngineKind::Stockfish => parse_stockfish(stderr, stdout).map(|f| (f, None)),
        EngineKind::Ours => parse_ours(stdout).map(|f| (f, None)),
        EngineKind::CraftyPositions => {
            parse_crafty_searches(stdout, positions).map(|s| (BenchFigures { nodes: s.nodes, nps: s.nps() }, Some(s)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRAFTY: &str = include_str!("../tests/fixtures/crafty-bench.txt");
    /// Debian's Crafty 23.4 (`scripts/fetch-crafty.sh`), captured here.
    const CRAFTY_23: &str = include_str!("../tests/fixtures/crafty-23.4-bench.txt");
    const STOCKFISH: &str = include_str!("../tests/fixtures/stockfish-bench-stderr.txt");

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
        assert!(parse_crafty("Total nodes: lots\nRaw nodes per second: 5\n").unwrap_err().contains("not a number"));
        assert!(parse_crafty("Total nodes: 10\nRaw nodes per second: fast\n").unwrap_err().contains("not a number"));
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
        assert!(parse_stockfish("Nodes searched  : x\nNodes/second : 3\n", "").unwrap_err().contains("malformed"));
        assert!(parse_stockfish("Nodes searched : 5\nNodes/second : ?\n", "").unwrap_err().contains("malformed"));
    }

    #[test]
    fn ours_last_line() {
        let out = "info\nnodes searched  : 100\n9233665 nodes 1428141 nps\n\n";
        assert_eq!(parse_ours(out).unwrap(), BenchFigures { nodes: 9_233_665, nps: 1_428_141.0 });
        assert!(parse_ours("").unwrap_err().contains("no output"));
        assert!(parse_ours("9233665 nodes\n").unwrap_err().contains("is not"));
        assert!(parse_ours("x nodes 5 nps\n").unwrap_err().contains("bad numbers"));
        assert!(parse_ours("0 nodes 5 nps\n").unwrap_err().contains("bad numbers"));
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
    const CRAFTY_23_POSITIONS: &str = include_str!("../tests/fixtures/crafty-23.4-positions.txt");

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
        assert_eq!((f.nodes, searches), (s.nodes, Some(s)));
        // A position Crafty refused (or a run cut short) leaves a search missing.
        assert!(parse_crafty_searches(CRAFTY_23_POSITIONS, 4).unwrap_err().contains("3 search summaries"));
        // The last search's pruned= line lost: the counts no longer agree.
        let cut = &CRAFTY_23_POSITIONS[..CRAFTY_23_POSITIONS.rfind("extensions=").unwrap()];
        assert!(parse_crafty_searches(cut, 3).unwrap_err().contains("2 of 3 search summaries have a \"pruned=\""));
    }

    #[test]
    fn crafty_summary_errors_name_the_field() {
        let ok = "time=1.50  mat=0  n=1000  fh=90%\nreduced=1K pruned=200\n";
        assert_eq!(parse_crafty_searches(ok, 1).unwrap().searched_nodes(), Some(800));
        // Summaries with a parenthesised share and no pruned= count (the
        // shape of later Crafty versions' lines): Crafty's own count only.
        let later = "time=2.00(97%)  n=5000(0)  fh1=91%  nps=2.5K\nchk=1K  qchk=2K  fp=300  mcp=100\n";
        let s = parse_crafty_searches(later, 1).unwrap();
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
    fn crafty_counts_and_their_rounding() {
        assert_eq!(crafty_count("548"), Some((548, 0)));
        assert_eq!(crafty_count("4K"), Some((4_000, 500)));
        assert_eq!(crafty_count("3.1M"), Some((3_100_000, 50_000)));
        assert_eq!(crafty_count("2B"), Some((2_000_000_000, 500_000_000)));
        assert_eq!(crafty_count("K"), None);
        assert_eq!(crafty_count("-3"), None);
        assert_eq!(crafty_count(""), None);
    }

    #[test]
    fn crafty_positions_script_searches_each_position_once() {
        let s = crafty_positions_script(&["8/8/8/8/8/8/8/K6k w - - 0 1", "k7/8/8/8/8/8/8/7K b - - 0 1"], 12, 16);
        assert!(s.starts_with("ponder off\nhash 16M\n") && s.ends_with("go\nquit\n"), "{s}");
        assert_eq!(s.matches("new\nsetboard ").count(), 2);
        assert_eq!(s.matches("sd 12\ngo\n").count(), 2);
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
