//! The player: evaluates a bound graph each frame into a [`SampleBuffer`], without allocating.
//!
//! # One advance
//!
//! | step | what happens |
//! |---|---|
//! | 0 | (first advance only) each layer enters its entry state: `StateEntered` for it and, for sub-machines, each inner entry state, outermost first |
//! | 1 | per layer, in layer order: a mix whose progress reached 1 last frame completes (`StateExited` for the states it leaves, innermost first); then at most one transition is chosen (`TransitionStarted`, then `StateEntered`), using the parameters as set and the clocks as they stood at the end of the previous frame |
//! | 2 | every playing clock advances by `delta` x its rate, including a target that started this frame; running mixes advance by `delta` |
//! | 3 | samples and layer infos are written to the buffer |
//! | 4 | triggers no transition used are cleared, unless `Latch` |
//!
//! # Transition rules
//!
//! | case | result |
//! |---|---|
//! | several transitions could fire | the first by rank: `Priority` descending, then outer machines before inner ones, then list order |
//! | conditions | all must hold (AND); several transitions between the same states act as OR |
//! | `ExitTime` set (>= 0) | waits until the side's playing state reaches that cumulative normalised time (`2.0` = after the second loop; a one-shot keeps counting while it holds its last frame) |
//! | `Duration` -1 | the most specific `Mixes` entry for (from, to) (exact pair, `from -> *`, `* -> to`, `* -> *`), else `DefaultMix` |
//! | `Duration` 0 | instant: the source is cut (`StateExited`), then `TransitionStarted`, `StateEntered` |
//! | `Offset` | the target starts at that normalised time |
//! | `*` into a state already active (the playing state or an enclosing sub-machine) | skipped |
//! | any candidate into the running mix's target | skipped |
//! | trigger tested by the transition that starts | consumed (cleared) |
//! | trigger nobody used this frame | cleared at the end of `advance`, unless the parameter has `Latch` |
//! | during a mix, `Interrupt` None | nothing is checked, not even `*` |
//! | Interrupt Source | the source state's transitions and `*` |
//! | Interrupt Target | the target state's transitions and `*` |
//! | Interrupt Both | both sides and `*`, merged into one list by rank |
//! | an interruption starts | the current blend's weights are frozen as the new source (its clips keep advancing), so the emitted weights are continuous |
//! | more than [`MAX_INSTANCES`] states would blend at once | the lightest frozen source (never the layer's current state) is dropped and the others rescaled |
//! | a sub-machine is entered | its entry state starts (recursively down to a clip or blend space) |
//! | an inner transition to `<exit>` fires | the sub-machine is marked exited: from then on its inner transitions are no longer checked, its last inner state keeps playing, and the parent's transitions *from the sub-machine state* become candidates; until one of them fires the layer stays where it is (`*` transitions still apply) |
//! | parent transitions from a sub-machine state | only checked once that sub-machine has exited |
//! | `travel(layer, state)` | applied at the next advance, before transitions are chosen: starts a mix to that state (from any situation, freezing a running mix) with the `Mixes`/`DefaultMix` duration; skipped when the state is the running mix's target |
//!
//! # Normalised time
//!
//! A clip state's is `seconds played / clip length`, cumulative over loops. A blend space with
//! `SyncTime` advances one shared phase at the weighted average of its clips' normalised rates
//! (`sum(weight_i / length_i)`), and that phase is its normalised time; without `SyncTime` each
//! clip plays at its own rate and the state's normalised time is that of its heaviest clip.

use std::collections::HashMap;

use super::bind::{self, BindError, BlendInput, Compiled, Motion, Target, Value};
use super::blend_space::{MAX_WEIGHTS_1D, MAX_WEIGHTS_2D, Triangulation2D, weights_1d};
use super::explain::{
    CandidateCheck, CandidateSide, Checked, ConditionCheck, Explanation, Outcome, TriggerUse,
};
use super::{
    AnimationGraph, EventList, GraphEvent, ParamId, ParameterType, StateId, TransitionId, TransitionInterrupt,
};
use crate::core::{ClipSample, LayerInfo, PoseBackend, SampleBuffer};

/// Most states blending in one layer at once (frozen sources of interruption chains plus the
/// running mix's target).
pub const MAX_INSTANCES: usize = 8;

/// Default [`LayerInfo::event_threshold`] for graph layers: a clip fires events while it has at
/// least half its layer's weight.
pub const DEFAULT_EVENT_THRESHOLD: f32 = 0.5;

/// Why a parameter, layer or state access failed. The old value is kept.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParameterError {
    /// No parameter has this name.
    #[error("no parameter \"{0}\" in the graph")]
    Unknown(String),
    /// The id is not a parameter of this graph.
    #[error("parameter id {0} is out of range")]
    BadId(u16),
    /// The parameter has another type.
    #[error("parameter \"{name}\" is a {actual}, not a {expected}")]
    WrongType {
        /// Parameter name.
        name: String,
        /// Its type.
        actual: &'static str,
        /// The type the call needs.
        expected: &'static str,
    },
    /// NaN or infinity.
    #[error("parameter \"{name}\": {value} is not a finite number")]
    NotFinite {
        /// Parameter name.
        name: String,
        /// The refused value.
        value: f32,
    },
    /// A property path other than `Parameters/<name>`.
    #[error("unknown property \"{0}\"; use \"Parameters/<name>\"")]
    UnknownProperty(String),
    /// An Int parameter set from a float with a fraction.
    #[error("parameter \"{name}\" is an Int; {value} is not a whole number")]
    NotWhole {
        /// Parameter name.
        name: String,
        /// The refused value.
        value: f32,
    },
}

/// Why a layer or state call failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LayerError {
    /// No such layer.
    #[error("layer {0} does not exist")]
    NoLayer(usize),
    /// No state with this path in the layer.
    #[error("layer {layer} has no state \"{path}\"; use a name or an Outer/Inner path")]
    NoState {
        /// The layer.
        layer: usize,
        /// The requested path.
        path: String,
    },
    /// NaN or infinite weight.
    #[error("layer weight {0} is not a finite number")]
    NotFinite(f32),
}

/// A value for [`AnimationGraphPlayer::set_property`] / [`get_property`](AnimationGraphPlayer::get_property).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PropertyValue {
    /// For Bool parameters (and triggers: `true` fires, `false` clears).
    Bool(bool),
    /// For Int parameters (Float ones accept it too).
    Int(i32),
    /// For Float parameters (Int ones accept whole numbers).
    Float(f32),
}

#[derive(Clone, Copy, Debug)]
struct Instance {
    /// The leaf state playing.
    state: StateId,
    /// Seconds x rate for clips and unsynced blend spaces; cumulative phase for synced ones.
    clock: f64,
    /// `clock` before this frame's advance.
    prev: f64,
    /// Weight among the frozen sources (1 when alone).
    weight: f32,
    /// The tick at which the instance started.
    entry_tick: u64,
    /// Blend spaces: the clip weights at the last clock advance (`(point, weight)`, the first
    /// `weight_count` valid), so each frame triangulates once.
    weights: [(u16, f32); MAX_WEIGHTS_2D],
    weight_count: u8,
}

#[derive(Clone, Copy, Debug)]
struct Running {
    transition: Option<TransitionId>,
    elapsed: f32,
    duration: f32,
    interrupt: TransitionInterrupt,
    start_tick: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Source,
    Target,
}

#[derive(Clone, Debug)]
struct LayerRun {
    /// Playing states; `sources[current]` is the layer's current state.
    sources: Vec<Instance>,
    current: usize,
    /// The running mix's target.
    target: Option<Instance>,
    running: Option<Running>,
    /// Bit d: the current state's enclosing sub-machine at depth d has exited.
    current_exited: u32,
    /// The same for the running mix's target.
    target_exited: u32,
    /// Authored weight, or the last `set_layer_weight`.
    weight: f32,
    event_threshold: f32,
    pending_travel: Option<StateId>,
}

/// A player's complete runtime state (see [`AnimationGraphPlayer::snapshot`]).
#[derive(Clone, Debug)]
pub struct PlayerSnapshot {
    values: Vec<Value>,
    layers: Vec<LayerRun>,
    tick: u64,
    started: bool,
}

impl PlayerSnapshot {
    /// The tick the snapshot was taken at.
    pub fn tick(&self) -> u64 {
        self.tick
    }
}

/// Evaluates an [`AnimationGraph`] each frame: parameters in, weighted clip samples out.
///
/// Bind once with [`new`](Self::new) (resolves clips and masks through the backend, sizes every
/// buffer); then per frame set parameters, call [`advance`](Self::advance) and hand the buffer
/// to [`PoseBackend::apply`]. See the [module docs](self) for the rules.
///
/// # Performance
/// `advance` allocates nothing and looks up no strings; the `*_by_name` setters use a map built
/// at bind (no allocation either, but the id forms are faster).
pub struct AnimationGraphPlayer {
    /// Immutable after bind, so instances of one bound graph share it.
    graph: std::sync::Arc<Compiled>,
    values: Vec<Value>,
    layers: Vec<LayerRun>,
    events: EventList,
    tick: u64,
    started: bool,
    /// Triggers fired since the last network capture.
    fired: Vec<bool>,
    /// Explain mode's storage (`None`: off).
    explain: Option<Box<Explanation>>,
}

impl std::fmt::Debug for AnimationGraphPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnimationGraphPlayer")
            .field("tick", &self.tick)
            .field("layers", &self.layers.len())
            .finish()
    }
}

fn timing(clock: f64, prev: f64, length: f32, looping: bool) -> (f32, f32, bool) {
    let length = length as f64;
    if looping {
        let looped = (clock / length).floor() != (prev / length).floor();
        (clock.rem_euclid(length) as f32, prev.rem_euclid(length) as f32, looped)
    } else {
        (clock.clamp(0.0, length) as f32, prev.clamp(0.0, length) as f32, false)
    }
}

fn phase_timing(phase: f64, prev: f64, length: f32, looping: bool) -> (f32, f32, bool) {
    let length = length as f64;
    if looping {
        let looped = phase.floor() != prev.floor();
        ((phase.rem_euclid(1.0) * length) as f32, (prev.rem_euclid(1.0) * length) as f32, looped)
    } else {
        ((phase.clamp(0.0, 1.0) * length) as f32, (prev.clamp(0.0, 1.0) * length) as f32, false)
    }
}

impl AnimationGraphPlayer {
    /// Binds a graph to a backend: validates it, resolves clips (a missing clip is a warning and
    /// its samples are skipped) and masks, compiles it and sizes every buffer.
    pub fn new(graph: &AnimationGraph, backend: &mut dyn PoseBackend) -> Result<Self, BindError> {
        let compiled = bind::bind(graph, backend)?;
        let mut player = AnimationGraphPlayer {
            values: compiled.parameters.iter().map(|p| p.default).collect(),
            layers: Vec::new(),
            events: EventList::with_capacity(compiled.event_capacity()),
            tick: 0,
            started: false,
            fired: vec![false; compiled.parameters.len()],
            explain: None,
            graph: std::sync::Arc::new(compiled),
        };
        player.layers = (0..player.graph.layers.len()).map(|l| player.entry_layer(l)).collect();
        Ok(player)
    }

    /// A new player for the same bound graph, in its initial state (entry states, default
    /// parameters), sharing the compiled graph instead of binding again: the way to make many
    /// characters of one graph (binding costs allocations; this makes only the per-player state).
    /// The backend each instance drives must resolve clips and masks the same way as the one
    /// this player was bound with (a clone of it, or one built from the same skeleton the same way).
    pub fn instantiate(&self) -> AnimationGraphPlayer {
        let mut player = AnimationGraphPlayer {
            values: self.graph.parameters.iter().map(|p| p.default).collect(),
            layers: Vec::new(),
            events: EventList::with_capacity(self.graph.event_capacity()),
            tick: 0,
            started: false,
            fired: vec![false; self.graph.parameters.len()],
            explain: None,
            graph: std::sync::Arc::clone(&self.graph),
        };
        player.layers = (0..player.graph.layers.len()).map(|l| player.entry_layer(l)).collect();
        player
    }

    fn entry_layer(&self, layer: usize) -> LayerRun {
        let def = &self.graph.layers[layer];
        let entry = self.graph.machines[def.machine.index()].entry;
        let leaf = self.graph.states[entry.index()].entry_leaf;
        let mut sources = Vec::with_capacity(MAX_INSTANCES);
        sources.push(self.new_instance(leaf, 0.0));
        LayerRun {
            sources,
            current: 0,
            target: None,
            running: None,
            current_exited: 0,
            target_exited: 0,
            weight: def.weight,
            event_threshold: DEFAULT_EVENT_THRESHOLD,
            pending_travel: None,
        }
    }

    /// Re-binds after the graph (or the backend's clips) changed. Parameter values are kept by
    /// name where the type still matches; each layer (matched by name) keeps its current state by
    /// path, with its clock, where that state still exists, otherwise it starts at its entry.
    /// Running mixes are dropped. On error the player is unchanged.
    pub fn rebind(&mut self, graph: &AnimationGraph, backend: &mut dyn PoseBackend) -> Result<(), BindError> {
        let compiled = bind::bind(graph, backend)?;
        let old_values: HashMap<&str, Value> =
            self.graph.parameters.iter().zip(&self.values).map(|(p, v)| (p.name.as_str(), *v)).collect();
        let values: Vec<Value> = compiled
            .parameters
            .iter()
            .map(|p| match old_values.get(p.name.as_str()) {
                Some(v) if std::mem::discriminant(v) == std::mem::discriminant(&p.default) => *v,
                _ => p.default,
            })
            .collect();
        let kept: Vec<(String, String, Instance, f32)> = self
            .layers
            .iter()
            .enumerate()
            .map(|(l, run)| {
                let current = run.sources[run.current];
                let path = self.graph.states[current.state.index()].path.clone();
                (self.graph.layers[l].name.clone(), path, current, run.weight)
            })
            .collect();
        self.graph = std::sync::Arc::new(compiled);
        self.values = values;
        self.events = EventList::with_capacity(self.graph.event_capacity());
        if self.explain.is_some() {
            self.set_explain(false);
            self.set_explain(true);
        }
        self.layers = (0..self.graph.layers.len()).map(|l| self.entry_layer(l)).collect();
        for (l, run) in self.layers.iter_mut().enumerate() {
            let name = &self.graph.layers[l].name;
            let Some((_, path, instance, weight)) = kept.iter().find(|k| &k.0 == name) else { continue };
            run.weight = *weight;
            if let Some(&state) = self.graph.state_by_path[l].get(path.as_str()) {
                if self.graph.states[state.index()].motion.is_some() {
                    run.sources[0] = Instance { state, ..*instance };
                }
            }
        }
        Ok(())
    }

    fn new_instance(&self, leaf: StateId, offset: f32) -> Instance {
        let blank = Instance {
            state: leaf,
            clock: 0.0,
            prev: 0.0,
            weight: 1.0,
            entry_tick: self.tick,
            weights: [(0, 0.0); MAX_WEIGHTS_2D],
            weight_count: 0,
        };
        let instance = self.with_weights(blank);
        let clock = match &self.graph.states[leaf.index()].motion {
            Some(Motion::Clip { length, .. }) => offset as f64 * *length as f64,
            Some(Motion::Blend { sync: true, .. }) | None => offset as f64,
            Some(Motion::Blend { sync: false, points, .. }) => {
                offset as f64 * self.graph.points[dominant_point(&instance, points)].length as f64
            }
        };
        Instance { clock, prev: clock, ..instance }
    }

    /// The instance with its blend-space weights computed from the current parameters.
    fn with_weights(&self, mut instance: Instance) -> Instance {
        if let Some(Motion::Blend { input, points, .. }) = &self.graph.states[instance.state.index()].motion {
            let (n, weights) = self.blend_weights(*input, points);
            instance.weights = weights;
            instance.weight_count = n as u8;
        }
        instance
    }

    /// A blend space's clip weights at the parameters' current values: `(point, weight)` pairs,
    /// weight > 0, summing to 1.
    fn blend_weights(
        &self,
        input: BlendInput,
        points: &std::ops::Range<u32>,
    ) -> (usize, [(u16, f32); MAX_WEIGHTS_2D]) {
        let mut out = [(0u16, 0.0f32); MAX_WEIGHTS_2D];
        let n = match input {
            BlendInput::OneD(param) => {
                let x = self.values[param.index()].numeric();
                let positions = &self.graph.positions[points.start as usize..points.end as usize];
                let mut one = [(0u16, 0.0f32); MAX_WEIGHTS_1D];
                let n = weights_1d(positions, x, &mut one);
                out[..n].copy_from_slice(&one[..n]);
                n
            }
            BlendInput::TwoD(x, y, space) => {
                let p = [self.values[x.index()].numeric(), self.values[y.index()].numeric()];
                self.graph.spaces[space as usize].weights(p, &mut out)
            }
        };
        (n, out)
    }

    /// The bound triangulation of a 2D blend-space state (what the player blends with), for
    /// editors that draw it.
    pub fn blend_space_2d(&self, state: StateId) -> Option<&Triangulation2D> {
        match self.graph.states.get(state.index())?.motion {
            Some(Motion::Blend { input: BlendInput::TwoD(_, _, space), .. }) => {
                self.graph.spaces.get(space as usize)
            }
            _ => None,
        }
    }

    /// A blend-space state's current clip weights, as `(index in the state's Clips, weight)`.
    /// Writes into `out` and returns how many; 0 for other states.
    pub fn blend_space_weights(&self, state: StateId, out: &mut [(u16, f32); MAX_WEIGHTS_2D]) -> usize {
        match self.graph.states.get(state.index()).and_then(|s| s.motion.as_ref()) {
            Some(Motion::Blend { input, points, .. }) => {
                let (n, weights) = self.blend_weights(*input, points);
                out[..n].copy_from_slice(&weights[..n]);
                n
            }
            _ => 0,
        }
    }

    /// Normalised time of an instance (see the module docs).
    fn normalised(&self, instance: &Instance) -> f32 {
        match &self.graph.states[instance.state.index()].motion {
            Some(Motion::Clip { length, .. }) => (instance.clock / *length as f64) as f32,
            Some(Motion::Blend { sync: true, .. }) | None => instance.clock as f32,
            Some(Motion::Blend { sync: false, points, .. }) => {
                (instance.clock / self.graph.points[dominant_point(instance, points)].length as f64) as f32
            }
        }
    }

    fn rate(&self, state: StateId) -> f64 {
        let def = &self.graph.states[state.index()];
        let multiplier = def.speed_param.map_or(1.0, |p| self.values[p.index()].numeric());
        def.speed as f64 * multiplier as f64
    }

    // ---- parameters -----------------------------------------------------------------------

    /// The id of the parameter with this name (resolve once, then use the id).
    pub fn find_parameter(&self, name: &str) -> Option<ParamId> {
        self.graph.param_by_name.get(name).copied()
    }

    /// How many parameters the graph has (ids are `0..count`).
    pub fn parameter_count(&self) -> usize {
        self.values.len()
    }

    /// A parameter's name.
    pub fn parameter_name(&self, param: ParamId) -> Option<&str> {
        self.graph.parameters.get(param.index()).map(|p| p.name.as_str())
    }

    /// A parameter's type.
    pub fn parameter_type(&self, param: ParamId) -> Option<ParameterType> {
        self.graph.parameters.get(param.index()).map(|p| p.kind)
    }

    fn slot(&mut self, param: ParamId, expected: ParameterType) -> Result<&mut Value, ParameterError> {
        let def = self.graph.parameters.get(param.index()).ok_or(ParameterError::BadId(param.0))?;
        if def.kind != expected {
            return Err(ParameterError::WrongType {
                name: def.name.clone(),
                actual: def.kind.as_str(),
                expected: expected.as_str(),
            });
        }
        Ok(&mut self.values[param.index()])
    }

    fn id(&self, name: &str) -> Result<ParamId, ParameterError> {
        self.find_parameter(name).ok_or_else(|| ParameterError::Unknown(name.to_string()))
    }

    /// Sets a Bool parameter.
    pub fn set_bool(&mut self, param: ParamId, value: bool) -> Result<(), ParameterError> {
        *self.slot(param, ParameterType::Bool)? = Value::Bool(value);
        Ok(())
    }

    /// Sets an Int parameter.
    pub fn set_int(&mut self, param: ParamId, value: i32) -> Result<(), ParameterError> {
        *self.slot(param, ParameterType::Int)? = Value::Int(value);
        Ok(())
    }

    /// Sets a Float parameter; NaN and infinity are refused and the old value kept.
    pub fn set_float(&mut self, param: ParamId, value: f32) -> Result<(), ParameterError> {
        if !value.is_finite() {
            let name = self.parameter_name(param).ok_or(ParameterError::BadId(param.0))?.to_string();
            return Err(ParameterError::NotFinite { name, value });
        }
        *self.slot(param, ParameterType::Float)? = Value::Float(value);
        Ok(())
    }

    /// Fires a trigger: set until a transition that tests it starts, or the end of this advance
    /// (or, with `Latch`, until used).
    pub fn fire(&mut self, trigger: ParamId) -> Result<(), ParameterError> {
        *self.slot(trigger, ParameterType::Trigger)? = Value::Trigger(true);
        self.fired[trigger.index()] = true;
        Ok(())
    }

    /// Clears a trigger without it being used.
    pub fn reset_trigger(&mut self, trigger: ParamId) -> Result<(), ParameterError> {
        *self.slot(trigger, ParameterType::Trigger)? = Value::Trigger(false);
        Ok(())
    }

    /// A Bool parameter's value (`None` for another type or id).
    pub fn get_bool(&self, param: ParamId) -> Option<bool> {
        match self.values.get(param.index()) {
            Some(Value::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    /// An Int parameter's value.
    pub fn get_int(&self, param: ParamId) -> Option<i32> {
        match self.values.get(param.index()) {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }
    }

    /// A Float parameter's value.
    pub fn get_float(&self, param: ParamId) -> Option<f32> {
        match self.values.get(param.index()) {
            Some(Value::Float(f)) => Some(*f),
            _ => None,
        }
    }

    /// Whether a trigger is set.
    pub fn is_triggered(&self, trigger: ParamId) -> Option<bool> {
        match self.values.get(trigger.index()) {
            Some(Value::Trigger(t)) => Some(*t),
            _ => None,
        }
    }

    /// [`set_bool`](Self::set_bool) by name.
    pub fn set_bool_by_name(&mut self, name: &str, value: bool) -> Result<(), ParameterError> {
        self.set_bool(self.id(name)?, value)
    }

    /// [`set_int`](Self::set_int) by name.
    pub fn set_int_by_name(&mut self, name: &str, value: i32) -> Result<(), ParameterError> {
        self.set_int(self.id(name)?, value)
    }

    /// [`set_float`](Self::set_float) by name.
    pub fn set_float_by_name(&mut self, name: &str, value: f32) -> Result<(), ParameterError> {
        self.set_float(self.id(name)?, value)
    }

    /// [`fire`](Self::fire) by name.
    pub fn fire_by_name(&mut self, name: &str) -> Result<(), ParameterError> {
        self.fire(self.id(name)?)
    }

    /// Sets `Parameters/<name>` from a host's property system (keyframe tracks): Bool for bools
    /// and triggers (`true` fires), Int or Float for floats, Int or a whole Float for ints.
    pub fn set_property(&mut self, path: &str, value: PropertyValue) -> Result<(), ParameterError> {
        let name = path
            .strip_prefix("Parameters/")
            .ok_or_else(|| ParameterError::UnknownProperty(path.to_string()))?;
        let id = self.id(name)?;
        let kind = self.graph.parameters[id.index()].kind;
        match (kind, value) {
            (ParameterType::Bool, PropertyValue::Bool(b)) => self.set_bool(id, b),
            (ParameterType::Trigger, PropertyValue::Bool(true)) => self.fire(id),
            (ParameterType::Trigger, PropertyValue::Bool(false)) => self.reset_trigger(id),
            (ParameterType::Float, PropertyValue::Float(f)) => self.set_float(id, f),
            (ParameterType::Float, PropertyValue::Int(i)) => self.set_float(id, i as f32),
            (ParameterType::Int, PropertyValue::Int(i)) => self.set_int(id, i),
            (ParameterType::Int, PropertyValue::Float(f)) => {
                if !f.is_finite() {
                    Err(ParameterError::NotFinite { name: name.to_string(), value: f })
                } else if f.fract() != 0.0 || f < i32::MIN as f32 || f > i32::MAX as f32 {
                    Err(ParameterError::NotWhole { name: name.to_string(), value: f })
                } else {
                    self.set_int(id, f as i32)
                }
            }
            (kind, value) => Err(ParameterError::WrongType {
                name: name.to_string(),
                actual: kind.as_str(),
                expected: match value {
                    PropertyValue::Bool(_) => "Bool",
                    PropertyValue::Int(_) => "Int",
                    PropertyValue::Float(_) => "Float",
                },
            }),
        }
    }

    /// Reads `Parameters/<name>` (triggers read as Bool).
    pub fn get_property(&self, path: &str) -> Option<PropertyValue> {
        let id = self.find_parameter(path.strip_prefix("Parameters/")?)?;
        Some(match self.values[id.index()] {
            Value::Bool(b) | Value::Trigger(b) => PropertyValue::Bool(b),
            Value::Int(i) => PropertyValue::Int(i),
            Value::Float(f) => PropertyValue::Float(f),
        })
    }

    // ---- layers and states ----------------------------------------------------------------

    /// How many layers the graph has.
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// A layer's name.
    pub fn layer_name(&self, layer: usize) -> Option<&str> {
        self.graph.layers.get(layer).map(|l| l.name.as_str())
    }

    /// The index of the layer with this name.
    pub fn find_layer(&self, name: &str) -> Option<usize> {
        self.graph.layers.iter().position(|l| l.name == name)
    }

    /// Overrides a layer's authored weight (clamped to 0..1; `WeightParameter` still multiplies it).
    pub fn set_layer_weight(&mut self, layer: usize, weight: f32) -> Result<(), LayerError> {
        if !weight.is_finite() {
            return Err(LayerError::NotFinite(weight));
        }
        self.layers.get_mut(layer).ok_or(LayerError::NoLayer(layer))?.weight = weight.clamp(0.0, 1.0);
        Ok(())
    }

    /// Sets the weight below which a layer's samples fire no events (default 0.5).
    pub fn set_event_threshold(&mut self, layer: usize, threshold: f32) -> Result<(), LayerError> {
        if !threshold.is_finite() {
            return Err(LayerError::NotFinite(threshold));
        }
        self.layers.get_mut(layer).ok_or(LayerError::NoLayer(layer))?.event_threshold = threshold;
        Ok(())
    }

    /// A layer's effective weight: its weight (authored or set) x its `WeightParameter` (clamped to 0..1).
    pub fn layer_weight(&self, layer: usize) -> f32 {
        let Some(run) = self.layers.get(layer) else { return 0.0 };
        let def = &self.graph.layers[layer];
        let factor = def.weight_param.map_or(1.0, |p| self.values[p.index()].numeric().clamp(0.0, 1.0));
        run.weight * factor
    }

    /// The state a layer is in (the playing leaf state, e.g. `Walk` inside `Locomotion`): the
    /// source of a running mix until it completes.
    pub fn current_state(&self, layer: usize) -> Option<StateId> {
        self.layers.get(layer).map(|run| run.sources[run.current].state)
    }

    /// [`current_state`](Self::current_state) as an `Outer/Inner` path.
    pub fn current_state_path(&self, layer: usize) -> Option<&str> {
        self.current_state(layer).map(|s| self.state_path(s))
    }

    /// The current state's normalised time (cumulative over loops).
    pub fn normalised_time(&self, layer: usize) -> Option<f32> {
        self.layers.get(layer).map(|run| self.normalised(&run.sources[run.current]))
    }

    /// Whether a mix is running on the layer.
    pub fn in_transition(&self, layer: usize) -> bool {
        self.layers.get(layer).is_some_and(|run| run.running.is_some())
    }

    /// The running mix's target (leaf) state.
    pub fn transition_target(&self, layer: usize) -> Option<StateId> {
        self.layers.get(layer)?.target.map(|t| t.state)
    }

    /// The running mix's progress in 0..=1.
    pub fn transition_progress(&self, layer: usize) -> Option<f32> {
        self.layers.get(layer)?.running.map(|r| progress(&r))
    }

    /// The tick at which the layer's current state started playing.
    pub fn state_entry_tick(&self, layer: usize) -> Option<u64> {
        self.layers.get(layer).map(|run| run.sources[run.current].entry_tick)
    }

    /// The tick at which the running mix started.
    pub fn transition_start_tick(&self, layer: usize) -> Option<u64> {
        self.layers.get(layer)?.running.map(|r| r.start_tick)
    }

    /// The running mix's graph transition (`None` while none runs, or for `travel`).
    pub fn running_transition(&self, layer: usize) -> Option<TransitionId> {
        self.layers.get(layer)?.running?.transition
    }

    /// A state's own name.
    pub fn state_name(&self, state: StateId) -> &str {
        &self.graph.states[state.index()].name
    }

    /// A state's `Outer/Inner` path within its layer.
    pub fn state_path(&self, state: StateId) -> &str {
        &self.graph.states[state.index()].path
    }

    /// The state with this name or `Outer/Inner` path in a layer.
    pub fn find_state(&self, layer: usize, path: &str) -> Option<StateId> {
        self.graph.state_by_path.get(layer)?.get(path).copied()
    }

    /// Starts a mix to a state (name or `Outer/Inner` path; a sub-machine enters its entry) at the
    /// next advance. See the module docs for the rule.
    pub fn travel(&mut self, layer: usize, path: &str) -> Result<(), LayerError> {
        if layer >= self.layers.len() {
            return Err(LayerError::NoLayer(layer));
        }
        let state = self
            .find_state(layer, path)
            .ok_or_else(|| LayerError::NoState { layer, path: path.to_string() })?;
        self.layers[layer].pending_travel = Some(state);
        Ok(())
    }

    /// Frames advanced so far (the net module's clock).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// This frame's signals, in the order raised (see the module docs).
    pub fn events(&self) -> &[GraphEvent] {
        self.events.as_slice()
    }

    /// Signals lost this frame because the event list was full (see [`EventList`]).
    pub fn events_dropped(&self) -> usize {
        self.events.dropped()
    }

    /// Replaces the event list's capacity (computed at bind so that it cannot overflow); a game
    /// that wants a smaller list can cap it. Allocates: call at setup, not per frame.
    pub fn set_event_capacity(&mut self, capacity: usize) {
        self.events = EventList::with_capacity(capacity);
    }

    /// Warnings found at bind (missing clips, zero-length clips).
    pub fn warnings(&self) -> &[String] {
        &self.graph.warnings
    }

    /// A buffer large enough for everything this graph can emit in one frame.
    pub fn new_buffer(&self) -> SampleBuffer {
        SampleBuffer::with_capacity(self.sample_capacity(), self.layers.len())
    }

    /// Most samples one advance writes (every layer at its longest interruption chain, each
    /// state at its most clips).
    pub fn sample_capacity(&self) -> usize {
        self.graph.sample_capacity()
    }

    // ---- snapshots, replication ---------------------------------------------------------------

    /// The player's complete runtime state (parameters, every layer's blend stack and clocks,
    /// tick), for rollback: [`restore`](Self::restore) it and re-simulate to get bit-identical
    /// results. Allocates (call per network tick, not per sample).
    pub fn snapshot(&self) -> PlayerSnapshot {
        PlayerSnapshot {
            values: self.values.clone(),
            layers: self.layers.clone(),
            tick: self.tick,
            started: self.started,
        }
    }

    /// Restores a [`snapshot`](Self::snapshot) of this player (or of another player of the same
    /// bound graph). Reuses storage: no allocation once capacities match.
    pub fn restore(&mut self, snapshot: &PlayerSnapshot) {
        self.values.clone_from(&snapshot.values);
        for (run, saved) in self.layers.iter_mut().zip(&snapshot.layers) {
            run.sources.clone_from(&saved.sources);
            run.current = saved.current;
            run.target = saved.target;
            run.running = saved.running;
            run.current_exited = saved.current_exited;
            run.target_exited = saved.target_exited;
            run.weight = saved.weight;
            run.event_threshold = saved.event_threshold;
            run.pending_travel = saved.pending_travel;
        }
        self.tick = snapshot.tick;
        self.started = snapshot.started;
        self.events.clear();
    }

    /// Writes the current frame's samples and layer infos (as the last `advance` left them)
    /// without advancing: for a remote that has just applied a replicated state, or an editor
    /// showing a recorded frame.
    pub fn sample_current(&self, out: &mut SampleBuffer) {
        out.clear();
        for layer in 0..self.layers.len() {
            self.emit(layer, out);
        }
    }

    /// Captures the replicated state into `out` (reusing its storage) and forgets which triggers
    /// were fired (see [`crate::net`]).
    pub fn capture_net(&mut self, out: &mut crate::net::NetState) {
        use crate::net::{NetLayer, NetSource, NetTransition};
        out.tick = self.tick;
        out.bools.clear();
        out.ints.clear();
        out.floats.clear();
        out.triggers.clear();
        for (i, v) in self.values.iter().enumerate() {
            match *v {
                Value::Bool(b) => out.bools.push(b),
                Value::Int(x) => out.ints.push(x),
                Value::Float(f) => out.floats.push(f),
                Value::Trigger(_) => out.triggers.push(std::mem::take(&mut self.fired[i])),
            }
        }
        out.layers.resize_with(self.layers.len(), NetLayer::default);
        for (run, layer) in self.layers.iter().zip(out.layers.iter_mut()) {
            layer.sources.clear();
            let alone = run.sources.len() == 1;
            layer.sources.extend(run.sources.iter().map(|s| NetSource {
                state: s.state.0,
                entry_tick: s.entry_tick,
                weight: if alone { 1.0 } else { s.weight },
            }));
            layer.current = run.current as u8;
            layer.current_exited = run.current_exited;
            layer.layer_weight = run.weight;
            layer.transition = match (run.running, run.target) {
                (Some(r), Some(t)) => Some(NetTransition {
                    transition: r.transition.map(|t| t.0),
                    target: t.state.0,
                    start_tick: r.start_tick,
                    // The graph knows its transitions' durations: sent only when different.
                    duration: match r.transition {
                        Some(id)
                            if self.graph.transitions[id.index()].duration.to_bits()
                                == r.duration.to_bits() =>
                        {
                            None
                        }
                        _ => Some(r.duration),
                    },
                    interrupt: r.interrupt,
                    target_exited: run.target_exited,
                }),
                _ => None,
            };
        }
    }

    /// Puts the player in a replicated state (a remote following an authority): parameters are
    /// set, each layer's blend stack is rebuilt from state ids and ticks, clocks are derived
    /// from `(tick - entry tick) x delta x the state's rate now`, mixes from their start ticks.
    /// Triggers are not re-fired (their effect arrives as layer states). Errors leave the player
    /// unchanged when the state does not fit this graph.
    pub fn apply_net(
        &mut self,
        state: &crate::net::NetState,
        delta: f32,
    ) -> Result<(), crate::net::NetError> {
        use crate::net::NetError;
        let states = self.graph.states.len();
        let fits_state = |s: u16| (s as usize) < states && self.graph.states[s as usize].motion.is_some();
        let kinds = |k: ParameterType| self.graph.parameters.iter().filter(|p| p.kind == k).count();
        if state.layers.len() != self.layers.len()
            || state.bools.len() != kinds(ParameterType::Bool)
            || state.ints.len() != kinds(ParameterType::Int)
            || state.floats.len() != kinds(ParameterType::Float)
        {
            return Err(NetError::Mismatch(
                "the state's layers or parameters do not match this graph".into(),
            ));
        }
        for layer in &state.layers {
            let transition_ok = layer.transition.is_none_or(|t| {
                fits_state(t.target)
                    && t.transition.is_none_or(|id| (id as usize) < self.graph.transitions.len())
                    && t.start_tick <= state.tick
            });
            if layer.sources.is_empty()
                || layer.sources.len() >= MAX_INSTANCES
                || layer.current as usize >= layer.sources.len()
                || !layer
                    .sources
                    .iter()
                    .all(|s| fits_state(s.state) && s.entry_tick <= state.tick && s.weight.is_finite())
                || !transition_ok
                || !layer.layer_weight.is_finite()
            {
                return Err(NetError::Mismatch(
                    "a layer names a state or transition this graph does not have".into(),
                ));
            }
        }
        if state.floats.iter().any(|f| !f.is_finite()) {
            return Err(NetError::Mismatch("a float parameter is not finite".into()));
        }
        let (mut b, mut i, mut f) = (0, 0, 0);
        for (value, def) in self.values.iter_mut().zip(&self.graph.parameters) {
            match def.kind {
                ParameterType::Bool => {
                    *value = Value::Bool(state.bools[b]);
                    b += 1;
                }
                ParameterType::Int => {
                    *value = Value::Int(state.ints[i]);
                    i += 1;
                }
                ParameterType::Float => {
                    *value = Value::Float(state.floats[f]);
                    f += 1;
                }
                ParameterType::Trigger => *value = Value::Trigger(false),
            }
        }
        self.tick = state.tick;
        self.started = true;
        self.events.clear();
        for l in 0..self.layers.len() {
            let net = &state.layers[l];
            let mut sources = std::mem::take(&mut self.layers[l].sources);
            sources.clear();
            for s in &net.sources {
                let mut instance = self.rebuilt(StateId(s.state), s.entry_tick, 0.0, delta);
                instance.weight = s.weight;
                sources.push(instance);
            }
            let (running, target) = match net.transition {
                Some(t) => {
                    let offset = t.transition.map_or(0.0, |id| self.graph.transitions[id as usize].offset);
                    let target = self.rebuilt(StateId(t.target), t.start_tick, offset, delta);
                    let elapsed = (state.tick - t.start_tick) as f32 * delta;
                    let running = Running {
                        transition: t.transition.map(TransitionId),
                        elapsed,
                        duration: match (t.duration, t.transition) {
                            (Some(d), _) => d,
                            (None, Some(id)) => self.graph.transitions[id as usize].duration,
                            (None, None) => 0.0,
                        },
                        interrupt: t.interrupt,
                        start_tick: t.start_tick,
                    };
                    (Some(running), Some((target, t.target_exited)))
                }
                None => (None, None),
            };
            let run = &mut self.layers[l];
            run.sources = sources;
            run.current = net.current as usize;
            run.current_exited = net.current_exited;
            run.weight = net.layer_weight;
            run.running = running;
            run.target = target.map(|t| t.0);
            run.target_exited = target.map_or(0, |t| t.1);
            run.pending_travel = None;
        }
        Ok(())
    }

    /// An instance of `state` entered at `entry_tick`, its clock advanced to the current tick at
    /// the state's present rate.
    fn rebuilt(&self, state: StateId, entry_tick: u64, offset: f32, delta: f32) -> Instance {
        let saved_tick = self.tick;
        let mut instance = self.new_instance(state, offset);
        instance.entry_tick = entry_tick;
        let frames = saved_tick.saturating_sub(entry_tick);
        if frames > 0 {
            let step = self.advanced(instance, delta);
            let per_frame = step.clock - instance.clock;
            instance.clock += per_frame * frames as f64;
            instance.prev = instance.clock - per_frame;
            instance = self.with_weights(instance);
        }
        instance
    }

    // ---- explain mode -----------------------------------------------------------------------

    /// Turns explain mode on or off (see [`super::explain`]). Turning it on sizes its storage
    /// once, from the graph; `advance` then records without allocating. Off, it costs nothing.
    pub fn set_explain(&mut self, on: bool) {
        if !on {
            self.explain = None;
            return;
        }
        if self.explain.is_some() {
            return;
        }
        // Per layer at most every candidate of the two playing sides, scanned again after each
        // `<exit>` that fires (at most once per depth).
        let graph = &self.graph;
        let depth =
            (0..graph.states.len()).map(|s| graph.ancestry(StateId(s as u16)).len()).max().unwrap_or(1);
        let (mut candidates, mut conditions) = (0usize, 0usize);
        for s in 0..graph.states.len() {
            let list = graph.candidates(StateId(s as u16));
            candidates = candidates.max(list.len());
            let c: usize =
                list.iter().map(|c| graph.conditions(&graph.transitions[c.transition.index()]).len()).sum();
            conditions = conditions.max(c);
        }
        let scans = 2 * (depth + 1) * graph.layers.len().max(1);
        self.explain = Some(Box::new(Explanation::with_capacity(
            graph.layers.len(),
            candidates * scans,
            conditions * scans,
            graph.parameters.len(),
        )));
    }

    /// What explain mode recorded for the last `advance` (`None` while off).
    pub fn explanation(&self) -> Option<&Explanation> {
        self.explain.as_deref()
    }

    /// A transition's place in the authoring model (`Layers[0].Machine.Transitions[2]`), for
    /// tools that show it.
    pub fn transition_model_path(&self, transition: TransitionId) -> &str {
        self.graph.transition_models.get(transition.index()).map_or("", String::as_str)
    }

    /// A transition as `From -> To` with state paths (`*` for any state, `<exit>`).
    pub fn transition_label(&self, transition: TransitionId) -> String {
        let Some(def) = self.graph.transitions.get(transition.index()) else { return String::new() };
        let from = def.from.map_or("*", |s| self.graph.states[s.index()].path.as_str());
        match def.to {
            Target::State(s) => format!("{from} -> {}", self.graph.states[s.index()].path),
            Target::Exit => format!("{from} -> <exit>"),
        }
    }

    /// A transition's conditions as `(parameter, operator, value)`, in order.
    pub fn transition_conditions(
        &self,
        transition: TransitionId,
    ) -> impl Iterator<Item = (Option<ParamId>, super::ConditionOp, f32)> + '_ {
        let defs =
            self.graph.transitions.get(transition.index()).map_or(&[][..], |d| self.graph.conditions(d));
        defs.iter().map(|c| (c.param, c.op, c.value))
    }

    /// A transition's `ExitTime` (-1: none).
    pub fn transition_exit_time(&self, transition: TransitionId) -> f32 {
        self.graph.transitions.get(transition.index()).map_or(-1.0, |d| d.exit_time)
    }

    // ---- advance ----------------------------------------------------------------------------

    /// Runs one frame: chooses transitions, advances clocks by `delta` seconds and writes this
    /// frame's samples and layer infos into `out` (cleared first). A negative, NaN or infinite
    /// `delta` counts as 0.
    ///
    /// # Performance
    /// Allocates nothing; cost is O(layers x (playing states + candidate transitions)).
    pub fn advance(&mut self, delta: f32, out: &mut SampleBuffer) {
        let delta = if delta.is_finite() && delta > 0.0 { delta } else { 0.0 };
        self.events.clear();
        out.clear();
        if let Some(ex) = self.explain.as_deref_mut() {
            ex.begin(self.layers.len());
        }
        for layer in 0..self.layers.len() {
            if !self.started {
                let leaf = self.layers[layer].sources[0].state;
                for i in 0..self.graph.ancestry(leaf).len() {
                    let state = self.graph.ancestry(leaf)[i];
                    self.events.push(GraphEvent::StateEntered { layer: layer as u8, state });
                }
            }
            self.complete(layer);
            self.choose(layer);
        }
        self.started = true;
        for layer in 0..self.layers.len() {
            self.advance_clocks(layer, delta);
        }
        for layer in 0..self.layers.len() {
            self.emit(layer, out);
        }
        for (i, (value, def)) in self.values.iter_mut().zip(&self.graph.parameters).enumerate() {
            if let Value::Trigger(set) = value {
                if *set && !def.latch {
                    *set = false;
                    if let Some(ex) = self.explain.as_deref_mut() {
                        ex.push_cleared(ParamId(i as u16));
                    }
                }
            }
        }
        self.tick += 1;
    }

    /// Step 1a: a mix whose progress reached 1 completes.
    fn complete(&mut self, layer: usize) {
        let run = &self.layers[layer];
        let Some(running) = run.running else { return };
        if progress(&running) < 1.0 {
            return;
        }
        let target = run.target.expect("a running mix has a target");
        let first = self.events.as_slice().len();
        for i in 0..run.sources.len() {
            let leaf = self.layers[layer].sources[i].state;
            self.exit_path(layer, leaf, first, |g, _, s| g.on_path(target.state, s));
        }
        let run = &mut self.layers[layer];
        run.sources.clear();
        run.sources.push(Instance { weight: 1.0, ..target });
        run.current = 0;
        run.current_exited = run.target_exited;
        run.target = None;
        run.running = None;
    }

    /// Raises `StateExited` for `leaf` and its enclosing states (innermost first), except those
    /// `keep` says are still active and those already exited since event `first`.
    fn exit_path(
        &mut self,
        layer: usize,
        leaf: StateId,
        first: usize,
        keep: impl Fn(&Compiled, &LayerRun, StateId) -> bool,
    ) {
        let (graph, run, events) = (&self.graph, &self.layers[layer], &mut self.events);
        for &state in graph.ancestry(leaf).iter().rev() {
            if keep(graph, run, state) {
                continue;
            }
            let exited = GraphEvent::StateExited { layer: layer as u8, state };
            if events.as_slice()[first.min(events.as_slice().len())..].contains(&exited) {
                continue;
            }
            events.push(exited);
        }
    }

    /// Step 1b: travel, or the first transition whose rules hold.
    fn choose(&mut self, layer: usize) {
        let Some(mut ex) = self.explain.take() else {
            // Explain mode off: the recording calls compile away.
            self.choose_with(layer, &mut Off);
            return;
        };
        // The explanation is taken out for the choice (no allocation: a box moves) so the checks
        // can read `self` while recording into it.
        let start = ex.candidate_mark();
        self.choose_with(layer, &mut &mut *ex);
        let end = ex.candidate_mark();
        if let Some(l) = ex.layer_mut(layer) {
            l.candidates = start..end;
        }
        self.explain = Some(ex);
    }

    fn choose_with<R: Recorder>(&mut self, layer: usize, rec: &mut R) {
        if let Some(state) = self.layers[layer].pending_travel.take() {
            let run = &self.layers[layer];
            let leaf = self.graph.states[state.index()].entry_leaf;
            if run.target.is_some_and(|t| self.graph.on_path(t.state, state)) {
                return;
            }
            let from = run.sources[run.current].state;
            let duration = self.graph.mix_duration(
                self.graph.states[from.index()].mix_key,
                self.graph.states[state.index()].mix_key,
            );
            self.start(layer, None, Side::Source, leaf, duration, 0.0, TransitionInterrupt::Both);
            if let Some(l) = rec.explanation().and_then(|e| e.layer_mut(layer)) {
                (l.checked, l.travel, l.started) = (Checked::Travel, Some(state), Some(None));
            }
            return;
        }
        let (source, target, checked) = match self.layers[layer].running {
            None => (true, false, Checked::Current),
            Some(r) => match r.interrupt {
                TransitionInterrupt::None => (false, false, Checked::NothingInterruptNone),
                TransitionInterrupt::Source => (true, false, Checked::Source),
                TransitionInterrupt::Target => (false, true, Checked::Target),
                TransitionInterrupt::Both => (true, true, Checked::Both),
            },
        };
        if let Some(l) = rec.explanation().and_then(|e| e.layer_mut(layer)) {
            l.checked = checked;
        }
        if !source && !target {
            return;
        }
        // Each `<exit>` that fires marks a sub-machine exited and restarts the search; it can
        // fire at most once per depth, so this ends.
        for _ in 0..=super::MAX_MACHINE_DEPTH + 1 {
            let Some((transition, side, level)) = self.find_candidate(layer, source, target, rec) else {
                return;
            };
            let def = &self.graph.transitions[transition.index()];
            let to = def.to;
            let (duration, offset, interrupt) = (def.duration, def.offset, def.interrupt);
            self.consume_triggers(layer, transition, rec);
            match to {
                Target::Exit => {
                    let bit = 1u32 << (level - 1);
                    let run = &mut self.layers[layer];
                    match side {
                        Side::Source => run.current_exited |= bit,
                        Side::Target => run.target_exited |= bit,
                    }
                }
                Target::State(state) => {
                    let run = &self.layers[layer];
                    let from = self.side_instance(run, side).state;
                    let duration = if duration >= 0.0 {
                        duration
                    } else {
                        self.graph.mix_duration(
                            self.graph.states[from.index()].mix_key,
                            self.graph.transitions[transition.index()].to_key,
                        )
                    };
                    let leaf = self.graph.states[state.index()].entry_leaf;
                    self.start(layer, Some(transition), side, leaf, duration, offset, interrupt);
                    if let Some(l) = rec.explanation().and_then(|e| e.layer_mut(layer)) {
                        l.started = Some(Some(transition));
                    }
                    return;
                }
            }
        }
    }

    fn side_instance<'r>(&self, run: &'r LayerRun, side: Side) -> &'r Instance {
        match side {
            Side::Source => &run.sources[run.current],
            Side::Target => run.target.as_ref().unwrap_or(&run.sources[run.current]),
        }
    }

    /// The first passing candidate, merging the checked sides by rank. When explaining, every
    /// candidate is checked and recorded (those after the first that passes as `Shadowed` when
    /// they would have fired too).
    fn find_candidate<R: Recorder>(
        &self,
        layer: usize,
        source: bool,
        target: bool,
        rec: &mut R,
    ) -> Option<(TransitionId, Side, u8)> {
        let run = &self.layers[layer];
        let empty: &[bind::Candidate] = &[];
        let source_list = if source { self.graph.candidates(run.sources[run.current].state) } else { empty };
        let target_list = match (target, run.target) {
            (true, Some(t)) => self.graph.candidates(t.state),
            _ => empty,
        };
        let (mut i, mut j) = (0, 0);
        let mut found = None;
        while i < source_list.len() || j < target_list.len() {
            let rank = |c: &bind::Candidate| self.graph.transitions[c.transition.index()].rank;
            let take_source = match (source_list.get(i), target_list.get(j)) {
                (Some(a), Some(b)) => {
                    if rank(a) == rank(b) {
                        j += 1; // the same transition on both sides: check it once, as the source's
                    }
                    rank(a) <= rank(b)
                }
                (Some(_), None) => true,
                _ => false,
            };
            let (candidate, side) = if take_source {
                i += 1;
                (source_list[i - 1], Side::Source)
            } else {
                j += 1;
                (target_list[j - 1], Side::Target)
            };
            let Some(e) = rec.explanation() else {
                if self.passes(run, &candidate, side) {
                    return Some((candidate.transition, side, candidate.level));
                }
                continue;
            };
            let outcome = self.check(run, &candidate, side, e);
            if outcome == Outcome::Started {
                if found.is_none() {
                    found = Some((candidate.transition, side, candidate.level));
                    let fired = match self.graph.transitions[candidate.transition.index()].to {
                        Target::Exit => Outcome::FiredExit,
                        Target::State(_) => Outcome::Started,
                    };
                    e.set_outcome(e.candidate_mark() as usize - 1, fired);
                } else {
                    e.set_outcome(e.candidate_mark() as usize - 1, Outcome::Shadowed);
                }
            }
        }
        found
    }

    /// The structural rules: sub-machine exits, `*` into the active state, into the running
    /// mix's target. `Started` when none applies.
    #[inline(always)]
    fn gate(&self, run: &LayerRun, candidate: &bind::Candidate, side: Side) -> Outcome {
        let def = &self.graph.transitions[candidate.transition.index()];
        let exited = match side {
            Side::Source => run.current_exited,
            Side::Target => run.target_exited,
        };
        // Inside an exited sub-machine nothing is decided any more.
        if exited & ((1u32 << candidate.level) - 1) != 0 {
            return Outcome::InsideExitedSubMachine;
        }
        if candidate.requires_exit.is_some_and(|depth| exited & (1 << depth) == 0) {
            return Outcome::WaitsForSubMachineExit;
        }
        if let Target::State(to) = def.to {
            let current = run.sources[run.current].state;
            if def.from.is_none() && self.graph.on_path(current, to) {
                return Outcome::AnyIntoActiveState; // `*` never into the active state
            }
            if run.target.is_some_and(|t| self.graph.on_path(t.state, to)) {
                return Outcome::IntoRunningTarget; // never into the running mix's target
            }
        }
        Outcome::Started
    }

    /// Whether a candidate fires now: the gates, then its exit time, then its conditions, the
    /// first failing rule answering.
    #[inline(always)]
    fn passes(&self, run: &LayerRun, candidate: &bind::Candidate, side: Side) -> bool {
        if self.gate(run, candidate, side) != Outcome::Started {
            return false;
        }
        let def = &self.graph.transitions[candidate.transition.index()];
        if def.exit_time >= 0.0 && self.normalised(self.side_instance(run, side)) < def.exit_time {
            return false;
        }
        self.graph.conditions(def).iter().all(|c| self.condition_holds(c).1)
    }

    /// The same rules as [`passes`](Self::passes), every one evaluated and recorded (each
    /// condition with the value it saw); returns why the candidate did not fire, or `Started`.
    fn check(
        &self,
        run: &LayerRun,
        candidate: &bind::Candidate,
        side: Side,
        ex: &mut Explanation,
    ) -> Outcome {
        let def = &self.graph.transitions[candidate.transition.index()];
        let mut outcome = self.gate(run, candidate, side);
        let mut exit_time = None;
        if def.exit_time >= 0.0 {
            let had = self.normalised(self.side_instance(run, side));
            exit_time = Some((def.exit_time, had));
            if had < def.exit_time && outcome == Outcome::Started {
                outcome = Outcome::ExitTimeNotReached;
            }
        }
        let first = ex.condition_mark();
        let mut holds = true;
        for (index, c) in self.graph.conditions(def).iter().enumerate() {
            let (actual, passed) = self.condition_holds(c);
            holds &= passed;
            ex.push_condition(ConditionCheck { index: index as u16, actual, passed });
        }
        if !holds && outcome == Outcome::Started {
            outcome = Outcome::ConditionsFailed;
        }
        let side = match side {
            Side::Source => CandidateSide::Source,
            Side::Target => CandidateSide::Target,
        };
        let conditions = first..ex.condition_mark();
        ex.push_candidate(CandidateCheck {
            transition: candidate.transition,
            side,
            outcome,
            exit_time,
            conditions,
        });
        outcome
    }

    /// A condition's parameter value (as a number) and whether the condition holds. Inlined so
    /// callers that want only the verdict compute nothing else.
    #[inline(always)]
    fn condition_holds(&self, c: &bind::ConditionDef) -> (f32, bool) {
        use super::ConditionOp as Op;
        let Some(param) = c.param else { return (0.0, c.op == Op::True) };
        let value = self.values[param.index()];
        let v = c.value as f64;
        match (c.op, value) {
            (Op::True, Value::Bool(b)) => (b as u8 as f32, b),
            (Op::False, Value::Bool(b)) => (b as u8 as f32, !b),
            (Op::Triggered, Value::Trigger(t)) => (t as u8 as f32, t),
            (Op::Greater, Value::Int(i)) => (i as f32, i as f64 > v),
            (Op::Less, Value::Int(i)) => (i as f32, (i as f64) < v),
            (Op::Equal, Value::Int(i)) => (i as f32, i as f64 == v),
            (Op::NotEqual, Value::Int(i)) => (i as f32, i as f64 != v),
            (Op::Greater, Value::Float(f)) => (f, f as f64 > v),
            (Op::Less, Value::Float(f)) => (f, (f as f64) < v),
            (_, value) => (value.numeric(), false),
        }
    }

    fn consume_triggers<R: Recorder>(&mut self, layer: usize, transition: TransitionId, rec: &mut R) {
        let def = &self.graph.transitions[transition.index()];
        for c in self.graph.conditions(def) {
            if let (super::ConditionOp::Triggered, Some(p)) = (c.op, c.param) {
                self.values[p.index()] = Value::Trigger(false);
                if let Some(e) = rec.explanation() {
                    e.push_consumed(TriggerUse { trigger: p, layer: layer as u8, transition });
                }
            }
        }
    }

    fn is_active(&self, run: &LayerRun, state: StateId) -> bool {
        run.sources.iter().any(|i| self.graph.on_path(i.state, state))
            || run.target.is_some_and(|t| self.graph.on_path(t.state, state))
    }

    /// Starts a mix (or an instant cut) from the `side` state to `leaf`.
    #[allow(clippy::too_many_arguments)]
    fn start(
        &mut self,
        layer: usize,
        transition: Option<TransitionId>,
        side: Side,
        leaf: StateId,
        duration: f32,
        offset: f32,
        interrupt: TransitionInterrupt,
    ) {
        let l = layer as u8;
        let from = self.side_instance(&self.layers[layer], side).state;
        let instance = self.new_instance(leaf, offset);
        // States on the target's path that are not active yet, outermost first.
        let entering_from = {
            let ancestry = self.graph.ancestry(leaf);
            let run = &self.layers[layer];
            ancestry.iter().position(|&s| !self.is_active(run, s)).unwrap_or(ancestry.len())
        };
        if duration <= 0.0 {
            let first = self.events.as_slice().len();
            let count = self.layers[layer].sources.len();
            for i in 0..count {
                let s = self.layers[layer].sources[i].state;
                self.exit_path(layer, s, first, |g, _, st| g.on_path(leaf, st));
            }
            if let Some(t) = self.layers[layer].target {
                self.exit_path(layer, t.state, first, |g, _, st| g.on_path(leaf, st));
            }
            self.events.push(GraphEvent::TransitionStarted { layer: l, from, to: leaf, transition });
            self.enter_path(layer, leaf, entering_from);
            let run = &mut self.layers[layer];
            run.sources.clear();
            run.sources.push(instance);
            run.current = 0;
            run.current_exited = 0;
            run.target = None;
            run.running = None;
            return;
        }
        if let Some(running) = self.layers[layer].running {
            // Interruption: freeze the current blend as the new source.
            let t = progress(&running);
            let old_target = self.layers[layer].target.expect("a running mix has a target");
            let run = &mut self.layers[layer];
            for s in run.sources.iter_mut() {
                s.weight *= 1.0 - t;
            }
            if run.sources.len() >= MAX_INSTANCES - 1 {
                self.drop_lightest(layer, old_target.state, leaf);
            }
            let run = &mut self.layers[layer];
            run.sources.push(Instance { weight: t, ..old_target });
            if side == Side::Target {
                run.current = run.sources.len() - 1;
                run.current_exited = run.target_exited;
            }
        }
        self.events.push(GraphEvent::TransitionStarted { layer: l, from, to: leaf, transition });
        self.enter_path(layer, leaf, entering_from);
        let tick = self.tick;
        let run = &mut self.layers[layer];
        run.target = Some(instance);
        run.target_exited = 0;
        run.running = Some(Running { transition, elapsed: 0.0, duration, interrupt, start_tick: tick });
    }

    fn enter_path(&mut self, layer: usize, leaf: StateId, from_depth: usize) {
        let count = self.graph.ancestry(leaf).len();
        for d in from_depth..count {
            let state = self.graph.ancestry(leaf)[d];
            self.events.push(GraphEvent::StateEntered { layer: layer as u8, state });
        }
    }

    /// Makes room in a full interruption chain: drops the lightest frozen source other than the
    /// current state, rescales the rest to keep their sum, and exits its states if nothing else
    /// plays them.
    fn drop_lightest(&mut self, layer: usize, old_target: StateId, new_target: StateId) {
        let run = &self.layers[layer];
        let mut lightest = None;
        for (i, s) in run.sources.iter().enumerate() {
            if i != run.current && lightest.is_none_or(|(_, w)| s.weight < w) {
                lightest = Some((i, s.weight));
            }
        }
        let Some((index, _)) = lightest else { return };
        let run = &mut self.layers[layer];
        let dropped = run.sources.remove(index);
        if run.current > index {
            run.current -= 1;
        }
        let total: f32 = run.sources.iter().map(|s| s.weight).sum();
        let kept = total + dropped.weight;
        if total > 0.0 {
            for s in run.sources.iter_mut() {
                s.weight *= kept / total;
            }
        }
        let first = self.events.as_slice().len();
        self.exit_path(layer, dropped.state, first, |g, run, st| {
            g.on_path(old_target, st)
                || g.on_path(new_target, st)
                || run.sources.iter().any(|s| g.on_path(s.state, st))
        });
    }

    /// Step 2: clocks and mixes advance.
    fn advance_clocks(&mut self, layer: usize, delta: f32) {
        let count = self.layers[layer].sources.len();
        for i in 0..count {
            let instance = self.layers[layer].sources[i];
            self.layers[layer].sources[i] = self.advanced(instance, delta);
        }
        if let Some(target) = self.layers[layer].target {
            self.layers[layer].target = Some(self.advanced(target, delta));
        }
        if let Some(running) = &mut self.layers[layer].running {
            running.elapsed += delta;
        }
    }

    fn advanced(&self, instance: Instance, delta: f32) -> Instance {
        // Weights follow this frame's parameters; emission and next frame's exit times use them.
        let mut instance = self.with_weights(instance);
        let rate = self.rate(instance.state) * delta as f64;
        instance.prev = instance.clock;
        instance.clock += match &self.graph.states[instance.state.index()].motion {
            Some(Motion::Blend { sync: true, points, .. }) => {
                let pts = self.graph.points(points);
                let weights = &instance.weights[..instance.weight_count as usize];
                let normalised_rate: f64 =
                    weights.iter().map(|&(j, w)| w as f64 / pts[j as usize].length as f64).sum();
                rate * normalised_rate
            }
            _ => rate,
        };
        instance
    }

    /// Step 3: this layer's info and samples.
    fn emit(&self, layer: usize, out: &mut SampleBuffer) {
        let run = &self.layers[layer];
        let def = &self.graph.layers[layer];
        out.push_layer(LayerInfo {
            blend: def.blend,
            weight: self.layer_weight(layer),
            mask: def.mask,
            event_threshold: run.event_threshold,
        });
        let t = run.running.map(|r| progress(&r));
        for s in &run.sources {
            self.emit_instance(layer as u8, s, s.weight * t.map_or(1.0, |t| 1.0 - t), out);
        }
        if let (Some(target), Some(t)) = (run.target, t) {
            self.emit_instance(layer as u8, &target, t, out);
        }
    }

    fn emit_instance(&self, layer: u8, instance: &Instance, weight: f32, out: &mut SampleBuffer) {
        if weight <= 0.0 {
            return;
        }
        match &self.graph.states[instance.state.index()].motion {
            Some(Motion::Clip { clip: Some(clip), length, looping }) => {
                let (time, prev_time, looped) = timing(instance.clock, instance.prev, *length, *looping);
                out.push_sample(ClipSample { clip: *clip, time, prev_time, weight, layer, looped });
            }
            Some(Motion::Blend { points, sync, .. }) => {
                let pts = self.graph.points(points);
                for &(j, w) in &instance.weights[..instance.weight_count as usize] {
                    let point = &pts[j as usize];
                    let Some(clip) = point.clip else { continue };
                    let (time, prev_time, looped) = if *sync {
                        phase_timing(instance.clock, instance.prev, point.length, point.looping)
                    } else {
                        timing(instance.clock, instance.prev, point.length, point.looping)
                    };
                    out.push_sample(ClipSample { clip, time, prev_time, weight: weight * w, layer, looped });
                }
            }
            _ => {}
        }
    }
}

/// The heaviest point of an instance's cached blend weights (global point index; the first of
/// equals).
fn dominant_point(instance: &Instance, points: &std::ops::Range<u32>) -> usize {
    let weights = &instance.weights[..(instance.weight_count as usize).max(1)];
    let mut best = weights[0];
    for &w in &weights[1..] {
        if w.1 > best.1 {
            best = w;
        }
    }
    points.start as usize + best.0 as usize
}

fn progress(running: &Running) -> f32 {
    if running.duration <= 0.0 { 1.0 } else { (running.elapsed / running.duration).min(1.0) }
}

/// Where a frame's choice is recorded: nowhere ([`Off`], when explain mode is off: every call
/// compiles away) or an [`Explanation`].
trait Recorder {
    fn explanation(&mut self) -> Option<&mut Explanation>;
}

/// Explain mode off.
struct Off;

impl Recorder for Off {
    #[inline(always)]
    fn explanation(&mut self) -> Option<&mut Explanation> {
        None
    }
}

impl Recorder for &mut Explanation {
    #[inline(always)]
    fn explanation(&mut self) -> Option<&mut Explanation> {
        Some(self)
    }
}
