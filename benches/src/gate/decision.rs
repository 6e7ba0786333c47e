//! The gate's decision from the checks' outcomes: a definite regression
//! wins; then a case that cannot be judged (an error: it will not go away
//! on a rerun, unlike noise); then noise (an A/A control out of bounds);
//! else a pass. Neither check skips what it cannot judge, and a check that
//! judged nothing is no pass.

use crate::gate::instructions::counts::CountOutcome;
use crate::gate::timing::analysis::TimingOutcome;
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

/// The exit status and verdict word of the checks' outcomes. A definite
/// regression wins; then a case that cannot be judged (an error: it will
/// not go away on a rerun, unlike noise); then noise.
pub fn decide(timing: Option<&TimingOutcome>, counts: Option<&CountOutcome>) -> (i32, &'static str) {
    let count_regr = counts.is_some_and(|c| c.regressions > 0);
    let noisy = timing.is_some_and(|t| t.too_noisy());
    let time_regr = timing.is_some_and(|t| !t.too_noisy() && t.regressions > 0);
    if count_regr || time_regr {
        (exit::REGRESSION, "regression")
    } else if !unjudged(timing, counts).is_empty() {
        (exit::ERROR, "cannot judge")
    } else if noisy {
        (exit::TOO_NOISY, "too noisy to judge")
    } else {
        (exit::PASS, "pass")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::instructions::counts::{judge_counts, CountCase};
    use crate::gate::timing::analysis::tests::{new_pext_case, runs, ten_times_slower, CASES};
    use crate::gate::timing::analysis::{analyse, LEVEL};
    use crate::measure::case::CaseId;
    use engine::rng::Rng;

    #[test]
    fn unchanged_passes_and_a_slowdown_fails_naming_only_its_case() {
        let mut rng = Rng::new(1);
        let base = runs(&mut rng, 12, |_| 1.0, 0.004);
        let aa = runs(&mut rng, 12, |_| 1.0, 0.004);
        let same = runs(&mut rng, 12, |_| 1.0, 0.004);
        let t = analyse(&base, &same, &aa, 0.03, 0.015);
        assert_eq!(t.cases.len(), 4);
        assert_eq!((t.regressions, t.aa_failures), (0, 0), "{t:#?}");
        assert_eq!(t.level, LEVEL);
        assert_eq!(decide(Some(&t), None), (exit::PASS, "pass"));
        // Case 3 (getattacksbench endgame bitboard) 6% slower.
        let slow = runs(&mut rng, 12, |i| if i == 3 { 1.06 } else { 1.0 }, 0.004);
        let t = analyse(&base, &slow, &aa, 0.03, 0.015);
        let regressed: Vec<String> =
            t.cases.iter().filter(|c| c.verdict == Verdict::Regression).map(|c| c.case.to_string()).collect();
        assert_eq!(regressed, ["getattacksbench endgame bitboard"]);
        assert_eq!(decide(Some(&t), None).0, exit::REGRESSION);
        // Registry order, not alphabetical.
        assert_eq!(t.cases[0].case.bench, "movegenbench");
        assert!((t.cases[3].ratio.estimate - 1.06).abs() < 0.01);
        // 2% slower is inside the 3% threshold: not a regression.
        let a_bit = runs(&mut rng, 12, |i| if i == 3 { 1.02 } else { 1.0 }, 0.004);
        assert_eq!(analyse(&base, &a_bit, &aa, 0.03, 0.015).regressions, 0);
        // Faster is reported, never a failure.
        let fast = runs(&mut rng, 12, |i| if i == 0 { 0.8 } else { 1.0 }, 0.004);
        let t = analyse(&base, &fast, &aa, 0.03, 0.015);
        assert_eq!(t.cases[0].verdict, Verdict::Faster);
        assert_eq!(decide(Some(&t), None).0, exit::PASS);
    }

    #[test]
    fn a_noisy_control_means_too_noisy_not_pass_or_fail() {
        let mut rng = Rng::new(2);
        let base = runs(&mut rng, 12, |_| 1.0, 0.004);
        // The second base process disagrees with the first by 4% on one case.
        let aa = runs(&mut rng, 12, |i| if i == 1 { 1.04 } else { 1.0 }, 0.004);
        let same = runs(&mut rng, 12, |_| 1.0, 0.004);
        let t = analyse(&base, &same, &aa, 0.03, 0.015);
        assert_eq!(t.aa_failures, 1);
        assert!(t.too_noisy());
        assert_eq!(decide(Some(&t), None), (exit::TOO_NOISY, "too noisy to judge"));
        // Large noise everywhere: wide A/A intervals fail their bounds.
        let base = runs(&mut rng, 12, |_| 1.0, 0.08);
        let aa = runs(&mut rng, 12, |_| 1.0, 0.08);
        let slow = runs(&mut rng, 12, |i| if i == 3 { 1.05 } else { 1.0 }, 0.08);
        let t = analyse(&base, &slow, &aa, 0.03, 0.015);
        assert!(t.too_noisy(), "{t:#?}");
        assert_ne!(decide(Some(&t), None).0, exit::PASS);
        // An instruction-count regression is definite even when timing is noisy.
        let counts = count_outcome(vec![], 1, 3);
        assert_eq!(decide(Some(&t), Some(&counts)).0, exit::REGRESSION);
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
        let mut rng = Rng::new(3);
        let base = runs(&mut rng, 4, |_| 1.0, 0.0);
        let aa = base.clone();
        let mut cand = runs(&mut rng, 4, |_| 1.0, 0.0);
        for s in cand.iter_mut() {
            s.benches[0].cases.remove(1);
            s.benches[1].cases.push(new_pext_case());
        }
        let t = analyse(&base, &cand, &aa, 0.03, 0.015);
        assert_eq!(t.cases.len(), 3);
        assert_eq!(
            t.unmatched,
            ["cannot judge case movegenbench opening bitboard: the candidate does not measure it (removed or renamed?)"]
        );
        assert_eq!(t.new_cases, ["new case getattacksbench opening pext: only the candidate measures it (not judged)"]);
        assert_eq!(decide(Some(&t), None), (exit::ERROR, "cannot judge"));
        // A new case alone is no failure: nothing to regress from.
        let mut cand = base.clone();
        for s in cand.iter_mut() {
            s.benches[1].cases.push(new_pext_case());
        }
        let t = analyse(&base, &cand, &aa, 0.03, 0.015);
        assert!(t.unmatched.is_empty() && t.new_cases.len() == 1, "{t:?}");
        assert_eq!(decide(Some(&t), None), (exit::PASS, "pass"));
        // Missing from one process only: named with its round.
        let mut cand = base.clone();
        cand[2].benches[0].cases.remove(0);
        let t = analyse(&base, &cand, &aa, 0.03, 0.015);
        assert_eq!(
            t.unmatched,
            ["cannot judge case movegenbench opening mailbox: 1 of 12 processes: \
              the candidate process of round 3 did not measure it"]
        );
    }

    #[test]
    fn floors_in_different_units_are_not_compared() {
        let mut rng = Rng::new(4);
        let base = runs(&mut rng, 4, |_| 1.0, 0.0);
        let aa = base.clone();
        // The candidate's getattacksbench fell back to nanoseconds.
        let mut cand = base.clone();
        for s in cand.iter_mut() {
            s.benches[1].unit = "ns per call".into();
        }
        let t = analyse(&base, &cand, &aa, 0.03, 0.015);
        assert_eq!(t.cases.len(), 2, "{t:?}");
        assert_eq!(t.unmatched.len(), 2, "{t:?}");
        assert_eq!(
            t.unmatched[0],
            "cannot judge case getattacksbench endgame mailbox: its floors are in different units \
             (ns per call, ticks per call): the builds measured with different clocks"
        );
        assert_eq!(decide(Some(&t), None), (exit::ERROR, "cannot judge"));
    }

    #[test]
    fn a_renamed_arm_is_not_a_pass() {
        let mut rng = Rng::new(6);
        let base = runs(&mut rng, 16, |_| 1.0, 0.004);
        let aa = runs(&mut rng, 16, |_| 1.0, 0.004);
        // Every arm renamed: the candidate measures other cases only.
        let mut cand = ten_times_slower(&mut rng);
        for s in cand.iter_mut() {
            for b in s.benches.iter_mut() {
                for c in b.cases.iter_mut() {
                    c.arm.push_str("-v2");
                }
            }
        }
        let t = analyse(&base, &cand, &aa, 0.03, 0.06);
        assert!(t.cases.is_empty());
        assert_eq!(decide(Some(&t), None), (exit::ERROR, "cannot judge"));
        assert!(t.unmatched.iter().any(
            |u| u.starts_with("cannot judge case movegenbench opening mailbox: the candidate does not measure it")
        ));
        assert!(t
            .new_cases
            .iter()
            .any(|u| u.starts_with("new case movegenbench opening mailbox-v2: only the candidate")));
        // One arm renamed, the other three judged: still not a pass.
        let mut cand = runs(&mut rng, 16, |_| 1.0, 0.004);
        for s in cand.iter_mut() {
            s.benches[1].cases[1].arm = "magic".into();
        }
        let t = analyse(&base, &cand, &aa, 0.03, 0.06);
        assert_eq!(t.cases.len(), 3);
        assert_eq!(decide(Some(&t), None), (exit::ERROR, "cannot judge"));
    }

    #[test]
    fn invalid_candidate_floors_are_not_a_pass() {
        let mut rng = Rng::new(7);
        let base = runs(&mut rng, 16, |_| 1.0, 0.004);
        let aa = runs(&mut rng, 16, |_| 1.0, 0.004);
        for bad in [f64::NAN, 0.0, -5.0, f64::INFINITY] {
            let mut cand = runs(&mut rng, 16, |_| 1.0, 0.004);
            for s in cand.iter_mut() {
                for b in s.benches.iter_mut() {
                    for c in b.cases.iter_mut() {
                        c.floor = bad;
                    }
                }
            }
            let t = analyse(&base, &cand, &aa, 0.03, 0.06);
            assert!(t.cases.is_empty(), "{bad}");
            assert_eq!(decide(Some(&t), None), (exit::ERROR, "cannot judge"), "{bad}");
            assert_eq!(t.unmatched.len(), 4, "{bad}: {:?}", t.unmatched);
            let want = format!("the candidate process of round 1 measured a floor of {bad}");
            assert!(t.unmatched.iter().all(|u| u.contains(&want)), "{bad}: {:?}", t.unmatched);
        }
    }

    #[test]
    fn one_invalid_base_floor_is_reported_not_dropped() {
        let mut rng = Rng::new(8);
        let mut base = runs(&mut rng, 16, |_| 1.0, 0.004);
        let aa = runs(&mut rng, 16, |_| 1.0, 0.004);
        base[7].benches[1].cases[1].floor = f64::NAN;
        let cand = ten_times_slower(&mut rng);
        let t = analyse(&base, &cand, &aa, 0.03, 0.06);
        // The other three cases are judged (and regress); the fourth is named.
        assert_eq!((t.cases.len(), t.regressions), (3, 3));
        assert_eq!(
            t.unmatched,
            ["cannot judge case getattacksbench endgame bitboard: 1 of 48 processes: \
              the base process of round 8 measured a floor of NaN"]
        );
        assert_eq!(decide(Some(&t), None).0, exit::REGRESSION, "a definite regression still says so");
        // Only that case 10x slower: cannot judge, not pass.
        let one_slow = runs(&mut rng, 16, |i| if i == 3 { 10.0 } else { 1.0 }, 0.004);
        let t = analyse(&base, &one_slow, &aa, 0.03, 0.06);
        assert_eq!((t.cases.len(), t.regressions, t.unmatched.len()), (3, 0, 1));
        assert_eq!(decide(Some(&t), None), (exit::ERROR, "cannot judge"));
    }

    #[test]
    fn a_check_that_judged_nothing_is_not_a_pass() {
        let t = analyse(&[], &[], &[], 0.03, 0.06);
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
