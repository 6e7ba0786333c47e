//! The gate's decision from the checks' outcomes: a definite regression
//! wins (an undecided case elsewhere does not hide it); then a case that
//! cannot be judged (an error: it will not go away on a rerun, unlike
//! noise); then an undecided case (too noisy to judge it: its own exit
//! status); else a pass. Each timing case is decided on its own, so one
//! noisy case leaves the verdicts on the others as they are. Neither check
//! skips what it cannot judge, and a check that judged nothing is no pass.

use crate::gate::instructions::counts::CountOutcome;
use crate::gate::timing::outcome::TimingOutcome;
use crate::gate::verdict::{exit, Verdict};

/// Why the checks' outcomes cannot pass: every case a check could not
/// judge, and a check (or the gate) that judged nothing at all.
pub fn unjudged(timing: Option<&TimingOutcome>, counts: Option<&CountOutcome>) -> Vec<String> {
    let mut why = Vec::new();
    if timing.is_none() && counts.is_none() {
        why.push("cannot judge: judged nothing (both checks skipped)".to_string());
    }
    if let Some(t) = timing {
        if t.cases.is_empty() {
            why.push("cannot judge: the timing check judged nothing".to_string());
        }
        why.extend(t.unmatched.iter().cloned());
    }
    if let Some(c) = counts {
        if c.cases.iter().all(|x| x.verdict == Verdict::CannotJudge) {
            why.push("cannot judge: the instruction-count check judged nothing".to_string());
        }
        why.extend(c.cases.iter().filter_map(|x| x.cannot_judge.clone()));
    }
    why
}

/// The exit status and verdict word of the checks' outcomes.
pub fn decide(timing: Option<&TimingOutcome>, counts: Option<&CountOutcome>) -> (i32, &'static str) {
    let count_regr = counts.is_some_and(|c| c.regressions > 0);
    let time_regr = timing.is_some_and(|t| t.regressions > 0);
    if count_regr || time_regr {
        (exit::REGRESSION, "regression")
    } else if !unjudged(timing, counts).is_empty() {
        (exit::ERROR, "cannot judge")
    } else if timing.is_some_and(|t| t.undecided > 0) {
        (exit::TOO_NOISY, "undecided")
    } else {
        (exit::PASS, "pass")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::instructions::counts::{judge_counts, CountCase};
    use crate::gate::timing::outcome::tests::{outcome_of, CASES};
    use crate::measure::case::CaseId;

    #[test]
    fn unchanged_passes_and_a_regression_fails_naming_only_its_case() {
        let t = outcome_of(&[Verdict::Ok, Verdict::Ok, Verdict::Faster, Verdict::Ok]);
        assert_eq!(decide(Some(&t), None), (exit::PASS, "pass"));
        let t = outcome_of(&[Verdict::Ok, Verdict::Ok, Verdict::Ok, Verdict::Regression]);
        assert_eq!(decide(Some(&t), None), (exit::REGRESSION, "regression"));
        let named: Vec<String> =
            t.cases.iter().filter(|c| c.verdict == Verdict::Regression).map(|c| c.case.to_string()).collect();
        assert_eq!(named, ["getattacksbench endgame bitboard"]);
    }

    #[test]
    fn one_noisy_case_does_not_void_the_others() {
        // Undecided alone: its own status.
        let t = outcome_of(&[Verdict::Ok, Verdict::Undecided, Verdict::Ok, Verdict::Ok]);
        assert_eq!(decide(Some(&t), None), (exit::TOO_NOISY, "undecided"));
        // A regression elsewhere is still a regression.
        let t = outcome_of(&[Verdict::Ok, Verdict::Undecided, Verdict::Ok, Verdict::Regression]);
        assert_eq!(decide(Some(&t), None), (exit::REGRESSION, "regression"));
        // An instruction-count regression is definite whatever the timing.
        let counts = count_outcome(vec![], 1, 3);
        let t = outcome_of(&[Verdict::Undecided; 4]);
        assert_eq!(decide(Some(&t), Some(&counts)).0, exit::REGRESSION);
        // A placement warning is not a failure.
        let mut t = outcome_of(&[Verdict::Ok, Verdict::Regression]);
        t.cases[1].warning = true;
        t.tally();
        assert_eq!(decide(Some(&t), None), (exit::PASS, "pass"));
    }

    /// An instruction-count outcome of `cases` with gungraun's `status`.
    fn count_outcome(cases: Vec<CountCase>, regressions: usize, status: i32) -> CountOutcome {
        CountOutcome {
            baseline: "b".into(),
            limit: 0.01,
            calls_per_pass: 32,
            cases,
            new_cases: vec![],
            regressions,
            gungraun_status: status,
        }
    }

    #[test]
    fn missing_cases_fail_and_new_ones_are_listed() {
        let mut t = outcome_of(&[Verdict::Ok; 3]);
        t.unmatched.push("cannot judge case movegenbench opening bitboard: the candidate does not measure it".into());
        t.new_cases.push("new case getattacksbench opening pext: only the candidate measures it (not judged)".into());
        assert_eq!(decide(Some(&t), None), (exit::ERROR, "cannot judge"));
        // A new case alone is no failure: nothing to regress from.
        let mut t = outcome_of(&[Verdict::Ok; 3]);
        t.new_cases.push("new case getattacksbench opening pext: only the candidate measures it (not judged)".into());
        assert_eq!(decide(Some(&t), None), (exit::PASS, "pass"));
        // Cannot judge outranks undecided; a regression outranks both.
        let mut t = outcome_of(&[Verdict::Undecided, Verdict::Ok]);
        t.unmatched.push("cannot judge case x: why".into());
        assert_eq!(decide(Some(&t), None), (exit::ERROR, "cannot judge"));
        let mut t = outcome_of(&[Verdict::Regression, Verdict::Ok]);
        t.unmatched.push("cannot judge case x: why".into());
        assert_eq!(decide(Some(&t), None).0, exit::REGRESSION, "a definite regression still says so");
    }

    #[test]
    fn a_check_that_judged_nothing_is_not_a_pass() {
        let t = outcome_of(&[]);
        assert_eq!(decide(Some(&t), None), (exit::ERROR, "cannot judge"));
        assert_eq!(decide(None, None), (exit::ERROR, "cannot judge"));
        let counts = count_outcome(vec![], 0, 0);
        assert_eq!(decide(None, Some(&counts)), (exit::ERROR, "cannot judge"));
        assert!(unjudged(None, Some(&counts)).iter().any(|u| u.contains("judged nothing")));
    }

    #[test]
    fn instruction_counts_the_candidate_lacks_are_not_a_pass() {
        let ids: Vec<CaseId> =
            CASES.iter().map(|&(b, k, a)| CaseId { bench: b.into(), bucket: k.into(), arm: a.into() }).collect();
        let outcome = |cases: Vec<CountCase>| {
            let regressions = cases.iter().filter(|c| c.verdict == Verdict::Regression).count();
            count_outcome(cases, regressions, 0)
        };
        // Every case renamed in the candidate (--no-timing: this is the only check).
        let gone = judge_counts(&ids, &[1000; 4], &[None; 4], 0.01);
        assert_eq!(decide(None, Some(&outcome(gone))), (exit::ERROR, "cannot judge"));
        // One case gone, the others unchanged; zero counts are no measurement.
        for cand in [[Some(1000), None, Some(1000), Some(1000)], [Some(1000), Some(0), Some(1000), Some(1000)]] {
            let v = judge_counts(&ids, &[1000; 4], &cand, 0.01);
            assert_eq!(decide(None, Some(&outcome(v))), (exit::ERROR, "cannot judge"), "{cand:?}");
        }
        let v = judge_counts(&ids, &[1000, 0, 1000, 1000], &[Some(1000); 4], 0.01);
        let why = unjudged(None, Some(&outcome(v)));
        assert_eq!(why, ["cannot judge case movegenbench opening bitboard: the base counted 0 instructions"]);
    }
}
