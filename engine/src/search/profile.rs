//! Engine profiles: the search is generic over a [`Profile`], a type that
//! names one implementation of every migrated routine (move generation, the
//! attack routines, the king-safety defect count, the evaluation). Each
//! profile is monomorphised on its own, so no hot loop ever branches on
//! which implementation is in use.
//!
//! The table at the end of this file is the one place a profile is named:
//! one row gives its [`ProfileKind`] variant, its type, its name and its
//! four routines, and generates the type, the variant, the lists
//! ([`ProfileKind::ALL`], [`ProfileKind::SWAPPED`],
//! [`ProfileKind::MOBILITY_BY_PIECE`], [`ProfileKind::EVERY`]), the name,
//! parsing, the names in the [`UnknownProfile`] message and the arms of
//! [`with_profile!`](crate::with_profile), which turns a [`ProfileKind`]
//! into its type once, outside any loop.
//!
//! * `mailbox`: every routine in its old 0x88 form.
//! * `bitboard`: every routine in its new form, with `chain` mobility (the
//!   exact port of the mailbox walk) and SEE on bitboards end to end.
//! * `single-probe`: the bitboard profile with seed 000's single-probe
//!   mobility.
//! * Eight profiles with one routine swapped, for whole-engine attribution
//!   (what each migration step buys the engine, not just the isolated
//!   call): `bitboard-old-R` is the bitboard profile with routine `R` in
//!   its old form, `mailbox-new-R` the mailbox profile with `R` in its new
//!   form, where `R` is one of `movegen`, `attacks` (check detection and
//!   SEE), `defects` (the king-safety defect count), `mobility`.
//! * Four with one piece type's mobility swapped: `bitboard-old-mobility-P`
//!   is the bitboard profile with the mobility of `P` (`knight`, `bishop`,
//!   `rook`, `queen`) in mailbox form.
//!
//! The mailbox and bitboard forms of every routine compute equal values
//! (move sets, SEE, defects, every evaluation term), so every profile but
//! `single-probe` searches identical trees; only the time per node differs.

use super::attacks::{AttackRoutines, BitboardAttacks, MailboxAttacks};
use crate::defects::{BitboardDefects, DefectCounter, MailboxDefects};
use crate::eval::mobility::{
    ChainWithMailboxBishop, ChainWithMailboxKnight, ChainWithMailboxQueen, ChainWithMailboxRook,
};
use crate::eval::{ChainSet, DynamicSet, EngineEval, Evaluator, MailboxSet, SingleProbeSet};
use crate::movegen::{BitboardGen, MailboxGen, MoveGen};
use crate::sliders::FastSliders;
use std::fmt;
use std::str::FromStr;

/// An engine profile: one monomorphised instance of every routine.
pub trait Profile: 'static {
    /// The name on the command line, in the UCI option and in results.
    const NAME: &'static str;
    /// Legal move generation.
    type Gen: MoveGen;
    /// Check detection, static exchange evaluation and the cheap
    /// recapture test.
    type Attacks: AttackRoutines;
    /// The king-safety defect count behind the two search extensions.
    type Defects: DefectCounter;
    /// The evaluation.
    type Eval: Evaluator + Default + Send;
}

/// The old move generation: the 0x88 piece-list walk.
type OldGen = MailboxGen;
/// The new move generation: bitboards with the fastest slider lookups.
type NewGen = BitboardGen<FastSliders>;
/// The old attack routines: piece-list scans and mailbox attacker lists.
type OldAttacks = MailboxAttacks;
/// The new attack routines: bitboard attackers.
type NewAttacks = BitboardAttacks;
/// The old defect count: piece-list geometry.
type OldDefects = MailboxDefects;
/// The new defect count: bitboard geometry.
type NewDefects = BitboardDefects;

/// Everything that names a profile, from the one table below. A row is
/// `Variant = Type, "name": movegen, attacks, defects, mobility;` under the
/// list it belongs to; the evaluation uses the row's defect counter too.
/// `$d` is a literal `$`, so the rule can write the dispatch macro.
macro_rules! profiles {
    (
        default: $default:ident;
        $(
            $(#[$list_doc:meta])*
            $list:ident: [
                $(
                    $(#[$doc:meta])*
                    $kind:ident = $ty:ident, $name:literal:
                        $gen:ty, $attacks:ty, $defects:ty, $mobility:ty;
                )*
            ]
        )*
    ) => {
        profiles! {
            @emit ($) $default
            $([$(#[$list_doc])* $list $([$(#[$doc])* $kind $ty $name $gen, $attacks, $defects, $mobility])*])*
        }
    };
    (
        @emit ($d:tt) $default:ident
        $([$(#[$list_doc:meta])* $list:ident $([
            $(#[$doc:meta])* $kind:ident $ty:ident $name:literal $gen:ty, $attacks:ty, $defects:ty, $mobility:ty
        ])*])*
    ) => {
        $($(
            $(#[$doc])*
            pub struct $ty;

            impl Profile for $ty {
                const NAME: &'static str = $name;
                type Gen = $gen;
                type Attacks = $attacks;
                type Defects = $defects;
                type Eval = EngineEval<$mobility, $defects>;
            }
        )*)*

        /// The run-time name of a profile.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum ProfileKind {
            $($(
                $(#[$doc])*
                $kind,
            )*)*
        }

        impl Default for ProfileKind {
            /// The profile a search uses unless told otherwise.
            fn default() -> ProfileKind {
                ProfileKind::$default
            }
        }

        impl ProfileKind {
            $(
                $(#[$list_doc])*
                pub const $list: [ProfileKind; [$(ProfileKind::$kind),*].len()] = [$(ProfileKind::$kind),*];
            )*

            /// Every profile, in the order of the lists above.
            pub const EVERY: [ProfileKind; [$($(ProfileKind::$kind,)*)*].len()] = [$($(ProfileKind::$kind,)*)*];

            /// The name on the command line, in the UCI option and in
            /// results.
            pub const fn name(self) -> &'static str {
                match self {
                    $($(ProfileKind::$kind => $name,)*)*
                }
            }
        }

        /// Run `$body` with the type alias `$p` bound to the profile type
        /// named by the [`ProfileKind`] `$kind`. The choice is made once,
        /// here; `$body` is monomorphised for each profile.
        ///
        /// ```
        /// use engine::search::{Profile, ProfileKind};
        /// let name = engine::with_profile!(ProfileKind::Mailbox, P => P::NAME);
        /// assert_eq!(name, "mailbox");
        /// ```
        #[macro_export]
        macro_rules! with_profile {
            ($d kind:expr, $d p:ident => $d body:expr) => {{
                match $d kind {
                    $($(
                        $crate::search::ProfileKind::$kind => {
                            type $d p = $crate::search::profile::$ty;
                            $d body
                        }
                    )*)*
                }
            }};
        }
    };
}

profiles! {
    default: Bitboard;

    /// The three whole profiles: every routine old, every routine new, and
    /// new with single-probe mobility.
    ALL: [
        /// Every routine in its old 0x88 mailbox form.
        Mailbox = MailboxProfile, "mailbox":
            OldGen, OldAttacks, OldDefects, MailboxSet;
        /// Every routine in its new bitboard form.
        Bitboard = BitboardProfile, "bitboard":
            NewGen, NewAttacks, NewDefects, ChainSet;
        /// The bitboard profile with single-probe mobility in the evaluation.
        SingleProbe = SingleProbeProfile, "single-probe":
            NewGen, NewAttacks, NewDefects, SingleProbeSet;
    ]

    /// The profiles with one routine swapped: bitboard with each routine
    /// old, then mailbox with each routine new (routines in the order
    /// movegen, attacks, defects, mobility).
    SWAPPED: [
        /// The bitboard profile with mailbox move generation.
        BitboardOldMovegen = BitboardOldMovegen, "bitboard-old-movegen":
            OldGen, NewAttacks, NewDefects, ChainSet;
        /// The bitboard profile with mailbox check detection and SEE.
        BitboardOldAttacks = BitboardOldAttacks, "bitboard-old-attacks":
            NewGen, OldAttacks, NewDefects, ChainSet;
        /// The bitboard profile with the mailbox defect count.
        BitboardOldDefects = BitboardOldDefects, "bitboard-old-defects":
            NewGen, NewAttacks, OldDefects, ChainSet;
        /// The bitboard profile with mailbox mobility.
        BitboardOldMobility = BitboardOldMobility, "bitboard-old-mobility":
            NewGen, NewAttacks, NewDefects, MailboxSet;
        /// The mailbox profile with bitboard move generation.
        MailboxNewMovegen = MailboxNewMovegen, "mailbox-new-movegen":
            NewGen, OldAttacks, OldDefects, MailboxSet;
        /// The mailbox profile with bitboard check detection and SEE.
        MailboxNewAttacks = MailboxNewAttacks, "mailbox-new-attacks":
            OldGen, NewAttacks, OldDefects, MailboxSet;
        /// The mailbox profile with the bitboard defect count.
        MailboxNewDefects = MailboxNewDefects, "mailbox-new-defects":
            OldGen, OldAttacks, NewDefects, MailboxSet;
        /// The mailbox profile with `chain` mobility (the bitboard profile's).
        MailboxNewMobility = MailboxNewMobility, "mailbox-new-mobility":
            OldGen, OldAttacks, OldDefects, ChainSet;
    ]

    /// The bitboard profile with one piece type's mobility in mailbox form
    /// (knight, bishop, rook, queen): the mobility swap piece by piece.
    MOBILITY_BY_PIECE: [
        /// The bitboard profile with the knight's mobility in mailbox form.
        BitboardOldMobilityKnight = BitboardOldMobilityKnight, "bitboard-old-mobility-knight":
            NewGen, NewAttacks, NewDefects, ChainWithMailboxKnight;
        /// The bitboard profile with the bishop's mobility in mailbox form.
        BitboardOldMobilityBishop = BitboardOldMobilityBishop, "bitboard-old-mobility-bishop":
            NewGen, NewAttacks, NewDefects, ChainWithMailboxBishop;
        /// The bitboard profile with the rook's mobility in mailbox form.
        BitboardOldMobilityRook = BitboardOldMobilityRook, "bitboard-old-mobility-rook":
            NewGen, NewAttacks, NewDefects, ChainWithMailboxRook;
        /// The bitboard profile with the queen's mobility in mailbox form.
        BitboardOldMobilityQueen = BitboardOldMobilityQueen, "bitboard-old-mobility-queen":
            NewGen, NewAttacks, NewDefects, ChainWithMailboxQueen;
    ]
}

/// The bitboard profile with a per-piece mobility mix chosen at run time
/// (function pointers picked once): for measurement commands such as
/// `engine evalcycles --mobility-rook mailbox`, not for play. It has no
/// [`ProfileKind`]: its mix is an argument, not a name.
pub struct MixedProfile;

impl Profile for MixedProfile {
    const NAME: &'static str = "mixed";
    type Gen = NewGen;
    type Attacks = NewAttacks;
    type Defects = NewDefects;
    type Eval = EngineEval<DynamicSet, NewDefects>;
}

impl fmt::Display for ProfileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A profile name that is none of the profiles' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown profile {:?} (expected one of: ", self.0)?;
        for (i, kind) in ProfileKind::EVERY.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{kind}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownProfile {}

impl FromStr for ProfileKind {
    type Err = UnknownProfile;

    /// A profile by its name, ignoring ASCII case and surrounding blanks.
    fn from_str(s: &str) -> Result<ProfileKind, UnknownProfile> {
        ProfileKind::EVERY
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownProfile(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in ProfileKind::EVERY {
            assert_eq!(kind.name().parse::<ProfileKind>(), Ok(kind));
            assert_eq!(with_profile!(kind, P => P::NAME), kind.name());
        }
        let routines = ["movegen", "attacks", "defects", "mobility"];
        for (i, routine) in routines.into_iter().enumerate() {
            assert_eq!(ProfileKind::SWAPPED[i].name(), format!("bitboard-old-{routine}"));
            assert_eq!(ProfileKind::SWAPPED[4 + i].name(), format!("mailbox-new-{routine}"));
        }
        for (i, piece) in ["knight", "bishop", "rook", "queen"].into_iter().enumerate() {
            assert_eq!(ProfileKind::MOBILITY_BY_PIECE[i].name(), format!("bitboard-old-mobility-{piece}"));
        }
        assert_eq!(ProfileKind::default(), ProfileKind::Bitboard);
        assert_eq!("Single-Probe".parse::<ProfileKind>(), Ok(ProfileKind::SingleProbe));
    }

    #[test]
    fn every_profile_is_listed_once_under_its_own_name() {
        let lists = [&ProfileKind::ALL[..], &ProfileKind::SWAPPED, &ProfileKind::MOBILITY_BY_PIECE].concat();
        assert_eq!(lists, ProfileKind::EVERY);
        let mut names: Vec<&str> = ProfileKind::EVERY.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ProfileKind::EVERY.len(), "two profiles share a name");
    }

    #[test]
    fn an_unknown_name_is_answered_with_every_name() {
        let err = "magic".parse::<ProfileKind>().unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("unknown profile \"magic\""), "{text}");
        for kind in ProfileKind::EVERY {
            assert!(text.contains(kind.name()), "{text} lacks {kind}");
        }
    }

    #[test]
    fn per_piece_mobility_sets_are_the_chain_set_with_one_piece_in_mailbox_form() {
        use crate::eval::mobility::{MobilityKind, MobilitySet};
        let sets = [
            ChainWithMailboxKnight.kinds(),
            ChainWithMailboxBishop.kinds(),
            ChainWithMailboxRook.kinds(),
            ChainWithMailboxQueen.kinds(),
        ];
        for (piece, kinds) in sets.into_iter().enumerate() {
            for (other, kind) in kinds.into_iter().enumerate() {
                let want = if other == piece { MobilityKind::Mailbox } else { MobilityKind::Chain };
                assert_eq!(kind, want, "set {piece}, piece {other}");
            }
        }
    }
}
