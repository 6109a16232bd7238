//! Queries: layers, states, transitions, events and buffers; explain mode on and off; the
//! tools' views of blend spaces and transitions.

use super::super::blend_space::{MAX_WEIGHTS_2D, Triangulation2D};
use super::super::bound::{BlendInput, Motion, Target};
use super::super::explain::Explanation;
use super::super::{ConditionOp, EventList, GraphEvent, ParamId, StateId, TransitionId};
use super::AnimationGraphPlayer;
use super::parameters::LayerError;
use crate::core::SampleBuffer;

impl AnimationGraphPlayer {
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

    // ---- layers and states ----------------------------------------------------------------

    /// How many layers the graph has.
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// A layer's name.
    pub fn layer_name(&self, layer: usize) -> Option<&str> {
        self.graph.layer_name(layer)
    }

    /// The index of the layer with this name.
    pub fn find_layer(&self, name: &str) -> Option<usize> {
        self.graph.find_layer(name)
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
        self.layers.get(layer).map(|run| run.stack.current().state)
    }

    /// [`current_state`](Self::current_state) as an `Outer/Inner` path.
    pub fn current_state_path(&self, layer: usize) -> Option<&str> {
        self.current_state(layer).map(|s| self.state_path(s))
    }

    /// The current state's normalised time (cumulative over loops).
    pub fn normalised_time(&self, layer: usize) -> Option<f32> {
        self.layers.get(layer).map(|run| self.normalised(run.stack.current()))
    }

    /// Whether a mix is running on the layer.
    pub fn in_transition(&self, layer: usize) -> bool {
        self.layers.get(layer).is_some_and(|run| run.stack.mix().is_some())
    }

    /// The running mix's target (leaf) state.
    pub fn transition_target(&self, layer: usize) -> Option<StateId> {
        self.layers.get(layer)?.stack.target().map(|t| t.state)
    }

    /// The running mix's progress in 0..=1.
    pub fn transition_progress(&self, layer: usize) -> Option<f32> {
        self.layers.get(layer)?.stack.progress()
    }

    /// The tick at which the layer's current state started playing.
    pub fn state_entry_tick(&self, layer: usize) -> Option<u64> {
        self.layers.get(layer).map(|run| run.stack.current().entry_tick)
    }

    /// The tick at which the running mix started.
    pub fn transition_start_tick(&self, layer: usize) -> Option<u64> {
        self.layers.get(layer)?.stack.mix().map(|m| m.info.start_tick)
    }

    /// The running mix's graph transition (`None` while none runs, or for `travel`).
    pub fn running_transition(&self, layer: usize) -> Option<TransitionId> {
        self.layers.get(layer)?.stack.mix()?.info.transition
    }

    /// A state's own name.
    pub fn state_name(&self, state: StateId) -> &str {
        self.graph.state_name(state)
    }

    /// A state's `Outer/Inner` path within its layer.
    pub fn state_path(&self, state: StateId) -> &str {
        self.graph.state_path(state)
    }

    /// The state with this name or `Outer/Inner` path in a layer.
    pub fn find_state(&self, layer: usize, path: &str) -> Option<StateId> {
        self.graph.find_state(layer, path)
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

    /// The windows open on a layer now (of its newest state: the running mix's target, else the
    /// current state), in window order.
    pub fn open_windows(&self, layer: usize) -> impl Iterator<Item = super::super::WindowId> + '_ {
        let open = self.layers.get(layer).map(|run| run.windows);
        let ids = open.map(|o| self.graph.state_windows(o.state)).into_iter().flatten();
        ids.enumerate().filter(move |(i, _)| open.is_some_and(|o| o.bits & (1u64 << i) != 0)).map(|(_, w)| w)
    }

    /// The inertial blend running on a layer (from an inertial transition's start until its
    /// duration has passed).
    pub fn inertial_blend(&self, layer: usize) -> Option<crate::core::InertialBlend> {
        self.layers.get(layer)?.inertial
    }

    /// A path travel's hops that have not started yet (empty when none is under way).
    pub fn travel_path(&self, layer: usize) -> &[TransitionId] {
        self.layers.get(layer).map_or(&[], |run| run.travel_left())
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
    pub fn warnings(&self) -> &[crate::finding::Finding] {
        self.graph.warnings()
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

    // ---- explain mode -----------------------------------------------------------------------

    /// Turns explain mode on or off (see [`explain`](crate::graph::explain)). Turning it on sizes its storage
    /// once, from the graph; `advance` then records without allocating. Off, it costs nothing.
    pub fn set_explain(&mut self, on: bool) {
        if !on {
            self.explain = None;
            return;
        }
        if self.explain.is_some() {
            return;
        }
        let (candidates, conditions) = self.graph.explain_capacity();
        self.explain = Some(Box::new(Explanation::with_capacity(
            self.graph.layers.len(),
            candidates,
            conditions,
            self.graph.parameters.len(),
        )));
    }

    /// What explain mode recorded for the last `advance` (`None` while off).
    pub fn explanation(&self) -> Option<&Explanation> {
        self.explain.as_deref()
    }

    /// A transition's place in the authoring model (`Layers[0].Machine.Transitions[2]`), for
    /// tools that show it.
    pub fn transition_model_path(&self, transition: TransitionId) -> &str {
        self.graph.transition_model_path(transition)
    }

    /// A transition as `From -> To` with state paths (`*` for any state, `<exit>`).
    pub fn transition_label(&self, transition: TransitionId) -> String {
        self.transition_ends(transition).map_or(String::new(), |(from, to)| format!("{from} -> {to}"))
    }

    /// A transition's source and target paths (`*` for any state, `<exit>` for a sub-machine's
    /// way out).
    pub fn transition_ends(&self, transition: TransitionId) -> Option<(&str, &str)> {
        let def = self.graph.transitions.get(transition.index())?;
        let from = def.from.map_or(super::super::ANY_STATE, |s| self.graph.states[s.index()].path.as_str());
        let to = match def.to {
            Target::State(s, _) => self.graph.states[s.index()].path.as_str(),
            Target::Exit => super::super::EXIT_STATE,
        };
        Some((from, to))
    }

    /// A transition's conditions as `(parameter, operator, value)`, in order.
    pub fn transition_conditions(
        &self,
        transition: TransitionId,
    ) -> impl Iterator<Item = (Option<ParamId>, ConditionOp, f32)> + '_ {
        let defs =
            self.graph.transitions.get(transition.index()).map_or(&[][..], |d| self.graph.conditions(d));
        defs.iter().map(|c| (c.param, c.op, c.value))
    }

    /// A transition's `ExitTime` (`None`: it has none).
    pub fn transition_exit_time(&self, transition: TransitionId) -> Option<f32> {
        self.graph.transitions.get(transition.index()).and_then(|d| d.exit_time)
    }
}
