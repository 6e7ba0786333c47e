//! `FixedVec`: a fixed-capacity vector on the stack for `Copy` items, the
//! storage behind the move list, the SEE attacker lists and the search's
//! scored moves. Creating one writes only its length (no memset of the
//! uninitialised storage); pushing past the capacity is ignored rather than
//! written out of bounds, since no legal position fills these lists.

use std::mem::MaybeUninit;

/// At most `N` items of `T`, stored inline.
pub struct FixedVec<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> FixedVec<T, N> {
    /// An empty vector.
    #[inline(always)]
    pub fn new() -> Self {
        // Written field by field: with a struct literal LLVM merges the
        // `len` store with the uninitialised array into one memset of the
        // whole storage, on every node.
        let mut v = MaybeUninit::<Self>::uninit();
        // SAFETY: `len` is written; `items` holds `MaybeUninit`s, which need
        // no initialisation.
        unsafe {
            std::ptr::addr_of_mut!((*v.as_mut_ptr()).len).write(0);
            v.assume_init()
        }
    }

    /// Append; a full vector ignores the push.
    #[inline(always)]
    pub fn push(&mut self, item: T) {
        self.appender().push(item);
    }

    /// An appender that keeps the length in a local (a register, once
    /// inlined) until it is dropped: a loop of pushes through `&mut self`
    /// reloads and stores `len` on every push, since LLVM cannot prove the
    /// item stores leave it alone.
    #[inline(always)]
    pub fn appender(&mut self) -> Appender<'_, T, N> {
        Appender { len: self.len, items: &mut self.items, len_out: &mut self.len }
    }

    /// Append `f(x)` for each `x` of `src`, as many as fit: the length is
    /// updated once, with no capacity test per item.
    #[inline(always)]
    pub fn extend_mapped<S: Copy>(&mut self, src: &[S], mut f: impl FnMut(S) -> T) {
        let spare = &mut self.items[self.len..];
        let n = spare.len().min(src.len());
        for (slot, &x) in spare.iter_mut().zip(src) {
            slot.write(f(x));
        }
        self.len += n;
    }

    /// How many items it holds.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Does it hold no item?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Does it hold `N` items?
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.len == N
    }

    /// Forget every item.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The items, in push order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` items were written by `push`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const T, self.len) }
    }

    /// The items, mutable.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as for `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr() as *mut T, self.len) }
    }

    /// Iterate the items in push order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// Keep only the items for which `keep` holds, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(T) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let item = self.as_slice()[i];
            if keep(item) {
                self.as_mut_slice()[kept] = item;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Remove the item at `index`, keeping the order of the rest.
    #[inline]
    pub fn remove(&mut self, index: usize) -> T {
        let s = self.as_mut_slice();
        let item = s[index];
        s.copy_within(index + 1.., index);
        self.len -= 1;
        item
    }
}

/// Pushes onto a [`FixedVec`], writing the length back when dropped. A
/// push past the capacity is ignored.
pub struct Appender<'a, T: Copy, const N: usize> {
    items: &'a mut [MaybeUninit<T>; N],
    len: usize,
    len_out: &'a mut usize,
}

impl<T: Copy, const N: usize> Appender<'_, T, N> {
    /// Append; a full vector ignores the push.
    #[inline(always)]
    pub fn push(&mut self, item: T) {
        if let Some(slot) = self.items.get_mut(self.len) {
            slot.write(item);
            self.len += 1;
        }
    }
}

impl<T: Copy, const N: usize> Drop for Appender<'_, T, N> {
    #[inline(always)]
    fn drop(&mut self) {
        *self.len_out = self.len;
    }
}

impl<T: Copy, const N: usize> Default for FixedVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Clone for FixedVec<T, N> {
    fn clone(&self) -> Self {
        let mut v = Self::new();
        for &x in self.as_slice() {
            v.push(x);
        }
        v
    }
}

impl<T: Copy + std::fmt::Debug, const N: usize> std::fmt::Debug for FixedVec<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Copy, const N: usize> std::ops::Index<usize> for FixedVec<T, N> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a FixedVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::FixedVec;

    #[test]
    fn push_remove_and_overflow() {
        let mut v = FixedVec::<u32, 4>::new();
        assert!(v.is_empty());
        for i in 0..6 {
            v.push(i);
        }
        assert_eq!(v.as_slice(), &[0, 1, 2, 3], "pushes past the capacity are ignored");
        assert!(v.is_full());
        assert_eq!(v.remove(1), 1);
        assert_eq!(v.as_slice(), &[0, 2, 3]);
        let c = v.clone();
        v.clear();
        assert_eq!(c.len(), 3);
        assert_eq!(c[2], 3);
    }

    #[test]
    fn retain_keeps_the_order_of_what_it_keeps() {
        let mut v = FixedVec::<u32, 8>::new();
        for i in 0..8 {
            v.push(i);
        }
        v.retain(|x| x % 3 != 1);
        assert_eq!(v.as_slice(), &[0, 2, 3, 5, 6]);
        v.retain(|_| false);
        assert!(v.is_empty());
    }

    #[test]
    fn appender_continues_the_list_and_writes_the_length_back() {
        let mut v = FixedVec::<u32, 4>::new();
        v.push(7);
        {
            let mut a = v.appender();
            for i in 0..5 {
                a.push(i);
            }
        }
        assert_eq!(v.as_slice(), &[7, 0, 1, 2], "after the existing items; the overflow is ignored");
        v.clear();
        v.appender().push(9);
        assert_eq!(v.as_slice(), &[9]);
    }
}
