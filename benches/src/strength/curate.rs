//! Choosing the three curated suites from the shipped test suites by a
//! fixed rule, so that `boardbench reference curate` writes the same files
//! on every machine (searches to a fixed depth, counted in nodes, not time).
//!
//! Every position of the source files (`wac`, `ecm`, `bk`, `arasan2024`:
//! the `bm`/`am` tactical suites; STS is left out, its `bm` is one of
//! several scored moves) is searched by each curating profile to the depth
//! (default 10), the transposition table cleared first, with a node cap
//! (default 1,000,000). A position is *quick* when every profile completes
//! the depth within the cap. For each profile its *solve depth* is the
//! first iteration from which the best move solves the position at every
//! iteration up to the depth (none if it does not solve it at the depth).
//!
//! * ringers: quick, and every profile's solve depth is at most 3: what any
//!   working build solves at once; one lost is a bug, not a tuning effect.
//! * confident quick: quick, every profile's solve depth at most 8 and at
//!   least one's above 3: solved by real search, with two iterations or more
//!   to spare before the fixed depth.
//! * hard quick: quick, some profile's best move solves it at some
//!   iteration, but not confidently (some profile's solve depth is 9, 10 or
//!   none): the positions at the edge, where a change in the search or the
//!   evaluation shows as gains and losses.
//!
//! Each suite keeps at most its cap of positions (50, 100, 100), the first
//! by the FNV-1a hash of the FEN (an order unrelated to the source files),
//! and lists them in source order, each line exactly as in its source.
//!
//! The curating profiles are `bitboard` and `single-probe`, one per
//! distinct tree: `mailbox` and the swapped profiles search `bitboard`'s
//! trees (the engine's tests check that node for node).

use super::reference::fnv1a64;
use engine::search::{Limits, ProfileKind, DEFAULT_HASH_MB};
use engine::tools::suite::SuitePosition;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Source files, under positions/.
pub const SOURCES: [&str; 4] = ["wac.epd", "ecm.epd", "bk.epd", "arasan2024.epd"];
/// The curating profiles.
pub const PROFILES: [ProfileKind; 2] = [ProfileKind::Bitboard, ProfileKind::SingleProbe];
pub const DEFAULT_NODE_CAP: u64 = 1_000_000;
/// Most positions per suite: ringers, confident quick, hard quick.
pub const CAPS: [usize; 3] = [50, 100, 100];
/// Deepest solve depth of a ringer, and of a confident position.
const RINGER_DEPTH: u32 = 3;
const CONFIDENT_DEPTH: u32 = 8;

/// What one profile's search of one position showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Completed the depth within the node cap.
    pub complete: bool,
    /// Whether each completed iteration's best move solves it (index 0: depth 1).
    pub solved_at: Vec<bool>,
}

impl Probe {
    /// The first iteration from which every completed one up to the depth
    /// solves the position; `None` if the last does not.
    pub fn solve_depth(&self) -> Option<u32> {
        if !self.complete || self.solved_at.last() != Some(&true) {
            return None;
        }
        let unsolved_tail = self.solved_at.iter().rposition(|s| !s);
        Some(unsolved_tail.map_or(1, |i| i as u32 + 2))
    }

    fn ever_solved(&self) -> bool {
        self.solved_at.iter().any(|&s| s)
    }
}

/// Which suite a position belongs to, if any, from every profile's probe.
pub fn classify(probes: &[Probe]) -> Option<usize> {
    if probes.is_empty() || !probes.iter().all(|p| p.complete) {
        return None;
    }
    let depths: Vec<Option<u32>> = probes.iter().map(Probe::solve_depth).collect();
    let all_within = |d: u32| depths.iter().all(|s| s.is_some_and(|s| s <= d));
    if all_within(RINGER_DEPTH) {
        Some(0)
    } else if all_within(CONFIDENT_DEPTH) {
        Some(1)
    } else if probes.iter().any(Probe::ever_solved) {
        Some(2)
    } else {
        None
    }
}

/// Search `position` with `engine` to `depth`, at most `node_cap` nodes.
fn probe(engine: &mut dyn engine::uci::Engine, position: &SuitePosition, depth: u32, node_cap: u64) -> Probe {
    engine.clear();
    let mut pos = position.position.clone();
    let limits = Limits { depth: Some(depth), nodes: Some(node_cap), ..Limits::default() };
    let mut solved_at = Vec::new();
    let result = engine.go(&mut pos, &limits, &mut |info| {
        // One report per completed iteration (a stopped search adds one
        // more for the same depth: not an iteration).
        if info.depth as usize == solved_at.len() + 1 {
            solved_at.push(info.pv.first().is_some_and(|&m| position.is_solved_by(m)));
        }
    });
    solved_at.truncate(result.depth as usize);
    Probe { complete: result.depth == depth, solved_at }
}

/// One source line chosen for a suite.
struct Chosen {
    source: usize,
    line: usize,
    text: String,
    key: u64,
}

/// Curate: search every source position with every profile and write the
/// three suite files into `out_dir`. Returns a summary for people.
pub fn curate(positions_dir: &Path, out_dir: &Path, depth: u32, node_cap: u64, quiet: bool) -> Result<String, String> {
    let mut engines: Vec<Box<dyn engine::uci::Engine>> =
        PROFILES.iter().map(|&k| engine::uci::new_engine(k, DEFAULT_HASH_MB)).collect();
    let mut chosen: [Vec<Chosen>; 3] = Default::default();
    let mut summary = String::new();
    for (source, file) in SOURCES.iter().enumerate() {
        let path = positions_dir.join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let started = std::time::Instant::now();
        let mut counts = [0usize; 4];
        let mut index = 0;
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let epd =
                engine::position::epd::Epd::parse(trimmed).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
            let position = SuitePosition::from_epd(&epd, index, &path).map_err(|e| e.to_string())?;
            index += 1;
            let probes: Vec<Probe> =
                engines.iter_mut().map(|e| probe(e.as_mut(), &position, depth, node_cap)).collect();
            let class = classify(&probes);
            counts[class.unwrap_or(3)] += 1;
            if let Some(c) = class {
                let key = fnv1a64(position.position.to_fen().as_bytes());
                chosen[c].push(Chosen { source, line: i + 1, text: trimmed.to_string(), key });
            }
        }
        let line = format!(
            "{file}: {} positions: ringers {}, confident quick {}, hard quick {}, none {} ({:.0} s)",
            counts.iter().sum::<usize>(),
            counts[0],
            counts[1],
            counts[2],
            counts[3],
            started.elapsed().as_secs_f64()
        );
        if !quiet {
            eprintln!("{line}");
        }
        summary.push_str(&line);
        summary.push('\n');
    }
    let names = ["ringers", "confident_quick", "hard_quick"];
    let rules = [
        format!("every curating profile solves it by depth {RINGER_DEPTH} and at every depth after"),
        format!("every profile solves it by depth {CONFIDENT_DEPTH} and after; some profile only after depth {RINGER_DEPTH}"),
        format!("some profile's best move solves it at some depth, but not every profile by depth {CONFIDENT_DEPTH}"),
    ];
    let profiles: Vec<String> = PROFILES.iter().map(ToString::to_string).collect();
    for (c, list) in chosen.iter_mut().enumerate() {
        let candidates = list.len();
        list.sort_by_key(|x| x.key);
        list.truncate(CAPS[c]);
        list.sort_by_key(|x| (x.source, x.line));
        let mut text = String::new();
        let _ = writeln!(text, "# {}: {}.", names[c].replace('_', " "), rules[c]);
        let _ = writeln!(
            text,
            "# Quick: depth {depth} completes within {node_cap} nodes for each of {} (hash {DEFAULT_HASH_MB} MiB, cleared per position).",
            profiles.join(", ")
        );
        let _ = writeln!(
            text,
            "# From {}: {} candidates, the first {} by FNV-1a of the FEN, in source order; lines as in the sources.",
            SOURCES.join(", "),
            candidates,
            list.len()
        );
        let _ = writeln!(
            text,
            "# Regenerate (deterministic): cargo run --release -p boardbench -- reference curate --depth {depth} --node-cap {node_cap}"
        );
        for x in list.iter() {
            text.push_str(&x.text);
            text.push('\n');
        }
        let path: PathBuf = out_dir.join(format!("{}.epd", names[c]));
        crate::output::write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())?;
        let line = format!("wrote {} ({} positions of {candidates} candidates)", path.display(), list.len());
        summary.push_str(&line);
        summary.push('\n');
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(solved_at: &[u8]) -> Probe {
        Probe { complete: true, solved_at: solved_at.iter().map(|&s| s == 1).collect() }
    }

    #[test]
    fn solve_depth_is_where_the_solution_stays() {
        assert_eq!(p(&[1, 1, 1, 1]).solve_depth(), Some(1));
        assert_eq!(p(&[0, 0, 1, 1]).solve_depth(), Some(3));
        assert_eq!(p(&[1, 0, 1, 1]).solve_depth(), Some(3));
        assert_eq!(p(&[1, 1, 1, 0]).solve_depth(), None);
        assert_eq!(Probe { complete: false, solved_at: vec![true; 9] }.solve_depth(), None);
    }

    #[test]
    fn probing_a_position() {
        // WAC.001 (bm Qg6): the bitboard profile plays other moves at depths
        // 1-3 and Qg6 from depth 4 (deterministic: node counts, not time).
        let epd = engine::position::epd::Epd::parse(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
        )
        .unwrap();
        let position = SuitePosition::from_epd(&epd, 0, Path::new("wac.epd")).unwrap();
        let mut e = engine::uci::new_engine(ProfileKind::Bitboard, 1);
        let p = probe(e.as_mut(), &position, 4, 1_000_000);
        assert_eq!((p.complete, p.solved_at.len(), p.solve_depth()), (true, 4, Some(4)), "{p:?}");
        assert_eq!(p.solved_at, [false, false, false, true]);
        // A cap far below depth 4's tree: not complete, so not quick.
        let p = probe(e.as_mut(), &position, 4, 50);
        assert!(!p.complete && p.solved_at.len() < 4 && p.solve_depth().is_none(), "{p:?}");
        assert_eq!(classify(&[p]), None);
    }

    #[test]
    fn classes() {
        let ten = |first: usize| {
            let mut v = vec![0u8; 10];
            v[first - 1..].fill(1);
            p(&v)
        };
        assert_eq!(classify(&[ten(1), ten(3)]), Some(0), "both by depth 3: ringer");
        assert_eq!(classify(&[ten(2), ten(4)]), Some(1), "one needs depth 4: confident");
        assert_eq!(classify(&[ten(8), ten(8)]), Some(1));
        assert_eq!(classify(&[ten(2), ten(9)]), Some(2), "one needs depth 9: hard");
        assert_eq!(classify(&[ten(2), p(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 0])]), Some(2), "lost at depth 10: hard");
        assert_eq!(classify(&[p(&[0; 10]), p(&[0; 10])]), None, "never solved");
        let slow = Probe { complete: false, solved_at: vec![true; 9] };
        assert_eq!(classify(&[ten(1), slow]), None, "not quick");
    }
}
