//! The blend stack: what one layer is blending, the same for graph layers and code tracks.
//!
//! A stack holds the *sources* (states or clips mixing out, each with a frozen weight; one of
//! them is the layer's *current* entry), at most one *target* (what a running mix brings in)
//! and the running *mix* (elapsed and duration). Its rules, each written once:
//!
//! | operation | result |
//! |---|---|
//! | no mix runs | one source, weight 1 (or none: an empty code track) |
//! | [`BlendStack::begin_mix`] | the entry becomes the target; the mix's progress `p` rises from 0 to 1 over its duration |
//! | emitted weights ([`BlendStack::emitted`]) | each source `weight x (1 - p)`, the target `p`: they sum to the sources' sum, so the blend is continuous |
//! | [`BlendStack::freeze`] (a mix starts while one runs: an interruption) | the sources' weights are scaled by `1 - p` and the target joins them with weight `p`: the blend as it stood becomes the new source |
//! | freezing into a full stack | first the lightest source that is not pinned (the layer's current state; the first of equals) is dropped and the other sources rescaled to keep their sum |
//! | [`BlendStack::complete`] | the target becomes the only source, weight 1 |
//! | [`BlendStack::cut`] | one entry replaces everything, weight 1, no mix |
//!
//! [`clip_timing`] turns an entry's clock into a clip sample's times, for both users too.

/// The most entries a [`BlendStack`] can hold: its storage, inline (no allocation of its own,
/// so a layer's stack sits in the layer's own memory).
pub(crate) const STACK_STORAGE: usize = 8;

/// Up to `N` entries stored inline, the first `len` live (the rest hold the default value):
/// what a stack's sources need of a `Vec` without a heap allocation of their own.
///
/// `repr(C)`, length first: the length and the first entries share a cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct Inline<E, const N: usize> {
    len: usize,
    items: [E; N],
}

impl<E: Copy + Default, const N: usize> Inline<E, N> {
    pub fn new() -> Self {
        Inline { items: [E::default(); N], len: 0 }
    }

    /// Appends `e`. Panics when full (callers keep below the capacity, as the stack's
    /// invariants say).
    pub fn push(&mut self, e: E) {
        self.items[self.len] = e;
        self.len += 1;
    }

    pub fn remove(&mut self, index: usize) -> E {
        let e = self.items[index];
        self.items.copy_within(index + 1..self.len, index);
        self.len -= 1;
        e
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl<E, const N: usize> std::ops::Deref for Inline<E, N> {
    type Target = [E];

    fn deref(&self) -> &[E] {
        &self.items[..self.len]
    }
}

impl<E, const N: usize> std::ops::DerefMut for Inline<E, N> {
    fn deref_mut(&mut self) -> &mut [E] {
        &mut self.items[..self.len]
    }
}

/// An entry of a [`BlendStack`]: anything with a frozen weight.
pub(crate) trait Weighted: Copy + Default {
    /// The weight among the sources.
    fn weight(&self) -> f32;
    /// Sets it.
    fn set_weight(&mut self, weight: f32);
}

/// A running mix: seconds elapsed, its duration, and what its owner keeps with it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Mix<X> {
    pub elapsed: f32,
    pub duration: f32,
    /// How the target's weight follows the progress.
    pub curve: crate::graph::TransitionCurve,
    /// Inertial: the target alone is sampled from the start (the backend hides the change).
    pub inertial: bool,
    pub info: X,
}

impl<X> Mix<X> {
    /// 0 when it starts, 1 once `duration` has elapsed (1 at once for a duration of 0 or less).
    pub fn progress(&self) -> f32 {
        if self.duration <= 0.0 { 1.0 } else { (self.elapsed / self.duration).min(1.0) }
    }

    /// The target's weight now: the curve of the progress (1 from the start when inertial).
    pub fn weight(&self) -> f32 {
        if self.inertial { 1.0 } else { self.curve.apply(self.progress()) }
    }
}

/// See the [module docs](self).
///
/// Invariants: `current < sources.len()` whenever sources is not empty; a target exists exactly
/// while a mix runs; `sources.len() < capacity <= STACK_STORAGE` (a full stack drops before it
/// grows), so its inline storage never overflows.
///
/// `repr(C)`, what every frame reads first: one word of scalars (the current index, the
/// capacity, whether a mix runs and a target plays), then the sources (the first right after),
/// then the target and the mix, read only while a mix runs. A layer that plays one state
/// touches the stack's first 72 bytes; the target's and the mix's storage keep their last
/// values while unused (never read: the flags say).
#[repr(C)]
pub(crate) struct BlendStack<E, X> {
    current: u8,
    capacity: u8,
    has_mix: bool,
    has_target: bool,
    sources: Inline<E, STACK_STORAGE>,
    target: E,
    mix: Mix<X>,
}

impl<E: std::fmt::Debug, X: std::fmt::Debug> std::fmt::Debug for BlendStack<E, X> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlendStack")
            .field("current", &self.current)
            .field("capacity", &self.capacity)
            .field("sources", &&self.sources[..])
            .field("target", &self.has_target.then_some(&self.target))
            .field("mix", &self.has_mix.then_some(&self.mix))
            .finish()
    }
}

impl<E: Copy, X: Copy> Clone for BlendStack<E, X> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: Copy, X: Copy> Copy for BlendStack<E, X> {}

impl<E: Weighted, X: Copy + Default> BlendStack<E, X> {
    /// A stack of at most `capacity` entries (sources and target), playing `first` alone.
    pub fn new(capacity: usize, first: Option<E>) -> Self {
        let mut sources = Inline::new();
        if let Some(first) = first {
            sources.push(first);
        }
        BlendStack {
            current: 0,
            capacity: capacity.min(STACK_STORAGE) as u8,
            has_mix: false,
            has_target: false,
            sources,
            target: E::default(),
            mix: Mix::default(),
        }
    }

    /// Entries mixing out (all of them, with weight 1 for the one, while no mix runs).
    pub fn sources(&self) -> &[E] {
        &self.sources
    }

    /// The layer's current entry.
    ///
    /// # Panics
    /// If the stack is empty (a graph layer never is).
    pub fn current(&self) -> &E {
        &self.sources[self.current as usize]
    }

    /// The current entry's index among the sources.
    pub fn current_index(&self) -> usize {
        self.current as usize
    }

    /// Makes another source the current one.
    pub fn set_current(&mut self, index: usize) {
        debug_assert!(index < self.sources.len());
        self.current = index as u8;
    }

    /// The running mix's target.
    pub fn target(&self) -> Option<&E> {
        self.has_target.then_some(&self.target)
    }

    /// The newest entry: the target, else the current source.
    pub fn newest(&self) -> Option<&E> {
        self.target().or(self.sources.get(self.current as usize))
    }

    /// The running mix.
    pub fn mix(&self) -> Option<&Mix<X>> {
        self.has_mix.then_some(&self.mix)
    }

    /// The running mix, to advance it.
    pub fn mix_mut(&mut self) -> Option<&mut Mix<X>> {
        if self.has_mix { Some(&mut self.mix) } else { None }
    }

    /// The running mix's progress.
    pub fn progress(&self) -> Option<f32> {
        self.mix().map(Mix::progress)
    }

    /// Every entry, sources first, then the target.
    pub fn entries_mut(&mut self) -> impl Iterator<Item = &mut E> {
        let target = if self.has_target { Some(&mut self.target) } else { None };
        self.sources.iter_mut().chain(target)
    }

    /// Each entry with the weight it contributes now (sources first, then the target).
    pub fn emitted(&self) -> impl Iterator<Item = (&E, f32)> {
        let p = self.mix().map(Mix::weight);
        let sources = self.sources.iter().map(move |s| (s, s.weight() * p.map_or(1.0, |p| 1.0 - p)));
        sources.chain(self.target().into_iter().zip(p))
    }

    /// One entry replaces everything: weight 1, no mix.
    pub fn cut(&mut self, entry: E) {
        self.sources.clear();
        self.sources.push(entry);
        self.current = 0;
        self.has_target = false;
        self.has_mix = false;
    }

    /// Empties the stack (a code track with nothing left to play).
    pub fn clear(&mut self) {
        self.sources.clear();
        self.current = 0;
        self.has_target = false;
        self.has_mix = false;
    }

    /// Freezes a running mix into the sources (see the module docs): returns the source dropped
    /// to make room, if the stack was full. `pin_current` keeps the current source from being
    /// dropped. Does nothing while no mix runs.
    pub fn freeze(&mut self, pin_current: bool) -> Option<E> {
        let (Some(&mix), Some(&target)) = (self.mix(), self.target()) else { return None };
        let t = mix.weight();
        for s in self.sources.iter_mut() {
            s.set_weight(s.weight() * (1.0 - t));
        }
        let dropped = if self.sources.len() >= usize::from(self.capacity) - 1 {
            self.drop_lightest(pin_current)
        } else {
            None
        };
        let mut frozen = target;
        frozen.set_weight(t);
        self.sources.push(frozen);
        self.has_target = false;
        self.has_mix = false;
        dropped
    }

    /// Drops the lightest source (the first of equals; never the current one when pinned) and
    /// rescales the rest to keep their sum.
    fn drop_lightest(&mut self, pin_current: bool) -> Option<E> {
        let mut lightest: Option<(usize, f32)> = None;
        for (i, s) in self.sources.iter().enumerate() {
            if (!pin_current || i != self.current as usize) && lightest.is_none_or(|(_, w)| s.weight() < w) {
                lightest = Some((i, s.weight()));
            }
        }
        let (index, _) = lightest?;
        let dropped = self.sources.remove(index);
        if self.current as usize > index {
            self.current -= 1;
        }
        let total: f32 = self.sources.iter().map(Weighted::weight).sum();
        let kept = total + dropped.weight();
        if total > 0.0 {
            for s in self.sources.iter_mut() {
                s.set_weight(s.weight() * (kept / total));
            }
        }
        Some(dropped)
    }

    /// Starts a mix to `entry` (after [`freeze`](Self::freeze) when one was running).
    pub fn begin_mix(&mut self, entry: E, mix: Mix<X>) {
        debug_assert!(!self.has_target, "freeze a running mix first");
        (self.target, self.has_target) = (entry, true);
        (self.mix, self.has_mix) = (mix, true);
    }

    /// The mix ends: its target becomes the only source, weight 1.
    pub fn complete(&mut self) {
        let Some(&mut mut target) = self.target_mut() else { return };
        self.has_target = false;
        target.set_weight(1.0);
        self.cut(target);
    }

    /// Keeps only the sources `keep` accepts (the current one stays current when kept).
    pub fn retain_sources(&mut self, mut keep: impl FnMut(&E) -> bool) {
        let mut i = 0;
        while i < self.sources.len() {
            if keep(&self.sources[i]) {
                i += 1;
            } else {
                self.sources.remove(i);
                if self.current as usize > i {
                    self.current -= 1;
                }
            }
        }
        self.current = self.current.min(self.sources.len().saturating_sub(1) as u8);
    }

    /// The sources, to advance their clocks or rebuild them from replicated state (keep them
    /// under the capacity).
    pub fn sources_mut(&mut self) -> &mut Inline<E, STACK_STORAGE> {
        &mut self.sources
    }

    /// Sets the target and mix directly (replication restores them as they were).
    pub fn set_target(&mut self, target: Option<E>, mix: Option<Mix<X>>) {
        self.has_target = target.is_some();
        self.has_mix = mix.is_some();
        if let Some(target) = target {
            self.target = target;
        }
        if let Some(mix) = mix {
            self.mix = mix;
        }
    }

    /// The target, to advance its clock.
    pub fn target_mut(&mut self) -> Option<&mut E> {
        if self.has_target { Some(&mut self.target) } else { None }
    }
}

/// A clip's sample times from an entry's clock (seconds x rate): `(time, previous time, looped)`.
/// A looping clip wraps (`looped` when a loop boundary was crossed this frame, either way); a
/// one-shot holds its ends.
pub(crate) fn clip_timing(clock: f64, prev: f64, length: f32, looping: bool) -> (f32, f32, bool) {
    let length = length as f64;
    if looping {
        // One division and floor per clock serve both the remainder and the loop test.
        let (d, d_prev) = (clock / length, prev / length);
        let (q, q_prev) = (floor(d), floor(d_prev));
        (
            rem_euclid_with(clock, length, d, q) as f32,
            rem_euclid_with(prev, length, d_prev, q_prev) as f32,
            q != q_prev,
        )
    } else {
        // max/min, not clamp, which panics on a negative or NaN length from a backend.
        let end = length.max(0.0);
        (clock.max(0.0).min(end) as f32, prev.max(0.0).min(end) as f32, false)
    }
}

/// Whether a clock crossed a multiple of `length` between `prev` and `clock`.
pub(crate) fn wrapped(clock: f64, prev: f64, length: f64) -> bool {
    floor(clock / length) != floor(prev / length)
}

/// `x.floor()` without the library call baseline x86-64 makes for it (truncation is one
/// instruction), equal to it for every input except that -0.0 gives 0.0 (equal as numbers).
#[inline]
pub(crate) fn floor(x: f64) -> f64 {
    if x.abs() < 4.5e15 {
        let t = x as i64 as f64;
        if t > x { t - 1.0 } else { t }
    } else {
        x.floor()
    }
}

/// `x.rem_euclid(length)`, bit for bit, without its library `fmod` call in the common case.
///
/// With `q = floor(x / length)` and `length` holding at most 24 significant bits (an `f32`
/// length) and `|q| < 2^29`, `q * length` is exact in an `f64`, so `x - q * length` is the
/// correctly rounded value of the exact remainder: for `x >= 0` that remainder is representable
/// (as `fmod`'s is) and comes out exactly; for `x < 0` it is `fmod + length`, which `rem_euclid`
/// also rounds once. A quotient rounded onto the wrong side of an integer puts the result
/// outside `(0, length)`, and that case (and zero, whose sign `rem_euclid` keeps) falls back to
/// the library.
#[inline]
pub(crate) fn rem_euclid(x: f64, length: f64) -> f64 {
    let d = x / length;
    rem_euclid_with(x, length, d, floor(d))
}

/// [`rem_euclid`] given `d = x / length` and `q = floor(d)` (computed once for two uses).
#[inline]
fn rem_euclid_with(x: f64, length: f64, d: f64, q: f64) -> f64 {
    if d.abs() < 536_870_912.0 && length > 0.0 && (length as f32) as f64 == length {
        let r = x - q * length;
        if r > 0.0 && r < length {
            return r;
        }
    }
    x.rem_euclid(length)
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The fast remainder and floor give the library's bits, for clocks of any sign and
        /// size and any f32 length, including values on and next to loop boundaries.
        #[test]
        fn rem_euclid_and_floor_match_the_library(
            x in proptest::num::f64::ANY,
            length in proptest::num::f32::POSITIVE | proptest::num::f32::NORMAL,
            k in -100_000i64..100_000,
            nudge in -2i64..=2,
        ) {
            let length = length as f64;
            let on_boundary = f64::from_bits(((k as f64) * length).to_bits().wrapping_add_signed(nudge));
            for v in [x, on_boundary, x * 1e-300, (x % 1e4)] {
                proptest::prop_assert_eq!(rem_euclid(v, length).to_bits(), v.rem_euclid(length).to_bits(), "{} % {}", v, length);
                proptest::prop_assert_eq!(rem_euclid(v, 1.0).to_bits(), v.rem_euclid(1.0).to_bits(), "{} % 1", v);
                proptest::prop_assert!(floor(v) == v.floor() || (v.is_nan() && floor(v).is_nan()), "floor {}", v);
                // A looping clip's times and loop test, as written with the library calls.
                let prev = v - 0.016;
                let (time, prev_time, looped) = clip_timing(v, prev, length as f32, true);
                let l = (length as f32) as f64;
                proptest::prop_assert_eq!(time.to_bits(), (v.rem_euclid(l) as f32).to_bits());
                proptest::prop_assert_eq!(prev_time.to_bits(), (prev.rem_euclid(l) as f32).to_bits());
                proptest::prop_assert_eq!(looped, (v / l).floor() != (prev / l).floor());
            }
        }
    }

    #[derive(Clone, Copy, Debug, PartialEq, Default)]
    struct E(u8, f32);

    impl Weighted for E {
        fn weight(&self) -> f32 {
            self.1
        }
        fn set_weight(&mut self, weight: f32) {
            self.1 = weight;
        }
    }

    fn mix(elapsed: f32) -> Mix<()> {
        Mix { elapsed, duration: 1.0, curve: Default::default(), inertial: false, info: () }
    }

    #[test]
    fn emitted_weights_are_continuous_across_an_interruption() {
        let mut stack = BlendStack::new(8, Some(E(0, 1.0)));
        stack.begin_mix(E(1, 1.0), mix(0.25));
        let before: Vec<f32> = stack.emitted().map(|(_, w)| w).collect();
        assert_eq!(before, [0.75, 0.25]);
        assert!(stack.freeze(true).is_none());
        stack.begin_mix(E(2, 1.0), mix(0.0));
        let after: Vec<(u8, f32)> = stack.emitted().map(|(e, w)| (e.0, w)).collect();
        assert_eq!(after, [(0, 0.75), (1, 0.25), (2, 0.0)]);
    }

    #[test]
    fn a_full_stack_drops_the_lightest_unpinned_source_and_keeps_the_sum() {
        let mut stack = BlendStack::new(3, Some(E(0, 1.0)));
        stack.begin_mix(E(1, 1.0), mix(0.9));
        stack.freeze(true); // sources: 0 at 0.1 (current, pinned), 1 at 0.9
        stack.begin_mix(E(2, 1.0), mix(0.5));
        let dropped = stack.freeze(true).expect("full");
        assert_eq!(dropped.0, 1, "the current source is pinned even though it is lighter");
        let ids: Vec<u8> = stack.sources().iter().map(|e| e.0).collect();
        assert_eq!(ids, [0, 2]);
        let sum: f32 = stack.sources().iter().map(|e| e.1).sum();
        assert!((sum - 1.0).abs() < 1e-6);
    }

    #[test]
    fn completing_leaves_the_target_alone_at_full_weight() {
        let mut stack = BlendStack::new(4, Some(E(0, 1.0)));
        stack.begin_mix(E(1, 1.0), mix(1.0));
        stack.complete();
        assert_eq!(stack.sources(), [E(1, 1.0)]);
        assert!(stack.target().is_none() && stack.mix().is_none());
    }

    #[test]
    fn clip_timing_wraps_loops_and_holds_one_shots() {
        assert_eq!(clip_timing(2.5, 1.5, 2.0, true), (0.5, 1.5, true));
        assert_eq!(clip_timing(2.5, 1.5, 2.0, false), (2.0, 1.5, false));
        assert_eq!(clip_timing(-0.5, 0.5, 2.0, true), (1.5, 0.5, true));
    }
}
