//! Each crash class the fuzz targets found, held by a minimised input: what once panicked or
//! loaded a file that could never load again is now a located error (or works).

use animgraph_robustness::targets;

/// A Spine skeleton with a two-bone IK chain whose bones have no length and sit on their parent:
/// the IK solver's distance bounds crossed and `f32::clamp` panicked while building the setup
/// pose (found by `spine_import`).
const ZERO_LENGTH_IK: &str = r#"{
  "skeleton": { "spine": "4.1.24" },
  "bones": [
    { "name": "root" },
    { "name": "a", "parent": "root" },
    { "name": "b", "parent": "a" },
    { "name": "aim", "parent": "root", "x": 30 }
  ],
  "ik": [ { "name": "reach", "bones": ["a", "b"], "target": "aim" } ]
}"#;

#[test]
fn two_bone_ik_on_bones_without_length_poses_without_a_panic() {
    let imported = animgraph_2d::spine::import_spine(ZERO_LENGTH_IK).unwrap();
    let skeleton = animgraph_2d::Skeleton2D::new(imported.data).unwrap();
    let pose = &skeleton.setup;
    assert!(pose.channels.iter().flatten().all(|v| v.is_finite()), "the setup pose is not finite");
    assert!(targets::spine(ZERO_LENGTH_IK.as_bytes()));
}

/// `1e39` read into an `f32` became infinity, which saves as `null` and never loads again
/// (found by `godot_import`, `recording_load` and `link_from_game`). Every JSON format now
/// refuses it with the line and column; the Godot parser with its line.
#[test]
fn numbers_past_f32_are_located_errors_in_every_format() {
    let mskel = include_str!("../../../assets/characters/gbot/gbot.mskel").replacen(
        "\"length\": ",
        "\"length\": 1e39, \"x\": ",
        1,
    );
    let e = animgraph_2d::Skeleton2DData::parse(&mskel).unwrap_err().to_string();
    assert!(e.contains("1e39 is out of range") && e.contains("line "), "{e}");

    let e =
        animgraph_2d::spine::import_spine(&ZERO_LENGTH_IK.replace("\"x\": 30", "\"x\": 3e38, \"y\": -4e38"))
            .unwrap_err();
    assert!(e.to_string().contains("line 7 column") && e.to_string().contains("-4e38"), "{e}");

    let tscn = include_str!("../../../assets/characters/gbot/player.tscn");
    let broken = tscn.replacen("Vector2(", "Vector2(1e39, ", 1);
    let e = animgraph_2d::godot::import_scene(&broken).unwrap_err().to_string();
    assert!(e.contains("1e39") && e.contains("out of range") && e.starts_with("line "), "{e}");

    let e = animgraph_runtime::recording::Recording::parse(
        "{\"format\":\"animgraph-recording\",\"version\":1,\"graph_uid\":\"u\",\"layers\":[]}\n{\"time\":1e39}",
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("line 2:") && e.to_string().contains("out of range"), "{e}");

    let e =
        animgraph_runtime::link::ServerMessage::parse("{\"type\":\"error\",\"message\":\"x\",\"n\":-1e39}")
            .unwrap_err();
    assert!(e.contains("out of range"), "{e}");

    let e = animgraph_runtime::script::Script::parse(
        "{\"frames\": 10, \"steps\": [{\"frame\": 0, \"set\": {\"speed\": 1e39}}]}",
    )
    .unwrap_err();
    assert!(e.to_string().contains("out of range"), "{e}");
}

/// A Spine event key naming an event the skeleton does not declare made an invalid `.mskel`
/// (the whole import refused); it is skipped with a warning, as other unsupported keys are.
#[test]
fn an_undeclared_spine_event_is_skipped_with_a_warning() {
    let hero = include_str!("../../animgraph-2d/tests/spine/hero-4.1.json");
    let broken =
        hero.replacen("{ \"time\": 1.25, \"name\": \"step\" }", "{ \"time\": 1.25, \"name\": \"st[ep\" }", 1);
    assert_ne!(broken, hero);
    let imported = animgraph_2d::spine::import_spine(&broken).unwrap();
    assert!(
        imported.warnings.iter().any(|w| w.contains("\"st[ep\"") && w.contains("skipped")),
        "{:?}",
        imported.warnings
    );
    assert!(imported.data.validate().is_empty());
    assert_eq!(imported.data.clips["walk"].events.len(), 1);
}

/// A backend reporting a negative or NaN length for a one-shot clip made the player's clip
/// timing call `clamp` with crossed bounds.
#[test]
fn a_one_shot_clip_of_negative_or_nan_length_plays_without_a_panic() {
    for length in [-1.0, f32::NAN] {
        let mut backend = animgraph_runtime::script::RecordingBackend::with_clips(&[
            ("idle", 2.0, true),
            ("walk", 1.0, true),
            ("run", 0.8, true),
            ("jump", length, false),
        ]);
        let graph = targets::locomotion();
        let Ok(mut player) = animgraph_runtime::AnimationGraphPlayer::bind(graph, &mut backend) else {
            continue;
        };
        let mut buffer = player.new_buffer();
        player.fire_by_name("jump").unwrap();
        for _ in 0..30 {
            player.advance(1.0 / 60.0, &mut buffer);
        }
        assert!(buffer.samples().iter().all(|s| !s.time.is_nan() || length.is_nan()));
    }
}

/// A Spine deform or sequence timeline with no keys (`"deform": []`) imported as an empty
/// timeline, and the backend sliced past its values on the first apply (found by a long seeded
/// `spine_import` run). The importer skips empty timelines (Spine ignores them) and `.mskel`
/// validation refuses them with their place.
#[test]
fn empty_deform_and_sequence_timelines_neither_panic_nor_load() {
    let export = include_str!("../../animgraph-2d/tests/spine/oracle/skins.json");
    let empty = export.replacen("\"deform\": [", "\"deform\": [], \"unused\": [", 1);
    assert_ne!(empty, export, "the fixture has a deform timeline");
    assert!(targets::spine(empty.as_bytes()));
    let imported = animgraph_2d::spine::import_spine(&empty).unwrap();
    assert!(imported.data.clips.values().all(|c| c.deform.iter().all(|t| !t.keys.is_empty())));
    let mut data = imported.data;
    let clip = data.clips.values_mut().next().unwrap();
    clip.deform.push(animgraph_2d::data::DeformTimeline {
        slot: data.slots[0].name.clone(),
        attachment: "none".into(),
        skin: None,
        keys: Vec::new(),
    });
    let issues: Vec<String> = data.validate().iter().map(|i| i.to_string()).collect();
    assert!(issues.iter().any(|i| i.contains(".deform[") && i.contains("keys: is empty")), "{issues:?}");
}
