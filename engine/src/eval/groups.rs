//! The evaluation's work in ten groups, the unit in which its cost is
//! attributed: by ablation (the evaluation monomorphised without a group,
//! [`super::ablation`]), by the cycle counters ([`super::counters`], whose
//! rotating mode times one group per evaluation) and by instruction counts.
//!
//! | group | its own work (dropped by "without G") | state it builds that later groups read |
//! |---|---|---|
//! | hash | eval-hash probe and store, the lazy-exit test and its adaptive margin | none (the stored entry is read by later evaluations only) |
//! | material | material, bad trades, lone bishop, bishop pair, the drawish scaling | (the material entry: an input, see below) |
//! | pawns | pawn structure score, doubled pawns, passer race | (the pawn entry: an input, see below) |
//! | pawn_attacks | none: it scores nothing | pawn attacks: accumulators `pawn[c]`, or the pawn bit of the attack words |
//! | knights | knight terms, knight mobility score | knight attacks (minor class): accumulators or words, via the mobility routine |
//! | bishops | bishop terms, mobility and best-ray scores | bishop attacks and x-rays (minor class), via the mobility routine |
//! | rooks | rook terms, mobility, best ray, connected, trapped | rook attacks and x-rays, via the mobility routine |
//! | queens | queen terms, mobility, king-ring walks | queen attacks and x-rays, via the mobility routine |
//! | kings | king safety (danger counter, shelter), uncastled, endgame; the shelter cache write-back | king attacks (`king[c]`, king bits of the words) and, for accumulators, the union of direct attacks `direct[c]` |
//! | passers | passers with full attack information | the en-prise (and trapped) records: read by the eval-hash store and the search |
//!
//! Who reads which state (so why "without G" must still build it):
//!
//! * pawn attacks → every mobility routine ("unsafe" squares: a minor fears
//!   enemy pawns), king danger (ring attacks), passers (stop-square
//!   control), records (en prise);
//! * knight and bishop attacks (the minor class) → rook and queen mobility
//!   (a rook fears pawns and minors), king danger, passers, records;
//! * rook attacks → queen mobility (a queen fears pawns, minors and
//!   rooks), king danger, passers, records;
//! * queen attacks → king danger, passers, records;
//! * king attacks → the other king's danger (squares only the king
//!   defends, the attacker pattern), passers, records;
//! * records → the eval-hash store and the search's quiescence;
//! * the mobility routine is one computation in every implementation: the
//!   walk (mailbox) or the probes (chain, single probe) that record a
//!   piece's attacks also count its mobility. "Without G" for a piece group
//!   still calls the routine and drops what it returns (the compiler may
//!   then drop the counting it inlines); "without G and its state" does not
//!   call it.
//!
//! Inputs no variant can leave out, because every group reads them: the
//! material entry (material table lookup: army for rooks, kings, passers
//! and the scaling, majors for doubled pawns), the pawn entry (pawn hash
//! lookup: stationary pawns for mobility and bishops, passers, shelter,
//! files) and, for the mailbox set, clearing the attack words before pawn
//! attacks are recorded (every later word read depends on it). The counters
//! time them as their own rows; an ablation leaves them in its unattributed
//! remainder. The mobility inputs (each king's zone, stationary pawns) are
//! copies taken from the position and the pawn entry: glue.

use super::trace::Term;

/// A group of the evaluation's work, in evaluation order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// The eval-hash probe and store.
    Hash,
    /// Material, bad trades, the bishop pair and scaling.
    Material,
    /// Pawn structure and the passer race.
    Pawns,
    /// The attack state from pawns (and, mailbox, clearing the words).
    PawnAttacks,
    /// Knights.
    Knights,
    /// Bishops.
    Bishops,
    /// Rooks.
    Rooks,
    /// Queens.
    Queens,
    /// Kings.
    Kings,
    /// Passers and the en-prise and trapped records.
    Passers,
}

impl Group {
    /// Every group, in evaluation order.
    pub const ALL: [Group; 10] = [
        Group::Hash,
        Group::Material,
        Group::Pawns,
        Group::PawnAttacks,
        Group::Knights,
        Group::Bishops,
        Group::Rooks,
        Group::Queens,
        Group::Kings,
        Group::Passers,
    ];

    /// The name used in JSON and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Group::Hash => "hash",
            Group::Material => "material",
            Group::Pawns => "pawns",
            Group::PawnAttacks => "pawn_attacks",
            Group::Knights => "knights",
            Group::Bishops => "bishops",
            Group::Rooks => "rooks",
            Group::Queens => "queens",
            Group::Kings => "kings",
            Group::Passers => "passers",
        }
    }

    /// A label for tables and plots.
    pub const fn label(self) -> &'static str {
        match self {
            Group::Hash => "hash probe/store",
            Group::Material => "material, trades, scaling",
            Group::Pawns => "pawns, passer race",
            Group::PawnAttacks => "pawn attacks",
            Group::Knights => "knights",
            Group::Bishops => "bishops",
            Group::Rooks => "rooks",
            Group::Queens => "queens",
            Group::Kings => "kings",
            Group::Passers => "passers, records",
        }
    }

    /// The group of this name (`Group::name`), if any.
    pub fn parse(s: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == s)
    }

    /// Skip-mask bit: leave out the group's own work (its score), keep the
    /// state it builds for later groups.
    pub const fn work_bit(self) -> u32 {
        1 << self as u32
    }

    /// Skip-mask bit: also leave out the state the group builds (timing
    /// only: later groups then read incomplete state).
    pub const fn state_bit(self) -> u32 {
        1 << (16 + self as u32)
    }

    /// Does the group have work of its own to leave out? (Pawn attacks
    /// only build state.)
    pub const fn has_work(self) -> bool {
        !matches!(self, Group::PawnAttacks)
    }

    /// Does the group build state that later groups read and that a
    /// variant can leave out?
    pub const fn has_state(self) -> bool {
        !matches!(self, Group::Hash | Group::Material | Group::Pawns)
    }

    /// The group a scored term belongs to.
    pub const fn of_term(term: Term) -> Group {
        match term {
            Term::Material | Term::BadTrades | Term::BishopPair | Term::LoneBishop => Group::Material,
            Term::Pawns | Term::DoubledPawns | Term::PasserRace => Group::Pawns,
            Term::Knights | Term::KnightMobility => Group::Knights,
            Term::Bishops | Term::BishopMobility | Term::BishopBestRay => Group::Bishops,
            Term::Rooks | Term::RookMobility | Term::RookBestRay | Term::RookConnected | Term::RookTrapped => {
                Group::Rooks
            }
            Term::Queens | Term::QueenMobility | Term::QueenKingRing => Group::Queens,
            Term::KingSafety | Term::KingUncastled | Term::KingEndgame => Group::Kings,
            Term::Passers => Group::Passers,
        }
    }
}

impl std::fmt::Display for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Skip-mask bit: the groups to leave out are read at run time (from the
/// evaluator's own mask, [`super::Evaluation::skip_at_run_time`]), so
/// every variant runs one and the same code: the ablation at fixed code.
/// Leaving a group out of a monomorphised copy also takes its code out of
/// the copy, and a smaller copy can run the rest faster (front end, branch
/// predictors); at fixed code, only the group's execution is left out.
pub const RUNTIME_SKIP: u32 = 1 << 15;

/// Does skip mask `mask` leave out `group`'s own work?
#[inline(always)]
pub const fn drops_work(mask: u32, group: Group) -> bool {
    mask & group.work_bit() != 0
}

/// Does skip mask `mask` leave out the state `group` builds?
#[inline(always)]
pub const fn drops_state(mask: u32, group: Group) -> bool {
    mask & group.state_bit() != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_has_a_scoring_group_and_names_round_trip() {
        for term in Term::ALL {
            let g = Group::of_term(term);
            assert!(g.has_work(), "{term:?} scores in {g}, which has no work of its own");
            assert!(g != Group::Hash, "{term:?}");
        }
        for g in Group::ALL {
            assert_eq!(Group::parse(g.name()), Some(g));
            assert_eq!(g.work_bit() & g.state_bit(), 0);
        }
        let bits: u32 = Group::ALL.iter().map(|g| g.work_bit() | g.state_bit()).fold(0, |a, b| a | b);
        assert_eq!(bits.count_ones(), 20, "every bit distinct");
        assert_eq!(Group::parse("bishop"), None);
    }
}
