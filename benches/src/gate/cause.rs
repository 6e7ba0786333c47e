//! Cause, not just effect: per timing case, whether the instruction count
//! moved with the time. A case slower with the same instructions did not
//! get more work; the commit moved code or data (a placement effect: real
//! for this build, so it still fails the gate by default, but the report
//! says so, and `--placement warn` makes it a warning).

use crate::gate::instructions::counts::CountOutcome;
use crate::gate::timing::outcome::TimingOutcome;
use crate::gate::verdict::{Cause, Verdict};
use serde::{Deserialize, Serialize};

/// What the gate does with a regression whose cause is placement.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum PlacementPolicy {
    /// Fail, as any regression.
    Fail,
    /// Warn, and do not fail on it.
    Warn,
}

/// An instruction count within this fraction of the base's is "the same":
/// the counted pass is deterministic, but library routines (a copy that
/// takes another path for other alignment) may differ by a few
/// instructions when data moves.
pub const SAME_INSTRUCTIONS: f64 = 0.001;

/// The cause of a slowdown, from the case's instruction change
/// (candidate / base - 1; `None` when not counted).
pub fn cause_of(instructions: Option<f64>) -> Cause {
    match instructions {
        None => Cause::Unknown,
        Some(x) if x > SAME_INSTRUCTIONS => Cause::Instructions,
        Some(_) => Cause::Placement,
    }
}

/// Mark every timing case with its instruction change and, if it regressed,
/// its cause; under `Warn`, a placement regression becomes a warning (it
/// no longer counts as a regression of the outcome).
pub fn mark(t: &mut TimingOutcome, counts: Option<&CountOutcome>, policy: PlacementPolicy) {
    for c in t.cases.iter_mut() {
        c.instructions = counts.and_then(|k| k.cases.iter().find(|x| x.case == c.case)).and_then(|x| x.change);
        if c.verdict == Verdict::Regression {
            let cause = cause_of(c.instructions);
            c.cause = Some(cause);
            c.warning = cause == Cause::Placement && policy == PlacementPolicy::Warn;
        }
    }
    t.tally();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::instructions::counts::judge_counts;
    use crate::gate::timing::outcome::tests::outcome_of;

    #[test]
    fn slower_with_the_same_instructions_is_placement() {
        assert_eq!(cause_of(None), Cause::Unknown);
        assert_eq!(cause_of(Some(0.0)), Cause::Placement);
        assert_eq!(cause_of(Some(0.0005)), Cause::Placement);
        assert_eq!(cause_of(Some(-0.02)), Cause::Placement, "fewer instructions, yet slower");
        assert_eq!(cause_of(Some(0.02)), Cause::Instructions);
        // Two regressions: one with more instructions, one with the same.
        let mut t = outcome_of(&[Verdict::Regression, Verdict::Regression, Verdict::Ok]);
        let ids: Vec<_> = t.cases.iter().map(|c| c.case.clone()).collect();
        let counts = crate::gate::instructions::counts::CountOutcome {
            baseline: "b".into(),
            limit: 0.01,
            calls_per_pass: 32,
            cases: judge_counts(&ids, &[1000, 1000, 1000], &[Some(1030), Some(1000), Some(1000)], 0.01),
            new_cases: vec![],
            regressions: 1,
            gungraun_status: 3,
        };
        for policy in [PlacementPolicy::Fail, PlacementPolicy::Warn] {
            mark(&mut t, Some(&counts), policy);
            assert_eq!(t.cases[0].cause, Some(Cause::Instructions));
            assert_eq!(t.cases[1].cause, Some(Cause::Placement));
            assert_eq!(t.cases[1].instructions, Some(0.0));
            assert_eq!(t.cases[2].cause, None, "only regressions get a cause");
            assert!(!t.cases[0].warning, "more instructions always fail");
            assert_eq!(t.cases[1].warning, policy == PlacementPolicy::Warn);
            assert_eq!(t.regressions, if policy == PlacementPolicy::Warn { 1 } else { 2 });
            assert_eq!(t.placement_warnings, if policy == PlacementPolicy::Warn { 1 } else { 0 });
        }
        // Without counts nothing is waived.
        mark(&mut t, None, PlacementPolicy::Warn);
        assert_eq!(t.cases[1].cause, Some(Cause::Unknown));
        assert_eq!((t.regressions, t.placement_warnings), (2, 0));
    }
}
