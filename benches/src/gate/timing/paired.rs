//! The statistics of lock-step pairs (pure: unit-tested on synthetic
//! samples).
//!
//! Within a visit of a case, consecutive pairs are serially correlated: a
//! neighbour's burst, a frequency step or an interrupt storm lasts longer
//! than one cycle of tens of microseconds, and a bootstrap that resampled
//! single pairs would give intervals far too narrow. So the unit of
//! evidence is the visit, not the pair (the method of batch means): per
//! visit, the median over its pairs of the log-ratio ln(other / base) —
//! robust to the single disturbed samples a shared machine produces, which
//! hit one sample of a pair and not the other — and over visits, which are
//! seconds apart (the gate visits every other open case in between), the
//! median with a distribution-free interval from order statistics (the
//! sign-test interval: no assumption on the visits' distribution beyond
//! independence, no resampling, exact coverage of at least the level).
//! The report gives the lag-1 autocorrelation of the visits' values, so
//! the independence of visits can be checked on every run.

use crate::measure::stats;
use serde::{Deserialize, Serialize};

/// A ratio with its interval.
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Interval {
    /// The median over visits of the visits' ratios.
    pub estimate: f64,
    /// The order-statistic interval of that median, at the level given.
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// From log-ratios to ratios.
    pub fn exp(self) -> Interval {
        Interval { estimate: self.estimate.exp(), low: self.low.exp(), high: self.high.exp() }
    }
}

/// One visit's log-ratio: the median over its pairs `(base, other)` of
/// ln(other / base); `None` when a sample is not a positive finite number.
pub fn visit_log_ratio(pairs: &[(f64, f64)]) -> Option<f64> {
    if pairs.is_empty() {
        return None;
    }
    let mut v = Vec::with_capacity(pairs.len());
    for &(b, o) in pairs {
        if !(b.is_finite() && o.is_finite() && b > 0.0 && o > 0.0) {
            return None;
        }
        v.push((o / b).ln());
    }
    Some(stats::median_mut(&mut v))
}

/// P(X <= k) for X ~ Binomial(n, 1/2).
fn binomial_half_cdf(n: usize, k: usize) -> f64 {
    // Terms C(n, i) / 2^n, built up in floating point (n stays in the
    // hundreds: visits of one case).
    let mut term = 0.5f64.powi(n as i32);
    let mut sum = term;
    for i in 1..=k.min(n) {
        term *= (n + 1 - i) as f64 / i as f64;
        sum += term;
    }
    sum
}

/// The 1-based rank k of the order-statistic interval [x(k), x(n+1-k)]
/// for the median of `n` values at `level`: the largest k whose interval
/// still covers with probability at least `level`; `None` when even the
/// range of `n` values does not.
pub fn interval_rank(n: usize, level: f64) -> Option<usize> {
    let tail = (1.0 - level) / 2.0;
    let mut k = 0;
    while k < n / 2 && binomial_half_cdf(n, k) <= tail {
        k += 1;
    }
    (k >= 1).then_some(k)
}

/// The least number of values with an interval at `level`.
pub fn min_values(level: f64) -> usize {
    (1..=64).find(|&n| interval_rank(n, level).is_some()).unwrap_or(64)
}

/// The median of `v` with its order-statistic interval at `level`; `None`
/// for too few values.
pub fn median_interval(v: &[f64], level: f64) -> Option<Interval> {
    let k = interval_rank(v.len(), level)?;
    let mut s = v.to_vec();
    let estimate = stats::median_mut(&mut s);
    Some(Interval { estimate, low: s[k - 1], high: s[s.len() - k] })
}

/// Lag-1 autocorrelation of `v` (NaN for fewer than three values or no
/// spread).
pub fn lag1_autocorrelation(v: &[f64]) -> f64 {
    if v.len() < 3 {
        return f64::NAN;
    }
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let var: f64 = v.iter().map(|x| (x - m) * (x - m)).sum();
    if var <= 0.0 {
        return f64::NAN;
    }
    v.windows(2).map(|w| (w[0] - m) * (w[1] - m)).sum::<f64>() / var
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_statistic_intervals_have_their_coverage() {
        // 2^-5 = 3.1% per tail: five values give a 93.75% range, six 96.9%.
        assert_eq!(interval_rank(5, 0.95), None);
        assert_eq!(interval_rank(6, 0.95), Some(1));
        assert_eq!(min_values(0.95), 6);
        // 99%: eight values (2 x 2^-8 = 0.78%).
        assert_eq!(min_values(0.99), 8);
        // The textbook rank for n = 20 at 95%: [x(6), x(15)].
        assert_eq!(interval_rank(20, 0.95), Some(6));
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        let i = median_interval(&v, 0.95).unwrap();
        assert_eq!((i.estimate, i.low, i.high), (10.5, 6.0, 15.0));
        // Monte Carlo coverage on skewed values: at least the level.
        let mut rng = engine::rng::Rng::new(11);
        let (mut covered, runs) = (0, 2000);
        for _ in 0..runs {
            // Exponential-like values with median ln 2.
            let v: Vec<f64> = (0..15).map(|_| -(1.0 - (rng.below(1_000_000) as f64 + 0.5) / 1e6).ln()).collect();
            let i = median_interval(&v, 0.95).unwrap();
            covered += usize::from(i.low <= 2f64.ln() && 2f64.ln() <= i.high);
        }
        let rate = covered as f64 / runs as f64;
        assert!(rate >= 0.94, "coverage {rate}");
    }

    #[test]
    fn a_visit_is_the_median_log_ratio_of_its_pairs() {
        let pairs = [(100.0, 103.0), (100.0, 103.0), (100.0, 500.0), (50.0, 51.5), (100.0, 103.0)];
        // One disturbed sample moves nothing.
        assert!((visit_log_ratio(&pairs).unwrap() - 1.03f64.ln()).abs() < 1e-12);
        assert_eq!(visit_log_ratio(&[]), None);
        assert_eq!(visit_log_ratio(&[(1.0, 0.0)]), None);
        assert_eq!(visit_log_ratio(&[(f64::NAN, 1.0)]), None);
        let i = Interval { estimate: 0.0, low: -1.0, high: 1.0 }.exp();
        assert_eq!(i.estimate, 1.0);
        assert!((i.high - std::f64::consts::E).abs() < 1e-12);
        assert!(lag1_autocorrelation(&[1.0, 2.0]).is_nan());
        assert!(lag1_autocorrelation(&[1.0, 2.0, 1.0, 2.0, 1.0, 2.0]) < -0.5);
        assert!(lag1_autocorrelation(&[1.0, 1.1, 1.2, 1.3, 1.4, 1.5]) > 0.3);
    }
}
