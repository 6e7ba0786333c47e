//! `boardbench compare RUN.json BASELINE.json`: two runs, case by case.
//! A case is a benchmark × bucket × implementation ratio to its baseline
//! (new/old). For each case present in both, the relative difference of
//! the two runs' ratios (run / baseline − 1) with a 95% interval built
//! from both runs' spread over their measuring processes (Welch: each
//! run's standard error is its processes' standard deviation over √K, with
//! the machine's run-to-run component where the run folded one in,
//! Welch–Satterthwaite degrees of freedom).
//!
//! One run against one cannot resolve a shift smaller than about three
//! times the run-to-run spread, more with the family-wise level (on a
//! 2-vCPU cloud guest, shifts under 5-8%); the table says, for the cases
//! it leaves unresolved, what they could have told apart ([`Resolvable`]).
//! `--runs` and `--baselines` pool several runs of each side: the mean of
//! their log ratios, whose run-to-run part shrinks as √n
//! ([`LogEstimate::pool`]).
//!
//! The intervals are 95% for the comparison as a whole: with m cases each
//! is taken at 1 − 0.05/m (Bonferroni), so two runs of unchanged code
//! show no differing case 95% of the time however many cases they share;
//! at 95% each, 15 cases would show one about half the time. A case
//! *differs* only when
//! that interval lies entirely beyond ±tolerance (it excludes zero by more
//! than the tolerance); *same* when it lies entirely within ±tolerance;
//! otherwise *unresolved* (the runs cannot tell). Exit status: 0 when no
//! case differs, 3 when one does, 1 on an error (unreadable or mismatched
//! files), 2 on bad arguments.

use crate::measure::random_effects::{welch, Combined, LogEstimate};
use crate::output::print_out;
use crate::suite::report::{read_report, RunReport};
use clap::Args;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;

/// Exit status when a case differs.
pub const DIFFERS_EXIT: i32 = 3;

/// The level at which the cases' intervals hold together.
const FAMILY_LEVEL: f64 = 0.95;

#[derive(Args, Clone, Debug)]
pub struct CompareCli {
    /// The run to judge (a JSON report of `boardbench NAME`, `all` or
    /// `cargo bench`).
    #[arg(required_unless_present = "runs", conflicts_with = "runs")]
    pub run: Option<PathBuf>,
    /// The run to compare it with (e.g. results/baseline.json).
    #[arg(required_unless_present = "baselines", conflicts_with = "baselines")]
    pub baseline: Option<PathBuf>,
    /// Several runs to judge, pooled (instead of RUN): each case's mean
    /// over them, its run-to-run part divided by √n.
    #[arg(long, num_args = 2.., value_name = "RUN.json")]
    pub runs: Vec<PathBuf>,
    /// Several runs to compare with, pooled (instead of BASELINE).
    #[arg(long, num_args = 2.., value_name = "BASELINE.json")]
    pub baselines: Vec<PathBuf>,
    /// A case differs only when its difference's interval (95% over all
    /// the cases together) lies entirely beyond ±PCT%.
    #[arg(long, value_name = "PCT", default_value_t = 1.0, allow_negative_numbers = true, value_parser = parse_tolerance)]
    pub tolerance: f64,
}

fn parse_tolerance(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("not a number: {s:?}"))?;
    if (0.0..100.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not a percentage from 0 to below 100"))
    }
}

/// What the interval of a case's difference says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Entirely within ±tolerance.
    Same,
    /// Entirely beyond ±tolerance.
    Differs,
    /// Reaches past ±tolerance on one side only partly: the runs cannot
    /// tell.
    Unresolved,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Differs => "DIFFERS",
            Verdict::Unresolved => "unresolved",
        }
    }
}

/// One case in both sides.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseDiff {
    pub case: String,
    /// Each side's ratio (the geometric mean over its runs when pooled).
    pub run: f64,
    pub baseline: f64,
    /// run / baseline − 1, and its interval at the comparison's
    /// per-case level.
    pub diff: f64,
    pub interval: [f64; 2],
    pub degrees_of_freedom: f64,
    pub verdict: Verdict,
}

/// Two runs (or two pools of runs) compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub tolerance: f64,
    /// The level of each case's interval: 1 − 0.05 / cases, so that the
    /// cases' intervals hold together at 95%.
    pub case_level: f64,
    /// Runs on each side.
    pub runs: usize,
    pub baselines: usize,
    pub cases: Vec<CaseDiff>,
    /// Cases in one run only.
    pub only_run: Vec<String>,
    pub only_baseline: Vec<String>,
    /// Ways the runs' settings differ that bear on the comparison.
    pub notes: Vec<String>,
}

impl Comparison {
    pub fn differing(&self) -> usize {
        self.cases.iter().filter(|c| c.verdict == Verdict::Differs).count()
    }
}

/// One side of a comparison: its runs, with the names used in messages.
pub struct Side<'a> {
    pub runs: Vec<(&'a RunReport, String)>,
}

impl<'a> Side<'a> {
    pub fn one(run: &'a RunReport, name: &str) -> Side<'a> {
        Side { runs: vec![(run, name.to_string())] }
    }

    /// Runs read with their names (at least one).
    pub fn of(runs: &'a [(RunReport, String)]) -> Side<'a> {
        Side { runs: runs.iter().map(|(r, n)| (r, n.clone())).collect() }
    }

    /// Each case held by every run of the side, pooled over the runs; the
    /// cases that only some runs hold.
    fn cases(&self) -> Result<(BTreeMap<String, LogEstimate>, Vec<String>), String> {
        let mut per_run = Vec::with_capacity(self.runs.len());
        for (r, name) in &self.runs {
            per_run.push(cases(r, name)?);
        }
        let mut pooled = BTreeMap::new();
        let mut partial = Vec::new();
        for case in per_run.iter().flat_map(|m| m.keys()).collect::<std::collections::BTreeSet<_>>() {
            let held: Vec<&Combined> = per_run.iter().filter_map(|m| m.get(case)).collect();
            if held.len() == per_run.len() {
                pooled.insert(case.clone(), LogEstimate::pool(&held));
            } else {
                partial.push(case.clone());
            }
        }
        Ok((pooled, partial))
    }

    fn first(&self) -> &'a RunReport {
        self.runs[0].0
    }

    fn name(&self) -> String {
        match self.runs.len() {
            1 => self.runs[0].1.clone(),
            n => format!("{} runs ({} ...)", n, self.runs[0].1),
        }
    }
}

/// A run's ratio cases, by name, with their spread over processes.
fn cases(r: &RunReport, which: &str) -> Result<BTreeMap<String, Combined>, String> {
    let mut out = BTreeMap::new();
    for (case, a) in r.old_new_arms() {
        let spread = a
            .ratio_spread
            .clone()
            .ok_or_else(|| format!("{which}: case {case} has no per-process figures to build an interval from"))?;
        if spread.processes() < 2 || !spread.sd_log.is_finite() {
            return Err(format!("{which}: case {case} has fewer than 2 measuring processes"));
        }
        out.insert(case, spread);
    }
    Ok(out)
}

/// Compare `run` with `baseline` at `tolerance` (a fraction).
pub fn compare(run: &RunReport, baseline: &RunReport, tolerance: f64) -> Result<Comparison, String> {
    compare_sides(&Side::one(run, "RUN"), &Side::one(baseline, "BASELINE"), tolerance)
}

/// Compare two sides, each one run or several pooled, at `tolerance`.
pub fn compare_sides(run_side: &Side, base_side: &Side, tolerance: f64) -> Result<Comparison, String> {
    let (a, partial_a) = run_side.cases()?;
    let (b, partial_b) = base_side.cases()?;
    let (run, baseline) = (run_side.first(), base_side.first());
    let (run_name, base_name) = (run_side.name(), base_side.name());
    let only_run: Vec<String> = a.keys().filter(|k| !b.contains_key(*k)).cloned().collect();
    let only_baseline: Vec<String> = b.keys().filter(|k| !a.contains_key(*k)).cloned().collect();
    // In the runs' own order, not alphabetical.
    let order: Vec<String> =
        run.old_new_arms().map(|(case, _)| case).filter(|k| a.contains_key(k) && b.contains_key(k)).collect();
    if order.is_empty() {
        return Err(format!(
            "{run_name} and {base_name} have no case in common ({run_name}: {}; {base_name}: {})",
            names(run),
            names(baseline)
        ));
    }
    let mut notes = Vec::new();
    for (side, partial) in [(run_side, &partial_a), (base_side, &partial_b)] {
        if !partial.is_empty() {
            notes.push(format!("left out, held by only some of {}: {}", side.name(), partial.join(", ")));
        }
        for (r, name) in &side.runs[1..] {
            for n in self::notes(r, side.first()) {
                notes.push(format!("within {}: {name}: {n}", side.name()));
            }
        }
    }
    notes.extend(self::notes(run, baseline));
    let bound = (1.0 + tolerance).ln();
    let case_level = 1.0 - (1.0 - FAMILY_LEVEL) / order.len() as f64;
    let cases = order
        .into_iter()
        .map(|case| {
            let (x, base) = (&a[&case], &b[&case]);
            let (d, iv, df) = welch(base, x, case_level);
            let verdict = if iv[0] > bound || iv[1] < -bound {
                Verdict::Differs
            } else if iv[0] >= -bound && iv[1] <= bound {
                Verdict::Same
            } else {
                Verdict::Unresolved
            };
            CaseDiff {
                case,
                run: x.mean_log.exp(),
                baseline: base.mean_log.exp(),
                diff: d.exp() - 1.0,
                interval: [iv[0].exp() - 1.0, iv[1].exp() - 1.0],
                degrees_of_freedom: df,
                verdict,
            }
        })
        .collect();
    Ok(Comparison {
        tolerance,
        case_level,
        runs: run_side.runs.len(),
        baselines: base_side.runs.len(),
        cases,
        only_run,
        only_baseline,
        notes,
    })
}

fn names(r: &RunReport) -> String {
    let v: Vec<&str> = r.benchmarks.iter().map(|b| b.name.as_str()).collect();
    if v.is_empty() {
        "no benchmark".into()
    } else {
        v.join(", ")
    }
}

/// Settings that differ between the runs and make their ratios measure
/// different things (positions) or under different conditions.
fn notes(run: &RunReport, baseline: &RunReport) -> Vec<String> {
    let mut notes = Vec::new();
    let (p, q) = (&run.positions, &baseline.positions);
    if (p.per_bucket, p.per_count, p.seed, &p.sources) != (q.per_bucket, q.per_count, q.seed, &q.sources) {
        notes.push("the runs measured different positions (sources, seed or sizes differ)".into());
    }
    if run.settings.quick != baseline.settings.quick {
        notes.push("one run is a --quick run".into());
    }
    let folded =
        |r: &RunReport| r.settings.run_level.as_deref().is_some_and(|n| n.contains(crate::suite::run_level::FOLDED));
    if folded(run) != folded(baseline) {
        notes.push(format!(
            "only the {} holds the machine's run-to-run component: the difference's interval is narrower than it \
             should be",
            if folded(run) { "run" } else { "baseline" }
        ));
    }
    if run.metadata.cpu_model != baseline.metadata.cpu_model {
        notes.push(format!(
            "different CPUs: {} and {}",
            run.metadata.cpu_model.as_deref().unwrap_or("?"),
            baseline.metadata.cpu_model.as_deref().unwrap_or("?")
        ));
    }
    notes
}

/// The comparison as printed.
pub fn table(c: &Comparison, run: &str, baseline: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "run:      {run}\nbaseline: {baseline}");
    for n in &c.notes {
        let _ = writeln!(s, "note: {n}");
    }
    let pooled = |n: usize| if n > 1 { format!(" (geometric mean of {n} runs)") } else { String::new() };
    let _ = writeln!(
        s,
        "per case: new/old in the run{} and the baseline{}, the difference run/baseline - 1 with its \
         interval (both sides' spread over processes and runs; {:.2}% each, so that the {} intervals hold \
         together at 95%); differs when the interval lies beyond ±{:.1}%",
        pooled(c.runs),
        pooled(c.baselines),
        c.case_level * 100.0,
        c.cases.len(),
        c.tolerance * 100.0
    );
    let width = c.cases.iter().map(|x| x.case.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(s, "  {:<width$} {:>8} {:>8} {:>8}  {:<20} ", "case", "run", "baseline", "diff", "interval");
    for x in &c.cases {
        let _ = writeln!(
            s,
            "  {:<width$} {:>8.4} {:>8.4} {:>+7.2}%  [{:>+6.2}%, {:>+6.2}%]  {}",
            x.case,
            x.run,
            x.baseline,
            x.diff * 100.0,
            x.interval[0] * 100.0,
            x.interval[1] * 100.0,
            x.verdict.name()
        );
    }
    for (list, name) in [(&c.only_run, "run"), (&c.only_baseline, "baseline")] {
        if !list.is_empty() {
            let _ = writeln!(s, "only in the {name}: {}", list.join(", "));
        }
    }
    let same = c.cases.iter().filter(|x| x.verdict == Verdict::Same).count();
    let _ = writeln!(
        s,
        "{} of {} cases differ, {} the same within ±{:.1}%, {} unresolved",
        c.differing(),
        c.cases.len(),
        same,
        c.tolerance * 100.0,
        c.cases.len() - same - c.differing()
    );
    if let Some(r) = c.resolvable() {
        let _ = writeln!(
            s,
            "unresolved: these runs tell apart only differences beyond ±{:.1}% to ±{:.1}% (median ±{:.1}%: each \
             unresolved case's half-width plus the tolerance); pooling n runs a side (--runs, --baselines) \
             narrows that about as 1/√n",
            r.least * 100.0,
            r.most * 100.0,
            r.median * 100.0
        );
    }
    s
}

/// What the unresolved cases of a comparison could have told apart: each
/// one's half-width (half its interval's length) plus the tolerance, the
/// smallest difference it would have called differing.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Resolvable {
    pub least: f64,
    pub median: f64,
    pub most: f64,
}

impl Comparison {
    /// [`Resolvable`] over the unresolved cases; `None` when there are none.
    pub fn resolvable(&self) -> Option<Resolvable> {
        let mut r: Vec<f64> = self
            .cases
            .iter()
            .filter(|x| x.verdict == Verdict::Unresolved)
            .map(|x| (x.interval[1] - x.interval[0]) / 2.0 + self.tolerance)
            .collect();
        if r.is_empty() {
            return None;
        }
        let (least, most) = r.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        let median = crate::measure::stats::median_mut(&mut r);
        Some(Resolvable { least, median, most })
    }
}

/// `boardbench compare`: print the comparison; exit [`DIFFERS_EXIT`] when
/// a case differs.
pub fn compare_main(cli: &CompareCli) -> Result<i32, String> {
    // clap makes sure each side has either its positional file or its list.
    let files = |one: &Option<PathBuf>, many: &[PathBuf]| -> Vec<PathBuf> { one.iter().chain(many).cloned().collect() };
    let (run_files, base_files) = (files(&cli.run, &cli.runs), files(&cli.baseline, &cli.baselines));
    let read = |files: &[PathBuf]| -> Result<Vec<(RunReport, String)>, String> {
        files.iter().map(|f| Ok((read_report(f)?, f.display().to_string()))).collect()
    };
    let (runs, bases) = (read(&run_files)?, read(&base_files)?);
    let (run_side, base_side) = (Side::of(&runs), Side::of(&bases));
    let c = compare_sides(&run_side, &base_side, cli.tolerance / 100.0)?;
    let list = |v: &[(RunReport, String)]| v.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>().join(" ");
    print_out(&table(&c, &list(&runs), &list(&bases)))?;
    Ok(if c.differing() > 0 { DIFFERS_EXIT } else { 0 })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::measure::random_effects::{combine, ProcessEstimate};

    /// The sample report with its candidate measured in `k` processes at
    /// `ratio`, spread ±`sd` (alternating) around it.
    pub(crate) fn run_at(ratio: f64, sd: f64, k: usize) -> RunReport {
        let mut r = crate::suite::report::tests::sample_report();
        let arm = &mut r.benchmarks[0].buckets[0].arms[1];
        let per: Vec<ProcessEstimate> = (0..k)
            .map(|i| {
                let x = ratio * (if i % 2 == 0 { sd } else { -sd }).exp();
                ProcessEstimate { estimate: x, interval: [x * 0.999, x * 1.001] }
            })
            .collect();
        let c = combine(&per, 0.95);
        arm.ratio = Some(crate::measure::stats::Ratio { estimate: c.estimate, interval: c.interval });
        arm.ratio_spread = Some(c);
        r
    }

    #[test]
    fn equal_runs_are_the_same_and_a_shift_differs() {
        let a = run_at(0.5, 0.002, 6);
        let c = compare(&run_at(0.5, 0.002, 6), &a, 0.01).unwrap();
        assert_eq!(c.cases.len(), 1);
        assert_eq!(c.cases[0].case, "x opening new");
        assert_eq!(c.cases[0].verdict, Verdict::Same, "{c:?}");
        assert!(c.cases[0].diff.abs() < 1e-12);
        // 3% slower, tight: differs.
        let c = compare(&run_at(0.515, 0.002, 6), &a, 0.01).unwrap();
        assert_eq!(c.cases[0].verdict, Verdict::Differs, "{c:?}");
        assert!((c.cases[0].diff - 0.03).abs() < 1e-9);
        assert_eq!(c.differing(), 1);
        // 3% apart but each run spread ±3%: cannot tell.
        let c = compare(&run_at(0.515, 0.03, 6), &run_at(0.5, 0.03, 6), 0.01).unwrap();
        assert_eq!(c.cases[0].verdict, Verdict::Unresolved, "{c:?}");
        // ... and says what these runs could resolve: its half-width plus
        // the tolerance, more than the 3% it could not tell.
        let half = (c.cases[0].interval[1] - c.cases[0].interval[0]) / 2.0;
        let r = c.resolvable().expect("an unresolved case");
        assert!((r.median - (half + 0.01)).abs() < 1e-12 && r.median > 0.03, "{r:?} {c:?}");
        assert_eq!((r.least, r.most), (r.median, r.median));
        let t = table(&c, "a.json", "b.json");
        let want = format!("only differences beyond ±{:.1}% to ±{:.1}%", r.least * 100.0, r.most * 100.0);
        assert!(t.contains(&want), "{t}");
        // Within tolerance of a 0.5% shift: the same at 1%, differs at 0.1%.
        assert_eq!(compare(&run_at(0.5025, 0.0005, 6), &a, 0.01).unwrap().cases[0].verdict, Verdict::Same);
        let c = compare(&run_at(0.5025, 0.0005, 6), &run_at(0.5, 0.0005, 6), 0.001).unwrap();
        assert_eq!(c.cases[0].verdict, Verdict::Differs, "{c:?}");
        let t = table(&c, "a.json", "b.json");
        assert!(t.contains("x opening new") && t.contains("DIFFERS") && t.contains("1 of 1 cases differ"), "{t}");
        assert_eq!(c.resolvable(), None);
        assert!(!t.contains("unresolved:"), "{t}");
    }

    #[test]
    fn resolvable_spans_the_unresolved_cases_in_any_order() {
        let mut c = compare(&run_at(0.515, 0.03, 6), &run_at(0.5, 0.03, 6), 0.01).unwrap();
        let case = c.cases[0].clone();
        // Unresolved half-widths 4%, 1% and 2% (listed out of order), and a
        // case that differs, which does not count.
        c.cases = [
            (0.04, Verdict::Unresolved),
            (0.01, Verdict::Unresolved),
            (0.5, Verdict::Differs),
            (0.02, Verdict::Unresolved),
        ]
        .map(|(half, verdict)| CaseDiff { interval: [-half, half], verdict, ..case.clone() })
        .to_vec();
        let r = c.resolvable().unwrap();
        for (got, want) in [(r.least, 0.02), (r.median, 0.03), (r.most, 0.05)] {
            assert!((got - want).abs() < 1e-12, "{r:?}");
        }
    }

    /// `run_at` with the machine's run-to-run component `run_sd` folded in.
    fn run_with_level(ratio: f64, run_sd: f64) -> RunReport {
        let mut r = run_at(ratio, 0.005, 8);
        let arm = &mut r.benchmarks[0].buckets[0].arms[1];
        arm.ratio_spread = arm.ratio_spread.take().map(|c| c.with_run_level(run_sd));
        r
    }

    #[test]
    fn pooled_runs_resolve_what_one_run_cannot() {
        // A 3% shift under a 1% run-to-run component: one run against one
        // cannot tell; five against five (each run off by up to ±1%) can.
        let offsets = [-0.01, 0.005, 0.0, 0.01, -0.005];
        let named = |ratio: f64, sign: f64| -> Vec<(RunReport, String)> {
            offsets
                .iter()
                .enumerate()
                .map(|(i, o)| (run_with_level(ratio * (1.0 + sign * o), 0.01), format!("r{i}")))
                .collect()
        };
        let (base, slow, again) = (named(0.5, 1.0), named(0.515, -1.0), named(0.5, -1.0));
        let c = compare(&slow[2].0, &base[2].0, 0.01).unwrap();
        assert_eq!(c.cases[0].verdict, Verdict::Unresolved, "{c:?}");
        let c = compare_sides(&Side::of(&slow), &Side::of(&base), 0.01).unwrap();
        assert_eq!((c.runs, c.baselines), (5, 5));
        assert_eq!(c.cases[0].verdict, Verdict::Differs, "{c:?}");
        assert!((c.cases[0].diff - 0.03).abs() < 1e-6, "{c:?}");
        let t = table(&c, "a", "b");
        assert!(t.contains("(geometric mean of 5 runs)"), "{t}");
        // Pooled equal sides: the same within ±2% (their interval is about
        // ±1.3%).
        let c = compare_sides(&Side::of(&again), &Side::of(&base), 0.02).unwrap();
        assert_eq!(c.cases[0].verdict, Verdict::Same, "{c:?}");
        // A case only some runs of a side hold is left out and named.
        let mut more = base.clone();
        let mut extra = more[1].0.benchmarks[0].buckets[0].clone();
        extra.bucket = "endgame".into();
        more[1].0.benchmarks[0].buckets.push(extra);
        let c = compare_sides(&Side::of(&slow), &Side::of(&more), 0.01).unwrap();
        assert_eq!(c.cases.len(), 1);
        let note = "held by only some of 5 runs (r0 ...): x endgame new";
        assert!(c.notes.iter().any(|n| n.contains(note)), "{:?}", c.notes);
    }

    #[test]
    fn mismatched_runs_are_named() {
        let a = run_at(0.5, 0.002, 6);
        let mut other = a.clone();
        other.benchmarks[0].name = "y".into();
        let e = compare(&a, &other, 0.01).unwrap_err();
        assert_eq!(e, "RUN and BASELINE have no case in common (RUN: x; BASELINE: y)");
        let mut no_spread = a.clone();
        no_spread.benchmarks[0].buckets[0].arms[1].ratio_spread = None;
        let e = compare(&a, &no_spread, 0.01).unwrap_err();
        assert!(e.starts_with("BASELINE: case x opening new has no per-process figures"), "{e}");
        // A case in one run only is listed, not an error.
        let mut more = a.clone();
        let mut extra = more.benchmarks[0].buckets[0].clone();
        extra.bucket = "endgame".into();
        more.benchmarks[0].buckets.push(extra);
        more.positions.seed += 1;
        let c = compare(&more, &a, 0.01).unwrap();
        assert_eq!(c.only_run, vec!["x endgame new".to_string()]);
        assert_eq!(c.notes, vec!["the runs measured different positions (sources, seed or sizes differ)".to_string()]);
    }
}
