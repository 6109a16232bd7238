//! Small graphs written for tests of one behaviour each.

/// Two clip states, `A` playing clip `a` and `B` playing `b`, and transitions `A -> B` on the
/// trigger `go` and `B -> A` on `back`, both with this `Blend` (`Crossfade` or `Inertial`) and
/// `Duration`, either interruptible by the other, as `.mres` text.
pub fn two_states(a: &str, b: &str, blend: &str, duration: f32) -> String {
    format!(
        r#"{{ "format": 2, "uid": "res_two_states", "type": "AnimationGraph",
  "resources": {{
    "p_go": {{ "type": "GraphParameter", "props": {{ "Name": "go", "Type": "Trigger" }} }},
    "l": {{ "type": "GraphLayer", "props": {{ "Name": "Base", "Machine": {{ "res": "m" }} }} }},
    "m": {{ "type": "GraphMachine", "props": {{ "Entry": "A", "States": [ {{ "res": "a" }}, {{ "res": "b" }} ], "Transitions": [ {{ "res": "t" }}, {{ "res": "t_back" }} ] }} }},
    "a": {{ "type": "ClipState", "props": {{ "Name": "A", "Clip": "{a}" }} }},
    "b": {{ "type": "ClipState", "props": {{ "Name": "B", "Clip": "{b}" }} }},
    "t": {{ "type": "GraphTransition", "props": {{ "From": "A", "To": "B", "Conditions": [ {{ "res": "c" }} ], "Duration": {duration}, "Blend": "{blend}", "Interrupt": "Both" }} }},
    "c": {{ "type": "GraphCondition", "props": {{ "Parameter": "go", "Op": "Triggered" }} }},
    "p_back": {{ "type": "GraphParameter", "props": {{ "Name": "back", "Type": "Trigger" }} }},
    "t_back": {{ "type": "GraphTransition", "props": {{ "From": "B", "To": "A", "Conditions": [ {{ "res": "c_back" }} ], "Duration": {duration}, "Blend": "{blend}", "Interrupt": "Both" }} }},
    "c_back": {{ "type": "GraphCondition", "props": {{ "Parameter": "back", "Op": "Triggered" }} }}
  }},
  "props": {{ "Parameters": [ {{ "res": "p_go" }}, {{ "res": "p_back" }} ], "Layers": [ {{ "res": "l" }} ] }} }}"#
    )
}

/// The clips of `assets/graphs/locomotion.mres` at the Fox's lengths: `(name, seconds, loops)`.
pub const LOCOMOTION_CLIPS: &[(&str, f32, bool)] =
    &[("idle", 2.0, true), ("walk", 0.708, true), ("run", 1.158, true), ("jump", 0.8, false)];

/// The clips of the runtime's `tests/scenarios/graphs/windows.mres`: `(name, seconds, loops)`.
pub const WINDOWS_CLIPS: &[(&str, f32, bool)] =
    &[("idle", 1.0, true), ("attack", 1.0, false), ("hurt", 1.0, true), ("spin", 0.5, true)];

/// The clips of the runtime's `tests/scenarios/graphs/travel_path.mres`.
pub const TRAVEL_PATH_CLIPS: &[(&str, f32, bool)] = &[
    ("idle", 1.0, true),
    ("walk", 1.0, true),
    ("run", 1.0, true),
    ("sprint", 1.0, true),
    ("crouch", 1.0, true),
    ("jump", 0.5, false),
    ("fall", 1.0, true),
];

/// Per joint, how much each frame's pose moved from the one before, at frames `at - 1`, `at`
/// and `at + 1`, and whether the start frame's move stays within `factor` times the larger of
/// its neighbours' (plus `slack` for joints that barely move): continuity across a transition.
/// Returns the joints that jumped, as `(joint, before, at, after)`.
pub fn jumps(moves: &[Vec<f32>], at: usize, factor: f32, slack: f32) -> Vec<(usize, f32, f32, f32)> {
    let joints = moves[at].len();
    (0..joints)
        .filter_map(|j| {
            let (before, now, after) = (moves[at - 1][j], moves[at][j], moves[at + 1][j]);
            (now > factor * before.max(after) + slack).then_some((j, before, now, after))
        })
        .collect()
}

/// Runs `two_states(a, b, "Inertial", 0.3)` on `backend` for 3,000 frames, going and coming
/// back so blends start, are interrupted and decay, and returns the allocations counted on this
/// thread meanwhile (after bind) and `read(backend)` at the end: a backend's zero-allocation and
/// determinism check for inertial blends.
pub fn inertial_workout<B: animgraph_runtime::PoseBackend>(
    mut backend: B,
    a: &str,
    b: &str,
    read: impl Fn(&B) -> Vec<u32>,
) -> (u64, Vec<u32>) {
    let graph = animgraph_runtime::mres::load_str(&two_states(a, b, "Inertial", 0.3)).unwrap().graph;
    let mut player = animgraph_runtime::AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    let mut buffer = player.new_buffer();
    let before = crate::counting::thread_allocations();
    for frame in 0..3_000u32 {
        match frame % 50 {
            10 => player.fire_by_name("go").unwrap(),
            17 | 40 => player.fire_by_name("back").unwrap(),
            _ => {}
        }
        player.advance(1.0 / 60.0, &mut buffer);
        backend.apply(buffer.samples(), buffer.layers());
    }
    (crate::counting::thread_allocations() - before, read(&backend))
}
