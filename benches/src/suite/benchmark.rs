//! One benchmark measured into its report. [`run_spec`] takes a
//! [`Spec`], adds the controls — A/A (the baseline again, ratio 1) and x2
//! (the baseline's routine over every input twice per counted call, ratio
//! 2) — measures every density bucket and ladder rung with the shared
//! runner ([`measure`]), and computes the statistics ([`build_report`]).
//! [`measure`] also serves the runs that time nothing: in a collecting
//! context it hands out the benchmark's cases instead
//! ([`crate::measure::context::Purpose`]).

use crate::measure::case::{CaseId, Prepared};
use crate::measure::clock::{Clock, Measurement};
use crate::measure::context::{Collector, Context, Purpose, COLLECTED};
use crate::measure::counters::PerCall;
use crate::measure::runner::{self, Arm, ArmRounds, Plan, Role, Workload, WorkloadRounds};
use crate::measure::stats;
use crate::suite::density::{Bucket, PositionSet};
use crate::suite::report::{ArmInfo, ArmReport, BenchReport, BucketReport, ControlCheck, PrecisionOutcome, Rung};
use crate::suite::spec::{Filter, Spec};
use engine::Position;
use indicatif::{ProgressBar, ProgressStyle};

/// Tolerances of the controls: the A/A ratio within 1 ± 1%, the x2 ratio
/// within 2 ± 2%.
pub const AA_TOLERANCE: f64 = 0.01;
pub const DOUBLE_TOLERANCE: f64 = 0.02;

/// [`Purpose::Collect`]: record the cases, prepare the wanted ones.
fn collect<I: Clone + 'static>(c: &Collector, label: &str, arms: &[Arm<I>], workloads: &[Workload<I>]) {
    for w in workloads {
        for a in arms.iter().filter(|a| matches!(a.role, Role::Baseline | Role::Candidate)) {
            let id = CaseId { bench: label.to_string(), bucket: w.label.clone(), arm: a.name.clone() };
            if c.want.wants(&id) {
                c.prepared.borrow_mut().push((id.clone(), Box::new(Prepared::new(a.routine, w.inputs.clone()))));
            }
            c.found.borrow_mut().push(id);
        }
    }
}

/// What a workload stands for.
#[derive(Clone, Debug)]
pub enum Kind {
    Bucket(Bucket),
    Rung(u32),
    Named(String),
}

/// Run `arms` on `workloads` with the context's clock, showing progress.
pub fn measure<I: Clone + 'static>(
    ctx: &Context,
    plan: &Plan,
    label: &str,
    arms: &[Arm<I>],
    workloads: &mut [Workload<I>],
) -> Result<(Vec<WorkloadRounds>, f64), String> {
    let bar = if ctx.progress {
        let b = ProgressBar::new((plan.rounds + plan.warmup_rounds) as u64);
        let b = b.with_finish(indicatif::ProgressFinish::AndClear);
        b.set_style(
            ProgressStyle::with_template("{prefix:>14} [{bar:30}] {pos}/{len} rounds {elapsed_precise} eta {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        b.set_prefix(label.to_string());
        b
    } else {
        ProgressBar::hidden()
    };
    match &ctx.purpose {
        Purpose::Report => {}
        Purpose::Collect(c) => {
            bar.finish_and_clear();
            collect(c, label, arms, workloads);
            return Err(COLLECTED.to_string());
        }
        Purpose::GateTiming => {
            let keep: Vec<usize> =
                (0..arms.len()).filter(|&i| matches!(arms[i].role, Role::Baseline | Role::Candidate)).collect();
            if keep.len() < arms.len() {
                let own: Vec<Arm<I>> = keep.iter().map(|&i| arms[i].clone()).collect();
                let (mut rounds, overhead) = measure_plain(ctx, plan, &own, workloads, &bar)?;
                // Back to the caller's arm order; skipped arms get empty rounds.
                for r in rounds.iter_mut() {
                    let n = r.arms.first().map_or(0, |a| a.round_samples.len());
                    let mut measured = std::mem::take(&mut r.arms).into_iter();
                    r.arms = (0..arms.len())
                        .map(|i| {
                            if keep.contains(&i) {
                                measured.next().expect("one per kept arm")
                            } else {
                                ArmRounds {
                                    round_medians: vec![f64::NAN; n],
                                    round_trimmed: vec![f64::NAN; n],
                                    round_samples: vec![Vec::new(); n],
                                    samples: 0,
                                    checksum: 0,
                                }
                            }
                        })
                        .collect();
                }
                return Ok((rounds, overhead));
            }
        }
    }
    measure_plain(ctx, plan, arms, workloads, &bar)
}

fn measure_plain<I: Clone>(
    ctx: &Context,
    plan: &Plan,
    arms: &[Arm<I>],
    workloads: &mut [Workload<I>],
    bar: &ProgressBar,
) -> Result<(Vec<WorkloadRounds>, f64), String> {
    let fixed = ctx.clock_info.fixed_overhead;
    let tick = |d: usize, t: usize| {
        bar.set_length(t as u64);
        bar.set_position(d as u64);
    };
    let result = match ctx.clock {
        Clock::Tsc(m) => go(&m, fixed, arms, workloads, plan, tick),
        Clock::Monotonic(m) => go(&m, fixed, arms, workloads, plan, tick),
    };
    bar.finish_and_clear();
    result
}

fn go<I: Clone, M: Measurement>(
    m: &M,
    fixed: f64,
    arms: &[Arm<I>],
    workloads: &mut [Workload<I>],
    plan: &Plan,
    tick: impl FnMut(usize, usize),
) -> Result<(Vec<WorkloadRounds>, f64), String> {
    let res = runner::run(m, fixed, arms, workloads, plan, tick).map_err(|e| e.to_string())?;
    let overhead = runner::call_overhead(m, fixed, &mut workloads[0].inputs);
    Ok((res, overhead))
}

/// Hardware counters per call of each arm on a workload, if available.
fn count<I>(ctx: &Context, arms: &[Arm<I>], w: &mut Workload<I>, reps: u64) -> Vec<Option<PerCall>> {
    let mut guard = ctx.counters.borrow_mut();
    let Some(c) = guard.as_mut() else { return vec![None; arms.len()] };
    let calls = reps * w.inputs.len() as u64;
    arms.iter().map(|a| c.per_call(calls, || counted_work(a, &mut w.inputs, reps)).ok()).collect()
}

/// The work [`count`] counts for `arm`: `reps` counted passes over
/// `inputs`, each made as the timed samples make it (the x2 control makes
/// every pass twice, so its counts per call are twice the baseline's, as
/// its ticks per call are).
fn counted_work<I>(arm: &Arm<I>, inputs: &mut [I], reps: u64) {
    for _ in 0..reps * arm.passes() {
        for x in inputs.iter_mut() {
            std::hint::black_box((arm.routine)(std::hint::black_box(x)));
        }
    }
}

/// The descriptive fields of a report.
pub struct Header {
    pub name: String,
    pub about: String,
    /// What one call does.
    pub call: String,
    /// Unit of every cost, e.g. "ticks per call".
    pub unit: String,
}

/// Turn measured rounds into a report. `kinds[i]` describes `workloads[i]`.
pub fn build_report<I>(
    ctx: &Context,
    header: Header,
    arms: &[Arm<I>],
    kinds: &[Kind],
    workloads: &mut [Workload<I>],
    rounds: &[WorkloadRounds],
    call_overhead: f64,
) -> BenchReport {
    let base = arms.iter().position(|a| a.role == Role::Baseline).expect("baseline");
    let cpu = ctx.clock_info.cycles_per_unit;
    let mut buckets = Vec::new();
    let mut ladder = Vec::new();
    let mut controls = Vec::new();
    for ((kind, w), r) in kinds.iter().zip(workloads.iter_mut()).zip(rounds) {
        match kind {
            Kind::Rung(men) => ladder.push(Rung {
                men: *men,
                positions: w.inputs.len(),
                cost: r.arms.iter().map(|a| stats::floor(&a.round_samples).0).collect(),
            }),
            Kind::Bucket(_) | Kind::Named(_) => {
                let (name, men) = match kind {
                    Kind::Bucket(b) => (b.name().to_string(), Some([b.men().0, b.men().1])),
                    Kind::Named(n) => (n.clone(), None),
                    Kind::Rung(_) => unreachable!(),
                };
                let counted = count(ctx, arms, w, r.reps);
                let arm_reports: Vec<ArmReport> = arms
                    .iter()
                    .zip(&r.arms)
                    .zip(counted)
                    .enumerate()
                    .map(|(i, ((a, ar), counters))| {
                        let summary = stats::summarise(&ar.round_samples, &ar.round_medians, &ar.round_trimmed);
                        let ratio =
                            (i != base).then(|| stats::floor_ratio(&r.arms[base].round_samples, &ar.round_samples));
                        let ratio_of_medians =
                            (i != base).then(|| stats::paired_ratio(&r.arms[base].round_medians, &ar.round_medians));
                        ArmReport {
                            arm: a.name.clone(),
                            role: a.role,
                            samples: ar.samples,
                            rounds: ar.round_medians.len(),
                            cycles_per_call: cpu.map(|c| summary.floor * c),
                            summary,
                            ratio,
                            ratio_spread: None,
                            floor_spread: None,
                            ratio_of_medians,
                            counters,
                            round_medians: ar.round_medians.clone(),
                        }
                    })
                    .collect();
                let family = kinds.iter().filter(|k| !matches!(k, Kind::Rung(_))).count().max(1);
                let level = 1.0 - 0.05 / family as f64;
                for (i, ar) in arm_reports.iter().enumerate() {
                    let (expected, tolerance) = match ar.role {
                        Role::AaControl => (1.0, AA_TOLERANCE),
                        Role::KnownDouble => (2.0, DOUBLE_TOLERANCE),
                        _ => continue,
                    };
                    let ratio = stats::floor_ratio_at(&r.arms[base].round_samples, &r.arms[i].round_samples, level);
                    controls.push(ControlCheck {
                        bucket: name.clone(),
                        arm: ar.arm.clone(),
                        expected,
                        tolerance,
                        level,
                        // A/A: the interval lies within 1 ± 1%; x2: within 2 ± 2%.
                        pass: ControlCheck::bounds_hold(&ratio, expected, tolerance),
                        ratio,
                        across_processes: false,
                    });
                }
                buckets.push(BucketReport {
                    bucket: name,
                    men,
                    positions: w.inputs.len(),
                    reps: r.reps,
                    calls_per_sample: r.calls_per_sample,
                    arms: arm_reports,
                });
            }
        }
    }
    let men: Vec<f64> = ladder.iter().map(|r| f64::from(r.men)).collect();
    let correlations = if ladder.len() >= 3 {
        arms.iter()
            .enumerate()
            .filter(|(_, a)| matches!(a.role, Role::Baseline | Role::Candidate))
            .map(|(i, a)| stats::correlate(&a.name, &men, &ladder.iter().map(|r| r.cost[i]).collect::<Vec<_>>()))
            .collect()
    } else {
        Vec::new()
    };
    BenchReport {
        name: header.name,
        about: header.about,
        call: header.call,
        unit: header.unit,
        baseline: arms[base].name.clone(),
        arms: arms.iter().map(|a| ArmInfo { name: a.name.clone(), role: a.role }).collect(),
        call_overhead,
        buckets,
        ladder,
        correlations,
        controls,
        plots: Vec::new(),
        attribution: None,
        precision: None,
        processes: Vec::new(),
    }
}

/// Measure a position benchmark over the density buckets and the ladder.
pub fn run_spec<I: Clone + 'static>(ctx: &Context, spec: Spec<I>, set: &PositionSet) -> Result<BenchReport, String> {
    run_arms(ctx, &spec, &spec.arms(), set, None)
}

/// [`run_spec`] with the arms given (e.g. [`Spec::arms`] with an approximate
/// arm's `must_agree` cleared) and, with a filter, only the positions it
/// keeps: an empty bucket or ladder rung is left out, and it is an error
/// when every bucket is empty.
pub fn run_arms<I: Clone + 'static>(
    ctx: &Context,
    spec: &Spec<I>,
    arms: &[Arm<I>],
    set: &PositionSet,
    filter: Option<Filter>,
) -> Result<BenchReport, String> {
    run_arms_planned(ctx, &ctx.plan, spec, arms, set, filter)
}

/// [`run_arms`] under a plan of the benchmark's own (e.g. a longer time
/// budget than the run's).
pub fn run_arms_planned<I: Clone + 'static>(
    ctx: &Context,
    plan: &Plan,
    spec: &Spec<I>,
    arms: &[Arm<I>],
    set: &PositionSet,
    filter: Option<Filter>,
) -> Result<BenchReport, String> {
    let keep = |p: &Position| filter.is_none_or(|f| (f.keep)(p));
    let mut kinds = Vec::new();
    let mut workloads = Vec::new();
    for (b, chosen) in &set.buckets {
        let inputs: Vec<I> = chosen.iter().filter(|c| keep(&c.position)).map(|c| (spec.prepare)(&c.position)).collect();
        if inputs.is_empty() && filter.is_some() {
            // E.g. no endgame with a queen among a few positions per bucket.
            continue;
        }
        kinds.push(Kind::Bucket(*b));
        workloads.push(Workload {
            label: b.name().to_string(),
            inputs,
            samples_per_round: ctx.bucket_samples,
            watched: true,
        });
    }
    for (men, chosen) in &set.ladder {
        let inputs: Vec<I> = chosen.iter().filter(|c| keep(&c.position)).map(|c| (spec.prepare)(&c.position)).collect();
        if inputs.is_empty() {
            continue;
        }
        kinds.push(Kind::Rung(*men));
        workloads.push(Workload {
            label: format!("{men} men"),
            inputs,
            samples_per_round: ctx.ladder_samples,
            watched: false,
        });
    }
    if let (false, Some(f)) = (kinds.iter().any(|k| matches!(k, Kind::Bucket(_))), filter) {
        return Err(format!("no position {} in any density bucket", f.what));
    }
    let started = std::time::Instant::now();
    let (rounds, overhead) = measure(ctx, plan, spec.name, arms, &mut workloads)?;
    let seconds = started.elapsed().as_secs_f64();
    let header = Header {
        name: spec.name.to_string(),
        about: match filter {
            Some(f) => format!("{} (positions {} only)", spec.about, f.what),
            None => spec.about.to_string(),
        },
        call: spec.call.to_string(),
        unit: format!("{} per call", ctx.clock_info.unit),
    };
    let mut report = build_report(ctx, header, arms, &kinds, &mut workloads, &rounds, overhead);
    if let (Some(p), Purpose::Report) = (plan.precision, &ctx.purpose) {
        report.precision = Some(PrecisionOutcome::of(&report, p.half_width, seconds));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::spec::ArmSpec;

    std::thread_local! {
        static CALLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    fn counting(x: &mut u64) -> u64 {
        CALLS.with(|c| c.set(c.get() + 1));
        *x
    }

    #[test]
    fn counters_count_the_x2_control_making_every_pass_twice() {
        // Hardware counters divide by the counted calls (reps × inputs), as
        // the ticks do: the x2 arm must make each pass twice there too, or
        // its counts per call read like the baseline's.
        let spec = Spec {
            name: "t",
            about: "t",
            call: "t",
            prepare: |_| 0u64,
            arms: vec![ArmSpec { name: "a", routine: counting }],
            must_agree: true,
        };
        let arms = spec.arms();
        let mut inputs = vec![1u64, 2, 3];
        let calls_of = |role: Role, inputs: &mut Vec<u64>| {
            let arm = arms.iter().find(|a| a.role == role).expect("arm");
            CALLS.with(|c| c.set(0));
            counted_work(arm, inputs, 5);
            CALLS.with(|c| c.get())
        };
        assert_eq!(calls_of(Role::Baseline, &mut inputs), 15);
        assert_eq!(calls_of(Role::AaControl, &mut inputs), 15);
        assert_eq!(calls_of(Role::KnownDouble, &mut inputs), 30);
    }
}
