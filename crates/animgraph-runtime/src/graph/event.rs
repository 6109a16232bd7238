//! Graph events (signals): states entered and exited, transitions started.

use super::{StateId, TransitionId, WindowId};

/// A signal raised by `advance`. State ids name states of the bound graph; get their names and
/// `Outer/Inner` paths from the player, so raising an event allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphEvent {
    /// A state became active (a transition into it started, or its machine was entered).
    StateEntered {
        /// The layer.
        layer: u8,
        /// The state (a sub-machine state, or a state inside one).
        state: StateId,
    },
    /// A state stopped being active (the mix out of it completed, or an instant transition cut it).
    StateExited {
        /// The layer.
        layer: u8,
        /// The state.
        state: StateId,
    },
    /// A transition started.
    TransitionStarted {
        /// The layer.
        layer: u8,
        /// The playing (leaf) state it leaves.
        from: StateId,
        /// The (leaf) state it enters.
        to: StateId,
        /// The graph transition, or `None` for `travel`.
        transition: Option<TransitionId>,
    },
    /// A `Path` travel found its chain of transitions; its hops follow as `TransitionStarted`,
    /// each when the one before completes (the player's `travel_path` lists those left).
    TravelPlanned {
        /// The layer.
        layer: u8,
        /// The state travelled to.
        to: StateId,
        /// How many transitions the chain has.
        hops: u16,
    },
    /// A state's window opened: its time entered `[Start, End)` while the state is the layer's
    /// current state (or the running mix's target).
    WindowBegin {
        /// The layer.
        layer: u8,
        /// The (leaf) state.
        state: StateId,
        /// The window (name it with [`BoundGraph::window_name`](super::BoundGraph::window_name)).
        window: WindowId,
    },
    /// A window closed: the time left it, a transition away from its state started, or the
    /// player was rebound or restored. Every `WindowBegin` has exactly one.
    WindowEnd {
        /// The layer.
        layer: u8,
        /// The (leaf) state.
        state: StateId,
        /// The window.
        window: WindowId,
    },
}

impl GraphEvent {
    /// The event's name as used in `simulate` output.
    pub fn kind(&self) -> &'static str {
        match self {
            GraphEvent::StateEntered { .. } => "StateEntered",
            GraphEvent::StateExited { .. } => "StateExited",
            GraphEvent::TransitionStarted { .. } => "TransitionStarted",
            GraphEvent::TravelPlanned { .. } => "TravelPlanned",
            GraphEvent::WindowBegin { .. } => "WindowBegin",
            GraphEvent::WindowEnd { .. } => "WindowEnd",
        }
    }

    /// The layer the event belongs to.
    pub fn layer(&self) -> u8 {
        match *self {
            GraphEvent::StateEntered { layer, .. }
            | GraphEvent::StateExited { layer, .. }
            | GraphEvent::TransitionStarted { layer, .. }
            | GraphEvent::TravelPlanned { layer, .. }
            | GraphEvent::WindowBegin { layer, .. }
            | GraphEvent::WindowEnd { layer, .. } => layer,
        }
    }
}

/// A fixed-capacity list of events, cleared at the start of each `advance`.
///
/// Overflow policy: when full, further events of that frame are dropped (the earliest are kept,
/// since they explain the later ones) and counted in [`dropped`](Self::dropped).
#[derive(Debug, Default)]
pub struct EventList {
    events: Vec<GraphEvent>,
    capacity: usize,
    dropped: usize,
}

/// A clone keeps the capacity, so the copy never allocates either.
impl Clone for EventList {
    fn clone(&self) -> Self {
        let mut copy = EventList::with_capacity(self.capacity);
        copy.events.extend_from_slice(&self.events);
        copy.dropped = self.dropped;
        copy
    }
}

impl EventList {
    /// A list holding at most `capacity` events per frame.
    pub fn with_capacity(capacity: usize) -> Self {
        EventList { events: Vec::with_capacity(capacity), capacity, dropped: 0 }
    }

    pub(crate) fn clear(&mut self) {
        self.events.clear();
        self.dropped = 0;
    }

    pub(crate) fn push(&mut self, event: GraphEvent) {
        if self.events.len() < self.capacity {
            self.events.push(event);
        } else {
            self.dropped += 1;
        }
    }

    /// This frame's events, in the order raised.
    pub fn as_slice(&self) -> &[GraphEvent] {
        &self.events
    }

    /// Events lost this frame because the list was full.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// Most events held per frame.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}
