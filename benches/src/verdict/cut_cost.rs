//! What a cut saves: the whole evaluation with a cut candidate left out
//! against the whole evaluation without it, timed by the suite's runner
//! (interleaved, floors, 95% intervals, A/A and x2 controls) over the
//! density buckets and the men ladder, in the configuration of evalcycles
//! (eval hash off, pawn hash warm, lazy exit off). Both arms are
//! [`Evaluation`]s over a [`DynamicSet`] of chain routines, the same
//! function-pointer path, so their difference is the candidate's work and
//! nothing else; a weight set to zero changes the score, not the work, so
//! a zeroed DNA term measures what zeroing saves: nothing, within noise.
//!
//! The benchmark is not registered (it measures whatever candidate is
//! [`load`]ed before a run); the cut list runs it through the suite's run
//! API as an extra entry ([`ENTRY`]).

use crate::measure::context::Context;
use crate::suite::benchmark::run_arms_planned;
use crate::suite::density::PositionSet;
use crate::suite::report::BenchReport;
use crate::suite::spec::{ArmSpec, Entry, Spec};
use engine::defects::BitboardDefects;
use engine::eval::weights::Weights;
use engine::eval::{DynamicSet, EvalConfig, Evaluation, MobilityKind};
use engine::Position;
use std::cell::RefCell;

/// The evaluation both arms use.
pub type CutEval = Evaluation<DynamicSet, BitboardDefects>;

/// Eval hash off, pawn hash on (default size), lazy exit off: evalcycles'
/// configuration.
fn config() -> EvalConfig {
    EvalConfig { eval_hash_bytes: 0, lazy: false, ..EvalConfig::default() }
}

/// Time budget relative to the run's per-benchmark budget (as evalcycles:
/// a whole evaluation reaches megabytes of tables, and its floors need
/// more samples on a shared host).
const BUDGET_FACTOR: f64 = 2.0;

/// A window no score leaves (the lazy exit is off anyway).
const WINDOW: i32 = engine::eval::EVAL_LIMIT + 1;

thread_local! {
    static FULL: RefCell<Option<CutEval>> = const { RefCell::new(None) };
    static CUT: RefCell<Option<CutEval>> = const { RefCell::new(None) };
}

/// The uncut evaluation: chain routines, built-in weights.
pub fn full_eval() -> CutEval {
    Evaluation::new(DynamicSet::uniform(MobilityKind::Chain), Weights::default(), config())
}

/// Which evaluator is built first: their hash tables and weights land in
/// different places in memory, which alone moved the same work by up to
/// 1% here; measuring in both orders and taking the two results together
/// cancels that.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    FullFirst,
    CutFirst,
}

impl Order {
    pub const BOTH: [Order; 2] = [Order::FullFirst, Order::CutFirst];
}

/// Measure `set` with `weights` against [`full_eval`] in the next run of
/// [`ENTRY`] on this thread, the two evaluators built in `order`.
pub fn load(set: DynamicSet, weights: Weights, order: Order) {
    FULL.set(None);
    CUT.set(None);
    match order {
        Order::FullFirst => {
            FULL.set(Some(full_eval()));
            CUT.set(Some(Evaluation::new(set, weights, config())));
        }
        Order::CutFirst => {
            CUT.set(Some(Evaluation::new(set, weights, config())));
            FULL.set(Some(full_eval()));
        }
    }
}

#[inline(always)]
fn checksum(score: i32) -> u64 {
    u64::from(score as u32) + 1
}

/// The one copy of the evaluation both arms run: inlined into each arm,
/// the same work read a steady 2% apart (two copies of the code at two
/// addresses), so it is kept out of line and the arms differ only in the
/// evaluator they hand it.
#[inline(never)]
fn evaluate(e: &mut CutEval, pos: &mut Position) -> i32 {
    e.evaluate(pos, -WINDOW, WINDOW)
}

fn eval_with(slot: &'static std::thread::LocalKey<RefCell<Option<CutEval>>>, pos: &mut Position) -> u64 {
    slot.with_borrow_mut(|e| checksum(evaluate(e.as_mut().expect("cut_cost::load before a run"), pos)))
}

fn full(pos: &mut Position) -> u64 {
    eval_with(&FULL, pos)
}

fn cut(pos: &mut Position) -> u64 {
    eval_with(&CUT, pos)
}

fn prepare(pos: &Position) -> Position {
    let mut p = pos.clone();
    p.clear_history();
    p
}

/// The benchmark: arm `full` (baseline) and arm `cut`.
pub fn spec() -> Spec<Position> {
    Spec {
        name: "cutcost",
        about: "whole evaluation (eval hash off, pawn hash warm, lazy off): chain with a cut candidate left out \
                vs chain",
        call: "one full evaluation of one position",
        prepare,
        arms: vec![ArmSpec { name: "full", routine: full }, ArmSpec { name: "cut", routine: cut }],
        must_agree: false,
    }
}

fn run(ctx: &Context, set: &PositionSet) -> Result<BenchReport, String> {
    if !CUT.with_borrow(Option::is_some) {
        return Err("no cut candidate loaded (cut_cost::load)".to_string());
    }
    let spec = spec();
    let arms = spec.arms();
    // As evalcycles: a whole evaluation needs more samples for its floors.
    let mut plan = ctx.plan;
    plan.budget_s = plan.budget_s.map(|b| b * BUDGET_FACTOR);
    run_arms_planned(ctx, &plan, &spec, &arms, set, None)
}

/// The entry the cut list hands the suite's run API.
pub const ENTRY: Entry =
    Entry { name: "cutcost", about: "whole evaluation with a cut candidate left out against the uncut one", run };

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::mobility::cuts::{Cut, Cuts};

    #[test]
    fn the_arms_evaluate_the_loaded_candidate() {
        load(DynamicSet::chain_with_cuts(Cuts::NONE), Weights::default(), Order::FullFirst);
        let positions: Vec<Position> =
            crate::suite::benchmarks::tests::real_positions().iter().take(200).map(prepare).collect();
        let differ = || positions.iter().filter(|p| full(&mut (*p).clone()) != cut(&mut (*p).clone())).count();
        assert_eq!(differ(), 0, "nothing cut: the same scores");
        load(DynamicSet::chain_with_cuts(Cuts::of(Cut::BatteryXray)), Weights::default(), Order::CutFirst);
        assert!(differ() > 0, "the battery cut changes some score");
        let zeroed = Weights { bishop_pair: [0; 17], ..Weights::default() };
        load(DynamicSet::uniform(MobilityKind::Chain), zeroed, Order::FullFirst);
        assert!(differ() > 0, "zeroing the bishop pair changes some score");
    }
}
