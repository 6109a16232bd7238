//! One editor UI frame (layout, painting and tessellation, no GPU) on a 500-state graph with
//! about a thousand transitions, the live player running; and frames with the character preview
//! playing (GBot and Robot, their bundled graphs and 50-state graphs of their clips).
//! `cargo bench -p animgraph-editor`.

use animgraph_bench::fixtures::big_graph;
use animgraph_editor::Editor;
use animgraph_editor::settings::Settings;
use eframe::egui;

fn main() {
    divan::main();
}

fn input() -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
        ..Default::default()
    }
}

/// Runs UI frames of the editor on a 500-state graph; `zoom` of `None` keeps the frame-all view
/// (about half the grid on screen, text too small to draw), `Some(z)` zooms to `z` so labels
/// show.
fn frames(bencher: divan::Bencher, zoom: Option<f32>) {
    let dir = std::env::temp_dir().join(format!("animgraph-ui-bench-{}-{zoom:?}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.mres");
    animgraph_runtime::mres::save_file(&big_graph(500), &path).unwrap();
    let mut editor = Editor::new(vec![path], Settings::default());
    assert_eq!(editor.tabs[0].doc.graph.stats().states, 500);
    let ctx = egui::Context::default();
    // Warm up: fonts, layout caches, the first frame-all.
    for _ in 0..5 {
        let out = ctx.run_ui(input(), |ui| editor.show(ui));
        ctx.tessellate(out.shapes, out.pixels_per_point);
    }
    if let Some(z) = zoom {
        editor.tabs[0].view.zoom = z;
        editor.tabs[0].view.pan = egui::vec2(-1200.0, -1000.0);
    }
    bencher.bench_local(|| {
        let out = ctx.run_ui(input(), |ui| editor.show(ui));
        divan::black_box(ctx.tessellate(out.shapes, out.pixels_per_point));
    });
    std::fs::remove_dir_all(&dir).ok();
}

#[divan::bench(sample_count = 50, sample_size = 4)]
fn ui_frame_500_states_frame_all(bencher: divan::Bencher) {
    frames(bencher, None);
}

#[divan::bench(sample_count = 50, sample_size = 4)]
fn ui_frame_500_states_zoomed_with_labels(bencher: divan::Bencher) {
    frames(bencher, Some(0.45));
}

/// The bundled character's folder.
fn character_dir(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters").join(name)
}

/// Frames with the preview playing: `graph` (a bundled file, or `None` for a 50-state graph of
/// the skeleton's clips) on `skeleton`, the player advancing 1/60 s per frame, each frame's pose
/// rebuilt as triangles and handed to egui as meshes.
fn preview_frames(bencher: divan::Bencher, character: &str, skeleton: &str, graph: Option<&str>) {
    let dir =
        std::env::temp_dir().join(format!("animgraph-ui-bench-{}-{character}-{graph:?}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let skeleton = character_dir(character).join(skeleton);
    let path = match graph {
        Some(g) => character_dir(character).join(g),
        None => {
            let loaded = animgraph_character::Character::load(&skeleton, None).unwrap();
            let clips: Vec<String> = loaded.character.clips().into_iter().map(|c| c.name).collect();
            let path = dir.join("fifty.mres");
            animgraph_runtime::mres::save_file(&animgraph_bench::fixtures::big_graph_of(50, &clips), &path)
                .unwrap();
            path
        }
    };
    let mut settings = Settings { file: Some(dir.join("settings.json")), ..Default::default() };
    settings.set_skeleton(&path, &skeleton);
    let mut editor = Editor::new(vec![path], settings);
    let ctx = egui::Context::default();
    let mut time = 0.0;
    let mut frame = |editor: &mut Editor| {
        time += 1.0 / 60.0;
        let input = egui::RawInput { time: Some(time), ..input() };
        let out = ctx.run_ui(input, |ui| editor.show(ui));
        ctx.tessellate(out.shapes, out.pixels_per_point)
    };
    for _ in 0..10 {
        frame(&mut editor);
    }
    assert!(editor.tabs[0].preview.triangle_count() > 50, "the preview draws the character");
    bencher.bench_local(|| divan::black_box(frame(&mut editor)));
    std::fs::remove_dir_all(&dir).ok();
}

/// (character folder, skeleton file, bundled graph) of the two characters benchmarked.
fn character(name: &str) -> (&'static str, &'static str, &'static str) {
    match name {
        "gbot" => ("gbot", "gbot.mskel", "gbot.mres"),
        _ => ("robot", "RobotExpressive.glb", "robot.mres"),
    }
}

#[divan::bench(args = ["gbot", "robot"], sample_count = 50, sample_size = 4)]
fn preview_bundled_graph(bencher: divan::Bencher, name: &str) {
    let (folder, skeleton, graph) = character(name);
    preview_frames(bencher, folder, skeleton, Some(graph));
}

#[divan::bench(args = ["gbot", "robot"], sample_count = 50, sample_size = 4)]
fn preview_50_states(bencher: divan::Bencher, name: &str) {
    let (folder, skeleton, _) = character(name);
    preview_frames(bencher, folder, skeleton, None);
}
