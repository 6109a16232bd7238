//! What a player shows from outside, as plain data: per frame, each layer's state, time and
//! mix, the parameters, and the signals. One description shared by `animgraph simulate`'s
//! output, the live-debugging link ([`crate::link`]) and the editor, so a state reads the same
//! everywhere.

use serde::{Deserialize, Serialize};

use crate::core::{BackendNames, ClipBlend, ClipSample, LayerInfo, MaskId};
use crate::graph::{AnimationGraphPlayer, GraphEvent, ParamId, ParameterType};

/// One layer of a frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerRecord {
    /// The current state's `Outer/Inner` path.
    pub state: String,
    /// Its normalised time.
    pub normalised_time: f32,
    /// Whether a mix runs.
    pub in_transition: bool,
    /// The mix's target path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition_to: Option<String>,
    /// The mix's progress 0..1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition_progress: Option<f32>,
    /// The layer's effective weight.
    pub weight: f32,
    /// The layer's mask, as bone names (when a backend can name them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask: Option<Vec<String>>,
    /// The windows open now (names, of the layer's newest state).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub windows: Vec<String>,
    /// A path travel's hops not started yet, as `[from, to]` state paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub travel: Vec<[String; 2]>,
    /// An inertial blend's progress 0..1 while its offset decays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inertial: Option<f32>,
}

impl LayerRecord {
    /// A layer of a player as it stands (no mask names: the player does not know bones).
    pub fn of(player: &AnimationGraphPlayer, layer: usize) -> LayerRecord {
        LayerRecord {
            state: player.current_state_path(layer).unwrap_or("").to_string(),
            normalised_time: player.normalised_time(layer).unwrap_or(0.0),
            in_transition: player.in_transition(layer),
            transition_to: player.transition_target(layer).map(|s| player.state_path(s).to_string()),
            transition_progress: player.transition_progress(layer),
            weight: player.layer_weight(layer),
            mask: None,
            windows: player
                .open_windows(layer)
                .map(|w| player.bound_graph().window_name(w).to_string())
                .collect(),
            travel: player
                .travel_path(layer)
                .iter()
                .filter_map(|&t| player.transition_ends(t))
                .map(|(from, to)| [from.to_string(), to.to_string()])
                .collect(),
            inertial: player
                .inertial_blend(layer)
                .map(|i| if i.duration > 0.0 { (i.elapsed / i.duration).min(1.0) } else { 1.0 }),
        }
    }
}

/// One signal of a frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventRecord {
    /// `StateEntered`, `StateExited` or `TransitionStarted` (graph signals), or a code track's
    /// `Start`, `Interrupted`, `Complete`, `End`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Layer index.
    pub layer: u8,
    /// Entered/exited state path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Transition source path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Transition target path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Code track index (track events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<usize>,
    /// Clip name (track events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clip: Option<String>,
    /// Window name (`WindowBegin`, `WindowEnd`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
}

impl EventRecord {
    /// A graph signal, named through the player.
    pub fn of(player: &AnimationGraphPlayer, event: &GraphEvent) -> EventRecord {
        let path = |s| Some(player.state_path(s).to_string());
        let mut window = None;
        let (layer, state, from, to) = match *event {
            GraphEvent::StateEntered { layer, state } | GraphEvent::StateExited { layer, state } => {
                (layer, path(state), None, None)
            }
            GraphEvent::TransitionStarted { layer, from, to, .. } => (layer, None, path(from), path(to)),
            GraphEvent::TravelPlanned { layer, to, .. } => (layer, None, None, path(to)),
            GraphEvent::WindowBegin { layer, state, window: w }
            | GraphEvent::WindowEnd { layer, state, window: w } => {
                window = Some(player.bound_graph().window_name(w).to_string());
                (layer, path(state), None, None)
            }
        };
        EventRecord {
            kind: event.kind().to_string(),
            layer,
            state,
            from,
            to,
            track: None,
            clip: None,
            window,
        }
    }

    /// One line for a log: `Base: StateEntered Jump`, `Base: Move -> Jump`.
    pub fn describe(&self, layer_names: &[String]) -> String {
        let layer =
            layer_names.get(self.layer as usize).cloned().unwrap_or_else(|| format!("layer {}", self.layer));
        match (&self.state, &self.from, &self.to, &self.clip) {
            (Some(state), _, _, _) if self.window.is_some() => {
                format!("{layer}: {} {state} \"{}\"", self.kind, self.window.as_deref().unwrap_or(""))
            }
            (Some(state), _, _, _) => format!("{layer}: {} {state}", self.kind),
            (None, Some(from), Some(to), _) => format!("{layer}: {from} -> {to}"),
            (None, None, Some(to), None) => format!("{layer}: {} -> {to}", self.kind),
            (_, _, _, Some(clip)) => format!("{layer}: track {} {clip}", self.kind),
            _ => format!("{layer}: {}", self.kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: &str, state: Option<&str>, to: Option<&str>, window: Option<&str>) -> EventRecord {
        EventRecord {
            kind: kind.into(),
            layer: 0,
            state: state.map(Into::into),
            from: None,
            to: to.map(Into::into),
            track: None,
            clip: None,
            window: window.map(Into::into),
        }
    }

    #[test]
    fn log_lines_name_windows_and_travel_targets() {
        let names = ["Base".to_string()];
        let begin = event("WindowBegin", Some("Attack"), None, Some("hitbox"));
        assert_eq!(begin.describe(&names), "Base: WindowBegin Attack \"hitbox\"");
        let planned = event("TravelPlanned", None, Some("Air/Fall"), None);
        assert_eq!(planned.describe(&names), "Base: TravelPlanned -> Air/Fall");
        assert_eq!(
            event("StateEntered", Some("Idle"), None, None).describe(&names),
            "Base: StateEntered Idle"
        );
    }
}

/// One parameter's value in a frame (bools and triggers as 0 or 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParameterRecord {
    /// Its name.
    pub name: String,
    /// `Bool`, `Int`, `Float` or `Trigger`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its value (a trigger: 1 while set).
    pub value: f32,
}

/// A whole player at the end of one `advance`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerFrame {
    /// The player's tick (advances so far).
    pub tick: u64,
    /// Per layer.
    pub layers: Vec<LayerRecord>,
    /// Every parameter, in graph order.
    pub parameters: Vec<ParameterRecord>,
    /// The last advance's signals.
    pub events: Vec<EventRecord>,
    /// Why transitions did or did not fire (explain mode on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain: Option<ExplainRecord>,
}

impl PlayerFrame {
    /// The player as it stands.
    pub fn capture(player: &AnimationGraphPlayer) -> PlayerFrame {
        let parameters = (0..player.parameter_count())
            .filter_map(|i| {
                let id = ParamId(i as u16);
                let kind = player.parameter_type(id)?;
                let value = match kind {
                    ParameterType::Bool => player.get_bool(id).map(|b| b as u8 as f32),
                    ParameterType::Int => player.get_int(id).map(|v| v as f32),
                    ParameterType::Float => player.get_float(id),
                    ParameterType::Trigger => player.is_triggered(id).map(|b| b as u8 as f32),
                }?;
                Some(ParameterRecord {
                    name: player.parameter_name(id)?.to_string(),
                    kind: kind.as_str().into(),
                    value,
                })
            })
            .collect();
        PlayerFrame {
            tick: player.tick(),
            layers: (0..player.layer_count()).map(|l| LayerRecord::of(player, l)).collect(),
            parameters,
            events: player.events().iter().map(|e| EventRecord::of(player, e)).collect(),
            explain: ExplainRecord::capture(player),
        }
    }

    /// The value of a parameter by name.
    pub fn parameter(&self, name: &str) -> Option<f32> {
        self.parameters.iter().find(|p| p.name == name).map(|p| p.value)
    }
}

/// One condition's check, named.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConditionExplainRecord {
    /// The parameter (empty for a parameterless True/False).
    pub parameter: String,
    /// The operator (`Greater`, `Triggered`, ...).
    pub op: String,
    /// The condition's value.
    pub value: f32,
    /// The parameter's value when checked (bools and triggers 0 or 1).
    pub actual: f32,
    /// Whether it held.
    pub passed: bool,
}

/// A candidate transition's check, named.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateExplainRecord {
    /// `From -> To`.
    pub transition: String,
    /// Its place in the graph (`Layers[0].Machine.Transitions[2]`).
    pub path: String,
    /// `source` or `target` (the side of a running mix it was checked for).
    pub side: String,
    /// See [`crate::graph::explain::Outcome`]: `started`, `conditions failed`, ...
    pub outcome: String,
    /// For a shadowed candidate, the transition that started instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shadowed_by: Option<String>,
    /// `[ExitTime, the side's normalised time]` when it has an exit time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_time: Option<[f32; 2]>,
    /// Each condition, in order.
    pub conditions: Vec<ConditionExplainRecord>,
}

/// A layer's choice, named.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerExplainRecord {
    /// What was checked (the interruption decision).
    pub checked: String,
    /// The travel's state, when one was applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub travel: Option<String>,
    /// The transition that started (`travel` for a travel's mix).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    /// Every candidate in evaluation order.
    pub candidates: Vec<CandidateExplainRecord>,
}

/// A trigger a transition used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TriggerUseRecord {
    /// The trigger.
    pub trigger: String,
    /// The transition's layer.
    pub layer: u8,
    /// The transition that consumed it (`From -> To`).
    pub transition: String,
}

/// Explain mode's record of one frame, named (see [`crate::graph::explain`]).
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ExplainRecord {
    /// Per layer.
    pub layers: Vec<LayerExplainRecord>,
    /// Triggers consumed, by which transition.
    pub consumed: Vec<TriggerUseRecord>,
    /// Triggers that were set but used by nothing, cleared at the end of the frame.
    pub cleared: Vec<String>,
    /// Records that did not fit explain mode's storage (0 unless the graph is unusual).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl ExplainRecord {
    /// The player's last explanation, named (`None` while explain mode is off).
    pub fn capture(player: &AnimationGraphPlayer) -> Option<ExplainRecord> {
        use crate::graph::explain::{CandidateSide, Outcome};
        let e = player.explanation()?;
        let name = |p: ParamId| player.parameter_name(p).unwrap_or("").to_string();
        let layers = e
            .layers()
            .iter()
            .map(|layer| {
                let started = layer
                    .started
                    .map(|t| t.map_or_else(|| "travel".to_string(), |t| player.transition_label(t)));
                let winner = e
                    .candidates(layer)
                    .iter()
                    .find(|c| c.outcome.fired())
                    .map(|c| player.transition_label(c.transition));
                let candidates = e
                    .candidates(layer)
                    .iter()
                    .map(|c| {
                        let defs: Vec<_> = player.transition_conditions(c.transition).collect();
                        let conditions = e
                            .conditions(c)
                            .iter()
                            .map(|k| {
                                let (param, op, value) = defs.get(k.index as usize).copied().unwrap_or((
                                    None,
                                    Default::default(),
                                    0.0,
                                ));
                                ConditionExplainRecord {
                                    parameter: param.map(name).unwrap_or_default(),
                                    op: op.as_str().to_string(),
                                    value,
                                    actual: k.actual,
                                    passed: k.passed,
                                }
                            })
                            .collect();
                        CandidateExplainRecord {
                            transition: player.transition_label(c.transition),
                            path: player.transition_model_path(c.transition).to_string(),
                            side: match c.side {
                                CandidateSide::Source => "source".into(),
                                CandidateSide::Target => "target".into(),
                            },
                            outcome: c.outcome.as_str().to_string(),
                            shadowed_by: (c.outcome == Outcome::Shadowed).then(|| winner.clone()).flatten(),
                            exit_time: c.exit_time.map(|(needed, had)| [needed, had]),
                            conditions,
                        }
                    })
                    .collect();
                LayerExplainRecord {
                    checked: layer.checked.as_str().to_string(),
                    travel: layer.travel.map(|s| player.state_path(s).to_string()),
                    started,
                    candidates,
                }
            })
            .collect();
        Some(ExplainRecord {
            layers,
            consumed: e
                .consumed()
                .iter()
                .map(|u| TriggerUseRecord {
                    trigger: name(u.trigger),
                    layer: u.layer,
                    transition: player.transition_label(u.transition),
                })
                .collect(),
            cleared: e.cleared().iter().map(|&p| name(p)).collect(),
            dropped: e.dropped(),
        })
    }

    /// The record of the candidate at a transition's model path on a layer, if it was checked.
    pub fn candidate(&self, layer: usize, path: &str) -> Option<&CandidateExplainRecord> {
        self.layers.get(layer)?.candidates.iter().rev().find(|c| c.path == path)
    }
}

/// One clip sample with its clip named: what `simulate` prints, recordings keep and the link
/// streams, so another copy of the skeleton can be posed from it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SampleRecord {
    /// Clip name.
    pub clip: String,
    /// Seconds.
    pub time: f32,
    /// Seconds last frame.
    pub prev_time: f32,
    /// Weight within the layer.
    pub weight: f32,
    /// Layer index.
    pub layer: u8,
    /// Wrapped this frame.
    pub looped: bool,
}

impl SampleRecord {
    /// `sample` with its clip resolved to a name.
    pub fn of(sample: &ClipSample, names: &dyn BackendNames) -> SampleRecord {
        SampleRecord {
            clip: names.clip_name(sample.clip),
            time: sample.time,
            prev_time: sample.prev_time,
            weight: sample.weight,
            layer: sample.layer,
            looped: sample.looped,
        }
    }
}

/// A layer's blend settings as the backend got them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerInfoRecord {
    /// Additive (else Replace).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub additive: bool,
    /// Effective weight.
    pub weight: f32,
    /// The backend's mask index (meaningful for the skeleton it was recorded on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask: Option<u32>,
    /// Event threshold.
    pub event_threshold: f32,
    /// An inertial blend: `[started, elapsed, duration]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inertial: Option<(bool, f32, f32)>,
}

impl From<&LayerInfo> for LayerInfoRecord {
    fn from(l: &LayerInfo) -> Self {
        LayerInfoRecord {
            additive: l.blend == ClipBlend::Additive,
            weight: l.weight,
            mask: l.mask.map(|m| m.0),
            event_threshold: l.event_threshold,
            inertial: l.inertial.map(|i| (i.started, i.elapsed, i.duration)),
        }
    }
}

impl From<&LayerInfoRecord> for LayerInfo {
    fn from(l: &LayerInfoRecord) -> Self {
        let blend = if l.additive { ClipBlend::Additive } else { ClipBlend::Replace };
        let inertial = l.inertial.map(|(started, elapsed, duration)| crate::core::InertialBlend {
            started,
            elapsed,
            duration,
        });
        LayerInfo {
            blend,
            weight: l.weight,
            mask: l.mask.map(MaskId),
            event_threshold: l.event_threshold,
            inertial,
        }
    }
}
