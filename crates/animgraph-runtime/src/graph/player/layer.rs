//! A layer's runtime state: its blend stack of playing leaf instances, and how an instance's
//! clock and blend-space weights are computed.

use super::super::blend_space::{MAX_WEIGHTS_1D, MAX_WEIGHTS_2D, weights_1d};
use super::super::bound::{BlendInput, BlendPoint, MAX_INSTANCES, Motion};
use super::super::{StateId, TransitionId, TransitionInterrupt};
use super::AnimationGraphPlayer;
use crate::blend::{BlendStack, Weighted};
use crate::markers;

/// One leaf state playing on a layer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Instance {
    /// The leaf state playing.
    pub state: StateId,
    /// Seconds x rate for clips and unsynced blend spaces; cumulative phase for synced ones.
    pub clock: f64,
    /// `clock` before this frame's advance.
    pub prev: f64,
    /// Weight among the frozen sources (1 when alone).
    pub weight: f32,
    /// The tick at which the instance started.
    pub entry_tick: u64,
    /// Blend spaces: the clip weights at the last clock advance (`(point, weight)`, the first
    /// `weight_count` valid), so each frame triangulates once.
    pub weights: [(u16, f32); MAX_WEIGHTS_2D],
    pub weight_count: u8,
}

/// The filler of a stack's unused storage (never played).
impl Default for Instance {
    fn default() -> Self {
        Instance {
            state: StateId(0),
            clock: 0.0,
            prev: 0.0,
            weight: 0.0,
            entry_tick: 0,
            weights: [(0, 0.0); MAX_WEIGHTS_2D],
            weight_count: 0,
        }
    }
}

impl Weighted for Instance {
    fn weight(&self) -> f32 {
        self.weight
    }

    fn set_weight(&mut self, weight: f32) {
        self.weight = weight;
    }
}

/// What a graph layer keeps with its running mix.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Running {
    /// The graph transition (`None` for travel).
    pub transition: Option<TransitionId>,
    pub interrupt: TransitionInterrupt,
    pub start_tick: u64,
    /// The normalised time the target started at (its `Offset`, or where markers matched).
    pub offset: f32,
}

/// Which playing state a candidate transition leaves from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Side {
    /// The layer's current state.
    Source,
    /// The running mix's target.
    Target,
}

/// One layer's runtime state.
///
/// Invariants (kept by every stage; `advance` relies on them and checks none):
/// - the stack always has at least one source, and its current source is the layer's current
///   state; every instance's state is a leaf (a clip or blend-space state) of this layer;
/// - a target exists exactly while a mix runs;
/// - at most [`MAX_INSTANCES`] instances blend (sources plus target), so the stack's storage,
///   reserved at construction, never grows;
/// - bit `d` of `current_exited` (`target_exited`) is set only while the current (target)
///   leaf's enclosing sub-machine at depth `d` has fired `<exit>`; a new target starts with none;
/// - `weight` is finite and in 0..=1.
///
/// `repr(C)`, aligned to a cache line, hot first: what every frame reads (the scalars, the
/// inertial blend, the open windows, the stack's scalars and first source) is the first 128
/// bytes, two cache lines; the rest (the stack's other entries, the target and the mix while
/// one runs, windows to close after a restore, `Path` travel) only when in use.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct LayerRun {
    /// Bit d: the current state's enclosing sub-machine at depth d has exited.
    pub current_exited: u32,
    /// The same for the running mix's target.
    pub target_exited: u32,
    /// Authored weight, or the last `set_layer_weight`.
    pub weight: f32,
    pub event_threshold: f32,
    pub pending_travel: Option<StateId>,
    /// The inertial blend running (from an inertial transition's start until its duration has
    /// passed, even when a crossfade interrupts it: the backend's offset keeps decaying).
    pub inertial: Option<crate::core::InertialBlend>,
    /// The windows open now, of the state that owns them (the target while a mix runs, else
    /// the current state).
    pub windows: OpenWindows,
    /// Its scalars and first source end the first 128 bytes.
    pub stack: BlendStack<Instance, Running>,
    /// Windows a restore or rebind closed: their `WindowEnd` is raised at the next advance
    /// (read only when the player's `closing` flag says some layer has any).
    pub closing: OpenWindows,
    /// A `Path` travel's planned hops (storage reserved at construction for `Path` layers) and
    /// the next one to start (read only on `Path` layers).
    pub travel: Vec<TransitionId>,
    pub travel_next: usize,
}

/// Which windows of one playing instance are open: bit `i` is the state's `i`th window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OpenWindows {
    pub state: StateId,
    /// The instance's entry tick (a state entered again is another instance).
    pub entry_tick: u64,
    pub bits: u64,
}

impl OpenWindows {
    pub const NONE: OpenWindows = OpenWindows { state: StateId(0), entry_tick: 0, bits: 0 };
}

impl LayerRun {
    pub fn new(entry: Instance, weight: f32, event_threshold: f32, travel_capacity: usize) -> Self {
        LayerRun {
            travel: Vec::with_capacity(travel_capacity),
            travel_next: 0,
            inertial: None,
            stack: BlendStack::new(MAX_INSTANCES, Some(entry)),
            current_exited: 0,
            target_exited: 0,
            weight,
            event_threshold,
            pending_travel: None,
            windows: OpenWindows::NONE,
            closing: OpenWindows::NONE,
        }
    }

    /// The travel hops not started yet.
    pub fn travel_left(&self) -> &[TransitionId] {
        &self.travel[self.travel_next.min(self.travel.len())..]
    }

    /// The playing instance on a side (the current one when there is no target).
    pub fn side(&self, side: Side) -> &Instance {
        match side {
            Side::Source => self.stack.current(),
            Side::Target => self.stack.target().unwrap_or(self.stack.current()),
        }
    }
}

impl AnimationGraphPlayer {
    /// A new instance of a leaf, started at normalised time `offset`.
    pub(super) fn new_instance(&self, leaf: StateId, offset: f32) -> Instance {
        let blank = Instance {
            state: leaf,
            clock: 0.0,
            prev: 0.0,
            weight: 1.0,
            entry_tick: self.tick,
            weights: [(0, 0.0); MAX_WEIGHTS_2D],
            weight_count: 0,
        };
        let instance = self.with_weights(blank);
        let clock = match &self.graph.states[leaf.index()].motion {
            Some(Motion::Clip { length, .. }) => offset as f64 * *length as f64,
            Some(Motion::Blend { sync: true, .. }) | None => offset as f64,
            Some(Motion::Blend { sync: false, points, .. }) => {
                offset as f64 * self.graph.points[dominant_point(&instance, points)].length as f64
            }
        };
        Instance { clock, prev: clock, ..instance }
    }

    /// The instance with its blend-space weights computed from the current parameters.
    pub(super) fn with_weights(&self, mut instance: Instance) -> Instance {
        if let Some(Motion::Blend { input, points, .. }) = &self.graph.states[instance.state.index()].motion {
            let (n, weights) = self.blend_weights(*input, points);
            instance.weights = weights;
            instance.weight_count = n as u8;
        }
        instance
    }

    /// A blend space's clip weights at the parameters' current values: `(point, weight)` pairs,
    /// weight > 0, summing to 1.
    pub(super) fn blend_weights(
        &self,
        input: BlendInput,
        points: &std::ops::Range<u32>,
    ) -> (usize, [(u16, f32); MAX_WEIGHTS_2D]) {
        let mut out = [(0u16, 0.0f32); MAX_WEIGHTS_2D];
        let n = match input {
            BlendInput::OneD(param) => {
                let x = self.values[param.index()].numeric();
                let positions = &self.graph.positions[points.start as usize..points.end as usize];
                let mut one = [(0u16, 0.0f32); MAX_WEIGHTS_1D];
                let n = weights_1d(positions, x, &mut one);
                out[..n].copy_from_slice(&one[..n]);
                n
            }
            BlendInput::TwoD(x, y, space) => {
                let p = [self.values[x.index()].numeric(), self.values[y.index()].numeric()];
                self.graph.spaces[space as usize].weights(p, &mut out)
            }
        };
        (n, out)
    }

    /// Normalised time of an instance (see the module docs).
    pub(super) fn normalised(&self, instance: &Instance) -> f32 {
        match &self.graph.states[instance.state.index()].motion {
            Some(Motion::Clip { length, .. }) => (instance.clock / *length as f64) as f32,
            Some(Motion::Blend { sync: true, .. }) | None => instance.clock as f32,
            Some(Motion::Blend { sync: false, points, .. }) => {
                (instance.clock / self.graph.points[dominant_point(instance, points)].length as f64) as f32
            }
        }
    }

    /// An instance's time as its windows see it: normalised time, within the loop for a
    /// looping state (a blend space loops as its heaviest clip does).
    pub(super) fn window_time(&self, instance: &Instance) -> f32 {
        let t = self.normalised(instance);
        let looping = match &self.graph.states[instance.state.index()].motion {
            Some(Motion::Clip { looping, .. }) => *looping,
            Some(Motion::Blend { points, .. }) => self.graph.points[dominant_point(instance, points)].looping,
            None => false,
        };
        if looping { t.rem_euclid(1.0) } else { t }
    }

    /// A state's playback rate: its `Speed` x its `SpeedParameter`.
    fn rate(&self, state: StateId) -> f64 {
        let def = &self.graph.states[state.index()];
        let multiplier = def.speed_param.map_or(1.0, |p| self.values[p.index()].numeric());
        def.speed as f64 * multiplier as f64
    }

    /// The instance one frame of `delta` seconds later.
    pub(super) fn advanced(&self, instance: Instance, delta: f32) -> Instance {
        // Weights follow this frame's parameters; emission and next frame's exit times use them.
        let mut instance = self.with_weights(instance);
        let rate = self.rate(instance.state) * delta as f64;
        instance.prev = instance.clock;
        instance.clock += match &self.graph.states[instance.state.index()].motion {
            Some(Motion::Blend { points, reference: Some(r), .. }) => {
                // Marker sync: the reference's marker segments advance at the weighted pace of
                // every clip's current segment; the clock is the reference's phase there.
                let pts = self.graph.points(points);
                let reference = self.graph.markers(&pts[*r as usize].markers);
                let u = markers::segments_at(reference, instance.clock);
                let weights = &instance.weights[..instance.weight_count as usize];
                let pace: f64 = weights
                    .iter()
                    .map(|&(j, w)| {
                        let point = &pts[j as usize];
                        let follower = self.follower(point);
                        w as f64 * markers::segment_rate(follower, reference, u, point.length)
                    })
                    .sum();
                let own = markers::Follower { markers: reference, align: Some(0) };
                markers::phase_at(own, reference, u + rate * pace) - instance.clock
            }
            Some(Motion::Blend { sync: true, points, .. }) => {
                let pts = self.graph.points(points);
                let weights = &instance.weights[..instance.weight_count as usize];
                let normalised_rate: f64 =
                    weights.iter().map(|&(j, w)| w as f64 / pts[j as usize].length as f64).sum();
                rate * normalised_rate
            }
            _ => rate,
        };
        instance
    }
}

impl AnimationGraphPlayer {
    /// A blend point's place in its space's marker segments.
    pub(super) fn follower<'a>(&'a self, point: &'a BlendPoint) -> markers::Follower<'a> {
        markers::Follower { markers: self.graph.markers(&point.markers), align: point.align.map(usize::from) }
    }

    /// The markers an instance's time is matched against by a `Sync: Markers` transition, and
    /// its cumulative phase among them: a clip state's own; a marker-synced blend space's
    /// reference clip (its clock is that clip's phase); any other blend space's heaviest clip.
    pub(super) fn marker_phase(&self, instance: &Instance) -> Option<(&[markers::Marker], f64)> {
        match &self.graph.states[instance.state.index()].motion {
            Some(Motion::Clip { length, markers, .. }) => {
                Some((self.graph.markers(markers), instance.clock / *length as f64))
            }
            Some(Motion::Blend { points, reference: Some(r), .. }) => {
                Some((self.graph.markers(&self.graph.points(points)[*r as usize].markers), instance.clock))
            }
            Some(Motion::Blend { points, sync, .. }) => {
                let point = &self.graph.points[dominant_point(instance, points)];
                let phase = if *sync { instance.clock } else { instance.clock / point.length as f64 };
                Some((self.graph.markers(&point.markers), phase))
            }
            None => None,
        }
    }
}

/// The heaviest point of an instance's cached blend weights (global point index; the first of
/// equals).
pub(super) fn dominant_point(instance: &Instance, points: &std::ops::Range<u32>) -> usize {
    let weights = &instance.weights[..(instance.weight_count as usize).max(1)];
    let mut best = weights[0];
    for &w in &weights[1..] {
        if w.1 > best.1 {
            best = w;
        }
    }
    points.start as usize + best.0 as usize
}

/// A synced blend-space clip's sample times from the shared phase (the clip's share of one
/// cycle); see [`crate::blend::clip_timing`] for unsynced clocks.
pub(super) fn phase_timing(phase: f64, prev: f64, length: f32, looping: bool) -> (f32, f32, bool) {
    let length = length as f64;
    if looping {
        let looped = crate::blend::floor(phase) != crate::blend::floor(prev);
        let (phase, prev) = (crate::blend::rem_euclid(phase, 1.0), crate::blend::rem_euclid(prev, 1.0));
        ((phase * length) as f32, (prev * length) as f32, looped)
    } else {
        ((phase.clamp(0.0, 1.0) * length) as f32, (prev.clamp(0.0, 1.0) * length) as f32, false)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    /// What every frame reads of a layer playing one state (the scalars, the inertial blend,
    /// the open windows, the stack's scalars and first source) is the first two cache lines of
    /// a cache-line-aligned `LayerRun`; the stack's cold storage and the closing windows follow.
    #[test]
    fn a_layer_frame_reads_two_cache_lines() {
        use std::mem::{align_of, offset_of, size_of};
        assert_eq!(align_of::<LayerRun>(), 64);
        let run = LayerRun::new(Instance::default(), 1.0, 0.5, 0);
        let base = &run as *const LayerRun as usize;
        let first = run.stack.sources().as_ptr() as usize - base;
        assert!(
            first + size_of::<Instance>() <= 128,
            "the first source ends at {}",
            first + size_of::<Instance>()
        );
        for hot in
            [offset_of!(LayerRun, inertial), offset_of!(LayerRun, windows), offset_of!(LayerRun, stack)]
        {
            assert!(hot < 128);
        }
        assert!(offset_of!(LayerRun, closing) >= 128);
        assert!(offset_of!(LayerRun, travel) >= 128);
    }
}
