//! The equivalence sweep of one migrated routine, as its retirement needs
//! it: the old form against the new one on seeded random positions (the
//! positions of `engine equiv`), each pair reported like
//! [`super::equiv`]'s.
//!
//! | routine | old profile | pairs compared |
//! |---|---|---|
//! | `attacks` | `bitboard-old-attacks` | attacker lists (magic, PEXT), is-square-attacked (magic, PEXT), SEE over both lists and on bitboards end to end, the recapture test |
//! | `defects` | `bitboard-old-defects` | defect and pointing counts of both kings |
//! | `mobility-P` | `bitboard-old-mobility-P` | every term of the evaluation (its trace: terms, pieces' reports, king inputs, records), the old profile's evaluation against the bitboard profile's |
//! | `movegen` | `bitboard-old-movegen` | legal, tactical and quiet move sets (bitboard with magic and with PEXT) and the legal count |
//!
//! The mobility pairs compare the very evaluations the two profiles
//! search with (the chain set with one piece type's mailbox walk against
//! the chain set), not a toggle in a mailbox context.

use super::equiv::{
    attackers_pair, defects_pair, gives_check_pair, is_attacked_pair, recapture_pair, see_pair, Difference,
    EquivReport, PairReport,
};
use crate::defects::BitboardDefects;
use crate::eval::mobility::{
    ChainSet, ChainWithMailboxBishop, ChainWithMailboxKnight, ChainWithMailboxQueen, ChainWithMailboxRook, MobilitySet,
};
use crate::eval::weights::Weights;
use crate::eval::{EvalConfig, Evaluation};
use crate::movegen::{BitboardGen, MailboxGen, MoveGen};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::search::ProfileKind;
#[cfg(target_feature = "bmi2")]
use crate::sliders::Pext;
use crate::sliders::{Magic, Sliders};
use std::fmt;

/// A routine that exists in an old and a new form, as a retirement names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Routine {
    /// Attacker lists, check detection and SEE.
    Attacks,
    /// The king-safety defect count.
    Defects,
    /// The knight's mobility.
    MobilityKnight,
    /// The bishop's mobility.
    MobilityBishop,
    /// The rook's mobility.
    MobilityRook,
    /// The queen's mobility.
    MobilityQueen,
    /// Move generation.
    Movegen,
}

impl Routine {
    /// Every routine.
    pub const ALL: [Routine; 7] = [
        Routine::Attacks,
        Routine::Defects,
        Routine::MobilityKnight,
        Routine::MobilityBishop,
        Routine::MobilityRook,
        Routine::MobilityQueen,
        Routine::Movegen,
    ];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Routine::Attacks => "attacks",
            Routine::Defects => "defects",
            Routine::MobilityKnight => "mobility-knight",
            Routine::MobilityBishop => "mobility-bishop",
            Routine::MobilityRook => "mobility-rook",
            Routine::MobilityQueen => "mobility-queen",
            Routine::Movegen => "movegen",
        }
    }

    /// What the routine covers, for people.
    pub const fn about(self) -> &'static str {
        match self {
            Routine::Attacks => "attacker lists, check detection and SEE",
            Routine::Defects => "the king-safety defect count",
            Routine::MobilityKnight => "the knight's mobility and attack recording",
            Routine::MobilityBishop => "the bishop's mobility and attack recording",
            Routine::MobilityRook => "the rook's mobility and attack recording",
            Routine::MobilityQueen => "the queen's mobility and attack recording",
            Routine::Movegen => "legal move generation",
        }
    }

    /// The routine of this name, if any.
    pub fn parse(name: &str) -> Option<Routine> {
        Routine::ALL.into_iter().find(|r| r.name() == name.trim())
    }

    /// The bitboard profile with this routine in its old form.
    pub const fn old_profile(self) -> ProfileKind {
        match self {
            Routine::Attacks => ProfileKind::BitboardOldAttacks,
            Routine::Defects => ProfileKind::BitboardOldDefects,
            Routine::MobilityKnight => ProfileKind::BitboardOldMobilityKnight,
            Routine::MobilityBishop => ProfileKind::BitboardOldMobilityBishop,
            Routine::MobilityRook => ProfileKind::BitboardOldMobilityRook,
            Routine::MobilityQueen => ProfileKind::BitboardOldMobilityQueen,
            Routine::Movegen => ProfileKind::BitboardOldMovegen,
        }
    }

    /// The profile with every routine in its new form.
    pub const fn new_profile(self) -> ProfileKind {
        ProfileKind::Bitboard
    }
}

impl fmt::Display for Routine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Record one case of `report` (the detail built only for its first difference).
fn record(report: &mut PairReport, equal: bool, index: usize, pos: &Position, detail: impl FnOnce() -> String) {
    report.compared += 1;
    if !equal {
        report.differed += 1;
        if report.first.is_none() {
            report.first = Some(Difference { position: index, fen: pos.to_fen(), detail: detail() });
        }
    }
}

/// One generator call: a position's moves appended to a list.
type Generate = fn(&Position, &mut MoveList);

/// The moves of one generator call, sorted.
fn sorted(generate: Generate, pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    let mut moves = list.as_slice().to_vec();
    moves.sort_unstable();
    moves
}

/// Legal, tactical and quiet move sets of generators `A` and `B`, and
/// their legal counts: four cases per position.
pub fn compare_movegen<A: MoveGen, B: MoveGen>(positions: &[Position], report: &mut PairReport) {
    for (index, pos) in positions.iter().enumerate() {
        let calls: [(&str, Generate, Generate); 3] =
            [("legal", A::legal, B::legal), ("tactical", A::tactical, B::tactical), ("quiet", A::quiet, B::quiet)];
        for (what, a, b) in calls {
            let (old, new) = (sorted(a, pos), sorted(b, pos));
            record(report, old == new, index, pos, || {
                let only = |x: &[Move], y: &[Move]| -> Vec<String> {
                    x.iter().filter(|m| !y.contains(m)).map(|m| m.uci().as_str().to_string()).collect()
                };
                format!(
                    "{what} moves: only {} {:?}, only {} {:?}",
                    A::NAME,
                    only(&old, &new),
                    B::NAME,
                    only(&new, &old)
                )
            });
        }
        let (old, new) = (A::count(pos), B::count(pos));
        record(report, old == new, index, pos, || format!("legal count: {} {old}, {} {new}", A::NAME, B::NAME));
    }
}

/// The evaluations of mobility sets `A` and `B` (bitboard defects, as the
/// profiles), every term and input of their traces: one case per position.
pub fn compare_traces<A: MobilitySet + Default, B: MobilitySet + Default>(
    positions: &[Position],
    report: &mut PairReport,
) {
    let mut a = Evaluation::<A, BitboardDefects>::new(A::default(), Weights::default(), EvalConfig::default());
    let mut b = Evaluation::<B, BitboardDefects>::new(B::default(), Weights::default(), EvalConfig::default());
    for (index, pos) in positions.iter().enumerate() {
        let (old, new) = (a.trace(&mut pos.clone()), b.trace(&mut pos.clone()));
        record(report, old == new, index, pos, || {
            let terms: Vec<String> = crate::eval::trace::Term::ALL
                .iter()
                .filter(|&&t| old.terms[t as usize] != new.terms[t as usize])
                .map(|&t| format!("{} {:?} -> {:?}", t.name(), old.terms[t as usize], new.terms[t as usize]))
                .collect();
            format!(
                "score {} -> {}; terms differing: {}",
                old.side_to_move,
                new.side_to_move,
                if terms.is_empty() {
                    "none (pieces' reports or records differ)".to_string()
                } else {
                    terms.join(", ")
                }
            )
        });
    }
}

/// Every pair of `routine` over `positions`.
pub fn run_routine(routine: Routine, positions: &[Position]) -> EquivReport {
    let pairs = match routine {
        Routine::Attacks => {
            vec![
                attackers_pair(positions),
                is_attacked_pair(positions),
                see_pair(positions),
                recapture_pair(positions),
                gives_check_pair(positions),
            ]
        }
        Routine::Defects => vec![defects_pair(positions)],
        Routine::MobilityKnight => traces::<ChainWithMailboxKnight>(positions, "knight"),
        Routine::MobilityBishop => traces::<ChainWithMailboxBishop>(positions, "bishop"),
        Routine::MobilityRook => traces::<ChainWithMailboxRook>(positions, "rook"),
        Routine::MobilityQueen => traces::<ChainWithMailboxQueen>(positions, "queen"),
        Routine::Movegen => {
            let mut movegen = PairReport::new("movegen");
            compare_movegen::<MailboxGen, BitboardGen<Magic>>(positions, &mut movegen);
            #[cfg(target_feature = "bmi2")]
            compare_movegen::<MailboxGen, BitboardGen<Pext>>(positions, &mut movegen);
            vec![movegen]
        }
    };
    EquivReport { positions: positions.len(), pairs }
}

/// The one pair of a mobility routine: old profile's evaluation `A`
/// against the chain set.
fn traces<A: MobilitySet + Default>(positions: &[Position], piece: &str) -> Vec<PairReport> {
    let mut r = PairReport::new(match piece {
        "knight" => "eval (knight mobility)",
        "bishop" => "eval (bishop mobility)",
        "rook" => "eval (rook mobility)",
        _ => "eval (queen mobility)",
    });
    compare_traces::<A, ChainSet>(positions, &mut r);
    vec![r]
}

/// Positions generated and compared per chunk, so memory stays flat.
const CHUNK: usize = 4096;

/// [`run_routine`] over `n` seeded random positions from `seed` (the same
/// positions, in the same order, as `engine equiv --random n --seed seed`).
pub fn sweep(routine: Routine, n: usize, seed: u64) -> EquivReport {
    let starts = super::randpos::playout_starts();
    let mut total = run_routine(routine, &[]);
    let mut start = 0;
    while start < n {
        let end = (start + CHUNK).min(n);
        let positions: Vec<Position> =
            (start..end).map(|i| super::randpos::nth_random_position(seed, i, starts)).collect();
        total.merge(run_routine(routine, &positions), start);
        start = end;
    }
    total
}

/// The slider implementations each new form was compared with.
pub fn sliders_compared() -> Vec<&'static str> {
    let mut v = vec![Magic::NAME];
    #[cfg(target_feature = "bmi2")]
    v.push(Pext::NAME);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::randpos::random_positions;

    #[test]
    fn names_and_profiles() {
        for r in Routine::ALL {
            assert_eq!(Routine::parse(r.name()), Some(r));
            // The old profile is the bitboard profile with this routine swapped.
            let old = r.old_profile().name();
            assert_eq!(old, format!("bitboard-old-{}", r.name()));
        }
        assert_eq!(Routine::parse("mobility"), None);
    }

    #[test]
    fn every_routine_agrees_on_a_small_sweep_and_counts_its_cases() {
        let n = 60;
        let slider_kinds = sliders_compared().len() as u64;
        for r in Routine::ALL {
            let report = sweep(r, n, 4);
            assert_eq!(report.positions, n);
            for p in &report.pairs {
                assert!(p.compared > 0, "{r} {} compared nothing", p.name);
                assert_eq!(p.differed, 0, "{r} {}: {:?}", p.name, p.first);
            }
            let first = &report.pairs[0];
            match r {
                Routine::Defects => assert_eq!(first.compared, 2 * n as u64),
                Routine::Movegen => assert_eq!(first.compared, 4 * n as u64 * slider_kinds),
                Routine::Attacks => assert_eq!(first.compared, 128 * n as u64 * slider_kinds),
                _ => assert_eq!(first.compared, n as u64),
            }
        }
    }

    /// A generator that forgets promotions to a knight, and the mailbox
    /// evaluation with the rook's mobility against the chain: both caught.
    #[test]
    fn the_sweeps_find_planted_differences() {
        struct NoKnightPromotions;
        impl MoveGen for NoKnightPromotions {
            const NAME: &'static str = "no-knight-promotions";
            fn legal(pos: &Position, list: &mut MoveList) {
                let mut all = MoveList::new();
                MailboxGen::legal(pos, &mut all);
                all.iter().filter(|m| m.promotion_kind() != Some(crate::PieceType::Knight)).for_each(|&m| list.push(m));
            }
            fn tactical(pos: &Position, list: &mut MoveList) {
                MailboxGen::tactical(pos, list)
            }
            fn quiet(pos: &Position, list: &mut MoveList) {
                MailboxGen::quiet(pos, list)
            }
        }
        let mut positions = random_positions(200, 8);
        positions.push(Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap());
        let mut r = PairReport::new("movegen");
        compare_movegen::<MailboxGen, NoKnightPromotions>(&positions, &mut r);
        assert!(r.differed > 0 && r.first.as_ref().unwrap().detail.starts_with("legal moves: only mailbox"), "{r:?}");
        let mut r = PairReport::new("eval");
        compare_traces::<crate::eval::mobility::SingleProbeSet, ChainSet>(&positions, &mut r);
        assert!(r.differed > 0 && r.first.as_ref().unwrap().detail.contains("score"), "{r:?}");
    }
}
