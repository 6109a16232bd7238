//! # animgraph-bevy
//!
//! animgraph in [Bevy](https://bevy.org) 0.19. So far:
//! - [`AnimGraphPlugin`] registers `.mres` graphs ([`GraphAsset`]) and `.mskel` 2D skeletons
//!   ([`SkeletonAsset`]) as Bevy assets. Their loaders run the runtime's own loader and
//!   validation, so a broken file fails to load with the same located errors as `animgraph
//!   validate` (resource id, property, line and a fix), prefixed with the asset's path.
//! - [`AnimGraph2D`], a component that plays a graph on a 2D skeleton: once both assets have
//!   loaded the plugin binds them (a bind error is logged once, with the entity), then advances
//!   the character by `Time`'s delta in `Update`, entities in parallel. Parameters are set
//!   through [`AnimGraph2D::player_mut`]; the pose is [`AnimGraph2D::character`]'s backend's.
//! - Signals: every graph event of a frame (`StateEntered`, `StateExited`, `TransitionStarted`,
//!   windows, ...) arrives as an [`AnimGraphSignal`] message naming the entity, in the order the
//!   player raised them.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use animgraph_bevy::{AnimGraphPlugin, GraphAsset};
//!
//! fn load(assets: Res<AssetServer>) {
//!     let _robot: Handle<GraphAsset> = assets.load("characters/robot/robot.mres");
//! }
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, AssetPlugin::default(), AnimGraphPlugin))
//!     .add_systems(Startup, load)
//!     .run();
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::sync::Arc;

use animgraph_2d::{AnimatedSkeleton2D, Skeleton2D, Skeleton2DData};
use animgraph_runtime::{AnimationGraphPlayer, ValidGraph, mres};
use bevy::app::{App, Plugin, Update};
use bevy::asset::io::Reader;
use bevy::asset::{Asset, AssetApp, AssetLoader, LoadContext};
use bevy::asset::{Assets, Handle};
use bevy::ecs::prelude::*;
use bevy::reflect::TypePath;
use bevy::time::Time;

/// Registers the animgraph asset types and their loaders.
#[derive(Default)]
pub struct AnimGraphPlugin;

impl Plugin for AnimGraphPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<GraphAsset>()
            .init_asset::<SkeletonAsset>()
            .register_asset_loader(MresLoader)
            .register_asset_loader(MskelLoader)
            .add_message::<AnimGraphSignal>()
            .add_systems(Update, (bind_2d, advance_2d, signal_2d).chain().in_set(AnimGraphSystems));
    }
}

/// The plugin's systems in `Update` (binding, then advancing): order game systems that set
/// parameters `.before(AnimGraphSystems)` and ones that read states or poses after it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct AnimGraphSystems;

/// A graph event of one character this frame (read with `MessageReader<AnimGraphSignal>` in a
/// system after [`AnimGraphSystems`]).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct AnimGraphSignal {
    /// The character's entity.
    pub entity: Entity,
    /// The event, as the player raised it (its state ids name states through the player's
    /// `state_path`).
    pub event: animgraph_runtime::GraphEvent,
}

/// A 2D character playing a graph: the graph and skeleton assets, and (once both have loaded
/// and bound) the character itself.
#[derive(Component, Debug)]
pub struct AnimGraph2D {
    /// The graph to play.
    pub graph: Handle<GraphAsset>,
    /// The skeleton it poses.
    pub skeleton: Handle<SkeletonAsset>,
    state: Bound2D,
}

#[derive(Debug)]
enum Bound2D {
    /// Waiting for the assets.
    Waiting,
    Playing(Box<AnimatedSkeleton2D>),
    /// The graph does not bind to the skeleton (logged once).
    Failed,
}

impl AnimGraph2D {
    /// A character of `graph` on `skeleton`, bound once both have loaded.
    pub fn new(graph: Handle<GraphAsset>, skeleton: Handle<SkeletonAsset>) -> Self {
        AnimGraph2D { graph, skeleton, state: Bound2D::Waiting }
    }

    /// The character (player, backend and pose), once bound.
    pub fn character(&self) -> Option<&AnimatedSkeleton2D> {
        match &self.state {
            Bound2D::Playing(c) => Some(c),
            _ => None,
        }
    }

    /// The graph player, once bound: set parameters here (ids resolved once with
    /// `find_parameter` are faster than names).
    pub fn player_mut(&mut self) -> Option<&mut AnimationGraphPlayer> {
        match &mut self.state {
            Bound2D::Playing(c) => c.player_mut(),
            _ => None,
        }
    }
}

/// Binds characters whose graph and skeleton have loaded.
fn bind_2d(
    mut characters: Query<(Entity, &mut AnimGraph2D)>,
    graphs: Res<Assets<GraphAsset>>,
    skeletons: Res<Assets<SkeletonAsset>>,
) {
    for (entity, mut c) in &mut characters {
        if !matches!(c.state, Bound2D::Waiting) {
            continue;
        }
        let (Some(graph), Some(skeleton)) = (graphs.get(&c.graph), skeletons.get(&c.skeleton)) else {
            continue;
        };
        c.state = match animgraph_2d::animated_2d(Arc::clone(&skeleton.skeleton), Some(&graph.graph), 0) {
            Ok(character) => Bound2D::Playing(Box::new(character)),
            Err(e) => {
                bevy::log::error!("{entity}: the graph does not bind to the skeleton: {e}");
                Bound2D::Failed
            }
        };
    }
}

/// Advances every bound character by the frame's delta, in parallel (each character's result
/// is the same bits whatever the thread).
fn advance_2d(time: Res<Time>, mut characters: Query<&mut AnimGraph2D>) {
    let dt = time.delta_secs();
    characters.par_iter_mut().for_each(|mut c| {
        if let Bound2D::Playing(character) = &mut c.state {
            character.update(dt);
        }
    });
}

/// A validated animation graph (`.mres`), ready to bind to any character's backend.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct GraphAsset {
    /// The graph, validated once by the loader.
    pub graph: Arc<ValidGraph>,
    /// The loader's warnings (unknown properties and the like), one line each, located.
    pub warnings: Vec<String>,
}

/// A 2D skeleton (`.mskel`): bones, slots, skins and clips, validated and compiled once, shared
/// by every character that uses it.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct SkeletonAsset {
    /// The compiled skeleton.
    pub skeleton: Arc<Skeleton2D>,
}

/// Why an animgraph asset did not load: its path and the runtime's located message.
#[derive(Debug, thiserror::Error)]
pub enum AnimGraphLoadError {
    /// The bytes could not be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The asset's path.
        path: String,
        /// The reader's error.
        source: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("{path}: not UTF-8 text ({source}); save it as UTF-8")]
    Text {
        /// The asset's path.
        path: String,
        /// Where the text stops being UTF-8.
        source: std::str::Utf8Error,
    },
    /// The graph did not load or validate.
    #[error("{path}:\n{source}")]
    Graph {
        /// The asset's path.
        path: String,
        /// The runtime's error: every finding, located.
        source: mres::MresError,
    },
    /// The skeleton did not load or validate.
    #[error("{path}:\n{source}")]
    Skeleton {
        /// The asset's path.
        path: String,
        /// The 2D crate's error, located.
        source: animgraph_2d::SkeletonError,
    },
}

/// Reads an asset's bytes as text (bounded by what the reader holds).
async fn read_text(reader: &mut dyn Reader, path: &str) -> Result<String, AnimGraphLoadError> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .await
        .map_err(|source| AnimGraphLoadError::Read { path: path.into(), source })?;
    String::from_utf8(bytes)
        .map_err(|e| AnimGraphLoadError::Text { path: path.into(), source: e.utf8_error() })
}

/// Loads `.mres` files into [`GraphAsset`]s.
#[derive(Default, TypePath)]
pub struct MresLoader;

impl AssetLoader for MresLoader {
    type Asset = GraphAsset;
    type Settings = ();
    type Error = AnimGraphLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<GraphAsset, AnimGraphLoadError> {
        let path = load_context.path().to_string();
        let text = read_text(reader, &path).await?;
        let loaded = mres::load_str(&text).map_err(|source| AnimGraphLoadError::Graph { path, source })?;
        Ok(GraphAsset {
            warnings: loaded.warnings.iter().map(ToString::to_string).collect(),
            graph: Arc::new(loaded.graph),
        })
    }

    fn extensions(&self) -> &[&str] {
        &["mres"]
    }
}

/// Loads `.mskel` files into [`SkeletonAsset`]s.
#[derive(Default, TypePath)]
pub struct MskelLoader;

impl AssetLoader for MskelLoader {
    type Asset = SkeletonAsset;
    type Settings = ();
    type Error = AnimGraphLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<SkeletonAsset, AnimGraphLoadError> {
        let path = load_context.path().to_string();
        let text = read_text(reader, &path).await?;
        let skeleton = Skeleton2DData::parse(&text)
            .and_then(Skeleton2D::new)
            .map_err(|source| AnimGraphLoadError::Skeleton { path, source })?;
        Ok(SkeletonAsset { skeleton: Arc::new(skeleton) })
    }

    fn extensions(&self) -> &[&str] {
        &["mskel"]
    }
}

/// Sends the frame's graph events as [`AnimGraphSignal`]s (after the parallel advance: a
/// message writer is not shared across threads).
fn signal_2d(characters: Query<(Entity, &AnimGraph2D)>, mut signals: MessageWriter<AnimGraphSignal>) {
    for (entity, c) in &characters {
        if let Some(player) = c.character().and_then(|c| c.player()) {
            signals.write_batch(player.events().iter().map(|&event| AnimGraphSignal { entity, event }));
        }
    }
}
