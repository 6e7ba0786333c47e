//! Ablation in boardbench's runner: what each group of the evaluation
//! costs, as the difference between the full evaluation and the evaluation
//! without the group (the engine's ablation variants,
//! `engine::eval::ablation`), timed interleaved on the same positions.
//!
//! One runner job per implementation and group, over every density bucket
//! and ladder rung, with only the variants that group needs as arms:
//!
//! * a group with work and state (knights, bishops, rooks, queens, kings,
//!   passers): `without_G` as the baseline, `full` and `without_G_state`
//!   against it, so both parts are single paired ratios:
//!   work = floor(full) - floor(without_G), state = floor(without_G) -
//!   floor(without_G_state);
//! * hash, material, pawns (work only) and pawn attacks (state only): `full`
//!   as the baseline and the one variant against it;
//! * and one more job, `full` against `inputs_only` (every group left out):
//!   the floor of what no group removes, its own row.
//!
//! Each job's parts are taken as shares of that job's full floor and set
//! against the median full floor of all the jobs: on a shared machine a
//! job can run tens of percent slower or faster than the next (the other
//! core's load, frequency), which moves its parts in proportion; shares
//! cancel that, differences of floors from different jobs would not.
//!
//! Each arm of a job is timed in a block (the runner's `block_warmup`),
//! after [`BLOCK_WARMUP`] untimed passes of its own: how much of a pass the
//! core has learned moves a mailbox evaluation by up to 2x (ARCHITECTURE.md,
//! "A set the core learns"), and with arms interleaved sample by sample a
//! second mailbox variant in the job kept the full floor at 1.5-2x the
//! whole-evaluation arm's, which shares cannot cancel. In blocks every
//! job's full floor is the whole-evaluation arm's (mailbox) or a little
//! below it (chain and single probe, which the arm times beside the
//! mailbox evaluation).
//!
//! Each variant has its own pawn hash (2 MiB, of which the positions touch
//! a few hundred lines); with all seventeen variants in one job their
//! entries and code crowd the caches between samples and every floor rises
//! (the engine's helper measured about 100 ticks), so each job holds two or
//! three evaluators only. Every arm calls its evaluator through the same
//! path (a thread-local table, one indirect call into `DynEvaluation`), so
//! the full evaluation and each variant pay the same call cost.
//!
//! A part's interval is its ratio's paired 95% interval (the runner's)
//! scaled by the baseline's floor; the baseline floor's own uncertainty is
//! left out (it moves the part by its relative width times the part, a
//! tenth of the ratio's effect or less here).

use super::attribution::{attribute, median_of_layouts, Attributed, GroupParts};
use super::prepare;
use crate::measure::context::Context;
use crate::measure::runner::{Arm, Plan, Precision, Role, Routine};
use crate::measure::stats;
use crate::suite::benchmark::run_arms_planned;
use crate::suite::density::PositionSet;
use crate::suite::report::{BenchReport, Cost, GroupLadder};
use crate::suite::spec::Spec;
use engine::eval::ablation::{ablated_in_layout, full_eval_config, Ablation, DynEvaluation, LAYOUT_PADS};
use engine::eval::groups::Group;
use engine::eval::weights::Weights;
use engine::eval::MobilityKind;
use engine::Position;
use std::cell::RefCell;

/// Number of variants per implementation.
const VARIANTS: usize = Ablation::ALL.len();

/// Number of implementations.
const KINDS: usize = MobilityKind::ALL.len();

/// Number of code layouts every variant is timed in.
pub const LAYOUTS: usize = LAYOUT_PADS.len();

/// Kept rounds of a `--quick` job (no budget).
const QUICK_ROUNDS: usize = 4;

/// Seconds of all ablation jobs of one implementation, as a multiple of the
/// run's per-benchmark budget (split evenly over the jobs: one per group
/// and the inputs').
pub const BUDGET_FACTOR: f64 = 0.6;

/// Precision a job stops on: every bucket's ratio within ±0.5% (±3 to 8
/// ticks of a part, for whole evaluations of 600-1700 ticks).
const HALF_WIDTH: f64 = 0.005;

/// A window no score leaves.
const WINDOW: i32 = engine::eval::EVAL_LIMIT + 1;

type Table = [[[Option<Box<dyn DynEvaluation>>; VARIANTS]; LAYOUTS]; KINDS];

thread_local! {
    /// Each (implementation, layout, variant)'s evaluator, made on first use.
    static EVALUATORS: RefCell<Table> =
        RefCell::new(std::array::from_fn(|_| std::array::from_fn(|_| std::array::from_fn(|_| None))));
}

/// Evaluate with variant `V` of implementation `K` in layout `L` (indices
/// into [`MobilityKind::ALL`], [`LAYOUT_PADS`] and [`Ablation::ALL`]).
fn evaluate<const K: usize, const L: usize, const V: usize>(pos: &mut Position) -> u64 {
    EVALUATORS.with_borrow_mut(|t| {
        let e = t[K][L][V].get_or_insert_with(|| {
            ablated_in_layout(MobilityKind::ALL[K], Ablation::ALL[V], L, Weights::default(), full_eval_config())
        });
        u64::from(e.evaluate(pos, -WINDOW, WINDOW) as u32) + 1
    })
}

/// The routines of implementation `K` in each layout, in [`Ablation::ALL`]
/// order.
macro_rules! routines {
    ($k:literal) => {
        [routines!($k, 0), routines!($k, 1), routines!($k, 2), routines!($k, 3)]
    };
    ($k:literal, $l:literal) => {
        [
            evaluate::<$k, $l, 0>,
            evaluate::<$k, $l, 1>,
            evaluate::<$k, $l, 2>,
            evaluate::<$k, $l, 3>,
            evaluate::<$k, $l, 4>,
            evaluate::<$k, $l, 5>,
            evaluate::<$k, $l, 6>,
            evaluate::<$k, $l, 7>,
            evaluate::<$k, $l, 8>,
            evaluate::<$k, $l, 9>,
            evaluate::<$k, $l, 10>,
            evaluate::<$k, $l, 11>,
            evaluate::<$k, $l, 12>,
            evaluate::<$k, $l, 13>,
            evaluate::<$k, $l, 14>,
            evaluate::<$k, $l, 15>,
            evaluate::<$k, $l, 16>,
            evaluate::<$k, $l, 17>,
        ]
    };
}

const ROUTINES: [[[Routine<Position>; VARIANTS]; LAYOUTS]; KINDS] = [routines!(0), routines!(1), routines!(2)];

/// The routine of `variant` for `kind` in `layout`.
pub fn routine(kind: MobilityKind, variant: Ablation, layout: usize) -> Routine<Position> {
    let k = MobilityKind::ALL.iter().position(|&x| x == kind).expect("a kind");
    let v = Ablation::ALL.iter().position(|&x| x == variant).expect("a variant");
    ROUTINES[k][layout][v]
}

/// Drop `kind`'s evaluators (their pawn hashes), once a job is done.
fn release(kind: MobilityKind) {
    let k = MobilityKind::ALL.iter().position(|&x| x == kind).expect("a kind");
    EVALUATORS.with_borrow_mut(|t| t[k].iter_mut().flatten().for_each(|e| *e = None));
}

/// The variants of one group's job (`None`: the inputs' job), the
/// baseline first.
pub fn job(group: Option<Group>) -> Vec<Ablation> {
    let Some(group) = group else { return vec![Ablation::FULL, Ablation::INPUTS_ONLY] };
    let without = Ablation::of(group, false);
    let without_state = Ablation::of(group, true);
    match (without, without_state) {
        (Some(w), Some(s)) => vec![w, Ablation::FULL, s],
        (Some(only), None) | (None, Some(only)) => vec![Ablation::FULL, only],
        (None, None) => unreachable!("every group has work or state: {group}"),
    }
}

/// Progress labels, one per group, then the inputs' job.
const LABELS: [&str; 11] = [
    "ablate hash",
    "ablate material",
    "ablate pawns",
    "ablate pawn att",
    "ablate knights",
    "ablate bishops",
    "ablate rooks",
    "ablate queens",
    "ablate kings",
    "ablate passers",
    "ablate inputs",
];

/// Untimed passes of an arm before its samples of a visit. After other
/// positions ran through the same code, the mailbox evaluation's cost on
/// 256 positions settled within 15-20 passes (`engine/examples/evalspeed.rs
/// --between FILE --block 20` reads the same floor beside any variant).
pub const BLOCK_WARMUP: usize = 20;

/// How many code layouts a run times each variant in: every one of
/// [`LAYOUT_PADS`], or the first alone in a `--quick` run (a check that
/// the pieces work, not a figure).
pub fn layouts(ctx: &Context) -> usize {
    if ctx.quick {
        1
    } else {
        LAYOUTS
    }
}

/// The plan of one job.
fn plan(ctx: &Context) -> Plan {
    let mut p = ctx.plan;
    p.block_warmup = Some(BLOCK_WARMUP);
    if ctx.quick {
        p.rounds = QUICK_ROUNDS;
        p.budget_s = None;
        p.warmup_rounds = 1;
        p.precision = None;
    } else {
        p.budget_s = p.budget_s.map(|b| b * BUDGET_FACTOR / (LABELS.len() * layouts(ctx)) as f64);
        p.precision = p.precision.map(|x| Precision { half_width: HALF_WIDTH, ..x });
    }
    p
}

/// What one job measured on one workload, in that job's ticks.
#[derive(Clone, Copy, Debug)]
pub enum Measured {
    /// A group's parts.
    Group(GroupParts),
    /// The inputs alone: the `inputs_only` floor.
    Inputs(Cost),
}

/// One job's figures on one workload: what it measured, and the full
/// evaluation's floor with its interval in that job.
#[derive(Clone, Copy, Debug)]
pub struct JobResult {
    pub measured: Measured,
    pub full: Cost,
}

impl JobResult {
    /// The figures as shares of the job's full floor, times `full`.
    fn scaled_to(self, full: f64) -> Measured {
        let k = full / self.full.value;
        let scale = |c: Cost| Cost { value: c.value * k, interval: [c.interval[0] * k, c.interval[1] * k] };
        match self.measured {
            Measured::Group(p) => {
                Measured::Group(GroupParts { group: p.group, work: p.work.map(scale), state: p.state.map(scale) })
            }
            Measured::Inputs(c) => Measured::Inputs(scale(c)),
        }
    }
}

/// What a job measured, from its baseline floor and the candidates'
/// ratios to it. `ratios[i]` belongs to `variants[i + 1]`.
pub fn parts_of(group: Option<Group>, variants: &[Ablation], base_floor: f64, ratios: &[Cost]) -> Measured {
    let below = |r: &Cost| Cost {
        // base - arm = base × (1 - ratio): a ratio's upper end is the lower end.
        value: base_floor * (1.0 - r.value),
        interval: [base_floor * (1.0 - r.interval[1]), base_floor * (1.0 - r.interval[0])],
    };
    let above = |r: &Cost| Cost {
        value: base_floor * (r.value - 1.0),
        interval: [base_floor * (r.interval[0] - 1.0), base_floor * (r.interval[1] - 1.0)],
    };
    let Some(group) = group else {
        // inputs_only = full × ratio.
        let r = &ratios[0];
        return Measured::Inputs(Cost {
            value: base_floor * r.value,
            interval: [base_floor * r.interval[0], base_floor * r.interval[1]],
        });
    };
    let mut parts = GroupParts { group, work: None, state: None };
    if variants[0] == Ablation::FULL {
        // full vs the one variant: work, or (pawn attacks) state.
        let cost = below(&ratios[0]);
        if variants[1].state {
            parts.state = Some(cost);
        } else {
            parts.work = Some(cost);
        }
    } else {
        // without_G vs full (work) and vs without_G_state (state).
        parts.work = Some(above(&ratios[0]));
        parts.state = Some(below(&ratios[1]));
    }
    Measured::Group(parts)
}

/// What the ablation jobs of one implementation measured on one bucket.
pub struct BucketAblation {
    pub bucket: String,
    pub positions: usize,
    /// The attribution: the median over the layouts.
    pub median: Attributed,
    /// The attribution in each layout timed, in [`LAYOUT_PADS`] order.
    pub by_layout: Vec<Attributed>,
}

/// What the ablation jobs of one implementation measured.
pub struct KindAblation {
    pub kind: MobilityKind,
    pub buckets: Vec<BucketAblation>,
    /// Per group: its cost on each rung (the median over the layouts).
    pub ladder: Vec<GroupLadder>,
}

/// What a job's report measured, per bucket.
fn bucket_parts(
    group: Option<Group>,
    variants: &[Ablation],
    r: &BenchReport,
) -> Result<Vec<(String, usize, JobResult)>, String> {
    let mut out = Vec::new();
    for b in &r.buckets {
        let base = b.arms.iter().find(|a| a.role == Role::Baseline).ok_or("a job without its baseline")?;
        let mut ratios = Vec::new();
        for v in &variants[1..] {
            let a = b.arms.iter().find(|a| a.arm == v.name).ok_or_else(|| format!("no arm {} in its job", v.name))?;
            let ratio = a.ratio.ok_or_else(|| format!("no ratio for {} on {}", v.name, b.bucket))?;
            ratios.push(Cost { value: ratio.estimate, interval: ratio.interval });
        }
        let full = b.arms.iter().find(|a| a.arm == Ablation::FULL.name).ok_or("a job without the full evaluation")?;
        out.push((
            b.bucket.clone(),
            b.positions,
            JobResult {
                measured: parts_of(group, variants, base.summary.floor, &ratios),
                full: Cost { value: full.summary.floor, interval: full.summary.floor_interval },
            },
        ));
    }
    Ok(out)
}

/// The full evaluation's floor of the job whose floor is the median.
fn median_full(fulls: &mut [Cost]) -> Cost {
    fulls.sort_by(|a, b| a.value.total_cmp(&b.value));
    fulls[fulls.len() / 2]
}

/// Per bucket (name, positions): every job's result, with its layout.
type JobsPerBucket = Vec<(String, usize, Vec<(usize, JobResult)>)>;

/// One job's ladder: its group, and (men, full floor, the group's cost) on
/// each rung.
type LadderJob = (Group, Vec<(u32, f64, f64)>);

/// Every group's job for `kind` in every layout, over the buckets and the
/// ladder.
pub fn measure(ctx: &Context, set: &PositionSet, kind: MobilityKind) -> Result<KindAblation, String> {
    let plan = plan(ctx);
    let layouts = layouts(ctx);
    // In set order.
    let mut per_bucket: JobsPerBucket = Vec::new();
    // One per group and layout.
    let mut ladder: Vec<LadderJob> = Vec::new();
    let jobs = Group::ALL.iter().map(|&g| Some(g)).chain([None]);
    let result = (|| {
        for (g, group) in jobs.enumerate() {
            let variants = job(group);
            // A group's layouts one after the other, so the host's drift
            // over the run falls on every group alike.
            for layout in 0..layouts {
                let arms: Vec<Arm<Position>> = variants
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Arm {
                        name: v.name.to_string(),
                        routine: routine(kind, *v, layout),
                        role: if i == 0 { Role::Baseline } else { Role::Candidate },
                        must_agree: false,
                        doubled: false,
                    })
                    .collect();
                let spec = Spec {
                    name: LABELS[g],
                    about: "the whole evaluation against its variants without one group",
                    call: "one full evaluation of one position",
                    prepare,
                    arms: Vec::new(),
                    must_agree: false,
                };
                let r = run_arms_planned(ctx, &plan, &spec, &arms, set, None);
                // Each job's evaluators (a pawn hash each) go when it is done.
                release(kind);
                let r = r?;
                for (bucket, positions, m) in bucket_parts(group, &variants, &r)? {
                    match per_bucket.iter_mut().find(|(b, _, _)| *b == bucket) {
                        Some((_, _, list)) => list.push((layout, m)),
                        None => per_bucket.push((bucket, positions, vec![(layout, m)])),
                    }
                }
                // Full against the variant without the group and its state.
                let Some(group) = group else { continue };
                let full = variants.iter().position(|v| *v == Ablation::FULL).expect("full in every job");
                let least = variants.iter().position(|v| v.state).unwrap_or(1 - full);
                let rungs =
                    r.ladder.iter().map(|rung| (rung.men, rung.cost[full], rung.cost[full] - rung.cost[least]));
                ladder.push((group, rungs.collect::<Vec<_>>()));
            }
        }
        Ok::<(), String>(())
    })();
    result?;
    Ok(KindAblation { kind, buckets: combine_buckets(per_bucket, layouts), ladder: combine_ladder(kind, &ladder) })
}

/// Each bucket's attribution per layout and their median. Every job's parts
/// are scaled to the median of all its bucket's jobs' full floors, every
/// layout's included.
fn combine_buckets(per_bucket: JobsPerBucket, layouts: usize) -> Vec<BucketAblation> {
    per_bucket
        .into_iter()
        .map(|(bucket, positions, jobs)| {
            let mut fulls: Vec<Cost> = jobs.iter().map(|(_, j)| j.full).collect();
            let full = median_full(&mut fulls);
            let by_layout: Vec<Attributed> = (0..layouts)
                .map(|layout| {
                    let (mut groups, mut inputs) = (Vec::new(), None);
                    for (_, j) in jobs.iter().filter(|(l, _)| *l == layout) {
                        match j.scaled_to(full.value) {
                            Measured::Group(p) => groups.push(p),
                            Measured::Inputs(c) => inputs = Some(c),
                        }
                    }
                    attribute(full, groups, inputs)
                })
                .collect();
            BucketAblation { bucket, positions, median: median_of_layouts(&by_layout), by_layout }
        })
        .collect()
}

/// Each group's cost on each rung as a share of its job's full floor
/// there, set against the median of all the jobs' full floors on that
/// rung, then the median over the group's layouts.
fn combine_ladder(kind: MobilityKind, ladder: &[LadderJob]) -> Vec<GroupLadder> {
    let median_at = |men: u32| {
        let mut fulls: Vec<f64> =
            ladder.iter().flat_map(|(_, rungs)| rungs.iter().filter(|r| r.0 == men).map(|r| r.1)).collect();
        fulls.sort_by(f64::total_cmp);
        fulls[fulls.len() / 2]
    };
    let mut groups: Vec<Group> = ladder.iter().map(|(g, _)| *g).collect();
    groups.dedup();
    groups
        .into_iter()
        .map(|group| {
            let jobs: Vec<&Vec<(u32, f64, f64)>> = ladder.iter().filter(|(g, _)| *g == group).map(|(_, r)| r).collect();
            let points = jobs[0]
                .iter()
                .map(|&(men, _, _)| {
                    let mut costs: Vec<f64> = jobs
                        .iter()
                        .filter_map(|rungs| rungs.iter().find(|r| r.0 == men))
                        .map(|&(_, full, cost)| cost * median_at(men) / full)
                        .collect();
                    [f64::from(men), stats::median_mut(&mut costs)]
                })
                .collect();
            GroupLadder {
                arm: kind.name().to_string(),
                group: group.name().to_string(),
                label: group.label().to_string(),
                points,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::ablation::Ablation;

    #[test]
    fn every_group_has_a_job_with_the_full_evaluation() {
        assert_eq!(job(None), [Ablation::FULL, Ablation::INPUTS_ONLY]);
        for g in Group::ALL {
            let j = job(Some(g));
            assert!(j.contains(&Ablation::FULL), "{g}");
            assert_eq!(j.len(), 1 + usize::from(g.has_work()) + usize::from(g.has_state()), "{g}");
            assert!(j.iter().filter(|v| **v != Ablation::FULL).all(|v| v.group == Some(g)));
        }
        assert_eq!(LABELS.len(), Group::ALL.len() + 1);
    }

    /// The routines table matches the variants: each routine, in every
    /// layout, scores as an evaluator of its own variant made directly.
    #[test]
    fn each_routine_evaluates_its_own_variant() {
        let positions = crate::suite::benchmarks::tests::real_positions();
        for kind in MobilityKind::ALL {
            for v in Ablation::ALL {
                let mut direct = engine::eval::ablation::ablated(kind, v, Weights::default(), full_eval_config());
                for pos in positions.iter().step_by(37) {
                    let mut p = prepare(pos);
                    let want = u64::from(direct.evaluate(&mut p.clone(), -WINDOW, WINDOW) as u32) + 1;
                    for layout in 0..LAYOUTS {
                        assert_eq!(
                            routine(kind, v, layout)(&mut p),
                            want,
                            "{kind} {} in layout {layout}: {}",
                            v.name,
                            pos.to_fen()
                        );
                    }
                }
            }
            release(kind);
        }
    }

    #[test]
    fn parts_come_from_the_baseline_floor_and_the_ratios() {
        let r = |v: f64, lo: f64, hi: f64| Cost { value: v, interval: [lo, hi] };
        let group = |m: Measured| match m {
            Measured::Group(p) => p,
            Measured::Inputs(_) => panic!("a group's job"),
        };
        // without_knights at 900: full 1.05 × (945), without_knights_state 0.9 × (810).
        let knights = Some(Group::Knights);
        let p = group(parts_of(knights, &job(knights), 900.0, &[r(1.05, 1.04, 1.06), r(0.9, 0.89, 0.91)]));
        let (work, state) = (p.work.unwrap(), p.state.unwrap());
        assert!((work.value - 45.0).abs() < 1e-9 && (work.interval[0] - 36.0).abs() < 1e-9, "{work:?}");
        assert!((state.value - 90.0).abs() < 1e-9 && (state.interval[0] - 81.0).abs() < 1e-9, "{state:?}");
        assert!((p.whole().value - 135.0).abs() < 1e-9);
        // full at 1000, without_pawn_attacks_state 0.97: 30 ticks of state.
        let pa = Some(Group::PawnAttacks);
        let p = group(parts_of(pa, &job(pa), 1000.0, &[r(0.97, 0.96, 0.98)]));
        assert_eq!(p.work, None);
        let s = p.state.unwrap();
        assert!((s.value - 30.0).abs() < 1e-9 && (s.interval[0] - 20.0).abs() < 1e-9 && (s.interval[1] - 40.0).abs() < 1e-9);
        let hash = Some(Group::Hash);
        let p = group(parts_of(hash, &job(hash), 1000.0, &[r(0.99, 0.985, 0.995)]));
        assert!((p.work.unwrap().value - 10.0).abs() < 1e-9 && p.state.is_none());
        // The inputs alone: full × ratio.
        let Measured::Inputs(c) = parts_of(None, &job(None), 400.0, &[r(0.25, 0.24, 0.26)]) else { panic!() };
        assert_eq!((c.value, c.interval), (100.0, [96.0, 104.0]));
    }

    /// A job that ran 20% slow gives the same shares: scaled to the median
    /// full floor, its parts are what a job at that floor would have read.
    #[test]
    fn parts_are_shares_of_their_jobs_full_floor() {
        let slow = JobResult {
            measured: Measured::Group(GroupParts {
                group: Group::Rooks,
                work: Some(Cost { value: 60.0, interval: [54.0, 66.0] }),
                state: None,
            }),
            full: Cost { value: 1200.0, interval: [1190.0, 1210.0] },
        };
        let Measured::Group(p) = slow.scaled_to(1000.0) else { panic!() };
        let w = p.work.unwrap();
        assert!((w.value - 50.0).abs() < 1e-9 && (w.interval[0] - 45.0).abs() < 1e-9 && (w.interval[1] - 55.0).abs() < 1e-9);
    }
}
