//! The sequential rule of one case (pure: unit-tested on synthetic
//! samples). After every visit the gate asks [`Rule::judge`] of the visits
//! so far; a case is decided as soon as
//!
//! * its A/A control holds: the control's interval lies within 1 ± the A/A
//!   bound (two processes of the base build agree on this case), and
//! * its candidate/base interval lies entirely above 1 + threshold (a
//!   regression) or entirely below it (a pass; "faster" when entirely below
//!   1 - threshold);
//!
//! and it is given up as soon as the control's interval lies entirely
//! outside the bound (this case cannot be measured to the threshold here:
//! more visits would only confirm that). A case still open when the time
//! budget runs out is undecided. Each case is judged on its own: a noisy
//! case leaves every other case's verdict as it is.
//!
//! Looking after every visit is a sequence of tests on growing data; the
//! level of each look is 99% (not 95%) so that the looks together stay
//! well inside a 5% error, and no case is decided before
//! [`Rule::min_visits`] visits (spread over seconds).

use crate::gate::timing::paired::{median_interval, min_values, Interval};
use serde::{Deserialize, Serialize};

/// Where a case stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    /// Not decided yet.
    Open,
    /// Interval entirely above 1 + threshold.
    Regression,
    /// Interval entirely below 1 + threshold.
    Pass,
    /// Interval entirely below 1 - threshold.
    Faster,
    /// The A/A control's interval lies entirely outside its bound.
    ControlOut,
}

/// The rule's parameters (fractions, not percent).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    pub threshold: f64,
    pub aa_bound: f64,
    /// Level of each look's intervals.
    pub level: f64,
}

/// The level of every look.
pub const LEVEL: f64 = 0.99;

impl Rule {
    /// Visits before the first decision: the fewest with an interval at
    /// the level.
    pub fn min_visits(&self) -> usize {
        min_values(self.level)
    }

    /// The verdict on the visits so far: `ratio` and `control` hold one
    /// log-ratio per visit (candidate/base, control/base).
    pub fn judge(&self, ratio: &[f64], control: &[f64]) -> Judgement {
        let (Some(r), Some(c)) = (median_interval(ratio, self.level), median_interval(control, self.level)) else {
            return Judgement::Open;
        };
        let up = (1.0 + self.threshold).ln();
        let down = (1.0 - self.threshold).ln();
        let bound = (1.0 + self.aa_bound).ln();
        if c.low > bound || c.high < -bound {
            return Judgement::ControlOut;
        }
        let control_holds = c.low > -bound && c.high < bound;
        if !control_holds {
            Judgement::Open
        } else if r.low > up {
            Judgement::Regression
        } else if r.high < down {
            Judgement::Faster
        } else if r.high < up {
            Judgement::Pass
        } else {
            Judgement::Open
        }
    }

    /// The intervals the verdict rests on, as ratios.
    pub fn intervals(&self, ratio: &[f64], control: &[f64]) -> (Option<Interval>, Option<Interval>) {
        (median_interval(ratio, self.level).map(Interval::exp), median_interval(control, self.level).map(Interval::exp))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::gate::timing::paired::visit_log_ratio;
    use engine::rng::Rng;

    /// A standard normal draw (Box-Muller).
    fn normal(rng: &mut Rng) -> f64 {
        let u = (rng.below(1 << 30) as f64 + 0.5) / (1u64 << 30) as f64;
        let v = (rng.below(1 << 30) as f64 + 0.5) / (1u64 << 30) as f64;
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    /// One synthetic visit of `n` pairs of a case whose candidate costs
    /// `shift` times the base: both samples of a pair share the machine's
    /// state (a slowly wandering speed, AR(1) with correlation 0.9 from one
    /// pair to the next, 3% spread), each has 1% noise of its own, and one
    /// sample in twenty is disturbed (1.2-3x slower) on one side only; the
    /// visit as a whole is off by a visit effect of 0.3% (caches as the
    /// visit found them). Returns (candidate, control) log-ratios.
    pub(crate) fn visit(rng: &mut Rng, n: usize, shift: f64) -> (f64, f64) {
        let mut speed = 0.0f64;
        let visit_effect = 0.003 * normal(rng);
        let mut cand = Vec::with_capacity(n);
        let mut ctrl = Vec::with_capacity(n);
        let draw = |rng: &mut Rng, speed: f64| {
            let own = (speed + 0.01 * normal(rng)).exp();
            if rng.below(20) == 0 {
                own * (1.2 + 1.8 * rng.below(1000) as f64 / 1000.0)
            } else {
                own
            }
        };
        for _ in 0..n {
            speed = 0.9 * speed + (1.0f64 - 0.81).sqrt() * 0.03 * normal(rng);
            let b = 100.0 * draw(rng, speed);
            let c = 100.0 * shift * (1.0 + visit_effect) * draw(rng, speed);
            let a = 100.0 * draw(rng, speed);
            cand.push((b, c));
            ctrl.push((b, a));
        }
        (visit_log_ratio(&cand).unwrap(), visit_log_ratio(&ctrl).unwrap())
    }

    /// Visits until the rule decides or `budget` visits have run; the
    /// judgement and the visits it took.
    pub(crate) fn run(rng: &mut Rng, rule: &Rule, shift: f64, budget: usize) -> (Judgement, usize) {
        let (mut r, mut c) = (Vec::new(), Vec::new());
        for v in 1..=budget {
            let (x, y) = visit(rng, 60, shift);
            r.push(x);
            c.push(y);
            let j = rule.judge(&r, &c);
            if j != Judgement::Open {
                return (j, v);
            }
        }
        (Judgement::Open, budget)
    }

    const RULE: Rule = Rule { threshold: 0.015, aa_bound: 0.015, level: LEVEL };

    #[test]
    fn a_three_percent_shift_is_found_and_an_a_a_never_is_within_the_budget() {
        let mut rng = Rng::new(32);
        // Budget: 40 visits (the gate's default budget gives every case
        // about that many).
        for _ in 0..200 {
            let (j, visits) = run(&mut rng, &RULE, 1.03, 40);
            assert_eq!(j, Judgement::Regression, "after {visits} visits");
            let (j, visits) = run(&mut rng, &RULE, 1.0, 40);
            assert_eq!(j, Judgement::Pass, "after {visits} visits");
        }
        // Faster is said only of a real speed-up, and is a pass.
        assert_eq!(run(&mut rng, &RULE, 0.95, 40).0, Judgement::Faster);
    }

    #[test]
    fn nothing_is_decided_before_the_least_visits() {
        let mut rng = Rng::new(3);
        let (r, c): (Vec<f64>, Vec<f64>) = (0..RULE.min_visits() - 1).map(|_| visit(&mut rng, 60, 1.5)).unzip();
        assert_eq!(RULE.judge(&r, &c), Judgement::Open);
        assert_eq!(RULE.min_visits(), 8);
    }

    #[test]
    fn a_control_out_of_bounds_gives_the_case_up_and_a_wide_one_waits() {
        let rule = RULE;
        // Control 3% off on every visit: given up, whatever the candidate.
        let r = vec![0.0; 10];
        let c = vec![1.03f64.ln(); 10];
        assert_eq!(rule.judge(&r, &c), Judgement::ControlOut);
        // Control straddling its bound: neither decided nor given up.
        let c: Vec<f64> = (0..10).map(|i| if i % 2 == 0 { 0.0 } else { 1.03f64.ln() }).collect();
        assert_eq!(rule.judge(&r, &c), Judgement::Open);
        // Candidate straddling 1 + threshold: open.
        let r: Vec<f64> = (0..10).map(|i| if i % 2 == 0 { 0.01 } else { 0.02 }).collect();
        assert_eq!(rule.judge(&r, &[0.0; 10]), Judgement::Open);
        let (ri, ci) = rule.intervals(&r, &[0.0; 10]);
        // Ten values at 99%: the range, [e^0.01, e^0.02].
        let ri = ri.unwrap();
        assert!((ri.low - 0.01f64.exp()).abs() < 1e-12 && (ri.high - 0.02f64.exp()).abs() < 1e-12, "{ri:?}");
        assert_eq!(ci.unwrap().estimate, 1.0);
    }
}
