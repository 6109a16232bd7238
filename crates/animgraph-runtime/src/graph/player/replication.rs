//! Replication: the player's complete state for rollback ([`PlayerSnapshot`]) and the
//! replicated state networking sends ([`NetState`]: per layer the playing states and the
//! running transition as ids and ticks; parameters). The wire format and the
//! authority/remote synchroniser are [`crate::net`]'s.

use super::super::bound::{MAX_INSTANCES, MixDuration, Value};
use super::super::{ParameterType, StateId, TransitionId, TransitionInterrupt};
use super::AnimationGraphPlayer;
use super::layer::{Instance, LayerRun, OpenWindows, Running};

use crate::blend::Mix;
use crate::core::SampleBuffer;

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

/// Why a replicated state was refused: it does not fit this player's graph. The player is
/// unchanged.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplicationError {
    /// A count, id or tick that this graph cannot have.
    #[error("{0}")]
    Mismatch(String),
}

/// One playing state of a layer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetSource {
    /// The (leaf) state.
    pub state: u16,
    /// The tick it started playing.
    pub entry_tick: u64,
    /// Its weight among frozen sources (1 when alone).
    pub weight: f32,
}

/// A running transition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetTransition {
    /// The graph transition, `None` for travel.
    pub transition: Option<u16>,
    /// The (leaf) target state.
    pub target: u16,
    /// The tick it started.
    pub start_tick: u64,
    /// Seconds, when they differ from the graph transition's own duration (travel, or a `*`
    /// transition taking its duration from `Mixes`); `None`: as the graph says.
    pub duration: Option<f32>,
    /// Its interruption rule.
    pub interrupt: TransitionInterrupt,
    /// The normalised time the target started at, when it differs from the graph transition's
    /// `Offset` (markers matched it, or travel); `None`: as the graph says.
    pub offset: Option<f32>,
    /// Sub-machine exit bits of the target side.
    pub target_exited: u32,
}

/// One layer's replicated state.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct NetLayer {
    /// Playing states (more than one only inside an interruption chain).
    pub sources: Vec<NetSource>,
    /// Which source is the layer's current state.
    pub current: u8,
    /// Sub-machine exit bits of the current state.
    pub current_exited: u32,
    /// The layer's weight (authored or set by `set_layer_weight`).
    pub layer_weight: f32,
    /// The running transition.
    pub transition: Option<NetTransition>,
    /// A path travel's hops not started yet (transition ids, in order).
    pub travel: Vec<u16>,
}

/// A player's replicated state at one tick.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct NetState {
    /// The player's tick (advances completed).
    pub tick: u64,
    /// Per layer.
    pub layers: Vec<NetLayer>,
    /// Bool parameters in parameter order.
    pub bools: Vec<bool>,
    /// Int parameters in parameter order.
    pub ints: Vec<i32>,
    /// Float parameters in parameter order.
    pub floats: Vec<f32>,
    /// Per trigger (in parameter order): fired since the previous capture.
    pub triggers: Vec<bool>,
}

impl NetState {
    /// Becomes a copy of `other`, reusing this state's storage (no allocation once its lists
    /// are as long as `other`'s).
    pub fn copy_from(&mut self, other: &NetState) {
        self.tick = other.tick;
        self.bools.clone_from(&other.bools);
        self.ints.clone_from(&other.ints);
        self.floats.clone_from(&other.floats);
        self.triggers.clone_from(&other.triggers);
        self.layers.truncate(other.layers.len());
        for (mine, theirs) in self.layers.iter_mut().zip(&other.layers) {
            // Every field named, so a new one cannot be forgotten here.
            let NetLayer { sources, current, current_exited, layer_weight, transition, travel } = theirs;
            mine.sources.clone_from(sources);
            mine.travel.clone_from(travel);
            (mine.current, mine.current_exited, mine.layer_weight) =
                (*current, *current_exited, *layer_weight);
            mine.transition = *transition;
        }
        let kept = self.layers.len();
        self.layers.extend(other.layers[kept..].iter().cloned());
    }
}

impl AnimationGraphPlayer {
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
            // Windows open now end at the next advance; those open in the snapshot begin again
            // then (every begin has exactly one end, across the rollback too).
            if run.windows.bits != 0 {
                run.closing = run.windows;
                self.closing = true;
            }
            run.windows = OpenWindows::NONE;
            run.stack.clone_from(&saved.stack);
            run.current_exited = saved.current_exited;
            run.target_exited = saved.target_exited;
            run.weight = saved.weight;
            run.event_threshold = saved.event_threshold;
            run.pending_travel = saved.pending_travel;
            run.inertial = saved.inertial;
            run.travel.clone_from(&saved.travel);
            run.travel_next = saved.travel_next;
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
    pub fn capture_net(&mut self, out: &mut NetState) {
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
            let sources = run.stack.sources();
            let alone = sources.len() == 1;
            layer.sources.extend(sources.iter().map(|s| NetSource {
                state: s.state.0,
                entry_tick: s.entry_tick,
                weight: if alone { 1.0 } else { s.weight },
            }));
            layer.travel.clear();
            layer.travel.extend(run.travel_left().iter().map(|t| t.0));
            layer.current = run.stack.current_index() as u8;
            layer.current_exited = run.current_exited;
            layer.layer_weight = run.weight;
            layer.transition = match (run.stack.mix(), run.stack.target()) {
                (Some(r), Some(t)) => Some(NetTransition {
                    transition: r.info.transition.map(|t| t.0),
                    target: t.state.0,
                    start_tick: r.info.start_tick,
                    // The graph knows its transitions' durations: sent only when different.
                    duration: match r.info.transition.map(|id| self.graph.transitions[id.index()].duration) {
                        Some(MixDuration::Seconds(d)) if d.to_bits() == r.duration.to_bits() => None,
                        _ => Some(r.duration),
                    },
                    interrupt: r.info.interrupt,
                    offset: {
                        let authored =
                            r.info.transition.map_or(0.0, |id| self.graph.transitions[id.index()].offset);
                        (authored.to_bits() != r.info.offset.to_bits()).then_some(r.info.offset)
                    },
                    target_exited: run.target_exited,
                }),
                _ => None,
            };
        }
    }

    /// Puts the player in a replicated state (a remote following an authority): parameters are
    /// set, each layer's blend stack is rebuilt from state ids and ticks, clocks are derived
    /// from `(tick - entry tick) x delta x the state's rate now`, mixes from their start ticks,
    /// a path travel's hops left are kept. Window begins and ends since the last applied state
    /// are raised in [`events`](Self::events) (read them before the next advance). Triggers are
    /// not re-fired (their effect arrives as layer states). Errors leave the player unchanged
    /// when the state does not fit this graph.
    pub fn apply_net(&mut self, state: &NetState, delta: f32) -> Result<(), ReplicationError> {
        let states = self.graph.states.len();
        let fits_state = |s: u16| (s as usize) < states && self.graph.states[s as usize].motion.is_some();
        let kinds = |k: ParameterType| self.graph.parameters.iter().filter(|p| p.kind == k).count();
        if state.layers.len() != self.layers.len()
            || state.bools.len() != kinds(ParameterType::Bool)
            || state.ints.len() != kinds(ParameterType::Int)
            || state.floats.len() != kinds(ParameterType::Float)
        {
            return Err(ReplicationError::Mismatch(
                "the state's layers or parameters do not match this graph".into(),
            ));
        }
        for (l, layer) in state.layers.iter().enumerate() {
            let travel_ok = layer.travel.len() <= self.layers[l].travel.capacity()
                && layer.travel.iter().all(|&t| (t as usize) < self.graph.transitions.len());
            if !travel_ok {
                return Err(ReplicationError::Mismatch(
                    "a layer's travel path does not fit this graph (a Direct layer, or a transition it does not have)"
                        .into(),
                ));
            }
            let transition_ok = layer.transition.is_none_or(|t| {
                fits_state(t.target)
                    && t.transition.is_none_or(|id| (id as usize) < self.graph.transitions.len())
                    && t.start_tick <= state.tick
                    && t.offset.is_none_or(|o| o.is_finite() && o >= 0.0)
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
                return Err(ReplicationError::Mismatch(
                    "a layer names a state or transition this graph does not have".into(),
                ));
            }
        }
        if state.floats.iter().any(|f| !f.is_finite()) {
            return Err(ReplicationError::Mismatch("a float parameter is not finite".into()));
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
            let mut stack =
                std::mem::replace(&mut self.layers[l].stack, crate::blend::BlendStack::new(0, None));
            let sources = stack.sources_mut();
            sources.clear();
            for s in &net.sources {
                let mut instance = self.rebuilt(StateId(s.state), s.entry_tick, 0.0, delta);
                instance.weight = s.weight;
                sources.push(instance);
            }
            let mut running_inertial = None;
            let (running, target) = match net.transition {
                Some(t) => {
                    let offset = t.offset.unwrap_or_else(|| {
                        t.transition.map_or(0.0, |id| self.graph.transitions[id as usize].offset)
                    });
                    let target = self.rebuilt(StateId(t.target), t.start_tick, offset, delta);
                    let elapsed = (state.tick - t.start_tick) as f32 * delta;
                    let duration = match (t.duration, t.transition) {
                        (Some(d), _) => d,
                        (None, Some(id)) => match self.graph.transitions[id as usize].duration {
                            MixDuration::Seconds(d) => d,
                            // An authority always sends a duration it looked up in `Mixes`.
                            MixDuration::FromMixes => 0.0,
                        },
                        (None, None) => 0.0,
                    };
                    let info = Running {
                        transition: t.transition.map(TransitionId),
                        interrupt: t.interrupt,
                        start_tick: t.start_tick,
                        offset,
                    };
                    let (curve, blend) = t
                        .transition
                        .and_then(|id| self.graph.transitions.get(id as usize))
                        .map_or(Default::default(), |def| (def.curve, def.blend));
                    let inertial = blend == crate::graph::TransitionBlend::Inertial;
                    if inertial {
                        running_inertial = Some((elapsed, duration));
                    }
                    let running = Mix { elapsed, duration, curve, inertial, info };
                    (Some(running), Some((target, t.target_exited)))
                }
                None => (None, None),
            };
            let run = &mut self.layers[l];
            stack.set_current(net.current as usize);
            stack.set_target(target.map(|t| t.0), running);
            run.stack = stack;
            run.current_exited = net.current_exited;
            run.weight = net.layer_weight;
            run.target_exited = target.map_or(0, |t| t.1);
            run.pending_travel = None;
            // An inertial transition's blend, as the authority's timer has it (its start frame
            // is the one after which one tick has passed).
            run.inertial = match (running_inertial, net.transition) {
                (Some((elapsed, duration)), Some(t)) => Some(crate::core::InertialBlend {
                    started: state.tick - t.start_tick == 1,
                    elapsed,
                    duration,
                }),
                _ => None,
            };
            run.travel.clear();
            run.travel.extend(net.travel.iter().map(|&t| TransitionId(t)));
            run.travel_next = 0;
        }
        // Windows: raised now, in `events()`, as what changed since the last applied state
        // (windows stay open while the same instance owns them), so a remote applying every
        // tick reports the authority's begins and ends at the same ticks.
        for l in 0..self.layers.len() {
            self.flush_closing(l);
            self.update_windows(l);
        }
        self.closing = false;
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
}
