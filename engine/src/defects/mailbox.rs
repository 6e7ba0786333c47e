//! Old form of the defect count: walk the enemy's non-pawn list (skipping
//! the king at index 0) and ask the 0x88 difference table whether each
//! piece's empty-board pattern reaches any of the three zone squares.

use super::{king_base, DefectCounter, KingDefects, DEFECT_MATERIAL_THRESHOLD};
use crate::attackers::PIECE_VECTOR_BIT;
use crate::position::Position;
use crate::tables::ATTACK_VECTOR;
use crate::types::{Color, Square88};

/// `CountKingSafetyDefects` on the mailbox.
#[derive(Copy, Clone, Default, Debug)]
pub struct MailboxDefects;

impl DefectCounter for MailboxDefects {
    const NAME: &'static str = "mailbox";

    #[inline]
    fn count(pos: &Position, side: Color) -> KingDefects {
        let them = side.flip();
        if pos.non_pawn_material(them) < DEFECT_MATERIAL_THRESHOLD {
            return KingDefects::NONE;
        }
        let king = pos.king_square88(side);
        let base = king_base(side, king.to_64());
        // Centre of the zone: one file inward from the a- and h-files, so
        // all three zone squares are on the board.
        let centre = match king.file() {
            0 => king.offset(1),
            7 => king.offset(-1),
            _ => king,
        };
        let (left, right) = (centre.offset(-1), centre.offset(1));
        let mut pointing = 0;
        for &from in &pos.piece_list(them)[1..] {
            let bit = PIECE_VECTOR_BIT[pos.piece_at(from).index()];
            let reach = ATTACK_VECTOR[Square88::diff_index(from, left)]
                | ATTACK_VECTOR[Square88::diff_index(from, centre)]
                | ATTACK_VECTOR[Square88::diff_index(from, right)];
            pointing += (reach & bit != 0) as i32;
        }
        KingDefects { count: base + pointing, pointing }
    }
}
