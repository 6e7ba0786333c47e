//! King-safety defects, the quick geometric count that search
//! consults at nodes where the full evaluation may never run (lazy-eval
//! margins, the one-legal-reply and qsearch-in-check extensions).
//!
//! For side S with king square k:
//!
//! * 0 (and pointing 0) when the enemy's non-pawn material, king included,
//!   is below R + B + K + 1 ([`DEFECT_MATERIAL_THRESHOLD`]);
//! * otherwise a base by the king's own square ([`king_base`], higher off
//!   the back rank), plus 1 for every enemy knight, bishop, rook or queen
//!   whose empty-board move pattern reaches one of the three squares k-1,
//!   k, k+1 on the king's rank, after moving k one file inward when the
//!   king stands on the a- or h-file. Blockers are ignored; each piece
//!   counts at most once; a piece standing on one of the three squares
//!   counts only if its pattern reaches another of them.
//! * `pointing` = count - base: how many enemy pieces bear on the king zone.
//!
//! Two interchangeable implementations behind [`DefectCounter`]:
//! [`MailboxDefects`] walks the enemy piece list with the 0x88 difference
//! table; [`BitboardDefects`] intersects precomputed per-type "can reach
//! this 3-square zone" masks with the enemy piece bitboards.

pub(crate) mod bitboard;
pub(crate) mod mailbox;

pub use bitboard::BitboardDefects;
pub use mailbox::MailboxDefects;

use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// The result of a defect count: the count itself and how much of it came
/// from enemy pieces bearing on the king zone.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Hash)]
pub struct KingDefects {
    /// The defect count.
    pub count: i32,
    /// How much of the count came from enemy pieces bearing on the king zone
    /// (the count less the square's base).
    pub pointing: i32,
}

impl KingDefects {
    /// What a side gets when the enemy has too little material to attack.
    pub const NONE: KingDefects = KingDefects { count: 0, pointing: 0 };
}

/// Enemy non-pawn material (king included) below this means no defects:
/// rook + bishop + king + 1. So K+R+B or K+R+N count as too little; K+Q,
/// K+R+R or K+R+B+N count.
pub const DEFECT_MATERIAL_THRESHOLD: i32 =
    PieceType::Rook.value() + PieceType::Bishop.value() + PieceType::King.value() + 1;

/// A king-safety defect counter.
pub trait DefectCounter {
    /// Name used on the command line and in results.
    const NAME: &'static str;

    /// `side`'s king-safety defects.
    fn count(pos: &Position, side: Color) -> KingDefects;
}

/// Base defects by square, from White's side, rank 8 first (so it reads as
/// a board). 0 on the castled corners of the back rank, 1 on its centre
/// files (an uncastled king), rising by rank as the king leaves shelter and
/// flat from the 6th rank on. Black uses the rank-mirrored table.
#[rustfmt::skip]
const KING_BASE_WHITE: [u8; 64] = [
    4, 4, 4, 4, 4, 4, 4, 4,
    4, 4, 4, 4, 4, 4, 4, 4,
    4, 4, 4, 4, 4, 4, 4, 4,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    2, 2, 2, 3, 3, 2, 2, 2,
    1, 1, 1, 2, 2, 1, 1, 1,
    0, 0, 0, 1, 1, 0, 0, 0,
];

/// The base defect count of `side`'s king standing on `king`.
#[inline(always)]
pub fn king_base(side: Color, king: Square) -> i32 {
    let sq = match side {
        Color::White => king,
        Color::Black => king.flip_rank(),
    };
    KING_BASE_WHITE[sq.index()] as i32
}

/// Both colours' defects with counter `D`, White first.
pub fn both_sides<D: DefectCounter>(pos: &Position) -> [KingDefects; 2] {
    [D::count(pos, Color::White), D::count(pos, Color::Black)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(fen: &str) -> [KingDefects; 2] {
        let pos = Position::from_fen(fen).unwrap();
        let m = both_sides::<MailboxDefects>(&pos);
        assert_eq!(m, both_sides::<BitboardDefects>(&pos), "{fen}");
        m
    }

    #[test]
    fn base_table_is_mirrored_for_black() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(king_base(Color::White, sq("g1")), 0);
        assert_eq!(king_base(Color::Black, sq("g8")), 0);
        assert_eq!(king_base(Color::White, sq("e1")), 1);
        assert_eq!(king_base(Color::Black, sq("e8")), 1);
        assert_eq!(king_base(Color::White, sq("e2")), 2);
        assert_eq!(king_base(Color::Black, sq("e7")), 2);
        assert_eq!(king_base(Color::White, sq("a8")), 4);
        assert_eq!(king_base(Color::Black, sq("a1")), 4);
    }

    #[test]
    fn hand_counted_positions() {
        // White king g1 (base 0), zone f1 g1 h1. Black: queen d4 (diagonal
        // to g1), knight e3 (to f1), bishop b5 (b5-f1), rook a8 (reaches
        // none of them): 3. White has only K+R+B against Black's king:
        // below the threshold, so Black gets 0.
        let [w, b] = both("r6k/8/8/1b6/3q4/4n3/8/2B2RK1 w - - 0 1");
        assert_eq!(w, KingDefects { count: 3, pointing: 3 });
        assert_eq!(b, KingDefects::NONE);
        // King on h1 is treated as on g1: same zone, same count.
        let [w, _] = both("r6k/8/8/1b6/3q4/4n3/8/2B2R1K w - - 0 1");
        assert_eq!(w, KingDefects { count: 3, pointing: 3 });
        // King on a2 (base 1): zone a2 b2 c2 after the shift. Rook h2 on the
        // rank, knight d4 reaches b3? no - reaches c2, bishop e5 reaches b2,
        // queen a8 down the a-file: 4 pointing.
        let [w, _] = both("q6k/8/8/4b3/3n4/8/K6r/8 w - - 0 1");
        assert_eq!(w, KingDefects { count: 5, pointing: 4 });
        // A bishop standing on the zone itself does not reach its other
        // squares; a rook standing there does.
        let [w, _] = both("6qk/8/8/8/8/8/8/5bK1 w - - 0 1");
        assert_eq!(w, KingDefects { count: 1, pointing: 1 });
        let [w, _] = both("6qk/8/8/8/8/8/8/5rK1 w - - 0 1");
        assert_eq!(w, KingDefects { count: 2, pointing: 2 });
    }

    #[test]
    fn material_threshold() {
        // Black R+N (10800) is too little even with the rook on the king's
        // rank; R+B+N is enough.
        let [w, _] = both("6nk/8/8/8/8/8/8/r5K1 w - - 0 1");
        assert_eq!(w, KingDefects::NONE);
        let [w, _] = both("5bnk/8/8/8/8/8/8/r5K1 w - - 0 1");
        assert_eq!(w, KingDefects { count: 1, pointing: 1 });
        assert_eq!(DEFECT_MATERIAL_THRESHOLD, 10_801);
    }
}
