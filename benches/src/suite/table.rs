//! The summary table printed on stdout after a run: per benchmark and
//! bucket, the baseline's cost, each implementation's cost, the ratio to
//! the baseline with its 95% interval over the measuring processes, the
//! ratio's two variance components (between processes, within one), and
//! each implementation's correlation with men on the board; then the
//! controls with PASS/FAIL; for evalcycles, the attribution of a whole
//! evaluation to its groups, three sources side by side, with the checks
//! on them.

use crate::measure::runner::Role;
use crate::suite::benchmarks::evalcycles::attribution::{
    agrees, compared_groups, compared_with_shapley, ticks_per_instruction, top_three, unattributed_share,
    AGREE_FROM_TICKS,
};
use crate::suite::report::{AttributionTable, BenchReport, Cost, EvalAttribution, RowKind, RunReport};
use std::fmt::Write;

fn r_of(b: &BenchReport, arm: &str) -> String {
    b.correlations.iter().find(|c| c.arm == arm).map(|c| format!("{:+.3}", c.pearson_r)).unwrap_or_else(|| "-".into())
}

/// One benchmark's table.
pub fn bench_table(b: &BenchReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} — {} ({}, floors; one call = {})", b.name, b.about, b.unit, b.call);
    if !b.processes.is_empty() {
        let k = b.processes.len();
        let _ = writeln!(
            s,
            "  over {k} measuring processes, each with its own placement: geometric means, Student-t 95% \
             intervals ({} df); sd: one process's ratio, between processes / within one",
            k - 1
        );
    }
    let _ = writeln!(
        s,
        "  {:<11} {:<22} {:>10} {:>10}  {:<28} {:>15} {:>7}",
        "bucket", "arm", "old", "new", "new/old [95% interval]", "sd btw / within", "r(new)"
    );
    for bucket in &b.buckets {
        // A run always has both; a report read back from a damaged file
        // may lack them, and is printed with "-" in their place.
        let base = bucket.arms.iter().find(|a| a.role == Role::Baseline);
        let base = base.map_or_else(|| "-".to_string(), |a| format!("{:.1}", a.summary.floor));
        for a in bucket.arms.iter().filter(|a| a.role == Role::Candidate) {
            let ratio = a.ratio.map_or_else(
                || "-".to_string(),
                |r| format!("{:.4} [{:.4}, {:.4}]", r.estimate, r.interval[0], r.interval[1]),
            );
            let components = a
                .ratio_spread
                .as_ref()
                .map_or("-".to_string(), |c| format!("{:.2}% / {:.2}%", c.between_sd * 100.0, c.within_sd * 100.0));
            let _ = writeln!(
                s,
                "  {:<11} {:<22} {:>10} {:>10.1}  {:<28} {:>15} {:>7}",
                bucket.bucket,
                a.arm,
                base,
                a.summary.floor,
                ratio,
                components,
                r_of(b, &a.arm),
            );
        }
    }
    if !b.correlations.is_empty() {
        let _ = write!(s, "  cost vs men:");
        for c in &b.correlations {
            let _ =
                write!(s, "  {} r={:+.3} rho={:+.3} slope={:+.2}/man;", c.arm, c.pearson_r, c.spearman_rho, c.slope);
        }
        s.push('\n');
    }
    if let Some(p) = &b.precision {
        let _ = writeln!(
            s,
            "  precision ±{:.1}%: {} (widest combined interval ±{:.2}%; {} rounds, {:.0} s of measuring)",
            p.target * 100.0,
            if p.met { "met" } else { "NOT met" },
            p.widest * 100.0,
            p.rounds,
            p.seconds
        );
    }
    let arm_width = b.controls.iter().map(|c| c.arm.chars().count()).max().unwrap_or(0).max(22);
    for c in &b.controls {
        let _ = writeln!(
            s,
            "  control {:<11} {:<arm_width$} {:.4} [{:.4}, {:.4}]{} expected {:.2} {}: {}{}",
            c.bucket,
            c.arm,
            c.ratio.estimate,
            c.ratio.interval[0],
            c.ratio.interval[1],
            if (c.level - 0.95).abs() > 1e-9 { format!(" ({:.1}%)", c.level * 100.0) } else { String::new() },
            c.expected,
            // The between-process A/A is judged by its interval holding 1.
            if c.across_processes { "in the interval".to_string() } else { format!("± {:.0}%", c.tolerance * 100.0) },
            if c.pass { "PASS" } else { "FAIL" },
            // Inside its bounds but not at the expected value: say so. A
            // failure says why.
            if let Some(why) = c.failure() {
                format!(" ({why})")
            } else if c.misses_expected() {
                format!(" (misses {:.2} by {:.2}%)", c.expected, (c.ratio.estimate / c.expected - 1.0).abs() * 100.0)
            } else {
                String::new()
            }
        );
    }
    if let Some(a) = &b.attribution {
        s.push_str(&attribution_table(a));
    }
    s
}

fn figure(x: Option<f64>, decimals: usize) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.decimals$}"))
}

fn with_interval(c: Option<Cost>) -> String {
    c.map_or_else(|| "-".to_string(), |c| format!("{:.1} [{:.1}, {:.1}]", c.value, c.interval[0], c.interval[1]))
}

/// One bucket × implementation's attribution.
fn one_table(t: &AttributionTable) -> String {
    let mut s = String::new();
    let w = &t.whole;
    let _ = writeln!(
        s,
        "  {} {} ({} positions), ticks per evaluation: ablation floor {}, whole-evaluation arm {}; eval-time build: \
         counters off {}, instrumented {}{}, counters' whole {} (pair {} subtracted per region; 0: sampled, no pairs); {} instructions",
        t.bucket,
        t.arm,
        t.positions,
        figure(w.ablation_floor, 1),
        figure(w.uninstrumented_floor, 1),
        figure(w.counters_off_floor, 1),
        figure(w.instrumented_floor, 1),
        w.instrumented_ratio.map(|r| format!(" ({r:.2}x)")).unwrap_or_default(),
        figure(w.counter_whole, 1),
        figure(w.counter_pair_ticks, 1),
        figure(w.instructions, 0),
    );
    let _ = writeln!(
        s,
        "    {:<31} {:>7} {:>7} {:>34} {:>30} {:>14} {:>9} {:>14}",
        "row",
        "work",
        "state",
        "ablation [95% interval]",
        "Shapley [95% interval]",
        "counters",
        "(floor)",
        "instructions"
    );
    for r in &t.rows {
        let share = |x: Option<f64>, of: Option<f64>| match (r.kind, x, of) {
            (RowKind::Unattributed, Some(x), Some(of)) if of != 0.0 => format!(" {:.1}%", 100.0 * x / of),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "    {:<31} {:>7} {:>7} {:>34} {:>30} {:>14} {:>9} {:>14}",
            r.label,
            figure(r.ablation_work.map(|c| c.value), 1),
            figure(r.ablation_state.map(|c| c.value), 1),
            with_interval(r.ablation) + &share(r.ablation.map(|c| c.value), w.ablation_floor),
            with_interval(r.shapley),
            figure(r.counter, 1) + &share(r.counter, w.counter_whole),
            r.counter_floor.map_or_else(String::new, |f| format!("({f:.1})")),
            figure(r.instructions, 0) + &share(r.instructions, w.instructions),
        );
    }
    let mut checks = Vec::new();
    if let Some(u) = unattributed_share(t) {
        let layouts = match (w.ablation_floor, w.unattributed_by_layout.len() > 1) {
            (Some(floor), true) if floor != 0.0 => {
                let each: Vec<String> =
                    w.unattributed_by_layout.iter().map(|x| format!("{:.1}", 100.0 * x / floor)).collect();
                format!("; {}% in the code layouts timed (the rows are their medians)", each.join(" / "))
            }
            _ => String::new(),
        };
        checks.push(format!("unattributed {:.1}% of the ablation floor (at most 15%){layouts}", 100.0 * u));
    }
    if let Some(r) = w.instrumented_ratio {
        // Also against boardbench's own arm (another build): where the
        // eval-time build's counters-off copy compiles differently, the
        // two ratios disagree, and both are shown.
        let arm = w
            .instrumented_floor
            .zip(w.uninstrumented_floor)
            .map(|(i, u)| format!(", {:.2}x the whole-evaluation arm", i / u));
        checks.push(format!(
            "instrumented {r:.2}x the floor with the counters off (at most 1.3x){}",
            arm.unwrap_or_default()
        ));
    }
    checks.extend(agreement("ablation", &compared_groups(t)));
    checks.extend(agreement("the Shapley share", &compared_with_shapley(t)));
    let by_ablation = top_three(t, |r| r.ablation.map(|c| c.value));
    let by_instructions = top_three(t, |r| r.instructions);
    if !by_ablation.is_empty() && !by_instructions.is_empty() {
        let verdict = if by_ablation == by_instructions {
            "same".to_string()
        } else {
            // The reason: the groups' instructions retire at different
            // speeds. Each group named by either ranking, once.
            let mut named: Vec<&str> = by_ablation.clone();
            named.extend(by_instructions.iter().filter(|g| !by_ablation.contains(g)));
            let (per, whole) = ticks_per_instruction(t, &named);
            let mut parts: Vec<String> = per.iter().map(|(g, x)| format!("{g} {x:.2}")).collect();
            parts.extend(whole.map(|x| format!("whole {x:.2}")));
            format!("differ; ablation ticks per instruction: {}", parts.join(", "))
        };
        checks.push(format!(
            "top three by ablation {}, by instructions {} ({verdict})",
            by_ablation.join(" > "),
            by_instructions.join(" > "),
        ));
    }
    if !t.interactions.is_empty() {
        let pairs: Vec<String> = t
            .interactions
            .iter()
            .map(|i| {
                format!(
                    "{} + {} {:+.0} [{:+.0}, {:+.0}]",
                    i.a, i.b, i.ticks.value, i.ticks.interval[0], i.ticks.interval[1]
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "    interactions at fixed code, intervals clear of zero (whole - without a - without b + without both, ticks): {}",
            pairs.join(", ")
        );
    }
    if !checks.is_empty() {
        let _ = writeln!(s, "    checks: {}", checks.join("; "));
    }
    s
}

/// How many of `compared` (group, reference ticks, counter ticks) agree
/// with `reference`, naming the others; `None` with nothing to compare.
fn agreement(reference: &str, compared: &[(&str, f64, f64)]) -> Option<String> {
    if compared.is_empty() {
        return None;
    }
    let off: Vec<String> =
        compared.iter().filter(|(_, r, c)| !agrees(*r, *c)).map(|(g, r, c)| format!("{g} {c:.0} vs {r:.0}")).collect();
    Some(format!(
        "counter floors within 20% or 10 ticks of {reference} for {} of {} groups of {AGREE_FROM_TICKS:.0}+ ticks{}",
        compared.len() - off.len(),
        compared.len(),
        if off.is_empty() { String::new() } else { format!(" (off: {})", off.join(", ")) }
    ))
}

/// evalcycles' attribution: every table, then how each source was measured.
pub fn attribution_table(a: &EvalAttribution) -> String {
    let mut s = String::from(
        "  where a whole evaluation goes (per group; inputs alone: ablation and instructions leave every group out, \
         the counters time each input; unattributed: whole - rows):\n",
    );
    for t in &a.tables {
        s.push_str(&one_table(t));
    }
    for n in &a.notes {
        let _ = writeln!(s, "  {n}");
    }
    s
}

/// The whole run's summary.
pub fn run_table(r: &RunReport) -> String {
    let m = &r.metadata;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "clock {} ({}{}), granularity {:.0}, fixed overhead {:.0} subtracted{}; pinned: {} (core {}), real-time: {}; ASLR: {}; load {}",
        m.clock.kind,
        m.clock.unit,
        m.clock.tsc_mhz.map(|f| format!(" at {f:.0} MHz")).unwrap_or_default(),
        m.clock.granularity,
        m.clock.fixed_overhead,
        m.clock.cycles_per_unit.map(|c| format!(", {c:.3} core cycles per {} unit", m.clock.kind)).unwrap_or_default(),
        m.pinning.pinned,
        m.pinning.core.map(|c| c.to_string()).unwrap_or_else(|| "-".into()),
        m.pinning.realtime,
        m.aslr.name(),
        m.load_average_start.map(|l| format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2])).unwrap_or_else(|| "?".into()),
    );
    if let Some(reason) = &m.clock.fallback_reason {
        let _ = writeln!(s, "TSC not used: {reason}");
    }
    if let Some(short) = r.positions.shortfall() {
        let _ = writeln!(s, "positions: {short}");
    }
    if !m.counters.available {
        let _ = writeln!(
            s,
            "hardware counters: unavailable ({})",
            m.counters.reason.as_deref().unwrap_or("no reason given")
        );
    }
    for b in &r.benchmarks {
        s.push('\n');
        s.push_str(&bench_table(b));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::report::{ControlCheck, ControlFailure};

    #[test]
    fn a_differing_ranking_is_given_its_reason() {
        let t = crate::suite::benchmarks::evalcycles::attribution::tests::ranked_differently();
        let printed = one_table(&t);
        let want = "by instructions kings > knights > rooks (differ; ablation ticks per instruction: knights 0.50, \
             kings 0.10, whole 0.25)";
        assert!(printed.contains(want), "{printed}");
    }

    #[test]
    fn table_shows_ratio_interval_r_and_controls() {
        let r = crate::suite::report::tests::sample_report();
        let t = run_table(&r);
        assert!(t.contains("opening     new"), "{t}");
        assert!(t.contains("0.5000 [0.4900, 0.5100]"), "{t}");
        assert!(t.contains("control opening"), "{t}");
        assert!(t.contains("PASS"));
        assert!(t.contains("hardware counters: unavailable (ENOENT)"));
        assert!(!t.contains("precision"), "a fixed plan has no precision line: {t}");
    }

    #[test]
    fn an_a_a_control_that_misses_one_inside_its_bounds_passes_and_says_by_how_much() {
        let mut r = crate::suite::report::tests::sample_report();
        let c = &mut r.benchmarks[0].controls[0];
        let judge = |estimate: f64, interval: [f64; 2]| {
            ControlCheck::bounds_hold(&crate::measure::stats::Ratio { estimate, interval }, 1.0, 0.01)
        };
        // The fresh-clone run's knight mobility A/A: 0.07% off, tight.
        assert!(judge(0.9993, [0.9986, 0.9999]));
        // A bias the tolerance does not allow, or a run too noisy to
        // resolve 1%, fails whether or not the interval holds 1.
        assert!(!judge(0.985, [0.982, 0.988]));
        assert!(!judge(0.9989, [0.9791, 1.019]));
        assert!(!judge(1.0, [0.989, 1.011]));
        c.ratio = crate::measure::stats::Ratio { estimate: 0.9993, interval: [0.9986, 0.9999] };
        c.pass = ControlCheck::bounds_hold(&c.ratio, c.expected, c.tolerance);
        assert!(c.misses_expected());
        let t = run_table(&r);
        assert!(t.contains("expected 1.00 ± 1%: PASS (misses 1.00 by 0.07%)"), "{t}");
        // One that holds 1 gets no note.
        let c = &mut r.benchmarks[0].controls[0];
        c.ratio = crate::measure::stats::Ratio { estimate: 1.0002, interval: [0.9995, 1.0009] };
        assert!(!c.misses_expected());
        assert!(run_table(&r).contains("expected 1.00 ± 1%: PASS\n"));
        // An x2 control is not expected to read exactly 2: no note.
        let c = &mut r.benchmarks[0].controls[0];
        (c.arm, c.expected, c.tolerance) = ("old x2".into(), 2.0, 0.02);
        c.ratio = crate::measure::stats::Ratio { estimate: 2.0155, interval: [2.0090, 2.0221] };
        c.pass = ControlCheck::bounds_hold(&c.ratio, c.expected, c.tolerance);
        assert!(c.pass && !c.misses_expected());
        assert!(run_table(&r).contains("expected 2.00 ± 2%: PASS\n"));
    }

    /// A failed control says whether the run was too noisy to judge or the
    /// instrument reads wrong.
    #[test]
    fn a_failed_control_says_why() {
        let mut r = crate::suite::report::tests::sample_report();
        let set = |r: &mut RunReport, estimate: f64, interval: [f64; 2], across: bool| {
            let c = &mut r.benchmarks[0].controls[0];
            (c.arm, c.expected, c.tolerance, c.across_processes) = ("old (A/A)".into(), 1.0, 0.01, across);
            c.ratio = crate::measure::stats::Ratio { estimate, interval };
            c.pass = if across {
                c.ratio.contains(1.0)
            } else {
                ControlCheck::bounds_hold(&c.ratio, c.expected, c.tolerance)
            };
            c.failure()
        };
        // Today's endgame mailbox A/A: inside 1 ± 1%, but the interval
        // reaches past it.
        assert_eq!(set(&mut r, 1.0032, [0.9934, 1.0130], false), Some(ControlFailure::TooWide));
        assert!(
            run_table(&r).contains("FAIL (interval wider than the bounds: too noisy to judge"),
            "{}",
            run_table(&r)
        );
        let Some(ControlFailure::Off(off)) = set(&mut r, 0.985, [0.982, 0.988], false) else { panic!("a bias") };
        assert!((off + 0.015).abs() < 1e-12);
        assert!(run_table(&r).contains("FAIL (off by -1.50%, beyond the tolerance)"), "{}", run_table(&r));
        assert_eq!(set(&mut r, 1.01, [1.004, 1.016], true), Some(ControlFailure::Excludes));
        assert_eq!(set(&mut r, 1.0, [0.997, 1.003], false), None);
        assert!(!run_table(&r).contains("FAIL"));
    }

    #[test]
    fn a_bucket_short_of_positions_is_noted() {
        let mut r = crate::suite::report::tests::sample_report();
        assert!(!run_table(&r).contains("positions:"));
        r.positions.per_bucket = 256;
        let t = run_table(&r);
        assert!(
            t.contains("positions: fewer positions than the 256 per bucket asked (the sources hold no more distinct ones): opening 2\n"),
            "{t}"
        );
    }

    #[test]
    fn precision_outcome_is_the_widest_bucket_ratio() {
        let mut r = crate::suite::report::tests::sample_report();
        let b = &mut r.benchmarks[0];
        // The sample's candidate reads 0.50 [0.49, 0.51]: ±2%.
        let p = crate::suite::report::PrecisionOutcome::of(b, 0.01, 12.0);
        assert!((p.widest - 0.02).abs() < 1e-9, "{p:?}");
        assert!(!p.met);
        assert!(crate::suite::report::PrecisionOutcome::of(b, 0.025, 12.0).met);
        b.precision = Some(p);
        let t = run_table(&r);
        assert!(t.contains("precision ±1.0%: NOT met (widest combined interval ±2.00%;"), "{t}");
    }
}
