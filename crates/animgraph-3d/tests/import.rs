//! glTF import figures, sampling against the accessor data, errors, masks, allocation, goldens.

use std::path::PathBuf;
use std::sync::Arc;

use animgraph_3d::import::{import_bytes, import_file};
use animgraph_3d::skeleton::{Channel, Interpolation, Property};
use animgraph_3d::{Skeleton3DPoseBackend, animated_3d};
use animgraph_runtime::{BoneMask, ClipSample, LayerInfo, PoseBackend};
use glam::{Quat, Vec4};

fn asset(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters").join(path)
}

#[test]
fn robot_imports_43_joints_and_14_clips() {
    let imported = import_file(asset("robot/RobotExpressive.glb")).unwrap();
    let s = &imported.skeleton;
    assert_eq!(s.bone_count(), 43);
    let clips: Vec<(&str, String)> =
        s.clips.iter().map(|c| (c.name.as_str(), format!("{:.4}", c.duration))).collect();
    let expected = [
        ("Dance", "3.3333"),
        ("Death", "0.9583"),
        ("Idle", "3.3333"),
        ("Jump", "0.7083"),
        ("No", "1.6667"),
        ("Punch", "0.8333"),
        ("Running", "0.9583"),
        ("Sitting", "0.4167"),
        ("Standing", "0.4167"),
        ("ThumbsUp", "1.5833"),
        ("Walking", "0.9583"),
        ("WalkJump", "0.8333"),
        ("Wave", "1.8333"),
        ("Yes", "1.6667"),
    ];
    assert_eq!(clips, expected.map(|(n, d)| (n, d.to_string())));
    // Parents come first, one root.
    for (j, p) in s.parents.iter().enumerate() {
        assert!(p.is_none_or(|p| (p as usize) < j));
    }
    assert_eq!(s.parents.iter().filter(|p| p.is_none()).count(), 1);
    // Two skins over one skeleton are merged, and rigid meshes under joints are kept.
    let mesh = s.mesh.as_ref().unwrap();
    assert!(mesh.triangles.len() > 1000, "{} triangles", mesh.triangles.len());
    // The face's morph targets (Angry, Surprised, Sad) are a group the clips key.
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let face: Vec<(&str, usize)> =
        s.morph_groups.iter().map(|g| (g.name.as_str(), g.default_weights.len())).collect();
    // The mesh node is called Head like its joint, so the group takes `.morph`.
    assert_eq!(face, [("Head.morph", 3)]);
    assert_eq!(s.names[s.morph_groups[0].owner as usize], "Head");
    assert!(s.clips.iter().filter(|c| !c.morph.is_empty()).count() >= 10);
}

#[test]
fn fox_imports_24_joints_and_3_clips_with_its_texture() {
    let s = import_file(asset("fox/Fox.glb")).unwrap().skeleton;
    assert_eq!(s.bone_count(), 24);
    let clips: Vec<(&str, String)> =
        s.clips.iter().map(|c| (c.name.as_str(), format!("{:.3}", c.duration))).collect();
    assert_eq!(
        clips,
        [("Survey", "3.417".to_string()), ("Walk", "0.708".to_string()), ("Run", "1.158".to_string())]
    );
    assert_eq!(s.mesh.as_ref().unwrap().textures.len(), 1);
    // Untextured (as the Bevy plugin imports): the same skeleton, clips and mesh, no image
    // decoded, the material's base colour kept.
    let bytes = std::fs::read(asset("fox/Fox.glb")).unwrap();
    let bare = animgraph_3d::import::import_bytes_untextured(&bytes, None).unwrap().skeleton;
    let (mesh, bare_mesh) = (s.mesh.as_ref().unwrap(), bare.mesh.as_ref().unwrap());
    assert!(bare_mesh.textures.is_empty());
    assert!(bare_mesh.materials.iter().all(|(_, texture)| texture.is_none()));
    assert_eq!(
        bare_mesh.materials.iter().map(|m| m.0).collect::<Vec<_>>(),
        mesh.materials.iter().map(|m| m.0).collect::<Vec<_>>()
    );
    assert_eq!(
        (bare_mesh.positions.len(), bare.clips.len(), bare.bone_count()),
        (mesh.positions.len(), 3, 24)
    );
}

#[test]
fn sampling_returns_the_accessor_data_at_keys_and_interpolates_between() {
    let s = import_file(asset("fox/Fox.glb")).unwrap().skeleton;
    let walk = s.clip("Walk").unwrap();
    let mut checked = 0;
    for channel in &walk.channels {
        assert_eq!(channel.interpolation, Interpolation::Linear);
        for (k, &t) in channel.times.iter().enumerate() {
            assert!((channel.sample(t) - channel.values[k]).abs().max_element() < 1e-5, "key {k} at {t}");
            if let Some(&next) = channel.times.get(k + 1) {
                let mid = channel.sample((t + next) * 0.5);
                let expected: Vec4 = match channel.property {
                    Property::Rotation => Quat::from_vec4(channel.values[k])
                        .normalize()
                        .slerp(Quat::from_vec4(channel.values[k + 1]).normalize(), 0.5)
                        .into(),
                    _ => channel.values[k].lerp(channel.values[k + 1], 0.5),
                };
                assert!((mid - expected).abs().max_element() < 1e-4);
            }
            checked += 1;
        }
    }
    assert!(checked > 100);
}

#[test]
fn step_and_cubic_spline_channels_interpolate_as_gltf_says() {
    let step = Channel {
        joint: 0,
        property: Property::Translation,
        interpolation: Interpolation::Step,
        times: vec![0.0, 1.0],
        values: vec![Vec4::X, Vec4::Y],
    };
    assert_eq!(step.sample(0.99), Vec4::X);
    assert_eq!(step.sample(1.0), Vec4::Y);
    // Cubic spline: (in-tangent, value, out-tangent) per key. Zero tangents give smoothstep.
    let cubic = Channel {
        joint: 0,
        property: Property::Translation,
        interpolation: Interpolation::CubicSpline,
        times: vec![0.0, 2.0],
        values: vec![Vec4::ZERO, Vec4::ZERO, Vec4::ZERO, Vec4::ZERO, Vec4::splat(10.0), Vec4::ZERO],
    };
    assert_eq!(cubic.sample(0.0), Vec4::ZERO);
    assert_eq!(cubic.sample(2.0), Vec4::splat(10.0));
    assert!((cubic.sample(1.0).x - 5.0).abs() < 1e-5);
    assert!((cubic.sample(0.5).x - 10.0 * (3.0 * 0.0625 - 2.0 * 0.015625)).abs() < 1e-4);
    // A tangent of 10 per second on the first key: the curve leaves 0 rising (u = 0.1 over 2 s).
    let rising = Channel {
        values: vec![Vec4::ZERO, Vec4::ZERO, Vec4::splat(10.0), Vec4::ZERO, Vec4::splat(10.0), Vec4::ZERO],
        ..cubic.clone()
    };
    assert!(rising.sample(0.2).x > cubic.sample(0.2).x);
}

/// A minimal glTF (JSON with a data URI buffer) with `skins` as given.
fn gltf_with_skins(skins: &str, nodes: &str) -> String {
    // 1 float (identity not needed): a buffer of 64 bytes for one inverse bind matrix.
    let identity: Vec<u8> = [1f32, 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(identity);
    format!(
        r#"{{ "asset": {{ "version": "2.0" }}, "nodes": {nodes}, "skins": {skins},
            "buffers": [ {{ "byteLength": 64, "uri": "data:application/octet-stream;base64,{data}" }} ],
            "bufferViews": [ {{ "buffer": 0, "byteLength": 64 }} ],
            "accessors": [ {{ "bufferView": 0, "componentType": 5126, "count": 1, "type": "MAT4" }} ] }}"#
    )
}

#[test]
fn still_files_warn_and_separate_skeletons_are_clear_errors() {
    // No skin and no animation: a still hierarchy (clips may come from a library), said once.
    let none = gltf_with_skins("[]", r#"[ { "name": "a" } ]"#);
    let still = import_bytes(none.as_bytes(), None).unwrap();
    assert_eq!(still.skeleton.names, ["a"]);
    assert!(still.warnings[0].starts_with("the file has no skin and no animations"), "{:?}", still.warnings);
    let two = gltf_with_skins(
        r#"[ { "joints": [0], "inverseBindMatrices": 0 }, { "joints": [1], "inverseBindMatrices": 0 } ]"#,
        r#"[ { "name": "a" }, { "name": "b" } ]"#,
    );
    let e = import_bytes(two.as_bytes(), None).unwrap_err().to_string();
    assert!(e.contains("skin 1 shares no joint with skin 0"), "{e}");
    let no_ibm = gltf_with_skins(r#"[ { "joints": [0] } ]"#, r#"[ { "name": "a" } ]"#);
    let imported = import_bytes(no_ibm.as_bytes(), None).unwrap();
    assert!(
        imported.warnings.iter().any(|w| w.contains("no inverse bind matrices; identity matrices are used"))
    );
    assert!(import_bytes(b"not gltf", None).unwrap_err().to_string().contains("not a valid glTF 2.0 file"));
}

#[test]
fn masks_resolve_by_joint_name_with_and_without_children() {
    let s = Arc::new(import_file(asset("robot/RobotExpressive.glb")).unwrap().skeleton);
    let mut b = Skeleton3DPoseBackend::new(Arc::clone(&s));
    let with = b.resolve_mask(&BoneMask::new(vec!["Shoulder.R".into(), "Tail".into()], true)).unwrap();
    let without = b.resolve_mask(&BoneMask::new(vec!["Shoulder.L".into()], false)).unwrap();
    let with_names = b.mask_bones(with);
    assert!(with_names.contains(&"UpperArm.R".to_string()) && with_names.contains(&"Thumb2.R".to_string()));
    assert!(!with_names.contains(&"UpperArm.L".to_string()));
    assert_eq!(b.mask_bones(without), ["Shoulder.L"]);
    assert_eq!(b.warnings(), ["mask bone \"Tail\" is not in the skeleton; it is ignored"]);
    // A masked layer moves only its joints.
    let wave = b.resolve_clip("Wave").unwrap();
    let walk = b.resolve_clip("Walking").unwrap();
    let sample =
        |clip, layer| ClipSample { clip, time: 0.4, prev_time: 0.4, weight: 1.0, layer, looped: false };
    let layer = |mask| LayerInfo { mask, ..LayerInfo::default() };
    b.apply(&[sample(walk, 0)], &[layer(None)]);
    let walking = b.pose.clone();
    b.apply(&[sample(walk, 0), sample(wave, 1)], &[layer(None), layer(Some(with))]);
    let hips = s.bone_index("Hips").unwrap();
    let upper_arm = s.bone_index("UpperArm.R").unwrap(); // the Robot waves with its right arm
    assert_eq!(b.pose.rotations[hips], walking.rotations[hips], "outside the mask: the pose below");
    assert_ne!(b.pose.rotations[upper_arm], walking.rotations[upper_arm], "inside the mask: the wave");
}

#[test]
fn robot_script_renders_like_the_goldens() {
    use animgraph_3d::render::{RenderOptions3D, render_script};
    let s = Arc::new(import_file(asset("robot/RobotExpressive.glb")).unwrap().skeleton);
    let graph = animgraph_runtime::mres::load_file(asset("robot/robot.mres")).unwrap().graph;
    let script = animgraph_runtime::script::Script::parse(
        &std::fs::read_to_string(asset("robot/robot.script.json")).unwrap(),
    )
    .unwrap();
    let options = RenderOptions3D { width: 192, height: 192, ..Default::default() };
    let goldens = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/goldens");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("render-failures");
    let mut failures = Vec::new();
    render_script(s, &graph, &script, &[60, 200, 325], &options, |frame, image| {
        let path = goldens.join(format!("robot_{frame:04}.png"));
        if std::env::var_os("UPDATE_GOLDENS").is_some() {
            std::fs::create_dir_all(&goldens).unwrap();
            image.save_png(&path).unwrap();
            return;
        }
        let golden = tiny_skia::Pixmap::load_png(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let differing = image
            .data()
            .chunks_exact(4)
            .zip(golden.data().chunks_exact(4))
            .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 16))
            .count();
        let total = (image.width() * image.height()) as usize;
        if differing * 200 > total {
            std::fs::create_dir_all(&out).unwrap();
            let actual = out.join(format!("robot_{frame:04}_actual.png"));
            image.save_png(&actual).unwrap();
            failures.push(format!(
                "frame {frame}: {differing} of {total} pixels differ; see {}",
                actual.display()
            ));
        }
    })
    .unwrap();
    assert!(
        failures.is_empty(),
        "{}\n(re-bless with UPDATE_GOLDENS=1 cargo test -p animgraph-3d --test import)",
        failures.join("\n")
    );
}

#[test]
fn the_same_graph_drives_gbot_and_the_robot() {
    let graph = animgraph_runtime::mres::load_file(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/biped.mres"),
    )
    .unwrap()
    .graph;
    let mut robot = import_file(asset("robot/RobotExpressive.glb")).unwrap().skeleton;
    for (alias, clip) in [
        ("idle", "Idle"),
        ("walk", "Walking"),
        ("run", "Running"),
        ("jump", "Jump"),
        ("wave", "Wave"),
        ("hurt", "No"),
    ] {
        assert!(robot.alias_clip(alias, clip));
    }
    let mut character = animated_3d(Arc::new(robot), Some(&graph), 0).unwrap();
    assert!(character.player().unwrap().warnings().is_empty(), "every clip resolves through the map");
    character.player_mut().unwrap().set_float_by_name("speed", 1.0).unwrap();
    for _ in 0..10 {
        character.update(1.0 / 30.0);
    }
    let samples: Vec<u32> =
        character.buffer().samples().iter().filter(|s| s.layer == 0).map(|s| s.clip.0).collect();
    assert_eq!(samples, [10], "walk maps to the Robot's Walking (clip 10)");
}

/// Sync markers come from `NAME.markers.json` beside the model; a broken sidecar is an error
/// naming the file and the place, never ignored.
#[test]
fn markers_come_from_a_sidecar_beside_the_model() {
    let dir = animgraph_test_support::scratch_dir("markers");
    let model = dir.join("Fox.glb");
    std::fs::copy(asset("fox/Fox.glb"), &model).unwrap();
    assert!(import_file(&model).unwrap().skeleton.clips.iter().all(|c| c.markers.is_empty()));
    std::fs::write(dir.join("Fox.markers.json"), r#"{"Walk": [["L", 0.1], ["R", 0.45]]}"#).unwrap();
    let skeleton = Arc::new(import_file(&model).unwrap().skeleton);
    assert_eq!(skeleton.clip("Walk").unwrap().markers, vec![("L".to_string(), 0.1), ("R".to_string(), 0.45)]);
    let mut backend = Skeleton3DPoseBackend::new(skeleton.clone());
    let walk = backend.resolve_clip("Walk").unwrap();
    assert_eq!(backend.clip_markers(walk).len(), 2);
    let run = backend.resolve_clip("Run").unwrap();
    assert!(backend.clip_markers(run).is_empty());
    std::fs::write(dir.join("Fox.markers.json"), r#"{"Walk": [["L", 99]]}"#).unwrap();
    let e = import_file(&model).unwrap_err().to_string();
    assert!(
        e.contains("Fox.markers.json") && e.contains("\"Walk\"[0]") && e.contains("outside the clip"),
        "{e}"
    );
    std::fs::write(dir.join("Fox.markers.json"), r#"{"Trot": []}"#).unwrap();
    let e = import_file(&model).unwrap_err().to_string();
    assert!(e.contains("\"Trot\": no clip"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The Robot's walk and run plant each foot once a cycle, the feet half a cycle apart; the idle
/// plants nothing.
#[test]
fn foot_plants_alternate_in_the_robots_walk_and_run() {
    use animgraph_3d::markers::{Foot, foot_plants};
    let skeleton = Arc::new(import_file(asset("robot/RobotExpressive.glb")).unwrap().skeleton);
    let feet = [
        Foot { joint: "Foot.L".into(), marker: "L".into() },
        Foot { joint: "Foot.R".into(), marker: "R".into() },
    ];
    for clip in ["Walking", "Running"] {
        let plants = foot_plants(&skeleton, clip, &feet, 120.0).unwrap();
        let duration = skeleton.clip(clip).unwrap().duration;
        println!("{clip} ({duration:.3} s): {plants:?}");
        let names: Vec<&str> = plants.iter().map(|p| p.0.as_str()).collect();
        assert!(names == ["L", "R"] || names == ["R", "L"], "{clip}: {plants:?}");
        let gap = (plants[1].1 - plants[0].1) / duration;
        assert!((gap - 0.5).abs() < 0.15, "{clip}: the feet land {gap:.2} of a cycle apart");
    }
    assert!(foot_plants(&skeleton, "Idle", &feet, 120.0).unwrap().is_empty());
    let e = foot_plants(&skeleton, "Walking", &[Foot { joint: "Toe".into(), marker: "L".into() }], 60.0)
        .unwrap_err();
    assert!(e.contains("no joint \"Toe\""), "{e}");
}
