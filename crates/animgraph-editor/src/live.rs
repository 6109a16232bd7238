//! The runtime player that runs inside the editor: it is rebound whenever the document changes,
//! driven by the live parameter controls, and read by the canvas to light the active state and
//! fill a running transition's arrow.
//!
//! Without a skeleton (the preview pane comes with the next issue) every clip the graph names is
//! given a length of one second and loops, so exit times and mixes play out at a readable pace.

use std::collections::BTreeMap;

use animgraph::graph::{ParamId, ParameterType};
use animgraph::{
    AnimationGraphPlayer, BoneMask, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend, SampleBuffer,
};

use crate::document::Document;

/// Length given to every clip while no skeleton is loaded.
pub const PLACEHOLDER_CLIP_SECONDS: f32 = 1.0;

/// A backend that accepts any clip name (one-second looping clips) and poses nothing.
#[derive(Default)]
struct PlaceholderBackend {
    clips: Vec<String>,
}

impl PoseBackend for PlaceholderBackend {
    fn resolve_clip(&mut self, name: &str) -> Option<ClipId> {
        let index = self.clips.iter().position(|c| c == name).unwrap_or_else(|| {
            self.clips.push(name.to_string());
            self.clips.len() - 1
        });
        Some(ClipId(index as u32))
    }

    fn resolve_mask(&mut self, _mask: &BoneMask) -> Option<MaskId> {
        Some(MaskId(0))
    }

    fn clip_length(&self, _clip: ClipId) -> f32 {
        PLACEHOLDER_CLIP_SECONDS
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
}

/// What the canvas shows of a layer's playback.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Playback {
    /// The playing leaf state's `Outer/Inner` path.
    pub current: Option<String>,
    /// A running mix's target path and progress.
    pub target: Option<(String, f32)>,
}

impl Live {
    /// A running live player (bound on the first [`sync`](Self::sync)).
    pub fn new() -> Live {
        Live { running: true, ..Default::default() }
    }

    /// Rebinds when the document changed since the last bind, keeping live values whose
    /// parameter still exists and starting new ones at their default.
    pub fn sync(&mut self, doc: &Document) {
        if self.bound_version == Some(doc.version) {
            return;
        }
        self.bound_version = Some(doc.version);
        let mut values = BTreeMap::new();
        for p in &doc.graph.parameters {
            let kept = self.values.get(&p.name).copied().filter(|_| p.kind != ParameterType::Trigger);
            values.insert(p.name.clone(), kept.unwrap_or(p.default));
        }
        self.values = values;
        let mut backend = PlaceholderBackend::default();
        match AnimationGraphPlayer::new(&doc.graph, &mut backend) {
            Ok(player) => {
                self.params = doc
                    .graph
                    .parameters
                    .iter()
                    .filter_map(|p| Some((p.name.clone(), player.find_parameter(&p.name)?, p.kind)))
                    .collect();
                self.buffer = player.new_buffer();
                self.player = Some(player);
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

    /// Restarts playback from the entry states.
    pub fn restart(&mut self) {
        self.bound_version = None;
    }

    /// A layer's playback, for the canvas.
    pub fn playback(&self, layer: usize) -> Playback {
        let Some(player) = self.player.as_ref() else { return Playback::default() };
        let current = player.current_state_path(layer).map(str::to_string);
        let target = player
            .transition_target(layer)
            .zip(player.transition_progress(layer))
            .map(|(s, p)| (player.state_path(s).to_string(), p));
        Playback { current, target }
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
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/locomotion.mres");
        let doc = Document::open(path).expect("bundled graph opens");
        let mut live = Live::new();
        live.sync(&doc);
        assert_eq!(live.error, None);
        assert_eq!(live.playback(0).current.as_deref(), Some("Move"));
        live.fire("jump");
        live.step(1.0 / 60.0);
        let mixing = live.playback(0);
        assert_eq!(mixing.target.as_ref().map(|(s, _)| s.as_str()), Some("Jump"), "{mixing:?}");
        // Jump's exit time is 0.9 of a one-second placeholder clip: back in Move within 1.2 s.
        for _ in 0..72 {
            live.step(1.0 / 60.0);
        }
        let back = live.playback(0);
        let heading_to_move = back.target.as_ref().is_some_and(|(s, _)| s == "Move");
        assert!(back.current.as_deref() == Some("Move") || heading_to_move, "{back:?}");
    }

    #[test]
    fn live_values_survive_an_edit_and_pausing_freezes_playback() {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/locomotion.mres");
        let mut doc = Document::open(path).expect("bundled graph opens");
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
