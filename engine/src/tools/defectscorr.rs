//! Does the cheap defect count still track the evaluation's king danger?
//! The search gates two extensions on `count > 1` (the one-reply and the
//! qsearch-in-check extension); the evaluation has its own danger score,
//! which depends on the mobility implementation through the x-ray attacks
//! on the king's ring. Over seeded random positions, both kings of each,
//! per mobility implementation:
//!
//! * the Spearman rank correlation of the defect count with the king
//!   danger, and with the king-safety penalty;
//! * the danger threshold that best matches the gate (the `t` for which
//!   "danger > t" agrees with "count > gate" most often) and that agreement
//!   rate;
//! * the change in agreement from the mailbox evaluation (old) to each new
//!   one, flagged when its interval excludes 0: the defect constants may
//!   then need retuning to stay a proxy for the new danger.
//!
//! **King danger** here is the evaluation's danger counter: the king-safety
//! index into the penalty table (`eval::king::danger`: ring
//! attacks and x-rays, shelter, half the defect pointing count, attacker
//! pattern, flight squares) before it is clamped and scaled by the enemy
//! army; 0 where the enemy army is too small for the counter (the penalty
//! is 0 there too). It is the evaluation's own ranking of how dangerous the
//! king's position is, which is what the defect count stands in for; the
//! penalty adds the table's saturation and the army scaling.
//!
//! The statistics are taken over every king, and again over the kings
//! whose danger counter is computed at all (an enemy army of at least
//! [`DANGER_ARMY`] pawns): over every king, the material rule both scores
//! share (no defects and no danger counter against little material)
//! dominates the ranking; over the computed ones, what remains is how well
//! the count ranks kings the evaluation does weigh.
//!
//! Every interval is a 95% percentile bootstrap over positions (both kings
//! of a position stay together), with the threshold chosen afresh in each
//! resample; old and new share the resamples, so their difference is
//! paired.

use crate::defects::{BitboardDefects, DefectCounter};
pub use crate::eval::king::DANGER_ARMY;
use crate::eval::material::MaterialEntry;
use crate::eval::mobility::MobilityKind;
use crate::eval::trace::Term;
use crate::eval::weights::Weights;
use crate::eval::{DynamicSet, EvalConfig, Evaluation};
use crate::rng::Rng;
use crate::tools::randpos::{nth_random_position, playout_starts};
use crate::types::Color;

/// One king of one position.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct KingSample {
    /// Its side's defect count.
    pub count: i32,
    /// The danger counter, per mobility implementation ([`MobilityKind::ALL`] order).
    pub danger: [i32; 3],
    /// The king-safety penalty (positive: bad for the king's side), per implementation.
    pub penalty: [i32; 3],
    /// The enemy army is large enough for the danger counter.
    pub computed: bool,
}

/// Both kings of `n` seeded random positions (the positions of
/// `engine equiv --random n --seed seed`), White's first.
pub fn collect(n: usize, seed: u64) -> Vec<[KingSample; 2]> {
    let starts = playout_starts();
    let weights = Weights::default();
    let mut evals: Vec<Evaluation<DynamicSet, BitboardDefects>> = MobilityKind::ALL
        .iter()
        .map(|&k| Evaluation::new(DynamicSet::uniform(k), Weights::default(), EvalConfig::default()))
        .collect();
    (0..n)
        .map(|i| {
            let pos = nth_random_position(seed, i, starts);
            let traces: Vec<_> = evals.iter_mut().map(|e| e.trace(&mut pos.clone())).collect();
            let army = MaterialEntry::new(&pos, &weights).army;
            Color::ALL.map(|side| KingSample {
                computed: army[side.flip().index()] >= DANGER_ARMY,
                count: BitboardDefects::count(&pos, side).count,
                danger: std::array::from_fn(|k| traces[k].king[side.index()].counter),
                penalty: std::array::from_fn(|k| -traces[k].term(Term::KingSafety, side)),
            })
        })
        .collect()
}

/// Integer values by rank: each sample's index into the sorted distinct
/// values, so ranks and thresholds under any weighting cost one pass.
#[derive(Clone, Debug)]
pub struct Ranked {
    /// The distinct values, ascending.
    pub values: Vec<i32>,
    /// Each sample's index into `values`.
    pub bins: Vec<u32>,
}

impl Ranked {
    /// Rank `samples`.
    pub fn new(samples: &[i32]) -> Ranked {
        let mut values = samples.to_vec();
        values.sort_unstable();
        values.dedup();
        let bins = samples.iter().map(|v| values.binary_search(v).expect("a value of the sample") as u32).collect();
        Ranked { values, bins }
    }

    /// Average rank of each distinct value (ties share their mean rank),
    /// each sample counted `weights[i]` times.
    fn mean_ranks(&self, weights: &[u32]) -> Vec<f64> {
        let mut hist = vec![0u64; self.values.len()];
        for (&b, &w) in self.bins.iter().zip(weights) {
            hist[b as usize] += u64::from(w);
        }
        let mut below = 0u64;
        hist.iter()
            .map(|&h| {
                let rank = below as f64 + (h as f64 + 1.0) / 2.0;
                below += h;
                rank
            })
            .collect()
    }
}

/// Spearman's rank correlation of `x` and `y` (Pearson's on mean ranks),
/// each sample counted `weights[i]` times; 0 when either is constant.
pub fn spearman_weighted(x: &Ranked, y: &Ranked, weights: &[u32]) -> f64 {
    let (rx, ry) = (x.mean_ranks(weights), y.mean_ranks(weights));
    let n: f64 = weights.iter().map(|&w| f64::from(w)).sum();
    if n == 0.0 {
        return 0.0;
    }
    let mean = |r: &[f64], bins: &[u32]| -> f64 {
        bins.iter().zip(weights).map(|(&b, &w)| r[b as usize] * f64::from(w)).sum::<f64>() / n
    };
    let (mx, my) = (mean(&rx, &x.bins), mean(&ry, &y.bins));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for ((&bx, &by), &w) in x.bins.iter().zip(&y.bins).zip(weights) {
        let (dx, dy, w) = (rx[bx as usize] - mx, ry[by as usize] - my, f64::from(w));
        sxy += w * dx * dy;
        sxx += w * dx * dx;
        syy += w * dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        0.0
    } else {
        sxy / (sxx * syy).sqrt()
    }
}

/// Spearman's rank correlation of two samples.
pub fn spearman(x: &[i32], y: &[i32]) -> f64 {
    spearman_weighted(&Ranked::new(x), &Ranked::new(y), &vec![1; x.len()])
}

/// The danger threshold that best matches a yes/no gate.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GateMatch {
    /// "Dangerous" is danger above this; `None`: every sample (below the
    /// smallest danger seen).
    pub threshold: Option<i32>,
    /// Share of samples where the gate and "danger > threshold" agree.
    pub agreement: f64,
}

/// The threshold `t` maximising the agreement of `gate[i]` with
/// `danger[i] > t` (the lowest such `t` on a tie), each sample counted
/// `weights[i]` times.
pub fn best_threshold(gate: &[bool], danger: &Ranked, weights: &[u32]) -> GateMatch {
    let k = danger.values.len();
    let (mut fires, mut quiet) = (vec![0u64; k], vec![0u64; k]);
    for ((&g, &b), &w) in gate.iter().zip(&danger.bins).zip(weights) {
        let h = if g { &mut fires } else { &mut quiet };
        h[b as usize] += u64::from(w);
    }
    let total: u64 = fires.iter().sum::<u64>() + quiet.iter().sum::<u64>();
    if total == 0 {
        return GateMatch { threshold: None, agreement: 0.0 };
    }
    // Threshold below every value: agree where the gate fires.
    let mut agree: u64 = fires.iter().sum();
    let mut best = (agree, None);
    for b in 0..k {
        // Raising the threshold to values[b] moves bin b to "not dangerous".
        agree = agree + quiet[b] - fires[b];
        if agree > best.0 {
            best = (agree, Some(danger.values[b]));
        }
    }
    GateMatch { threshold: best.1, agreement: best.0 as f64 / total as f64 }
}

/// A statistic and its 95% bootstrap interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// On the whole sample.
    pub value: f64,
    /// 2.5% and 97.5% quantiles over the resamples.
    pub interval: [f64; 2],
}

impl Estimate {
    /// Does the interval exclude 0?
    pub fn excludes_zero(&self) -> bool {
        self.interval[0] > 0.0 || self.interval[1] < 0.0
    }
}

/// One mobility implementation's results.
#[derive(Clone, Debug, PartialEq)]
pub struct ImplResult {
    /// The implementation.
    pub kind: MobilityKind,
    /// Spearman of the defect count with the danger counter.
    pub spearman_danger: Estimate,
    /// Spearman of the defect count with the king-safety penalty.
    pub spearman_penalty: Estimate,
    /// The threshold that best matches the gate on the whole sample.
    pub threshold: Option<i32>,
    /// Agreement of the gate with "danger > threshold".
    pub agreement: Estimate,
    /// Agreement minus the mailbox evaluation's (paired); `None` for mailbox.
    pub shift: Option<Estimate>,
    /// The shift's interval excludes 0.
    pub flagged: bool,
    /// Share of the kings whose danger counter is above 0.
    pub danger_nonzero: f64,
}

/// Which kings a report covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every king.
    All,
    /// Kings whose danger counter is computed.
    Computed,
}

impl Scope {
    /// Both, in this order.
    pub const ALL: [Scope; 2] = [Scope::All, Scope::Computed];

    /// For reports.
    pub fn name(self) -> &'static str {
        match self {
            Scope::All => "every king",
            Scope::Computed => "kings with the danger counter computed",
        }
    }

    fn keeps(self, k: &KingSample) -> bool {
        self == Scope::All || k.computed
    }
}

/// The whole comparison over one scope.
#[derive(Clone, Debug, PartialEq)]
pub struct CorrReport {
    /// Which kings.
    pub scope: Scope,
    /// Positions sampled.
    pub positions: usize,
    /// Kings in the scope.
    pub kings: usize,
    /// The gate: `count > gate`.
    pub gate: i32,
    /// Share of kings the gate fires on.
    pub gate_rate: f64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Mailbox, chain, single probe.
    pub impls: Vec<ImplResult>,
}

/// The 2.5% and 97.5% quantiles of `v` (sorted in place).
fn interval95(v: &mut [f64]) -> [f64; 2] {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    [at(0.025), at(0.975)]
}

/// Correlations, thresholds and agreements over the kings of `samples` in
/// `scope`, for the gate `count > gate`, with `resamples` bootstrap
/// resamples drawn from `seed` (positions are resampled; a king out of the
/// scope weighs nothing).
///
/// # Panics
///
/// With no king in the scope or fewer than 2 resamples.
pub fn analyse(samples: &[[KingSample; 2]], scope: Scope, gate: i32, resamples: usize, seed: u64) -> CorrReport {
    let kings: Vec<KingSample> = samples.iter().flatten().copied().collect();
    let keep: Vec<u32> = kings.iter().map(|k| u32::from(scope.keeps(k))).collect();
    let in_scope = keep.iter().filter(|&&k| k == 1).count();
    assert!(in_scope > 0 && resamples >= 2, "analyse needs kings in scope and resamples");
    let counts = Ranked::new(&kings.iter().map(|k| k.count).collect::<Vec<_>>());
    let fires: Vec<bool> = kings.iter().map(|k| k.count > gate).collect();
    let danger: Vec<Ranked> =
        (0..3).map(|i| Ranked::new(&kings.iter().map(|k| k.danger[i]).collect::<Vec<_>>())).collect();
    let penalty: Vec<Ranked> =
        (0..3).map(|i| Ranked::new(&kings.iter().map(|k| k.penalty[i]).collect::<Vec<_>>())).collect();
    // Per implementation: spearman danger, spearman penalty, agreement.
    let stats = |w: &[u32]| -> [[f64; 3]; 3] {
        std::array::from_fn(|i| {
            [
                spearman_weighted(&counts, &danger[i], w),
                spearman_weighted(&counts, &penalty[i], w),
                best_threshold(&fires, &danger[i], w).agreement,
            ]
        })
    };
    let whole = stats(&keep);
    let mut rng = Rng::new(seed);
    let mut draws: Vec<[[f64; 3]; 3]> = Vec::with_capacity(resamples);
    let mut weights = vec![0u32; kings.len()];
    for _ in 0..resamples {
        weights.iter_mut().for_each(|w| *w = 0);
        for _ in 0..samples.len() {
            let p = rng.index(samples.len());
            weights[2 * p] += keep[2 * p];
            weights[2 * p + 1] += keep[2 * p + 1];
        }
        draws.push(stats(&weights));
    }
    let share = |f: &dyn Fn(&KingSample) -> bool| {
        kings.iter().filter(|k| scope.keeps(k) && f(k)).count() as f64 / in_scope as f64
    };
    let estimate = |value: f64, f: &dyn Fn(&[[f64; 3]; 3]) -> f64| -> Estimate {
        let mut v: Vec<f64> = draws.iter().map(f).collect();
        Estimate { value, interval: interval95(&mut v) }
    };
    let impls = MobilityKind::ALL
        .iter()
        .enumerate()
        .map(|(i, &kind)| {
            let shift = (i > 0).then(|| estimate(whole[i][2] - whole[0][2], &|d| d[i][2] - d[0][2]));
            ImplResult {
                kind,
                spearman_danger: estimate(whole[i][0], &|d| d[i][0]),
                spearman_penalty: estimate(whole[i][1], &|d| d[i][1]),
                threshold: best_threshold(&fires, &danger[i], &keep).threshold,
                agreement: estimate(whole[i][2], &|d| d[i][2]),
                flagged: shift.is_some_and(|s| s.excludes_zero()),
                shift,
                danger_nonzero: share(&|k| k.danger[i] != 0),
            }
        })
        .collect();
    CorrReport {
        scope,
        positions: samples.len(),
        kings: in_scope,
        gate,
        gate_rate: share(&|k| k.count > gate),
        resamples,
        impls,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn spearman_of_constructed_samples() {
        let x: Vec<i32> = (1..=10).collect();
        // Any increasing function ranks alike; a decreasing one reverses.
        assert!(close(spearman(&x, &x.iter().map(|v| v * v * v).collect::<Vec<_>>()), 1.0));
        assert!(close(spearman(&x, &x.iter().map(|v| -3 * v).collect::<Vec<_>>()), -1.0));
        // Textbook: two neighbouring pairs swapped, sum of d^2 = 4, n = 5:
        // 1 - 6 * 4 / (5 * 24) = 0.8.
        assert!(close(spearman(&[1, 2, 3, 4, 5], &[2, 1, 4, 3, 5]), 0.8));
        // Ties take their mean rank: x ranks 1, 2.5, 2.5, 4; y ranks 1, 3,
        // 2, 4; Pearson of those is 4.5 / sqrt(4.5 * 5).
        assert!(close(spearman(&[1, 2, 2, 3], &[10, 30, 20, 40]), 4.5 / (4.5f64 * 5.0).sqrt()));
        // A constant has no ranking.
        assert_eq!(spearman(&[1, 2, 3], &[7, 7, 7]), 0.0);
        // Weights count a sample that many times.
        let (a, b) = (Ranked::new(&[1, 2, 3, 4]), Ranked::new(&[1, 3, 2, 4]));
        let twice_first = spearman_weighted(&a, &b, &[2, 1, 1, 1]);
        assert!(close(twice_first, spearman(&[1, 1, 2, 3, 4], &[1, 1, 3, 2, 4])));
        assert!(close(spearman_weighted(&a, &b, &[0, 1, 1, 1]), spearman(&[2, 3, 4], &[3, 2, 4])));
    }

    #[test]
    fn best_threshold_of_a_constructed_gate() {
        // The gate fires exactly where danger exceeds 5.
        let danger: Vec<i32> = (0..20).collect();
        let gate: Vec<bool> = danger.iter().map(|&d| d > 5).collect();
        let ones = vec![1; 20];
        let m = best_threshold(&gate, &Ranked::new(&danger), &ones);
        assert_eq!(m, GateMatch { threshold: Some(5), agreement: 1.0 });
        // Two of twenty misfire: 18/20 at the same threshold.
        let mut noisy = gate.clone();
        noisy[2] = true;
        noisy[15] = false;
        assert_eq!(
            best_threshold(&noisy, &Ranked::new(&danger), &ones),
            GateMatch { threshold: Some(5), agreement: 0.9 }
        );
        // A gate that always fires is matched by "everything is dangerous".
        let m = best_threshold(&[true; 20], &Ranked::new(&danger), &ones);
        assert_eq!(m, GateMatch { threshold: None, agreement: 1.0 });
    }

    /// A constructed sample where the new danger agrees with the gate less
    /// often than the old: the shift is negative and flagged; equal
    /// dangers give no shift and no flag.
    #[test]
    fn a_shift_in_agreement_is_flagged() {
        let mut rng = Rng::new(7);
        let samples: Vec<[KingSample; 2]> = (0..2000)
            .map(|_| {
                std::array::from_fn(|_| {
                    let count = rng.index(5) as i32;
                    let old = 10 * count + rng.index(3) as i32;
                    // New: one king in four has a danger unrelated to the count.
                    let new = if rng.index(4) == 0 { rng.index(50) as i32 } else { old };
                    KingSample { count, danger: [old, old, new], penalty: [old, old, new], computed: count != 3 }
                })
            })
            .collect();
        let r = analyse(&samples, Scope::All, 1, 200, 3);
        let [mailbox, chain, single] = [&r.impls[0], &r.impls[1], &r.impls[2]];
        assert_eq!(mailbox.agreement.value, 1.0);
        assert_eq!(mailbox.threshold, Some(12), "counts 0 and 1 reach 12 at most, 2 starts at 20");
        assert!(close(mailbox.spearman_danger.value, chain.spearman_danger.value));
        assert_eq!(chain.shift.unwrap().interval, [0.0, 0.0]);
        assert!(!chain.flagged && mailbox.shift.is_none());
        let s = single.shift.unwrap();
        assert!(s.value < -0.05 && s.interval[1] < 0.0 && single.flagged, "{s:?}");
        assert!(single.spearman_danger.value < mailbox.spearman_danger.value);
        for i in &r.impls {
            let e = i.spearman_danger;
            assert!(e.interval[0] <= e.value && e.value <= e.interval[1], "{e:?}");
        }
        assert!(close(r.gate_rate, samples.iter().flatten().filter(|k| k.count > 1).count() as f64 / 4000.0));
        // The computed kings only: count 3 left out.
        let c = analyse(&samples, Scope::Computed, 1, 200, 3);
        let kept: Vec<&KingSample> = samples.iter().flatten().filter(|k| k.count != 3).collect();
        assert_eq!(c.kings, kept.len());
        let (x, y): (Vec<i32>, Vec<i32>) = kept.iter().map(|k| (k.count, k.danger[2])).unzip();
        assert!(close(c.impls[2].spearman_danger.value, spearman(&x, &y)));
        assert!(close(c.gate_rate, kept.iter().filter(|k| k.count > 1).count() as f64 / kept.len() as f64));
    }

    #[test]
    fn collected_samples_agree_with_the_evaluation() {
        let samples = collect(40, 5);
        assert_eq!(samples.len(), 40);
        let positions = crate::tools::randpos::random_positions(40, 5);
        for (s, pos) in samples.iter().zip(&positions) {
            for side in Color::ALL {
                let k = s[side.index()];
                assert_eq!(k.count, crate::defects::MailboxDefects::count(pos, side).count);
                // Mailbox and chain evaluate alike, king danger included.
                assert_eq!((k.danger[0], k.penalty[0]), (k.danger[1], k.penalty[1]));
                assert!(k.penalty[0] >= 0 && k.danger[0] >= 0);
                // No danger counter, no penalty.
                assert!(k.computed || (k.danger, k.penalty) == ([0; 3], [0; 3]), "{k:?}");
            }
        }
        assert!(samples.iter().flatten().any(|k| k.danger[0] > 0 && k.count > 1));
    }
}
