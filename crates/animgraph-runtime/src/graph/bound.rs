//! The bound graph: an [`AnimationGraph`](super::AnimationGraph) compiled against a backend into
//! flat arrays of ids, immutable and shared by every player of it.
//!
//! Everything the player walks each frame is here, indexed by [`StateId`], [`TransitionId`],
//! [`ParamId`] and [`MachineId`]; no string is looked up after bind. Sub-machines are
//! flattened: a layer always plays *leaf* states (clips and blend spaces), and each leaf knows
//! the path of states from its layer's top machine down to itself. Only
//! [`BoundGraph::bind`](BoundGraph::bind) makes one; the limits a graph must fit and the
//! capacities a player sizes its buffers by live here too.

use std::collections::HashMap;
use std::ops::Range;

use super::blend_space::Triangulation2D;
use super::{
    ConditionOp, MachineId, ParamId, ParameterType, StateId, TransitionId, TransitionInterrupt, WindowId,
};
use crate::core::{ClipBlend, ClipId, MaskId};
use crate::finding::Finding;

/// Most states blending in one layer at once (frozen sources of interruption chains plus the
/// running mix's target).
pub const MAX_INSTANCES: usize = 8;
const _: () = assert!(
    MAX_INSTANCES <= crate::blend::STACK_STORAGE
        && super::super::tracks::MAX_TRACK_ENTRIES <= crate::blend::STACK_STORAGE
);

/// Most layers a graph may have (layer indices are `u8`).
pub const MAX_LAYERS: usize = u8::MAX as usize;

/// Most parameters, states (at every depth), machines and transitions a graph may have (their
/// ids are `u16`); validation enforces it, so a valid graph never fails bind on it.
pub use super::validate::MAX_IDS;

/// Clip lengths below this are treated as this (a zero-length clip would make normalised time
/// infinite).
pub const MIN_CLIP_LENGTH: f32 = 1e-3;

/// The stored value of a parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value {
    Bool(bool),
    Int(i32),
    Float(f32),
    Trigger(bool),
}

impl Value {
    pub(crate) fn numeric(self) -> f32 {
        match self {
            Value::Int(i) => i as f32,
            Value::Float(f) => f,
            Value::Bool(b) | Value::Trigger(b) => b as u8 as f32,
        }
    }
}

pub(crate) struct ParamDef {
    pub name: String,
    pub kind: ParameterType,
    pub default: Value,
    pub latch: bool,
}

pub(crate) struct LayerDef {
    pub name: String,
    pub blend: ClipBlend,
    pub weight: f32,
    pub weight_param: Option<ParamId>,
    pub mask: Option<MaskId>,
    pub machine: MachineId,
    /// Most samples one state of this layer emits at once.
    pub samples_per_state: usize,
    /// How `travel` reaches a state.
    pub travel_mode: super::TravelMode,
    /// Leaf states in the layer (the longest travel path has fewer hops).
    pub leaves: usize,
    /// Most events one advance raises on this layer ([`layer_event_capacity`]).
    pub events: usize,
}

/// Most events one advance can raise on a layer whose states (at every depth) are `states`.
///
/// A completed mix exits every frozen instance's path, then one transition starts and enters a
/// path (after a travel plan); the first advance enters the entry path. Windows: ends left by a
/// restore or rebind, ends when a transition starts, then each window of the new state at most
/// begins and ends once. All of it happens within the layer, so its own deepest state and its
/// own most windows bound it.
pub(crate) fn layer_event_capacity(states: &[StateDef]) -> usize {
    let depth = states.iter().map(|s| s.ancestry.len()).max().unwrap_or(1);
    let windows = states.iter().map(|s| s.windows.len()).max().unwrap_or(0);
    MAX_INSTANCES * depth + 2 + 2 * depth + 4 * windows
}

pub(crate) struct MachineDef {
    pub entry: StateId,
}

/// How a leaf state's clips are timed and weighted.
pub(crate) enum Motion {
    /// `markers`: the clip's sync markers in `BoundGraph::markers`.
    Clip { clip: Option<ClipId>, length: f32, looping: bool, markers: Range<u32> },
    /// `reference`: with `SyncMarkers`, the point (relative index) whose marker segments the
    /// clock counts (`None`: no marker sync; `sync` then says whether `SyncTime` applies).
    Blend { input: BlendInput, points: Range<u32>, sync: bool, reference: Option<u16> },
}

/// What places a blend space's point.
#[derive(Clone, Copy)]
pub(crate) enum BlendInput {
    /// One parameter; positions in `BoundGraph::positions`.
    OneD(ParamId),
    /// Two parameters and the index of the space in `BoundGraph::spaces`.
    TwoD(ParamId, ParamId, u32),
}

pub(crate) struct StateDef {
    pub name: String,
    /// `Outer/Inner` from the layer's top machine.
    pub path: String,
    pub speed: f32,
    pub speed_param: Option<ParamId>,
    /// `None` for sub-machine states.
    pub motion: Option<Motion>,
    /// States from the layer's top machine down to this one (this one last).
    pub ancestry: Range<u32>,
    /// The leaf entered when a transition targets this state (itself unless a sub-machine).
    pub entry_leaf: StateId,
    /// For leaves: the lists (runs in `BoundGraph::candidate_runs`) of every transition that
    /// may fire while this leaf plays; merged by rank when read.
    pub candidates: Range<u32>,
    /// Name used to match `Mixes` entries (clip name for clip states, state name otherwise).
    pub mix_key: MixKey,
    /// The state's windows in `BoundGraph::windows` (at most 64).
    pub windows: Range<u32>,
}

/// A state's named span of normalised time.
pub(crate) struct WindowDef {
    pub name: String,
    pub start: f32,
    pub end: f32,
}

/// A name `Mixes` entries match against, interned at bind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct MixKey(pub u32);

/// Where a transition goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Target {
    /// A state of the transition's machine, with that state's mix key.
    State(StateId, MixKey),
    /// `<exit>`: hand back to the parent machine's transitions.
    Exit,
}

/// A transition's crossfade length.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum MixDuration {
    /// Seconds, known at bind (authored, or resolved against `Mixes` for a known source).
    Seconds(f32),
    /// A `*` transition with `Duration -1`: the `Mixes` entry for the playing state, looked up
    /// when it starts.
    FromMixes,
}

pub(crate) struct TransitionDef {
    /// `None` for `*`.
    pub from: Option<StateId>,
    pub to: Target,
    pub conditions: Range<u32>,
    pub duration: MixDuration,
    /// Normalised source time before which the transition waits (`None`: no exit time).
    pub exit_time: Option<f32>,
    pub offset: f32,
    pub interrupt: TransitionInterrupt,
    /// How the crossfade weight follows its progress.
    pub curve: super::TransitionCurve,
    /// Crossfade or inertial.
    pub blend: super::TransitionBlend,
    /// Where the target starts: at `offset`, or matched to the source's markers.
    pub sync: super::TransitionSync,
    /// Global order: priority descending, then outer machines first, then list order.
    pub rank: u32,
}

pub(crate) struct ConditionDef {
    /// `None` for parameterless True / False.
    pub param: Option<ParamId>,
    pub op: ConditionOp,
    pub value: f32,
}

/// A leaf's candidate lists: its own merged copy (the common case, read straight through), or
/// the shared lists that apply to it, merged by rank as they are read.
pub(crate) enum CandidateLists<'a> {
    One(&'a [Candidate]),
    Merged(MergedCandidates<'a>),
}

/// Several rank-sorted candidate lists read as one, without allocating: each step takes the
/// lowest rank after the last one returned (ranks are unique, so no cursors are stored).
pub(crate) struct MergedCandidates<'a> {
    graph: &'a BoundGraph,
    runs: &'a [Range<u32>],
    after: Option<u32>,
}

impl Iterator for MergedCandidates<'_> {
    type Item = Candidate;

    fn next(&mut self) -> Option<Candidate> {
        let rank = |c: &Candidate| self.graph.transitions[c.transition.index()].rank;
        let mut best: Option<Candidate> = None;
        for run in self.runs {
            let list = &self.graph.candidates[run.start as usize..run.end as usize];
            let at = self.after.map_or(0, |after| list.partition_point(|c| rank(c) <= after));
            if let Some(c) = list.get(at)
                && best.is_none_or(|b| rank(c) < rank(&b))
            {
                best = Some(*c);
            }
        }
        let c = best?;
        self.after = Some(rank(&c));
        Some(c)
    }
}

/// Either kind of list as one iterator (the merged case's path).
pub(crate) enum AnyCandidates<'a> {
    One(std::iter::Copied<std::slice::Iter<'a, Candidate>>),
    Merged(MergedCandidates<'a>),
}

impl Iterator for AnyCandidates<'_> {
    type Item = Candidate;

    fn next(&mut self) -> Option<Candidate> {
        match self {
            AnyCandidates::One(list) => list.next(),
            AnyCandidates::Merged(list) => list.next(),
        }
    }
}

impl<'a> IntoIterator for CandidateLists<'a> {
    type Item = Candidate;
    type IntoIter = AnyCandidates<'a>;

    fn into_iter(self) -> AnyCandidates<'a> {
        match self {
            CandidateLists::One(list) => AnyCandidates::One(list.iter().copied()),
            CandidateLists::Merged(list) => AnyCandidates::Merged(list),
        }
    }
}

/// One of a leaf's candidates.
#[derive(Clone, Copy)]
pub(crate) struct Candidate {
    pub transition: TransitionId,
    /// Depth of the machine the transition belongs to (0 = the layer's top machine).
    pub level: u8,
    /// For a parent's transition out of a sub-machine state at this depth: only once that
    /// sub-machine has exited through `<exit>`.
    pub requires_exit: Option<u8>,
}

pub(crate) struct BlendPoint {
    pub clip: Option<ClipId>,
    pub length: f32,
    pub looping: bool,
    /// The clip's sync markers in `BoundGraph::markers`.
    pub markers: Range<u32>,
    /// With `SyncMarkers`: the index of its marker named like the reference's first (`None`: it
    /// follows the reference's phase).
    pub align: Option<u16>,
}

pub(crate) struct MixDef {
    /// `None` for `*`.
    pub from: Option<MixKey>,
    pub to: Option<MixKey>,
    pub duration: f32,
}

/// A graph compiled against a backend: immutable, `Send + Sync`, shared by `Arc` between every
/// [`AnimationGraphPlayer`](super::AnimationGraphPlayer) of it (one bind, many characters).
///
/// Made only by [`bind`](Self::bind), from a [`ValidGraph`](super::ValidGraph). Players of one
/// bound graph must drive backends that resolve clips and masks the same way as the one it was
/// bound with (a clone of it, or one built from the same skeleton the same way).
pub struct BoundGraph {
    /// Each transition's model path, by id (for tools: explanations, editors).
    pub(crate) transition_models: Vec<String>,
    pub(crate) parameters: Vec<ParamDef>,
    pub(crate) param_by_name: HashMap<String, ParamId>,
    pub(crate) layers: Vec<LayerDef>,
    pub(crate) machines: Vec<MachineDef>,
    pub(crate) states: Vec<StateDef>,
    /// Per layer: `"Outer/Inner"` -> state.
    pub(crate) state_by_path: Vec<HashMap<String, StateId>>,
    pub(crate) ancestry: Vec<StateId>,
    pub(crate) transitions: Vec<TransitionDef>,
    pub(crate) conditions: Vec<ConditionDef>,
    /// Candidate lists, each sorted by rank: every machine's `*` transitions and every state's
    /// outgoing ones, then the leaves' own merged copies (see `BoundGraph::candidates`).
    pub(crate) candidates: Vec<Candidate>,
    /// Per leaf (`StateDef::candidates`), the lists that apply to it.
    pub(crate) candidate_runs: Vec<Range<u32>>,
    pub(crate) points: Vec<BlendPoint>,
    /// 1D blend-space positions, indexed like `points` (unused for 2D points).
    pub(crate) positions: Vec<f32>,
    /// Bound 2D blend spaces.
    pub(crate) spaces: Vec<Triangulation2D>,
    pub(crate) mixes: Vec<MixDef>,
    pub(crate) default_mix: f32,
    /// Every state's windows, each state's in one run (`StateDef::windows`).
    pub(crate) windows: Vec<WindowDef>,
    /// Every clip's sync markers (per clip one run, sorted by phase).
    pub(crate) markers: Vec<crate::markers::Marker>,
    /// Marker names, by the ids markers carry.
    pub(crate) marker_names: Vec<String>,
    pub(crate) warnings: Vec<Finding>,
}

impl std::fmt::Debug for BoundGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundGraph")
            .field("parameters", &self.parameters.len())
            .field("layers", &self.layers.len())
            .field("states", &self.states.len())
            .field("transitions", &self.transitions.len())
            .finish()
    }
}

impl BoundGraph {
    /// How many parameters (ids are `0..count`).
    pub fn parameter_count(&self) -> usize {
        self.parameters.len()
    }

    /// The id of the parameter with this name.
    pub fn find_parameter(&self, name: &str) -> Option<ParamId> {
        self.param_by_name.get(name).copied()
    }

    /// A parameter's name.
    pub fn parameter_name(&self, param: ParamId) -> Option<&str> {
        self.parameters.get(param.index()).map(|p| p.name.as_str())
    }

    /// A parameter's type.
    pub fn parameter_type(&self, param: ParamId) -> Option<ParameterType> {
        self.parameters.get(param.index()).map(|p| p.kind)
    }

    /// How many layers.
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// A layer's name.
    pub fn layer_name(&self, layer: usize) -> Option<&str> {
        self.layers.get(layer).map(|l| l.name.as_str())
    }

    /// The index of the layer with this name.
    pub fn find_layer(&self, name: &str) -> Option<usize> {
        self.layers.iter().position(|l| l.name == name)
    }

    /// How many states, at every depth (ids are `0..count`).
    pub fn state_count(&self) -> usize {
        self.states.len()
    }

    /// The state with this name or `Outer/Inner` path in a layer.
    pub fn find_state(&self, layer: usize, path: &str) -> Option<StateId> {
        self.state_by_path.get(layer)?.get(path).copied()
    }

    /// A state's own name.
    ///
    /// # Panics
    /// If `state` is not a state of this graph.
    pub fn state_name(&self, state: StateId) -> &str {
        &self.states[state.index()].name
    }

    /// A state's `Outer/Inner` path within its layer.
    ///
    /// # Panics
    /// If `state` is not a state of this graph.
    pub fn state_path(&self, state: StateId) -> &str {
        &self.states[state.index()].path
    }

    /// How many transitions (ids are `0..count`, in rank order).
    pub fn transition_count(&self) -> usize {
        self.transitions.len()
    }

    /// A transition's place in the authoring model (`Layers[0].Machine.Transitions[2]`).
    pub fn transition_model_path(&self, transition: TransitionId) -> &str {
        self.transition_models.get(transition.index()).map_or("", String::as_str)
    }

    /// Warnings found at bind (missing clips, zero-length clips).
    pub fn warnings(&self) -> &[Finding] {
        &self.warnings
    }

    /// Most samples the graph's layers can emit in one frame (every layer at its longest
    /// interruption chain, each state at its most clips).
    pub fn sample_capacity(&self) -> usize {
        self.layers.iter().map(|l| l.samples_per_state * MAX_INSTANCES).sum()
    }

    /// Most events one advance can raise: the sum of each layer's bound, from the layer's own
    /// deepest state and most windows.
    pub fn event_capacity(&self) -> usize {
        self.layers.iter().map(|l| l.events).sum()
    }

    /// Explain mode's storage for one advance: `(candidates, conditions)` records. Per layer at
    /// most every candidate of the two playing sides, scanned again after each `<exit>` that
    /// fires (at most once per depth).
    pub(crate) fn explain_capacity(&self) -> (usize, usize) {
        let depth = (0..self.states.len()).map(|s| self.ancestry(StateId(s as u16)).len()).max().unwrap_or(1);
        let (mut candidates, mut conditions) = (0usize, 0usize);
        for s in 0..self.states.len() {
            let (mut count, mut c) = (0usize, 0usize);
            for candidate in self.candidates(StateId(s as u16)) {
                count += 1;
                c += self.conditions(&self.transitions[candidate.transition.index()]).len();
            }
            candidates = candidates.max(count);
            conditions = conditions.max(c);
        }
        let scans = 2 * (depth + 1) * self.layers.len().max(1);
        (candidates * scans, conditions * scans)
    }

    /// A window's name.
    ///
    /// # Panics
    /// If `window` is not a window of this graph.
    pub fn window_name(&self, window: WindowId) -> &str {
        &self.windows[window.index()].name
    }

    /// A state's windows as ids.
    pub fn state_windows(&self, state: StateId) -> impl Iterator<Item = WindowId> + '_ {
        self.states.get(state.index()).into_iter().flat_map(|s| s.windows.clone().map(WindowId))
    }

    pub(crate) fn ancestry(&self, state: StateId) -> &[StateId] {
        let r = &self.states[state.index()].ancestry;
        &self.ancestry[r.start as usize..r.end as usize]
    }

    /// Whether `state` is `leaf` or one of its enclosing sub-machine states.
    pub(crate) fn on_path(&self, leaf: StateId, state: StateId) -> bool {
        self.ancestry(leaf).contains(&state)
    }

    /// A leaf's candidate lists.
    #[inline]
    pub(crate) fn candidates(&self, leaf: StateId) -> CandidateLists<'_> {
        let r = &self.states[leaf.index()].candidates;
        let runs = &self.candidate_runs[r.start as usize..r.end as usize];
        match runs {
            [] => CandidateLists::One(&[]),
            [one] => CandidateLists::One(&self.candidates[one.start as usize..one.end as usize]),
            _ => CandidateLists::Merged(MergedCandidates { graph: self, runs, after: None }),
        }
    }

    pub(crate) fn conditions(&self, t: &TransitionDef) -> &[ConditionDef] {
        &self.conditions[t.conditions.start as usize..t.conditions.end as usize]
    }

    pub(crate) fn markers(&self, range: &Range<u32>) -> &[crate::markers::Marker] {
        &self.markers[range.start as usize..range.end as usize]
    }

    /// A marker name's id (for tests and tools).
    pub fn marker_name(&self, id: u32) -> Option<&str> {
        self.marker_names.get(id as usize).map(String::as_str)
    }

    pub(crate) fn points(&self, range: &Range<u32>) -> &[BlendPoint] {
        &self.points[range.start as usize..range.end as usize]
    }

    /// Crossfade seconds from a state with mix key `from` to one with key `to`: the most
    /// specific `Mixes` entry (exact pair, then `from -> *`, then `* -> to`, then `* -> *`; list
    /// order among equals), else `DefaultMix`.
    pub(crate) fn mix_duration(&self, from: MixKey, to: MixKey) -> f32 {
        let entries = self.mixes.iter().map(|m| (m.from, m.to, m.duration));
        super::mix::pick_mix(entries, &from, &to, self.default_mix)
    }

    /// A transition's crossfade seconds when it starts from `from` (a `*` transition taking its
    /// duration from `Mixes` looks it up for the playing state).
    pub(crate) fn transition_duration(&self, transition: TransitionId, from: StateId) -> f32 {
        let def = &self.transitions[transition.index()];
        match (def.duration, def.to) {
            (MixDuration::Seconds(seconds), _) => seconds,
            (MixDuration::FromMixes, Target::State(_, to)) => {
                self.mix_duration(self.states[from.index()].mix_key, to)
            }
            // `<exit>` starts no mix.
            (MixDuration::FromMixes, Target::Exit) => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn a_bound_graph_is_shared_across_threads() {
        assert_send_sync::<BoundGraph>();
        assert_send_sync::<std::sync::Arc<BoundGraph>>();
    }
}
