//! The transposition table: shared by all search threads without locks. Each entry is two
//! atomic words, the key xor-ed with the data, so a torn write is detected as a miss.

use jungle::Move;
use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// A decoded entry.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// The table's memory: zeroed words aligned to 2 MiB, on Linux advised to the kernel as
/// huge-page memory. A probe lands on a random entry, so with 4 KiB pages nearly every probe of a
/// table larger than the processor's TLB reach also misses the TLB; huge pages remove that walk.
struct Slots {
    ptr: NonNull<AtomicU64>,
    len: usize,
}

/// Huge-page size on the platforms that have them; the alignment of the table.
const HUGE_PAGE: usize = 2 << 20;

impl Slots {
    /// The allocation of `len` words: aligned to a huge page, or to its own size when smaller.
    fn layout(len: usize) -> Option<Layout> {
        let bytes = len.checked_mul(std::mem::size_of::<AtomicU64>())?.max(1);
        Layout::from_size_align(bytes, HUGE_PAGE.min(bytes.next_power_of_two())).ok()
    }

    /// `len` zeroed words, or `None` when the memory cannot be had.
    #[allow(unsafe_code)]
    fn new(len: usize) -> Option<Slots> {
        let layout = Self::layout(len)?;
        let bytes = layout.size();
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { std::alloc::alloc(layout) };
        let ptr = NonNull::new(raw as *mut AtomicU64)?;
        #[cfg(target_os = "linux")]
        // SAFETY: the range is the allocation just made, whole; the advice only changes how the
        // kernel backs its pages (it fails harmlessly where huge pages are off).
        unsafe {
            libc::madvise(raw as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
        }
        // SAFETY: the allocation holds `len` words and the all-zero word is a valid `AtomicU64`;
        // zeroing after the advice makes the first touch fault the pages in as huge pages.
        unsafe { std::ptr::write_bytes(raw, 0, bytes) };
        Some(Slots { ptr, len })
    }
}

impl std::ops::Deref for Slots {
    type Target = [AtomicU64];
    #[allow(unsafe_code)]
    #[inline(always)]
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` holds `len` initialised words for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        let layout = Self::layout(self.len).expect("the layout `Slots::new` allocated with");
        // SAFETY: allocated in `Slots::new` with this very layout, freed once.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout) };
    }
}

// SAFETY: `Slots` owns its words as a `Box<[AtomicU64]>` would, and atomics may be shared.
#[allow(unsafe_code)]
unsafe impl Send for Slots {}
// SAFETY: as above: shared access only ever goes through the atomics.
#[allow(unsafe_code)]
unsafe impl Sync for Slots {}

pub(crate) struct Tt {
    slots: Slots,
    mask: usize,
    generation: AtomicU64,
}

const ENTRY_BYTES: usize = 16;

impl Tt {
    /// A table of about `mb` MiB (rounded down to a power of two entries). When the memory cannot
    /// be had, the size is halved until it can: a too-large `Hash` never aborts the engine.
    pub fn new(mb: usize) -> Tt {
        let want = (mb.max(1) << 20) / ENTRY_BYTES;
        let mut n = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        let slots = loop {
            match Slots::new(2 * n) {
                Some(s) => break s,
                None if n > 1 => n /= 2,
                None => panic!("no memory for a one-entry transposition table"),
            }
        };
        Tt {
            slots,
            mask: n - 1,
            generation: AtomicU64::new(0),
        }
    }

    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        2 * ((hash as usize) & self.mask)
    }

    /// Asks the processor to start loading the entry of `hash`, so that a probe soon after finds
    /// it in the cache.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots[self.index(hash)].as_ptr() as *const i8;
            // SAFETY: a prefetch is a hint that never faults and has no effect on memory; the
            // address lies inside the table anyway.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// How full the table is for the current search, in permille (UCI's `hashfull`): of the
    /// first thousand entries (all of a smaller table), those written since [`Tt::new_search`].
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed) & 0x3f;
        let n = (self.mask + 1).min(1000);
        let used = (0..n)
            .filter(|&e| {
                let data = self.slots[2 * e + 1].load(Ordering::Relaxed);
                data != 0 && data >> 58 == gen
            })
            .count();
        (used * 1000 / n) as u32
    }

    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let i = self.index(hash);
        let key = self.slots[i].load(Ordering::Relaxed);
        let data = self.slots[i + 1].load(Ordering::Relaxed);
        if data == 0 || key ^ data != hash {
            return None;
        }
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            mv: Move::from_u16(data as u16).filter(|m| !m.is_pass()),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xff) as i32 - 1,
            bound,
        })
    }

    #[inline]
    pub fn store(
        &self,
        hash: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let i = self.index(hash);
        let gen = self.generation.load(Ordering::Relaxed) & 0x3f;
        let old_key = self.slots[i].load(Ordering::Relaxed);
        let old = self.slots[i + 1].load(Ordering::Relaxed);
        let same = old != 0 && old_key ^ old == hash;
        let old_depth = ((old >> 48) & 0xff) as i32 - 1;
        let old_gen = old >> 58;
        if old != 0 && old_gen == gen && old_depth > depth + 2 && bound != Bound::Exact {
            return;
        }
        let mv16 = match mv {
            Some(m) => m.to_u16(),
            None if same => old as u16,
            None => Move::PASS.to_u16(),
        };
        let data = mv16 as u64
            | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 16)
            | ((eval.clamp(-32767, 32767) as i16 as u16 as u64) << 32)
            | (((depth + 1).clamp(0, 255) as u64) << 48)
            | ((bound as u64) << 56)
            | (gen << 58);
        self.slots[i].store(hash ^ data, Ordering::Relaxed);
        self.slots[i + 1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_table_is_empty_and_keeps_what_is_stored() {
        for mb in [1, 3, 16] {
            let tt = Tt::new(mb);
            assert!(tt.slots.len().is_power_of_two());
            assert_eq!(tt.slots.as_ptr() as usize % HUGE_PAGE.min(mb << 20), 0);
            assert!(tt.slots.iter().all(|s| s.load(Ordering::Relaxed) == 0));
            let hash = 0x1234_5678_9abc_def1_u64;
            assert!(tt.probe(hash).is_none());
            let m = Move::from_u16(0x0a11).expect("square 10 to square 17");
            tt.store(hash, Some(m), -77, 12, 5, Bound::Lower);
            let e = tt.probe(hash).expect("just stored");
            assert_eq!(
                (e.mv, e.score, e.eval, e.depth, e.bound),
                (Some(m), -77, 12, 5, Bound::Lower)
            );
            assert!(tt.probe(hash ^ 1).is_none());
            tt.clear();
            assert!(tt.probe(hash).is_none());
        }
    }

    #[test]
    fn hashfull_counts_the_entries_of_the_current_search() {
        let tt = Tt::new(1);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        // Entries 0..250 of the thousand sampled: hashes whose low bits index them.
        for e in 0..250u64 {
            tt.store((e << 40) | e, None, 0, 0, 1, Bound::Exact);
        }
        assert_eq!(tt.hashfull(), 250);
        // A new search: the old entries no longer count, a rewritten one does.
        tt.new_search();
        tt.store((7 << 40) | 7, None, 0, 0, 1, Bound::Exact);
        assert_eq!(tt.hashfull(), 1);
    }
}
