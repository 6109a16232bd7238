//! Editing operations on the authoring model that tools share: renaming a parameter updates
//! every reference, and references are reported by model path.

use animgraph::graph::{Severity, validate};
use animgraph::mres;

fn showcase() -> animgraph::AnimationGraph {
    let path = format!("{}/../../assets/graphs/showcase.mres", env!("CARGO_MANIFEST_DIR"));
    mres::load_file(&path).unwrap_or_else(|e| panic!("{path}: {e}")).graph
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
