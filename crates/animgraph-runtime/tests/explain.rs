//! Explain mode as named scenarios: which candidate fired, which was shadowed, which waited for
//! its exit time or was blocked by an interruption rule, which transition used which trigger.
//! And the mode changes nothing: the same frames come out with it on or off.

use animgraph_runtime::frame::{ExplainRecord, PlayerFrame};
use animgraph_runtime::graph::explain::{Checked, Outcome};
use animgraph_runtime::graph::*;
use animgraph_runtime::mres;
use animgraph_runtime::script::{RecordingBackend, Script, Simulation};

fn clip(name: &str, clip: &str) -> GraphState {
    GraphState::new(name, StateKind::Clip(ClipState { clip: clip.into(), looping: true }))
}

fn parameter(name: &str, kind: ParameterType) -> GraphParameter {
    GraphParameter { name: name.into(), kind, default: 0.0, latch: false }
}

fn when(parameter: &str, op: ConditionOp, value: f32) -> GraphCondition {
    GraphCondition { parameter: parameter.into(), op, value }
}

fn transition(from: &str, to: &str, conditions: Vec<GraphCondition>) -> GraphTransition {
    GraphTransition { from: from.into(), to: to.into(), conditions, duration: 0.25, ..Default::default() }
}

/// Idle, Walk, Wave, Hurt, with `go` and `hit` triggers and a `speed`.
fn graph(transitions: Vec<GraphTransition>) -> AnimationGraph {
    AnimationGraph {
        uid: "res_explain".into(),
        parameters: vec![
            parameter("speed", ParameterType::Float),
            parameter("go", ParameterType::Trigger),
            parameter("hit", ParameterType::Trigger),
            parameter("unused", ParameterType::Trigger),
        ],
        layers: vec![GraphLayer {
            machine: GraphMachine {
                states: vec![
                    clip("Idle", "idle"),
                    clip("Walk", "walk"),
                    clip("Wave", "wave"),
                    clip("Hurt", "hurt"),
                ],
                transitions,
                entry: "Idle".into(),
            },
            ..Default::default()
        }],
        ..Default::default()
    }
}

fn player(graph: &AnimationGraph) -> (AnimationGraphPlayer, animgraph_runtime::SampleBuffer) {
    let mut backend = RecordingBackend::with_clips(&[
        ("idle", 1.0, true),
        ("walk", 1.0, true),
        ("wave", 1.0, true),
        ("hurt", 1.0, true),
    ]);
    let mut player = AnimationGraphPlayer::bind(graph, &mut backend).unwrap();
    player.set_explain(true);
    let buffer = player.new_buffer();
    (player, buffer)
}

fn record(player: &AnimationGraphPlayer) -> ExplainRecord {
    ExplainRecord::capture(player).expect("explain mode is on")
}

#[test]
fn a_trigger_is_consumed_by_the_higher_priority_transition_and_the_other_is_shadowed() {
    let mut wave = transition("Idle", "Wave", vec![when("go", ConditionOp::Triggered, 0.0)]);
    wave.priority = 1;
    let walk = transition("Idle", "Walk", vec![when("go", ConditionOp::Triggered, 0.0)]);
    let g = graph(vec![walk, wave]);
    let (mut p, mut b) = player(&g);
    p.advance(0.1, &mut b);
    p.fire_by_name("go").unwrap();
    p.advance(0.1, &mut b);
    let e = p.explanation().unwrap();
    let layer = &e.layers()[0];
    assert_eq!(layer.checked, Checked::Current);
    let outcomes: Vec<(String, Outcome)> =
        e.candidates(layer).iter().map(|c| (p.transition_label(c.transition), c.outcome)).collect();
    // Priority first: Wave, then Walk, which would have fired too.
    assert_eq!(
        outcomes,
        [("Idle -> Wave".to_string(), Outcome::Started), ("Idle -> Walk".to_string(), Outcome::Shadowed)]
    );
    assert_eq!(layer.started.flatten().map(|t| p.transition_label(t)).as_deref(), Some("Idle -> Wave"));
    let used = e.consumed();
    assert_eq!(used.len(), 1);
    assert_eq!(p.parameter_name(used[0].trigger), Some("go"));
    assert_eq!(p.transition_label(used[0].transition), "Idle -> Wave");
    // As data for tools.
    let r = record(&p);
    assert_eq!(r.layers[0].candidates[1].outcome, "shadowed");
    assert_eq!(r.layers[0].candidates[1].shadowed_by.as_deref(), Some("Idle -> Wave"));
    assert_eq!(r.consumed[0].trigger, "go");
    assert_eq!(r.layers[0].candidates[0].path, "Layers[0].Machine.Transitions[1]");
}

#[test]
fn a_transition_blocked_by_its_exit_time_shows_how_far_the_source_got() {
    let mut t = transition("Idle", "Walk", vec![when("speed", ConditionOp::Greater, 1.0)]);
    t.exit_time = 0.5;
    let g = graph(vec![t]);
    let (mut p, mut b) = player(&g);
    p.set_float_by_name("speed", 2.0).unwrap();
    p.advance(0.1, &mut b); // Idle at 0.1 after this frame
    p.advance(0.1, &mut b); // checked with 0.1: too early
    let e = p.explanation().unwrap();
    let c = &e.candidates(&e.layers()[0])[0];
    assert_eq!(c.outcome, Outcome::ExitTimeNotReached);
    let (needed, had) = c.exit_time.unwrap();
    assert_eq!(needed, 0.5);
    assert!((had - 0.1).abs() < 1e-5, "{had}");
    // The conditions were evaluated anyway, and held.
    let conditions = e.conditions(c);
    assert_eq!(conditions.len(), 1);
    assert!(conditions[0].passed && conditions[0].actual == 2.0);
    for _ in 0..4 {
        p.advance(0.1, &mut b);
    }
    let e = p.explanation().unwrap();
    assert_eq!(e.candidates(&e.layers()[0])[0].outcome, Outcome::Started);
}

#[test]
fn a_failing_condition_reports_the_value_it_saw() {
    let g = graph(vec![transition("Idle", "Walk", vec![when("speed", ConditionOp::Greater, 1.0)])]);
    let (mut p, mut b) = player(&g);
    p.set_float_by_name("speed", 0.4).unwrap();
    p.advance(0.1, &mut b);
    let r = record(&p);
    let c = &r.layers[0].candidates[0];
    assert_eq!(c.outcome, "conditions failed");
    assert_eq!(
        (c.conditions[0].parameter.as_str(), c.conditions[0].op.as_str(), c.conditions[0].value),
        ("speed", "Greater", 1.0)
    );
    assert_eq!((c.conditions[0].actual, c.conditions[0].passed), (0.4, false));
}

#[test]
fn an_interrupt_none_mix_blocks_every_candidate_and_interrupt_source_ignores_the_target() {
    let mut to_walk = transition("Idle", "Walk", vec![when("go", ConditionOp::Triggered, 0.0)]);
    to_walk.duration = 1.0;
    let hurt = transition("*", "Hurt", vec![when("hit", ConditionOp::Triggered, 0.0)]);
    let from_walk = transition("Walk", "Wave", vec![when("hit", ConditionOp::Triggered, 0.0)]);
    let g = graph(vec![to_walk.clone(), hurt.clone(), from_walk.clone()]);
    let (mut p, mut b) = player(&g);
    p.fire_by_name("go").unwrap();
    p.advance(0.1, &mut b);
    assert!(p.in_transition(0));
    p.fire_by_name("hit").unwrap();
    p.advance(0.1, &mut b);
    let e = p.explanation().unwrap();
    assert_eq!(e.layers()[0].checked, Checked::NothingInterruptNone);
    assert!(e.candidates(&e.layers()[0]).is_empty());
    // `hit` was set and nobody could use it: cleared at the end of the frame.
    assert_eq!(e.cleared().iter().map(|&t| p.parameter_name(t).unwrap()).collect::<Vec<_>>(), ["hit"]);
    assert_eq!(record(&p).layers[0].checked, "blocked: the running mix has Interrupt None");

    // Interrupt Source: the source's `*` is checked, the target's own transitions are not.
    to_walk.interrupt = TransitionInterrupt::Source;
    let g = graph(vec![to_walk, hurt, from_walk]);
    let (mut p, mut b) = player(&g);
    p.fire_by_name("go").unwrap();
    p.advance(0.1, &mut b);
    p.fire_by_name("hit").unwrap();
    p.advance(0.1, &mut b);
    let e = p.explanation().unwrap();
    let layer = &e.layers()[0];
    assert_eq!(layer.checked, Checked::Source);
    let labels: Vec<String> = e.candidates(layer).iter().map(|c| p.transition_label(c.transition)).collect();
    assert!(
        labels.contains(&"* -> Hurt".to_string()) && !labels.contains(&"Walk -> Wave".to_string()),
        "{labels:?}"
    );
    assert_eq!(p.transition_target(0).map(|s| p.state_path(s)), Some("Hurt"));
}

#[test]
fn any_state_into_the_playing_state_is_reported_as_such() {
    let g = graph(vec![transition("*", "Idle", vec![])]);
    let (mut p, mut b) = player(&g);
    p.advance(0.1, &mut b);
    let e = p.explanation().unwrap();
    assert_eq!(e.candidates(&e.layers()[0])[0].outcome, Outcome::AnyIntoActiveState);
}

#[test]
fn explaining_changes_nothing_and_switching_off_frees_it() {
    let path = format!("{}/../../assets/graphs/showcase.mres", env!("CARGO_MANIFEST_DIR"));
    let g = mres::load_file(&path).unwrap().graph;
    let script_path = format!("{}/../../assets/scripts/showcase.json", env!("CARGO_MANIFEST_DIR"));
    let script = Script::parse(&std::fs::read_to_string(script_path).unwrap()).unwrap();
    let plain = Simulation::recording(&g, &script).unwrap().run_to_end().unwrap();
    let mut explained = Simulation::recording(&g, &script).unwrap();
    explained.player.set_explain(true);
    let mut frames = Vec::new();
    let mut candidates = 0;
    while !explained.done() {
        explained.step().unwrap();
        frames.push(explained.record());
        let e = explained.player.explanation().unwrap();
        assert_eq!(e.dropped(), 0, "the storage is sized for the graph");
        candidates += e.layers().iter().map(|l| e.candidates(l).len()).sum::<usize>();
    }
    assert_eq!(frames, plain);
    assert!(candidates > 100, "only {candidates} candidate checks over the script");
    // Every started transition in the script shows up as a candidate that started.
    let started: usize =
        plain.iter().flat_map(|f| &f.events).filter(|e| e.kind == "TransitionStarted").count();
    assert!(started > 0);
    explained.player.set_explain(false);
    assert!(explained.player.explanation().is_none());
    assert!(PlayerFrame::capture(&explained.player).explain.is_none());
}
