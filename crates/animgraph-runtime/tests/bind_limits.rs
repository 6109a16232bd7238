//! Bind's storage stays linear in the graph's size (Any State lists are shared, not copied per
//! leaf), and validation enforces bind's limits.

use animgraph_runtime::AnimationGraph;
use animgraph_runtime::graph::ValidGraph;
use animgraph_runtime::graph::{
    AnimationGraphPlayer, ClipState, GraphLayer, GraphMachine, GraphState, GraphTransition, StateKind,
};
use animgraph_runtime::script::RecordingBackend;
use animgraph_test_support::counting;

#[global_allocator]
static GLOBAL: counting::PerThread = counting::PerThread;

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

/// Bytes bind requests for `graph(states, any)`.
fn bind_bytes(states: usize, any: usize) -> u64 {
    let valid = ValidGraph::new(graph(states, any)).expect("the graph is valid");
    let mut backend = RecordingBackend::with_clips(&[("c", 1.0, true)]);
    let before = counting::thread_bytes();
    let player = AnimationGraphPlayer::bind(&valid, &mut backend).expect("binds");
    let bytes = counting::thread_bytes() - before;
    drop(player);
    bytes
}

/// Every leaf checks its machines' Any State transitions, but bind stores each machine's list
/// once: 3,000 states x 1,500 `*` transitions (4.5 million candidate entries if copied per
/// leaf, which bind refused) bind, and the extra 1,400 `*` transitions cost bytes in (measured:
/// 2.07 MB -> 2.95 MB, about 630 bytes each)
/// proportion to themselves, not to states x transitions (copied, 33.6 MB more).
#[test]
fn any_state_candidates_are_shared_not_copied_per_leaf() {
    let small = bind_bytes(3000, 100);
    let big = bind_bytes(3000, 1500);
    let extra = big.saturating_sub(small);
    assert!(extra < 1400 * 1024, "1,400 more * transitions cost {extra} bytes at bind ({small} -> {big})");
}

/// The shared lists still play as before: with 1,500 `*` transitions into 3,000 states, the
/// first that passes by rank fires, from any state.
#[test]
fn shared_any_state_lists_fire_in_rank_order() {
    let mut g = graph(3000, 1500);
    // `*` -> S7 (list index 7) is the only one without an exit time besides a low-priority one.
    for (i, t) in g.layers[0].machine.transitions.iter_mut().enumerate() {
        if i == 7 || i == 1200 {
            t.exit_time = -1.0;
            t.duration = 0.0; // a cut: the state is current on this frame
        }
        if i == 1200 {
            t.priority = 5;
        }
    }
    let valid = ValidGraph::new(g).unwrap();
    let mut backend = RecordingBackend::with_clips(&[("c", 1.0, true)]);
    let mut player = AnimationGraphPlayer::bind(&valid, &mut backend).unwrap();
    let mut buffer = player.new_buffer();
    player.advance(0.1, &mut buffer);
    // Priority 5 ranks first: `*` -> S1200.
    assert_eq!(player.current_state_path(0), Some("S1200"));
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

/// Leaves past bind's copy budget read their own and the shared `*` lists merged as they go;
/// the order they are checked in (explain mode checks and records every candidate) is rank
/// order, priority first then list order, the same as a leaf with its own merged copy.
#[test]
fn leaves_reading_shared_lists_check_candidates_in_rank_order() {
    let (states, any) = (3000, 1500);
    for entry in [0, 2990] {
        let mut g = graph(states, any);
        for (k, t) in g.layers[0].machine.transitions.iter_mut().enumerate() {
            t.priority = (k % 5) as i32 - 2;
        }
        // Each state also has one transition of its own, after the `*` ones in the list.
        for i in 0..states {
            g.layers[0].machine.transitions.push(GraphTransition {
                from: format!("S{i}"),
                to: format!("S{}", (i + 1) % states),
                exit_time: 0.5,
                priority: (i % 3) as i32 - 1,
                ..Default::default()
            });
        }
        g.layers[0].machine.entry = format!("S{entry}");
        // Expected: every transition that applies, by priority (descending) then list index.
        let list = &g.layers[0].machine.transitions;
        let mut expected: Vec<(i32, usize, String)> = list
            .iter()
            .enumerate()
            .filter(|(_, t)| t.from == "*" || t.from == format!("S{entry}"))
            .map(|(k, t)| (-t.priority, k, format!("{} -> {}", t.from, t.to)))
            .collect();
        expected.sort();
        let expected: Vec<String> = expected.into_iter().map(|(_, _, label)| label).collect();

        let valid = ValidGraph::new(g).unwrap();
        let mut backend = RecordingBackend::with_clips(&[("c", 1.0, true)]);
        let mut player = AnimationGraphPlayer::bind(&valid, &mut backend).unwrap();
        player.set_explain(true);
        let mut buffer = player.new_buffer();
        player.advance(0.1, &mut buffer);
        let e = player.explanation().unwrap();
        let checked: Vec<String> =
            e.candidates(&e.layers()[0]).iter().map(|c| player.transition_label(c.transition)).collect();
        assert_eq!(checked.len(), any + 1, "entry S{entry}");
        assert!(
            checked == expected,
            "entry S{entry}: checked {:?}... expected {:?}...",
            &checked[..8],
            &expected[..8]
        );
    }
}
