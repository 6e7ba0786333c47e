//! The summary table printed on stdout after a run: per benchmark and
//! bucket, the baseline's cost, each implementation's cost, the ratio to
//! the baseline with its 95% interval over the measuring processes, the
//! ratio's two variance components (between processes, within one), and
//! each implementation's correlation with men on the board; then the
//! controls with PASS/FAIL.

use crate::measure::runner::Role;
use crate::suite::report::{BenchReport, RunReport};
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
        let base = bucket.arms.iter().find(|a| a.role == Role::Baseline).expect("baseline");
        for a in bucket.arms.iter().filter(|a| a.role == Role::Candidate) {
            let ratio = a.ratio.expect("candidate has a ratio");
            let components = a
                .ratio_spread
                .as_ref()
                .map_or("-".to_string(), |c| format!("{:.2}% / {:.2}%", c.between_sd * 100.0, c.within_sd * 100.0));
            let _ = writeln!(
                s,
                "  {:<11} {:<22} {:>10.1} {:>10.1}  {:<28} {:>15} {:>7}",
                bucket.bucket,
                a.arm,
                base.summary.floor,
                a.summary.floor,
                format!("{:.4} [{:.4}, {:.4}]", ratio.estimate, ratio.interval[0], ratio.interval[1]),
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
            "  control {:<11} {:<arm_width$} {:.4} [{:.4}, {:.4}]{} expected {:.2} ± {:.0}%: {}",
            c.bucket,
            c.arm,
            c.ratio.estimate,
            c.ratio.interval[0],
            c.ratio.interval[1],
            if (c.level - 0.95).abs() > 1e-9 { format!(" ({:.1}%)", c.level * 100.0) } else { String::new() },
            c.expected,
            c.tolerance * 100.0,
            if c.pass { "PASS" } else { "FAIL" }
        );
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
