//! The gate's report: the JSON document (both builds, both checks'
//! outcomes, the verdict) and the tables and summary line printed from it.

use crate::gate::builds::BuildInfo;
use crate::gate::decision::unjudged;
use crate::gate::instructions::counts::CountOutcome;
use crate::gate::timing::analysis::TimingOutcome;
use crate::gate::verdict::{exit, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

pub const REPORT_SCHEMA: &str = "boardbench.gate/1";

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
    pub base: BuildInfo,
    pub candidate: BuildInfo,
    pub timing: Option<TimingOutcome>,
    pub timing_s: f64,
    pub counts: Option<CountOutcome>,
    pub counts_s: f64,
    /// "pass", "regression", "cannot judge", "too noisy to judge".
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
        let _ = writeln!(
            s,
            "\ntiming: rounds of (base, candidate, base again) processes per benchmark ({} for the widest A/A; \
             column n); per-process floors; ratios of lower quartiles over rounds, {:.0}% intervals; \
             fail above +{:.1}%, A/A within ±{:.1}%",
            t.rounds,
            t.level * 100.0,
            t.threshold * 100.0,
            t.aa_bound * 100.0
        );
        let _ = writeln!(
            s,
            "  {:<20} {:<11} {:<14} {:>3} {:>9} {:>9}  {:<26} {:<26} verdict",
            "benchmark", "bucket", "arm", "n", "base", "cand", "cand/base [interval]", "A/A [interval]"
        );
        for c in &t.cases {
            let v = match (c.verdict, c.aa_pass) {
                (Verdict::Regression, _) => "REGRESSION",
                (_, false) => "A/A out of bounds",
                (Verdict::Faster, _) => "faster",
                (Verdict::Ok, _) => "ok",
                (Verdict::CannotJudge, _) => "CANNOT JUDGE",
            };
            let _ = writeln!(
                s,
                "  {:<20} {:<11} {:<14} {:>3} {:>9.1} {:>9.1}  {:<26} {:<26} {v}",
                c.case.bench,
                c.case.bucket,
                c.case.arm,
                c.per_round.len(),
                c.base,
                c.candidate,
                format!("{:.4} [{:.4}, {:.4}]", c.ratio.estimate, c.ratio.interval[0], c.ratio.interval[1]),
                format!("{:.4} [{:.4}, {:.4}]", c.aa.estimate, c.aa.interval[0], c.aa.interval[1]),
            );
        }
        for u in t.unmatched.iter().chain(&t.new_cases) {
            let _ = writeln!(s, "  {u}");
        }
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
                    Verdict::CannotJudge => "CANNOT JUDGE",
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

/// The last line: the verdict, naming every regressed case.
pub fn summary_line(r: &GateReport) -> String {
    let mut named = Vec::new();
    if let Some(t) = &r.timing {
        for c in t.cases.iter().filter(|c| c.verdict == Verdict::Regression) {
            named.push(format!("{} (time {:+.1}%)", c.case, (c.ratio.estimate - 1.0) * 100.0));
        }
    }
    if let Some(c) = &r.counts {
        for x in c.cases.iter().filter(|x| x.verdict == Verdict::Regression) {
            named.push(format!("{} (instructions {:+.2}%)", x.case, x.change.unwrap_or(0.0) * 100.0));
        }
    }
    match r.exit_status {
        exit::PASS => format!(
            "gate: PASS ({:.0} s; builds {:.0} s + {:.0} s, timing {:.0} s, instructions {:.0} s)",
            r.duration_s, r.base.build_s, r.candidate.build_s, r.timing_s, r.counts_s
        ),
        exit::REGRESSION => format!("gate: FAIL, regression in {}", named.join("; ")),
        exit::ERROR => {
            let why = unjudged(r.timing.as_ref(), r.counts.as_ref());
            let more = if why.len() > 3 { format!("; and {} more (see above)", why.len() - 3) } else { String::new() };
            format!("gate: FAIL, {}{more}", why[..why.len().min(3)].join("; "))
        }
        _ => {
            let n = r.timing.as_ref().map_or(0, |t| t.aa_failures);
            format!(
                "gate: too noisy to judge: {n} A/A control(s) outside ±{:.1}% (another job is loading the machine; rerun when it is quieter)",
                r.timing.as_ref().map_or(0.0, |t| t.aa_bound * 100.0)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::decision::decide;
    use crate::gate::timing::analysis::analyse;
    use crate::gate::timing::analysis::tests::runs;
    use engine::rng::Rng;
    use std::path::PathBuf;

    #[test]
    fn the_summary_names_what_cannot_be_judged() {
        let mut rng = Rng::new(9);
        let base = runs(&mut rng, 4, |_| 1.0, 0.0);
        let mut cand = base.clone();
        for s in cand.iter_mut() {
            s.benches[0].cases[0].arm = "mailbox2".into();
        }
        let timing = analyse(&base, &cand, &base, 0.03, 0.06);
        let (exit_status, verdict) = decide(Some(&timing), None);
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
        let r = GateReport {
            schema: REPORT_SCHEMA.into(),
            date: String::new(),
            duration_s: 0.0,
            command_line: vec![],
            cpu_model: None,
            load_average_start: None,
            load_average_end: None,
            core: 1,
            base: build("base"),
            candidate: build("candidate"),
            timing: Some(timing),
            timing_s: 0.0,
            counts: None,
            counts_s: 0.0,
            verdict: verdict.into(),
            exit_status,
        };
        assert_eq!(
            summary_line(&r),
            "gate: FAIL, cannot judge case movegenbench opening mailbox: the candidate does not measure it \
             (removed or renamed?)"
        );
        let t = tables(&r);
        assert!(t.contains("\n  cannot judge case movegenbench opening mailbox: "), "{t}");
        assert!(t.contains("\n  new case movegenbench opening mailbox2: only the candidate measures it"), "{t}");
    }
}
