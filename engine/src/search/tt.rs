//! The transposition table: buckets of four 16-byte entries (one 64-byte
//! cache line), indexed by the low bits of the Zobrist key and checked with
//! its high 32 bits. Replacement keeps the deepest, most recent entries.
//! The buckets sit on huge pages where the system grants them.
//! Mate scores are stored relative to the node (see [`score_to_tt`]).

use crate::large_pages::HugePageTable;
use crate::moves::Move;
use crate::search::{MATE_BOUND, MAX_PLY};

/// What a stored score means relative to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The true score.
    Exact = 3,
}

impl Bound {
    #[inline(always)]
    fn from_bits(bits: u8) -> Option<Bound> {
        match bits & 3 {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// One stored search result.
#[derive(Copy, Clone, Default)]
#[repr(C)]
struct Entry {
    check: u32,
    mv: u32,
    score: i16,
    depth: i16,
    /// Bound in bits 0-1, generation in bits 2-7.
    gen_bound: u8,
    _pad: [u8; 3],
}

const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Copy, Clone, Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

/// What a probe found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The stored best move ([`Move::NULL`] when none).
    pub mv: Move,
    /// Score relative to the probing node (mate distances already adjusted).
    pub score: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
}

/// Largest table the `Hash` option accepts, in MiB.
pub const MAX_HASH_MB: usize = 65_536;

/// Why a transposition table of the size asked for cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HashSizeError {
    /// Not within 1..=`MAX_HASH_MB` MiB.
    #[error("hash size {mb} MiB is out of range 1..={MAX_HASH_MB} MiB")]
    OutOfRange {
        /// The size asked for, MiB.
        mb: usize,
    },
    /// More than the machine's physical memory.
    #[error("hash size {mb} MiB is more than this machine's memory ({memory_mb} MiB)")]
    MoreThanMemory {
        /// The size asked for, MiB.
        mb: usize,
        /// The machine's physical memory, MiB.
        memory_mb: u64,
    },
    /// The system refused the memory.
    #[error("cannot allocate a {mb} MiB hash table: the system refused the memory")]
    AllocationFailed {
        /// The size asked for, MiB.
        mb: usize,
    },
}

/// Check a table size a user asked for: within 1..=[`MAX_HASH_MB`] and no
/// more than the machine's physical memory (a table the kernel would grant
/// on paper, then kill the process for touching, is refused up front).
pub fn check_hash_mb(mb: usize) -> Result<(), HashSizeError> {
    if mb == 0 || mb > MAX_HASH_MB {
        return Err(HashSizeError::OutOfRange { mb });
    }
    match physical_memory_mb() {
        Some(memory_mb) if mb as u64 > memory_mb => Err(HashSizeError::MoreThanMemory { mb, memory_mb }),
        _ => Ok(()),
    }
}

/// The machine's physical memory in MiB, where the OS says.
fn physical_memory_mb() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf reads system constants and has no preconditions.
        let (pages, page_size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        if pages > 0 && page_size > 0 {
            return Some((pages as u64).saturating_mul(page_size as u64) >> 20);
        }
    }
    None
}

/// The transposition table.
pub struct TranspositionTable {
    buckets: HugePageTable<Bucket>,
    generation: u8,
}

/// Convert a score relative to the root into one relative to the node at
/// `ply` for storing: mate distances count from the node.
#[inline(always)]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`score_to_tt`].
#[inline(always)]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl TranspositionTable {
    /// A table of at most `mb` MiB (rounded down to a power of two buckets;
    /// at least one bucket). Aborts like `Vec` when memory runs out; for a
    /// size a user gave, see [`try_new`](Self::try_new).
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable { buckets: HugePageTable::new(Self::buckets_for(mb), Bucket::default()), generation: 0 }
    }

    /// A table of `mb` MiB, checked with [`check_hash_mb`] and allocated
    /// without aborting.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashSizeError> {
        check_hash_mb(mb)?;
        let buckets = HugePageTable::try_new(Self::buckets_for(mb), Bucket::default())
            .ok_or(HashSizeError::AllocationFailed { mb })?;
        Ok(TranspositionTable { buckets, generation: 0 })
    }

    /// Buckets in a table of at most `mb` MiB.
    fn buckets_for(mb: usize) -> usize {
        let bytes = mb.clamp(0, MAX_HASH_MB) << 20;
        let wanted = (bytes / std::mem::size_of::<Bucket>()).max(1);
        if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() >> 1
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Start a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline(always)]
    fn bucket_index(&self, key: u64) -> usize {
        key as usize & (self.buckets.len() - 1)
    }

    /// Start loading `key`'s bucket into the cache; called right after a
    /// move is made so the probe at the child does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; the pointer is within the table.
        unsafe {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.buckets.as_ptr().add(self.bucket_index(key)) as *const i8;
            _mm_prefetch(p, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Look `key` up; `ply` converts mate scores back to root-relative.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let check = (key >> 32) as u32;
        let bucket = &self.buckets[self.bucket_index(key)];
        for e in &bucket.entries {
            if e.check == check {
                if let Some(bound) = Bound::from_bits(e.gen_bound) {
                    return Some(TtHit {
                        mv: Move::from_raw(e.mv),
                        score: score_from_tt(e.score as i32, ply),
                        depth: e.depth as i32,
                        bound,
                    });
                }
            }
        }
        None
    }

    /// Store a result. Keeps an existing entry's move when the new result
    /// has none.
    #[inline]
    pub fn store(&mut self, key: u64, ply: usize, mv: Move, score: i32, depth: i32, bound: Bound) {
        debug_assert!(depth.abs() <= MAX_PLY as i32);
        let check = (key >> 32) as u32;
        let generation = self.generation;
        let index = self.bucket_index(key);
        let bucket = &mut self.buckets[index];
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in bucket.entries.iter().enumerate() {
            if e.check == check || e.gen_bound & 3 == 0 {
                victim = i;
                break;
            }
            let age = ((generation as i32 - (e.gen_bound >> 2) as i32) & 63) * 8;
            let worth = e.depth as i32 - age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let e = &mut bucket.entries[victim];
        let keep_move = e.check == check && mv.is_null();
        *e = Entry {
            check,
            mv: if keep_move { e.mv } else { mv.raw() },
            score: score_to_tt(score, ply) as i16,
            depth: depth as i16,
            gen_bound: generation << 2 | bound as u8,
            _pad: [0; 3],
        };
    }

    /// Per-mille of the first 1000 buckets' entries written in this search
    /// (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            used += b.entries.iter().filter(|e| e.gen_bound & 3 != 0 && e.gen_bound >> 2 == self.generation).count();
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn sizes_are_powers_of_two() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(TranspositionTable::new(1).bytes(), 1 << 20);
        assert_eq!(TranspositionTable::new(3).bytes(), 2 << 20);
        assert_eq!(TranspositionTable::new(0).bytes(), 64);
        assert_eq!(TranspositionTable::try_new(2).unwrap().bytes(), 2 << 20);
        assert_eq!(TranspositionTable::try_new(0).err(), Some(HashSizeError::OutOfRange { mb: 0 }));
        let too_big = MAX_HASH_MB + 1;
        assert_eq!(TranspositionTable::try_new(too_big).err(), Some(HashSizeError::OutOfRange { mb: too_big }));
        // More than any test machine has: refused before allocating.
        if let Some(memory_mb) = physical_memory_mb().filter(|&m| m < MAX_HASH_MB as u64) {
            let mb = memory_mb as usize + 1;
            assert_eq!(check_hash_mb(mb), Err(HashSizeError::MoreThanMemory { mb, memory_mb }));
        }
    }

    #[test]
    fn store_probe_and_replace() {
        let mut tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key, 0), None);
        let m = Move::from_raw(0x0077_1234);
        tt.store(key, 3, m, 42, 5, Bound::Lower);
        assert_eq!(tt.probe(key, 0), Some(TtHit { mv: m, score: 42, depth: 5, bound: Bound::Lower }));
        // A result without a move keeps the stored move.
        tt.store(key, 3, Move::NULL, -7, 6, Bound::Upper);
        assert_eq!(tt.probe(key, 0), Some(TtHit { mv: m, score: -7, depth: 6, bound: Bound::Upper }));
        // Same bucket, other keys: the table keeps four and then replaces
        // the shallowest.
        let others: Vec<u64> = (1..=4u64).map(|i| key ^ (i << 40)).collect();
        for (i, &k) in others.iter().enumerate() {
            tt.store(k, 0, Move::NULL, 0, 10 + i as i32, Bound::Exact);
        }
        assert_eq!(tt.probe(key, 0), None, "the depth-6 entry was the victim");
        assert!(others.iter().all(|&k| tt.probe(k, 0).is_some()));
        tt.clear();
        assert!(others.iter().all(|&k| tt.probe(k, 0).is_none()));
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let mut tt = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 4: mate at ply 7 from the root.
        tt.store(99, 4, Move::NULL, MATE - 7, 3, Bound::Exact);
        // Probed from the same position at ply 2: mate at ply 5.
        assert_eq!(tt.probe(99, 2).unwrap().score, MATE - 5);
        tt.store(100, 4, Move::NULL, -MATE + 7, 3, Bound::Exact);
        assert_eq!(tt.probe(100, 2).unwrap().score, -MATE + 5);
        assert_eq!(score_from_tt(score_to_tt(123, 9), 9), 123);
    }
}
