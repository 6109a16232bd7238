//! Importing Spine JSON 4.0 to 4.2 (the subset a graph-driven character needs).
//!
//! Read: bones, slots (colour), region attachments of the default skin, IK constraints (in their
//! `order`), events, and animations with rotate / translate / scale / shear (and 4.1+'s single
//! channels translatex ... sheary) / attachment / rgba / drawOrder / event / IK timelines,
//! linear, stepped or bezier. Anything else (meshes, other skins, paths, transform constraints,
//! ...) is listed in the warnings.
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
    AttachmentData, AttachmentKind, BoneData, BoneTimelines, ClipData, Curve, IkData, IkKey, Inherit, Key,
    Skeleton2DData, SlotData, SlotTimelines,
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
fn curve(key: &Json, channel: usize, t0: f32, v0: f32, t1: f32, v1: f32) -> Curve {
    match key.get("curve") {
        Some(Json::String(s)) if s == "stepped" => Curve::Stepped,
        Some(Json::Array(points)) if points.len() >= 4 * (channel + 1) => {
            let p: Vec<f32> =
                points.iter().skip(4 * channel).take(4).map(|x| x.as_f64().unwrap_or(0.0) as f32).collect();
            let dt = t1 - t0;
            let dv = v1 - v0;
            let nx = |x: f32| if dt > 0.0 { ((x - t0) / dt).clamp(0.0, 1.0) } else { 0.0 };
            let ny = |y: f32, fallback: f32| if dv.abs() > 1e-9 { (y - v0) / dv } else { fallback };
            Curve::SpineBezier([nx(p[0]), ny(p[1], 0.0), nx(p[2]), ny(p[3], 1.0)])
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
                Some(next) => curve(k, c, time(k), raw(k, c), time(next), raw(next, c)),
                None => Curve::Linear,
            };
            keys.push((time(k), absolute(c, raw(k, c)), curve));
        }
        if keys.first().is_some_and(|k| k.0 > 0.0) {
            keys.insert(0, (0.0, setup(c), Curve::Stepped));
        }
    }
    let same_curves = (1..n).all(|c| channels[c].iter().zip(&channels[0]).all(|(a, b)| a.2 == b.2));
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
        })
        .collect();
    let mut attachments = Vec::new();
    for skin in root.get("skins").and_then(Json::as_array).cloned().unwrap_or_default() {
        let skin_name = skin.get("name").and_then(Json::as_str).unwrap_or("default");
        if skin_name != "default" {
            warnings.push(format!("skin {skin_name}: only the default skin is imported"));
            continue;
        }
        let Some(by_slot) = skin.get("attachments").and_then(Json::as_object) else { continue };
        for (slot, list) in by_slot {
            for (name, a) in list.as_object().cloned().unwrap_or_default() {
                let kind = a.get("type").and_then(Json::as_str).unwrap_or("region");
                if kind != "region" {
                    warnings.push(format!("attachment {slot}/{name}: type {kind} is not supported; skipped"));
                    continue;
                }
                attachments.push(AttachmentData {
                    slot: slot.clone(),
                    name: name.clone(),
                    color: color(a.get("color")),
                    kind: AttachmentKind::Region {
                        x: f(a.get("x"), 0.0),
                        y: -f(a.get("y"), 0.0),
                        rotation: -f(a.get("rotation"), 0.0),
                        // Spine scales the region in its own frame before rotating it, which is
                        // the quad's size here (a negative scale mirrors it).
                        width: f(a.get("width"), 32.0) * f(a.get("scaleX"), 1.0),
                        height: f(a.get("height"), 32.0) * f(a.get("scaleY"), 1.0),
                        region: None,
                    },
                });
            }
        }
    }
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
        })
        .collect();
    // One warning per constraint not imported yet, naming it and the bones it would move.
    for kind in ["transform", "path", "physics"] {
        for c in root.get(kind).and_then(Json::as_array).into_iter().flatten() {
            let name = c.get("name").and_then(Json::as_str).unwrap_or("?");
            let bones: Vec<&str> = match c.get("bones") {
                Some(Json::Array(list)) => list.iter().filter_map(Json::as_str).collect(),
                _ => c.get("bone").and_then(Json::as_str).into_iter().collect(),
            };
            warnings.push(format!(
                "{kind} constraint {name} is not supported; skipped (its bones {} keep their animated pose)",
                bones.join(", ")
            ));
        }
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
                        timeline(&keys, &["x", "y"], &[0.0, 0.0], &|c, v| if c == 0 { s.x + v } else { s.y - v }),
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
                    "inherit" => warnings.push(format!(
                        "animation {clip_name}: the inherit timeline of {bone} is not supported; the bone keeps its setup inherit mode"
                    )),
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
                    "rgba" | "rgb" | "alpha" => {
                        let setup = slots.iter().find(|x| x.name == *slot).map_or([1.0; 4], |x| x.color);
                        let channels: &[usize] = match kind.as_str() {
                            "rgba" => &[0, 1, 2, 3],
                            "rgb" => &[0, 1, 2],
                            _ => &[3],
                        };
                        let raw = |k: &Json, n: usize| {
                            if kind == "alpha" {
                                f(k.get("value"), 0.0)
                            } else {
                                color(k.get("color"))[channels[n]]
                            }
                        };
                        let read =
                            channel_timeline(&keys, channels.len(), &raw, &|_, v| v, &|n| setup[channels[n]]);
                        match read {
                            // One timeline of four values.
                            Timeline::Joint(keys) if kind == "rgba" => t.color = keys,
                            other => {
                                for (&c, keys) in channels.iter().zip(other.into_channels()) {
                                    match c {
                                        0 => t.red = keys,
                                        1 => t.green = keys,
                                        2 => t.blue = keys,
                                        _ => t.alpha = keys,
                                    }
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
                            curve(k, 0, time(k), mix, time(n), f(n.get("mix"), 1.0)),
                            curve(k, 1, time(k), softness, time(n), f(n.get("softness"), 0.0)),
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
        for kind in ["transform", "path", "deform", "attachments", "physics"] {
            if anim.get(kind).is_some() {
                warnings.push(format!("animation {clip_name}: {kind} timelines are not supported; skipped"));
            }
        }
        // Spine animations last until their last key.
        clip.duration = if end > 0.0 { end } else { 1.0 / 30.0 };
        clips.insert(clip_name, clip);
    }
    Ok(Imported {
        data: Skeleton2DData { texture: None, bones, slots, attachments, ik, events, clips },
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
