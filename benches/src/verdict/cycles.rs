//! Criterion 2 of a retirement, judged from a run of the suite: is the new
//! form of the routine faster than the old one per isolated call, across
//! the density spectrum?
//!
//! * Per density bucket, the run's ratio new/old of floors and its 95%
//!   interval: a **win** when the whole interval is below 1, a **loss**
//!   when it is above 1, **parity** otherwise.
//! * On the men ladder (3 to 32 men), the ratio of floors at each count,
//!   and their geometric mean with a 95% percentile bootstrap over the
//!   rungs: a **win** when every rung's ratio is below 1 and the mean's
//!   interval is below 1, a **loss** when the mean's interval is above 1,
//!   **parity** otherwise.
//!
//! PASS when every bucket and the ladder are wins (a win in one favourable
//! bucket is not enough). Parity kept on purpose (`--accept-parity`):
//! PASS when none is a loss, the parity named in the evidence. FAIL
//! otherwise; NOT RUN when the run lacks the benchmark, its arms or its
//! ladder.

use super::checklist::Status;
use crate::suite::report::BenchReport;
use engine::rng::Rng;
use engine::sliders::{FastSliders, Sliders};
use engine::tools::routine_equiv::Routine;
use serde_json::json;
use std::fmt::Write as _;

/// The benchmark that times a routine in isolation, and its arms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub bench: &'static str,
    pub old_arm: &'static str,
    pub new_arm: String,
    /// What it leaves out of the routine, if anything.
    pub scope: &'static str,
}

/// The registered benchmark of `routine`, with the arms of the forms the
/// engine profiles use (the bitboard forms with the engine's sliders).
pub fn target(routine: Routine) -> Target {
    let fast = format!("bitboard-{}", FastSliders::NAME);
    let (bench, new_arm, scope) = match routine {
        Routine::Attacks => {
            ("getattacksbench", fast, "the attacker lists only: check detection and SEE have no isolated benchmark")
        }
        Routine::Defects => ("kingdefectsbench", "bitboard".to_string(), ""),
        Routine::MobilityKnight => ("mobilitybench-knight", "chain".to_string(), ""),
        Routine::MobilityBishop => ("mobilitybench-bishop", "chain".to_string(), ""),
        Routine::MobilityRook => ("mobilitybench-rook", "chain".to_string(), ""),
        Routine::MobilityQueen => ("mobilitybench-queen", "chain".to_string(), ""),
        Routine::Movegen => ("movegenbench", fast, ""),
    };
    Target { bench, old_arm: "mailbox", new_arm, scope }
}

/// How one bucket or the ladder came out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Parity,
    Loss,
}

impl Outcome {
    fn of(interval: [f64; 2]) -> Outcome {
        if interval[1] < 1.0 {
            Outcome::Win
        } else if interval[0] > 1.0 {
            Outcome::Loss
        } else {
            Outcome::Parity
        }
    }

    const fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Parity => "parity",
            Outcome::Loss => "LOSS",
        }
    }
}

/// Geometric mean of `ratios` and its 95% percentile bootstrap interval
/// over them (2,000 resamples, a fixed seed: the same input gives the
/// same interval).
pub fn geometric_mean_interval(ratios: &[f64]) -> (f64, [f64; 2]) {
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let mean = |v: &mut dyn Iterator<Item = f64>, n: usize| v.sum::<f64>() / n as f64;
    let n = logs.len();
    let point = mean(&mut logs.iter().copied(), n).exp();
    let mut rng = Rng::new(0x6E0_3EA);
    let mut draws: Vec<f64> =
        (0..2000).map(|_| mean(&mut (0..n).map(|_| logs[rng.index(n)]), n).exp()).collect::<Vec<_>>();
    draws.sort_by(f64::total_cmp);
    let at = |q: f64| draws[((draws.len() - 1) as f64 * q).round() as usize];
    (point, [at(0.025), at(0.975)])
}

/// Criterion 2 from `benchmarks` (one run's), for `routine`: the status,
/// the evidence and the figures.
pub fn judge(benchmarks: &[BenchReport], routine: Routine, accept_parity: bool) -> (Status, String, serde_json::Value) {
    let t = target(routine);
    let Some(b) = benchmarks.iter().find(|b| b.name == t.bench) else {
        return (Status::NotRun, format!("the run holds no {}", t.bench), serde_json::Value::Null);
    };
    let arm_index = |name: &str| b.arms.iter().position(|a| a.name == name);
    let (Some(old), Some(new)) = (arm_index(t.old_arm), arm_index(&t.new_arm)) else {
        return (
            Status::NotRun,
            format!("{} in the run has no arms {} and {}", t.bench, t.old_arm, t.new_arm),
            serde_json::Value::Null,
        );
    };
    let mut outcomes = Vec::new();
    let mut text = format!("{} {} / {} (ratio of floors, 95% interval):", t.bench, t.new_arm, t.old_arm);
    let mut buckets = Vec::new();
    for bucket in &b.buckets {
        let Some(ratio) = bucket.arms.iter().find(|a| a.arm == t.new_arm).and_then(|a| a.ratio) else {
            continue;
        };
        let outcome = Outcome::of(ratio.interval);
        outcomes.push((bucket.bucket.clone(), outcome));
        let _ = write!(
            text,
            " {} {:.3} [{:.3}, {:.3}] {};",
            bucket.bucket,
            ratio.estimate,
            ratio.interval[0],
            ratio.interval[1],
            outcome.name()
        );
        buckets.push(json!({"bucket": bucket.bucket, "ratio": ratio.estimate, "interval": ratio.interval,
                             "outcome": outcome.name()}));
    }
    if buckets.is_empty() {
        return (Status::NotRun, format!("{} in the run has no bucket ratio of {}", t.bench, t.new_arm), json!(null));
    }
    let rungs: Vec<(u32, f64)> = b
        .ladder
        .iter()
        .filter_map(|r| {
            let (o, n) = (*r.cost.get(old)?, *r.cost.get(new)?);
            (o > 0.0 && n > 0.0).then_some((r.men, n / o))
        })
        .collect();
    if rungs.len() < 2 {
        return (Status::NotRun, format!("{} in the run has no men ladder to judge", t.bench), json!(null));
    }
    let ratios: Vec<f64> = rungs.iter().map(|r| r.1).collect();
    let (gm, interval) = geometric_mean_interval(&ratios);
    let faster = ratios.iter().filter(|&&r| r < 1.0).count();
    let worst = rungs.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)).expect("two rungs at least");
    let ladder = if faster == ratios.len() && interval[1] < 1.0 {
        Outcome::Win
    } else if interval[0] > 1.0 {
        Outcome::Loss
    } else {
        Outcome::Parity
    };
    outcomes.push(("ladder".to_string(), ladder));
    let _ = write!(
        text,
        "\nladder {}-{} men: {faster}/{} rungs faster, geometric mean {gm:.3} [{:.3}, {:.3}], worst {:.3} at {} men: {}",
        rungs[0].0,
        rungs[rungs.len() - 1].0,
        ratios.len(),
        interval[0],
        interval[1],
        worst.1,
        worst.0,
        ladder.name()
    );
    let failed_controls = b.controls.iter().filter(|c| !c.pass).count();
    if failed_controls > 0 {
        let _ =
            write!(text, "\n(controls: {failed_controls} of {} outside their bounds in this run)", b.controls.len());
    }
    if !t.scope.is_empty() {
        let _ = write!(text, "\nscope: {}", t.scope);
    }
    let named = |o: Outcome| -> Vec<&str> { outcomes.iter().filter(|x| x.1 == o).map(|x| x.0.as_str()).collect() };
    let (losses, parity) = (named(Outcome::Loss), named(Outcome::Parity));
    let status = if !losses.is_empty() {
        let _ = write!(text, "\nnew slower in: {}", losses.join(", "));
        Status::Fail
    } else if parity.is_empty() {
        Status::Pass
    } else if accept_parity {
        let _ = write!(text, "\nparity kept on purpose (--accept-parity) in: {}", parity.join(", "));
        Status::Pass
    } else {
        let _ = write!(text, "\nnot a win in: {} (--accept-parity states parity kept on purpose)", parity.join(", "));
        Status::Fail
    };
    let details = json!({
        "benchmark": t.bench, "old_arm": t.old_arm, "new_arm": t.new_arm, "buckets": buckets,
        "ladder": {"rungs": rungs.iter().map(|(m, r)| json!({"men": m, "ratio": r})).collect::<Vec<_>>(),
                   "faster": faster, "geometric_mean": gm, "interval": interval, "outcome": ladder.name()},
        "failed_controls": failed_controls, "accept_parity": accept_parity,
    });
    (status, text, details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::runner::Role;
    use crate::measure::stats::Ratio;
    use crate::suite::report::{ArmInfo, Rung};

    /// A getattacksbench report with the given bucket intervals and
    /// ladder ratios (old costs 100 on every rung).
    fn report(intervals: &[[f64; 2]], ladder: &[f64]) -> BenchReport {
        let mut r = crate::suite::report::tests::sample_report().benchmarks.remove(0);
        let new = target(Routine::Attacks).new_arm;
        r.name = "getattacksbench".into();
        r.arms = vec![
            ArmInfo { name: "mailbox".into(), role: Role::Baseline },
            ArmInfo { name: new.clone(), role: Role::Candidate },
        ];
        let template = r.buckets[0].clone();
        r.buckets = intervals
            .iter()
            .zip(["opening", "middlegame", "endgame"])
            .map(|(i, name)| {
                let mut b = template.clone();
                b.bucket = name.into();
                b.arms[0].arm = "mailbox".into();
                b.arms[1].arm = new.clone();
                b.arms[1].ratio = Some(Ratio { estimate: (i[0] + i[1]) / 2.0, interval: *i });
                b
            })
            .collect();
        r.ladder = ladder
            .iter()
            .enumerate()
            .map(|(k, x)| Rung { men: 3 + k as u32, positions: 4, cost: vec![100.0, 100.0 * x] })
            .collect();
        r
    }

    const WIN: [f64; 2] = [0.80, 0.85];
    const PARITY: [f64; 2] = [0.98, 1.01];
    const LOSS: [f64; 2] = [1.02, 1.05];

    #[test]
    fn a_win_everywhere_passes() {
        let (status, text, details) =
            judge(&[report(&[WIN, WIN, WIN], &[0.8, 0.7, 0.9, 0.85])], Routine::Attacks, false);
        assert_eq!(status, Status::Pass, "{text}");
        assert!(text.contains("4/4 rungs faster") && text.contains("ladder 3-6 men"), "{text}");
        assert_eq!(details["ladder"]["outcome"], "win");
    }

    #[test]
    fn one_favourable_bucket_is_not_enough() {
        let (status, text, _) = judge(&[report(&[WIN, PARITY, WIN], &[0.8, 0.8, 0.8])], Routine::Attacks, false);
        assert_eq!(status, Status::Fail);
        assert!(text.contains("not a win in: middlegame"), "{text}");
        // Parity stated on purpose passes; a loss never does.
        let (status, text, _) = judge(&[report(&[WIN, PARITY, WIN], &[0.8, 0.8, 0.8])], Routine::Attacks, true);
        assert_eq!(status, Status::Pass);
        assert!(text.contains("parity kept on purpose (--accept-parity) in: middlegame"), "{text}");
        let (status, text, _) = judge(&[report(&[WIN, LOSS, WIN], &[0.8, 0.8, 0.8])], Routine::Attacks, true);
        assert_eq!(status, Status::Fail);
        assert!(text.contains("new slower in: middlegame"), "{text}");
    }

    #[test]
    fn the_ladder_must_win_on_every_rung() {
        // Every bucket wins but one rung is slower: the ladder is parity.
        let (status, text, _) = judge(&[report(&[WIN, WIN, WIN], &[0.7, 0.7, 1.05, 0.7])], Routine::Attacks, false);
        assert_eq!(status, Status::Fail);
        assert!(text.contains("3/4 rungs faster") && text.contains("worst 1.050 at 5 men"), "{text}");
        assert!(text.contains("not a win in: ladder"), "{text}");
        // Slower on every rung: a loss.
        let (status, text, _) = judge(&[report(&[WIN, WIN, WIN], &[1.2, 1.3, 1.25])], Routine::Attacks, true);
        assert_eq!(status, Status::Fail);
        assert!(text.contains("new slower in: ladder"), "{text}");
    }

    #[test]
    fn a_run_without_the_benchmark_or_ladder_is_not_run() {
        let (status, text, _) = judge(&[report(&[WIN], &[0.8, 0.8])], Routine::Defects, false);
        assert_eq!(status, Status::NotRun);
        assert!(text.contains("no kingdefectsbench"), "{text}");
        let (status, text, _) = judge(&[report(&[WIN, WIN, WIN], &[0.8])], Routine::Attacks, false);
        assert_eq!(status, Status::NotRun);
        assert!(text.contains("no men ladder"), "{text}");
    }

    #[test]
    fn geometric_mean_of_constant_ratios_is_exact() {
        let (gm, interval) = geometric_mean_interval(&[0.5; 10]);
        assert!((gm - 0.5).abs() < 1e-12 && (interval[0] - 0.5).abs() < 1e-12 && (interval[1] - 0.5).abs() < 1e-12);
        let (gm, interval) = geometric_mean_interval(&[0.25, 1.0]);
        assert!((gm - 0.5).abs() < 1e-12 && interval[0] >= 0.25 && interval[1] <= 1.0, "{gm} {interval:?}");
    }
}
