//! The instruction check's judgement (pure): a case regresses when its
//! count rose by more than the limit; a case the candidate lacks, or a
//! count of 0, cannot be judged. And the total a callgrind file holds.

use crate::gate::verdict::Verdict;
use crate::measure::case::CaseId;
use serde::{Deserialize, Serialize};

/// One case's instruction counts.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CountCase {
    pub case: CaseId,
    /// Instructions of one pass (CALLGRIND_PER_BUCKET calls), base and candidate.
    pub base: u64,
    pub candidate: Option<u64>,
    /// candidate / base - 1.
    pub change: Option<f64>,
    pub verdict: Verdict,
    /// Why the verdict is [`Verdict::CannotJudge`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cannot_judge: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CountOutcome {
    pub baseline: String,
    pub limit: f64,
    /// Positions per bucket of one counted pass. Not the calls of every
    /// case: a benchmark that applies to fewer of them (mobility of a piece
    /// type the position lacks) calls fewer times.
    pub calls_per_pass: usize,
    pub cases: Vec<CountCase>,
    /// Cases only the candidate has, "new case X": listed, not judged, no
    /// failure (see
    /// [`crate::gate::timing::outcome::TimingOutcome::new_cases`]). Every
    /// [`Verdict::CannotJudge`] case fails the gate.
    #[serde(default)]
    pub new_cases: Vec<String>,
    pub regressions: usize,
    /// gungraun's own exit status on the candidate run (3 = regression).
    pub gungraun_status: i32,
}

/// Judge instruction counts: an increase above `limit` (a fraction) fails;
/// a case the candidate lacks (`None`) or a count of 0 cannot be judged.
pub fn judge_counts(cases: &[CaseId], base: &[u64], cand: &[Option<u64>], limit: f64) -> Vec<CountCase> {
    cases
        .iter()
        .zip(base)
        .zip(cand)
        .map(|((id, &b), &c)| {
            // 0 is no measurement: a case a build lacks counts nothing in
            // gate_callgrind.
            let why = match c {
                None => Some("the candidate does not have it (removed or renamed?)"),
                _ if b == 0 => Some("the base counted 0 instructions"),
                Some(0) => Some("the candidate counted 0 instructions"),
                Some(_) => None,
            };
            let change = c.filter(|_| why.is_none()).map(|c| c as f64 / b as f64 - 1.0);
            // (A hair of slack so that exactly the limit, e.g. 1010/1000
            // at 1%, is not failed by floating-point rounding.)
            let verdict = match change {
                Some(x) if x > limit + 1e-12 => Verdict::Regression,
                Some(x) if x < -limit - 1e-12 => Verdict::Faster,
                Some(_) => Verdict::Ok,
                None => Verdict::CannotJudge,
            };
            let cannot_judge = why.map(|w| format!("cannot judge case {id}: {w}"));
            CountCase { case: id.clone(), base: b, candidate: c, change, verdict, cannot_judge }
        })
        .collect()
}

/// Total `Ir` of a callgrind output file (its `summary:` or `totals:` line).
pub fn callgrind_total(text: &str) -> Result<u64, String> {
    let events: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("events:"))
        .map(|e| e.split_whitespace().collect())
        .ok_or("no \"events:\" line")?;
    let at = events.iter().position(|e| *e == "Ir").ok_or("no Ir event")?;
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
        .ok_or("no \"summary:\" or \"totals:\" line")?;
    line.split_whitespace()
        .nth(at)
        .ok_or("summary line too short")?
        .parse::<u64>()
        .map_err(|e| format!("summary line: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four cases of two benchmarks.
    fn ids() -> Vec<CaseId> {
        crate::gate::timing::outcome::tests::CASES
            .iter()
            .map(|&(b, k, a)| CaseId { bench: b.into(), bucket: k.into(), arm: a.into() })
            .collect()
    }

    #[test]
    fn instruction_counts_are_judged_at_the_limit() {
        let ids = ids();
        let v = judge_counts(&ids, &[1000, 1000, 1000, 0], &[Some(1011), Some(1010), None, Some(5)], 0.01);
        assert_eq!(v[0].verdict, Verdict::Regression);
        assert_eq!(v[1].verdict, Verdict::Ok, "exactly 1% is within the limit");
        assert_eq!((v[2].verdict, v[2].change), (Verdict::CannotJudge, None));
        assert_eq!((v[3].verdict, v[3].change), (Verdict::CannotJudge, None), "no ratio against a zero base");
        let f = judge_counts(&ids[..1], &[1000], &[Some(900)], 0.01);
        assert_eq!(f[0].verdict, Verdict::Faster);
    }

    #[test]
    fn callgrind_files_are_read() {
        let text = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: Ir\nfn=foo\n0 5\nsummary: 133517\ntotals: 133517\n";
        assert_eq!(callgrind_total(text), Ok(133_517));
        let two = "events: Bc Ir\nsummary: 7 42\n";
        assert_eq!(callgrind_total(two), Ok(42));
        assert!(callgrind_total("summary: 5\n").unwrap_err().contains("events"));
        assert!(callgrind_total("events: Bc\nsummary: 5\n").unwrap_err().contains("no Ir"));
        assert!(callgrind_total("events: Ir\n").unwrap_err().contains("summary"));
        assert!(callgrind_total("events: Ir\nsummary: x\n").unwrap_err().contains("summary line"));
    }
}
