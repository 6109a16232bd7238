//! Crowd-store set-ups the skeleton backends' tests share.

use std::sync::Arc;

use animgraph_runtime::crowd::{Crowd, CrowdBackend};
use animgraph_runtime::{AnimationGraph, AnimationGraphPlayer, SampleBuffer};

/// A crowd of `graph` on `backend` with one member spawned, and beside it what posing that
/// member apart takes: a player of the same bound graph, a member backend made outside the crowd
/// (holding no sized scratch of a crowd thread's) and a sample buffer sized for the graph.
pub fn member_apart<B: CrowdBackend>(
    graph: &AnimationGraph,
    backend: B,
) -> (Crowd<B>, AnimationGraphPlayer, B, SampleBuffer) {
    let mut crowd = Crowd::new(graph, backend).expect("the graph binds");
    crowd.spawn();
    let bound = Arc::clone(crowd.bound_graph());
    let member = crowd.backend(0).member();
    let buffer = SampleBuffer::with_capacity(bound.sample_capacity(), bound.layer_count());
    (crowd, AnimationGraphPlayer::new(bound), member, buffer)
}
