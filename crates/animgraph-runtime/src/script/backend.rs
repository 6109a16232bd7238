//! The recording backend: poses nothing, times clips as a script's `clips` say.

use std::collections::BTreeMap;

use super::ClipSpec;
use crate::core::{BackendNames, BoneMask, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend};

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
            .map(|(n, length, looping)| (n.to_string(), ClipSpec::new(*length, *looping)))
            .collect();
        RecordingBackend::new(&map)
    }

    /// Gives a clip sync markers `(name, seconds)` (before bind). Returns false when there is
    /// no such clip.
    pub fn set_markers(&mut self, clip: &str, markers: &[(&str, f32)]) -> bool {
        let Some(i) = self.names.iter().position(|n| n == clip) else { return false };
        self.specs[i].markers = markers.iter().map(|(n, t)| (n.to_string(), *t)).collect();
        true
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

    fn clip_markers(&self, clip: ClipId) -> Vec<(String, f32)> {
        self.specs.get(clip.0 as usize).map(|s| s.markers.clone()).unwrap_or_default()
    }

    fn apply(&mut self, samples: &[ClipSample], layers: &[LayerInfo]) {
        self.last_samples.clear();
        self.last_samples.extend_from_slice(samples);
        self.last_layers.clear();
        self.last_layers.extend_from_slice(layers);
    }
}

/// A crowd of recording backends: no scratch and no pose, so LOD keeps nothing (a member's
/// `last_samples` are those of its last sampled frame).
impl crate::crowd::CrowdBackend for RecordingBackend {
    type Scratch = ();
    type Keyframe = ();

    fn member(&self) -> Self {
        self.clone()
    }

    fn new_scratch(&self) {}

    fn swap_scratch(&mut self, _: &mut ()) {}

    fn new_keyframe(&self) {}

    fn save_keyframe(&self, _: &mut ()) {}

    fn load_keyframe(&mut self, _: &()) {}

    fn approach(&mut self, _: &(), _: u32) {}
}
