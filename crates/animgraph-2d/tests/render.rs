//! Render goldens: GBot driven by gbot.mres and gbot.script.json at three frames (the last after
//! the script swaps to the "gold" skin: linked meshes tinting head, chin and body).
//!
//! Each frame is compared with `tests/goldens/gbot_NNNN.png`: a pixel differs when any channel
//! is off by more than 16/255, and at most 0.5 % of pixels may differ (resampling and float
//! rounding across machines). A failure writes the actual image and a diff (differing pixels in
//! red) next to the test binary's temp folder and says where. To re-bless after an intended
//! change: `UPDATE_GOLDENS=1 cargo test -p animgraph-2d --test render`, then look at the images.

use std::path::PathBuf;
use std::sync::Arc;

use animgraph_2d::render::{RenderOptions, render_script};
use animgraph_2d::{Skeleton2D, Skeleton2DData};
use animgraph_runtime::mres;
use animgraph_runtime::script::Script;
use tiny_skia::Pixmap;

fn character(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/gbot").join(file)
}

const FRAMES: [u32; 3] = [60, 140, 228];

#[test]
fn gbot_renders_like_the_goldens() {
    let data = Skeleton2DData::load(character("gbot.mskel")).unwrap();
    let texture = Pixmap::load_png(character("gBot.png")).unwrap();
    let skeleton = Arc::new(Skeleton2D::new(data).unwrap());
    let graph = mres::load_file(character("gbot.mres")).unwrap().graph;
    let script = Script::parse(&std::fs::read_to_string(character("gbot.script.json")).unwrap()).unwrap();
    let options = RenderOptions { width: 256, height: 256, ..Default::default() };
    let mut images = Vec::new();
    render_script(skeleton, &graph, &script, &[Some(texture)], &FRAMES, &options, |frame, image| {
        images.push((frame, image))
    })
    .unwrap();
    assert_eq!(images.len(), 3);
    let goldens = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/goldens");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("render-failures");
    let mut failures = Vec::new();
    for (frame, image) in images {
        let golden_path = goldens.join(format!("gbot_{frame:04}.png"));
        if std::env::var_os("UPDATE_GOLDENS").is_some() {
            image.save_png(&golden_path).unwrap();
            continue;
        }
        let golden =
            Pixmap::load_png(&golden_path).unwrap_or_else(|e| panic!("{}: {e}", golden_path.display()));
        assert_eq!((golden.width(), golden.height()), (image.width(), image.height()));
        let mut diff = image.clone();
        let mut differing = 0;
        let (a, b) = (image.data(), golden.data());
        for (i, (pa, pb)) in a.chunks_exact(4).zip(b.chunks_exact(4)).enumerate() {
            let off = pa.iter().zip(pb).any(|(x, y)| x.abs_diff(*y) > 16);
            if off {
                differing += 1;
                diff.data_mut()[i * 4..i * 4 + 4].copy_from_slice(&[255, 0, 0, 255]);
            }
        }
        let total = (image.width() * image.height()) as usize;
        // Every frame must also show the character: plenty of non-background pixels.
        let background = a.chunks_exact(4).filter(|p| p[0] == a[0] && p[1] == a[1] && p[2] == a[2]).count();
        assert!(total - background > total / 20, "frame {frame} looks empty");
        if differing * 200 > total {
            std::fs::create_dir_all(&out).unwrap();
            let actual = out.join(format!("gbot_{frame:04}_actual.png"));
            let diff_path = out.join(format!("gbot_{frame:04}_diff.png"));
            image.save_png(&actual).unwrap();
            diff.save_png(&diff_path).unwrap();
            failures.push(format!(
                "frame {frame}: {differing} of {total} pixels differ; see {} and {}",
                actual.display(),
                diff_path.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(re-bless with UPDATE_GOLDENS=1 if the change is intended)",
        failures.join("\n")
    );
}

#[test]
fn slot_colours_tint_and_fade_what_they_draw() {
    use animgraph_2d::data::{AttachmentData, AttachmentKind, BoneData, SlotData};
    use animgraph_2d::render::render;
    let bone = BoneData {
        skin_required: false,
        name: "root".into(),
        parent: None,
        x: 0.0,
        y: 0.0,
        rotation: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        shear_x: 0.0,
        shear_y: 0.0,
        length: 1.0,
        inherit: Default::default(),
    };
    let data = Skeleton2DData {
        bones: vec![bone],
        slots: vec![SlotData {
            name: "s".into(),
            bone: "root".into(),
            attachment: Some("a".into()),
            color: [1.0, 0.0, 0.0, 1.0],
            dark: None,
            blend: Default::default(),
        }],
        attachments: vec![AttachmentData {
            slot: "s".into(),
            name: "a".into(),
            skin: None,
            color: [1.0; 4],
            sequence: None,
            kind: AttachmentKind::Region {
                x: 0.0,
                y: 0.0,
                rotation: 0.0,
                width: 10.0,
                height: 10.0,
                region: Some(animgraph_2d::data::RegionRef::Rect([0.0, 0.0, 4.0, 4.0])),
            },
        }],
        ..Default::default()
    };
    let skeleton = Skeleton2D::new(data).unwrap();
    let mut white = Pixmap::new(4, 4).unwrap();
    white.fill(tiny_skia::Color::WHITE);
    let (camera, options) = small_frame();
    let centre = |p: &Pixmap| {
        let c = p.pixel(16, 16).unwrap();
        [c.red(), c.green(), c.blue()]
    };
    assert_eq!(
        centre(&render(&skeleton, &skeleton.setup, &[Some(white.clone())], &camera, &options)),
        [255, 0, 0],
        "a red slot tints white texture red"
    );
    let mut faded = skeleton.setup.clone();
    faded.colors[0] = [1.0, 1.0, 1.0, 0.5, 0.0, 0.0, 0.0];
    let c = centre(&render(&skeleton, &faded, &[Some(white.clone())], &camera, &options));
    assert!((120..=136).contains(&c[0]) && c[0] == c[1] && c[1] == c[2], "half alpha over black: {c:?}");
}

/// A 32 x 32 frame over black showing the world's (-10, -10)..(10, 10), no supersampling.
fn small_frame() -> (animgraph_2d::render::Camera, RenderOptions) {
    let camera =
        animgraph_2d::render::Camera::fit(glam::Vec2::splat(-10.0), glam::Vec2::splat(10.0), 32, 32, 0.0);
    let options = RenderOptions {
        width: 32,
        height: 32,
        background: [0.0, 0.0, 0.0, 1.0],
        bones: false,
        supersample: 1,
    };
    (camera, options)
}

/// A 32 x 32 picture of `mskel` (a `.mskel` body: bones, slots, attachments) over black, the
/// world's (-10, -10)..(10, 10) framed, with one white texture page.
fn draw(props: &str) -> Pixmap {
    use animgraph_2d::render::render;
    let text = format!(r#"{{ "format": 2, "uid": "res_t", "type": "Skeleton2DData", "props": {props} }}"#);
    let skeleton = Skeleton2D::new(Skeleton2DData::parse(&text).unwrap()).unwrap();
    let mut page = Pixmap::new(4, 4).unwrap();
    page.fill(tiny_skia::Color::from_rgba8(64, 64, 64, 255));
    let (camera, options) = small_frame();
    render(&skeleton, &skeleton.setup, &[Some(page)], &camera, &options)
}

fn rgb(p: &Pixmap, x: u32, y: u32) -> [u8; 3] {
    let c = p.pixel(x, y).unwrap();
    [c.red(), c.green(), c.blue()]
}

const SQUARE: &str = r#""type": "region", "width": 20, "height": 20, "region": [0, 0, 4, 4]"#;

#[test]
fn two_colour_tint_colours_the_dark_parts() {
    let slot = |extra: &str| {
        draw(&format!(
            r#"{{ "bones": [{{ "name": "root" }}], "slots": [{{ "name": "s", "bone": "root", "attachment": "a"{extra} }}],
               "attachments": [{{ "slot": "s", "name": "a", {SQUARE} }}] }}"#
        ))
    };
    // A texel of 64/255 draws c * light + (1 - c) * dark.
    assert_eq!(rgb(&slot(""), 16, 16), [64, 64, 64], "no tint");
    let c = rgb(&slot(r#", "dark": [1, 0, 0]"#), 16, 16);
    assert_eq!(c, [255, 64, 64], "red dark colour fills the dark part of the red channel");
    let c = rgb(&slot(r#", "color": [0.5, 1, 1, 1], "dark": [0, 0, 1]"#), 16, 16);
    assert_eq!(c, [32, 64, 255], "light halves red, dark lifts blue: {c:?}");
}

#[test]
fn clipping_polygon_masks_the_slots_up_to_its_end() {
    // Draw order: clip (a triangle over the left half), a, b (the end), c.
    let skeleton = |end: &str| {
        format!(
            r#"{{ "bones": [{{ "name": "root" }}],
               "slots": [{{ "name": "clip", "bone": "root", "attachment": "tri" }},
                         {{ "name": "a", "bone": "root", "attachment": "sq" }},
                         {{ "name": "b", "bone": "root", "attachment": "sq" }},
                         {{ "name": "c", "bone": "root", "attachment": "sq" }}],
               "attachments": [{{ "slot": "clip", "name": "tri", "type": "clipping", "vertices": [[-10, -10], [0, -10], [0, 10], [-10, 10]]{end} }},
                               {{ "slot": "a", "name": "sq", {SQUARE}, "color": [1, 0, 0, 1] }},
                               {{ "slot": "b", "name": "sq", {SQUARE}, "color": [0, 1, 0, 1] }},
                               {{ "slot": "c", "name": "sq", {SQUARE}, "color": [0, 0, 1, 0.5] }}] }}"#
        )
    };
    // To the end of the draw order: the right half stays black.
    let all = draw(&skeleton(""));
    assert_eq!(rgb(&all, 24, 16), [0, 0, 0], "right of the polygon nothing shows");
    assert_ne!(rgb(&all, 8, 16), [0, 0, 0], "inside it the slots draw");
    // Ending at b: c (half-transparent blue) draws unclipped over black on the right.
    let ended = draw(&skeleton(r#", "end": "b""#));
    let right = rgb(&ended, 24, 16);
    assert!(right[0] == 0 && right[1] == 0 && right[2] > 0, "c is not clipped: {right:?}");
    let left = rgb(&ended, 8, 16);
    assert!(left[1] > 0 && left[2] > 0, "b (green) under c (blue) inside: {left:?}");
}

/// The script's `skins` steps reach the 2D backend: from frame 200 the head, chin and body
/// show the gold skin's linked meshes (limbs stay default: the skin has none), from frame 300
/// the default skin again.
#[test]
fn the_gbot_script_swaps_skins() {
    use animgraph_runtime::script::Simulation;
    let skeleton = Arc::new(Skeleton2D::new(Skeleton2DData::load(character("gbot.mskel")).unwrap()).unwrap());
    let graph = mres::load_file(character("gbot.mres")).unwrap().graph;
    let script = Script::parse(&std::fs::read_to_string(character("gbot.script.json")).unwrap()).unwrap();
    let backend = animgraph_2d::Skeleton2DPoseBackend::new(Arc::clone(&skeleton));
    let mut sim = Simulation::new(&graph, &script, backend).unwrap();
    let skin_of = |sim: &Simulation<animgraph_2d::Skeleton2DPoseBackend>, slot: &str| {
        let s = skeleton.data.slots.iter().position(|x| x.name == slot).unwrap();
        let a = sim.backend.pose.attachments[s].unwrap() as usize;
        skeleton.data.attachments[a].skin.clone()
    };
    let mut seen = Vec::new();
    while !sim.done() {
        sim.step().unwrap();
        seen.push((skin_of(&sim, "Head"), skin_of(&sim, "LeftArm")));
    }
    let gold = Some("gold".to_string());
    assert_eq!(seen[199], (None, None), "before the swap");
    assert_eq!(seen[200], (gold.clone(), None), "the gold skin has head, chin and body only");
    assert_eq!(seen[299], (gold, None));
    assert_eq!(seen[300], (None, None), "\"skins\": [] is the default skin alone");
}

/// The GPU triangles clip as the CPU picture masks: with a concave clipping polygon (an L,
/// cut into triangles) and to the end of the draw order, they cover the pixels the picture
/// draws, and nothing right of the polygon.
#[test]
fn triangles_are_clipped_like_the_picture() {
    let props = format!(
        r#"{{ "bones": [{{ "name": "root" }}],
           "slots": [{{ "name": "clip", "bone": "root", "attachment": "l" }},
                     {{ "name": "a", "bone": "root", "attachment": "sq" }}],
           "attachments": [{{ "slot": "clip", "name": "l", "type": "clipping",
                              "vertices": [[-10, -10], [0, -10], [0, 0], [-5, 0], [-5, 10], [-10, 10]] }},
                           {{ "slot": "a", "name": "sq", {SQUARE}, "color": [1, 0, 0, 1] }}] }}"#
    );
    let text = format!(r#"{{ "format": 2, "uid": "res_t", "type": "Skeleton2DData", "props": {props} }}"#);
    let skeleton = Skeleton2D::new(Skeleton2DData::parse(&text).unwrap()).unwrap();
    let (camera, _) = small_frame();
    let mut triangles = animgraph_draw::Triangles::default();
    animgraph_2d::render::triangles(&skeleton, &skeleton.setup, &[None], &camera, false, &mut triangles);
    let picture = draw(&props);
    let cpu: Vec<bool> = (0..32 * 32).map(|i| rgb(&picture, i % 32, i / 32) != [0, 0, 0]).collect();
    let gpu = triangles.coverage(32, 32);
    assert!(cpu.iter().any(|c| *c), "the picture draws inside the L");
    let differ = cpu.iter().zip(&gpu).filter(|(c, g)| c != g).count();
    assert!(differ <= 8, "{differ} of 1024 pixels differ (edge pixels at most)");
    assert!(!gpu[(24 * 32 + 24) as usize] && !gpu[(16 * 32 + 24) as usize], "right of the L is not drawn");
    assert!(!gpu[(24 * 32 + 12) as usize], "the L's notch (lower middle) is not drawn");
    assert!(gpu[(8 * 32 + 8) as usize] && gpu[(24 * 32 + 4) as usize], "both arms of the L are drawn");
}
