//! Ablation variants: the evaluation monomorphised with one group of its
//! work left out ([`super::groups`]), so a group's cost can be measured as
//! the difference between the whole evaluation and the evaluation without
//! it, in time (boardbench, interleaved in one runner) and in instructions
//! (`engine evalablation` under callgrind, `scripts/eval-instructions.sh`).
//!
//! Per mobility set there are seventeen variants ([`Ablation::ALL`]):
//!
//! * `full`: the engine's evaluation (skip mask 0);
//! * `without_G` for the nine groups with work of their own: G's score is
//!   left out and the state it builds for later groups is still built, so
//!   the score is exactly the full one minus G's terms (before the drawish
//!   scaling, which then applies to what is left; `without_material` also
//!   leaves out the scaling). Cost of G's own work =
//!   floor(full) - floor(without_G);
//! * `without_G_state` for the seven groups that build state (pawn attacks,
//!   the four piece groups' attacks, king attacks, the records): G's work
//!   and its state are left out. Timing only: later groups then read
//!   incomplete attack state (fewer unsafe squares, fewer attacked ring
//!   squares, no control of stop squares by that class), so their scores
//!   differ, except for `without_passers_state`, whose records are not
//!   scores. Cost of G's state = floor(without_G) - floor(without_G_state);
//!   G's whole cost = floor(full) - floor(without_G_state).
//!
//! * `inputs_only`: every group's work and state left out, so what no
//!   group removes is left (the material and pawn entries, clearing the
//!   attack words, glue, the call): its floor is that part's cost. Timing
//!   only (it scores nothing).
//!
//! floor(full) minus the sum of the groups' whole costs and the inputs is
//! the unattributed remainder: what the groups' interactions add or take
//! away.
//!
//! Every variant is reached through [`DynEvaluation`], one indirect call per
//! evaluation chosen once by [`ablated`], so the full evaluation and each
//! variant go through the same call path when compared. The skip masks are
//! public ([`mask`]) for callers that monomorphise
//! [`Evaluation::ablated`] themselves.

use super::groups::Group;
use super::mobility::{ChainSet, MailboxSet, MobilityKind, MobilitySet, SingleProbeSet};
use super::trace::Trace;
use super::weights::Weights;
use super::{EvalConfig, Evaluation};
use crate::defects::{BitboardDefects, DefectCounter, MailboxDefects};
use crate::position::Position;

/// One ablation variant of the evaluation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ablation {
    /// `full`, `without_G`, `without_G_state` or `inputs_only`.
    pub name: &'static str,
    /// The group left out; `None` for the full evaluation and (with
    /// `state`) for the inputs alone.
    pub group: Option<Group>,
    /// The state the group builds is left out too (timing only).
    pub state: bool,
    /// The skip mask ([`Evaluation`]'s `SKIP`).
    pub mask: u32,
}

/// Define the variants once: their mask constants, the list and the
/// table of constructors.
macro_rules! ablations {
    ($($konst:ident = $name:literal, $group:expr, $state:expr;)+) => {
        /// The skip mask of each variant, for [`Evaluation::ablated`].
        pub mod mask {
            use super::*;
            $(
                #[doc = concat!("The mask of `", $name, "`.")]
                pub const $konst: u32 = skip_mask($group, $state);
            )+
        }

        impl Ablation {
            /// Every variant, the full evaluation first.
            pub const ALL: [Ablation; 18] = [$(Ablation { name: $name, group: $group, state: $state, mask: mask::$konst }),+];
        }

        /// The variant `mask` of mobility set `set` behind one indirect call.
        fn build<M: MobilitySet + 'static, D: DefectCounter + 'static>(
            set: M,
            mask: u32,
            layout: usize,
            weights: Weights,
            config: EvalConfig,
        ) -> Box<dyn DynEvaluation> {
            match mask {
                $(mask::$konst => in_layout::<M, D, { mask::$konst }>(set, layout, weights, config),)+
                _ => unreachable!("not a variant's mask: {mask:#x}"),
            }
        }
    };
}

/// The code layouts a variant can be built in: how many bytes its
/// evaluation is moved along ([`Evaluation`]'s `LAYOUT`). Which variant
/// reads faster than which shifts with where its code falls against cache
/// lines and fetch blocks, by tens of percent of a group's cost from one
/// build to the next (ARCHITECTURE.md, "Layout"), so a measurement times
/// each variant in every layout and takes the mean. Two pads of each
/// eight-byte phase, spread over a 64-byte line; layout 0 is the engine's.
pub const LAYOUT_PADS: [u32; 4] = [0, 16, 40, 56];

/// The evaluation with skip mask `SKIP` (one of [`mask`], or several OR-ed
/// together) in layout `layout` (an index into [`LAYOUT_PADS`]), behind
/// one indirect call.
///
/// # Panics
///
/// If `layout` is not below `LAYOUT_PADS.len()`.
pub fn in_layout<M: MobilitySet + 'static, D: DefectCounter + 'static, const SKIP: u32>(
    set: M,
    layout: usize,
    weights: Weights,
    config: EvalConfig,
) -> Box<dyn DynEvaluation> {
    match layout {
        0 => Box::new(Evaluation::<M, D, SKIP, { LAYOUT_PADS[0] }>::ablated(set, weights, config)),
        1 => Box::new(Evaluation::<M, D, SKIP, { LAYOUT_PADS[1] }>::ablated(set, weights, config)),
        2 => Box::new(Evaluation::<M, D, SKIP, { LAYOUT_PADS[2] }>::ablated(set, weights, config)),
        3 => Box::new(Evaluation::<M, D, SKIP, { LAYOUT_PADS[3] }>::ablated(set, weights, config)),
        _ => panic!("layout {layout}: there are {} (LAYOUT_PADS)", LAYOUT_PADS.len()),
    }
}

/// The skip mask that leaves out `group`'s work (and its state); with no
/// group, nothing (the full evaluation) or, with `state`, every group's
/// work and state (the inputs alone).
const fn skip_mask(group: Option<Group>, state: bool) -> u32 {
    match group {
        None if state => {
            let mut mask = 0;
            let mut i = 0;
            while i < Group::ALL.len() {
                mask |= Group::ALL[i].work_bit() | Group::ALL[i].state_bit();
                i += 1;
            }
            mask
        }
        None => 0,
        Some(g) if state => g.work_bit() | g.state_bit(),
        Some(g) => g.work_bit(),
    }
}

ablations! {
    FULL = "full", None, false;
    WITHOUT_HASH = "without_hash", Some(Group::Hash), false;
    WITHOUT_MATERIAL = "without_material", Some(Group::Material), false;
    WITHOUT_PAWNS = "without_pawns", Some(Group::Pawns), false;
    WITHOUT_PAWN_ATTACKS_STATE = "without_pawn_attacks_state", Some(Group::PawnAttacks), true;
    WITHOUT_KNIGHTS = "without_knights", Some(Group::Knights), false;
    WITHOUT_KNIGHTS_STATE = "without_knights_state", Some(Group::Knights), true;
    WITHOUT_BISHOPS = "without_bishops", Some(Group::Bishops), false;
    WITHOUT_BISHOPS_STATE = "without_bishops_state", Some(Group::Bishops), true;
    WITHOUT_ROOKS = "without_rooks", Some(Group::Rooks), false;
    WITHOUT_ROOKS_STATE = "without_rooks_state", Some(Group::Rooks), true;
    WITHOUT_QUEENS = "without_queens", Some(Group::Queens), false;
    WITHOUT_QUEENS_STATE = "without_queens_state", Some(Group::Queens), true;
    WITHOUT_KINGS = "without_kings", Some(Group::Kings), false;
    WITHOUT_KINGS_STATE = "without_kings_state", Some(Group::Kings), true;
    WITHOUT_PASSERS = "without_passers", Some(Group::Passers), false;
    WITHOUT_PASSERS_STATE = "without_passers_state", Some(Group::Passers), true;
    INPUTS_ONLY = "inputs_only", None, true;
}

impl Ablation {
    /// The full evaluation (nothing skipped).
    pub const FULL: Ablation = Ablation::ALL[0];

    /// Every group's work and state left out: the inputs alone.
    pub const INPUTS_ONLY: Ablation = Ablation::ALL[17];

    /// The variant of this name, if any.
    pub fn parse(name: &str) -> Option<Ablation> {
        Ablation::ALL.into_iter().find(|a| a.name == name)
    }

    /// The variant that leaves out `group`'s work (`state`: and its state),
    /// if there is one.
    pub fn of(group: Group, state: bool) -> Option<Ablation> {
        Ablation::ALL.into_iter().find(|a| a.group == Some(group) && a.state == state)
    }

    /// Does the variant score exactly the full evaluation minus its group's
    /// terms? (Leaving out state changes later groups' scores, except the
    /// records', which are not scores; the inputs alone score nothing.)
    pub fn score_exact(&self) -> bool {
        !self.state || self.group == Some(Group::Passers)
    }
}

/// An evaluation with its type parameters erased, for measurement: the
/// same calls as [`Evaluation`]'s, through one vtable chosen once.
pub trait DynEvaluation {
    /// [`Evaluation::evaluate`].
    fn evaluate(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32;
    /// [`Evaluation::trace`].
    fn trace(&mut self, pos: &mut Position) -> Trace;
    /// [`Evaluation::clear`].
    fn clear(&mut self);
    /// The mobility implementation of each piece type.
    fn kinds(&self) -> [MobilityKind; 4];
    /// [`Evaluation::counters_mut`] (feature `eval-time`).
    #[cfg(feature = "eval-time")]
    fn counters_mut(&mut self) -> &mut super::counters::EvalCounters;
}

impl<M: MobilitySet, D: DefectCounter, const SKIP: u32, const LAYOUT: u32> DynEvaluation
    for Evaluation<M, D, SKIP, LAYOUT>
{
    fn evaluate(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32 {
        Evaluation::evaluate(self, pos, alpha, beta)
    }
    fn trace(&mut self, pos: &mut Position) -> Trace {
        Evaluation::trace(self, pos)
    }
    fn clear(&mut self) {
        Evaluation::clear(self)
    }
    fn kinds(&self) -> [MobilityKind; 4] {
        self.set().kinds()
    }
    #[cfg(feature = "eval-time")]
    fn counters_mut(&mut self) -> &mut super::counters::EvalCounters {
        Evaluation::counters_mut(self)
    }
}

/// Variant `ablation` of the engine evaluation with mobility `kind` for
/// every piece type (mailbox: attack words and mailbox defects; chain and
/// single probe: accumulators and bitboard defects, as the engine profiles).
///
/// `#[inline]` so the variants are compiled only into programs that ask for
/// them: present in a program, they change how the compiler inlines the
/// helpers the engine's own evaluation shares with them (measured: 0.2%
/// more instructions in the mailbox search), so the `engine` binary never
/// calls this (the `ablation` example and boardbench do).
#[inline]
pub fn ablated(kind: MobilityKind, ablation: Ablation, weights: Weights, config: EvalConfig) -> Box<dyn DynEvaluation> {
    ablated_in_layout(kind, ablation, 0, weights, config)
}

/// [`ablated`] with the evaluation's code in layout `layout` (an index
/// into [`LAYOUT_PADS`]; 0 is [`ablated`]'s). Every layout of a variant
/// computes the same scores.
///
/// # Panics
///
/// If `layout` is not below `LAYOUT_PADS.len()`.
#[inline]
pub fn ablated_in_layout(
    kind: MobilityKind,
    ablation: Ablation,
    layout: usize,
    weights: Weights,
    config: EvalConfig,
) -> Box<dyn DynEvaluation> {
    match kind {
        MobilityKind::Mailbox => {
            build::<MailboxSet, MailboxDefects>(MailboxSet, ablation.mask, layout, weights, config)
        }
        MobilityKind::Chain => build::<ChainSet, BitboardDefects>(ChainSet, ablation.mask, layout, weights, config),
        MobilityKind::SingleProbe => {
            build::<SingleProbeSet, BitboardDefects>(SingleProbeSet, ablation.mask, layout, weights, config)
        }
    }
}

/// [`ablated`] at fixed code: one copy of the evaluation that reads the
/// groups to leave out at run time ([`super::groups::RUNTIME_SKIP`]), so
/// every variant runs the same code in the same layout and only the left-out
/// group's execution differs. (Its full variant tests about twenty
/// well-predicted flags that the engine's evaluation does not.)
#[inline]
pub fn ablated_at_fixed_code(
    kind: MobilityKind,
    ablation: Ablation,
    weights: Weights,
    config: EvalConfig,
) -> Box<dyn DynEvaluation> {
    fn fixed<M: MobilitySet + 'static, D: DefectCounter + 'static>(
        set: M,
        mask: u32,
        weights: Weights,
        config: EvalConfig,
    ) -> Box<dyn DynEvaluation> {
        let mut e = Evaluation::<M, D, { super::groups::RUNTIME_SKIP }>::ablated(set, weights, config);
        e.skip_at_run_time(mask);
        Box::new(e)
    }
    match kind {
        MobilityKind::Mailbox => fixed::<MailboxSet, MailboxDefects>(MailboxSet, ablation.mask, weights, config),
        MobilityKind::Chain => fixed::<ChainSet, BitboardDefects>(ChainSet, ablation.mask, weights, config),
        MobilityKind::SingleProbe => {
            fixed::<SingleProbeSet, BitboardDefects>(SingleProbeSet, ablation.mask, weights, config)
        }
    }
}

/// The configuration of whole-evaluation measurements: eval hash off, pawn
/// hash and material table on (warm them with [`warm_up`]), lazy exit off.
pub fn full_eval_config() -> EvalConfig {
    EvalConfig { eval_hash_bytes: 0, lazy: false, ..EvalConfig::default() }
}

/// A window no score leaves.
const WINDOW: i32 = super::EVAL_LIMIT + 1;

/// Evaluate every position once, untimed, to fill the pawn hash and the
/// material table. Kept out of line so a profiler can leave it out.
#[inline(never)]
pub fn warm_up(eval: &mut dyn DynEvaluation, positions: &mut [Position]) -> i64 {
    positions.iter_mut().map(|p| i64::from(eval.evaluate(p, -WINDOW, WINDOW))).sum()
}

/// Evaluate every position `reps` times in full; returns the sum of the
/// scores. Out of line with a stable name, so callgrind can collect
/// exactly these evaluations (`--toggle-collect='*evaluate_passes*'`).
#[inline(never)]
pub fn evaluate_passes(eval: &mut dyn DynEvaluation, positions: &mut [Position], reps: u32) -> i64 {
    let mut sum = 0i64;
    for _ in 0..reps {
        for p in positions.iter_mut() {
            sum += i64::from(std::hint::black_box(eval.evaluate(p, -WINDOW, WINDOW)));
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::groups::Group;
    use crate::eval::material::MaterialEntry;
    use crate::eval::trace::Term;
    use crate::rng::Rng;
    use crate::types::Color;

    #[test]
    fn the_list_covers_every_group_once_per_kind_with_distinct_masks() {
        assert_eq!(Ablation::FULL.mask, 0);
        for g in Group::ALL {
            assert_eq!(Ablation::of(g, false).is_some(), g.has_work(), "{g}");
            assert_eq!(Ablation::of(g, true).is_some(), g.has_state(), "{g}");
        }
        for (i, a) in Ablation::ALL.iter().enumerate() {
            assert_eq!(Ablation::parse(a.name), Some(*a));
            assert!(Ablation::ALL[..i].iter().all(|b| b.mask != a.mask && b.name != a.name));
            if let Some(g) = a.group {
                let want =
                    if a.state { format!("without_{}_state", g.name()) } else { format!("without_{}", g.name()) };
                assert_eq!(a.name, want);
            }
        }
        assert_eq!(Ablation::parse("without_bishop"), None);
    }

    /// A seeded sample of the shipped position files, all densities.
    pub(crate) fn shipped_sample(n: usize, seed: u64) -> Vec<Position> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../positions");
        let mut all = Vec::new();
        for file in ["lichess_popular_20k.epd", "endgames_20k.epd", "wac.epd", "ecm.epd"] {
            let epd = crate::position::epd::load_file(&dir.join(file)).expect("shipped positions");
            all.extend(epd.into_iter().map(|e| e.position().clone()));
        }
        let mut rng = Rng::new(seed);
        (0..n).map(|_| all[rng.index(all.len())].clone()).collect()
    }

    /// Each variant scores the full evaluation minus exactly its group's
    /// terms (the drawish scaling applied to what is left, except without
    /// material, which leaves the scaling out), and its trace holds every
    /// other term unchanged: the state later groups read is still built.
    #[test]
    fn each_variant_scores_the_full_evaluation_minus_its_group() {
        let w = Weights::default();
        let positions = shipped_sample(300, 0xAB1A7E);
        let mut checked = [0usize; 10];
        let mut nonzero = [0usize; 10];
        for kind in MobilityKind::ALL {
            let mut full = ablated(kind, Ablation::FULL, Weights::default(), full_eval_config());
            let mut variants: Vec<_> = Ablation::ALL
                .iter()
                .filter(|a| a.group.is_some() && a.score_exact())
                .map(|a| (*a, ablated(kind, *a, Weights::default(), full_eval_config())))
                .collect();
            for pos in &positions {
                let t = full.trace(&mut pos.clone());
                let score = full.evaluate(&mut pos.clone(), -WINDOW, WINDOW);
                assert_eq!(score, t.side_to_move, "{kind}: evaluate and trace agree on {}", pos.to_fen());
                for (a, v) in variants.iter_mut() {
                    let g = a.group.unwrap();
                    let left: i32 = Term::ALL
                        .iter()
                        .filter(|&&term| Group::of_term(term) != g)
                        .map(|&term| t.term(term, Color::White) - t.term(term, Color::Black))
                        .sum();
                    let raw = left.clamp(-crate::eval::EVAL_LIMIT, crate::eval::EVAL_LIMIT);
                    let white = if g == Group::Material { raw } else { MaterialEntry::new(pos, &w).scale(raw) };
                    let want = white * pos.side_to_move().sign();
                    let got = v.evaluate(&mut pos.clone(), -WINDOW, WINDOW);
                    assert_eq!(got, want, "{kind} {}: {}", a.name, pos.to_fen());
                    let group_score = score - got;
                    checked[g as usize] += 1;
                    nonzero[g as usize] += usize::from(group_score != 0);
                    // Every other term as in the full trace, the group's gone.
                    let vt = v.trace(&mut pos.clone());
                    for term in Term::ALL {
                        for c in Color::ALL {
                            let want = if Group::of_term(term) == g { 0 } else { t.term(term, c) };
                            assert_eq!(vt.term(term, c), want, "{kind} {} {term:?} {c:?}: {}", a.name, pos.to_fen());
                        }
                    }
                    if a.state {
                        assert_eq!(vt.en_prise, [crate::bitboard::Bitboard::EMPTY; 2], "records left out");
                    } else {
                        assert_eq!(vt.en_prise, t.en_prise, "{kind} {}: records as in full", a.name);
                    }
                }
            }
        }
        for g in Group::ALL.into_iter().filter(|g| g.has_work()) {
            assert!(checked[g as usize] > 0, "{g} checked");
            // Each scoring group changes the score somewhere in the sample.
            if g != Group::Hash {
                assert!(nonzero[g as usize] > 10, "{g} scored on only {} positions", nonzero[g as usize]);
            }
        }
    }

    /// The inputs alone score nothing and trace no term, on every kind.
    #[test]
    fn the_inputs_alone_score_nothing() {
        assert_eq!(Ablation::INPUTS_ONLY.name, "inputs_only");
        // Every group's work and state bit, set also for the parts a group
        // lacks.
        let all = Group::ALL.iter().fold(0, |m, g| m | g.work_bit() | g.state_bit());
        assert_eq!(Ablation::INPUTS_ONLY.mask, all);
        assert_eq!(all.count_ones(), 20);
        let positions = shipped_sample(60, 0x1A9);
        for kind in MobilityKind::ALL {
            let mut e = ablated(kind, Ablation::INPUTS_ONLY, Weights::default(), full_eval_config());
            for pos in &positions {
                assert_eq!(e.evaluate(&mut pos.clone(), -WINDOW, WINDOW), 0, "{kind}: {}", pos.to_fen());
                let t = e.trace(&mut pos.clone());
                for term in Term::ALL {
                    for c in Color::ALL {
                        assert_eq!(t.term(term, c), 0, "{kind} {term:?}: {}", pos.to_fen());
                    }
                }
            }
        }
    }

    /// Chain and mailbox agree exactly on every variant that keeps the
    /// state, as the full evaluations do.
    #[test]
    fn chain_and_mailbox_variants_agree() {
        let positions = shipped_sample(150, 0xC4A1);
        for a in Ablation::ALL.iter().filter(|a| !a.state) {
            let mut mailbox = ablated(MobilityKind::Mailbox, *a, Weights::default(), full_eval_config());
            let mut chain = ablated(MobilityKind::Chain, *a, Weights::default(), full_eval_config());
            for pos in &positions {
                let want = mailbox.evaluate(&mut pos.clone(), -WINDOW, WINDOW);
                assert_eq!(chain.evaluate(&mut pos.clone(), -WINDOW, WINDOW), want, "{}: {}", a.name, pos.to_fen());
            }
        }
    }

    /// Leaving out a group's state changes later groups' scores somewhere
    /// (it is timing only), and the passes give the same sum as single calls.
    #[test]
    fn state_variants_change_later_scores_and_passes_sum_scores() {
        let positions = shipped_sample(100, 0x57A7E);
        for kind in [MobilityKind::Mailbox, MobilityKind::Chain] {
            for g in [Group::PawnAttacks, Group::Knights, Group::Rooks, Group::Kings] {
                let a = Ablation::of(g, true).unwrap();
                let mut kept = ablated(
                    kind,
                    Ablation::of(g, false).unwrap_or(Ablation::FULL),
                    Weights::default(),
                    full_eval_config(),
                );
                let mut gone = ablated(kind, a, Weights::default(), full_eval_config());
                let differ = positions
                    .iter()
                    .filter(|p| {
                        kept.evaluate(&mut (*p).clone(), -WINDOW, WINDOW)
                            != gone.evaluate(&mut (*p).clone(), -WINDOW, WINDOW)
                    })
                    .count();
                assert!(differ > 0, "{kind} {}: later groups read the state", a.name);
            }
            let mut e = ablated(kind, Ablation::FULL, Weights::default(), full_eval_config());
            let mut ps = positions.clone();
            let once = warm_up(e.as_mut(), &mut ps);
            assert_eq!(evaluate_passes(e.as_mut(), &mut ps, 3), 3 * once);
            assert_eq!(e.kinds(), [kind; 4]);
        }
    }
}
