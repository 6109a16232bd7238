//! A global allocator that counts allocations. It forwards everything to the system allocator;
//! counting is one relaxed atomic add and one thread-local add.
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: animgraph_test_support::counting::Counting = animgraph_test_support::counting::Counting;
//!
//! let before = animgraph_test_support::counting::thread_allocations();
//! // ... the code that must not allocate ...
//! assert_eq!(animgraph_test_support::counting::thread_allocations(), before);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static THREAD_ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting.
pub struct Counting;

fn count() {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    // `try_with`: a thread being torn down has no thread-locals left; its allocations still
    // count in the total.
    let _ = THREAD_ALLOCATIONS.try_with(|a| a.set(a.get() + 1));
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds GlobalAlloc's contract;
// the counters have no effect on the memory handed out, and counting allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout (via `alloc` above).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations so far on all threads (only while [`Counting`] is the global allocator).
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// Allocations so far on this thread (the parallel test harness cannot disturb it).
pub fn thread_allocations() -> u64 {
    THREAD_ALLOCATIONS.with(|a| a.get())
}
