//! `Animated<B>`: a backend with an optional graph player and code tracks, updated once per frame.
//!
//! The 2D and 3D characters are this type over their backends (`AnimatedSkeleton2D`,
//! `AnimatedSkeleton3D`), so the per-frame order lives in one place: advance the graph (which
//! clears the buffer), advance the tracks above it, apply the buffer to the backend.

use std::sync::Arc;

use crate::graph::{AnimationGraphPlayer, BindError};
use crate::tracks::AnimationTracks;
use crate::{AnimationGraph, PoseBackend, SampleBuffer};

/// A posed character: [`update`](Self::update) advances the graph and the tracks and applies the
/// samples to the backend. Parameters and signals are reached through [`player`](Self::player).
#[derive(Debug)]
pub struct Animated<B: PoseBackend> {
    /// The backend holding the pose.
    pub backend: B,
    player: Option<AnimationGraphPlayer>,
    /// Code tracks, above the graph's layers.
    pub tracks: AnimationTracks,
    buffer: SampleBuffer,
}

impl<B: PoseBackend> Animated<B> {
    /// Binds `graph` (if any) to the backend, with `track_count` code tracks above it.
    pub fn new(
        mut backend: B,
        graph: Option<&AnimationGraph>,
        track_count: usize,
    ) -> Result<Self, BindError> {
        let player = graph.map(|g| AnimationGraphPlayer::bind(g, &mut backend)).transpose()?;
        let (layers, samples) = player.as_ref().map_or((0, 0), |p| (p.layer_count(), p.sample_capacity()));
        let tracks = AnimationTracks::new(track_count, layers);
        let buffer = SampleBuffer::with_capacity(samples + tracks.sample_capacity(), layers + track_count);
        Ok(Animated { backend, player, tracks, buffer })
    }

    /// The graph player (parameters, states, signals).
    pub fn player(&self) -> Option<&AnimationGraphPlayer> {
        self.player.as_ref()
    }

    /// The graph player, to set parameters.
    pub fn player_mut(&mut self) -> Option<&mut AnimationGraphPlayer> {
        self.player.as_mut()
    }

    /// One frame: advance the graph and the tracks by `dt` seconds, then pose the backend.
    /// Allocates nothing (given a backend whose `apply` does not).
    pub fn update(&mut self, dt: f32) {
        match &mut self.player {
            Some(player) => player.advance(dt, &mut self.buffer),
            None => self.buffer.clear(),
        }
        if !self.tracks.is_empty() {
            self.tracks.advance(dt, &mut self.buffer);
        }
        self.backend.apply(self.buffer.samples(), self.buffer.layers());
    }

    /// The samples of the last update.
    pub fn buffer(&self) -> &SampleBuffer {
        &self.buffer
    }

    /// Binds a new version of the graph (hot reload, an editor's edit): each layer keeps its
    /// state by name where it still exists (see [`AnimationGraphPlayer::rebind`]); code tracks
    /// keep playing, moved above the new graph's layers. On error nothing changes.
    pub fn rebind(&mut self, graph: &AnimationGraph) -> Result<(), BindError> {
        match &mut self.player {
            Some(player) => player.rebind(graph, &mut self.backend)?,
            None => self.player = Some(AnimationGraphPlayer::bind(graph, &mut self.backend)?),
        }
        let player = self.player.as_ref().expect("bound above");
        let layers = player.layer_count();
        if self.tracks.first_layer() != layers {
            self.tracks = AnimationTracks::new(self.tracks.len(), layers);
        }
        self.buffer = SampleBuffer::with_capacity(
            player.sample_capacity() + self.tracks.sample_capacity(),
            layers + self.tracks.len(),
        );
        Ok(())
    }
}

impl<B: PoseBackend + Clone> Animated<B> {
    /// Another character in its initial state, sharing the bound graph (no bind, far fewer
    /// allocations): the way to spawn crowds. The backend is cloned, so its resolved clips and
    /// masks match the graph's; its pose is reset by the next `update`.
    pub fn instantiate(&self) -> Self {
        Animated {
            backend: self.backend.clone(),
            player: self.player.as_ref().map(|p| AnimationGraphPlayer::new(Arc::clone(p.bound_graph()))),
            tracks: AnimationTracks::new(self.tracks.len(), self.tracks.first_layer()),
            buffer: self.buffer.clone(),
        }
    }
}

/// Updates every character by `dt` (advance, tracks, apply), spread over rayon's threads with
/// the `parallel` feature (the default), else one after the other. Characters are independent,
/// so the result is the same bits either way; set their parameters first. To choose the thread
/// count, call it inside a `rayon::ThreadPool::install`.
pub fn update_all<B: PoseBackend + Send>(characters: &mut [Animated<B>], dt: f32) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        // Chunks of a few dozen characters: enough work per task to amortise scheduling.
        characters.par_iter_mut().with_min_len(32).for_each(|c| c.update(dt));
    }
    #[cfg(not(feature = "parallel"))]
    for c in characters {
        c.update(dt);
    }
}
