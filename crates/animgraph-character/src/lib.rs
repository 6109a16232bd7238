//! # animgraph-character
//!
//! One type for any character the tools load: a 2D skeleton (`.mskel`, with its texture) or a 3D
//! one (`.glb` / `.gltf`). The CLI, the editor and the example game load characters here, so the
//! rules for finding textures, clip maps and file kinds live once.
//!
//! ```
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot/gbot.mskel");
//! let loaded = animgraph_character::Character::load(path.as_ref(), None).unwrap();
//! let bones = loaded.character.bones();
//! assert!(bones.iter().any(|b| b.name == "LeftArm"));
//! assert!(loaded.character.clips().iter().any(|c| c.name == "walk"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod instance;

pub use animgraph_draw::Triangles;
pub use instance::{CharacterInstance, TriangleScratch, View};

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use animgraph_2d::{Skeleton2D, Skeleton2DData};
use animgraph_3d::Skeleton3D;

/// A loaded character.
#[derive(Clone)]
pub enum Character {
    /// A 2D skeleton and its texture.
    TwoD(Arc<Skeleton2D>, Arc<animgraph_2d::render::Textures>),
    /// A 3D skeleton (mesh and textures inside).
    ThreeD(Arc<Skeleton3D>),
}

/// A character with what was noticed while loading it.
pub struct Loaded {
    /// The character.
    pub character: Character,
    /// Non-fatal findings (a texture that did not load, glTF parts that were skipped).
    pub warnings: Vec<String>,
}

/// An image a character's triangles are textured with.
#[derive(Clone, Debug, PartialEq)]
pub struct PageImage {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// RGBA8, row-major.
    pub rgba: Vec<u8>,
    /// Whether the colours are already multiplied by alpha.
    pub premultiplied: bool,
    /// Whether texture coordinates outside 0..1 repeat (3D) rather than clamp (2D).
    pub repeat: bool,
}

/// One bone (2D) or joint (3D).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bone {
    /// Its name, as masks name it.
    pub name: String,
    /// Its parent's index in the same list (parents come first).
    pub parent: Option<usize>,
}

/// One clip the character can play.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Its name, as graphs name it.
    pub name: String,
    /// Seconds.
    pub length: f32,
    /// How many sync markers it has (2D: event keys; 3D: from the markers sidecar).
    pub markers: usize,
}

/// Largest clip map read (1 MiB).
pub const MAX_CLIP_MAP_BYTES: u64 = 1 << 20;

/// Parses a clip map: a JSON object `{"graph clip": "skeleton clip", ...}`. Errors give the
/// line, column and key, and say what the file should hold.
pub fn parse_clip_map(text: &str) -> Result<BTreeMap<String, String>, String> {
    let expected = "expected {\"graph clip\": \"skeleton clip\", ...}";
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON ({e}); {expected}"))?;
    let serde_json::Value::Object(entries) = value else {
        return Err(format!("the clip map is not an object; {expected}"));
    };
    let mut map = BTreeMap::new();
    for (alias, clip) in entries {
        let serde_json::Value::String(clip) = clip else {
            let pointer = alias.replace('~', "~0").replace('/', "~1");
            return Err(format!("/{pointer}: the value is not a clip name (a string); {expected}"));
        };
        map.insert(alias, clip);
    }
    Ok(map)
}

impl Character {
    /// Loads a character by its extension (`.mskel`, `.glb`, `.gltf`). `clip_map` is a JSON
    /// file `{"graph clip name": "skeleton clip name"}` so one graph drives skeletons whose
    /// clips are named differently.
    pub fn load(path: &Path, clip_map: Option<&Path>) -> Result<Loaded, String> {
        Character::load_with_libraries(path, clip_map, &[])
    }

    /// [`load`](Self::load), adding the clips of each clip library (a glTF whose joints match
    /// the character's by name, e.g. a Mixamo or KayKit animation pack; see
    /// [`animgraph_3d::library`] for the matching and retargeting rules) before the clip map
    /// applies, so the map may name library clips. Libraries are for glTF characters.
    pub fn load_with_libraries(
        path: &Path,
        clip_map: Option<&Path>,
        libraries: &[std::path::PathBuf],
    ) -> Result<Loaded, String> {
        let map: BTreeMap<String, String> = match clip_map {
            None => BTreeMap::new(),
            Some(file) => animgraph_runtime::files::read_text(file, MAX_CLIP_MAP_BYTES)
                .map_err(|e| e.to_string())
                .and_then(|t| parse_clip_map(&t))
                .map_err(|e| format!("{}: {e}", file.display()))?,
        };
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        // Named after the file that says it: the clip map.
        let unknown = |clip: &str| {
            let map = clip_map.map_or_else(String::new, |m| m.display().to_string());
            format!(
                "{map}: \"{clip}\" is not a clip of {}; name one of its clips (`animgraph skeleton` lists them)",
                path.display()
            )
        };
        let mut warnings = Vec::new();
        let character = match extension.as_str() {
            "mskel" => {
                let data = Skeleton2DData::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
                // Images are read from the skeleton's folder only, regular files of at most
                // 256 MiB (its atlas pages, or its one texture).
                let (textures, texture_warnings) =
                    animgraph_2d::render::load_textures(&data, path.parent().unwrap_or(Path::new(".")));
                warnings.extend(texture_warnings);
                let texture = Arc::new(textures);
                if let Some(library) = libraries.first() {
                    return Err(format!(
                        "{}: clip libraries are glTF files for glTF characters; {} is a 2D skeleton, whose clips live in its .mskel",
                        library.display(),
                        path.display()
                    ));
                }
                let mut skeleton = Skeleton2D::new(data).map_err(|e| format!("{}: {e}", path.display()))?;
                for (alias, clip) in &map {
                    if !skeleton.alias_clip(alias, clip) {
                        return Err(unknown(clip));
                    }
                }
                Character::TwoD(Arc::new(skeleton), texture)
            }
            "glb" | "gltf" => {
                let imported = animgraph_3d::import::import_file(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                warnings.extend(imported.warnings.iter().map(|w| w.to_string()));
                let mut skeleton = imported.skeleton;
                for library in libraries {
                    let source = library.display().to_string();
                    let clips =
                        animgraph_3d::import::import_file(library).map_err(|e| format!("{source}: {e}"))?;
                    warnings.extend(clips.warnings.iter().map(|w| format!("{source}: {w}")));
                    let report =
                        skeleton.add_library(&clips.skeleton, animgraph_3d::Retarget::default(), &source)?;
                    if report.clips.is_empty() {
                        warnings.push(format!("{source}: the file has no animations to add"));
                    }
                    warnings.extend(report.warnings);
                }
                for (alias, clip) in &map {
                    if !skeleton.alias_clip(alias, clip) {
                        return Err(unknown(clip));
                    }
                }
                Character::ThreeD(Arc::new(skeleton))
            }
            other => {
                return Err(format!(
                    "{}: .{other} is not a skeleton; use a .mskel, .glb or .gltf file",
                    path.display()
                ));
            }
        };
        Ok(Loaded { character, warnings })
    }

    /// The bones (2D) or joints (3D), parents first.
    pub fn bones(&self) -> Vec<Bone> {
        match self {
            Character::TwoD(s, _) => s
                .data
                .bones
                .iter()
                .zip(&s.parents)
                .map(|(b, p)| Bone { name: b.name.clone(), parent: p.map(usize::from) })
                .collect(),
            Character::ThreeD(s) => s
                .names
                .iter()
                .zip(&s.parents)
                .map(|(n, p)| Bone { name: n.clone(), parent: p.map(usize::from) })
                .collect(),
        }
    }

    /// The clips, in the file's order.
    pub fn clips(&self) -> Vec<Clip> {
        match self {
            Character::TwoD(s, _) => s
                .clip_names()
                .map(|n| Clip {
                    name: n.to_string(),
                    length: s.clip_duration(n).unwrap_or(0.0),
                    markers: s.clip_event_count(n),
                })
                .collect(),
            Character::ThreeD(s) => s
                .clips
                .iter()
                .map(|c| Clip { name: c.name.clone(), length: c.duration, markers: c.markers.len() })
                .collect(),
        }
    }

    /// The images [`CharacterInstance::triangles`] refers to by page, for uploading to a GPU
    /// once: 2D atlas pages (premultiplied) or the 3D mesh's textures (straight alpha, repeating).
    /// `None` where an image did not load (those runs draw flat).
    pub fn pages(&self) -> Vec<Option<PageImage>> {
        match self {
            Character::TwoD(_, textures) => textures
                .iter()
                .map(|t| {
                    t.as_ref().map(|p| PageImage {
                        width: p.width(),
                        height: p.height(),
                        rgba: p.data().to_vec(),
                        premultiplied: true,
                        repeat: false,
                    })
                })
                .collect(),
            Character::ThreeD(s) => s
                .mesh
                .iter()
                .flat_map(|m| &m.textures)
                .map(|(rgba, width, height)| {
                    Some(PageImage {
                        width: *width,
                        height: *height,
                        rgba: rgba.clone(),
                        premultiplied: false,
                        repeat: true,
                    })
                })
                .collect(),
        }
    }

    /// `"2D"` or `"3D"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Character::TwoD(..) => "2D",
            Character::ThreeD(_) => "3D",
        }
    }
}
