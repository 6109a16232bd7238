//! The pose backend: the one trait between the player and a skeleton.

use super::{BoneMask, ClipId, ClipSample, LayerInfo, MaskId};

/// Turns weighted clip samples into a pose. Implemented by the 2D and 3D skeleton backends and by
/// test recorders; the player knows nothing else about bones.
///
/// The `resolve_*` methods are called at bind only; `apply` is called every frame and must not
/// allocate.
pub trait PoseBackend {
    /// The backend's index for the clip with this name, or `None` when it has no such clip. The
    /// player warns once per missing clip at bind and skips its samples.
    fn resolve_clip(&mut self, name: &str) -> Option<ClipId>;

    /// Turns bone names into the backend's own mask, or `None` when the backend cannot mask (the
    /// layer then affects every bone). Unknown bone names should be warned once and ignored.
    fn resolve_mask(&mut self, mask: &BoneMask) -> Option<MaskId>;

    /// The clip's length in seconds (greater than zero for a clip that plays).
    fn clip_length(&self, clip: ClipId) -> f32;

    /// Whether the clip loops by default (clip states override this with their `Loop` flag).
    fn clip_loops(&self, clip: ClipId) -> bool;

    /// Poses the skeleton from one frame's samples and layer infos.
    ///
    /// The layering contract, which every backend implements exactly:
    ///
    /// 1. **Reset.** Every bone and slot starts from its setup (rest) pose.
    /// 2. **Layer 0 (the base).** Its Replace samples are blended into the pose from setup: each
    ///    value is `setup + sum(weight_i x (value_i - setup))`, so the part of the weight the
    ///    samples leave (`1 - sum`) stays at setup. Layer 0's own `weight` scales that blend.
    /// 3. **Higher layers, in order.** Each layer is computed the same way into its own result,
    ///    for its masked bones only (all bones when `mask` is `None`), with the unfilled part of
    ///    its weight taken from the pose *below* it, not from setup (so a half faded-in code track
    ///    never pulls towards setup). Then:
    ///    - `Replace`: the pose becomes `lerp(below, layer_result, layer.weight)`;
    ///    - `Additive`: the pose becomes `below + (layer_result - setup) x layer.weight`.
    /// 4. **Rotation.** 2D rotations blend along the shortest arc; 3D rotations as normalised
    ///    quaternions with hemisphere correction (slerp for two inputs).
    /// 5. **Discrete values** (2D attachments, draw order, IK bend direction) come from the
    ///    highest-weight sample on the highest layer whose weight is at least 0.5.
    /// 6. **Events.** A sample fires its clip's events when its weight is at least the layer's
    ///    `event_threshold`, for keys in `(prev_time, time]` (or `[time, prev_time)` when playing
    ///    backwards), across the loop when `looped` is set.
    /// 7. **Inertial blends.** For a layer whose info has `inertial` (backends that
    ///    [`prepare_inertial`](Self::prepare_inertial)): on the frame it `started`, the backend
    ///    measures per pose component (over the layer's mask) the offset between the pose it
    ///    output the frame before, moved on by its velocity, and the pose it computed now, and the
    ///    offset's velocity (the pose's minus the target's, the target read at the samples'
    ///    `prev_time`); from then on it adds that offset, decayed by [`inertial::Offset`](super::inertial::Offset)
    ///    over the blend's `duration`, to the layer's result. After `duration` the pose is the
    ///    target's alone.
    fn apply(&mut self, samples: &[ClipSample], layers: &[LayerInfo]);

    /// Called at bind when the graph has inertial transitions, with, per layer, whether it has
    /// any, and the most samples per frame: the backend reserves what inertial blending needs
    /// (the last two output poses, offsets for those layers), so `apply` still allocates
    /// nothing. Backends that cannot inertialize ignore it (their inertial blends cut to the
    /// target).
    fn prepare_inertial(&mut self, layers: &[bool], samples: usize) {
        let _ = (layers, samples);
    }

    /// The clip's sync markers: `(name, seconds)` in time order (2D: the clip's event keys; 3D:
    /// a `NAME.markers.json` sidecar; scripts: a clip spec's `markers`). Called at bind only.
    /// Backends without markers have none.
    fn clip_markers(&self, clip: ClipId) -> Vec<(String, f32)> {
        let _ = clip;
        Vec::new()
    }

    /// Whether the backend has a skin (an outfit: Spine's skins) of this name. Backends without
    /// skins have none.
    fn has_skin(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// Shows these skins from the next `apply` on: later ones win where they share an
    /// attachment, an empty list shows the default skin alone. Names were checked with
    /// [`has_skin`](Self::has_skin); for tools and scripts (a game picks skins through its
    /// backend's own ids, without names).
    fn choose_skins(&mut self, names: &[&str]) {
        let _ = names;
    }
}

/// Names a backend gives its clips and masks, for records and tools.
pub trait BackendNames {
    /// A clip's name.
    fn clip_name(&self, clip: ClipId) -> String;
    /// A mask's bone names.
    fn mask_bones(&self, mask: MaskId) -> Vec<String>;
}
