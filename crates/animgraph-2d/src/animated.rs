//! `AnimatedSkeleton2D`: a 2D skeleton, an optional graph player and code tracks, updated once
//! per frame (the runtime's [`Animated`] over [`Skeleton2DPoseBackend`]).

use std::sync::Arc;

use animgraph_runtime::AnimationGraph;
use animgraph_runtime::animated::Animated;
use animgraph_runtime::graph::BindError;

use crate::{Skeleton2D, Skeleton2DPoseBackend};

/// A posed 2D character.
pub type AnimatedSkeleton2D = Animated<Skeleton2DPoseBackend>;

/// Binds `graph` (if any) to a new backend for `skeleton`, with `track_count` code tracks.
pub fn animated_2d(
    skeleton: Arc<Skeleton2D>,
    graph: Option<&AnimationGraph>,
    track_count: usize,
) -> Result<AnimatedSkeleton2D, BindError> {
    Animated::new(Skeleton2DPoseBackend::new(skeleton), graph, track_count)
}
