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

impl GraphMachine {
    /// The index of the state with this name.
    pub fn state_index(&self, name: &str) -> Option<usize> {
        self.states.iter().position(|s| s.name == name)
    }

    /// `base`, or `base 2`, `base 3`, ... whichever no state of this machine is named.
    pub fn unique_state_name(&self, base: &str) -> String {
        let mut name = base.to_string();
        let mut n = 2;
        while self.state(&name).is_some() {
            name = format!("{base} {n}");
            n += 1;
        }
        name
    }

    /// Renames the state at `index` and every transition end and the entry that name it. Returns
    /// false (changing nothing) when there is no such state or another state has the name.
    ///
    /// `Mixes` entries are graph-wide and name clips or states of any layer, so they are left
    /// as they are; the validator does not require them to match anything.
    pub fn rename_state(&mut self, index: usize, new: &str) -> bool {
        let Some(old) = self.states.get(index).map(|s| s.name.clone()) else { return false };
        if old == new || self.state(new).is_some() {
            return false;
        }
        for t in &mut self.transitions {
            if t.from == old {
                t.from = new.to_string();
            }
            if t.to == old {
                t.to = new.to_string();
            }
        }
        if self.entry == old {
            self.entry = new.to_string();
        }
        self.states[index].name = new.to_string();
        true
    }

    /// Removes the states at `indices` with every transition from or to them. When the entry
    /// state goes, the first remaining state becomes the entry (or none is left).
    pub fn remove_states(&mut self, indices: &[usize]) {
        let mut removed = Vec::new();
        let mut index = 0;
        self.states.retain(|s| {
            let keep = !indices.contains(&index);
            index += 1;
            if !keep {
                removed.push(s.name.clone());
            }
            keep
        });
        self.transitions.retain(|t| !removed.contains(&t.from) && !removed.contains(&t.to));
        if removed.contains(&self.entry) {
            self.entry = self.states.first().map(|s| s.name.clone()).unwrap_or_default();
        }
    }
}
