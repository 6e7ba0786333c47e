//! Direct-mapped hash tables for the evaluation (the eval hash keyed by the
//! position's key, the pawn hash by the pawn key, the material table by the
//! material key). The low bits of a key pick the slot; each entry type says
//! how it checks the rest ([`Keyed`]). Sizes are configurable;
//! size 0 turns a table off so its cost can be measured. Tables of 1 MiB or
//! more (the pawn hash) sit on huge pages ([`crate::large_pages`]).

use crate::large_pages::HugePageTable;

/// An entry that can tell whether it was stored under a key (the whole key,
/// or the part the slot's index does not already fix).
pub trait Keyed: Copy + Default {
    fn matches(&self, key: u64) -> bool;
}

pub struct HashTable<T: Keyed> {
    entries: HugePageTable<T>,
    mask: usize,
}

impl<T: Keyed> HashTable<T> {
    /// A table of at most `bytes` bytes, rounded down to a power of two
    /// entries; 0 bytes (or less than one entry) disables it.
    pub fn with_bytes(bytes: usize) -> HashTable<T> {
        let size = std::mem::size_of::<T>().max(1);
        let n = bytes / size;
        if n == 0 {
            return HashTable { entries: HugePageTable::new(0, T::default()), mask: 0 };
        }
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        HashTable { entries: HugePageTable::new(n, T::default()), mask: n - 1 }
    }

    /// The entry stored under `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<&T> {
        // One bounds test also covers a table that is off (no entries).
        let e = self.entries.get(key as usize & self.mask)?;
        e.matches(key).then_some(e)
    }

    /// The entry stored under `key`, if any, to update in place.
    #[inline(always)]
    pub fn probe_mut(&mut self, key: u64) -> Option<&mut T> {
        let e = self.entries.get_mut(key as usize & self.mask)?;
        e.matches(key).then_some(e)
    }

    /// Store `entry` under `key` (replacing whatever shares its slot).
    #[inline(always)]
    pub fn store(&mut self, key: u64, entry: T) {
        if let Some(slot) = self.entries.get_mut(key as usize & self.mask) {
            *slot = entry;
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(T::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Copy, Clone, Default)]
    struct E(u64, u32);
    impl Keyed for E {
        fn matches(&self, key: u64) -> bool {
            self.0 == key
        }
    }

    #[test]
    fn store_probe_and_disable() {
        let mut t = HashTable::<E>::with_bytes(1000);
        assert_eq!(t.entries.len(), 32, "1000 bytes of 16-byte entries, rounded down to a power of two");
        t.store(12345, E(12345, 7));
        assert_eq!(t.probe(12345).map(|e| e.1), Some(7));
        assert!(t.probe(12345 + 32).is_none(), "same slot, other key");
        t.probe_mut(12345).unwrap().1 = 8;
        assert_eq!(t.probe(12345).map(|e| e.1), Some(8));
        assert!(t.probe_mut(12345 + 32).is_none());
        t.clear();
        assert!(t.probe(12345).is_none());
        let mut off = HashTable::<E>::with_bytes(0);
        assert!(off.entries.is_empty());
        off.store(1, E(1, 1));
        assert!(off.probe(1).is_none());
        assert!(off.probe_mut(1).is_none());
    }
}
