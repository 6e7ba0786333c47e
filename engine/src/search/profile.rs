//! Engine profiles: the search is generic over a [`Profile`], a type that
//! names one implementation of every migrated routine (move generation,
//! check detection, static exchange evaluation, the king-safety defect count,
//! the evaluation). Each profile is monomorphised on its own, so no hot loop
//! ever branches on which implementation is in use.
//!
//! * [`MailboxProfile`] (`mailbox`): every routine in its old 0x88 form.
//! * [`BitboardProfile`] (`bitboard`): every routine in its new form, with
//!   `chain` mobility (the exact port of the mailbox walk) and SEE on
//!   bitboards end to end.
//! * [`SingleProbeProfile`] (`single-probe`): the bitboard profile with
//!   seed 000's single-probe mobility.
//! * Eight profiles with one routine swapped, for whole-engine attribution
//!   (what each migration step buys the engine, not just the isolated
//!   call): `bitboard-old-R` is the bitboard profile with routine `R` in
//!   its old form, `mailbox-new-R` the mailbox profile with `R` in its new
//!   form, where `R` is one of `movegen`, `attacks` (check detection and
//!   SEE), `defects` (the king-safety defect count), `mobility`.
//!
//! The mailbox and bitboard forms of every routine compute equal values
//! (move sets, SEE, defects, every evaluation term), so every profile but
//! `single-probe` searches identical trees; only the time per node differs.
//!
//! [`ProfileKind`] is the run-time name of a profile (command line, UCI
//! option); [`with_profile!`](crate::with_profile) turns it into a type once,
//! outside any loop.

use crate::attackers::{is_attacked_mailbox, MailboxAttackers};
use crate::bitboard::Bitboard;
use crate::defects::{BitboardDefects, DefectCounter, MailboxDefects};
use crate::eval::mobility::MobilitySet;
use crate::eval::weights::Weights;
use crate::eval::{ChainSet, DynamicSet, EvalConfig, Evaluation, MailboxSet, SingleProbeSet};
use crate::movegen::{BitboardGen, MailboxGen, MoveGen};
use crate::moves::Move;
use crate::position::Position;
use crate::see::{loses_to_recapture_bitboard, loses_to_recapture_mailbox, see, see_bitboard};
use crate::sliders::FastSliders;
use crate::types::Color;
use std::fmt;
use std::str::FromStr;

/// Evaluation counters since an evaluator was created.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalStats {
    /// Evaluations that exited early because the score was clearly outside
    /// the (alpha, beta) window.
    pub lazy: u64,
    /// Evaluations answered from the evaluation hash.
    pub hash_hits: u64,
    /// Evaluations computed in full.
    pub full: u64,
}

impl EvalStats {
    /// All evaluation calls.
    pub fn calls(&self) -> u64 {
        self.lazy + self.hash_hits + self.full
    }

    /// Counters accumulated since `earlier` (taken from the same evaluator).
    pub fn since(&self, earlier: &EvalStats) -> EvalStats {
        EvalStats {
            lazy: self.lazy - earlier.lazy,
            hash_hits: self.hash_hits - earlier.hash_hits,
            full: self.full - earlier.full,
        }
    }
}

/// What the search needs from an evaluation.
pub trait Evaluator {
    /// Score in centipawns from the side to move's point of view. May exit
    /// early ("lazy") when the score is clearly outside (alpha, beta).
    /// Takes `&mut Position` because the mailbox eval writes attack words
    /// into it.
    fn evaluate(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32;

    /// Forget cached state (eval and pawn hashes): new game, bench position.
    fn clear(&mut self);

    /// Counters since creation: lazy exits, eval-hash hits, full evaluations.
    fn stats(&self) -> EvalStats;

    /// Pieces of the side to move that the last call to
    /// [`evaluate`](Self::evaluate) found en prise, if that call was a full
    /// evaluation (or a hash hit that stores them); empty when unknown (a
    /// lazy exit, or an evaluator that does not record them).
    fn en_prise(&self) -> Bitboard;
}

/// The project's evaluation ([`Evaluation`], DESIGN §4.4) as an
/// [`Evaluator`]: mobility set `M`, defect counter `D`, default weights and
/// hash sizes. It remembers whether the last call reached the en-prise
/// records, so stale records from an earlier position are never reported.
pub struct EngineEval<M: MobilitySet, D: DefectCounter> {
    inner: Evaluation<M, D>,
    side: Color,
    records_fresh: bool,
}

impl<M: MobilitySet + Default, D: DefectCounter> Default for EngineEval<M, D> {
    fn default() -> Self {
        EngineEval {
            inner: Evaluation::new(M::default(), Weights::default(), EvalConfig::default()),
            side: Color::White,
            records_fresh: false,
        }
    }
}

impl<M: MobilitySet, D: DefectCounter> EngineEval<M, D> {
    /// Wrap an evaluation built with its own mobility set, weights or
    /// hash sizes.
    pub fn new(inner: Evaluation<M, D>) -> Self {
        EngineEval { inner, side: Color::White, records_fresh: false }
    }

    /// The wrapped evaluation.
    pub fn inner(&self) -> &Evaluation<M, D> {
        &self.inner
    }

    pub fn inner_mut(&mut self) -> &mut Evaluation<M, D> {
        &mut self.inner
    }
}

impl<M: MobilitySet, D: DefectCounter> Evaluator for EngineEval<M, D> {
    #[inline(always)]
    fn evaluate(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32 {
        let lazy_before = self.inner.stats().lazy;
        let score = self.inner.evaluate(pos, alpha, beta);
        self.records_fresh = self.inner.stats().lazy == lazy_before;
        self.side = pos.side_to_move();
        score
    }

    fn clear(&mut self) {
        self.inner.clear();
        self.records_fresh = false;
    }

    fn stats(&self) -> EvalStats {
        let s = self.inner.stats();
        EvalStats { lazy: s.lazy, hash_hits: s.hash_hits, full: s.full }
    }

    #[inline(always)]
    fn en_prise(&self) -> Bitboard {
        if self.records_fresh {
            self.inner.records().en_prise[self.side.index()]
        } else {
            Bitboard::EMPTY
        }
    }
}

/// An engine profile: one monomorphised instance of every routine.
pub trait Profile: 'static {
    /// The name on the command line, in the UCI option and in results.
    const NAME: &'static str;
    /// Legal move generation.
    type Gen: MoveGen;
    /// The king-safety defect count behind the two search extensions.
    type Defects: DefectCounter;
    /// The evaluation.
    type Eval: Evaluator + Default + Send;

    /// Is the side to move in check? [`MailboxAttacks`] answers with the
    /// piece-list scan, [`BitboardAttacks`] (the default) with bitboards.
    #[inline(always)]
    fn in_check(pos: &Position) -> bool {
        BitboardAttacks::in_check(pos)
    }

    /// Static exchange evaluation of `m`: the list form over mailbox
    /// attacker lists, or SEE on bitboards end to end (the default); both
    /// give the same value (`engine equiv` compares them).
    #[inline(always)]
    fn see(pos: &Position, m: Move) -> i32 {
        BitboardAttacks::see(pos, m)
    }

    /// Is [`see`](Self::see) of `m` surely negative, by a cheaper legal
    /// recapture? (`false`: not known without the exchange.) Old and new
    /// forms as for `see`.
    #[inline(always)]
    fn loses_to_recapture(pos: &Position, m: Move) -> bool {
        BitboardAttacks::loses_to_recapture(pos, m)
    }
}

/// Check detection and static exchange evaluation, the routines that
/// build attacker sets: one of the four a profile chooses.
pub trait AttackRoutines {
    /// Is the side to move in check?
    fn in_check(pos: &Position) -> bool;
    /// Static exchange evaluation of `m`.
    fn see(pos: &Position, m: Move) -> i32;
    /// Is SEE of `m` surely negative, by a cheaper legal recapture?
    fn loses_to_recapture(pos: &Position, m: Move) -> bool;
}

/// The old forms: the piece-list scan for check, SEE over mailbox
/// attacker lists.
pub struct MailboxAttacks;

/// The new forms: bitboard attackers for check, SEE on bitboards end to
/// end.
pub struct BitboardAttacks;

impl AttackRoutines for MailboxAttacks {
    #[inline(always)]
    fn in_check(pos: &Position) -> bool {
        let us = pos.side_to_move();
        is_attacked_mailbox(pos, pos.king_square88(us), us.flip())
    }

    #[inline(always)]
    fn see(pos: &Position, m: Move) -> i32 {
        see::<MailboxAttackers>(pos, m)
    }

    #[inline(always)]
    fn loses_to_recapture(pos: &Position, m: Move) -> bool {
        loses_to_recapture_mailbox(pos, m)
    }
}

impl AttackRoutines for BitboardAttacks {
    #[inline(always)]
    fn in_check(pos: &Position) -> bool {
        pos.in_check()
    }

    #[inline(always)]
    fn see(pos: &Position, m: Move) -> i32 {
        see_bitboard::<FastSliders>(pos, m)
    }

    #[inline(always)]
    fn loses_to_recapture(pos: &Position, m: Move) -> bool {
        loses_to_recapture_bitboard::<FastSliders>(pos, m)
    }
}

/// Profile types from their four routines: move generation, attack
/// routines, defect counter, mobility set (the evaluation uses the same
/// defect counter as the search's extensions).
macro_rules! profiles {
    ($($(#[$doc:meta])* $ty:ident, $name:literal, $gen:ty, $attacks:ty, $defects:ty, $mobility:ty;)*) => {$(
        $(#[$doc])*
        pub struct $ty;

        impl Profile for $ty {
            const NAME: &'static str = $name;
            type Gen = $gen;
            type Defects = $defects;
            type Eval = EngineEval<$mobility, $defects>;

            #[inline(always)]
            fn in_check(pos: &Position) -> bool {
                <$attacks>::in_check(pos)
            }

            #[inline(always)]
            fn see(pos: &Position, m: Move) -> i32 {
                <$attacks>::see(pos, m)
            }

            #[inline(always)]
            fn loses_to_recapture(pos: &Position, m: Move) -> bool {
                <$attacks>::loses_to_recapture(pos, m)
            }
        }
    )*};
}

type NewGen = BitboardGen<FastSliders>;

// Type and name, then the routines: move generation, attacks (check
// detection and SEE), the defect count, mobility.
profiles! {
    /// Every routine in its old 0x88 mailbox form.
    MailboxProfile,      "mailbox",               MailboxGen, MailboxAttacks,  MailboxDefects,  MailboxSet;
    /// Every routine in its new bitboard form.
    BitboardProfile,     "bitboard",              NewGen,     BitboardAttacks, BitboardDefects, ChainSet;
    /// The bitboard profile with single-probe mobility in the evaluation.
    SingleProbeProfile,  "single-probe",          NewGen,     BitboardAttacks, BitboardDefects, SingleProbeSet;
    /// The bitboard profile with mailbox move generation.
    BitboardOldMovegen,  "bitboard-old-movegen",  MailboxGen, BitboardAttacks, BitboardDefects, ChainSet;
    /// The bitboard profile with mailbox check detection and SEE.
    BitboardOldAttacks,  "bitboard-old-attacks",  NewGen,     MailboxAttacks,  BitboardDefects, ChainSet;
    /// The bitboard profile with the mailbox defect count.
    BitboardOldDefects,  "bitboard-old-defects",  NewGen,     BitboardAttacks, MailboxDefects,  ChainSet;
    /// The bitboard profile with mailbox mobility.
    BitboardOldMobility, "bitboard-old-mobility", NewGen,     BitboardAttacks, BitboardDefects, MailboxSet;
    /// The mailbox profile with bitboard move generation.
    MailboxNewMovegen,   "mailbox-new-movegen",   NewGen,     MailboxAttacks,  MailboxDefects,  MailboxSet;
    /// The mailbox profile with bitboard check detection and SEE.
    MailboxNewAttacks,   "mailbox-new-attacks",   MailboxGen, BitboardAttacks, MailboxDefects,  MailboxSet;
    /// The mailbox profile with the bitboard defect count.
    MailboxNewDefects,   "mailbox-new-defects",   MailboxGen, MailboxAttacks,  BitboardDefects, MailboxSet;
    /// The mailbox profile with `chain` mobility (the bitboard profile's).
    MailboxNewMobility,  "mailbox-new-mobility",  MailboxGen, MailboxAttacks,  MailboxDefects,  ChainSet;
}

/// The bitboard profile with a per-piece mobility mix chosen at run time
/// (function pointers picked once): for measurement commands such as
/// `engine evalcycles --mobility-rook mailbox`, not for play.
pub struct MixedProfile;

impl Profile for MixedProfile {
    const NAME: &'static str = "mixed";
    type Gen = BitboardGen<FastSliders>;
    type Defects = BitboardDefects;
    type Eval = EngineEval<DynamicSet, BitboardDefects>;
}

/// The run-time name of a profile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ProfileKind {
    Mailbox,
    #[default]
    Bitboard,
    SingleProbe,
    BitboardOldMovegen,
    BitboardOldAttacks,
    BitboardOldDefects,
    BitboardOldMobility,
    MailboxNewMovegen,
    MailboxNewAttacks,
    MailboxNewDefects,
    MailboxNewMobility,
}

impl ProfileKind {
    /// The three whole profiles: every routine old, every routine new, and
    /// new with single-probe mobility.
    pub const ALL: [ProfileKind; 3] = [ProfileKind::Mailbox, ProfileKind::Bitboard, ProfileKind::SingleProbe];

    /// The profiles with one routine swapped: bitboard with each routine
    /// old, then mailbox with each routine new (routines in the order
    /// movegen, attacks, defects, mobility).
    pub const SWAPPED: [ProfileKind; 8] = [
        ProfileKind::BitboardOldMovegen,
        ProfileKind::BitboardOldAttacks,
        ProfileKind::BitboardOldDefects,
        ProfileKind::BitboardOldMobility,
        ProfileKind::MailboxNewMovegen,
        ProfileKind::MailboxNewAttacks,
        ProfileKind::MailboxNewDefects,
        ProfileKind::MailboxNewMobility,
    ];

    /// Every profile: [`ALL`](Self::ALL), then [`SWAPPED`](Self::SWAPPED).
    pub fn every() -> impl Iterator<Item = ProfileKind> {
        ProfileKind::ALL.into_iter().chain(ProfileKind::SWAPPED)
    }

    pub const fn name(self) -> &'static str {
        match self {
            ProfileKind::Mailbox => MailboxProfile::NAME,
            ProfileKind::Bitboard => BitboardProfile::NAME,
            ProfileKind::SingleProbe => SingleProbeProfile::NAME,
            ProfileKind::BitboardOldMovegen => BitboardOldMovegen::NAME,
            ProfileKind::BitboardOldAttacks => BitboardOldAttacks::NAME,
            ProfileKind::BitboardOldDefects => BitboardOldDefects::NAME,
            ProfileKind::BitboardOldMobility => BitboardOldMobility::NAME,
            ProfileKind::MailboxNewMovegen => MailboxNewMovegen::NAME,
            ProfileKind::MailboxNewAttacks => MailboxNewAttacks::NAME,
            ProfileKind::MailboxNewDefects => MailboxNewDefects::NAME,
            ProfileKind::MailboxNewMobility => MailboxNewMobility::NAME,
        }
    }
}

impl fmt::Display for ProfileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A profile name that is none of the profiles' names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown profile {0:?} (expected mailbox, bitboard or single-probe, or one routine swapped: \
     bitboard-old-R or mailbox-new-R with R one of movegen, attacks, defects, mobility)"
)]
pub struct UnknownProfile(pub String);

impl FromStr for ProfileKind {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<ProfileKind, UnknownProfile> {
        ProfileKind::every()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownProfile(s.to_string()))
    }
}

/// Run `$body` with the type alias `$p` bound to the profile type named by
/// the [`ProfileKind`] `$kind`. The choice is made once, here; `$body` is
/// monomorphised for each profile.
///
/// ```
/// use engine::search::{Profile, ProfileKind};
/// let name = engine::with_profile!(ProfileKind::Mailbox, P => P::NAME);
/// assert_eq!(name, "mailbox");
/// ```
#[macro_export]
macro_rules! with_profile {
    ($kind:expr, $p:ident => $body:expr) => {{
        use $crate::search::profile as profiles;
        match $kind {
            $crate::search::ProfileKind::Mailbox => {
                type $p = profiles::MailboxProfile;
                $body
            }
            $crate::search::ProfileKind::Bitboard => {
                type $p = profiles::BitboardProfile;
                $body
            }
            $crate::search::ProfileKind::SingleProbe => {
                type $p = profiles::SingleProbeProfile;
                $body
            }
            $crate::search::ProfileKind::BitboardOldMovegen => {
                type $p = profiles::BitboardOldMovegen;
                $body
            }
            $crate::search::ProfileKind::BitboardOldAttacks => {
                type $p = profiles::BitboardOldAttacks;
                $body
            }
            $crate::search::ProfileKind::BitboardOldDefects => {
                type $p = profiles::BitboardOldDefects;
                $body
            }
            $crate::search::ProfileKind::BitboardOldMobility => {
                type $p = profiles::BitboardOldMobility;
                $body
            }
            $crate::search::ProfileKind::MailboxNewMovegen => {
                type $p = profiles::MailboxNewMovegen;
                $body
            }
            $crate::search::ProfileKind::MailboxNewAttacks => {
                type $p = profiles::MailboxNewAttacks;
                $body
            }
            $crate::search::ProfileKind::MailboxNewDefects => {
                type $p = profiles::MailboxNewDefects;
                $body
            }
            $crate::search::ProfileKind::MailboxNewMobility => {
                type $p = profiles::MailboxNewMobility;
                $body
            }
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn en_prise_records_are_reported_only_when_fresh() {
        // The knight on e4 is attacked by the d5 pawn.
        let mut pos = Position::from_fen("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1").unwrap();
        let mut eval = <MailboxProfile as Profile>::Eval::default();
        eval.evaluate(&mut pos, -30_000, 30_000);
        let e4 = crate::types::Square::parse("e4").unwrap();
        assert_eq!(eval.en_prise(), Bitboard::from_square(e4));
        // The same knight, another position, a window far away: a lazy exit
        // reaches no records.
        let mut other = Position::from_fen("4k3/8/8/3p4/4N3/8/8/3K4 w - - 0 1").unwrap();
        let lazy = eval.stats().lazy;
        eval.evaluate(&mut other, 10_000, 10_001);
        assert_eq!(eval.stats().lazy, lazy + 1, "a window far away exits lazily");
        assert!(eval.en_prise().is_empty());
        // A hash hit on the first position brings its records back.
        eval.evaluate(&mut pos, -30_000, 30_000);
        assert_eq!(eval.en_prise(), Bitboard::from_square(e4));
        eval.clear();
        assert!(eval.en_prise().is_empty());
    }

    #[test]
    fn names_round_trip() {
        for kind in ProfileKind::every() {
            assert_eq!(kind.name().parse::<ProfileKind>(), Ok(kind));
            assert_eq!(with_profile!(kind, P => P::NAME), kind.name());
        }
        let routines = ["movegen", "attacks", "defects", "mobility"];
        for (i, routine) in routines.into_iter().enumerate() {
            assert_eq!(ProfileKind::SWAPPED[i].name(), format!("bitboard-old-{routine}"));
            assert_eq!(ProfileKind::SWAPPED[4 + i].name(), format!("mailbox-new-{routine}"));
        }
        assert_eq!("Single-Probe".parse::<ProfileKind>(), Ok(ProfileKind::SingleProbe));
        let err = "magic".parse::<ProfileKind>().unwrap_err();
        assert!(err.to_string().contains("\"magic\""), "{err}");
    }

    #[test]
    fn check_detection_agrees() {
        for (fen, check) in [
            ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", true),
            ("4k3/8/8/8/1b6/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/4P3/r2BK3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", true),
            ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR w KQkq - 0 2", false),
            ("4k3/8/8/8/8/8/r7/6K1 b - - 0 1", false),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(MailboxProfile::in_check(&pos), check, "{fen}");
            assert_eq!(BitboardProfile::in_check(&pos), check, "{fen}");
        }
    }
}
