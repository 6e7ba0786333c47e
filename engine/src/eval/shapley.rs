//! Shapley shares of the evaluation's ten groups ([`super::groups`]): a cost
//! attribution that adds up whatever the groups' interactions.
//!
//! Leave-one-out ablation ([`super::ablation`]) asks what leaving one group
//! out saves. Where groups slow each other down (the mailbox set's slider
//! walks), each saving includes the interactions the group takes part in,
//! so the savings add up to more than the whole. The Shapley share of a
//! group is its marginal cost averaged over every order in which the groups
//! can be added to the evaluation: each pairwise interaction is split
//! evenly between its two groups, and the shares add up to the whole minus
//! the inputs exactly.
//!
//! That needs the cost of every one of the 2^10 subsets of groups, so the
//! subsets run in the one copy of the evaluation that reads what to leave
//! out at run time ([`super::groups::RUNTIME_SKIP`]): the same code for every
//! subset (fixed code), with about twenty well-predicted tests the engine's
//! evaluation does not have. A group left out at fixed code still shapes the
//! code around it (registers, scheduling), so a group's share can be below
//! what deleting it from a monomorphised copy saves even where nothing
//! interacts.
//!
//! This module times the subsets ([`time_subsets`]) and computes the
//! shares, the leave-one-out costs and the pairwise interactions from
//! their costs ([`shares`], [`leave_one_out`], [`interactions`]).

use super::ablation::{full_eval_config, Ablation};
use super::groups::{Group, RUNTIME_SKIP};
use super::mobility::{ChainSet, MailboxSet, MobilityKind, MobilitySet, SingleProbeSet};
use super::weights::Weights;
use super::Evaluation;
use crate::defects::{BitboardDefects, DefectCounter, MailboxDefects};
use crate::position::Position;
use crate::tsc;
use std::hint::black_box;

/// The groups, the players of the game.
pub const GROUPS: usize = Group::ALL.len();

/// Subsets of the groups, indexed by the bit set of the groups present
/// (bit `i`: `Group::ALL[i]`).
pub const SUBSETS: usize = 1 << GROUPS;

/// Every group present.
pub const ALL_PRESENT: usize = SUBSETS - 1;

/// A window no score leaves.
const WINDOW: i32 = super::EVAL_LIMIT + 1;

/// The skip mask that leaves group `g` out whole: its work and, where it
/// builds some, its state.
pub fn removal_mask(g: Group) -> u32 {
    Ablation::of(g, true).or(Ablation::of(g, false)).map_or(0, |a| a.mask)
}

/// The skip mask of the subset `present` (a bit set over `Group::ALL`).
pub fn subset_mask(present: usize) -> u32 {
    (0..GROUPS).filter(|i| present & (1 << i) == 0).fold(0, |m, i| m | removal_mask(Group::ALL[i]))
}

/// How the subsets are timed: per visit, every subset once in a shuffled
/// order, each as `warm` untimed passes over the positions then `timed`
/// timed ones, of which the lowest is the visit's figure.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Visits of every subset.
    pub visits: usize,
    /// Untimed passes of a subset before its timed ones, per visit.
    pub warm: usize,
    /// Timed passes of a subset per visit.
    pub timed: usize,
    /// Seed of the visit orders.
    pub seed: u64,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing { visits: 20, warm: 5, timed: 5, seed: 0x5EED }
    }
}

/// Ticks per evaluation of every subset in every visit:
/// `result[visit][subset]`. One evaluator serves every subset, so they all
/// read the same pawn hash and material table (warm after the first pass).
///
/// # Panics
///
/// If `positions` is empty or `timing` has no visits or no timed passes.
pub fn time_subsets(kind: MobilityKind, positions: &mut [Position], timing: Timing) -> Vec<Vec<f64>> {
    assert!(!positions.is_empty() && timing.visits > 0 && timing.timed > 0, "nothing to time");
    match kind {
        MobilityKind::Mailbox => time_with::<MailboxSet, MailboxDefects>(MailboxSet, positions, timing),
        MobilityKind::Chain => time_with::<ChainSet, BitboardDefects>(ChainSet, positions, timing),
        MobilityKind::SingleProbe => time_with::<SingleProbeSet, BitboardDefects>(SingleProbeSet, positions, timing),
    }
}

fn time_with<M: MobilitySet, D: DefectCounter>(set: M, positions: &mut [Position], timing: Timing) -> Vec<Vec<f64>> {
    let mut eval = Evaluation::<M, D, RUNTIME_SKIP>::ablated(set, Weights::default(), full_eval_config());
    time_each_subset(timing, |mask| {
        eval.skip_at_run_time(mask);
        pass(&mut eval, positions)
    })
}

/// The visits of [`time_subsets`] for any copy that reads its skip mask at
/// run time: `pass(mask)` runs one pass over the positions leaving out
/// `mask` and returns its ticks per evaluation. Per visit every subset
/// comes once, in a shuffled order, as `timing.warm` untimed passes and
/// `timing.timed` timed ones, of which the lowest is the visit's figure.
pub fn time_each_subset(timing: Timing, mut pass: impl FnMut(u32) -> f64) -> Vec<Vec<f64>> {
    let mut rng = crate::rng::Rng::new(timing.seed);
    let mut order: Vec<usize> = (0..SUBSETS).collect();
    let masks: Vec<u32> = (0..SUBSETS).map(subset_mask).collect();
    let mut visits = Vec::with_capacity(timing.visits);
    for _ in 0..timing.visits {
        for j in (1..order.len()).rev() {
            order.swap(j, rng.index(j + 1));
        }
        let mut floors = vec![0.0; SUBSETS];
        for &present in &order {
            for _ in 0..timing.warm {
                pass(masks[present]);
            }
            floors[present] = (0..timing.timed).map(|_| pass(masks[present])).fold(f64::INFINITY, f64::min);
        }
        visits.push(floors);
    }
    visits
}

/// Ticks per evaluation of one pass over `positions`.
#[inline(never)]
fn pass<M: MobilitySet, D: DefectCounter>(
    eval: &mut Evaluation<M, D, RUNTIME_SKIP>,
    positions: &mut [Position],
) -> f64 {
    let mut sum = 0i64;
    let start = tsc::start();
    for p in positions.iter_mut() {
        sum += i64::from(eval.evaluate(black_box(p), -WINDOW, WINDOW));
    }
    let ticks = tsc::stop().wrapping_sub(start);
    black_box(sum);
    ticks as f64 / positions.len() as f64
}

/// Per subset, the median over visits of `visits` (as [`time_subsets`]
/// returns them); `pick` chooses the visits (a bootstrap resample), every
/// visit when `None`.
///
/// # Panics
///
/// If `visits` is empty.
pub fn medians(visits: &[Vec<f64>], pick: Option<&[usize]>) -> Vec<f64> {
    let all: Vec<usize> = (0..visits.len()).collect();
    let pick = pick.unwrap_or(&all);
    let mut column = Vec::with_capacity(pick.len());
    (0..visits[0].len())
        .map(|s| {
            column.clear();
            column.extend(pick.iter().map(|&v| visits[v][s]));
            column.sort_by(f64::total_cmp);
            let n = column.len();
            if n % 2 == 1 {
                column[n / 2]
            } else {
                (column[n / 2 - 1] + column[n / 2]) / 2.0
            }
        })
        .collect()
}

/// The Shapley share of every group, from the cost of every subset
/// (`cost[present]`, [`SUBSETS`] of them). They add up to
/// `cost[ALL_PRESENT] - cost[0]`.
///
/// # Panics
///
/// If `cost` does not have [`SUBSETS`] entries.
pub fn shares(cost: &[f64]) -> [f64; GROUPS] {
    assert_eq!(cost.len(), SUBSETS, "one cost per subset");
    // The weight of a subset of k other groups: k! (n - k - 1)! / n!.
    let factorial = |n: usize| (1..=n).map(|k| k as f64).product::<f64>();
    let weight: Vec<f64> = (0..GROUPS).map(|k| factorial(k) * factorial(GROUPS - k - 1) / factorial(GROUPS)).collect();
    std::array::from_fn(|i| {
        (0..SUBSETS)
            .filter(|s| s & (1 << i) == 0)
            .map(|s| weight[s.count_ones() as usize] * (cost[s | 1 << i] - cost[s]))
            .sum()
    })
}

/// What leaving each group out of the whole saves: the classic ablation,
/// at fixed code.
pub fn leave_one_out(cost: &[f64]) -> [f64; GROUPS] {
    std::array::from_fn(|i| cost[ALL_PRESENT] - cost[ALL_PRESENT & !(1 << i)])
}

/// The interaction of every pair of groups: whole - without a - without b +
/// without both (positive: together they cost more than apart), largest in
/// magnitude first.
pub fn interactions(cost: &[f64]) -> Vec<(Group, Group, f64)> {
    let full = cost[ALL_PRESENT];
    let mut pairs = Vec::new();
    for i in 0..GROUPS {
        for j in i + 1..GROUPS {
            let (a, b) = (ALL_PRESENT & !(1 << i), ALL_PRESENT & !(1 << j));
            pairs.push((Group::ALL[i], Group::ALL[j], full - cost[a] - cost[b] + cost[a & b]));
        }
    }
    pairs.sort_by(|x, y| y.2.abs().total_cmp(&x.2.abs()));
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::ablation::{ablated, ablated_at_fixed_code};

    /// A game where each group costs `own[i]`, the inputs 50, and groups
    /// `a` and `b` together `extra` more.
    fn game(own: &[f64; GROUPS], a: usize, b: usize, extra: f64) -> Vec<f64> {
        (0..SUBSETS)
            .map(|s| {
                let sum: f64 = (0..GROUPS).filter(|i| s & (1 << i) != 0).map(|i| own[i]).sum();
                let both = s & (1 << a) != 0 && s & (1 << b) != 0;
                50.0 + sum + if both { extra } else { 0.0 }
            })
            .collect()
    }

    const OWN: [f64; GROUPS] = [1.0, 2.0, 3.0, 10.0, 20.0, 40.0, 80.0, 15.0, 30.0, 12.0];

    #[test]
    fn an_additive_game_gives_each_group_its_own_cost() {
        let cost = game(&OWN, 5, 6, 0.0);
        for (i, (s, l)) in shares(&cost).iter().zip(leave_one_out(&cost)).enumerate() {
            assert!((s - OWN[i]).abs() < 1e-9 && (l - OWN[i]).abs() < 1e-9, "group {i}: {s} {l}");
        }
        assert!(interactions(&cost).iter().all(|p| p.2.abs() < 1e-9));
    }

    #[test]
    fn an_interaction_is_split_evenly_and_counted_twice_by_leaving_out() {
        let cost = game(&OWN, 5, 6, 30.0);
        let (s, l) = (shares(&cost), leave_one_out(&cost));
        assert!((s[5] - 55.0).abs() < 1e-9 && (s[6] - 95.0).abs() < 1e-9, "{s:?}");
        assert!((l[5] - 70.0).abs() < 1e-9 && (l[6] - 110.0).abs() < 1e-9, "{l:?}");
        let total: f64 = s.iter().sum();
        assert!((total - (cost[ALL_PRESENT] - cost[0])).abs() < 1e-9);
        let top = interactions(&cost)[0];
        assert_eq!((top.0, top.1), (Group::ALL[5], Group::ALL[6]));
        assert!((top.2 - 30.0).abs() < 1e-9);
    }

    #[test]
    fn shares_add_up_to_the_whole_whatever_the_costs() {
        let mut rng = crate::rng::Rng::new(7);
        let cost: Vec<f64> = (0..SUBSETS).map(|_| rng.index(1000) as f64).collect();
        let total: f64 = shares(&cost).iter().sum();
        assert!((total - (cost[ALL_PRESENT] - cost[0])).abs() < 1e-6, "{total}");
    }

    #[test]
    fn medians_take_the_middle_of_the_visits_picked() {
        let visits = vec![vec![1.0, 10.0], vec![3.0, 30.0], vec![2.0, 20.0]];
        assert_eq!(medians(&visits, None), vec![2.0, 20.0]);
        assert_eq!(medians(&visits, Some(&[0, 1])), vec![2.0, 20.0]);
        assert_eq!(medians(&visits, Some(&[1, 1, 0])), vec![3.0, 30.0]);
    }

    #[test]
    fn every_subset_has_its_own_mask_and_the_whole_skips_nothing() {
        assert_eq!(subset_mask(ALL_PRESENT), 0);
        let masks: std::collections::HashSet<u32> = (0..SUBSETS).map(subset_mask).collect();
        assert_eq!(masks.len(), SUBSETS);
        use crate::eval::groups::{drops_state, drops_work};
        for g in Group::ALL {
            assert!(drops_work(subset_mask(0), g) || !g.has_work(), "{g}");
            assert!(drops_state(subset_mask(0), g) || !g.has_state(), "{g}");
        }
    }

    #[test]
    fn fixed_code_variants_score_as_the_monomorphised_ones() {
        let epd = include_str!("../../../positions/wac.epd");
        let positions: Vec<Position> = epd
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(60)
            .map(|l| crate::position::epd::Epd::parse(l).expect("wac.epd parses").position().clone())
            .collect();
        for kind in MobilityKind::ALL {
            for a in Ablation::ALL {
                let mut fixed = ablated_at_fixed_code(kind, a, Weights::default(), full_eval_config());
                let mut mono = ablated(kind, a, Weights::default(), full_eval_config());
                for p in &positions {
                    let (mut p1, mut p2) = (p.clone(), p.clone());
                    assert_eq!(
                        fixed.evaluate(&mut p1, -WINDOW, WINDOW),
                        mono.evaluate(&mut p2, -WINDOW, WINDOW),
                        "{kind:?} {} on {}",
                        a.name,
                        p.to_fen()
                    );
                }
            }
        }
    }
}
