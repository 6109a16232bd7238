//! The graph: authoring types (what `.mres` holds), validation, binding and the player.

mod bind;
pub mod blend_space;
pub mod bound;
mod condition;
mod event;
pub mod explain;
#[allow(clippy::module_inception)]
mod graph;
mod ids;
mod layer;
mod machine;
mod mix;
mod parameter;
pub mod player;
pub(crate) mod schema;
mod state;
mod transition;
mod validate;

pub use bind::BindError;
pub use bound::{BoundGraph, MAX_INSTANCES};
pub use condition::{ConditionOp, GraphCondition};
pub use event::{EventList, GraphEvent};
pub use graph::{AnimationGraph, GraphStats};
pub use ids::{MachineId, ParamId, StateId, TransitionId, WindowId};
pub use layer::{GraphLayer, TravelMode};
pub use machine::GraphMachine;
pub use mix::GraphMixOverride;
pub use parameter::{GraphParameter, ParameterType};
pub use player::{AnimationGraphPlayer, LayerError, ParameterError, PlayerSnapshot, PropertyValue};
pub use state::{BlendSpace1D, BlendSpace2D, ClipState, GraphState, GraphWindow, StateKind};
pub use transition::{
    ANY_STATE, EXIT_STATE, GraphTransition, TransitionBlend, TransitionCurve, TransitionInterrupt,
    TransitionSync,
};
pub use validate::{GraphIssue, MAX_MACHINE_DEPTH, MAX_WINDOWS, Severity, ValidGraph, has_errors, validate};
