//! One case per lint code: a graph that has the problem, and the fixed graph that does not.
//! Every case graph is valid (lint finds what validation cannot).

use animgraph_runtime::graph::*;
use animgraph_runtime::lint::{CODES, LintFinding, SkeletonFacts, lint};
use animgraph_runtime::mres;

fn clip(name: &str, c: &str) -> GraphState {
    GraphState::new(name, StateKind::Clip(ClipState { clip: c.into(), looping: true }))
}

fn p(name: &str, kind: ParameterType) -> GraphParameter {
    GraphParameter { name: name.into(), kind, default: 0.0, latch: false }
}

fn when(parameter: &str, op: ConditionOp, value: f32) -> GraphCondition {
    GraphCondition { parameter: parameter.into(), op, value }
}

fn t(from: &str, to: &str, conditions: Vec<GraphCondition>) -> GraphTransition {
    GraphTransition { from: from.into(), to: to.into(), conditions, ..Default::default() }
}

/// Idle and Walk, with `speed`, `level` (Int), `grounded`, `go` (trigger); every parameter read.
fn base(transitions: Vec<GraphTransition>) -> AnimationGraph {
    let mut states = vec![clip("Idle", "idle"), clip("Walk", "walk")];
    states[1].speed_parameter = "speed".into();
    AnimationGraph {
        uid: "res_lint".into(),
        parameters: vec![
            p("speed", ParameterType::Float),
            p("level", ParameterType::Int),
            p("grounded", ParameterType::Bool),
            p("go", ParameterType::Trigger),
        ],
        layers: vec![GraphLayer {
            machine: GraphMachine { states, transitions, entry: "Idle".into() },
            weight_parameter: String::new(),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// The transitions every case keeps, so each parameter is read and both states are reached.
fn reads_everything() -> Vec<GraphTransition> {
    vec![
        t(
            "Idle",
            "Walk",
            vec![when("go", ConditionOp::Triggered, 0.0), when("grounded", ConditionOp::True, 0.0)],
        ),
        t("Walk", "Idle", vec![when("level", ConditionOp::Greater, 1.0)]),
    ]
}

fn with(mut extra: Vec<GraphTransition>) -> AnimationGraph {
    let mut all = reads_everything();
    all.append(&mut extra);
    base(all)
}

fn codes(findings: &[LintFinding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.code.id()).collect()
}

/// Lints after checking the graph is valid.
fn check(graph: &AnimationGraph, skeleton: Option<&SkeletonFacts>) -> Vec<LintFinding> {
    let problems = validate(graph);
    assert!(problems.iter().all(|i| i.severity != Severity::Error), "invalid test graph: {problems:?}");
    lint(graph, skeleton)
}

fn has(findings: &[LintFinding], code: &str) -> LintFinding {
    findings
        .iter()
        .find(|f| f.code.id() == code)
        .cloned()
        .unwrap_or_else(|| panic!("no {code} in {findings:#?}"))
}

#[test]
fn the_base_case_is_clean() {
    assert_eq!(codes(&check(&with(vec![]), None)), Vec::<&str>::new());
}

#[test]
fn l001_unreachable_state() {
    let mut g = with(vec![]);
    g.layers[0].machine.states.push(clip("Dance", "dance"));
    let f = check(&g, None);
    let found = has(&f, "L001");
    assert_eq!(found.path, "Layers[0].Machine.States[2]");
    assert!(found.subject.contains("Dance"));
    // Fixed: a `*` transition leads there.
    g.layers[0].machine.transitions.push(t("*", "Dance", vec![when("go", ConditionOp::Triggered, 0.0)]));
    assert!(!codes(&check(&g, None)).contains(&"L001"));
}

#[test]
fn l001_counts_a_sub_machines_exit() {
    // Air -> Land only counts when Air's inner machine can reach <exit>.
    let inner = GraphMachine { states: vec![clip("Up", "jump")], transitions: vec![], entry: "Up".into() };
    let mut g = with(vec![]);
    let m = &mut g.layers[0].machine;
    m.states.push(GraphState::new("Air", StateKind::SubMachine(inner)));
    m.states.push(clip("Land", "land"));
    m.transitions.push(t("Idle", "Air", vec![when("go", ConditionOp::Triggered, 0.0)]));
    m.transitions.push(t("Air", "Land", vec![]));
    let f = check(&g, None);
    assert!(has(&f, "L001").subject.contains("Land"), "{f:#?}");
    if let StateKind::SubMachine(inner) = &mut g.layers[0].machine.states[2].kind {
        let mut exit = t("Up", EXIT_STATE, vec![]);
        exit.exit_time = 1.0;
        inner.transitions.push(exit);
    }
    assert!(!codes(&check(&g, None)).contains(&"L001"));
}

#[test]
fn l002_contradictory_conditions() {
    let g = with(vec![t(
        "Idle",
        "Walk",
        vec![when("speed", ConditionOp::Greater, 5.0), when("speed", ConditionOp::Less, 2.0)],
    )]);
    let found = has(&check(&g, None), "L002");
    assert!(found.message.contains("speed > 5 and speed < 2"), "{}", found.message);
    assert_eq!(found.path, "Layers[0].Machine.Transitions[2]");
    let fixed = with(vec![t(
        "Idle",
        "Walk",
        vec![when("speed", ConditionOp::Greater, 2.0), when("speed", ConditionOp::Less, 5.0)],
    )]);
    assert!(!codes(&check(&fixed, None)).contains(&"L002"));
    let bools = with(vec![t(
        "Walk",
        "Idle",
        vec![when("grounded", ConditionOp::True, 0.0), when("grounded", ConditionOp::False, 0.0)],
    )]);
    assert!(codes(&check(&bools, None)).contains(&"L002"));
}

#[test]
fn l003_impossible_condition() {
    let g = with(vec![t("Walk", "Idle", vec![when("level", ConditionOp::Equal, 2.5)])]);
    let found = has(&check(&g, None), "L003");
    assert_eq!(found.path, "Layers[0].Machine.Transitions[2].Conditions[0]");
    let fixed = with(vec![t("Walk", "Idle", vec![when("level", ConditionOp::Equal, 2.0)])]);
    assert!(!codes(&check(&fixed, None)).contains(&"L003"));
}

#[test]
fn l004_shadowed_transition() {
    // Both leave Idle on `go`; the first also needs only `go`, so the second never fires.
    let mut g = base(vec![
        t("Idle", "Walk", vec![when("go", ConditionOp::Triggered, 0.0)]),
        t(
            "Walk",
            "Idle",
            vec![
                when("level", ConditionOp::Greater, 1.0),
                when("grounded", ConditionOp::True, 0.0),
                when("speed", ConditionOp::Less, 0.1),
            ],
        ),
    ]);
    g.layers[0].machine.states.push(clip("Run", "run"));
    g.layers[0].machine.transitions.push(t(
        "Idle",
        "Run",
        vec![when("go", ConditionOp::Triggered, 0.0), when("speed", ConditionOp::Greater, 2.0)],
    ));
    g.layers[0].machine.transitions.push(t("Run", "Idle", vec![]));
    let found = has(&check(&g, None), "L004");
    assert_eq!(found.path, "Layers[0].Machine.Transitions[2]");
    assert!(found.message.contains("Idle -> Walk ranks first"), "{}", found.message);
    // Fixed: Run ranks higher.
    g.layers[0].machine.transitions[2].priority = 1;
    assert!(!codes(&check(&g, None)).contains(&"L004"));
}

#[test]
fn l004_counts_any_state() {
    let g = with(vec![
        t("*", "Walk", vec![when("level", ConditionOp::Greater, 5.0)]),
        t("Idle", "Walk", vec![when("level", ConditionOp::Greater, 5.0)]),
    ]);
    // `*` -> Walk ranks before Idle -> Walk with the same condition.
    assert_eq!(has(&check(&g, None), "L004").path, "Layers[0].Machine.Transitions[3]");
    // But a `*` never shadows transitions out of its own target.
    let g = with(vec![
        t("*", "Walk", vec![when("level", ConditionOp::Greater, 5.0)]),
        t("Walk", "Idle", vec![when("level", ConditionOp::Greater, 5.0)]),
    ]);
    assert!(!codes(&check(&g, None)).contains(&"L004"));
}

#[test]
fn l005_parameter_never_read_and_l006_trigger_never_tested() {
    let mut g = with(vec![]);
    g.parameters.push(p("unused", ParameterType::Float));
    g.parameters.push(p("poke", ParameterType::Trigger));
    let f = check(&g, None);
    assert_eq!(has(&f, "L005").path, "Parameters[4]");
    assert_eq!(has(&f, "L006").path, "Parameters[5]");
    g.parameters.truncate(4);
    let f = check(&g, None);
    assert!(!codes(&f).contains(&"L005") && !codes(&f).contains(&"L006"));
}

#[test]
fn l007_any_state_every_frame() {
    let g = with(vec![t("*", "Walk", vec![])]);
    let found = has(&check(&g, None), "L007");
    assert_eq!(found.severity, Severity::Error);
    let mut fixed = with(vec![t("*", "Walk", vec![])]);
    fixed.layers[0].machine.transitions[2].exit_time = 3.0;
    assert!(!codes(&check(&fixed, None)).contains(&"L007"));
}

#[test]
fn l008_missing_clip_and_l009_missing_mask_bone() {
    let mut g = with(vec![]);
    g.layers[0].mask = Some(animgraph_runtime::BoneMask::new(vec!["Spine".into(), "Hed".into()], true));
    let skeleton = SkeletonFacts {
        clips: vec!["idle".into(), "walking".into()],
        bones: vec!["Spine".into(), "Head".into()],
        ..Default::default()
    };
    let f = check(&g, Some(&skeleton));
    let clip = has(&f, "L008");
    assert_eq!(clip.path, "Layers[0].Machine.States[1].Clip");
    assert!(clip.message.contains("did you mean \"walking\""), "{}", clip.message);
    let bone = has(&f, "L009");
    assert_eq!(bone.path, "Layers[0].Mask.Bones[1]");
    assert!(bone.message.contains("\"Head\""), "{}", bone.message);
    // Without a skeleton neither is checked; with the right one neither is found.
    assert!(!codes(&check(&g, None)).iter().any(|c| *c == "L008" || *c == "L009"));
    let right = SkeletonFacts {
        clips: vec!["idle".into(), "walk".into()],
        bones: vec!["Spine".into(), "Hed".into()],
        ..Default::default()
    };
    assert!(!codes(&check(&g, Some(&right))).iter().any(|c| *c == "L008" || *c == "L009"));
}

#[test]
fn l010_degenerate_blend_triangle() {
    let space = |positions: Vec<[f32; 2]>| {
        let mut g = with(vec![]);
        let clips = (0..positions.len()).map(|i| format!("c{i}")).collect();
        g.layers[0].machine.states[0].kind = StateKind::BlendSpace2D(BlendSpace2D {
            parameter_x: "speed".into(),
            parameter_y: "level".into(),
            clips,
            positions,
            sync_time: true,
            sync_markers: false,
        });
        g
    };
    // A point a hair off the line between two others.
    let flat = space(vec![[0.0, 0.0], [2.0, 0.0], [1.0, 0.02], [1.0, 2.0]]);
    assert!(has(&check(&flat, None), "L010").message.contains("nearly flat"));
    let fine = space(vec![[0.0, 0.0], [2.0, 0.0], [1.0, 1.0], [1.0, -1.0]]);
    assert!(!codes(&check(&fine, None)).contains(&"L010"));
}

#[test]
fn l011_exit_time_before_the_first_possible_time() {
    // Walk is always entered half-way through (Offset 0.5), so ExitTime 0.3 gates nothing.
    let mut g = base(reads_everything());
    g.layers[0].machine.transitions[0].offset = 0.5;
    g.layers[0].machine.transitions[1].exit_time = 0.3;
    let found = has(&check(&g, None), "L011");
    assert!(found.fix.contains("1.3"), "{}", found.fix);
    g.layers[0].machine.transitions[1].exit_time = 0.8;
    assert!(!codes(&check(&g, None)).contains(&"L011"));
}

#[test]
fn l012_window_outside_its_states_time() {
    let mut g = base(reads_everything());
    // Walk loops: time within a loop stays below 1, so End 1.2 never closes by time.
    g.layers[0].machine.states[1].windows = vec![GraphWindow { name: "step".into(), start: 0.8, end: 1.2 }];
    let found = has(&check(&g, None), "L012");
    assert_eq!(found.path, "Layers[0].Machine.States[1].Windows[0]");
    assert!(found.message.contains("loops"), "{}", found.message);
    // A one-shot holds its last frame at 1 and beyond: a window may stay open there.
    g.layers[0].machine.states[1].kind = StateKind::Clip(ClipState { clip: "walk".into(), looping: false });
    assert!(!codes(&check(&g, None)).contains(&"L012"));
    g.layers[0].machine.states[1].windows[0].start = -0.1;
    has(&check(&g, None), "L012");
    g.layers[0].machine.states[1].windows[0] = GraphWindow { name: "step".into(), start: 0.3, end: 0.6 };
    assert!(!codes(&check(&g, None)).contains(&"L012"));
}

#[test]
fn l013_inertial_transition_without_duration() {
    let mut g = base(reads_everything());
    g.layers[0].machine.transitions[0].blend = TransitionBlend::Inertial;
    g.layers[0].machine.transitions[0].duration = 0.0;
    let found = has(&check(&g, None), "L013");
    assert_eq!(found.path, "Layers[0].Machine.Transitions[0].Duration");
    g.layers[0].machine.transitions[0].duration = 0.3;
    assert!(!codes(&check(&g, None)).contains(&"L013"));
}

#[test]
fn l014_marker_sync_on_clips_without_markers() {
    let mut g = base(reads_everything());
    g.layers[0].machine.transitions[0].sync = TransitionSync::Markers;
    let space = BlendSpace1D {
        parameter: "speed".into(),
        clips: vec!["idle".into(), "walk".into()],
        positions: vec![0.0, 1.0],
        sync_markers: true,
        ..Default::default()
    };
    g.layers[0].machine.states.push(GraphState::new("Move", StateKind::BlendSpace1D(space)));
    g.layers[0].machine.transitions.push(t("*", "Move", vec![when("go", ConditionOp::Triggered, 0.0)]));
    let facts = SkeletonFacts {
        clips: vec!["idle".into(), "walk".into()],
        marked_clips: vec![],
        ..Default::default()
    };
    let found: Vec<LintFinding> =
        check(&g, Some(&facts)).into_iter().filter(|f| f.code.id() == "L014").collect();
    let paths: Vec<&str> = found.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "Layers[0].Machine.Transitions[0].Sync",
            "Layers[0].Machine.Transitions[0].Sync",
            "Layers[0].Machine.States[2].SyncMarkers"
        ],
        "{found:#?}"
    );
    // With markers on walk: the space is fine (one clip with markers is the reference), idle still lacks them.
    let marked = SkeletonFacts { marked_clips: vec!["walk".into()], ..facts.clone() };
    let found: Vec<String> =
        check(&g, Some(&marked)).into_iter().filter(|f| f.code.id() == "L014").map(|f| f.message).collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("From clip \"idle\""), "{found:?}");
    // Without a skeleton lint cannot know.
    assert!(!codes(&check(&g, None)).contains(&"L014"));
}

#[test]
fn every_code_is_documented_once() {
    let mut seen = std::collections::BTreeSet::new();
    for (code, name, text) in CODES {
        assert!(seen.insert(code), "{code} twice");
        assert!(!name.is_empty() && !text.is_empty());
    }
    assert_eq!(seen.len(), 14);
}

#[test]
fn the_bundled_graphs_have_no_lint_errors() {
    for path in [
        "assets/graphs/locomotion.mres",
        "assets/graphs/showcase.mres",
        "assets/graphs/biped.mres",
        "assets/characters/gbot/gbot.mres",
        "assets/characters/robot/robot.mres",
        "assets/characters/fox/fox.mres",
    ] {
        let g = mres::load_file(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap().graph;
        let errors: Vec<LintFinding> =
            lint(&g, None).into_iter().filter(|f| f.severity == Severity::Error).collect();
        assert!(errors.is_empty(), "{path}: {errors:#?}");
    }
}
