//! The graph: authoring types (what `.mres` holds), validation, binding and the player.

mod condition;
#[allow(clippy::module_inception)]
mod graph;
mod layer;
mod machine;
mod mix;
mod parameter;
mod state;
mod transition;
mod validate;

pub use condition::{ConditionOp, GraphCondition};
pub use graph::{AnimationGraph, GraphStats};
pub use layer::GraphLayer;
pub use machine::GraphMachine;
pub use mix::GraphMixOverride;
pub use parameter::{GraphParameter, ParameterType};
pub use state::{BlendSpace1D, BlendSpace2D, ClipState, GraphState, StateKind};
pub use transition::{ANY_STATE, EXIT_STATE, GraphTransition, TransitionInterrupt};
pub use validate::{GraphIssue, MAX_MACHINE_DEPTH, Severity, has_errors, validate};
