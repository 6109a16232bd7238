//! Running a script: [`Simulation`] and the per-frame records `animgraph simulate` prints.

use serde::Serialize;

use super::*;
use crate::core::{BackendNames, BoneMask, ClipBlend, MaskId, PoseBackend, SampleBuffer};
use crate::graph::{AnimationGraphPlayer, BindError, BoundGraph, ParamId, ParameterType, ValidGraph};
use crate::tracks::{AnimationTracks, TrackClip};

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

pub use crate::frame::SampleRecord;

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
    Skins(Vec<String>),
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
                Resolved::Skins(names) => {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    self.backend.choose_skins(&names);
                    Ok(())
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
            window: None,
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
            let mask = t.mask.as_ref().map(|bones| backend.resolve_mask(&BoneMask::new(bones.clone(), true)));
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
        Action::Skins(names) => {
            if let Some(missing) = names.iter().find(|n| !backend.has_skin(n)) {
                return Err(e(format!(
                    "no skin \"{missing}\" in the skeleton (skins come from a .mskel's attachments; the default skin is [])"
                )));
            }
            vec![Resolved::Skins(names.clone())]
        }
    })
}
