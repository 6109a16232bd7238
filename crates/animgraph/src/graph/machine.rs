//! A state machine: states, the transitions between them, and the state it starts in.

use super::{GraphState, GraphTransition};

/// States, transitions and an entry state.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GraphMachine {
    /// The states; names unique within the machine.
    pub states: Vec<GraphState>,
    /// The transitions, in list order (ties of priority keep this order).
    pub transitions: Vec<GraphTransition>,
    /// The state entered first.
    pub entry: String,
}

impl GraphMachine {
    /// The state with this name.
    pub fn state(&self, name: &str) -> Option<&GraphState> {
        self.states.iter().find(|s| s.name == name)
    }
}
