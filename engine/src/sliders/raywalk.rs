//! The old way: walk each ray square by square on the 0x88 board, testing
//! the occupancy bit of every square visited.

use super::Sliders;
use crate::bitboard::Bitboard;
use crate::tables::{BISHOP_DELTAS, ROOK_DELTAS};
use crate::types::Square;

/// Slider attacks by walking the 0x88 rays (the old way).
#[derive(Copy, Clone, Default, Debug)]
pub struct RayWalk;

#[inline(always)]
fn walk(sq: Square, occupied: Bitboard, deltas: &[i8; 4]) -> Bitboard {
    let from = sq.to_88();
    let mut attacks = Bitboard::EMPTY;
    for &delta in deltas {
        let mut to = from.offset(delta);
        while to.is_on_board() {
            let s = to.to_64();
            attacks = attacks.with(s);
            if occupied.has(s) {
                break;
            }
            to = to.offset(delta);
        }
    }
    attacks
}

impl Sliders for RayWalk {
    const NAME: &'static str = "raywalk";

    #[inline]
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
        walk(sq, occupied, &ROOK_DELTAS)
    }

    #[inline]
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
        walk(sq, occupied, &BISHOP_DELTAS)
    }
}
