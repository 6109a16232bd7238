//! Importing Spine JSON 4.0 to 4.2 (the subset a graph-driven character needs).
//!
//! Read, with the `.atlas` beside the export when given ([`import_spine_with_atlas`]): bones
//! (inherit modes), slots (colour, dark colour, blend mode), every skin's region, mesh, linked
//! mesh, path and clipping attachments (with sequences), IK, transform and path constraints (in
//! their `order`), events, and animations: bone rotate / translate / scale / shear (and 4.1+'s
//! single channels translatex ... sheary) / inherit; slot attachment / rgba / rgb / alpha /
//! rgba2 / rgb2; deform and sequence; drawOrder; event; IK, transform and path constraint
//! timelines; linear, stepped or bezier per channel. Physics constraints (4.2), bounding boxes
//! and points are skipped with one warning each (per constraint, per kind of attachment); a
//! whole file is never refused for a feature it uses.
//!
//! Conversions: Spine timeline values are relative to the setup pose (rotate, translate and shear
//! add, scale multiplies) and become absolute `.mskel` keys; before a timeline's first key Spine
//! holds the setup pose, so a timeline starting after 0 gets a stepped setup key at 0. Spine 4
//! beziers are absolute control points `(time, value)` per segment and channel; they are
//! normalised to the segment and kept as [`Curve::SpineBezier`] (evaluated as Spine's runtimes
//! do). A two-channel timeline whose channels have curves of their own becomes two
//! single-channel timelines. Spine is y-up and `.mskel` is y-down (Godot's and the screen's), so
//! y, rotations and shears are mirrored. `tests/spine_oracle.rs` checks the result bone by bone
//! against Spine's own runtime.

use std::collections::BTreeMap;

use serde_json::Value as Json;

use crate::data::{
    AtlasData, AtlasPage, AtlasRegion, AttachmentData, AttachmentKind, BlendMode, BoneData, BoneTimelines,
    ClipData, Curve, DeformKey, DeformTimeline, IkData, IkKey, Inherit, Key, MAX_SEQUENCE_FRAMES, RegionRef,
    SequenceData, SequenceKey, SequenceMode, SequenceTimeline, Skeleton2DData, SlotData, SlotTimelines,
};
use crate::data::{
    PathData, PathTimelines, PositionMode, RotateMode, SpacingMode, TransformData, TransformTimelines,
};
use crate::godot::Imported;

/// One of our (y-down) bone world transforms as Spine's runtime reports it (y-up):
/// `[worldX, worldY, a, b, c, d]`. The two spaces mirror each other (`M W M`, `M = diag(1, -1)`),
/// so poses can be compared with Spine's own, as `tests/spine_oracle.rs` does.
pub fn spine_world_transform(world: glam::Affine2) -> [f32; 6] {
    let (m, t) = (world.matrix2, world.translation);
    [t.x, -t.y, m.x_axis.x, -m.y_axis.x, -m.x_axis.y, m.y_axis.y]
}

/// Why a Spine file could not be imported.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SpineError(pub String);

fn f(v: Option<&Json>, default: f32) -> f32 {
    v.and_then(Json::as_f64).map_or(default, |x| x as f32)
}

fn color(hex: Option<&Json>) -> [f32; 4] {
    let Some(s) = hex.and_then(Json::as_str) else { return [1.0; 4] };
    let byte =
        |i: usize| u8::from_str_radix(s.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255) as f32 / 255.0;
    [byte(0), byte(2), byte(4), if s.len() >= 8 { byte(6) } else { 1.0 }]
}

/// A Spine 4 curve on a segment from (t0, v0) to (t1, v1), for value channel `channel`: Spine
/// writes four numbers per channel (`[cx1, cy1, cx2, cy2, ...]`, absolute times and values),
/// normalised here to the segment.
/// The curve from a Spine key to the next on `channel`: `v0`, `v1` and the control values are
/// as Spine writes them; `abs` maps such a value to `.mskel`'s (mirrored, setup added or
/// multiplied). Control times may lie outside the segment (Spine allows it). A segment whose
/// value does not change but whose curve swings becomes [`Curve::SpineOffset`], the swing in
/// `.mskel` units.
fn curve(key: &Json, channel: usize, t0: f32, v0: f32, t1: f32, v1: f32, abs: &dyn Fn(f32) -> f32) -> Curve {
    match key.get("curve") {
        Some(Json::String(s)) if s == "stepped" => Curve::Stepped,
        Some(Json::Array(points)) if points.len() >= 4 * (channel + 1) => {
            let p: Vec<f32> =
                points.iter().skip(4 * channel).take(4).map(|x| x.as_f64().unwrap_or(0.0) as f32).collect();
            let dt = t1 - t0;
            let dv = v1 - v0;
            let nx = |x: f32| if dt > 0.0 { (x - t0) / dt } else { 0.0 };
            if dv == 0.0 {
                if p[1] == v0 && p[3] == v0 {
                    return Curve::Linear;
                }
                let base = abs(v0);
                return Curve::SpineOffset([nx(p[0]), abs(p[1]) - base, nx(p[2]), abs(p[3]) - base]);
            }
            Curve::SpineBezier([nx(p[0]), (p[1] - v0) / dv, nx(p[2]), (p[3] - v0) / dv])
        }
        _ => Curve::Linear,
    }
}

/// A Spine timeline read into `.mskel` keys.
enum Timeline {
    /// All channels share their curves: one timeline.
    Joint(Vec<Key>),
    /// Some key has a curve of its own per channel: one timeline per channel.
    Split(Vec<Vec<Key>>),
}

/// Reads a Spine timeline of `names` value fields (defaults `defaults`, relative to the setup
/// pose) into absolute keys via `absolute(channel, value)`.
fn timeline(keys: &Json, names: &[&str], defaults: &[f32], absolute: &dyn Fn(usize, f32) -> f32) -> Timeline {
    let raw = |k: &Json, c: usize| f(k.get(names[c]), defaults[c]);
    channel_timeline(keys, names.len(), &raw, absolute, &|c| absolute(c, defaults[c]))
}

/// Any Spine curve timeline of `n` channels: `raw(key, channel)` reads a value as Spine writes it
/// (its curves' control values are in that space), `absolute` converts it to `.mskel`'s, and
/// before the first key Spine holds the setup pose (`setup(channel)`), so a timeline starting
/// after 0 gets a stepped setup key at 0. One timeline when every channel has the same curves,
/// else one per channel.
fn channel_timeline(
    keys: &Json,
    n: usize,
    raw: &dyn Fn(&Json, usize) -> f32,
    absolute: &dyn Fn(usize, f32) -> f32,
    setup: &dyn Fn(usize) -> f32,
) -> Timeline {
    let list = keys.as_array().map(Vec::as_slice).unwrap_or_default();
    let time = |k: &Json| f(k.get("time"), 0.0);
    // Per channel: (time, absolute value, curve to the next key).
    let mut channels: Vec<Vec<(f32, f32, Curve)>> = vec![Vec::new(); n];
    for (c, keys) in channels.iter_mut().enumerate() {
        for (i, k) in list.iter().enumerate() {
            let curve = match list.get(i + 1) {
                Some(next) => curve(k, c, time(k), raw(k, c), time(next), raw(next, c), &|v| absolute(c, v)),
                None => Curve::Linear,
            };
            keys.push((time(k), absolute(c, raw(k, c)), curve));
        }
        if keys.first().is_some_and(|k| k.0 > 0.0) {
            keys.insert(0, (0.0, setup(c), Curve::Stepped));
        }
    }
    // A key holds up to 4 values: wider timelines (constraint mixes) are always split.
    let same_curves = n <= 4 && (1..n).all(|c| channels[c].iter().zip(&channels[0]).all(|(a, b)| a.2 == b.2));
    if same_curves {
        let keys = (0..channels[0].len())
            .map(|i| {
                let mut values = [0.0; 4];
                for (c, v) in values.iter_mut().enumerate().take(n) {
                    *v = channels[c][i].1;
                }
                Key { time: channels[0][i].0, values, arity: n as u8, curve: channels[0][i].2 }
            })
            .collect();
        return Timeline::Joint(keys);
    }
    Timeline::Split(
        channels
            .into_iter()
            .map(|keys| {
                keys.into_iter()
                    .map(|(time, v, curve)| Key { time, values: [v, 0.0, 0.0, 0.0], arity: 1, curve })
                    .collect()
            })
            .collect(),
    )
}

impl Timeline {
    /// One single-channel timeline per channel, whichever form it came in.
    fn into_channels(self) -> Vec<Vec<Key>> {
        match self {
            Timeline::Split(channels) => channels,
            Timeline::Joint(keys) => {
                let n = keys.first().map_or(0, |k| k.arity as usize);
                (0..n)
                    .map(|c| {
                        keys.iter()
                            .map(|k| Key { values: [k.values[c], 0.0, 0.0, 0.0], arity: 1, ..*k })
                            .collect()
                    })
                    .collect()
            }
        }
    }
}

/// Stores a two-channel Spine timeline: as one `.mskel` timeline, or as its two single channels.
fn store(t: Timeline, joint: &mut Vec<Key>, x: &mut Vec<Key>, y: &mut Vec<Key>) {
    match t {
        Timeline::Joint(keys) => *joint = keys,
        Timeline::Split(mut channels) => {
            *y = channels.pop().unwrap_or_default();
            *x = channels.pop().unwrap_or_default();
        }
    }
}

/// A one-channel timeline's keys.
fn single(t: Timeline) -> Vec<Key> {
    match t {
        Timeline::Joint(keys) => keys,
        Timeline::Split(mut channels) => channels.pop().unwrap_or_default(),
    }
}

fn last_time(keys: &[Key]) -> f32 {
    keys.last().map_or(0.0, |k| k.time)
}

/// Imports Spine JSON (4.0 to 4.2).
pub fn import_spine(text: &str) -> Result<Imported, SpineError> {
    import_spine_with_atlas(text, None)
}

/// Imports a Spine JSON export with its `.atlas` text (`None`: untextured; attachments draw
/// flat). The atlas's pages become the skeleton's `atlas`, its regions what attachments name.
pub fn import_spine_with_atlas(text: &str, atlas_text: Option<&str>) -> Result<Imported, SpineError> {
    let atlas = match atlas_text {
        Some(t) => Some(parse_atlas(t).map_err(|e| SpineError(format!("atlas: {e}")))?),
        None => None,
    };
    animgraph_runtime::json::check_f32_range(text).map_err(|e| SpineError(e.to_string()))?;
    let root: Json = serde_json::from_str(text).map_err(|e| SpineError(format!("malformed JSON: {e}")))?;
    let version = root.pointer("/skeleton/spine").and_then(Json::as_str).unwrap_or("");
    let mut parts = version.split('.');
    let (major, minor) =
        (parts.next().and_then(|p| p.parse::<u32>().ok()), parts.next().and_then(|p| p.parse::<u32>().ok()));
    if major != Some(4) || !matches!(minor, Some(0..=2)) {
        let shown = if version.is_empty() { "no version" } else { version };
        return Err(SpineError(format!(
            "Spine {shown} is not supported; export JSON from Spine 4.0, 4.1 or 4.2 (skeleton.spine names the version)"
        )));
    }
    let mut warnings = Vec::new();
    let mut bones = Vec::new();
    for (i, b) in root.get("bones").and_then(Json::as_array).cloned().unwrap_or_default().iter().enumerate() {
        let name = b
            .get("name")
            .and_then(Json::as_str)
            .ok_or_else(|| SpineError(format!("bones[{i}] has no name")))?;
        // Spine 4.2 calls it `inherit`, 4.0 and 4.1 `transform`.
        let mut inherit = Inherit::Normal;
        if let Some(t) = b.get("inherit").or_else(|| b.get("transform")).and_then(Json::as_str) {
            match Inherit::parse(t) {
                Some(mode) => inherit = mode,
                None => {
                    warnings.push(format!("bone {name}: unknown inherit mode \"{t}\"; imported as normal"))
                }
            }
        }
        bones.push(BoneData {
            skin_required: b.get("skin").and_then(Json::as_bool).unwrap_or(false),
            name: name.to_string(),
            parent: b.get("parent").and_then(Json::as_str).map(str::to_string),
            x: f(b.get("x"), 0.0),
            y: -f(b.get("y"), 0.0),
            rotation: -f(b.get("rotation"), 0.0),
            scale_x: f(b.get("scaleX"), 1.0),
            scale_y: f(b.get("scaleY"), 1.0),
            shear_x: -f(b.get("shearX"), 0.0),
            shear_y: -f(b.get("shearY"), 0.0),
            length: f(b.get("length"), 0.0),
            inherit,
        });
    }
    let slots: Vec<SlotData> = root
        .get("slots")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|s| SlotData {
            name: s.get("name").and_then(Json::as_str).unwrap_or("").to_string(),
            bone: s.get("bone").and_then(Json::as_str).unwrap_or("").to_string(),
            attachment: s.get("attachment").and_then(Json::as_str).map(str::to_string),
            color: color(s.get("color")),
            dark: s.get("dark").map(|d| {
                let [r, g, b, _] = color(Some(d));
                [r, g, b]
            }),
            blend: match s.get("blend").and_then(Json::as_str) {
                Some("additive") => BlendMode::Additive,
                Some("multiply") => BlendMode::Multiply,
                Some("screen") => BlendMode::Screen,
                _ => BlendMode::Normal,
            },
        })
        .collect();
    let bone_names: Vec<&str> = bones.iter().map(|b| b.name.as_str()).collect();
    // What each named skin activates: its skin-required bones and constraints.
    let names_of = |skin: &Json, keys: &[&str]| -> Vec<String> {
        keys.iter()
            .flat_map(|k| skin.get(*k).and_then(Json::as_array).into_iter().flatten())
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect()
    };
    let skin_lists: Vec<crate::data::SkinData> = root
        .get("skins")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|skin| {
            let name = skin.get("name").and_then(Json::as_str).unwrap_or("default").to_string();
            let bones = names_of(skin, &["bones"]);
            let constraints = names_of(skin, &["ik", "transform", "path"]);
            (!bones.is_empty() || !constraints.is_empty()).then_some(crate::data::SkinData {
                name,
                bones,
                constraints,
            })
        })
        .collect();
    let mut attachments = Vec::new();
    let mut not_drawn: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (si, skin) in
        root.get("skins").and_then(Json::as_array).map(Vec::as_slice).unwrap_or_default().iter().enumerate()
    {
        let skin_name = skin.get("name").and_then(Json::as_str).unwrap_or("default");
        let skin_field = (skin_name != "default").then(|| skin_name.to_string());
        let Some(by_slot) = skin.get("attachments").and_then(Json::as_object) else { continue };
        for (slot, list) in by_slot {
            for (name, a) in list.as_object().into_iter().flatten() {
                let at = format!("skins[{si}] ({skin_name}) {slot}/{name}");
                match attachment(a, name, &bone_names, atlas.as_ref(), &at, &mut warnings) {
                    Ok(kind) => attachments.push(AttachmentData {
                        slot: slot.clone(),
                        name: name.clone(),
                        skin: skin_field.clone(),
                        color: color(a.get("color")),
                        sequence: sequence(a, name, atlas.as_ref(), &at, &mut warnings),
                        kind,
                    }),
                    Err(kind) => not_drawn.entry(kind).or_default().push(format!("{slot}/{name}")),
                }
            }
        }
    }
    for (kind, list) in &not_drawn {
        let why = match *kind {
            "boundingbox" => "bounding boxes are for hit tests and draw nothing",
            "point" => "points mark places and draw nothing",
            "path" => "paths guide path constraints, which are not imported",
            _ => "not supported",
        };
        let shown: Vec<&str> = list.iter().take(6).map(String::as_str).collect();
        let more = if list.len() > 6 { format!(" and {} more", list.len() - 6) } else { String::new() };
        warnings.push(format!(
            "{} {kind} attachments skipped ({why}): {}{more}",
            list.len(),
            shown.join(", ")
        ));
    }
    // A linked mesh whose parent was not imported is skipped too.
    let meshes: std::collections::HashSet<(String, String, Option<String>)> = attachments
        .iter()
        .filter(|a| matches!(a.kind, AttachmentKind::Mesh { .. }))
        .map(|a| (a.slot.clone(), a.name.clone(), a.skin.clone()))
        .collect();
    attachments.retain(|a| match &a.kind {
        AttachmentKind::LinkedMesh { parent, parent_skin, .. } => {
            let ok = meshes.contains(&(a.slot.clone(), parent.clone(), parent_skin.clone()));
            if !ok {
                warnings.push(format!(
                    "linked mesh {}/{}: its parent mesh {parent} was not found; skipped",
                    a.slot, a.name
                ));
            }
            ok
        }
        _ => true,
    });
    // Slots whose setup attachment was skipped show nothing.
    let mut slots = slots;
    let kept: std::collections::HashSet<(&str, &str)> =
        attachments.iter().map(|x| (x.slot.as_str(), x.name.as_str())).collect();
    for s in &mut slots {
        if let Some(a) = &s.attachment {
            if !kept.contains(&(s.name.as_str(), a.as_str())) {
                s.attachment = None;
            }
        }
    }
    // Constraints run in their `order` (Spine's update order), not in list order.
    let mut ik_list = root.get("ik").and_then(Json::as_array).cloned().unwrap_or_default();
    ik_list.sort_by_key(|c| c.get("order").and_then(Json::as_i64).unwrap_or(0));
    let ik: Vec<IkData> = ik_list
        .iter()
        .map(|c| IkData {
            skin_required: c.get("skin").and_then(Json::as_bool).unwrap_or(false),
            name: c.get("name").and_then(Json::as_str).unwrap_or("").to_string(),
            bones: c
                .get("bones")
                .and_then(Json::as_array)
                .map(|b| b.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
                .unwrap_or_default(),
            target: c.get("target").and_then(Json::as_str).unwrap_or("").to_string(),
            // Mirroring y flips the bend direction.
            bend_positive: !c.get("bendPositive").and_then(Json::as_bool).unwrap_or(true),
            mix: f(c.get("mix"), 1.0),
            softness: f(c.get("softness"), 0.0),
            compress: c.get("compress").and_then(Json::as_bool).unwrap_or(false),
            stretch: c.get("stretch").and_then(Json::as_bool).unwrap_or(false),
            uniform: c.get("uniform").and_then(Json::as_bool).unwrap_or(false),
            order: c.get("order").and_then(Json::as_u64).unwrap_or(0) as u32,
        })
        .collect();
    // Transform constraints, mirrored into y-down (rotation, y and shear offsets).
    let transform: Vec<TransformData> = root
        .get("transform")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(|c| {
            let mix_x = f(c.get("mixX"), 1.0);
            let mix_scale_x = f(c.get("mixScaleX"), 1.0);
            TransformData {
                skin_required: c.get("skin").and_then(Json::as_bool).unwrap_or(false),
                name: c.get("name").and_then(Json::as_str).unwrap_or("").to_string(),
                order: c.get("order").and_then(Json::as_u64).unwrap_or(0) as u32,
                bones: c
                    .get("bones")
                    .and_then(Json::as_array)
                    .map(|b| b.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
                    .unwrap_or_default(),
                target: c.get("target").and_then(Json::as_str).unwrap_or("").to_string(),
                local: c.get("local").and_then(Json::as_bool).unwrap_or(false),
                relative: c.get("relative").and_then(Json::as_bool).unwrap_or(false),
                mix_rotate: f(c.get("mixRotate"), 1.0),
                mix_x,
                mix_y: f(c.get("mixY"), mix_x),
                mix_scale_x,
                mix_scale_y: f(c.get("mixScaleY"), mix_scale_x),
                mix_shear_y: f(c.get("mixShearY"), 1.0),
                offset_rotation: -f(c.get("rotation"), 0.0),
                offset_x: f(c.get("x"), 0.0),
                offset_y: -f(c.get("y"), 0.0),
                offset_scale_x: f(c.get("scaleX"), 0.0),
                offset_scale_y: f(c.get("scaleY"), 0.0),
                offset_shear_y: -f(c.get("shearY"), 0.0),
            }
        })
        .collect();
    // Path constraints, mirrored into y-down (the rotation offset). Spine scales fixed
    // positions and length / fixed spacing by the export scale, which is 1 here.
    let path: Vec<PathData> = root
        .get("path")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(|c| {
            let mode = |key: &str| c.get(key).and_then(Json::as_str).unwrap_or("");
            let mix_x = f(c.get("mixX"), 1.0);
            PathData {
                skin_required: c.get("skin").and_then(Json::as_bool).unwrap_or(false),
                name: c.get("name").and_then(Json::as_str).unwrap_or("").to_string(),
                order: c.get("order").and_then(Json::as_u64).unwrap_or(0) as u32,
                bones: c
                    .get("bones")
                    .and_then(Json::as_array)
                    .map(|b| b.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
                    .unwrap_or_default(),
                target: c.get("target").and_then(Json::as_str).unwrap_or("").to_string(),
                position_mode: if mode("positionMode") == "fixed" {
                    PositionMode::Fixed
                } else {
                    PositionMode::Percent
                },
                spacing_mode: match mode("spacingMode") {
                    "fixed" => SpacingMode::Fixed,
                    "percent" => SpacingMode::Percent,
                    "proportional" => SpacingMode::Proportional,
                    _ => SpacingMode::Length,
                },
                rotate_mode: match mode("rotateMode") {
                    "chain" => RotateMode::Chain,
                    "chainScale" => RotateMode::ChainScale,
                    _ => RotateMode::Tangent,
                },
                offset_rotation: -f(c.get("rotation"), 0.0),
                position: f(c.get("position"), 0.0),
                spacing: f(c.get("spacing"), 0.0),
                mix_rotate: f(c.get("mixRotate"), 1.0),
                mix_x,
                mix_y: f(c.get("mixY"), mix_x),
            }
        })
        .collect();
    // Physics constraints are not simulated: one warning each, naming it and its bone.
    for c in root.get("physics").and_then(Json::as_array).into_iter().flatten() {
        let name = c.get("name").and_then(Json::as_str).unwrap_or("?");
        let bone = c.get("bone").and_then(Json::as_str).unwrap_or("?");
        warnings.push(format!(
            "physics constraint {name} is not supported; skipped (its bone {bone} keeps its animated pose)"
        ));
    }
    let events: Vec<String> =
        root.get("events").and_then(Json::as_object).map(|e| e.keys().cloned().collect()).unwrap_or_default();

    // Through a map (first bone of a name), so a timeline per bone is not a scan per bone.
    let by_name: std::collections::HashMap<&str, &BoneData> =
        bones.iter().rev().map(|b| (b.name.as_str(), b)).collect();
    let setup = |name: &str| by_name.get(name).map(|b| (*b).clone());
    let mut clips = BTreeMap::new();
    for (clip_name, anim) in root.get("animations").and_then(Json::as_object).cloned().unwrap_or_default() {
        let mut clip = ClipData { looping: true, ..Default::default() };
        let mut end = 0.0f32;
        for (bone, timelines) in anim.get("bones").and_then(Json::as_object).cloned().unwrap_or_default() {
            let Some(s) = setup(&bone) else {
                warnings.push(format!("animation {clip_name}: no bone {bone}; its timelines are skipped"));
                continue;
            };
            let mut t = BoneTimelines::default();
            for (kind, keys) in timelines.as_object().cloned().unwrap_or_default() {
                let one = |names: &[&str], defaults: &[f32], absolute: &dyn Fn(usize, f32) -> f32| {
                    single(timeline(&keys, names, defaults, absolute))
                };
                match kind.as_str() {
                    "rotate" => t.rotate = one(&["value"], &[0.0], &|_, v| s.rotation - v),
                    "translate" => store(
                        timeline(&keys, &["x", "y"], &[0.0, 0.0], &|c, v| {
                            if c == 0 { s.x + v } else { s.y - v }
                        }),
                        &mut t.translate,
                        &mut t.translate_x,
                        &mut t.translate_y,
                    ),
                    "scale" => store(
                        timeline(&keys, &["x", "y"], &[1.0, 1.0], &|c, v| {
                            if c == 0 { s.scale_x * v } else { s.scale_y * v }
                        }),
                        &mut t.scale,
                        &mut t.scale_x,
                        &mut t.scale_y,
                    ),
                    "shear" => store(
                        timeline(&keys, &["x", "y"], &[0.0, 0.0], &|c, v| {
                            if c == 0 { s.shear_x - v } else { s.shear_y - v }
                        }),
                        &mut t.shear,
                        &mut t.shear_x,
                        &mut t.shear_y,
                    ),
                    // Spine 4.1+ single-channel timelines.
                    "translatex" => t.translate_x = one(&["value"], &[0.0], &|_, v| s.x + v),
                    "translatey" => t.translate_y = one(&["value"], &[0.0], &|_, v| s.y - v),
                    "scalex" => t.scale_x = one(&["value"], &[1.0], &|_, v| s.scale_x * v),
                    "scaley" => t.scale_y = one(&["value"], &[1.0], &|_, v| s.scale_y * v),
                    "shearx" => t.shear_x = one(&["value"], &[0.0], &|_, v| s.shear_x - v),
                    "sheary" => t.shear_y = one(&["value"], &[0.0], &|_, v| s.shear_y - v),
                    // Spine 4.2: stepped modes.
                    "inherit" => {
                        for k in keys.as_array().map(Vec::as_slice).unwrap_or_default() {
                            let name = k.get("inherit").and_then(Json::as_str).unwrap_or("normal");
                            let mode = Inherit::parse(name).unwrap_or_else(|| {
                                warnings.push(format!(
                                    "animation {clip_name}: unknown inherit mode \"{name}\" in the inherit timeline of {bone}; imported as normal"
                                ));
                                Inherit::Normal
                            });
                            t.inherit.push((f(k.get("time"), 0.0), mode));
                        }
                        if let Some((time, _)) = t.inherit.last() {
                            end = end.max(*time);
                        }
                    }
                    other => warnings.push(format!(
                        "animation {clip_name}: bone timeline {other} of {bone} is not supported"
                    )),
                }
            }
            // A channel keyed both ways (a two-channel timeline and a single one): the
            // two-channel timeline is kept.
            for (joint, x, y, name) in [
                (&t.translate, &mut t.translate_x, &mut t.translate_y, "translate"),
                (&t.scale, &mut t.scale_x, &mut t.scale_y, "scale"),
                (&t.shear, &mut t.shear_x, &mut t.shear_y, "shear"),
            ] {
                if !joint.is_empty() && (!x.is_empty() || !y.is_empty()) {
                    warnings.push(format!(
                        "animation {clip_name}: {bone} has both a {name} timeline and single-channel ones; the single channels are skipped"
                    ));
                    x.clear();
                    y.clear();
                }
            }
            for (_, _, _, keys) in t.all() {
                end = end.max(last_time(keys));
            }
            clip.bones.insert(bone, t);
        }
        for (slot, timelines) in anim.get("slots").and_then(Json::as_object).cloned().unwrap_or_default() {
            let mut t = SlotTimelines::default();
            for (kind, keys) in timelines.as_object().cloned().unwrap_or_default() {
                let list = keys.as_array().cloned().unwrap_or_default();
                match kind.as_str() {
                    "attachment" => {
                        let mut skipped = std::collections::BTreeSet::new();
                        t.attachment = list
                            .iter()
                            .map(|k| {
                                let mut name = k.get("name").and_then(Json::as_str).map(str::to_string);
                                // A key naming an attachment that was not imported (a mesh, or
                                // one of another skin) shows nothing then, with one warning.
                                if let Some(n) = &name {
                                    if !kept.contains(&(slot.as_str(), n.as_str())) {
                                        skipped.insert(n.clone());
                                        name = None;
                                    }
                                }
                                (f(k.get("time"), 0.0), name)
                            })
                            .collect();
                        for n in skipped {
                            warnings.push(format!(
                                "animation {clip_name}: slot {slot} keys attachment {n}, which was not imported; the slot shows nothing while it is keyed"
                            ));
                        }
                    }
                    "rgba" | "rgb" | "alpha" | "rgba2" | "rgb2" => {
                        let setup = slots.iter().find(|x| x.name == *slot).map_or([1.0; 7], |x| {
                            let [r, g, b, a] = x.color;
                            let [dr, dg, db] = x.dark.unwrap_or([0.0; 3]);
                            [r, g, b, a, dr, dg, db]
                        });
                        // The slot colour channels each timeline keys (4..7: the dark RGB).
                        let channels: &[usize] = match kind.as_str() {
                            "rgba" => &[0, 1, 2, 3],
                            "rgb" => &[0, 1, 2],
                            "rgba2" => &[0, 1, 2, 3, 4, 5, 6],
                            "rgb2" => &[0, 1, 2, 4, 5, 6],
                            _ => &[3],
                        };
                        let two = kind.ends_with('2');
                        let raw = |k: &Json, n: usize| match channels[n] {
                            _ if kind == "alpha" => f(k.get("value"), 0.0),
                            c @ 0..4 if two => color(k.get("light"))[c],
                            c @ 0..4 => color(k.get("color"))[c],
                            c => color(k.get("dark"))[c - 4],
                        };
                        let read =
                            channel_timeline(&keys, channels.len(), &raw, &|_, v| v, &|n| setup[channels[n]]);
                        match read {
                            // One timeline of four values.
                            Timeline::Joint(keys) if kind == "rgba" => t.color = keys,
                            other => {
                                for (&c, keys) in channels.iter().zip(other.into_channels()) {
                                    set_color_channel(&mut t, c, keys);
                                }
                            }
                        }
                    }
                    other => warnings.push(format!(
                        "animation {clip_name}: slot timeline {other} of {slot} is not supported"
                    )),
                }
            }
            if let Some(k) = t.attachment.last() {
                end = end.max(k.0);
            }
            if !t.color.is_empty() && [&t.red, &t.green, &t.blue, &t.alpha].iter().any(|k| !k.is_empty()) {
                warnings.push(format!(
                    "animation {clip_name}: slot {slot} has both an rgba timeline and rgb or alpha ones; the rgb and alpha ones are skipped"
                ));
                (t.red, t.green, t.blue, t.alpha) = Default::default();
            }
            for (_, _, _, keys) in t.colors() {
                end = end.max(last_time(keys));
            }
            clip.slots.insert(slot, t);
        }
        if let Some(orders) = anim.get("drawOrder").and_then(Json::as_array) {
            for entry in orders {
                let time = f(entry.get("time"), 0.0);
                end = end.max(time);
                clip.draw_order.push((time, draw_order(&slots, entry.get("offsets"))));
            }
        }
        if let Some(list) = anim.get("events").and_then(Json::as_array) {
            for e in list {
                let time = f(e.get("time"), 0.0);
                let name = e.get("name").and_then(Json::as_str).unwrap_or("");
                if !events.iter().any(|declared| declared == name) {
                    warnings.push(format!(
                        "animation {clip_name}: event key names \"{name}\", which the skeleton's events do not declare; skipped"
                    ));
                    continue;
                }
                end = end.max(time);
                clip.events.push((time, name.to_string()));
            }
        }
        for (constraint, keys) in anim.get("ik").and_then(Json::as_object).cloned().unwrap_or_default() {
            let list = keys.as_array().cloned().unwrap_or_default();
            let time = |k: &Json| f(k.get("time"), 0.0);
            let mut keys: Vec<IkKey> = list
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    let (mix, softness) = (f(k.get("mix"), 1.0), f(k.get("softness"), 0.0));
                    // Spine writes one curve per channel: mix, then softness.
                    let (curve, softness_curve) = match list.get(i + 1) {
                        Some(n) => (
                            curve(k, 0, time(k), mix, time(n), f(n.get("mix"), 1.0), &|v| v),
                            curve(k, 1, time(k), softness, time(n), f(n.get("softness"), 0.0), &|v| v),
                        ),
                        None => (Curve::Linear, Curve::Linear),
                    };
                    let stepped = matches!(k.get("curve"), Some(Json::String(s)) if s == "stepped");
                    IkKey {
                        time: time(k),
                        mix,
                        softness,
                        bend_positive: !k.get("bendPositive").and_then(Json::as_bool).unwrap_or(true),
                        compress: k.get("compress").and_then(Json::as_bool).unwrap_or(false),
                        stretch: k.get("stretch").and_then(Json::as_bool).unwrap_or(false),
                        curve,
                        softness_curve: if stepped { Curve::Stepped } else { softness_curve },
                    }
                })
                .collect();
            // Before its first key Spine holds the constraint's setup values.
            if keys.first().is_some_and(|k| k.time > 0.0) {
                if let Some(setup) = ik.iter().find(|c| c.name == constraint) {
                    let mut k = IkKey::new(0.0, setup.mix, setup.bend_positive);
                    (k.softness, k.compress, k.stretch) = (setup.softness, setup.compress, setup.stretch);
                    (k.curve, k.softness_curve) = (Curve::Stepped, Curve::Stepped);
                    keys.insert(0, k);
                }
            }
            if let Some(k) = keys.last() {
                end = end.max(k.time);
            }
            clip.ik.insert(constraint, keys);
        }
        // Deform timelines: 4.0 `deform: {skin: {slot: {attachment: keys}}}`, 4.1+
        // `attachments: {skin: {slot: {attachment: {deform: keys, sequence: keys}}}}`.
        let mut deform_sources: Vec<(String, String, String, Json)> = Vec::new();
        for (skin, by_slot) in anim.get("deform").and_then(Json::as_object).into_iter().flatten() {
            for (slot, by_attachment) in by_slot.as_object().into_iter().flatten() {
                for (name, keys) in by_attachment.as_object().into_iter().flatten() {
                    deform_sources.push((skin.clone(), slot.clone(), name.clone(), keys.clone()));
                }
            }
        }
        for (skin, by_slot) in anim.get("attachments").and_then(Json::as_object).into_iter().flatten() {
            for (slot, by_attachment) in by_slot.as_object().into_iter().flatten() {
                for (name, timelines) in by_attachment.as_object().into_iter().flatten() {
                    for (kind, keys) in timelines.as_object().into_iter().flatten() {
                        match kind.as_str() {
                            "deform" => deform_sources.push((skin.clone(), slot.clone(), name.clone(), keys.clone())),
                            "sequence" if keys.as_array().is_none_or(Vec::is_empty) => {}
                            "sequence" => {
                                let skin = (skin != "default").then(|| skin.clone());
                                let target = attachments
                                    .iter()
                                    .find(|a| &a.slot == slot && &a.name == name && a.skin == skin);
                                if target.is_none_or(|a| a.sequence.is_none()) {
                                    warnings.push(format!(
                                        "animation {clip_name}: sequence timeline of {slot}/{name}, which has no imported sequence; skipped"
                                    ));
                                    continue;
                                }
                                let list = keys.as_array().map(Vec::as_slice).unwrap_or_default();
                                let keys: Vec<SequenceKey> = list
                                    .iter()
                                    .map(|k| SequenceKey {
                                        time: f(k.get("time"), 0.0),
                                        mode: match k.get("mode").and_then(Json::as_str) {
                                            Some("once") => SequenceMode::Once,
                                            Some("loop") => SequenceMode::Loop,
                                            Some("pingpong") => SequenceMode::Pingpong,
                                            Some("onceReverse") => SequenceMode::OnceReverse,
                                            Some("loopReverse") => SequenceMode::LoopReverse,
                                            Some("pingpongReverse") => SequenceMode::PingpongReverse,
                                            _ => SequenceMode::Hold,
                                        },
                                        index: k.get("index").and_then(Json::as_u64).unwrap_or(0).min(MAX_FRAMES)
                                            as u32,
                                        delay: f(k.get("delay"), 0.0),
                                    })
                                    .collect();
                                if let Some(k) = keys.last() {
                                    end = end.max(k.time);
                                }
                                clip.sequence.push(SequenceTimeline {
                                    slot: slot.clone(),
                                    attachment: name.clone(),
                                    skin,
                                    keys,
                                });
                            }
                            other => warnings.push(format!(
                                "animation {clip_name}: {other} timeline of {slot}/{name} is not supported; skipped"
                            )),
                        }
                    }
                }
            }
        }
        for (skin, slot, name, keys) in deform_sources {
            // A timeline without keys keys nothing (Spine ignores it).
            if keys.as_array().is_none_or(Vec::is_empty) {
                continue;
            }
            let skin = (skin != "default").then_some(skin);
            let Some(mesh) = attachments.iter().find(|a| a.slot == slot && a.name == name && a.skin == skin)
            else {
                warnings.push(format!(
                    "animation {clip_name}: deform of {slot}/{name} names an attachment that was not imported; skipped"
                ));
                continue;
            };
            if !matches!(
                mesh.kind,
                AttachmentKind::Mesh { .. } | AttachmentKind::Path { .. } | AttachmentKind::Clipping { .. }
            ) {
                warnings.push(format!(
                    "animation {clip_name}: deform of {slot}/{name}, which has no vertices (not a mesh, path or clipping); skipped"
                ));
                continue;
            }
            let list = keys.as_array().map(Vec::as_slice).unwrap_or_default();
            let time = |k: &Json| f(k.get("time"), 0.0);
            let mut keys: Vec<DeformKey> = list
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    let offset = k.get("offset").and_then(Json::as_u64).unwrap_or(0) as u32;
                    // y-down: every y offset mirrored (odd float indices).
                    let vertices = k
                        .get("vertices")
                        .and_then(Json::as_array)
                        .map(|v| {
                            v.iter()
                                .enumerate()
                                .map(|(j, x)| {
                                    let x = x.as_f64().unwrap_or(0.0) as f32;
                                    if (offset as usize + j) % 2 == 1 { -x } else { x }
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    let curve = match list.get(i + 1) {
                        Some(n) => curve(k, 0, time(k), 0.0, time(n), 1.0, &|v| v),
                        None => Curve::Linear,
                    };
                    DeformKey { time: time(k), offset, vertices, curve }
                })
                .collect();
            // Before its first key Spine shows the setup vertices.
            if keys.first().is_some_and(|k| k.time > 0.0) {
                keys.insert(
                    0,
                    DeformKey { time: 0.0, offset: 0, vertices: Vec::new(), curve: Curve::Stepped },
                );
            }
            if let Some(k) = keys.last() {
                end = end.max(k.time);
            }
            clip.deform.push(DeformTimeline { slot, attachment: name, skin, keys });
        }
        // Transform and path constraint timelines: one single-channel timeline per value (each
        // has its own curve), a stepped setup key before a first key after 0.
        for (name, keys) in anim.get("transform").and_then(Json::as_object).cloned().unwrap_or_default() {
            let Some(c) = transform.iter().find(|c| c.name == name) else {
                warnings.push(format!(
                    "animation {clip_name}: no transform constraint {name}; its timeline is skipped"
                ));
                continue;
            };
            let setup = [c.mix_rotate, c.mix_x, c.mix_y, c.mix_scale_x, c.mix_scale_y, c.mix_shear_y];
            let raw = |k: &Json, ch: usize| {
                let g = |key: &str, d: f32| f(k.get(key), d);
                match ch {
                    0 => g("mixRotate", 1.0),
                    1 => g("mixX", 1.0),
                    2 => g("mixY", g("mixX", 1.0)),
                    3 => g("mixScaleX", 1.0),
                    4 => g("mixScaleY", g("mixScaleX", 1.0)),
                    _ => g("mixShearY", 1.0),
                }
            };
            let mut channels =
                channel_timeline(&keys, 6, &raw, &|_, v| v, &|ch| setup[ch]).into_channels().into_iter();
            let mut next = || channels.next().unwrap_or_default();
            let t = TransformTimelines {
                mix_rotate: next(),
                mix_x: next(),
                mix_y: next(),
                mix_scale_x: next(),
                mix_scale_y: next(),
                mix_shear_y: next(),
            };
            for (_, list) in t.all() {
                end = end.max(last_time(list));
            }
            clip.transform.insert(name, t);
        }
        for (name, timelines) in anim.get("path").and_then(Json::as_object).cloned().unwrap_or_default() {
            let Some(c) = path.iter().find(|c| c.name == name) else {
                warnings.push(format!(
                    "animation {clip_name}: no path constraint {name}; its timelines are skipped"
                ));
                continue;
            };
            let mut t = PathTimelines::default();
            for (kind, keys) in timelines.as_object().cloned().unwrap_or_default() {
                match kind.as_str() {
                    "position" | "spacing" => {
                        let setup = if kind == "position" { c.position } else { c.spacing };
                        let raw = |k: &Json, _: usize| f(k.get("value"), 0.0);
                        let keys = single(channel_timeline(&keys, 1, &raw, &|_, v| v, &|_| setup));
                        end = end.max(last_time(&keys));
                        if kind == "position" { t.position = keys } else { t.spacing = keys }
                    }
                    "mix" => {
                        let setup = [c.mix_rotate, c.mix_x, c.mix_y];
                        let raw = |k: &Json, ch: usize| match ch {
                            0 => f(k.get("mixRotate"), 1.0),
                            1 => f(k.get("mixX"), 1.0),
                            _ => f(k.get("mixY"), f(k.get("mixX"), 1.0)),
                        };
                        let mut channels =
                            channel_timeline(&keys, 3, &raw, &|_, v| v, &|ch| setup[ch]).into_channels().into_iter();
                        let mut next = || channels.next().unwrap_or_default();
                        (t.mix_rotate, t.mix_x, t.mix_y) = (next(), next(), next());
                        for list in [&t.mix_rotate, &t.mix_x, &t.mix_y] {
                            end = end.max(last_time(list));
                        }
                    }
                    other => warnings.push(format!(
                        "animation {clip_name}: the {other} timeline of path constraint {name} is not supported; skipped"
                    )),
                }
            }
            clip.path.insert(name, t);
        }
        if anim.get("physics").is_some() {
            warnings.push(format!("animation {clip_name}: physics timelines are not supported; skipped"));
        }
        // Spine animations last until their last key.
        clip.duration = if end > 0.0 { end } else { 1.0 / 30.0 };
        clips.insert(clip_name, clip);
    }
    Ok(Imported {
        data: Skeleton2DData {
            texture: None,
            atlas,
            bones,
            slots,
            attachments,
            ik,
            transform,
            path,
            skins: skin_lists,
            events,
            clips,
        },
        warnings,
    })
}

/// Spine's draw-order key: slots listed with an offset move by it; the others keep their order.
fn draw_order(slots: &[SlotData], offsets: Option<&Json>) -> Vec<String> {
    let n = slots.len();
    let mut order: Vec<Option<usize>> = vec![None; n];
    let mut unchanged = Vec::new();
    let mut original = 0;
    for o in offsets.and_then(Json::as_array).cloned().unwrap_or_default() {
        let Some(index) =
            o.get("slot").and_then(Json::as_str).and_then(|s| slots.iter().position(|x| x.name == s))
        else {
            continue;
        };
        while original < index {
            unchanged.push(original);
            original += 1;
        }
        let target = (index as i64 + o.get("offset").and_then(Json::as_i64).unwrap_or(0))
            .clamp(0, n as i64 - 1) as usize;
        order[target] = Some(index);
        original += 1;
    }
    while original < n {
        unchanged.push(original);
        original += 1;
    }
    let mut rest = unchanged.into_iter();
    order.into_iter().map(|slot| slots[slot.or_else(|| rest.next()).unwrap_or(0)].name.clone()).collect()
}

/// Stores one colour channel's single-value keys (channels as in [`SlotTimelines::colors`]).
fn set_color_channel(t: &mut SlotTimelines, channel: usize, keys: Vec<Key>) {
    *match channel {
        0 => &mut t.red,
        1 => &mut t.green,
        2 => &mut t.blue,
        3 => &mut t.alpha,
        4 => &mut t.dark_red,
        5 => &mut t.dark_green,
        _ => &mut t.dark_blue,
    } = keys;
}

/// A Spine attachment as `.mskel`'s, or the type it has when it is not imported
/// (`boundingbox`, `point`).
fn attachment(
    a: &Json,
    name: &str,
    bones: &[&str],
    atlas: Option<&AtlasData>,
    at: &str,
    warnings: &mut Vec<String>,
) -> Result<AttachmentKind, &'static str> {
    let kind = a.get("type").and_then(Json::as_str).unwrap_or("region");
    // The atlas region: `path`, else the attachment's `name`, else its key; a sequence shows
    // its setup frame.
    let path = match a.get("sequence") {
        Some(seq) => {
            let setup = seq.get("setup").and_then(Json::as_u64).unwrap_or(0);
            sequence_frame(a, name, seq, setup)
        }
        None => region_path(a, name).to_string(),
    };
    let draws = matches!(kind, "region" | "mesh" | "linkedmesh");
    let region = atlas.filter(|_| draws).map(|atlas| {
        if !atlas.regions.iter().any(|r| r.name == path) {
            warnings.push(format!("{at}: the atlas has no region \"{path}\"; drawn flat"));
            return None;
        }
        Some(RegionRef::Named(path.clone()))
    });
    let region = region.flatten();
    let numbers = |key: &str| -> Vec<f32> {
        a.get(key)
            .and_then(Json::as_array)
            .map(|v| v.iter().map(|x| x.as_f64().unwrap_or(0.0) as f32).collect())
            .unwrap_or_default()
    };
    // Paths and clipping polygons: `vertexCount` vertices, unweighted or weighted.
    let counted_vertices = || {
        let count = a.get("vertexCount").and_then(Json::as_u64).unwrap_or(0) as usize;
        spine_vertices(&numbers("vertices"), count.min(u16::MAX as usize), bones)
    };
    match kind {
        "region" => Ok(AttachmentKind::Region {
            x: f(a.get("x"), 0.0),
            y: -f(a.get("y"), 0.0),
            rotation: -f(a.get("rotation"), 0.0),
            // Spine scales the region in its own frame before rotating it, which is the quad's
            // size here (a negative scale mirrors it).
            width: f(a.get("width"), 32.0) * f(a.get("scaleX"), 1.0),
            height: f(a.get("height"), 32.0) * f(a.get("scaleY"), 1.0),
            region,
        }),
        "mesh" => {
            let uvs: Vec<[f32; 2]> = numbers("uvs").chunks_exact(2).map(|c| [c[0], c[1]]).collect();
            let raw = numbers("vertices");
            let triangles: Vec<[u16; 3]> = numbers("triangles")
                .chunks_exact(3)
                .map(|c| [c[0] as u16, c[1] as u16, c[2] as u16])
                .collect();
            // Spine writes edges as float indices (vertex index x 2).
            let edges: Vec<[u16; 2]> = numbers("edges")
                .chunks_exact(2)
                .map(|c| [(c[0] / 2.0) as u16, (c[1] / 2.0) as u16])
                .collect();
            let (vertices, weights) = spine_vertices(&raw, uvs.len(), bones);
            Ok(AttachmentKind::Mesh {
                vertices,
                weights,
                uvs,
                triangles,
                hull: a.get("hull").and_then(Json::as_u64).unwrap_or(0) as u32,
                edges,
                region,
            })
        }
        "linkedmesh" => Ok(AttachmentKind::LinkedMesh {
            parent: a.get("parent").and_then(Json::as_str).unwrap_or("").to_string(),
            parent_skin: a.get("skin").and_then(Json::as_str).filter(|s| *s != "default").map(str::to_string),
            // 4.0+ `timelines`, 3.x `deform`.
            deform: a.get("timelines").or_else(|| a.get("deform")).and_then(Json::as_bool).unwrap_or(true),
            region,
        }),
        "boundingbox" => Err("boundingbox"),
        "point" => Err("point"),
        "path" => {
            let (vertices, weights) = counted_vertices();
            Ok(AttachmentKind::Path {
                vertices,
                weights,
                closed: a.get("closed").and_then(Json::as_bool).unwrap_or(false),
                constant_speed: a.get("constantSpeed").and_then(Json::as_bool).unwrap_or(true),
                lengths: numbers("lengths"),
            })
        }
        "clipping" => {
            let (vertices, weights) = counted_vertices();
            Ok(AttachmentKind::Clipping {
                vertices,
                weights,
                end: a.get("end").and_then(Json::as_str).map(str::to_string),
            })
        }
        _ => Err("unknown"),
    }
}

/// Most frames a sequence may have (Spine's editor stops far below).
const MAX_FRAMES: u64 = MAX_SEQUENCE_FRAMES as u64;

/// The atlas region an attachment names: `path`, else its `name`, else its key.
fn region_path<'a>(a: &'a Json, key: &'a str) -> &'a str {
    a.get("path").or_else(|| a.get("name")).and_then(Json::as_str).unwrap_or(key)
}

/// Frame `i`'s region of a sequence (Spine's `Sequence.getPath`): the region path + `start + i`,
/// zero-padded to `digits` (at most 32, so a hostile file cannot ask for a huge name).
fn sequence_frame(a: &Json, key: &str, seq: &Json, i: u64) -> String {
    let start = seq.get("start").and_then(Json::as_u64).unwrap_or(1);
    let digits = (seq.get("digits").and_then(Json::as_u64).unwrap_or(0) as usize).min(32);
    format!("{}{:0digits$}", region_path(a, key), start.saturating_add(i))
}

/// A region's or mesh's `sequence`: frame `i` is the atlas region `path` + `start + i`,
/// zero-padded to `digits` (Spine's `Sequence.getPath`). Without an atlas, or with a frame the
/// atlas lacks, the setup frame alone is shown (with a warning for a missing frame).
fn sequence(
    a: &Json,
    name: &str,
    atlas: Option<&AtlasData>,
    at: &str,
    warnings: &mut Vec<String>,
) -> Option<SequenceData> {
    let seq = a.get("sequence")?;
    let kind = a.get("type").and_then(Json::as_str).unwrap_or("region");
    if !matches!(kind, "region" | "mesh" | "linkedmesh") {
        return None;
    }
    let count = seq.get("count").and_then(Json::as_u64).unwrap_or(0);
    if count == 0 || count > MAX_FRAMES {
        warnings.push(format!(
            "{at}: a sequence of {count} frames (1 to {MAX_FRAMES}); its setup frame alone is shown"
        ));
        return None;
    }
    let setup = seq.get("setup").and_then(Json::as_u64).unwrap_or(0).min(count - 1) as u32;
    let atlas = atlas?;
    let mut frames = Vec::with_capacity(count as usize);
    for i in 0..count {
        let frame = sequence_frame(a, name, seq, i);
        if !atlas.regions.iter().any(|r| r.name == frame) {
            warnings.push(format!(
                "{at}: the atlas has no region \"{frame}\" (frame {i} of its sequence); its setup frame alone is shown"
            ));
            return None;
        }
        frames.push(RegionRef::Named(frame));
    }
    Some(SequenceData { frames, setup })
}

/// A Spine vertex list of `count` vertices (mesh or path) in `.mskel` form, y mirrored:
/// unweighted `x, y` pairs, or weighted as per vertex `n, (bone, x, y, weight) x n`.
fn spine_vertices(
    raw: &[f32],
    count: usize,
    bones: &[&str],
) -> (Vec<[f32; 2]>, Vec<Vec<crate::data::Influence>>) {
    if raw.len() == 2 * count {
        return (raw.chunks_exact(2).map(|c| [c[0], -c[1]]).collect(), Vec::new());
    }
    let mut weights = Vec::new();
    let mut i = 0;
    while i < raw.len() && weights.len() < count {
        let n = raw[i] as usize;
        i += 1;
        let mut list = Vec::with_capacity(n.min(64));
        for _ in 0..n {
            let Some(v) = raw.get(i..i + 4) else { break };
            let bone = bones.get(v[0] as usize).copied().unwrap_or("");
            list.push((bone.to_string(), v[1], -v[2], v[3]));
            i += 4;
        }
        weights.push(list);
    }
    (Vec::new(), weights)
}

/// Reads a Spine texture atlas (`.atlas`, the 4.x format and the older `xy` / `size` / `orig`
/// / `offset` one). Pages are separated by blank lines; a page's first line is its image.
pub fn parse_atlas(text: &str) -> Result<AtlasData, String> {
    let mut atlas = AtlasData::default();
    let mut in_page = false;
    let mut region: Option<AtlasRegion> = None;
    let ints = |v: &str, line: usize, want: usize| -> Result<Vec<f32>, String> {
        let parts: Vec<f32> = v
            .split(',')
            .map(|p| {
                p.trim().parse::<f32>().map_err(|_| format!("line {line}: \"{}\" is not a number", p.trim()))
            })
            .collect::<Result<_, _>>()?;
        if parts.len() < want || parts.iter().any(|x| !x.is_finite()) {
            return Err(format!("line {line}: expected {want} numbers, found \"{v}\""));
        }
        Ok(parts)
    };
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            if let Some(r) = region.take() {
                atlas.regions.push(r);
            }
            in_page = false;
            continue;
        }
        match line.split_once(':') {
            None if !in_page => {
                if let Some(r) = region.take() {
                    atlas.regions.push(r);
                }
                if atlas.pages.len() >= u16::MAX as usize {
                    return Err(format!("line {line_no}: more than {} pages", u16::MAX));
                }
                atlas.pages.push(AtlasPage { image: line.to_string(), width: 0, height: 0, pma: false });
                in_page = true;
            }
            None => {
                if let Some(r) = region.take() {
                    atlas.regions.push(r);
                }
                region = Some(AtlasRegion {
                    name: line.to_string(),
                    page: (atlas.pages.len() - 1) as u16,
                    x: 0.0,
                    y: 0.0,
                    width: 0.0,
                    height: 0.0,
                    rotate: 0.0,
                    offset_x: 0.0,
                    offset_y: 0.0,
                    original_width: 0.0,
                    original_height: 0.0,
                });
            }
            Some((key, value)) => {
                let (key, value) = (key.trim(), value.trim());
                match region.as_mut() {
                    None => {
                        let Some(page) = atlas.pages.last_mut() else {
                            return Err(format!("line {line_no}: \"{key}\" before any page"));
                        };
                        match key {
                            "size" => {
                                let v = ints(value, line_no, 2)?;
                                (page.width, page.height) = (v[0].max(0.0) as u32, v[1].max(0.0) as u32);
                            }
                            "pma" => page.pma = value == "true",
                            _ => {}
                        }
                    }
                    Some(r) => match key {
                        "bounds" => {
                            let v = ints(value, line_no, 4)?;
                            (r.x, r.y, r.width, r.height) = (v[0], v[1], v[2], v[3]);
                        }
                        "xy" => {
                            let v = ints(value, line_no, 2)?;
                            (r.x, r.y) = (v[0], v[1]);
                        }
                        "size" => {
                            let v = ints(value, line_no, 2)?;
                            (r.width, r.height) = (v[0], v[1]);
                        }
                        "offsets" => {
                            let v = ints(value, line_no, 4)?;
                            (r.offset_x, r.offset_y, r.original_width, r.original_height) =
                                (v[0], v[1], v[2], v[3]);
                        }
                        "offset" => {
                            let v = ints(value, line_no, 2)?;
                            (r.offset_x, r.offset_y) = (v[0], v[1]);
                        }
                        "orig" => {
                            let v = ints(value, line_no, 2)?;
                            (r.original_width, r.original_height) = (v[0], v[1]);
                        }
                        "rotate" => {
                            r.rotate = match value {
                                "true" => 90.0,
                                "false" => 0.0,
                                v => ints(v, line_no, 1)?[0],
                            }
                        }
                        _ => {}
                    },
                }
            }
        }
        if atlas.regions.len() >= u16::MAX as usize {
            return Err(format!("line {line_no}: more than {} regions", u16::MAX));
        }
    }
    if let Some(r) = region.take() {
        atlas.regions.push(r);
    }
    for (p, page) in atlas.pages.iter().enumerate() {
        if page.width == 0 || page.height == 0 {
            return Err(format!(
                "page {p} ({}) has no size; export the atlas with Spine 3.8 or later",
                page.image
            ));
        }
    }
    Ok(atlas)
}

/// The atlas Spine exports beside a JSON file: `NAME.atlas`, else `NAME` without its `-pro` /
/// `-ess` suffix, else the only `.atlas` in the folder (straight alpha preferred over `-pma`).
pub fn find_atlas(json: &std::path::Path) -> Option<std::path::PathBuf> {
    let folder = json.parent().unwrap_or(std::path::Path::new("."));
    let stem = json.file_stem()?.to_str()?;
    let base = stem.strip_suffix("-pro").or_else(|| stem.strip_suffix("-ess")).unwrap_or(stem);
    for candidate in [stem.to_string(), base.to_string(), format!("{base}-pma")] {
        let path = folder.join(format!("{candidate}.atlas"));
        if path.is_file() {
            return Some(path);
        }
    }
    let mut all: Vec<std::path::PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "atlas") && p.is_file())
        .collect();
    all.sort();
    let straight: Vec<_> = all.iter().filter(|p| !p.to_string_lossy().contains("-pma")).cloned().collect();
    match (straight.len(), all.len()) {
        (1, _) => straight.into_iter().next(),
        (0, 1) => all.into_iter().next(),
        _ => None,
    }
}
