//! One editor UI frame (layout, painting and tessellation, no GPU) on a 500-state graph with
//! about a thousand transitions, the live player running. `cargo bench -p animgraph-editor`.

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
