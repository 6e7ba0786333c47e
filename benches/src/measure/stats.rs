//! The statistics of a run, on plain numbers (no idea what was counted):
//! per round the median and trimmed mean of its samples; per comparison a
//! ratio with a percentile-bootstrap 95% interval over rounds; per
//! implementation Pearson's and Spearman's correlation and the least-squares
//! slope of cost against men on the board.
//!
//! Two ratios are computed. The primary one compares *floors*: the 10th
//! percentile of all of an arm's samples, pooled over rounds, with rounds
//! resampled in blocks of consecutive rounds (circular block bootstrap:
//! interference lasts longer than a round, so rounds are not independent;
//! paired: the same rounds for both arms). On a shared
//! VM a noisy neighbour slows whole stretches of milliseconds (seen here:
//! magic lookups 3-6x slower, the ray walk 1.4x, for 70% of the time), so a
//! median lands in whichever regime dominates that run, and ratios of
//! medians swung by ±10%. The floor is the cost when nothing interferes,
//! reproducible whenever at least a tenth of the samples are undisturbed.
//! The secondary one is the median over rounds of the per-round ratio of
//! round medians ("ratio of round statistics"), the typical cost under the
//! run's actual load, also reported.

use engine::rng::Rng;
use serde::{Deserialize, Serialize};

/// Resamples per bootstrap interval.
pub const BOOTSTRAP_RESAMPLES: usize = 2000;

/// Fixed seed: the same data always gives the same interval.
const BOOTSTRAP_SEED: u64 = 0x00B0_0757_12A9_u64;

fn sort(v: &mut [f64]) {
    v.sort_unstable_by(|a, b| a.total_cmp(b));
}

/// Median, reordering `v` (NaN for an empty slice).
pub fn median_mut(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    sort(v);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Median of `v`.
pub fn median(v: &[f64]) -> f64 {
    median_mut(&mut v.to_vec())
}

/// Median absolute deviation from the median (unscaled).
pub fn mad(v: &[f64]) -> f64 {
    let m = median(v);
    let mut d: Vec<f64> = v.iter().map(|x| (x - m).abs()).collect();
    median_mut(&mut d)
}

/// Mean after dropping the lowest and highest `fraction` of the values,
/// that share of the count rounded to the nearest whole value (at least one
/// value is always kept). Rounded, not floored: a round here has 9 or 5
/// samples, of which a floored 10% trims nothing, leaving the plain mean
/// the one disturbed sample pulls.
pub fn trimmed_mean(v: &[f64], fraction: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    sort(&mut s);
    let cut = ((s.len() as f64 * fraction).round() as usize).min((s.len() - 1) / 2);
    let kept = &s[cut..s.len() - cut];
    kept.iter().sum::<f64>() / kept.len() as f64
}

/// Quantile `q` of sorted data, linear between order statistics.
pub fn quantile_sorted(s: &[f64], q: f64) -> f64 {
    if s.is_empty() {
        return f64::NAN;
    }
    let pos = q.clamp(0.0, 1.0) * (s.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    s[lo] + (s[hi] - s[lo]) * (pos - lo as f64)
}

/// Percentile-bootstrap 95% interval of the median of `v`.
pub fn bootstrap_median_ci(v: &[f64]) -> [f64; 2] {
    bootstrap_ci(v, BOOTSTRAP_RESAMPLES, 0.95, median_mut)
}

/// Percentile-bootstrap interval at `level` of `stat` over `v`.
pub fn bootstrap_ci(v: &[f64], resamples: usize, level: f64, stat: fn(&mut [f64]) -> f64) -> [f64; 2] {
    if v.is_empty() {
        return [f64::NAN, f64::NAN];
    }
    let mut rng = Rng::new(BOOTSTRAP_SEED ^ v.len() as u64);
    let mut buf = vec![0.0; v.len()];
    let mut stats: Vec<f64> = (0..resamples)
        .map(|_| {
            for b in buf.iter_mut() {
                *b = v[rng.index(v.len())];
            }
            stat(&mut buf)
        })
        .collect();
    sort(&mut stats);
    let tail = (1.0 - level) / 2.0;
    [quantile_sorted(&stats, tail), quantile_sorted(&stats, 1.0 - tail)]
}

/// A ratio of two arms with its interval.
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Ratio {
    /// Arm / baseline, as the function that built it forms it: a ratio of
    /// the arms' floors (or other quantiles) pooled over rounds, or the
    /// median over rounds of per-round ratios.
    pub estimate: f64,
    /// Bootstrap interval of that estimate (rounds resampled, paired).
    pub interval: [f64; 2],
}

impl Ratio {
    /// Whether the interval lies within `1 ± tolerance` of `target`.
    pub fn within(&self, target: f64, tolerance: f64) -> bool {
        self.interval[0] >= target * (1.0 - tolerance) && self.interval[1] <= target * (1.0 + tolerance)
    }

    /// Whether the interval contains `value`.
    pub fn contains(&self, value: f64) -> bool {
        self.interval[0] <= value && value <= self.interval[1]
    }

    /// Half the interval's width relative to the estimate.
    pub fn half_width(&self) -> f64 {
        (self.interval[1] - self.interval[0]) / 2.0 / self.estimate
    }
}

/// The quantile used for floors.
pub const FLOOR_QUANTILE: f64 = 0.10;

/// Resamples for the (costlier) pooled-quantile bootstrap.
pub const FLOOR_RESAMPLES: usize = 1000;

/// Quantile `q` of a slice, reordering it (linear between order statistics).
pub fn quantile_mut(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let pos = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let (_, &mut a, rest) = v.select_nth_unstable_by(lo, |x, y| x.total_cmp(y));
    let b = if pos > lo as f64 { rest.iter().copied().fold(f64::INFINITY, f64::min) } else { a };
    a + (b - a) * (pos - lo as f64)
}

/// The floor of an arm: quantile `q` of all samples of the chosen rounds.
fn pooled_quantile(rounds: &[Vec<f64>], pick: impl Iterator<Item = usize>, q: f64, buf: &mut Vec<f64>) -> f64 {
    buf.clear();
    for r in pick {
        buf.extend_from_slice(&rounds[r]);
    }
    quantile_mut(buf, q)
}

/// Block length of the circular block bootstrap over `n` rounds: n^(1/3),
/// so that interference lasting a few rounds stays inside one block.
pub fn block_len(n: usize) -> usize {
    ((n as f64).cbrt().round() as usize).clamp(1, n.max(1))
}

/// Fill `pick` with round indices: consecutive blocks of `block_len(n)`
/// rounds (wrapping around) starting at random rounds.
fn pick_blocks(pick: &mut [usize], n: usize, rng: &mut Rng) {
    let b = block_len(n);
    let mut i = 0;
    while i < pick.len() {
        let start = rng.index(n);
        for k in 0..b.min(pick.len() - i) {
            pick[i + k] = (start + k) % n;
        }
        i += b;
    }
}

/// Floor of one arm with a block-bootstrap interval over rounds.
pub fn floor(rounds: &[Vec<f64>]) -> (f64, [f64; 2]) {
    let n = rounds.len();
    let mut buf = Vec::new();
    let est = pooled_quantile(rounds, 0..n, FLOOR_QUANTILE, &mut buf);
    let mut rng = Rng::new(BOOTSTRAP_SEED ^ 0xF1 ^ n as u64);
    let mut pick = vec![0usize; n];
    let mut v: Vec<f64> = (0..FLOOR_RESAMPLES)
        .map(|_| {
            pick_blocks(&mut pick, n, &mut rng);
            pooled_quantile(rounds, pick.iter().copied(), FLOOR_QUANTILE, &mut buf)
        })
        .collect();
    sort(&mut v);
    (est, [quantile_sorted(&v, 0.025), quantile_sorted(&v, 0.975)])
}

/// Ratio of floors, arm over baseline, with a paired block-bootstrap 95%
/// interval (the same resampled rounds for both arms).
pub fn floor_ratio(baseline: &[Vec<f64>], arm: &[Vec<f64>]) -> Ratio {
    floor_ratio_at(baseline, arm, 0.95)
}

/// As [`floor_ratio`], with the interval at `level`.
pub fn floor_ratio_at(baseline: &[Vec<f64>], arm: &[Vec<f64>], level: f64) -> Ratio {
    quantile_ratio_at(baseline, arm, FLOOR_QUANTILE, level)
}

/// Ratio of the `q` quantiles of all samples, arm over baseline, with a
/// paired block-bootstrap interval at `level` (the same resampled rounds for
/// both).
pub fn quantile_ratio_at(baseline: &[Vec<f64>], arm: &[Vec<f64>], q: f64, level: f64) -> Ratio {
    quantile_ratio_resampled(baseline, arm, q, level, FLOOR_RESAMPLES)
}

/// Resamples of the quick interval estimate that decides when a
/// precision-planned run may stop (the report's intervals use
/// [`FLOOR_RESAMPLES`]).
pub const CHECK_RESAMPLES: usize = 200;

/// [`floor_ratio_at`] with [`CHECK_RESAMPLES`] resamples: cheap enough to
/// call between rounds.
pub fn floor_ratio_quick(baseline: &[Vec<f64>], arm: &[Vec<f64>], level: f64) -> Ratio {
    quantile_ratio_resampled(baseline, arm, FLOOR_QUANTILE, level, CHECK_RESAMPLES)
}

fn quantile_ratio_resampled(baseline: &[Vec<f64>], arm: &[Vec<f64>], q: f64, level: f64, resamples: usize) -> Ratio {
    assert_eq!(baseline.len(), arm.len(), "rounds must pair");
    let n = baseline.len();
    let mut buf = Vec::new();
    let est = pooled_quantile(arm, 0..n, q, &mut buf) / pooled_quantile(baseline, 0..n, q, &mut buf);
    let mut rng = Rng::new(BOOTSTRAP_SEED ^ 0xF2 ^ n as u64);
    let mut pick = vec![0usize; n];
    let mut v: Vec<f64> = (0..resamples)
        .map(|_| {
            pick_blocks(&mut pick, n, &mut rng);
            pooled_quantile(arm, pick.iter().copied(), q, &mut buf)
                / pooled_quantile(baseline, pick.iter().copied(), q, &mut buf)
        })
        .collect();
    sort(&mut v);
    let tail = (1.0 - level) / 2.0;
    Ratio { estimate: est, interval: [quantile_sorted(&v, tail), quantile_sorted(&v, 1.0 - tail)] }
}

/// A job measured in parts (each part its own workload, visited every
/// round): `parts[p][r]` holds part p's samples in round r, each the cost
/// of one whole pass over that part. The job's floor is the sum of the
/// parts' floors: every part at its undisturbed cost, even when no round
/// was undisturbed from start to end.
fn summed_floor_of(parts: &[Vec<Vec<f64>>], pick: &[usize], buf: &mut Vec<f64>) -> f64 {
    parts.iter().map(|rounds| pooled_quantile(rounds, pick.iter().copied(), FLOOR_QUANTILE, buf)).sum()
}

/// The summed floor of a job in parts (see [`summed_floor_ratio_at`]) with
/// a block-bootstrap 95% interval over rounds.
pub fn summed_floor(parts: &[Vec<Vec<f64>>]) -> (f64, [f64; 2]) {
    let n = parts.first().map_or(0, Vec::len);
    let mut buf = Vec::new();
    let all: Vec<usize> = (0..n).collect();
    let est = summed_floor_of(parts, &all, &mut buf);
    let mut rng = Rng::new(BOOTSTRAP_SEED ^ 0xF3 ^ n as u64);
    let mut pick = vec![0usize; n];
    let mut v: Vec<f64> = (0..FLOOR_RESAMPLES)
        .map(|_| {
            pick_blocks(&mut pick, n, &mut rng);
            summed_floor_of(parts, &pick, &mut buf)
        })
        .collect();
    sort(&mut v);
    (est, [quantile_sorted(&v, 0.025), quantile_sorted(&v, 0.975)])
}

/// Ratio of summed floors, arm over baseline, for a job measured in parts:
/// `parts[p][r]` = samples of part p in round r (costs of one pass of that
/// part). Paired circular block bootstrap over rounds (the same resampled
/// rounds for every part and both arms); interval at `level`.
pub fn summed_floor_ratio_at(baseline: &[Vec<Vec<f64>>], arm: &[Vec<Vec<f64>>], level: f64) -> Ratio {
    assert_eq!(baseline.len(), arm.len(), "parts must pair");
    let n = baseline.first().map_or(0, Vec::len);
    let mut buf = Vec::new();
    let all: Vec<usize> = (0..n).collect();
    let est = summed_floor_of(arm, &all, &mut buf) / summed_floor_of(baseline, &all, &mut buf);
    let mut rng = Rng::new(BOOTSTRAP_SEED ^ 0xF4 ^ n as u64);
    let mut pick = vec![0usize; n];
    let mut v: Vec<f64> = (0..FLOOR_RESAMPLES)
        .map(|_| {
            pick_blocks(&mut pick, n, &mut rng);
            summed_floor_of(arm, &pick, &mut buf) / summed_floor_of(baseline, &pick, &mut buf)
        })
        .collect();
    sort(&mut v);
    let tail = (1.0 - level) / 2.0;
    Ratio { estimate: est, interval: [quantile_sorted(&v, tail), quantile_sorted(&v, 1.0 - tail)] }
}

/// Compare two arms measured in the same rounds: the per-round statistic of
/// `arm` over that of `baseline`, paired by round (both were interleaved in
/// it, so slow drift cancels), summarised by the median with a bootstrap
/// interval over rounds.
pub fn paired_ratio(baseline: &[f64], arm: &[f64]) -> Ratio {
    assert_eq!(baseline.len(), arm.len(), "rounds must pair");
    let r: Vec<f64> = baseline.iter().zip(arm).map(|(b, a)| a / b).collect();
    Ratio { estimate: median(&r), interval: bootstrap_median_ci(&r) }
}

/// Summary of one arm on one workload: statistics over per-round values.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// 10th percentile of all samples (the undisturbed cost).
    pub floor: f64,
    /// Block-bootstrap 95% interval of `floor`.
    pub floor_interval: [f64; 2],
    /// Median over rounds of the per-round median.
    pub median: f64,
    /// Median absolute deviation of the per-round medians.
    pub mad: f64,
    /// Mean of the per-round 10%-trimmed means.
    pub trimmed_mean: f64,
    /// Bootstrap 95% interval of `median`.
    pub interval: [f64; 2],
}

/// Summarise an arm from its samples per round, per-round medians and
/// per-round trimmed means.
pub fn summarise(round_samples: &[Vec<f64>], round_medians: &[f64], round_trimmed: &[f64]) -> Summary {
    let (floor, floor_interval) = floor(round_samples);
    Summary {
        floor,
        floor_interval,
        median: median(round_medians),
        mad: mad(round_medians),
        trimmed_mean: round_trimmed.iter().sum::<f64>() / round_trimmed.len().max(1) as f64,
        interval: bootstrap_median_ci(round_medians),
    }
}

/// Pearson's product-moment correlation (NaN with fewer than 2 points or
/// no variance).
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    assert_eq!(x.len(), y.len());
    let n = x.len() as f64;
    if x.len() < 2 {
        return f64::NAN;
    }
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}

/// Ranks 1..n, ties sharing their average rank.
pub fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation (Pearson on tie-averaged ranks).
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    pearson(&ranks(x), &ranks(y))
}

/// Least-squares line y = slope·x + intercept.
pub fn linear_fit(x: &[f64], y: &[f64]) -> (f64, f64) {
    assert_eq!(x.len(), y.len());
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
    }
    let slope = sxy / sxx;
    (slope, my - slope * mx)
}

/// Correlation of one implementation's cost with men on the board.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Correlation {
    pub arm: String,
    /// Number of (men, cost) points.
    pub points: usize,
    pub pearson_r: f64,
    pub spearman_rho: f64,
    /// Cost units per man on the board.
    pub slope: f64,
    pub intercept: f64,
}

/// Correlate `cost` with `men` for `arm`.
pub fn correlate(arm: &str, men: &[f64], cost: &[f64]) -> Correlation {
    let (slope, intercept) = linear_fit(men, cost);
    Correlation {
        arm: arm.to_string(),
        points: men.len(),
        pearson_r: pearson(men, cost),
        spearman_rho: spearman(men, cost),
        slope,
        intercept,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn order_statistics() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
        // |x - 3| = 2 1 0 1 97 -> median 1
        assert_eq!(mad(&[1.0, 2.0, 3.0, 4.0, 100.0]), 1.0);
        // 10% of 10 values: drop 1 from each end.
        let v: Vec<f64> = (1..=9).map(f64::from).chain([1000.0]).collect();
        assert_eq!(trimmed_mean(&v, 0.1), (2..=9).sum::<i32>() as f64 / 8.0);
        assert_eq!(trimmed_mean(&[5.0], 0.4), 5.0);
        // A round's 9 samples: 10% rounds to one from each end.
        let round: Vec<f64> = (1..=8).map(f64::from).chain([1000.0]).collect();
        assert_eq!(trimmed_mean(&round, 0.1), (2..=8).sum::<i32>() as f64 / 7.0);
        assert_eq!(trimmed_mean(&[1.0, 2.0], 0.1), 1.5);
        assert_eq!(quantile_sorted(&[0.0, 10.0], 0.25), 2.5);
    }

    #[test]
    fn bootstrap_interval_covers_and_shrinks() {
        let mut rng = Rng::new(7);
        // Uniform noise on [0.99, 1.01]: the true median is 1.
        let mut draw =
            |n: usize| -> Vec<f64> { (0..n).map(|_| 1.0 + (rng.below(2001) as f64 - 1000.0) * 1e-5).collect() };
        // Coverage: about 95% of 200 intervals from fresh data hold the truth.
        let mut covered = 0;
        for _ in 0..200 {
            let ci = bootstrap_ci(&draw(40), 500, 0.95, median_mut);
            covered += usize::from(ci[0] <= 1.0 && 1.0 <= ci[1]);
        }
        assert!((176..=199).contains(&covered), "coverage {covered}/200");
        // More data, narrower interval.
        let a = bootstrap_median_ci(&draw(20));
        let b = bootstrap_median_ci(&draw(2000));
        assert!(b[1] - b[0] < (a[1] - a[0]) / 3.0, "{a:?} vs {b:?}");
        assert!(b[1] - b[0] < 0.003, "{b:?}");
        // Deterministic for the same data.
        let d = draw(30);
        assert_eq!(bootstrap_median_ci(&d), bootstrap_median_ci(&d));
        // A constant has a zero-width interval at the constant.
        assert_eq!(bootstrap_median_ci(&[2.5; 30]), [2.5, 2.5]);
    }

    #[test]
    fn paired_ratio_pairs_by_round() {
        // The baseline drifts by 2x over the rounds; the arm is always 1.5x it.
        let base: Vec<f64> = (0..50).map(|i| 100.0 + 2.0 * i as f64).collect();
        let arm: Vec<f64> = base.iter().map(|b| 1.5 * b).collect();
        let r = paired_ratio(&base, &arm);
        assert!(close(r.estimate, 1.5, 1e-12));
        assert!(r.within(1.5, 1e-9) && r.contains(1.5));
        assert!(!r.contains(1.0));
    }

    #[test]
    fn floors_ignore_disturbed_stretches() {
        // Each round: clean samples at 100 (arm: 50) with ±0.5% jitter, but in
        // 70% of rounds most samples are disturbed (x1.5..x6, arm more).
        let mut rng = Rng::new(11);
        let mut base = Vec::new();
        let mut arm = Vec::new();
        for r in 0..150 {
            let (mut b, mut a) = (Vec::new(), Vec::new());
            for s in 0..11 {
                let jitter = 1.0 + (rng.below(1001) as f64 - 500.0) * 1e-5;
                let disturbed = r % 10 < 7 && s % 4 != 0;
                let k = if disturbed { 1.5 + rng.below(100) as f64 / 100.0 } else { 1.0 };
                b.push(100.0 * jitter * k);
                a.push(50.0 * jitter * if disturbed { k * 3.0 } else { 1.0 });
            }
            base.push(b);
            arm.push(a);
        }
        let r = floor_ratio(&base, &arm);
        assert!(r.contains(0.5) || (r.estimate - 0.5).abs() < 0.002, "{r:?}");
        assert!(r.within(0.5, 0.01), "{r:?}");
        // The median-based ratio is far off: the disturbed regime dominates.
        let med = |v: &Vec<Vec<f64>>| v.iter().map(|x| median(x)).collect::<Vec<_>>();
        assert!(paired_ratio(&med(&base), &med(&arm)).estimate > 1.0);
        let (f, iv) = floor(&base);
        assert!(iv[0] <= f && f <= iv[1] && (f - 100.0).abs() < 1.0, "{f} {iv:?}");
        assert_eq!(block_len(1), 1);
        assert_eq!(block_len(125), 5);
        assert_eq!(block_len(400), 7);
        let mut rng = Rng::new(1);
        let mut pick = vec![0; 10];
        pick_blocks(&mut pick, 10, &mut rng);
        // Blocks of 2 consecutive rounds (mod 10).
        assert!(pick.chunks(2).all(|c| c[1] == (c[0] + 1) % 10), "{pick:?}");
        let mut q = vec![5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(quantile_mut(&mut q, 0.5), 3.0);
        assert_eq!(quantile_mut(&mut q, 0.125), 1.5);
    }

    #[test]
    fn correlations_on_known_data() {
        let x: Vec<f64> = (3..=32).map(f64::from).collect();
        let y: Vec<f64> = x.iter().map(|m| 7.0 * m + 40.0).collect();
        let c = correlate("line", &x, &y);
        assert!(close(c.pearson_r, 1.0, 1e-12) && close(c.spearman_rho, 1.0, 1e-12));
        assert!(close(c.slope, 7.0, 1e-9) && close(c.intercept, 40.0, 1e-9));
        let neg: Vec<f64> = x.iter().map(|m| -2.0 * m).collect();
        assert!(close(pearson(&x, &neg), -1.0, 1e-12));
        // Monotone but not linear: Spearman 1, Pearson below 1.
        let cube: Vec<f64> = x.iter().map(|m| m.powi(3)).collect();
        assert!(close(spearman(&x, &cube), 1.0, 1e-12));
        assert!(pearson(&x, &cube) < 0.99);
        // Hand-checked: x 1..5, y 2 1 4 3 5 -> r = 0.8, rho = 0.8.
        let (a, b) = ([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 1.0, 4.0, 3.0, 5.0]);
        assert!(close(pearson(&a, &b), 0.8, 1e-12));
        assert!(close(spearman(&a, &b), 0.8, 1e-12));
        assert_eq!(ranks(&[10.0, 20.0, 10.0, 30.0]), vec![1.5, 3.0, 1.5, 4.0]);
        // Slope on noisy data: y = 3x + noise with zero-sum symmetric noise.
        let noise = [0.5, -0.5, -0.5, 0.5];
        let xs = [1.0, 2.0, 3.0, 4.0];
        let ys: Vec<f64> = xs.iter().zip(noise).map(|(x, n)| 3.0 * x + n).collect();
        let (s, _) = linear_fit(&xs, &ys);
        assert!(close(s, 3.0, 1e-12), "{s}");
        assert!(pearson(&[1.0, 2.0], &[3.0, 3.0]).is_nan());
    }
    #[test]
    fn summed_floors_add_the_parts_undisturbed_costs() {
        // Two parts over 12 rounds, one sample per round; part 0 costs 10,
        // part 1 costs 100; some rounds are disturbed (3x), but never both
        // parts in the same round, so no round's total is undisturbed.
        let rounds = 12;
        let part = |base: f64, hit: usize| -> Vec<Vec<f64>> {
            (0..rounds).map(|r| vec![if r % 2 == hit { base * 3.0 } else { base }]).collect()
        };
        let base = vec![part(10.0, 0), part(100.0, 1)];
        let (floor, interval) = summed_floor(&base);
        assert!(close(floor, 110.0, 1e-9), "{floor}");
        assert!(interval[0] <= 110.0 && interval[1] >= 110.0 && interval[1] < 150.0, "{interval:?}");
        // An arm exactly twice as costly reads 2 with a tight interval.
        let double: Vec<Vec<Vec<f64>>> =
            base.iter().map(|p| p.iter().map(|r| r.iter().map(|x| x * 2.0).collect()).collect()).collect();
        let r = summed_floor_ratio_at(&base, &double, 0.95);
        assert!(close(r.estimate, 2.0, 1e-9) && r.within(2.0, 0.001), "{r:?}");
        // The baseline against itself: exactly 1.
        let same = summed_floor_ratio_at(&base, &base, 0.95);
        assert_eq!(same.interval, [1.0, 1.0]);
    }
}
