//! Parameter scripts: drive a graph without a game (`animgraph simulate`, golden tests, renders).
//!
//! A script is JSON:
//!
//! ```json
//! { "fps": 60, "frames": 180,
//!   "clips": { "idle": { "length": 2.0, "loop": true } },
//!   "steps": [ { "frame": 0, "set": { "speed": 0.0, "grounded": true } },
//!              { "frame": 60, "fire": "jump" },
//!              { "frame": 90, "travel": { "layer": 0, "state": "Hurt" } },
//!              { "frame": 120, "layer_weight": { "layer": 1, "weight": 0.5 } } ] }
//! ```
//!
//! Steps apply before their frame's advance (frame 0 is the first advance); a step may carry
//! several actions. `clips` describes the clips of a [`RecordingBackend`] when no skeleton is
//! given. [`Simulation`] runs a script and yields one [`FrameRecord`] per frame, the shape
//! `simulate` prints as JSON Lines.

mod backend;
mod simulation;

use std::collections::BTreeMap;

use serde_json::Value as Json;

use crate::core::ClipBlend;
pub use crate::frame::{EventRecord, LayerRecord};

/// A script problem, located at a step when it belongs to one.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}{message}", step.map(|s| format!("step {s}: ")).unwrap_or_default())]
pub struct ScriptError {
    /// Index into `steps`, when the problem is in a step.
    pub step: Option<usize>,
    /// What is wrong and how to fix it.
    pub message: String,
}

fn err(step: Option<usize>, message: impl Into<String>) -> ScriptError {
    ScriptError { step, message: message.into() }
}

/// A clip of a recording backend.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipSpec {
    /// Seconds.
    pub length: f32,
    /// Loops by default.
    pub looping: bool,
    /// Sync markers: `(name, seconds)`, in time order.
    pub markers: Vec<(String, f32)>,
}

impl ClipSpec {
    /// A clip of this length, without markers.
    pub fn new(length: f32, looping: bool) -> Self {
        ClipSpec { length, looping, markers: Vec::new() }
    }
}

/// A value a script sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScriptValue {
    /// `true` / `false`.
    Bool(bool),
    /// A JSON number.
    Number(f64),
}

/// One thing a step does.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Set parameters (`true` on a trigger fires it).
    Set(Vec<(String, ScriptValue)>),
    /// Fire a trigger.
    Fire(String),
    /// `travel(layer, state)`.
    Travel {
        /// Layer index.
        layer: usize,
        /// State name or `Outer/Inner` path.
        state: String,
    },
    /// `set_layer_weight(layer, weight)`.
    LayerWeight {
        /// Layer index.
        layer: usize,
        /// Weight.
        weight: f32,
    },
    /// A code-track call.
    Track(TrackStep),
    /// Choose the skins shown (`{"skins": ["gold"]}`; `[]` is the default skin alone).
    Skins(Vec<String>),
}

/// A code-track step: `{"track": {"index": 0, "clip": "wave", "loop": false, "mix": 0.2}}`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TrackStep {
    /// The track.
    pub index: usize,
    /// The clip; `None` (`null` or `""`) mixes the track out.
    pub clip: Option<String>,
    /// Override the clip's looping.
    pub looping: Option<bool>,
    /// Crossfade seconds (else the default).
    pub mix: Option<f32>,
    /// Queue instead of playing now.
    pub queue: bool,
    /// Queue delay in seconds (see `tracks`).
    pub delay: f32,
    /// Track weight.
    pub alpha: Option<f32>,
    /// `"Replace"` or `"Additive"`.
    pub blend: Option<ClipBlend>,
    /// Bone names (children included).
    pub mask: Option<Vec<String>>,
    /// Playback rate.
    pub speed: Option<f32>,
}

/// Actions applied before one frame's advance.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The frame (0 = the first advance).
    pub frame: u32,
    /// What to do, in order.
    pub actions: Vec<Action>,
}

/// A parsed script.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// Frames per second (the delta is `1 / fps`).
    pub fps: f32,
    /// How many frames to run.
    pub frames: u32,
    /// Clips of the recording backend.
    pub clips: BTreeMap<String, ClipSpec>,
    /// Steps, in frame order.
    pub steps: Vec<Step>,
}

/// Most frames a script may run (10 hours at 60 fps); more is almost certainly a mistake.
pub const MAX_FRAMES: u32 = 2_160_000;

/// The largest parameter script read from a file: 16 MiB.
pub const MAX_SCRIPT_BYTES: u64 = 16 << 20;

impl Script {
    /// Parses a script, checking its shape (unknown keys, wrong types, frames out of order).
    /// Names are checked against a graph by [`Simulation::new`].
    pub fn parse(text: &str) -> Result<Script, ScriptError> {
        crate::json::check_f32_range(text).map_err(|e| err(None, e.to_string()))?;
        let root: Json = serde_json::from_str(text).map_err(|e| err(None, format!("malformed JSON: {e}")))?;
        let object = root
            .as_object()
            .ok_or_else(|| err(None, "a script is a JSON object with fps, frames, clips and steps"))?;
        for key in object.keys() {
            if !["fps", "frames", "clips", "steps"].contains(&key.as_str()) {
                return Err(err(
                    None,
                    format!("unknown key \"{key}\"; a script has fps, frames, clips and steps"),
                ));
            }
        }
        let fps = match object.get("fps") {
            None => 60.0,
            Some(v) => {
                v.as_f64().filter(|f| f.is_finite() && *f > 0.0 && *f <= 10_000.0).ok_or_else(|| {
                    err(None, format!("\"fps\" must be a number above 0 (at most 10000), not {v}"))
                })? as f32
            }
        };
        let frames = match object.get("frames") {
            None => return Err(err(None, "\"frames\" is missing: say how many frames to run")),
            Some(v) => v.as_u64().filter(|f| *f <= MAX_FRAMES as u64).ok_or_else(|| {
                err(None, format!("\"frames\" must be a whole number from 0 to {MAX_FRAMES}, not {v}"))
            })? as u32,
        };
        let mut clips = BTreeMap::new();
        if let Some(v) = object.get("clips") {
            let map = v
                .as_object()
                .ok_or_else(|| err(None, "\"clips\" must be an object of name -> {length, loop}"))?;
            for (name, spec) in map {
                let spec_object = spec.as_object().ok_or_else(|| {
                    err(
                        None,
                        format!("clip \"{name}\" must be an object {{\"length\": seconds, \"loop\": bool}}"),
                    )
                })?;
                let length = spec_object
                    .get("length")
                    .and_then(Json::as_f64)
                    .filter(|l| l.is_finite() && *l > 0.0 && *l < 1e9)
                    .ok_or_else(|| {
                        err(None, format!("clip \"{name}\" needs a \"length\" above 0 seconds"))
                    })?;
                let looping = match spec_object.get("loop") {
                    None => true,
                    Some(Json::Bool(b)) => *b,
                    Some(other) => {
                        return Err(err(
                            None,
                            format!("clip \"{name}\": \"loop\" must be true or false, not {other}"),
                        ));
                    }
                };
                for key in spec_object.keys() {
                    if !["length", "loop", "markers"].contains(&key.as_str()) {
                        return Err(err(
                            None,
                            format!(
                                "clip \"{name}\": unknown key \"{key}\"; a clip has length, loop and markers"
                            ),
                        ));
                    }
                }
                let markers = match spec_object.get("markers") {
                    None => Vec::new(),
                    Some(v) => crate::markers::parse_marker_list(v, length as f32)
                        .map_err(|e| err(None, format!("clip \"{name}\": markers{e}")))?,
                };
                clips.insert(name.clone(), ClipSpec { length: length as f32, looping, markers });
            }
        }
        let mut steps = Vec::new();
        if let Some(v) = object.get("steps") {
            let list = v.as_array().ok_or_else(|| err(None, "\"steps\" must be an array"))?;
            let mut last_frame = 0;
            for (index, step) in list.iter().enumerate() {
                let step = parse_step(index, step)?;
                if step.frame < last_frame {
                    return Err(err(
                        Some(index),
                        format!("frame {} comes after frame {last_frame}; order steps by frame", step.frame),
                    ));
                }
                if step.frame >= frames {
                    return Err(err(
                        Some(index),
                        format!("frame {} is past the script's {frames} frames (0..{})", step.frame, frames),
                    ));
                }
                last_frame = step.frame;
                steps.push(step);
            }
        }
        Ok(Script { fps, frames, clips, steps })
    }
}

fn parse_step(index: usize, step: &Json) -> Result<Step, ScriptError> {
    let e = |m: String| err(Some(index), m);
    let object =
        step.as_object().ok_or_else(|| e("a step is an object with a \"frame\" and actions".into()))?;
    let frame = object
        .get("frame")
        .and_then(Json::as_u64)
        .filter(|f| *f <= MAX_FRAMES as u64)
        .ok_or_else(|| e("\"frame\" is missing or not a whole number".into()))? as u32;
    let mut actions = Vec::new();
    for (key, value) in object {
        match key.as_str() {
            "frame" => {}
            "set" => {
                let map = value
                    .as_object()
                    .ok_or_else(|| e("\"set\" must be an object of parameter -> value".into()))?;
                let mut sets = Vec::new();
                for (name, v) in map {
                    let value = match v {
                        Json::Bool(b) => ScriptValue::Bool(*b),
                        Json::Number(n) => ScriptValue::Number(n.as_f64().unwrap_or(f64::NAN)),
                        other => {
                            return Err(e(format!(
                                "parameter \"{name}\": {other} is not a bool or a number"
                            )));
                        }
                    };
                    sets.push((name.clone(), value));
                }
                actions.push(Action::Set(sets));
            }
            "fire" => {
                let name = value.as_str().ok_or_else(|| e("\"fire\" must name a trigger".into()))?;
                actions.push(Action::Fire(name.to_string()));
            }
            "travel" => {
                let layer = value.get("layer").and_then(Json::as_u64).unwrap_or(0) as usize;
                let state = value
                    .get("state")
                    .and_then(Json::as_str)
                    .ok_or_else(|| e("\"travel\" needs {\"layer\": index, \"state\": name}".into()))?;
                actions.push(Action::Travel { layer, state: state.to_string() });
            }
            "layer_weight" => {
                let layer =
                    value.get("layer").and_then(Json::as_u64).ok_or_else(|| {
                        e("\"layer_weight\" needs {\"layer\": index, \"weight\": 0..1}".into())
                    })? as usize;
                let weight = value
                    .get("weight")
                    .and_then(Json::as_f64)
                    .filter(|w| w.is_finite())
                    .ok_or_else(|| e("\"layer_weight\" needs a finite \"weight\"".into()))?;
                actions.push(Action::LayerWeight { layer, weight: weight as f32 });
            }
            "track" => actions.push(Action::Track(parse_track(value).map_err(e)?)),
            "skins" => {
                let names = value
                    .as_array()
                    .and_then(|list| {
                        list.iter().map(|n| n.as_str().map(str::to_string)).collect::<Option<Vec<_>>>()
                    })
                    .ok_or_else(|| e("\"skins\" must be a list of skin names, e.g. [\"gold\"]".into()))?;
                actions.push(Action::Skins(names));
            }
            other => {
                return Err(e(format!(
                    "unknown action \"{other}\"; a step may have set, fire, travel, layer_weight, track and skins"
                )));
            }
        }
    }
    Ok(Step { frame, actions })
}

fn parse_track(value: &Json) -> Result<TrackStep, String> {
    let object =
        value.as_object().ok_or("\"track\" must be an object like {\"index\": 0, \"clip\": \"wave\"}")?;
    let mut step = TrackStep::default();
    let number = |key: &str, v: &Json| -> Result<f32, String> {
        v.as_f64()
            .filter(|f| f.is_finite())
            .map(|f| f as f32)
            .ok_or_else(|| format!("track \"{key}\" must be a finite number"))
    };
    for (key, v) in object {
        match key.as_str() {
            "index" => {
                step.index =
                    v.as_u64().filter(|i| *i < 64).ok_or("track \"index\" must be a whole number below 64")?
                        as usize
            }
            "clip" => {
                step.clip = match v {
                    Json::Null => None,
                    Json::String(s) if s.is_empty() => None,
                    Json::String(s) => Some(s.clone()),
                    _ => return Err("track \"clip\" must be a clip name, or null to mix out".into()),
                }
            }
            "loop" => step.looping = Some(v.as_bool().ok_or("track \"loop\" must be true or false")?),
            "queue" => step.queue = v.as_bool().ok_or("track \"queue\" must be true or false")?,
            "mix" => {
                let mix = number(key, v)?;
                if mix < 0.0 {
                    return Err("track \"mix\" must be 0 or more seconds".into());
                }
                step.mix = Some(mix);
            }
            "delay" => step.delay = number(key, v)?,
            "alpha" => step.alpha = Some(number(key, v)?),
            "speed" => step.speed = Some(number(key, v)?),
            "blend" => {
                step.blend = Some(match v.as_str() {
                    Some("Replace") => ClipBlend::Replace,
                    Some("Additive") => ClipBlend::Additive,
                    _ => return Err("track \"blend\" must be \"Replace\" or \"Additive\"".into()),
                })
            }
            "mask" => {
                let bones = v.as_array().ok_or("track \"mask\" must be an array of bone names")?;
                let names: Option<Vec<String>> =
                    bones.iter().map(|b| b.as_str().map(str::to_string)).collect();
                step.mask = Some(names.ok_or("track \"mask\" must hold bone names")?);
            }
            other => {
                return Err(format!(
                    "unknown track key \"{other}\"; use index, clip, loop, queue, mix, delay, alpha, speed, blend, mask"
                ));
            }
        }
    }
    Ok(step)
}

pub use crate::core::BackendNames;
pub use backend::RecordingBackend;
pub use simulation::*;
