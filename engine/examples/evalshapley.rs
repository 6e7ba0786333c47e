//! Shapley shares of the evaluation's groups at fixed code
//! (`engine::eval::shapley`), beside the leave-one-out costs and the largest
//! pairwise interactions, for one position file: a quick look at what
//! `boardbench run evalcycles` reports per bucket.
//!
//! With `--counters` (an eval-time build), the sampled counters join them,
//! taken from the same machine code: the runtime-skip copy with its phase
//! bytes times every subset, then runs under the sampler with nothing left
//! out, and a group's counter is its share of the samples times the whole.
//! The suite takes its three columns from three codes (the eval-time build,
//! monomorphised copies, the runtime-skip copy); this asks what is left of
//! their differences on one. A `*` marks a figure the counter is not within
//! 20% or 10 ticks of.
//!
//! `evalshapley FILE [--mobility mailbox|chain|single-probe] [--visits N] [--counters [--sample-seconds S]]`
//!
//! `cargo build --release -p engine --example evalshapley`, then
//! `taskset -c 1 target/release/examples/evalshapley positions/wac.epd`;
//! with `--counters`, build with `--features eval-time --target-dir
//! target/eval-time` and run `target/eval-time/release/examples/evalshapley`.

use engine::eval::groups::Group;
use engine::eval::shapley::{interactions, leave_one_out, medians, shares, time_subsets, Timing, ALL_PRESENT};
use engine::eval::MobilityKind;
use engine::position::epd::load_file;
use engine::Position;
use std::process::ExitCode;

const USAGE: &str = "usage: evalshapley FILE [--mobility mailbox|chain|single-probe] [--visits N] \
                     [--counters [--sample-seconds S]]";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("evalshapley: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (mut file, mut kind, mut timing) = (None, MobilityKind::Mailbox, Timing::default());
    let (mut counters, mut seconds) = (false, 3.0);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--mobility" => {
                let v = args.next().ok_or("--mobility needs a value")?;
                kind = MobilityKind::parse(&v)
                    .ok_or_else(|| format!("--mobility {v:?}: not one of mailbox, chain, single-probe"))?;
            }
            "--visits" => {
                let v = args.next().ok_or("--visits needs a number")?;
                timing.visits = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--visits {v:?}: not a positive number"))?;
            }
            "--counters" => counters = true,
            "--sample-seconds" => {
                let v = args.next().ok_or("--sample-seconds needs a number")?;
                seconds =
                    v.parse().ok().filter(|&s: &f64| s > 0.0 && s <= 3600.0).ok_or_else(|| {
                        format!("--sample-seconds {v:?}: not a number of seconds above 0, at most 3600")
                    })?;
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}; {USAGE}")),
            _ if file.is_none() => file = Some(a),
            _ => return Err(format!("unexpected argument {a:?}; {USAGE}")),
        }
    }
    let file = file.ok_or(USAGE)?;
    let mut positions: Vec<Position> = load_file(std::path::Path::new(&file))
        .map_err(|e| format!("{file}: {e}"))?
        .into_iter()
        .map(|e| e.position().clone())
        .collect();
    if positions.is_empty() {
        return Err(format!("{file}: no positions"));
    }
    let (cost, counter) = if counters {
        let (visits, counter) = same_code::measure(kind, &mut positions, timing, seconds)?;
        (medians(&visits, None), Some(counter))
    } else {
        (medians(&time_subsets(kind, &mut positions, timing), None), None)
    };
    println!(
        "{}: whole {:.1} ticks per evaluation, inputs alone {:.1}, {} visits{}",
        kind.name(),
        cost[ALL_PRESENT],
        cost[0],
        timing.visits,
        if counters { " (the phased copy)" } else { "" }
    );
    println!("{:28} {:>9} {:>14}{}", "group", "Shapley", "leave-one-out", if counters { "   counter" } else { "" });
    let (s, l) = (shares(&cost), leave_one_out(&cost));
    for (i, g) in Group::ALL.iter().enumerate() {
        match &counter {
            Some(c) => {
                let c = c[i] * cost[ALL_PRESENT];
                let mark = |x: f64| if (c - x).abs() <= (0.2 * x.abs()).max(10.0) { ' ' } else { '*' };
                println!("{:28} {:8.1}{} {:13.1}{} {:9.1}", g.label(), s[i], mark(s[i]), l[i], mark(l[i]), c);
            }
            None => println!("{:28} {:9.1} {:14.1}", g.label(), s[i], l[i]),
        }
    }
    let whole = cost[ALL_PRESENT] - cost[0];
    println!(
        "{:28} {:9.1} {:14.1}",
        "whole - inputs - sum",
        whole - s.iter().sum::<f64>(),
        whole - l.iter().sum::<f64>()
    );
    println!("largest pairwise interactions (whole - without a - without b + without both):");
    for (a, b, x) in interactions(&cost).into_iter().take(6) {
        println!("  {x:+8.1}  {a} + {b}");
    }
    Ok(())
}

/// The subsets' timings and each group's share of the samples, from the one
/// phased runtime-skip copy (eval-time builds only).
#[cfg(feature = "eval-time")]
mod same_code {
    use engine::defects::{BitboardDefects, DefectCounter, MailboxDefects};
    use engine::eval::ablation::full_eval_config;
    use engine::eval::groups::{Group, RUNTIME_SKIP};
    use engine::eval::mobility::MobilitySet;
    use engine::eval::sampler::Sampler;
    use engine::eval::shapley::{time_each_subset, Timing};
    use engine::eval::weights::Weights;
    use engine::eval::{ChainSet, Evaluation, MailboxSet, MobilityKind, SingleProbeSet, EVAL_LIMIT};
    use engine::Position;
    use std::hint::black_box;
    use std::time::{Duration, Instant};

    /// Per visit the subsets' ticks (as `time_subsets`), and per group its
    /// share of the samples inside evaluations.
    pub fn measure(
        kind: MobilityKind,
        ps: &mut [Position],
        timing: Timing,
        seconds: f64,
    ) -> Result<(Vec<Vec<f64>>, Vec<f64>), String> {
        match kind {
            MobilityKind::Mailbox => with::<MailboxSet, MailboxDefects>(MailboxSet, ps, timing, seconds),
            MobilityKind::Chain => with::<ChainSet, BitboardDefects>(ChainSet, ps, timing, seconds),
            MobilityKind::SingleProbe => with::<SingleProbeSet, BitboardDefects>(SingleProbeSet, ps, timing, seconds),
        }
    }

    /// Ticks per evaluation of one pass of the phased copy.
    #[inline(never)]
    fn pass<M: MobilitySet, D: DefectCounter>(e: &mut Evaluation<M, D, RUNTIME_SKIP>, ps: &mut [Position]) -> f64 {
        let mut sum = 0i64;
        let start = engine::tsc::start();
        for p in ps.iter_mut() {
            sum += i64::from(e.evaluate_phased(black_box(p), -EVAL_LIMIT - 1, EVAL_LIMIT + 1));
        }
        let ticks = engine::tsc::stop().wrapping_sub(start);
        black_box(sum);
        ticks as f64 / ps.len() as f64
    }

    fn with<M: MobilitySet, D: DefectCounter>(
        set: M,
        ps: &mut [Position],
        timing: Timing,
        seconds: f64,
    ) -> Result<(Vec<Vec<f64>>, Vec<f64>), String> {
        let mut e = Evaluation::<M, D, RUNTIME_SKIP>::ablated(set, Weights::default(), full_eval_config());
        let visits = time_each_subset(timing, |mask| {
            e.skip_at_run_time(mask);
            pass(&mut e, ps)
        });
        e.skip_at_run_time(0);
        for _ in 0..timing.warm {
            pass(&mut e, ps);
        }
        let sampler = Sampler::start(Duration::from_micros(50)).map_err(|err| format!("sampling: {err}"))?;
        let t = Instant::now();
        while t.elapsed().as_secs_f64() < seconds {
            pass(&mut e, ps);
        }
        let samples = sampler.stop();
        let inside = samples.inside().max(1) as f64;
        let groups = samples.by_slot().groups;
        Ok((visits, (0..Group::ALL.len()).map(|i| groups[i] as f64 / inside).collect()))
    }
}

/// Without the eval-time feature there is no phased copy to sample.
#[cfg(not(feature = "eval-time"))]
mod same_code {
    use engine::eval::shapley::Timing;
    use engine::eval::MobilityKind;
    use engine::Position;

    pub fn measure(
        _: MobilityKind,
        _: &mut [Position],
        _: Timing,
        _: f64,
    ) -> Result<(Vec<Vec<f64>>, Vec<f64>), String> {
        Err("--counters needs the eval-time build: cargo build --release -p engine --example evalshapley \
             --features eval-time --target-dir target/eval-time"
            .to_string())
    }
}
