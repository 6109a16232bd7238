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
