//! New form of the defect count: for each king square, per piece type
//! (knight, bishop, rook), the set of squares from which that type's
//! empty-board pattern reaches the 3-square zone, built at compile time.
//! The count is then three intersections with the enemy knights, bishops
//! and queens, rooks and queens, and one popcount of their union.

use super::{king_base, DefectCounter, KingDefects, DEFECT_MATERIAL_THRESHOLD};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::tables::{BISHOP_LINES, KNIGHT_ATTACKS, ROOK_LINES};
use crate::types::{Color, PieceType};

/// `CountKingSafetyDefects` on bitboards.
#[derive(Copy, Clone, Default, Debug)]
pub struct BitboardDefects;

/// `ZONE_REACH[type][king]`: squares from which a knight, bishop or rook
/// reaches k-1, k or k+1 (k moved inward off the a/h-file). Reach is
/// symmetric for these pieces, so this is the union of the zone squares'
/// own patterns. A queen reaches the zone from exactly the squares a bishop
/// or a rook would, so it is counted with both.
static ZONE_REACH: [[Bitboard; 64]; 3] = {
    let mut t = [[Bitboard::EMPTY; 64]; 3];
    let mut king = 0;
    while king < 64 {
        let centre = match king % 8 {
            0 => king + 1,
            7 => king - 1,
            _ => king,
        };
        // The empty-board patterns of the knight, bishop and rook.
        let patterns: [&[Bitboard; 64]; 3] = [&KNIGHT_ATTACKS, &BISHOP_LINES, &ROOK_LINES];
        let mut kind = 0;
        while kind < 3 {
            let p = patterns[kind];
            t[kind][king] = Bitboard(p[centre - 1].0 | p[centre].0 | p[centre + 1].0);
            kind += 1;
        }
        king += 1;
    }
    t
};

impl DefectCounter for BitboardDefects {
    const NAME: &'static str = "bitboard";

    #[inline]
    fn count(pos: &Position, side: Color) -> KingDefects {
        let them = side.flip();
        if pos.non_pawn_material(them) < DEFECT_MATERIAL_THRESHOLD {
            return KingDefects::NONE;
        }
        let king = pos.king_square(side);
        // A queen reaches the zone exactly when a bishop or a rook on its
        // square would, and the piece sets are disjoint: so the pieces that
        // point are one union, counted with one popcount, rather than four
        // intersections counted apart.
        let k = king.index();
        let reaching = (ZONE_REACH[0][k] & pos.bb(them, PieceType::Knight))
            | (ZONE_REACH[1][k] & pos.bishop_likes(them))
            | (ZONE_REACH[2][k] & pos.rook_likes(them));
        let pointing = reaching.count() as i32;
        KingDefects { count: king_base(side, king) + pointing, pointing }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{line, KNIGHT_ATTACKS};
    use crate::types::Square;

    /// The compile-time masks agree with the runtime geometry tables.
    #[test]
    fn zone_masks_match_the_geometry_tables() {
        for king in Square::all() {
            let centre = match king.file() {
                0 => king.index() + 1,
                7 => king.index() - 1,
                _ => king.index(),
            };
            let zone = [centre - 1, centre, centre + 1].map(Square::from_index);
            for from in Square::all() {
                let knight = zone.iter().any(|&z| KNIGHT_ATTACKS[z.index()].has(from));
                let diag = |z: Square| z.file() != from.file() && z.rank() != from.rank();
                let bishop = zone.iter().any(|&z| z != from && line(z, from).is_nonempty() && diag(z));
                let rook = zone.iter().any(|&z| z != from && !diag(z));
                assert_eq!(ZONE_REACH[0][king.index()].has(from), knight, "N {king} {from}");
                assert_eq!(ZONE_REACH[1][king.index()].has(from), bishop, "B {king} {from}");
                assert_eq!(ZONE_REACH[2][king.index()].has(from), rook, "R {king} {from}");
            }
        }
    }
}
