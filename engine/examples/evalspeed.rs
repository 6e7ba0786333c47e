//! What does one whole evaluation cost, and what does the answer depend
//! on? The evaluation reached the two ways boardbench's evalcycles reaches
//! it — its whole-evaluation arm (a concrete evaluator in a thread-local)
//! and its ablation jobs (a boxed [`DynEvaluation`] per variant in a
//! thread-local table) — timed in the runner's pattern: per visit one
//! untimed pass of each arm, then nine samples of each in a shuffled order,
//! one sample a pass over every position.
//!
//! `evalspeed FILE [ARMS] [--mobility KIND] [--between FILE2]... [--shuffle] [--block N] [--window N] [--trace]`
//!
//! * ARMS: a comma list of `arm` (the thread-local mailbox arm) and variant
//!   names (`full`, `without_rooks`, ...; see `ablation list`), default
//!   `arm,full`; also `without_sliders_state` (bishops, rooks and queens
//!   with their state left out together: do the three slider groups cost
//!   apart what they cost together?). A variant name may end in `@L`, the
//!   code layout (0 to 3, `engine::eval::ablation::LAYOUT_PADS`; default 0),
//!   or `@fixed`: the one copy that reads what to leave out at run time, so
//!   every `@fixed` variant runs the same code (ablation at fixed code);
//! * `--mobility`: the variants' implementation (`mailbox`, `chain`,
//!   `single-probe`; default mailbox);
//! * `--between`: before each visit, every arm also evaluates the
//!   positions of FILE2 (untimed pass, then nine passes), as boardbench's
//!   runner visits its other workloads (buckets, ladder rungs) between two
//!   visits of one;
//! * `--shuffle`: shuffle the positions before every timed pass (same
//!   memory, another order);
//! * `--block N`: time each arm's nine samples of a visit back to back,
//!   after N untimed passes of it (boardbench's ablation jobs do this),
//!   instead of interleaving the arms;
//! * `--window N`: FILE is a pool; every pass (timed or not) evaluates the
//!   next N positions of it, copied untimed into one buffer of N, so the
//!   memory stays the same and hot while the sequence of positions only
//!   comes back after the whole pool (does the core learn the pass?);
//! * `--trace`: every sample of the first arm in order.
//!
//! Prints each arm's 10th percentile and median in ticks per evaluation,
//! and the first arm's median by pass within a visit (pass 1 follows the
//! untimed pass). A cost that falls from pass to pass is the core learning
//! this exact sequence of positions: see ARCHITECTURE.md, "A set the core
//! learns".
//!
//! `cargo build --release -p engine --example evalspeed`, then
//! `taskset -c 1 target/release/examples/evalspeed positions/wac.epd arm,full,without_rooks`

use engine::defects::{BitboardDefects, DefectCounter, MailboxDefects};
use engine::eval::ablation::{
    ablated_at_fixed_code, ablated_in_layout, full_eval_config, in_layout, mask, Ablation, DynEvaluation, LAYOUT_PADS,
};
use engine::eval::mobility::MobilitySet;
use engine::eval::weights::Weights;
use engine::eval::{ChainSet, MailboxEval, MailboxSet, MobilityKind, SingleProbeSet};
use engine::position::epd::load_file;
use engine::tsc;
use engine::Position;
use std::cell::RefCell;
use std::hint::black_box;
use std::process::ExitCode;

/// A window no score leaves (the lazy exit is off anyway).
const WINDOW: i32 = engine::eval::EVAL_LIMIT + 1;

/// Visits, of which the first are warm-up.
const VISITS: usize = 60;
const WARMUP_VISITS: usize = 5;
const SAMPLES_PER_VISIT: usize = 9;

type Routine = fn(&mut Position) -> u64;

thread_local! {
    /// The variants' implementation, set once from `--mobility`.
    static KIND: std::cell::Cell<MobilityKind> = const { std::cell::Cell::new(MobilityKind::Mailbox) };
    static ARM: RefCell<MailboxEval> =
        RefCell::new(MailboxEval::new(MailboxSet, Weights::default(), full_eval_config()));
    static EVALUATORS: RefCell<Table> =
        RefCell::new(std::array::from_fn(|_| std::array::from_fn(|_| None)));
}

/// Each (layout, variant)'s evaluator, made on first use; the last
/// "layout" is the fixed-code copy.
type Table = [[Option<Box<dyn DynEvaluation>>; VARIANTS]; LAYOUTS + 1];

/// The ablation variants, then `without_sliders_state`.
const VARIANTS: usize = Ablation::ALL.len() + 1;
const LAYOUTS: usize = LAYOUT_PADS.len();
const SLIDERS: usize = Ablation::ALL.len();

/// The three slider groups, work and state, left out together.
const WITHOUT_SLIDERS_STATE: u32 = mask::WITHOUT_BISHOPS_STATE | mask::WITHOUT_ROOKS_STATE | mask::WITHOUT_QUEENS_STATE;

fn arm(pos: &mut Position) -> u64 {
    ARM.with_borrow_mut(|e| u64::from(e.evaluate(pos, -WINDOW, WINDOW) as u32) + 1)
}

/// `without_sliders_state` of set `set` in layout `layout`.
fn sliders<M: MobilitySet + 'static, D: DefectCounter + 'static>(set: M, layout: usize) -> Box<dyn DynEvaluation> {
    in_layout::<M, D, WITHOUT_SLIDERS_STATE>(set, layout, Weights::default(), full_eval_config())
}

fn make(kind: MobilityKind, layout: usize, v: usize) -> Box<dyn DynEvaluation> {
    if layout == LAYOUTS {
        let ablation = if v < SLIDERS {
            Ablation::ALL[v]
        } else {
            Ablation { name: "without_sliders_state", group: None, state: true, mask: WITHOUT_SLIDERS_STATE }
        };
        return ablated_at_fixed_code(kind, ablation, Weights::default(), full_eval_config());
    }
    if v < SLIDERS {
        return ablated_in_layout(kind, Ablation::ALL[v], layout, Weights::default(), full_eval_config());
    }
    match kind {
        MobilityKind::Mailbox => sliders::<MailboxSet, MailboxDefects>(MailboxSet, layout),
        MobilityKind::Chain => sliders::<ChainSet, BitboardDefects>(ChainSet, layout),
        MobilityKind::SingleProbe => sliders::<SingleProbeSet, BitboardDefects>(SingleProbeSet, layout),
    }
}

fn variant<const L: usize, const V: usize>(pos: &mut Position) -> u64 {
    EVALUATORS.with_borrow_mut(|t| {
        let e = t[L][V].get_or_insert_with(|| make(KIND.get(), L, V));
        u64::from(e.evaluate(pos, -WINDOW, WINDOW) as u32) + 1
    })
}

macro_rules! in_layout {
    ($l:literal) => {
        [
            variant::<$l, 0>,
            variant::<$l, 1>,
            variant::<$l, 2>,
            variant::<$l, 3>,
            variant::<$l, 4>,
            variant::<$l, 5>,
            variant::<$l, 6>,
            variant::<$l, 7>,
            variant::<$l, 8>,
            variant::<$l, 9>,
            variant::<$l, 10>,
            variant::<$l, 11>,
            variant::<$l, 12>,
            variant::<$l, 13>,
            variant::<$l, 14>,
            variant::<$l, 15>,
            variant::<$l, 16>,
            variant::<$l, 17>,
            variant::<$l, 18>,
        ]
    };
}

const VARIANT_ROUTINES: [[Routine; VARIANTS]; LAYOUTS + 1] =
    [in_layout!(0), in_layout!(1), in_layout!(2), in_layout!(3), in_layout!(4)];

/// Ticks of one pass of `routine` over `inputs` (through the pointer, never
/// inlined, as boardbench's runner does).
#[inline(never)]
fn time_pass(routine: Routine, inputs: &mut [Position]) -> u64 {
    let routine = black_box(routine);
    let mut sum = 0u64;
    let start = tsc::start();
    for x in inputs.iter_mut() {
        sum = sum.wrapping_add(routine(black_box(x)));
    }
    let ticks = tsc::stop().wrapping_sub(start);
    black_box(sum);
    ticks
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("evalspeed: {e}");
            ExitCode::from(2)
        }
    }
}

/// The command line.
struct Args {
    file: String,
    names: Vec<String>,
    kind: MobilityKind,
    between: Vec<String>,
    shuffle: bool,
    block: Option<usize>,
    window: Option<usize>,
    trace: bool,
}

const USAGE: &str =
    "usage: evalspeed FILE [ARMS] [--mobility mailbox|chain|single-probe] [--between FILE2]... [--shuffle] [--block N] [--window N] [--trace]";

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let (mut plain, mut between) = (Vec::new(), Vec::new());
    let (mut kind, mut shuffle, mut trace) = (MobilityKind::Mailbox, false, false);
    let (mut block, mut window) = (None, None);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--trace" => trace = true,
            "--shuffle" => shuffle = true,
            "--block" => {
                let v = it.next().ok_or("--block needs a number of passes")?;
                block = Some(v.parse().map_err(|_| format!("--block {v:?}: not a number of passes"))?);
            }
            "--window" => {
                let v = it.next().ok_or("--window needs a number of positions")?;
                window = Some(
                    v.parse()
                        .ok()
                        .filter(|&n: &usize| n > 0)
                        .ok_or(format!("--window {v:?}: not a number of positions"))?,
                );
            }
            "--between" => between.push(it.next().ok_or("--between needs a file")?),
            "--mobility" => {
                let v = it.next().ok_or("--mobility needs a value")?;
                kind = MobilityKind::parse(&v)
                    .ok_or_else(|| format!("--mobility {v:?}: not one of mailbox, chain, single-probe"))?;
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}; {USAGE}")),
            _ => plain.push(a),
        }
    }
    let mut plain = plain.into_iter();
    let file = plain.next().ok_or(USAGE)?;
    let names = plain.next().unwrap_or_else(|| "arm,full".into()).split(',').map(str::to_string).collect();
    if let Some(extra) = plain.next() {
        return Err(format!("unexpected argument {extra:?}; {USAGE}"));
    }
    Ok(Args { file, names, kind, between, shuffle, block, window, trace })
}

/// The positions of an EPD file, history cleared.
fn load(file: &str) -> Result<Vec<Position>, String> {
    let positions: Vec<Position> = load_file(std::path::Path::new(file))
        .map_err(|e| format!("{file}: {e}"))?
        .into_iter()
        .map(|e| {
            let mut p = e.position().clone();
            p.clear_history();
            p
        })
        .collect();
    if positions.is_empty() {
        return Err(format!("{file}: no positions"));
    }
    Ok(positions)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    KIND.set(args.kind);
    let mut arms = Vec::new();
    for name in &args.names {
        if name == "arm" {
            if args.kind != MobilityKind::Mailbox {
                return Err("`arm` is the mailbox evaluation; with --mobility name variants only".into());
            }
            arms.push(arm as Routine);
        } else {
            let (variant, layout) = match name.split_once('@') {
                Some((v, "fixed")) => (v, LAYOUTS),
                Some((v, l)) => {
                    let l = l.parse::<usize>().ok().filter(|&l| l < LAYOUTS).ok_or_else(|| {
                        format!("{name:?}: the layout after @ must be 0 to {} (LAYOUT_PADS) or fixed", LAYOUTS - 1)
                    })?;
                    (v, l)
                }
                None => (name.as_str(), 0),
            };
            let i = if variant == "without_sliders_state" {
                SLIDERS
            } else {
                Ablation::ALL.iter().position(|a| a.name == variant).ok_or_else(|| {
                    format!(
                        "no arm or ablation variant named {variant:?} (try `ablation list`, or without_sliders_state)"
                    )
                })?
            };
            arms.push(VARIANT_ROUTINES[layout][i]);
        }
    }
    let pool = load(&args.file)?;
    let window = args.window.unwrap_or(pool.len());
    if window > pool.len() {
        return Err(format!("--window {window}: the pool holds only {} positions", pool.len()));
    }
    let mut positions: Vec<Position> = pool[..window].to_vec();
    let mut next = 0usize;
    // The next window of the pool into the buffer (untimed; no allocation).
    let mut refill = |positions: &mut Vec<Position>| {
        if window < pool.len() {
            for slot in positions.iter_mut() {
                slot.clone_from(&pool[next]);
                next = (next + 1) % pool.len();
            }
        }
    };
    let mut between: Vec<Vec<Position>> = args.between.iter().map(|f| load(f)).collect::<Result<_, _>>()?;
    let n = positions.len() as f64;
    // samples[arm][pass within the visit]
    let mut samples: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); SAMPLES_PER_VISIT]; arms.len()];
    let mut rng = engine::rng::Rng::new(0x5EED);
    let mut order: Vec<usize> = (0..arms.len()).collect();
    let mut trace = Vec::new();
    for visit in 0..VISITS {
        for other in between.iter_mut() {
            for _ in 0..=SAMPLES_PER_VISIT {
                for &a in &arms {
                    time_pass(a, other);
                }
            }
        }
        // The visit's passes in order: (arm, None) untimed, (arm, Some(k))
        // the arm's k-th timed pass of the visit.
        let mut steps: Vec<(usize, Option<usize>)> = Vec::new();
        if let Some(block) = args.block {
            // Each arm in turn: `block` untimed passes, then its samples.
            for j in (1..order.len()).rev() {
                order.swap(j, rng.index(j + 1));
            }
            for &i in &order {
                steps.extend(std::iter::repeat((i, None)).take(block));
                steps.extend((0..SAMPLES_PER_VISIT).map(|k| (i, Some(k))));
            }
        } else {
            steps.extend((0..arms.len()).map(|i| (i, None)));
            for k in 0..SAMPLES_PER_VISIT {
                for j in (1..order.len()).rev() {
                    order.swap(j, rng.index(j + 1));
                }
                steps.extend(order.iter().map(|&i| (i, Some(k))));
            }
        }
        for (i, pass) in steps {
            refill(&mut positions);
            let Some(k) = pass else {
                time_pass(arms[i], &mut positions);
                continue;
            };
            if args.shuffle {
                for j in (1..positions.len()).rev() {
                    positions.swap(j, rng.index(j + 1));
                }
            }
            let ticks = time_pass(arms[i], &mut positions) as f64 / n;
            if visit >= WARMUP_VISITS {
                samples[i][k].push(ticks);
                if i == 0 {
                    trace.push(ticks);
                }
            }
        }
    }
    if args.trace {
        let line: Vec<String> = trace.iter().map(|t| format!("{t:.0}")).collect();
        println!("{} samples in order: {}", args.names[0], line.join(" "));
    }
    for (name, by_pass) in args.names.iter().zip(&samples) {
        let mut all: Vec<f64> = by_pass.concat();
        all.sort_by(f64::total_cmp);
        println!(
            "{name:28} 10th percentile {:7.1}  median {:7.1} ticks per evaluation",
            all[all.len() / 10],
            all[all.len() / 2]
        );
    }
    let by_pass: Vec<String> =
        samples[0].iter().enumerate().map(|(k, v)| format!("{}: {:.0}", k + 1, median(&mut v.clone()))).collect();
    println!("{} median by pass within a visit: {}", args.names[0], by_pass.join("  "));
    Ok(())
}
