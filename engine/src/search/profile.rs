//! Engine profiles: the search is generic over a [`Profile`], a type that
//! names one implementation of every migrated routine (move generation,
//! check detection, evaluation). Each profile is monomorphised on its own,
//! so no hot loop ever branches on which implementation is in use.
//!
//! * [`MailboxProfile`] (`mailbox`): every routine in its old 0x88 form.
//! * [`BitboardProfile`] (`bitboard`): every routine in its new form.
//! * [`SingleProbeProfile`] (`single-probe`): the bitboard profile with the
//!   single-probe mobility evaluation (DESIGN §4.1) once the evaluation lands.
//!
//! [`ProfileKind`] is the run-time name of a profile (command line, UCI
//! option); [`with_profile!`](crate::with_profile) turns it into a type once,
//! outside any loop.

use crate::attackers::is_attacked_mailbox;
use crate::bitboard::Bitboard;
use crate::movegen::{BitboardGen, MailboxGen, MoveGen};
use crate::position::Position;
use crate::search::material::MaterialEval;
use crate::sliders::FastSliders;
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

/// An engine profile: one monomorphised instance of every routine.
pub trait Profile: 'static {
    /// `mailbox`, `bitboard` or `single-probe`.
    const NAME: &'static str;
    /// Legal move generation.
    type Gen: MoveGen;
    /// The evaluation.
    type Eval: Evaluator + Default + Send;

    /// Is the side to move in check? The mailbox profile answers with the
    /// piece-list scan, the others with bitboards.
    #[inline(always)]
    fn in_check(pos: &Position) -> bool {
        pos.in_check()
    }
}

/// Every routine in its old 0x88 mailbox form.
pub struct MailboxProfile;

/// Every routine in its new bitboard form.
pub struct BitboardProfile;

/// The bitboard profile with single-probe mobility in the evaluation.
pub struct SingleProbeProfile;

impl Profile for MailboxProfile {
    const NAME: &'static str = "mailbox";
    type Gen = MailboxGen;
    type Eval = MaterialEval;

    #[inline(always)]
    fn in_check(pos: &Position) -> bool {
        let us = pos.side_to_move();
        is_attacked_mailbox(pos, pos.king_square88(us), us.flip())
    }
}

impl Profile for BitboardProfile {
    const NAME: &'static str = "bitboard";
    type Gen = BitboardGen<FastSliders>;
    type Eval = MaterialEval;
}

impl Profile for SingleProbeProfile {
    const NAME: &'static str = "single-probe";
    type Gen = BitboardGen<FastSliders>;
    type Eval = MaterialEval;
}

/// The run-time name of a profile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ProfileKind {
    Mailbox,
    #[default]
    Bitboard,
    SingleProbe,
}

impl ProfileKind {
    pub const ALL: [ProfileKind; 3] = [ProfileKind::Mailbox, ProfileKind::Bitboard, ProfileKind::SingleProbe];

    pub const fn name(self) -> &'static str {
        match self {
            ProfileKind::Mailbox => MailboxProfile::NAME,
            ProfileKind::Bitboard => BitboardProfile::NAME,
            ProfileKind::SingleProbe => SingleProbeProfile::NAME,
        }
    }
}

impl fmt::Display for ProfileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A profile name that is none of `mailbox`, `bitboard`, `single-probe`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile {0:?} (expected mailbox, bitboard or single-probe)")]
pub struct UnknownProfile(pub String);

impl FromStr for ProfileKind {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<ProfileKind, UnknownProfile> {
        ProfileKind::ALL
            .into_iter()
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
    ($kind:expr, $p:ident => $body:expr) => {
        match $kind {
            $crate::search::ProfileKind::Mailbox => {
                type $p = $crate::search::MailboxProfile;
                $body
            }
            $crate::search::ProfileKind::Bitboard => {
                type $p = $crate::search::BitboardProfile;
                $body
            }
            $crate::search::ProfileKind::SingleProbe => {
                type $p = $crate::search::SingleProbeProfile;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in ProfileKind::ALL {
            assert_eq!(kind.name().parse::<ProfileKind>(), Ok(kind));
            assert_eq!(with_profile!(kind, P => P::NAME), kind.name());
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
