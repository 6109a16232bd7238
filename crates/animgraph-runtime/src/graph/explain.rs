//! Explain mode: why each transition did or did not fire on the last frame.
//!
//! Off by default. [`AnimationGraphPlayer::set_explain`](super::AnimationGraphPlayer::set_explain)
//! sizes the storage once; from then on every `advance` records, per layer, which side of a
//! running mix was checked (the interruption decision), every candidate transition in evaluation
//! order with its outcome, its exit-time gate and each condition's value and result, which
//! transition started, which transition consumed which trigger, and which triggers were cleared
//! unused. Recording never allocates: the storage is sized from the graph, and anything beyond
//! it is dropped and counted. When off, `advance` runs exactly the code it runs without this
//! module (the recording calls are behind one `Option` that is `None`).
//!
//! | outcome | meaning |
//! |---|---|
//! | `Started` | it fired: a transition started |
//! | `FiredExit` | it fired: an inner transition to `<exit>` marked its sub-machine exited |
//! | `ConditionsFailed` | a condition was false |
//! | `ExitTimeNotReached` | its source had not reached `ExitTime` (conditions may still hold) |
//! | `AnyIntoActiveState` | a `*` transition into the state already playing: never taken |
//! | `IntoRunningTarget` | it leads into the running mix's target: never taken |
//! | `WaitsForSubMachineExit` | a parent transition out of a sub-machine that has not exited |
//! | `InsideExitedSubMachine` | an inner transition of a sub-machine that already exited |
//! | `Shadowed` | it would have fired, but an earlier candidate (by rank) started first |

use std::ops::Range;

use super::{ParamId, StateId, TransitionId};

/// Why a candidate did or did not fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It started.
    Started,
    /// It fired into `<exit>`.
    FiredExit,
    /// A condition did not hold.
    ConditionsFailed,
    /// The exit time was not reached.
    ExitTimeNotReached,
    /// A `*` transition into the active state.
    AnyIntoActiveState,
    /// Into the running mix's target.
    IntoRunningTarget,
    /// Out of a sub-machine that has not exited yet.
    WaitsForSubMachineExit,
    /// Inside a sub-machine that has exited.
    InsideExitedSubMachine,
    /// Would have fired; an earlier candidate started.
    Shadowed,
}

impl Outcome {
    /// Whether the transition fired.
    pub fn fired(self) -> bool {
        matches!(self, Outcome::Started | Outcome::FiredExit)
    }

    /// A short name (`started`, `conditions failed`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Started => "started",
            Outcome::FiredExit => "fired <exit>",
            Outcome::ConditionsFailed => "conditions failed",
            Outcome::ExitTimeNotReached => "exit time not reached",
            Outcome::AnyIntoActiveState => "* into the active state",
            Outcome::IntoRunningTarget => "into the running mix's target",
            Outcome::WaitsForSubMachineExit => "waits for the sub-machine's <exit>",
            Outcome::InsideExitedSubMachine => "inside an exited sub-machine",
            Outcome::Shadowed => "shadowed",
        }
    }
}

/// Which transitions a layer checked this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Checked {
    /// No mix was running: the current state's transitions and `*`.
    #[default]
    Current,
    /// A mix with `Interrupt` Source: the source's and `*`.
    Source,
    /// `Interrupt` Target: the target's and `*`.
    Target,
    /// `Interrupt` Both: both sides' and `*`.
    Both,
    /// `Interrupt` None: nothing may cut into the running mix.
    NothingInterruptNone,
    /// A `travel` was applied instead.
    Travel,
}

impl Checked {
    /// A short phrase for tools.
    pub fn as_str(self) -> &'static str {
        match self {
            Checked::Current => "current state and *",
            Checked::Source => "mix running, Interrupt Source: source side and *",
            Checked::Target => "mix running, Interrupt Target: target side and *",
            Checked::Both => "mix running, Interrupt Both: both sides and *",
            Checked::NothingInterruptNone => "blocked: the running mix has Interrupt None",
            Checked::Travel => "travel applied",
        }
    }
}

/// One condition's check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConditionCheck {
    /// Its index in the transition's `Conditions`.
    pub index: u16,
    /// The parameter's value when checked (bools and triggers 0 or 1).
    pub actual: f32,
    /// Whether it held.
    pub passed: bool,
}

/// Which side of a running mix a candidate came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CandidateSide {
    /// The layer's current state (the mix's source).
    Source,
    /// The running mix's target.
    Target,
}

/// One candidate transition's check.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateCheck {
    /// The transition.
    pub transition: TransitionId,
    /// The side it was checked for.
    pub side: CandidateSide,
    /// What happened.
    pub outcome: Outcome,
    /// `(ExitTime, the side's normalised time)` when it has an exit time.
    pub exit_time: Option<(f32, f32)>,
    pub(crate) conditions: Range<u32>,
}

/// One layer's frame.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LayerExplanation {
    /// What was checked (the interruption decision).
    pub checked: Checked,
    /// The state a travel went to, when one was applied.
    pub travel: Option<StateId>,
    /// The transition that started (`Some(None)`: the travel's mix).
    pub started: Option<Option<TransitionId>>,
    pub(crate) candidates: Range<u32>,
}

/// A trigger used by a transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriggerUse {
    /// The trigger.
    pub trigger: ParamId,
    /// The layer of the transition.
    pub layer: u8,
    /// The transition that consumed it.
    pub transition: TransitionId,
}

/// Everything explain mode recorded for the last `advance`.
#[derive(Clone, Debug, Default)]
pub struct Explanation {
    layers: Vec<LayerExplanation>,
    candidates: Vec<CandidateCheck>,
    conditions: Vec<ConditionCheck>,
    consumed: Vec<TriggerUse>,
    cleared: Vec<ParamId>,
    dropped: usize,
}

impl Explanation {
    /// Storage for `layers` layers, `candidates` candidate checks, `conditions` condition
    /// checks and `parameters` triggers per frame.
    pub(crate) fn with_capacity(
        layers: usize,
        candidates: usize,
        conditions: usize,
        parameters: usize,
    ) -> Self {
        Explanation {
            layers: Vec::with_capacity(layers),
            candidates: Vec::with_capacity(candidates),
            conditions: Vec::with_capacity(conditions),
            consumed: Vec::with_capacity(parameters),
            cleared: Vec::with_capacity(parameters),
            dropped: 0,
        }
    }

    pub(crate) fn begin(&mut self, layers: usize) {
        self.layers.clear();
        self.candidates.clear();
        self.conditions.clear();
        self.consumed.clear();
        self.cleared.clear();
        self.dropped = 0;
        for _ in 0..layers.min(self.layers.capacity()) {
            self.layers.push(LayerExplanation::default());
        }
    }

    pub(crate) fn layer_mut(&mut self, layer: usize) -> Option<&mut LayerExplanation> {
        self.layers.get_mut(layer)
    }

    pub(crate) fn condition_mark(&self) -> u32 {
        self.conditions.len() as u32
    }

    pub(crate) fn candidate_mark(&self) -> u32 {
        self.candidates.len() as u32
    }

    pub(crate) fn push_condition(&mut self, check: ConditionCheck) {
        if self.conditions.len() < self.conditions.capacity() {
            self.conditions.push(check);
        } else {
            self.dropped += 1;
        }
    }

    /// Records a candidate; returns its index.
    pub(crate) fn push_candidate(&mut self, check: CandidateCheck) -> Option<usize> {
        if self.candidates.len() < self.candidates.capacity() {
            self.candidates.push(check);
            Some(self.candidates.len() - 1)
        } else {
            self.dropped += 1;
            None
        }
    }

    pub(crate) fn set_outcome(&mut self, index: usize, outcome: Outcome) {
        if let Some(c) = self.candidates.get_mut(index) {
            c.outcome = outcome;
        }
    }

    pub(crate) fn push_consumed(&mut self, used: TriggerUse) {
        if self.consumed.len() < self.consumed.capacity() {
            self.consumed.push(used);
        } else {
            self.dropped += 1;
        }
    }

    pub(crate) fn push_cleared(&mut self, trigger: ParamId) {
        if self.cleared.len() < self.cleared.capacity() {
            self.cleared.push(trigger);
        } else {
            self.dropped += 1;
        }
    }

    /// Per layer.
    pub fn layers(&self) -> &[LayerExplanation] {
        &self.layers
    }

    /// A layer's candidates, in evaluation order.
    pub fn candidates(&self, layer: &LayerExplanation) -> &[CandidateCheck] {
        let r = layer.candidates.start as usize..(layer.candidates.end as usize).min(self.candidates.len());
        self.candidates.get(r).unwrap_or(&[])
    }

    /// A candidate's condition checks, in the transition's order.
    pub fn conditions(&self, candidate: &CandidateCheck) -> &[ConditionCheck] {
        let r = candidate.conditions.start as usize
            ..(candidate.conditions.end as usize).min(self.conditions.len());
        self.conditions.get(r).unwrap_or(&[])
    }

    /// Triggers consumed this frame, by which transition.
    pub fn consumed(&self) -> &[TriggerUse] {
        &self.consumed
    }

    /// Triggers that were set but used by no transition, cleared at the end of the frame.
    pub fn cleared(&self) -> &[ParamId] {
        &self.cleared
    }

    /// Records that did not fit the storage this frame (0 unless the graph is unusual).
    pub fn dropped(&self) -> usize {
        self.dropped
    }
}
