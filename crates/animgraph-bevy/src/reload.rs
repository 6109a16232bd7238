//! Hot reload: a graph asset that changed (Bevy's file watcher reloaded it, or game code
//! replaced it in `Assets<GraphAsset>`) is rebound on every character playing it. Each layer
//! keeps its state by path and parameters keep their values by name, as in the runtime's own
//! hot reload (`AnimationGraphPlayer::rebind`). A save that does not load never reaches here:
//! Bevy keeps the old asset and logs the loader's located error, so the running graph plays on.
//! A new version that loads but does not bind to a character is logged and that character
//! keeps its old graph.

use bevy::asset::{AssetEvent, Assets};
use bevy::ecs::prelude::*;

use crate::character::Binding;
use crate::{AnimGraph2D, AnimGraph3D, GraphAsset};

/// Rebinds the characters of every graph asset modified since the last frame.
pub(crate) fn reload_graphs(
    mut events: MessageReader<AssetEvent<GraphAsset>>,
    graphs: Res<Assets<GraphAsset>>,
    mut two: Query<(Entity, &mut AnimGraph2D)>,
    mut three: Query<(Entity, &mut AnimGraph3D)>,
) {
    for event in events.read() {
        let AssetEvent::Modified { id } = *event else { continue };
        let Some(graph) = graphs.get(id) else { continue };
        for (entity, mut c) in &mut two {
            if c.graph.id() == id {
                rebind(entity, &mut c.binding, graph);
            }
        }
        for (entity, mut c) in &mut three {
            if c.graph.id() == id {
                rebind(entity, &mut c.binding, graph);
            }
        }
    }
}

fn rebind<B: animgraph_runtime::PoseBackend>(entity: Entity, binding: &mut Binding<B>, graph: &GraphAsset) {
    match binding {
        Binding::Playing(c) => match c.rebind(&graph.graph) {
            Ok(()) => bevy::log::info!("{entity}: graph reloaded; each layer kept its state"),
            Err(e) => {
                bevy::log::error!("{entity}: the changed graph does not bind, the old one plays on: {e}")
            }
        },
        // Bind again from the start with the new version.
        Binding::Failed => *binding = Binding::Waiting,
        Binding::Waiting => {}
    }
}
