//! Choosing: which transition (or travel) starts on a layer this frame, and starting it.

use super::super::bound::{Candidate, CandidateLists, ConditionDef, Target, Value};
use super::super::explain::{
    CandidateCheck, CandidateSide, Checked, ConditionCheck, Explanation, Outcome, TriggerUse,
};
use super::super::{
    ConditionOp, GraphEvent, MAX_MACHINE_DEPTH, StateId, TransitionBlend, TransitionId, TransitionInterrupt,
    TransitionSync, TravelMode,
};
use super::AnimationGraphPlayer;
use super::layer::{LayerRun, Running, Side};
use crate::blend::Mix;

/// What [`AnimationGraphPlayer::start`] starts.
#[derive(Clone, Copy)]
struct Start {
    /// The graph transition (`None` for travel).
    transition: Option<TransitionId>,
    /// The side it leaves from.
    side: Side,
    /// The leaf entered.
    leaf: StateId,
    /// Crossfade seconds (0 or less: an instant cut).
    duration: f32,
    /// Normalised time the target starts at.
    offset: f32,
    interrupt: TransitionInterrupt,
}

impl AnimationGraphPlayer {
    /// Step 1b: travel, or the first transition whose rules hold.
    pub(super) fn choose(&mut self, layer: usize) {
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
            let run = &mut self.layers[layer];
            run.travel.clear();
            run.travel_next = 0;
            let leaf = self.graph.states[state.index()].entry_leaf;
            if run.stack.target().is_some_and(|t| self.graph.on_path(t.state, state)) {
                return;
            }
            if self.graph.layers[layer].travel_mode == TravelMode::Path {
                let side = if run.stack.target().is_some() { Side::Target } else { Side::Source };
                let from = run.side(side).state;
                if self.graph.on_path(from, state) {
                    return; // already there: nothing to walk
                }
                if self.plan_travel(layer, from, state) {
                    self.events.push(GraphEvent::TravelPlanned {
                        layer: layer as u8,
                        to: state,
                        hops: self.layers[layer].travel.len() as u16,
                    });
                    self.start_hop(layer, side);
                    if let Some(l) = rec.explanation().and_then(|e| e.layer_mut(layer)) {
                        (l.checked, l.travel) = (Checked::Travel, Some(state));
                        l.started = Some(self.layers[layer].stack.mix().and_then(|m| m.info.transition));
                    }
                    return;
                }
                // No chain of transitions leads there: a direct mix, as in Direct.
            }
            let run = &self.layers[layer];
            let from = run.stack.current().state;
            let duration = self.graph.mix_duration(
                self.graph.states[from.index()].mix_key,
                self.graph.states[state.index()].mix_key,
            );
            let travel = Start {
                transition: None,
                side: Side::Source,
                leaf,
                duration,
                offset: 0.0,
                interrupt: TransitionInterrupt::Both,
            };
            self.start(layer, travel);
            if let Some(l) = rec.explanation().and_then(|e| e.layer_mut(layer)) {
                (l.checked, l.travel, l.started) = (Checked::Travel, Some(state), Some(None));
            }
            return;
        }
        // Only `Path` layers plan hops: a `Direct` layer's frame reads none of the travel storage.
        let path = self.graph.layers[layer].travel_mode == TravelMode::Path;
        if path && !self.layers[layer].travel_left().is_empty() {
            // A path travel owns the layer until its last hop has started: each hop starts when
            // the one before has completed, and no other transition is checked meanwhile.
            if self.layers[layer].stack.mix().is_none() {
                self.start_hop(layer, Side::Source);
                if let Some(l) = rec.explanation().and_then(|e| e.layer_mut(layer)) {
                    l.checked = Checked::Travel;
                    l.started = Some(self.layers[layer].stack.mix().and_then(|m| m.info.transition));
                }
            } else if let Some(l) = rec.explanation().and_then(|e| e.layer_mut(layer)) {
                l.checked = Checked::Travel;
            }
            return;
        }
        let (source, target, checked) = match self.layers[layer].stack.mix() {
            None => (true, false, Checked::Current),
            Some(mix) => match mix.info.interrupt {
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
        for _ in 0..=MAX_MACHINE_DEPTH + 1 {
            let Some((transition, side, level)) = self.find_candidate(layer, source, target, rec) else {
                return;
            };
            let def = &self.graph.transitions[transition.index()];
            let to = def.to;
            let (offset, interrupt) = (def.offset, def.interrupt);
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
                Target::State(state, _) => {
                    let from = self.layers[layer].side(side).state;
                    let duration = self.graph.transition_duration(transition, from);
                    let leaf = self.graph.states[state.index()].entry_leaf;
                    let start =
                        Start { transition: Some(transition), side, leaf, duration, offset, interrupt };
                    self.start(layer, start);
                    if let Some(l) = rec.explanation().and_then(|e| e.layer_mut(layer)) {
                        l.started = Some(Some(transition));
                    }
                    return;
                }
            }
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
        let source_lists =
            if source { self.graph.candidates(run.stack.current().state) } else { CandidateLists::One(&[]) };
        let target_lists = match (target, run.stack.target()) {
            (true, Some(t)) => self.graph.candidates(t.state),
            _ => CandidateLists::One(&[]),
        };
        let mut found = None;
        match (source_lists, target_lists) {
            // The common case: each leaf's own merged list, read by index.
            (CandidateLists::One(s), CandidateLists::One(t)) => {
                let rank = |c: &Candidate| self.graph.transitions[c.transition.index()].rank;
                let (mut i, mut j) = (0, 0);
                while i < s.len() || j < t.len() {
                    let take_source = match (s.get(i), t.get(j)) {
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
                        (s[i - 1], Side::Source)
                    } else {
                        j += 1;
                        (t[j - 1], Side::Target)
                    };
                    if self.visit(run, candidate, side, rec, &mut found) {
                        break;
                    }
                }
                found
            }
            (s, t) => self.scan_merged(run, s, t, rec),
        }
    }

    /// Leaves past bind's copy budget read their shared lists merged, out of line.
    #[cold]
    #[inline(never)]
    fn scan_merged<R: Recorder>(
        &self,
        run: &LayerRun,
        source: CandidateLists,
        target: CandidateLists,
        rec: &mut R,
    ) -> Option<(TransitionId, Side, u8)> {
        let (mut source, mut target) = (source.into_iter().peekable(), target.into_iter().peekable());
        let rank = |c: &Candidate| self.graph.transitions[c.transition.index()].rank;
        let mut found = None;
        loop {
            let take_source = match (source.peek(), target.peek()) {
                (Some(a), Some(b)) => {
                    let (a, b) = (rank(a), rank(b));
                    if a == b {
                        target.next(); // the same transition on both sides: check it once, as the source's
                    }
                    a <= b
                }
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let (next, side) =
                if take_source { (source.next(), Side::Source) } else { (target.next(), Side::Target) };
            let Some(candidate) = next else { break };
            if self.visit(run, candidate, side, rec, &mut found) {
                break;
            }
        }
        found
    }

    /// Checks one candidate: without explain mode, whether it fires (then `found` is set and
    /// the search stops: `true`); explaining, records it and goes on.
    #[inline(always)]
    fn visit<R: Recorder>(
        &self,
        run: &LayerRun,
        candidate: Candidate,
        side: Side,
        rec: &mut R,
        found: &mut Option<(TransitionId, Side, u8)>,
    ) -> bool {
        let Some(e) = rec.explanation() else {
            if self.passes(run, &candidate, side) {
                *found = Some((candidate.transition, side, candidate.level));
                return true;
            }
            return false;
        };
        let outcome = self.check(run, &candidate, side, e);
        if outcome == Outcome::Started {
            if found.is_none() {
                *found = Some((candidate.transition, side, candidate.level));
                let fired = match self.graph.transitions[candidate.transition.index()].to {
                    Target::Exit => Outcome::FiredExit,
                    Target::State(..) => Outcome::Started,
                };
                e.set_outcome(e.candidate_mark() as usize - 1, fired);
            } else {
                e.set_outcome(e.candidate_mark() as usize - 1, Outcome::Shadowed);
            }
        }
        false
    }

    /// The structural rules: sub-machine exits, `*` into the active state, into the running
    /// mix's target. `Started` when none applies.
    #[inline(always)]
    fn gate(&self, run: &LayerRun, candidate: &Candidate, side: Side) -> Outcome {
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
        if let Target::State(to, _) = def.to {
            let current = run.stack.current().state;
            if def.from.is_none() && self.graph.on_path(current, to) {
                return Outcome::AnyIntoActiveState; // `*` never into the active state
            }
            if run.stack.target().is_some_and(|t| self.graph.on_path(t.state, to)) {
                return Outcome::IntoRunningTarget; // never into the running mix's target
            }
        }
        Outcome::Started
    }

    /// Whether a candidate fires now: the gates, then its exit time, then its conditions, the
    /// first failing rule answering.
    #[inline(always)]
    fn passes(&self, run: &LayerRun, candidate: &Candidate, side: Side) -> bool {
        if self.gate(run, candidate, side) != Outcome::Started {
            return false;
        }
        let def = &self.graph.transitions[candidate.transition.index()];
        if def.exit_time.is_some_and(|exit_time| self.normalised(run.side(side)) < exit_time) {
            return false;
        }
        // A plain loop, not `Iterator::all`: LLVM keeps it inline in every caller.
        for c in self.graph.conditions(def) {
            if !self.condition_holds(c).1 {
                return false;
            }
        }
        true
    }

    /// The same rules as [`passes`](Self::passes), every one evaluated and recorded (each
    /// condition with the value it saw); returns why the candidate did not fire, or `Started`.
    fn check(&self, run: &LayerRun, candidate: &Candidate, side: Side, ex: &mut Explanation) -> Outcome {
        let def = &self.graph.transitions[candidate.transition.index()];
        let mut outcome = self.gate(run, candidate, side);
        let mut exit_time = None;
        if let Some(wanted) = def.exit_time {
            let had = self.normalised(run.side(side));
            exit_time = Some((wanted, had));
            if had < wanted && outcome == Outcome::Started {
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
    fn condition_holds(&self, c: &ConditionDef) -> (f32, bool) {
        use ConditionOp as Op;
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
            if let (ConditionOp::Triggered, Some(p)) = (c.op, c.param) {
                self.values[p.index()] = Value::Trigger(false);
                if let Some(e) = rec.explanation() {
                    e.push_consumed(TriggerUse { trigger: p, layer: layer as u8, transition });
                }
            }
        }
    }

    /// Plans a `Path` travel from leaf `from` to `goal` (a state, or any leaf inside it when a
    /// sub-machine): the fewest hops, ties by rank (candidates are read in rank order and the
    /// search is breadth-first), every transition's conditions and exit time ignored. Fills the
    /// layer's hops and returns whether a chain exists. Allocates nothing: the storage was
    /// reserved at construction.
    fn plan_travel(&mut self, layer: usize, from: StateId, goal: StateId) -> bool {
        const UNREACHED: (u16, u16) = (u16::MAX, u16::MAX);
        let graph = &*self.graph;
        // Made at construction for graphs with `Path` layers, the only ones that plan.
        let search = self.search.get_or_insert_with(Box::default);
        search.reached.clear();
        search.reached.resize(graph.states.len(), UNREACHED);
        search.queue.clear();
        search.queue.push(from.0);
        search.reached[from.index()] = (from.0, u16::MAX);
        let mut head = 0;
        let mut found = None;
        'search: while head < search.queue.len() {
            let leaf = StateId(search.queue[head]);
            head += 1;
            for candidate in graph.candidates(leaf) {
                let def = &graph.transitions[candidate.transition.index()];
                let Target::State(to, _) = def.to else { continue };
                if def.from.is_none() && graph.on_path(leaf, to) {
                    continue; // `*` never into the active state
                }
                let next = graph.states[to.index()].entry_leaf;
                if search.reached[next.index()] != UNREACHED {
                    continue;
                }
                search.reached[next.index()] = (leaf.0, candidate.transition.0);
                if graph.on_path(next, goal) {
                    found = Some(next);
                    break 'search;
                }
                search.queue.push(next.0);
            }
        }
        let Some(mut at) = found else { return false };
        let run = &mut self.layers[layer];
        while at != from {
            let (previous, transition) = search.reached[at.index()];
            run.travel.push(TransitionId(transition));
            at = StateId(previous);
        }
        run.travel.reverse();
        run.travel_next = 0;
        true
    }

    /// Starts the next hop of a path travel from the `side` state, with the hop transition's own
    /// duration, offset, interruption rule, curve and blend.
    fn start_hop(&mut self, layer: usize, side: Side) {
        let run = &mut self.layers[layer];
        let Some(&transition) = run.travel.get(run.travel_next) else { return };
        run.travel_next += 1;
        let def = &self.graph.transitions[transition.index()];
        let Target::State(state, _) = def.to else { return };
        let (offset, interrupt) = (def.offset, def.interrupt);
        let from = self.layers[layer].side(side).state;
        let duration = self.graph.transition_duration(transition, from);
        let leaf = self.graph.states[state.index()].entry_leaf;
        self.start(layer, Start { transition: Some(transition), side, leaf, duration, offset, interrupt });
    }

    fn is_active(&self, run: &LayerRun, state: StateId) -> bool {
        run.stack.sources().iter().any(|i| self.graph.on_path(i.state, state))
            || run.stack.target().is_some_and(|t| self.graph.on_path(t.state, state))
    }

    /// Starts a mix (or an instant cut) from the `side` state to `leaf`.
    fn start(&mut self, layer: usize, start: Start) {
        let Start { transition, side, leaf, duration, mut offset, interrupt } = start;
        let l = layer as u8;
        let from = self.layers[layer].side(side).state;
        if transition.is_some_and(|t| self.graph.transitions[t.index()].sync == TransitionSync::Markers) {
            // The target starts where the source's last passed marker matches (else `Offset`).
            let target = self.new_instance(leaf, 0.0);
            let source = self.layers[layer].side(side);
            if let (Some((source, phase)), Some((target, _))) =
                (self.marker_phase(source), self.marker_phase(&target))
            {
                offset = crate::markers::matching_phase(source, phase, target).unwrap_or(offset);
            }
        }
        let instance = self.new_instance(leaf, offset);
        // States on the target's path that are not active yet, outermost first.
        let entering_from = {
            let ancestry = self.graph.ancestry(leaf);
            let run = &self.layers[layer];
            ancestry.iter().position(|&s| !self.is_active(run, s)).unwrap_or(ancestry.len())
        };
        // A transition away from the state that owns the open windows closes them first.
        self.close_windows(layer);
        if duration <= 0.0 {
            let first = self.events.as_slice().len();
            let count = self.layers[layer].stack.sources().len();
            for i in 0..count {
                let s = self.layers[layer].stack.sources()[i].state;
                self.exit_path(layer, s, first, |g, _, st| g.on_path(leaf, st));
            }
            if let Some(t) = self.layers[layer].stack.target().map(|t| t.state) {
                self.exit_path(layer, t, first, |g, _, st| g.on_path(leaf, st));
            }
            self.events.push(GraphEvent::TransitionStarted { layer: l, from, to: leaf, transition });
            self.enter_path(layer, leaf, entering_from);
            let run = &mut self.layers[layer];
            run.stack.cut(instance);
            run.current_exited = 0;
            return;
        }
        // Interruption: freeze the current blend as the new source.
        let old_target = self.layers[layer].stack.target().map(|t| t.state);
        if let Some(old_target) = old_target {
            let run = &mut self.layers[layer];
            if let Some(dropped) = run.stack.freeze(true) {
                // Exit the dropped state's path unless something else still plays it.
                let first = self.events.as_slice().len();
                self.exit_path(layer, dropped.state, first, |g, run, st| {
                    g.on_path(old_target, st)
                        || g.on_path(leaf, st)
                        || run.stack.sources().iter().any(|s| g.on_path(s.state, st))
                });
            }
            if side == Side::Target {
                let run = &mut self.layers[layer];
                let newest = run.stack.sources().len() - 1;
                run.stack.set_current(newest);
                run.current_exited = run.target_exited;
            }
        }
        self.events.push(GraphEvent::TransitionStarted { layer: l, from, to: leaf, transition });
        self.enter_path(layer, leaf, entering_from);
        let start_tick = self.tick;
        // Travel crossfades linearly; a transition by its curve and blend.
        let (curve, blend) = transition.map_or(Default::default(), |t| {
            let def = &self.graph.transitions[t.index()];
            (def.curve, def.blend)
        });
        let inertial = blend == TransitionBlend::Inertial;
        let run = &mut self.layers[layer];
        run.stack.begin_mix(
            instance,
            Mix {
                elapsed: 0.0,
                duration,
                curve,
                inertial,
                info: Running { transition, interrupt, start_tick, offset },
            },
        );
        run.target_exited = 0;
        if inertial {
            // From this frame the target alone is sampled; the backend hides the change.
            run.inertial = Some(crate::core::InertialBlend { started: true, elapsed: 0.0, duration });
        }
    }
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
