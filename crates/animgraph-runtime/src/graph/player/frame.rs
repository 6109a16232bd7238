//! One frame: [`AnimationGraphPlayer::advance`] as named stages (see the module docs' table).

use super::super::bound::{BoundGraph, Motion, Value};
use super::super::{GraphEvent, ParamId, StateId, WindowId};
use super::AnimationGraphPlayer;
use super::layer::{Instance, LayerRun, OpenWindows, phase_timing};
use crate::blend::clip_timing;
use crate::core::{ClipSample, LayerInfo, SampleBuffer};

impl AnimationGraphPlayer {
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
        if std::mem::take(&mut self.closing) {
            for layer in 0..self.layers.len() {
                self.flush_closing(layer);
            }
        }
        for layer in 0..self.layers.len() {
            self.enter_entries(layer);
            self.complete_mix(layer);
            self.choose(layer);
        }
        self.started = true;
        for layer in 0..self.layers.len() {
            self.advance_clocks(layer, delta);
            self.update_windows(layer);
        }
        for layer in 0..self.layers.len() {
            self.emit(layer, out);
        }
        self.clear_triggers();
        self.tick += 1;
    }

    /// Stage `enter_entries`: on the first advance, `StateEntered` for the layer's entry path.
    fn enter_entries(&mut self, layer: usize) {
        if self.started {
            return;
        }
        let leaf = self.layers[layer].stack.current().state;
        self.enter_path(layer, leaf, 0);
    }

    /// Stage `complete_mixes`: a mix whose progress reached 1 completes; an inertial blend
    /// whose duration has passed ends, one that started last frame is no longer starting.
    fn complete_mix(&mut self, layer: usize) {
        let inertial = &mut self.layers[layer].inertial;
        match inertial {
            Some(i) if i.elapsed >= i.duration => *inertial = None,
            Some(i) => i.started = false,
            None => {}
        }
        let stack = &self.layers[layer].stack;
        if stack.progress().is_none_or(|p| p < 1.0) {
            return;
        }
        let target = stack.target().expect("a running mix has a target").state;
        let first = self.events.as_slice().len();
        for i in 0..stack.sources().len() {
            let leaf = self.layers[layer].stack.sources()[i].state;
            self.exit_path(layer, leaf, first, |g, _, s| g.on_path(target, s));
        }
        let run = &mut self.layers[layer];
        run.stack.complete();
        run.current_exited = run.target_exited;
    }

    /// Raises `StateEntered` for the states of `leaf`'s path from depth `from_depth` down,
    /// outermost first.
    pub(super) fn enter_path(&mut self, layer: usize, leaf: StateId, from_depth: usize) {
        let count = self.graph.ancestry(leaf).len();
        for d in from_depth..count {
            let state = self.graph.ancestry(leaf)[d];
            self.events.push(GraphEvent::StateEntered { layer: layer as u8, state });
        }
    }

    /// Raises `StateExited` for `leaf` and its enclosing states (innermost first), except those
    /// `keep` says are still active and those already exited since event `first`.
    pub(super) fn exit_path(
        &mut self,
        layer: usize,
        leaf: StateId,
        first: usize,
        keep: impl Fn(&BoundGraph, &LayerRun, StateId) -> bool,
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

    /// Stage `advance_clocks`: every playing clock and the running mix advance.
    fn advance_clocks(&mut self, layer: usize, delta: f32) {
        let count = self.layers[layer].stack.sources().len();
        for i in 0..count {
            let instance = self.layers[layer].stack.sources()[i];
            self.layers[layer].stack.sources_mut()[i] = self.advanced(instance, delta);
        }
        if let Some(&target) = self.layers[layer].stack.target() {
            let advanced = self.advanced(target, delta);
            if let Some(t) = self.layers[layer].stack.target_mut() {
                *t = advanced;
            }
        }
        if let Some(mix) = self.layers[layer].stack.mix_mut() {
            mix.elapsed += delta;
        }
        if let Some(inertial) = &mut self.layers[layer].inertial {
            inertial.elapsed += delta;
        }
    }

    /// Stage `flush_closing`: `WindowEnd` for windows a restore or rebind closed.
    pub(super) fn flush_closing(&mut self, layer: usize) {
        let closing = std::mem::replace(&mut self.layers[layer].closing, OpenWindows::NONE);
        self.end_windows(layer, closing);
    }

    /// `WindowEnd` for every window open in `open`, in window order.
    fn end_windows(&mut self, layer: usize, open: OpenWindows) {
        if open.bits == 0 {
            return;
        }
        let first = self.graph.states[open.state.index()].windows.start;
        for i in 0..64u32 {
            if open.bits & (1u64 << i) != 0 {
                self.events.push(GraphEvent::WindowEnd {
                    layer: layer as u8,
                    state: open.state,
                    window: WindowId(first + i),
                });
            }
        }
    }

    /// Closes the layer's open windows now (a transition away from their state starts).
    pub(super) fn close_windows(&mut self, layer: usize) {
        let open = std::mem::replace(&mut self.layers[layer].windows, OpenWindows::NONE);
        self.end_windows(layer, open);
    }

    /// Stage `update_windows`: the owning instance's windows open and close with its time.
    pub(super) fn update_windows(&mut self, layer: usize) {
        let run = &self.layers[layer];
        let owner = *run.stack.target().unwrap_or(run.stack.current());
        let windows = self.graph.states[owner.state.index()].windows.clone();
        if run.windows.bits != 0
            && (run.windows.state != owner.state || run.windows.entry_tick != owner.entry_tick)
        {
            self.close_windows(layer);
        }
        if windows.is_empty() {
            return;
        }
        let time = self.window_time(&owner);
        let mut open = self.layers[layer].windows.bits;
        for (i, w) in windows.clone().enumerate() {
            let def = &self.graph.windows[w as usize];
            let inside = time >= def.start && time < def.end;
            let bit = 1u64 << i;
            let was = open & bit != 0;
            let window = WindowId(w);
            let (layer_id, state) = (layer as u8, owner.state);
            if inside && !was {
                self.events.push(GraphEvent::WindowBegin { layer: layer_id, state, window });
                open |= bit;
            } else if !inside && was {
                self.events.push(GraphEvent::WindowEnd { layer: layer_id, state, window });
                open &= !bit;
            }
        }
        self.layers[layer].windows =
            OpenWindows { state: owner.state, entry_tick: owner.entry_tick, bits: open };
    }

    /// Stage `emit`: this layer's info and samples.
    pub(super) fn emit(&self, layer: usize, out: &mut SampleBuffer) {
        let run = &self.layers[layer];
        let def = &self.graph.layers[layer];
        out.push_layer(LayerInfo {
            blend: def.blend,
            weight: self.layer_weight(layer),
            mask: def.mask,
            event_threshold: run.event_threshold,
            inertial: run.inertial,
        });
        for (instance, weight) in run.stack.emitted() {
            self.emit_instance(layer as u8, instance, weight, out);
        }
    }

    fn emit_instance(&self, layer: u8, instance: &Instance, weight: f32, out: &mut SampleBuffer) {
        if weight <= 0.0 {
            return;
        }
        match &self.graph.states[instance.state.index()].motion {
            Some(Motion::Clip { clip: Some(clip), length, looping, .. }) => {
                let (time, prev_time, looped) = clip_timing(instance.clock, instance.prev, *length, *looping);
                out.push_sample(ClipSample { clip: *clip, time, prev_time, weight, layer, looped });
            }
            Some(Motion::Blend { points, sync, reference, .. }) => {
                let pts = self.graph.points(points);
                // Marker sync: each clip plays the reference's segment at the same fraction.
                let segments = reference.map(|r| {
                    let markers = self.graph.markers(&pts[r as usize].markers);
                    let at = |phase| crate::markers::segments_at(markers, phase);
                    (markers, at(instance.clock), at(instance.prev))
                });
                for &(j, w) in &instance.weights[..instance.weight_count as usize] {
                    let point = &pts[j as usize];
                    let Some(clip) = point.clip else { continue };
                    let (time, prev_time, looped) = if let Some((markers, u, u_prev)) = segments {
                        let follower = self.follower(point);
                        let phase = crate::markers::phase_at(follower, markers, u);
                        let prev = crate::markers::phase_at(follower, markers, u_prev);
                        phase_timing(phase, prev, point.length, point.looping)
                    } else if *sync {
                        phase_timing(instance.clock, instance.prev, point.length, point.looping)
                    } else {
                        clip_timing(instance.clock, instance.prev, point.length, point.looping)
                    };
                    out.push_sample(ClipSample { clip, time, prev_time, weight: weight * w, layer, looped });
                }
            }
            _ => {}
        }
    }

    /// Stage `clear_triggers`: triggers no transition used this frame are cleared, unless
    /// `Latch`.
    fn clear_triggers(&mut self) {
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
    }
}
