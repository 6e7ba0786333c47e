//! The chain routines with terms the migration plans list as cut candidates
//! left out, so that what each term costs (ticks per evaluation) and what it
//! is worth (solved positions, games) can be measured before it is deleted.
//! A cut skips the term's work, not only its score:
//!
//! * `best-ray`: the most mobility along a single ray (bishops, rooks): its
//!   four popcounts per piece. The piece reports 0, which the built-in
//!   weights score as 0, so the evaluation equals the chain evaluation with
//!   `bishop_best_ray` and `rook_best_ray` zeroed.
//! * `bishop-transient-pawn`: a bishop's mobility credit for an own pawn
//!   that can still move standing on its diagonal (the one case of the old
//!   case table that is not a plain mask).
//! * `battery-xray`: the walk past a friendly battery partner (a rook past
//!   own rooks and queens, a bishop past own bishops and queens, a queen
//!   past both): no square, attack bit, mobility or connected rook beyond
//!   the partner. The walk past enemy pieces (rook past the enemy queen and
//!   king, bishop past enemy rooks, queens and king) stays.
//!
//! Knights have no candidate and keep the chain routine. The routines are
//! reached only through [`DynamicSet::chain_with_cuts`]: function pointers
//! chosen once, so no engine profile compiles them into its search.

use super::chain::{extend_through, knight, through_flags};
use super::{best_ray, queen_report, record, Counting, DynamicSet, MobilityFn, MobilityInputs, MobilityKind};
use super::{PieceMobility, THROUGH_FRIEND};
use crate::bitboard::Bitboard;
use crate::eval::attacks::{Accumulators, BISHOP_XRAY, MINOR_BIT, QUEEN_BIT, QUEEN_XRAY, ROOK_BIT, ROOK_XRAY};
use crate::position::Position;
use crate::sliders::{FastSliders, Sliders};
use crate::types::{Color, PieceType, Square};
use std::fmt;

/// A set of cut terms (bits of [`Cut`]).
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct Cuts(u8);

/// One cut candidate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cut {
    /// The most mobility along one ray (bishops, rooks).
    BestRay,
    /// The bishop's credit for an own transient pawn on its diagonal.
    BishopTransientPawn,
    /// The walk past a friendly battery partner.
    BatteryXray,
}

impl Cut {
    /// Every candidate, in the order of their bits.
    pub const ALL: [Cut; 3] = [Cut::BestRay, Cut::BishopTransientPawn, Cut::BatteryXray];

    /// The name on the command line and in the UCI option.
    pub const fn name(self) -> &'static str {
        match self {
            Cut::BestRay => "best-ray",
            Cut::BishopTransientPawn => "bishop-transient-pawn",
            Cut::BatteryXray => "battery-xray",
        }
    }

    /// What the cut leaves out, for people.
    pub const fn about(self) -> &'static str {
        match self {
            Cut::BestRay => "the max-mobility-in-a-row bonus (bishop and rook best ray)",
            Cut::BishopTransientPawn => "the bishop's mobility credit for an own pawn that can still move",
            Cut::BatteryXray => "the walk past a battery partner (connected rooks, bishop behind queen)",
        }
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The candidate of this name, if any.
    pub fn parse(name: &str) -> Option<Cut> {
        Cut::ALL.into_iter().find(|c| c.name() == name.trim())
    }
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Bit of [`Cut::BestRay`] in a routine's `CUT` parameter.
const BEST_RAY: u8 = Cut::BestRay.bit();
/// Bit of [`Cut::BishopTransientPawn`].
const TRANSIENT_PAWN: u8 = Cut::BishopTransientPawn.bit();
/// Bit of [`Cut::BatteryXray`].
const BATTERY: u8 = Cut::BatteryXray.bit();

impl Cuts {
    /// Nothing cut: the chain routines.
    pub const NONE: Cuts = Cuts(0);

    /// Just `cut`.
    pub const fn of(cut: Cut) -> Cuts {
        Cuts(cut.bit())
    }

    /// Is nothing cut?
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Is `cut` among them?
    pub const fn contains(self, cut: Cut) -> bool {
        self.0 & cut.bit() != 0
    }

    /// These and `cut`.
    pub const fn with(self, cut: Cut) -> Cuts {
        Cuts(self.0 | cut.bit())
    }

    /// The cuts, in [`Cut::ALL`] order.
    pub fn list(self) -> Vec<Cut> {
        Cut::ALL.into_iter().filter(|c| self.contains(*c)).collect()
    }

    /// A comma-separated list of names, or `none`.
    pub fn parse(text: &str) -> Result<Cuts, String> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("none") {
            return Ok(Cuts::NONE);
        }
        let mut cuts = Cuts::NONE;
        for part in text.split(',') {
            let cut = Cut::parse(part).ok_or_else(|| {
                let names: Vec<&str> = Cut::ALL.iter().map(|c| c.name()).collect();
                format!(
                    "unknown cut {:?} (expected none or a comma-separated list of {})",
                    part.trim(),
                    names.join(", ")
                )
            })?;
            cuts = cuts.with(cut);
        }
        Ok(cuts)
    }
}

impl fmt::Display for Cuts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return f.write_str("none");
        }
        let names: Vec<&str> = self.list().iter().map(|c| c.name()).collect();
        f.write_str(&names.join(","))
    }
}

/// [`super::chain::bishop`] without the cuts of `CUT`.
pub fn bishop<S: Sliders, const CUT: u8>(
    pos: &mut Position,
    acc: &mut Accumulators,
    inp: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let enemy = color.flip();
    let occ = pos.occupied();
    let enemy_pass = pos.rook_likes(enemy) | pos.bb(enemy, PieceType::King);
    let friend_pass = if CUT & BATTERY != 0 { Bitboard::EMPTY } else { pos.bishop_likes(color) };
    let direct = S::bishop(sq, occ);
    let xray = extend_through(S::bishop, sq, occ, direct, enemy_pass | friend_pass);
    let walked = direct | xray;
    let mut counting = Counting::bishop(pos, acc, inp, color);
    if CUT & TRANSIENT_PAWN != 0 {
        // What the case table counts without the own-pawn case: any enemy
        // piece but a pawn.
        let enemy_pawns = pos.bb(enemy, PieceType::Pawn);
        counting.always = pos.color_bb(enemy) & !enemy_pawns;
    }
    let mobile = counting.mobile(walked);
    record::<false>(pos, acc, color, (MINOR_BIT, BISHOP_XRAY), direct, xray);
    PieceMobility {
        mobility: mobile.count() as u8,
        best_ray: if CUT & BEST_RAY != 0 { 0 } else { best_ray(mobile, sq, 4..8) },
        through: through_flags(walked, friend_pass, enemy_pass),
        ..PieceMobility::default()
    }
}

/// [`super::chain::rook`] without the cuts of `CUT`.
pub fn rook<S: Sliders, const CUT: u8>(
    pos: &mut Position,
    acc: &mut Accumulators,
    _: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let enemy = color.flip();
    let occ = pos.occupied();
    let enemy_pass = pos.bb(enemy, PieceType::Queen) | pos.bb(enemy, PieceType::King);
    let friend_pass = if CUT & BATTERY != 0 { Bitboard::EMPTY } else { pos.rook_likes(color) };
    let direct = S::rook(sq, occ);
    let xray = extend_through(S::rook, sq, occ, direct, enemy_pass | friend_pass);
    let walked = direct | xray;
    let mobile = Counting::rook(pos, acc, color).mobile(walked);
    record::<false>(pos, acc, color, (ROOK_BIT, ROOK_XRAY), direct, xray);
    // A partner next in line is the blocker itself, walked even when the
    // battery is cut.
    let partners = walked & pos.bb(color, PieceType::Rook);
    let on_rank = partners & Bitboard::rank(sq.rank());
    PieceMobility {
        mobility: mobile.count() as u8,
        best_ray: if CUT & BEST_RAY != 0 { 0 } else { best_ray(mobile, sq, 0..4) },
        connected_rank: on_rank.count() as u8,
        connected_file: (partners & !on_rank).count() as u8,
        through: through_flags(walked, friend_pass, enemy_pass),
        ..PieceMobility::default()
    }
}

/// [`super::chain::queen`] without the cuts of `CUT` (only the battery cut
/// concerns the queen: without it her walk never passes a piece).
pub fn queen<S: Sliders, const CUT: u8>(
    pos: &mut Position,
    acc: &mut Accumulators,
    _: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let occ = pos.occupied();
    let direct_line = S::rook(sq, occ);
    let direct_diagonal = S::bishop(sq, occ);
    let direct = direct_line | direct_diagonal;
    let (xray, passed) = if CUT & BATTERY != 0 {
        (Bitboard::EMPTY, Bitboard::EMPTY)
    } else {
        let (line_pass, diagonal_pass) = (pos.rook_likes(color), pos.bishop_likes(color));
        let xray_line = extend_through(S::rook, sq, occ, direct_line, line_pass);
        let xray_diagonal = extend_through(S::bishop, sq, occ, direct_diagonal, diagonal_pass);
        let passed = ((direct_line | xray_line) & line_pass) | ((direct_diagonal | xray_diagonal) & diagonal_pass);
        (xray_line | xray_diagonal, passed)
    };
    let walked = direct | xray;
    let mobile = Counting::queen(pos, acc, color).mobile(walked);
    record::<false>(pos, acc, color, (QUEEN_BIT, QUEEN_XRAY), direct, xray);
    PieceMobility {
        through: if passed.is_nonempty() { THROUGH_FRIEND } else { 0 },
        ..queen_report(pos, color, mobile, walked)
    }
}

/// The bishop, rook and queen routines of `cuts`, monomorphised per set of
/// cuts and picked once.
fn routines(cuts: Cuts) -> [MobilityFn; 3] {
    macro_rules! pick {
        ($($bits:literal)+) => {
            match cuts.0 {
                $($bits => [
                    bishop::<FastSliders, $bits> as MobilityFn,
                    rook::<FastSliders, $bits>,
                    queen::<FastSliders, $bits>,
                ],)+
                other => unreachable!("cut bits {other:#x} name no candidate"),
            }
        };
    }
    pick!(0 1 2 3 4 5 6 7)
}

impl DynamicSet {
    /// Chain mobility for every piece type with `cuts` left out (see the
    /// [module](self)); [`Cuts::NONE`] computes what [`DynamicSet::uniform`]
    /// of chain computes. Its kinds read chain for every piece type.
    pub fn chain_with_cuts(cuts: Cuts) -> DynamicSet {
        let [b, r, q] = routines(cuts);
        DynamicSet { kinds: [MobilityKind::Chain; 4], words: false, accs: true, fns: [knight::<false>, b, r, q] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defects::BitboardDefects;
    use crate::eval::trace::Term;
    use crate::eval::weights::Weights;
    use crate::eval::{EvalConfig, Evaluation};
    use crate::tools::randpos::random_positions;

    fn eval(cuts: Cuts, weights: Weights) -> Evaluation<DynamicSet, BitboardDefects> {
        Evaluation::new(DynamicSet::chain_with_cuts(cuts), weights, EvalConfig::default())
    }

    fn sample() -> Vec<Position> {
        let mut positions = random_positions(400, 0xC075);
        for fen in [
            // Doubled rooks on the open e-file, queen behind bishop on b1-h7.
            "6k1/pp3ppp/8/8/8/8/PPB2PPP/1Q2RRK1 w - - 0 1",
            "3rr1k1/pb3ppp/1p6/8/8/1B6/PPQ2PPP/3RR1K1 w - - 0 1",
            // A bishop facing its own pawn that can still move (c1 to e3, d2).
            "4k3/8/8/8/8/8/3P4/2B1K3 w - - 0 1",
        ] {
            positions.push(Position::from_fen(fen).unwrap());
        }
        positions
    }

    #[test]
    fn names_parse_and_print() {
        assert_eq!(Cuts::parse("none").unwrap(), Cuts::NONE);
        assert_eq!(Cuts::parse("").unwrap(), Cuts::NONE);
        let both = Cuts::parse("battery-xray, best-ray").unwrap();
        assert!(both.contains(Cut::BestRay) && both.contains(Cut::BatteryXray));
        assert!(!both.contains(Cut::BishopTransientPawn));
        assert_eq!(both.to_string(), "best-ray,battery-xray");
        assert_eq!(Cuts::parse(&both.to_string()).unwrap(), both);
        let e = Cuts::parse("best-ray,rook-files").unwrap_err();
        assert!(e.contains("unknown cut \"rook-files\"") && e.contains("bishop-transient-pawn"), "{e}");
    }

    /// No cut is the chain evaluation, every term; each cut changes the
    /// terms it names somewhere and only terms it can reach.
    #[test]
    fn each_cut_changes_only_what_it_names() {
        let positions = sample();
        let mut chain = Evaluation::<DynamicSet, BitboardDefects>::new(
            DynamicSet::uniform(MobilityKind::Chain),
            Weights::default(),
            EvalConfig::default(),
        );
        let mut none = eval(Cuts::NONE, Weights::default());
        let mut cut = Cut::ALL.map(|c| eval(Cuts::of(c), Weights::default()));
        let mut changed = [0usize; 3];
        for pos in &positions {
            let want = chain.trace(&mut pos.clone());
            assert_eq!(none.trace(&mut pos.clone()), want, "{}", pos.to_fen());
            for (i, c) in Cut::ALL.into_iter().enumerate() {
                let t = cut[i].trace(&mut pos.clone());
                if t.side_to_move != want.side_to_move {
                    changed[i] += 1;
                }
                for term in Term::ALL {
                    let reachable = match c {
                        Cut::BestRay => matches!(term, Term::BishopBestRay | Term::RookBestRay),
                        Cut::BishopTransientPawn => matches!(term, Term::BishopMobility | Term::BishopBestRay),
                        // Mobility, best rays, connected rooks, the trapped
                        // rook and the queen's walks, and everything that
                        // reads the x-ray attack bits: king safety.
                        Cut::BatteryXray => term.mobility_piece().is_some() || term == Term::KingSafety,
                    };
                    if !reachable {
                        for color in Color::ALL {
                            assert_eq!(t.term(term, color), want.term(term, color), "{c} {term:?} {}", pos.to_fen());
                        }
                    }
                }
            }
        }
        for (i, c) in Cut::ALL.into_iter().enumerate() {
            assert!(changed[i] > 0, "{c} changed no score in {} positions", positions.len());
        }
    }

    #[test]
    fn cutting_the_best_ray_equals_zeroing_its_weights() {
        let zeroed = Weights { bishop_best_ray: [0; 8], rook_best_ray: [0; 8], ..Weights::default() };
        let mut cut = eval(Cuts::of(Cut::BestRay), Weights::default());
        let mut weights = eval(Cuts::NONE, zeroed);
        for pos in &sample() {
            // Every term and input; only the pieces' reports differ (the
            // cut reports no best ray).
            let (a, b) = (cut.trace(&mut pos.clone()), weights.trace(&mut pos.clone()));
            assert_eq!((a.terms, a.side_to_move, a.king, a.en_prise), (b.terms, b.side_to_move, b.king, b.en_prise));
        }
    }

    #[test]
    fn known_positions_lose_exactly_the_cut_credit() {
        let weights = Weights::default();
        // The c1 bishop's own d2 pawn can still move: one mobility square
        // fewer without the transient-pawn credit (b2, a3 and d2 before).
        let mut pos = Position::from_fen("4k3/8/8/8/8/8/3P4/2B1K3 w - - 0 1").unwrap();
        let bishop_on = |e: &mut Evaluation<DynamicSet, BitboardDefects>, p: &mut Position| {
            e.trace(p).piece_at(Square::parse("c1").unwrap()).expect("the bishop").mobility.mobility
        };
        let full = bishop_on(&mut eval(Cuts::NONE, weights.clone()), &mut pos);
        let cut = bishop_on(&mut eval(Cuts::of(Cut::BishopTransientPawn), weights.clone()), &mut pos);
        assert_eq!((full, cut), (3, 2));
        // Rooks doubled on e1 and e2 of an open file: the e1 rook walks on
        // to e8 through its partner; cut, it stops at e2 (0 mobility up the
        // file) but still counts the partner as connected.
        let mut pos = Position::from_fen("6k1/pp3ppp/8/8/8/8/PPP1RPPP/4RK2 w - - 0 1").unwrap();
        let e1 = Square::parse("e1").unwrap();
        let full = eval(Cuts::NONE, weights.clone()).trace(&mut pos).piece_at(e1).unwrap().mobility;
        let cut = eval(Cuts::of(Cut::BatteryXray), weights).trace(&mut pos).piece_at(e1).unwrap().mobility;
        assert_eq!((full.connected_file, cut.connected_file), (1, 1));
        assert!(full.mobility > cut.mobility, "{full:?} {cut:?}");
        assert_eq!(full.through & THROUGH_FRIEND, THROUGH_FRIEND);
        assert_eq!(cut.through & THROUGH_FRIEND, 0);
    }
}
