//! Binding: compiling an [`AnimationGraph`] against a backend into flat arrays of ids.
//!
//! Everything the player walks each frame is here, indexed by [`StateId`], [`TransitionId`],
//! [`ParamId`] and [`MachineId`]; no string is looked up after bind. Sub-machines are
//! flattened: a layer always plays *leaf* states (clips and blend spaces), and each leaf knows
//! the path of states from its layer's top machine down to itself.

use std::collections::HashMap;
use std::ops::Range;

use super::MachineId;
use super::blend_space::{self, Triangulation2D};
use super::{
    ANY_STATE, AnimationGraph, ConditionOp, EXIT_STATE, GraphIssue, GraphMachine, ParamId, ParameterType,
    Severity, StateId, StateKind, TransitionId, TransitionInterrupt, validate,
};
use crate::core::{ClipBlend, ClipId, MaskId, PoseBackend};

/// Why a graph could not be bound.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    /// The graph breaks rules that `graph::validate` checks; every error is listed.
    #[error("the graph is invalid:\n{}", list(.0))]
    Invalid(Vec<GraphIssue>),
    /// The graph uses something this version cannot play yet.
    #[error("{0}")]
    Unsupported(String),
    /// The graph is larger than the player's id types hold.
    #[error("{0}")]
    TooLarge(String),
}

fn list(issues: &[GraphIssue]) -> String {
    let lines: Vec<String> = issues.iter().map(|i| format!("  {}: {}", i.path, i.message)).collect();
    lines.join("\n")
}

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
}

pub(crate) struct MachineDef {
    pub entry: StateId,
}

/// How a leaf state's clips are timed and weighted.
pub(crate) enum Motion {
    Clip { clip: Option<ClipId>, length: f32, looping: bool },
    Blend { input: BlendInput, points: Range<u32>, sync: bool },
}

/// What places a blend space's point.
#[derive(Clone, Copy)]
pub(crate) enum BlendInput {
    /// One parameter; positions in `Compiled::positions`.
    OneD(ParamId),
    /// Two parameters and the index of the space in `Compiled::spaces`.
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
    /// For leaves: every transition that may fire while this leaf plays, by rank.
    pub candidates: Range<u32>,
    /// Name used to match `Mixes` entries (clip name for clip states, state name otherwise).
    pub mix_key: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Target {
    State(StateId),
    Exit,
}

pub(crate) struct TransitionDef {
    /// `None` for `*`.
    pub from: Option<StateId>,
    pub to: Target,
    pub conditions: Range<u32>,
    /// Seconds, or negative when it depends on the playing state (a `*` transition with
    /// Duration -1): resolved against `Mixes` when it starts.
    pub duration: f32,
    pub exit_time: f32,
    pub offset: f32,
    pub interrupt: TransitionInterrupt,
    /// Global order: priority descending, then outer machines first, then list order.
    pub rank: u32,
    /// Mix key of the target state.
    pub to_key: u32,
}

pub(crate) struct ConditionDef {
    /// `None` for parameterless True / False.
    pub param: Option<ParamId>,
    pub op: ConditionOp,
    pub value: f32,
}

/// One entry of a leaf's candidate list.
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
}

pub(crate) struct MixDef {
    pub from: Option<u32>,
    pub to: Option<u32>,
    pub duration: f32,
}

/// The bound form of a graph.
pub(crate) struct Compiled {
    /// Each transition's model path, by id (for tools: explanations, editors).
    pub transition_models: Vec<String>,
    pub parameters: Vec<ParamDef>,
    pub param_by_name: HashMap<String, ParamId>,
    pub layers: Vec<LayerDef>,
    pub machines: Vec<MachineDef>,
    pub states: Vec<StateDef>,
    /// Per layer: `"Outer/Inner"` -> state.
    pub state_by_path: Vec<HashMap<String, StateId>>,
    pub ancestry: Vec<StateId>,
    pub transitions: Vec<TransitionDef>,
    pub conditions: Vec<ConditionDef>,
    pub candidates: Vec<Candidate>,
    pub points: Vec<BlendPoint>,
    /// 1D blend-space positions, indexed like `points` (unused for 2D points).
    pub positions: Vec<f32>,
    /// Bound 2D blend spaces.
    pub spaces: Vec<Triangulation2D>,
    pub mixes: Vec<MixDef>,
    pub default_mix: f32,
    pub warnings: Vec<String>,
}

/// Clip lengths below this are treated as this (a zero-length clip would make normalised time
/// infinite).
pub(crate) const MIN_CLIP_LENGTH: f32 = 1e-3;

impl Compiled {
    pub fn ancestry(&self, state: StateId) -> &[StateId] {
        let r = &self.states[state.index()].ancestry;
        &self.ancestry[r.start as usize..r.end as usize]
    }

    /// Whether `state` is `leaf` or one of its enclosing sub-machine states.
    pub fn on_path(&self, leaf: StateId, state: StateId) -> bool {
        self.ancestry(leaf).contains(&state)
    }

    pub fn candidates(&self, leaf: StateId) -> &[Candidate] {
        let r = &self.states[leaf.index()].candidates;
        &self.candidates[r.start as usize..r.end as usize]
    }

    pub fn conditions(&self, t: &TransitionDef) -> &[ConditionDef] {
        &self.conditions[t.conditions.start as usize..t.conditions.end as usize]
    }

    pub fn points(&self, range: &Range<u32>) -> &[BlendPoint] {
        &self.points[range.start as usize..range.end as usize]
    }

    /// Crossfade seconds from a state with mix key `from` to one with key `to`: the most
    /// specific `Mixes` entry (exact pair, then `from -> *`, then `* -> to`, then `* -> *`; list
    /// order among equals), else `DefaultMix`.
    pub fn mix_duration(&self, from: u32, to: u32) -> f32 {
        let mut best: Option<(u8, f32)> = None;
        for m in &self.mixes {
            let score = match (m.from, m.to) {
                (Some(f), Some(t)) if f == from && t == to => 4,
                (Some(f), None) if f == from => 3,
                (None, Some(t)) if t == to => 2,
                (None, None) => 1,
                _ => 0,
            };
            if score > 0 && best.is_none_or(|(s, _)| score > s) {
                best = Some((score, m.duration));
            }
        }
        best.map_or(self.default_mix, |(_, d)| d)
    }

    /// Most samples the graph's layers can emit in one frame.
    pub fn sample_capacity(&self) -> usize {
        self.layers.iter().map(|l| l.samples_per_state * super::player::MAX_INSTANCES).sum()
    }

    /// Most events one advance can raise.
    pub fn event_capacity(&self) -> usize {
        let depth = self.states.iter().map(|s| s.ancestry.len()).max().unwrap_or(1);
        // Per layer: a completed mix exits every frozen instance's path, then one transition
        // starts and enters a path; the first advance enters the entry path.
        self.layers.len() * (super::player::MAX_INSTANCES * depth + 1 + 2 * depth)
    }
}

/// Compiles a graph. Validation errors, unsupported features and size overflows are errors;
/// missing clips are warnings (their samples are skipped).
pub(crate) fn bind(graph: &AnimationGraph, backend: &mut dyn PoseBackend) -> Result<Compiled, BindError> {
    let issues = validate(graph);
    let errors: Vec<GraphIssue> = issues.into_iter().filter(|i| i.severity == Severity::Error).collect();
    if !errors.is_empty() {
        return Err(BindError::Invalid(errors));
    }
    if graph.layers.len() > u8::MAX as usize {
        return Err(BindError::TooLarge(format!(
            "the graph has {} layers; at most {} are supported",
            graph.layers.len(),
            u8::MAX
        )));
    }
    let mut b = Binder {
        backend,
        out: Compiled {
            parameters: Vec::new(),
            param_by_name: HashMap::new(),
            layers: Vec::new(),
            machines: Vec::new(),
            states: Vec::new(),
            state_by_path: Vec::new(),
            transition_models: Vec::new(),
            ancestry: Vec::new(),
            transitions: Vec::new(),
            conditions: Vec::new(),
            candidates: Vec::new(),
            points: Vec::new(),
            positions: Vec::new(),
            spaces: Vec::new(),
            mixes: Vec::new(),
            default_mix: graph.default_mix,
            warnings: Vec::new(),
        },
        clips: HashMap::new(),
        mix_keys: HashMap::new(),
        pending: Vec::new(),
        machine_any: Vec::new(),
        state_out: Vec::new(),
        state_machine: Vec::new(),
    };
    b.run(graph)?;
    Ok(b.out)
}

/// A transition waiting for all states to have ids.
struct PendingTransition {
    /// Where the transition is in the authoring model (`Layers[0].Machine.Transitions[2]`).
    model: String,
    machine: MachineId,
    depth: u8,
    list_index: usize,
    priority: i32,
    from: Option<StateId>,
    to: Target,
    conditions: Range<u32>,
    duration: f32,
    exit_time: f32,
    offset: f32,
    interrupt: TransitionInterrupt,
}

struct Binder<'a> {
    backend: &'a mut dyn PoseBackend,
    out: Compiled,
    clips: HashMap<String, Option<(ClipId, f32, bool)>>,
    mix_keys: HashMap<String, u32>,
    pending: Vec<PendingTransition>,
    /// Per machine: its `*` transitions (indices into `pending`).
    machine_any: Vec<Vec<usize>>,
    /// Per state: its outgoing transitions (indices into `pending`).
    state_out: Vec<Vec<usize>>,
    /// Per state: the machine it belongs to.
    state_machine: Vec<MachineId>,
}

fn too_large(what: &str) -> BindError {
    BindError::TooLarge(format!("the graph has more than {} {what}; split it", u16::MAX))
}

impl Binder<'_> {
    fn mix_key(&mut self, name: &str) -> u32 {
        let next = self.mix_keys.len() as u32;
        *self.mix_keys.entry(name.to_string()).or_insert(next)
    }

    fn clip(&mut self, name: &str) -> Option<(ClipId, f32, bool)> {
        if let Some(c) = self.clips.get(name) {
            return *c;
        }
        let resolved = self.backend.resolve_clip(name).map(|id| {
            let length = self.backend.clip_length(id);
            let length = if length.is_finite() && length >= MIN_CLIP_LENGTH {
                length
            } else {
                self.out.warnings.push(format!(
                    "clip \"{name}\" has length {length}; it is played as {MIN_CLIP_LENGTH} s long"
                ));
                MIN_CLIP_LENGTH
            };
            (id, length, self.backend.clip_loops(id))
        });
        if resolved.is_none() {
            self.out.warnings.push(format!(
                "clip \"{name}\" is not in the skeleton; its samples are skipped (check the name)"
            ));
        }
        self.clips.insert(name.to_string(), resolved);
        resolved
    }

    fn param(&self, name: &str) -> Option<ParamId> {
        if name.is_empty() { None } else { self.out.param_by_name.get(name).copied() }
    }

    fn run(&mut self, graph: &AnimationGraph) -> Result<(), BindError> {
        if graph.parameters.len() > u16::MAX as usize {
            return Err(too_large("parameters"));
        }
        for (i, p) in graph.parameters.iter().enumerate() {
            let default = match p.kind {
                ParameterType::Bool => Value::Bool(p.default != 0.0),
                ParameterType::Int => Value::Int(p.default as i32),
                ParameterType::Float => Value::Float(p.default),
                ParameterType::Trigger => Value::Trigger(p.default != 0.0),
            };
            self.out.parameters.push(ParamDef {
                name: p.name.clone(),
                kind: p.kind,
                default,
                latch: p.latch,
            });
            self.out.param_by_name.insert(p.name.clone(), ParamId(i as u16));
        }
        for m in &graph.mixes {
            let from = (m.from != ANY_STATE).then(|| self.mix_key(&m.from));
            let to = (m.to != ANY_STATE).then(|| self.mix_key(&m.to));
            self.out.mixes.push(MixDef { from, to, duration: m.duration });
        }
        for (index, layer) in graph.layers.iter().enumerate() {
            let mask = layer.mask.as_ref().and_then(|m| self.backend.resolve_mask(m));
            let weight_param = self.param(&layer.weight_parameter);
            let layer_index = index as u8;
            let machine =
                self.machine(&layer.machine, &format!("Layers[{index}].Machine"), layer_index, None, 0)?;
            let samples_per_state = self.layer_samples(&layer.machine);
            self.out.layers.push(LayerDef {
                name: layer.name.clone(),
                blend: layer.blend,
                weight: layer.weight,
                weight_param,
                mask,
                machine,
                samples_per_state,
            });
        }
        self.finish_transitions()?;
        self.build_candidates()?;
        Ok(())
    }

    fn layer_samples(&self, machine: &GraphMachine) -> usize {
        machine
            .states
            .iter()
            .map(|s| match &s.kind {
                StateKind::Clip(_) => 1,
                StateKind::BlendSpace1D(space) => space.clips.len().min(blend_space::MAX_WEIGHTS_1D),
                StateKind::BlendSpace2D(space) => space.clips.len().min(blend_space::MAX_WEIGHTS_2D),
                StateKind::SubMachine(inner) => self.layer_samples(inner),
            })
            .max()
            .unwrap_or(1)
            .max(1)
    }

    /// Adds a machine and its states (recursively); returns its id.
    fn machine(
        &mut self,
        machine: &GraphMachine,
        model: &str,
        layer: u8,
        parent: Option<StateId>,
        depth: u8,
    ) -> Result<MachineId, BindError> {
        if self.out.machines.len() >= u16::MAX as usize {
            return Err(too_large("machines"));
        }
        let machine_id = MachineId(self.out.machines.len() as u16);
        self.out.machines.push(MachineDef { entry: StateId(0) });
        self.machine_any.push(Vec::new());
        let parent_ancestry: Vec<StateId> = match parent {
            Some(p) => self.out.ancestry(p).to_vec(),
            None => Vec::new(),
        };
        let parent_path = parent.map(|p| self.out.states[p.index()].path.clone());

        // States first, so that transitions can name them.
        let mut ids = HashMap::new();
        let mut sub_machines = Vec::new();
        for (state_index, state) in machine.states.iter().enumerate() {
            if self.out.states.len() >= u16::MAX as usize {
                return Err(too_large("states"));
            }
            let id = StateId(self.out.states.len() as u16);
            let path = match &parent_path {
                Some(p) => format!("{p}/{}", state.name),
                None => state.name.clone(),
            };
            let start = self.out.ancestry.len() as u32;
            self.out.ancestry.extend_from_slice(&parent_ancestry);
            self.out.ancestry.push(id);
            let ancestry = start..self.out.ancestry.len() as u32;
            let motion = match &state.kind {
                StateKind::Clip(c) => {
                    let clip = self.clip(&c.clip);
                    Some(Motion::Clip {
                        clip: clip.map(|c| c.0),
                        length: clip.map_or(1.0, |c| c.1),
                        looping: c.looping,
                    })
                }
                StateKind::BlendSpace1D(space) => {
                    let start = self.out.points.len() as u32;
                    for (clip, &position) in space.clips.iter().zip(&space.positions) {
                        let resolved = self.clip(clip);
                        self.out.positions.push(position);
                        self.out.points.push(BlendPoint {
                            clip: resolved.map(|c| c.0),
                            length: resolved.map_or(1.0, |c| c.1),
                            looping: resolved.is_none_or(|c| c.2),
                        });
                    }
                    let param = self.param(&space.parameter).expect("validated");
                    Some(Motion::Blend {
                        input: BlendInput::OneD(param),
                        points: start..self.out.points.len() as u32,
                        sync: space.sync_time,
                    })
                }
                StateKind::BlendSpace2D(space) => {
                    let start = self.out.points.len() as u32;
                    for clip in &space.clips {
                        let resolved = self.clip(clip);
                        self.out.positions.push(0.0);
                        self.out.points.push(BlendPoint {
                            clip: resolved.map(|c| c.0),
                            length: resolved.map_or(1.0, |c| c.1),
                            looping: resolved.is_none_or(|c| c.2),
                        });
                    }
                    let x = self.param(&space.parameter_x).expect("validated");
                    let y = self.param(&space.parameter_y).expect("validated");
                    let index = self.out.spaces.len() as u32;
                    self.out.spaces.push(Triangulation2D::new(&space.positions));
                    Some(Motion::Blend {
                        input: BlendInput::TwoD(x, y, index),
                        points: start..self.out.points.len() as u32,
                        sync: space.sync_time,
                    })
                }
                StateKind::SubMachine(inner) => {
                    sub_machines.push((id, inner, state_index));
                    None
                }
            };
            let key_name = match &state.kind {
                StateKind::Clip(c) => c.clip.as_str(),
                _ => state.name.as_str(),
            };
            let mix_key = self.mix_key(key_name);
            if self.out.state_by_path.len() <= layer as usize {
                self.out.state_by_path.resize_with(layer as usize + 1, HashMap::new);
            }
            self.out.state_by_path[layer as usize].insert(path.clone(), id);
            self.out.states.push(StateDef {
                name: state.name.clone(),
                path,
                speed: state.speed,
                speed_param: self.param(&state.speed_parameter),
                motion,
                ancestry,
                entry_leaf: id,
                candidates: 0..0,
                mix_key,
            });
            self.state_out.push(Vec::new());
            self.state_machine.push(machine_id);
            ids.insert(state.name.as_str(), id);
        }
        self.out.machines[machine_id.index()].entry = ids[machine.entry.as_str()];

        for (list_index, t) in machine.transitions.iter().enumerate() {
            let from = if t.from == ANY_STATE { None } else { Some(ids[t.from.as_str()]) };
            let to = if t.to == EXIT_STATE { Target::Exit } else { Target::State(ids[t.to.as_str()]) };
            let start = self.out.conditions.len() as u32;
            for c in &t.conditions {
                self.out.conditions.push(ConditionDef {
                    param: self.param(&c.parameter),
                    op: c.op,
                    value: c.value,
                });
            }
            let index = self.pending.len();
            self.pending.push(PendingTransition {
                model: format!("{model}.Transitions[{list_index}]"),
                machine: machine_id,
                depth,
                list_index,
                priority: t.priority,
                from,
                to,
                conditions: start..self.out.conditions.len() as u32,
                duration: t.duration,
                exit_time: t.exit_time,
                offset: t.offset,
                interrupt: t.interrupt,
            });
            match from {
                None => self.machine_any[machine_id.index()].push(index),
                Some(s) => self.state_out[s.index()].push(index),
            }
        }

        for (id, inner, state_index) in sub_machines {
            if depth as usize >= super::MAX_MACHINE_DEPTH {
                return Err(BindError::TooLarge("sub-machines nest too deep".into()));
            }
            let inner_model = format!("{model}.States[{state_index}].Machine");
            let inner_id = self.machine(inner, &inner_model, layer, Some(id), depth + 1)?;
            let entry = self.out.machines[inner_id.index()].entry;
            self.out.states[id.index()].entry_leaf = self.out.states[entry.index()].entry_leaf;
        }
        Ok(machine_id)
    }

    /// Gives transitions ids in rank order and resolves their mix durations.
    fn finish_transitions(&mut self) -> Result<(), BindError> {
        if self.pending.len() > u16::MAX as usize {
            return Err(too_large("transitions"));
        }
        // Rank: priority descending, then outer machines first, then machine order, then list order.
        let mut order: Vec<usize> = (0..self.pending.len()).collect();
        order.sort_by_key(|&i| {
            let p = &self.pending[i];
            (std::cmp::Reverse(p.priority), p.depth, p.machine, p.list_index)
        });
        let mut rank = vec![0u32; self.pending.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r as u32;
        }
        for (i, p) in self.pending.iter().enumerate() {
            let to_key = match p.to {
                Target::State(s) => self.out.states[s.index()].mix_key,
                Target::Exit => u32::MAX,
            };
            let duration = if p.duration >= 0.0 {
                p.duration
            } else {
                match (p.from, p.to) {
                    (Some(from), Target::State(_)) => {
                        self.out.mix_duration(self.out.states[from.index()].mix_key, to_key)
                    }
                    _ => -1.0,
                }
            };
            self.out.transition_models.push(p.model.clone());
            self.out.transitions.push(TransitionDef {
                from: p.from,
                to: p.to,
                conditions: p.conditions.clone(),
                duration,
                exit_time: p.exit_time,
                offset: p.offset,
                interrupt: p.interrupt,
                rank: rank[i],
                to_key,
            });
        }
        Ok(())
    }

    /// For every leaf, the transitions that may fire while it plays, sorted by rank: at each
    /// depth, the machine's `*` transitions and (for enclosing sub-machine states, once exited)
    /// the state's own; the leaf's own outgoing transitions.
    fn build_candidates(&mut self) -> Result<(), BindError> {
        let mut lists = Vec::new();
        for leaf in 0..self.out.states.len() {
            if self.out.states[leaf].motion.is_none() {
                continue;
            }
            let ancestry: Vec<StateId> = self.out.ancestry(StateId(leaf as u16)).to_vec();
            let mut entries: Vec<Candidate> = Vec::new();
            for (depth, &state) in ancestry.iter().enumerate() {
                let machine = self.state_machine[state.index()];
                for &t in &self.machine_any[machine.index()] {
                    entries.push(Candidate {
                        transition: TransitionId(t as u16),
                        level: depth as u8,
                        requires_exit: None,
                    });
                }
                let is_leaf = depth + 1 == ancestry.len();
                for &t in &self.state_out[state.index()] {
                    entries.push(Candidate {
                        transition: TransitionId(t as u16),
                        level: depth as u8,
                        requires_exit: if is_leaf { None } else { Some(depth as u8) },
                    });
                }
            }
            entries.sort_by_key(|c| self.out.transitions[c.transition.index()].rank);
            let start = lists.len() as u32;
            lists.extend(entries);
            self.out.states[leaf].candidates = start..lists.len() as u32;
        }
        if lists.len() > u32::MAX as usize {
            return Err(too_large("candidate transitions"));
        }
        self.out.candidates = lists;
        Ok(())
    }
}
