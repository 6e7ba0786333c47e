//! The evaluation, in this order (ARCHITECTURE.md, "Evaluation"): eval-hash
//! probe; material (from the material table); pawns (pawn hash); passer race;
//! bad trades; bishop pair; lazy exit with margins widened by king-safety
//! defects and passers; attack state from pawns; minors (side to move first),
//! rooks, queens — non-mobility terms, then mobility; kings; passers with
//! full attack information; en-prise and trapped records; scaling; eval-hash
//! store.
//!
//! [`Evaluation`] is generic over the mobility implementation per piece type
//! ([`mobility::MobilitySet`]) and the defect counter, so each engine
//! profile is one monomorphised instance. The mailbox set keeps attack words
//! in the position and never builds accumulators; the bitboard sets keep
//! accumulators and never touch the words. Weights live in
//! [`weights::Weights`].
//!
//! A third parameter, a skip mask (default 0: the whole evaluation), leaves
//! out groups of the work ([`groups`]) for ablation measurements
//! ([`ablation`]); the mask is a constant, so every variant is its own
//! monomorphised code and the default evaluation has no test for it. One
//! mask bit ([`groups::RUNTIME_SKIP`]) makes a copy that reads the groups to
//! leave out at run time instead, for the Shapley shares ([`shapley`]).

pub mod ablation;
pub mod attacks;
pub mod counters;
pub mod evaluator;
pub mod groups;
mod hash;
pub(crate) mod king;
pub(crate) mod material;
pub mod material_eval;
pub mod mobility;
// Public, unlike its neighbours king, material and pieces: with this module
// crate-private LLVM lays out `Evaluation::run` differently (depth-8 bench
// instructions +1.3M for bitboard, -1.4M for mailbox), and the public-surface
// change was not to move any measured figure.
pub mod passers;
pub mod pawns;
pub(crate) mod pieces;
#[cfg(feature = "eval-time")]
pub mod sampler;
pub mod shapley;
pub mod trace;
pub mod weights;

use crate::bitboard::Bitboard;
use crate::defects::DefectCounter;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};
use attacks::{record_king_attacks, record_pawn_attacks, Accumulators, AttackView, WordsView};
#[allow(unused_imports)]
use counters::{timed, EvalCounters, Phase};
use groups::{drops_state, drops_work, Group};
use hash::{HashTable, Keyed};
use king::KingInputs;
use material::MaterialEntry;
use mobility::{MobilityInputs, MobilitySet, PieceMobility};
use pawns::{PawnEntry, Shelter};
use std::marker::PhantomData;
use trace::{NoTrace, PieceTrace, Term, Trace, Tracer};
use weights::Weights;

pub use evaluator::{EngineEval, EvalStats, Evaluator};
pub use material_eval::MaterialEval;
pub use mobility::{ChainSet, DynamicSet, MailboxSet, MobilityKind, SingleProbeSet};

/// Expand `$body` once per listed colour, in that order, with `$c` bound
/// to the colour as a constant: the piece loops of a full evaluation read
/// colour-dependent tables, shifts and array slots, which then fold away
/// instead of being recomputed from a run-time colour.
macro_rules! each_color {
    ($c:ident in [$($color:expr),+] $body:block) => {{
        $({
            let $c: Color = $color;
            $body
        })+
    }};
}

/// Hash sizes and switches; each can be turned off for measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalConfig {
    /// Eval hash size in bytes (0 = off).
    pub eval_hash_bytes: usize,
    /// Pawn hash size in bytes (0 = off).
    pub pawn_hash_bytes: usize,
    /// Material table size in bytes (0 = off: every evaluation recomputes
    /// the material entry).
    pub material_hash_bytes: usize,
    /// Allow the lazy exit.
    pub lazy: bool,
}

impl Default for EvalConfig {
    fn default() -> EvalConfig {
        EvalConfig { eval_hash_bytes: 1 << 18, pawn_hash_bytes: 1 << 21, material_hash_bytes: 1 << 15, lazy: true }
    }
}

/// Per-position records for quiescence search, not scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Records {
    /// Pieces attacked on squares the enemy controls.
    pub en_prise: [Bitboard; 2],
    /// Zero-mobility pieces under enemy attack (traces only).
    pub trapped: [Bitboard; 2],
}

/// What the eval hash keeps of a full evaluation: 16 bytes, so four share
/// a cache line and none straddles two. The key's low bits are the slot's
/// index; its high 32 bits check it. Of the records only what the search
/// reads: the side to move's pieces en prise (the key includes the side to
/// move).
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct EvalEntry {
    check: u32,
    /// White's view.
    score: i32,
    en_prise: Bitboard,
}

impl EvalEntry {
    #[inline(always)]
    fn check_bits(key: u64) -> u32 {
        (key >> 32) as u32
    }
}

impl Keyed for EvalEntry {
    #[inline(always)]
    fn matches(&self, key: u64) -> bool {
        self.check == EvalEntry::check_bits(key)
    }
}

/// Scores beyond this are mate scores in search; evaluation stays inside.
pub const EVAL_LIMIT: i32 = 20_000;

/// One evaluator: weights, hashes, the adaptive lazy margin and counters.
/// `SKIP` leaves out groups of the work ([`groups::Group::work_bit`],
/// [`groups::Group::state_bit`]; 0: nothing, the engine's evaluation).
/// `LAYOUT` moves the evaluation's code along by that many bytes (0: not
/// at all, the engine's evaluation), so a measurement can average over
/// code layouts ([`ablation::LAYOUT_PADS`]).
pub struct Evaluation<M: MobilitySet, D: DefectCounter, const SKIP: u32 = 0, const LAYOUT: u32 = 0> {
    set: M,
    weights: Box<Weights>,
    /// The rook mobility weights by enemy army, from `weights`.
    rook_mobility: Box<pieces::ScaledRookMobility>,
    /// The king danger weights by enemy army, from `weights`.
    king_danger: Box<king::ScaledKingDanger>,
    /// The king centralisation weights by enemy army, from `weights`.
    king_center: Box<king::ScaledKingCenter>,
    config: EvalConfig,
    pawn_hash: HashTable<PawnEntry>,
    material_hash: HashTable<MaterialEntry>,
    eval_hash: HashTable<EvalEntry>,
    margin: i32,
    stats: EvalStats,
    records: Records,
    #[cfg(feature = "eval-time")]
    counters: EvalCounters,
    /// The skip mask read at run time when `SKIP` holds
    /// [`groups::RUNTIME_SKIP`] (0 otherwise).
    runtime_skip: u32,
    defects: PhantomData<D>,
}

impl<M: MobilitySet, D: DefectCounter> Evaluation<M, D> {
    /// An evaluation with mobility set `set`, `weights`, and the hash sizes
    /// and switches of `config`.
    pub fn new(set: M, weights: Weights, config: EvalConfig) -> Self {
        Self::ablated(set, weights, config)
    }
}

impl<M: MobilitySet, D: DefectCounter, const SKIP: u32, const LAYOUT: u32> Evaluation<M, D, SKIP, LAYOUT> {
    /// The groups to leave out are read at run time from `runtime_skip`
    /// ([`groups::RUNTIME_SKIP`]): one copy of the code for every variant.
    const RUNTIME: bool = SKIP & groups::RUNTIME_SKIP != 0;

    /// An evaluator with the groups of `SKIP` left out (see
    /// [`ablation::Ablation`] for the variants that are measured).
    pub fn ablated(set: M, weights: Weights, config: EvalConfig) -> Self {
        let margin = 2 * weights.lazy_margin_min;
        Evaluation {
            set,
            rook_mobility: Box::new(pieces::ScaledRookMobility::new(&weights)),
            king_danger: Box::new(king::ScaledKingDanger::new(&weights)),
            king_center: Box::new(king::ScaledKingCenter::new(&weights)),
            weights: Box::new(weights),
            config,
            pawn_hash: HashTable::with_bytes(config.pawn_hash_bytes),
            material_hash: HashTable::with_bytes(config.material_hash_bytes),
            eval_hash: HashTable::with_bytes(config.eval_hash_bytes),
            margin,
            stats: EvalStats::default(),
            records: Records::default(),
            #[cfg(feature = "eval-time")]
            counters: EvalCounters::calibrated(),
            runtime_skip: 0,
            defects: PhantomData,
        }
    }

    /// Leave out the groups of skip mask `mask` ([`groups`]) at run time:
    /// only in a copy whose `SKIP` holds [`groups::RUNTIME_SKIP`].
    ///
    /// # Panics
    ///
    /// In any other copy (it would read no mask).
    pub fn skip_at_run_time(&mut self, mask: u32) {
        assert!(Self::RUNTIME, "SKIP {SKIP:#x} does not read a mask at run time");
        self.runtime_skip = mask & !groups::RUNTIME_SKIP;
    }

    /// The weights it scores with.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Its mobility set.
    pub fn set(&self) -> &M {
        &self.set
    }

    /// Its hash sizes and switches.
    pub fn config(&self) -> EvalConfig {
        self.config
    }

    /// How its evaluations ended, since it was created.
    pub fn stats(&self) -> EvalStats {
        self.stats
    }

    /// Records of the last evaluation that reached them: the side to move's
    /// `en_prise` (what the search reads and the eval hash keeps) after a
    /// full evaluation or an eval-hash hit, the rest empty; all of them
    /// after a trace.
    pub fn records(&self) -> Records {
        self.records
    }

    /// Forget hashes and the adaptive margin (new game, new bench position).
    pub fn clear(&mut self) {
        self.pawn_hash.clear();
        self.material_hash.clear();
        self.eval_hash.clear();
        self.margin = 2 * self.weights.lazy_margin_min;
        self.records = Records::default();
    }

    /// Score from the side to move's view. May exit early when the score is
    /// clearly outside `(alpha, beta)`.
    #[inline]
    #[allow(clippy::let_and_return)]
    pub fn evaluate(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32 {
        #[cfg(not(feature = "eval-time"))]
        let v = self.run::<NoTrace, 0>(pos, alpha, beta, &mut NoTrace);
        #[cfg(feature = "eval-time")]
        let v = self.evaluate_counted(pos, alpha, beta);
        v
    }

    /// [`Evaluation::evaluate`] with the counters: the phases the counters
    /// chose for this evaluation ([`counters::Timing`]) are timed, and the
    /// whole around it when chosen. Ablation variants are never timed.
    #[cfg(feature = "eval-time")]
    #[inline]
    fn evaluate_counted(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32 {
        if SKIP != 0 {
            return self.run::<NoTrace, 0>(pos, alpha, beta, &mut NoTrace);
        }
        let timing = self.counters.begin();
        if timing == counters::TIME_SAMPLED {
            let outer = sampler::enter(sampler::GLUE);
            let v = self.run::<NoTrace, 2>(pos, alpha, beta, &mut NoTrace);
            sampler::leave(outer);
            return v;
        }
        if timing == counters::TIME_NOTHING {
            // The copy without the counters' tests.
            return self.run::<NoTrace, 0>(pos, alpha, beta, &mut NoTrace);
        }
        let whole = counters::times_whole(timing);
        let prefix = timing >= counters::TIME_MARK;
        let full = self.stats.full;
        let t0 = if whole || prefix { self.counters.read_start() } else { 0 };
        if prefix {
            self.counters.set_eval_start(t0);
            if timing == counters::TIME_MARK_START {
                let t = self.counters.read_stop();
                self.counters.add_mark(t.wrapping_sub(t0));
            }
        }
        let v = self.run::<NoTrace, 1>(pos, alpha, beta, &mut NoTrace);
        if whole {
            let t1 = self.counters.read_stop();
            self.counters.add_whole(t1.wrapping_sub(t0));
        } else if timing == counters::TIME_MARK_END {
            let t1 = self.counters.read_stop();
            self.counters.add_mark(t1.wrapping_sub(t0));
        }
        if prefix {
            self.counters.end_evaluation(self.stats.full != full);
        }
        v
    }

    /// The sampled copy ([`sampler`]: each phase writes its byte) of this
    /// evaluation, whatever its skip mask: the runtime-skip copy then runs
    /// the same machine code for the counters and for every subset the
    /// ablation times (feature `eval-time`).
    #[cfg(feature = "eval-time")]
    #[inline(never)]
    pub fn evaluate_phased(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32 {
        let outer = sampler::enter(sampler::GLUE);
        let v = self.run::<NoTrace, 2>(pos, alpha, beta, &mut NoTrace);
        sampler::leave(outer);
        v
    }

    /// The per-phase tick counters (feature `eval-time`).
    #[cfg(feature = "eval-time")]
    pub fn counters(&self) -> &EvalCounters {
        &self.counters
    }

    /// The counters, to change their mode or rotation (feature `eval-time`).
    #[cfg(feature = "eval-time")]
    pub fn counters_mut(&mut self) -> &mut EvalCounters {
        &mut self.counters
    }

    /// Zero the per-phase counters (feature `eval-time`).
    #[cfg(feature = "eval-time")]
    pub fn reset_counters(&mut self) {
        self.counters.reset();
    }

    /// A full evaluation with every term recorded (no hash read, no lazy
    /// exit; the hashes and counters are left as they were).
    pub fn trace(&mut self, pos: &mut Position) -> Trace {
        let mut t = Trace::default();
        let (stats, margin) = (self.stats, self.margin);
        let score = self.run::<Trace, 0>(pos, -i32::MAX, i32::MAX, &mut t);
        (self.stats, self.margin) = (stats, margin);
        t.side_to_move = score;
        t.white = score * pos.side_to_move().sign();
        t.en_prise = self.records.en_prise;
        t.trapped = self.records.trapped;
        t
    }

    /// The evaluation. `TIMED` (feature `eval-time`): 0, time nothing (traces,
    /// ablation variants, evaluations the counters leave untimed); 1, time
    /// the phases the counters chose for the current evaluation, tested at
    /// each phase; 2, write each phase to the sampler's register
    /// (`eval::sampler`). (A copy per choice of phases, with no tests, made the
    /// evaluation cost twice as much even untimed: seventeen copies of it
    /// changed what the compiler inlined.)
    fn run<T: Tracer, const TIMED: u32>(&mut self, pos: &mut Position, alpha: i32, beta: i32, t: &mut T) -> i32 {
        // The layout probe (engine/build.rs, scripts/layout-sweep.sh): a
        // jump over padding moves this copy's code along by the padding.
        #[cfg(layout_pad)]
        // SAFETY: a jump to the label right after the padding; no state is
        // touched.
        unsafe {
            core::arch::asm!(
                concat!("jmp 2f\n.skip ", env!("BOARDBENCH_LAYOUT_PAD_BYTES"), ", 0xcc\n2:"),
                options(nomem, nostack, preserves_flags)
            );
        }
        if LAYOUT != 0 {
            // The same jump in the program: this copy's code sits LAYOUT bytes
            // further along than the copy without it.
            // SAFETY: as above.
            unsafe {
                core::arch::asm!(
                    "jmp 2f",
                    ".skip {pad}, 0xcc",
                    "2:",
                    pad = const LAYOUT,
                    options(nomem, nostack, preserves_flags)
                );
            }
        }
        // What this copy leaves out (see [`groups`]): `SKIP`, and with
        // `RUNTIME_SKIP` in it the evaluator's `runtime_skip` too. In every
        // other copy the mask is the constant `SKIP`, so the engine's
        // evaluation tests nothing.
        let skip = SKIP | if Self::RUNTIME { self.runtime_skip } else { 0 };
        let drop_hash = drops_work(skip, Group::Hash);
        let drop_material = drops_work(skip, Group::Material);
        let drop_pawns = drops_work(skip, Group::Pawns);
        let drop_knights = drops_work(skip, Group::Knights);
        let drop_bishops = drops_work(skip, Group::Bishops);
        let drop_rooks = drops_work(skip, Group::Rooks);
        let drop_queens = drops_work(skip, Group::Queens);
        let drop_kings = drops_work(skip, Group::Kings);
        let drop_passers = drops_work(skip, Group::Passers);
        // The state a group builds for later ones (timing only).
        let no_pawn_attacks = drops_state(skip, Group::PawnAttacks);
        let no_knight_attacks = drops_state(skip, Group::Knights);
        let no_bishop_attacks = drops_state(skip, Group::Bishops);
        let no_rook_attacks = drops_state(skip, Group::Rooks);
        let no_queen_attacks = drops_state(skip, Group::Queens);
        let no_king_attacks = drops_state(skip, Group::Kings);
        let no_records = drops_state(skip, Group::Passers);
        let stm = pos.side_to_move();
        if !T::ON && !drop_hash {
            let hit = timed!(self, Phase::HashProbe, { self.eval_hash.probe(pos.key()).copied() });
            if let Some(e) = hit {
                self.stats.hash_hits += 1;
                self.records = Records::default();
                self.records.en_prise[stm.index()] = e.en_prise;
                return e.score * stm.sign();
            }
        }
        let mut score = [0i32; 2];
        // Add a term for a side, and tell the tracer.
        macro_rules! add {
            ($term:expr, $color:expr, $value:expr) => {{
                let (color, value) = ($color, $value);
                score[color.index()] += value;
                t.term($term, color, value);
            }};
        }

        // Both entries are read where they lie in their tables, not copied
        // (a pawn entry is about 150 bytes); a miss builds it in this frame.
        let (mat_missed, pawns_missed);
        // The entries are inputs every group reads: timed on their own too.
        let mat: &MaterialEntry = timed!(self, Phase::Material, {
            let mat = timed!(self, Phase::MaterialEntry, {
                match self.material_hash.probe(MaterialEntry::table_key(pos.material_key())) {
                    Some(e) => e,
                    None => {
                        mat_missed = material_entry_miss(&mut self.material_hash, pos, &self.weights);
                        &mat_missed
                    }
                }
            });
            if !drop_material {
                for c in Color::ALL {
                    add!(Term::Material, c, mat.material[c.index()]);
                }
            }
            mat
        });
        let entry: &PawnEntry = timed!(self, Phase::Pawns, {
            let entry = timed!(self, Phase::PawnEntry, {
                match self.pawn_hash.probe(pos.pawn_key()) {
                    Some(e) => e,
                    None => {
                        pawns_missed = pawn_entry_miss(&mut self.pawn_hash, pos, &self.weights);
                        &pawns_missed
                    }
                }
            });
            if !drop_pawns {
                let w = &self.weights;
                let majors = mat.majors as usize;
                for c in Color::ALL {
                    add!(Term::Pawns, c, entry.score[c.index()]);
                    add!(Term::DoubledPawns, c, -w.pawn_doubled[majors] * entry.doubled[c.index()] as i32);
                }
            }
            entry
        });
        let w: &Weights = &self.weights;
        timed!(self, Phase::PasserRace, {
            if !drop_pawns {
                for c in Color::ALL {
                    add!(Term::PasserRace, c, passers::race(pos, w, entry, mat, c));
                }
            }
        });
        timed!(self, Phase::BadTrades, {
            if !drop_material {
                for c in Color::ALL {
                    add!(Term::BadTrades, c, mat.bad_trades[c.index()]);
                    add!(Term::LoneBishop, c, mat.lone_bishop_wings(pos, w, c));
                }
            }
        });
        timed!(self, Phase::BishopPair, {
            if !drop_material {
                for c in Color::ALL {
                    add!(Term::BishopPair, c, mat.bishop_pair[c.index()]);
                }
            }
        });

        // Lazy exit: the cheap part plus a margin against the window; when
        // that says exit, widen by king-safety defects and passers and test
        // again.
        let lazy_white = score[0] - score[1];
        if !T::ON && !drop_hash && self.config.lazy {
            let v = lazy_white * stm.sign();
            let margin = self.margin;
            let exit = timed!(self, Phase::Lazy, {
                let mut exit = false;
                if v + margin <= alpha || v - margin >= beta {
                    // The passers' part is summed in the pawn entry.
                    let mut widen = margin + entry.lazy_passer_margin;
                    for c in Color::ALL {
                        let d = D::count(pos, c).count.clamp(0, 15) as usize;
                        widen += w.lazy_defect_margin[d];
                    }
                    exit = v + widen <= alpha || v - widen >= beta;
                }
                exit
            });
            if exit {
                self.stats.lazy += 1;
                self.records = Records::default();
                return v;
            }
        }
        self.stats.full += 1;
        // The cost of an empty timed region, in place (counters only).
        timed!(self, Phase::Calibration, {});

        // Attack state from pawns, then the pieces in order.
        let set = self.set;
        let (words, accs) = (set.words(), set.accs());
        let mut acc = Accumulators::default();
        timed!(self, Phase::PawnAttacks, {
            if words {
                timed!(self, Phase::ClearWords, {
                    pos.clear_attack_words();
                });
            }
            if !no_pawn_attacks {
                record_pawn_attacks(pos, &mut acc, words, accs);
            }
        });
        let inputs = MobilityInputs {
            stationary: entry.stationary,
            king_zone: Color::ALL.map(|c| crate::tables::KING_ATTACKS[pos.king_square(c).index()]),
        };
        // Zero-mobility pieces, for the trapped records only traces read.
        let mut zero_mobility = Bitboard::EMPTY;
        let mut note = |t: &mut T, color: Color, kind: PieceType, square: Square, m: &PieceMobility| {
            if T::ON {
                if m.mobility == 0 {
                    zero_mobility = zero_mobility.with(square);
                }
                t.piece(PieceTrace { color, kind, square, mobility: *m });
            }
        };

        // One colour's knights, then its bishops. Expanded per colour, side
        // to move first, with the colour a constant (see `each_color`): a
        // loop over `[stm, stm.flip()]` left every colour-dependent table
        // index, shift and score slot to be computed at run time.
        macro_rules! minors {
            ($c:expr) => {{
                let c: Color = $c;
                timed!(self, Phase::Knights, {
                    for sq in pos.bb(c, PieceType::Knight) {
                        if !drop_knights {
                            add!(Term::Knights, c, pieces::knight(pos, w, entry, c, sq));
                        }
                        if !no_knight_attacks {
                            let m = set.knight(pos, &mut acc, &inputs, c, sq);
                            if !drop_knights {
                                add!(Term::KnightMobility, c, pieces::knight_mobility(w, &m));
                                note(t, c, PieceType::Knight, sq, &m);
                            }
                        }
                    }
                });
                timed!(self, Phase::Bishops, {
                    for sq in pos.bb(c, PieceType::Bishop) {
                        if !drop_bishops {
                            add!(Term::Bishops, c, pieces::bishop(pos, w, entry, c, sq));
                        }
                        if !no_bishop_attacks {
                            let m = set.bishop(pos, &mut acc, &inputs, c, sq);
                            if !drop_bishops {
                                let (mobility, best) = pieces::bishop_mobility(w, &m);
                                add!(Term::BishopMobility, c, mobility);
                                add!(Term::BishopBestRay, c, best);
                                note(t, c, PieceType::Bishop, sq, &m);
                            }
                        }
                    }
                });
            }};
        }
        match stm {
            Color::White => {
                minors!(Color::White);
                minors!(Color::Black);
            }
            Color::Black => {
                minors!(Color::Black);
                minors!(Color::White);
            }
        }
        timed!(self, Phase::Rooks, {
            each_color!(c in [Color::White, Color::Black] {
                let scaled = self.rook_mobility.facing(mat.army[c.flip().index()]);
                for sq in pos.bb(c, PieceType::Rook) {
                    if !drop_rooks {
                        add!(Term::Rooks, c, pieces::rook(pos, w, entry, c, sq));
                    }
                    if !no_rook_attacks {
                        let m = set.rook(pos, &mut acc, &inputs, c, sq);
                        if !drop_rooks {
                            let (mobility, best, connected, trapped) =
                                pieces::rook_mobility(pos, w, scaled, c, sq, &m);
                            add!(Term::RookMobility, c, mobility);
                            add!(Term::RookBestRay, c, best);
                            add!(Term::RookConnected, c, connected);
                            add!(Term::RookTrapped, c, trapped);
                            note(t, c, PieceType::Rook, sq, &m);
                        }
                    }
                }
            });
        });
        timed!(self, Phase::Queens, {
            each_color!(c in [Color::White, Color::Black] {
                for sq in pos.bb(c, PieceType::Queen) {
                    if !drop_queens {
                        add!(Term::Queens, c, pieces::queen(pos, w, c, sq));
                    }
                    if !no_queen_attacks {
                        let m = set.queen(pos, &mut acc, &inputs, c, sq);
                        if !drop_queens {
                            let (mobility, ring) = pieces::queen_mobility(w, &m);
                            add!(Term::QueenMobility, c, mobility);
                            add!(Term::QueenKingRing, c, ring);
                            note(t, c, PieceType::Queen, sq, &m);
                        }
                    }
                }
            });
        });

        // Kings: both kings' attack bits first, then each king.
        let mut new_shelter: [Option<Shelter>; 2] = [None; 2];
        timed!(self, Phase::Kings, {
            if no_king_attacks {
                // The views still need the union of the other classes.
                attacks::finish_without_kings(&mut acc, accs);
            } else {
                record_king_attacks(pos, &mut acc, words, accs);
            }
            for c in [Color::Black, Color::White] {
                if drop_kings {
                    break;
                }
                // The danger counter only counts with enough enemy material.
                let enemy_army = mat.army[c.flip().index()];
                let safety = if enemy_army >= king::DANGER_ARMY {
                    // The shelter is cached per king square in the pawn
                    // entry (written back once the entry is no longer read).
                    let k = pos.king_square(c);
                    let shelter = entry.shelter[c.index()].get(k).unwrap_or_else(|| {
                        let v = king::shelter(w, entry, c, k);
                        new_shelter[c.index()] = Some(Shelter::new(k, v));
                        v
                    });
                    let base = D::count(pos, c).pointing / 2 + shelter;
                    let index = if words {
                        king::danger(pos, &WordsView, w, enemy_army, c, base, t)
                    } else {
                        king::danger(pos, &acc, w, enemy_army, c, base, t)
                    };
                    -self.king_danger.penalty(enemy_army, index)
                } else {
                    t.king(c, KingInputs::default());
                    0
                };
                add!(Term::KingSafety, c, safety);
                add!(Term::KingUncastled, c, king::uncastled(pos, w, mat, c));
                add!(Term::KingEndgame, c, king::endgame(pos, w, &self.king_center, entry, mat, c));
            }
        });

        timed!(self, Phase::Passers, {
            for c in Color::ALL {
                if drop_passers {
                    break;
                }
                let v = if words {
                    passers::with_attacks(pos, &WordsView, w, entry, mat, c)
                } else {
                    passers::with_attacks(pos, &acc, w, entry, mat, c)
                };
                add!(Term::Passers, c, v);
            }
        });

        if new_shelter != [None; 2] {
            let key = entry.key;
            if let Some(e) = self.pawn_hash.probe_mut(key) {
                for (slot, new) in e.shelter.iter_mut().zip(new_shelter) {
                    if let Some(new) = new {
                        *slot = new;
                    }
                }
            }
        }

        let records = timed!(self, Phase::Records, {
            // The search reads only the side to move's pieces en prise (what
            // the eval hash keeps); traces read every record.
            let colors: &[Color] = if T::ON { &Color::ALL } else { &[stm] };
            if no_records {
                Records::default()
            } else if words {
                records(pos, &WordsView, colors, zero_mobility)
            } else {
                records(pos, &acc, colors, zero_mobility)
            }
        });

        let (raw, white) = timed!(self, Phase::Scaling, {
            let raw = (score[0] - score[1]).clamp(-EVAL_LIMIT, EVAL_LIMIT);
            (raw, if drop_material { raw } else { mat.scale(raw) })
        });
        t.scale(white - raw);
        self.records = records;
        timed!(self, Phase::HashStore, {
            if !drop_hash {
                let entry = EvalEntry {
                    check: EvalEntry::check_bits(pos.key()),
                    score: white,
                    en_prise: records.en_prise[stm.index()],
                };
                self.eval_hash.store(pos.key(), entry);
            }
        });
        if !drop_hash {
            // Adapt the lazy margin to how far full evals stray from the cheap part.
            let stray = (white - lazy_white).abs();
            self.margin = stray.max(self.margin - self.margin / 16).max(self.weights.lazy_margin_min);
        }
        white * stm.sign()
    }
}

/// Build and store the material entry the table lacked.
#[cold]
fn material_entry_miss(table: &mut HashTable<MaterialEntry>, pos: &Position, w: &Weights) -> MaterialEntry {
    let e = MaterialEntry::new(pos, w);
    table.store(e.key, e);
    e
}

/// Build and store the pawn entry the hash lacked.
#[cold]
fn pawn_entry_miss(table: &mut HashTable<PawnEntry>, pos: &Position, w: &Weights) -> PawnEntry {
    let e = pawns::evaluate_pawns(pos, w);
    table.store(e.key, e);
    e
}

/// En-prise and trapped records of `colors` from the complete attack state.
fn records<V: AttackView>(pos: &Position, view: &V, colors: &[Color], zero_mobility: Bitboard) -> Records {
    let mut r = Records::default();
    for &c in colors {
        let enemy = c.flip();
        let pieces = pos.color_bb(c) & !pos.bb(c, PieceType::Pawn) & !pos.bb(c, PieceType::King);
        let attacked = view.attacked(pos, enemy, pieces, attacks::DIRECT_BITS);
        r.trapped[c.index()] = attacked & zero_mobility;
        r.en_prise[c.index()] = view.en_prise(pos, c, attacked);
    }
    r
}

/// The mailbox profile's evaluation.
pub type MailboxEval = Evaluation<MailboxSet, crate::defects::MailboxDefects>;
/// The bitboard profile's evaluation.
pub type ChainEval = Evaluation<ChainSet, crate::defects::BitboardDefects>;
/// The single-probe profile's evaluation.
pub type SingleProbeEval = Evaluation<SingleProbeSet, crate::defects::BitboardDefects>;
