//! Shapley shares in boardbench: per implementation and bucket, every one
//! of the 2^10 subsets of the evaluation's groups timed at fixed code
//! (`engine::eval::shapley`), and from their costs each group's Shapley
//! share and the pairwise interactions, each with a bootstrap interval.
//!
//! Why a fourth column: where groups slow each other down, leave-one-out
//! ablation counts every interaction once for each of its groups, so the
//! ablation rows over-sum (the mailbox set's by 30-56% on an Intel host),
//! and no partition of the time, the counters' included, can match them.
//! The Shapley shares split each interaction evenly and add up to the whole
//! exactly; the interactions they report name the groups that make the
//! leave-one-out rows over-sum, and by how much.
//!
//! The subsets are timed with the engine's own loop (time-stamp counter,
//! one pass over a bucket's positions at a time), not boardbench's runner:
//! 1,024 arms would be far beyond what the runner's interleaving is built
//! for. Each visit times every subset once, in a shuffled order, as five
//! untimed passes then the lowest of five timed ones; a subset's cost is the
//! median over visits. The shares are then scaled to the table's ablation
//! floor (as the ablation rows are), so the two columns compare directly.

use super::prepare;
use crate::measure::context::Context;
use crate::suite::density::PositionSet;
use crate::suite::report::Cost;
use engine::eval::groups::Group;
use engine::eval::shapley::{interactions, medians, shares, time_subsets, Timing, ALL_PRESENT, GROUPS};
use engine::eval::MobilityKind;
use engine::Position;

/// Visits of every subset in a full run (about 50 s for the three
/// implementations and buckets on a 2.6 GHz host).
pub const VISITS: usize = 20;

/// Visits in a `--quick` run (a check that the pieces work, not a figure).
pub const QUICK_VISITS: usize = 2;

/// Bootstrap resamples of the visits, for the shares' intervals.
const RESAMPLES: usize = 200;

/// How many of the largest interactions a table keeps.
pub const INTERACTIONS_KEPT: usize = 5;

/// What one implementation's subsets cost on one bucket, in ticks per
/// evaluation of the fixed-code copy.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub bucket: String,
    pub kind: MobilityKind,
    /// The whole (every group present).
    pub floor: f64,
    /// The inputs alone (no group present), with its bootstrap interval.
    pub inputs: Cost,
    /// Per group in `Group::ALL` order, with its bootstrap interval.
    pub shares: [Cost; GROUPS],
    /// The largest pairwise interactions whose bootstrap interval leaves
    /// out zero, largest in magnitude first, each with that interval.
    pub interactions: Vec<(Group, Group, Cost)>,
}

impl Measured {
    /// Every figure times `to / floor`: the shares of this whole, set
    /// against another whole (the ablation floor).
    pub fn scaled_to(&self, to: f64) -> Measured {
        let k = to / self.floor;
        let scale = |c: Cost| Cost { value: c.value * k, interval: [c.interval[0] * k, c.interval[1] * k] };
        Measured {
            bucket: self.bucket.clone(),
            kind: self.kind,
            floor: self.floor,
            inputs: scale(self.inputs),
            shares: self.shares.map(scale),
            interactions: self.interactions.iter().map(|&(a, b, x)| (a, b, scale(x))).collect(),
        }
    }
}

/// The visits of a run.
pub fn visits(ctx: &Context) -> usize {
    if ctx.quick {
        QUICK_VISITS
    } else {
        VISITS
    }
}

/// Every bucket of `set` for implementation `kind`.
pub fn measure(ctx: &Context, set: &PositionSet, kind: MobilityKind) -> Vec<Measured> {
    let timing = Timing { visits: visits(ctx), ..Timing::default() };
    set.buckets
        .iter()
        .map(|(bucket, chosen)| {
            let mut positions: Vec<Position> = chosen.iter().map(|c| prepare(&c.position)).collect();
            let times = time_subsets(kind, &mut positions, timing);
            summarise(bucket.name(), kind, &times)
        })
        .collect()
}

/// The shares, their intervals and the interactions from every visit's
/// subset costs (`times[visit][subset]`).
pub fn summarise(bucket: &str, kind: MobilityKind, times: &[Vec<f64>]) -> Measured {
    let cost = medians(times, None);
    let point = shares(&cost);
    // Bootstrap: visits drawn with replacement, the same draw for every
    // subset (a visit's subsets ran together).
    let mut rng = engine::rng::Rng::new(0xB007);
    let mut draws: Vec<[f64; GROUPS]> = Vec::with_capacity(RESAMPLES);
    let mut inputs: Vec<f64> = Vec::with_capacity(RESAMPLES);
    // Per resample, every pair's interaction (in `interactions(&cost)`'s
    // order of pairs, found by name).
    let pairs = interactions(&cost);
    let mut pair_draws: Vec<Vec<f64>> = vec![Vec::with_capacity(RESAMPLES); pairs.len()];
    let mut pick = vec![0; times.len()];
    for _ in 0..RESAMPLES {
        pick.iter_mut().for_each(|p| *p = rng.index(times.len()));
        let c = medians(times, Some(&pick));
        draws.push(shares(&c));
        inputs.push(c[0]);
        for (a, b, x) in interactions(&c) {
            let i = pairs.iter().position(|p| p.0 == a && p.1 == b).expect("the same pairs");
            pair_draws[i].push(x);
        }
    }
    let interval = |mut v: Vec<f64>| -> [f64; 2] {
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        [at(0.025), at(0.975)]
    };
    let shares = std::array::from_fn(|i| Cost {
        value: point[i],
        interval: interval(draws.iter().map(|d| d[i]).collect()),
    });
    // Pairs whose interval leaves out zero: with 20 visits a pair's four
    // subsets carry tens of ticks of noise on a mailbox evaluation.
    let kept: Vec<(Group, Group, Cost)> = pairs
        .iter()
        .zip(pair_draws)
        .map(|(&(a, b, x), d)| (a, b, Cost { value: x, interval: interval(d) }))
        .filter(|(_, _, c)| c.interval[0] > 0.0 || c.interval[1] < 0.0)
        .take(INTERACTIONS_KEPT)
        .collect();
    Measured {
        bucket: bucket.to_string(),
        kind,
        floor: cost[ALL_PRESENT],
        inputs: Cost { value: cost[0], interval: interval(inputs) },
        shares,
        interactions: kept,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::shapley::SUBSETS;

    /// Visits of a game where bishops and rooks cost 30 more together,
    /// with a little noise per visit.
    fn visits_of_a_game(n: usize) -> Vec<Vec<f64>> {
        let own = [1.0, 2.0, 3.0, 10.0, 20.0, 40.0, 80.0, 15.0, 30.0, 12.0];
        let (b, r) = (5, 6);
        (0..n)
            .map(|v| {
                (0..SUBSETS)
                    .map(|s| {
                        let sum: f64 = (0..GROUPS).filter(|i| s & (1 << i) != 0).map(|i| own[i]).sum();
                        let both = s & (1 << b) != 0 && s & (1 << r) != 0;
                        50.0 + sum + if both { 30.0 } else { 0.0 } + (v % 3) as f64
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn shares_split_the_interaction_and_hold_their_value() {
        let m = summarise("middlegame", MobilityKind::Mailbox, &visits_of_a_game(9));
        assert_eq!(Group::ALL[5], Group::Bishops);
        assert!((m.shares[5].value - 55.0).abs() < 1e-9, "{:?}", m.shares[5]);
        assert!((m.shares[6].value - 95.0).abs() < 1e-9, "{:?}", m.shares[6]);
        for c in m.shares.iter().chain([&m.inputs]) {
            assert!(c.interval[0] <= c.value && c.value <= c.interval[1], "{c:?}");
        }
        let total: f64 = m.shares.iter().map(|c| c.value).sum::<f64>() + m.inputs.value;
        assert!((total - m.floor).abs() < 1e-9, "{total} vs {}", m.floor);
        // The one real interaction; the others are zero in every visit.
        assert_eq!(m.interactions.len(), 1, "{:?}", m.interactions);
        assert_eq!((m.interactions[0].0, m.interactions[0].1), (Group::Bishops, Group::Rooks));
        let half = m.scaled_to(m.floor / 2.0);
        assert!((half.shares[6].value - 47.5).abs() < 1e-9 && (half.interactions[0].2.value - 15.0).abs() < 1e-9);
    }
}
