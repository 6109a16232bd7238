//! `Skeleton2DData`: the `.mskel` file (bones, slots, attachments, IK, events, clips).
//!
//! The container is `.mres`'s (`format` 2, `uid`, `type: "Skeleton2DData"`, `props`); the props
//! are Spine-like (camelCase, degrees, keys as compact arrays) so Spine exports map naturally.
//! A key is `[time, value...]` with an optional last element for the curve *to the next key*:
//! absent = linear, `"stepped"`, or `[cx1, cy1, cx2, cy2]` (a normalised cubic bezier, as CSS's
//! `cubic-bezier`: x is the fraction of the segment's time, y of its value change), or
//! `["spine", cx1, cy1, cx2, cy2]` (the same curve evaluated as Spine's runtimes do, in 10
//! straight segments: what the Spine importer writes, so Spine exports play exactly).
//!
//! A bone's timelines: `rotate`, `translate`, `scale`, `shear` (two channels sharing each key's
//! curve), or per channel `translateX` ... `shearY` (each with its own keys and curves); a
//! channel is keyed by one timeline, never two (a slot's `color` and its single channels `red`,
//! `green`, `blue`, `alpha` likewise). Bones may set `inherit` (Spine's modes:
//! `onlyTranslation`, `noRotationOrReflection`, `noScale`, `noScaleOrReflection`). IK
//! constraints run in list order with `mix`, `bendPositive`, `softness`, `compress`, `stretch`
//! and `uniform` as in Spine; their clip keys are `[t, mix, bendPositive]` or objects that add
//! `softness`, `compress`, `stretch` and per-channel `curve` / `softnessCurve`.
//!
//! What else a skeleton holds (every field is documented on its type below):
//!
//! - **Slots**: `color`, `dark` (the two-colour tint's dark colour), `blend` (`normal`,
//!   `additive`, `multiply`, `screen`). Slot timelines: `attachment`, `color` (RGBA) or its
//!   single channels `red` ... `alpha`, `dark` (RGB) or `darkRed` ... `darkBlue`.
//! - **Attachments** (`type`): `region` (a quad; `region` names an atlas region or gives a
//!   texture rectangle `[x, y, w, h]`), `polygon` (rigid), `mesh` (`vertices` in the slot bone's
//!   space, or `weights`: per vertex a list of `[bone, x, y, weight]`; `uvs`, `triangles`,
//!   `hull`, `edges`), `linkedMesh` (a parent mesh's geometry, its own region, optionally the
//!   parent's deform keys), `path` and `clipping` (vertices as a mesh's; a clipping polygon masks
//!   the slots after it up to `end`). `skin` puts an attachment in a named skin (none: the
//!   default skin); `sequence` gives a region or mesh frames (`frames`, `setup`).
//! - **Skins**: bones and constraints marked `skinRequired` are active only while a chosen skin
//!   lists them in top-level `skins` (`name`, `bones`, `constraints`), as in Spine.
//! - **`atlas`**: pages (`image`, size, `pma`) and regions (bounds, `rotate`, offsets and the
//!   original size of whitespace-stripped images), as Spine's `.atlas` describes them.
//! - **Constraints**: `ik`, `transform` (every mix channel, offsets, `local`, `relative`) and
//!   `path` (position, spacing and rotate modes), run after layering in `order`.
//! - **Clip timelines** beyond bones and slots: `drawOrder`, `events`, `ik`, `transform` and
//!   `path` (one-value keys per mix channel), `deform` (vertex offsets per skin, slot and
//!   attachment, from float `offset`), `sequence` (`mode`, `index`, `delay` per key) and per bone
//!   `inherit` (`[t, mode]`, stepped).

use animgraph_runtime::finding::{Code, Finding};
use animgraph_runtime::mres::container;
use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// How a key interpolates to the next one.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Curve {
    /// Straight line.
    #[default]
    Linear,
    /// Hold until the next key.
    Stepped,
    /// Normalised cubic bezier `[cx1, cy1, cx2, cy2]`, evaluated exactly (CSS `cubic-bezier`).
    Bezier([f32; 4]),
    /// The same curve evaluated as Spine's runtimes do (10 straight segments), so Spine exports
    /// play exactly as in Spine; written `["spine", cx1, cy1, cx2, cy2]`.
    SpineBezier([f32; 4]),
    /// A Spine curve on a segment whose value does not change but swings on the way (Spine's
    /// control values differ from the key's): `[cx1, dy1, cx2, dy2]`, times as a fraction of
    /// the segment, the control values as offsets from the key's value in its own units;
    /// evaluated as [`SpineBezier`](Self::SpineBezier). Written `["spineOffset", cx1, dy1, cx2,
    /// dy2]`.
    SpineOffset([f32; 4]),
}

/// One key: a time, up to four values, and the curve to the next key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// Seconds.
    pub time: f32,
    /// Values (rotate: 1; translate/scale/shear: 2; colour: 4).
    pub values: [f32; 4],
    /// How many of `values` the file gave.
    pub arity: u8,
    /// Curve to the next key.
    pub curve: Curve,
}

impl TryFrom<Vec<Json>> for Key {
    type Error = String;
    fn try_from(items: Vec<Json>) -> Result<Self, String> {
        let mut numbers = Vec::new();
        let mut curve = Curve::Linear;
        for (i, item) in items.iter().enumerate() {
            match item {
                Json::Number(n) => numbers.push(n.as_f64().unwrap_or(f64::NAN) as f32),
                Json::String(s) if s == "stepped" && i == items.len() - 1 => curve = Curve::Stepped,
                Json::Array(c) if i == items.len() - 1 && c.len() == 4 => {
                    let mut b = [0.0; 4];
                    for (j, v) in c.iter().enumerate() {
                        b[j] = v.as_f64().ok_or("a bezier curve is [cx1, cy1, cx2, cy2] numbers")? as f32;
                    }
                    curve = Curve::Bezier(b);
                }
                Json::Array(c) if i == items.len() - 1 && c.len() == 5 && c[0] == "spine" => {
                    let mut b = [0.0; 4];
                    for (j, v) in c[1..].iter().enumerate() {
                        b[j] = v.as_f64().ok_or("a Spine curve is [\"spine\", cx1, cy1, cx2, cy2]")? as f32;
                    }
                    curve = Curve::SpineBezier(b);
                }
                Json::Array(c) if i == items.len() - 1 && c.len() == 5 && c[0] == "spineOffset" => {
                    let mut b = [0.0; 4];
                    for (j, v) in c[1..].iter().enumerate() {
                        b[j] = v
                            .as_f64()
                            .ok_or("a Spine offset curve is [\"spineOffset\", cx1, dy1, cx2, dy2]")?
                            as f32;
                    }
                    curve = Curve::SpineOffset(b);
                }
                _ => return Err(format!("a key is [time, values..., curve?]; element {i} is {item}")),
            }
        }
        if numbers.len() < 2 || numbers.len() > 5 {
            return Err(format!("a key needs a time and 1 to 4 values, got {} numbers", numbers.len()));
        }
        let mut values = [0.0; 4];
        values[..numbers.len() - 1].copy_from_slice(&numbers[1..]);
        Ok(Key { time: numbers[0], values, arity: (numbers.len() - 1) as u8, curve })
    }
}

/// An `f32` as the JSON number that prints shortest and reads back as the same `f32`.
fn number(v: f32) -> Json {
    let shortest: f64 = format!("{v}").parse().unwrap_or(0.0);
    serde_json::Number::from_f64(shortest).map_or(Json::Null, Json::Number)
}

impl From<Key> for Vec<Json> {
    fn from(key: Key) -> Vec<Json> {
        let mut out = vec![number(key.time)];
        out.extend(key.values[..key.arity as usize].iter().map(|v| number(*v)));
        match key.curve {
            Curve::Linear => {}
            Curve::Stepped => out.push(Json::from("stepped")),
            Curve::Bezier(b) => out.push(Json::Array(b.iter().map(|v| number(*v)).collect())),
            Curve::SpineBezier(b) => out.push(Json::Array(
                std::iter::once(Json::from("spine")).chain(b.iter().map(|v| number(*v))).collect(),
            )),
            Curve::SpineOffset(b) => out.push(Json::Array(
                std::iter::once(Json::from("spineOffset")).chain(b.iter().map(|v| number(*v))).collect(),
            )),
        }
        out
    }
}

/// Pretty JSON with arrays of numbers, strings and such short arrays kept on one line, so keys
/// and vertices read as `[0.5, 90]` rather than one number per line.
fn write_pretty(value: &Json, indent: usize, out: &mut String) {
    fn flat(v: &Json) -> bool {
        match v {
            Json::Array(items) => items.iter().all(|i| {
                !i.is_object()
                    && (!i.is_array()
                        || i.as_array().is_some_and(|a| a.iter().all(|x| !x.is_object() && !x.is_array())))
            }),
            Json::Object(_) => false,
            _ => true,
        }
    }
    let pad = "  ".repeat(indent + 1);
    match value {
        Json::Object(map) if !map.is_empty() => {
            out.push_str("{\n");
            for (i, (k, v)) in map.iter().enumerate() {
                out.push_str(&pad);
                out.push_str(&Json::from(k.as_str()).to_string());
                out.push_str(": ");
                write_pretty(v, indent + 1, out);
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(indent));
            out.push('}');
        }
        Json::Array(items) if !items.is_empty() && !flat(value) => {
            out.push_str("[\n");
            for (i, v) in items.iter().enumerate() {
                out.push_str(&pad);
                write_pretty(v, indent + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(indent));
            out.push(']');
        }
        Json::Array(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| {
                    let mut part = String::new();
                    write_pretty(i, indent + 1, &mut part);
                    part
                })
                .collect();
            out.push('[');
            out.push_str(&parts.join(", "));
            out.push(']');
        }
        Json::Number(n) if n.is_f64() => out.push_str(&number(n.as_f64().unwrap_or(0.0) as f32).to_string()),
        other => out.push_str(&other.to_string()),
    }
}

impl Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Vec::<Json>::from(*self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<Json>::deserialize(d)?;
        Key::try_from(items).map_err(serde::de::Error::custom)
    }
}

fn one() -> f32 {
    1.0
}
fn white() -> [f32; 4] {
    [1.0, 1.0, 1.0, 1.0]
}
fn yes() -> bool {
    true
}
fn is_zero(v: &f32) -> bool {
    *v == 0.0
}
fn is_one(v: &f32) -> bool {
    *v == 1.0
}
fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}
fn is_true(v: &bool) -> bool {
    *v
}
fn is_white(c: &[f32; 4]) -> bool {
    *c == [1.0; 4]
}

/// A bone: setup (rest) pose relative to its parent. Parents come before children.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BoneData {
    /// Unique name.
    pub name: String,
    /// Parent bone (earlier in the list); `None` for a root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Setup translation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub x: f32,
    /// Setup translation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub y: f32,
    /// Setup rotation in degrees.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: f32,
    /// Setup scale.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub scale_x: f32,
    /// Setup scale.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub scale_y: f32,
    /// Setup shear in degrees.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shear_x: f32,
    /// Setup shear in degrees.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shear_y: f32,
    /// Drawn length (overlay, one-bone IK).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub length: f32,
    /// What the bone takes from its parent (Spine's inherit modes; `normal` when omitted).
    #[serde(default, skip_serializing_if = "Inherit::is_normal")]
    pub inherit: Inherit,
    /// Posed only while a chosen skin lists it in its `bones` (Spine's skin-required bones);
    /// its slots draw nothing meanwhile.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skin_required: bool,
}

/// What a bone's world transform takes from its parent's (Spine's modes, same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Inherit {
    /// Everything: translation, rotation, scale, shear, reflection.
    #[default]
    Normal,
    /// The parent's translation only.
    OnlyTranslation,
    /// All but the parent's rotation and reflection.
    NoRotationOrReflection,
    /// All but the parent's scale (reflection kept).
    NoScale,
    /// All but the parent's scale and reflection.
    NoScaleOrReflection,
}

impl Inherit {
    fn is_normal(&self) -> bool {
        *self == Inherit::Normal
    }

    /// Spine's name (`onlyTranslation`, ...).
    pub fn parse(name: &str) -> Option<Inherit> {
        Some(match name {
            "normal" => Inherit::Normal,
            "onlyTranslation" => Inherit::OnlyTranslation,
            "noRotationOrReflection" => Inherit::NoRotationOrReflection,
            "noScale" => Inherit::NoScale,
            "noScaleOrReflection" => Inherit::NoScaleOrReflection,
            _ => return None,
        })
    }
}

/// A slot: a place on a bone where one attachment is drawn; list order is the setup draw order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SlotData {
    /// Unique name.
    pub name: String,
    /// The bone it follows.
    pub bone: String,
    /// The attachment shown in the setup pose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attachment: Option<String>,
    /// RGBA tint, 0..1.
    #[serde(default = "white", skip_serializing_if = "is_white")]
    pub color: [f32; 4],
    /// The dark colour of Spine's two-colour tint (RGB, 0..1): a texel's colour `c` draws as
    /// `c * color + (1 - c) * dark`, so dark parts of the art take this colour. `None` is
    /// black (plain tinting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dark: Option<[f32; 3]>,
    /// How it is drawn over what is below.
    #[serde(default, skip_serializing_if = "BlendMode::is_normal")]
    pub blend: BlendMode,
}

/// How a slot's pixels combine with what is drawn below (Spine's blend modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BlendMode {
    /// Over.
    #[default]
    Normal,
    /// Added (light).
    Additive,
    /// Multiplied (shade).
    Multiply,
    /// Screened.
    Screen,
}

impl BlendMode {
    fn is_normal(&self) -> bool {
        *self == BlendMode::Normal
    }
}

/// What an attachment draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum AttachmentKind {
    /// A textured rectangle centred at (x, y) in bone space.
    #[serde(rename_all = "camelCase")]
    Region {
        /// Centre.
        #[serde(default)]
        x: f32,
        /// Centre.
        #[serde(default)]
        y: f32,
        /// Degrees.
        #[serde(default)]
        rotation: f32,
        /// Size.
        width: f32,
        /// Size.
        height: f32,
        /// What it shows: a rectangle `[x, y, width, height]` of the texture in pixels, or the
        /// name of an atlas region; `None` draws a flat colour.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        region: Option<RegionRef>,
    },
    /// A textured polygon: vertices in bone space, texture coordinates in pixels, triangles.
    #[serde(rename_all = "camelCase")]
    Polygon {
        /// Bone-space vertices.
        vertices: Vec<[f32; 2]>,
        /// Texture pixel coordinates, one per vertex.
        uvs: Vec<[f32; 2]>,
        /// Vertex index triples.
        triangles: Vec<[u16; 3]>,
    },
    /// A mesh, Spine's and Godot's deformable attachment. Either `vertices` (unweighted, in the
    /// slot bone's space) or `weights` (each vertex a list of `[bone, x, y, weight]`, positions
    /// in that bone's space, weights summing to 1). Deform timelines offset `vertices` (one x, y
    /// per vertex) or each influence's position (one x, y per `[bone, x, y, weight]` entry), as
    /// Spine's do.
    #[serde(rename_all = "camelCase")]
    Mesh {
        /// Unweighted vertices (empty when weighted).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        vertices: Vec<[f32; 2]>,
        /// Weighted vertices (empty when unweighted).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        weights: Vec<Vec<Influence>>,
        /// Texture coordinates, one per vertex: 0..1 over `region` when it names an atlas
        /// region (Spine's region UVs), else pixels of the texture.
        uvs: Vec<[f32; 2]>,
        /// Vertex index triples.
        triangles: Vec<[u16; 3]>,
        /// The first `hull` vertices are the outline (for tools).
        #[serde(default, skip_serializing_if = "is_zero_u32")]
        hull: u32,
        /// Edges drawn by editing tools (vertex index pairs).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        edges: Vec<[u16; 2]>,
        /// The atlas region (or texture rectangle) the UVs are relative to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        region: Option<RegionRef>,
    },
    /// A path (Spine's): a chain of cubic bezier curves that path constraints move bones
    /// along; it draws nothing. Vertices come in threes per point (the handle before it, the
    /// point, the handle after it), unweighted in the slot bone's space or weighted as a mesh's;
    /// deform timelines offset them as a mesh's.
    #[serde(rename_all = "camelCase")]
    Path {
        /// Unweighted vertices (empty when weighted).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        vertices: Vec<[f32; 2]>,
        /// Weighted vertices (empty when unweighted).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        weights: Vec<Vec<Influence>>,
        /// The last point joins the first.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        closed: bool,
        /// Positions along the path are by arc length (else by each curve's setup `lengths`).
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        constant_speed: bool,
        /// The path's length at the end of each curve, in setup pose (one per point; used
        /// without constant speed).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        lengths: Vec<f32>,
    },
    /// A clipping polygon (Spine's): the slots drawn after its slot, up to and including `end`
    /// (to the end of the draw order without one), show only inside it. It draws nothing
    /// itself. Vertices as a path's (unweighted or weighted; deform timelines offset them);
    /// while one clipping polygon is active a second one is ignored, as in Spine.
    #[serde(rename_all = "camelCase")]
    Clipping {
        /// Unweighted vertices (empty when weighted).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        vertices: Vec<[f32; 2]>,
        /// Weighted vertices (empty when unweighted).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        weights: Vec<Vec<Influence>>,
        /// The last slot clipped (`None`: every slot after it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end: Option<String>,
    },
    /// A mesh sharing another mesh's geometry (vertices, weights, triangles and UVs) with a
    /// region of its own; with `deform` (the default) it also plays the parent's deform keys.
    #[serde(rename_all = "camelCase")]
    LinkedMesh {
        /// The mesh attachment (same slot) whose geometry it uses.
        parent: String,
        /// The parent's skin (`None`: the default skin, as in Spine).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        parent_skin: Option<String>,
        /// Plays the parent's deform keys (Spine's `timelines`).
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        deform: bool,
        /// The atlas region (or texture rectangle) it shows.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        region: Option<RegionRef>,
    },
}

/// One influence of a weighted mesh vertex: `[bone, x, y, weight]`, the position in that bone's
/// space.
pub type Influence = (String, f32, f32, f32);

/// What part of the image an attachment shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RegionRef {
    /// `[x, y, width, height]` of the skeleton's `texture`, in pixels.
    Rect([f32; 4]),
    /// A region of the skeleton's `atlas`, by name.
    Named(String),
}

/// A texture atlas: images (pages) and named regions packed into them, as Spine's `.atlas`.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AtlasData {
    /// The images.
    pub pages: Vec<AtlasPage>,
    /// The regions.
    pub regions: Vec<AtlasRegion>,
}

/// One atlas image.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AtlasPage {
    /// Image file, relative to the `.mskel` file.
    pub image: String,
    /// Size in pixels (the size the regions were packed for).
    pub width: u32,
    /// Size in pixels.
    pub height: u32,
    /// Colours are premultiplied by alpha.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pma: bool,
}

/// A named rectangle of a page. Whitespace stripping: the packed pixels are `width x height`,
/// placed at `offset` (from the bottom-left, Spine's convention) inside the original
/// `original_width x original_height` image. `rotate` 90 means the pixels are stored turned 90
/// degrees (`height x width` on the page; the image's top-left at the page's bottom-left, as
/// Spine's packer stores it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AtlasRegion {
    /// Unique name.
    pub name: String,
    /// Page index.
    #[serde(default)]
    pub page: u16,
    /// Position on the page (pixels, y down).
    pub x: f32,
    /// Position on the page.
    pub y: f32,
    /// Packed size (before rotation on the page).
    pub width: f32,
    /// Packed size.
    pub height: f32,
    /// Degrees the pixels are stored turned by (0 or 90).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotate: f32,
    /// Stripped whitespace left of the packed pixels.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_x: f32,
    /// Stripped whitespace below the packed pixels.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_y: f32,
    /// Size before stripping (0: the packed size).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub original_width: f32,
    /// Size before stripping (0: the packed size).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub original_height: f32,
}

impl AtlasRegion {
    /// The size before stripping.
    pub fn original(&self) -> (f32, f32) {
        let w = if self.original_width > 0.0 { self.original_width } else { self.width };
        let h = if self.original_height > 0.0 { self.original_height } else { self.height };
        (w, h)
    }
}

/// An attachment: what a slot can show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachmentData {
    /// The slot it belongs to.
    pub slot: String,
    /// Its name (unique within the slot and skin).
    pub name: String,
    /// The skin it belongs to (`None`: the default skin, always shown where the chosen skins
    /// have no attachment of that name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skin: Option<String>,
    /// RGBA multiplied with the slot colour.
    #[serde(default = "white", skip_serializing_if = "is_white")]
    pub color: [f32; 4],
    /// Frame-by-frame images (Spine's sequences): a region, mesh or linked mesh shows one of
    /// `frames` in place of its `region`, chosen by the clip's sequence timelines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<SequenceData>,
    /// Region or polygon.
    #[serde(flatten)]
    pub kind: AttachmentKind,
}

/// A named skin's skin-required bones and constraints (Spine's `skin.bones`, `skin.ik`,
/// `skin.transform`, `skin.path`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SkinData {
    /// The skin's name (as attachments' `skin`).
    pub name: String,
    /// Bones it activates (and their ancestors).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bones: Vec<String>,
    /// IK, transform and path constraints it activates, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<String>,
}

/// Most frames a sequence may have.
pub const MAX_SEQUENCE_FRAMES: usize = 4096;

/// An attachment's frames (Spine's `Sequence`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SequenceData {
    /// Each frame's image: an atlas region name or a texture rectangle, as `region`.
    pub frames: Vec<RegionRef>,
    /// The frame shown in setup pose and where no sequence timeline plays (Spine's
    /// `setupIndex`).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub setup: u32,
}

/// How a sequence key steps through the frames (Spine's `SequenceMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SequenceMode {
    /// Shows the key's frame.
    #[default]
    Hold,
    /// Forwards once, then holds the last frame.
    Once,
    /// Forwards, repeating.
    Loop,
    /// Forwards and back, repeating.
    Pingpong,
    /// Backwards once from the last frame, then holds the first.
    OnceReverse,
    /// Backwards, repeating.
    LoopReverse,
    /// Backwards and forwards, repeating.
    PingpongReverse,
}

/// A sequence timeline: which frame an attachment shows over time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SequenceTimeline {
    /// The slot.
    pub slot: String,
    /// The attachment with a sequence (a linked mesh with `deform` plays its parent's).
    pub attachment: String,
    /// The attachment's skin (`None`: the default skin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skin: Option<String>,
    /// Keys in time order (stepped: a key holds until the next).
    pub keys: Vec<SequenceKey>,
}

/// One sequence key: from `time`, frame `index`, advancing one frame per `delay` seconds as
/// `mode` says (`Hold` stays on `index`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SequenceKey {
    /// Seconds.
    pub time: f32,
    /// How the frames advance.
    #[serde(default, skip_serializing_if = "is_hold")]
    pub mode: SequenceMode,
    /// The first frame.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub index: u32,
    /// Seconds per frame.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delay: f32,
}

fn is_hold(m: &SequenceMode) -> bool {
    *m == SequenceMode::Hold
}

/// An IK constraint: one or two bones reach for a target bone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IkData {
    /// Unique name.
    pub name: String,
    /// One bone, or a parent and its child.
    pub bones: Vec<String>,
    /// The bone to reach.
    pub target: String,
    /// Bend direction of a two-bone chain.
    #[serde(default = "yes")]
    pub bend_positive: bool,
    /// 0..1: how much IK wins over the animated pose.
    #[serde(default = "one")]
    pub mix: f32,
    /// Two-bone chains: the distance from full reach over which the chain slows down.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub softness: f32,
    /// One-bone: scale the bone down to reach a target closer than its length.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub compress: bool,
    /// Scale the bone (a chain's parent) up to reach a target out of reach.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stretch: bool,
    /// With compress or stretch: scale y as well as x.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uniform: bool,
    /// Where it runs among all constraints (ascending; IK first on a tie, then list order).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub order: u32,
    /// Runs only while a chosen skin lists it in its `constraints` (Spine's skin-required
    /// constraints).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skin_required: bool,
}

/// A transform constraint (Spine's): bones take some of a target bone's rotation, translation,
/// scale and shear, in world space or in local space, absolutely or relative to their own.
/// Offsets are in this file's y-down space; mixes are 0..1 per channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransformData {
    /// Unique name.
    pub name: String,
    /// Where it runs among all constraints (ascending; IK first on a tie).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub order: u32,
    /// Runs only while a chosen skin lists it in its `constraints` (Spine's skin-required
    /// constraints).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skin_required: bool,
    /// The constrained bones.
    pub bones: Vec<String>,
    /// The bone they follow.
    pub target: String,
    /// Local space (the bones' local values) instead of world space.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub local: bool,
    /// Adds the target's values to the bones' own instead of moving toward them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub relative: bool,
    /// How much of the rotation.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mix_rotate: f32,
    /// How much of the x translation.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mix_x: f32,
    /// How much of the y translation.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mix_y: f32,
    /// How much of the x scale.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mix_scale_x: f32,
    /// How much of the y scale.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mix_scale_y: f32,
    /// How much of the y shear.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mix_shear_y: f32,
    /// Degrees added to the target's rotation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_rotation: f32,
    /// Added to the target's position (in the target's space).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_x: f32,
    /// Added to the target's position.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_y: f32,
    /// Added to the target's scale.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_scale_x: f32,
    /// Added to the target's scale.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_scale_y: f32,
    /// Degrees added to the target's y shear.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_shear_y: f32,
}

/// How a path constraint's `position` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PositionMode {
    /// A distance along the path.
    Fixed,
    /// A fraction (0..1) of the path's length.
    #[default]
    Percent,
}

/// How a path constraint spaces its bones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SpacingMode {
    /// Each bone's length plus `spacing`.
    #[default]
    Length,
    /// `spacing` between bones.
    Fixed,
    /// `spacing` as a fraction of the path's length.
    Percent,
    /// The path shared among the bones in proportion to their lengths.
    Proportional,
}

/// How a path constraint turns its bones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RotateMode {
    /// Along the path's tangent at each bone.
    #[default]
    Tangent,
    /// Each bone points at the next one's position.
    Chain,
    /// As `Chain`, and each bone scales to reach the next.
    ChainScale,
}

/// A path constraint (Spine's): bones move and turn along the path attachment a slot shows.
/// Offsets are in this file's y-down space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PathData {
    /// Unique name.
    pub name: String,
    /// Where it runs among all constraints (ascending; IK, then transform, then path on a tie).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub order: u32,
    /// Runs only while a chosen skin lists it in its `constraints` (Spine's skin-required
    /// constraints).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skin_required: bool,
    /// The constrained bones (a chain, parent first).
    pub bones: Vec<String>,
    /// The slot whose path attachment they follow.
    pub target: String,
    /// How `position` reads.
    #[serde(default)]
    pub position_mode: PositionMode,
    /// How `spacing` reads.
    #[serde(default)]
    pub spacing_mode: SpacingMode,
    /// How the bones turn.
    #[serde(default)]
    pub rotate_mode: RotateMode,
    /// Degrees added to each bone's rotation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset_rotation: f32,
    /// Where along the path the first bone sits.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub position: f32,
    /// The spacing between bones.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub spacing: f32,
    /// How much of the rotation.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mix_rotate: f32,
    /// How much of the x translation.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mix_x: f32,
    /// How much of the y translation.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mix_y: f32,
}

/// A transform constraint's keyed mixes in a clip: one-value keys `[t, mix, curve?]` per
/// channel (Spine's transform constraint timeline; each channel has its own curve).
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransformTimelines {
    /// Rotation mix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mix_rotate: Vec<Key>,
    /// X translation mix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mix_x: Vec<Key>,
    /// Y translation mix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mix_y: Vec<Key>,
    /// X scale mix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mix_scale_x: Vec<Key>,
    /// Y scale mix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mix_scale_y: Vec<Key>,
    /// Y shear mix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mix_shear_y: Vec<Key>,
}

impl TransformTimelines {
    /// `(name, keys)` in the order of a transform constraint's mix values.
    pub fn all(&self) -> [(&'static str, &Vec<Key>); 6] {
        [
            ("mixRotate", &self.mix_rotate),
            ("mixX", &self.mix_x),
            ("mixY", &self.mix_y),
            ("mixScaleX", &self.mix_scale_x),
            ("mixScaleY", &self.mix_scale_y),
            ("mixShearY", &self.mix_shear_y),
        ]
    }
}

/// A path constraint's keyed values in a clip: one-value keys `[t, value, curve?]` per channel
/// (Spine's path position, spacing and mix timelines).
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PathTimelines {
    /// Position along the path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub position: Vec<Key>,
    /// Spacing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spacing: Vec<Key>,
    /// Rotation mix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mix_rotate: Vec<Key>,
    /// X translation mix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mix_x: Vec<Key>,
    /// Y translation mix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mix_y: Vec<Key>,
}

impl PathTimelines {
    /// `(name, keys)` in the order of a path constraint's values.
    pub fn all(&self) -> [(&'static str, &Vec<Key>); 5] {
        [
            ("position", &self.position),
            ("spacing", &self.spacing),
            ("mixRotate", &self.mix_rotate),
            ("mixX", &self.mix_x),
            ("mixY", &self.mix_y),
        ]
    }
}

/// A bone's timelines in a clip.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BoneTimelines {
    /// `[t, degrees]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rotate: Vec<Key>,
    /// `[t, x, y]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub translate: Vec<Key>,
    /// `[t, sx, sy]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scale: Vec<Key>,
    /// `[t, shx, shy]` degrees.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shear: Vec<Key>,
    /// Single channels (`[t, value]`), for channels keyed apart or with curves of their own, as
    /// Spine 4.1+ writes them; a channel is keyed by its two-channel timeline or its own, not
    /// both. `[t, x]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub translate_x: Vec<Key>,
    /// `[t, y]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub translate_y: Vec<Key>,
    /// `[t, sx]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scale_x: Vec<Key>,
    /// `[t, sy]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scale_y: Vec<Key>,
    /// `[t, shx]` degrees.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shear_x: Vec<Key>,
    /// `[t, shy]` degrees.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shear_y: Vec<Key>,
    /// `[t, mode]`: what the bone inherits from its parent from `t` on (Spine 4.2's inherit
    /// timeline; stepped, discrete in layering).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inherit: Vec<(f32, Inherit)>,
}

impl BoneTimelines {
    /// Every timeline with its `.mskel` name, the pose channel it starts at and its width.
    pub fn all(&self) -> [(&'static str, usize, u8, &Vec<Key>); 10] {
        use crate::skeleton::{ROTATION, SCALE_X, SCALE_Y, SHEAR_X, SHEAR_Y, X, Y};
        [
            ("rotate", ROTATION, 1, &self.rotate),
            ("translate", X, 2, &self.translate),
            ("scale", SCALE_X, 2, &self.scale),
            ("shear", SHEAR_X, 2, &self.shear),
            ("translateX", X, 1, &self.translate_x),
            ("translateY", Y, 1, &self.translate_y),
            ("scaleX", SCALE_X, 1, &self.scale_x),
            ("scaleY", SCALE_Y, 1, &self.scale_y),
            ("shearX", SHEAR_X, 1, &self.shear_x),
            ("shearY", SHEAR_Y, 1, &self.shear_y),
        ]
    }
}

/// The non-empty timelines among `(name, first channel, width, keys)` that key a channel an
/// earlier one keys, with that earlier one's name: one timeline per channel.
fn overlapping<'a>(
    timelines: &[(&'a str, usize, u8, &Vec<Key>)],
    channels: usize,
) -> Vec<(&'a str, &'a str)> {
    let mut keyed: Vec<Option<&str>> = vec![None; channels];
    let mut found = Vec::new();
    for &(name, first, width, list) in timelines {
        if list.is_empty() {
            continue;
        }
        for channel in keyed.iter_mut().skip(first).take(width as usize) {
            if let Some(other) = *channel {
                found.push((name, other));
                break;
            }
            *channel = Some(name);
        }
    }
    found
}

/// A slot's timelines in a clip.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SlotTimelines {
    /// `[t, "attachment" | null]` (stepped).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachment: Vec<(f32, Option<String>)>,
    /// `[t, r, g, b, a]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub color: Vec<Key>,
    /// Single colour channels (`[t, value]`), for channels keyed apart or with curves of their
    /// own (Spine's `rgb` and `alpha` timelines, `rgba` with a curve per channel); a channel is
    /// keyed by `color` or its own timeline, not both.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub red: Vec<Key>,
    /// Green alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub green: Vec<Key>,
    /// Blue alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blue: Vec<Key>,
    /// Alpha alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alpha: Vec<Key>,
    /// The two-colour tint's dark colour, `[t, r, g, b]` (Spine's `rgba2` and `rgb2`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dark: Vec<Key>,
    /// Dark red alone (dark channels keyed with curves of their own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dark_red: Vec<Key>,
    /// Dark green alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dark_green: Vec<Key>,
    /// Dark blue alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dark_blue: Vec<Key>,
}

impl SlotTimelines {
    /// Every colour timeline with its `.mskel` name, the first colour channel and its width
    /// (channels 0..4 are the RGBA tint, 4..7 the dark colour's RGB).
    pub fn colors(&self) -> [(&'static str, usize, u8, &Vec<Key>); 9] {
        [
            ("color", 0, 4, &self.color),
            ("red", 0, 1, &self.red),
            ("green", 1, 1, &self.green),
            ("blue", 2, 1, &self.blue),
            ("alpha", 3, 1, &self.alpha),
            ("dark", 4, 3, &self.dark),
            ("darkRed", 4, 1, &self.dark_red),
            ("darkGreen", 5, 1, &self.dark_green),
            ("darkBlue", 6, 1, &self.dark_blue),
        ]
    }
}

/// An IK key. Written `[t, mix, bendPositive]` when it has only those (mix linear to the next
/// key), else as an object `{"time", "mix", "softness", "bendPositive", "compress", "stretch",
/// "curve", "softnessCurve"}`. Mix and softness interpolate by their curves; bend, compress and
/// stretch step (Spine's IK timeline).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkKey {
    /// Seconds.
    pub time: f32,
    /// 0..1: how much IK wins over the animated pose.
    pub mix: f32,
    /// Two-bone chains: the distance from full reach over which the chain slows down.
    pub softness: f32,
    /// Bend direction of a two-bone chain.
    pub bend_positive: bool,
    /// One-bone: scale the bone down to reach a target closer than its length.
    pub compress: bool,
    /// Scale the bone (the parent of a chain) up to reach a target out of reach.
    pub stretch: bool,
    /// Mix's curve to the next key.
    pub curve: Curve,
    /// Softness's curve to the next key.
    pub softness_curve: Curve,
}

impl IkKey {
    /// A key with only a mix and a bend direction (linear).
    pub fn new(time: f32, mix: f32, bend_positive: bool) -> Self {
        IkKey {
            time,
            mix,
            softness: 0.0,
            bend_positive,
            compress: false,
            stretch: false,
            curve: Curve::Linear,
            softness_curve: Curve::Linear,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct IkKeyObject {
    time: f32,
    #[serde(default = "one")]
    mix: f32,
    #[serde(default, skip_serializing_if = "is_zero")]
    softness: f32,
    #[serde(default = "yes")]
    bend_positive: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    compress: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    stretch: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    curve: Option<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    softness_curve: Option<Json>,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum IkKeyForm {
    Short(f32, f32, bool),
    Full(IkKeyObject),
}

fn curve_from_json(c: Option<Json>) -> Result<Curve, String> {
    let Some(c) = c else { return Ok(Curve::Linear) };
    // A curve is what a key's last element may be: reuse the key reader on `[0, 0, curve]`.
    Key::try_from(vec![Json::from(0), Json::from(0), c]).map(|k| k.curve)
}

fn curve_to_json(c: Curve) -> Option<Json> {
    if c == Curve::Linear {
        return None;
    }
    let items: Vec<Json> = Key { time: 0.0, values: [0.0; 4], arity: 1, curve: c }.into();
    items.into_iter().nth(2)
}

impl Serialize for IkKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let plain = self.softness == 0.0
            && !self.compress
            && !self.stretch
            && self.curve == Curve::Linear
            && self.softness_curve == Curve::Linear;
        if plain {
            return IkKeyForm::Short(self.time, self.mix, self.bend_positive).serialize(s);
        }
        IkKeyForm::Full(IkKeyObject {
            time: self.time,
            mix: self.mix,
            softness: self.softness,
            bend_positive: self.bend_positive,
            compress: self.compress,
            stretch: self.stretch,
            curve: curve_to_json(self.curve),
            softness_curve: curve_to_json(self.softness_curve),
        })
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for IkKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match IkKeyForm::deserialize(d)? {
            IkKeyForm::Short(time, mix, bend) => Ok(IkKey::new(time, mix, bend)),
            IkKeyForm::Full(o) => Ok(IkKey {
                time: o.time,
                mix: o.mix,
                softness: o.softness,
                bend_positive: o.bend_positive,
                compress: o.compress,
                stretch: o.stretch,
                curve: curve_from_json(o.curve).map_err(serde::de::Error::custom)?,
                softness_curve: curve_from_json(o.softness_curve).map_err(serde::de::Error::custom)?,
            }),
        }
    }
}

/// A clip: a duration and timelines.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClipData {
    /// Seconds.
    pub duration: f32,
    /// Loops by default.
    #[serde(default = "yes")]
    pub looping: bool,
    /// Per bone.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bones: BTreeMap<String, BoneTimelines>,
    /// Per slot.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub slots: BTreeMap<String, SlotTimelines>,
    /// `[t, [slot names in draw order]]` (stepped).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draw_order: Vec<(f32, Vec<String>)>,
    /// `[t, "event"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<(f32, String)>,
    /// Per IK constraint.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ik: BTreeMap<String, Vec<IkKey>>,
    /// Per transform constraint: keyed mixes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub transform: BTreeMap<String, TransformTimelines>,
    /// Per path constraint: keyed position, spacing and mixes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub path: BTreeMap<String, PathTimelines>,
    /// Mesh (and path) deform timelines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deform: Vec<DeformTimeline>,
    /// Sequence timelines (which frame a sequence attachment shows).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sequence: Vec<SequenceTimeline>,
}

/// A mesh's deform timeline: vertex offsets from its setup positions over time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeformTimeline {
    /// The slot.
    pub slot: String,
    /// The mesh attachment (a linked mesh with `deform` plays its parent's).
    pub attachment: String,
    /// The attachment's skin (`None`: the default skin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skin: Option<String>,
    /// Keys in time order.
    pub keys: Vec<DeformKey>,
}

/// One deform key: offsets `vertices` starting at float `offset` (x, y pairs; the rest are 0),
/// and the curve to the next key.
#[derive(Clone, Debug, PartialEq)]
pub struct DeformKey {
    /// Seconds.
    pub time: f32,
    /// Index of the first float given.
    pub offset: u32,
    /// Offsets (x, y, x, y, ...) from the setup positions.
    pub vertices: Vec<f32>,
    /// Curve to the next key.
    pub curve: Curve,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DeformKeyObject {
    time: f32,
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    offset: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    vertices: Vec<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    curve: Option<Json>,
}

impl Serialize for DeformKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        DeformKeyObject {
            time: self.time,
            offset: self.offset,
            vertices: self.vertices.clone(),
            curve: curve_to_json(self.curve),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for DeformKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let o = DeformKeyObject::deserialize(d)?;
        Ok(DeformKey {
            time: o.time,
            offset: o.offset,
            vertices: o.vertices,
            curve: curve_from_json(o.curve).map_err(serde::de::Error::custom)?,
        })
    }
}

/// A 2D skeleton with its clips: the contents of a `.mskel` file.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Skeleton2DData {
    /// Texture image, relative to the `.mskel` file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texture: Option<String>,
    /// Bones, parents first.
    pub bones: Vec<BoneData>,
    /// Slots, in setup draw order.
    #[serde(default)]
    pub slots: Vec<SlotData>,
    /// Texture atlas (pages and named regions), instead of or beside `texture`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub atlas: Option<AtlasData>,
    /// Attachments, of every skin.
    #[serde(default)]
    pub attachments: Vec<AttachmentData>,
    /// IK constraints, applied in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ik: Vec<IkData>,
    /// Transform constraints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transform: Vec<TransformData>,
    /// Path constraints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<PathData>,
    /// What each named skin activates: the skin-required bones and constraints it lists (its
    /// attachments name their `skin` themselves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skins: Vec<SkinData>,
    /// Event names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// Clips by name.
    #[serde(default)]
    pub clips: BTreeMap<String, ClipData>,
}

/// A located problem in a `.mskel` file: the runtime's one [`Finding`] type, code
/// [`Code::Skeleton`], its `path` such as `bones[3].parent` or `clips.walk.bones.Hip.rotate[2]`.
pub type SkeletonIssue = Finding;

fn skeleton_issue(path: impl Into<String>, message: impl Into<String>) -> SkeletonIssue {
    Finding::error(Code::Skeleton, path, message)
}

fn issue(issues: &mut Vec<SkeletonIssue>, path: String, message: String) {
    issues.push(skeleton_issue(path, message));
}

/// Why a `.mskel` could not be loaded or saved.
#[derive(Debug, thiserror::Error)]
pub enum SkeletonError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// Not valid JSON, or the wrong shape.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based.
        line: usize,
        /// 1-based.
        column: usize,
        /// What serde said.
        message: String,
    },
    /// Parsed, but breaks the rules: every problem found.
    #[error("{}", .0.iter().map(|i| format!("{}: {}", i.path, i.message)).collect::<Vec<_>>().join("\n"))]
    Invalid(Vec<SkeletonIssue>),
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Container {
    format: u32,
    #[serde(default)]
    uid: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default, skip_serializing_if = "Json::is_null")]
    resources: Json,
    props: Skeleton2DData,
}

/// Largest `.mskel` read (64 MiB).
pub const MAX_MSKEL_BYTES: usize = 64 << 20;

impl Skeleton2DData {
    /// Parses and validates `.mskel` text.
    pub fn parse(text: &str) -> Result<Self, SkeletonError> {
        if text.len() > MAX_MSKEL_BYTES {
            return Err(SkeletonError::Invalid(vec![skeleton_issue(
                String::new(),
                format!("the file is {} bytes; the limit is {MAX_MSKEL_BYTES}", text.len()),
            )]));
        }
        if let Err(e) = animgraph_runtime::json::check_f32_range(text) {
            let message = format!("the number {} is out of range; numbers must be within ±3.4e38", e.number);
            return Err(SkeletonError::Syntax { line: e.line, column: e.column, message });
        }
        // Through serde_path_to_error, so a wrong type names its field (`bones[3].x`), not
        // only a column.
        let syntax = |e: serde_json::Error, field: &str| {
            let message = e.to_string();
            let message = match message.find(" at line ") {
                Some(i) => message[..i].to_string(),
                None => message,
            };
            let message = if field.is_empty() { message } else { format!("{field}: {message}") };
            SkeletonError::Syntax { line: e.line(), column: e.column(), message }
        };
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let container: Container = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
            let field = e.path().to_string();
            let field =
                field.strip_prefix("props.").unwrap_or(if field == "." { "" } else { &field }).to_string();
            syntax(e.into_inner(), &field)
        })?;
        deserializer.end().map_err(|e| syntax(e, ""))?;
        let mut issues = Vec::new();
        // The header rules every animgraph file shares.
        if let Err(message) = container::check_format(Some(&Json::from(container.format))) {
            issues.push(skeleton_issue("format", message));
        }
        if let Err(message) =
            container::check_type(Some(&Json::from(container.kind.as_str())), "Skeleton2DData")
        {
            issues.push(skeleton_issue("type", message));
        }
        issues.extend(container.props.validate());
        if issues.is_empty() { Ok(container.props) } else { Err(SkeletonError::Invalid(issues)) }
    }

    /// Loads and validates a `.mskel` file.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, SkeletonError> {
        let path = path.as_ref();
        let text = animgraph_runtime::files::read_text(path, MAX_MSKEL_BYTES as u64)
            .map_err(|source| SkeletonError::Io { path: path.display().to_string(), source })?;
        Self::parse(&text)
    }

    /// The `.mskel` text (stable: same data, same text).
    pub fn to_string_pretty(&self, uid: &str) -> String {
        let container = Container {
            format: container::FORMAT_VERSION as u32,
            uid: uid.to_string(),
            kind: "Skeleton2DData".into(),
            resources: Json::Null,
            props: self.clone(),
        };
        let value = serde_json::to_value(&container).expect("skeleton data serialises");
        let mut out = String::new();
        write_pretty(&value, 0, &mut out);
        out.push('\n');
        out
    }

    /// Saves atomically (temporary file beside it, then rename).
    pub fn save(&self, path: impl AsRef<Path>, uid: &str) -> Result<(), SkeletonError> {
        let path = path.as_ref();
        animgraph_runtime::mres::write_atomic(path, self.to_string_pretty(uid).as_bytes()).map_err(|e| {
            SkeletonError::Io {
                path: path.display().to_string(),
                source: std::io::Error::other(e.to_string()),
            }
        })
    }

    /// The index of a bone.
    pub fn bone_index(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// Every rule the data breaks, located.
    pub fn validate(&self) -> Vec<SkeletonIssue> {
        let mut issues = Vec::new();
        let issues_ref = &mut issues;
        let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
        // Counts the runtime indexes with u16 (bones, slots, attachments, events, IK).
        for (what, count) in [
            ("bones", self.bones.len()),
            ("slots", self.slots.len()),
            ("attachments", self.attachments.len()),
            ("events", self.events.len()),
            ("ik", self.ik.len()),
            ("transform", self.transform.len()),
            ("path", self.path.len()),
        ] {
            if count > u16::MAX as usize {
                issue(
                    issues_ref,
                    what.into(),
                    format!("has {count} entries, more than the {} allowed; split the skeleton", u16::MAX),
                );
            }
        }
        // First index of each bone name, so parent lookups are not a scan per bone.
        let first: std::collections::HashMap<&str, usize> =
            self.bones.iter().enumerate().rev().map(|(i, b)| (b.name.as_str(), i)).collect();
        let mut seen = std::collections::HashMap::new();
        for (i, b) in self.bones.iter().enumerate() {
            if b.name.is_empty() {
                issue(issues_ref, format!("bones[{i}].name"), "is empty; name the bone".into());
            }
            if let Some(previous) = seen.insert(b.name.as_str(), i) {
                issue(
                    issues_ref,
                    format!("bones[{i}].name"),
                    format!("\"{}\" repeats bones[{previous}]; bone names must be unique", b.name),
                );
            }
            if let Some(parent) = &b.parent {
                match first.get(parent.as_str()).copied() {
                    None => issue(
                        issues_ref,
                        format!("bones[{i}].parent"),
                        format!("no bone \"{parent}\"; name an existing bone"),
                    ),
                    Some(p) if p == i => issue(
                        issues_ref,
                        format!("bones[{i}].parent"),
                        format!("\"{parent}\" is the bone itself (a cycle)"),
                    ),
                    Some(p) if p > i => issue(
                        issues_ref,
                        format!("bones[{i}].parent"),
                        format!(
                            "\"{parent}\" comes after \"{}\"; list parents before their children (or a cycle)",
                            b.name
                        ),
                    ),
                    _ => {}
                }
            }
            if !finite(&[b.x, b.y, b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length]) {
                issue(issues_ref, format!("bones[{i}]"), "has a NaN or infinite number".into());
            }
        }
        let slot_names: std::collections::HashSet<&str> =
            self.slots.iter().map(|s| s.name.as_str()).collect();
        let attachment_names: std::collections::HashSet<(&str, &str)> =
            self.attachments.iter().map(|a| (a.slot.as_str(), a.name.as_str())).collect();
        let bone = |name: &str| first.contains_key(name);
        let slot = |name: &str| slot_names.contains(name);
        let attachment = |slot: &str, name: &str| attachment_names.contains(&(slot, name));
        let mut attachment_seen = std::collections::HashMap::new();
        let region_names: std::collections::HashSet<&str> =
            self.atlas.iter().flat_map(|a| &a.regions).map(|r| r.name.as_str()).collect();
        let has_atlas = self.atlas.is_some();
        let check_region = |issues_ref: &mut Vec<SkeletonIssue>, path: String, region: Option<&RegionRef>| {
            match region {
                Some(RegionRef::Named(name)) if !region_names.contains(name.as_str()) => {
                    let message = if has_atlas {
                        format!("no atlas region \"{name}\"; name a region of the atlas")
                    } else {
                        format!(
                            "names region \"{name}\" but the skeleton has no atlas; add one or give [x, y, w, h]"
                        )
                    };
                    issue(issues_ref, path, message);
                }
                Some(RegionRef::Rect(r)) if !finite(r) => {
                    issue(issues_ref, path, "has a NaN or infinite number".into());
                }
                _ => {}
            }
        };
        let check_weights =
            |issues_ref: &mut Vec<SkeletonIssue>, at: &dyn Fn(&str) -> String, weights: &[Vec<Influence>]| {
                for (v, influences) in weights.iter().enumerate() {
                    if influences.is_empty() {
                        issue(
                            issues_ref,
                            at(&format!(".weights[{v}]")),
                            "is empty; give at least one [bone, x, y, weight]".into(),
                        );
                    }
                    for (k, (b, x, y, w)) in influences.iter().enumerate() {
                        if !bone(b) {
                            issue(issues_ref, at(&format!(".weights[{v}][{k}]")), format!("no bone \"{b}\""));
                        }
                        if !finite(&[*x, *y, *w]) {
                            issue(
                                issues_ref,
                                at(&format!(".weights[{v}][{k}]")),
                                "has a NaN or infinite number".into(),
                            );
                        }
                    }
                }
            };
        let mut slots_seen = std::collections::HashSet::new();
        for (i, s) in self.slots.iter().enumerate() {
            if !bone(&s.bone) {
                issue(issues_ref, format!("slots[{i}].bone"), format!("no bone \"{}\"", s.bone));
            }
            if let Some(a) = &s.attachment {
                if !attachment(&s.name, a) {
                    issue(
                        issues_ref,
                        format!("slots[{i}].attachment"),
                        format!("slot \"{}\" has no attachment \"{a}\"", s.name),
                    );
                }
            }
            if !slots_seen.insert(s.name.as_str()) {
                issue(
                    issues_ref,
                    format!("slots[{i}].name"),
                    format!("\"{}\" repeats; slot names must be unique", s.name),
                );
            }
            if !finite(&s.color) {
                issue(issues_ref, format!("slots[{i}].color"), "has a NaN or infinite number".into());
            }
            if s.dark.is_some_and(|d| !finite(&d)) {
                issue(issues_ref, format!("slots[{i}].dark"), "has a NaN or infinite number".into());
            }
        }
        for (i, skin) in self.skins.iter().enumerate() {
            for (k, b) in skin.bones.iter().enumerate() {
                if !bone(b) {
                    issue(issues_ref, format!("skins[{i}].bones[{k}]"), format!("no bone \"{b}\""));
                }
            }
            for (k, c) in skin.constraints.iter().enumerate() {
                let known = self.ik.iter().any(|x| &x.name == c)
                    || self.transform.iter().any(|x| &x.name == c)
                    || self.path.iter().any(|x| &x.name == c);
                if !known {
                    issue(
                        issues_ref,
                        format!("skins[{i}].constraints[{k}]"),
                        format!("no IK, transform or path constraint \"{c}\""),
                    );
                }
            }
        }
        for (i, a) in self.attachments.iter().enumerate() {
            if !slot(&a.slot) {
                issue(issues_ref, format!("attachments[{i}].slot"), format!("no slot \"{}\"", a.slot));
            }
            if let Some(sequence) = &a.sequence {
                let at = format!("attachments[{i}].sequence");
                if !matches!(
                    a.kind,
                    AttachmentKind::Region { .. }
                        | AttachmentKind::Mesh { .. }
                        | AttachmentKind::LinkedMesh { .. }
                ) {
                    issue(issues_ref, at.clone(), "only regions and meshes have frames; remove it".into());
                }
                if sequence.frames.is_empty() || sequence.frames.len() > MAX_SEQUENCE_FRAMES {
                    issue(
                        issues_ref,
                        format!("{at}.frames"),
                        format!("has {} frames; give 1 to {MAX_SEQUENCE_FRAMES}", sequence.frames.len()),
                    );
                } else if sequence.setup as usize >= sequence.frames.len() {
                    issue(
                        issues_ref,
                        format!("{at}.setup"),
                        format!(
                            "is frame {}, but there are {} (they count from 0)",
                            sequence.setup,
                            sequence.frames.len()
                        ),
                    );
                }
                for (f, frame) in sequence.frames.iter().enumerate().take(MAX_SEQUENCE_FRAMES) {
                    check_region(issues_ref, format!("{at}.frames[{f}]"), Some(frame));
                }
            }
            match &a.kind {
                AttachmentKind::Region { x, y, rotation, width, height, .. } => {
                    if !finite(&[*x, *y, *rotation, *width, *height]) {
                        issue(issues_ref, format!("attachments[{i}]"), "has a NaN or infinite number".into());
                    }
                }
                AttachmentKind::Polygon { vertices, uvs, triangles } => {
                    if vertices.len() != uvs.len() {
                        issue(
                            issues_ref,
                            format!("attachments[{i}].uvs"),
                            format!(
                                "has {} entries for {} vertices; give one per vertex",
                                uvs.len(),
                                vertices.len()
                            ),
                        );
                    }
                    if let Some(t) =
                        triangles.iter().position(|t| t.iter().any(|&v| v as usize >= vertices.len()))
                    {
                        issue(
                            issues_ref,
                            format!("attachments[{i}].triangles[{t}]"),
                            "names a vertex that does not exist".into(),
                        );
                    }
                    if !vertices.iter().chain(uvs).all(|v| finite(v)) {
                        issue(issues_ref, format!("attachments[{i}]"), "has a NaN or infinite number".into());
                    }
                }
                AttachmentKind::Mesh { vertices, weights, uvs, triangles, hull, edges, region } => {
                    let at = |rest: &str| format!("attachments[{i}]{rest}");
                    let count = if weights.is_empty() { vertices.len() } else { weights.len() };
                    if !vertices.is_empty() && !weights.is_empty() {
                        issue(
                            issues_ref,
                            at(".weights"),
                            "a mesh has vertices or weights, not both; keep one".into(),
                        );
                    }
                    if count > u16::MAX as usize {
                        issue(issues_ref, at(""), format!("has {count} vertices, more than {}", u16::MAX));
                    }
                    if uvs.len() != count {
                        issue(
                            issues_ref,
                            at(".uvs"),
                            format!("has {} entries for {count} vertices; give one per vertex", uvs.len()),
                        );
                    }
                    if let Some(t) = triangles.iter().position(|t| t.iter().any(|&v| v as usize >= count)) {
                        issue(
                            issues_ref,
                            at(&format!(".triangles[{t}]")),
                            "names a vertex that does not exist".into(),
                        );
                    }
                    if let Some(e) = edges.iter().position(|e| e.iter().any(|&v| v as usize >= count)) {
                        issue(
                            issues_ref,
                            at(&format!(".edges[{e}]")),
                            "names a vertex that does not exist".into(),
                        );
                    }
                    if *hull as usize > count {
                        issue(issues_ref, at(".hull"), format!("is {hull}, more than the {count} vertices"));
                    }
                    check_weights(issues_ref, &at, weights);
                    if !vertices.iter().chain(uvs).all(|v| finite(v)) {
                        issue(issues_ref, at(""), "has a NaN or infinite number".into());
                    }
                    check_region(issues_ref, at(".region"), region.as_ref());
                }
                AttachmentKind::LinkedMesh { parent, parent_skin, region, .. } => {
                    let found = self
                        .attachments
                        .iter()
                        .find(|p| p.slot == a.slot && &p.name == parent && p.skin == *parent_skin);
                    match found.map(|p| &p.kind) {
                        Some(AttachmentKind::Mesh { .. }) => {}
                        Some(_) => issue(
                            issues_ref,
                            format!("attachments[{i}].parent"),
                            format!("\"{parent}\" is not a mesh; a linked mesh's parent is a mesh"),
                        ),
                        None => issue(
                            issues_ref,
                            format!("attachments[{i}].parent"),
                            format!("slot \"{}\" has no mesh \"{parent}\" in that skin", a.slot),
                        ),
                    }
                    check_region(issues_ref, format!("attachments[{i}].region"), region.as_ref());
                }
                AttachmentKind::Clipping { vertices, weights, end } => {
                    let at = |rest: &str| format!("attachments[{i}]{rest}");
                    let count = if weights.is_empty() { vertices.len() } else { weights.len() };
                    if !vertices.is_empty() && !weights.is_empty() {
                        issue(
                            issues_ref,
                            at(".weights"),
                            "a clipping polygon has vertices or weights, not both; keep one".into(),
                        );
                    }
                    if !(3..=u16::MAX as usize).contains(&count) {
                        issue(
                            issues_ref,
                            at(""),
                            format!("has {count} vertices; a clipping polygon has at least 3"),
                        );
                    }
                    if let Some(end) = end {
                        if !self.slots.iter().any(|s| &s.name == end) {
                            issue(
                                issues_ref,
                                at(".end"),
                                format!(
                                    "names slot \"{end}\", which does not exist; name a slot or leave it out"
                                ),
                            );
                        }
                    }
                    check_weights(issues_ref, &at, weights);
                    if !vertices.iter().all(|v| finite(v)) {
                        issue(issues_ref, at(""), "has a NaN or infinite number".into());
                    }
                }
                AttachmentKind::Path { vertices, weights, lengths, .. } => {
                    let at = |rest: &str| format!("attachments[{i}]{rest}");
                    let count = if weights.is_empty() { vertices.len() } else { weights.len() };
                    if !vertices.is_empty() && !weights.is_empty() {
                        issue(
                            issues_ref,
                            at(".weights"),
                            "a path has vertices or weights, not both; keep one".into(),
                        );
                    }
                    if count % 3 != 0 || count < 6 || count > u16::MAX as usize {
                        issue(
                            issues_ref,
                            at(""),
                            format!(
                                "has {count} vertices; a path has 3 per point (handle, point, handle) and at \
                                 least 2 points"
                            ),
                        );
                    } else if lengths.len() != count / 3 {
                        issue(
                            issues_ref,
                            at(".lengths"),
                            format!("has {} entries; give one per point ({})", lengths.len(), count / 3),
                        );
                    }
                    check_weights(issues_ref, &at, weights);
                    if !vertices.iter().all(|v| finite(v)) || !finite(lengths) {
                        issue(issues_ref, at(""), "has a NaN or infinite number".into());
                    }
                }
            }
            if let AttachmentKind::Region { region, .. } = &a.kind {
                check_region(issues_ref, format!("attachments[{i}].region"), region.as_ref());
            }
            if a.skin.as_ref().is_some_and(|s| s.is_empty() || s == "default") {
                issue(
                    issues_ref,
                    format!("attachments[{i}].skin"),
                    "names the default skin; leave skin out for the default skin".into(),
                );
            }
            if let Some(previous) =
                attachment_seen.insert((a.skin.as_deref(), a.slot.as_str(), a.name.as_str()), i)
            {
                issue(
                    issues_ref,
                    format!("attachments[{i}].name"),
                    format!(
                        "\"{}\" repeats attachments[{previous}] in slot \"{}\"; names are unique per slot and skin",
                        a.name, a.slot
                    ),
                );
            }
        }
        if let Some(atlas) = &self.atlas {
            let mut names = std::collections::HashSet::new();
            if atlas.pages.len() > u16::MAX as usize || atlas.regions.len() > u16::MAX as usize {
                issue(issues_ref, "atlas".into(), format!("has more than {} pages or regions", u16::MAX));
            }
            for (p, page) in atlas.pages.iter().enumerate() {
                if page.width == 0 || page.height == 0 || page.width > 65_536 || page.height > 65_536 {
                    issue(
                        issues_ref,
                        format!("atlas.pages[{p}]"),
                        format!("is {}x{}; a page is 1 to 65536 pixels each way", page.width, page.height),
                    );
                }
            }
            for (r, region) in atlas.regions.iter().enumerate() {
                if !names.insert(region.name.as_str()) {
                    issue(
                        issues_ref,
                        format!("atlas.regions[{r}].name"),
                        format!("\"{}\" repeats; region names are unique", region.name),
                    );
                }
                if region.page as usize >= atlas.pages.len() {
                    issue(
                        issues_ref,
                        format!("atlas.regions[{r}].page"),
                        format!("is {}; the atlas has {} pages", region.page, atlas.pages.len()),
                    );
                }
                let numbers = [
                    region.x,
                    region.y,
                    region.width,
                    region.height,
                    region.rotate,
                    region.offset_x,
                    region.offset_y,
                    region.original_width,
                    region.original_height,
                ];
                if !finite(&numbers) {
                    issue(issues_ref, format!("atlas.regions[{r}]"), "has a NaN or infinite number".into());
                }
            }
        }
        for (i, ik) in self.ik.iter().enumerate() {
            if !(1..=2).contains(&ik.bones.len()) {
                issue(
                    issues_ref,
                    format!("ik[{i}].bones"),
                    "must name one bone, or a parent and its child".into(),
                );
            }
            for b in ik.bones.iter().chain(std::iter::once(&ik.target)) {
                if !bone(b) {
                    issue(issues_ref, format!("ik[{i}]"), format!("no bone \"{b}\""));
                }
            }
        }
        for (i, t) in self.transform.iter().enumerate() {
            if t.bones.is_empty() {
                issue(
                    issues_ref,
                    format!("transform[{i}].bones"),
                    "names no bone; name the bones it moves".into(),
                );
            }
            for b in t.bones.iter().chain(std::iter::once(&t.target)) {
                if !bone(b) {
                    issue(issues_ref, format!("transform[{i}]"), format!("no bone \"{b}\""));
                }
            }
            let numbers = [
                t.mix_rotate,
                t.mix_x,
                t.mix_y,
                t.mix_scale_x,
                t.mix_scale_y,
                t.mix_shear_y,
                t.offset_rotation,
                t.offset_x,
                t.offset_y,
                t.offset_scale_x,
                t.offset_scale_y,
                t.offset_shear_y,
            ];
            if !finite(&numbers) {
                issue(issues_ref, format!("transform[{i}]"), "has a NaN or infinite number".into());
            }
        }
        for (i, p) in self.path.iter().enumerate() {
            if p.bones.is_empty() {
                issue(
                    issues_ref,
                    format!("path[{i}].bones"),
                    "names no bone; name the bones it moves".into(),
                );
            }
            for b in &p.bones {
                if !bone(b) {
                    issue(issues_ref, format!("path[{i}]"), format!("no bone \"{b}\""));
                }
            }
            if !slot(&p.target) {
                issue(
                    issues_ref,
                    format!("path[{i}].target"),
                    format!("no slot \"{}\"; the target is the slot showing the path", p.target),
                );
            }
            let numbers = [p.offset_rotation, p.position, p.spacing, p.mix_rotate, p.mix_x, p.mix_y];
            if !finite(&numbers) {
                issue(issues_ref, format!("path[{i}]"), "has a NaN or infinite number".into());
            }
        }
        for (name, clip) in &self.clips {
            let at = |rest: &str| format!("clips.{name}{rest}");
            if !clip.duration.is_finite() || clip.duration <= 0.0 {
                issue(
                    issues_ref,
                    at(".duration"),
                    format!("is {}; a clip lasts more than 0 seconds", clip.duration),
                );
            }
            let keys = |issues_ref: &mut Vec<SkeletonIssue>, path: String, keys: &[Key], arity: u8| {
                let mut last = f32::MIN;
                for (k, key) in keys.iter().enumerate() {
                    if key.arity != arity {
                        issue(
                            issues_ref,
                            format!("{path}[{k}]"),
                            format!("has {} values; this timeline takes {arity}", key.arity),
                        );
                    }
                    if !key.time.is_finite() || !finite(&key.values) {
                        issue(issues_ref, format!("{path}[{k}]"), "has a NaN or infinite number".into());
                    } else if key.time < last {
                        issue(
                            issues_ref,
                            format!("{path}[{k}]"),
                            format!(
                                "time {} comes before the previous key's {last}; order keys by time",
                                key.time
                            ),
                        );
                    }
                    if let Curve::Bezier(b) | Curve::SpineBezier(b) | Curve::SpineOffset(b) = key.curve {
                        if !finite(&b) {
                            issue(issues_ref, format!("{path}[{k}]"), "has a NaN or infinite curve".into());
                        }
                    }
                    last = key.time;
                }
            };
            for (b, t) in &clip.bones {
                if !bone(b) {
                    issue(issues_ref, at(&format!(".bones.{b}")), format!("no bone \"{b}\" in the skeleton"));
                }
                let timelines = t.all();
                for (name, _, width, list) in timelines {
                    keys(issues_ref, at(&format!(".bones.{b}.{name}")), list, width);
                }
                for (name, other) in overlapping(&timelines, crate::skeleton::CHANNELS) {
                    let message = format!("keys a channel {other} keys too; keep one of the two timelines");
                    issue(issues_ref, at(&format!(".bones.{b}.{name}")), message);
                }
                for (k, (time, _)) in t.inherit.iter().enumerate() {
                    if !time.is_finite() || (k > 0 && *time < t.inherit[k - 1].0) {
                        issue(
                            issues_ref,
                            at(&format!(".bones.{b}.inherit[{k}]")),
                            "time out of order or not finite; keys go in time order".into(),
                        );
                    }
                }
            }
            for (s, t) in &clip.slots {
                if !slot(s) {
                    issue(issues_ref, at(&format!(".slots.{s}")), format!("no slot \"{s}\" in the skeleton"));
                }
                let timelines = t.colors();
                for (name, _, width, list) in timelines {
                    keys(issues_ref, at(&format!(".slots.{s}.{name}")), list, width);
                }
                for (name, other) in overlapping(&timelines, crate::skeleton::COLOR_CHANNELS) {
                    let message =
                        format!("keys a colour channel {other} keys too; keep one of the two timelines");
                    issue(issues_ref, at(&format!(".slots.{s}.{name}")), message);
                }
                for (k, (time, a)) in t.attachment.iter().enumerate() {
                    if let Some(a) = a {
                        if !attachment(s, a) {
                            issue(
                                issues_ref,
                                at(&format!(".slots.{s}.attachment[{k}]")),
                                format!("slot \"{s}\" has no attachment \"{a}\""),
                            );
                        }
                    }
                    if !time.is_finite() || (k > 0 && *time < t.attachment[k - 1].0) {
                        issue(
                            issues_ref,
                            at(&format!(".slots.{s}.attachment[{k}]")),
                            "time out of order or not finite".into(),
                        );
                    }
                }
            }
            for (k, (time, order)) in clip.draw_order.iter().enumerate() {
                let mut sorted: Vec<&String> = order.iter().collect();
                sorted.sort();
                let mut expected: Vec<&String> = self.slots.iter().map(|s| &s.name).collect();
                expected.sort();
                if sorted != expected {
                    issue(
                        issues_ref,
                        at(&format!(".drawOrder[{k}]")),
                        "must list every slot exactly once".into(),
                    );
                }
                if !time.is_finite() || (k > 0 && *time < clip.draw_order[k - 1].0) {
                    issue(
                        issues_ref,
                        at(&format!(".drawOrder[{k}]")),
                        "time out of order or not finite".into(),
                    );
                }
            }
            for (k, (time, event)) in clip.events.iter().enumerate() {
                if !self.events.contains(event) {
                    issue(
                        issues_ref,
                        at(&format!(".events[{k}]")),
                        format!("no event \"{event}\"; declare it in events"),
                    );
                }
                if !time.is_finite() || (k > 0 && *time < clip.events[k - 1].0) {
                    issue(issues_ref, at(&format!(".events[{k}]")), "time out of order or not finite".into());
                }
            }
            for (c, ks) in &clip.ik {
                if !self.ik.iter().any(|ik| &ik.name == c) {
                    issue(issues_ref, at(&format!(".ik.{c}")), format!("no IK constraint \"{c}\""));
                }
                for (k, key) in ks.iter().enumerate() {
                    let numbers = [key.time, key.mix, key.softness];
                    if !finite(&numbers) || (k > 0 && key.time < ks[k - 1].time) {
                        issue(
                            issues_ref,
                            at(&format!(".ik.{c}[{k}]")),
                            "time out of order or not finite".into(),
                        );
                    }
                }
            }
            for (c, t) in &clip.transform {
                if !self.transform.iter().any(|x| &x.name == c) {
                    issue(
                        issues_ref,
                        at(&format!(".transform.{c}")),
                        format!("no transform constraint \"{c}\""),
                    );
                }
                for (name, list) in t.all() {
                    keys(issues_ref, at(&format!(".transform.{c}.{name}")), list, 1);
                }
            }
            for (c, t) in &clip.path {
                if !self.path.iter().any(|x| &x.name == c) {
                    issue(issues_ref, at(&format!(".path.{c}")), format!("no path constraint \"{c}\""));
                }
                for (name, list) in t.all() {
                    keys(issues_ref, at(&format!(".path.{c}.{name}")), list, 1);
                }
            }
            for (q, t) in clip.sequence.iter().enumerate() {
                let here = at(&format!(".sequence[{q}]"));
                let target = self
                    .attachments
                    .iter()
                    .find(|a| a.slot == t.slot && a.name == t.attachment && a.skin == t.skin);
                match target {
                    None => {
                        let skin = t.skin.as_deref().unwrap_or("default");
                        issue(
                            issues_ref,
                            here.clone(),
                            format!(
                                "slot \"{}\" has no attachment \"{}\" in skin {skin}",
                                t.slot, t.attachment
                            ),
                        );
                    }
                    Some(a) if a.sequence.is_none() => issue(
                        issues_ref,
                        here.clone(),
                        format!("\"{}\" has no sequence; give it one or remove the timeline", t.attachment),
                    ),
                    Some(_) => {}
                }
                if t.keys.is_empty() {
                    issue(issues_ref, format!("{here}.keys"), "is empty; give at least one key".into());
                }
                for (k, key) in t.keys.iter().enumerate() {
                    if !key.time.is_finite() || (k > 0 && key.time < t.keys[k - 1].time) {
                        issue(
                            issues_ref,
                            format!("{here}.keys[{k}]"),
                            "time out of order or not finite".into(),
                        );
                    }
                    if !key.delay.is_finite() || key.delay < 0.0 {
                        issue(
                            issues_ref,
                            format!("{here}.keys[{k}].delay"),
                            "is negative or not finite; give seconds per frame (0 or more)".into(),
                        );
                    }
                }
            }
            for (d, t) in clip.deform.iter().enumerate() {
                let here = at(&format!(".deform[{d}]"));
                let target = self
                    .attachments
                    .iter()
                    .find(|a| a.slot == t.slot && a.name == t.attachment && a.skin == t.skin);
                let floats = match target.map(|a| &a.kind) {
                    Some(
                        AttachmentKind::Mesh { vertices, weights, .. }
                        | AttachmentKind::Path { vertices, weights, .. }
                        | AttachmentKind::Clipping { vertices, weights, .. },
                    ) => Some(
                        2 * if weights.is_empty() {
                            vertices.len()
                        } else {
                            weights.iter().map(Vec::len).sum()
                        },
                    ),
                    Some(AttachmentKind::LinkedMesh { .. }) => None,
                    Some(_) => {
                        issue(
                            issues_ref,
                            here.clone(),
                            format!(
                                "\"{}\" is not a mesh, path or clipping polygon; only those deform",
                                t.attachment
                            ),
                        );
                        None
                    }
                    None => {
                        let skin = t.skin.as_deref().unwrap_or("default");
                        issue(
                            issues_ref,
                            here.clone(),
                            format!(
                                "slot \"{}\" has no attachment \"{}\" in skin {skin}",
                                t.slot, t.attachment
                            ),
                        );
                        None
                    }
                };
                if t.keys.is_empty() {
                    issue(issues_ref, format!("{here}.keys"), "is empty; give at least one key".into());
                }
                for (k, key) in t.keys.iter().enumerate() {
                    if matches!(key.curve, Curve::SpineOffset(_)) {
                        issue(
                            issues_ref,
                            format!("{here}.keys[{k}].curve"),
                            "a deform curve is a fraction of the change; use \"spine\", not \"spineOffset\""
                                .into(),
                        );
                    }
                    if !key.time.is_finite()
                        || !finite(&key.vertices)
                        || (k > 0 && key.time < t.keys[k - 1].time)
                    {
                        issue(
                            issues_ref,
                            format!("{here}.keys[{k}]"),
                            "time out of order or not finite".into(),
                        );
                    }
                    if let Some(n) = floats {
                        if key.offset as usize + key.vertices.len() > n {
                            issue(
                                issues_ref,
                                format!("{here}.keys[{k}]"),
                                format!(
                                    "offsets floats {} to {} of a deform of {n}; keep them inside",
                                    key.offset,
                                    key.offset as usize + key.vertices.len()
                                ),
                            );
                        }
                    }
                }
            }
        }
        issues
    }
}
