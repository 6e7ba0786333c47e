//! The equivalence sweep: run every old/new pair on the same positions and
//! count the cases that differ (what each pair must agree on:
//! ARCHITECTURE.md, "Old and new routines").
//!
//! | pair | old | new | one case |
//! |---|---|---|---|
//! | `attackers` | [`MailboxAttackers`] | [`BitboardAttackers`] (magic, PEXT) | square × colour, compared as multisets |
//! | `is_attacked` | [`is_attacked_mailbox`] | [`is_attacked_bitboard`] (magic, PEXT) | square × colour |
//! | `defects` | [`MailboxDefects`] | [`BitboardDefects`] | side: count and pointing |
//! | `sliders` | [`RayWalk`] | [`Magic`], PEXT | square: rook and bishop attacks |
//! | `see` | SEE over mailbox lists | SEE over bitboard lists; SEE on bitboards end to end | every legal move |
//! | `recapture` | [`loses_to_recapture_mailbox`] | [`loses_to_recapture_bitboard`] | every legal move: same answer, and SEE negative wherever it says "loses" |
//! | `gives_check` | [`MailboxAttacks`] (scan after make) | [`BitboardAttacks`] (check squares after make; before make for quiet moves) | every legal move |
//!
//! The comparisons are generic over the implementations, so a test can feed
//! a deliberately broken one through the same code and see it caught.

use crate::attackers::{
    is_attacked_bitboard, is_attacked_mailbox, same_attackers, AttackerBuilder, BitboardAttackers, MailboxAttackers,
    SeeList,
};
use crate::defects::{BitboardDefects, DefectCounter, MailboxDefects};
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{AttackRoutines, BitboardAttacks, MailboxAttacks};
use crate::see::{loses_to_recapture_bitboard, loses_to_recapture_mailbox, see, see_bitboard};
#[cfg(target_feature = "bmi2")]
use crate::sliders::Pext;
use crate::sliders::{FastSliders, Magic, RayWalk, Sliders};
use crate::types::{Color, Square};

/// A SEE implementation.
type SeeFn = fn(&Position, Move) -> i32;

/// A "surely loses to a cheaper recapture" test.
type RecaptureFn = fn(&Position, Move) -> bool;

/// The first case of a pair that differed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Index of the position in the sweep.
    pub position: usize,
    /// The position as FEN.
    pub fen: String,
    /// What was compared and what each side said.
    pub detail: String,
}

/// How one old/new pair fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairReport {
    /// The pair's name (`attackers`, `see`, ...).
    pub name: &'static str,
    /// Cases compared.
    pub compared: u64,
    /// Cases where old and new differed.
    pub differed: u64,
    /// The first case that differed.
    pub first: Option<Difference>,
}

impl PairReport {
    /// A pair named `name` with nothing compared yet.
    pub fn new(name: &'static str) -> PairReport {
        PairReport { name, compared: 0, differed: 0, first: None }
    }

    /// Record one case; `detail` is only built for the first difference.
    #[inline]
    fn record(&mut self, equal: bool, index: usize, pos: &Position, detail: impl FnOnce() -> String) {
        self.compared += 1;
        if !equal {
            self.differed += 1;
            if self.first.is_none() {
                self.first = Some(Difference { position: index, fen: pos.to_fen(), detail: detail() });
            }
        }
    }
}

/// Every pair's result over one set of positions.
#[derive(Clone, Debug)]
pub struct EquivReport {
    /// Positions swept.
    pub positions: usize,
    /// One report per pair, in table order.
    pub pairs: Vec<PairReport>,
}

impl EquivReport {
    /// Fold in the report of the next chunk of positions, which started at
    /// index `offset` of the whole sweep.
    pub fn merge(&mut self, chunk: EquivReport, offset: usize) {
        self.positions += chunk.positions;
        for (mine, theirs) in self.pairs.iter_mut().zip(chunk.pairs) {
            debug_assert_eq!(mine.name, theirs.name);
            mine.compared += theirs.compared;
            mine.differed += theirs.differed;
            if mine.first.is_none() {
                mine.first = theirs.first.map(|d| Difference { position: d.position + offset, ..d });
            }
        }
    }

    /// Differing cases over every pair.
    pub fn differences(&self) -> u64 {
        self.pairs.iter().map(|p| p.differed).sum()
    }

    /// The first pair (in table order) that differed, with its first case.
    pub fn first_difference(&self) -> Option<(&'static str, &Difference)> {
        self.pairs.iter().find_map(|p| p.first.as_ref().map(|d| (p.name, d)))
    }
}

/// Run every pair over `positions`.
pub fn run_equiv(positions: &[Position]) -> EquivReport {
    let pairs = vec![
        attackers_pair(positions),
        is_attacked_pair(positions),
        defects_pair(positions),
        sliders_pair(positions),
        see_pair(positions),
        recapture_pair(positions),
        gives_check_pair(positions),
    ];
    EquivReport { positions: positions.len(), pairs }
}

/// Attacker lists: mailbox against bitboards (magic, and PEXT where built).
pub fn attackers_pair(positions: &[Position]) -> PairReport {
    let mut attackers = PairReport::new("attackers");
    compare_attackers::<MailboxAttackers, BitboardAttackers<Magic>>(positions, &mut attackers);
    #[cfg(target_feature = "bmi2")]
    compare_attackers::<MailboxAttackers, BitboardAttackers<Pext>>(positions, &mut attackers);
    attackers
}

/// Is-square-attacked: mailbox against bitboards (magic, and PEXT where built).
pub fn is_attacked_pair(positions: &[Position]) -> PairReport {
    let mut attacked = PairReport::new("is_attacked");
    compare_is_attacked::<Magic>(positions, &mut attacked);
    #[cfg(target_feature = "bmi2")]
    compare_is_attacked::<Pext>(positions, &mut attacked);
    attacked
}

/// The king-safety defect count: mailbox against bitboards.
pub fn defects_pair(positions: &[Position]) -> PairReport {
    let mut defects = PairReport::new("defects");
    compare_defects::<MailboxDefects, BitboardDefects>(positions, &mut defects);
    defects
}

/// Slider attacks: ray walk against magic (and PEXT where built).
fn sliders_pair(positions: &[Position]) -> PairReport {
    let mut sliders = PairReport::new("sliders");
    compare_sliders::<Magic>(positions, &mut sliders);
    #[cfg(target_feature = "bmi2")]
    compare_sliders::<Pext>(positions, &mut sliders);
    sliders
}

/// SEE: over each attacker builder, and mailbox SEE against bitboard SEE.
pub fn see_pair(positions: &[Position]) -> PairReport {
    let mut see_pair = PairReport::new("see");
    compare_see::<MailboxAttackers, BitboardAttackers<FastSliders>>(positions, &mut see_pair);
    compare_see_fns(
        positions,
        &mut see_pair,
        (MailboxAttackers::NAME, see::<MailboxAttackers>),
        ("bitboard SEE", see_bitboard::<FastSliders>),
    );
    see_pair
}

/// The cheap recapture bound: mailbox against bitboards.
pub fn recapture_pair(positions: &[Position]) -> PairReport {
    let mut recapture = PairReport::new("recapture");
    compare_recapture_fns(
        positions,
        &mut recapture,
        ("mailbox", loses_to_recapture_mailbox),
        ("bitboard", loses_to_recapture_bitboard::<FastSliders>),
    );
    recapture
}

/// Does a move give check: the old scan after make against the new check
/// squares, after make and (quiet moves) before it.
pub fn gives_check_pair(positions: &[Position]) -> PairReport {
    let mut gives_check = PairReport::new("gives_check");
    compare_gives_check::<MailboxAttacks, BitboardAttacks>(positions, &mut gives_check);
    gives_check
}

/// Positions generated and compared per chunk of [`run_equiv_random`], so
/// memory stays flat however many positions are asked for.
const CHUNK: usize = 4096;

/// Run every pair over `n` random positions from `seed`
/// ([`random_positions`](crate::tools::randpos::random_positions)); the same
/// positions, in the same order, as generating them all at once.
pub fn run_equiv_random(n: usize, seed: u64) -> EquivReport {
    let starts = crate::tools::randpos::playout_starts();
    let mut total = run_equiv(&[]);
    let mut start = 0;
    while start < n {
        let end = (start + CHUNK).min(n);
        let positions: Vec<Position> =
            (start..end).map(|i| crate::tools::randpos::nth_random_position(seed, i, starts)).collect();
        total.merge(run_equiv(&positions), start);
        start = end;
    }
    total
}

/// Attacker lists of every square, both colours, as multisets.
pub fn compare_attackers<A: AttackerBuilder, B: AttackerBuilder>(positions: &[Position], report: &mut PairReport) {
    let (mut a, mut b) = (SeeList::new(), SeeList::new());
    for (index, pos) in positions.iter().enumerate() {
        for sq in Square::all() {
            let s88 = sq.to_88();
            for color in Color::ALL {
                A::build(pos, s88, color, &mut a);
                B::build(pos, s88, color, &mut b);
                report.record(same_attackers(&a, &b), index, pos, || {
                    format!("attackers of {sq} by {}: {} {a:?}, {} {b:?}", color.name(), A::NAME, B::NAME)
                });
            }
        }
    }
}

/// Is-square-attacked on every square, both colours.
pub fn compare_is_attacked<S: Sliders>(positions: &[Position], report: &mut PairReport) {
    for (index, pos) in positions.iter().enumerate() {
        for sq in Square::all() {
            for color in Color::ALL {
                let old = is_attacked_mailbox(pos, sq.to_88(), color);
                let new = is_attacked_bitboard::<S>(pos, sq, color);
                report.record(old == new, index, pos, || {
                    format!("{sq} attacked by {}: mailbox {old}, bitboard-{} {new}", color.name(), S::NAME)
                });
            }
        }
    }
}

/// Defect count and pointing count of both sides.
pub fn compare_defects<A: DefectCounter, B: DefectCounter>(positions: &[Position], report: &mut PairReport) {
    for (index, pos) in positions.iter().enumerate() {
        for side in Color::ALL {
            let (old, new) = (A::count(pos, side), B::count(pos, side));
            report.record(old == new, index, pos, || {
                format!("{} king defects: {} {old:?}, {} {new:?}", side.name(), A::NAME, B::NAME)
            });
        }
    }
}

/// Rook and bishop attacks of every square for the position's occupancy.
pub fn compare_sliders<S: Sliders>(positions: &[Position], report: &mut PairReport) {
    for (index, pos) in positions.iter().enumerate() {
        let occ = pos.occupied();
        for sq in Square::all() {
            let rook = (RayWalk::rook(sq, occ), S::rook(sq, occ));
            let bishop = (RayWalk::bishop(sq, occ), S::bishop(sq, occ));
            report.record(rook.0 == rook.1 && bishop.0 == bishop.1, index, pos, || {
                format!(
                    "slider attacks from {sq}: raywalk rook {:#x} bishop {:#x}, {} rook {:#x} bishop {:#x}",
                    rook.0 .0,
                    bishop.0 .0,
                    S::NAME,
                    rook.1 .0,
                    bishop.1 .0
                )
            });
        }
    }
}

/// SEE of every legal move through both attacker builders.
pub fn compare_see<A: AttackerBuilder, B: AttackerBuilder>(positions: &[Position], report: &mut PairReport) {
    compare_see_fns(positions, report, (A::NAME, see::<A>), (B::NAME, see::<B>));
}

/// One SEE implementation against another, each named, on every legal move.
pub fn compare_see_fns(
    positions: &[Position],
    report: &mut PairReport,
    (old_name, old_see): (&str, SeeFn),
    (new_name, new_see): (&str, SeeFn),
) {
    for (index, pos) in positions.iter().enumerate() {
        for &m in legal_moves(pos).iter() {
            let (old, new) = (old_see(pos, m), new_see(pos, m));
            report.record(old == new, index, pos, || format!("SEE of {m}: {old_name} {old}, {new_name} {new}"));
        }
    }
}

/// The recapture test of every legal move, old against new; a case also
/// differs when the forms agree that the move loses but the exchange
/// played out (SEE over mailbox lists) is not negative.
pub fn compare_recapture_fns(
    positions: &[Position],
    report: &mut PairReport,
    (old_name, old_fn): (&str, RecaptureFn),
    (new_name, new_fn): (&str, RecaptureFn),
) {
    for (index, pos) in positions.iter().enumerate() {
        for &m in legal_moves(pos).iter() {
            let (old, new) = (old_fn(pos, m), new_fn(pos, m));
            let see = if old || new { see::<MailboxAttackers>(pos, m) } else { 0 };
            report.record(old == new && (!old || see < 0), index, pos, || {
                format!("{m} loses to a recapture: {old_name} {old}, {new_name} {new}; SEE {see}")
            });
        }
    }
}

/// Every legal move: `A` and `B` on whether it gives check, after make,
/// and for quiet moves also before make (one case per answer compared).
pub fn compare_gives_check<A: AttackRoutines, B: AttackRoutines>(positions: &[Position], report: &mut PairReport) {
    for (index, pos) in positions.iter().enumerate() {
        let (info_a, info_b) = (A::check_info(pos), B::check_info(pos));
        let mut after = pos.clone();
        for &m in legal_moves(pos).iter() {
            if !m.is_tactical() {
                let (a, b) =
                    (A::gives_check_unmade(&mut after, &info_a, m), B::gives_check_unmade(&mut after, &info_b, m));
                report.record(a == b, index, pos, || format!("{m} gives check, asked before make: old {a}, new {b}"));
            }
            after.make(m);
            let (a, b) = (A::gives_check(&after, &info_a, m), B::gives_check(&after, &info_b, m));
            after.unmake();
            report.record(a == b, index, pos, || format!("{m} gives check: old {a}, new {b}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attackers::SeeEntry;
    use crate::defects::KingDefects;
    use crate::tools::randpos::random_positions;
    use crate::types::Square88;

    /// The bitboard builder minus any king attacker: a plausible bug.
    struct NoKings;
    impl AttackerBuilder for NoKings {
        const NAME: &'static str = "no-kings";
        fn build(pos: &Position, sq: Square88, color: Color, list: &mut SeeList) {
            BitboardAttackers::<Magic>::build(pos, sq, color, list);
            let kept: Vec<SeeEntry> =
                list.iter().copied().filter(|e| e.piece.kind() != crate::PieceType::King).collect();
            list.clear();
            kept.into_iter().for_each(|e| list.push(e));
        }
    }

    /// The bitboard counter, but ignoring knights.
    struct NoKnights;
    impl DefectCounter for NoKnights {
        const NAME: &'static str = "no-knights";
        fn count(pos: &Position, side: Color) -> KingDefects {
            let d = BitboardDefects::count(pos, side);
            let knights = pos.bb(side.flip(), crate::PieceType::Knight).count() as i32;
            if d.pointing > 0 && knights > 0 {
                // Drop one pointer whenever the enemy has knights.
                KingDefects { count: d.count - 1, pointing: d.pointing - 1 }
            } else {
                d
            }
        }
    }

    /// The bitboard routines, but blind to knight checks when asked before
    /// make.
    struct NoKnightChecksUnmade;
    impl AttackRoutines for NoKnightChecksUnmade {
        type CheckInfo = <BitboardAttacks as AttackRoutines>::CheckInfo;
        const CHECKS_UNMADE: bool = true;
        fn in_check(pos: &Position) -> bool {
            BitboardAttacks::in_check(pos)
        }
        fn check_info(pos: &Position) -> Self::CheckInfo {
            BitboardAttacks::check_info(pos)
        }
        fn gives_check(pos: &Position, info: &Self::CheckInfo, m: Move) -> bool {
            BitboardAttacks::gives_check(pos, info, m)
        }
        fn gives_check_unmade(pos: &mut Position, info: &Self::CheckInfo, m: Move) -> bool {
            m.moved_kind() != crate::PieceType::Knight && BitboardAttacks::gives_check_unmade(pos, info, m)
        }
        fn see(pos: &Position, m: Move) -> i32 {
            BitboardAttacks::see(pos, m)
        }
        fn loses_to_recapture(pos: &Position, m: Move) -> bool {
            BitboardAttacks::loses_to_recapture(pos, m)
        }
    }

    #[test]
    fn the_sweep_finds_planted_bugs() {
        let positions = random_positions(60, 3);
        let mut r = PairReport::new("attackers");
        compare_attackers::<MailboxAttackers, NoKings>(&positions, &mut r);
        assert!(r.differed > 0 && r.first.is_some(), "{r:?}");
        assert_eq!(r.compared, 60 * 64 * 2);
        let mut r = PairReport::new("defects");
        compare_defects::<MailboxDefects, NoKnights>(&positions, &mut r);
        assert!(r.differed > 0, "{r:?}");
        let mut r = PairReport::new("see");
        compare_see::<MailboxAttackers, NoKings>(&positions, &mut r);
        assert!(r.differed > 0, "{r:?}");
        // A recapture test that forgets the margin: any capture onto a
        // pawn-guarded square "loses" (B takes a pawn-guarded knight does not).
        fn pawn_guarded(pos: &Position, m: Move) -> bool {
            let to = m.to().to_64();
            let them = m.moved().color().flip();
            m.is_capture()
                && (crate::tables::PAWN_ATTACKS[them.flip().index()][to.index()] & pos.bb(them, crate::PieceType::Pawn))
                    .is_nonempty()
        }
        let mut r = PairReport::new("recapture");
        compare_recapture_fns(&positions, &mut r, ("mailbox", loses_to_recapture_mailbox), ("broken", pawn_guarded));
        assert!(r.differed > 0, "{r:?}");
        // Both forms broken alike: caught by the exchange played out.
        let mut r = PairReport::new("recapture");
        compare_recapture_fns(&positions, &mut r, ("broken", pawn_guarded), ("broken too", pawn_guarded));
        assert!(r.differed > 0 && r.first.as_ref().is_some_and(|d| d.detail.contains("SEE")), "{r:?}");
        let mut r = PairReport::new("gives_check");
        compare_gives_check::<MailboxAttacks, NoKnightChecksUnmade>(&positions, &mut r);
        assert!(r.differed > 0 && r.first.as_ref().is_some_and(|d| d.detail.contains("before make")), "{r:?}");
        let mut r = PairReport::new("gives_check");
        compare_gives_check::<MailboxAttacks, BitboardAttacks>(&positions, &mut r);
        assert!(r.differed == 0 && r.compared > 60 * 20, "{r:?}");
    }

    #[test]
    fn chunked_sweep_reports_global_indices() {
        let positions = random_positions(50, 5);
        let mut whole = PairReport::new("attackers");
        compare_attackers::<MailboxAttackers, NoKings>(&positions, &mut whole);
        let mut merged = EquivReport { positions: 0, pairs: vec![PairReport::new("attackers")] };
        for (i, chunk) in positions.chunks(7).enumerate() {
            let mut r = PairReport::new("attackers");
            compare_attackers::<MailboxAttackers, NoKings>(chunk, &mut r);
            merged.merge(EquivReport { positions: chunk.len(), pairs: vec![r] }, i * 7);
        }
        assert_eq!(merged.positions, 50);
        assert_eq!(merged.pairs[0], whole);
        // And the chunked random sweep sees exactly random_positions().
        let a = run_equiv_random(30, 9);
        let b = run_equiv(&random_positions(30, 9));
        for (x, y) in a.pairs.iter().zip(&b.pairs) {
            assert_eq!(x, y);
        }
    }

    #[test]
    fn old_and_new_agree_on_a_small_sweep() {
        let report = run_equiv(&random_positions(200, 11));
        for p in &report.pairs {
            assert!(p.compared > 0, "{} compared nothing", p.name);
            assert_eq!(p.differed, 0, "{}: {:?}", p.name, p.first);
        }
        assert_eq!(report.differences(), 0);
        assert!(report.first_difference().is_none());
    }
}
