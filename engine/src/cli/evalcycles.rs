//! `engine evalcycles`: where the evaluation's time goes, from the
//! per-group cycle counters (feature `eval-time`) over the evaluations of a
//! fixed-depth search or of repeated full evaluations. (The ablation
//! variants are driven by the `ablation` example, never by this binary: see
//! [`engine::eval::ablation::ablated`].)

use super::eval::MobilityArgs;
use super::{CliError, CliResult};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Counter modes on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CountersArg {
    /// Each evaluation times one group (or input, the whole, the empty pair), cycling.
    Rotating,
    /// Every phase in every evaluation (the counters cost several times what they measure).
    AllPhases,
    /// Each evaluation reads one mark, cycling: the time from its start to the end of one phase;
    /// a phase is the difference of neighbouring marks, so the rows add up to the whole.
    Prefix,
    /// No timer reads: each phase writes its name to one byte, and a timer signal at random
    /// intervals counts the phase it interrupts; a row is its share of the samples times the
    /// whole evaluation's floor (or, in a search, of the time the search spent evaluating).
    Sampled,
}

/// Timer reads on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum TimerReadsArg {
    /// `lfence; rdtsc; lfence` and `rdtscp; lfence`: a region's latency from a drained pipeline.
    Fenced,
    /// A plain `rdtsc` at each end: the out-of-order core keeps running across it.
    Plain,
}

#[derive(Args)]
pub struct EvalCyclesArgs {
    /// EPD file of positions; each is searched to --depth.
    #[arg(conflicts_with = "fen", required_unless_present = "fen")]
    file: Option<PathBuf>,
    /// A single position instead of a file.
    #[arg(long)]
    fen: Option<String>,
    #[command(flatten)]
    mobility: MobilityArgs,
    /// Search depth per position (the evaluations of that search are timed).
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Instead of searching, evaluate every position REPS times in full:
    /// eval hash off, pawn hash on (warmed by one untimed pass), lazy exit
    /// off — the configuration of boardbench's whole-evaluation arms. Each
    /// pass is interleaved with a pass of an evaluator whose counters are
    /// off, so the instrumented cost is reported beside it.
    #[arg(long, value_name = "REPS")]
    full_evals: Option<u32>,
    /// Which regions each evaluation times.
    #[arg(long, value_enum, default_value = "rotating")]
    counters: CountersArg,
    /// How the timer is read around a region.
    #[arg(long, value_enum, default_value = "plain")]
    timer_reads: TimerReadsArg,
    /// Rotating mode: time one run of evaluations in N, the others run
    /// without the counters' tests (default 4 in a search, 1 with
    /// --full-evals).
    #[arg(long, value_name = "N")]
    duty: Option<u32>,
    /// Sampled mode: seconds of sampling (repeated passes with
    /// --full-evals; in a search, the searches are repeated until then).
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    sample_seconds: f64,
    /// Sampled mode: mean interval between samples, in microseconds.
    #[arg(long, value_name = "US", default_value_t = 50)]
    sample_interval: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `engine evalcycles`: per-group TSC ticks of the evaluations a fixed-depth
/// search makes, with lazy/hash/full shares. Needs the `eval-time` feature.
#[cfg(not(feature = "eval-time"))]
pub fn evalcycles(_: EvalCyclesArgs) -> CliResult {
    Err(CliError::input(
        "this engine was built without the per-term counters; rebuild with \
         `cargo build --release -p engine --features eval-time`",
    ))
}

#[cfg(feature = "eval-time")]
pub use counted::evalcycles;

#[cfg(feature = "eval-time")]
mod counted {
    use super::super::{load_epd, parse_fen, print_json};
    use super::*;
    use engine::defects::{BitboardDefects, DefectCounter, MailboxDefects};
    use engine::eval::counters::{CounterMode, CounterSummary, EvalCounters, Phase, Slot};
    use engine::eval::groups::Group;
    use engine::eval::mobility::MobilitySet;
    use engine::eval::weights::Weights;
    use engine::eval::MobilityKind;
    use engine::eval::{DynamicSet, EngineEval, EvalConfig, Evaluation};
    use engine::search::{
        BitboardProfile, Limits, MailboxProfile, MixedProfile, Profile, Searcher, SingleProbeProfile,
    };
    use engine::Position;
    use serde_json::{json, Value};

    /// How the evaluations ended.
    #[derive(Default)]
    struct Ends {
        lazy: u64,
        hash: u64,
        full: u64,
    }

    impl Ends {
        fn of<M: MobilitySet, D: DefectCounter>(e: &Evaluation<M, D>) -> Ends {
            let s = e.stats();
            Ends { lazy: s.lazy, hash: s.hash_hits, full: s.full }
        }
        fn since(&self, before: &Ends) -> Ends {
            Ends { lazy: self.lazy - before.lazy, hash: self.hash - before.hash, full: self.full - before.full }
        }
        fn percent(&self, n: u64) -> f64 {
            100.0 * n as f64 / (self.lazy + self.hash + self.full).max(1) as f64
        }
    }

    /// What a counter mode runs for one choice of mobility implementations:
    /// repeated full evaluations of an evaluation type, or searches of a
    /// profile. [`dispatch`] turns the run-time choice into those types, in
    /// one place for every mode.
    trait Runs {
        type Out;
        /// `reps` full evaluations of every position with `set`.
        fn full<M: MobilitySet, D: DefectCounter>(self, set: M, reps: u32) -> Self::Out;
        /// A search of every position by profile `P`, evaluating with `eval`.
        fn searched<P, M, D>(self, eval: EngineEval<M, D>) -> Self::Out
        where
            M: MobilitySet + Send,
            D: DefectCounter + Send,
            P: Profile<Eval = EngineEval<M, D>>;
    }

    /// Run `runs` with the types `kinds` names: a whole profile's static set
    /// where all four pieces use one implementation, otherwise the per-piece
    /// mix through a [`DynamicSet`]; full evaluations with `full_evals`,
    /// searches without.
    fn dispatch<R: Runs>(kinds: [MobilityKind; 4], full_evals: Option<u32>, runs: R) -> R::Out {
        use engine::eval::{ChainSet, MailboxSet, SingleProbeSet};
        use MobilityKind::*;
        match (kinds, full_evals) {
            ([Mailbox, Mailbox, Mailbox, Mailbox], Some(r)) => runs.full::<_, MailboxDefects>(MailboxSet, r),
            ([Chain, Chain, Chain, Chain], Some(r)) => runs.full::<_, BitboardDefects>(ChainSet, r),
            ([SingleProbe, SingleProbe, SingleProbe, SingleProbe], Some(r)) => {
                runs.full::<_, BitboardDefects>(SingleProbeSet, r)
            }
            (mix, Some(r)) => runs.full::<_, BitboardDefects>(DynamicSet::new(mix), r),
            ([Mailbox, Mailbox, Mailbox, Mailbox], None) => runs.searched::<MailboxProfile, _, _>(Default::default()),
            ([Chain, Chain, Chain, Chain], None) => runs.searched::<BitboardProfile, _, _>(Default::default()),
            ([SingleProbe, SingleProbe, SingleProbe, SingleProbe], None) => {
                runs.searched::<SingleProbeProfile, _, _>(Default::default())
            }
            (mix, None) => {
                let e = Evaluation::<DynamicSet, BitboardDefects>::new(
                    DynamicSet::new(mix),
                    Weights::default(),
                    EvalConfig::default(),
                );
                runs.searched::<MixedProfile, _, _>(EngineEval::new(e))
            }
        }
    }

    /// Ticks per evaluation of passes over the positions (full-evaluation
    /// mode only): with the counters as asked, and per slot with every
    /// evaluation timing that slot (a second evaluator). Absolute figures,
    /// to set against the uninstrumented floor of a build without the
    /// counters: within this build a pass without counters is no floor
    /// (the compiler may specialise the loop for it).
    struct Passes {
        on: Vec<f64>,
        /// A third evaluator with the counters off (the copy of the
        /// evaluation without their tests), timed in its own block: the
        /// uninstrumented cost in this process, under the same conditions.
        off: Vec<f64>,
        slots: Vec<(Slot, Vec<f64>)>,
    }

    fn median(v: &[f64]) -> f64 {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        if s.is_empty() {
            0.0
        } else {
            s[s.len() / 2]
        }
    }

    /// The 10th percentile, linear between order statistics: the floor
    /// boardbench's runner takes of its samples, so the instrumented passes
    /// can be set against its uninstrumented floor.
    fn floor(v: &[f64]) -> f64 {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        if s.is_empty() {
            return 0.0;
        }
        let pos = 0.1 * (s.len() - 1) as f64;
        let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
        s[lo] + (s[hi] - s[lo]) * (pos - lo as f64)
    }

    fn minimum(v: &[f64]) -> f64 {
        v.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// Search every position with `eval` and return its counters.
    fn search<P, M, D>(
        eval: EngineEval<M, D>,
        positions: &[Position],
        depth: u32,
        mode: CounterMode,
        fenced: bool,
        duty: u32,
    ) -> (EvalCounters, Ends)
    where
        M: MobilitySet + Send,
        D: DefectCounter + Send,
        P: Profile<Eval = EngineEval<M, D>>,
    {
        let mut s = Searcher::<P>::with_eval(16, eval);
        s.evaluator_mut().inner_mut().counters_mut().set_mode(mode);
        s.evaluator_mut().inner_mut().counters_mut().set_fenced(fenced);
        s.evaluator_mut().inner_mut().counters_mut().set_duty(duty);
        let before = Ends::of(s.evaluator().inner());
        for pos in positions {
            s.clear();
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            s.go(&mut pos.clone(), &limits, &mut |_| {});
        }
        let inner = s.evaluator().inner();
        (inner.counters().clone(), Ends::of(inner).since(&before))
    }

    /// One pass over `ps`, in ticks per evaluation. Never inlined: the
    /// untimed passes before a timed one must run the very code the timed
    /// one runs. Inlined at each call site, the warm-up trained its own
    /// copy's branches and every timed pass ran an untrained copy: an
    /// instrumented chain evaluation then read 1.5x the uninstrumented one
    /// instead of 1.1x (ARCHITECTURE.md, "A set the core learns").
    #[inline(never)]
    fn pass<M: MobilitySet, D: DefectCounter>(e: &mut Evaluation<M, D>, ps: &mut [Position]) -> f64 {
        let window = (-engine::eval::EVAL_LIMIT - 1, engine::eval::EVAL_LIMIT + 1);
        let t0 = engine::tsc::start();
        for p in ps.iter_mut() {
            std::hint::black_box(e.evaluate(p, window.0, window.1));
        }
        engine::tsc::stop().wrapping_sub(t0) as f64 / ps.len().max(1) as f64
    }

    /// Untimed passes, in the same counter setting, before an evaluator's
    /// timed passes: each is timed once the core has learned the pass
    /// (ARCHITECTURE.md, "A set the core learns"; interleaved pass by pass,
    /// the three evaluators read 1.5-2x slower than the mailbox evaluation
    /// runs alone).
    const BLOCK_WARMUP: u32 = 20;

    /// Timed passes per slot of the evaluator that times one slot in every
    /// evaluation (the median is reported).
    const PROBE_PASSES: u32 = 3;

    /// Evaluate every position `reps` times in full with the counters in
    /// `mode`, each pass timed from outside; on a second evaluator, one
    /// pass per slot timing that slot in every evaluation (what timing each
    /// slot costs an evaluation); and on a third with the counters off.
    /// Every timed pass follows [`BLOCK_WARMUP`] untimed passes of the same
    /// evaluator in the same counter setting (which also fill its pawn
    /// hash). Returns the first evaluator's counters and the passes.
    fn full_evals<M: MobilitySet, D: DefectCounter>(
        set: M,
        positions: &[Position],
        reps: u32,
        mode: CounterMode,
        fenced: bool,
        duty: u32,
    ) -> (EvalCounters, Ends, Passes) {
        let config = EvalConfig { eval_hash_bytes: 0, lazy: false, ..EvalConfig::default() };
        let mut on = Evaluation::<M, D>::new(set, Weights::default(), config);
        let mut probe = Evaluation::<M, D>::new(set, Weights::default(), config);
        probe.counters_mut().set_fenced(fenced);
        let mut off = Evaluation::<M, D>::new(set, Weights::default(), config);
        off.counters_mut().set_mode(CounterMode::Off);
        let mut ps = positions.to_vec();
        let warm = |e: &mut Evaluation<M, D>, ps: &mut [Position]| {
            for _ in 0..BLOCK_WARMUP {
                pass(e, ps);
            }
        };
        let mut p =
            Passes { on: Vec::new(), off: Vec::new(), slots: Slot::ALL.iter().map(|&s| (s, Vec::new())).collect() };
        // The counters' evaluator: each pass times one slot (a run of the
        // rotation is one pass, so each run's mean covers every position
        // and the lowest per slot is a floor), and pass r starts the
        // rotation at slot r, so every position is timed under every slot.
        // Before each timed pass, the warm-up runs that very pass (same
        // slot, same branches) and what it counted is forgotten.
        on.counters_mut().set_mode(mode);
        on.counters_mut().set_fenced(fenced);
        on.counters_mut().set_duty(duty);
        on.counters_mut().set_run_length(positions.len() as u32);
        let before = Ends::of(&on);
        for r in 0..reps {
            on.counters_mut().set_rotation(r as usize);
            let counted = on.counters().clone();
            for _ in 0..BLOCK_WARMUP {
                on.counters_mut().set_rotation(r as usize);
                pass(&mut on, &mut ps);
            }
            *on.counters_mut() = counted;
            p.on.push(pass(&mut on, &mut ps));
        }
        let (counters, ends) = (on.counters().clone(), Ends::of(&on).since(&before));
        warm(&mut off, &mut ps);
        for _ in 0..reps {
            p.off.push(pass(&mut off, &mut ps));
        }
        for (slot, out) in p.slots.iter_mut() {
            probe.counters_mut().set_mode(CounterMode::Fixed(*slot));
            warm(&mut probe, &mut ps);
            for _ in 0..PROBE_PASSES {
                out.push(pass(&mut probe, &mut ps));
            }
        }
        (counters, ends, p)
    }

    pub fn evalcycles(a: EvalCyclesArgs) -> CliResult {
        if a.depth == 0 || a.depth > 30 {
            return Err(CliError::input(format!("--depth {} is out of range (1..=30)", a.depth)));
        }
        if a.full_evals == Some(0) {
            return Err(CliError::input("--full-evals 0: give at least one repetition"));
        }
        let positions: Vec<Position> = match (&a.file, &a.fen) {
            (_, Some(fen)) => vec![parse_fen(fen)?],
            (Some(f), None) => load_epd(f)?.into_iter().map(|e| e.position().clone()).collect(),
            (None, None) => return Err(CliError::input("give an EPD file or --fen")),
        };
        if positions.is_empty() {
            return Err(CliError::input("the EPD file holds no positions"));
        }
        let kinds = a.mobility.kinds();
        let fenced = a.timer_reads == TimerReadsArg::Fenced;
        let duty = a.duty.unwrap_or(if a.full_evals.is_some() { 1 } else { 4 });
        if duty == 0 {
            return Err(CliError::input("--duty 0: give at least 1 (every run timed)"));
        }
        let mode = match a.counters {
            CountersArg::Rotating => CounterMode::Rotating,
            CountersArg::AllPhases => CounterMode::AllPhases,
            CountersArg::Prefix => CounterMode::Prefix,
            CountersArg::Sampled => return sampled::run(&a, &positions),
        };

        /// The TSC-pair modes' runs.
        struct Timed<'p> {
            positions: &'p [Position],
            depth: u32,
            mode: CounterMode,
            fenced: bool,
            duty: u32,
        }
        impl Runs for Timed<'_> {
            type Out = (EvalCounters, Ends, Option<Passes>);
            fn full<M: MobilitySet, D: DefectCounter>(self, set: M, reps: u32) -> Self::Out {
                let (c, e, p) = full_evals::<M, D>(set, self.positions, reps, self.mode, self.fenced, self.duty);
                (c, e, Some(p))
            }
            fn searched<P, M, D>(self, eval: EngineEval<M, D>) -> Self::Out
            where
                M: MobilitySet + Send,
                D: DefectCounter + Send,
                P: Profile<Eval = EngineEval<M, D>>,
            {
                let (c, e) = search::<P, M, D>(eval, self.positions, self.depth, self.mode, self.fenced, self.duty);
                (c, e, None)
            }
        }
        let (c, ends, passes) =
            dispatch(kinds, a.full_evals, Timed { positions: &positions, depth: a.depth, mode, fenced, duty });
        let s = c.summary();
        let report = Report {
            a: &a,
            duty,
            fenced,
            kinds,
            positions: positions.len(),
            c: &c,
            s: &s,
            ends: &ends,
            passes: passes.as_ref(),
        };
        if a.json {
            print_json(&report.json());
        } else {
            report.print();
        }
        Ok(())
    }

    struct Report<'a> {
        duty: u32,
        fenced: bool,
        a: &'a EvalCyclesArgs,
        kinds: [MobilityKind; 4],
        positions: usize,
        c: &'a EvalCounters,
        s: &'a CounterSummary,
        ends: &'a Ends,
        passes: Option<&'a Passes>,
    }

    impl Report<'_> {
        /// The whole per evaluation: the net whole where it was timed.
        fn whole(&self) -> f64 {
            self.s.whole.unwrap_or(0.0)
        }

        fn share(&self, ticks: f64) -> f64 {
            100.0 * ticks / self.whole().max(1.0)
        }

        fn json(&self) -> Value {
            let (s, c) = (self.s, self.c);
            let evals = s.evals.max(1) as f64;
            let rotating = s.mode == CounterMode::Rotating;
            let full = self.a.full_evals.is_some();
            // Legacy per-phase rows: in rotating mode each phase's ticks and
            // regions are scaled to every evaluation (as if each had timed
            // it), so (ticks - calls x ticks_per_region) / evals is the net
            // mean per evaluation in either mode (before the clamp at zero).
            let phases: Vec<Value> = s
                .phases
                .iter()
                .map(|p| {
                    let scale = if rotating { evals } else { p.timed_evals as f64 };
                    // Net plus this phase's own pairs: a phase that holds an
                    // input's region leaves the input to its own row.
                    let ticks = ((p.ticks_per_eval + p.regions_per_eval * s.pair_ticks) * scale).round();
                    let calls = (p.regions_per_eval * scale).round();
                    json!({"phase": p.phase.name(), "ticks": ticks, "calls": calls,
                           "ticks_per_eval": p.raw_ticks_per_eval, "net_ticks_per_eval": p.ticks_per_eval,
                           "ticks_per_call": if calls > 0.0 { ticks / calls } else { 0.0 },
                           "timed_evals": p.timed_evals, "group": group_of(p.phase),
                           "share_percent": self.share(p.ticks_per_eval)})
                })
                .collect();
            let row = |name: &str, label: &str, t: &engine::eval::counters::SlotCost| {
                json!({"name": name, "label": label, "ticks_per_eval": t.ticks_per_eval,
                       "regions_per_eval": t.regions_per_eval, "timed_evals": t.timed_evals,
                       "share_percent": self.share(t.ticks_per_eval),
                       "floor_ticks_per_eval": if full { t.floor_ticks_per_eval } else { None },
                       "floor_runs": t.floor_runs})
            };
            let groups: Vec<Value> =
                Group::ALL.iter().zip(&s.groups).map(|(g, t)| row(g.name(), g.label(), t)).collect();
            let inputs: Vec<Value> = s.inputs.iter().map(|t| row(t.slot.name(), t.slot.name(), t)).collect();
            // Legacy whole: the raw timed whole per timed evaluation.
            let raw_whole = if c.whole_calls > 0 { c.whole_ticks as f64 / c.whole_calls as f64 } else { 0.0 };
            let legacy_whole_ticks = (raw_whole * evals).round();
            let phase_ticks: f64 = phases.iter().map(|p| p["ticks"].as_f64().unwrap_or(0.0)).sum();
            let outside = (legacy_whole_ticks - phase_ticks).max(0.0);
            // Prefix mode: one pair (the start read and one mark) per
            // counted evaluation.
            let regions: f64 = if s.mode == CounterMode::Prefix {
                c.mark_calls.iter().sum::<u64>() as f64
            } else {
                s.phases.iter().map(|p| p.regions_per_eval * p.timed_evals as f64).sum::<f64>()
                    + c.calls[Phase::Calibration as usize] as f64
                    + c.whole_calls as f64
            };
            let paid = s.pair_ticks * regions / evals;
            let unattributed = s.unattributed();
            let instrumented = self.passes.map(|p| {
                let slots: Vec<Value> = p
                    .slots
                    .iter()
                    .map(|(slot, v)| json!({"slot": slot.name(), "ticks_per_eval": median(v), "min_ticks_per_eval": minimum(v)}))
                    .collect();
                json!({"ticks_per_eval": median(&p.on), "min_ticks_per_eval": minimum(&p.on),
                       "floor_ticks_per_eval": floor(&p.on), "passes": p.on.len(),
                       "per_slot": slots,
                       "uninstrumented": {"ticks_per_eval": median(&p.off), "min_ticks_per_eval": minimum(&p.off),
                                          "floor_ticks_per_eval": floor(&p.off)}})
            });
            json!({
                "positions": self.positions,
                "mode": if self.a.full_evals.is_some() { "full-evals" } else { "search" },
                "depth": if self.a.full_evals.is_some() { Value::Null } else { json!(self.a.depth) },
                "full_evals": self.a.full_evals, "mobility": super::super::eval::kinds_json(self.kinds),
                "counters": s.mode.name(), "duty": self.duty,
                "timer_reads": if self.fenced { "fenced" } else { "plain" },
                "evals": s.evals,
                "whole_ticks": legacy_whole_ticks, "ticks_per_eval": raw_whole,
                "phases": phases,
                "outside_phases": {"ticks": outside, "ticks_per_eval": outside / evals,
                                   "share_percent": 100.0 * outside / legacy_whole_ticks.max(1.0)},
                "counter_overhead": {"ticks_per_region": s.pair_ticks, "regions_per_eval": regions / evals,
                                     "ticks_per_eval": paid, "share_percent": 100.0 * paid / raw_whole.max(1.0),
                                     "in_place": s.pair_in_place, "in_place_samples": s.calibration_samples,
                                     "loop_median_ticks": c.region_overhead},
                "groups": groups, "inputs": inputs,
                "whole": {"ticks_per_eval": s.whole, "timed_evals": s.whole_timed},
                "sum_of_rows": s.sum_of_rows(),
                "unattributed": {"ticks_per_eval": unattributed,
                                 "share_percent": unattributed.map(|u| self.share(u))},
                // Floors only where every run covers the same positions.
                "floors": if full { json!({"whole": s.whole_floor, "pair": s.pair_floor,
                                           "sum_of_rows": s.floor_sum_of_rows(),
                                           "unattributed": s.floor_unattributed()}) } else { Value::Null },
                "instrumented": instrumented,
                "lazy_percent": self.ends.percent(self.ends.lazy), "hash_percent": self.ends.percent(self.ends.hash),
                "full_percent": self.ends.percent(self.ends.full),
            })
        }

        fn print(&self) {
            let (s, a) = (self.s, self.a);
            let k = self.kinds;
            println!(
                "{} positions, {}, mobility N {} B {} R {} Q {}: {} evaluations; counters {}",
                self.positions,
                match a.full_evals {
                    Some(r) => format!("{r} full evaluations each (eval hash and lazy exit off)"),
                    None => format!("depth {}", a.depth),
                },
                k[0],
                k[1],
                k[2],
                k[3],
                s.evals,
                match s.mode {
                    CounterMode::Rotating if self.duty > 1 => format!(
                        "rotating (one group, input or the whole timed per evaluation, in one run of evaluations in {})",
                        self.duty
                    ),
                    CounterMode::Rotating => "rotating (one group, input or the whole timed per evaluation)".into(),
                    CounterMode::Prefix => "prefix (one mark per full evaluation: from its start to the end of one \
                                            phase; a phase is the difference of neighbouring marks)"
                        .into(),
                    _ => "all phases (every phase timed in every evaluation)".into(),
                }
            );
            println!(
                "pair cost subtracted {}: {:.1} ticks ({})",
                if s.mode == CounterMode::Prefix { "once, from the first mark" } else { "from every timed region" },
                s.pair_ticks,
                if s.pair_in_place {
                    format!("in place, {} samples; tight-loop median {}", s.calibration_samples, self.c.region_overhead)
                } else {
                    "tight-loop median: too few in-place samples".to_string()
                }
            );
            // Floors only where every run covers the same positions (in a
            // search the lowest run is merely the cheapest stretch).
            let full = a.full_evals.is_some();
            let show = |x: Option<f64>| x.filter(|_| full).map_or_else(|| "-".to_string(), |v| format!("{v:.1}"));
            println!(
                "{:<28} {:>11} {:>7} {:>9} {:>12} {:>12}",
                "group", "ticks/eval", "share", "floor", "regions", "timed evals"
            );
            let line = |name: &str, t: &engine::eval::counters::SlotCost| {
                println!(
                    "{:<28} {:>11.1} {:>6.1}% {:>9} {:>12.2} {:>12}",
                    name,
                    t.ticks_per_eval,
                    self.share(t.ticks_per_eval),
                    show(t.floor_ticks_per_eval),
                    t.regions_per_eval,
                    t.timed_evals
                );
            };
            for (g, t) in Group::ALL.iter().zip(&s.groups) {
                line(g.label(), t);
            }
            for t in &s.inputs {
                line(&format!("{} (input)", t.slot.name()), t);
            }
            println!(
                "{:<28} {:>11.1} {:>6.1}% {:>9}",
                "sum of rows",
                s.sum_of_rows(),
                self.share(s.sum_of_rows()),
                show(s.floor_sum_of_rows())
            );
            match (s.whole, s.unattributed()) {
                (Some(w), Some(u)) => {
                    println!(
                        "{:<28} {:>11.1} {:>6.1}% {:>9}",
                        "unattributed (whole - rows)",
                        u,
                        self.share(u),
                        show(s.floor_unattributed())
                    );
                    println!(
                        "{:<28} {:>11.1} {:>6.1}% {:>9}  ({} evaluations timed whole)",
                        "whole evaluation",
                        w,
                        100.0,
                        show(s.whole_floor),
                        s.whole_timed
                    );
                }
                _ => println!("whole evaluation: never timed (too few evaluations)"),
            }
            if matches!(s.mode, CounterMode::Rotating | CounterMode::Prefix) && full {
                println!(
                    "(ticks/eval: means over the evaluations that timed each row; floor: the lowest mean of a pass \
                     over every position timing it)"
                );
            }
            if let Some(p) = self.passes {
                println!(
                    "instrumented: {:.0} ticks per evaluation with these counters (median of {} passes timed from \
                     outside; fastest {:.0}, 10th percentile {:.0}); with the counters off, interleaved: median {:.0}, \
                     10th percentile {:.0} ({:.2}x)",
                    median(&p.on),
                    p.on.len(),
                    minimum(&p.on),
                    floor(&p.on),
                    median(&p.off),
                    floor(&p.off),
                    floor(&p.on) / floor(&p.off)
                );
                let per: Vec<String> =
                    p.slots.iter().map(|(slot, v)| format!("{} {:.0}", slot.name(), median(v))).collect();
                println!("an evaluation timing one slot, ticks (median pass): {}", per.join(", "));
            }
            println!(
                "evaluations: lazy {:.1}%, hash {:.1}%, full {:.1}%",
                self.ends.percent(self.ends.lazy),
                self.ends.percent(self.ends.hash),
                self.ends.percent(self.ends.full)
            );
        }
    }

    /// The group (or input) a phase is timed under.
    fn group_of(p: Phase) -> &'static str {
        p.slot().name()
    }

    /// `--counters sampled`: the phase register and a timer signal
    /// ([`engine::eval::sampler`]) instead of TSC pairs.
    mod sampled {
        use super::*;
        use engine::eval::counters::Input;
        use engine::eval::sampler::{Sampler, Samples, OUTSIDE};
        use std::time::{Duration, Instant};

        /// One row: ticks = share of the samples inside evaluations x
        /// `whole`, with a 95% interval from the binomial share.
        fn row(name: &str, label: &str, n: u64, inside: u64, whole: f64) -> Value {
            let p = n as f64 / inside.max(1) as f64;
            let half = 1.96 * (p * (1.0 - p) / inside.max(1) as f64).sqrt() * whole;
            let t = p * whole;
            json!({"name": name, "label": label, "samples": n, "ticks_per_eval": t,
                   "floor_ticks_per_eval": t, "interval": [t - half, t + half],
                   "share_percent": 100.0 * p})
        }

        struct Measured {
            samples: Samples,
            /// Ticks per evaluation the rows share out.
            whole: f64,
            /// Full-evaluation mode: passes of the sampled copy and of the
            /// copy without counters, interleaved, no timer running.
            on: Vec<f64>,
            off: Vec<f64>,
            sampling_s: f64,
            evals: u64,
            ends: Ends,
        }

        pub fn run(a: &EvalCyclesArgs, positions: &[Position]) -> CliResult {
            if !(a.sample_seconds > 0.0 && a.sample_seconds <= 3600.0) {
                return Err(CliError::input(format!(
                    "--sample-seconds {} is out of range (more than 0, at most 3600)",
                    a.sample_seconds
                )));
            }
            if a.sample_interval < 2 || a.sample_interval > 1_000_000 {
                return Err(CliError::input(format!(
                    "--sample-interval {} is out of range (2..=1000000 microseconds)",
                    a.sample_interval
                )));
            }
            let kinds = a.mobility.kinds();
            let m = dispatch(kinds, a.full_evals, Sampled { positions, a })?;
            let doc = json(a, kinds, positions.len(), &m);
            if a.json {
                print_json(&doc);
            } else {
                print(a, &doc, &m);
            }
            Ok(())
        }

        /// The sampled mode's runs.
        struct Sampled<'p> {
            positions: &'p [Position],
            a: &'p EvalCyclesArgs,
        }

        impl Runs for Sampled<'_> {
            type Out = Result<Measured, CliError>;
            fn full<M: MobilitySet, D: DefectCounter>(self, set: M, reps: u32) -> Self::Out {
                full::<M, D>(set, self.positions, reps, self.a)
            }
            fn searched<P, M, D>(self, eval: EngineEval<M, D>) -> Self::Out
            where
                M: MobilitySet + Send,
                D: DefectCounter + Send,
                P: Profile<Eval = EngineEval<M, D>>,
            {
                searched::<P, M, D>(eval, self.positions, self.a)
            }
        }

        fn start(a: &EvalCyclesArgs) -> Result<Sampler, CliError> {
            Sampler::start(Duration::from_micros(a.sample_interval))
                .map_err(|e| CliError::input(format!("sampling: {e}")))
        }

        /// Full evaluations: the instrumented cost from interleaved passes
        /// with no timer running, then passes under the sampler.
        fn full<M: MobilitySet, D: DefectCounter>(
            set: M,
            positions: &[Position],
            reps: u32,
            a: &EvalCyclesArgs,
        ) -> Result<Measured, CliError> {
            let config = EvalConfig { eval_hash_bytes: 0, lazy: false, ..EvalConfig::default() };
            let mut on = Evaluation::<M, D>::new(set, Weights::default(), config);
            on.counters_mut().set_mode(CounterMode::Sampled);
            let mut off = Evaluation::<M, D>::new(set, Weights::default(), config);
            off.counters_mut().set_mode(CounterMode::Off);
            let mut ps = positions.to_vec();
            // Each timed pass after untimed ones of the same copy, as in the
            // other modes (the core learns a pass; two copies in turn would
            // share what it can learn), the two copies alternating.
            let (mut on_passes, mut off_passes) = (Vec::new(), Vec::new());
            for _ in 0..reps {
                for (e, out) in [(&mut on, &mut on_passes), (&mut off, &mut off_passes)] {
                    for _ in 0..BLOCK_WARMUP {
                        pass(e, &mut ps);
                    }
                    out.push(pass(e, &mut ps));
                }
            }
            let before = Ends::of(&on);
            let sampler = start(a)?;
            let t = Instant::now();
            let mut passes = 0u64;
            while t.elapsed().as_secs_f64() < a.sample_seconds {
                pass(&mut on, &mut ps);
                passes += 1;
            }
            let sampling_s = t.elapsed().as_secs_f64();
            let samples = sampler.stop();
            Ok(Measured {
                samples,
                whole: floor(&off_passes),
                on: on_passes,
                off: off_passes,
                sampling_s,
                evals: passes * ps.len() as u64,
                ends: Ends::of(&on).since(&before),
            })
        }

        /// Searches to --depth, repeated until --sample-seconds, under the
        /// sampler; a row's ticks per evaluation are its samples' share of
        /// a round's ticks over the round's evaluations, the round timed
        /// once with no timer running (the handler's own time left out;
        /// every round searches the same trees from cleared tables).
        fn searched<P, M, D>(
            eval: EngineEval<M, D>,
            positions: &[Position],
            a: &EvalCyclesArgs,
        ) -> Result<Measured, CliError>
        where
            M: MobilitySet + Send,
            D: DefectCounter + Send,
            P: Profile<Eval = EngineEval<M, D>>,
        {
            let mut s = Searcher::<P>::with_eval(16, eval);
            s.evaluator_mut().inner_mut().counters_mut().set_mode(CounterMode::Sampled);
            let round = |s: &mut Searcher<P>| {
                for pos in positions {
                    s.clear();
                    let limits = Limits { depth: Some(a.depth), ..Limits::default() };
                    s.go(&mut pos.clone(), &limits, &mut |_| {});
                }
            };
            round(&mut s);
            let before = Ends::of(s.evaluator().inner());
            let t0 = engine::tsc::start();
            round(&mut s);
            let round_ticks = engine::tsc::stop().wrapping_sub(t0) as f64;
            let round_ends = Ends::of(s.evaluator().inner()).since(&before);
            let round_evals = round_ends.lazy + round_ends.hash + round_ends.full;
            let before = Ends::of(s.evaluator().inner());
            let sampler = start(a)?;
            let t = Instant::now();
            loop {
                round(&mut s);
                if t.elapsed().as_secs_f64() >= a.sample_seconds {
                    break;
                }
            }
            let sampling_s = t.elapsed().as_secs_f64();
            let samples = sampler.stop();
            let ends = Ends::of(s.evaluator().inner()).since(&before);
            let evals = ends.lazy + ends.hash + ends.full;
            // The evaluations' share of a round's ticks, per evaluation.
            let whole =
                round_ticks * samples.inside() as f64 / samples.total().max(1) as f64 / round_evals.max(1) as f64;
            Ok(Measured { samples, whole, on: Vec::new(), off: Vec::new(), sampling_s, evals, ends })
        }

        fn json(a: &EvalCyclesArgs, kinds: [MobilityKind; 4], positions: usize, m: &Measured) -> Value {
            let t = m.samples.by_slot();
            let inside = m.samples.inside();
            let group_rows: Vec<Value> =
                Group::ALL.iter().map(|g| row(g.name(), g.label(), t.groups[*g as usize], inside, m.whole)).collect();
            let input_rows: Vec<Value> =
                Input::ALL.iter().map(|i| row(i.name(), i.name(), t.inputs[*i as usize], inside, m.whole)).collect();
            let glue_row = row("glue", "between phases (no row)", t.glue, inside, m.whole);
            let full = a.full_evals.is_some();
            let instrumented = full.then(|| {
                json!({"ticks_per_eval": median(&m.on), "min_ticks_per_eval": minimum(&m.on),
                       "floor_ticks_per_eval": floor(&m.on), "passes": m.on.len(),
                       "uninstrumented": {"ticks_per_eval": median(&m.off), "min_ticks_per_eval": minimum(&m.off),
                                          "floor_ticks_per_eval": floor(&m.off)}})
            });
            let unattributed = glue_row["ticks_per_eval"].clone();
            json!({
                "positions": positions,
                "mode": if full { "full-evals" } else { "search" },
                "depth": if full { Value::Null } else { json!(a.depth) },
                "full_evals": a.full_evals, "mobility": super::super::super::eval::kinds_json(kinds),
                "counters": CounterMode::Sampled.name(),
                "evals": m.evals,
                "samples": {"inside": inside, "outside": m.samples.at(OUTSIDE), "glue": t.glue,
                            "seconds": m.sampling_s, "mean_interval_us": a.sample_interval},
                "groups": group_rows, "inputs": input_rows, "glue": glue_row,
                "whole": {"ticks_per_eval": m.whole},
                "floors": {"whole": if full { json!(m.whole) } else { Value::Null }, "unattributed": unattributed},
                "unattributed": unattributed,
                "counter_overhead": {"ticks_per_region": 0.0, "regions_per_eval": 0.0},
                "instrumented": instrumented,
                "lazy_percent": m.ends.percent(m.ends.lazy), "hash_percent": m.ends.percent(m.ends.hash),
                "full_percent": m.ends.percent(m.ends.full),
            })
        }

        fn print(a: &EvalCyclesArgs, doc: &Value, m: &Measured) {
            let full = a.full_evals.is_some();
            println!(
                "{} evaluations ({}), sampled: {} samples in evaluations, {} outside, {:.1} s at a {} us mean interval",
                m.evals,
                if full { "full evaluations, repeated" } else { "in the searches" },
                doc["samples"]["inside"],
                doc["samples"]["outside"],
                m.sampling_s,
                a.sample_interval
            );
            println!(
                "a row: its share of the samples inside evaluations x {:.1} ticks per evaluation ({})",
                m.whole,
                if full {
                    "the floor of the passes without counters"
                } else {
                    "a round of the searches' ticks, timed with no timer running, times the evaluations' share \
                     of the samples, per evaluation"
                }
            );
            println!("{:<28} {:>11} {:>7} {:>9} {:>17}", "row", "ticks/eval", "share", "samples", "95% interval");
            let rows =
                doc["groups"].as_array().into_iter().flatten().chain(doc["inputs"].as_array().into_iter().flatten());
            for r in rows.chain(std::iter::once(&doc["glue"])) {
                println!(
                    "{:<28} {:>11.1} {:>6.1}% {:>9} {:>17}",
                    r["label"].as_str().unwrap_or("?"),
                    r["ticks_per_eval"].as_f64().unwrap_or(0.0),
                    r["share_percent"].as_f64().unwrap_or(0.0),
                    r["samples"],
                    format!(
                        "[{:.1}, {:.1}]",
                        r["interval"][0].as_f64().unwrap_or(0.0),
                        r["interval"][1].as_f64().unwrap_or(0.0)
                    )
                );
            }
            if full {
                println!(
                    "instrumented: {:.1} ticks per evaluation, the copy that writes its phases (10th percentile of {} \
                     passes, no timer running); without counters, interleaved: {:.1} ({:.2}x)",
                    floor(&m.on),
                    m.on.len(),
                    floor(&m.off),
                    floor(&m.on) / floor(&m.off)
                );
            }
            println!(
                "evaluations: lazy {:.1}%, hash {:.1}%, full {:.1}%",
                m.ends.percent(m.ends.lazy),
                m.ends.percent(m.ends.hash),
                m.ends.percent(m.ends.full)
            );
        }
    }
}
