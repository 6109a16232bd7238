//! Loading a character for `render` and `simulate`: `.mskel` (2D) or `.glb` / `.gltf` (3D),
//! with an optional clip-name map so one graph drives skeletons whose clips are named differently.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use animgraph_2d::{Skeleton2D, Skeleton2DData};
use animgraph_3d::Skeleton3D;

/// A loaded character.
pub enum Character {
    /// A 2D skeleton and its texture.
    TwoD(Arc<Skeleton2D>, Option<tiny_skia::Pixmap>),
    /// A 3D skeleton (mesh and textures inside).
    ThreeD(Arc<Skeleton3D>),
}

/// Loads a character; `clip_map` is a JSON object `{"graph clip name": "skeleton clip name"}`.
pub fn load(path: &Path, clip_map: Option<&Path>) -> Result<Character, String> {
    let map: BTreeMap<String, String> = match clip_map {
        None => BTreeMap::new(),
        Some(file) => std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
            .map_err(|e| {
                format!("{}: {e} (expected {{\"graph clip\": \"skeleton clip\", ...}})", file.display())
            })?,
    };
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let unknown = |clip: &str| {
        format!("{}: the clip map names \"{clip}\", which the skeleton does not have", path.display())
    };
    match extension.as_str() {
        "mskel" => {
            let data = Skeleton2DData::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let texture = data.texture.as_ref().and_then(|t| {
                let file = path.parent().unwrap_or(Path::new(".")).join(t);
                tiny_skia::Pixmap::load_png(&file)
                    .map_err(|e| {
                        eprintln!("warning: cannot load texture {}: {e}; drawing flat parts", file.display())
                    })
                    .ok()
            });
            let mut skeleton = Skeleton2D::new(data).map_err(|e| format!("{}: {e}", path.display()))?;
            for (alias, clip) in &map {
                if !skeleton.alias_clip(alias, clip) {
                    return Err(unknown(clip));
                }
            }
            Ok(Character::TwoD(Arc::new(skeleton), texture))
        }
        "glb" | "gltf" => {
            let imported =
                animgraph_3d::import::import_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
            for w in &imported.warnings {
                eprintln!("{}: warning: {w}", path.display());
            }
            let mut skeleton = imported.skeleton;
            for (alias, clip) in &map {
                if !skeleton.alias_clip(alias, clip) {
                    return Err(unknown(clip));
                }
            }
            Ok(Character::ThreeD(Arc::new(skeleton)))
        }
        other => {
            Err(format!("{}: .{other} is not a skeleton; use a .mskel, .glb or .gltf file", path.display()))
        }
    }
}
