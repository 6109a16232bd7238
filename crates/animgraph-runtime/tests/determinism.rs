//! Same graph + same inputs = bit-identical samples and events, on every run; and no event is
//! ever dropped for want of room.

use std::collections::BTreeMap;

use animgraph_runtime::graph::{AnimationGraphPlayer, ParameterType};
use animgraph_runtime::mres;
use animgraph_runtime::script::{ClipSpec, RecordingBackend};
use animgraph_runtime::{AnimationGraph, SampleBuffer};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Input {
    Number(usize, f32),
    Flag(usize, bool),
    Fire(usize),
    Travel(usize, usize),
    LayerWeight(usize, f32),
}

#[derive(Clone, Debug)]
struct Frame {
    delta: f32,
    inputs: Vec<Input>,
}

fn frames() -> impl Strategy<Value = Vec<Frame>> {
    let input = prop_oneof![
        (0..8usize, -2.0f32..6.0).prop_map(|(p, v)| Input::Number(p, v)),
        (0..8usize, any::<bool>()).prop_map(|(p, v)| Input::Flag(p, v)),
        (0..8usize).prop_map(Input::Fire),
        (0..4usize, 0..8usize).prop_map(|(l, s)| Input::Travel(l, s)),
        (0..4usize, 0.0f32..1.0).prop_map(|(l, w)| Input::LayerWeight(l, w)),
    ];
    let frame = (prop_oneof![Just(1.0f32 / 60.0), 0.0f32..0.1], prop::collection::vec(input, 0..3))
        .prop_map(|(delta, inputs)| Frame { delta, inputs });
    prop::collection::vec(frame, 1..240)
}

/// Applies inputs to whichever parameters, layers and states exist; refusals are fine.
fn feed(player: &mut AnimationGraphPlayer, states: &[Vec<String>], inputs: &[Input]) {
    let n = player.parameter_count();
    for input in inputs {
        match *input {
            Input::Number(p, v) => {
                let id = animgraph_runtime::graph::ParamId((p % n) as u16);
                match player.parameter_type(id) {
                    Some(ParameterType::Float) => player.set_float(id, v).unwrap(),
                    Some(ParameterType::Int) => player.set_int(id, v as i32).unwrap(),
                    _ => {}
                }
            }
            Input::Flag(p, v) => {
                let _ = player.set_bool(animgraph_runtime::graph::ParamId((p % n) as u16), v);
            }
            Input::Fire(p) => {
                let _ = player.fire(animgraph_runtime::graph::ParamId((p % n) as u16));
            }
            Input::Travel(l, s) => {
                let layer = l % player.layer_count();
                let names = &states[layer];
                player.travel(layer, &names[s % names.len()]).unwrap();
            }
            Input::LayerWeight(l, w) => player.set_layer_weight(l % player.layer_count(), w).unwrap(),
        }
    }
}

fn fingerprint(buffer: &SampleBuffer, player: &AnimationGraphPlayer, out: &mut Vec<u32>) {
    for s in buffer.samples() {
        out.extend([
            s.clip.0,
            s.time.to_bits(),
            s.prev_time.to_bits(),
            s.weight.to_bits(),
            s.layer as u32,
            s.looped as u32,
        ]);
    }
    for l in buffer.layers() {
        out.extend([l.weight.to_bits(), l.event_threshold.to_bits()]);
    }
    for e in player.events() {
        out.push(match e {
            animgraph_runtime::GraphEvent::StateEntered { state, .. } => 1 << 20 | state.0 as u32,
            animgraph_runtime::GraphEvent::StateExited { state, .. } => 2 << 20 | state.0 as u32,
            animgraph_runtime::GraphEvent::TransitionStarted { from, to, .. } => {
                3 << 20 | (from.0 as u32) << 10 | to.0 as u32
            }
            animgraph_runtime::GraphEvent::TravelPlanned { to, hops, .. } => {
                4 << 20 | (*hops as u32) << 10 | to.0 as u32
            }
            animgraph_runtime::GraphEvent::WindowBegin { window, .. } => 5 << 20 | window.0,
            animgraph_runtime::GraphEvent::WindowEnd { window, .. } => 6 << 20 | window.0,
        });
    }
}

fn run(graph: &AnimationGraph, clips: &BTreeMap<String, ClipSpec>, script: &[Frame]) -> Vec<u32> {
    let mut backend = RecordingBackend::new(clips);
    let mut player = AnimationGraphPlayer::bind(graph, &mut backend).unwrap();
    let states: Vec<Vec<String>> =
        graph.layers.iter().map(|l| l.machine.states.iter().map(|s| s.name.clone()).collect()).collect();
    let mut buffer = player.new_buffer();
    let mut out = Vec::new();
    for frame in script {
        feed(&mut player, &states, &frame.inputs);
        player.advance(frame.delta, &mut buffer);
        // The event list's room (the sum of each layer's proven bound) is never short.
        assert_eq!(player.events_dropped(), 0, "events dropped");
        fingerprint(&buffer, &player, &mut out);
    }
    out
}

fn load(path: &str) -> AnimationGraph {
    mres::load_file(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap().graph.into_graph()
}

fn clips(list: &[(&str, f32, bool)]) -> BTreeMap<String, ClipSpec> {
    list.iter().map(|(n, l, looping)| (n.to_string(), ClipSpec::new(*l, *looping))).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn locomotion_is_deterministic(script in frames()) {
        let graph = load("../../assets/graphs/locomotion.mres");
        let clips = clips(animgraph_test_support::graphs::LOCOMOTION_CLIPS);
        let first = run(&graph, &clips, &script);
        prop_assert!(!first.is_empty());
        prop_assert_eq!(first, run(&graph, &clips, &script));
    }

    #[test]
    fn showcase_is_deterministic(script in frames()) {
        let graph = load("../../assets/graphs/showcase.mres");
        let names = ["idle", "idle_fidget", "walk_slow", "walk", "run", "aim_idle", "strafe_forward", "strafe_back",
            "strafe_left", "strafe_right", "jump", "fall", "land", "hurt", "die", "arms_relaxed", "aim", "shoot", "breathe"];
        let list: Vec<(&str, f32, bool)> = names.iter().enumerate().map(|(i, n)| (*n, 0.3 + i as f32 * 0.07, i % 4 != 1)).collect();
        let clips = clips(&list);
        let first = run(&graph, &clips, &script);
        prop_assert_eq!(first, run(&graph, &clips, &script));
    }

    #[test]
    fn windows_travel_paths_and_markers_are_deterministic(script in frames()) {
        let windows = load("tests/scenarios/graphs/windows.mres");
        let clips_w = clips(animgraph_test_support::graphs::WINDOWS_CLIPS);
        let first = run(&windows, &clips_w, &script);
        prop_assert_eq!(first, run(&windows, &clips_w, &script));
        let travel = load("tests/scenarios/graphs/travel_path.mres");
        let clips_t = clips(animgraph_test_support::graphs::TRAVEL_PATH_CLIPS);
        let first = run(&travel, &clips_t, &script);
        prop_assert_eq!(first, run(&travel, &clips_t, &script));
        let markers = load("tests/scenarios/graphs/markers.mres");
        let mut clips_m = clips(&[("walk", 1.0, true), ("run", 0.75, true)]);
        clips_m.get_mut("walk").unwrap().markers = vec![("L".into(), 0.0), ("R".into(), 0.5)];
        clips_m.get_mut("run").unwrap().markers = vec![("R".into(), 0.125), ("L".into(), 0.5)];
        let first = run(&markers, &clips_m, &script);
        prop_assert_eq!(first, run(&markers, &clips_m, &script));
    }

    #[test]
    fn nested_machines_are_deterministic(script in frames()) {
        let graph = load("tests/scenarios/graphs/nested.mres");
        let clips = clips(&[("idle", 1.0, true), ("walk", 0.8, true), ("fall", 0.6, false), ("hurt", 0.4, false)]);
        let first = run(&graph, &clips, &script);
        prop_assert_eq!(first, run(&graph, &clips, &script));
    }

    #[test]
    fn layered_interruptions_are_deterministic(script in frames()) {
        let graph = load("tests/scenarios/graphs/interrupt.mres");
        let clips = clips(&[("a", 1.0, true), ("b", 0.7, true), ("c", 1.3, false), ("d", 0.9, true), ("e", 1.1, true)]);
        let first = run(&graph, &clips, &script);
        prop_assert_eq!(first, run(&graph, &clips, &script));
    }
}
