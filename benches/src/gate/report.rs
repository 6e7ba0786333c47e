//! The gate's report: the JSON document (both builds, both checks'
//! outcomes, the verdict) and the tables and summary line printed from it.

use crate::gate::builds::BuildInfo;
use crate::gate::cause::PlacementPolicy;
use crate::gate::decision::unjudged;
use crate::gate::instructions::counts::CountOutcome;
use crate::gate::timing::outcome::{TimingCase, TimingOutcome};
use crate::gate::verdict::{exit, Cause, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

pub const REPORT_SCHEMA: &str = "boardbench.gate/2";

/// What `boardbench gate` writes (`results/runs/gate-*.json`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GateReport {
    pub schema: String,
    pub date: String,
    pub duration_s: f64,
    pub command_line: Vec<String>,
    pub cpu_model: Option<String>,
    pub load_average_start: Option<[f64; 3]>,
    pub load_average_end: Option<[f64; 3]>,
    pub core: usize,
    /// What a placement regression does (fail or warn).
    pub placement: PlacementPolicy,
    pub base: BuildInfo,
    pub candidate: BuildInfo,
    pub timing: Option<TimingOutcome>,
    pub timing_s: f64,
    pub counts: Option<CountOutcome>,
    pub counts_s: f64,
    /// "pass", "regression", "cannot judge", "undecided".
    pub verdict: String,
    pub exit_status: i32,
}

/// Tables of a gate report.
pub fn tables(r: &GateReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "gate: candidate {} vs base {} (core {}; load {} -> {})",
        r.candidate.label,
        r.base.label,
        r.core,
        r.load_average_start.map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into()),
        r.load_average_end.map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into()),
    );
    if let Some(t) = &r.timing {
        timing_table(&mut s, t);
    }
    if let Some(c) = &r.counts {
        let _ = writeln!(
            s,
            "\ninstructions (gungraun/callgrind) of one pass over a bucket's {} positions (a benchmark calls once \
             per position it applies to); baseline {}; fail above +{:.1}%",
            c.calls_per_pass,
            c.baseline,
            c.limit * 100.0
        );
        let _ = writeln!(
            s,
            "  {:<18} {:<11} {:<16} {:>12} {:>12} {:>9}  verdict",
            "benchmark", "bucket", "arm", "base/pass", "cand/pass", "change"
        );
        for x in &c.cases {
            let _ = writeln!(
                s,
                "  {:<18} {:<11} {:<16} {:>12} {:>12} {:>9}  {}",
                x.case.bench,
                x.case.bucket,
                x.case.arm,
                x.base,
                x.candidate.map(|v| v.to_string()).unwrap_or_else(|| "-".into()),
                x.change.map(|v| format!("{:+.2}%", v * 100.0)).unwrap_or_else(|| "-".into()),
                match x.verdict {
                    Verdict::Regression => "REGRESSION",
                    Verdict::Faster => "fewer",
                    Verdict::Ok => "ok",
                    Verdict::CannotJudge | Verdict::Undecided => "CANNOT JUDGE",
                }
            );
        }
        for u in c.cases.iter().filter_map(|x| x.cannot_judge.as_ref()).chain(&c.new_cases) {
            let _ = writeln!(s, "  {u}");
        }
    }
    let _ = writeln!(s, "\n{}", summary_line(r));
    s
}

/// How a timing case reads in the verdict column.
fn verdict_words(c: &TimingCase) -> String {
    let instr = match c.instructions {
        Some(x) if x.abs() <= crate::gate::cause::SAME_INSTRUCTIONS => "same instructions".to_string(),
        Some(x) => format!("instructions {:+.2}%", x * 100.0),
        None => "instructions not counted".to_string(),
    };
    match (c.verdict, c.cause) {
        (Verdict::Regression, _) if c.warning => format!("warning: slower, placement ({instr})"),
        (Verdict::Regression, Some(Cause::Placement)) => format!("REGRESSION, placement ({instr})"),
        (Verdict::Regression, Some(Cause::Instructions)) => format!("REGRESSION ({instr})"),
        (Verdict::Regression, _) => "REGRESSION".to_string(),
        (Verdict::Undecided, _) => format!("UNDECIDED: {}", c.undecided.as_deref().unwrap_or("")),
        (Verdict::Faster, _) => "faster".to_string(),
        (Verdict::Ok, _) => "ok".to_string(),
        (Verdict::CannotJudge, _) => "CANNOT JUDGE".to_string(),
    }
}

/// `x [low, high]`, or `-` before enough visits.
fn interval_text(i: &Option<crate::gate::timing::paired::Interval>) -> String {
    match i {
        Some(i) => format!("{:.4} [{:.4}, {:.4}]", i.estimate, i.low, i.high),
        None => "-".to_string(),
    }
}

fn timing_table(s: &mut String, t: &TimingOutcome) {
    let _ = writeln!(
        s,
        "\ntiming: lock-step pairs ({} pairing on core{} {}), {:.0} s measured of a {:.0} s budget \
         ({:.1} s of it starting {} generations of workers, one visit of each open case per generation); per case \
         the median over visits of each visit's median paired ratio, {:.0}% order-statistic intervals; regression above +{:.1}%, pass below it, \
         A/A within ±{:.1}%",
        t.pairing.name(),
        if t.cores.len() > 1 { "s" } else { "" },
        t.cores.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" and "),
        t.measured_s,
        t.budget_s,
        t.startup_s,
        t.generations,
        t.level * 100.0,
        t.threshold * 100.0,
        t.aa_bound * 100.0
    );
    let _ = writeln!(
        s,
        "  {:<20} {:<11} {:<14} {:>6} {:>9} {:>9}  {:<26} {:<26} {:>6}  verdict",
        "benchmark", "bucket", "arm", "visits", "base", "cand", "cand/base [interval]", "A/A [interval]", "at s"
    );
    for c in &t.cases {
        let _ = writeln!(
            s,
            "  {:<20} {:<11} {:<14} {:>6} {:>9.1} {:>9.1}  {:<26} {:<26} {:>6}  {}",
            c.case.bench,
            c.case.bucket,
            c.case.arm,
            c.per_visit.len(),
            c.base,
            c.candidate,
            interval_text(&c.ratio),
            interval_text(&c.aa),
            c.decided_s.map(|x| format!("{x:.1}")).unwrap_or_else(|| "-".into()),
            verdict_words(c)
        );
    }
    for u in t.unmatched.iter().chain(&t.new_cases) {
        let _ = writeln!(s, "  {u}");
    }
}

/// The last line: the verdict, naming every regressed case.
pub fn summary_line(r: &GateReport) -> String {
    let mut named = Vec::new();
    let mut warned = Vec::new();
    let mut open = Vec::new();
    if let Some(t) = &r.timing {
        for c in t.cases.iter().filter(|c| c.verdict == Verdict::Regression) {
            let time = c.ratio.map_or(0.0, |i| (i.estimate - 1.0) * 100.0);
            let cause = match (c.cause, c.instructions) {
                (Some(Cause::Placement), _) => ", same instructions: placement".to_string(),
                (Some(Cause::Instructions), Some(x)) => format!(", instructions {:+.2}%", x * 100.0),
                _ => String::new(),
            };
            let line = format!("{} (time {time:+.1}%{cause})", c.case);
            if c.warning {
                warned.push(line);
            } else {
                named.push(line);
            }
        }
        open.extend(t.cases.iter().filter(|c| c.verdict == Verdict::Undecided).map(|c| c.case.to_string()));
    }
    if let Some(c) = &r.counts {
        for x in c.cases.iter().filter(|x| x.verdict == Verdict::Regression) {
            named.push(format!("{} (instructions {:+.2}%)", x.case, x.change.unwrap_or(0.0) * 100.0));
        }
    }
    let warnings = if warned.is_empty() {
        String::new()
    } else {
        format!("; warning, slower with the same instructions (placement): {}", warned.join("; "))
    };
    match r.exit_status {
        exit::PASS => format!(
            "gate: PASS ({:.0} s; builds {:.0} s + {:.0} s, timing {:.0} s, instructions {:.0} s){warnings}",
            r.duration_s, r.base.build_s, r.candidate.build_s, r.timing_s, r.counts_s
        ),
        exit::REGRESSION => format!("gate: FAIL, regression in {}{warnings}", named.join("; ")),
        exit::ERROR => {
            let why = unjudged(r.timing.as_ref(), r.counts.as_ref());
            let more = if why.len() > 3 { format!("; and {} more (see above)", why.len() - 3) } else { String::new() };
            format!("gate: FAIL, {}{more}", why[..why.len().min(3)].join("; "))
        }
        _ => {
            let n = open.len();
            let more = if n > 3 { format!(" and {} more", n - 3) } else { String::new() };
            format!(
                "gate: UNDECIDED, {n} case(s) not decided within {:.0} s: {}{more} (no regression in the others; \
                 the machine was too noisy for these: rerun, or raise --budget){warnings}",
                r.timing.as_ref().map_or(0.0, |t| t.budget_s),
                open[..n.min(3)].join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::cause::mark;
    use crate::gate::decision::decide;
    use crate::gate::instructions::counts::{judge_counts, CountOutcome};
    use crate::gate::timing::outcome::tests::outcome_of;
    use std::path::PathBuf;

    fn report(timing: TimingOutcome, counts: Option<CountOutcome>) -> GateReport {
        let (exit_status, verdict) = decide(Some(&timing), counts.as_ref());
        let build = |role: &str| BuildInfo {
            role: role.into(),
            commit: None,
            label: role.into(),
            features: vec![],
            env: vec![],
            source: PathBuf::new(),
            target_dir: PathBuf::new(),
            build_s: 0.0,
        };
        GateReport {
            schema: REPORT_SCHEMA.into(),
            date: String::new(),
            duration_s: 0.0,
            command_line: vec![],
            cpu_model: None,
            load_average_start: None,
            load_average_end: None,
            core: 1,
            placement: PlacementPolicy::Fail,
            base: build("base"),
            candidate: build("candidate"),
            timing: Some(timing),
            timing_s: 0.0,
            counts,
            counts_s: 0.0,
            verdict: verdict.into(),
            exit_status,
        }
    }

    #[test]
    fn the_summary_names_what_cannot_be_judged() {
        let mut t = outcome_of(&[Verdict::Ok, Verdict::Ok]);
        t.unmatched.push(
            "cannot judge case movegenbench opening mailbox: the candidate does not measure it (removed or renamed?)"
                .into(),
        );
        t.new_cases.push("new case movegenbench opening mailbox2: only the candidate measures it (not judged)".into());
        let r = report(t, None);
        assert_eq!(
            summary_line(&r),
            "gate: FAIL, cannot judge case movegenbench opening mailbox: the candidate does not measure it \
             (removed or renamed?)"
        );
        let text = tables(&r);
        assert!(text.contains("\n  cannot judge case movegenbench opening mailbox: "), "{text}");
        assert!(text.contains("\n  new case movegenbench opening mailbox2: only the candidate measures it"), "{text}");
    }

    #[test]
    fn regressions_are_named_with_their_cause_and_undecided_cases_listed() {
        let mut t = outcome_of(&[Verdict::Regression, Verdict::Regression, Verdict::Undecided, Verdict::Ok]);
        let ids: Vec<_> = t.cases.iter().map(|c| c.case.clone()).collect();
        let counts = CountOutcome {
            baseline: "b".into(),
            limit: 0.01,
            calls_per_pass: 32,
            cases: judge_counts(&ids, &[1000; 4], &[Some(1020), Some(1000), Some(1000), Some(1000)], 0.01),
            new_cases: vec![],
            regressions: 1,
            gungraun_status: 3,
        };
        mark(&mut t, Some(&counts), PlacementPolicy::Fail);
        let r = report(t.clone(), Some(counts.clone()));
        assert_eq!(
            summary_line(&r),
            "gate: FAIL, regression in movegenbench opening mailbox (time +5.0%, instructions +2.00%); \
             movegenbench opening bitboard (time +5.0%, same instructions: placement); \
             movegenbench opening mailbox (instructions +2.00%)"
        );
        let text = tables(&r);
        assert!(text.contains("REGRESSION, placement (same instructions)"), "{text}");
        assert!(text.contains("UNDECIDED: the time budget ran out"), "{text}");
        // Warned, the placement case no longer fails; the undecided one
        // then decides the status.
        let mut t = outcome_of(&[Verdict::Ok, Verdict::Regression, Verdict::Undecided]);
        let ids: Vec<_> = t.cases.iter().map(|c| c.case.clone()).collect();
        let same = CountOutcome {
            cases: judge_counts(&ids, &[1000; 3], &[Some(1000); 3], 0.01),
            regressions: 0,
            gungraun_status: 0,
            ..counts
        };
        mark(&mut t, Some(&same), PlacementPolicy::Warn);
        let r = report(t, Some(same));
        assert_eq!(r.exit_status, exit::TOO_NOISY);
        let line = summary_line(&r);
        assert!(
            line.starts_with("gate: UNDECIDED, 1 case(s) not decided within 60 s: getattacksbench endgame mailbox"),
            "{line}"
        );
        assert!(line.ends_with("; warning, slower with the same instructions (placement): movegenbench opening bitboard (time +5.0%, same instructions: placement)"), "{line}");
    }
}
