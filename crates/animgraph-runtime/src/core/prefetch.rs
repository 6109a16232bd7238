//! Cache hints for crowds: a crowd asks for the next members' memory while it updates the ones
//! before, so their loads overlap that work instead of stalling each member in turn.
//!
//! Hints only: they read nothing and change no result (the same bits with or without them). On
//! x86 and x86-64 they are SSE's `prefetcht0` (through `safe_arch`, which wraps the intrinsic
//! safely: a prefetch never faults, whatever the address); elsewhere they do nothing.

/// Hints that the cache line holding `value`'s first byte will be read soon.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse"))]
    safe_arch::prefetch_t0(value);
    #[cfg(not(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse")))]
    let _ = value;
}

/// Hints that every cache line `values` spans will be read soon: one hint per 64 bytes, and
/// one for the last element.
#[inline]
pub fn prefetch_slice<T>(values: &[T]) {
    let step = (64 / std::mem::size_of::<T>().max(1)).max(1);
    for value in values.iter().step_by(step) {
        prefetch(value);
    }
    if let Some(last) = values.last() {
        prefetch(last);
    }
}
