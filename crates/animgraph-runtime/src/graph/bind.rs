//! Binding: compiling a [`ValidGraph`] against a backend into a [`BoundGraph`].
//!
//! Clips and masks are resolved once through the backend; parameters, states (at every depth),
//! transitions and conditions get ids; transitions get their global rank; every leaf gets its
//! candidate lists (shared `*` and outgoing lists, merged per leaf within a copy budget). The graph was validated when the [`ValidGraph`] was made, so bind
//! checks only what depends on its size (the id types' limits).

use std::collections::HashMap;
use std::ops::Range;

use super::blend_space::{self, Triangulation2D};
use super::bound::{
    BlendInput, BlendPoint, BoundGraph, Candidate, ConditionDef, LayerDef, MAX_IDS, MAX_LAYERS,
    MIN_CLIP_LENGTH, MachineDef, MixDef, MixDuration, MixKey, Motion, ParamDef, StateDef, Target,
    TransitionDef, Value, WindowDef,
};
use super::{
    ANY_STATE, AnimationGraph, EXIT_STATE, GraphIssue, GraphMachine, MachineId, ParamId, ParameterType,
    StateId, StateKind, TransitionId, TransitionInterrupt, ValidGraph, validate,
};
use crate::core::{ClipId, PoseBackend};
use crate::finding::{Code, Finding};

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

impl BoundGraph {
    /// Compiles a validated graph against a backend: resolves clips (a missing clip is a warning
    /// and its samples are skipped) and masks, and lays the graph out as flat arrays of ids.
    /// Fails only when the graph is larger than the id types hold. Wrap the result in an `Arc`
    /// and give it to as many [`AnimationGraphPlayer`](super::AnimationGraphPlayer)s as needed.
    pub fn bind(graph: &ValidGraph, backend: &mut dyn PoseBackend) -> Result<BoundGraph, BindError> {
        bind(graph.graph(), backend)
    }

    /// Validates `graph` (once) and binds it, without taking or copying it: for one-off binds
    /// of a graph being edited.
    pub fn validate_and_bind(
        graph: &AnimationGraph,
        backend: &mut dyn PoseBackend,
    ) -> Result<BoundGraph, BindError> {
        let errors: Vec<GraphIssue> = validate(graph).into_iter().filter(GraphIssue::is_error).collect();
        if !errors.is_empty() {
            return Err(BindError::Invalid(errors));
        }
        bind(graph, backend)
    }
}

/// Binds a graph that has no validation error (the callers above made sure).
fn bind(graph: &AnimationGraph, backend: &mut dyn PoseBackend) -> Result<BoundGraph, BindError> {
    if graph.layers.len() > MAX_LAYERS {
        return Err(BindError::TooLarge(format!(
            "the graph has {} layers; at most {} are supported",
            graph.layers.len(),
            MAX_LAYERS
        )));
    }
    let mut b = Binder {
        backend,
        out: BoundGraph {
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
            candidate_runs: Vec::new(),
            points: Vec::new(),
            positions: Vec::new(),
            spaces: Vec::new(),
            mixes: Vec::new(),
            default_mix: graph.default_mix,
            windows: Vec::new(),
            markers: Vec::new(),
            marker_names: Vec::new(),
            warnings: Vec::new(),
        },
        clips: HashMap::new(),
        clip_markers: HashMap::new(),
        inertial_layers: Vec::new(),
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
    curve: super::TransitionCurve,
    blend: super::TransitionBlend,
    sync: super::TransitionSync,
}

struct Binder<'a> {
    backend: &'a mut dyn PoseBackend,
    out: BoundGraph,
    clips: HashMap<String, Option<(ClipId, f32, bool)>>,
    /// Each clip's markers, by clip name.
    clip_markers: HashMap<String, Range<u32>>,
    /// Per layer: whether it has inertial transitions.
    inertial_layers: Vec<bool>,
    mix_keys: HashMap<String, MixKey>,
    pending: Vec<PendingTransition>,
    /// Per machine: its `*` transitions (indices into `pending`).
    machine_any: Vec<Vec<usize>>,
    /// Per state: its outgoing transitions (indices into `pending`).
    state_out: Vec<Vec<usize>>,
    /// Per state: the machine it belongs to.
    state_machine: Vec<MachineId>,
}

/// How many times the size of all candidate lists the leaves' private merged copies may take
/// in all, and at least 65,536 entries (beyond that, leaves read their shared lists merged as
/// they go: the same order, a little slower).
pub const CANDIDATE_COPY_BUDGET: usize = 4;

fn too_large(what: &str) -> BindError {
    BindError::TooLarge(format!("the graph has more than {MAX_IDS} {what}; split it"))
}

impl Binder<'_> {
    fn mix_key(&mut self, name: &str) -> MixKey {
        let next = MixKey(self.mix_keys.len() as u32);
        *self.mix_keys.entry(name.to_string()).or_insert(next)
    }

    /// A clip's sync markers as phases (`seconds / length`, a marker at the very end wrapping to
    /// 0), sorted, with interned names; stored once per clip name.
    fn markers_of(&mut self, name: &str, clip: Option<(ClipId, f32, bool)>) -> Range<u32> {
        if let Some(r) = self.clip_markers.get(name) {
            return r.clone();
        }
        let start = self.out.markers.len() as u32;
        if let Some((id, length, _)) = clip {
            let mut list: Vec<crate::markers::Marker> = Vec::new();
            for (marker, seconds) in
                self.backend.clip_markers(id).into_iter().take(crate::markers::MAX_MARKERS)
            {
                if !seconds.is_finite() {
                    continue;
                }
                let name = match self.out.marker_names.iter().position(|n| *n == marker) {
                    Some(i) => i as u32,
                    None => {
                        self.out.marker_names.push(marker);
                        self.out.marker_names.len() as u32 - 1
                    }
                };
                list.push(crate::markers::Marker { name, phase: (seconds / length).rem_euclid(1.0) });
            }
            list.sort_by(|a, b| a.phase.total_cmp(&b.phase));
            self.out.markers.extend(list);
        }
        let range = start..self.out.markers.len() as u32;
        self.clip_markers.insert(name.to_string(), range.clone());
        range
    }

    /// With `SyncMarkers`: the first point with markers becomes the reference, and every point
    /// finds its marker named like the reference's first (see [`crate::markers`]).
    fn marker_reference(&mut self, sync_markers: bool, points: &Range<u32>) -> Option<u16> {
        if !sync_markers {
            return None;
        }
        let graph = &mut self.out;
        let relative = graph.points[points.start as usize..points.end as usize]
            .iter()
            .position(|p| !p.markers.is_empty())?;
        let reference = &graph.points[points.start as usize + relative];
        let first = graph.markers[reference.markers.start as usize].name;
        for p in points.start..points.end {
            let point = &graph.points[p as usize];
            let markers = &graph.markers[point.markers.start as usize..point.markers.end as usize];
            let align = markers.iter().position(|m| m.name == first).map(|i| i as u16);
            graph.points[p as usize].align = align;
        }
        Some(relative as u16)
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
                self.out.warnings.push(Finding {
                    subject: format!("clip \"{name}\""),
                    fix: "give the clip a length above zero in the skeleton".into(),
                    ..Finding::warning(
                        Code::ClipLength,
                        "",
                        format!(
                            "clip \"{name}\" has length {length}; it is played as {MIN_CLIP_LENGTH} s long"
                        ),
                    )
                });
                MIN_CLIP_LENGTH
            };
            (id, length, self.backend.clip_loops(id))
        });
        if resolved.is_none() {
            self.out.warnings.push(Finding {
                subject: format!("clip \"{name}\""),
                fix: "check the name, or add the clip to the skeleton (or a clip map)".into(),
                ..Finding::warning(
                    Code::MissingClip,
                    "",
                    format!(
                        "clip \"{name}\" is not in the skeleton; its samples are skipped (check the name)"
                    ),
                )
            });
        }
        self.clips.insert(name.to_string(), resolved);
        resolved
    }

    fn param(&self, name: &str) -> Option<ParamId> {
        if name.is_empty() { None } else { self.out.param_by_name.get(name).copied() }
    }

    fn run(&mut self, graph: &super::AnimationGraph) -> Result<(), BindError> {
        if graph.parameters.len() > MAX_IDS {
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
            let first_state = self.out.states.len();
            let machine =
                self.machine(&layer.machine, &format!("Layers[{index}].Machine"), layer_index, None, 0)?;
            let samples_per_state = self.layer_samples(&layer.machine);
            let states = &self.out.states[first_state..];
            let leaves = states.iter().filter(|s| s.motion.is_some()).count();
            let events = super::bound::layer_event_capacity(states);
            self.out.layers.push(LayerDef {
                travel_mode: layer.travel_mode,
                leaves,
                events,
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
        if self.inertial_layers.contains(&true) {
            let samples = self.out.sample_capacity();
            let mut layers = std::mem::take(&mut self.inertial_layers);
            layers.resize(self.out.layers.len(), false);
            self.backend.prepare_inertial(&layers, samples);
        }
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
        if self.out.machines.len() >= MAX_IDS {
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
            if self.out.states.len() >= MAX_IDS {
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
                        markers: self.markers_of(&c.clip, clip),
                    })
                }
                StateKind::BlendSpace1D(space) => {
                    let start = self.out.points.len() as u32;
                    for (clip, &position) in space.clips.iter().zip(&space.positions) {
                        let resolved = self.clip(clip);
                        self.out.positions.push(position);
                        let markers = self.markers_of(clip, resolved);
                        self.out.points.push(BlendPoint {
                            clip: resolved.map(|c| c.0),
                            length: resolved.map_or(1.0, |c| c.1),
                            looping: resolved.is_none_or(|c| c.2),
                            markers,
                            align: None,
                        });
                    }
                    let param = self.param(&space.parameter).expect("validated");
                    let points = start..self.out.points.len() as u32;
                    let reference = self.marker_reference(space.sync_markers, &points);
                    // Marker sync runs on a shared phase clock, as SyncTime does.
                    let sync = space.sync_time || reference.is_some();
                    Some(Motion::Blend { input: BlendInput::OneD(param), points, sync, reference })
                }
                StateKind::BlendSpace2D(space) => {
                    let start = self.out.points.len() as u32;
                    for clip in &space.clips {
                        let resolved = self.clip(clip);
                        self.out.positions.push(0.0);
                        let markers = self.markers_of(clip, resolved);
                        self.out.points.push(BlendPoint {
                            clip: resolved.map(|c| c.0),
                            length: resolved.map_or(1.0, |c| c.1),
                            looping: resolved.is_none_or(|c| c.2),
                            markers,
                            align: None,
                        });
                    }
                    let x = self.param(&space.parameter_x).expect("validated");
                    let y = self.param(&space.parameter_y).expect("validated");
                    let index = self.out.spaces.len() as u32;
                    self.out.spaces.push(Triangulation2D::new(&space.positions));
                    let points = start..self.out.points.len() as u32;
                    let reference = self.marker_reference(space.sync_markers, &points);
                    let sync = space.sync_time || reference.is_some();
                    Some(Motion::Blend { input: BlendInput::TwoD(x, y, index), points, sync, reference })
                }
                StateKind::SubMachine(inner) => {
                    sub_machines.push((id, inner, state_index));
                    None
                }
            };
            let mix_key = self.mix_key(state.mix_name());
            if self.out.state_by_path.len() <= layer as usize {
                self.out.state_by_path.resize_with(layer as usize + 1, HashMap::new);
            }
            self.out.state_by_path[layer as usize].insert(path.clone(), id);
            let first_window = self.out.windows.len() as u32;
            self.out.windows.extend(state.windows.iter().map(|w| WindowDef {
                name: w.name.clone(),
                start: w.start,
                end: w.end,
            }));
            let windows = first_window..self.out.windows.len() as u32;
            self.out.states.push(StateDef {
                windows,
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
            let to = if t.to == EXIT_STATE {
                Target::Exit
            } else {
                let state: StateId = ids[t.to.as_str()];
                Target::State(state, self.out.states[state.index()].mix_key)
            };
            let start = self.out.conditions.len() as u32;
            for c in &t.conditions {
                self.out.conditions.push(ConditionDef {
                    param: self.param(&c.parameter),
                    op: c.op,
                    value: c.value,
                });
            }
            let index = self.pending.len();
            if t.blend == super::TransitionBlend::Inertial {
                if self.inertial_layers.len() <= layer as usize {
                    self.inertial_layers.resize(layer as usize + 1, false);
                }
                self.inertial_layers[layer as usize] = true;
            }
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
                curve: t.curve,
                blend: t.blend,
                sync: t.sync,
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
        if self.pending.len() > MAX_IDS {
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
            // A negative authored `Duration` (-1) means "from `Mixes`": resolved here when the
            // source is known, when the transition starts for `*`.
            let duration = if p.duration >= 0.0 {
                MixDuration::Seconds(p.duration)
            } else {
                match (p.from, p.to) {
                    (Some(from), Target::State(_, to)) => {
                        MixDuration::Seconds(self.out.mix_duration(self.out.states[from.index()].mix_key, to))
                    }
                    _ => MixDuration::FromMixes,
                }
            };
            self.out.transition_models.push(p.model.clone());
            self.out.transitions.push(TransitionDef {
                from: p.from,
                to: p.to,
                conditions: p.conditions.clone(),
                duration,
                // A negative authored `ExitTime` (-1) means none.
                exit_time: (p.exit_time >= 0.0).then_some(p.exit_time),
                offset: p.offset,
                interrupt: p.interrupt,
                curve: p.curve,
                blend: p.blend,
                sync: p.sync,
                rank: rank[i],
            });
        }
        Ok(())
    }

    /// For every leaf, the transitions that may fire while it plays: at each depth, the
    /// machine's `*` transitions and (for enclosing sub-machine states, once exited) the state's
    /// own; the leaf's own outgoing transitions. Each machine's and state's list is stored once,
    /// sorted by rank, and a leaf holds runs pointing at the lists that apply to it (at most two
    /// per depth), which the player merges by rank as it reads them. Leaves with more than one
    /// list get a merged copy of their own (read straight through, the common fast case) while
    /// the copies stay within [`CANDIDATE_COPY_BUDGET`] times the lists' size, so storage is
    /// linear in the graph's size however many `*` transitions enclose how many leaves.
    fn build_candidates(&mut self) -> Result<(), BindError> {
        let listed: usize = self.machine_any.iter().chain(&self.state_out).map(Vec::len).sum();
        let budget = listed.saturating_mul(CANDIDATE_COPY_BUDGET).max(1 << 16);
        if listed.saturating_add(budget) > u32::MAX as usize {
            return Err(too_large("candidate transitions"));
        }
        let mut entries = Vec::with_capacity(listed);
        let transitions = &self.out.transitions;
        let depth_of = |s: StateId| (self.out.states[s.index()].ancestry.len() - 1) as u8;
        let push_list =
            |list: &[usize], level: u8, requires_exit: Option<u8>, entries: &mut Vec<Candidate>| {
                let start = entries.len() as u32;
                entries.extend(list.iter().map(|&t| Candidate {
                    transition: TransitionId(t as u16),
                    level,
                    requires_exit,
                }));
                entries[start as usize..].sort_unstable_by_key(|c| transitions[c.transition.index()].rank);
                start..entries.len() as u32
            };
        // A machine's `*` list: at its depth; a state's outgoing list: at the state's depth, and
        // for a sub-machine state only once it has exited.
        let mut machine_depth = vec![0u8; self.machine_any.len()];
        for (s, m) in self.state_machine.iter().enumerate() {
            machine_depth[m.index()] = depth_of(StateId(s as u16));
        }
        let any: Vec<Range<u32>> = (0..self.machine_any.len())
            .map(|m| push_list(&self.machine_any[m], machine_depth[m], None, &mut entries))
            .collect();
        let out: Vec<Range<u32>> = (0..self.state_out.len())
            .map(|s| {
                let depth = depth_of(StateId(s as u16));
                let exit = self.out.states[s].motion.is_none().then_some(depth);
                push_list(&self.state_out[s], depth, exit, &mut entries)
            })
            .collect();
        let mut runs: Vec<Range<u32>> = Vec::new();
        let mut copied = 0usize;
        for leaf in 0..self.out.states.len() {
            if self.out.states[leaf].motion.is_none() {
                continue;
            }
            let first = runs.len();
            for &state in self.out.ancestry(StateId(leaf as u16)) {
                for range in [&any[self.state_machine[state.index()].index()], &out[state.index()]] {
                    if !range.is_empty() {
                        runs.push(range.clone());
                    }
                }
            }
            let mine = &runs[first..];
            let size: usize = mine.iter().map(|r| r.len()).sum();
            if mine.len() > 1 && copied + size <= budget {
                copied += size;
                let start = entries.len();
                for r in mine {
                    entries.extend_from_within(r.start as usize..r.end as usize);
                }
                entries[start..].sort_unstable_by_key(|c| transitions[c.transition.index()].rank);
                runs.truncate(first);
                runs.push(start as u32..entries.len() as u32);
            }
            if runs.len() > u32::MAX as usize {
                return Err(too_large("candidate runs"));
            }
            self.out.states[leaf].candidates = first as u32..runs.len() as u32;
        }
        self.out.candidates = entries;
        self.out.candidate_runs = runs;
        Ok(())
    }
}
