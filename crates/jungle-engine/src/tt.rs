//! The transposition table: shared by all search threads without locks. Each entry is two
//! atomic words, the key xor-ed with the data, so a torn write is detected as a miss.

use jungle::Move;
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

pub(crate) struct Tt {
    slots: Vec<AtomicU64>,
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
        let mut slots: Vec<AtomicU64> = Vec::new();
        while n > 1 && slots.try_reserve_exact(2 * n).is_err() {
            n /= 2;
        }
        slots.resize_with(2 * n, || AtomicU64::new(0));
        Tt {
            slots,
            mask: n - 1,
            generation: AtomicU64::new(0),
        }
    }

    pub fn clear(&self) {
        for s in &self.slots {
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
