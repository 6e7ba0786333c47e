//! Magic bitboards: `(occupied & mask) * magic >> shift` indexes a shared
//! table of attack sets ("fancy" magics, one shift per square).

use super::tables::{BISHOP_MAGIC, MAGIC_ATTACKS, ROOK_MAGIC};
use super::{SliderEntry, Sliders};
use crate::bitboard::Bitboard;
use crate::types::Square;

/// Slider attacks by magic table lookups.
#[derive(Copy, Clone, Default, Debug)]
pub struct Magic;

#[inline(always)]
fn probe(entry: &SliderEntry, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    debug_assert!(entry.offset + index < MAGIC_ATTACKS.len());
    // SAFETY: `build.rs` gives each square `1 << mask.count_ones()` slots
    // from `offset` and sets `shift` to 64 minus that bit count
    // (`gen::build_table`), so the shifted product is inside the square's
    // slots. Unchecked like PEXT's probe, so the two compare like for like.
    Bitboard(unsafe { *MAGIC_ATTACKS.get_unchecked(entry.offset + index) })
}

impl Sliders for Magic {
    const NAME: &'static str = "magic";

    #[inline(always)]
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
        probe(&ROOK_MAGIC[sq.index()], occupied)
    }

    #[inline(always)]
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
        probe(&BISHOP_MAGIC[sq.index()], occupied)
    }
}
