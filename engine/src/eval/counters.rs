//! Per-phase cycle counters for the evaluation (cargo feature `eval-time`,
//! off by default). Each phase of the evaluation runs inside `timed!`,
//! which with the feature off expands to the bare block, so the evaluation
//! compiles to the same code as if the counters did not exist
//! (`scripts/eval-time-zero-cost.sh` proves it with instruction counts).
//!
//! With the feature on, a phase is timed (TSC reads around it: plain
//! `rdtsc` by default, fenced on request, [`EvalCounters::set_fenced`])
//! when the current evaluation's counter mode says so:
//!
//! * [`CounterMode::Rotating`] (the default): each evaluation times exactly
//!   one [`Slot`] — one of the ten [`Group`]s (all of its phases), one of
//!   the inputs (material entry, pawn entry, clearing the attack words),
//!   the whole evaluation, or an empty region (the in-place calibration) —
//!   cycling through them in runs of [`RUN_LENGTH`] evaluations (or of one
//!   pass over a fixed set of positions, [`EvalCounters::set_run_length`]).
//!   A group's mean comes from the evaluations that timed it. A timed
//!   evaluation pays one start/stop pair (two to four for the groups whose
//!   phases are apart in the code: hash, material, pawns, knights, bishops,
//!   passers) instead of twenty, plus a test at each phase. With a duty of
//!   N ([`EvalCounters::set_duty`]) one run in N is timed and the others
//!   run the evaluation's copy without those tests, at the cost of an
//!   evaluation without counters.
//! * [`CounterMode::Prefix`]: each full evaluation reads one mark, cycling
//!   through them in runs as above: the time from the evaluation's start
//!   to the end of one phase ([`MARK_POINTS`]), to a read right after the
//!   start (the pair) or to the evaluation's return (the whole). A phase
//!   costs its mark's mean less the previous mark's, so the rows add up to
//!   the whole by construction: work still in flight at a mark is charged
//!   to the next phase instead of being lost between two regions, which is
//!   why the rotating mode's plain reads come out short. One pair per
//!   evaluation, no duty; only evaluations that go full count (a lazy exit
//!   would reach the early marks and not the later ones).
//! * [`CounterMode::AllPhases`]: every phase, the calibration region and
//!   the whole, in every evaluation (the old mode: the counters then cost
//!   several times what they measure).
//! * [`CounterMode::Fixed`]: every evaluation times the same slot (to
//!   measure what timing that slot costs an evaluation).
//! * [`CounterMode::Sampled`]: nothing is timed; every evaluation runs the
//!   copy that writes the phase it enters to one byte, which a timer signal
//!   samples (`eval::sampler`): a phase's share of the samples is its
//!   share of the evaluation's time.
//! * [`CounterMode::Off`]: nothing is timed (only evaluations are counted).
//!
//! The cost of a start/stop pair is calibrated in place: the empty region
//! sits inside the evaluation, after the lazy exit, and its mean is
//! subtracted from every timed region ([`CounterSummary`]); no phase goes
//! below zero. The median of a tight loop of pairs, taken when the
//! counters are made, is the fallback before enough in-place samples
//! exist. Regions an interrupt stretched are left out
//! ([`OUTLIER_TICKS`], [`CALIBRATION_OUTLIER_TICKS`]). Per slot, the lowest
//! mean of a complete run is kept too (a floor, comparable with the
//! floors of an ablation when every run covers the same positions).

use super::groups::Group;

/// The timed phases, in evaluation order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The eval-hash probe.
    HashProbe,
    /// Building or finding the material entry (an input, inside `Material`).
    MaterialEntry,
    /// Material, from the material entry.
    Material,
    /// Building or finding the pawn entry (an input, inside `Pawns`).
    PawnEntry,
    /// Pawn structure from the pawn entry.
    Pawns,
    /// The passer race when a side has a bare king.
    PasserRace,
    /// Bad trades.
    BadTrades,
    /// The bishop pair.
    BishopPair,
    /// The lazy exit test and its widening by defects and passers.
    Lazy,
    /// The empty region of the in-place calibration.
    Calibration,
    /// Clearing the attack words (mailbox set only; an input, inside `PawnAttacks`).
    ClearWords,
    /// The attack state from pawns.
    PawnAttacks,
    /// Knights: terms and mobility.
    Knights,
    /// Bishops: terms and mobility.
    Bishops,
    /// Rooks: terms and mobility.
    Rooks,
    /// Queens: terms and mobility.
    Queens,
    /// Kings: safety and the endgame terms.
    Kings,
    /// Passers with full attack information.
    Passers,
    /// The en-prise and trapped records.
    Records,
    /// Drawish scaling.
    Scaling,
    /// The eval-hash store.
    HashStore,
}

/// Inputs every group reads, timed on their own (an ablation cannot leave
/// them out; see [`super::groups`]). Each is timed inside a phase of a
/// group ([`Phase::parent`]), which reports its cost without them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Building or finding the material entry.
    MaterialEntry,
    /// Building or finding the pawn entry.
    PawnEntry,
    /// Clearing the attack words (mailbox set only).
    ClearWords,
}

impl Input {
    /// Every input, in evaluation order.
    pub const ALL: [Input; 3] = [Input::MaterialEntry, Input::PawnEntry, Input::ClearWords];

    /// The input's name in reports and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Input::MaterialEntry => "material_entry",
            Input::PawnEntry => "pawn_entry",
            Input::ClearWords => "clear_words",
        }
    }
}

/// What one evaluation of the rotating mode times.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// One of the ten groups, all of its phases.
    Group(Group),
    /// One input alone.
    Input(Input),
    /// The whole evaluation, one pair around it.
    Whole,
    /// An empty region inside the evaluation (the pair's own cost).
    Calibration,
}

/// Number of slots the rotating mode cycles through.
pub const SLOTS: usize = 15;

impl Slot {
    /// Every slot, in the order the rotating mode visits them.
    pub const ALL: [Slot; SLOTS] = {
        let mut all = [Slot::Whole; SLOTS];
        let mut i = 0;
        while i < Group::ALL.len() {
            all[i] = Slot::Group(Group::ALL[i]);
            i += 1;
        }
        all[10] = Slot::Input(Input::MaterialEntry);
        all[11] = Slot::Input(Input::PawnEntry);
        all[12] = Slot::Input(Input::ClearWords);
        all[13] = Slot::Whole;
        all[14] = Slot::Calibration;
        all
    };

    /// The slot's index in [`Slot::ALL`].
    pub const fn index(self) -> usize {
        match self {
            Slot::Group(g) => g as usize,
            Slot::Input(i) => 10 + i as usize,
            Slot::Whole => 13,
            Slot::Calibration => 14,
        }
    }

    /// The slot's name in reports and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Slot::Group(g) => g.name(),
            Slot::Input(i) => i.name(),
            Slot::Whole => "whole",
            Slot::Calibration => "calibration",
        }
    }
}

/// Number of phases.
pub const PHASES: usize = 21;

impl Phase {
    /// Every phase, in evaluation order.
    pub const ALL: [Phase; PHASES] = [
        Phase::HashProbe,
        Phase::MaterialEntry,
        Phase::Material,
        Phase::PawnEntry,
        Phase::Pawns,
        Phase::PasserRace,
        Phase::BadTrades,
        Phase::BishopPair,
        Phase::Lazy,
        Phase::Calibration,
        Phase::ClearWords,
        Phase::PawnAttacks,
        Phase::Knights,
        Phase::Bishops,
        Phase::Rooks,
        Phase::Queens,
        Phase::Kings,
        Phase::Passers,
        Phase::Records,
        Phase::Scaling,
        Phase::HashStore,
    ];

    /// The phase's name in reports and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::HashProbe => "hash_probe",
            Phase::MaterialEntry => "material_entry",
            Phase::Material => "material",
            Phase::PawnEntry => "pawn_entry",
            Phase::Pawns => "pawns",
            Phase::PasserRace => "passer_race",
            Phase::BadTrades => "bad_trades",
            Phase::BishopPair => "bishop_pair",
            Phase::Lazy => "lazy",
            Phase::Calibration => "calibration",
            Phase::ClearWords => "clear_words",
            Phase::PawnAttacks => "pawn_attacks",
            Phase::Knights => "knights",
            Phase::Bishops => "bishops",
            Phase::Rooks => "rooks",
            Phase::Queens => "queens",
            Phase::Kings => "kings",
            Phase::Passers => "passers",
            Phase::Records => "records",
            Phase::Scaling => "scaling",
            Phase::HashStore => "hash_store",
        }
    }

    /// The slot (group, input or calibration) the phase is timed under.
    pub const fn slot(self) -> Slot {
        match self {
            Phase::HashProbe | Phase::Lazy | Phase::HashStore => Slot::Group(Group::Hash),
            Phase::MaterialEntry => Slot::Input(Input::MaterialEntry),
            Phase::Material | Phase::BadTrades | Phase::BishopPair | Phase::Scaling => Slot::Group(Group::Material),
            Phase::PawnEntry => Slot::Input(Input::PawnEntry),
            Phase::Pawns | Phase::PasserRace => Slot::Group(Group::Pawns),
            Phase::Calibration => Slot::Calibration,
            Phase::ClearWords => Slot::Input(Input::ClearWords),
            Phase::PawnAttacks => Slot::Group(Group::PawnAttacks),
            Phase::Knights => Slot::Group(Group::Knights),
            Phase::Bishops => Slot::Group(Group::Bishops),
            Phase::Rooks => Slot::Group(Group::Rooks),
            Phase::Queens => Slot::Group(Group::Queens),
            Phase::Kings => Slot::Group(Group::Kings),
            Phase::Passers | Phase::Records => Slot::Group(Group::Passers),
        }
    }

    #[inline(always)]
    /// The phase's bit in a mask of phases.
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }

    /// The phase whose region holds this one's (the inputs sit inside
    /// their groups' phases, so that the evaluation keeps its shape).
    pub const fn parent(self) -> Option<Phase> {
        match self {
            Phase::MaterialEntry => Some(Phase::Material),
            Phase::PawnEntry => Some(Phase::Pawns),
            Phase::ClearWords => Some(Phase::PawnAttacks),
            _ => None,
        }
    }
}

/// The phases each slot times, as a mask of [`Phase::bit`]s.
const SLOT_PHASES: [u32; SLOTS] = {
    let mut masks = [0u32; SLOTS];
    let mut i = 0;
    while i < PHASES {
        let p = Phase::ALL[i];
        masks[p.slot().index()] |= p.bit();
        i += 1;
    }
    masks
};

/// Every phase.
const ALL_PHASES: u32 = (1 << PHASES) - 1;

/// What one evaluation times: a slot's index, [`TIME_ALL`] or
/// [`TIME_NOTHING`].
pub type Timing = u8;

/// Every phase and the whole (all-phases mode).
pub const TIME_ALL: Timing = SLOTS as Timing;

/// Nothing (counters off, ablation variants, traces).
pub const TIME_NOTHING: Timing = SLOTS as Timing + 1;

/// Prefix mode: the end of one phase, from the evaluation's start.
pub const TIME_MARK: Timing = SLOTS as Timing + 2;

/// Prefix mode: the start mark (a read right after the start's: the pair).
pub const TIME_MARK_START: Timing = SLOTS as Timing + 3;

/// Prefix mode: the end mark (after the evaluation returns: the whole).
pub const TIME_MARK_END: Timing = SLOTS as Timing + 4;

/// Sampled mode: the copy that writes its phase to `eval::sampler::PHASE`.
pub const TIME_SAMPLED: Timing = SLOTS as Timing + 5;

/// The ends of phases the prefix mode reads, in the order the evaluation
/// reaches them: a phase and how many of its regions come before the one
/// marked (the knights and bishops are timed once per colour, one
/// colour's knights and bishops before the other's).
pub const MARK_POINTS: [(Phase, u8); PHASES + 2] = {
    let mut points = [(Phase::HashProbe, 0); PHASES + 2];
    let mut i = 0;
    let mut n = 0;
    while i < PHASES {
        let p = Phase::ALL[i];
        points[n] = (p, 0);
        n += 1;
        if matches!(p, Phase::Knights) {
            points[n] = (Phase::Bishops, 0);
            points[n + 1] = (Phase::Knights, 1);
            points[n + 2] = (Phase::Bishops, 1);
            n += 3;
            i += 1; // the first bishops are placed
        }
        i += 1;
    }
    points
};

/// Marks of the prefix mode: [`MARK_POINTS`], then [`MARK_START`] and
/// [`MARK_END`].
pub const MARKS: usize = MARK_POINTS.len() + 2;

/// The start mark's index: a read right after the evaluation's start read.
pub const MARK_START: usize = MARK_POINTS.len();

/// The end mark's index: after the evaluation returned.
pub const MARK_END: usize = MARK_POINTS.len() + 1;

/// The phases an evaluation with `timing` times, as [`Phase::bit`]s.
#[inline(always)]
pub const fn timed_phases(timing: Timing) -> u32 {
    if (timing as usize) < SLOTS {
        SLOT_PHASES[timing as usize]
    } else if timing == TIME_ALL {
        ALL_PHASES
    } else {
        0
    }
}

/// Is the whole evaluation timed with `timing`?
#[inline(always)]
pub const fn times_whole(timing: Timing) -> bool {
    timing == Slot::Whole.index() as Timing || timing == TIME_ALL
}

/// Consecutive evaluations that time the same slot in the rotating mode.
/// Changing slot every evaluation made the test at each timed site flip
/// with a period of fifteen, which the branch predictor misses; in runs
/// the tests are predicted and an untimed site costs almost nothing.
pub const RUN_LENGTH: u32 = 64;

/// Which regions an evaluation times.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CounterMode {
    /// One slot per evaluation, cycling.
    #[default]
    Rotating,
    /// Every phase and the whole in every evaluation.
    AllPhases,
    /// One slot in every evaluation.
    Fixed(Slot),
    /// One mark per evaluation, cycling: the time from the evaluation's
    /// start to the end of one phase ([`MARK_POINTS`]); a phase's cost is the
    /// difference of two neighbouring marks' means.
    Prefix,
    /// No timer reads: every evaluation runs the copy that writes the
    /// phase it enters to `eval::sampler::PHASE`, for a
    /// `eval::sampler::Sampler` to count.
    Sampled,
    /// Nothing.
    Off,
}

impl CounterMode {
    /// The mode's name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            CounterMode::Rotating => "rotating",
            CounterMode::AllPhases => "all-phases",
            CounterMode::Fixed(_) => "fixed",
            CounterMode::Prefix => "prefix",
            CounterMode::Sampled => "sampled",
            CounterMode::Off => "off",
        }
    }
}

/// The lowest mean over complete runs of one slot (rotating mode): raw
/// ticks and regions per evaluation of that run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunFloor {
    /// Raw ticks per evaluation of that run (pairs included).
    pub raw_ticks_per_eval: f64,
    /// Timed regions per evaluation of that run.
    pub regions_per_eval: f64,
    /// Complete, uninterrupted runs seen.
    pub runs: u64,
}

/// What the current run of the rotating mode has timed so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Run {
    ticks: u64,
    regions: u64,
    evals: u32,
    /// A region was interrupted (left out): the run gives no floor.
    spoiled: bool,
}

/// Raw ticks and region counts per phase and for the whole evaluation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalCounters {
    mode: CounterMode,
    /// Ticks per phase, summed over the regions that timed it.
    pub ticks: [u64; PHASES],
    /// Timed regions per phase.
    pub calls: [u64; PHASES],
    /// Ticks of the evaluations timed whole (pair included).
    pub whole_ticks: u64,
    /// Evaluations timed whole.
    pub whole_calls: u64,
    /// Evaluations begun (timed or not; untimed runs of the duty
    /// included).
    pub evals: u64,
    /// Evaluations that timed each slot (rotating mode).
    pub slot_evals: [u64; SLOTS],
    /// Median ticks of an empty start/stop pair in a tight loop, measured
    /// when the counters were made (the fallback calibration).
    pub region_overhead: u64,
    /// Regions per phase longer than [`OUTLIER_TICKS`], left out.
    pub discarded: [u64; PHASES],
    /// Whole evaluations longer than [`OUTLIER_TICKS`], left out.
    pub whole_discarded: u64,
    /// Fenced timer reads (else plain `rdtsc`).
    fenced: bool,
    /// The phases the current evaluation times ([`timed_phases`]).
    active: u32,
    /// The slot the current run of evaluations times, the next run's, and
    /// the evaluations left in the current run (rotating mode).
    slot: usize,
    next_slot: usize,
    run_left: u32,
    /// Evaluations per run (0: [`RUN_LENGTH`]).
    run_length: u32,
    /// One run in this many is timed (0 or 1: every run); the others run
    /// the evaluation without the counters' tests.
    duty: u32,
    /// Untimed runs left before the next timed one.
    idle_runs: u32,
    /// The current run is untimed.
    idle: bool,
    run: Run,
    /// Per slot, the lowest run mean (rotating mode).
    floors: [Option<RunFloor>; SLOTS],
    /// Prefix mode: the current evaluation's start read.
    eval_start: u64,
    /// Prefix mode: the mark the current run of evaluations reads, and the
    /// next run's; regions of the marked phase still to pass over in the
    /// current evaluation.
    mark: usize,
    skip: u8,
    next_mark: usize,
    /// Prefix mode: the current evaluation's read of its mark, kept until
    /// the evaluation ends ([`EvalCounters::end_evaluation`]).
    pending: Option<u64>,
    /// Prefix mode: ticks from the start to each mark, summed over the
    /// full evaluations that read it.
    pub mark_ticks: [u64; MARKS],
    /// Prefix mode: reads of each mark counted (full evaluations, an
    /// interrupted read left out).
    pub mark_calls: [u64; MARKS],
    /// Prefix mode: the current run of one mark.
    mark_run: Run,
    /// Prefix mode: per mark, the lowest run mean (raw ticks).
    mark_floors: [Option<RunFloor>; MARKS],
}

impl EvalCounters {
    /// Counters in the default mode (rotating, plain timer reads), with the
    /// loop calibration.
    pub fn calibrated() -> EvalCounters {
        let mut c = EvalCounters::default();
        c.calibrate_loop();
        c
    }

    /// The median of empty regions in a tight loop, with the current reads.
    fn calibrate_loop(&mut self) {
        let mut samples: Vec<u64> = (0..2001)
            .map(|_| {
                let t0 = self.read_start();
                let t = self.read_stop();
                t.saturating_sub(t0)
            })
            .collect();
        samples.sort_unstable();
        self.region_overhead = samples[samples.len() / 2];
    }

    /// The counter mode in force.
    pub fn mode(&self) -> CounterMode {
        self.mode
    }

    /// Switch mode; forgets what was counted (the means of two modes do
    /// not mix).
    pub fn set_mode(&mut self, mode: CounterMode) {
        self.mode = mode;
        self.reset();
    }

    /// Start a run of evaluations timing `slot` (mod [`SLOTS`]) with the
    /// next evaluation: a caller that evaluates the same positions in the
    /// same order pass after pass starts pass `r` at slot `r`, so every
    /// position is timed under every slot.
    pub fn set_rotation(&mut self, slot: usize) {
        self.close_run();
        self.close_mark_run();
        self.next_slot = slot % SLOTS;
        self.next_mark = slot % MARKS;
        self.run_left = 0;
        self.idle_runs = 0;
    }

    /// Evaluations per run of one slot in the rotating mode (default
    /// [`RUN_LENGTH`]). A caller that evaluates the same positions pass
    /// after pass makes a run one pass, so each run's mean covers every
    /// position and the lowest run mean per slot is a floor
    /// ([`CounterSummary`]).
    pub fn set_run_length(&mut self, evals: u32) {
        self.run_length = evals.max(1);
        self.reset();
    }

    fn run_length(&self) -> u32 {
        if self.run_length == 0 {
            RUN_LENGTH
        } else {
            self.run_length
        }
    }

    /// Time one run of evaluations in every `duty` (at least 1); the others
    /// run without the counters' tests, at the cost of an evaluation
    /// without counters. Forgets what was counted.
    pub fn set_duty(&mut self, duty: u32) {
        self.duty = duty.max(1);
        self.reset();
    }

    /// Start the next run: an untimed one while the duty asks for them,
    /// else the next slot's.
    #[cold]
    fn next_run(&mut self) {
        self.close_run();
        self.run_left = self.run_length();
        if self.idle_runs > 0 {
            self.idle_runs -= 1;
            self.idle = true;
            return;
        }
        self.idle = false;
        self.idle_runs = self.duty.saturating_sub(1);
        let s = self.next_slot;
        self.slot = s;
        self.next_slot = if s + 1 == SLOTS { 0 } else { s + 1 };
    }

    /// The floors with the current run counted if it is complete.
    pub fn floors(&self) -> [Option<RunFloor>; SLOTS] {
        let mut f = self.floors;
        if self.mode == CounterMode::Rotating && !self.idle {
            Self::fold_run(&mut f, self.slot, self.run, self.run_length());
        }
        f
    }

    /// End the current run: a complete, uninterrupted run's mean may lower
    /// its slot's floor.
    #[cold]
    fn close_run(&mut self) {
        let run = std::mem::take(&mut self.run);
        let len = self.run_length();
        Self::fold_run(&mut self.floors, self.slot, run, len);
    }

    fn fold_run<const N: usize>(floors: &mut [Option<RunFloor>; N], slot: usize, run: Run, len: u32) {
        // (An untimed run counts no evaluations.)
        if run.spoiled || run.evals != len {
            return;
        }
        let n = f64::from(run.evals);
        let (raw, regions) = (run.ticks as f64 / n, run.regions as f64 / n);
        let f = floors[slot].get_or_insert(RunFloor { raw_ticks_per_eval: raw, regions_per_eval: regions, runs: 0 });
        if raw < f.raw_ticks_per_eval {
            (f.raw_ticks_per_eval, f.regions_per_eval) = (raw, regions);
        }
        f.runs += 1;
    }

    /// Begin an evaluation: choose what it times ([`timed_phases`],
    /// [`times_whole`]).
    #[inline(always)]
    pub fn begin(&mut self) -> Timing {
        let t = self.choose();
        self.active = if t == TIME_MARK {
            let (phase, skip) = MARK_POINTS[self.mark];
            self.skip = skip;
            phase.bit()
        } else {
            timed_phases(t)
        };
        t
    }

    #[inline(always)]
    fn choose(&mut self) -> Timing {
        self.evals += 1;
        match self.mode {
            CounterMode::Rotating => {
                if self.run_left == 0 {
                    self.next_run();
                }
                self.run_left -= 1;
                if self.idle {
                    return TIME_NOTHING;
                }
                self.run.evals += 1;
                self.slot_evals[self.slot] += 1;
                self.slot as Timing
            }
            CounterMode::AllPhases => TIME_ALL,
            CounterMode::Fixed(slot) => {
                let s = slot.index();
                self.slot_evals[s] += 1;
                s as Timing
            }
            CounterMode::Prefix => {
                if self.run_left == 0 {
                    self.next_mark_run();
                }
                self.run_left -= 1;
                self.pending = None;
                match self.mark {
                    MARK_START => TIME_MARK_START,
                    MARK_END => TIME_MARK_END,
                    _ => TIME_MARK,
                }
            }
            CounterMode::Sampled => TIME_SAMPLED,
            CounterMode::Off => TIME_NOTHING,
        }
    }

    /// Prefix mode: note the current evaluation's start read.
    #[inline(always)]
    pub fn set_eval_start(&mut self, t0: u64) {
        self.eval_start = t0;
    }

    /// The start of a timed region: a fresh read, or in prefix mode the
    /// evaluation's start.
    #[inline(always)]
    pub fn region_start(&self) -> u64 {
        if self.mode == CounterMode::Prefix {
            self.eval_start
        } else {
            self.read_start()
        }
    }

    /// Prefix mode: start the next mark's run.
    #[cold]
    fn next_mark_run(&mut self) {
        self.close_mark_run();
        self.run_left = self.run_length();
        self.mark = self.next_mark;
        self.next_mark = if self.mark + 1 == MARKS { 0 } else { self.mark + 1 };
    }

    /// Prefix mode: end the current mark's run; a complete, uninterrupted
    /// one may lower the mark's floor.
    #[cold]
    fn close_mark_run(&mut self) {
        let run = std::mem::take(&mut self.mark_run);
        let len = self.run_length();
        Self::fold_run(&mut self.mark_floors, self.mark, run, len);
    }

    /// Prefix mode: the current evaluation read `ticks` from its start to
    /// its mark (the start or end mark, or the end of the marked phase).
    #[inline(always)]
    pub fn add_mark(&mut self, ticks: u64) {
        self.pending = Some(ticks);
    }

    /// Prefix mode: the evaluation ended, in full or not. Only full
    /// evaluations count: a mark's mean over every evaluation that reached
    /// it would mix lazy exits into the marks before the lazy test and not
    /// into those after, and the differences would not be costs.
    #[inline(always)]
    pub fn end_evaluation(&mut self, full: bool) {
        if !full {
            return;
        }
        self.mark_run.evals += 1;
        match self.pending.take() {
            Some(ticks) if ticks <= OUTLIER_TICKS => {
                self.mark_ticks[self.mark] += ticks;
                self.mark_calls[self.mark] += 1;
                self.mark_run.ticks += ticks;
                self.mark_run.regions += 1;
            }
            // Interrupted: left out, and the run gives no floor.
            Some(_) => self.mark_run.spoiled = true,
            // A mark in a phase this evaluation never ran (the lazy test
            // with the lazy exit off).
            None => {}
        }
    }

    /// Prefix mode: per mark, the lowest mean of a complete run, with the
    /// current run counted if it is complete.
    pub fn mark_floors(&self) -> [Option<RunFloor>; MARKS] {
        let mut f = self.mark_floors;
        if self.mode == CounterMode::Prefix {
            Self::fold_run(&mut f, self.mark, self.mark_run, self.run_length());
        }
        f
    }

    /// Does the current evaluation time `phase`?
    #[inline(always)]
    pub fn times(&self, phase: Phase) -> bool {
        self.active & phase.bit() != 0
    }

    /// Read the counter at the start of a timed region.
    #[inline(always)]
    pub fn read_start(&self) -> u64 {
        if self.fenced {
            crate::tsc::start()
        } else {
            plain_read()
        }
    }

    /// Read the counter at the end of a timed region.
    #[inline(always)]
    pub fn read_stop(&self) -> u64 {
        if self.fenced {
            crate::tsc::stop()
        } else {
            plain_read()
        }
    }

    /// Whether the timer reads are fenced.
    pub fn fenced(&self) -> bool {
        self.fenced
    }

    /// Fence the timer reads or not; forgets what was counted.
    pub fn set_fenced(&mut self, fenced: bool) {
        self.fenced = fenced;
        self.calibrate_loop();
        self.reset();
    }

    #[inline(always)]
    /// Add `ticks` of one timed region of `phase`.
    pub fn add(&mut self, phase: Phase, ticks: u64) {
        if self.mode == CounterMode::Prefix {
            // The marked region of the phase, the earlier ones passed
            // over; nothing after it is read.
            if self.skip > 0 {
                self.skip -= 1;
            } else {
                self.active = 0;
                self.add_mark(ticks);
            }
            return;
        }
        if ticks > OUTLIER_TICKS || (phase == Phase::Calibration && ticks > CALIBRATION_OUTLIER_TICKS) {
            self.discarded[phase as usize] += 1;
            self.run.spoiled = true;
            return;
        }
        self.ticks[phase as usize] += ticks;
        self.calls[phase as usize] += 1;
        // Inputs nested in a group's phase are their own slot: only the
        // regions of the run's slot reach here in the rotating mode.
        self.run.ticks += ticks;
        self.run.regions += 1;
    }

    #[inline(always)]
    /// Add `ticks` of one evaluation timed whole.
    pub fn add_whole(&mut self, ticks: u64) {
        if ticks > OUTLIER_TICKS {
            self.whole_discarded += 1;
            self.run.spoiled = true;
            return;
        }
        self.whole_ticks += ticks;
        self.whole_calls += 1;
        self.run.ticks += ticks;
        self.run.regions += 1;
    }

    /// Forget what was counted (keeps the mode and the loop calibration;
    /// the rotation starts again at the first slot).
    pub fn reset(&mut self) {
        *self = EvalCounters {
            mode: self.mode,
            fenced: self.fenced,
            region_overhead: self.region_overhead,
            run_length: self.run_length,
            duty: self.duty,
            ..EvalCounters::default()
        };
    }

    /// Evaluations that timed `slot`.
    pub fn timed_evals(&self, slot: Slot) -> u64 {
        match self.mode {
            CounterMode::Rotating | CounterMode::Fixed(_) => self.slot_evals[slot.index()],
            CounterMode::AllPhases => self.evals,
            CounterMode::Prefix | CounterMode::Sampled | CounterMode::Off => 0,
        }
    }

    /// Ticks of the whole evaluations that no phase accounts for (all-phases
    /// mode: glue between phases and the timer reads themselves).
    pub fn outside_phases(&self) -> u64 {
        self.whole_ticks.saturating_sub(self.ticks.iter().sum())
    }

    /// Means per evaluation, the pair's cost subtracted.
    pub fn summary(&self) -> CounterSummary {
        CounterSummary::of(self)
    }
}

/// In-place calibration samples below this count fall back to the loop
/// median.
pub const MIN_CALIBRATION_SAMPLES: u64 = 16;

/// A region (or whole evaluation) that read more ticks than this was
/// interrupted — the process descheduled, an interrupt served — and is
/// left out (and counted): a whole evaluation takes a few thousand ticks
/// at most (building a pawn entry included), an interrupt tens of
/// thousands, one preemption millions, which would swamp a mean.
pub const OUTLIER_TICKS: u64 = 50_000;

/// The empty calibration region is interrupted beyond this: a pair costs
/// tens of ticks, and its mean is subtracted from every region, so one
/// interrupt left in would bias every row.
pub const CALIBRATION_OUTLIER_TICKS: u64 = 1_000;

/// A plain `rdtsc`: no fence, so the out-of-order core keeps running
/// across it; it reads when it issues, which tracks what a region adds to
/// the stream of work rather than its latency from a drained pipeline.
#[inline(always)]
fn plain_read() -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: rdtsc is available on every x86_64 CPU.
    unsafe {
        core::arch::x86_64::_rdtsc()
    }
    #[cfg(not(target_arch = "x86_64"))]
    crate::tsc::start()
}

/// One phase's mean cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseCost {
    /// The phase.
    pub phase: Phase,
    /// Ticks per evaluation that timed the phase's slot, pairs subtracted,
    /// never below zero.
    pub ticks_per_eval: f64,
    /// Raw ticks per timed evaluation (pairs included).
    pub raw_ticks_per_eval: f64,
    /// Timed regions per evaluation that timed the slot.
    pub regions_per_eval: f64,
    /// Evaluations that timed the phase's slot.
    pub timed_evals: u64,
}

/// A slot's mean cost: the sum of its phases.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlotCost {
    /// The slot.
    pub slot: Slot,
    /// Ticks per evaluation that timed the slot, pairs subtracted, never below zero.
    pub ticks_per_eval: f64,
    /// Timed regions per evaluation that timed the slot.
    pub regions_per_eval: f64,
    /// Evaluations that timed the slot.
    pub timed_evals: u64,
    /// The lowest run mean, pairs (and inputs timed inside it) subtracted,
    /// never below zero (rotating mode, complete runs only).
    pub floor_ticks_per_eval: Option<f64>,
    /// Complete runs behind the floor.
    pub floor_runs: u64,
}

/// Means per evaluation from [`EvalCounters`], each timed region's pair
/// cost subtracted.
#[derive(Clone, Debug, PartialEq)]
pub struct CounterSummary {
    /// The mode the counters ran in.
    pub mode: CounterMode,
    /// Evaluations counted.
    pub evals: u64,
    /// Ticks subtracted per timed region.
    pub pair_ticks: f64,
    /// Whether `pair_ticks` is the in-place mean (else the loop median).
    pub pair_in_place: bool,
    /// In-place calibration regions behind `pair_ticks`.
    pub calibration_samples: u64,
    /// Every phase but the calibration, in evaluation order; a phase that
    /// holds an input's region ([`Phase::parent`]) without it.
    pub phases: Vec<PhaseCost>,
    /// The ten groups, in order.
    pub groups: Vec<SlotCost>,
    /// The inputs; `ClearWords` only where the attack words were cleared.
    pub inputs: Vec<SlotCost>,
    /// The whole evaluation without any pair (its own and, in all-phases
    /// mode, those of the phases inside it); `None` when never timed.
    pub whole: Option<f64>,
    /// Evaluations timed whole.
    pub whole_timed: u64,
    /// The whole's lowest run mean less its pair (rotating mode).
    pub whole_floor: Option<f64>,
    /// The calibration slot's lowest run mean: the pair cost subtracted
    /// from the floors.
    pub pair_floor: Option<f64>,
}

impl CounterSummary {
    /// The summary of `c`'s counts.
    pub fn of(c: &EvalCounters) -> CounterSummary {
        if c.mode == CounterMode::Prefix {
            return Self::of_prefix(c);
        }
        let cal = Phase::Calibration as usize;
        let samples = c.calls[cal];
        let pair_in_place = samples >= MIN_CALIBRATION_SAMPLES;
        let pair_ticks = if pair_in_place { c.ticks[cal] as f64 / samples as f64 } else { c.region_overhead as f64 };
        let per = |x: f64, n: u64| if n > 0 { x / n as f64 } else { 0.0 };
        // Each phase's own regions, pairs subtracted.
        let own = |p: Phase| {
            let (ticks, calls) = (c.ticks[p as usize] as f64, c.calls[p as usize]);
            // Evaluations whose region was interrupted are left out.
            let n = c.timed_evals(p.slot()).saturating_sub(c.discarded[p as usize]);
            PhaseCost {
                phase: p,
                ticks_per_eval: per((ticks - calls as f64 * pair_ticks).max(0.0), n),
                raw_ticks_per_eval: per(ticks, n),
                regions_per_eval: per(calls as f64, n),
                timed_evals: n,
            }
        };
        let phases: Vec<PhaseCost> = Phase::ALL
            .iter()
            .filter(|&&p| p != Phase::Calibration)
            .map(|&p| {
                let mut cost = own(p);
                // Less the inputs timed inside it: in all-phases mode their
                // raw ticks (pair included) lie inside its region; in
                // rotating mode they were timed in other evaluations.
                for child in Phase::ALL.into_iter().filter(|q| q.parent() == Some(p)) {
                    let child = own(child);
                    let inside =
                        if c.mode == CounterMode::AllPhases { child.raw_ticks_per_eval } else { child.ticks_per_eval };
                    let pairs = cost.regions_per_eval * pair_ticks;
                    cost.ticks_per_eval = (cost.raw_ticks_per_eval - pairs - inside).max(0.0);
                }
                cost
            })
            .collect();
        // Floors: the lowest run mean per slot, less its pairs (at the
        // calibration slot's floor) and the floors of the inputs timed
        // inside its phases.
        let floors = c.floors();
        let pair_floor = floors[Slot::Calibration.index()].map_or(pair_ticks, |f| f.raw_ticks_per_eval);
        let floor_of = |slot: Slot| -> Option<f64> {
            let f = floors[slot.index()]?;
            let own = f.raw_ticks_per_eval - f.regions_per_eval * pair_floor;
            Some(if slot == Slot::Whole { own.max(0.0) } else { own })
        };
        let input_inside = |slot: Slot| -> Option<f64> {
            let mut sum = 0.0;
            for p in Phase::ALL.into_iter().filter(|p| p.parent().is_some_and(|q| q.slot() == slot)) {
                sum += floor_of(p.slot())?.max(0.0);
            }
            Some(sum)
        };
        let slot_cost = |slot: Slot| {
            let members = phases.iter().filter(|p| p.phase.slot() == slot);
            let (ticks, regions) = members.fold((0.0, 0.0), |(t, r), p| (t + p.ticks_per_eval, r + p.regions_per_eval));
            let floor = floor_of(slot).and_then(|f| Some((f - input_inside(slot)?).max(0.0)));
            SlotCost {
                slot,
                ticks_per_eval: ticks,
                regions_per_eval: regions,
                timed_evals: c.timed_evals(slot),
                floor_ticks_per_eval: floor,
                floor_runs: floors[slot.index()].map_or(0, |f| f.runs),
            }
        };
        let groups = Group::ALL.iter().map(|&g| slot_cost(Slot::Group(g))).collect();
        let inputs = Input::ALL
            .iter()
            .filter(|&&i| i != Input::ClearWords || c.calls[Phase::ClearWords as usize] > 0)
            .map(|&i| slot_cost(Slot::Input(i)))
            .collect();
        // Pairs inside the evaluations timed whole: its own, plus in
        // all-phases mode every phase region.
        let inner: u64 = if c.mode == CounterMode::AllPhases { c.calls.iter().sum() } else { 0 };
        let whole = (c.whole_calls > 0).then(|| {
            let pairs = (c.whole_calls + inner) as f64 * pair_ticks;
            (c.whole_ticks as f64 - pairs).max(0.0) / c.whole_calls as f64
        });
        CounterSummary {
            mode: c.mode,
            evals: c.evals,
            pair_ticks,
            pair_in_place,
            calibration_samples: samples,
            phases,
            groups,
            inputs,
            whole,
            whole_timed: c.whole_calls,
            whole_floor: floor_of(Slot::Whole),
            pair_floor: floors[Slot::Calibration.index()].map(|f| f.raw_ticks_per_eval),
        }
    }

    /// The summary of prefix marks: each phase is its mark's mean less the
    /// mean of the last mark before it that was read (the start mark for
    /// the first), never below zero; the pair is the start mark, the whole
    /// the end mark less the start mark. A phase no evaluation reached
    /// (the lazy test with the lazy exit off) costs nothing, and its
    /// successor is measured from the mark before it.
    fn of_prefix(c: &EvalCounters) -> CounterSummary {
        let mean = |m: usize| (c.mark_calls[m] > 0).then(|| c.mark_ticks[m] as f64 / c.mark_calls[m] as f64);
        let samples = c.mark_calls[MARK_START];
        let pair_in_place = samples >= MIN_CALIBRATION_SAMPLES;
        let pair_ticks = if pair_in_place { mean(MARK_START).unwrap_or(0.0) } else { c.region_overhead as f64 };
        let floors = c.mark_floors();
        let floor = |m: usize| floors[m].map(|f| f.raw_ticks_per_eval);
        let pair_floor = floor(MARK_START);
        let mut before = pair_ticks;
        let mut floor_before = pair_floor;
        let mut phase_floors = [Some(0.0); PHASES];
        let mut phases: Vec<PhaseCost> = Phase::ALL
            .iter()
            .filter(|&&p| p != Phase::Calibration)
            .map(|&phase| PhaseCost {
                phase,
                ticks_per_eval: 0.0,
                raw_ticks_per_eval: 0.0,
                regions_per_eval: 0.0,
                timed_evals: 0,
            })
            .collect();
        for (i, &(p, _)) in MARK_POINTS.iter().enumerate() {
            let Some(m) = mean(i) else { continue };
            let cost = (m - before).max(0.0);
            before = m;
            let f = floor(i);
            let own = f.zip(floor_before).map(|(f, b)| (f - b).max(0.0));
            phase_floors[p as usize] = phase_floors[p as usize].zip(own).map(|(a, b)| a + b);
            floor_before = f;
            if let Some(row) = phases.iter_mut().find(|r| r.phase == p) {
                row.ticks_per_eval += cost;
                row.raw_ticks_per_eval = m;
                row.regions_per_eval += 1.0;
                row.timed_evals += c.mark_calls[i];
            }
        }
        let slot_cost = |slot: Slot| {
            let members = phases.iter().filter(|p| p.phase.slot() == slot);
            SlotCost {
                slot,
                ticks_per_eval: members.clone().map(|p| p.ticks_per_eval).sum(),
                regions_per_eval: members.clone().map(|p| p.regions_per_eval).sum(),
                timed_evals: members.clone().map(|p| p.timed_evals).sum(),
                floor_ticks_per_eval: members.clone().map(|p| phase_floors[p.phase as usize]).sum(),
                floor_runs: MARK_POINTS
                    .iter()
                    .enumerate()
                    .filter(|(_, (p, _))| p.slot() == slot)
                    .filter_map(|(i, _)| floors[i].map(|f| f.runs))
                    .min()
                    .unwrap_or(0),
            }
        };
        let read = |p: Phase| MARK_POINTS.iter().zip(c.mark_calls).any(|((q, _), n)| *q == p && n > 0);
        let groups = Group::ALL.iter().map(|&g| slot_cost(Slot::Group(g))).collect();
        let inputs = Input::ALL
            .iter()
            .filter(|&&i| i != Input::ClearWords || read(Phase::ClearWords))
            .map(|&i| slot_cost(Slot::Input(i)))
            .collect();
        CounterSummary {
            mode: c.mode,
            evals: c.evals,
            pair_ticks,
            pair_in_place,
            calibration_samples: samples,
            phases,
            groups,
            inputs,
            whole: mean(MARK_END).map(|m| (m - pair_ticks).max(0.0)),
            whole_timed: c.mark_calls[MARK_END],
            whole_floor: floor(MARK_END).zip(pair_floor).map(|(e, s)| (e - s).max(0.0)),
            pair_floor,
        }
    }

    /// Groups plus inputs, per evaluation.
    pub fn sum_of_rows(&self) -> f64 {
        self.groups.iter().chain(&self.inputs).map(|s| s.ticks_per_eval).sum()
    }

    /// The whole minus the rows: glue between the regions (signed: the
    /// rows can add to more than the whole, a region timed alone runs from
    /// a drained pipeline).
    pub fn unattributed(&self) -> Option<f64> {
        self.whole.map(|w| w - self.sum_of_rows())
    }

    /// Groups plus inputs, floors; `None` unless every row has one.
    pub fn floor_sum_of_rows(&self) -> Option<f64> {
        self.groups.iter().chain(&self.inputs).map(|s| s.floor_ticks_per_eval).sum()
    }

    /// The whole's floor minus the rows' floors.
    pub fn floor_unattributed(&self) -> Option<f64> {
        Some(self.whole_floor? - self.floor_sum_of_rows()?)
    }
}

/// Time `$body` as phase `$phase` into `$self.counters` when the feature
/// `eval-time` is on, the enclosing function's const parameter `TIMED` is
/// not 0 and the current evaluation times the phase; otherwise just `$body`.
#[cfg(feature = "eval-time")]
macro_rules! timed {
    ($self:ident, $phase:expr, $body:block) => {{
        if TIMED == 2 {
            // The sampled copy: the phase register, no timer read.
            let outer = $crate::eval::sampler::enter($phase as u8);
            let r = $body;
            $crate::eval::sampler::leave(outer);
            r
        } else {
            let on = TIMED != 0 && $self.counters.times($phase);
            let t0 = if on { $self.counters.region_start() } else { 0 };
            let r = $body;
            if on {
                let t1 = $self.counters.read_stop();
                $self.counters.add($phase, t1.wrapping_sub(t0));
            }
            r
        }
    }};
}

#[cfg(not(feature = "eval-time"))]
macro_rules! timed {
    ($self:ident, $phase:expr, $body:block) => {
        $body
    };
}

pub(crate) use timed;

#[cfg(test)]
mod tests {
    use super::*;

    /// Run `evals` evaluations' worth of `begin` and report which phases
    /// and slots were timed.
    fn rotate(c: &mut EvalCounters, evals: usize) -> (u32, [u64; SLOTS]) {
        let mut seen = 0;
        let mut whole = [0u64; SLOTS];
        for _ in 0..evals {
            let t = c.begin();
            seen |= timed_phases(t);
            for p in Phase::ALL {
                if timed_phases(t) & p.bit() != 0 {
                    c.add(p, 100);
                }
            }
            if times_whole(t) {
                c.add_whole(1000);
                whole[Slot::Whole.index()] += 1;
            }
        }
        (seen, whole)
    }

    #[test]
    fn rotating_mode_visits_every_slot_and_one_slot_per_evaluation() {
        let mut c = EvalCounters::default();
        assert_eq!(c.mode(), CounterMode::Rotating);
        let run = RUN_LENGTH as usize;
        for i in 0..3 * SLOTS * run {
            let t = c.begin();
            // Exactly one slot's phases, each phase of the slot.
            let slot = Slot::ALL[i / run % SLOTS];
            assert_eq!(t as usize, slot.index());
            assert_eq!(timed_phases(t), SLOT_PHASES[slot.index()], "{slot:?}");
            assert_eq!(times_whole(t), slot == Slot::Whole);
            for p in Phase::ALL {
                assert_eq!(timed_phases(t) & p.bit() != 0, p.slot() == slot, "{p:?} in {slot:?}");
            }
        }
        assert_eq!(c.slot_evals, [3 * RUN_LENGTH as u64; SLOTS]);
        // Every slot but the whole has phases; every phase is some slot's.
        for s in Slot::ALL {
            assert_eq!(SLOT_PHASES[s.index()] == 0, s == Slot::Whole, "{s:?}");
            assert_eq!(s, Slot::ALL[s.index()]);
        }
        assert_eq!(SLOT_PHASES.iter().fold(0, |a, m| a | m), ALL_PHASES);
        let (seen, _) = rotate(&mut c, SLOTS * run);
        assert_eq!(seen, ALL_PHASES);
        // A rotation started elsewhere: the next evaluation times that slot.
        c.set_rotation(SLOTS + 4);
        assert_eq!(timed_phases(c.begin()), SLOT_PHASES[4]);
    }

    #[test]
    fn a_duty_of_three_times_one_run_in_three() {
        let mut c = EvalCounters::default();
        c.set_duty(3);
        let run = RUN_LENGTH as usize;
        let mut timed = Vec::new();
        for i in 0..9 * run {
            let t = c.begin();
            if i % run == 0 {
                timed.push(t);
            }
            // Within a run, every evaluation alike.
            assert_eq!(t, timed[i / run]);
        }
        let none = TIME_NOTHING;
        assert_eq!(timed, [0, none, none, 1, none, none, 2, none, none]);
        assert_eq!(c.evals, 9 * RUN_LENGTH as u64);
        assert_eq!(&c.slot_evals[..4], &[RUN_LENGTH as u64, RUN_LENGTH as u64, RUN_LENGTH as u64, 0]);
        // A new rotation starts timed.
        c.set_rotation(7);
        assert_eq!(c.begin(), 7);
    }

    #[test]
    fn all_phases_and_off_modes() {
        let mut c = EvalCounters::default();
        c.set_mode(CounterMode::AllPhases);
        let t = c.begin();
        assert_eq!(t, TIME_ALL);
        assert!(times_whole(t));
        assert_eq!(timed_phases(t), ALL_PHASES);
        assert_eq!(c.timed_evals(Slot::Group(Group::Kings)), 1);
        c.set_mode(CounterMode::Fixed(Slot::Group(Group::Rooks)));
        assert_eq!(c.evals, 0, "a mode change forgets the counts");
        for _ in 0..3 {
            let t = c.begin();
            assert!(!times_whole(t));
            assert_eq!(timed_phases(t), Phase::Rooks.bit());
        }
        assert_eq!(c.timed_evals(Slot::Group(Group::Rooks)), 3);
        assert_eq!(c.timed_evals(Slot::Group(Group::Kings)), 0);
        c.set_mode(CounterMode::Off);
        let t = c.begin();
        assert_eq!((t, timed_phases(t), times_whole(t)), (TIME_NOTHING, 0, false));
        let s = c.summary();
        assert_eq!(s.whole, None);
        assert!(s.groups.iter().all(|g| g.ticks_per_eval == 0.0 && g.timed_evals == 0));
    }

    #[test]
    fn pairs_are_subtracted_per_region_and_never_below_zero() {
        let mut c = EvalCounters { region_overhead: 50, ..EvalCounters::default() };
        c.set_mode(CounterMode::AllPhases);
        for _ in 0..20 {
            c.begin();
            c.add(Phase::Calibration, 40); // the in-place pair: 40 ticks
            c.add(Phase::Knights, 100); // 60 net
            c.add(Phase::Knights, 30); // below one pair: the phase's sum is what is clamped
            c.add(Phase::Rooks, 10); // below one pair
            c.add(Phase::Kings, 40); // exactly one pair
            c.add_whole(1000);
        }
        let s = c.summary();
        assert!(s.pair_in_place);
        assert_eq!(s.pair_ticks, 40.0);
        let phase = |p: Phase| s.phases.iter().find(|x| x.phase == p).unwrap();
        assert_eq!(phase(Phase::Knights).ticks_per_eval, 50.0, "130 - 2 x 40 per evaluation");
        assert_eq!(phase(Phase::Knights).regions_per_eval, 2.0);
        assert_eq!(phase(Phase::Rooks).ticks_per_eval, 0.0, "never below zero");
        assert_eq!(phase(Phase::Kings).ticks_per_eval, 0.0);
        assert!(s.phases.iter().all(|p| p.ticks_per_eval >= 0.0));
        assert!(s.groups.iter().chain(&s.inputs).all(|g| g.ticks_per_eval >= 0.0));
        // The whole loses its own pair and the five inside it.
        assert_eq!(s.whole, Some(1000.0 - 6.0 * 40.0));
        assert_eq!(s.unattributed(), Some(760.0 - 50.0));
        // Too few in-place samples: the loop median.
        let mut c = EvalCounters { region_overhead: 50, ..EvalCounters::default() };
        c.set_mode(CounterMode::AllPhases);
        c.begin();
        c.add(Phase::Calibration, 40);
        c.add(Phase::Queens, 80);
        let s = c.summary();
        assert!(!s.pair_in_place);
        assert_eq!(s.phases.iter().find(|x| x.phase == Phase::Queens).unwrap().ticks_per_eval, 30.0);
    }

    #[test]
    fn inputs_are_taken_out_of_the_phases_that_hold_them() {
        // All phases: the material phase's region holds the entry's.
        let mut c = EvalCounters::default();
        c.set_mode(CounterMode::AllPhases);
        for _ in 0..20 {
            c.begin();
            c.add(Phase::Calibration, 40);
            c.add(Phase::MaterialEntry, 40 + 15); // the entry: 15
            c.add(Phase::Material, 40 + 55 + 5); // its pair, the entry's region, 5 of its own
            c.add(Phase::PawnEntry, 30); // below a pair: 0
            c.add(Phase::Pawns, 40 + 30 + 2);
            c.add_whole(1000);
        }
        let s = c.summary();
        let phase = |p: Phase| s.phases.iter().find(|x| x.phase == p).unwrap().ticks_per_eval;
        assert_eq!((phase(Phase::MaterialEntry), phase(Phase::Material)), (15.0, 5.0));
        assert_eq!((phase(Phase::PawnEntry), phase(Phase::Pawns)), (0.0, 2.0));
        assert_eq!(s.inputs.iter().map(|i| i.ticks_per_eval).collect::<Vec<_>>(), [15.0, 0.0]);
        assert_eq!(s.groups[Group::Material as usize].ticks_per_eval, 5.0);
        // Rotating: each timed in its own evaluations.
        let mut c = EvalCounters::default();
        for _ in 0..SLOTS * RUN_LENGTH as usize {
            let t = c.begin();
            for (p, ticks) in [(Phase::Calibration, 40), (Phase::MaterialEntry, 55), (Phase::Material, 40 + 15 + 5)] {
                if timed_phases(t) & p.bit() != 0 {
                    c.add(p, ticks);
                }
            }
        }
        let s = c.summary();
        assert_eq!(s.inputs[0].ticks_per_eval, 15.0);
        assert_eq!(s.groups[Group::Material as usize].ticks_per_eval, 5.0);
        assert_eq!(s.inputs.len(), 2, "no attack words cleared");
    }

    #[test]
    fn floors_are_the_lowest_complete_run_of_each_slot() {
        let mut c = EvalCounters::default();
        c.set_run_length(4);
        // Two rotations; in the second every region reads 10 ticks less,
        // and one knights region is interrupted.
        for round in 0..2u64 {
            for _ in 0..SLOTS * 4 {
                let t = c.begin();
                for p in Phase::ALL.into_iter().filter(|p| timed_phases(t) & p.bit() != 0) {
                    let interrupted = round == 1 && p == Phase::Knights && c.run.evals == 2;
                    c.add(p, if interrupted { OUTLIER_TICKS + 1 } else { 100 - 10 * round });
                }
                if times_whole(t) {
                    c.add_whole(1000 - 10 * round);
                }
            }
        }
        let f = c.floors();
        assert_eq!(f[Slot::Calibration.index()].unwrap().raw_ticks_per_eval, 90.0);
        assert_eq!(f[Slot::Calibration.index()].unwrap().runs, 2);
        assert_eq!(f[Slot::Group(Group::Knights).index()].unwrap().runs, 1, "the interrupted run gives no floor");
        assert_eq!(f[Slot::Group(Group::Knights).index()].unwrap().raw_ticks_per_eval, 100.0);
        let s = c.summary();
        assert_eq!(s.pair_floor, Some(90.0));
        assert_eq!(s.whole_floor, Some(990.0 - 90.0));
        // Knights: its region of 100 (first round) less a pair of 90.
        assert_eq!(s.groups[Group::Knights as usize].floor_ticks_per_eval, Some(10.0));
        // Material: four regions of 90 less four pairs of 90, less the entry's floor (0).
        assert_eq!(s.groups[Group::Material as usize].floor_ticks_per_eval, Some(0.0));
        assert!(s.groups.iter().chain(&s.inputs).all(|g| g.floor_ticks_per_eval.unwrap() >= 0.0));
        assert_eq!(s.floor_sum_of_rows(), Some(10.0));
        // A run cut short by a new rotation gives no floor.
        let mut c = EvalCounters::default();
        c.set_run_length(4);
        for _ in 0..3 {
            let t = c.begin();
            c.add(Phase::HashProbe, 5);
            let _ = t;
        }
        c.set_rotation(0);
        assert!(c.floors().iter().all(Option::is_none));
    }

    #[test]
    fn rotating_means_come_from_the_evaluations_that_timed_the_slot() {
        let mut c = EvalCounters { region_overhead: 0, ..EvalCounters::default() };
        // Every timed region reads 100 ticks, the whole 1000.
        rotate(&mut c, SLOTS * RUN_LENGTH as usize);
        let s = c.summary();
        assert!(s.pair_in_place, "{} calibration samples", s.calibration_samples);
        assert_eq!(s.pair_ticks, 100.0);
        // Each timed region is exactly one pair: nothing is left.
        assert!(s.groups.iter().all(|g| g.ticks_per_eval == 0.0 && g.timed_evals == RUN_LENGTH as u64));
        assert_eq!(s.whole, Some(900.0));
        // The material group is four regions per evaluation that timed it.
        assert_eq!(s.groups[Group::Material as usize].regions_per_eval, 4.0);
        assert_eq!(s.inputs.len(), 3);
        // Every region was one pair and nothing else: the entries too.
        assert!(s.inputs.iter().all(|i| i.ticks_per_eval == 0.0));
    }

    /// A synthetic clock for the prefix mode: the pair reads 10 ticks, and
    /// mark point `i` lies 7 ticks per point after it.
    fn synthetic(point: usize) -> u64 {
        if point == MARK_START {
            10
        } else {
            10 + 7 * (point as u64 + 1)
        }
    }

    #[test]
    fn prefix_mode_reads_every_mark_and_one_mark_per_evaluation() {
        let mut c = EvalCounters::default();
        c.set_mode(CounterMode::Prefix);
        c.set_run_length(3);
        let mut seen = [0u32; MARKS];
        for _ in 0..2 * MARKS * 3 {
            let t = c.begin();
            // One phase bit at most.
            assert!(c.active.count_ones() <= 1);
            assert_eq!(t == TIME_MARK, c.active != 0);
            seen[c.mark] += 1;
            c.end_evaluation(true);
        }
        assert!(seen.iter().all(|&n| n == 6), "every mark read in runs of 3: {seen:?}");
        // The knights and bishops are marked once per colour.
        let points = |p: Phase| MARK_POINTS.iter().filter(|(q, _)| *q == p).count();
        assert_eq!((points(Phase::Knights), points(Phase::Bishops), points(Phase::Rooks)), (2, 2, 1));
        assert!(MARK_POINTS.iter().all(|&(p, k)| k == 0 || matches!(p, Phase::Knights | Phase::Bishops)));
        // Every phase is marked, in the order the evaluation reaches them.
        assert!(Phase::ALL.iter().all(|p| points(*p) >= 1));
    }

    #[test]
    fn prefix_rows_are_differences_of_marks_and_add_up_to_the_whole() {
        let mut c = EvalCounters::default();
        c.set_mode(CounterMode::Prefix);
        for n in 0..MARKS * RUN_LENGTH as usize {
            let t = c.begin();
            let mark = c.mark;
            match t {
                TIME_MARK_START => c.add_mark(synthetic(MARK_START)),
                TIME_MARK_END => c.add_mark(500),
                // The lazy test never runs (lazy exit off): its region
                // never ends, so nothing is added.
                TIME_MARK if MARK_POINTS[mark].0 == Phase::Lazy => {}
                TIME_MARK => {
                    // Each region of the marked phase ends, in order, as in
                    // `timed!`: for a second colour's mark the first
                    // colour's region is passed over.
                    let (p, skip) = MARK_POINTS[mark];
                    assert_eq!(c.active, p.bit());
                    for k in 0..=skip {
                        let point = MARK_POINTS.iter().position(|&q| q == (p, k)).unwrap();
                        if c.times(p) {
                            c.add(p, synthetic(point));
                        }
                    }
                    assert_eq!(c.active, 0, "nothing after the mark is read");
                }
                _ => panic!("prefix mode chose timing {t}"),
            }
            // Every 5th evaluation exits lazily: it does not count.
            if n % 5 == 4 {
                c.add_mark(1_000_000);
                c.end_evaluation(false);
            } else {
                c.end_evaluation(true);
            }
        }
        let s = c.summary();
        assert_eq!(s.mode, CounterMode::Prefix);
        assert!(s.pair_in_place);
        assert_eq!(s.pair_ticks, 10.0);
        assert_eq!(s.whole, Some(490.0));
        // Runs with lazy exits in them are not complete: no floors.
        assert_eq!(s.whole_floor, None);
        // Each point passed adds 7 ticks; the knights and bishops have two
        // points each; the lazy test's 7 fall to the next mark (the
        // calibration point, glue that no row holds).
        let phase = |p: Phase| s.phases.iter().find(|x| x.phase == p).unwrap().ticks_per_eval;
        assert_eq!(phase(Phase::HashProbe), 7.0);
        assert_eq!(phase(Phase::Lazy), 0.0);
        assert_eq!((phase(Phase::Knights), phase(Phase::Bishops), phase(Phase::Rooks)), (14.0, 14.0, 7.0));
        let group = |g: Group| s.groups[g as usize].ticks_per_eval;
        // Hash: probe and store; material: its phase, trades, the pair, scaling.
        assert_eq!((group(Group::Hash), group(Group::Material)), (14.0, 28.0));
        // The rows telescope to the last mark less the pair, less the
        // calibration point's 14.
        let last = synthetic(MARK_POINTS.len() - 1) as f64;
        assert_eq!(s.sum_of_rows(), last - 10.0 - 14.0);
        assert_eq!(s.unattributed(), Some(490.0 - s.sum_of_rows()));
        assert!(s.groups.iter().chain(&s.inputs).all(|g| g.ticks_per_eval >= 0.0));
        // No input is cleared in this synthetic evaluation but the clock
        // reached its point: all three inputs are rows.
        assert_eq!(s.inputs.len(), 3);
    }

    #[test]
    fn prefix_differences_never_go_below_zero() {
        let mut c = EvalCounters::default();
        c.set_mode(CounterMode::Prefix);
        // The rooks' mark reads earlier than the bishops' before it (noise).
        let rooks = MARK_POINTS.iter().position(|(p, _)| *p == Phase::Rooks).unwrap();
        for _ in 0..MARKS * RUN_LENGTH as usize {
            let t = c.begin();
            let mark = c.mark;
            match t {
                TIME_MARK_START => c.add_mark(10),
                TIME_MARK_END => c.add_mark(500),
                _ => {
                    let (p, skip) = MARK_POINTS[mark];
                    for k in 0..=skip {
                        let point = MARK_POINTS.iter().position(|&q| q == (p, k)).unwrap();
                        let at = if point == rooks { synthetic(rooks) - 20 } else { synthetic(point) };
                        if c.times(p) {
                            c.add(p, at);
                        }
                    }
                }
            }
            c.end_evaluation(true);
        }
        let s = c.summary();
        let phase = |p: Phase| s.phases.iter().find(|x| x.phase == p).unwrap().ticks_per_eval;
        assert_eq!(phase(Phase::Rooks), 0.0);
        assert!(s.phases.iter().all(|p| p.ticks_per_eval >= 0.0));
        assert!(s.groups.iter().all(|g| g.floor_ticks_per_eval.is_some_and(|f| f >= 0.0)));
        assert_eq!(s.whole_floor, Some(490.0));
    }
}
