//! Memory for the big tables the searches probe at random (the gomoku transposition table,
//! the Connect Four solver's table): zero-filled, untouched until the search writes it, and
//! on Linux advised into transparent huge pages.
//!
//! Why huge pages: nearly every probe of a big table misses the caches, and with 4 KiB pages
//! it also misses the TLB. Worse, a 128 MiB table in 4 KiB pages costs 32,768 page faults as
//! the search first writes it, and two threads faulting into it at once slow each other down
//! in the kernel. Measured on a first
//! move at 1 s (`perf stat`, 2 cores): one thread 65,874 faults, 0.13 s in the kernel; two
//! threads 117,742 faults, 0.68 s in the kernel, and the main thread searched at a quarter of
//! its speed until the table was mapped. With 2 MiB pages the faults drop to a few hundred.
//! `madvise(MADV_HUGEPAGE)` is what the common THP setting (`madvise`) asks for; where THP is
//! off the kernel ignores the advice and the table works as before.

use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};

/// Asks the memory for the cache line holding `*p` ahead of its read: a probe that would
/// miss then overlaps whatever the search does in between. A hint only (no-op off x86-64).
#[inline]
pub fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults nor changes memory, and `p` is a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (p as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// `n` zero values, advised into huge pages (see [`advise_huge_pages`]). The allocator hands
/// out fresh zero pages for large blocks without touching them, so a table of hundreds of
/// megabytes costs nothing until it is written: allocating it never eats into a move's time.
///
/// # Safety
/// The all-zero bit pattern must be a valid `T` (integers, atomics, structs of them).
pub unsafe fn zeroed_box<T>(n: usize) -> Box<[T]> {
    let b = zeroed_box_plain::<T>(n);
    advise_huge_pages(b.as_ptr().cast(), std::mem::size_of_val(&*b));
    b
}

/// [`zeroed_box`] without the huge-page advice, for tables too small to want it (the
/// kernel may compact memory to serve a huge page, a stall a tiny search should not pay).
///
/// # Safety
/// As [`zeroed_box`]: the all-zero bit pattern must be a valid `T`.
pub unsafe fn zeroed_box_plain<T>(n: usize) -> Box<[T]> {
    let layout = Layout::array::<T>(n).expect("table size overflows");
    if layout.size() == 0 {
        return Box::default();
    }
    let p = alloc_zeroed(layout).cast::<T>();
    if p.is_null() {
        handle_alloc_error(layout);
    }
    // The pointer comes from the global allocator with this exact layout, which is what
    // `Box<[T]>` frees it with; zero is a valid `T` by the caller's promise.
    Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
}

/// Asks Linux to back the whole pages of `bytes` bytes from `start` with transparent huge
/// pages (the kernel uses them for the 2 MiB-aligned stretches inside). Only advice: the
/// pages stay lazily zeroed, and a refusal changes nothing.
#[cfg(target_os = "linux")]
pub fn advise_huge_pages(start: *const u8, bytes: usize) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const PAGE: usize = 4096;
    const HUGE: usize = 2 << 20;
    let first = (start as usize).div_ceil(PAGE) * PAGE;
    let end = start as usize + bytes;
    if end > first + HUGE {
        let len = (end - first) / PAGE * PAGE;
        // SAFETY: the range is page-aligned and lies inside the caller's live allocation;
        // MADV_HUGEPAGE changes only how the kernel backs those pages, never their contents
        // or the mapping's validity, and the result is deliberately ignored.
        unsafe {
            madvise(first as *mut std::ffi::c_void, len, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn advise_huge_pages(_start: *const u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Small and large tables start zero and keep what is written (a large one is advised
    /// into huge pages first, which must not disturb its contents).
    #[test]
    fn tables_start_zero_and_keep_writes() {
        for len in [1usize, 1000, (4 << 20) / 8 + 3] {
            // SAFETY: zero is a valid AtomicU64.
            let mut b: Box<[AtomicU64]> = unsafe { zeroed_box(len) };
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|x| x.load(Ordering::Relaxed) == 0));
            b[len - 1].store(7, Ordering::Relaxed);
            *b[0].get_mut() = 9;
            let last = if len == 1 { 9 } else { 7 };
            assert_eq!(
                (
                    b[0].load(Ordering::Relaxed),
                    b[len - 1].load(Ordering::Relaxed)
                ),
                (9, last)
            );
        }
        // SAFETY: as above.
        let empty: Box<[AtomicU64]> = unsafe { zeroed_box(0) };
        assert!(empty.is_empty());
    }
}
