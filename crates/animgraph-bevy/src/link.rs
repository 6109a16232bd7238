//! The live link (`link` feature): the animgraph editor attaches to characters of a running
//! Bevy game, listed by entity name, and watches their states, transitions and parameters
//! frame by frame. Read-only and never blocking (the runtime's [`LinkServer`]: one atomic load
//! per character and frame while no editor watches).

use std::collections::HashMap;
use std::net::SocketAddr;

use animgraph_runtime::link::{LinkError, LinkServer};
use bevy::app::{App, Plugin, PostUpdate};
use bevy::asset::{AssetEvent, AssetId, AssetServer, Assets};
use bevy::ecs::name::Name;
use bevy::ecs::prelude::*;

use crate::{AnimGraph2D, AnimGraph3D, GraphAsset};

/// Serves the game's characters to the editor over TCP on 127.0.0.1 (the address from
/// `ANIMGRAPH_LINK`, else port 47800, unless [`at`](Self::at) names one). Every bound
/// [`AnimGraph2D`] and [`AnimGraph3D`] is listed under its entity's [`Name`] (else `Entity
/// 12v0`) with its graph's uid (the editor lists the instances of the graph it has open);
/// characters that are despawned or rebound to a new graph are withdrawn or listed again.
/// A game that cannot bind the port logs why and runs on without the link.
pub struct AnimGraphLinkPlugin {
    /// The game's name, shown by the editor.
    pub game: String,
    /// Where to listen (`None`: `ANIMGRAPH_LINK` or the default port).
    pub address: Option<SocketAddr>,
}

impl AnimGraphLinkPlugin {
    /// A link for the game named `game`, on the default address.
    pub fn new(game: &str) -> Self {
        AnimGraphLinkPlugin { game: game.to_string(), address: None }
    }

    /// Listening on `address` (a loopback address; port 0 picks a free one, see
    /// [`AnimGraphLink::address`]).
    pub fn at(mut self, address: SocketAddr) -> Self {
        self.address = Some(address);
        self
    }
}

/// The running link server, and which characters it lists.
#[derive(Resource)]
pub struct AnimGraphLink {
    server: LinkServer,
    /// Listed characters' instance ids by entity.
    listed: HashMap<Entity, u32>,
}

impl AnimGraphLink {
    /// The address editors connect to.
    pub fn address(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// How many characters are listed.
    pub fn listed(&self) -> usize {
        self.listed.len()
    }
}

/// A character the link lists: its instance id, and the graph it was listed with.
#[derive(Component, Debug)]
pub struct AnimGraphLinked {
    /// The instance id editors see.
    pub instance: u32,
    graph: AssetId<GraphAsset>,
}

impl Plugin for AnimGraphLinkPlugin {
    fn build(&self, app: &mut App) {
        let bound: Result<LinkServer, LinkError> = match self.address {
            Some(address) => LinkServer::bind(address, &self.game),
            None => LinkServer::bind_default(&self.game),
        };
        match bound {
            Ok(server) => {
                bevy::log::info!("animgraph live link on {}", server.local_addr());
                app.insert_resource(AnimGraphLink { server, listed: HashMap::new() })
                    .add_systems(PostUpdate, (withdraw, list, publish).chain());
            }
            Err(e) => bevy::log::warn!("animgraph live link not started: {e}"),
        }
    }
}

/// Withdraws despawned characters and ones whose graph changed (hot reload: listed again with
/// the new graph's layers and parameters).
fn withdraw(
    mut commands: Commands,
    mut link: ResMut<AnimGraphLink>,
    mut removed: RemovedComponents<AnimGraphLinked>,
    mut events: MessageReader<AssetEvent<GraphAsset>>,
    linked: Query<(Entity, &AnimGraphLinked, Option<&AnimGraph2D>, Option<&AnimGraph3D>)>,
) {
    for entity in removed.read() {
        // Still (or again) linked: withdrawn here last frame and listed anew since.
        if linked.contains(entity) {
            continue;
        }
        if let Some(id) = link.listed.remove(&entity) {
            link.server.unregister(id);
        }
    }
    let modified: Vec<AssetId<GraphAsset>> = events
        .read()
        .filter_map(|e| match *e {
            AssetEvent::Modified { id } => Some(id),
            _ => None,
        })
        .collect();
    for (entity, l, two, three) in &linked {
        let graph = two.map(|c| c.graph.id()).or(three.map(|c| c.graph.id()));
        let bound = two.is_some_and(|c| c.player().is_some()) || three.is_some_and(|c| c.player().is_some());
        if graph != Some(l.graph) || !bound || modified.contains(&l.graph) {
            if let Some(id) = link.listed.remove(&entity) {
                link.server.unregister(id);
            }
            commands.entity(entity).remove::<AnimGraphLinked>();
        }
    }
}

/// Lists bound characters not listed yet, under their names.
fn list(
    mut commands: Commands,
    mut link: ResMut<AnimGraphLink>,
    two: Query<(Entity, &AnimGraph2D, Option<&Name>), Without<AnimGraphLinked>>,
    three: Query<(Entity, &AnimGraph3D, Option<&Name>), Without<AnimGraphLinked>>,
    graphs: Res<Assets<GraphAsset>>,
    server: Res<AssetServer>,
) {
    let players = two
        .iter()
        .filter_map(|(e, c, n)| c.player().map(|p| (e, &c.graph, p, n)))
        .chain(three.iter().filter_map(|(e, c, n)| c.player().map(|p| (e, &c.graph, p, n))));
    for (entity, graph, player, name) in players {
        if link.listed.contains_key(&entity) {
            continue; // Withdrawn this frame; listed again next frame.
        }
        let Some(asset) = graphs.get(graph) else { continue };
        let name = name.map_or_else(|| format!("Entity {entity}"), |n| n.as_str().to_string());
        let path = server.get_path(graph.id()).map(|p| p.to_string());
        let instance = link.server.register(&name, player, &asset.graph.uid, path.as_deref());
        link.listed.insert(entity, instance);
        commands.entity(entity).insert(AnimGraphLinked { instance, graph: graph.id() });
    }
}

/// Offers each listed character's frame (one atomic load each while no editor watches).
fn publish(
    link: Res<AnimGraphLink>,
    two: Query<(&AnimGraph2D, &AnimGraphLinked)>,
    three: Query<(&AnimGraph3D, &AnimGraphLinked)>,
) {
    // With samples, so the attached editor poses its copy of the character as the game does.
    for (c, l) in &two {
        if let Some(a) = c.character().filter(|a| a.player().is_some()) {
            link.server.publish_posed(l.instance, a.player().expect("filtered"), a.buffer(), &a.backend);
        }
    }
    for (c, l) in &three {
        if let Some(a) = c.character().filter(|a| a.player().is_some()) {
            link.server.publish_posed(l.instance, a.player().expect("filtered"), a.buffer(), &a.backend);
        }
    }
}
