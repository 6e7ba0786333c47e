//! What the timing check found: per case the candidate/base ratio and the
//! A/A control with their intervals, the verdict and when it was reached,
//! the visits' own ratios (the data the verdict rests on); for the run the
//! pairing, the workers, the budget and the cases that could not be judged
//! or are new.

use crate::gate::lockstep::schedule::Pairing;
use crate::gate::timing::paired::Interval;
use crate::gate::verdict::{Cause, Verdict};
use crate::measure::case::CaseId;
use serde::{Deserialize, Serialize};

/// One case's timing comparison.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TimingCase {
    pub case: CaseId,
    pub unit: String,
    /// Median per-call cost over the visits (each visit's median sample).
    pub base: f64,
    pub candidate: f64,
    /// Candidate / base: median over visits of each visit's median paired
    /// ratio, with its order-statistic interval (`None` before enough
    /// visits).
    pub ratio: Option<Interval>,
    /// The A/A control / base, the same way.
    pub aa: Option<Interval>,
    /// Ok (a pass), Faster, Regression, or Undecided.
    pub verdict: Verdict,
    /// Why a case is undecided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undecided: Option<String>,
    /// Seconds into the measuring when the case was decided.
    pub decided_s: Option<f64>,
    /// Passes over the inputs per timed sample, calls per pass.
    pub reps: u64,
    pub calls: usize,
    /// Pairs measured (candidate/base).
    pub pairs: usize,
    /// Candidate / base and A/A / base of each visit.
    pub per_visit: Vec<f64>,
    pub aa_per_visit: Vec<f64>,
    /// The case's instruction change (candidate / base - 1), when counted.
    #[serde(default)]
    pub instructions: Option<f64>,
    /// Why a regressed case is slower.
    #[serde(default)]
    pub cause: Option<Cause>,
    /// A placement regression under `--placement warn`: reported, not a
    /// failure.
    #[serde(default)]
    pub warning: bool,
}

/// One worker as it said hello.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct WorkerInfo {
    pub role: String,
    pub pid: u32,
    pub aslr: String,
    pub pinned: bool,
    pub realtime: bool,
    pub heap_offset: usize,
    pub stack_shift: usize,
    /// Seconds from its start to its hello.
    pub ready_s: f64,
}

/// The timing check's result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TimingOutcome {
    pub pairing: Pairing,
    pub cores: Vec<usize>,
    /// Fractions.
    pub threshold: f64,
    pub aa_bound: f64,
    /// Level of every interval (each look of the sequential rule).
    pub level: f64,
    /// Seconds of measuring allowed, and used.
    pub budget_s: f64,
    pub measured_s: f64,
    /// Seconds the workers took to start (prepare cases, say hello), all
    /// generations together (part of `measured_s`).
    pub startup_s: f64,
    /// Generations of workers: each visits every case still open once,
    /// from fresh copies of the binaries (a fresh placement in memory).
    pub generations: usize,
    /// The first generation's workers.
    pub workers: Vec<WorkerInfo>,
    pub cases: Vec<TimingCase>,
    /// Median over cases of the lag-1 autocorrelation of their visits'
    /// candidate/base log-ratios: near 0 when visits are independent, as
    /// the intervals assume.
    pub visit_autocorrelation: Option<f64>,
    /// Cases that could not be judged, each "cannot judge case X: why";
    /// each fails the gate ([`crate::gate::decision::decide`]).
    pub unmatched: Vec<String>,
    /// Cases (and benchmarks) only the candidate measures, "new case X":
    /// nothing to regress from, so listed, not judged, no failure.
    #[serde(default)]
    pub new_cases: Vec<String>,
    /// Regressions that fail the gate (placement warnings left out).
    pub regressions: usize,
    /// Placement regressions under `--placement warn`.
    #[serde(default)]
    pub placement_warnings: usize,
    pub undecided: usize,
}

impl TimingOutcome {
    /// Count the verdicts.
    pub fn tally(&mut self) {
        let regressed = |c: &&TimingCase| c.verdict == Verdict::Regression;
        self.regressions = self.cases.iter().filter(regressed).filter(|c| !c.warning).count();
        self.placement_warnings = self.cases.iter().filter(regressed).filter(|c| c.warning).count();
        self.undecided = self.cases.iter().filter(|c| c.verdict == Verdict::Undecided).count();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::gate::timing::paired::Interval;

    /// Four cases of two benchmarks.
    pub(crate) const CASES: [(&str, &str, &str); 4] = [
        ("movegenbench", "opening", "mailbox"),
        ("movegenbench", "opening", "bitboard"),
        ("getattacksbench", "endgame", "mailbox"),
        ("getattacksbench", "endgame", "bitboard"),
    ];

    /// A timing case with verdict `v` (ratio 1.05 for a regression, 1.0
    /// otherwise).
    pub(crate) fn case_of(i: usize, v: Verdict) -> TimingCase {
        let (b, k, a) = CASES[i % CASES.len()];
        let r = if v == Verdict::Regression { 1.05 } else { 1.0 };
        TimingCase {
            case: CaseId { bench: b.into(), bucket: k.into(), arm: a.into() },
            unit: "ticks per call".into(),
            base: 100.0,
            candidate: 100.0 * r,
            ratio: Some(Interval { estimate: r, low: r - 0.01, high: r + 0.01 }),
            aa: Some(Interval { estimate: 1.0, low: 0.995, high: 1.005 }),
            verdict: v,
            undecided: (v == Verdict::Undecided).then(|| "the time budget ran out".to_string()),
            decided_s: (v != Verdict::Undecided).then_some(3.0),
            reps: 4,
            calls: 256,
            pairs: 800,
            per_visit: vec![r; 8],
            aa_per_visit: vec![1.0; 8],
            instructions: None,
            cause: None,
            warning: false,
        }
    }

    /// An outcome of cases with these verdicts, tallied.
    pub(crate) fn outcome_of(verdicts: &[Verdict]) -> TimingOutcome {
        let mut t = TimingOutcome {
            pairing: Pairing::Turns,
            cores: vec![1],
            threshold: 0.015,
            aa_bound: 0.015,
            level: 0.99,
            budget_s: 60.0,
            measured_s: 10.0,
            startup_s: 2.0,
            generations: 8,
            workers: vec![],
            cases: verdicts.iter().enumerate().map(|(i, &v)| case_of(i, v)).collect(),
            visit_autocorrelation: Some(0.0),
            unmatched: vec![],
            new_cases: vec![],
            regressions: 0,
            placement_warnings: 0,
            undecided: 0,
        };
        t.tally();
        t
    }

    #[test]
    fn verdicts_are_tallied_and_warnings_do_not_fail() {
        let mut t = outcome_of(&[Verdict::Regression, Verdict::Undecided, Verdict::Ok, Verdict::Faster]);
        assert_eq!((t.regressions, t.undecided, t.placement_warnings), (1, 1, 0));
        t.cases[0].warning = true;
        t.tally();
        assert_eq!((t.regressions, t.undecided, t.placement_warnings), (0, 1, 1));
    }
}
