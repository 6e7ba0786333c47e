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
}

impl EngineKind {
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Crafty => "crafty",
            EngineKind::Stockfish => "stockfish",
            EngineKind::Ours => "ours",
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

/// The first non-empty line of output: the engine's banner, for the record.
pub fn banner(stdout: &str, stderr: &str) -> Option<String> {
    let lines = || stdout.lines().chain(stderr.lines()).map(str::trim);
    // The line that names the engine (Crafty 23.4 first says "Machine is
    // NUMA, ..."), else the first line with anything on it.
    lines()
        .find(|l| l.starts_with("Crafty v") || l.starts_with("Stockfish "))
        .or_else(|| lines().find(|l| !l.is_empty()))
        .map(|l| l.chars().take(120).collect())
}

/// Parse the figures of a `kind` run.
pub fn parse(kind: EngineKind, stdout: &str, stderr: &str) -> Result<BenchFigures, String> {
    match kind {
        EngineKind::Crafty => parse_crafty(stdout),
        EngineKind::Stockfish => parse_stockfish(stderr, stdout),
        EngineKind::Ours => parse_ours(stdout),
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

    #[test]
    fn banners() {
        assert_eq!(banner("\nCrafty v25.2\n", "").as_deref(), Some("Crafty v25.2"));
        assert_eq!(banner("Machine is NUMA\nCrafty v23.4 (1 cpus)\n", "").as_deref(), Some("Crafty v23.4 (1 cpus)"));
        assert_eq!(banner("", "Stockfish 15.1\n").as_deref(), Some("Stockfish 15.1"));
        assert_eq!(banner("", ""), None);
    }
}
