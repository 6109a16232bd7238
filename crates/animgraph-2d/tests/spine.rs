//! Spine JSON 4.x import, on a hand-written file that uses every supported timeline.

use animgraph_2d::Skeleton2D;
use animgraph_2d::data::{AttachmentKind, Curve};
use animgraph_2d::spine::import_spine;

fn hero() -> animgraph_2d::godot::Imported {
    import_spine(include_str!("spine/hero-4.1.json")).unwrap()
}

#[test]
fn bones_are_mirrored_into_y_down_space() {
    let data = hero().data;
    let hip = &data.bones[1];
    assert_eq!((hip.x, hip.y, hip.rotation, hip.length), (0.0, -50.0, -90.0, 20.0));
    let arm = &data.bones[2];
    assert_eq!((arm.rotation, arm.shear_x), (30.0, -5.0));
    assert_eq!(data.bones[2].parent.as_deref(), Some("hip"));
}

#[test]
fn timelines_become_absolute_mirrored_keys() {
    let data = hero().data;
    let walk = &data.clips["walk"];
    assert_eq!(walk.duration, 2.0, "the last key's time");
    let hip = &walk.bones["hip"];
    // Relative 10 on a setup of 90 is 100 in Spine, -100 mirrored.
    let rotations: Vec<f32> = hip.rotate.iter().map(|k| k.values[0]).collect();
    assert_eq!(rotations, [-100.0, -80.0, -100.0]);
    // Spine's absolute bezier (0.25, 10) (0.75, -10) on 0 s..1 s, 10..-10 becomes normalised.
    assert_eq!(hip.rotate[0].curve, Curve::SpineBezier([0.25, 0.0, 0.75, 1.0]));
    assert_eq!(hip.rotate[1].curve, Curve::Linear);
    assert_eq!(&hip.translate[0].values[..2], &[5.0, -53.0]);
    assert_eq!(hip.translate[0].curve, Curve::Stepped);
    assert_eq!(&hip.scale[0].values[..2], &[2.0, 1.0], "scale multiplies the setup");
    assert_eq!(&hip.shear[0].values[..2], &[-10.0, 0.0]);
    let body = &walk.slots["body"];
    assert_eq!(body.attachment, [(0.5, Some("body-hurt".to_string())), (1.5, None)]);
    let half = 128.0 / 255.0;
    assert_eq!(body.color[1].values, [1.0, 0.0, 0.0, half]);
    // body moves up two places at 1 s.
    assert_eq!(walk.draw_order, [(1.0, vec!["sleeve".to_string(), "glove".to_string(), "body".to_string()])]);
    assert_eq!(walk.events, [(0.25, "step".to_string()), (1.25, "step".to_string())]);
    // Mirroring flips IK bend directions.
    let ik: Vec<(f32, f32, bool)> =
        walk.ik["reach"].iter().map(|k| (k.time, k.mix, k.bend_positive)).collect();
    assert_eq!(ik, [(0.0, 1.0, false), (1.0, 0.0, true)], "omitted bendPositive is true in Spine");
}

#[test]
fn attachments_slots_and_constraints_import() {
    let imported = hero();
    let data = &imported.data;
    assert_eq!(data.slots[1].color, [1.0, 128.0 / 255.0, 0.0, 192.0 / 255.0]);
    let body = data.attachments.iter().find(|a| a.name == "body").unwrap();
    assert_eq!(
        body.kind,
        AttachmentKind::Region { x: 1.0, y: -2.0, rotation: -10.0, width: 40.0, height: 80.0, region: None }
    );
    assert_eq!(data.ik[0].bones, ["arm", "hand"]);
    assert!(data.ik[0].bend_positive, "bendPositive false in y-up is true in y-down");
    assert_eq!(data.events, ["step", "shout"], "file order");
    // What was skipped is said.
    let warnings = imported.warnings.join("\n");
    assert!(!warnings.contains("mesh"), "meshes are imported: {warnings}");
    let glove = data.attachments.iter().find(|a| a.name == "glove-mesh").unwrap();
    assert!(matches!(glove.kind, AttachmentKind::Mesh { .. }));
    assert_eq!(data.slots[2].attachment.as_deref(), Some("glove-mesh"));
    // It binds as a skeleton.
    Skeleton2D::new(imported.data).unwrap();
}

#[test]
fn other_spine_versions_are_refused_by_name() {
    let text = include_str!("spine/hero-4.1.json").replace("4.1.24", "3.8.99");
    let e = import_spine(&text).unwrap_err().to_string();
    assert!(e.contains("Spine 3.8.99 is not supported; export JSON from Spine 4.0, 4.1 or 4.2"), "{e}");
    for ok in ["4.0.64", "4.2.10"] {
        import_spine(&include_str!("spine/hero-4.1.json").replace("4.1.24", ok)).unwrap();
    }
    assert!(import_spine("{}").unwrap_err().to_string().contains("no version"));
    assert!(import_spine("[").unwrap_err().to_string().contains("malformed JSON"));
}

/// Physics constraints (not simulated) are one warning each, naming the constraint and its
/// bone; transform and path constraints import; the rest of the file imports.
#[test]
fn physics_constraints_are_one_named_warning_each() {
    let text = r#"{"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}, {"name": "a", "parent": "root"}],
        "slots": [{"name": "s", "bone": "root"}],
        "transform": [{"name": "follow", "bones": ["a"], "target": "root"}, {"name": "mirror", "bones": ["a"], "target": "root"}],
        "path": [{"name": "spline", "bones": ["a"], "target": "s", "rotateMode": "chainScale", "spacingMode": "proportional"}],
        "physics": [{"name": "hair", "bone": "a"}, {"name": "tail", "bone": "root"}],
        "animations": {"idle": {"bones": {"a": {"rotate": [{"value": 0}, {"time": 1, "value": 10}]}}}}}"#;
    let imported = import_spine(text).unwrap();
    let named: Vec<&String> = imported.warnings.iter().filter(|w| w.contains("constraint")).collect();
    assert_eq!(named.len(), 2, "{named:?}");
    assert!(
        named[0].starts_with("physics constraint hair is not supported") && named[0].contains("bone a"),
        "{}",
        named[0]
    );
    assert!(named[1].starts_with("physics constraint tail is not supported"), "{}", named[1]);
    let transforms: Vec<&str> = imported.data.transform.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(transforms, ["follow", "mirror"]);
    let path = &imported.data.path[0];
    assert_eq!((path.name.as_str(), path.target.as_str()), ("spline", "s"));
    assert_eq!(path.rotate_mode, animgraph_2d::data::RotateMode::ChainScale);
    assert_eq!(path.spacing_mode, animgraph_2d::data::SpacingMode::Proportional);
    assert!(imported.data.clips.contains_key("idle"));
}

/// A transform-constraint timeline keys six mixes at once (more than a `.mskel` key holds):
/// it imports as six one-value timelines, whether the curves agree or not, with Spine's
/// defaults (mixY from mixX, mixScaleY from mixScaleX) filled in per key.
#[test]
fn six_mix_transform_timelines_split_into_one_value_channels() {
    let text = r#"{"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}, {"name": "a", "parent": "root"}],
        "transform": [{"name": "follow", "bones": ["a"], "target": "root"}],
        "animations": {"idle": {"transform": {"follow": [
            {"mixRotate": 0.25, "mixX": 0.5, "mixScaleX": 0.75, "mixShearY": 0.1},
            {"time": 1, "mixRotate": 1, "mixX": 0, "mixY": 1, "mixScaleX": 0, "mixScaleY": 1, "mixShearY": 1}
        ]}}}}"#;
    let imported = import_spine(text).unwrap();
    let t = &imported.data.clips["idle"].transform["follow"];
    let firsts = |keys: &[animgraph_2d::data::Key]| (keys.len(), keys[0].values[0], keys[1].values[0]);
    assert_eq!(firsts(&t.mix_rotate), (2, 0.25, 1.0));
    assert_eq!(firsts(&t.mix_x), (2, 0.5, 0.0));
    assert_eq!(firsts(&t.mix_y), (2, 0.5, 1.0), "mixY defaults to mixX on the first key");
    assert_eq!(firsts(&t.mix_scale_x), (2, 0.75, 0.0));
    assert_eq!(firsts(&t.mix_scale_y), (2, 0.75, 1.0));
    assert_eq!(firsts(&t.mix_shear_y), (2, 0.1, 1.0));
}

/// Two-colour tint and clipping import without warnings: the slot's `dark` hex becomes
/// `SlotData.dark`, the clipping polygon keeps its end slot and is mirrored into y-down space.
#[test]
fn dark_tint_and_clipping_import_without_warnings() {
    let imported = import_spine(include_str!("spine/oracle/dark-tint.json")).unwrap();
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let data = &imported.data;
    assert!(data.slots.iter().any(|s| s.dark.is_some()), "a slot with a dark colour");
    let clip = data.attachments.iter().find(|a| a.name == "clip").expect("the clipping attachment");
    match &clip.kind {
        AttachmentKind::Clipping { vertices, weights, end } => {
            assert!(weights.is_empty());
            assert_eq!(end.as_deref(), Some("b"));
            assert_eq!(vertices, &[[-5.0, 5.0], [5.0, 5.0], [0.0, -8.0]]);
        }
        other => panic!("clip imported as {other:?}"),
    }
    assert!(data.validate().is_empty(), "{:?}", data.validate());
}

/// A deform timeline on a clipping polygon (tank-pro keys one) imports like a mesh's: no
/// warning, y offsets mirrored.
#[test]
fn deform_of_a_clipping_polygon_imports() {
    let text = r#"{"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}],
        "slots": [{"name": "c", "bone": "root", "attachment": "clip"}, {"name": "s", "bone": "root"}],
        "skins": [{"name": "default", "attachments": {"c": {"clip": {"type": "clipping", "end": "s",
            "vertexCount": 3, "vertices": [0, 0, 10, 0, 0, 10]}}}}],
        "animations": {"open": {"attachments": {"default": {"c": {"clip": {"deform": [
            {"vertices": [0, 0, 5, 2]}, {"time": 1}]}}}}}}}"#;
    let imported = import_spine(text).unwrap();
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let deform = &imported.data.clips["open"].deform[0];
    assert_eq!((deform.slot.as_str(), deform.attachment.as_str()), ("c", "clip"));
    assert_eq!(deform.keys[0].vertices, [0.0, -0.0, 5.0, -2.0]);
    assert!(imported.data.validate().is_empty(), "{:?}", imported.data.validate());
}

/// Sequences: frame `i` is the region `path` + `start + i` zero-padded to `digits`; the setup
/// frame and every key's mode, index and delay import; nothing warns.
#[test]
fn sequences_and_their_timelines_import() {
    let imported = animgraph_2d::spine::import_spine_with_atlas(
        include_str!("spine/oracle/sequence.json"),
        Some(include_str!("spine/oracle/sequence.atlas")),
    )
    .unwrap();
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let data = &imported.data;
    let frames = |name: &str| {
        let a = data.attachments.iter().find(|a| a.name == name).unwrap();
        let s = a.sequence.as_ref().unwrap();
        let names: Vec<String> = s
            .frames
            .iter()
            .map(|f| match f {
                animgraph_2d::data::RegionRef::Named(n) => n.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        (names, s.setup)
    };
    assert_eq!(
        frames("flame"),
        (vec!["flame01".into(), "flame02".into(), "flame03".into(), "flame04".into()], 1)
    );
    assert_eq!(frames("wave"), (vec!["w0".into(), "w1".into(), "w2".into()], 0));
    assert_eq!(frames("pp").0, ["p1", "p2", "p3", "p4", "p5"]);
    let flame = &data.clips["play"].sequence.iter().find(|t| t.slot == "flame").unwrap().keys;
    use animgraph_2d::data::SequenceMode;
    let keys: Vec<(f32, SequenceMode, u32, f32)> =
        flame.iter().map(|k| (k.time, k.mode, k.index, k.delay)).collect();
    assert_eq!(
        keys,
        [
            (0.0, SequenceMode::Loop, 0, 0.1),
            (0.55, SequenceMode::Once, 1, 0.05),
            (0.8, SequenceMode::OnceReverse, 0, 0.1)
        ]
    );
    assert!(data.validate().is_empty(), "{:?}", data.validate());
    // Without an atlas there are no frames to name: the setup frame alone (drawn flat).
    let flat = import_spine(include_str!("spine/oracle/sequence.json")).unwrap();
    assert!(flat.data.attachments.iter().all(|a| a.sequence.is_none()));
}

/// Spine 4.2's inherit timeline imports as stepped modes (a key without a mode is normal);
/// an unknown mode is one located warning.
#[test]
fn inherit_timelines_import_as_stepped_modes() {
    use animgraph_2d::data::Inherit;
    let imported = import_spine(include_str!("spine/oracle/inherit.json")).unwrap();
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let keys = &imported.data.clips["switch"].bones["child-normal"].inherit;
    assert_eq!(
        keys,
        &[
            (0.2, Inherit::NoScale),
            (0.4, Inherit::OnlyTranslation),
            (0.6, Inherit::NoRotationOrReflection),
            (0.8, Inherit::Normal)
        ]
    );
    let text = r#"{"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}, {"name": "a", "parent": "root"}],
        "animations": {"idle": {"bones": {"a": {"inherit": [{"time": 0.5, "inherit": "sideways"}]}}}}}"#;
    let imported = import_spine(text).unwrap();
    assert_eq!(imported.data.clips["idle"].bones["a"].inherit, [(0.5, Inherit::Normal)]);
    assert!(
        imported
            .warnings
            .iter()
            .any(|w| w.contains("unknown inherit mode \"sideways\"") && w.contains("idle")),
        "{:?}",
        imported.warnings
    );
}

/// A sequence asking for a billion-digit frame number is named with at most 32 digits (the
/// name used to be formatted as asked: gigabytes for one string).
#[test]
fn huge_sequence_digits_are_bounded() {
    let text = r#"{"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}],
        "slots": [{"name": "s", "bone": "root", "attachment": "f"}],
        "skins": [{"name": "default", "attachments": {"s": {"f": {"width": 2, "height": 2,
            "sequence": {"count": 2, "digits": 1000000000000}}}}}]}"#;
    let atlas = "page.png\n\tsize: 8, 8\nf1\n\tbounds: 0, 0, 2, 2\n";
    let imported = animgraph_2d::spine::import_spine_with_atlas(text, Some(atlas)).unwrap();
    let missing =
        imported.warnings.iter().find(|w| w.contains("has no region")).expect("a frame name warning");
    assert!(missing.len() < 200, "{missing}");
    assert!(missing.contains(&format!("\"f{}1\"", "0".repeat(31))), "{missing}");
}
