//! Bind refuses, with a clear error and before allocating, a small graph whose candidate lists
//! would be huge (every leaf copies its machines' Any State transitions); a large but sane one
//! binds.

use animgraph_runtime::AnimationGraph;
use animgraph_runtime::graph::{
    AnimationGraphPlayer, ClipState, GraphLayer, GraphMachine, GraphState, GraphTransition, StateKind,
};
use animgraph_runtime::script::RecordingBackend;

fn graph(states: usize, any: usize) -> AnimationGraph {
    let mut machine = GraphMachine::default();
    for i in 0..states {
        let mut s =
            GraphState::new(format!("S{i}"), StateKind::Clip(ClipState { clip: "c".into(), looping: true }));
        s.editor_position = [i as f32 * 10.0, 0.0];
        machine.states.push(s);
    }
    for k in 0..any {
        machine.transitions.push(GraphTransition {
            from: "*".into(),
            to: format!("S{}", k % states),
            exit_time: 0.5,
            ..Default::default()
        });
    }
    machine.entry = "S0".into();
    AnimationGraph {
        uid: "res_limits".into(),
        layers: vec![GraphLayer { machine, ..Default::default() }],
        ..Default::default()
    }
}

#[test]
fn huge_candidate_lists_are_refused_before_allocating() {
    // 3,000 states x 1,500 Any State transitions: 4.5 million candidate entries.
    let big =
        animgraph_runtime::graph::ValidGraph::new(graph(3000, 1500)).expect("the graph itself is valid");
    let mut backend = RecordingBackend::with_clips(&[("c", 1.0, true)]);
    let Err(e) = AnimationGraphPlayer::bind(&big, &mut backend) else {
        panic!("a 4.5 million entry graph bound")
    };
    let e = e.to_string();
    assert!(e.contains("4500000 candidate transitions") && e.contains("Any State (*)"), "{e}");
    // 3,000 states x 100: 300,000 entries bind.
    let sane = animgraph_runtime::graph::ValidGraph::new(graph(3000, 100)).unwrap();
    assert!(AnimationGraphPlayer::bind(&sane, &mut backend).is_ok());
}

/// Validation enforces bind's id limits: a 70,000-state graph is refused by validation itself
/// with the count (it used to pass validation in 34 s and fail only at bind), so a valid graph
/// never fails bind on a limit.
#[test]
fn validation_enforces_binds_id_limits() {
    let issues = animgraph_runtime::graph::validate(&graph(70_000, 1));
    assert_eq!(issues.len(), 1, "{:?}", issues.iter().take(3).map(|i| i.to_string()).collect::<Vec<_>>());
    let message = issues[0].to_string();
    assert!(message.contains("70000 states in all, more than the 65535"), "{message}");
    assert!(animgraph_runtime::graph::ValidGraph::new(graph(70_000, 1)).is_err());
}
