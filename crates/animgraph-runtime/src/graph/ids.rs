//! Ids of the bound graph: indices into its flat arrays, valid for the player that made them.

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u16);

        impl $name {
            /// The index into the bound graph's array.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id!(
    /// A parameter of a bound graph (its index in the graph's `Parameters`).
    ParamId
);
id!(
    /// A state of a bound graph, at any nesting depth.
    StateId
);
id!(
    /// A transition of a bound graph, at any nesting depth.
    TransitionId
);
id!(
    /// A state machine of a bound graph: a layer's machine or a sub-machine.
    MachineId
);

/// A window of a bound graph (its index among every state's windows; `u32` since each of
/// 65,535 states may have up to [`MAX_WINDOWS`](super::MAX_WINDOWS)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WindowId(pub u32);

impl WindowId {
    /// The index into the bound graph's array.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
