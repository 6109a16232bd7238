//! `AnimatedSkeleton2D`: a skeleton, an optional graph player and code tracks, updated once per frame.

use std::sync::Arc;

use animgraph::graph::{AnimationGraphPlayer, BindError};
use animgraph::tracks::AnimationTracks;
use animgraph::{AnimationGraph, PoseBackend, SampleBuffer};

use crate::{Skeleton2D, Skeleton2DPoseBackend};

/// A posed 2D character: [`update`](Self::update) advances the graph and the tracks and applies
/// the samples to the skeleton. Parameters and signals are reached through [`player`](Self::player).
#[derive(Debug)]
pub struct AnimatedSkeleton2D {
    /// The backend holding the pose.
    pub backend: Skeleton2DPoseBackend,
    player: Option<AnimationGraphPlayer>,
    /// Code tracks, above the graph's layers.
    pub tracks: AnimationTracks,
    buffer: SampleBuffer,
}

impl AnimatedSkeleton2D {
    /// Binds `graph` (if any) to the skeleton, with `track_count` code tracks above it.
    pub fn new(
        skeleton: Arc<Skeleton2D>,
        graph: Option<&AnimationGraph>,
        track_count: usize,
    ) -> Result<Self, BindError> {
        let mut backend = Skeleton2DPoseBackend::new(skeleton);
        let player = graph.map(|g| AnimationGraphPlayer::new(g, &mut backend)).transpose()?;
        let (layers, samples) = player.as_ref().map_or((0, 0), |p| (p.layer_count(), p.sample_capacity()));
        let tracks = AnimationTracks::new(track_count, layers);
        let buffer = SampleBuffer::with_capacity(samples + tracks.sample_capacity(), layers + track_count);
        Ok(AnimatedSkeleton2D { backend, player, tracks, buffer })
    }

    /// Another character of the same skeleton and graph, in its initial state, sharing the bound
    /// graph and skeleton data (no bind, far fewer allocations): the way to spawn crowds.
    pub fn instantiate(&self) -> Self {
        let mut backend = self.backend.clone();
        backend.pose = backend.skeleton().setup.clone();
        AnimatedSkeleton2D {
            backend,
            player: self.player.as_ref().map(AnimationGraphPlayer::instantiate),
            tracks: AnimationTracks::new(self.tracks.len(), self.tracks.first_layer()),
            buffer: self.buffer.clone(),
        }
    }

    /// The graph player (parameters, states, signals).
    pub fn player(&self) -> Option<&AnimationGraphPlayer> {
        self.player.as_ref()
    }

    /// The graph player, to set parameters.
    pub fn player_mut(&mut self) -> Option<&mut AnimationGraphPlayer> {
        self.player.as_mut()
    }

    /// One frame: advance the graph and the tracks by `dt` seconds, then pose the skeleton.
    /// Allocates nothing.
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
}
