//! Load -> save -> load is lossless, and a file we saved round-trips byte for byte.

use animgraph_runtime::graph::*;
use animgraph_runtime::mres;
use animgraph_runtime::{BoneMask, ClipBlend};
use proptest::prelude::*;

fn asset(name: &str) -> String {
    let path = format!("{}/../../assets/graphs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn round_trip(text: &str) {
    let first = mres::load_str(text).unwrap();
    assert!(first.warnings.is_empty(), "{:?}", first.warnings);
    let saved = mres::save_to_string(&first.graph);
    let second = mres::load_str(&saved).unwrap();
    assert_eq!(second.graph, first.graph, "load -> save -> load changed the graph");
    assert!(second.warnings.is_empty(), "{:?}", second.warnings);
    assert_eq!(mres::save_to_string(&second.graph), saved, "a saved file did not re-save byte for byte");
}

#[test]
fn locomotion_round_trips() {
    round_trip(&asset("locomotion.mres"));
}

#[test]
fn showcase_round_trips() {
    round_trip(&asset("showcase.mres"));
}

#[test]
fn locomotion_loads_as_the_proposal_describes() {
    let graph = mres::load_str(&asset("locomotion.mres")).unwrap().graph;
    assert_eq!(graph.uid, "res_0a4c9e71b3f2");
    assert_eq!(graph.default_mix, 0.2);
    let machine = &graph.layers[0].machine;
    assert_eq!(machine.entry, "Move");
    let StateKind::BlendSpace1D(space) = &machine.states[0].kind else { panic!("Move is a 1D blend space") };
    assert_eq!(space.positions, [0.0, 1.5, 4.0]);
    assert!(space.sync_time, "SyncTime defaults to true");
    let StateKind::Clip(jump) = &machine.states[1].kind else { panic!("Jump is a clip state") };
    assert!(!jump.looping);
    assert_eq!(machine.transitions[0].from, ANY_STATE);
    assert_eq!(machine.transitions[0].duration, 0.1);
    assert_eq!(machine.transitions[1].duration, -1.0, "Duration defaults to -1");
    assert_eq!(machine.transitions[1].exit_time, 0.9);
    assert_eq!(machine.transitions[0].conditions[0].op, ConditionOp::Triggered);
}

#[test]
fn showcase_uses_every_feature() {
    let graph = mres::load_str(&asset("showcase.mres")).unwrap().graph;
    let stats = graph.stats();
    assert!(stats.layers >= 3 && stats.sub_machines >= 1 && stats.blend_spaces >= 2);
    let masked = graph.layers.iter().any(|l| l.mask.is_some() && l.blend == ClipBlend::Replace);
    let additive =
        graph.layers.iter().any(|l| l.blend == ClipBlend::Additive && !l.weight_parameter.is_empty());
    assert!(masked && additive);
    assert!(graph.parameters.iter().any(|p| p.latch));
    assert!(!graph.mixes.is_empty());
    let mut ops = Vec::new();
    let mut interrupts = Vec::new();
    let mut exit_above_one = false;
    let mut offset = false;
    let mut exit_transition = false;
    let mut any_state = false;
    let mut kinds = Vec::new();
    fn walk(m: &GraphMachine, f: &mut dyn FnMut(&GraphTransition), k: &mut dyn FnMut(&StateKind)) {
        for t in &m.transitions {
            f(t);
        }
        for s in &m.states {
            k(&s.kind);
            if let StateKind::SubMachine(inner) = &s.kind {
                walk(inner, f, k);
            }
        }
    }
    for layer in &graph.layers {
        walk(
            &layer.machine,
            &mut |t| {
                ops.extend(t.conditions.iter().map(|c| c.op));
                interrupts.push(t.interrupt);
                exit_above_one |= t.exit_time > 1.0;
                offset |= t.offset > 0.0;
                exit_transition |= t.to == EXIT_STATE;
                any_state |= t.from == ANY_STATE;
            },
            &mut |k| kinds.push(k.type_name()),
        );
    }
    for op in ConditionOp::ALL {
        assert!(ops.contains(&op), "no condition uses {op:?}");
    }
    for mode in TransitionInterrupt::ALL {
        assert!(interrupts.contains(&mode), "no transition uses Interrupt {mode:?}");
    }
    for kind in ["ClipState", "BlendSpace1DState", "BlendSpace2DState", "SubMachineState"] {
        assert!(kinds.contains(&kind), "no {kind}");
    }
    assert!(exit_above_one && offset && exit_transition && any_state);
}

#[test]
fn save_file_is_atomic_and_leaves_no_temporary_file() {
    let dir = animgraph_test_support::scratch_dir("save");
    let path = dir.join("graph.mres");
    std::fs::write(&path, "old contents").unwrap();
    let graph = mres::load_str(&asset("locomotion.mres")).unwrap().graph;
    mres::save_file(&graph, &path).unwrap();
    assert_eq!(mres::load_file(&path).unwrap().graph, graph);
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 1, "temporary files left behind: {names:?}");
    // Saving into a folder that does not exist fails cleanly and changes nothing.
    let err = mres::save_file(&graph, dir.join("missing/graph.mres")).unwrap_err();
    assert!(err.to_string().contains("cannot write"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- random valid graphs ----------------------------------------------------------------------

/// Finite floats including awkward ones (tiny, huge, negative, fractional).
fn any_float() -> impl Strategy<Value = f32> {
    prop_oneof![
        (-1000.0f32..1000.0),
        Just(0.0f32),
        Just(-1.0f32),
        Just(1e-7f32),
        Just(3.4e38f32),
        (-1e20f32..1e20f32),
    ]
}

fn non_negative() -> impl Strategy<Value = f32> {
    prop_oneof![(0.0f32..10.0), Just(0.0f32), Just(1e30f32)]
}

/// Names with characters that need escaping.
fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _\"\\\\é\u{1F600}]{1,8}"
}

const PARAMS: [(&str, ParameterType); 4] = [
    ("f", ParameterType::Float),
    ("i", ParameterType::Int),
    ("b", ParameterType::Bool),
    ("t", ParameterType::Trigger),
];

fn condition() -> impl Strategy<Value = GraphCondition> {
    (0..4usize, 0..4usize, any_float()).prop_map(|(p, o, value)| {
        let (parameter, kind) = PARAMS[p];
        let ops: Vec<ConditionOp> = ConditionOp::fitting(kind).collect();
        GraphCondition { parameter: parameter.to_string(), op: ops[o % ops.len()], value }
    })
}

fn state_kind(depth: u32) -> BoxedStrategy<StateKind> {
    let clip =
        (name(), any::<bool>()).prop_map(|(clip, looping)| StateKind::Clip(ClipState { clip, looping }));
    let one_d = (prop::collection::vec((name(), 0.1f32..5.0), 1..5), any::<bool>(), any::<bool>()).prop_map(
        |(points, sync_time, int)| {
            let mut position = -3.0;
            let mut clips = Vec::new();
            let mut positions = Vec::new();
            for (clip, step) in points {
                position += step;
                clips.push(clip);
                positions.push(position);
            }
            let parameter = if int { "i" } else { "f" }.to_string();
            StateKind::BlendSpace1D(BlendSpace1D {
                parameter,
                clips,
                positions,
                sync_time,
                sync_markers: int,
            })
        },
    );
    let two_d = (prop::collection::vec((name(), any_float(), any_float()), 1..6), any::<bool>()).prop_map(
        |(points, sync_time)| {
            let mut clips = Vec::new();
            let mut positions: Vec<[f32; 2]> = Vec::new();
            for (clip, x, y) in points {
                if !positions.contains(&[x, y]) {
                    clips.push(clip);
                    positions.push([x, y]);
                }
            }
            StateKind::BlendSpace2D(BlendSpace2D {
                parameter_x: "f".into(),
                parameter_y: "i".into(),
                clips,
                positions,
                sync_time,
                sync_markers: !sync_time,
            })
        },
    );
    if depth == 0 {
        prop_oneof![clip, one_d, two_d].boxed()
    } else {
        prop_oneof![4 => clip, 2 => one_d, 2 => two_d, 1 => machine(depth - 1).prop_map(StateKind::SubMachine)].boxed()
    }
}

fn machine(depth: u32) -> BoxedStrategy<GraphMachine> {
    let state = (state_kind(depth), any_float(), any::<bool>(), any_float(), any_float());
    (prop::collection::vec(state, 1..5), prop::collection::vec(any::<u64>(), 0..6), any::<usize>())
        .prop_flat_map(move |(states, seeds, entry)| {
            let states: Vec<GraphState> = states
                .into_iter()
                .enumerate()
                .map(|(i, (kind, speed, speed_param, x, y))| {
                    // Windows on clip and blend-space states (sub-machines have no time).
                    let windows = if matches!(kind, StateKind::SubMachine(_)) || !speed_param {
                        Vec::new()
                    } else {
                        vec![
                            GraphWindow {
                                name: "hit box".into(),
                                start: x.abs() % 1.0,
                                end: x.abs() % 1.0 + 0.5,
                            },
                            GraphWindow { name: "combo".into(), ..Default::default() },
                        ]
                    };
                    GraphState {
                        name: format!("S{i}"),
                        speed,
                        speed_parameter: if speed_param { "f".into() } else { String::new() },
                        editor_position: [x, y],
                        kind,
                        windows,
                    }
                })
                .collect();
            let n = states.len();
            let transitions = seeds
                .into_iter()
                .map(move |seed| {
                    (
                        prop::collection::vec(condition(), 0..3),
                        prop_oneof![Just(-1.0f32), non_negative()],
                        prop_oneof![Just(-1.0f32), non_negative()],
                        non_negative(),
                        0..4usize,
                        -3..4i32,
                    )
                        .prop_map(
                            move |(conditions, duration, exit_time, offset, interrupt, priority)| {
                                let from = (seed % (n as u64 + 1)) as usize;
                                let to = ((seed >> 8) % n as u64) as usize;
                                GraphTransition {
                                    from: if from == n { ANY_STATE.to_string() } else { format!("S{from}") },
                                    to: if depth < 2 && seed & 1 << 20 != 0 {
                                        EXIT_STATE.to_string()
                                    } else {
                                        format!("S{to}")
                                    },
                                    conditions,
                                    duration,
                                    exit_time,
                                    offset,
                                    interrupt: TransitionInterrupt::ALL[interrupt],
                                    priority,
                                    curve: animgraph_runtime::graph::TransitionCurve::ALL
                                        [(seed >> 24) as usize % 4],
                                    blend: TransitionBlend::ALL[(seed >> 28) as usize % 2],
                                    sync: TransitionSync::ALL[(seed >> 30) as usize % 2],
                                }
                            },
                        )
                })
                .collect::<Vec<_>>();
            let entry = format!("S{}", entry % n);
            (Just(states), transitions, Just(entry))
        })
        .prop_map(|(states, transitions, entry)| GraphMachine { states, transitions, entry })
        .boxed()
}

fn graph() -> impl Strategy<Value = AnimationGraph> {
    let layer = (
        name(),
        any::<bool>(),
        0.0f32..=1.0,
        any::<bool>(),
        proptest::option::of((prop::collection::vec(name(), 0..4), any::<bool>(), any::<bool>())),
        machine(2),
    );
    (
        name(),
        prop::collection::vec(layer, 1..4),
        prop::collection::vec((name(), name(), non_negative()), 0..3),
        non_negative(),
        any::<bool>(),
        -5..5i32,
    )
        .prop_map(|(uid, layers, mixes, default_mix, latch, int_default)| AnimationGraph {
            uid,
            parameters: PARAMS
                .iter()
                .map(|(n, kind)| GraphParameter {
                    name: n.to_string(),
                    kind: *kind,
                    default: match kind {
                        ParameterType::Int => int_default as f32,
                        ParameterType::Bool => 1.0,
                        ParameterType::Float => 0.25,
                        ParameterType::Trigger => 0.0,
                    },
                    latch: latch && *kind == ParameterType::Trigger,
                })
                .collect(),
            layers: layers
                .into_iter()
                .enumerate()
                .map(|(i, (name, additive, weight, weighted, mask, machine))| GraphLayer {
                    name: format!("{name}{i}"),
                    blend: if additive && i > 0 { ClipBlend::Additive } else { ClipBlend::Replace },
                    weight,
                    weight_parameter: if weighted { "f".into() } else { String::new() },
                    mask: mask.map(|(bones, include_children, weighted)| BoneMask {
                        weights: if weighted {
                            (0..bones.len()).map(|b| b as f32 / 4.0).collect()
                        } else {
                            Vec::new()
                        },
                        ..BoneMask::new(bones, include_children)
                    }),
                    machine: top_level(machine),
                    travel_mode: if additive { TravelMode::Path } else { TravelMode::Direct },
                })
                .collect(),
            mixes: mixes
                .into_iter()
                .map(|(from, to, duration)| GraphMixOverride { from, to, duration })
                .collect(),
            default_mix,
        })
}

/// `<exit>` is only valid inside sub-machines: retarget top-level ones.
fn top_level(mut machine: GraphMachine) -> GraphMachine {
    let first = machine.states[0].name.clone();
    for t in &mut machine.transitions {
        if t.to == EXIT_STATE {
            t.to = first.clone();
        }
    }
    machine
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn random_valid_graphs_survive_save_and_load(graph in graph()) {
        let errors: Vec<_> = validate(&graph).into_iter().filter(|i| i.severity == Severity::Error).collect();
        prop_assert!(errors.is_empty(), "generator made an invalid graph: {:?}", errors);
        let saved = mres::save_to_string(&graph);
        let loaded = mres::load_str(&saved).map_err(|e| TestCaseError::fail(format!("{e}\n{saved}")))?;
        prop_assert_eq!(&loaded.graph, &graph);
        prop_assert_eq!(mres::save_to_string(&loaded.graph), saved);
    }
}
