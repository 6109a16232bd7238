//! The runtime player that runs inside the editor: rebound whenever the document changes
//! (keeping each layer's state, as a game's instances do on a new graph version), driven by the
//! live parameter controls, and read by the canvas to light the active state, fill a running
//! transition's arrow and show normalised time.
//!
//! Clip lengths come from the chosen skeleton when there is one; a clip it lacks (or every clip,
//! without a skeleton) is a looping one-second placeholder, so exit times and mixes play out at a
//! readable pace.

use std::collections::BTreeMap;

use animgraph::graph::{ParamId, ParameterType};
use animgraph::{
    AnimationGraphPlayer, BoneMask, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend, SampleBuffer,
};

use crate::document::Document;

/// Length given to a clip the skeleton does not have (or to every clip without one).
pub const PLACEHOLDER_CLIP_SECONDS: f32 = 1.0;

/// A backend that accepts any clip name and poses nothing: known lengths from the skeleton,
/// placeholders for the rest.
#[derive(Default)]
struct TimingBackend {
    known: BTreeMap<String, f32>,
    clips: Vec<(String, f32)>,
}

impl PoseBackend for TimingBackend {
    fn resolve_clip(&mut self, name: &str) -> Option<ClipId> {
        let index = self.clips.iter().position(|(c, _)| c == name).unwrap_or_else(|| {
            let length =
                self.known.get(name).copied().filter(|l| *l > 0.0).unwrap_or(PLACEHOLDER_CLIP_SECONDS);
            self.clips.push((name.to_string(), length));
            self.clips.len() - 1
        });
        Some(ClipId(index as u32))
    }

    fn resolve_mask(&mut self, _mask: &BoneMask) -> Option<MaskId> {
        Some(MaskId(0))
    }

    fn clip_length(&self, clip: ClipId) -> f32 {
        self.clips.get(clip.0 as usize).map_or(PLACEHOLDER_CLIP_SECONDS, |c| c.1)
    }

    fn clip_loops(&self, _clip: ClipId) -> bool {
        true
    }

    fn apply(&mut self, _samples: &[ClipSample], _layers: &[LayerInfo]) {}
}

/// The live player of one document.
#[derive(Default)]
pub struct Live {
    bound_version: Option<u64>,
    bound_clips: u64,
    player: Option<AnimationGraphPlayer>,
    /// Each parameter's id and type, resolved at bind so a frame looks up no names.
    params: Vec<(String, ParamId, ParameterType)>,
    buffer: SampleBuffer,
    /// Live parameter values by name (bools/ints as numbers); kept across rebinds.
    pub values: BTreeMap<String, f32>,
    /// Why the graph could not be bound, if it could not.
    pub error: Option<String>,
    /// Paused when false.
    pub running: bool,
    /// Clip lengths from the chosen skeleton, and a counter bumped when they change.
    clip_lengths: BTreeMap<String, f32>,
    clips_version: u64,
    restart: bool,
}

/// What the canvas shows of a layer's playback.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Playback {
    /// The playing leaf state's `Outer/Inner` path.
    pub current: Option<String>,
    /// Its normalised time (cumulative over loops).
    pub normalised_time: f32,
    /// A running mix's target path and progress.
    pub target: Option<(String, f32)>,
}

impl Live {
    /// A running live player (bound on the first [`sync`](Self::sync)).
    pub fn new() -> Live {
        Live { running: true, ..Default::default() }
    }

    /// Uses these clip lengths (from a chosen skeleton); rebinds on the next sync.
    pub fn set_clip_lengths(&mut self, lengths: BTreeMap<String, f32>) {
        if lengths != self.clip_lengths {
            self.clip_lengths = lengths;
            self.clips_version += 1;
        }
    }

    /// Rebinds when the document changed since the last bind, keeping live values whose
    /// parameter still exists (new ones start at their default) and each layer's state.
    pub fn sync(&mut self, doc: &Document) {
        if self.bound_version == Some(doc.version) && self.bound_clips == self.clips_version && !self.restart
        {
            return;
        }
        self.bound_version = Some(doc.version);
        self.bound_clips = self.clips_version;
        let mut values = BTreeMap::new();
        for p in &doc.graph.parameters {
            let kept = self.values.get(&p.name).copied().filter(|_| p.kind != ParameterType::Trigger);
            values.insert(p.name.clone(), kept.unwrap_or(p.default));
        }
        self.values = values;
        let mut backend = TimingBackend { known: self.clip_lengths.clone(), clips: Vec::new() };
        let rebound = match (self.player.as_mut(), self.restart) {
            (Some(player), false) => player.rebind(&doc.graph, &mut backend).map(|()| None),
            _ => AnimationGraphPlayer::new(&doc.graph, &mut backend).map(Some),
        };
        self.restart = false;
        match rebound {
            Ok(new) => {
                if let Some(player) = new {
                    self.player = Some(player);
                }
                let player = self.player.as_ref().expect("bound above");
                self.params = doc
                    .graph
                    .parameters
                    .iter()
                    .filter_map(|p| Some((p.name.clone(), player.find_parameter(&p.name)?, p.kind)))
                    .collect();
                self.buffer = player.new_buffer();
                self.error = None;
            }
            Err(e) => {
                self.player = None;
                self.error = Some(e.to_string());
            }
        }
    }

    /// Pushes the live values and advances `delta` seconds (nothing while paused or unbound).
    pub fn step(&mut self, delta: f32) {
        let Some(player) = self.player.as_mut() else { return };
        for (name, id, kind) in &self.params {
            let Some(&v) = self.values.get(name) else { continue };
            // The ids come from the player itself and the types from the graph it was bound
            // from, so these cannot fail.
            let _ = match kind {
                ParameterType::Bool => player.set_bool(*id, v != 0.0),
                ParameterType::Int => player.set_int(*id, v as i32),
                ParameterType::Float => player.set_float(*id, v),
                ParameterType::Trigger => Ok(()),
            };
        }
        if self.running {
            player.advance(delta, &mut self.buffer);
        }
    }

    /// Fires a trigger on the live player.
    pub fn fire(&mut self, name: &str) {
        if let Some(player) = self.player.as_mut() {
            let _ = player.fire_by_name(name);
        }
    }

    /// Restarts playback from the entry states (on the next sync).
    pub fn restart(&mut self) {
        self.restart = true;
    }

    /// The player, once bound.
    pub fn player(&self) -> Option<&AnimationGraphPlayer> {
        self.player.as_ref()
    }

    /// A layer's playback, for the canvas.
    pub fn playback(&self, layer: usize) -> Playback {
        let Some(player) = self.player.as_ref() else { return Playback::default() };
        let current = player.current_state_path(layer).map(str::to_string);
        let target = player
            .transition_target(layer)
            .zip(player.transition_progress(layer))
            .map(|(s, p)| (player.state_path(s).to_string(), p));
        Playback { current, normalised_time: player.normalised_time(layer).unwrap_or(0.0), target }
    }
}

/// Whether the state `name`, shown in the machine reached through `prefix` (`Outer/` or empty),
/// is or contains the playing state at `path`.
pub fn path_shows(path: &str, prefix: &str, name: &str) -> bool {
    path.strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix(name))
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locomotion() -> Document {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/locomotion.mres");
        Document::open(path).expect("bundled graph opens")
    }

    #[test]
    fn path_matching_lights_the_state_and_its_enclosing_sub_machine() {
        assert!(path_shows("Locomotion/Walk", "", "Locomotion"));
        assert!(path_shows("Locomotion/Walk", "Locomotion/", "Walk"));
        assert!(!path_shows("Locomotion/Walker", "Locomotion/", "Walk"));
        assert!(!path_shows("Jump", "", "Jum"));
        assert!(path_shows("Jump", "", "Jump"));
    }

    #[test]
    fn the_live_player_follows_fired_triggers_and_exit_times() {
        let doc = locomotion();
        let mut live = Live::new();
        live.sync(&doc);
        assert_eq!(live.error, None);
        assert_eq!(live.playback(0).current.as_deref(), Some("Move"));
        live.fire("jump");
        live.step(1.0 / 60.0);
        let mixing = live.playback(0);
        assert_eq!(mixing.target.as_ref().map(|(s, _)| s.as_str()), Some("Jump"), "{mixing:?}");
        // Jump's exit time is 0.9 of a one-second placeholder clip: heading back to Move by 1.2 s.
        for _ in 0..72 {
            live.step(1.0 / 60.0);
        }
        let back = live.playback(0);
        let heading_to_move = back.target.as_ref().is_some_and(|(s, _)| s == "Move");
        assert!(
            back.current.as_deref() == Some("Move") && (heading_to_move || back.target.is_none()),
            "{back:?}"
        );
    }

    #[test]
    fn an_edit_keeps_the_playing_state_and_its_clock() {
        let mut doc = locomotion();
        let mut live = Live::new();
        live.sync(&doc);
        live.fire("jump");
        for _ in 0..20 {
            live.step(1.0 / 60.0);
        }
        let before = live.playback(0);
        assert_eq!(before.current.as_deref(), Some("Jump"));
        doc.edit_graph(|g| g.default_mix = 0.3);
        live.sync(&doc);
        let after = live.playback(0);
        assert_eq!(after.current, before.current);
        assert_eq!(after.normalised_time, before.normalised_time);
        live.restart();
        live.sync(&doc);
        assert_eq!(live.playback(0).current.as_deref(), Some("Move"));
    }

    #[test]
    fn skeleton_clip_lengths_set_the_pace() {
        let doc = locomotion();
        let mut live = Live::new();
        live.set_clip_lengths([("jump".to_string(), 2.0)].into_iter().collect());
        live.sync(&doc);
        live.fire("jump");
        for _ in 0..60 {
            live.step(1.0 / 60.0);
        }
        // One second into a two-second jump: half way, still in Jump.
        let p = live.playback(0);
        assert_eq!(p.current.as_deref(), Some("Jump"));
        assert!((p.normalised_time - 0.5).abs() < 0.02, "{p:?}");
    }

    #[test]
    fn live_values_survive_an_edit_and_pausing_freezes_playback() {
        let mut doc = locomotion();
        let mut live = Live::new();
        live.sync(&doc);
        live.values.insert("speed".into(), 3.0);
        doc.edit_graph(|g| {
            g.parameters.push(animgraph::graph::GraphParameter {
                name: "lean".into(),
                kind: ParameterType::Float,
                default: 0.25,
                latch: false,
            })
        });
        live.sync(&doc);
        assert_eq!(live.error, None);
        assert_eq!(live.values.get("speed"), Some(&3.0));
        assert_eq!(live.values.get("lean"), Some(&0.25));
        live.running = false;
        live.fire("jump");
        live.step(0.5);
        assert_eq!(live.playback(0).target, None);
    }
}
