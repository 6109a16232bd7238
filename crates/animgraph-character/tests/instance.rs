//! A character instance of either kind animates from its graph, rebinds keeping its state, and
//! draws a picture that shows the character.

use std::path::PathBuf;

use animgraph_character::{Character, CharacterInstance, View};

fn asset(p: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets").join(p)
}

fn instance(skeleton: &str, graph: &str) -> CharacterInstance {
    let character = Character::load(&asset(skeleton), None).unwrap().character;
    let graph = animgraph_runtime::mres::load_file(asset(graph)).unwrap().graph;
    CharacterInstance::new(&character, &graph).unwrap()
}

/// Pixels that differ from the background corner.
fn covered(image: &tiny_skia::Pixmap) -> usize {
    let corner = image.pixel(0, 0).unwrap();
    image.pixels().iter().filter(|p| **p != corner).count()
}

#[test]
fn both_kinds_walk_rebind_and_draw() {
    for (skeleton, graph) in [
        ("characters/gbot/gbot.mskel", "characters/gbot/gbot.mres"),
        ("characters/robot/RobotExpressive.glb", "characters/robot/robot.mres"),
    ] {
        let mut a = instance(skeleton, graph);
        a.player_mut().set_float_by_name("speed", 2.0).unwrap();
        for _ in 0..90 {
            a.update(1.0 / 60.0);
        }
        let path = a.player().current_state_path(0).unwrap().to_string();
        let time = a.player().normalised_time(0).unwrap();
        assert!(a.buffer().samples().len() >= 2, "{skeleton}: walking blends clips");
        let image = a.render(&View { width: 160, height: 160, ..Default::default() });
        let share = covered(&image) as f32 / (160.0 * 160.0);
        assert!(share > 0.03 && share < 0.8, "{skeleton}: the character covers {share} of the picture");
        if let Ok(dir) = std::env::var("ANIMGRAPH_PREVIEW_OUT") {
            let name = PathBuf::from(skeleton).file_stem().unwrap().to_string_lossy().into_owned();
            image.save_png(PathBuf::from(dir).join(format!("{name}.png"))).unwrap();
        }
        // A rebind to an edited graph keeps the state and its clock.
        let mut edited = animgraph_runtime::mres::load_file(asset(graph)).unwrap().graph.into_graph();
        edited.default_mix = 0.33;
        a.rebind(&edited).unwrap();
        assert_eq!(a.player().current_state_path(0), Some(path.as_str()));
        assert_eq!(a.player().normalised_time(0), Some(time));
        // A second instance starts fresh and shares the bound graph.
        let b = a.instantiate();
        assert_eq!(b.player().tick(), 0);
    }
}

#[test]
fn gbots_walk_fires_its_footstep_events() {
    let mut a = instance("characters/gbot/gbot.mskel", "characters/gbot/gbot.mres");
    a.player_mut().set_float_by_name("speed", 1.0).unwrap();
    let mut events = Vec::new();
    for _ in 0..240 {
        a.update(1.0 / 60.0);
        events.extend(a.clip_events());
    }
    assert!(events.iter().any(|e| e.contains("footstep")), "{events:?}");
}

#[test]
fn scrubbing_a_recording_reproduces_the_recorded_pose_exactly() {
    for (skeleton, graph) in [
        ("characters/gbot/gbot.mskel", "characters/gbot/gbot.mres"),
        ("characters/robot/RobotExpressive.glb", "characters/robot/robot.mres"),
    ] {
        let mut a = instance(skeleton, graph);
        let mut frames = Vec::new();
        let mut poses = Vec::new();
        for f in 0..240 {
            a.player_mut().set_float_by_name("speed", (f as f32 * 0.02).sin().abs() * 3.0).unwrap();
            if f == 100 {
                a.player_mut().fire_by_name("jump").unwrap();
            }
            a.update(1.0 / 60.0);
            frames.push(a.record(f as f32 / 60.0));
            poses.push(a.local_pose());
        }
        // Scrub back and forth: every frame's pose comes back exactly as it was, also inside an
        // inertial blend (the Robot lands from its jump with one).
        let blending: Vec<usize> = (0..frames.len()).filter(|&k| frames[k].inertial()).collect();
        if skeleton.ends_with(".glb") {
            assert!(!blending.is_empty(), "the Robot's landing is inertial");
        }
        let inside = blending.get(blending.len() / 2).copied().unwrap_or(0);
        for k in [200usize, 17, 101, 239, 0, 150, inside] {
            a.pose_recorded(|i| frames.get(i), k);
            assert_eq!(a.local_pose(), poses[k], "{skeleton}: frame {k}");
        }
    }
}

/// The GPU preview's triangles cover the same pixels as the CPU picture (no supersampling, so
/// both sample pixel centres): the same framing, the same parts, the same draw order's result.
#[test]
fn triangles_cover_what_the_cpu_picture_shows() {
    for (skeleton, graph) in [
        ("characters/gbot/gbot.mskel", "characters/gbot/gbot.mres"),
        ("characters/robot/RobotExpressive.glb", "characters/robot/robot.mres"),
        ("characters/fox/Fox.glb", "characters/fox/fox.mres"),
    ] {
        // 2D without its pages, so the CPU fills whole triangles too (transparent texels would
        // leave holes the triangles cover).
        let character = match Character::load(&asset(skeleton), None).unwrap().character {
            Character::TwoD(s, pages) => Character::TwoD(s, std::sync::Arc::new(vec![None; pages.len()])),
            other => other,
        };
        let graph = animgraph_runtime::mres::load_file(asset(graph)).unwrap().graph;
        let mut a = CharacterInstance::new(&character, &graph).unwrap();
        for _ in 0..40 {
            a.update(1.0 / 60.0);
        }
        let view = View { width: 200, height: 200, supersample: 1, ..Default::default() };
        let image = a.render(&view);
        let corner = image.pixel(0, 0).unwrap();
        let cpu: Vec<bool> = image.pixels().iter().map(|p| *p != corner).collect();
        let mut triangles = animgraph_character::Triangles::default();
        a.triangles(&view, &mut Default::default(), &mut triangles);
        assert!(!triangles.is_empty(), "{skeleton}: no triangles");
        let gpu = triangles.coverage(200, 200);
        let both = cpu.iter().zip(&gpu).filter(|(c, g)| **c && **g).count();
        let either = cpu.iter().zip(&gpu).filter(|(c, g)| **c || **g).count();
        let overlap = both as f32 / either as f32;
        assert!(overlap > 0.97, "{skeleton}: triangles and picture agree on {overlap} of the covered pixels");
        let pages = a.character().pages();
        for run in &triangles.runs {
            if let Some(p) = run.page {
                assert!(
                    pages.get(p as usize).is_some_and(Option::is_some),
                    "{skeleton}: run on missing page {p}"
                );
            }
        }
    }
}
