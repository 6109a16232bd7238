//! Editing operations on the authoring model that tools share: renaming a parameter updates
//! every reference, and references are reported by model path.

use animgraph_runtime::graph::{Severity, validate};
use animgraph_runtime::mres;

fn showcase() -> animgraph_runtime::AnimationGraph {
    let path = format!("{}/../../assets/graphs/showcase.mres", env!("CARGO_MANIFEST_DIR"));
    mres::load_file(&path).unwrap_or_else(|e| panic!("{path}: {e}")).graph.into_graph()
}

#[test]
fn references_are_found_in_every_kind_of_field() {
    let graph = showcase();
    let speed = graph.parameter_references("speed");
    assert!(speed.iter().any(|p| p.ends_with(".Parameter") && p.contains(".States[")), "{speed:?}");
    assert!(speed.iter().any(|p| p.contains(".Conditions[")), "{speed:?}");
    let rate = graph.parameter_references("anim_rate");
    assert!(rate.iter().any(|p| p.ends_with(".SpeedParameter")), "{rate:?}");
    let x = graph.parameter_references("direction_x");
    assert!(x.iter().any(|p| p.ends_with(".ParameterX")), "{x:?}");
    assert!(graph.parameter_references("no_such_parameter").is_empty());
}

#[test]
fn renaming_a_parameter_moves_every_reference_and_keeps_the_graph_valid() {
    let mut graph = showcase();
    let before = graph.parameter_references("speed");
    assert!(!before.is_empty());
    let changed = graph.rename_parameter("speed", "velocity");
    assert_eq!(changed, before.len());
    assert!(graph.parameter("speed").is_none());
    assert!(graph.parameter_references("speed").is_empty());
    assert_eq!(graph.parameter_references("velocity"), before);
    let errors: Vec<_> = validate(&graph).into_iter().filter(|d| d.severity == Severity::Error).collect();
    assert!(errors.is_empty(), "{errors:?}");
    // And it survives a save and load.
    let again = mres::load_str(&mres::save_to_string(&graph)).expect("renamed graph loads").graph;
    assert_eq!(again, graph);
}

#[test]
fn renaming_onto_a_taken_or_missing_name_changes_nothing() {
    let original = showcase();
    let mut graph = original.clone();
    assert_eq!(graph.rename_parameter("speed", "jump"), 0);
    assert_eq!(graph.rename_parameter("nothing", "fresh"), 0);
    assert_eq!(graph, original);
}

fn locomotion() -> animgraph_runtime::AnimationGraph {
    let path = format!("{}/../../assets/graphs/locomotion.mres", env!("CARGO_MANIFEST_DIR"));
    mres::load_file(&path).unwrap().graph.into_graph()
}

#[test]
fn renaming_a_state_keeps_transitions_and_entry_and_refuses_taken_names() {
    let mut graph = locomotion();
    let m = &mut graph.layers[0].machine;
    let index = m.state_index("Move").unwrap();
    assert!(!m.rename_state(index, "Jump"), "a taken name was accepted");
    assert!(m.rename_state(index, "Locomotion"));
    assert_eq!(m.entry, "Locomotion");
    assert!(m.transitions.iter().any(|t| t.to == "Locomotion"));
    assert!(m.transitions.iter().all(|t| t.from != "Move" && t.to != "Move"));
    assert!(validate(&graph).is_empty(), "{:?}", validate(&graph));
}

#[test]
fn removing_states_removes_their_transitions_and_picks_a_new_entry() {
    let mut graph = locomotion();
    let m = &mut graph.layers[0].machine;
    m.remove_states(&[0]);
    assert_eq!(m.states.len(), 1);
    assert_eq!(m.entry, "Jump");
    assert!(m.transitions.iter().all(|t| t.to != "Move" && t.from != "Move"));
    assert_eq!(m.unique_state_name("Jump"), "Jump 2");
    assert_eq!(m.unique_state_name("Move"), "Move");
}

#[test]
fn changing_a_parameter_type_refits_conditions_and_defaults() {
    let mut graph = locomotion();
    graph.parameters[0].default = 2.6;
    // speed is tested nowhere with an operator; jump is a Triggered trigger.
    assert_eq!(graph.set_parameter_type("speed", animgraph_runtime::graph::ParameterType::Int), Some(0));
    assert_eq!(graph.parameters[0].default, 3.0);
    assert_eq!(graph.set_parameter_type("jump", animgraph_runtime::graph::ParameterType::Bool), Some(1));
    let op = graph.layers[0].machine.transitions[0].conditions[0].op;
    assert_eq!(op, animgraph_runtime::graph::ConditionOp::True);
    assert!(validate(&graph).iter().all(|i| i.severity != Severity::Error), "{:?}", validate(&graph));
    assert_eq!(graph.set_parameter_type("nope", animgraph_runtime::graph::ParameterType::Bool), None);
}

#[test]
fn clip_names_lists_every_played_clip_once() {
    assert_eq!(locomotion().clip_names(), ["idle", "walk", "run", "jump"]);
    let names = showcase().clip_names();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
    assert!(names.len() >= 6, "{names:?}");
}

#[test]
fn an_editable_load_keeps_semantic_errors_but_refuses_unreadable_structure() {
    let mut graph = locomotion();
    graph.layers[0].machine.entry = "Nowhere".into();
    let text = mres::save_to_string(&graph);
    assert!(mres::load_str(&text).is_err());
    let loaded = mres::load_str_editable(&text).expect("semantic errors still open for editing");
    assert_eq!(loaded.graph, graph);
    assert!(
        loaded.warnings.iter().any(|d| d.is_error() && d.property.contains("Entry")),
        "{:?}",
        loaded.warnings
    );
    // A dangling reference is structural: saving what was read would lose part of the file.
    let broken = text.replacen("{ \"res\": \"s_base_jump\" }", "{ \"res\": \"s_missing\" }", 1);
    assert_ne!(broken, text, "the fixture changed; update the reference being broken");
    assert!(mres::load_str_editable(&broken).is_err());
    assert!(mres::load_str_editable("{ nope").is_err());
}

#[test]
fn new_uids_are_distinct_and_well_formed() {
    let uids: std::collections::BTreeSet<String> = (0..1000).map(|_| mres::new_uid()).collect();
    assert_eq!(uids.len(), 1000);
    assert!(
        uids.iter()
            .all(|u| u.len() == 16 && u.starts_with("res_") && u[4..].chars().all(|c| c.is_ascii_hexdigit()))
    );
}

/// `mix_seconds` applies the `Mixes` rule on names, as the player does once bound: the exact
/// pair first, then `from -> *`, then `* -> to`, then `* -> *`, else `DefaultMix`; clip states
/// match by clip name, other states by state name.
#[test]
fn mix_seconds_picks_the_most_specific_entry() {
    use animgraph_runtime::graph::{ClipState, GraphMixOverride, GraphState, StateKind};
    let clip = |name: &str, clip: &str| {
        GraphState::new(name, StateKind::Clip(ClipState { clip: clip.into(), looping: true }))
    };
    let (a, b, c, d) = (clip("A", "a"), clip("B", "b"), clip("C", "c"), clip("D", "d"));
    let mix =
        |from: &str, to: &str, duration: f32| GraphMixOverride { from: from.into(), to: to.into(), duration };
    let mut graph = animgraph_runtime::AnimationGraph { default_mix: 0.2, ..Default::default() };
    assert_eq!(graph.mix_seconds(&a, &b), 0.2, "no entries: DefaultMix");
    graph.mixes = vec![mix("*", "*", 0.6), mix("*", "c", 0.5), mix("a", "*", 0.4), mix("a", "b", 0.3)];
    assert_eq!(graph.mix_seconds(&a, &b), 0.3, "exact pair");
    assert_eq!(graph.mix_seconds(&a, &c), 0.4, "from -> * beats * -> to");
    assert_eq!(graph.mix_seconds(&b, &c), 0.5, "* -> to");
    assert_eq!(graph.mix_seconds(&b, &d), 0.6, "* -> *");
    // By clip name, not state name.
    assert_eq!(graph.mix_seconds(&clip("a", "x"), &b), 0.6);
}
