//! The crowd store: many characters of one bound graph and one skeleton, updated in memory order,
//! on one thread or split across threads, with animation LOD.
//!
//! A [`Crowd`] keeps each character ([`Member`]: its graph player, its backend's pose and a
//! level of detail) in one `Vec`, in spawn order. What `apply` needs only while it runs (per
//! layer sums, deltas) and the sample buffer live once per thread instead of once per character
//! ([`CrowdBackend::Scratch`]), so a frame walks only the state that persists. The bound graph,
//! the skeleton, the resolved clips and masks are shared by every member. Before each member's
//! update the crowd hints the memory of the member [`PREFETCH_AHEAD`] after it
//! ([`AnimationGraphPlayer::prefetch`], [`CrowdBackend::prefetch`]), so in a crowd too large for
//! the cache those loads overlap the work in between. For characters held
//! apart (a player character, a boss) keep using [`Animated`](crate::animated::Animated): both
//! run the same player and the same backend code, and a crowd member at LOD 1 produces the same
//! bits as an `Animated` with the same inputs (tested).
//!
//! # Animation LOD
//!
//! Every member's graph advances every frame, so states, signals, windows and the replicated
//! state stay exact at every LOD. The pose of a member at LOD `n` is sampled every `n`th frame;
//! in between it moves in equal steps towards the last sample ([`CrowdBackend::approach`]) and
//! reaches it the frame before the next sample: a lag of at most `n - 1` frames, never a jump.
//! A changed LOD takes effect at the next sample. Going down, each segment is at most one frame
//! shorter than the last (4 -> 3 -> 2 -> 1), so the pose catches up with the graph gradually
//! instead of popping. At LOD 1 the pose is applied directly (the same bits as an `Animated`).
//! Clip events still fire on frames that are not sampled ([`CrowdBackend::skip`]).
//!
//! ```
//! use animgraph_runtime::crowd::Crowd;
//! use animgraph_runtime::mres;
//! use animgraph_runtime::script::RecordingBackend;
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/graphs/locomotion.mres");
//! let graph = mres::load_file(path)?.graph;
//! // Any CrowdBackend: a 2D or 3D skeleton in a game; here one that records clip samples.
//! let backend = RecordingBackend::with_clips(&[("idle", 2.0, true), ("walk", 0.7, true),
//!     ("run", 1.2, true), ("jump", 0.8, false)]);
//! let mut crowd = Crowd::new(&graph, backend)?;                 // binds once
//! for _ in 0..1000 {
//!     crowd.spawn();                                            // shares the bound graph
//! }
//! let speed = crowd.player(0).find_parameter("speed").unwrap();
//! for (i, member) in crowd.members_mut().iter_mut().enumerate() {
//!     member.player.set_float(speed, (i % 4) as f32)?;
//! }
//! crowd.set_lod(7, 4);                       // posed every 4th frame, interpolated between
//! crowd.update(1.0 / 60.0);                  // one thread, memory order, no allocation
//! assert_eq!(crowd.player(7).current_state_path(0), Some("Move"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;

use crate::graph::{AnimationGraphPlayer, BindError, BoundGraph};
use crate::{AnimationGraph, ClipSample, LayerInfo, PoseBackend, SampleBuffer};

/// A backend that can be a crowd member: its per-call scratch split out (one per thread), and a
/// kept pose for animation LOD.
pub trait CrowdBackend: PoseBackend + Send + std::fmt::Debug {
    /// What `apply` uses only during the call; one per thread in a crowd.
    type Scratch: Send + std::fmt::Debug;
    /// A kept pose: what the pose moves towards between LOD samples.
    type Keyframe: Send + std::fmt::Debug;

    /// Another character of this backend's skeleton and bound graph (resolved clips and masks
    /// shared or copied), at its setup pose, holding no scratch (a crowd swaps its thread's in
    /// with [`swap_scratch`](Self::swap_scratch) around `apply`; a member applied without one
    /// should make its own rather than fail, as both skeleton backends do).
    fn member(&self) -> Self;
    /// Scratch sized for this backend.
    fn new_scratch(&self) -> Self::Scratch;
    /// Exchanges this backend's scratch with `scratch` (before and after `apply`). Allocates
    /// nothing.
    fn swap_scratch(&mut self, scratch: &mut Self::Scratch);
    /// A keyframe sized for this backend.
    fn new_keyframe(&self) -> Self::Keyframe;
    /// Copies the pose into `into` (no allocation).
    fn save_keyframe(&self, into: &mut Self::Keyframe);
    /// Sets the pose to `from` exactly (no allocation).
    fn load_keyframe(&mut self, from: &Self::Keyframe);
    /// Moves the pose `1 / frames_left` of the way to `target` (continuous values; rotations
    /// the shortest way), so it arrives in `frames_left` equal steps; at 1 it equals `target`
    /// exactly, discrete values (attachments, draw order) included. No allocation.
    fn approach(&mut self, target: &Self::Keyframe, frames_left: u32);
    /// A frame whose pose is not sampled (animation LOD): whatever must still happen, such as
    /// clip events. Nothing by default.
    fn skip(&mut self, samples: &[ClipSample], layers: &[LayerInfo]) {
        let _ = (samples, layers);
    }
    /// Hints the memory this character's next update reads and writes (its pose's arrays, and
    /// `keyframe`'s, the sample its pose moves towards, when its LOD is above 1) with
    /// [`prefetch`](crate::core::prefetch): a crowd calls it [`PREFETCH_AHEAD`] members ahead,
    /// so that memory loads while the members before update. A hint only: it changes nothing.
    /// Nothing by default.
    fn prefetch(&self, keyframe: Option<&Self::Keyframe>) {
        let _ = keyframe;
    }
}

/// How many members ahead a crowd update hints memory ([`CrowdBackend::prefetch`]): far enough
/// that a member's loads overlap the update before it (about a microsecond), near enough that
/// they are still cached when its turn comes. 1 to 4 measured alike on GBots; 2 is the middle.
pub const PREFETCH_AHEAD: usize = 2;

/// The highest level of detail: sampled every 255th frame.
pub const MAX_LOD: u8 = u8::MAX;

/// One character of a crowd.
#[derive(Debug)]
pub struct Member<B: CrowdBackend> {
    /// Its graph player (parameters, states, signals, replication).
    pub player: AnimationGraphPlayer,
    /// Its backend, holding its pose.
    pub backend: B,
    /// The LOD set by the game (1: every frame).
    lod: u8,
    /// Frames left in the current LOD segment (0: the next frame samples).
    left: u8,
    /// The last segment's length (a lower LOD shortens segments one frame at a time).
    segment: u8,
    /// The sample the pose moves towards (made the first time the LOD goes above 1).
    /// Boxed: a member that never goes above LOD 1 keeps only a pointer's room for it.
    keyframe: Option<Box<B::Keyframe>>,
}

impl<B: CrowdBackend> Member<B> {
    /// The LOD set with [`Crowd::set_lod`].
    pub fn lod(&self) -> u8 {
        self.lod
    }

    /// Whether the next update applies the pose directly (LOD 1, no segment left to finish),
    /// rather than through the keyframe.
    fn applies_directly(&self) -> bool {
        self.left == 0 && self.lod == 1 && self.segment <= 1
    }

    /// Hints the memory of this member's next update: its player's per-frame state and its
    /// backend's pose (and its keyframe, when the update goes through it).
    fn prefetch(&self) {
        self.player.prefetch();
        let keyframe = if self.applies_directly() { None } else { self.keyframe.as_deref() };
        self.backend.prefetch(keyframe);
    }

    /// One frame for each of `members` in order, each hinting the memory of the member
    /// [`PREFETCH_AHEAD`] after it first.
    fn update_run(members: &mut [Member<B>], dt: f32, scratch: &mut ThreadScratch<B>) {
        for i in 0..members.len() {
            if let Some(ahead) = members.get(i + PREFETCH_AHEAD) {
                ahead.prefetch();
            }
            members[i].update(dt, scratch);
        }
    }

    /// One frame: advance the graph, then sample the pose or move it towards the last sample.
    fn update(&mut self, dt: f32, scratch: &mut ThreadScratch<B>) {
        let buffer = &mut scratch.buffer;
        self.player.advance(dt, buffer);
        if self.applies_directly() {
            self.backend.swap_scratch(&mut scratch.backend);
            self.backend.apply(buffer.samples(), buffer.layers());
            self.backend.swap_scratch(&mut scratch.backend);
            self.segment = 1;
            return;
        }
        let (Some(target), Some(shown)) = (self.keyframe.as_mut(), scratch.shown.as_mut()) else {
            // No keyframe (cannot happen past set_lod): sample every frame.
            self.backend.swap_scratch(&mut scratch.backend);
            self.backend.apply(buffer.samples(), buffer.layers());
            self.backend.swap_scratch(&mut scratch.backend);
            return;
        };
        if self.left == 0 {
            // A sample: the pose shown is kept, the new sample becomes the target.
            self.backend.save_keyframe(shown);
            self.backend.swap_scratch(&mut scratch.backend);
            self.backend.apply(buffer.samples(), buffer.layers());
            self.backend.swap_scratch(&mut scratch.backend);
            self.backend.save_keyframe(target);
            self.backend.load_keyframe(shown);
            self.segment = self.lod.max(self.segment.saturating_sub(1)).max(1);
            self.left = self.segment;
        } else {
            self.backend.skip(buffer.samples(), buffer.layers());
        }
        self.backend.approach(target, u32::from(self.left));
        self.left -= 1;
    }
}

/// What one thread's updates share: the sample buffer, the backend's scratch, and the pose shown
/// while an LOD sample is taken.
#[derive(Debug)]
struct ThreadScratch<B: CrowdBackend> {
    buffer: SampleBuffer,
    backend: B::Scratch,
    shown: Option<B::Keyframe>,
}

/// Many characters of one bound graph and one skeleton (see the [module docs](self)).
#[derive(Debug)]
pub struct Crowd<B: CrowdBackend> {
    graph: Arc<BoundGraph>,
    /// The backend the graph was bound to; members are made from it.
    template: B,
    members: Vec<Member<B>>,
    /// One per thread of the last update (grown, never shrunk, outside the frame's work).
    scratch: Vec<ThreadScratch<B>>,
    /// Whether any member has been set above LOD 1 (each thread's scratch then keeps the pose
    /// shown while a sample is taken).
    lod_used: bool,
}

impl<B: CrowdBackend> Crowd<B> {
    /// Binds `graph` to `backend` (validating it first); members are made from the bound
    /// backend with [`spawn`](Self::spawn).
    pub fn new(graph: &AnimationGraph, mut backend: B) -> Result<Self, BindError> {
        let bound = BoundGraph::validate_and_bind(graph, &mut backend)?;
        Ok(Self::with_bound(Arc::new(bound), backend))
    }

    /// A crowd of an already bound graph; `backend` must be the one it was bound to (or a
    /// [`member`](CrowdBackend::member) of it).
    pub fn with_bound(graph: Arc<BoundGraph>, backend: B) -> Self {
        let mut crowd =
            Crowd { graph, template: backend, members: Vec::new(), scratch: Vec::new(), lod_used: false };
        crowd.reserve_threads(1);
        crowd
    }

    /// Adds a character in its initial state (entry states, default parameters, setup pose,
    /// LOD 1) and returns its index.
    pub fn spawn(&mut self) -> usize {
        self.members.push(Member {
            player: AnimationGraphPlayer::new(Arc::clone(&self.graph)),
            backend: self.template.member(),
            lod: 1,
            left: 0,
            segment: 1,
            keyframe: None,
        });
        self.members.len() - 1
    }

    /// Reserves room for `additional` more characters.
    pub fn reserve(&mut self, additional: usize) {
        self.members.reserve(additional);
    }

    /// The number of characters.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the crowd has no characters.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The bound graph every member plays.
    pub fn bound_graph(&self) -> &Arc<BoundGraph> {
        &self.graph
    }

    /// The members, in memory (spawn) order.
    pub fn members(&self) -> &[Member<B>] {
        &self.members
    }

    /// The members, to set parameters in one pass.
    pub fn members_mut(&mut self) -> &mut [Member<B>] {
        &mut self.members
    }

    /// A member's player. Panics past [`len`](Self::len).
    pub fn player(&self, member: usize) -> &AnimationGraphPlayer {
        &self.members[member].player
    }

    /// A member's player, to set parameters. Panics past [`len`](Self::len).
    pub fn player_mut(&mut self, member: usize) -> &mut AnimationGraphPlayer {
        &mut self.members[member].player
    }

    /// A member's backend (its pose). Panics past [`len`](Self::len).
    pub fn backend(&self, member: usize) -> &B {
        &self.members[member].backend
    }

    /// Sets a member's level of detail: its pose is sampled every `lod`th frame (1 to
    /// [`MAX_LOD`]; 0 counts as 1) and interpolated between (see the [module docs](self)).
    /// Takes effect at its next sample. The first LOD above 1 allocates the member's keyframe;
    /// later changes allocate nothing. Panics past [`len`](Self::len).
    pub fn set_lod(&mut self, member: usize, lod: u8) {
        let lod = lod.max(1);
        let m = &mut self.members[member];
        if lod > 1 && m.keyframe.is_none() {
            m.keyframe = Some(Box::new(m.backend.new_keyframe()));
        }
        m.lod = lod;
        if lod > 1 && !self.lod_used {
            self.lod_used = true;
            for s in &mut self.scratch {
                s.shown = Some(self.template.new_keyframe());
            }
        }
    }

    /// Makes scratch for `threads` threads; nothing when there is enough (a frame's check is
    /// one comparison).
    fn reserve_threads(&mut self, threads: usize) {
        while self.scratch.len() < threads {
            self.scratch.push(ThreadScratch {
                buffer: SampleBuffer::with_capacity(self.graph.sample_capacity(), self.graph.layers.len()),
                backend: self.template.new_scratch(),
                shown: self.lod_used.then(|| self.template.new_keyframe()),
            });
        }
    }

    /// One frame for every member on this thread, in memory order. Allocates nothing.
    pub fn update(&mut self, dt: f32) {
        Member::update_run(&mut self.members, dt, &mut self.scratch[0]);
    }

    /// One frame for every member, split into one contiguous run of members per thread of the
    /// current rayon pool (call it inside `ThreadPool::install` to choose the count). Members
    /// are independent, so the result is the same bits as [`update`](Self::update). Allocates
    /// only the first time a pool has more threads than before (each thread's scratch).
    #[cfg(feature = "parallel")]
    pub fn update_parallel(&mut self, dt: f32) {
        use rayon::prelude::*;
        let threads = rayon::current_num_threads().max(1);
        if threads == 1 || self.members.len() < 2 {
            return self.update(dt);
        }
        self.reserve_threads(threads);
        let run = self.members.len().div_ceil(threads);
        self.members
            .par_chunks_mut(run)
            .zip(self.scratch.par_iter_mut())
            .for_each(|(members, scratch)| Member::update_run(members, dt, scratch));
    }
}
