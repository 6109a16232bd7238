//! A clip sample: one clip at one time with one weight, on one layer.

/// A backend's index for a clip, returned by [`PoseBackend::resolve_clip`](super::PoseBackend::resolve_clip).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClipId(pub u32);

/// A backend's index for a bone mask, returned by [`PoseBackend::resolve_mask`](super::PoseBackend::resolve_mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MaskId(pub u32);

/// How a layer combines with the layers below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ClipBlend {
    /// Lerp over the pose below by the layer's weight.
    #[default]
    Replace,
    /// Add `(value - setup) x weight` to the pose below.
    Additive,
}

impl ClipBlend {
    /// The name used in `.mres` files.
    pub fn as_str(self) -> &'static str {
        match self {
            ClipBlend::Replace => "Replace",
            ClipBlend::Additive => "Additive",
        }
    }
}

/// One clip to sample: which clip, at what time, with what weight, on which layer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipSample {
    /// The backend's clip.
    pub clip: ClipId,
    /// Time in the clip, in seconds, this frame.
    pub time: f32,
    /// Time in the clip, in seconds, last frame; events fire for keys in `(prev_time, time]`.
    /// Greater than `time` when the clip plays backwards.
    pub prev_time: f32,
    /// Weight within its layer; a layer's Replace weights sum to at most 1.
    pub weight: f32,
    /// The layer this sample belongs to (index into the buffer's layer infos).
    pub layer: u8,
    /// The clip wrapped between `prev_time` and `time` (events fire across the loop).
    pub looped: bool,
}

/// How one layer combines with the layers below it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerInfo {
    /// Replace (lerp over lower layers by weight) or Additive (add `(value - setup) x weight`).
    pub blend: ClipBlend,
    /// The layer's effective weight this frame, in `[0, 1]`.
    pub weight: f32,
    /// The backend's mask for this layer; `None` means every bone.
    pub mask: Option<MaskId>,
    /// Samples whose weight is below this fire no events.
    pub event_threshold: f32,
    /// An inertial transition running on the layer: the backend decays the offset it captured
    /// when the blend started (see [`PoseBackend::apply`](super::PoseBackend::apply), step 7).
    pub inertial: Option<InertialBlend>,
}

/// An inertial blend running on a layer (a transition with `Blend: Inertial`): only the target's
/// clips are sampled, and the backend adds an offset that starts at the difference between the
/// pose the layer had (moving on at its velocity) and the target's, and decays to zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InertialBlend {
    /// True on the frame the blend starts: the backend captures the offset then.
    pub started: bool,
    /// Seconds since it started, this frame included (on the start frame, that frame's delta).
    pub elapsed: f32,
    /// Seconds from its start until the pose is the pure target.
    pub duration: f32,
}

impl Default for LayerInfo {
    fn default() -> Self {
        LayerInfo { blend: ClipBlend::Replace, weight: 1.0, mask: None, event_threshold: 0.5, inertial: None }
    }
}

/// Samples and layer infos for one frame, with capacities fixed when the buffer is made.
///
/// Producers call [`clear`](Self::clear) then push; a push past capacity is dropped and counted
/// in [`dropped`](Self::dropped) rather than growing the buffer (the player sizes its buffer at
/// bind so that this cannot happen for a graph it bound).
///
/// # Performance
/// Pushing never allocates.
#[derive(Debug, Default)]
pub struct SampleBuffer {
    samples: Vec<ClipSample>,
    layers: Vec<LayerInfo>,
    sample_capacity: usize,
    layer_capacity: usize,
    dropped: usize,
}

/// A clone keeps the capacities (a derived clone of a `Vec` would not, and the copy would then
/// allocate when pushed to).
impl Clone for SampleBuffer {
    fn clone(&self) -> Self {
        let mut copy = SampleBuffer::with_capacity(self.sample_capacity, self.layer_capacity);
        copy.samples.extend_from_slice(&self.samples);
        copy.layers.extend_from_slice(&self.layers);
        copy.dropped = self.dropped;
        copy
    }
}

impl SampleBuffer {
    /// A buffer for at most `samples` samples and `layers` layer infos.
    pub fn with_capacity(samples: usize, layers: usize) -> Self {
        SampleBuffer {
            samples: Vec::with_capacity(samples),
            layers: Vec::with_capacity(layers),
            sample_capacity: samples,
            layer_capacity: layers,
            dropped: 0,
        }
    }

    /// Grows the capacities to at least these figures (allocates; call at bind, never per frame).
    pub fn reserve_for(&mut self, samples: usize, layers: usize) {
        if samples > self.sample_capacity {
            self.samples.reserve(samples - self.samples.len());
            self.sample_capacity = samples;
        }
        if layers > self.layer_capacity {
            self.layers.reserve(layers - self.layers.len());
            self.layer_capacity = layers;
        }
    }

    /// Empties the buffer for a new frame, keeping its storage.
    pub fn clear(&mut self) {
        self.samples.clear();
        self.layers.clear();
        self.dropped = 0;
    }

    /// Adds a sample; returns `false` (and counts it as dropped) when the buffer is full.
    pub fn push_sample(&mut self, sample: ClipSample) -> bool {
        if self.samples.len() >= self.sample_capacity {
            self.dropped += 1;
            return false;
        }
        self.samples.push(sample);
        true
    }

    /// Adds a layer info; returns `false` (and counts it as dropped) when the buffer is full.
    pub fn push_layer(&mut self, layer: LayerInfo) -> bool {
        if self.layers.len() >= self.layer_capacity {
            self.dropped += 1;
            return false;
        }
        self.layers.push(layer);
        true
    }

    /// This frame's samples, grouped by layer in layer order.
    pub fn samples(&self) -> &[ClipSample] {
        &self.samples
    }

    /// This frame's layer infos; `layers()[i]` describes samples with `layer == i`.
    pub fn layers(&self) -> &[LayerInfo] {
        &self.layers
    }

    /// Most samples this buffer holds.
    pub fn sample_capacity(&self) -> usize {
        self.sample_capacity
    }

    /// Most layer infos this buffer holds.
    pub fn layer_capacity(&self) -> usize {
        self.layer_capacity
    }

    /// Pushes refused this frame because the buffer was full.
    pub fn dropped(&self) -> usize {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(clip: u32) -> ClipSample {
        ClipSample { clip: ClipId(clip), time: 0.0, prev_time: 0.0, weight: 1.0, layer: 0, looped: false }
    }

    #[test]
    fn push_past_capacity_is_dropped_not_grown() {
        let mut buffer = SampleBuffer::with_capacity(2, 1);
        assert!(buffer.push_sample(sample(0)));
        assert!(buffer.push_sample(sample(1)));
        assert!(!buffer.push_sample(sample(2)));
        assert!(buffer.push_layer(LayerInfo::default()));
        assert!(!buffer.push_layer(LayerInfo::default()));
        assert_eq!(buffer.samples().len(), 2);
        assert_eq!(buffer.dropped(), 2);
        buffer.clear();
        assert_eq!(buffer.dropped(), 0);
        assert!(buffer.samples().is_empty());
    }
}
