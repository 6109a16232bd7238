//! The player: evaluates a [`BoundGraph`] each frame into a [`SampleBuffer`](crate::SampleBuffer), without allocating.
//!
//! One file per concept: [`parameters`] (the parameter API and its errors), `queries` (layers,
//! states, transitions, events, explain mode), `layer` (a layer's runtime state and its
//! invariants, clocks and blend-space weights), `frame` (the stages of one
//! [`advance`](AnimationGraphPlayer::advance)), `choose` (which transition starts) and
//! [`replication`] (snapshots and the replicated state networking sends).
//!
//! # One advance
//!
//! [`advance`](AnimationGraphPlayer::advance) runs these stages in order, each a function of
//! its own (in the style of ozz-animation's `BlendingJob::Run`):
//!
//! | stage | what happens |
//! |---|---|
//! | `enter_entries` | (first advance only) each layer enters its entry state: `StateEntered` for it and, for sub-machines, each inner entry state, outermost first |
//! | `complete_mixes` | per layer, a mix whose progress reached 1 last frame completes (`StateExited` for the states it leaves, innermost first) |
//! | `choose` | per layer, right after its `complete_mixes`: at most one transition starts (`TransitionStarted`, then `StateEntered`), using the parameters as set and the clocks as they stood at the end of the previous frame |
//! | `flush_closing` | (after a restore or rebind) `WindowEnd` for the windows that were open |
//! | `advance_clocks` | every playing clock advances by `delta` x its rate, including a target that started this frame; running mixes advance by `delta` |
//! | `update_windows` | the windows of the layer's newest state (the running mix's target, else the current state) open and close with its time: `WindowBegin`, `WindowEnd` |
//! | `emit` | samples and layer infos are written to the buffer |
//! | `clear_triggers` | triggers no transition used are cleared, unless `Latch` |
//!
//! # Transition rules
//!
//! Each rule names the function that implements it and the golden scenario
//! (`crates/animgraph-runtime/tests/scenarios/*.json`) that pins it.
//!
//! | case | result | where | scenario |
//! |---|---|---|---|
//! | several transitions could fire | the first by rank: `Priority` descending, then outer machines before inner ones, then list order | rank at bind; `find_candidate` | `priority_then_list_order` |
//! | conditions | all must hold (AND); several transitions between the same states act as OR | `passes`, `condition_holds` | `conditions_each_operator` |
//! | `ExitTime` set | waits until the side's playing state reaches that cumulative normalised time (`2.0` = after the second loop; a one-shot keeps counting while it holds its last frame) | `passes` | `exit_time_looping_one_shot_and_hold` |
//! | `Duration` -1 | the most specific `Mixes` entry for (from, to) (exact pair, `from -> *`, `* -> to`, `* -> *`), else `DefaultMix` | bind; `BoundGraph::transition_duration` | `mixes_pick_the_most_specific_entry` |
//! | `Duration` 0 | instant: the source is cut (`StateExited`), then `TransitionStarted`, `StateEntered` | `start` | `any_state_offset_instant_negative_speed` |
//! | `Offset` | the target starts at that normalised time | `new_instance` | `any_state_offset_instant_negative_speed` |
//! | `*` into a state already active (the playing state or an enclosing sub-machine) | skipped | `gate` | `sub_machine_entry_exit_and_any` |
//! | any candidate into the running mix's target | skipped | `gate` | `interrupt_any_state` |
//! | trigger tested by the transition that starts | consumed (cleared) | `consume_triggers` | `triggers_consumed_cleared_latched` |
//! | trigger nobody used this frame | cleared at the end of `advance`, unless the parameter has `Latch` | `clear_triggers` | `triggers_consumed_cleared_latched` |
//! | during a mix, `Interrupt` None | nothing is checked, not even `*` | `choose_with` | `interrupt_any_state` |
//! | Interrupt Source | the source state's transitions and `*` | `choose_with` | `interrupt_source_side` |
//! | Interrupt Target | the target state's transitions and `*` | `choose_with` | `interrupt_target_side` |
//! | Interrupt Both | both sides and `*`, merged into one list by rank | `find_candidate` | `interrupt_any_state` |
//! | an interruption starts | the current blend's weights are frozen as the new source (its clips keep advancing), so the emitted weights are continuous | `start`, `crate::blend::BlendStack::freeze` | `interrupt_source_side` |
//! | more than [`MAX_INSTANCES`](super::MAX_INSTANCES) states would blend at once | the lightest frozen source (never the layer's current state) is dropped and the others rescaled | `crate::blend::BlendStack::freeze` | `interruption_chain_is_bounded` |
//! | a sub-machine is entered | its entry state starts (recursively down to a clip or blend space) | bind (`entry_leaf`); `enter_path` | `sub_machine_entry_exit_and_any` |
//! | an inner transition to `<exit>` fires | the sub-machine is marked exited: from then on its inner transitions are no longer checked, its last inner state keeps playing, and the parent's transitions *from the sub-machine state* become candidates; until one of them fires the layer stays where it is (`*` transitions still apply) | `choose_with`, `gate` | `sub_machine_entry_exit_and_any` |
//! | parent transitions from a sub-machine state | only checked once that sub-machine has exited | `gate` | `sub_machine_entry_exit_and_any` |
//! | a transition starts | the open windows end first (`WindowEnd` before `TransitionStarted`); the new target's windows begin from its time after this frame's clock advance | `start`, `update_windows` | `windows_begin_and_end_in_pairs` |
//! | `travel(layer, state)` | applied at the next advance, before transitions are chosen: starts a mix to that state (from any situation, freezing a running mix) with the `Mixes`/`DefaultMix` duration; skipped when the state is the running mix's target | `choose_with` | `travel_uses_mixes` |
//!
//! # Normalised time
//!
//! A clip state's is `seconds played / clip length`, cumulative over loops. A blend space with
//! `SyncTime` advances one shared phase at the weighted average of its clips' normalised rates
//! (`sum(weight_i / length_i)`), and that phase is its normalised time; without `SyncTime` each
//! clip plays at its own rate and the state's normalised time is that of its heaviest clip
//! (scenario `blend_space_sync_time`).

mod choose;
mod frame;
mod layer;
pub mod parameters;
mod queries;
pub mod replication;

use std::collections::HashMap;
use std::sync::Arc;

use super::bound::{BoundGraph, Value};
use super::explain::Explanation;
use super::{AnimationGraph, BindError, EventList};
use crate::core::PoseBackend;
use layer::LayerRun;

pub use parameters::{LayerError, ParameterError, PropertyValue};
pub use replication::{NetLayer, NetSource, NetState, NetTransition, PlayerSnapshot, ReplicationError};

/// Default [`LayerInfo::event_threshold`](crate::LayerInfo::event_threshold) for graph layers: a
/// clip fires events while it has at least half its layer's weight.
pub const DEFAULT_EVENT_THRESHOLD: f32 = 0.5;

/// Evaluates a [`BoundGraph`] each frame: parameters in, weighted clip samples out.
///
/// Bind once ([`BoundGraph::bind`], or [`bind`](Self::bind) for one character), make a player
/// per character with [`new`](Self::new) (sharing the bound graph), then per frame set
/// parameters, call [`advance`](Self::advance) and hand the buffer to [`PoseBackend::apply`].
/// See the [module docs](self) for the rules.
///
/// # Performance
/// `advance` allocates nothing and looks up no strings; the `*_by_name` setters use a map built
/// at bind (no allocation either, but the id forms are faster).
pub struct AnimationGraphPlayer {
    /// Immutable after bind, shared by every player of the graph.
    graph: Arc<BoundGraph>,
    /// One value per parameter, by [`ParamId`](super::ParamId).
    values: Vec<Value>,
    /// One run per layer.
    layers: Vec<LayerRun>,
    events: EventList,
    tick: u64,
    /// Whether the entry states have been entered (the first advance).
    started: bool,
    /// Triggers fired since the last network capture.
    fired: Vec<bool>,
    /// Some layer has windows a restore or rebind closed ([`LayerRun::closing`]): their ends are
    /// raised at the next advance (a frame without reads no layer's `closing`).
    closing: bool,
    /// Explain mode's storage (`None`: off).
    explain: Option<Box<Explanation>>,
    /// Scratch for planning `Path` travel (`None` unless a layer travels by path; boxed so a
    /// player of a graph without one keeps only a pointer's room for it).
    search: Option<Box<TravelSearch>>,
}

/// A breadth-first search's storage over the bound graph's states, reserved at construction so
/// planning a travel path allocates nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct TravelSearch {
    /// Per state: `(previous leaf, transition)` that reached it, `u16::MAX` when unreached.
    pub reached: Vec<(u16, u16)>,
    pub queue: Vec<u16>,
}

impl TravelSearch {
    fn for_graph(graph: &BoundGraph) -> Option<Box<TravelSearch>> {
        if graph.layers.iter().all(|l| l.travel_mode == super::TravelMode::Direct) {
            return None;
        }
        let n = graph.states.len();
        Some(Box::new(TravelSearch { reached: Vec::with_capacity(n), queue: Vec::with_capacity(n) }))
    }
}

impl std::fmt::Debug for AnimationGraphPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnimationGraphPlayer")
            .field("tick", &self.tick)
            .field("layers", &self.layers.len())
            .finish()
    }
}

impl AnimationGraphPlayer {
    /// A player of a bound graph in its initial state (entry states, default parameters). Makes
    /// only the per-player state: the way to make many characters of one graph.
    pub fn new(graph: Arc<BoundGraph>) -> AnimationGraphPlayer {
        let mut player = AnimationGraphPlayer {
            values: graph.parameters.iter().map(|p| p.default).collect(),
            layers: Vec::new(),
            events: EventList::with_capacity(graph.event_capacity()),
            tick: 0,
            started: false,
            fired: vec![false; graph.parameters.len()],
            closing: false,
            explain: None,
            search: TravelSearch::for_graph(&graph),
            graph,
        };
        player.layers = (0..player.graph.layers.len()).map(|l| player.entry_layer(l)).collect();
        player
    }

    /// Validates and binds a graph for one player ([`BoundGraph::validate_and_bind`], then
    /// [`new`](Self::new)). For many players of one graph, bind a [`ValidGraph`](super::ValidGraph) once with
    /// [`BoundGraph::bind`] and share it.
    pub fn bind(graph: &AnimationGraph, backend: &mut dyn PoseBackend) -> Result<Self, BindError> {
        Ok(Self::new(Arc::new(BoundGraph::validate_and_bind(graph, backend)?)))
    }

    /// Hints the memory the next [`advance`](Self::advance) reads and writes first: each
    /// layer's per-frame state (its first two cache lines, see `LayerRun`) and the parameter
    /// values. A crowd calls it a few members ahead; a hint only, it changes nothing.
    pub fn prefetch(&self) {
        use crate::core::prefetch::prefetch;
        for run in &self.layers {
            prefetch(run);
            if let Some(first) = run.stack.sources().first() {
                prefetch(first);
            }
        }
        if let Some(value) = self.values.first() {
            prefetch(value);
        }
    }

    /// The bound graph this player plays (share it with [`new`](Self::new) for more players).
    pub fn bound_graph(&self) -> &Arc<BoundGraph> {
        &self.graph
    }

    /// A layer in its initial state: its machine's entry leaf alone, authored weight.
    fn entry_layer(&self, layer: usize) -> LayerRun {
        let def = &self.graph.layers[layer];
        let entry = self.graph.machines[def.machine.index()].entry;
        let leaf = self.graph.states[entry.index()].entry_leaf;
        let travel_capacity = if def.travel_mode == super::TravelMode::Path { def.leaves } else { 0 };
        LayerRun::new(self.new_instance(leaf, 0.0), def.weight, DEFAULT_EVENT_THRESHOLD, travel_capacity)
    }

    /// Re-binds after the graph (or the backend's clips) changed. Parameter values are kept by
    /// name where the type still matches; each layer (matched by name) keeps its current state by
    /// path, with its clock, where that state still exists, otherwise it starts at its entry.
    /// Running mixes are dropped. Open windows end at the next advance (and begin again there
    /// when still open); a window the new graph no longer has (its state or its name is gone)
    /// ends without an event, as nothing is left to name it by. On error the player is
    /// unchanged.
    pub fn rebind(&mut self, graph: &AnimationGraph, backend: &mut dyn PoseBackend) -> Result<(), BindError> {
        self.rebind_to(Arc::new(BoundGraph::validate_and_bind(graph, backend)?));
        Ok(())
    }

    /// [`rebind`](Self::rebind) to an already bound graph (one bind shared by many players).
    pub fn rebind_to(&mut self, bound: Arc<BoundGraph>) {
        let old_values: HashMap<&str, Value> =
            self.graph.parameters.iter().zip(&self.values).map(|(p, v)| (p.name.as_str(), *v)).collect();
        let values: Vec<Value> = bound
            .parameters
            .iter()
            .map(|p| match old_values.get(p.name.as_str()) {
                Some(v) if std::mem::discriminant(v) == std::mem::discriminant(&p.default) => *v,
                _ => p.default,
            })
            .collect();
        let kept: Vec<(String, String, layer::Instance, f32)> = self
            .layers
            .iter()
            .enumerate()
            .map(|(l, run)| {
                let current = *run.stack.current();
                let path = self.graph.states[current.state.index()].path.clone();
                (self.graph.layers[l].name.clone(), path, current, run.weight)
            })
            .collect();
        // Open windows (and ends not yet raised) by layer, state path and window name: they end
        // at the next advance where the new graph still has them.
        let mut closing: Vec<(String, String, String)> = Vec::new();
        for (l, run) in self.layers.iter().enumerate() {
            for open in [run.windows, run.closing] {
                for (i, w) in self.graph.state_windows(open.state).enumerate() {
                    if open.bits & (1u64 << i) != 0 {
                        closing.push((
                            self.graph.layers[l].name.clone(),
                            self.graph.states[open.state.index()].path.clone(),
                            self.graph.window_name(w).to_string(),
                        ));
                    }
                }
            }
        }
        self.graph = bound;
        self.search = TravelSearch::for_graph(&self.graph);
        self.values = values;
        self.fired = vec![false; self.graph.parameters.len()];
        self.events = EventList::with_capacity(self.graph.event_capacity());
        if self.explain.is_some() {
            self.set_explain(false);
            self.set_explain(true);
        }
        self.layers = (0..self.graph.layers.len()).map(|l| self.entry_layer(l)).collect();
        for (layer_name, path, window) in &closing {
            let Some(l) = self.graph.find_layer(layer_name) else { continue };
            let Some(&state) = self.graph.state_by_path[l].get(path.as_str()) else { continue };
            let Some(i) = self.graph.state_windows(state).position(|w| self.graph.window_name(w) == window)
            else {
                continue;
            };
            let run = &mut self.layers[l];
            if run.closing.bits != 0 && run.closing.state != state {
                continue; // one state's windows per layer can be open at once
            }
            run.closing.state = state;
            run.closing.bits |= 1u64 << i;
            self.closing = true;
        }
        for (l, run) in self.layers.iter_mut().enumerate() {
            let name = &self.graph.layers[l].name;
            let Some((_, path, instance, weight)) = kept.iter().find(|k| &k.0 == name) else { continue };
            run.weight = *weight;
            if let Some(&state) = self.graph.state_by_path[l].get(path.as_str()) {
                if self.graph.states[state.index()].motion.is_some() {
                    // Weight 1: a state kept from inside an interruption chain plays alone now.
                    run.stack.cut(layer::Instance { state, weight: 1.0, ..*instance });
                }
            }
        }
    }
}
