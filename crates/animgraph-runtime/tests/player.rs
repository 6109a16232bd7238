//! Behaviour of the player outside the golden scenarios: parameters, rebind, events, invariants.

use animgraph_runtime::graph::*;
use animgraph_runtime::mres;
use animgraph_runtime::script::{RecordingBackend, Script, Simulation};

fn asset(name: &str) -> AnimationGraph {
    mres::load_file(format!("{}/../../assets/graphs/{name}", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .graph
        .into_graph()
}

fn scenario_graph(name: &str) -> AnimationGraph {
    mres::load_file(format!("{}/tests/scenarios/graphs/{name}", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .graph
        .into_graph()
}

fn backend(clips: &[(&str, f32, bool)]) -> RecordingBackend {
    RecordingBackend::with_clips(clips)
}

fn locomotion_backend() -> RecordingBackend {
    backend(animgraph_test_support::graphs::LOCOMOTION_CLIPS)
}

#[test]
fn parameters_by_id_and_name() {
    let mut b = locomotion_backend();
    let mut player = AnimationGraphPlayer::bind(&asset("locomotion.mres"), &mut b).unwrap();
    let speed = player.find_parameter("speed").unwrap();
    player.set_float(speed, 3.2).unwrap();
    assert_eq!(player.get_float(speed), Some(3.2));
    player.set_float_by_name("speed", 1.0).unwrap();
    assert_eq!(player.get_property("Parameters/speed"), Some(PropertyValue::Float(1.0)));
    player.set_property("Parameters/speed", PropertyValue::Int(2)).unwrap();
    assert_eq!(player.get_float(speed), Some(2.0));
    let jump = player.find_parameter("jump").unwrap();
    player.set_property("Parameters/jump", PropertyValue::Bool(true)).unwrap();
    assert_eq!(player.is_triggered(jump), Some(true));
    assert_eq!(player.find_parameter("nope"), None);
}

#[test]
fn bad_parameter_writes_are_errors_that_keep_the_old_value() {
    let mut b = locomotion_backend();
    let mut player = AnimationGraphPlayer::bind(&asset("locomotion.mres"), &mut b).unwrap();
    let speed = player.find_parameter("speed").unwrap();
    player.set_float(speed, 1.5).unwrap();
    let e = player.set_float(speed, f32::NAN).unwrap_err();
    assert!(e.to_string().contains("\"speed\": NaN is not a finite number"), "{e}");
    assert!(player.set_float(speed, f32::INFINITY).is_err());
    assert_eq!(player.get_float(speed), Some(1.5));
    let e = player.set_bool(speed, true).unwrap_err();
    assert_eq!(e.to_string(), "parameter \"speed\" is a Float, not a Bool");
    assert_eq!(player.get_float(speed), Some(1.5));
    let e = player.fire_by_name("speed").unwrap_err();
    assert!(matches!(e, ParameterError::WrongType { .. }));
    assert!(matches!(player.set_float_by_name("sped", 1.0), Err(ParameterError::Unknown(_))));
    assert!(matches!(player.set_int(ParamId(99), 1), Err(ParameterError::BadId(99))));
    assert!(matches!(
        player.set_property("Speed", PropertyValue::Float(1.0)),
        Err(ParameterError::UnknownProperty(_))
    ));
    assert_eq!(player.get_float(speed), Some(1.5));
}

#[test]
fn int_properties_accept_only_whole_floats() {
    let mut b = backend(&[("a", 1.0, true)]);
    let mut graph = scenario_graph("conditions.mres");
    graph.layers[0]
        .machine
        .states
        .iter_mut()
        .for_each(|s| s.kind = StateKind::Clip(ClipState { clip: "a".into(), looping: true }));
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    player.set_property("Parameters/count", PropertyValue::Float(3.0)).unwrap();
    assert_eq!(player.get_property("Parameters/count"), Some(PropertyValue::Int(3)));
    assert!(matches!(
        player.set_property("Parameters/count", PropertyValue::Float(2.5)),
        Err(ParameterError::NotWhole { .. })
    ));
    assert_eq!(player.get_property("Parameters/count"), Some(PropertyValue::Int(3)));
}

#[test]
fn a_missing_clip_is_warned_once_and_its_samples_skipped() {
    let mut b = backend(&[("idle", 2.0, true), ("walk", 0.708, true)]);
    let player = AnimationGraphPlayer::bind(&asset("locomotion.mres"), &mut b);
    let mut player = player.unwrap();
    let warnings = player.warnings().to_vec();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].message.contains("clip \"run\" is not in the skeleton"));
    assert!(warnings[1].message.contains("clip \"jump\""));
    assert!(warnings.iter().all(|w| w.code == animgraph_runtime::Code::MissingClip));
    let mut buffer = player.new_buffer();
    player.set_float_by_name("speed", 3.0).unwrap();
    player.advance(0.1, &mut buffer);
    // walk at 0.4 is emitted; run (0.6) is missing and skipped.
    assert_eq!(buffer.samples().len(), 1);
    assert!((buffer.samples()[0].weight - 0.4).abs() < 1e-6);
}

#[test]
fn showcase_binds_with_its_runtime_triangulation_exposed() {
    let mut b = RecordingBackend::default();
    let player = AnimationGraphPlayer::bind(&asset("showcase.mres"), &mut b).unwrap();
    let strafe = player.find_state(0, "Locomotion/Strafe").unwrap();
    let space = player.blend_space_2d(strafe).expect("Strafe is a 2D blend space");
    assert_eq!(space.points().len(), 5);
    assert_eq!(space.triangles().len(), 4, "centre plus four directions: four triangles");
    assert_eq!(player.blend_space_2d(player.find_state(0, "Jump").unwrap()).map(|_| ()), None);
    // Masks were resolved through the backend by bone name.
    assert_eq!(b.masks.len(), 2);
    assert_eq!(b.masks[0].bones, ["spine", "arm_l", "arm_r"]);
    assert!(!b.masks[1].include_children);
}

#[test]
fn an_invalid_graph_does_not_bind() {
    let mut graph = asset("locomotion.mres");
    graph.layers[0].machine.entry = "Nowhere".into();
    let err = AnimationGraphPlayer::bind(&graph, &mut locomotion_backend()).unwrap_err();
    assert!(matches!(err, BindError::Invalid(_)));
    assert!(err.to_string().contains("Layers[0].Machine.Entry: no state \"Nowhere\""), "{err}");
}

fn run_frames(player: &mut AnimationGraphPlayer, frames: usize) {
    let mut buffer = player.new_buffer();
    for _ in 0..frames {
        player.advance(1.0 / 60.0, &mut buffer);
    }
}

#[test]
fn rebind_keeps_the_current_state_by_name_after_a_rename_elsewhere() {
    let mut b = locomotion_backend();
    let mut graph = asset("locomotion.mres");
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    player.travel(0, "Jump").unwrap();
    run_frames(&mut player, 20);
    assert_eq!(player.current_state_path(0), Some("Jump"));
    let time = player.normalised_time(0).unwrap();
    player.set_float_by_name("speed", 2.0).unwrap();
    // Rename the other state: Jump keeps playing where it was.
    graph.layers[0].machine.states[0].name = "Locomotion".into();
    graph.layers[0].machine.entry = "Locomotion".into();
    graph.layers[0].machine.transitions[1].to = "Locomotion".into();
    player.rebind(&graph, &mut b).unwrap();
    assert_eq!(player.current_state_path(0), Some("Jump"));
    assert_eq!(player.normalised_time(0), Some(time));
    assert_eq!(player.get_float(player.find_parameter("speed").unwrap()), Some(2.0), "parameters survive");
    run_frames(&mut player, 60);
    assert_eq!(player.current_state_path(0), Some("Locomotion"), "the renamed state is reachable");
}

#[test]
fn rebind_after_deleting_the_active_state_falls_back_to_the_entry() {
    let mut b = locomotion_backend();
    let mut graph = asset("locomotion.mres");
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    player.travel(0, "Jump").unwrap();
    run_frames(&mut player, 20);
    graph.layers[0].machine.states.remove(1);
    graph.layers[0].machine.transitions.clear();
    player.rebind(&graph, &mut b).unwrap();
    assert_eq!(player.current_state_path(0), Some("Move"));
    assert!(!player.in_transition(0));
    run_frames(&mut player, 1);
    assert_eq!(player.current_state_path(0), Some("Move"));
}

#[test]
fn a_failed_rebind_leaves_the_player_unchanged() {
    let mut b = locomotion_backend();
    let mut graph = asset("locomotion.mres");
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    player.travel(0, "Jump").unwrap();
    run_frames(&mut player, 5);
    graph.layers[0].machine.entry = "Missing".into();
    assert!(player.rebind(&graph, &mut b).is_err());
    // Still mid-mix (0.2 s DefaultMix): the current state is the source until it completes.
    assert_eq!(player.current_state_path(0), Some("Move"));
    assert_eq!(player.transition_target(0).map(|s| player.state_path(s)), Some("Jump"));
}

#[test]
fn travel_to_an_unknown_state_is_an_error() {
    let mut player =
        AnimationGraphPlayer::bind(&asset("locomotion.mres"), &mut locomotion_backend()).unwrap();
    assert_eq!(
        player.travel(0, "Fly").unwrap_err().to_string(),
        "layer 0 has no state \"Fly\"; use a name or an Outer/Inner path"
    );
    assert!(matches!(player.travel(3, "Jump"), Err(LayerError::NoLayer(3))));
    assert!(matches!(player.set_layer_weight(0, f32::NAN), Err(LayerError::NotFinite(_))));
}

#[test]
fn event_overflow_keeps_the_earliest_and_counts_the_rest() {
    let mut player = AnimationGraphPlayer::bind(
        &scenario_graph("nested.mres"),
        &mut backend(&[("idle", 1.0, true), ("walk", 1.0, true), ("fall", 1.0, true), ("hurt", 0.5, false)]),
    )
    .unwrap();
    let mut buffer = player.new_buffer();
    player.advance(0.1, &mut buffer);
    assert_eq!(player.events().len(), 2, "entry: Locomotion and Locomotion/Idle");
    player.set_event_capacity(2);
    player.fire_by_name("hurt").unwrap();
    player.advance(0.1, &mut buffer);
    // Exited Idle, Exited Locomotion, Started, Entered Hurt: only the first two fit.
    let kinds: Vec<&str> = player.events().iter().map(|e| e.kind()).collect();
    assert_eq!(kinds, ["StateExited", "StateExited"]);
    assert_eq!(player.events_dropped(), 2);
    assert_eq!(player.current_state_path(0), Some("Hurt"), "dropping events never changes behaviour");
    player.advance(0.1, &mut buffer);
    assert_eq!(player.events_dropped(), 0, "the count is per frame");
}

#[test]
fn bad_deltas_count_as_zero() {
    let mut player =
        AnimationGraphPlayer::bind(&asset("locomotion.mres"), &mut locomotion_backend()).unwrap();
    let mut buffer = player.new_buffer();
    for delta in [f32::NAN, -1.0, f32::INFINITY, 0.0] {
        player.advance(delta, &mut buffer);
        assert_eq!(buffer.samples()[0].time, 0.0);
    }
    assert_eq!(player.tick(), 4);
}

#[test]
fn sync_time_keeps_walk_and_run_in_phase() {
    // The Fox's walk (0.708 s) and run (1.158 s).
    let mut player =
        AnimationGraphPlayer::bind(&asset("locomotion.mres"), &mut locomotion_backend()).unwrap();
    let mut buffer = player.new_buffer();
    let speed = player.find_parameter("speed").unwrap();
    for frame in 0..2000 {
        // Sweep the blend between walk and run back and forth.
        let x = 1.5 + 2.5 * (0.5 + 0.5 * (frame as f32 * 0.01).sin());
        player.set_float(speed, x).unwrap();
        player.advance(1.0 / 60.0, &mut buffer);
        let samples = buffer.samples();
        if samples.len() == 2 {
            let phase = |i: usize, length: f32| samples[i].time / length;
            let (walk, run) = (phase(0, 0.708), phase(1, 1.158));
            assert!((walk - run).abs() < 1e-4, "frame {frame}: walk {walk} run {run}");
        }
    }
}

#[test]
fn weights_stay_normalised_and_continuous_under_random_interruptions() {
    // Random pulses on the interrupt graph: every layer's Replace weights sum to 1 every frame,
    // and no clip's weight jumps by more than one frame of mix progress.
    let graph = scenario_graph("interrupt.mres");
    let mut b =
        backend(&[("a", 1.0, true), ("b", 0.7, true), ("c", 1.3, true), ("d", 0.9, true), ("e", 1.1, true)]);
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    let mut buffer = player.new_buffer();
    let params: Vec<ParamId> =
        ["gob", "goc", "god", "any"].iter().map(|n| player.find_parameter(n).unwrap()).collect();
    let mut seed = 12345u64;
    let mut previous: Vec<(u8, u32, f32)> = Vec::new();
    let delta = 0.05f32;
    for frame in 0..5000 {
        for &p in &params {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            player.set_bool(p, (seed >> 60) == 0).unwrap();
        }
        player.advance(delta, &mut buffer);
        let mut sums = [0.0f32; 4];
        let mut now: Vec<(u8, u32, f32)> = Vec::new();
        for s in buffer.samples() {
            sums[s.layer as usize] += s.weight;
            match now.iter_mut().find(|(l, c, _)| *l == s.layer && *c == s.clip.0) {
                Some(entry) => entry.2 += s.weight,
                None => now.push((s.layer, s.clip.0, s.weight)),
            }
        }
        for (l, sum) in sums.iter().enumerate() {
            assert!((sum - 1.0).abs() < 1e-5, "frame {frame} layer {l}: weights sum to {sum}");
        }
        // Shortest mix is 0.5 s: one frame moves a weight by at most delta / 0.5 (plus the
        // drop of the lightest source in a full chain, which this graph never reaches).
        for (l, c, w) in now.iter().filter(|_| frame > 0) {
            let before = previous.iter().find(|(pl, pc, _)| pl == l && pc == c).map_or(0.0, |p| p.2);
            assert!(
                (w - before).abs() <= delta / 0.5 + 1e-4,
                "frame {frame} layer {l} clip {c}: {before} -> {w}"
            );
        }
        previous = now;
    }
}

#[test]
fn buffer_capacity_covers_the_worst_case() {
    // chain.mres: one layer, 12 clip states, every mix interruptible from the target.
    let graph = scenario_graph("chain.mres");
    let clips: Vec<(String, f32, bool)> = (0..12).map(|i| (format!("c{i}"), 1.0, true)).collect();
    let clip_refs: Vec<(&str, f32, bool)> = clips.iter().map(|(n, l, b)| (n.as_str(), *l, *b)).collect();
    let mut player = AnimationGraphPlayer::bind(&graph, &mut backend(&clip_refs)).unwrap();
    let mut buffer = player.new_buffer();
    let next = player.find_parameter("next").unwrap();
    let mut most = 0;
    for _ in 0..30 {
        player.fire(next).unwrap();
        player.advance(0.01, &mut buffer);
        most = most.max(buffer.samples().len());
        assert_eq!(buffer.dropped(), 0);
    }
    assert_eq!(most, animgraph_runtime::graph::MAX_INSTANCES, "the chain reaches the bound");
    assert_eq!(player.sample_capacity(), most, "and the buffer is sized exactly for it");
}

#[test]
fn simulate_errors_name_the_step() {
    let graph = asset("locomotion.mres");
    let cases = [
        (
            r#"{"frames": 10, "steps": [{"frame": 1, "set": {"sped": 1}}]}"#,
            "step 0: no parameter \"sped\" in the graph",
        ),
        (
            r#"{"frames": 10, "steps": [{"frame": 1, "set": {"speed": true}}]}"#,
            "step 0: parameter \"speed\" is a Float; true is not a finite number",
        ),
        (
            r#"{"frames": 10, "steps": [{"frame": 1}, {"frame": 2, "fire": "speed"}]}"#,
            "step 1: \"speed\" is not a trigger",
        ),
        (
            r#"{"frames": 10, "steps": [{"frame": 1, "travel": {"layer": 0, "state": "Fly"}}]}"#,
            "step 0: layer 0 has no state \"Fly\"",
        ),
        (
            r#"{"frames": 10, "steps": [{"frame": 1, "travel": {"layer": 2, "state": "Jump"}}]}"#,
            "step 0: layer 2 does not exist",
        ),
        (
            r#"{"frames": 10, "steps": [{"frame": 1, "skins": ["gold"]}]}"#,
            "step 0: no skin \"gold\" in the skeleton",
        ),
    ];
    for (text, message) in cases {
        let script = Script::parse(text).unwrap();
        let err = Simulation::recording(
            &animgraph_runtime::graph::ValidGraph::new(graph.clone()).unwrap(),
            &script,
        )
        .err()
        .expect(message)
        .to_string();
        assert!(err.starts_with(message), "{err}");
    }
    let parse_cases = [
        (
            r#"{"frames": 10, "steps": [{"frame": 5}, {"frame": 2}]}"#,
            "step 1: frame 2 comes after frame 5; order steps by frame",
        ),
        (r#"{"frames": 10, "steps": [{"frame": 12}]}"#, "step 0: frame 12 is past the script's 10 frames"),
        (r#"{"frames": 10, "steps": [{"frame": 1, "jump": 1}]}"#, "step 0: unknown action \"jump\""),
        (
            r#"{"frames": 10, "steps": [{"frame": 1, "skins": "gold"}]}"#,
            "step 0: \"skins\" must be a list of skin names",
        ),
        (
            r#"{"frames": 10, "steps": [{"frame": 1, "set": {"speed": "fast"}}]}"#,
            "step 0: parameter \"speed\": \"fast\" is not a bool or a number",
        ),
        (r#"{"steps": []}"#, "\"frames\" is missing"),
        (r#"{"frames": 1, "fps": 0}"#, "\"fps\" must be a number above 0"),
        (r#"{"frames": 1, "clips": {"a": {"length": -1}}}"#, "clip \"a\" needs a \"length\" above 0 seconds"),
        ("{", "malformed JSON"),
    ];
    for (text, message) in parse_cases {
        let err = Script::parse(text).unwrap_err().to_string();
        assert!(err.starts_with(message), "{err}");
    }
}

#[test]
fn buffer_capacity_covers_2d_chains_and_tracks() {
    use animgraph_runtime::SampleBuffer;
    use animgraph_runtime::tracks::{AnimationTracks, MAX_TRACK_ENTRIES, TrackClip};
    // Eight 2D spaces (each weighting three clips inside a triangle) chained by interruptible
    // mixes: the most one layer can emit is MAX_INSTANCES x 3.
    let mut graph = AnimationGraph {
        parameters: vec![
            GraphParameter { name: "x".into(), kind: ParameterType::Float, default: 0.2, latch: false },
            GraphParameter { name: "y".into(), kind: ParameterType::Float, default: 0.3, latch: false },
            GraphParameter { name: "next".into(), kind: ParameterType::Trigger, default: 0.0, latch: false },
        ],
        ..Default::default()
    };
    let mut machine = GraphMachine { entry: "S0".into(), ..Default::default() };
    for i in 0..10 {
        machine.states.push(GraphState::new(
            format!("S{i}"),
            StateKind::BlendSpace2D(BlendSpace2D {
                parameter_x: "x".into(),
                parameter_y: "y".into(),
                clips: vec!["a".into(), "b".into(), "c".into(), "d".into()],
                positions: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
                sync_time: i % 2 == 0,
                sync_markers: false,
            }),
        ));
        if i > 0 {
            machine.transitions.push(GraphTransition {
                from: format!("S{}", i - 1),
                to: format!("S{i}"),
                conditions: vec![GraphCondition {
                    parameter: "next".into(),
                    op: ConditionOp::Triggered,
                    value: 0.0,
                }],
                duration: 1.0,
                interrupt: TransitionInterrupt::Target,
                ..Default::default()
            });
        }
    }
    graph.layers.push(GraphLayer { machine, ..Default::default() });
    let mut b = backend(&[("a", 1.0, true), ("b", 0.8, true), ("c", 1.2, true), ("d", 0.9, true)]);
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    let mut tracks = AnimationTracks::new(2, player.layer_count());
    let capacity = player.sample_capacity() + tracks.sample_capacity();
    assert_eq!(capacity, animgraph_runtime::graph::MAX_INSTANCES * 3 + 2 * MAX_TRACK_ENTRIES);
    let mut buffer = SampleBuffer::with_capacity(capacity, 3);
    let clip = TrackClip {
        clip: animgraph_runtime::ClipId(0),
        length: 1.0,
        looping: true,
        speed: 1.0,
        mix: Some(1.0),
    };
    let mut most = 0;
    for frame in 0..12 {
        player.fire_by_name("next").unwrap();
        for track in 0..2 {
            tracks.set_clip(track, TrackClip { clip: animgraph_runtime::ClipId(frame % 4), ..clip }).unwrap();
        }
        player.advance(0.01, &mut buffer);
        tracks.advance(0.01, &mut buffer);
        assert_eq!(buffer.dropped(), 0, "frame {frame}");
        most = most.max(buffer.samples().len());
    }
    assert_eq!(most, capacity, "the worst case fills the computed bound exactly");
}

fn nested_player() -> AnimationGraphPlayer {
    let mut graph = scenario_graph("nested.mres");
    // An inner `*` transition: any inner state -> Idle on `hurt`... use a fresh trigger "rest".
    graph.parameters.push(GraphParameter {
        name: "rest".into(),
        kind: ParameterType::Trigger,
        default: 0.0,
        latch: false,
    });
    let StateKind::SubMachine(inner) = &mut graph.layers[0].machine.states[0].kind else {
        panic!("Locomotion")
    };
    inner.transitions.push(GraphTransition {
        from: ANY_STATE.into(),
        to: "Idle".into(),
        conditions: vec![GraphCondition { parameter: "rest".into(), op: ConditionOp::Triggered, value: 0.0 }],
        duration: 0.0,
        ..Default::default()
    });
    AnimationGraphPlayer::bind(
        &graph,
        &mut backend(&[("idle", 1.0, true), ("walk", 1.0, true), ("fall", 1.0, true), ("hurt", 0.5, false)]),
    )
    .unwrap()
}

fn event_names(player: &AnimationGraphPlayer) -> Vec<String> {
    player
        .events()
        .iter()
        .map(|e| match *e {
            GraphEvent::StateEntered { state, .. } => format!("+{}", player.state_path(state)),
            GraphEvent::StateExited { state, .. } => format!("-{}", player.state_path(state)),
            GraphEvent::TransitionStarted { from, to, .. } => {
                format!("{}>{}", player.state_path(from), player.state_path(to))
            }
            GraphEvent::TravelPlanned { to, hops, .. } => format!("~{}/{hops}", player.state_path(to)),
            GraphEvent::WindowBegin { state, window, .. } => {
                format!("[{}.{}", player.state_path(state), player.bound_graph().window_name(window))
            }
            GraphEvent::WindowEnd { state, window, .. } => {
                format!("]{}.{}", player.state_path(state), player.bound_graph().window_name(window))
            }
        })
        .collect()
}

#[test]
fn travel_into_a_nested_state_enters_its_sub_machine_first() {
    let mut player = nested_player();
    let mut buffer = player.new_buffer();
    player.set_bool_by_name("grounded", false).unwrap(); // so Fall -> Locomotion waits
    player.travel(0, "Fall").unwrap();
    player.advance(0.1, &mut buffer);
    for _ in 0..3 {
        player.advance(0.1, &mut buffer);
    }
    assert_eq!(player.current_state_path(0), Some("Fall"));
    player.travel(0, "Locomotion/Walk").unwrap();
    player.advance(0.1, &mut buffer);
    assert_eq!(event_names(&player), ["Fall>Locomotion/Walk", "+Locomotion", "+Locomotion/Walk"]);
    assert_eq!(player.transition_target(0).map(|s| player.state_path(s)), Some("Locomotion/Walk"));
    assert_eq!(player.find_state(0, "Walk"), None, "nested states are addressed by path");
}

#[test]
fn nested_any_state_stays_inside_its_machine_and_never_into_itself() {
    let mut player = nested_player();
    let mut buffer = player.new_buffer();
    player.set_float_by_name("speed", 1.0).unwrap();
    for _ in 0..5 {
        player.advance(0.1, &mut buffer);
    }
    assert_eq!(player.current_state_path(0), Some("Locomotion/Walk"));
    player.fire_by_name("rest").unwrap();
    player.advance(0.1, &mut buffer);
    // The inner `*` (instant) cuts to Idle.
    assert_eq!(
        event_names(&player),
        ["-Locomotion/Walk", "Locomotion/Walk>Locomotion/Idle", "+Locomotion/Idle"]
    );
    // In Idle, `*` -> Idle is never taken.
    player.set_float_by_name("speed", 0.0).unwrap();
    player.fire_by_name("rest").unwrap();
    player.advance(0.1, &mut buffer);
    assert!(player.events().is_empty(), "{:?}", event_names(&player));
    // Outside the sub-machine (in Fall) the inner `*` is not a candidate at all.
    player.set_bool_by_name("grounded", false).unwrap();
    for _ in 0..3 {
        player.advance(0.1, &mut buffer);
    }
    assert_eq!(player.current_state_path(0), Some("Fall"));
    player.fire_by_name("rest").unwrap();
    player.advance(0.1, &mut buffer);
    assert_eq!(player.current_state_path(0), Some("Fall"));
    assert!(player.events().is_empty());
}

/// A transition's `Curve` shapes the crossfade: the target's weight is curve(progress) every
/// frame of the mix, the sources share the rest, and the mix still ends after `Duration`.
#[test]
fn transition_curves_shape_the_crossfade_weight() {
    let mut targets_at_third_frame = Vec::new();
    for curve in TransitionCurve::ALL {
        let mut b = locomotion_backend();
        let jump = animgraph_runtime::PoseBackend::resolve_clip(&mut b, "jump").unwrap();
        let mut graph = asset("locomotion.mres");
        graph.layers[0].machine.transitions[0].duration = 0.25;
        graph.layers[0].machine.transitions[0].curve = curve;
        let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
        let mut buffer = player.new_buffer();
        player.advance(1.0 / 60.0, &mut buffer);
        player.fire_by_name("jump").unwrap();
        let mut frames = 0;
        loop {
            player.advance(1.0 / 60.0, &mut buffer);
            frames += 1;
            let Some(progress) = player.transition_progress(0) else { break };
            let target: f32 = buffer.samples().iter().filter(|s| s.clip == jump).map(|s| s.weight).sum();
            let total: f32 = buffer.samples().iter().map(|s| s.weight).sum();
            assert!((target - curve.apply(progress)).abs() < 1e-6, "{curve:?}: {target} at {progress}");
            assert!((total - 1.0).abs() < 1e-5, "{curve:?}: weights sum to {total}");
            if frames == 3 {
                targets_at_third_frame.push(target);
            }
            assert!(frames < 60, "the mix ends");
        }
        assert_eq!(frames, 16, "{curve:?}: 0.25 s at 60 fps, whatever the curve");
    }
    // At progress 0.2 (3 of 15 frames): EaseIn t^2 < EaseInOut < Linear < EaseOut.
    let [linear, ease_in, ease_out, ease_in_out] = targets_at_third_frame[..] else { panic!() };
    assert!(ease_in < ease_in_out && ease_in_out < linear && linear < ease_out, "{targets_at_third_frame:?}");
}

/// Open windows as `(layer, state path, window)` from a frame's events, checking the pairing:
/// no window begins while open, none ends unless open.
fn track_windows(
    player: &AnimationGraphPlayer,
    open: &mut std::collections::BTreeSet<(u8, String, String)>,
    when: &str,
) -> usize {
    let mut seen = 0;
    for e in player.events() {
        let (begin, layer, state, window) = match *e {
            GraphEvent::WindowBegin { layer, state, window } => (true, layer, state, window),
            GraphEvent::WindowEnd { layer, state, window } => (false, layer, state, window),
            _ => continue,
        };
        seen += 1;
        let key = (
            layer,
            player.state_path(state).to_string(),
            player.bound_graph().window_name(window).to_string(),
        );
        if begin {
            assert!(open.insert(key.clone()), "{when}: {key:?} began twice");
        } else {
            assert!(open.remove(&key), "{when}: {key:?} ended without a begin");
        }
    }
    seen
}

/// Every `WindowBegin` has exactly one `WindowEnd`, whatever happens between: attacks cut by
/// hits, travel, restores of an earlier snapshot and rebinds; and what the events say is open is
/// what the player reports open.
#[test]
fn windows_begin_and_end_in_pairs_under_interruption_travel_restore_and_rebind() {
    let graph = scenario_graph("windows.mres");
    let mut b = backend(animgraph_test_support::graphs::WINDOWS_CLIPS);
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    let mut buffer = player.new_buffer();
    let mut open = std::collections::BTreeSet::new();
    let mut snapshot = player.snapshot();
    let mut seed = 7u64;
    let (mut events, mut restores, mut rebinds) = (0, 0, 0);
    for frame in 0..4_000u32 {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let roll = (seed >> 33) % 100;
        match roll {
            0..=9 => player.fire_by_name("attack").unwrap(),
            10..=12 => player.fire_by_name("hit").unwrap(),
            13..=14 => player.travel(0, if roll == 13 { "Spin" } else { "Attack" }).unwrap(),
            15 => {
                player.restore(&snapshot);
                restores += 1;
            }
            16 => snapshot = player.snapshot(),
            17 => {
                player.rebind(&graph, &mut b).unwrap();
                rebinds += 1;
            }
            _ => {}
        }
        player.advance(1.0 / 8.0 * (1 + (seed >> 40) % 3) as f32, &mut buffer);
        events += track_windows(&player, &mut open, &format!("frame {frame}"));
        let reported: std::collections::BTreeSet<_> = player
            .open_windows(0)
            .map(|w| {
                let state = player.transition_target(0).or(player.current_state(0)).unwrap();
                (0u8, player.state_path(state).to_string(), player.bound_graph().window_name(w).to_string())
            })
            .collect();
        assert_eq!(reported, open, "frame {frame}: open windows");
    }
    assert!(
        events > 400 && restores > 20 && rebinds > 20,
        "{events} events, {restores} restores, {rebinds} rebinds"
    );
}

/// A restore ends the windows open before it at the next advance, and those open in the restored
/// state begin again there; a rebind does the same.
#[test]
fn restore_and_rebind_end_open_windows_then_reopen_them() {
    let graph = scenario_graph("windows.mres");
    let mut b = backend(animgraph_test_support::graphs::WINDOWS_CLIPS);
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    let mut buffer = player.new_buffer();
    player.fire_by_name("attack").unwrap();
    for _ in 0..4 {
        player.advance(0.125, &mut buffer);
    }
    // Attack at 0.5 (it started on the first advance): hitbox and combo open.
    assert_eq!(player.open_windows(0).count(), 2);
    let snapshot = player.snapshot();
    player.restore(&snapshot);
    player.advance(0.125, &mut buffer);
    assert_eq!(
        event_names(&player),
        ["]Attack.hitbox", "]Attack.combo", "[Attack.combo"],
        "ends of what was open, then begins at the restored time advanced (0.625: past hitbox [0.3, 0.6))"
    );
    player.rebind(&graph, &mut b).unwrap();
    player.advance(0.125, &mut buffer);
    // 0.75: combo [0.5, 0.9) ends with the rebind and reopens.
    assert_eq!(event_names(&player), ["]Attack.combo", "[Attack.combo"]);
}

/// Markers a sample crossed this frame: names of keys in `(prev, time]`, across the loop.
fn crossed(markers: &[(&str, f32)], sample: &animgraph_runtime::ClipSample, length: f32) -> Vec<String> {
    let inside = |t: f32| {
        if sample.looped {
            t > sample.prev_time && t <= length || t <= sample.time
        } else {
            t > sample.prev_time && t <= sample.time
        }
    };
    let mut names: Vec<String> =
        markers.iter().filter(|(_, t)| inside(*t)).map(|(n, _)| n.to_string()).collect();
    names.sort();
    names
}

/// A walk (L at 0, R at 0.5 of 1 s) and a run with other timings and order (R at 0.125, L at
/// 0.5 of 0.75 s) in a 1D space with SyncMarkers: at every speed, whenever one clip passes a
/// foot plant the other passes the same one on the same frame. Without SyncMarkers (SyncTime
/// only) they do not.
#[test]
fn marker_synced_blend_spaces_plant_the_same_foot_on_the_same_frame() {
    let walk_markers = [("L", 0.0), ("R", 0.5)];
    let run_markers = [("R", 0.125), ("L", 0.5)];
    let run_with = |sync_markers: bool| -> (usize, usize) {
        let mut graph = scenario_graph("markers.mres");
        if let StateKind::BlendSpace1D(b) = &mut graph.layers[0].machine.states[2].kind {
            b.sync_markers = sync_markers;
        }
        let mut b = backend(&[("walk", 1.0, true), ("run", 0.75, true)]);
        b.set_markers("walk", &walk_markers);
        b.set_markers("run", &run_markers);
        let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
        let mut buffer = player.new_buffer();
        player.travel(0, "Move").unwrap();
        let (mut agreeing, mut disagreeing) = (0, 0);
        for frame in 0..3_000u32 {
            let speed = 0.5 + 0.45 * (frame as f32 * 0.003).sin();
            player.set_float_by_name("speed", speed).unwrap();
            player.advance(1.0 / 60.0, &mut buffer);
            let samples = buffer.samples();
            if samples.len() != 2 {
                continue;
            }
            let walk = crossed(&walk_markers, &samples[0], 1.0);
            let run = crossed(&run_markers, &samples[1], 0.75);
            if walk.is_empty() && run.is_empty() {
                continue;
            }
            if walk == run { agreeing += 1 } else { disagreeing += 1 }
        }
        (agreeing, disagreeing)
    };
    let (agreeing, disagreeing) = run_with(true);
    assert!(agreeing > 100, "only {agreeing} foot plants");
    assert_eq!(disagreeing, 0, "{disagreeing} frames where one clip planted a foot the other did not");
    let (_, unsynced) = run_with(false);
    assert!(unsynced > 50, "SyncTime alone keeps these feet apart ({unsynced} frames disagree)");
}
