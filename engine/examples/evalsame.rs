//! The sampled counters and the fixed-code ablation on one machine code:
//! is the gap between the counters and the ablation a difference between
//! the builds, or between what the two ask?
//!
//! `boardbench evalcycles` takes its counters from the engine's
//! evaluation with phase bytes (the eval-time build), its leave-one-out
//! costs from monomorphised copies without each group, and its Shapley
//! shares from the copy that reads what to leave out at run time: three
//! machine codes. Here one copy does everything: the runtime-skip copy,
//! phase bytes included, times every subset of the groups (the sampler
//! off) and is then sampled with nothing left out. Its leave-one-out costs
//! and Shapley shares are the fixed-code ones (`engine::eval::shapley`);
//! its counter rows are each group's share of the samples times the whole.
//! A `*` marks a reference the counter is not within 20% or 10 ticks of.
//!
//! `evalsame FILE [--mobility mailbox|chain|single-probe] [--visits N] [--sample-seconds S]`
//!
//! `cargo build --release -p engine --example evalsame --features eval-time
//! --target-dir target/eval-time`, then
//! `taskset -c 1 target/eval-time/release/examples/evalsame BUCKET.epd --mobility chain`
//! (buckets: `scripts/eval-buckets.sh DIR`).

use engine::defects::{BitboardDefects, DefectCounter, MailboxDefects};
use engine::eval::groups::{Group, RUNTIME_SKIP};
use engine::eval::mobility::MobilitySet;
use engine::eval::sampler::Sampler;
use engine::eval::shapley::{leave_one_out, medians, shares, subset_mask, Timing, ALL_PRESENT, SUBSETS};
use engine::eval::weights::Weights;
use engine::eval::{ChainSet, EvalConfig, Evaluation, MailboxSet, MobilityKind, SingleProbeSet};
use engine::position::epd::load_file;
use engine::Position;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: evalsame FILE [--mobility mailbox|chain|single-probe] [--visits N] [--sample-seconds S]";

/// A window no score leaves.
const WINDOW: i32 = engine::eval::EVAL_LIMIT + 1;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("evalsame: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (mut file, mut kind, mut timing, mut seconds) = (None, MobilityKind::Chain, Timing::default(), 3.0);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--mobility" => {
                let v = value("--mobility")?;
                kind = MobilityKind::parse(&v)
                    .ok_or_else(|| format!("--mobility {v:?}: not one of mailbox, chain, single-probe"))?;
            }
            "--visits" => {
                let v = value("--visits")?;
                timing.visits = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--visits {v:?}: not a positive number"))?;
            }
            "--sample-seconds" => {
                let v = value("--sample-seconds")?;
                seconds = v
                    .parse()
                    .ok()
                    .filter(|&s: &f64| s > 0.0 && s <= 3600.0)
                    .ok_or_else(|| format!("--sample-seconds {v:?}: not a number of seconds from 0 to 3600"))?;
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
    let ps = &mut positions;
    match kind {
        MobilityKind::Mailbox => compare::<MailboxSet, MailboxDefects>(MailboxSet, ps, timing, seconds),
        MobilityKind::Chain => compare::<ChainSet, BitboardDefects>(ChainSet, ps, timing, seconds),
        MobilityKind::SingleProbe => compare::<SingleProbeSet, BitboardDefects>(SingleProbeSet, ps, timing, seconds),
    }
}

/// Ticks per evaluation of one pass of the phased runtime-skip copy.
#[inline(never)]
fn pass<M: MobilitySet, D: DefectCounter>(eval: &mut Evaluation<M, D, RUNTIME_SKIP>, ps: &mut [Position]) -> f64 {
    let mut sum = 0i64;
    let start = engine::tsc::start();
    for p in ps.iter_mut() {
        sum += i64::from(eval.evaluate_phased(black_box(p), -WINDOW, WINDOW));
    }
    let ticks = engine::tsc::stop().wrapping_sub(start);
    black_box(sum);
    ticks as f64 / ps.len() as f64
}

fn compare<M: MobilitySet, D: DefectCounter>(
    set: M,
    ps: &mut [Position],
    timing: Timing,
    seconds: f64,
) -> Result<(), String> {
    // As the suite's evaluation benchmark: no eval hash, no lazy exit.
    let config = EvalConfig { eval_hash_bytes: 0, lazy: false, ..EvalConfig::default() };
    let mut eval = Evaluation::<M, D, RUNTIME_SKIP>::ablated(set, Weights::default(), config);
    // Every subset, visit by visit in shuffled orders, as the Shapley
    // timing does, but through the phased copy.
    let masks: Vec<u32> = (0..SUBSETS).map(subset_mask).collect();
    let mut rng = engine::rng::Rng::new(timing.seed);
    let mut order: Vec<usize> = (0..SUBSETS).collect();
    let mut visits = Vec::with_capacity(timing.visits);
    for _ in 0..timing.visits {
        for j in (1..order.len()).rev() {
            order.swap(j, rng.index(j + 1));
        }
        let mut floors = vec![0.0; SUBSETS];
        for &present in &order {
            eval.skip_at_run_time(masks[present]);
            for _ in 0..timing.warm {
                pass(&mut eval, ps);
            }
            floors[present] = (0..timing.timed).map(|_| pass(&mut eval, ps)).fold(f64::INFINITY, f64::min);
        }
        visits.push(floors);
    }
    let cost = medians(&visits, None);
    let (shapley, loo) = (shares(&cost), leave_one_out(&cost));

    // The counters: the same copy with nothing left out, under the sampler.
    eval.skip_at_run_time(0);
    for _ in 0..timing.warm {
        pass(&mut eval, ps);
    }
    let sampler = Sampler::start(Duration::from_micros(50)).map_err(|e| format!("sampling: {e}"))?;
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < seconds {
        pass(&mut eval, ps);
    }
    let samples = sampler.stop();
    let slots = samples.by_slot();
    let inside = samples.inside().max(1) as f64;
    let whole = cost[ALL_PRESENT];
    let ticks = |n: u64| n as f64 / inside * whole;

    println!(
        "whole {whole:.1} ticks per evaluation, inputs alone {:.1}; {} samples in evaluations",
        cost[0],
        samples.inside()
    );
    println!("{:28} {:>9} {:>9} {:>9}", "group", "LOO", "Shapley", "counter");
    let mark = |counter: f64, reference: f64| {
        if (counter - reference).abs() <= (0.2 * reference.abs()).max(10.0) {
            ' '
        } else {
            '*'
        }
    };
    for (i, g) in Group::ALL.iter().enumerate() {
        let c = ticks(slots.groups[i]);
        println!(
            "{:28} {:8.1}{} {:8.1}{} {:9.1}",
            g.label(),
            loo[i],
            mark(c, loo[i]),
            shapley[i],
            mark(c, shapley[i]),
            c
        );
    }
    let inputs: u64 = slots.inputs.iter().sum();
    println!("counters: inputs {:.1}, between phases {:.1}", ticks(inputs), ticks(slots.glue));
    Ok(())
}
