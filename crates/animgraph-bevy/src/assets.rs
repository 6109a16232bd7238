//! The asset types and their loaders: `.mres` graphs, `.mskel` 2D skeletons, and glTF models
//! read by animgraph's own importer (skeleton, clips, morph targets).

use std::sync::Arc;

use animgraph_2d::{Skeleton2D, Skeleton2DData};
use animgraph_3d::Skeleton3D;
use animgraph_runtime::{ValidGraph, mres};
use bevy::asset::io::Reader;
use bevy::asset::{Asset, AssetLoader, LoadContext};
use bevy::reflect::TypePath;

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
    /// Its texture pages (atlas pages, or the one `texture`), as asset paths beside the
    /// `.mskel`, with whether each is premultiplied. A page whose path leaves the `.mskel`'s
    /// folder is `None` (refused; its parts draw flat).
    pub pages: Vec<Option<(bevy::asset::AssetPath<'static>, bool)>>,
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
    /// The glTF model did not import.
    #[error("{path}: {message}")]
    Model {
        /// The asset's path.
        path: String,
        /// The importer's message, the cause first.
        message: String,
    },
    /// The file is larger than animgraph reads.
    #[error("{path}: larger than {limit} bytes, the most animgraph reads for this kind of file")]
    TooLarge {
        /// The asset's path.
        path: String,
        /// The limit in bytes.
        limit: usize,
    },
}

/// Reads at most `limit` bytes; a longer asset is refused before it is held in memory.
async fn read_bounded(
    reader: &mut dyn Reader,
    path: &str,
    limit: usize,
) -> Result<Vec<u8>, AnimGraphLoadError> {
    use bevy::tasks::futures_lite::AsyncReadExt;
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = reader
            .read(&mut chunk)
            .await
            .map_err(|source| AnimGraphLoadError::Read { path: path.into(), source })?;
        if n == 0 {
            return Ok(bytes);
        }
        if bytes.len() + n > limit {
            return Err(AnimGraphLoadError::TooLarge { path: path.into(), limit });
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

/// Reads an asset's bytes as UTF-8 text, at most `limit` bytes (the runtime's limit for the
/// kind of file).
async fn read_text(reader: &mut dyn Reader, path: &str, limit: usize) -> Result<String, AnimGraphLoadError> {
    let bytes = read_bounded(reader, path, limit).await?;
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
        let text = read_text(reader, &path, mres::MAX_FILE_BYTES).await?;
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
        let text = read_text(reader, &path, animgraph_2d::data::MAX_MSKEL_BYTES).await?;
        let skeleton = Skeleton2DData::parse(&text)
            .and_then(Skeleton2D::new)
            .map_err(|source| AnimGraphLoadError::Skeleton { path, source })?;
        let pages = pages(&skeleton.data, load_context.path());
        Ok(SkeletonAsset { skeleton: Arc::new(skeleton), pages })
    }

    fn extensions(&self) -> &[&str] {
        &["mskel"]
    }
}

/// A skeleton's texture pages as asset paths beside `mskel`; a path that would leave its folder
/// (absolute, or through `..`) is refused with a warning.
fn pages(
    data: &Skeleton2DData,
    mskel: &bevy::asset::AssetPath<'_>,
) -> Vec<Option<(bevy::asset::AssetPath<'static>, bool)>> {
    let images: Vec<(&str, bool)> = match &data.atlas {
        Some(atlas) => atlas.pages.iter().map(|p| (p.image.as_str(), p.pma)).collect(),
        None => data.texture.iter().map(|t| (t.as_str(), false)).collect(),
    };
    images
        .into_iter()
        .map(|(image, pma)| {
            let inside = std::path::Path::new(image)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir));
            if !inside {
                bevy::log::warn!(
                    "{mskel}: texture \"{image}\" leaves the skeleton's folder; its parts draw flat"
                );
                return None;
            }
            match mskel.resolve_embed_str(image) {
                Ok(path) => Some((path, pma)),
                Err(e) => {
                    bevy::log::warn!("{mskel}: texture \"{image}\": {e}; its parts draw flat");
                    None
                }
            }
        })
        .collect()
}

/// A glTF model as animgraph's 3D backend reads it: the skeleton (joints, rest pose and the
/// static nodes between them), every clip and the morph targets. Bevy's own glTF loader spawns
/// the scene that is drawn; this asset poses it. Load it from the same path as the scene:
/// `assets.load::<ModelAsset>("Fox.glb")` (the handle's type picks this loader).
#[derive(Asset, TypePath, Debug, Clone)]
pub struct ModelAsset {
    /// The skeleton and its clips.
    pub skeleton: Arc<Skeleton3D>,
    /// What the importer skipped or approximated, one line each.
    pub warnings: Vec<String>,
}

/// Loads `.glb` / `.gltf` files into [`ModelAsset`]s with animgraph's importer (bounded reads,
/// located errors). Buffers must be inside the file (`.glb`) or `data:` URIs; a `.gltf` with
/// files beside it fails with a message saying so. A `NAME.markers.json` beside the model adds
/// its clips' sync markers, as in the CLI.
#[derive(Default, TypePath)]
pub struct ModelLoader;

impl AssetLoader for ModelLoader {
    type Asset = ModelAsset;
    type Settings = ();
    type Error = AnimGraphLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<ModelAsset, AnimGraphLoadError> {
        let path = load_context.path().to_string();
        let bytes = read_bounded(reader, &path, animgraph_3d::import::MAX_FILE_BYTES as usize).await?;
        // Bevy draws the model from its own glTF loader: the images are not decoded here.
        let imported = animgraph_3d::import::import_bytes_untextured(&bytes, None)
            .map_err(|e| AnimGraphLoadError::Model { path: path.clone(), message: e.0 })?;
        let mut skeleton = imported.skeleton;
        // The sync markers sidecar, when there is one (a missing file is not an error).
        let sidecar = load_context.path().path().with_extension("markers.json");
        if let Ok(text) = load_context.read_asset_bytes(sidecar.clone()).await {
            let text = String::from_utf8(text).map_err(|e| AnimGraphLoadError::Text {
                path: sidecar.display().to_string(),
                source: e.utf8_error(),
            })?;
            let markers = animgraph_runtime::markers::parse_sidecar(&text, |clip| {
                skeleton.clip(clip).map(|c| c.duration)
            })
            .map_err(|e| AnimGraphLoadError::Model {
                path: sidecar.display().to_string(),
                message: format!("{e}; fix the file or delete it"),
            })?;
            for (clip, markers) in markers {
                if let Some(c) = skeleton.clips.iter_mut().find(|c| c.name == clip) {
                    c.markers = markers;
                }
            }
        }
        Ok(ModelAsset { skeleton: Arc::new(skeleton), warnings: imported.warnings })
    }

    /// None: `.glb` and `.gltf` belong to Bevy's glTF loader (a labelled load such as
    /// `Fox.glb#Scene0` picks its loader by extension). This loader is picked by the handle's
    /// type: `load::<ModelAsset>("Fox.glb")`.
    fn extensions(&self) -> &[&str] {
        &[]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use animgraph_2d::data::{AtlasData, AtlasPage};
    use bevy::asset::AssetPath;

    fn page(image: &str, pma: bool) -> AtlasPage {
        AtlasPage { image: image.into(), width: 64, height: 64, pma }
    }

    /// Texture pages resolve beside the `.mskel` as asset paths, keep their premultiplied flag,
    /// and a page whose path leaves the skeleton's folder is refused (None), never loaded.
    #[test]
    fn texture_pages_resolve_beside_the_skeleton_and_never_leave_its_folder() {
        let mskel = AssetPath::from("characters/hero/hero.mskel");
        let plain = Skeleton2DData { texture: Some("hero.png".into()), ..Default::default() };
        assert_eq!(pages(&plain, &mskel), [Some((AssetPath::from("characters/hero/hero.png"), false))]);
        let atlas = Skeleton2DData {
            atlas: Some(AtlasData {
                pages: vec![
                    page("pages/a.png", true),
                    page("../other/b.png", false),
                    page("/etc/c.png", false),
                ],
                ..Default::default()
            }),
            ..Default::default()
        };
        let resolved = pages(&atlas, &mskel);
        assert_eq!(resolved[0], Some((AssetPath::from("characters/hero/pages/a.png"), true)));
        assert_eq!(resolved[1], None, "a page through .. is refused");
        assert_eq!(resolved[2], None, "an absolute page is refused");
    }
}
