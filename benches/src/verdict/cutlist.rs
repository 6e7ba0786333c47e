//! `boardbench cutlist`: is each term the plans list as a cut candidate
//! worth what it costs? For every candidate (the three the plans name —
//! the max-mobility-in-a-row bonus, the bishop's transient-pawn credit,
//! the walk past a battery partner — see
//! [`engine::eval::mobility::cuts`], and any DNA term given with
//! `--term`), with the candidate cut from the bitboard profile's
//! evaluation:
//!
//! * **evals changed**: the share of the density buckets' real positions
//!   whose static evaluation changes, and by how much on average;
//! * **ticks saved** per evaluation, per density bucket, with its 95%
//!   interval: whole-evaluation floors, cut against uncut
//!   ([`super::cut_cost`]; no ablation variant isolates one of these
//!   terms), measured twice, the two evaluators built in either order
//!   (where their tables land in memory moved the same work by up to 1%
//!   here): the saving is the mean of the two orders and its interval the
//!   hull of theirs. Zeroing a DNA weight changes the score but not the work: it
//!   saves nothing, and the table says so (a saving needs the code path
//!   skipped, a build-time switch like the named cuts');
//! * **suites**: the change in positions solved by the curated suites at a
//!   fixed depth, cut engine against the uncut one;
//! * **match**: a short fixed-nodes match, the cut engine (A) against the
//!   uncut one (B), its score with the 95% interval (the SPRT, default
//!   [-10, 0] normalized Elo, stopping it early).
//!
//! The recommendation follows stated rules ([`recommend`]): **keep** when
//! the cut engine is measurably weaker (its score's whole interval below
//! 0.5, the SPRT accepting H0, or more than `--solve-tolerance` positions
//! fewer solved); **cut** when it is not, the saving is measurable in
//! every bucket, and the score's lower end is within `--margin` of 0.5;
//! **inconclusive** otherwise, with the reason.

use super::cut_cost::{self, full_eval, CutEval};
use super::games::{play, Budget, Match, Played};
use crate::measure::sysinfo;
use crate::strength::reference::{compare, run_suites, ReferenceRun, RunSettings, SuiteComparison, CURATED};
use crate::strength::sprt::Sprt;
use crate::strength::uci_engine::{EngineSpec, Timeouts};
use crate::suite::density::{self, Sizes};
use crate::suite::run::{execute_here, RunArgs};
use crate::workspace;
use engine::eval::mobility::cuts::{Cut, Cuts};
use engine::eval::weights::Weights;
use engine::eval::{DynamicSet, Evaluation, MobilityKind};
use engine::Position;
use serde::Serialize;
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Report format name.
pub const SCHEMA: &str = "boardbench-cutlist/1";

/// One candidate for cutting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Candidate {
    /// A term the plans name, cut from the code path.
    Named(Cut),
    /// A weight of the DNA, set to zero.
    Term(String),
}

impl Candidate {
    /// The three the plans name.
    pub fn named() -> Vec<Candidate> {
        Cut::ALL.into_iter().map(Candidate::Named).collect()
    }

    pub fn name(&self) -> String {
        match self {
            Candidate::Named(c) => c.name().to_string(),
            Candidate::Term(t) => format!("term {t}"),
        }
    }

    pub fn about(&self) -> String {
        match self {
            Candidate::Named(c) => c.about().to_string(),
            Candidate::Term(t) => format!("the DNA weight {t}, zeroed (its work stays)"),
        }
    }

    /// Does cutting it skip work, or only change a weight?
    pub fn skips_work(&self) -> bool {
        matches!(self, Candidate::Named(_))
    }

    /// The mobility set of the cut evaluation.
    pub fn set(&self) -> DynamicSet {
        match self {
            Candidate::Named(c) => DynamicSet::chain_with_cuts(Cuts::of(*c)),
            Candidate::Term(_) => DynamicSet::uniform(MobilityKind::Chain),
        }
    }

    /// The weights of the cut evaluation.
    pub fn weights(&self) -> Result<Weights, String> {
        match self {
            Candidate::Named(_) => Ok(Weights::default()),
            Candidate::Term(t) => zero_term(t),
        }
    }
}

/// The built-in weights with the DNA term `name` (a field of `engine
/// evaldna dump`'s table) set to zero, every entry of a table.
pub fn zero_term(name: &str) -> Result<Weights, String> {
    let mut table = serde_json::to_value(Weights::default()).map_err(|e| e.to_string())?;
    let Some(field) = table.get_mut(name) else {
        return Err(format!("--term {name:?}: no such weight (the names are the fields `engine evaldna dump` writes)"));
    };
    let before = field.clone();
    *field = match field {
        serde_json::Value::Array(a) => serde_json::Value::Array(vec![json!(0); a.len()]),
        _ => json!(0),
    };
    if *field == before {
        return Err(format!("--term {name}: already zero in the built-in weights"));
    }
    let w: Weights = serde_json::from_value(table).map_err(|e| format!("--term {name}: {e}"))?;
    w.validate().map_err(|e| format!("--term {name}: zeroed, the weights are not valid: {e}"))?;
    Ok(w)
}

/// What a cut saves in one bucket, measured with the two evaluators built
/// in each order ([`cut_cost::Order`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Saving {
    pub bucket: String,
    /// The uncut evaluation's floor, ticks per evaluation (mean of the orders).
    pub full_ticks: f64,
    /// Ticks saved per evaluation: the mean of the two orders, which
    /// cancels the placement bias.
    pub saved: f64,
    /// The hull of the two orders' 95% intervals: a saving counts as
    /// measured only when both orders show it.
    pub interval: [f64; 2],
    /// Half the difference of the two orders: how much the evaluator built
    /// second loses to placement alone.
    pub placement_bias: f64,
    /// Each order's saving and interval: full built first, cut built first.
    pub by_order: [(f64, [f64; 2]); 2],
}

/// How the curated suites changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SuiteChange {
    pub suite: String,
    pub uncut: usize,
    pub cut: usize,
}

/// The rules' parameters.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Rules {
    /// How much score the cut may cost at the lower end of its interval.
    pub margin: f64,
    /// How many fewer solved positions (all suites) still count as no loss.
    pub solve_tolerance: i64,
}

/// The recommendation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Recommendation {
    Cut,
    Keep,
    Inconclusive,
}

impl Recommendation {
    pub const fn name(self) -> &'static str {
        match self {
            Recommendation::Cut => "cut",
            Recommendation::Keep => "keep",
            Recommendation::Inconclusive => "inconclusive",
        }
    }
}

/// The evidence on one candidate the rules read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evidence {
    pub skips_work: bool,
    /// Per density bucket; empty when not measured.
    pub savings: Vec<Saving>,
    /// Per suite; empty when not run.
    pub suites: Vec<SuiteChange>,
    pub played: Option<Played>,
}

impl Evidence {
    /// Solved positions gained (negative: lost) over every suite.
    pub fn solve_change(&self) -> i64 {
        self.suites.iter().map(|s| s.cut as i64 - s.uncut as i64).sum()
    }
}

/// The recommendation for `e` under `rules`, with its reason.
pub fn recommend(e: &Evidence, rules: &Rules) -> (Recommendation, String) {
    let change = e.solve_change();
    let mut keep = Vec::new();
    if let Some(p) = &e.played {
        if let Some([_, hi]) = p.interval.filter(|i| i[1] < 0.5) {
            keep.push(format!("the cut engine scored below 0.5 (upper end {hi:.3})"));
        }
        if p.sprt == "accept_h0" {
            keep.push("the SPRT accepted H0 (the cut engine weaker)".to_string());
        }
    }
    if !e.suites.is_empty() && change < -rules.solve_tolerance {
        keep.push(format!("the suites solved {} fewer (tolerance {})", -change, rules.solve_tolerance));
    }
    if !keep.is_empty() {
        return (Recommendation::Keep, keep.join("; "));
    }
    let mut missing = Vec::new();
    if e.savings.is_empty() {
        missing.push("no timing".to_string());
    } else if !e.savings.iter().all(|s| s.interval[0] > 0.0) {
        let unclear: Vec<&str> = e.savings.iter().filter(|s| s.interval[0] <= 0.0).map(|s| s.bucket.as_str()).collect();
        missing.push(if e.skips_work {
            format!("no measurable saving in {}", unclear.join(", "))
        } else {
            "zeroing a weight removes no work (a saving needs the code path skipped: a build-time switch)".to_string()
        });
    }
    match e.played.as_ref().and_then(|p| p.interval) {
        None => missing.push("no match result".to_string()),
        Some([lo, _]) if lo < 0.5 - rules.margin => missing.push(format!(
            "the match cannot rule out a loss over {:.2}: lower end {lo:.3} < {:.3}",
            rules.margin,
            0.5 - rules.margin
        )),
        Some(_) => {}
    }
    if e.suites.is_empty() {
        missing.push("no suite run".to_string());
    }
    if missing.is_empty() {
        let saved: Vec<String> = e.savings.iter().map(|s| format!("{:.1}", s.saved)).collect();
        let lo = e.played.as_ref().and_then(|p| p.interval).map_or(0.0, |i| i[0]);
        (
            Recommendation::Cut,
            format!(
                "saves {} ticks per evaluation, the match's lower end {lo:.3} is within {:.2} of 0.5, suites {change:+}",
                saved.join("/"),
                rules.margin
            ),
        )
    } else {
        (Recommendation::Inconclusive, missing.join("; "))
    }
}

/// Share of `positions` whose evaluation changes with the cut, and the
/// mean absolute change over those that change (centipawns).
pub fn evals_changed(positions: &[Position], cut: &mut CutEval) -> (f64, f64) {
    let mut full = full_eval();
    let window = engine::eval::EVAL_LIMIT + 1;
    let mut changed = 0usize;
    let mut total = 0i64;
    for pos in positions {
        let (a, b) =
            (full.evaluate(&mut pos.clone(), -window, window), cut.evaluate(&mut pos.clone(), -window, window));
        if a != b {
            changed += 1;
            total += i64::from((a - b).abs());
        }
    }
    let share = changed as f64 / positions.len().max(1) as f64;
    (share, if changed == 0 { 0.0 } else { total as f64 / changed as f64 })
}

/// Everything a cut-list run needs.
pub struct Settings {
    pub candidates: Vec<Candidate>,
    pub engine: Vec<String>,
    pub nodes: u64,
    pub jitter: f64,
    pub games: u64,
    pub sprt: Sprt,
    pub openings: PathBuf,
    pub seed: u64,
    pub core: usize,
    /// Fixed depth of the suites.
    pub depth: u32,
    pub rules: Rules,
    /// The suite run timing each candidate.
    pub bench: RunArgs,
    pub out_dir: PathBuf,
    pub quiet: bool,
}

/// One row of the table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub candidate: String,
    pub about: String,
    pub uci_options: Vec<String>,
    pub evals_changed: f64,
    pub mean_change_cp: f64,
    pub evidence: Evidence,
    /// The suite runs of the timing, full built first and cut built first.
    pub timing_runs: Vec<String>,
    pub recommendation: Recommendation,
    pub reason: String,
    pub seconds: f64,
}

fn spec(s: &Settings, options: &[(String, String)]) -> EngineSpec {
    EngineSpec { command: s.engine.clone(), options: options.to_vec() }
}

/// The suites at the run's depth, by `engine`.
fn suites(s: &Settings, engine: &EngineSpec) -> Result<ReferenceRun, String> {
    let files: Vec<PathBuf> = CURATED.iter().map(|f| workspace::positions_dir().join(f)).collect();
    let settings = RunSettings {
        core: Some(s.core),
        depth: s.depth,
        position_timeout: Duration::from_secs(600),
        timeouts: Timeouts::default(),
        quiet: s.quiet,
    };
    run_suites(engine, &files, &settings)
}

fn changes(rows: &[SuiteComparison]) -> Vec<SuiteChange> {
    rows.iter()
        .map(|r| SuiteChange { suite: r.name.clone(), uncut: r.solved_reference, cut: r.solved_candidate })
        .collect()
}

/// The UCI options of the uncut engine: the bitboard profile.
fn uncut_options() -> Vec<(String, String)> {
    vec![("Profile".to_string(), "bitboard".to_string())]
}

/// The UCI options that make our engine the cut one.
fn uci_options(c: &Candidate, weights_file: Option<&Path>) -> Vec<(String, String)> {
    let mut o = uncut_options();
    match c {
        Candidate::Named(cut) => o.push(("EvalCut".to_string(), cut.name().to_string())),
        Candidate::Term(_) => {
            if let Some(f) = weights_file {
                o.push(("Weights".to_string(), f.display().to_string()));
            }
        }
    }
    o
}

/// Per bucket of a cut-cost report: the uncut floor, the ticks saved and
/// their 95% interval.
fn order_savings(report: &crate::suite::report::BenchReport) -> Vec<(String, f64, f64, [f64; 2])> {
    report
        .buckets
        .iter()
        .filter_map(|b| {
            let full = b.arms.iter().find(|a| a.arm == "full")?.summary.floor;
            let ratio = b.arms.iter().find(|a| a.arm == "cut")?.ratio?;
            let interval = [full * (1.0 - ratio.interval[1]), full * (1.0 - ratio.interval[0])];
            Some((b.bucket.clone(), full, full * (1.0 - ratio.estimate), interval))
        })
        .collect()
}

/// The two orders' savings taken together, bucket by bucket.
pub fn combine(full_first: &[(String, f64, f64, [f64; 2])], cut_first: &[(String, f64, f64, [f64; 2])]) -> Vec<Saving> {
    full_first
        .iter()
        .filter_map(|(bucket, full_a, a, ia)| {
            let (_, full_b, b, ib) = cut_first.iter().find(|x| &x.0 == bucket)?;
            Some(Saving {
                bucket: bucket.clone(),
                full_ticks: (full_a + full_b) / 2.0,
                saved: (a + b) / 2.0,
                interval: [ia[0].min(ib[0]), ia[1].max(ib[1])],
                placement_bias: (b - a) / 2.0,
                by_order: [(*a, *ia), (*b, *ib)],
            })
        })
        .collect()
}

/// One candidate, every measurement.
fn measure_candidate(
    s: &Settings,
    c: &Candidate,
    positions: &[Position],
    uncut: Option<&ReferenceRun>,
) -> Result<Row, String> {
    let start = Instant::now();
    let weights = c.weights()?;
    let slug = c.name().replace(' ', "-");
    let weights_file = match c {
        Candidate::Term(_) => {
            let f = s.out_dir.join(format!("weights-{slug}.json"));
            weights.save(&f).map_err(|e| format!("cannot write {}: {e}", f.display()))?;
            Some(f)
        }
        Candidate::Named(_) => None,
    };
    let options = uci_options(c, weights_file.as_deref());
    let mut cut_eval = Evaluation::new(c.set(), weights.clone(), eval_config());
    let (share, mean) = evals_changed(positions, &mut cut_eval);
    eprintln!("boardbench: cutlist {}: evals changed {:.1}%, timing", c.name(), 100.0 * share);
    // In a thread of its own (the evaluations it times are thread-local):
    // the run pins its thread and raises its priority, which the suites
    // and the match after it must not inherit.
    let mut orders = Vec::new();
    let mut timing_runs = Vec::new();
    for order in cut_cost::Order::BOTH {
        let (set, weights) = (c.set(), weights.clone());
        let run = std::thread::scope(|scope| {
            scope
                .spawn(move || {
                    cut_cost::load(set, weights, order);
                    execute_here(&s.bench, &[&cut_cost::ENTRY], sysinfo::command_line())
                })
                .join()
        });
        match run.unwrap_or_else(|_| Err("the measuring thread panicked".to_string())) {
            Ok(outcome) => {
                let b = outcome.report.benchmarks.first().ok_or("the timing run measured nothing")?;
                orders.push(order_savings(b));
                timing_runs.push(outcome.json.display().to_string());
            }
            Err(e) => eprintln!("boardbench: cutlist {}: timing ({order:?}) failed: {e}", c.name()),
        }
    }
    let savings = match orders.as_slice() {
        [a, b] => combine(a, b),
        _ => Vec::new(),
    };
    let suites = match uncut {
        Some(u) => {
            eprintln!("boardbench: cutlist {}: suites at depth {}", c.name(), s.depth);
            let run = suites(s, &spec(s, &options))?;
            changes(&compare(u, &run)?)
        }
        None => Vec::new(),
    };
    let played = if s.games > 0 {
        eprintln!("boardbench: cutlist {}: match", c.name());
        let m = Match {
            engines: [spec(s, &options), spec(s, &uncut_options())],
            names: [format!("cut {}", c.name()), "uncut (bitboard)".to_string()],
            budget: Budget::Nodes(s.nodes, s.jitter),
            games: s.games,
            sprt: s.sprt,
            openings: s.openings.clone(),
            seed: s.seed,
            core: s.core,
            out_dir: s.out_dir.join(format!("match-{slug}")),
            quiet: s.quiet,
        };
        Some(play(&m)?)
    } else {
        None
    };
    let evidence = Evidence { skips_work: c.skips_work(), savings, suites, played };
    let (recommendation, reason) = recommend(&evidence, &s.rules);
    Ok(Row {
        candidate: c.name(),
        about: c.about(),
        uci_options: options.iter().map(|(n, v)| format!("{n}={v}")).collect(),
        evals_changed: share,
        mean_change_cp: mean,
        evidence,
        timing_runs,
        recommendation,
        reason,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The evaluation configuration of the "evals changed" comparison: the
/// engine's, with the eval hash off (every position evaluated afresh).
fn eval_config() -> engine::eval::EvalConfig {
    engine::eval::EvalConfig { eval_hash_bytes: 0, lazy: false, ..engine::eval::EvalConfig::default() }
}

/// The table for people.
pub fn table(rows: &[Row], s: &Settings) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{:<22} {:>14}  {:<44} {:<22} {:<34} recommendation",
        "candidate",
        "evals changed",
        "ticks saved/eval [95%]: opening; middle; end",
        "suites solved (total)",
        "match A=cut: games, score [95%]",
    );
    for r in rows {
        let saved = if r.evidence.savings.is_empty() {
            "not measured".to_string()
        } else {
            r.evidence
                .savings
                .iter()
                .map(|x| format!("{:+.1} [{:+.1},{:+.1}]", x.saved, x.interval[0], x.interval[1]))
                .collect::<Vec<_>>()
                .join("; ")
        };
        let suites = if r.evidence.suites.is_empty() {
            "not run".to_string()
        } else {
            let each: Vec<String> = r.evidence.suites.iter().map(|x| format!("{}>{}", x.uncut, x.cut)).collect();
            format!("{} ({:+})", each.join(" "), r.evidence.solve_change())
        };
        let played = r.evidence.played.as_ref().map_or_else(
            || "not played".to_string(),
            |p| match (p.score, p.interval) {
                (Some(sc), Some([lo, hi])) => format!("{} g, {sc:.3} [{lo:.3}, {hi:.3}]", p.games),
                _ => format!("{} g, no pair", p.games),
            },
        );
        let _ = writeln!(
            t,
            "{:<22} {:>6.1}% ({:>3.0}cp)  {:<44} {:<22} {:<34} {}",
            r.candidate,
            100.0 * r.evals_changed,
            r.mean_change_cp,
            saved,
            suites,
            played,
            r.recommendation.name()
        );
    }
    let _ = writeln!(t, "\nreasons:");
    for r in rows {
        let _ = writeln!(t, "  {}: {} ({})", r.candidate, r.reason, r.about);
        if !r.evidence.savings.is_empty() {
            let each: Vec<String> = r
                .evidence
                .savings
                .iter()
                .map(|x| {
                    format!("{} {:+.1} / {:+.1} of {:.0}", x.bucket, x.by_order[0].0, x.by_order[1].0, x.full_ticks)
                })
                .collect();
            let _ = writeln!(t, "    ticks saved, full built first / cut built first: {}", each.join("; "));
        }
        if let Some(p) = &r.evidence.played {
            let _ = writeln!(t, "    match: {}", p.summary());
        }
    }
    let _ = writeln!(
        t,
        "\nrules: keep when the cut engine is measurably weaker (score interval below 0.5, SPRT H0, or more than {} \
         fewer solved); cut when not, every bucket's saving interval is above 0 and the score's lower end is at \
         least {:.3}; inconclusive otherwise.\nmatches: cut (A) against uncut (B) at {} nodes per move (jitter {}), \
         up to {} games, SPRT [{}, {}] {} Elo; suites at depth {}.",
        s.rules.solve_tolerance,
        0.5 - s.rules.margin,
        s.nodes,
        s.jitter,
        s.games,
        s.sprt.elo0,
        s.sprt.elo1,
        s.sprt.model,
        s.depth
    );
    t
}

/// Measure every candidate, print the table, write the JSON.
pub fn cutlist(s: &Settings) -> Result<i32, String> {
    let started = Instant::now();
    let date = sysinfo::iso8601(sysinfo::now_secs());
    let load_start = sysinfo::load_average();
    let _out_dir = crate::output::RunDir::claim(&s.out_dir).map_err(|e| e.to_string())?;
    for c in &s.candidates {
        c.weights()?;
    }
    let dir = workspace::positions_dir();
    let sizes = Sizes { per_bucket: s.bench.per_bucket as usize, per_count: 1, seed: s.bench.seed };
    let set = density::select(&density::default_sources(&dir), None, sizes).map_err(|e| e.to_string())?;
    let positions: Vec<Position> = set.buckets.iter().flat_map(|(_, v)| v.iter().map(|c| c.position.clone())).collect();
    let uncut = if s.depth > 0 {
        eprintln!("boardbench: cutlist: the uncut engine on the suites at depth {}", s.depth);
        Some(suites(s, &spec(s, &uncut_options()))?)
    } else {
        None
    };
    let mut rows = Vec::new();
    for c in &s.candidates {
        rows.push(measure_candidate(s, c, &positions, uncut.as_ref())?);
    }
    let text = table(&rows, s);
    let (commit, dirty) = workspace::git_state(&workspace::root());
    let json = json!({
        "schema": SCHEMA, "date": date, "git_commit": commit, "git_dirty": dirty,
        "command_line": sysinfo::command_line(), "load_average_start": load_start,
        "load_average_end": sysinfo::load_average(), "seconds": started.elapsed().as_secs_f64(),
        "rules": s.rules, "nodes": s.nodes, "jitter": s.jitter, "games": s.games, "sprt": s.sprt, "depth": s.depth,
        "positions_for_evals_changed": positions.len(),
        "uncut_suites": uncut.as_ref().map(|u| u.suites.iter().map(|x| json!({"suite": x.name, "solved": x.solved, "positions": x.positions.len()})).collect::<Vec<_>>()),
        "rows": rows,
    });
    let path = s.out_dir.join("cutlist.json");
    let bytes = serde_json::to_vec_pretty(&json).map_err(|e| e.to_string())?;
    crate::output::write_atomic(&path, &bytes).map_err(|e| e.to_string())?;
    crate::output::print_out(&format!(
        "{text}took {:.0} s; load {} -> {}\nJSON: {}\n",
        started.elapsed().as_secs_f64(),
        load_start.map_or("?".to_string(), |l| format!("{:.2}", l[0])),
        sysinfo::load_average().map_or("?".to_string(), |l| format!("{:.2}", l[0])),
        path.display()
    ))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(interval: [f64; 2], sprt: &str) -> Played {
        Played {
            games: 200,
            wins: 0,
            draws: 0,
            losses: 0,
            score: Some((interval[0] + interval[1]) / 2.0),
            interval: Some(interval),
            lower95: Some(interval[0]),
            sprt: sprt.into(),
            llr: 0.0,
            stopped: String::new(),
            seconds: 1.0,
            folder: String::new(),
        }
    }

    fn saving(lo: f64) -> Vec<Saving> {
        ["opening", "middlegame", "endgame"]
            .iter()
            .map(|b| Saving {
                bucket: b.to_string(),
                full_ticks: 700.0,
                saved: lo + 2.0,
                interval: [lo, lo + 4.0],
                placement_bias: 0.0,
                by_order: [(lo + 2.0, [lo, lo + 4.0]); 2],
            })
            .collect()
    }

    fn suites(change: i64) -> Vec<SuiteChange> {
        vec![SuiteChange { suite: "hard_quick".into(), uncut: 56, cut: (56 + change) as usize }]
    }

    const RULES: Rules = Rules { margin: 0.03, solve_tolerance: 2 };

    #[test]
    fn the_rules() {
        let e = |lo, interval, sprt, change| Evidence {
            skips_work: true,
            savings: saving(lo),
            suites: suites(change),
            played: Some(played(interval, sprt)),
        };
        // Saving, no loss beyond the margin, suites within tolerance: cut.
        let (r, why) = recommend(&e(1.0, [0.48, 0.54], "continue", -1), &RULES);
        assert_eq!(r, Recommendation::Cut, "{why}");
        // Measurably weaker, three ways: keep.
        for (interval, sprt, change) in [([0.40, 0.49], "continue", 0), ([0.45, 0.55], "accept_h0", 0)] {
            assert_eq!(recommend(&e(1.0, interval, sprt, change), &RULES).0, Recommendation::Keep);
        }
        let (r, why) = recommend(&e(1.0, [0.48, 0.54], "continue", -3), &RULES);
        assert_eq!(r, Recommendation::Keep);
        assert!(why.contains("solved 3 fewer"), "{why}");
        // A match too short to rule out a loss: inconclusive, saying why.
        let (r, why) = recommend(&e(1.0, [0.44, 0.56], "continue", 0), &RULES);
        assert_eq!(r, Recommendation::Inconclusive);
        assert!(why.contains("cannot rule out a loss"), "{why}");
        // No measurable saving.
        let (r, why) = recommend(&e(-1.0, [0.49, 0.56], "continue", 0), &RULES);
        assert_eq!(r, Recommendation::Inconclusive);
        assert!(why.contains("no measurable saving in opening, middlegame, endgame"), "{why}");
        // A zeroed weight removes no work: said so.
        let mut w = e(-1.0, [0.49, 0.56], "continue", 0);
        w.skips_work = false;
        assert!(recommend(&w, &RULES).1.contains("removes no work"));
        // Nothing measured: inconclusive, never cut.
        let none = Evidence { skips_work: true, savings: vec![], suites: vec![], played: None };
        let (r, why) = recommend(&none, &RULES);
        assert_eq!(r, Recommendation::Inconclusive);
        assert!(why.contains("no timing") && why.contains("no match") && why.contains("no suite"), "{why}");
    }

    #[test]
    fn the_two_orders_cancel_the_placement_bias() {
        let a = vec![("opening".to_string(), 700.0, 0.0, [-2.0, 2.0]), ("endgame".to_string(), 600.0, 3.0, [2.0, 4.0])];
        let b =
            vec![("opening".to_string(), 702.0, 20.0, [18.0, 22.0]), ("endgame".to_string(), 600.0, 5.0, [4.0, 6.0])];
        let c = combine(&a, &b);
        assert_eq!(c.len(), 2);
        assert_eq!(
            (c[0].saved, c[0].interval, c[0].placement_bias, c[0].full_ticks),
            (10.0, [-2.0, 22.0], 10.0, 701.0)
        );
        assert_eq!((c[1].saved, c[1].interval, c[1].placement_bias), (4.0, [2.0, 6.0], 1.0));
        assert_eq!(c[1].by_order, [(3.0, [2.0, 4.0]), (5.0, [4.0, 6.0])]);
        // A bucket one order lacks is left out.
        assert_eq!(combine(&a, &b[1..]).len(), 1);
    }

    #[test]
    fn zeroing_a_term() {
        let w = zero_term("bishop_pair").unwrap();
        assert_eq!(w.bishop_pair, [0; 17]);
        assert_eq!(Weights { bishop_pair: Weights::default().bishop_pair, ..w }, Weights::default());
        assert_eq!(zero_term("rook_open_file").unwrap().rook_open_file, 0);
        assert!(zero_term("no_such").unwrap_err().contains("no such weight"));
        assert!(zero_term("material").unwrap_err().contains("not valid"));
        assert!(zero_term("bishop_best_ray").is_ok());
    }

    /// The cut list's own measure of a term whose zeroing is known to
    /// change the score: the bishop pair, on positions where one side has
    /// it and the other not, changes every such evaluation by the bonus;
    /// a position with no bishops does not change.
    #[test]
    fn a_term_whose_zeroing_changes_the_score_shows_in_evals_changed() {
        let c = Candidate::Term("bishop_pair".into());
        let with_pair: Vec<Position> = [
            "r1bqk1nr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 4",
            "4k3/pp3ppp/2n5/8/8/2B5/PP2BPPP/6K1 w - - 0 1",
        ]
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
        let mut cut = Evaluation::new(c.set(), c.weights().unwrap(), eval_config());
        let (share, mean) = evals_changed(&with_pair, &mut cut);
        assert_eq!(share, 1.0);
        assert!(mean > 20.0, "{mean}");
        let no_bishops = [Position::from_fen("4k3/pp3ppp/2n5/8/8/2N5/PP3PPP/6K1 w - - 0 1").unwrap()];
        assert_eq!(evals_changed(&no_bishops, &mut cut), (0.0, 0.0));
        assert_eq!(uci_options(&c, Some(Path::new("/t/w.json")))[1], ("Weights".into(), "/t/w.json".into()));
        let named = Candidate::Named(Cut::BatteryXray);
        assert_eq!(uci_options(&named, None)[1], ("EvalCut".into(), "battery-xray".into()));
    }
}
