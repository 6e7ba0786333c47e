//! Per-term cycle counters for the evaluation (cargo feature `eval-time`,
//! off by default). Each phase of the evaluation (in the order the
//! [`eval`](super) module describes) runs inside `timed!`, which with the
//! feature off expands to the bare block, so the evaluation compiles to the
//! same code as if the counters did not exist.
//!
//! With the feature on, every phase accumulates TSC ticks and calls, the
//! whole evaluation is timed around the outside, and the cost of one empty
//! timed region is calibrated so the counters' own overhead can be reported.
//! The report's rows (phases, plus "outside the phases": glue and the timer
//! reads themselves) sum exactly to the measured whole.

/// The timed phases, in evaluation order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The eval-hash probe.
    HashProbe,
    /// Material, from the material table.
    Material,
    /// Pawn structure, from the pawn hash.
    Pawns,
    /// Passers racing a bare king.
    PasserRace,
    /// Bad trades and the lone bishop.
    BadTrades,
    /// The bishop pair.
    BishopPair,
    /// The lazy-exit test, with its widening.
    Lazy,
    /// Attack state from the pawns.
    PawnAttacks,
    /// Knights, mobility included.
    Knights,
    /// Bishops, mobility included.
    Bishops,
    /// Rooks, mobility included.
    Rooks,
    /// Queens, mobility included.
    Queens,
    /// King attacks, safety, castling and endgame terms.
    Kings,
    /// Passers with full attack information.
    Passers,
    /// The en-prise and trapped records.
    Records,
    /// Drawish-material scaling.
    Scaling,
    /// The eval-hash store.
    HashStore,
}

impl Phase {
    /// Every phase, in evaluation order.
    pub const ALL: [Phase; 17] = [
        Phase::HashProbe,
        Phase::Material,
        Phase::Pawns,
        Phase::PasserRace,
        Phase::BadTrades,
        Phase::BishopPair,
        Phase::Lazy,
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

    /// The phase's name in reports and JSON (snake case).
    pub fn name(self) -> &'static str {
        match self {
            Phase::HashProbe => "hash_probe",
            Phase::Material => "material",
            Phase::Pawns => "pawns",
            Phase::PasserRace => "passer_race",
            Phase::BadTrades => "bad_trades",
            Phase::BishopPair => "bishop_pair",
            Phase::Lazy => "lazy",
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
}

/// Ticks and calls per phase and for the whole evaluation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalCounters {
    /// TSC ticks per phase, indexed by `Phase as usize`.
    pub ticks: [u64; 17],
    /// Calls per phase.
    pub calls: [u64; 17],
    /// TSC ticks of whole evaluations, timed around the outside.
    pub whole_ticks: u64,
    /// Whole evaluations.
    pub whole_calls: u64,
    /// Median ticks of one empty timed region (calibrated at creation).
    pub region_overhead: u64,
}

impl EvalCounters {
    /// Counters with the cost of an empty timed region calibrated.
    pub fn calibrated() -> EvalCounters {
        let mut samples: Vec<u64> = (0..2001)
            .map(|_| {
                let t0 = crate::tsc::start();
                let t = crate::tsc::stop();
                t.saturating_sub(t0)
            })
            .collect();
        samples.sort_unstable();
        EvalCounters { region_overhead: samples[samples.len() / 2], ..EvalCounters::default() }
    }

    /// Count one call of `phase` that took `ticks`.
    #[inline(always)]
    pub fn add(&mut self, phase: Phase, ticks: u64) {
        self.ticks[phase as usize] += ticks;
        self.calls[phase as usize] += 1;
    }

    /// Forget what was counted (keeps the calibration).
    pub fn reset(&mut self) {
        *self = EvalCounters { region_overhead: self.region_overhead, ..EvalCounters::default() };
    }

    /// Ticks of the whole evaluations that no phase accounts for: glue
    /// between phases and the timer reads themselves.
    pub fn outside_phases(&self) -> u64 {
        self.whole_ticks.saturating_sub(self.ticks.iter().sum())
    }
}

/// Time `$body` as phase `$phase` into `$self.counters` when the feature
/// `eval-time` is on; otherwise just `$body`.
#[cfg(feature = "eval-time")]
macro_rules! timed {
    ($self:ident, $phase:expr, $body:block) => {{
        let t0 = $crate::tsc::start();
        let r = $body;
        let t1 = $crate::tsc::stop();
        $self.counters.add($phase, t1.wrapping_sub(t0));
        r
    }};
}

#[cfg(not(feature = "eval-time"))]
macro_rules! timed {
    ($self:ident, $phase:expr, $body:block) => {
        $body
    };
}

pub(crate) use timed;
