//! Global allocators that count allocations, forwarding everything to the system allocator:
//! [`Counting`] counts on all threads (one relaxed atomic add: cheap enough for `animgraph
//! bench`'s figures), [`PerThread`] also counts per thread (a thread-local add more), so the
//! parallel test harness cannot disturb a zero-allocation test.
//!
//! ```
//! use animgraph_test_support::counting::{PerThread, thread_allocations};
//!
//! #[global_allocator]
//! static GLOBAL: PerThread = PerThread;
//!
//! fn main() {
//!     let before = thread_allocations();
//!     let sum: u32 = [1, 2, 3].iter().sum(); // the code that must not allocate
//!     assert_eq!(thread_allocations(), before);
//!     let grown: Vec<u32> = vec![sum; 8]; // this one does
//!     assert!(thread_allocations() > before);
//!     drop(grown);
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static THREAD_ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static THREAD_BYTES: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting allocations on all threads.
pub struct Counting;

/// The system allocator, counting allocations per thread and on all threads.
pub struct PerThread;

#[inline]
fn count_all(_bytes: usize) {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
}

#[inline]
fn count_per_thread(bytes: usize) {
    count_all(bytes);
    // `try_with`: a thread being torn down has no thread-locals left; its allocations still
    // count in the total.
    let _ = THREAD_ALLOCATIONS.try_with(|a| a.set(a.get() + 1));
    let _ = THREAD_BYTES.try_with(|b| b.set(b.get() + bytes as u64));
}

macro_rules! counting_allocator {
    ($name:ident, $count:ident) => {
        // SAFETY: every call is forwarded unchanged to `System`, which upholds GlobalAlloc's
        // contract; the counters have no effect on the memory handed out, and counting
        // allocates nothing.
        unsafe impl GlobalAlloc for $name {
            #[inline]
            unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
                $count(layout.size());
                // SAFETY: forwarded with the caller's layout.
                unsafe { System.alloc(layout) }
            }

            #[inline]
            unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
                // SAFETY: `ptr` came from `System.alloc` with this layout (via `alloc` above).
                unsafe { System.dealloc(ptr, layout) }
            }

            #[inline]
            unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
                $count(new_size);
                // SAFETY: forwarded unchanged.
                unsafe { System.realloc(ptr, layout, new_size) }
            }
        }
    };
}

counting_allocator!(Counting, count_all);
counting_allocator!(PerThread, count_per_thread);

/// Allocations so far on all threads (while [`Counting`] or [`PerThread`] is the global
/// allocator).
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// Allocations so far on this thread (while [`PerThread`] is the global allocator).
pub fn thread_allocations() -> u64 {
    THREAD_ALLOCATIONS.with(|a| a.get())
}

/// Bytes requested so far on this thread by allocations and reallocations (each realloc counts
/// its new size; frees are not subtracted), while [`PerThread`] is the global allocator.
pub fn thread_bytes() -> u64 {
    THREAD_BYTES.with(|b| b.get())
}

/// Heap bytes and allocations requested on this thread per call of `f`, averaged over `n`
/// calls (while [`PerThread`] is the global allocator): what one more of something costs.
pub fn per_call(n: u64, mut f: impl FnMut()) -> (u64, u64) {
    let (bytes, allocations) = (thread_bytes(), thread_allocations());
    for _ in 0..n {
        f();
    }
    ((thread_bytes() - bytes) / n.max(1), (thread_allocations() - allocations) / n.max(1))
}
