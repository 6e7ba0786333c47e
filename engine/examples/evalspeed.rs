//! Does a floor move with the call path, or with the host? The mailbox
//! evaluation reached the two ways boardbench's evalcycles reaches it —
//! its whole-evaluation arm (a concrete evaluator in a thread-local) and
//! its ablation jobs (a boxed [`DynEvaluation`] per variant in a
//! thread-local table) — timed in the runner's pattern: per visit one
//! untimed pass of each arm, then nine samples of each in a shuffled order,
//! one sample a pass over every position.
//!
//! `evalspeed FILE [ARMS] [--trace]`: ARMS is a comma list of `arm` (the
//! thread-local arm) and variant names (`full`, `without_rooks`, ...; see
//! `ablation list`), default `arm,full`. Prints each arm's 10th percentile
//! and median in ticks per evaluation; `--trace` also prints every sample of
//! the first arm in order, which shows the host's slow and fast stretches.
//!
//! `cargo build --release -p engine --example evalspeed`, then
//! `taskset -c 1 target/release/examples/evalspeed positions/wac.epd arm,full,without_rooks`

use engine::eval::ablation::{ablated, full_eval_config, Ablation, DynEvaluation};
use engine::eval::weights::Weights;
use engine::eval::{MailboxEval, MailboxSet, MobilityKind};
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
    static ARM: RefCell<MailboxEval> =
        RefCell::new(MailboxEval::new(MailboxSet, Weights::default(), full_eval_config()));
    static VARIANTS: RefCell<[Option<Box<dyn DynEvaluation>>; 18]> =
        RefCell::new(std::array::from_fn(|_| None));
}

fn arm(pos: &mut Position) -> u64 {
    ARM.with_borrow_mut(|e| u64::from(e.evaluate(pos, -WINDOW, WINDOW) as u32) + 1)
}

fn variant<const V: usize>(pos: &mut Position) -> u64 {
    VARIANTS.with_borrow_mut(|t| {
        let e = t[V].get_or_insert_with(|| {
            ablated(MobilityKind::Mailbox, Ablation::ALL[V], Weights::default(), full_eval_config())
        });
        u64::from(e.evaluate(pos, -WINDOW, WINDOW) as u32) + 1
    })
}

const VARIANT_ROUTINES: [Routine; 18] = [
    variant::<0>,
    variant::<1>,
    variant::<2>,
    variant::<3>,
    variant::<4>,
    variant::<5>,
    variant::<6>,
    variant::<7>,
    variant::<8>,
    variant::<9>,
    variant::<10>,
    variant::<11>,
    variant::<12>,
    variant::<13>,
    variant::<14>,
    variant::<15>,
    variant::<16>,
    variant::<17>,
];

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

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let trace = args.iter().any(|a| a == "--trace");
    let plain: Vec<&String> = args.iter().filter(|a| a.as_str() != "--trace").collect();
    let Some(file) = plain.first() else {
        return Err("usage: evalspeed FILE [ARMS] [--trace] (ARMS: arm,full,without_rooks,...)".into());
    };
    let names: Vec<&str> = plain.get(1).map_or("arm,full", |s| s.as_str()).split(',').collect();
    let mut arms = Vec::new();
    for name in &names {
        if *name == "arm" {
            arms.push(arm as Routine);
        } else {
            let i = Ablation::ALL
                .iter()
                .position(|a| a.name == *name)
                .ok_or_else(|| format!("no arm or ablation variant named {name:?} (try `ablation list`)"))?;
            arms.push(VARIANT_ROUTINES[i]);
        }
    }
    let mut positions: Vec<Position> = load_file(std::path::Path::new(file))
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
    let n = positions.len() as f64;
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); arms.len()];
    let mut rng = engine::rng::Rng::new(0x5EED);
    let mut order: Vec<usize> = (0..arms.len()).collect();
    for visit in 0..VISITS {
        for &a in &arms {
            time_pass(a, &mut positions);
        }
        for _ in 0..SAMPLES_PER_VISIT {
            for j in (1..order.len()).rev() {
                order.swap(j, rng.index(j + 1));
            }
            for &i in &order {
                let ticks = time_pass(arms[i], &mut positions) as f64 / n;
                if visit >= WARMUP_VISITS {
                    samples[i].push(ticks);
                }
            }
        }
    }
    if trace {
        let line: Vec<String> = samples[0].iter().map(|t| format!("{t:.0}")).collect();
        println!("{} samples in order: {}", names[0], line.join(" "));
    }
    for (name, v) in names.iter().zip(samples.iter_mut()) {
        v.sort_by(f64::total_cmp);
        println!(
            "{name:28} 10th percentile {:7.1}  median {:7.1} ticks per evaluation",
            v[v.len() / 10],
            v[v.len() / 2]
        );
    }
    Ok(())
}
