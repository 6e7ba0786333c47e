//! Combining one quantity measured in several processes: a two-level
//! (random-effects) model on the log scale. Process k reports an estimate
//! r_k with its own 95% interval (from resampling inside that process);
//! log r_k = μ + b_k + e_k, where b_k is the process's own offset (where
//! its code and data landed, the state of the host while it ran; spread
//! σ_between) and e_k its sampling error (spread σ_within, read from its
//! interval). The combined estimate is the geometric mean of the r_k and
//! its interval the Student-t interval over the K log estimates, K−1
//! degrees of freedom: their sample spread holds both components, so the
//! interval needs no estimate of either, and it is exact for normal
//! offsets whatever their split. The components are reported beside it
//! (method of moments: within = the processes' own mean variance; between
//! = what the spread holds beyond that, at least 0).
//!
//! Why not a bootstrap over processes: with K around 6 a percentile
//! bootstrap of the mean is about as wide as a z interval with the
//! plug-in (divide-by-K) spread, and covers far less than it says; a test
//! below measures both on data with a known between-process spread.

use serde::{Deserialize, Serialize};

/// z for a 95% interval: turns a process's own 95% interval into its
/// standard error.
const Z95: f64 = 1.959_963_984_540_054;

/// One process's estimate of a positive quantity with its own 95% interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ProcessEstimate {
    pub estimate: f64,
    pub interval: [f64; 2],
}

impl ProcessEstimate {
    /// Standard error of the log estimate implied by the 95% interval.
    pub fn log_se(&self) -> f64 {
        let [lo, hi] = self.interval;
        if lo > 0.0 && hi >= lo {
            (hi.ln() - lo.ln()) / (2.0 * Z95)
        } else {
            f64::NAN
        }
    }
}

/// A quantity combined over processes, with its variance components. All
/// spreads are standard deviations of natural logs: 0.01 is about ±1% of
/// the quantity.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Combined {
    /// Geometric mean over the processes.
    pub estimate: f64,
    /// Student-t interval at `level`, K−1 degrees of freedom.
    pub interval: [f64; 2],
    pub level: f64,
    /// Each process's own estimate, in process order.
    pub per_process: Vec<f64>,
    /// Mean and sample standard deviation (K−1) of the log estimates: what
    /// `boardbench compare` needs of a run.
    pub mean_log: f64,
    pub sd_log: f64,
    /// Spread of one process's estimate from sampling inside it (root mean
    /// square of the processes' own standard errors).
    pub within_sd: f64,
    /// Spread of one process's estimate from process to process beyond
    /// that (placement, the host's state over the run); 0 when the spread
    /// is no larger than the within part.
    pub between_sd: f64,
    /// Spread of a whole run's estimate from run to run beyond what its
    /// processes show (the host's state over minutes), as measured on this
    /// machine by `boardbench calibrate` and folded into `interval`; 0 when
    /// no such calibration applied ([`Combined::with_run_level`]).
    #[serde(default)]
    pub run_sd: f64,
}

impl Combined {
    pub fn processes(&self) -> usize {
        self.per_process.len()
    }

    /// Standard error of `mean_log`: the spread over processes, and the
    /// run-to-run component where one applied.
    pub fn se_log(&self) -> f64 {
        ((self.sd_log * self.sd_log) / self.processes() as f64 + self.run_sd * self.run_sd).sqrt()
    }

    /// The same estimate with the run-to-run component `run_sd` (log scale)
    /// added to its standard error in quadrature, and the interval widened
    /// to match (still Student-t on K−1 degrees of freedom, the
    /// conservative choice for a sum whose larger part may be the fixed
    /// component). `run_sd` 0 leaves the interval as it is.
    pub fn with_run_level(mut self, run_sd: f64) -> Combined {
        let k = self.processes() as f64;
        self.run_sd = if run_sd.is_finite() && run_sd > 0.0 { run_sd } else { 0.0 };
        let half = t_quantile(0.5 + self.level / 2.0, k - 1.0) * self.se_log();
        self.interval = [(self.mean_log - half).exp(), (self.mean_log + half).exp()];
        self
    }

    /// Half the interval's width relative to the estimate.
    pub fn half_width(&self) -> f64 {
        (self.interval[1] - self.interval[0]) / 2.0 / self.estimate
    }
}

/// Combine per-process estimates (at least two) at `level`. A process
/// whose estimate is not a positive number makes the result NaN.
pub fn combine(processes: &[ProcessEstimate], level: f64) -> Combined {
    let k = processes.len();
    let logs: Vec<f64> = processes.iter().map(|p| if p.estimate > 0.0 { p.estimate.ln() } else { f64::NAN }).collect();
    let mean_log = logs.iter().sum::<f64>() / k as f64;
    let sd_log = if k >= 2 {
        (logs.iter().map(|y| (y - mean_log).powi(2)).sum::<f64>() / (k - 1) as f64).sqrt()
    } else {
        f64::NAN
    };
    let within_var = processes.iter().map(|p| p.log_se().powi(2)).sum::<f64>() / k as f64;
    let between_var = (sd_log * sd_log - within_var).max(0.0);
    let half = t_quantile(0.5 + level / 2.0, (k as f64) - 1.0) * sd_log / (k as f64).sqrt();
    Combined {
        estimate: mean_log.exp(),
        interval: [(mean_log - half).exp(), (mean_log + half).exp()],
        level,
        per_process: processes.iter().map(|p| p.estimate).collect(),
        mean_log,
        sd_log,
        within_sd: within_var.sqrt(),
        between_sd: between_var.sqrt(),
        run_sd: 0.0,
    }
}

/// A log-scale estimate with its standard error and the degrees of freedom
/// of its Student-t interval: one run's [`Combined`], or several runs of
/// the same benchmark pooled ([`LogEstimate::pool`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LogEstimate {
    pub mean_log: f64,
    pub se: f64,
    pub df: f64,
    /// How many runs it pools.
    pub runs: usize,
}

impl LogEstimate {
    /// One run: the mean of its processes' logs, its standard error (with
    /// the run-to-run component where one was folded in), K−1 degrees of
    /// freedom.
    pub fn of_run(c: &Combined) -> LogEstimate {
        LogEstimate { mean_log: c.mean_log, se: c.se_log(), df: c.processes() as f64 - 1.0, runs: 1 }
    }

    /// Several independent runs of the same quantity: the mean of their
    /// log estimates. Its standard error is the larger of two: the runs'
    /// own standard errors averaged (each holds the run-to-run component
    /// where one was folded in, so pooling n runs divides it by √n), and,
    /// from three runs on, the spread of the runs' estimates over √n (what
    /// the runs show of run-to-run variation, whatever was calibrated).
    /// Degrees of freedom: Welch–Satterthwaite over the runs for the
    /// first, n−1 for the second. An empty slice gives NaN.
    pub fn pool(runs: &[&Combined]) -> LogEstimate {
        let n = runs.len() as f64;
        if runs.len() == 1 {
            return LogEstimate::of_run(runs[0]);
        }
        let mean_log = runs.iter().map(|c| c.mean_log).sum::<f64>() / n;
        let parts: Vec<(f64, f64)> =
            runs.iter().map(|c| (c.se_log().powi(2) / (n * n), c.processes() as f64 - 1.0)).collect();
        let model = parts.iter().map(|(v, _)| v).sum::<f64>();
        let model_df = if model > 0.0 {
            model * model / parts.iter().map(|(v, df)| v * v / df).sum::<f64>()
        } else {
            parts.iter().map(|(_, df)| df).sum()
        };
        let (mut se, mut df) = (model.sqrt(), model_df);
        if runs.len() >= 3 {
            let spread = runs.iter().map(|c| (c.mean_log - mean_log).powi(2)).sum::<f64>() / (n - 1.0);
            let empirical = (spread / n).sqrt();
            if empirical > se {
                (se, df) = (empirical, n - 1.0);
            }
        }
        LogEstimate { mean_log, se, df, runs: runs.len() }
    }
}

/// `b` against `a`, each one run or several pooled: the log of b / a with
/// an interval at `level` from both standard errors (Welch: unequal
/// spreads, Welch–Satterthwaite degrees of freedom). Returns (log ratio,
/// its interval, degrees of freedom).
pub fn welch(a: &LogEstimate, b: &LogEstimate, level: f64) -> (f64, [f64; 2], f64) {
    let (va, vb) = (a.se * a.se, b.se * b.se);
    let se = (va + vb).sqrt();
    let df = if va + vb > 0.0 { (va + vb).powi(2) / (va * va / a.df + vb * vb / b.df) } else { a.df + b.df };
    let d = b.mean_log - a.mean_log;
    let half = t_quantile(0.5 + level / 2.0, df) * se;
    (d, [d - half, d + half], df)
}

/// Two groups of the same quantity (e.g. one arm's cost in the odd- and in
/// the even-numbered processes): the ratio of their geometric means, group
/// `b` over group `a`, with a pooled two-sample t interval at `level`
/// (|a| + |b| − 2 degrees of freedom). NaN with fewer than 3 values.
pub fn two_group_ratio(a: &[f64], b: &[f64], level: f64) -> (f64, [f64; 2]) {
    let (na, nb) = (a.len() as f64, b.len() as f64);
    if a.is_empty() || b.is_empty() || a.len() + b.len() < 3 {
        return (f64::NAN, [f64::NAN; 2]);
    }
    let la: Vec<f64> = a.iter().map(|x| x.ln()).collect();
    let lb: Vec<f64> = b.iter().map(|x| x.ln()).collect();
    let (ma, mb) = (la.iter().sum::<f64>() / na, lb.iter().sum::<f64>() / nb);
    let ss = la.iter().map(|y| (y - ma).powi(2)).sum::<f64>() + lb.iter().map(|y| (y - mb).powi(2)).sum::<f64>();
    let df = na + nb - 2.0;
    let se = (ss / df * (1.0 / na + 1.0 / nb)).sqrt();
    let d = mb - ma;
    let half = t_quantile(0.5 + level / 2.0, df) * se;
    (d.exp(), [(d - half).exp(), (d + half).exp()])
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; about 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..400 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The regularised incomplete beta function I_x(a, b).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// P(T ≤ t) for Student's t with `df` degrees of freedom (df > 0).
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The `p` quantile of Student's t with `df` degrees of freedom (df > 0,
/// not necessarily whole), by bisection on [`t_cdf`]; NaN for df ≤ 0 or p
/// outside (0, 1).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if !(df > 0.0 && p > 0.0 && p < 1.0) {
        return f64::NAN;
    }
    if p < 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while t_cdf(hi, df) < p {
        hi *= 2.0;
        if hi > 1e12 {
            return f64::INFINITY;
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-12 * hi.max(1.0) {
            break;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::rng::Rng;

    /// A standard normal draw (Box–Muller).
    fn normal(rng: &mut Rng) -> f64 {
        let u1 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        (-2.0 * (1.0 - u1).ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        for (p, df, want) in [
            (0.975, 1.0, 12.706_204_736),
            (0.975, 2.0, 4.302_652_730),
            (0.975, 5.0, 2.570_581_836),
            (0.975, 9.0, 2.262_157_163),
            (0.975, 30.0, 2.042_272_456),
            (0.995, 5.0, 4.032_142_984),
            (0.95, 4.0, 2.131_846_786),
            (0.975, 1e7, 1.959_964_3),
        ] {
            let got = t_quantile(p, df);
            assert!((got - want).abs() < 1e-6 * want, "t({p}, {df}) = {got}, want {want}");
            assert!((t_quantile(1.0 - p, df) + want).abs() < 1e-6 * want);
        }
        // Fractional degrees of freedom lie between their neighbours.
        let (a, b, c) = (t_quantile(0.975, 4.0), t_quantile(0.975, 4.5), t_quantile(0.975, 5.0));
        assert!(a > b && b > c, "{a} {b} {c}");
        assert!(t_quantile(0.975, 0.0).is_nan() && t_quantile(1.0, 3.0).is_nan());
        assert!((t_cdf(0.0, 3.0) - 0.5).abs() < 1e-12);
    }

    /// Processes of a two-level model: log r_k = b_k + e_k with b_k ~
    /// N(0, between²) and e_k ~ N(0, within²); each process reports its
    /// estimate with its own 95% interval (estimate × e^{±1.96 within}).
    /// [`welch`] of two single runs.
    fn welch_log_ratio(a: &Combined, b: &Combined, level: f64) -> (f64, [f64; 2], f64) {
        welch(&LogEstimate::of_run(a), &LogEstimate::of_run(b), level)
    }

    fn draw(rng: &mut Rng, k: usize, between: f64, within: f64) -> Vec<ProcessEstimate> {
        (0..k)
            .map(|_| {
                let y = between * normal(rng) + within * normal(rng);
                ProcessEstimate { estimate: y.exp(), interval: [(y - Z95 * within).exp(), (y + Z95 * within).exp()] }
            })
            .collect()
    }

    /// The t interval over K = 6 processes covers the true value (1) at its
    /// nominal 95%, whatever the split between the components; a
    /// percentile bootstrap over the same 6 processes covers far less.
    #[test]
    fn the_interval_covers_at_the_nominal_rate_with_a_known_between_spread() {
        let mut rng = Rng::new(0x5EED_0038);
        let reps = 4000;
        for (between, within) in [(0.01, 0.001), (0.01, 0.005), (0.0, 0.004), (0.02, 0.0)] {
            let (mut covered, mut boot_covered) = (0, 0);
            let (mut sum_b, mut sum_w) = (0.0, 0.0);
            for _ in 0..reps {
                let p = draw(&mut rng, 6, between, within);
                let c = combine(&p, 0.95);
                covered += usize::from(c.interval[0] <= 1.0 && 1.0 <= c.interval[1]);
                sum_b += c.between_sd.powi(2);
                sum_w += c.within_sd.powi(2);
                // Percentile bootstrap of the mean log over the processes.
                let logs: Vec<f64> = p.iter().map(|x| x.estimate.ln()).collect();
                let mut means: Vec<f64> =
                    (0..400).map(|_| (0..6).map(|_| logs[rng.index(6)]).sum::<f64>() / 6.0).collect();
                means.sort_by(f64::total_cmp);
                boot_covered += usize::from(means[10] <= 0.0 && 0.0 <= means[389]);
            }
            let rate = covered as f64 / reps as f64;
            let boot = boot_covered as f64 / reps as f64;
            // Binomial sd at 95% over 4000: 0.0034; allow about 4 sd.
            assert!((rate - 0.95).abs() < 0.015, "between {between} within {within}: coverage {rate}");
            assert!(boot < 0.90, "the bootstrap over 6 processes covered {boot}");
            // The components come back on average (moment estimates: the
            // between part is truncated at 0, so only roughly when small).
            let (b, w) = ((sum_b / reps as f64).sqrt(), (sum_w / reps as f64).sqrt());
            assert!((w - within).abs() < 1e-9 + 0.01 * within, "within {w} vs {within}");
            assert!((b - between).abs() < 0.15 * between + 0.5 * within, "between {b} vs {between}");
        }
    }

    #[test]
    fn combining_known_values() {
        let p = [
            ProcessEstimate { estimate: 1.0, interval: [1.0, 1.0] },
            ProcessEstimate { estimate: 4.0, interval: [4.0, 4.0] },
        ];
        let c = combine(&p, 0.95);
        assert!((c.estimate - 2.0).abs() < 1e-12, "geometric mean: {c:?}");
        let sd = (2.0f64.ln().powi(2) * 2.0).sqrt(); // logs 0 and ln 4: sd = ln4/√2
        assert!((c.sd_log - sd).abs() < 1e-12);
        assert_eq!(c.within_sd, 0.0);
        assert!((c.between_sd - sd).abs() < 1e-12);
        let half = 12.706_204_736 * sd / 2f64.sqrt();
        assert!((c.interval[1] - (2f64.ln() + half).exp()).abs() < 1e-6 * c.interval[1]);
        assert_eq!(c.per_process, vec![1.0, 4.0]);
        // No process spread beyond the within part: between is 0.
        let same = [ProcessEstimate { estimate: 2.0, interval: [1.9, 2.1] }; 3];
        let c = combine(&same, 0.95);
        assert_eq!((c.sd_log, c.between_sd), (0.0, 0.0));
        assert!(c.within_sd > 0.02 && c.interval == [2.0, 2.0], "{c:?}");
        // A non-positive estimate poisons the result rather than passing.
        let bad = [ProcessEstimate { estimate: 0.0, interval: [0.0, 0.0] }, same[0]];
        assert!(combine(&bad, 0.95).estimate.is_nan());
    }

    #[test]
    fn welch_and_two_groups() {
        let mut rng = Rng::new(99);
        // Same truth in both runs: the 95% interval of the difference holds
        // 0 about 95% of the time; a 3% shift is found nearly always.
        let (mut held, mut found) = (0, 0);
        for _ in 0..2000 {
            let a = combine(&draw(&mut rng, 6, 0.01, 0.002), 0.95);
            let b = combine(&draw(&mut rng, 6, 0.01, 0.002), 0.95);
            let (_, iv, df) = welch_log_ratio(&a, &b, 0.95);
            assert!((5.0 - 1e-9..=10.0 + 1e-9).contains(&df), "{df}");
            held += usize::from(iv[0] <= 0.0 && 0.0 <= iv[1]);
            let shifted: Vec<ProcessEstimate> = draw(&mut rng, 6, 0.01, 0.002)
                .into_iter()
                .map(|p| ProcessEstimate {
                    estimate: p.estimate * 1.03,
                    interval: [p.interval[0] * 1.03, p.interval[1] * 1.03],
                })
                .collect();
            let (_, iv, _) = welch_log_ratio(&a, &combine(&shifted, 0.95), 0.95);
            found += usize::from(iv[0] > 0.0);
        }
        assert!((0.93..=0.97).contains(&(held as f64 / 2000.0)), "{held}");
        assert!(found > 1900, "{found}");
        let (r, iv) = two_group_ratio(&[1.0, 1.0, 1.0], &[2.0, 2.0, 2.0], 0.95);
        assert!((r - 2.0).abs() < 1e-12 && iv == [r, r], "{r} {iv:?}");
        let (r, iv) = two_group_ratio(&[1.0, 1.02, 0.98], &[1.01, 0.99, 1.0], 0.95);
        assert!(iv[0] < r && r < iv[1] && iv[0] < 1.0 && iv[1] > 1.0, "{r} {iv:?}");
        assert!(two_group_ratio(&[1.0], &[1.0], 0.95).0.is_nan());
    }

    #[test]
    fn pooled_runs_narrow_the_run_to_run_part_and_cover() {
        // Each run: 8 processes (between 1%) plus a run offset of 1% that
        // its own interval knows of (folded run_sd). One run against one
        // cannot resolve a 3% shift; five against five mostly can, and
        // equal truths stay covered about 95% of the time.
        let mut rng = Rng::new(7);
        let mut run = |shift: f64| {
            let offset = 0.01 * normal(&mut rng);
            let per: Vec<ProcessEstimate> = draw(&mut rng, 8, 0.01, 0.002)
                .into_iter()
                .map(|p| {
                    let f = (shift + offset).exp();
                    ProcessEstimate { estimate: p.estimate * f, interval: [p.interval[0] * f, p.interval[1] * f] }
                })
                .collect();
            combine(&per, 0.95).with_run_level(0.01)
        };
        let (mut single, mut pooled, mut held) = (0, 0, 0);
        let trials = 400;
        for _ in 0..trials {
            let base: Vec<Combined> = (0..5).map(|_| run(0.0)).collect();
            let same: Vec<Combined> = (0..5).map(|_| run(0.0)).collect();
            let slow: Vec<Combined> = (0..5).map(|_| run(0.03)).collect();
            let (_, iv, _) = welch_log_ratio(&base[0], &slow[0], 0.95);
            single += usize::from(iv[0] > 0.0);
            let pool = |v: &[Combined]| LogEstimate::pool(&v.iter().collect::<Vec<_>>());
            let (_, iv, df) = welch(&pool(&base), &pool(&slow), 0.95);
            assert!(df >= 4.0, "{df}");
            pooled += usize::from(iv[0] > 0.0);
            let (_, iv, _) = welch(&pool(&base), &pool(&same), 0.95);
            held += usize::from(iv[0] <= 0.0 && 0.0 <= iv[1]);
        }
        let rate = |x: usize| x as f64 / trials as f64;
        assert!(rate(single) < 0.6, "one run against one: {single}");
        assert!(rate(pooled) > 0.9, "five against five: {pooled}");
        assert!((0.92..=0.995).contains(&rate(held)), "{held}");
        // One run pooled is that run; an empty pool is NaN, not a panic.
        let one = run(0.0);
        assert_eq!(LogEstimate::pool(&[&one]), LogEstimate::of_run(&one));
        assert!(LogEstimate::pool(&[]).mean_log.is_nan());
    }
}
