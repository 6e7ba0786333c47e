//! evalcycles: the whole evaluation per mobility implementation, and
//! where its ticks go.
//!
//! (a) Whole evaluation, timed by boardbench's runner: the three engine
//! evaluations — mailbox (attack words, mailbox defects), chain and single
//! probe (accumulators, bitboard defects) — each a full evaluation of one
//! position from the side to move's view with the eval hash off, the pawn
//! hash on (2 MiB; warm, since every round's untimed pass visits every
//! position first) and the lazy exit off. Each arm keeps its own evaluator
//! (its own pawn hash) in a thread-local, built once. The chain must return
//! the mailbox's score exactly; the single probe differs by design (its
//! differences are classified by `engine evaldiff`) and is not checked.
//!
//! (b) Where the ticks go, per bucket and implementation, attributed to the
//! evaluation's ten groups three ways side by side ([`attribution`]):
//! ablation ticks timed in boardbench's runner ([`ablation`]), the
//! eval-time build's sampled counters ([`counters`]) and instructions
//! under callgrind ([`instructions`]), with each group's Shapley share at
//! fixed code beside the ablation ([`shapley`]); and each group's ablation cost
//! against men on the board. Only report runs have (b) (not the gate's
//! runs, nor the per-case targets). The builds (b) needs come first, so
//! one that cannot happen fails before minutes of measuring; without
//! valgrind the instruction column is left empty and the report says why.

pub mod ablation;
pub mod attribution;
pub mod counters;
pub mod instructions;
pub mod shapley;

use crate::measure::context::Context;
use crate::suite::benchmark::run_arms_planned;
use crate::suite::density::PositionSet;
use crate::suite::report::{BenchReport, EvalAttribution};
use crate::suite::spec::{ArmSpec, Entry, Spec};
use engine::eval::ablation::LAYOUT_PADS;
use engine::eval::weights::Weights;
use engine::eval::MobilityKind;
use engine::eval::{ChainEval, ChainSet, EvalConfig, MailboxEval, MailboxSet, SingleProbeEval, SingleProbeSet};
use engine::Position;
use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Instant;

/// Eval hash off, pawn hash on (default size), lazy exit off.
pub fn config() -> EvalConfig {
    EvalConfig { eval_hash_bytes: 0, lazy: false, ..EvalConfig::default() }
}

/// The time budget of (a) relative to the run's per-benchmark budget.
pub const BUDGET_FACTOR: f64 = 2.0;

/// A window no score leaves (the lazy exit is off anyway).
const WINDOW: i32 = engine::eval::EVAL_LIMIT + 1;

thread_local! {
    static MAILBOX: RefCell<MailboxEval> = RefCell::new(MailboxEval::new(MailboxSet, Weights::default(), config()));
    static CHAIN: RefCell<ChainEval> = RefCell::new(ChainEval::new(ChainSet, Weights::default(), config()));
    static SINGLE: RefCell<SingleProbeEval> =
        RefCell::new(SingleProbeEval::new(SingleProbeSet, Weights::default(), config()));
}

#[inline(always)]
fn checksum(score: i32) -> u64 {
    u64::from(score as u32) + 1
}

fn mailbox(pos: &mut Position) -> u64 {
    MAILBOX.with_borrow_mut(|e| checksum(e.evaluate(pos, -WINDOW, WINDOW)))
}

fn chain(pos: &mut Position) -> u64 {
    CHAIN.with_borrow_mut(|e| checksum(e.evaluate(pos, -WINDOW, WINDOW)))
}

fn single_probe(pos: &mut Position) -> u64 {
    SINGLE.with_borrow_mut(|e| checksum(e.evaluate(pos, -WINDOW, WINDOW)))
}

fn prepare(pos: &Position) -> Position {
    let mut p = pos.clone();
    p.clear_history();
    p
}

/// The arms' names, which are also the engine's `--mobility` values.
pub const ARMS: [&str; 3] = ["mailbox", "chain", "single-probe"];

/// The benchmark (a).
pub fn spec() -> Spec<Position> {
    Spec {
        name: "evalcycles",
        about: "whole evaluation (eval hash off, pawn hash warm, lazy off): mailbox vs chain vs single-probe mobility",
        call: "one full evaluation of one position",
        prepare,
        arms: vec![
            ArmSpec { name: ARMS[0], routine: mailbox },
            ArmSpec { name: ARMS[1], routine: chain },
            ArmSpec { name: ARMS[2], routine: single_probe },
        ],
        must_agree: true,
    }
}

fn run(ctx: &Context, set: &PositionSet) -> Result<BenchReport, String> {
    // Build first: a build that cannot happen fails before minutes of
    // measuring. Only report runs have the attribution (not the gate's).
    let tools = if ctx.extras() { Some(Tools::build()?) } else { None };
    let spec = spec();
    let mut arms = spec.arms();
    for a in arms.iter_mut().filter(|a| a.name == "single-probe") {
        a.must_agree = false;
    }
    // Twice the time of the other benchmarks: a whole evaluation reaches
    // into the pawn hash, the weights and the slider tables (megabytes), so
    // a neighbour sharing the caches disturbs it far more than the
    // register-and-L1 routines, and its floors need more samples.
    let mut plan = ctx.plan;
    plan.budget_s = plan.budget_s.map(|b| b * BUDGET_FACTOR);
    let started = Instant::now();
    let mut report = run_arms_planned(ctx, &plan, &spec, &arms, set, None)?;
    let Some(tools) = tools else { return Ok(report) };
    eprintln!("  evalcycles: whole evaluations {:.0} s", started.elapsed().as_secs_f64());
    report.attribution = Some(attribute(ctx, set, &tools, &report)?);
    Ok(report)
}

/// The programs the attribution runs, built before any measuring.
struct Tools {
    /// The engine with the counters.
    eval_time: PathBuf,
    /// The ablation example for callgrind, or why instructions are not counted.
    example: Result<PathBuf, String>,
}

impl Tools {
    fn build() -> Result<Tools, String> {
        let eval_time = counters::build_eval_time_engine()?;
        let example = match instructions::unavailable() {
            Some(why) => Err(why),
            None => Ok(instructions::build_example()?),
        };
        Ok(Tools { eval_time, example })
    }
}

/// The three attributions per bucket and implementation.
fn attribute(ctx: &Context, set: &PositionSet, tools: &Tools, whole: &BenchReport) -> Result<EvalAttribution, String> {
    let mut notes = Vec::new();
    // (1) Ablation in the runner.
    let started = Instant::now();
    let mut ablations = Vec::new();
    for kind in MobilityKind::ALL {
        ablations.push(ablation::measure(ctx, set, kind)?);
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!("  evalcycles: ablation {seconds:.0} s");
    let pads: Vec<String> = LAYOUT_PADS[..ablation::layouts(ctx)].iter().map(|p| p.to_string()).collect();
    notes.push(format!(
        "ablation: boardbench's runner, one job per group, implementation and code layout (the variants \
         that group needs and the full evaluation, interleaved), floors (10th percentile); every row the \
         median over the layouts (the evaluation's code moved by {} bytes), parts with their paired 95% \
         intervals, means, wholes and the remainder combined in quadrature; {seconds:.0} s",
        pads.join(", ")
    ));
    // (1b) Shapley shares at fixed code.
    let started = Instant::now();
    let mut shares = Vec::new();
    for kind in MobilityKind::ALL {
        shares.extend(shapley::measure(ctx, set, kind));
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!("  evalcycles: Shapley shares {seconds:.0} s");
    notes.push(format!(
        "Shapley: every subset of the ten groups (1,024) in one copy of the evaluation that reads what to leave \
         out at run time (fixed code), {} visits of each (5 untimed passes, the lowest of 5 timed), the median \
         over visits; a group's share is its marginal cost averaged over every order of adding the groups, so \
         the shares and the inputs add up to the whole exactly; scaled to the ablation floor; 95% intervals by \
         bootstrap over the visits; interactions: whole - without a - without b + without both; {seconds:.0} s",
        shapley::visits(ctx)
    ));
    // The buckets as EPD files, for the engine and the example.
    let dir = TempDir::new()?;
    let mut files = Vec::new();
    for (bucket, chosen) in &set.buckets {
        let file = dir.0.join(format!("{bucket}.epd"));
        let text: String = chosen.iter().map(|c| c.position.to_fen() + "\n").collect();
        std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        files.push((bucket.name().to_string(), file));
    }
    // (2) Counters.
    let started = Instant::now();
    let (reps, sampling) = (counters::reps(ctx.quick), counters::sample_seconds(ctx.quick));
    let mut counted = Vec::new();
    for (bucket, file) in &files {
        for kind in MobilityKind::ALL {
            counted.push((
                (bucket.clone(), kind.name()),
                counters::run(&tools.eval_time, file, bucket, kind.name(), reps, sampling)?,
            ));
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!("  evalcycles: counters {seconds:.0} s");
    notes.push(format!(
        "counters: engine evalcycles --full-evals {reps} --counters {mode} --sample-seconds {sampling} (eval-time \
         build): no timer reads in the evaluation; each phase writes its name to one byte and a timer signal at \
         random intervals (50 us mean) counts the phase it interrupts; a row is its share of the samples inside \
         evaluations times the floor of the passes without counters; instrumented floor: 10th percentile of the \
         passes of the copy that writes its phases, no timer running, interleaved with those without; {seconds:.0} s",
        mode = counters::MODE
    ));
    // (3) Instructions.
    let started = Instant::now();
    let arms: Vec<&str> = MobilityKind::ALL.iter().map(|k| k.name()).collect();
    let counts = match &tools.example {
        Ok(example) => match instructions::count(example, &files, &arms, &dir.0) {
            Ok(c) => {
                notes.push(format!(
                    "instructions: callgrind of the ablation example, one evaluation of every position per \
                     variant after a warm-up pass; {:.0} s",
                    started.elapsed().as_secs_f64()
                ));
                Some(c)
            }
            Err(e) => {
                eprintln!("boardbench: evalcycles: {e}");
                notes.push(format!("instructions: not counted: {e}"));
                None
            }
        },
        Err(why) => {
            notes.push(format!("instructions: not counted: {why}"));
            None
        }
    };
    eprintln!("  evalcycles: instructions {:.0} s", started.elapsed().as_secs_f64());
    let mut tables = Vec::new();
    for (bucket, _) in &files {
        for (kind, abl) in MobilityKind::ALL.iter().zip(&ablations) {
            let measured = abl.buckets.iter().find(|b| &b.bucket == bucket);
            let c = counted.iter().find(|((b, k), _)| b == bucket && *k == kind.name()).map(|(_, c)| c);
            let instr = match counts.as_ref().and_then(|c| c.get(&(bucket.clone(), kind.name().to_string()))) {
                Some(c) => Some(instructions::attribution(c)?),
                None => None,
            };
            let floor = whole
                .buckets
                .iter()
                .find(|b| &b.bucket == bucket)
                .and_then(|b| b.arms.iter().find(|a| a.arm == kind.name()))
                .map(|a| a.summary.floor);
            let positions = set.buckets.iter().find(|(b, _)| b.name() == bucket).map_or(0, |(_, c)| c.len());
            let mut table =
                attribution::table(bucket, kind.name(), positions, measured.map(|m| &m.median), c, instr.as_ref(), floor);
            table.whole.unattributed_by_layout =
                measured.map_or_else(Vec::new, |m| m.by_layout.iter().map(|a| a.unattributed.value).collect());
            if let Some(m) = shares.iter().find(|m| &m.bucket == bucket && m.kind == *kind) {
                let scale = measured.map_or(m.floor, |a| a.median.full.value);
                attribution::with_shapley(&mut table, &m.scaled_to(scale));
            }
            tables.push(table);
        }
    }
    let ladder = ablations.into_iter().flat_map(|a| a.ladder).collect();
    Ok(EvalAttribution { tables, ladder, notes })
}

/// A temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir, String> {
        let dir = std::env::temp_dir().join(format!("boardbench-evalcycles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub const ENTRY: Entry = Entry {
    name: "evalcycles",
    about: "whole evaluation per mobility implementation, and where its ticks go (ablation, counters, instructions)",
    run,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_scores_as_the_mailbox_on_real_positions() {
        let set = crate::suite::benchmarks::tests::real_positions();
        let spec = spec();
        let mut single_differs = 0;
        let mut scores = std::collections::HashSet::new();
        for pos in set {
            let mut p = prepare(pos);
            let want = (spec.arms[0].routine)(&mut p);
            // Twice: the second call hits the pawn hash the first one filled.
            for _ in 0..2 {
                assert_eq!((spec.arms[0].routine)(&mut p), want, "{}", pos.to_fen());
                assert_eq!((spec.arms[1].routine)(&mut p), want, "chain on {}", pos.to_fen());
            }
            single_differs += usize::from((spec.arms[2].routine)(&mut p) != want);
            scores.insert(want);
        }
        assert!(scores.len() > set.len() / 2, "scores vary: {} distinct", scores.len());
        assert!(single_differs > 0, "the single probe is an approximation");
    }
}
