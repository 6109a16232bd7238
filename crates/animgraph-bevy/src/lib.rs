//! # animgraph-bevy
//!
//! animgraph in [Bevy](https://bevy.org) 0.19. This first part gives the asset side:
//! [`AnimGraphPlugin`] registers `.mres` graphs ([`GraphAsset`]) and `.mskel` 2D skeletons
//! ([`SkeletonAsset`]) as Bevy assets. Their loaders run the runtime's own loader and
//! validation, so a broken file fails to load with the same located errors as `animgraph
//! validate` (resource id, property, line and a fix), prefixed with the asset's path.
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

use animgraph_2d::{Skeleton2D, Skeleton2DData};
use animgraph_runtime::{ValidGraph, mres};
use bevy::app::{App, Plugin};
use bevy::asset::io::Reader;
use bevy::asset::{Asset, AssetApp, AssetLoader, LoadContext};
use bevy::reflect::TypePath;

/// Registers the animgraph asset types and their loaders.
#[derive(Default)]
pub struct AnimGraphPlugin;

impl Plugin for AnimGraphPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<GraphAsset>()
            .init_asset::<SkeletonAsset>()
            .register_asset_loader(MresLoader)
            .register_asset_loader(MskelLoader);
    }
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
