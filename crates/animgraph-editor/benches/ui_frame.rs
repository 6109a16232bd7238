//! One editor UI frame (layout, painting and tessellation, no GPU) on a 500-state graph with
//! about a thousand transitions, the live player running. `cargo bench -p animgraph-editor`.

use animgraph::AnimationGraph;
use animgraph::graph::{
    ClipState, ConditionOp, GraphCondition, GraphLayer, GraphMachine, GraphParameter, GraphState,
    GraphTransition, ParameterType, StateKind,
};
use animgraph_editor::Editor;
use animgraph_editor::settings::Settings;
use eframe::egui;

fn main() {
    divan::main();
}

/// A 25 x 20 grid of clip states, each with transitions to its right and lower neighbours.
fn big_graph(states: usize) -> AnimationGraph {
    let columns = 25;
    let mut machine = GraphMachine::default();
    for i in 0..states {
        let mut s = GraphState::new(
            format!("S{i}"),
            StateKind::Clip(ClipState { clip: format!("clip{}", i % 7), looping: true }),
        );
        s.editor_position = [(i % columns) as f32 * 200.0, (i / columns) as f32 * 110.0];
        machine.states.push(s);
    }
    for i in 0..states {
        for j in [i + 1, i + columns] {
            if j < states && (j != i + 1 || (i + 1) % columns != 0) {
                machine.transitions.push(GraphTransition {
                    from: format!("S{i}"),
                    to: format!("S{j}"),
                    conditions: vec![GraphCondition {
                        parameter: "speed".into(),
                        op: ConditionOp::Greater,
                        value: (i % 5) as f32,
                    }],
                    exit_time: 0.9,
                    ..Default::default()
                });
            }
        }
    }
    machine.entry = "S0".into();
    AnimationGraph {
        uid: "res_bench".into(),
        parameters: vec![GraphParameter {
            name: "speed".into(),
            kind: ParameterType::Float,
            default: 0.0,
            latch: false,
        }],
        layers: vec![GraphLayer { machine, ..Default::default() }],
        ..Default::default()
    }
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
    animgraph::mres::save_file(&big_graph(500), &path).unwrap();
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
