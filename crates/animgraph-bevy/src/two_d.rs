//! [`AnimGraph2D`]: a graph playing on a 2D skeleton (`.mskel`).

use std::sync::Arc;

use animgraph_2d::Skeleton2DPoseBackend;
use bevy::asset::{Assets, Handle};
use bevy::ecs::prelude::*;
use bevy::time::Time;

use crate::character::{Binding, character_accessors};
use crate::{GraphAsset, SkeletonAsset};

/// A 2D character playing a graph: the graph and skeleton assets, and (once both have loaded
/// and bound) the character itself. Advanced by `Time`'s delta in `Update`
/// ([`AnimGraphSystems`](crate::AnimGraphSystems)); with the `render` feature,
/// [`AnimGraphSprite`](crate::AnimGraphSprite) draws it.
#[derive(Component, Debug)]
pub struct AnimGraph2D {
    /// The graph to play.
    pub graph: Handle<GraphAsset>,
    /// The skeleton it poses.
    pub skeleton: Handle<SkeletonAsset>,
    /// How many code tracks play above the graph (0 by default).
    pub tracks: usize,
    pub(crate) binding: Binding<Skeleton2DPoseBackend>,
}

impl AnimGraph2D {
    /// A character of `graph` on `skeleton`, bound once both have loaded.
    pub fn new(graph: Handle<GraphAsset>, skeleton: Handle<SkeletonAsset>) -> Self {
        AnimGraph2D { graph, skeleton, tracks: 0, binding: Binding::Waiting }
    }

    /// With `count` code tracks above the graph (one-off clips played from game code).
    pub fn with_tracks(mut self, count: usize) -> Self {
        self.tracks = count;
        self
    }

    character_accessors!(Skeleton2DPoseBackend);
}

/// Binds characters whose graph and skeleton have loaded.
pub(crate) fn bind_2d(
    mut characters: Query<(Entity, &mut AnimGraph2D)>,
    graphs: Res<Assets<GraphAsset>>,
    skeletons: Res<Assets<SkeletonAsset>>,
) {
    for (entity, mut c) in &mut characters {
        if !matches!(c.binding, Binding::Waiting) {
            continue;
        }
        let (Some(graph), Some(skeleton)) = (graphs.get(&c.graph), skeletons.get(&c.skeleton)) else {
            continue;
        };
        c.binding =
            match animgraph_2d::animated_2d(Arc::clone(&skeleton.skeleton), Some(&graph.graph), c.tracks) {
                Ok(character) => Binding::Playing(Box::new(character)),
                Err(e) => {
                    bevy::log::error!("{entity}: the graph does not bind to the skeleton: {e}");
                    Binding::Failed
                }
            };
    }
}

/// Advances every bound character by the frame's delta, in parallel (each character's result
/// is the same bits whatever the thread).
pub(crate) fn advance_2d(time: Res<Time>, mut characters: Query<&mut AnimGraph2D>) {
    let dt = time.delta_secs();
    characters.par_iter_mut().for_each(|mut c| c.binding.update(dt));
}
