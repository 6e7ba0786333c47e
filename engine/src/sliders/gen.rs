//! Slider table construction, shared by the build script (which bakes the
//! tables into the binary) and the tests (which check them).
//!
//! Plain `u64`/`usize` code with no crate imports, so `build.rs` can include
//! this file with `#[path]`. Squares are 64-square indices, `row * 8 + file`
//! with row 0 = rank 8.

/// (file step, row step) of the four rook rays.
pub const ROOK_DIRS: [(i32, i32); 4] = [(0, -1), (0, 1), (1, 0), (-1, 0)];
/// (file step, row step) of the four bishop rays.
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, -1), (-1, -1), (1, 1), (-1, 1)];

/// Attacks of a slider on `sq` moving along `dirs`, stopping at (and
/// including) the first occupied square of each ray.
pub fn slider_attacks(sq: usize, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let (file, row) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut attacks = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (file + df, row + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// The occupancy bits that can change `slider_attacks` on `sq`: every ray
/// square except the last one before the edge.
pub fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let (file, row) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut mask = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (file + df, row + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

/// Software parallel bit extract (what BMI2's `pext` does in hardware).
pub fn pext_soft(value: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 1u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// Software parallel bit deposit: the `index`-th subset of `mask`.
pub fn pdep_soft(index: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 1u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if index & bit != 0 {
            out |= low;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// xorshift64*: a tiny deterministic generator for the magic search.
pub struct MagicRng(u64);

impl MagicRng {
    pub fn new(seed: u64) -> MagicRng {
        MagicRng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Few set bits: good magic candidates.
    pub fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Whether `magic` maps every occupancy subset of `mask` to a slot without a
/// destructive collision, using `64 - popcount(mask)` as the shift.
pub fn magic_is_valid(sq: usize, dirs: &[(i32, i32); 4], mask: u64, magic: u64) -> bool {
    let bits = mask.count_ones();
    let mut used = vec![u64::MAX; 1 << bits];
    for index in 0..(1u64 << bits) {
        let occ = pdep_soft(index, mask);
        let attacks = slider_attacks(sq, occ, dirs);
        let slot = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
        if used[slot] == u64::MAX {
            used[slot] = attacks;
        } else if used[slot] != attacks {
            return false;
        }
    }
    true
}

/// Search a magic for `sq` with a generator seeded by `seed`. Deterministic.
pub fn find_magic(sq: usize, dirs: &[(i32, i32); 4], seed: u64) -> u64 {
    let mask = relevant_mask(sq, dirs);
    let mut rng = MagicRng::new(seed ^ (sq as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    loop {
        let magic = rng.sparse();
        // Cheap filter: the high byte of mask * magic must be well mixed.
        if (mask.wrapping_mul(magic) & 0xFF00_0000_0000_0000).count_ones() < 6 {
            continue;
        }
        if magic_is_valid(sq, dirs, mask, magic) {
            return magic;
        }
    }
}

/// One square's slot in a shared attack table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SliderEntry {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: usize,
}

/// Entries for the 64 squares of one piece kind and the table they index,
/// for either magic (`magics = Some`) or PEXT (`None`) indexing.
pub fn build_table(dirs: &[(i32, i32); 4], magics: Option<&[u64; 64]>) -> (Vec<SliderEntry>, Vec<u64>) {
    let mut entries = Vec::with_capacity(64);
    let mut table = Vec::new();
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let offset = table.len();
        table.resize(offset + (1 << bits), 0u64);
        let magic = magics.map_or(0, |m| m[sq]);
        for index in 0..(1u64 << bits) {
            let occ = pdep_soft(index, mask);
            let slot = match magics {
                Some(_) => (occ.wrapping_mul(magic) >> (64 - bits)) as usize,
                None => pext_soft(occ, mask) as usize,
            };
            table[offset + slot] = slider_attacks(sq, occ, dirs);
        }
        entries.push(SliderEntry { mask, magic, shift: 64 - bits, offset });
    }
    (entries, table)
}

/// The seed the committed magics in `magic_numbers.rs` were found with.
pub const MAGIC_SEED: u64 = 0x0B0A_4D8E_4C4C_0001;
