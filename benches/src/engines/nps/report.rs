//! What `boardbench nps` reports: the JSON document (`boardbench.nps/1`)
//! with every run of every engine, the ours/theirs ratios paired by round,
//! the table printed after a run and the bar plot.

use crate::engines::baseline_engine::{self, CraftySearches, EngineKind};
use crate::measure::stats::{self, Ratio};
use crate::suite::plot::{self, Bar};
use engine::search::ProfileKind;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub const SCHEMA: &str = "boardbench.nps/1";

/// A run whose CPU time is below this share of its wall time had its core
/// taken by something else part of the time: flagged in the table.
pub const DISTURBED_SHARE: f64 = 0.9;

/// One engine as run: how, and every run's result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EngineReport {
    /// "ours bitboard", "stockfish", "crafty".
    pub label: String,
    pub kind: EngineKind,
    /// A run of the `--base-engine` build (labelled `base P`), compared
    /// with the same profile of our engine, and with nothing else.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub base: bool,
    pub program: String,
    pub args: Vec<String>,
    /// What was written to stdin, if anything (for a run of several
    /// processes, their scripts one after another: each ends with `quit`).
    pub stdin: Option<String>,
    /// How Crafty was brought back to a clean state between our positions
    /// (`crafty-positions` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crafty_reset: Option<baseline_engine::CraftyReset>,
    /// The line of its output kept for the record: its version banner, or
    /// for our engine how much memory it had on huge pages.
    pub banner: Option<String>,
    pub runs: Vec<RunRecord>,
    pub nps: Spread,
    /// [`RunRecord::searched_nps`] over the runs, for an engine whose node
    /// count includes moves it did not search and says how many
    /// (`crafty-positions`, ours).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub searched_nps: Option<Spread>,
    /// Whether every run searched the same number of nodes (all three
    /// benches are deterministic at fixed depth with one thread).
    pub nodes_consistent: bool,
}

/// One run of one engine.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunRecord {
    pub round: usize,
    /// Position of this run inside its round (0 = first).
    pub slot: usize,
    pub nodes: u64,
    pub nps: f64,
    pub wall_s: f64,
    pub user_s: f64,
    pub system_s: f64,
    /// (user + system) / wall.
    pub cpu_share: f64,
    pub load_before: Option<[f64; 3]>,
    pub load_after: Option<[f64; 3]>,
    /// "exited 0", or "stopped after the first totals block" (Crafty).
    pub ending: String,
    /// Crafty's search summaries, summed (`crafty-positions` runs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crafty: Option<CraftySearches>,
    /// Of `nodes`, the moves our engine pruned unsearched (its
    /// bench's `pruned` line; our runs only, where the engine prints it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pruned: Option<u64>,
}

impl RunRecord {
    /// NPS counting only the positions searched: moves made less the ones
    /// pruned unsearched, where the engine says how many (Crafty's search
    /// summaries, our bench's `pruned` line); any other engine's own NPS.
    pub fn searched_nps(&self) -> f64 {
        if let Some(c) = self.crafty {
            return c.searched_nps().unwrap_or(self.nps);
        }
        match self.pruned {
            Some(p) if self.nodes > 0 => self.nps * self.nodes.saturating_sub(p) as f64 / self.nodes as f64,
            _ => self.nps,
        }
    }

    /// Whether the engine said how many of its nodes were pruned unsearched.
    pub fn counts_pruned(&self) -> bool {
        self.pruned.is_some() || self.crafty.is_some_and(|c| c.pruned.is_some())
    }
}

/// Median, min and max of a set of values.
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(v: &[f64]) -> Spread {
        Spread {
            median: stats::median(v),
            min: v.iter().copied().fold(f64::INFINITY, f64::min),
            max: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// Ours over theirs.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NpsRatio {
    pub ours: String,
    pub theirs: String,
    /// Median over rounds of the per-round NPS ratio, bootstrap 95% interval.
    pub ratio: Ratio,
    pub per_round: Vec<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NpsMetadata {
    pub boardbench_version: String,
    pub git_commit: Option<String>,
    pub git_dirty: Option<bool>,
    pub cpu_model: Option<String>,
    pub cpus: usize,
    pub core: Option<usize>,
    pub realtime: bool,
    pub date: String,
    pub duration_s: f64,
    pub load_average_start: Option<[f64; 3]>,
    pub load_average_end: Option<[f64; 3]>,
    pub command_line: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NpsReport {
    pub schema: String,
    pub metadata: NpsMetadata,
    pub runs: usize,
    pub engines: Vec<EngineReport>,
    pub ratios: Vec<NpsRatio>,
    /// Plot files, relative to the JSON's directory.
    pub plots: Vec<String>,
}

/// Every ours/theirs pair (against an engine that counts moves it did not
/// search, also searched positions against searched positions: ours less
/// our pruned moves where our bench counts them), then each of our other
/// profiles over our mailbox profile (the migration's own speed-up; the
/// two prune the same moves), all paired by round.
pub fn ratios(engines: &[EngineReport]) -> Vec<NpsRatio> {
    let ours = || engines.iter().filter(|e| e.kind == EngineKind::Ours && !e.base);
    let mailbox_label = format!("ours {}", ProfileKind::Mailbox.name());
    // (ours, theirs, theirs counted by searched positions only)
    let mut pairs: Vec<(&EngineReport, &EngineReport, bool)> = Vec::new();
    for o in ours() {
        for t in engines.iter().filter(|e| e.kind != EngineKind::Ours) {
            pairs.push((o, t, false));
            if t.searched_nps.is_some() {
                pairs.push((o, t, true));
            }
        }
    }
    if let Some(mailbox) = ours().find(|e| e.label == mailbox_label) {
        pairs.extend(ours().filter(|o| o.label != mailbox_label).map(|o| (o, mailbox, false)));
    }
    // Each profile over the same profile of the other build (the same
    // bench arguments).
    for o in ours() {
        if let Some(b) = engines.iter().find(|e| e.base && e.args == o.args) {
            pairs.push((o, b, false));
            if o.searched_nps.is_some() && b.searched_nps.is_some() {
                pairs.push((o, b, true));
            }
        }
    }
    pairs
        .into_iter()
        .map(|(o, t, searched)| {
            let nps = |r: &RunRecord| if searched { r.searched_nps() } else { r.nps };
            let ours: Vec<f64> = o.runs.iter().map(nps).collect();
            let theirs: Vec<f64> = t.runs.iter().map(nps).collect();
            let per_round: Vec<f64> = ours.iter().zip(&theirs).map(|(a, b)| a / b).collect();
            NpsRatio {
                ours: if searched && o.searched_nps.is_some() {
                    format!("{} searched", o.label)
                } else {
                    o.label.clone()
                },
                theirs: if searched { format!("{} searched", t.label) } else { t.label.clone() },
                ratio: stats::paired_ratio(&theirs, &ours),
                per_round,
            }
        })
        .collect()
}

/// The bar plot of a report: median NPS per engine, min..max whiskers.
pub fn plot_nps(stem: &Path, r: &NpsReport) -> Result<Vec<PathBuf>, String> {
    let mut groups: Vec<String> = Vec::new();
    let mut bars: Vec<Vec<Bar>> = Vec::new();
    for e in &r.engines {
        groups.push(e.label.clone());
        bars.push(vec![Bar { value: e.nps.median, interval: [e.nps.min, e.nps.max] }]);
        if let Some(n) = &e.searched_nps {
            groups.push(format!("{} searched", e.label));
            bars.push(vec![Bar { value: n.median, interval: [n.min, n.max] }]);
        }
    }
    plot::bucket_bars(
        stem,
        &format!("bench nodes per second, {} runs each on one pinned core (median; whiskers min..max)", r.runs),
        "nodes per second",
        &groups,
        &["median NPS".to_string()],
        &bars,
    )
}

/// `1428141.4` as `1,428,141`.
pub(crate) fn thousands(v: f64) -> String {
    let s = format!("{:.0}", v);
    let (sign, digits) = s.strip_prefix('-').map(|d| ("-", d)).unwrap_or(("", &s));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

/// The table printed after a run.
pub fn table(r: &NpsReport) -> String {
    let mut s = String::new();
    let m = &r.metadata;
    let _ = writeln!(
        s,
        "bench NPS, {} run(s) per engine, interleaved by round; core {}{}; load {} -> {}",
        r.runs,
        m.core.map(|c| c.to_string()).unwrap_or_else(|| "any (not pinned)".into()),
        if m.realtime { ", real-time" } else { "" },
        m.load_average_start.map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into()),
        m.load_average_end.map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into()),
    );
    let label_width = r.engines.iter().map(|e| e.label.len()).max().unwrap_or(0).max(18);
    let _ = writeln!(
        s,
        "  {:<label_width$} {:>12} {:>12} {:>12} {:>12} {:>9} {:>9}",
        "engine", "nodes", "median nps", "min nps", "max nps", "cpu/wall", "disturbed"
    );
    for e in &r.engines {
        let shares: Vec<f64> = e.runs.iter().map(|x| x.cpu_share).collect();
        let disturbed = shares.iter().filter(|&&c| c < DISTURBED_SHARE).count();
        let nodes = e.runs.first().map(|x| x.nodes).unwrap_or(0);
        let _ = writeln!(
            s,
            "  {:<label_width$} {:>12}{} {:>12} {:>12} {:>12} {:>9.2} {:>9}",
            e.label,
            thousands(nodes as f64),
            if e.nodes_consistent { " " } else { "*" },
            thousands(e.nps.median),
            thousands(e.nps.min),
            thousands(e.nps.max),
            stats::median(&shares),
            format!("{disturbed}/{}", e.runs.len()),
        );
    }
    if r.engines.iter().any(|e| !e.nodes_consistent) {
        let _ = writeln!(s, "  * node counts differed between runs of this engine");
    }
    // Ours: only the huge-page line (an older engine has none, and its
    // first line says nothing).
    let worth_showing =
        |e: &EngineReport, b: &str| e.kind != EngineKind::Ours || b.starts_with(baseline_engine::HUGE_PAGES_LABEL);
    for e in &r.engines {
        if let Some(b) = e.banner.as_deref().filter(|b| worth_showing(e, b)) {
            let _ = writeln!(s, "  {}: {b}", e.label);
        }
    }
    for e in &r.engines {
        let (Some(first), Some(searched)) = (e.runs.first(), &e.searched_nps) else {
            continue;
        };
        if let (Some(pruned), EngineKind::Ours) = (first.pruned, e.kind) {
            let _ = writeln!(
                s,
                "  {}: {:.1}% of the nodes it counts are moves it pruned unsearched (nodes as Crafty \
                 counts them); counting searched positions only: median {} nps",
                e.label,
                100.0 * pruned as f64 / first.nodes.max(1) as f64,
                thousands(searched.median),
            );
        }
    }
    for e in &r.engines {
        let Some(c) = e.runs.first().and_then(|x| x.crafty) else {
            continue;
        };
        let reset = e.crafty_reset.map(|r| format!(" ({})", r.describe())).unwrap_or_default();
        let _ = match (c.pruned, &e.searched_nps) {
            (Some(pruned), Some(searched)) => writeln!(
                s,
                "  {}: Crafty's fixed-depth searches of our {} bench positions{reset}; {:.1}% of the nodes it \
                 counts are moves it pruned unsearched (its {} counts, as Crafty rounds them: \
                 {} ±{}); counting searched positions only: median {} nps",
                e.label,
                c.searches,
                100.0 * pruned as f64 / c.nodes as f64,
                c.pruned_fields(),
                thousands(pruned as f64),
                thousands(c.pruned_rounding as f64),
                thousands(searched.median),
            ),
            _ => writeln!(
                s,
                "  {}: Crafty's fixed-depth searches of our {} bench positions{reset}; its summaries carry no \
                 pruned count (\"pruned=\", or \"fp=\" and \"mcp=\"), so only its own node count is reported",
                e.label, c.searches,
            ),
        };
    }
    let _ = writeln!(s, "ours / theirs NPS (median of per-round ratios, 95% bootstrap interval over rounds)");
    let width = r.ratios.iter().map(|x| x.theirs.len()).max().unwrap_or(0).max(12);
    let ours_width = r.ratios.iter().map(|x| x.ours.len()).max().unwrap_or(0).max(18);
    for x in &r.ratios {
        let _ = writeln!(
            s,
            "  {:<ours_width$} / {:<width$} {:.3} [{:.3}, {:.3}]",
            x.ours, x.theirs, x.ratio.estimate, x.ratio.interval[0], x.ratio.interval[1]
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eng(label: &str, kind: EngineKind, nps: &[f64]) -> EngineReport {
        EngineReport {
            label: label.into(),
            kind,
            base: false,
            program: "x".into(),
            args: vec![],
            stdin: None,
            crafty_reset: None,
            banner: None,
            runs: nps
                .iter()
                .enumerate()
                .map(|(i, &n)| RunRecord {
                    round: i,
                    slot: 0,
                    nodes: 100,
                    nps: n,
                    wall_s: 1.0,
                    user_s: 0.95,
                    system_s: 0.0,
                    cpu_share: if i == 0 { 0.5 } else { 0.95 },
                    load_before: None,
                    load_after: None,
                    ending: "exited 0".into(),
                    crafty: None,
                    pruned: None,
                })
                .collect(),
            nps: Spread::of(nps),
            searched_nps: None,
            nodes_consistent: true,
        }
    }

    /// A report around `engines` and their `ratios`, with fixed metadata
    /// (core 1, load 1.00 at the start), for the table tests.
    fn report(engines: Vec<EngineReport>, ratios: Vec<NpsRatio>, runs: usize) -> NpsReport {
        NpsReport {
            schema: SCHEMA.into(),
            metadata: NpsMetadata {
                boardbench_version: "0".into(),
                git_commit: None,
                git_dirty: None,
                cpu_model: None,
                cpus: 2,
                core: Some(1),
                realtime: false,
                date: "d".into(),
                duration_s: 1.0,
                load_average_start: Some([1.0, 1.0, 1.0]),
                load_average_end: None,
                command_line: vec![],
            },
            runs,
            engines,
            ratios,
            plots: vec![],
        }
    }

    #[test]
    fn ratios_pair_by_round() {
        // Load doubles in round 2 for both: the per-round ratio stays 2.
        let engines = vec![
            eng("ours bitboard", EngineKind::Ours, &[200.0, 100.0, 200.0]),
            eng("stockfish", EngineKind::Stockfish, &[100.0, 50.0, 100.0]),
            eng("crafty", EngineKind::Crafty, &[400.0, 200.0, 400.0]),
        ];
        let r = ratios(&engines);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].theirs, "stockfish");
        assert_eq!(r[0].per_round, vec![2.0, 2.0, 2.0]);
        assert_eq!(r[0].ratio.estimate, 2.0);
        assert_eq!(r[0].ratio.interval, [2.0, 2.0]);
        assert_eq!(r[1].ratio.estimate, 0.5);
        assert_eq!(Spread::of(&[3.0, 1.0, 2.0]), Spread { median: 2.0, min: 1.0, max: 3.0 });
        let rep = report(engines, r, 3);
        let t = table(&rep);
        assert!(t.contains("ours bitboard") && t.contains("1/3"), "{t}");
        assert!(t.contains("/ stockfish    2.000 [2.000, 2.000]"), "{t}");
    }

    #[test]
    fn profiles_pair_with_mailbox_by_round() {
        // No reference engine: each profile over the mailbox profile, round
        // by round, so a slow round for everyone leaves the ratio alone.
        let engines = vec![
            eng("ours mailbox", EngineKind::Ours, &[100.0, 50.0, 100.0, 100.0]),
            eng("ours bitboard", EngineKind::Ours, &[200.0, 100.0, 210.0, 190.0]),
            eng("ours single-probe", EngineKind::Ours, &[300.0, 150.0, 300.0, 300.0]),
        ];
        let r = ratios(&engines);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].ours.as_str(), r[0].theirs.as_str()), ("ours bitboard", "ours mailbox"));
        assert_eq!(r[0].per_round, vec![2.0, 2.0, 2.1, 1.9]);
        assert_eq!(r[0].ratio.estimate, 2.0);
        assert_eq!(r[1].per_round, vec![3.0; 4]);
        // Without the mailbox profile there is nothing to pair.
        assert!(ratios(&engines[1..]).is_empty());
    }

    #[test]
    fn each_profile_pairs_with_the_same_profile_of_the_base_build() {
        let with_args = |mut e: EngineReport, profile: &str, base: bool| {
            e.args = vec!["bench".into(), "--profile".into(), profile.into()];
            e.base = base;
            e
        };
        let engines = vec![
            with_args(eng("base mailbox", EngineKind::Ours, &[100.0, 50.0]), "mailbox", true),
            with_args(eng("ours mailbox", EngineKind::Ours, &[100.0, 50.0]), "mailbox", false),
            with_args(eng("base bitboard", EngineKind::Ours, &[200.0, 100.0]), "bitboard", true),
            with_args(eng("ours bitboard", EngineKind::Ours, &[250.0, 125.0]), "bitboard", false),
            eng("stockfish", EngineKind::Stockfish, &[100.0, 50.0]),
        ];
        let r = ratios(&engines);
        let pairs: Vec<(&str, &str)> = r.iter().map(|x| (x.ours.as_str(), x.theirs.as_str())).collect();
        // The base build is compared with its twin profile only.
        assert_eq!(
            pairs,
            [
                ("ours mailbox", "stockfish"),
                ("ours bitboard", "stockfish"),
                ("ours bitboard", "ours mailbox"),
                ("ours mailbox", "base mailbox"),
                ("ours bitboard", "base bitboard"),
            ]
        );
        assert_eq!(r[4].per_round, vec![1.25, 1.25]);
        assert_eq!(r[3].ratio.estimate, 1.0);
        let json = serde_json::to_value(&engines[0]).unwrap();
        assert_eq!(json["base"], true);
        assert!(serde_json::to_value(&engines[1]).unwrap().get("base").is_none(), "left out when false");
    }

    #[test]
    fn crafty_positions_pair_twice() {
        // Crafty counts 1,000 nodes a run of which 250 were pruned unsearched
        // (a quarter): against its searched positions our ratio is 4/3 of
        // the ratio against its own count, round by round.
        let mut crafty = eng("crafty-positions", EngineKind::CraftyPositions, &[400.0, 200.0]);
        for (r, time_s) in crafty.runs.iter_mut().zip([2.5, 5.0]) {
            r.crafty = Some(CraftySearches {
                searches: 20,
                nodes: 1_000,
                pruned: Some(250),
                pruned_rounding: 500,
                time_s,
                ..Default::default()
            });
        }
        crafty.searched_nps = Some(Spread::of(&crafty.runs.iter().map(RunRecord::searched_nps).collect::<Vec<_>>()));
        let engines = vec![eng("ours bitboard", EngineKind::Ours, &[300.0, 150.0]), crafty];
        let r = ratios(&engines);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].theirs, "crafty-positions");
        assert_eq!(r[0].per_round, vec![0.75, 0.75]);
        assert_eq!(r[1].theirs, "crafty-positions searched");
        assert_eq!(r[1].per_round, vec![1.0, 1.0]);
        // Other engines' searched NPS is their own NPS.
        assert_eq!(engines[0].runs[0].searched_nps(), 300.0);
        assert_eq!(engines[1].searched_nps.unwrap().median, 225.0);
        // A Crafty whose summaries count no pruned moves: its own count only.
        let mut crafty = engines[1].clone();
        for r in &mut crafty.runs {
            r.crafty = r.crafty.map(|c| CraftySearches { pruned: None, ..c });
            assert_eq!(r.searched_nps(), r.nps);
        }
        crafty.searched_nps = None;
        let engines = vec![engines[0].clone(), crafty];
        let r = ratios(&engines);
        assert_eq!(r.iter().map(|x| x.theirs.as_str()).collect::<Vec<_>>(), ["crafty-positions"]);
        let rep = report(engines, r, 2);
        let t = table(&rep);
        assert!(t.contains("its summaries carry no pruned count"), "{t}");
    }

    #[test]
    fn our_pruned_moves_leave_the_searched_pair_too() {
        // Ours counts 100 nodes a run of which 40 were pruned unsearched;
        // Crafty 1,000 of which 250: searched against searched compares
        // 60% of our rate with 75% of Crafty's.
        let mut ours = eng("ours bitboard", EngineKind::Ours, &[300.0, 150.0]);
        for r in &mut ours.runs {
            r.pruned = Some(40);
        }
        ours.searched_nps = Some(Spread::of(&ours.runs.iter().map(RunRecord::searched_nps).collect::<Vec<_>>()));
        let mut crafty = eng("crafty-positions", EngineKind::CraftyPositions, &[400.0, 200.0]);
        for (r, time_s) in crafty.runs.iter_mut().zip([2.5, 5.0]) {
            r.crafty = Some(CraftySearches {
                searches: 20,
                nodes: 1_000,
                pruned: Some(250),
                pruned_rounding: 500,
                time_s,
                ..Default::default()
            });
        }
        crafty.searched_nps = Some(Spread::of(&crafty.runs.iter().map(RunRecord::searched_nps).collect::<Vec<_>>()));
        let mut mailbox = eng("ours mailbox", EngineKind::Ours, &[100.0, 50.0]);
        for r in &mut mailbox.runs {
            r.pruned = Some(40);
        }
        let engines = vec![ours, mailbox, crafty];
        assert_eq!(engines[0].runs[0].searched_nps(), 180.0);
        let r = ratios(&engines);
        let pairs: Vec<(&str, &str)> = r.iter().map(|x| (x.ours.as_str(), x.theirs.as_str())).collect();
        assert!(pairs.contains(&("ours bitboard searched", "crafty-positions searched")), "{pairs:?}");
        let searched = r.iter().find(|x| x.ours == "ours bitboard searched").unwrap();
        assert_eq!(searched.per_round, vec![0.6, 0.6]);
        let counted = r.iter().find(|x| x.ours == "ours bitboard" && x.theirs == "crafty-positions").unwrap();
        assert_eq!(counted.per_round, vec![0.75, 0.75]);
        // Bitboard over mailbox: counted against counted.
        let migration = r.iter().find(|x| x.theirs == "ours mailbox").unwrap();
        assert_eq!(migration.per_round, vec![3.0, 3.0]);
        let rep = report(engines, r, 2);
        let t = table(&rep);
        assert!(t.contains("ours bitboard: 40.0% of the nodes it counts are moves it pruned"), "{t}");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(1_428_141.4), "1,428,141");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(1000.0), "1,000");
    }
}
