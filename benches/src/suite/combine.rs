//! One benchmark's report from the reports of its measuring processes.
//! Every ratio, floor and median is combined over the processes with the
//! two-level model of [`crate::measure::random_effects`] (geometric mean,
//! Student-t interval over the processes, within- and between-process
//! components); the in-process controls (A/A, x2) are judged on their
//! combined intervals, and a between-process A/A is added per bucket: the
//! baseline's own floor in the odd-numbered processes against the
//! even-numbered ones (interleaved in time, so slow drift falls on both
//! halves), which must read 1 — it fails when placement or the host's state
//! moves a routine's cost from process to process by more than its
//! tolerance. The ladder's costs are geometric means over processes and
//! the correlations are computed again from them; the extra parts (e.g.
//! evalcycles' terms) come from the process that ran them.

use crate::measure::random_effects::{self, combine as combine_estimates, Combined, ProcessEstimate};
use crate::measure::runner::Role;
use crate::measure::stats::{self, Ratio, Summary};
use crate::suite::report::{ArmReport, BenchReport, BucketReport, ControlCheck, PrecisionOutcome, ProcessInfo, Rung};

/// Tolerance printed beside the between-process A/A (back-to-back runs on a
/// quiet host moved ratios by 1-2%: ARCHITECTURE.md, "Between processes").
/// The control is judged by its interval holding 1, not by this: absolute
/// floors move between processes by more than ratios do (5-10% for the
/// mobility routines on a quiet host), and with half of eight processes a
/// side the interval of an honest A/A is wider than ±2%, so a bound on its
/// width failed every default run. It fails when one half of the
/// processes sits apart from the other beyond what the spread between
/// processes allows (slow drift, a placement that sticks).
pub const ACROSS_TOLERANCE: f64 = 0.02;

/// Suffix of the between-process A/A control's arm name.
pub const ACROSS_SUFFIX: &str = "(A/A across processes)";

/// Combine `parts` (one report per process, in process order; at least
/// two) into the benchmark's report. `precision`: the run's target, to
/// judge the combined intervals against.
pub fn combine(
    parts: &[BenchReport],
    processes: Vec<ProcessInfo>,
    precision: Option<f64>,
) -> Result<BenchReport, String> {
    let first = parts.first().ok_or("no measuring process reported")?;
    if parts.len() < 2 {
        return Err(format!("{}: one measuring process cannot give a between-process interval", first.name));
    }
    check_same_cases(parts)?;
    let family = first.buckets.len().max(1);
    let control_level = 1.0 - 0.05 / family as f64;
    let mut buckets = Vec::new();
    let mut controls = Vec::new();
    for (bi, bucket) in first.buckets.iter().enumerate() {
        let arms: Vec<ArmReport> = (0..bucket.arms.len())
            .map(|ai| combine_arm(&parts.iter().map(|p| &p.buckets[bi].arms[ai]).collect::<Vec<_>>()))
            .collect();
        for c in first.controls.iter().filter(|c| c.bucket == bucket.bucket) {
            let ai =
                bucket.arms.iter().position(|a| a.arm == c.arm).ok_or_else(|| {
                    format!("{}: control {} on {} has no arm of that name", first.name, c.arm, c.bucket)
                })?;
            let per: Vec<ProcessEstimate> = parts
                .iter()
                .map(|p| p.buckets[bi].arms[ai].ratio.map_or(nan_estimate(), |r| estimate(r.estimate, r.interval)))
                .collect();
            let combined = combine_estimates(&per, c.level);
            let ratio = Ratio { estimate: combined.estimate, interval: combined.interval };
            let pass = ControlCheck::bounds_hold(&ratio, c.expected, c.tolerance);
            controls.push(ControlCheck { ratio, pass, ..c.clone() });
        }
        if let Some(base) = bucket.arms.iter().position(|a| a.role == Role::Baseline) {
            let floors: Vec<f64> = parts.iter().map(|p| p.buckets[bi].arms[base].summary.floor).collect();
            // Processes 1, 3, 5, ... against 2, 4, 6, ...
            let even: Vec<f64> = floors.iter().copied().step_by(2).collect();
            let odd: Vec<f64> = floors.iter().copied().skip(1).step_by(2).collect();
            if even.len() + odd.len() >= 4 {
                let (estimate, interval) = random_effects::two_group_ratio(&even, &odd, control_level);
                let ratio = Ratio { estimate, interval };
                controls.push(ControlCheck {
                    bucket: bucket.bucket.clone(),
                    arm: format!("{} {ACROSS_SUFFIX}", bucket.arms[base].arm),
                    expected: 1.0,
                    tolerance: ACROSS_TOLERANCE,
                    level: control_level,
                    pass: ratio.contains(1.0),
                    ratio,
                    across_processes: true,
                });
            }
        }
        buckets.push(BucketReport { arms, ..bucket.clone() });
    }
    let ladder: Vec<Rung> = first
        .ladder
        .iter()
        .enumerate()
        .map(|(ri, rung)| Rung {
            cost: (0..rung.cost.len()).map(|ai| geometric_mean(parts.iter().map(|p| p.ladder[ri].cost[ai]))).collect(),
            ..rung.clone()
        })
        .collect();
    let men: Vec<f64> = ladder.iter().map(|r| f64::from(r.men)).collect();
    let correlations = if ladder.len() >= 3 {
        first
            .arms
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a.role, Role::Baseline | Role::Candidate))
            .map(|(i, a)| stats::correlate(&a.name, &men, &ladder.iter().map(|r| r.cost[i]).collect::<Vec<_>>()))
            .collect()
    } else {
        Vec::new()
    };
    // Only the first process runs the extras (evalcycles' attribution).
    let attribution = parts.iter().find_map(|p| p.attribution.clone());
    let mut report = BenchReport {
        call_overhead: parts.iter().map(|p| p.call_overhead).sum::<f64>() / parts.len() as f64,
        buckets,
        ladder,
        correlations,
        controls,
        plots: Vec::new(),
        attribution,
        precision: None,
        processes: Vec::new(),
        ..first.clone()
    };
    if let Some(target) = precision {
        let seconds = processes.iter().map(|p| p.measure_s).sum();
        report.precision = Some(PrecisionOutcome::of(&report, target, seconds));
    }
    report.processes = processes;
    Ok(report)
}

/// Every process must have measured the same buckets, arms and rungs.
fn check_same_cases(parts: &[BenchReport]) -> Result<(), String> {
    let shape = |b: &BenchReport| {
        let buckets: Vec<(String, Vec<String>)> =
            b.buckets.iter().map(|x| (x.bucket.clone(), x.arms.iter().map(|a| a.arm.clone()).collect())).collect();
        let rungs: Vec<(u32, usize)> = b.ladder.iter().map(|r| (r.men, r.cost.len())).collect();
        (b.name.clone(), buckets, rungs)
    };
    let want = shape(&parts[0]);
    for (k, p) in parts.iter().enumerate().skip(1) {
        if shape(p) != want {
            return Err(format!(
                "{}: measuring process {} measured other cases than process 1 (buckets, arms or ladder differ)",
                parts[0].name,
                k + 1
            ));
        }
    }
    Ok(())
}

fn estimate(estimate: f64, interval: [f64; 2]) -> ProcessEstimate {
    ProcessEstimate { estimate, interval }
}

fn nan_estimate() -> ProcessEstimate {
    estimate(f64::NAN, [f64::NAN; 2])
}

fn geometric_mean(v: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for x in v {
        sum += x.ln();
        n += 1;
    }
    (sum / n as f64).exp()
}

/// Mean of the values when every process has one.
fn mean_of<T>(per: &[&ArmReport], get: impl Fn(&ArmReport) -> Option<T>, add: impl Fn(T, T) -> T) -> Option<T> {
    let mut it = per.iter().map(|a| get(a));
    let first = it.next()??;
    it.try_fold(first, |acc, x| x.map(|x| add(acc, x)))
}

/// One arm on one bucket, over the processes.
fn combine_arm(per: &[&ArmReport]) -> ArmReport {
    let k = per.len() as f64;
    let first = per[0];
    let floor_spread = combine_estimates(
        &per.iter().map(|a| estimate(a.summary.floor, a.summary.floor_interval)).collect::<Vec<_>>(),
        0.95,
    );
    let median_spread = combine_estimates(
        &per.iter().map(|a| estimate(a.summary.median, a.summary.interval)).collect::<Vec<_>>(),
        0.95,
    );
    let round_medians: Vec<f64> = per.iter().flat_map(|a| a.round_medians.iter().copied()).collect();
    let rounds: usize = per.iter().map(|a| a.rounds).sum();
    let trimmed_mean = per.iter().map(|a| a.summary.trimmed_mean * a.rounds as f64).sum::<f64>() / rounds.max(1) as f64;
    let ratio_of = |get: fn(&ArmReport) -> Option<Ratio>| -> Option<Combined> {
        first.ratio.map(|_| {
            combine_estimates(
                &per.iter()
                    .map(|a| get(a).map_or(nan_estimate(), |r| estimate(r.estimate, r.interval)))
                    .collect::<Vec<_>>(),
                0.95,
            )
        })
    };
    let ratio_spread = ratio_of(|a| a.ratio);
    let medians_spread = ratio_of(|a| a.ratio_of_medians);
    let as_ratio = |c: &Combined| Ratio { estimate: c.estimate, interval: c.interval };
    ArmReport {
        arm: first.arm.clone(),
        role: first.role,
        samples: per.iter().map(|a| a.samples).sum(),
        rounds,
        summary: Summary {
            floor: floor_spread.estimate,
            floor_interval: floor_spread.interval,
            median: stats::median(&round_medians),
            mad: stats::mad(&round_medians),
            trimmed_mean,
            interval: median_spread.interval,
        },
        ratio: ratio_spread.as_ref().map(as_ratio),
        ratio_of_medians: medians_spread.as_ref().map(as_ratio),
        cycles_per_call: mean_of(per, |a| a.cycles_per_call, |x, y| x + y).map(|s| s / k),
        counters: mean_of(
            per,
            |a| a.counters,
            |x, y| crate::measure::counters::PerCall {
                cycles: x.cycles + y.cycles,
                instructions: x.instructions + y.instructions,
                branch_misses: x.branch_misses + y.branch_misses,
            },
        )
        .map(|s| crate::measure::counters::PerCall {
            cycles: s.cycles / k,
            instructions: s.instructions / k,
            branch_misses: s.branch_misses / k,
        }),
        round_medians,
        ratio_spread,
        floor_spread: Some(floor_spread),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sample report with its candidate's ratio, the baseline's floor
    /// and a ladder cost scaled by `f`, as one process's.
    fn process(f: f64) -> BenchReport {
        let mut b = crate::suite::report::tests::sample_report().benchmarks.remove(0);
        let arms = &mut b.buckets[0].arms;
        arms[0].summary.floor *= f;
        arms[0].summary.floor_interval = arms[0].summary.floor_interval.map(|x| x * f);
        let r = arms[1].ratio.as_mut().unwrap();
        r.estimate *= f;
        r.interval = r.interval.map(|x| x * f);
        arms[1].ratio_spread = None;
        b.ladder[0].cost[1] *= f;
        // The sample's A/A check has no arm of its own here.
        b.controls.clear();
        b
    }

    #[test]
    fn processes_combine_into_one_report() {
        let parts: Vec<BenchReport> = [1.0, 1.02, 0.98, 1.01].map(process).to_vec();
        let b = combine(&parts, Vec::new(), Some(0.01)).unwrap();
        let new = &b.buckets[0].arms[1];
        let spread = new.ratio_spread.as_ref().unwrap();
        assert_eq!(spread.processes(), 4);
        let want = 0.5 * (1.02f64 * 0.98 * 1.01).powf(0.25);
        assert!((new.ratio.unwrap().estimate - want).abs() < 1e-12);
        assert_eq!(new.ratio.unwrap().interval, spread.interval);
        // t with 3 df, wider than the processes' own intervals.
        assert!(new.ratio.unwrap().half_width() > 0.01, "{:?}", new.ratio);
        assert!(spread.between_sd > spread.within_sd);
        assert_eq!(new.rounds, 12);
        assert_eq!(new.round_medians.len(), 12);
        // The between A/A is added (interval at the controls' level); the
        // baseline's floors vary by ±2% at random over the processes, which
        // its interval allows.
        let across: Vec<&ControlCheck> = b.controls.iter().filter(|c| c.across_processes).collect();
        assert_eq!(across.len(), 1);
        assert_eq!(across[0].arm, "old (A/A across processes)");
        assert!(across[0].pass, "{:?}", across[0]);
        // Odd processes 5% apart from even ones, each half steady: it fails.
        let apart: Vec<BenchReport> = [1.0, 1.05, 1.001, 1.051, 0.999, 1.049].map(process).to_vec();
        let split = combine(&apart, Vec::new(), None).unwrap();
        let across = split.controls.iter().find(|c| c.across_processes).unwrap();
        assert!(!across.pass, "{across:?}");
        // Identical processes pass it.
        let same = combine(&[1.0; 4].map(process), Vec::new(), None).unwrap();
        assert!(same.controls.iter().all(|c| c.pass), "{:?}", same.controls);
        for (got, want) in same.ladder[0].cost.iter().zip(&process(1.0).ladder[0].cost) {
            assert!((got / want - 1.0).abs() < 1e-12, "{got} {want}");
        }
        assert_eq!(same.precision, None);
        assert!(b.precision.is_some_and(|p| !p.met));
    }

    #[test]
    fn processes_must_agree_on_their_cases() {
        let mut other = process(1.0);
        other.buckets[0].arms[1].arm = "newer".into();
        let e = combine(&[process(1.0), other], Vec::new(), None).unwrap_err();
        assert!(e.contains("measuring process 2 measured other cases"), "{e}");
        let e = combine(&[process(1.0)], Vec::new(), None).unwrap_err();
        assert!(e.contains("one measuring process"), "{e}");
    }
}
