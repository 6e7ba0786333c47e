//! Fixed-size tables on transparent huge pages, for the tables the search
//! probes at random: the transposition table and the evaluation's pawn
//! hash. One 2 MiB page covers what 512 small pages would, so a probe that
//! misses the cache rarely misses the TLB as well (on a virtual machine a
//! TLB miss walks two sets of page tables). Like Stockfish's
//! `aligned_large_pages_alloc`: the memory is aligned to 2 MiB and Linux is
//! asked (`madvise(MADV_HUGEPAGE)`) to back it with huge pages before the
//! first write touches it. The advice is a hint; where it is refused (THP
//! off, another OS) the table is an ordinary one.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Size of an x86-64 huge page.
pub const HUGE_PAGE: usize = 2 << 20;

/// Tables smaller than this stay on ordinary pages: rounding them up to a
/// whole huge page would waste more than it saves (and they are few pages).
const SMALLEST_ON_HUGE_PAGES: usize = HUGE_PAGE / 2;

/// A table of `len` values, allocated once and never resized; it derefs to
/// a slice.
pub struct HugePageTable<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    /// How it was allocated (to free it the same way); `None` for a
    /// zero-sized allocation, which is never freed.
    layout: Option<Layout>,
}

// SAFETY: the table owns its values like a `Box<[T]>` does.
unsafe impl<T: Copy + Send> Send for HugePageTable<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: Copy + Sync> Sync for HugePageTable<T> {}

impl<T: Copy> HugePageTable<T> {
    /// `len` copies of `value`. Tables of 1 MiB or more are aligned to and
    /// rounded up to whole huge pages.
    ///
    /// # Panics
    ///
    /// When the size overflows; aborts like `Vec` when memory runs out
    /// (see [`try_new`](Self::try_new)).
    pub fn new(len: usize, value: T) -> HugePageTable<T> {
        match Self::allocate(len, value) {
            Ok(table) => table,
            Err(layout) => alloc::handle_alloc_error(layout),
        }
    }

    /// [`new`](Self::new), or `None` when the memory cannot be had.
    pub fn try_new(len: usize, value: T) -> Option<HugePageTable<T>> {
        Self::allocate(len, value).ok()
    }

    /// The table, or the layout the allocator refused.
    fn allocate(len: usize, value: T) -> Result<HugePageTable<T>, Layout> {
        let bytes = len.checked_mul(std::mem::size_of::<T>()).expect("HugePageTable: size overflows");
        if bytes == 0 {
            return Ok(HugePageTable { ptr: NonNull::dangling(), len, layout: None });
        }
        let huge = bytes >= SMALLEST_ON_HUGE_PAGES;
        let layout = if huge {
            Layout::from_size_align(bytes.next_multiple_of(HUGE_PAGE), HUGE_PAGE.max(std::mem::align_of::<T>()))
        } else {
            Layout::array::<T>(len)
        }
        .expect("HugePageTable: size overflows");
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) } as *mut T;
        let Some(ptr) = NonNull::new(raw) else {
            return Err(layout);
        };
        if huge {
            advise_huge_pages(raw as *mut u8, layout.size());
        }
        for i in 0..len {
            // SAFETY: `i < len` and the allocation holds `len` values.
            unsafe { raw.add(i).write(value) };
        }
        Ok(HugePageTable { ptr, len, layout: Some(layout) })
    }
}

impl<T: Copy> Deref for HugePageTable<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised values (or a dangling pointer for none).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for HugePageTable<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for HugePageTable<T> {
    fn drop(&mut self) {
        if let Some(layout) = self.layout {
            // SAFETY: allocated in `new` with this layout; `T: Copy` has no
            // destructor to run.
            unsafe { alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout) };
        }
    }
}

/// How much of this process's anonymous memory is on transparent huge
/// pages right now, in KiB (Linux's `AnonHugePages` of
/// `/proc/self/smaps_rollup`); `None` where that cannot be read. Lets a
/// benchmark report whether its tables got huge pages: on a machine
/// without them NPS is lower, and a comparison should say so.
pub fn anon_huge_page_kib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
    parse_anon_huge_pages(&text)
}

fn parse_anon_huge_pages(smaps_rollup: &str) -> Option<u64> {
    let line = smaps_rollup.lines().find_map(|l| l.strip_prefix("AnonHugePages:"))?;
    line.trim().strip_suffix("kB")?.trim().parse().ok()
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    // SAFETY: the range is an allocation this process owns and has not
    // written yet; the advice changes how its pages are backed, never their
    // contents. A refusal is ignored: it is only advice.
    unsafe {
        libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_its_values_and_large_tables_start_on_a_huge_page() {
        let mut big = HugePageTable::new(3 << 18, 7u64); // 6 MiB
        assert_eq!(big.len(), 3 << 18);
        assert!(big.iter().all(|&v| v == 7));
        assert_eq!(big.as_ptr() as usize % HUGE_PAGE, 0, "a 6 MiB table is aligned to 2 MiB");
        big[12345] = 9;
        big.fill(1);
        assert_eq!(big.iter().sum::<u64>(), 3 << 18);

        let small = HugePageTable::new(100, [3u8; 5]);
        assert_eq!(small.len(), 100);
        assert!(small.iter().all(|v| *v == [3; 5]));

        let empty = HugePageTable::new(0, 1u32);
        assert!(empty.is_empty());
        let zero_sized = HugePageTable::new(10, ());
        assert_eq!(zero_sized.len(), 10);
    }

    #[test]
    fn reads_anon_huge_pages_from_smaps_rollup() {
        let text = "Rss:               26532 kB\nAnonymous:         20852 kB\nAnonHugePages:     18432 kB\nShmemPmdMapped:        0 kB\n";
        assert_eq!(parse_anon_huge_pages(text), Some(18432));
        assert_eq!(parse_anon_huge_pages("Rss: 1 kB\n"), None);
        assert_eq!(parse_anon_huge_pages("AnonHugePages: lots\n"), None);
    }
}
