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

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value as Json;

use crate::core::{BoneMask, ClipBlend, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend, SampleBuffer};
pub use crate::frame::{EventRecord, LayerRecord};
use crate::graph::{AnimationGraphPlayer, BindError, BoundGraph, ParamId, ParameterType, ValidGraph};
use crate::tracks::{AnimationTracks, TrackClip};

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

impl Script {
    /// Parses a script, checking its shape (unknown keys, wrong types, frames out of order).
    /// Names are checked against a graph by [`Simulation::new`].
    pub fn parse(text: &str) -> Result<Script, ScriptError> {
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
                clips.insert(name.clone(), ClipSpec { length: length as f32, looping });
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
            other => {
                return Err(e(format!(
                    "unknown action \"{other}\"; a step may have set, fire, travel, layer_weight and track"
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

/// A backend that poses nothing: clips come from a script's `clips`, masks are recorded by their
/// bone names, and `apply` keeps the last frame's samples and layers.
#[derive(Clone, Debug, Default)]
pub struct RecordingBackend {
    names: Vec<String>,
    specs: Vec<ClipSpec>,
    /// Masks resolved so far, as their bone names.
    pub masks: Vec<BoneMask>,
    /// The samples of the last `apply`.
    pub last_samples: Vec<ClipSample>,
    /// The layers of the last `apply`.
    pub last_layers: Vec<LayerInfo>,
}

impl RecordingBackend {
    /// A backend with these clips.
    pub fn new(clips: &BTreeMap<String, ClipSpec>) -> Self {
        RecordingBackend {
            names: clips.keys().cloned().collect(),
            specs: clips.values().cloned().collect(),
            ..Default::default()
        }
    }

    /// A backend with clips given as `(name, length in seconds, loops)`.
    pub fn with_clips(clips: &[(&str, f32, bool)]) -> Self {
        let map: BTreeMap<String, ClipSpec> = clips
            .iter()
            .map(|(n, length, looping)| (n.to_string(), ClipSpec { length: *length, looping: *looping }))
            .collect();
        RecordingBackend::new(&map)
    }

    /// A clip's name.
    pub fn clip_name(&self, clip: ClipId) -> &str {
        self.names.get(clip.0 as usize).map_or("?", String::as_str)
    }
}

impl BackendNames for RecordingBackend {
    fn clip_name(&self, clip: ClipId) -> String {
        RecordingBackend::clip_name(self, clip).to_string()
    }

    fn mask_bones(&self, mask: MaskId) -> Vec<String> {
        self.masks.get(mask.0 as usize).map(|m| m.bones.clone()).unwrap_or_default()
    }
}

impl PoseBackend for RecordingBackend {
    fn resolve_clip(&mut self, name: &str) -> Option<ClipId> {
        self.names.iter().position(|n| n == name).map(|i| ClipId(i as u32))
    }

    fn resolve_mask(&mut self, mask: &BoneMask) -> Option<MaskId> {
        self.masks.push(mask.clone());
        Some(MaskId(self.masks.len() as u32 - 1))
    }

    fn clip_length(&self, clip: ClipId) -> f32 {
        self.specs.get(clip.0 as usize).map_or(0.0, |s| s.length)
    }

    fn clip_loops(&self, clip: ClipId) -> bool {
        self.specs.get(clip.0 as usize).is_some_and(|s| s.looping)
    }

    fn apply(&mut self, samples: &[ClipSample], layers: &[LayerInfo]) {
        self.last_samples.clear();
        self.last_samples.extend_from_slice(samples);
        self.last_layers.clear();
        self.last_layers.extend_from_slice(layers);
    }
}

/// One code track in a [`FrameRecord`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrackRecord {
    /// Track index.
    pub track: usize,
    /// The layer it writes.
    pub layer: usize,
    /// The current clip.
    pub clip: Option<String>,
    /// Seconds the current clip has played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<f32>,
    /// Clips waiting.
    pub queued: usize,
}

/// One sample in a [`FrameRecord`].
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

/// One frame of a simulation, as `simulate` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameRecord {
    /// Frame index.
    pub frame: u32,
    /// `frame / fps`.
    pub time: f32,
    /// Per layer.
    pub layers: Vec<LayerRecord>,
    /// This frame's samples.
    pub samples: Vec<SampleRecord>,
    /// This frame's events (graph signals, then track events).
    pub events: Vec<EventRecord>,
    /// Code tracks, when the script uses them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<TrackRecord>,
}

/// A resolved action (ids instead of names).
#[derive(Clone, Debug)]
enum Resolved {
    Bool(ParamId, bool),
    Int(ParamId, i32),
    Float(ParamId, f32),
    Fire(ParamId),
    Travel(usize, String),
    LayerWeight(usize, f32),
    Track(usize, ResolvedTrack),
}

#[derive(Clone, Debug)]
struct ResolvedTrack {
    clip: Option<TrackClip>,
    queue: bool,
    delay: f32,
    mix: Option<f32>,
    alpha: Option<f32>,
    blend: Option<ClipBlend>,
    mask: Option<Option<MaskId>>,
}

/// A script bound to a graph, ready to run frame by frame.
pub struct Simulation<B: PoseBackend> {
    /// The player.
    pub player: AnimationGraphPlayer,
    /// The backend (the recording one, or a skeleton).
    pub backend: B,
    /// Code tracks above the graph (as many as the script's highest track index + 1).
    pub tracks: AnimationTracks,
    buffer: SampleBuffer,
    steps: Vec<(u32, usize, Resolved)>,
    next_step: usize,
    frame: u32,
    frames: u32,
    fps: f32,
}

/// Why a simulation could not start.
#[derive(Debug, thiserror::Error)]
pub enum SimulationError {
    /// The graph did not bind.
    #[error(transparent)]
    Bind(#[from] BindError),
    /// The script does not fit the graph.
    #[error(transparent)]
    Script(#[from] ScriptError),
}

impl Simulation<RecordingBackend> {
    /// Binds `graph` to a recording backend made from the script's clips.
    pub fn recording(graph: &ValidGraph, script: &Script) -> Result<Self, SimulationError> {
        Simulation::new(graph, script, RecordingBackend::new(&script.clips))
    }
}

impl<B: PoseBackend> Simulation<B> {
    /// Binds `graph` to `backend` and resolves every step's names against it.
    pub fn new(graph: &ValidGraph, script: &Script, mut backend: B) -> Result<Self, SimulationError> {
        let bound = std::sync::Arc::new(BoundGraph::bind(graph, &mut backend)?);
        let player = AnimationGraphPlayer::new(bound);
        let mut steps = Vec::new();
        let mut track_count = 0;
        for (index, step) in script.steps.iter().enumerate() {
            for action in &step.actions {
                if let Action::Track(t) = action {
                    track_count = track_count.max(t.index + 1);
                }
                for resolved in resolve(&player, &mut backend, index, action)? {
                    steps.push((step.frame, index, resolved));
                }
            }
        }
        let tracks = AnimationTracks::new(track_count, player.layer_count());
        let buffer = SampleBuffer::with_capacity(
            player.sample_capacity() + tracks.sample_capacity(),
            player.layer_count() + tracks.len(),
        );
        Ok(Simulation {
            player,
            backend,
            tracks,
            buffer,
            steps,
            next_step: 0,
            frame: 0,
            frames: script.frames,
            fps: script.fps,
        })
    }

    /// Whether frames remain.
    pub fn done(&self) -> bool {
        self.frame >= self.frames
    }

    /// Runs the script and calls `frame_done(frame, self)` after each frame listed in `frames`;
    /// stops after the last one. Returns how many were visited.
    pub fn run_frames(
        &mut self,
        frames: &[u32],
        mut frame_done: impl FnMut(u32, &Self),
    ) -> Result<usize, ScriptError> {
        let last = frames.iter().copied().max();
        let mut visited = 0;
        while !self.done() && last.is_some_and(|l| self.frame <= l) {
            let frame = self.frame;
            self.step()?;
            if frames.contains(&frame) {
                frame_done(frame, self);
                visited += 1;
            }
        }
        Ok(visited)
    }

    /// The buffer of the last frame.
    pub fn buffer(&self) -> &SampleBuffer {
        &self.buffer
    }

    /// Runs the next frame: applies its steps, advances, applies the samples to the backend.
    /// A step that the player refuses at run time (a travel to a layer that does not exist)
    /// is an error naming the step.
    pub fn step(&mut self) -> Result<(), ScriptError> {
        while let Some((frame, index, action)) = self.steps.get(self.next_step) {
            if *frame != self.frame {
                break;
            }
            let index = *index;
            let result = match action {
                Resolved::Bool(p, v) => self.player.set_bool(*p, *v).map_err(|e| e.to_string()),
                Resolved::Int(p, v) => self.player.set_int(*p, *v).map_err(|e| e.to_string()),
                Resolved::Float(p, v) => self.player.set_float(*p, *v).map_err(|e| e.to_string()),
                Resolved::Fire(p) => self.player.fire(*p).map_err(|e| e.to_string()),
                Resolved::Travel(layer, state) => {
                    self.player.travel(*layer, state).map_err(|e| e.to_string())
                }
                Resolved::LayerWeight(layer, w) => {
                    self.player.set_layer_weight(*layer, *w).map_err(|e| e.to_string())
                }
                Resolved::Track(track, t) => {
                    apply_track(&mut self.tracks, *track, t).map_err(|e| e.to_string())
                }
            };
            result.map_err(|m| err(Some(index), m))?;
            self.next_step += 1;
        }
        self.player.advance(1.0 / self.fps, &mut self.buffer);
        if !self.tracks.is_empty() {
            self.tracks.advance(1.0 / self.fps, &mut self.buffer);
        }
        self.backend.apply(self.buffer.samples(), self.buffer.layers());
        self.frame += 1;
        Ok(())
    }
}

impl<B: PoseBackend + BackendNames> Simulation<B> {
    /// The last frame as a record, named through the backend.
    pub fn record(&self) -> FrameRecord {
        let player = &self.player;
        let names = &self.backend;
        let frame = self.frame.saturating_sub(1);
        let layers = (0..player.layer_count())
            .map(|l| LayerRecord {
                mask: self.buffer.layers().get(l).and_then(|info| info.mask).map(|m| names.mask_bones(m)),
                ..LayerRecord::of(player, l)
            })
            .collect();
        let samples = self.buffer.samples().iter().map(|s| SampleRecord::of(s, names)).collect();
        let mut events: Vec<EventRecord> =
            player.events().iter().map(|e| EventRecord::of(player, e)).collect();
        let first = self.tracks.first_layer();
        events.extend(self.tracks.events().iter().map(|e| EventRecord {
            kind: e.kind.name().to_string(),
            layer: (first + e.track as usize) as u8,
            state: None,
            from: None,
            to: None,
            track: Some(e.track as usize),
            clip: Some(names.clip_name(e.clip)),
        }));
        let tracks = (0..self.tracks.len())
            .map(|t| TrackRecord {
                track: t,
                layer: first + t,
                clip: self.tracks.current(t).map(|c| names.clip_name(c)),
                time: self.tracks.current_time(t),
                queued: self.tracks.queued(t),
            })
            .collect();
        FrameRecord { frame, time: frame as f32 / self.fps, layers, samples, events, tracks }
    }

    /// Runs the whole script, returning every frame's record.
    pub fn run_to_end(&mut self) -> Result<Vec<FrameRecord>, ScriptError> {
        let mut records = Vec::with_capacity(self.frames as usize);
        while !self.done() {
            self.step()?;
            records.push(self.record());
        }
        Ok(records)
    }
}

fn apply_track(
    tracks: &mut AnimationTracks,
    track: usize,
    t: &ResolvedTrack,
) -> Result<(), crate::tracks::TrackError> {
    if let Some(alpha) = t.alpha {
        tracks.set_alpha(track, alpha)?;
    }
    if let Some(blend) = t.blend {
        tracks.set_blend(track, blend)?;
    }
    if let Some(mask) = t.mask {
        tracks.set_mask(track, mask)?;
    }
    let mix = t.mix.unwrap_or_else(|| tracks.mix_for(tracks.current(track), t.clip.map(|c| c.clip)));
    match (t.clip, t.queue) {
        (Some(clip), false) => tracks.set_clip(track, clip),
        (Some(clip), true) => tracks.queue_clip(track, clip, t.delay),
        (None, false) => tracks.set_empty(track, mix),
        (None, true) => tracks.queue_empty(track, t.delay, mix),
    }
}

fn resolve(
    player: &AnimationGraphPlayer,
    backend: &mut dyn PoseBackend,
    index: usize,
    action: &Action,
) -> Result<Vec<Resolved>, ScriptError> {
    let e = |m: String| err(Some(index), m);
    let find = |name: &str| {
        player.find_parameter(name).ok_or_else(|| e(format!("no parameter \"{name}\" in the graph")))
    };
    Ok(match action {
        Action::Set(values) => {
            let mut out = Vec::new();
            for (name, value) in values {
                let id = find(name)?;
                let kind = player.parameter_type(id).expect("found");
                out.push(match (kind, *value) {
                    (ParameterType::Bool, ScriptValue::Bool(b)) => Resolved::Bool(id, b),
                    (ParameterType::Trigger, ScriptValue::Bool(true)) => Resolved::Fire(id),
                    (ParameterType::Float, ScriptValue::Number(n)) if (n as f32).is_finite() => {
                        Resolved::Float(id, n as f32)
                    }
                    (ParameterType::Int, ScriptValue::Number(n))
                        if n.fract() == 0.0 && n >= i32::MIN as f64 && n <= i32::MAX as f64 =>
                    {
                        Resolved::Int(id, n as i32)
                    }
                    (kind, value) => {
                        let shown = match value {
                            ScriptValue::Bool(b) => b.to_string(),
                            ScriptValue::Number(n) => n.to_string(),
                        };
                        let wanted = match kind {
                            ParameterType::Bool => "true or false",
                            ParameterType::Int => "a whole number",
                            ParameterType::Float => "a finite number",
                            ParameterType::Trigger => "true (or use \"fire\")",
                        };
                        return Err(e(format!(
                            "parameter \"{name}\" is a {}; {shown} is not {wanted}",
                            kind.as_str()
                        )));
                    }
                });
            }
            out
        }
        Action::Fire(name) => {
            let id = find(name)?;
            if player.parameter_type(id) != Some(ParameterType::Trigger) {
                return Err(e(format!("\"{name}\" is not a trigger; use \"set\" for other parameters")));
            }
            vec![Resolved::Fire(id)]
        }
        Action::Travel { layer, state } => {
            if *layer >= player.layer_count() {
                return Err(e(format!(
                    "layer {layer} does not exist; the graph has {}",
                    player.layer_count()
                )));
            }
            if player.find_state(*layer, state).is_none() {
                return Err(e(format!("layer {layer} has no state \"{state}\"")));
            }
            vec![Resolved::Travel(*layer, state.clone())]
        }
        Action::LayerWeight { layer, weight } => {
            if *layer >= player.layer_count() {
                return Err(e(format!(
                    "layer {layer} does not exist; the graph has {}",
                    player.layer_count()
                )));
            }
            vec![Resolved::LayerWeight(*layer, *weight)]
        }
        Action::Track(t) => {
            let clip = match &t.clip {
                None => None,
                Some(name) => {
                    let id = backend.resolve_clip(name).ok_or_else(|| {
                        e(format!(
                            "track {}: no clip \"{name}\" in the skeleton or the script's clips",
                            t.index
                        ))
                    })?;
                    let mut clip = TrackClip::new(&*backend, id);
                    if let Some(looping) = t.looping {
                        clip.looping = looping;
                    }
                    if let Some(speed) = t.speed {
                        clip.speed = speed;
                    }
                    clip.mix = t.mix;
                    Some(clip)
                }
            };
            let mask = t.mask.as_ref().map(|bones| {
                backend.resolve_mask(&BoneMask { bones: bones.clone(), include_children: true })
            });
            let resolved = ResolvedTrack {
                clip,
                queue: t.queue,
                delay: t.delay,
                mix: t.mix,
                alpha: t.alpha,
                blend: t.blend,
                mask,
            };
            vec![Resolved::Track(t.index, resolved)]
        }
    })
}
