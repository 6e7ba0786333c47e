//! What each evaluation group costs inside a search, by ablation, without
//! the core learning the positions (ARCHITECTURE.md, "A set the core
//! learns"). The bench positions are searched to a fixed depth with the
//! bitboard profile, and every position the search evaluated in full is
//! recorded, in order: a stream of tens of thousands of positions, far
//! more than the core's predictors can learn, in the order a search meets
//! them (neighbours share pawn structures and material, so the pawn hash
//! and material table behave as in the search). Each ablation variant then
//! evaluates the whole stream, one position at a time copied into one
//! board (so the evaluated board is in L1, as the search's is; the
//! positions two ahead are prefetched, so the copy rarely waits on
//! memory); a pass of the copies alone is timed too and subtracted.
//!
//! `evalreplay [--depth D] [--mobility KIND]... [--passes N] [--buckets]`
//!
//! * `--depth`: the bench search depth (default 7);
//! * `--mobility`: `mailbox`, `chain` or `single-probe`, repeatable
//!   (default mailbox and chain);
//! * `--passes`: timed passes of every variant, in a shuffled order each
//!   time (default 9);
//! * `--buckets`: one attribution per density bucket (boardbench's: men
//!   on the board 26-32, 13-25, 2-12), each over the positions of the
//!   stream in that bucket, in their order;
//! * `--fenced`: the counters read the timer fenced instead of plain
//!   (`eval-time` builds; [`engine::eval::counters`]);
//! * `--prefix`: the counters read prefix marks instead of rotating
//!   regions (`eval-time` builds): each evaluation reads the time from its
//!   start to the end of one phase, and a phase costs the difference of
//!   neighbouring marks;
//! * `--sampled`: the counters are the sampled ones boardbench's
//!   evalcycles reports (`eval-time` builds; [`engine::eval::sampler`]):
//!   after the timed passes, the counters' arm replays the stream for
//!   three seconds under the sampler, and a group's counter ticks are its
//!   share of the samples inside evaluations times the full evaluation's
//!   cost.
//!
//! Prints per group its cost (full minus the variant without the group and
//! the state it builds), split into its own work and its state, the inputs
//! (`inputs_only`), and the remainder nobody removes, in ticks per
//! evaluation: the median over passes and the range of the per-pass
//! differences. The eval hash is off while replaying (every recorded
//! position was an eval-hash miss), so the hash group reads about zero.
//!
//! Built with the `eval-time` feature, the variants run with the counters
//! off and one more arm runs the full evaluation with the rotating counters
//! (or, with `--prefix`, the prefix marks) on, over the same stream: each
//! group's counter ticks are printed beside its ablation cost, and the
//! instrumented pass against the full one.
//!
//! `cargo build --release -p engine --example evalreplay`, then
//! `taskset -c 1 target/release/examples/evalreplay --depth 7`; with the
//! counters, `cargo build --release -p engine --example evalreplay
//! --features eval-time --target-dir target/eval-time` and
//! `target/eval-time/release/examples/evalreplay`.

use engine::eval::ablation::{ablated, full_eval_config, Ablation, DynEvaluation};
#[cfg(feature = "eval-time")]
use engine::eval::counters::{CounterMode, Slot};
use engine::eval::groups::Group;
use engine::eval::weights::Weights;
use engine::eval::{ChainSet, EngineEval, EvalStats, Evaluator, MobilityKind};
use engine::movegen::BitboardGen;
use engine::rng::Rng;
use engine::search::{BitboardAttacks, Limits, Profile, Searcher};
use engine::sliders::FastSliders;
use engine::tools::bench::default_positions;
use engine::{tsc, Bitboard, Position};
use std::hint::black_box;
use std::process::ExitCode;

/// A window no score leaves (the lazy exit is off anyway).
const WINDOW: i32 = engine::eval::EVAL_LIMIT + 1;

/// The bitboard profile's evaluation, recording every position it
/// evaluates in full.
#[derive(Default)]
struct Recorder {
    inner: EngineEval<ChainSet, engine::defects::BitboardDefects>,
    stream: Vec<Position>,
}

impl Evaluator for Recorder {
    fn evaluate(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32 {
        let full = self.inner.stats().full;
        let score = self.inner.evaluate(pos, alpha, beta);
        if self.inner.stats().full != full {
            let mut copy = pos.clone();
            copy.clear_history();
            self.stream.push(copy);
        }
        score
    }

    fn clear(&mut self) {
        self.inner.clear();
    }

    fn stats(&self) -> EvalStats {
        self.inner.stats()
    }

    fn en_prise(&self) -> Bitboard {
        self.inner.en_prise()
    }
}

/// The bitboard profile with the recording evaluation.
struct Recording;

impl Profile for Recording {
    const NAME: &'static str = "recording";
    type Gen = BitboardGen<FastSliders>;
    type Attacks = BitboardAttacks;
    type Defects = engine::defects::BitboardDefects;
    type Eval = Recorder;
}

/// Every position the bench search to `depth` evaluates in full, in order.
fn record(depth: u32) -> Vec<Position> {
    let mut s = Searcher::<Recording>::with_eval(16, Recorder::default());
    for pos in default_positions() {
        s.clear();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        s.go(&mut pos.clone(), &limits, &mut |_| {});
    }
    std::mem::take(&mut s.evaluator_mut().stream)
}

/// Positions ahead whose lines are prefetched: the stream is far larger
/// than the caches, and without it each copy waits on memory (about 250
/// ticks a position here) and the wait lands in whichever timed region
/// first reads the board.
const PREFETCH_AHEAD: usize = 2;

/// Positions per chunk: enough that the core does not learn a chunk in
/// the few times each arm evaluates it (ARCHITECTURE.md: a set of 2,048
/// positions or more is not learned), few enough that arms are compared
/// milliseconds apart.
const CHUNK: usize = 4096;

/// The density buckets of boardbench (men on the board, kings and pawns
/// included).
const BUCKETS: [(&str, std::ops::RangeInclusive<u32>); 3] =
    [("opening", 26..=32), ("middlegame", 13..=25), ("endgame", 2..=12)];

/// Ask for every cache line of `pos` (a no-op past the end of the stream).
#[inline(always)]
fn prefetch(pos: Option<&Position>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(pos) = pos {
        let base = (pos as *const Position).cast::<i8>();
        for offset in (0..std::mem::size_of::<Position>()).step_by(64) {
            // SAFETY: prefetching never faults, and the address is inside `pos`.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(base.add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = pos;
}

/// Ticks per position of one pass: each position copied into `board`,
/// then evaluated by `eval` (or, with `None`, only copied).
#[inline(never)]
fn time_pass(eval: Option<&mut dyn DynEvaluation>, stream: &[Position], board: &mut Position) -> f64 {
    let mut sum = 0i64;
    let start = tsc::start();
    match eval {
        Some(e) => {
            for (i, p) in stream.iter().enumerate() {
                prefetch(stream.get(i + PREFETCH_AHEAD));
                board.clone_from(p);
                sum += i64::from(e.evaluate(black_box(&mut *board), -WINDOW, WINDOW));
            }
        }
        None => {
            for (i, p) in stream.iter().enumerate() {
                prefetch(stream.get(i + PREFETCH_AHEAD));
                board.clone_from(p);
                black_box(&mut *board);
            }
        }
    }
    let ticks = tsc::stop().wrapping_sub(start);
    black_box(sum);
    ticks as f64 / stream.len() as f64
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Per pass `a - b`: its median, lowest and highest.
fn difference(a: &[f64], b: &[f64]) -> (f64, f64, f64) {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    (median(&d), d.iter().copied().fold(f64::INFINITY, f64::min), d.iter().copied().fold(f64::NEG_INFINITY, f64::max))
}

/// How the arms are timed.
struct Options {
    /// Timed passes of every arm.
    passes: usize,
    /// The counters read prefix marks (`eval-time` builds only).
    prefix: bool,
    /// The counters read the timer fenced (`eval-time` builds only).
    fenced: bool,
    /// The sampled counters (`eval-time` builds only).
    sampled: bool,
}

/// Seconds the sampled counters' arm replays the stream under the sampler.
#[cfg(feature = "eval-time")]
const SAMPLE_SECONDS: f64 = 3.0;

/// The samples of passes of `on` (the sampled copy) over `stream` for
/// [`SAMPLE_SECONDS`].
#[cfg(feature = "eval-time")]
fn sample(
    on: &mut dyn DynEvaluation,
    stream: &[Position],
    board: &mut Position,
) -> Result<engine::eval::sampler::Samples, String> {
    use engine::eval::sampler::Sampler;
    let sampler = Sampler::start(std::time::Duration::from_micros(50)).map_err(|e| format!("sampling: {e}"))?;
    let t = std::time::Instant::now();
    while t.elapsed().as_secs_f64() < SAMPLE_SECONDS {
        time_pass(Some(&mut *on), stream, board);
    }
    Ok(sampler.stop())
}

/// Time every variant of `kind` over `stream` and print the attribution.
fn replay(
    kind: MobilityKind,
    title: &str,
    stream: &[Position],
    options: &Options,
    rng: &mut Rng,
) -> Result<(), String> {
    let passes = options.passes;
    let mut evals: Vec<Box<dyn DynEvaluation>> =
        Ablation::ALL.iter().map(|&a| ablated(kind, a, Weights::default(), full_eval_config())).collect();
    // With the counters compiled in: every variant runs with them off, and
    // one more arm is the full evaluation with the counters on (rotating,
    // or prefix marks with --prefix).
    #[cfg(feature = "eval-time")]
    let counters_arm = {
        let fenced = options.fenced;
        for e in &mut evals {
            e.counters_mut().set_mode(CounterMode::Off);
        }
        let mut on = ablated(kind, Ablation::ALL[0], Weights::default(), full_eval_config());
        on.counters_mut().set_mode(if options.sampled {
            CounterMode::Sampled
        } else if options.prefix {
            CounterMode::Prefix
        } else {
            CounterMode::Rotating
        });
        on.counters_mut().set_duty(1);
        on.counters_mut().set_fenced(fenced);
        evals.push(on);
        evals.len() - 1
    };
    let mut board = stream[0].clone();
    // Arm i < evals.len() is evaluation i; the last arm is the copies alone.
    let arms = evals.len() + 1;
    let mut ticks = vec![Vec::with_capacity(passes); arms];
    let mut order: Vec<usize> = (0..arms).collect();
    for pass in 0..=passes {
        // Every arm's pass is the sum of its chunks, and each chunk is
        // timed for every arm in turn (a shuffled order), so two arms'
        // passes are paired chunk by chunk, a few milliseconds apart, and
        // the host's slow changes cancel in their difference.
        let mut sums = vec![0.0; arms];
        for chunk in stream.chunks(CHUNK) {
            for i in (1..arms).rev() {
                order.swap(i, rng.index(i + 1));
            }
            for &arm in &order {
                let e = evals.get_mut(arm).map(|e| &mut **e as &mut dyn DynEvaluation);
                sums[arm] += time_pass(e, chunk, &mut board) * chunk.len() as f64;
            }
        }
        // Pass 0 warms the pawn hash and material tables, untimed.
        if pass > 0 {
            for (t, sum) in ticks.iter_mut().zip(sums) {
                t.push(sum / stream.len() as f64);
            }
        }
        #[cfg(feature = "eval-time")]
        if pass == 0 {
            evals[counters_arm].counters_mut().reset();
        }
    }
    let index = |name: &str| Ablation::ALL.iter().position(|a| a.name == name).expect("a variant of this name");
    let copy = &ticks[arms - 1];
    let full = &ticks[index("full")];
    let (whole, lo, hi) = difference(full, copy);
    println!(
        "{title}: {} positions, {passes} passes; full evaluation {whole:.0} ticks ({lo:.0}-{hi:.0}), the copy {:.0}",
        stream.len(),
        median(copy)
    );
    #[cfg(feature = "eval-time")]
    let counted = {
        let summary = evals[counters_arm].counters_mut().summary();
        let (on, _, _) = difference(&ticks[counters_arm], copy);
        if options.sampled {
            // Nothing timed inside: the rows come from the samples below.
            println!("  sampled counters: instrumented {on:.0} ticks, {:.2}x the full evaluation", on / whole);
        } else {
            println!(
                "  {} counters: instrumented {on:.0} ticks, {:.2}x the full evaluation; pair {:.1} ticks subtracted; whole {:.0}, rows {:.0}",
                summary.mode.name(),
                on / whole,
                summary.pair_ticks,
                summary.whole.unwrap_or(f64::NAN),
                summary.sum_of_rows()
            );
        }
        summary
    };
    #[cfg(feature = "eval-time")]
    let sampled = if options.sampled {
        let samples = sample(&mut *evals[counters_arm], stream, &mut board)?;
        let inside = samples.inside();
        println!("  sampled counters: {inside} samples inside evaluations in {SAMPLE_SECONDS} s");
        Some(samples.by_slot().groups.map(|n| n as f64 / inside.max(1) as f64 * whole))
    } else {
        None
    };
    #[cfg(feature = "eval-time")]
    let counter_of = |g: Group| match &sampled {
        Some(ticks) => ticks[g as usize],
        None => counted.groups.iter().find(|c| c.slot == Slot::Group(g)).map_or(f64::NAN, |c| c.ticks_per_eval),
    };
    #[cfg(not(feature = "eval-time"))]
    let counter_of = |_: Group| f64::NAN;
    println!(
        "  {:<26} {:>7} {:>13} {:>7} {:>7} {:>6} {:>8}",
        "group", "whole", "range", "work", "state", "share", "counter"
    );
    let mut attributed = 0.0;
    for g in Group::ALL {
        let without_work = Ablation::of(g, false).map(|a| &ticks[index(a.name)]);
        let without_all = Ablation::of(g, true).map(|a| &ticks[index(a.name)]);
        let Some(without) = without_all.or(without_work) else { continue };
        let (cost, lo, hi) = difference(full, without);
        let work = without_work.map_or(f64::NAN, |w| difference(full, w).0);
        let state = match (without_work, without_all) {
            (Some(w), Some(s)) => difference(w, s).0,
            _ => f64::NAN,
        };
        attributed += cost;
        println!(
            "  {:<26} {cost:>7.0} {:>13} {work:>7.0} {state:>7.0} {:>5.1}% {:>8.0}",
            g.label(),
            format!("{lo:.0}..{hi:.0}"),
            100.0 * cost / whole,
            counter_of(g)
        );
    }
    let (inputs, lo, hi) = difference(&ticks[index("inputs_only")], copy);
    println!(
        "  {:<26} {inputs:>7.0} {:>13} {:>7} {:>7} {:>5.1}%",
        "inputs",
        format!("{lo:.0}..{hi:.0}"),
        "",
        "",
        100.0 * inputs / whole
    );
    let remainder = whole - attributed - inputs;
    println!(
        "  {:<26} {remainder:>7.0} {:>13} {:>7} {:>7} {:>5.1}%",
        "unattributed",
        "",
        "",
        "",
        100.0 * remainder / whole
    );
    Ok(())
}

fn run() -> Result<(), String> {
    const USAGE: &str =
        "usage: evalreplay [--depth D] [--mobility mailbox|chain|single-probe]... [--passes N] [--buckets] [--fenced] [--prefix] [--sampled]";
    let (mut depth, mut kinds, mut by_bucket) = (7u32, Vec::new(), false);
    let mut options = Options { passes: 9, fenced: false, prefix: false, sampled: false };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().ok_or(format!("{a} needs {what}; {USAGE}"));
        match a.as_str() {
            "--depth" => {
                let v = value("a depth")?;
                depth = v.parse().ok().filter(|d| (1..=20).contains(d)).ok_or(format!("--depth {v:?}: not 1-20"))?;
            }
            "--passes" => {
                let v = value("a number of passes")?;
                options.passes =
                    v.parse().ok().filter(|&n| n >= 1).ok_or(format!("--passes {v:?}: not a positive number"))?;
            }
            "--mobility" => {
                let v = value("a kind")?;
                kinds.push(
                    MobilityKind::parse(&v)
                        .ok_or_else(|| format!("--mobility {v:?}: not one of mailbox, chain, single-probe"))?,
                );
            }
            "--buckets" => by_bucket = true,
            "--fenced" => options.fenced = true,
            "--prefix" => options.prefix = true,
            "--sampled" => options.sampled = true,
            _ => return Err(format!("unknown argument {a:?}; {USAGE}")),
        }
    }
    if kinds.is_empty() {
        kinds = vec![MobilityKind::Mailbox, MobilityKind::Chain];
    }
    if (options.fenced || options.prefix || options.sampled) && !cfg!(feature = "eval-time") {
        return Err("--fenced, --prefix and --sampled choose how the counters read, which this build lacks: \
                    build with --features eval-time"
            .into());
    }
    let stream = record(depth);
    if stream.is_empty() {
        return Err(format!("the bench search to depth {depth} evaluated no position in full"));
    }
    // The streams to replay: the whole, or each bucket's positions, still
    // in the order the search met them (split once, for every kind).
    let parts: Vec<(&str, Vec<Position>)> = if by_bucket {
        BUCKETS
            .iter()
            .map(|(name, men)| {
                (*name, stream.iter().filter(|p| men.contains(&p.occupied().count())).cloned().collect())
            })
            .collect()
    } else {
        vec![("", stream)]
    };
    let mut rng = Rng::new(0x5eed);
    for kind in kinds {
        for (name, part) in &parts {
            let title = if name.is_empty() { kind.to_string() } else { format!("{kind} {name}") };
            if part.len() < CHUNK {
                println!("{title}: {} positions, too few to time (fewer than {CHUNK})", part.len());
            } else {
                replay(kind, &title, part, &options, &mut rng)?;
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("evalreplay: {e}");
            ExitCode::from(2)
        }
    }
}
