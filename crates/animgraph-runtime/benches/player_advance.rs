//! `player_advance`: nanoseconds per `advance` on the example graphs, with parameters moving
//! so that blend weights, transitions and mixes all run.

use animgraph_runtime::graph::AnimationGraphPlayer;
use animgraph_runtime::mres;
use animgraph_runtime::script::RecordingBackend;
use divan::Bencher;

fn main() {
    divan::main();
}

fn graph(path: &str) -> animgraph_runtime::AnimationGraph {
    mres::load_file(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap().graph.into_graph()
}

fn backend(list: &[(&str, f32, bool)]) -> RecordingBackend {
    RecordingBackend::with_clips(list)
}

/// locomotion.mres: a 1D blend space (speed sweeping), a jump every 97 frames.
#[divan::bench(sample_count = 500, sample_size = 200)]
fn locomotion(bencher: Bencher) {
    let graph = graph("../../assets/graphs/locomotion.mres");
    let mut b = backend(animgraph_test_support::graphs::LOCOMOTION_CLIPS);
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    let mut buffer = player.new_buffer();
    let speed = player.find_parameter("speed").unwrap();
    let jump = player.find_parameter("jump").unwrap();
    let mut frame = 0u32;
    bencher.bench_local(|| {
        frame = frame.wrapping_add(1);
        player.set_float(speed, ((frame % 600) as f32) * (4.5 / 600.0)).unwrap();
        if frame % 97 == 0 {
            player.fire(jump).unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
        divan::black_box(buffer.samples().len())
    });
}

/// Four clip layers with interruptible mixes (tests/scenarios/graphs/interrupt.mres).
#[divan::bench(sample_count = 500, sample_size = 200)]
fn four_layers_interrupting(bencher: Bencher) {
    let graph = graph("tests/scenarios/graphs/interrupt.mres");
    let mut b =
        backend(&[("a", 1.0, true), ("b", 0.7, true), ("c", 1.3, true), ("d", 0.9, true), ("e", 1.1, true)]);
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    let mut buffer = player.new_buffer();
    let params: Vec<_> =
        ["gob", "goc", "god", "any"].iter().map(|n| player.find_parameter(n).unwrap()).collect();
    let mut frame = 0u32;
    bencher.bench_local(|| {
        frame = frame.wrapping_add(1);
        for (i, &p) in params.iter().enumerate() {
            player.set_bool(p, (frame / 5 + i as u32) % 9 == 0).unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
        divan::black_box(buffer.samples().len())
    });
}

fn showcase_backend() -> RecordingBackend {
    let names = [
        "idle",
        "idle_fidget",
        "walk_slow",
        "walk",
        "run",
        "aim_idle",
        "strafe_forward",
        "strafe_back",
        "strafe_left",
        "strafe_right",
        "jump",
        "fall",
        "land",
        "hurt",
        "die",
        "arms_relaxed",
        "aim",
        "shoot",
        "breathe",
    ];
    let list: Vec<(&str, f32, bool)> =
        names.iter().enumerate().map(|(i, n)| (*n, 0.3 + i as f32 * 0.07, i % 4 != 1)).collect();
    backend(&list)
}

/// showcase.mres: three layers (masked, additive), a sub-machine with 1D and 2D spaces,
/// parameters moving and triggers firing.
#[divan::bench(sample_count = 500, sample_size = 200)]
fn showcase(bencher: Bencher) {
    showcase_with(bencher, false);
}

/// The same with explain mode on (every candidate and condition recorded).
#[divan::bench(sample_count = 500, sample_size = 200)]
fn showcase_explain_on(bencher: Bencher) {
    showcase_with(bencher, true);
}

fn showcase_with(bencher: Bencher, explain: bool) {
    let graph = graph("../../assets/graphs/showcase.mres");
    let mut b = showcase_backend();
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    player.set_explain(explain);
    let mut buffer = player.new_buffer();
    let ids: Vec<_> = ["speed", "direction_x", "direction_y", "weapon", "aim_weight", "jump"]
        .iter()
        .map(|n| player.find_parameter(n).unwrap())
        .collect();
    let mut frame = 0u32;
    bencher.bench_local(|| {
        frame = frame.wrapping_add(1);
        let t = frame as f32 / 60.0;
        player.set_float(ids[0], 2.0 + 2.0 * (t * 0.7).sin()).unwrap();
        player.set_float(ids[1], (t * 1.3).cos()).unwrap();
        player.set_float(ids[2], (t * 0.9).sin()).unwrap();
        player.set_int(ids[3], ((frame / 400) % 2) as i32).unwrap();
        player.set_float(ids[4], ((frame / 400) % 2) as f32).unwrap();
        if frame % 240 == 0 {
            player.fire(ids[5]).unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
        divan::black_box(buffer.samples().len())
    });
}

/// A 9-point 2D blend space (centre, four directions, four diagonals) inside a sub-machine, the
/// parameter point circling through every triangle and out past the hull.
#[divan::bench(sample_count = 500, sample_size = 200)]
fn blend_2d_nine_points_in_sub_machine(bencher: Bencher) {
    use animgraph_runtime::graph::*;
    let positions = vec![
        [0.0, 0.0],
        [0.0, 1.0],
        [0.0, -1.0],
        [-1.0, 0.0],
        [1.0, 0.0],
        [-1.0, 1.0],
        [1.0, 1.0],
        [-1.0, -1.0],
        [1.0, -1.0],
    ];
    let clips: Vec<String> = (0..9).map(|i| format!("c{i}")).collect();
    let space = StateKind::BlendSpace2D(BlendSpace2D {
        parameter_x: "x".into(),
        parameter_y: "y".into(),
        clips: clips.clone(),
        positions,
        sync_time: true,
        sync_markers: false,
    });
    let inner = GraphMachine {
        states: vec![GraphState::new("Move", space)],
        transitions: vec![],
        entry: "Move".into(),
    };
    let outer = GraphMachine {
        states: vec![GraphState::new("Locomotion", StateKind::SubMachine(inner))],
        transitions: vec![],
        entry: "Locomotion".into(),
    };
    let float = |name: &str| GraphParameter {
        name: name.into(),
        kind: ParameterType::Float,
        default: 0.0,
        latch: false,
    };
    let graph = AnimationGraph {
        parameters: vec![float("x"), float("y")],
        layers: vec![GraphLayer { machine: outer, ..Default::default() }],
        ..Default::default()
    };
    let list: Vec<(&str, f32, bool)> =
        clips.iter().enumerate().map(|(i, n)| (n.as_str(), 0.6 + i as f32 * 0.1, true)).collect();
    let mut b = backend(&list);
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    let mut buffer = player.new_buffer();
    let (x, y) = (player.find_parameter("x").unwrap(), player.find_parameter("y").unwrap());
    let mut frame = 0u32;
    bencher.bench_local(|| {
        frame = frame.wrapping_add(1);
        let angle = frame as f32 * 0.01;
        let radius = 1.3 * ((frame % 500) as f32 / 500.0);
        player.set_float(x, radius * angle.cos()).unwrap();
        player.set_float(y, radius * angle.sin()).unwrap();
        player.advance(1.0 / 60.0, &mut buffer);
        divan::black_box(buffer.samples().len())
    });
}
