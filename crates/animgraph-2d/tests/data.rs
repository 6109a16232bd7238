//! `.mskel` sampling, validation and import.

use animgraph_2d::data::{Curve, Key};
use animgraph_2d::skeleton::{bezier, sample_keys};
use animgraph_2d::{Skeleton2D, Skeleton2DData, SkeletonError, godot};

fn key(time: f32, value: f32, curve: Curve) -> Key {
    Key { time, values: [value, 0.0, 0.0, 0.0], arity: 1, curve }
}

#[test]
fn linear_keys_interpolate_and_clamp_at_the_ends() {
    let keys = [key(0.5, 10.0, Curve::Linear), key(1.5, 30.0, Curve::Linear)];
    assert_eq!(sample_keys(&keys, 0.0)[0], 10.0, "before the first key: its value");
    assert_eq!(sample_keys(&keys, 1.0)[0], 20.0);
    assert_eq!(sample_keys(&keys, 0.75)[0], 15.0);
    assert_eq!(sample_keys(&keys, 9.0)[0], 30.0, "after the last key: its value");
}

#[test]
fn stepped_keys_hold_until_the_next() {
    let keys = [key(0.0, 1.0, Curve::Stepped), key(1.0, 5.0, Curve::Linear)];
    assert_eq!(sample_keys(&keys, 0.999)[0], 1.0);
    assert_eq!(sample_keys(&keys, 1.0)[0], 5.0);
}

#[test]
fn bezier_keys_follow_the_curve() {
    // cubic-bezier(0, 0, 1, 1) is a straight line.
    assert!((bezier([0.0, 0.0, 1.0, 1.0], 0.3) - 0.3).abs() < 1e-4);
    // ease-in-out (0.42, 0, 0.58, 1) is symmetric: 0.5 at the middle, slow at the ends.
    let ease = [0.42, 0.0, 0.58, 1.0];
    assert!((bezier(ease, 0.5) - 0.5).abs() < 1e-4);
    assert!(bezier(ease, 0.1) < 0.1 && bezier(ease, 0.9) > 0.9);
    assert!((bezier(ease, 0.25) + bezier(ease, 0.75) - 1.0).abs() < 1e-4);
    // Hand-computed: for (0.25, 0.1, 0.25, 1) ("ease") at s = 0.5, x = 0.3125 and y = 0.5375.
    let e = [0.25, 0.1, 0.25, 1.0];
    assert!((bezier(e, 0.3125) - 0.5375).abs() < 1e-3, "{}", bezier(e, 0.3125));
    let keys = [key(0.0, 0.0, Curve::Bezier(ease)), key(2.0, 100.0, Curve::Linear)];
    assert!((sample_keys(&keys, 1.0)[0] - 50.0).abs() < 1e-2);
    assert!(sample_keys(&keys, 0.2)[0] < 10.0);
}

const MINIMAL: &str = r#"{
  "format": 2, "uid": "res_t", "type": "Skeleton2DData",
  "props": {
    "bones": [ { "name": "root" }, { "name": "arm", "parent": "root", "x": 10 } ],
    "slots": [ { "name": "body", "bone": "root" } ],
    "attachments": [],
    "clips": { "wave": { "duration": 1, "bones": { "arm": { "rotate": [[0, 0], [0.5, 90, "stepped"], [1, 0]] } } } }
  }
}"#;

fn issues(text: &str) -> Vec<String> {
    match Skeleton2DData::parse(text) {
        Ok(_) => Vec::new(),
        Err(SkeletonError::Invalid(list)) => {
            assert!(list.iter().all(|i| i.code == animgraph_runtime::Code::Skeleton && i.is_error()));
            list.iter().map(|i| format!("{}: {}", i.path, i.message)).collect()
        }
        Err(e) => vec![e.to_string()],
    }
}

fn edit(from: &str, to: &str) -> String {
    assert!(MINIMAL.contains(from), "test bug: {from}");
    MINIMAL.replacen(from, to, 1)
}

#[test]
fn minimal_file_loads_and_round_trips() {
    let data = Skeleton2DData::parse(MINIMAL).unwrap();
    let text = data.to_string_pretty("res_t");
    assert_eq!(Skeleton2DData::parse(&text).unwrap(), data);
    assert_eq!(Skeleton2DData::parse(&text).unwrap().to_string_pretty("res_t"), text);
}

#[test]
fn invalid_skeletons_name_the_place() {
    let cases = [
        (edit(r#""parent": "root""#, r#""parent": "rot""#), "bones[1].parent: no bone \"rot\""),
        (
            MINIMAL.replacen(
                r#"{ "name": "root" }, { "name": "arm", "parent": "root", "x": 10 }"#,
                r#"{ "name": "arm", "parent": "root" }, { "name": "root" }"#,
                1,
            ),
            "bones[0].parent: \"root\" comes after \"arm\"",
        ),
        (
            edit(r#"{ "name": "root" }"#, r#"{ "name": "root", "parent": "root" }"#),
            "bones[0].parent: \"root\" is the bone itself",
        ),
        (
            edit("[0.5, 90, \"stepped\"]", "[1.5, 90]"),
            "clips.wave.bones.arm.rotate[2]: time 1 comes before the previous key's 1.5",
        ),
        (
            edit(r#""arm": { "rotate""#, r#""leg": { "rotate""#),
            "clips.wave.bones.leg: no bone \"leg\" in the skeleton",
        ),
        (edit(r#""bone": "root""#, r#""bone": "spine""#), "slots[0].bone: no bone \"spine\""),
        (
            edit("[0, 0], [0.5", "[0, 0, 5], [0.5"),
            "clips.wave.bones.arm.rotate[0]: has 2 values; this timeline takes 1",
        ),
        (edit(r#""duration": 1"#, r#""duration": 0"#), "clips.wave.duration: is 0"),
        (edit(r#""format": 2"#, r#""format": 3"#), "format: format 3 is not supported"),
        (edit(r#""x": 10"#, r#""x": 1e40"#), "line 4, column 76: the number 1e40 is out of range"),
        (
            edit(
                r#""attachments": []"#,
                r#""attachments": [{ "slot": "body", "name": "c", "type": "clipping", "vertices": [[0, 0], [1, 0]] }]"#,
            ),
            "attachments[0]: has 2 vertices; a clipping polygon has at least 3",
        ),
        (
            edit(
                r#""attachments": []"#,
                r#""attachments": [{ "slot": "body", "name": "c", "type": "clipping", "vertices": [[0, 0], [1, 0], [0, 1]], "end": "legs" }]"#,
            ),
            "attachments[0].end: names slot \"legs\", which does not exist",
        ),
        (
            edit(
                r#""clips": { "wave": { "duration": 1, "#,
                r#""clips": { "wave": { "duration": 1, "slots": { "body": { "dark": [[0, 1, 0, 0]], "darkGreen": [[0, 1]] } }, "#,
            ),
            "clips.wave.slots.body.darkGreen: keys a colour channel dark keys too",
        ),
        (
            edit(
                r#""attachments": []"#,
                r#""attachments": [{ "slot": "body", "name": "f", "type": "region", "width": 1, "height": 1, "sequence": { "frames": [[0, 0, 1, 1]], "setup": 1 } }]"#,
            ),
            "attachments[0].sequence.setup: is frame 1, but there are 1 (they count from 0)",
        ),
        (
            edit(
                r#""attachments": []"#,
                r#""attachments": [{ "slot": "body", "name": "f", "type": "region", "width": 1, "height": 1, "sequence": { "frames": [] } }]"#,
            ),
            "attachments[0].sequence.frames: has 0 frames; give 1 to 4096",
        ),
        (
            edit(
                r#""attachments": []"#,
                r#""attachments": [{ "slot": "body", "name": "f", "type": "region", "width": 1, "height": 1, "sequence": { "frames": ["fire1"] } }]"#,
            ),
            "attachments[0].sequence.frames[0]: names region \"fire1\" but the skeleton has no atlas",
        ),
        (
            edit(
                r#""clips": { "wave": { "duration": 1, "#,
                r#""clips": { "wave": { "duration": 1, "sequence": [{ "slot": "body", "attachment": "nope", "keys": [{ "time": 0 }] }], "#,
            ),
            "clips.wave.sequence[0]: slot \"body\" has no attachment \"nope\" in skin default",
        ),
        (
            edit(
                r#""attachments": []"#,
                r#""attachments": [{ "slot": "body", "name": "f", "type": "region", "width": 1, "height": 1, "sequence": { "frames": [[0, 0, 1, 1]] } }]"#,
            )
            .replace(
                r#""clips": { "wave": { "duration": 1, "#,
                r#""clips": { "wave": { "duration": 1, "sequence": [{ "slot": "body", "attachment": "f", "keys": [{ "time": 0, "mode": "loop", "delay": -1 }] }], "#,
            ),
            "clips.wave.sequence[0].keys[0].delay: is negative or not finite",
        ),
        (
            edit(
                r#""arm": { "rotate""#,
                r#""arm": { "inherit": [[0.5, "noScale"], [0.2, "normal"]], "rotate""#,
            ),
            "clips.wave.bones.arm.inherit[1]: time out of order",
        ),
        (
            edit(r#""attachments": []"#, r#""attachments": [], "skins": [{ "name": "hat", "bones": ["hatbone"], "constraints": ["reach"] }]"#),
            "skins[0].bones[0]: no bone \"hatbone\"",
        ),
        (
            edit(r#""attachments": []"#, r#""attachments": [], "skins": [{ "name": "hat", "constraints": ["reach"] }]"#),
            "skins[0].constraints[0]: no IK, transform or path constraint \"reach\"",
        ),
    ];
    for (text, expected) in cases {
        let found = issues(&text);
        assert!(found.iter().any(|i| i.starts_with(expected)), "expected {expected:?}, got {found:?}");
    }
    let e = Skeleton2DData::parse("{ \"format\": 2, ").unwrap_err().to_string();
    assert!(e.starts_with("line 1, column"), "{e}");
    let e = Skeleton2DData::parse(&edit(r#""x": 10"#, r#""x": 10, "colour": 1"#)).unwrap_err().to_string();
    assert!(e.contains("unknown field `colour`"), "{e}");
    // A wrong type names its field.
    let e = Skeleton2DData::parse(&edit(r#""x": 10"#, r#""x": "ten""#)).unwrap_err().to_string();
    assert!(e.contains("bones[1].x: invalid type: string \"ten\""), "{e}");
}

fn gbot_scene() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot/player.tscn"))
        .unwrap()
}

#[test]
fn the_gbot_scene_imports_with_its_bones_and_clips() {
    let imported = godot::import_scene(&gbot_scene()).unwrap();
    let data = &imported.data;
    assert_eq!(data.bones.len(), 16);
    assert_eq!(data.bones[0].name, "Hip");
    assert_eq!(data.bones.iter().filter(|b| b.parent.is_none()).count(), 1);
    let clips: Vec<(&str, f32, bool)> =
        data.clips.iter().map(|(n, c)| (n.as_str(), c.duration, c.looping)).collect();
    assert_eq!(
        clips,
        [
            ("fall", 1.0, true),
            ("fly", 1.0, true),
            ("idle", 2.0, true),
            ("jump", 0.5, false),
            ("land", 0.2, false),
            ("land_hard", 0.5, false),
            ("run", 1.2, true),
            ("walk", 2.4, true),
        ]
    );
    assert_eq!(data.texture.as_deref(), Some("gBot.png"));
    // Seven Polygon2D parts, one weighted mesh each (Godot's skinning: normalised weights).
    assert_eq!(data.slots.len(), 7);
    assert!(data.slots.iter().any(|s| s.name == "Head" && s.bone == "Head"));
    let blended = data
        .attachments
        .iter()
        .filter_map(|a| match &a.kind {
            animgraph_2d::data::AttachmentKind::Mesh { weights, .. } => {
                Some(weights.iter().filter(|w| w.len() > 1).count())
            }
            _ => None,
        })
        .sum::<usize>();
    assert!(blended > 10, "{blended} vertices blend two bones or more");
    for a in &data.attachments {
        if let animgraph_2d::data::AttachmentKind::Mesh { weights, .. } = &a.kind {
            for w in weights {
                let total: f32 = w.iter().map(|i| i.3).sum();
                assert!((total - 1.0).abs() < 1e-5, "{}: weights sum to {total}", a.name);
            }
        }
    }
    // What was skipped is said, not silently dropped.
    assert!(imported.warnings.iter().any(|w| w.contains("AnimationTree")));
    assert!(imported.warnings.iter().any(|w| w.contains("CollisionShape2D")));
    // The imported data is valid and binds.
    Skeleton2D::new(imported.data).unwrap();
}

#[test]
fn godot_loop_wrap_is_reproduced_with_boundary_keys() {
    // fall keys times 0.5 and 1.0 on a 1.0 s loop: Godot interpolates 1.0 -> 0.5 across the loop.
    let imported = godot::import_scene(&gbot_scene()).unwrap();
    let fall = &imported.data.clips["fall"];
    let keys = &fall.bones["RightArm"].rotate;
    assert_eq!(keys.first().unwrap().time, 0.0);
    assert_eq!(keys.last().unwrap().time, 1.0);
    // Time 0 is time 1.0 of the loop: the added key holds the value keyed at 1.0.
    let at_end = keys.iter().rev().find(|k| k.time == 1.0).unwrap().values[0];
    assert_eq!(keys[0].values[0], at_end);
    // Keys at 0.25 (10) and 0.75 (30) on a 1 s loop: Godot goes 30 -> 10 over the 0.5 s across the
    // loop, so at 0 (0.25 s after 0.75) the value is 20, and at 1.0 it is 20 as well.
    let scene = r#"[sub_resource type="Animation" id="1"]
length = 1.0
loop_mode = 1
tracks/0/type = "value"
tracks/0/path = NodePath("S/B:rotation_degrees")
tracks/0/interp = 1
tracks/0/keys = { "times": PackedFloat32Array(0.25, 0.75), "transitions": PackedFloat32Array(1, 1), "update": 0, "values": [10.0, 30.0] }
[node name="S" type="Skeleton2D" parent="."]
[node name="B" type="Bone2D" parent="S"]
"#;
    let clip = &godot::import_scene(scene).unwrap().data.clips["animation_1"];
    let values: Vec<(f32, f32)> = clip.bones["B"].rotate.iter().map(|k| (k.time, k.values[0])).collect();
    assert_eq!(values, [(0.0, 20.0), (0.25, 10.0), (0.75, 30.0), (1.0, 20.0)]);
}

#[test]
fn bad_scenes_give_located_errors() {
    let e = godot::import_scene("[gd_scene format=3]\n[node name=\"A\" type=\"Node2D\"]\n").unwrap_err();
    assert!(e.to_string().contains("no Skeleton2D node"), "{e}");
    let e = godot::import_scene(
        "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node2D\"]\nposition = Vector2(1, \n",
    )
    .unwrap_err();
    assert_eq!(e.line, 5, "{e}");
    let deep = format!("[node name=\"A\" type=\"Skeleton2D\"]\nx = {}{}", "[".repeat(1000), "]".repeat(1000));
    assert!(godot::import_scene(&deep).unwrap_err().to_string().contains("nest more than 64"));
}

/// A 60,000-bone chain validates and builds in about 0.1 s (lookups were a scan per bone: 40,000 bones took
/// 9.7 s); more bones than u16 indexes is a located error, never a wrapped index.
#[test]
fn long_bone_chains_build_and_too_many_bones_are_refused() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot/gbot.mskel");
    let base = animgraph_2d::Skeleton2DData::load(path).unwrap();
    let chain = |count: usize| {
        let mut data = base.clone();
        let template = data.bones.last().unwrap().clone();
        let mut parent = template.name.clone();
        for i in 0..count {
            let mut b = template.clone();
            b.name = format!("chain{i}");
            b.parent = Some(parent.clone());
            parent = b.name.clone();
            data.bones.push(b);
        }
        data
    };
    let skeleton = animgraph_2d::Skeleton2D::new(chain(60_000)).unwrap();
    assert_eq!(skeleton.parents.len(), base.bones.len() + 60_000);
    assert_eq!(skeleton.parents.last().unwrap().map(usize::from), Some(base.bones.len() + 60_000 - 2));
    let issues = chain(70_000).validate();
    assert!(
        issues.iter().any(|i| i.to_string().contains("more than the 65535 allowed")),
        "{:?}",
        issues.iter().take(3).map(|i| i.to_string()).collect::<Vec<_>>()
    );
}

/// Godot 4.2+ writes typed collections, `Array[T]([...])` and `Dictionary[K, V]({...})`: they read
/// as the untyped ones (the scene used to fail with "expected '(' after Array").
#[test]
fn godot_typed_collections_read_as_untyped_ones() {
    let scene = r#"[gd_scene format=3]
[sub_resource type="Animation" id="1"]
length = 1.0
loop_mode = 1
tracks/0/type = "value"
tracks/0/path = NodePath("S/B:rotation_degrees")
tracks/0/interp = 1
tracks/0/keys = Dictionary[String, Variant]({ "times": PackedFloat32Array(0, 0.5), "transitions": PackedFloat32Array(1, 1), "update": 0, "values": Array[float]([10.0, 30.0]) })
[sub_resource type="AnimationLibrary" id="2"]
_data = Dictionary[StringName, Animation]({ &"idle": SubResource("1") })
[node name="S" type="Skeleton2D" parent="."]
metadata/points = Array[Vector2]([Vector2(1, 2), Vector2(3, 4)])
metadata/nested = Array[Array]([Array[int]([1, 2])])
[node name="B" type="Bone2D" parent="S"]
[node name="P" type="AnimationPlayer" parent="."]
libraries = { &"": SubResource("2") }
"#;
    let imported = godot::import_scene(scene).unwrap();
    let keys = &imported.data.clips["idle"].bones["B"].rotate;
    let values: Vec<(f32, f32)> = keys.iter().map(|k| (k.time, k.values[0])).collect();
    assert_eq!(&values[..2], [(0.0, 10.0), (0.5, 30.0)]);
    // The element types must close.
    let e = godot::import_scene("[node name=\"A\" type=\"Skeleton2D\"]\nx = Array[int\n").unwrap_err();
    assert!(e.to_string().contains("typed Array"), "{e}");
    // A bare word that is no constructor says what a value may be.
    let e = godot::import_scene("[node name=\"A\" type=\"Skeleton2D\"]\nx = tracks\n").unwrap_err();
    assert!(e.to_string().starts_with("line 2: expected '(' after tracks, found the end of the line"), "{e}");
}

/// Spine's curves are evaluated as Spine's runtimes do (10 straight segments), written with a
/// "spine" tag, and read back the same; they differ from the exact curve only slightly.
#[test]
fn spine_curves_round_trip_and_follow_spines_segments() {
    use animgraph_2d::skeleton::spine_bezier;
    let ease = [0.42, 0.0, 0.58, 1.0];
    // Spine's first inner point of this curve: forward differencing gives x = 0.03 + ..., and
    // the value between 0 and that point is a straight line from the origin.
    let (a, b) = (spine_bezier(ease, 0.001), spine_bezier(ease, 0.002));
    assert!((b - 2.0 * a).abs() < 1e-6, "linear near the start: {a} {b}");
    for u in [0.1f32, 0.3, 0.5, 0.7, 0.9] {
        let (s, e) = (spine_bezier(ease, u), bezier(ease, u));
        assert!((s - e).abs() < 0.01, "u {u}: spine {s} exact {e}");
    }
    assert_eq!(spine_bezier(ease, 0.0), 0.0);
    assert!((spine_bezier(ease, 1.0) - 1.0).abs() < 1e-6);
    let text = r#"{"format": 2, "uid": "res_c", "type": "Skeleton2DData", "props": {
        "bones": [{"name": "b"}],
        "clips": {"c": {"duration": 1, "bones": {"b": {"rotate": [[0, 0, ["spine", 0.42, 0, 0.58, 1]], [1, 90]],
            "translateY": [[0, 0, "stepped"], [0.5, 3]]}}}}}}"#;
    let data = Skeleton2DData::parse(text).unwrap();
    let b = &data.clips["c"].bones["b"];
    assert_eq!(b.rotate[0].curve, Curve::SpineBezier(ease));
    assert_eq!(b.translate_y.len(), 2);
    let again = Skeleton2DData::parse(&data.to_string_pretty("res_c")).unwrap();
    assert_eq!(again, data, "written and read back the same");
    // A channel keyed twice is refused with its place.
    let both = text.replace("\"translateY\"", "\"translate\": [[0, 1, 2]], \"translateY\"");
    let e = Skeleton2DData::parse(&both).unwrap_err().to_string();
    assert!(e.contains("clips.c.bones.b.translateY") && e.contains("keep one"), "{e}");
}

/// Godot 3 scenes (`format=2`) imported silently wrong as Godot 4 ones; they are refused with
/// what to do.
#[test]
fn godot_3_scenes_are_refused_with_how_to_convert_them() {
    let e =
        godot::import_scene("[gd_scene load_steps=2 format=2]\n\n[node name=\"S\" type=\"Skeleton2D\"]\n")
            .unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.to_string().contains("Godot 3 scene (format=2); open it in Godot 4"), "{e}");
    // Godot 4's format=3 is read (this one then lacks bones, which is another message).
    let four = godot::import_scene("[gd_scene format=3]\n[node name=\"S\" type=\"Skeleton2D\"]\n");
    assert!(four.is_ok() || !four.unwrap_err().to_string().contains("Godot 3"));
    assert!(godot::import_scene(&gbot_scene()).is_ok(), "GBot is format=3");
}

/// A colour channel keyed by `color` and by its own timeline is refused with its place.
#[test]
fn a_colour_channel_keyed_twice_is_a_located_error() {
    let text = r#"{"format": 2, "uid": "res_c", "type": "Skeleton2DData", "props": {
        "bones": [{"name": "b"}], "slots": [{"name": "s", "bone": "b"}],
        "clips": {"c": {"duration": 1, "slots": {"s": {"color": [[0, 1, 1, 1, 1]], "alpha": [[0, 0.5]], "red": [[0, 0.2]]}}}}}}"#;
    let e = Skeleton2DData::parse(text).unwrap_err().to_string();
    assert!(e.contains("clips.c.slots.s.red") && e.contains("keep one"), "{e}");
    assert!(e.contains("clips.c.slots.s.alpha"), "{e}");
    let apart = text.replace(r#""color": [[0, 1, 1, 1, 1]], "#, "");
    let data = Skeleton2DData::parse(&apart).unwrap();
    assert_eq!(data.clips["c"].slots["s"].alpha.len(), 1);
}

/// A Spine curve that swings on a flat segment reads and writes as `["spineOffset", ...]`.
#[test]
fn spine_offset_curves_round_trip() {
    use animgraph_2d::data::{Curve, Key};
    let json: Vec<serde_json::Value> =
        serde_json::from_str(r#"[0.5, 18.5, ["spineOffset", 0.25, -1.5, 0.75, 2.0]]"#).unwrap();
    let key = Key::try_from(json.clone()).unwrap();
    assert_eq!(key.curve, Curve::SpineOffset([0.25, -1.5, 0.75, 2.0]));
    let back: Vec<serde_json::Value> = key.into();
    assert_eq!(back, json);
    // Between two equal values it swings: -1.5 then +2 pulls the value below and then above.
    let keys = [key, Key { time: 1.5, values: [18.5, 0.0, 0.0, 0.0], arity: 1, curve: Curve::Linear }];
    let early = animgraph_2d::skeleton::sample_keys(&keys, 0.7)[0];
    let late = animgraph_2d::skeleton::sample_keys(&keys, 1.35)[0];
    assert!(early < 18.5 && late > 18.5, "{early} {late}");
    assert_eq!(animgraph_2d::skeleton::sample_keys(&keys, 1.5)[0], 18.5);
}
