//! `Skeleton2DPoseBackend`: the layering contract on a 2D skeleton's pose arrays.

use std::sync::Arc;

use animgraph_runtime::core::ResolvedMasks;
use animgraph_runtime::core::inertial::Offset;
use animgraph_runtime::{BoneMask, ClipBlend, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend};

use crate::attachment::SkinId;
use crate::data::Curve;
use crate::skeleton::{
    BoundClip, CHANNELS, COLOR_CHANNELS, Channels, Pose, ROTATION, Skeleton2D, sample_keys, shortest, stepped,
};

/// A clip event fired by `apply`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkeletonEvent {
    /// Index into the skeleton's `events` names.
    pub event: u16,
    /// The clip that carried it.
    pub clip: ClipId,
    /// The sample's layer.
    pub layer: u8,
    /// The key's time in the clip.
    pub time: f32,
}

/// Most clip events one `apply` records; more are dropped and counted.
pub const MAX_EVENTS_PER_APPLY: usize = 64;

/// Skins one character can combine.
pub const MAX_SKINS: usize = 16;

/// One bone's sums within a layer: the weighted deltas per channel, and its rotation samples as
/// an anchor (the first value), the sum of weights and the weighted sum of shortest arcs from the
/// anchor (so samples blend along the shortest arc between each other, not each from the
/// reference).
#[derive(Clone, Copy, Debug)]
struct BoneSums {
    delta: [f32; CHANNELS],
    rotation_anchor: f32,
    rotation_weight: f32,
    rotation_sum: f32,
    /// Bit `c`: channel `c` is keyed by a sample of the layer (0: the bone is untouched). Only
    /// these are added to the pose.
    keyed: u8,
}

impl BoneSums {
    const EMPTY: BoneSums = BoneSums {
        delta: [0.0; CHANNELS],
        rotation_anchor: 0.0,
        rotation_weight: 0.0,
        rotation_sum: 0.0,
        keyed: 0,
    };
}

/// Poses a [`Skeleton2D`] from clip samples (see [`PoseBackend::apply`] for the contract).
///
/// The skeleton is shared (`Arc`) so many characters use one copy of the data; each backend owns
/// its pose and scratch arrays, sized at creation, so `apply` allocates nothing.
#[derive(Debug)]
pub struct Skeleton2DPoseBackend {
    skeleton: Arc<Skeleton2D>,
    /// The pose after the last `apply` (world transforms included).
    pub pose: Pose,
    /// What `apply` uses only while it runs (a crowd keeps one per thread; its members hold
    /// `None` between applies). Boxed: swapped by pointer, and keeps the struct small.
    scratch: Option<Box<ApplyScratch>>,
    /// The skins chosen for this character (later ones win), then the default skin.
    skins: Vec<SkinId>,
    /// Shared by the copies of a bound backend (resolving a mask copies them first).
    masks: Arc<ResolvedMasks>,
    events: Vec<SkeletonEvent>,
    events_dropped: usize,
    /// Inertial blending's storage, made by `prepare_inertial` (graphs with inertial
    /// transitions only).
    inertial: Option<Box<Inertial2D>>,
}

/// What a 2D backend's `apply` uses only while it runs: per-layer sums and deltas. Empty in a
/// [`member`](animgraph_runtime::crowd::CrowdBackend::member) of a crowd, which swaps its
/// thread's in around `apply`.
#[derive(Clone, Debug, Default)]
pub struct ApplyScratch {
    /// Per bone: the current layer's running sums (see [`BoneSums`]).
    sums: Vec<BoneSums>,
    /// The bones the current layer's samples key, in first-keyed order (their sums are added to
    /// the pose and reset at the layer's end; nothing else is visited).
    touched: Vec<u16>,
    color_delta: Vec<[f32; COLOR_CHANNELS]>,
    /// The current layer's weighted deform deltas (same layout as `Pose::deform`).
    deform_delta: Vec<f32>,
    /// One layer's weighted constraint-value changes: `Pose::mixes`, then per IK constraint its
    /// mix and softness.
    mix_delta: Vec<f32>,
    /// Inertial blends (sized by `prepare_inertial`): a starting blend's target at the
    /// samples' previous times, and those samples.
    target_prev: Channels,
    prev_samples: Vec<ClipSample>,
    /// Where the current sample's time falls in each of its clip's key-time groups, with the
    /// group's last bezier solved (room for the most groups a clip has).
    places: Vec<(crate::skeleton::KeyPlace, crate::skeleton::BezierMemo)>,
}

impl ApplyScratch {
    /// Scratch for `skeleton`, with room for inertial blends of `inertial_samples` samples.
    fn for_skeleton(skeleton: &Skeleton2D, inertial_samples: Option<usize>) -> ApplyScratch {
        let bones = skeleton.bone_count();
        let inertial_bones = if inertial_samples.is_some() { bones } else { 0 };
        ApplyScratch {
            target_prev: Channels::new(inertial_bones),
            prev_samples: Vec::with_capacity(inertial_samples.map_or(0, |n| n + 64)),
            sums: vec![BoneSums::EMPTY; bones],
            touched: Vec::with_capacity(bones),
            color_delta: vec![[0.0; COLOR_CHANNELS]; skeleton.slot_bones.len()],
            deform_delta: vec![0.0; skeleton.setup.deform.len()],
            mix_delta: vec![0.0; skeleton.setup.mixes.len() + 2 * skeleton.setup.ik.len()],
            places: Vec::with_capacity(skeleton.clips.iter().map(|c| c.groups.len()).max().unwrap_or(0)),
        }
    }
}

/// What inertial blends need, sized once.
///
/// Only the bone channels some clip of the skeleton keys get history and offsets: every other
/// channel stays at its setup value, so its offset is always 0 (a GBot keys 18 of its 112).
#[derive(Clone, Debug)]
struct Inertial2D {
    /// Channel-major indices (`c * bones + b`) of the keyed bone channels, ascending (shared by
    /// the members of a crowd).
    keyed: Arc<[u32]>,
    /// The keyed channels' output values of the last two applies (`[0]` the last), in `keyed`'s
    /// order.
    history: [Vec<f32>; 2],
    /// How many of them are filled (0 to 2).
    frames: u8,
    /// Bit `l`: layer `l`'s offsets are active (layers below 64; the same as its `active`).
    any_active: u64,
    /// The most samples per frame (the scratch's `prev_samples` is sized from it).
    samples: usize,
    /// Per layer, its blend's offsets per keyed channel (in `keyed`'s order).
    layers: Vec<LayerOffset>,
}

#[derive(Clone, Debug)]
struct LayerOffset {
    /// Empty for a layer without inertial transitions.
    offsets: Vec<Offset>,
    /// Whether the layer has inertial transitions (and so offsets).
    inertial: bool,
    /// The blend's elapsed seconds on its start frame.
    start: f32,
    active: bool,
}

/// A clone keeps the resolved masks (so a graph bound to the original drives the copy) and the
/// event list's capacity (a derived clone would lose it and allocate on the first event).
impl Clone for Skeleton2DPoseBackend {
    fn clone(&self) -> Self {
        // Between applies the scratch holds nothing worth copying.
        self.copy_with(animgraph_runtime::crowd::CrowdBackend::new_scratch(self))
    }
}

impl Skeleton2DPoseBackend {
    /// A copy of this backend with `scratch` for its own.
    fn copy_with(&self, scratch: Option<Box<ApplyScratch>>) -> Self {
        let mut events = Vec::with_capacity(MAX_EVENTS_PER_APPLY);
        events.extend_from_slice(&self.events);
        Skeleton2DPoseBackend {
            skeleton: Arc::clone(&self.skeleton),
            pose: self.pose.clone(),
            scratch,
            skins: {
                let mut skins = Vec::with_capacity(self.skins.capacity());
                skins.extend_from_slice(&self.skins);
                skins
            },
            masks: Arc::clone(&self.masks),
            events,
            events_dropped: self.events_dropped,
            inertial: self.inertial.clone(),
        }
    }
}

/// What a 2D backend's inertial blends depend on (its last two outputs and the offsets running),
/// for rollback: restore it with the player's snapshot and re-simulation repeats bit for bit.
#[derive(Clone, Debug, Default)]
pub struct MotionSnapshot(Option<Box<Inertial2D>>);

impl Skeleton2DPoseBackend {
    /// The inertial blending state (empty for a graph without inertial transitions). Allocates:
    /// take it with the player's snapshot, per network tick, not per frame.
    pub fn motion_snapshot(&self) -> MotionSnapshot {
        MotionSnapshot(self.inertial.clone())
    }

    /// Restores a [`motion_snapshot`](Self::motion_snapshot) of this backend (or one made from
    /// the same skeleton and bound graph), copying into the storage it has: no allocation.
    pub fn restore_motion(&mut self, snapshot: &MotionSnapshot) {
        let (Some(mine), Some(saved)) = (self.inertial.as_deref_mut(), snapshot.0.as_deref()) else { return };
        for (to, from) in mine.history.iter_mut().zip(&saved.history) {
            to.copy_from_slice(from);
        }
        mine.frames = saved.frames;
        for (to, from) in mine.layers.iter_mut().zip(&saved.layers) {
            to.offsets.copy_from_slice(&from.offsets);
            (to.start, to.active) = (from.start, from.active);
        }
        mine.any_active = saved.any_active;
    }

    /// A backend posing `skeleton`, starting at its setup pose.
    pub fn new(skeleton: Arc<Skeleton2D>) -> Self {
        Skeleton2DPoseBackend {
            pose: skeleton.setup.clone(),
            scratch: Some(Box::new(ApplyScratch::for_skeleton(&skeleton, None))),
            skins: Vec::with_capacity(MAX_SKINS),
            masks: Arc::default(),
            events: Vec::with_capacity(MAX_EVENTS_PER_APPLY),
            events_dropped: 0,
            inertial: None,
            skeleton,
        }
    }

    /// Chooses the skins this character shows (mix and match: later skins win for an
    /// attachment name they share; names none of them has come from the default skin). Takes
    /// effect at the next `apply`; at most [`MAX_SKINS`] (more are ignored, and counted in the
    /// returned value). Allocates nothing.
    pub fn set_skins(&mut self, skins: &[SkinId]) -> usize {
        self.skins.clear();
        let known = self.skeleton.skins.names.len();
        for s in skins.iter().filter(|s| (s.0 as usize) < known).take(MAX_SKINS) {
            self.skins.push(*s);
        }
        // Skin-required bones and constraints follow the skins.
        let pose = &mut self.pose;
        self.skeleton.activate(&mut pose.active, &mut pose.constraint_active, &self.skins);
        skins.len() - self.skins.len()
    }

    /// Chooses skins by name (tools; a game resolves [`SkinId`]s once with
    /// `skeleton().skins.find`). Unknown names are returned.
    pub fn set_skins_by_name(&mut self, names: &[&str]) -> Vec<String> {
        let ids: Vec<SkinId> = names.iter().filter_map(|n| self.skeleton.skins.find(n)).collect();
        self.set_skins(&ids);
        names.iter().filter(|n| self.skeleton.skins.find(n).is_none()).map(|n| n.to_string()).collect()
    }

    /// The chosen skins.
    pub fn skins(&self) -> &[SkinId] {
        &self.skins
    }

    /// The skeleton.
    pub fn skeleton(&self) -> &Arc<Skeleton2D> {
        &self.skeleton
    }

    /// Clip events of the last `apply`.
    pub fn events(&self) -> &[SkeletonEvent] {
        &self.events
    }

    /// Events dropped in the last `apply` (more than [`MAX_EVENTS_PER_APPLY`]).
    pub fn events_dropped(&self) -> usize {
        self.events_dropped
    }

    /// Warnings from resolving masks (unknown bone names, each once).
    pub fn warnings(&self) -> &[String] {
        self.masks.warnings()
    }

    /// The bones a resolved mask includes.
    pub fn mask_bones(&self, mask: MaskId) -> Vec<String> {
        let Some(m) = self.masks.get(mask) else { return Vec::new() };
        m.iter()
            .enumerate()
            .filter(|(_, weight)| **weight > 0.0)
            .map(|(b, _)| self.skeleton.data.bones[b].name.clone())
            .collect()
    }
}

/// Records the events `sample` passed over in `clip` (at most [`MAX_EVENTS_PER_APPLY`] in all;
/// more are counted in `dropped`).
fn fire_events(events: &mut Vec<SkeletonEvent>, dropped: &mut usize, clip: &BoundClip, sample: &ClipSample) {
    let (prev, time, duration) = (sample.prev_time, sample.time, clip.duration);
    let forward = if sample.looped { time < prev } else { time >= prev };
    let mut fire = |lo: f32, hi: f32, lo_inclusive: bool, hi_inclusive: bool| {
        for &(t, event) in &clip.events {
            let above = if lo_inclusive { t >= lo } else { t > lo };
            let below = if hi_inclusive { t <= hi } else { t < hi };
            if above && below {
                if events.len() < MAX_EVENTS_PER_APPLY {
                    events.push(SkeletonEvent { event, clip: sample.clip, layer: sample.layer, time: t });
                } else {
                    *dropped += 1;
                }
            }
        }
    };
    match (forward, sample.looped) {
        (true, false) => fire(prev, time, false, true),
        (true, true) => {
            fire(prev, duration, false, true);
            fire(0.0, time, true, true);
        }
        (false, false) => fire(time, prev, true, false),
        (false, true) => {
            fire(0.0, prev, true, false);
            fire(time, duration, true, true);
        }
    }
}

/// For each `BIT => field, ...;` row: copies those fields of `$src` into `$dst` when `$moving`
/// has the bit (the table of `copy_moving!`).
macro_rules! copy_fields {
    ($dst:ident, $src:ident, $moving:ident, $($bit:ident => $($field:ident),+;)+) => {
        $(
            if $moving & $bit != 0 {
                $($dst.$field.copy_from_slice(&$src.$field);)+
            }
        )+
    };
}

/// Copies the values the skeleton's [`moving`](crate::skeleton::Skeleton2D) mask `$moving`
/// selects from `$src` to `$dst` (each a [`Pose`] or a [`Keyframe2D`], which name their arrays
/// alike): the bone-channel blocks some clip keys (contiguous ones in one copy), then each kind
/// of slot, bone and constraint value some clip keys. The one rule of what `apply` resets to
/// setup and what animation LOD saves, loads and moves: the rest no clip keys, so no apply and
/// no LOD step writes it, and it stays at setup or as the game set it.
macro_rules! copy_moving {
    ($dst:expr, $src:expr, $moving:expr) => {{
        use crate::skeleton::{
            MOVING_ATTACHMENTS, MOVING_COLORS, MOVING_DEFORM, MOVING_DRAW_ORDER, MOVING_INHERIT,
            MOVING_MIXES, MOVING_SEQUENCES,
        };
        let (dst, src, moving): (_, _, u16) = ($dst, $src, $moving);
        let bones = dst.channels.bones();
        let (values, from) = (dst.channels.as_mut_slice(), src.channels.as_slice());
        let mut c = 0;
        while c < CHANNELS {
            if moving & (1 << c) == 0 {
                c += 1;
                continue;
            }
            let start = c;
            while c < CHANNELS && moving & (1 << c) != 0 {
                c += 1;
            }
            values[start * bones..c * bones].copy_from_slice(&from[start * bones..c * bones]);
        }
        copy_fields!(dst, src, moving,
            MOVING_COLORS => colors;
            MOVING_ATTACHMENTS => attachment_keys;
            MOVING_DEFORM => deform;
            MOVING_SEQUENCES => sequences;
            MOVING_INHERIT => inherit;
            MOVING_DRAW_ORDER => draw_order;
            MOVING_MIXES => ik, mixes;
        );
    }};
}

/// The one rule of which samples fire their clip's events (for `apply` and for a crowd's
/// frames that are not sampled): those weighing at least their layer's event threshold (the
/// layer itself weighing more than 0, checked by the callers).
fn fire_sample_events(
    events: &mut Vec<SkeletonEvent>,
    dropped: &mut usize,
    clip: &BoundClip,
    sample: &ClipSample,
    info: &LayerInfo,
) {
    if sample.weight >= info.event_threshold && !clip.events.is_empty() {
        fire_events(events, dropped, clip, sample);
    }
}

impl PoseBackend for Skeleton2DPoseBackend {
    fn resolve_clip(&mut self, name: &str) -> Option<ClipId> {
        self.skeleton.clip_names.resolve(name)
    }

    fn resolve_mask(&mut self, mask: &BoneMask) -> Option<MaskId> {
        let skeleton = &self.skeleton;
        Some(Arc::make_mut(&mut self.masks).resolve(
            mask,
            |name| skeleton.data.bone_index(name),
            &skeleton.parents,
        ))
    }

    fn clip_length(&self, clip: ClipId) -> f32 {
        self.skeleton.clips.get(clip.0 as usize).map_or(0.0, |c| c.duration)
    }

    fn clip_loops(&self, clip: ClipId) -> bool {
        self.skeleton.clips.get(clip.0 as usize).is_some_and(|c| c.looping)
    }

    /// A `.mskel` clip's event keys double as its sync markers (name, time).
    fn clip_markers(&self, clip: ClipId) -> Vec<(String, f32)> {
        let Some(clip) = self.skeleton.clips.get(clip.0 as usize) else { return Vec::new() };
        let names = &self.skeleton.data.events;
        clip.events.iter().filter_map(|&(t, e)| names.get(e as usize).map(|n| (n.clone(), t))).collect()
    }

    /// The contract of [`PoseBackend::apply`], on pose arrays:
    /// `pose += layer_weight x sum(w_i x (v_i - reference))` per masked channel, where the
    /// reference is the pose below for Replace layers (so layer 0 starts from setup) and the setup
    /// pose for Additive ones; channels a clip does not key contribute nothing (they keep the pose
    /// below). Rotations take the shortest arc. Constraint values (IK mix and softness,
    /// transform and path mixes, path position and spacing) blend the same way; IK bend,
    /// compress and stretch are discrete, like attachments, draw order, bone inherit modes and
    /// sequence frames: the heaviest sample of the highest layer weighing at least 0.5 sets them
    /// (where its mask allows). Each apply starts from setup only for the kinds of value some
    /// clip of the skeleton keys (every bone channel under constraints); the rest `apply` never
    /// writes, so it stays at setup or as the game set it (a tint, a swapped attachment key),
    /// as Spine's runtime leaves what no timeline keys.
    fn has_skin(&self, name: &str) -> bool {
        self.skeleton.skins.find(name).is_some()
    }

    fn choose_skins(&mut self, names: &[&str]) {
        self.set_skins_by_name(names);
    }

    fn apply(&mut self, samples: &[ClipSample], layers: &[LayerInfo]) {
        // A crowd member holds none between applies; one used without its thread's swapped in
        // makes its own once (and keeps it).
        let mut scratch = self.scratch.take().unwrap_or_else(|| self.fresh_scratch());
        let starting = self.inertial.is_some() && animgraph_runtime::core::inertial::starts(layers);
        if starting {
            // An inertial blend starts: the target's pose at the samples' previous times gives
            // its velocity (events of this pass are discarded by the real one).
            let mut prev_samples = std::mem::take(&mut scratch.prev_samples);
            animgraph_runtime::core::inertial::at_previous_times(samples, &mut prev_samples);
            self.blend_layers(&mut scratch, &prev_samples, layers);
            scratch.prev_samples = prev_samples;
            scratch.target_prev.copy_from(&self.pose.channels);
        }
        self.blend_layers(&mut scratch, samples, layers);
        if self.inertial.is_some() {
            self.inertialize(&scratch, layers);
        }
        self.scratch = Some(scratch);
        let skeleton = &*self.skeleton;
        let pose = &mut self.pose;
        skeleton.resolve_attachments(pose, &self.skins);
        skeleton.update_world(pose);
    }

    fn prepare_inertial(&mut self, layers: &[bool], samples: usize) {
        let bones = self.skeleton.bone_count();
        let mut keyed = vec![false; CHANNELS * bones];
        for channel in self.skeleton.clips.iter().flat_map(|c| &c.channels) {
            for c in (0..CHANNELS).filter(|c| channel.bits & (1 << c) != 0) {
                keyed[c * bones + channel.bone as usize] = true;
            }
        }
        let keyed: Arc<[u32]> = (0..keyed.len() as u32).filter(|&i| keyed[i as usize]).collect();
        self.scratch = Some(Box::new(ApplyScratch::for_skeleton(&self.skeleton, Some(samples))));
        self.inertial = Some(Box::new(Inertial2D {
            history: [vec![0.0; keyed.len()], vec![0.0; keyed.len()]],
            frames: 0,
            any_active: 0,
            samples,
            layers: layers
                .iter()
                .map(|&on| LayerOffset {
                    offsets: if on { vec![Offset::default(); keyed.len()] } else { Vec::new() },
                    inertial: on,
                    start: 0.0,
                    active: false,
                })
                .collect(),
            keyed,
        }));
    }
}

impl Skeleton2DPoseBackend {
    /// Scratch sized for this backend's skeleton and inertial blends.
    fn fresh_scratch(&self) -> Box<ApplyScratch> {
        Box::new(ApplyScratch::for_skeleton(&self.skeleton, self.inertial.as_ref().map(|i| i.samples)))
    }

    /// Steps 1-6 of the contract: the layers blended into the pose's channels, colours,
    /// attachments, constraint values (no world transforms yet).
    fn blend_layers(&mut self, scratch: &mut ApplyScratch, samples: &[ClipSample], layers: &[LayerInfo]) {
        let skeleton = &*self.skeleton;
        let setup = &skeleton.setup;
        let pose = &mut self.pose;
        // The setup pose's deform offsets are 0 and its sequence frames none.
        copy_moving!(&mut *pose, setup, skeleton.moving);
        self.events.clear();
        self.events_dropped = 0;

        for (l, info) in layers.iter().enumerate() {
            if info.weight <= 0.0 {
                continue;
            }
            let mask = info.mask.and_then(|m| self.masks.get(m));
            let additive = info.blend == ClipBlend::Additive;
            let layer_keys_colors = samples
                .iter()
                .filter(|s| s.layer as usize == l)
                .any(|s| skeleton.clips.get(s.clip.0 as usize).is_some_and(|c| !c.colors.is_empty()));
            if layer_keys_colors {
                scratch.color_delta.fill([0.0; COLOR_CHANNELS]);
            }
            let layer_deforms = samples
                .iter()
                .filter(|s| s.layer as usize == l)
                .any(|s| skeleton.clips.get(s.clip.0 as usize).is_some_and(|c| !c.deform.is_empty()));
            if layer_deforms {
                scratch.deform_delta.fill(0.0);
            }
            let layer_mixes = samples.iter().filter(|s| s.layer as usize == l).any(|s| {
                skeleton.clips.get(s.clip.0 as usize).is_some_and(|c| !c.mixes.is_empty() || !c.ik.is_empty())
            });
            if layer_mixes {
                scratch.mix_delta.fill(0.0);
            }
            let ik_at = setup.mixes.len();
            let mut heaviest: Option<&ClipSample> = None;
            for sample in samples.iter().filter(|s| s.layer as usize == l) {
                let Some(clip) = skeleton.clips.get(sample.clip.0 as usize) else { continue };
                let w = sample.weight;
                // One key search per group of channels with the same key times.
                scratch.places.clear();
                scratch.places.extend(clip.groups.iter().map(|&c| {
                    let place = crate::skeleton::key_place(&clip.channels[c as usize].keys, sample.time);
                    (place, crate::skeleton::BezierMemo::EMPTY)
                }));
                for channel in &clip.channels {
                    let b = channel.bone as usize;
                    if mask.is_some_and(|m| m[b] <= 0.0) {
                        continue;
                    }
                    let (place, memo) = &mut scratch.places[channel.group as usize];
                    let v = crate::skeleton::sample_placed_memo(&channel.keys, &channel.points, *place, memo);
                    let sums = &mut scratch.sums[b];
                    if sums.keyed == 0 {
                        scratch.touched.push(channel.bone);
                    }
                    let first = channel.first as usize;
                    sums.keyed |= channel.bits;
                    if first == ROTATION {
                        let value = v[0];
                        if sums.rotation_weight == 0.0 {
                            sums.rotation_anchor = value;
                        }
                        sums.rotation_sum += w * shortest(value - sums.rotation_anchor);
                        sums.rotation_weight += w;
                        continue;
                    }
                    for (k, value) in v.iter().enumerate().take(channel.width as usize) {
                        let c = first + k;
                        let reference = if additive { setup.channels[c][b] } else { pose.channels[c][b] };
                        sums.delta[c] += w * (value - reference);
                    }
                }
                for (slot, first, width, keys) in &clip.colors {
                    let s = *slot as usize;
                    let bone_weight = mask.map_or(1.0, |m| m[skeleton.slot_bones[s] as usize]);
                    if bone_weight <= 0.0 {
                        continue;
                    }
                    let w = w * bone_weight;
                    let v = sample_keys(keys, sample.time);
                    for (i, value) in v.iter().enumerate().take(*width as usize) {
                        let k = *first as usize + i;
                        let reference = if additive { setup.colors[s][k] } else { pose.colors[s][k] };
                        scratch.color_delta[s][k] += w * (value - reference);
                    }
                }
                for d in &clip.deform {
                    let bone_weight = mask.map_or(1.0, |m| m[skeleton.slot_bones[d.slot as usize] as usize]);
                    if bone_weight <= 0.0 {
                        continue;
                    }
                    let w = w * bone_weight;
                    let range = skeleton.deform_range(d.deform);
                    let (a, b, f) = deform_segment(d, sample.time);
                    let len = range.len();
                    let (ra, rb) = (&d.values[a * len..(a + 1) * len], &d.values[b * len..(b + 1) * len]);
                    let below = &pose.deform[range.clone()];
                    let deltas = scratch.deform_delta[range].iter_mut();
                    // Zipped (no bounds checks); setup offsets are 0, so an additive layer adds
                    // the keyed offsets.
                    if additive {
                        for ((delta, a), b) in deltas.zip(ra).zip(rb) {
                            *delta += w * (a + (b - a) * f);
                        }
                    } else {
                        for (((delta, a), b), below) in deltas.zip(ra).zip(rb).zip(below) {
                            *delta += w * (a + (b - a) * f - below);
                        }
                    }
                }
                for m in &clip.mixes {
                    let bone_weight = mask.map_or(1.0, |mask| mask[m.bone as usize]);
                    if bone_weight <= 0.0 {
                        continue;
                    }
                    let w = w * bone_weight;
                    let i = m.index as usize;
                    let value = crate::skeleton::sample_with_points(&m.keys, &m.points, sample.time)[0];
                    let reference = if additive { setup.mixes[i] } else { pose.mixes[i] };
                    scratch.mix_delta[i] += w * (value - reference);
                }
                for (c, keys) in &clip.ik {
                    let c = *c as usize;
                    let bone_weight = mask.map_or(1.0, |mask| mask[skeleton.ik_first_bone(c)]);
                    if bone_weight <= 0.0 {
                        continue;
                    }
                    let w = w * bone_weight;
                    if let Some(state) = crate::skeleton::sample_ik(keys, sample.time) {
                        let reference = if additive { setup.ik[c] } else { pose.ik[c] };
                        scratch.mix_delta[ik_at + 2 * c] += w * (state.mix - reference.mix);
                        scratch.mix_delta[ik_at + 2 * c + 1] += w * (state.softness - reference.softness);
                    }
                }
                if heaviest.is_none_or(|h| w > h.weight) {
                    heaviest = Some(sample);
                }
                fire_sample_events(&mut self.events, &mut self.events_dropped, clip, sample, info);
            }
            for &b in &scratch.touched {
                let b = b as usize;
                let sums = &mut scratch.sums[b];
                let weight = sums.rotation_weight;
                if weight > 0.0 {
                    let mean = sums.rotation_anchor + sums.rotation_sum / weight;
                    let reference =
                        if additive { setup.channels[ROTATION][b] } else { pose.channels[ROTATION][b] };
                    sums.delta[ROTATION] = shortest(mean - reference) * weight;
                }
                // A weighted mask scales the layer per bone.
                let weight = info.weight * mask.map_or(1.0, |m| m[b]);
                pose.channels.add_to_bone(b, weight, &sums.delta, sums.keyed);
                *sums = BoneSums::EMPTY;
            }
            scratch.touched.clear();
            if layer_keys_colors {
                for (s, d) in scratch.color_delta.iter().enumerate() {
                    for (color, delta) in pose.colors[s].iter_mut().zip(d) {
                        *color = (*color + info.weight * delta).clamp(0.0, 1.0);
                    }
                }
            }
            if layer_deforms {
                for (offset, delta) in pose.deform.iter_mut().zip(&scratch.deform_delta) {
                    *offset += info.weight * delta;
                }
            }
            if layer_mixes {
                let (mixes, ik) = scratch.mix_delta.split_at(ik_at);
                for (value, delta) in pose.mixes.iter_mut().zip(mixes) {
                    *value += info.weight * delta;
                }
                for (state, delta) in pose.ik.iter_mut().zip(ik.chunks_exact(2)) {
                    state.mix += info.weight * delta[0];
                    state.softness += info.weight * delta[1];
                }
            }
            // Discrete values: the heaviest sample of the highest layer weighing at least 0.5
            // (layer weight x bone weight, under a weighted mask).
            if info.weight >= 0.5 {
                if let Some(sample) = heaviest {
                    let clip = &skeleton.clips[sample.clip.0 as usize];
                    for (slot, keys) in &clip.attachments {
                        let s = *slot as usize;
                        if mask.is_some_and(|m| info.weight * m[skeleton.slot_bones[s] as usize] < 0.5) {
                            continue;
                        }
                        if let Some(a) = stepped(keys, sample.time) {
                            pose.attachment_keys[s] = *a;
                        }
                    }
                    for (bone, keys) in &clip.inherit {
                        if mask.is_some_and(|m| info.weight * m[*bone as usize] < 0.5) {
                            continue;
                        }
                        if let Some(mode) = stepped(keys, sample.time) {
                            pose.inherit[*bone as usize] = *mode;
                        }
                    }
                    for t in &clip.sequence {
                        let s = t.slot as usize;
                        if mask.is_some_and(|m| info.weight * m[skeleton.slot_bones[s] as usize] < 0.5) {
                            continue;
                        }
                        // Before its first key a timeline keys nothing (the setup frame, or
                        // what a layer below keyed); after it, it replaces that.
                        if let Some(state) = crate::skeleton::sample_sequence(t, sample.time) {
                            pose.sequences[s] = Some(state);
                        }
                    }
                    if let Some(order) = stepped(&clip.draw_order, sample.time) {
                        pose.draw_order.copy_from_slice(order);
                    }
                    for (constraint, keys) in &clip.ik {
                        if let Some(state) = crate::skeleton::sample_ik(keys, sample.time) {
                            let p = &mut pose.ik[*constraint as usize];
                            (p.bend_positive, p.compress, p.stretch) =
                                (state.bend_positive, state.compress, state.stretch);
                        }
                    }
                }
            }
        }
    }

    /// Step 7: inertial blends. On a blend's start frame, per bone channel inside the layer's
    /// mask, the offset from the target to where the pose was heading and its velocity; every
    /// frame of the blend, the decayed offsets added. Then the output joins the history.
    fn inertialize(&mut self, scratch: &ApplyScratch, layers: &[LayerInfo]) {
        let Some(inertial) = self.inertial.as_deref_mut() else { return };
        let bones = self.pose.channels.bones();
        let pose = self.pose.channels.as_mut_slice();
        for (l, info) in layers.iter().enumerate() {
            if l >= inertial.layers.len() {
                break;
            }
            // Layers known idle are skipped without touching their storage (a crowd frame reads
            // no cold line for them).
            let idle = l < 64 && inertial.any_active & (1 << l) == 0;
            if info.inertial.is_none() && idle {
                continue;
            }
            let layer = &mut inertial.layers[l];
            let Some(blend) = info.inertial.filter(|_| layer.inertial) else {
                layer.active = false;
                if l < 64 {
                    inertial.any_active &= !(1 << l);
                }
                continue;
            };
            let mask = info.mask.and_then(|m| self.masks.get(m));
            if blend.started {
                let dt = blend.elapsed.max(1e-6);
                let remaining = blend.duration - blend.elapsed;
                layer.start = blend.elapsed;
                layer.active = true;
                if l < 64 {
                    inertial.any_active |= 1 << l;
                }
                let target_prev = scratch.target_prev.as_slice();
                for (k, &i) in inertial.keyed.iter().enumerate() {
                    let (i, b) = (i as usize, i as usize % bones);
                    let difference =
                        |a: f32, b: f32| if i / bones == ROTATION { shortest(a - b) } else { a - b };
                    let target = pose[i];
                    layer.offsets[k] = if mask.is_some_and(|m| m[b] <= 0.0) || inertial.frames == 0 {
                        Offset::default()
                    } else {
                        let last = inertial.history[0][k];
                        let velocity = if inertial.frames >= 2 {
                            difference(last, inertial.history[1][k]) / dt
                        } else {
                            0.0
                        };
                        let target_velocity = difference(target, target_prev[i]) / dt;
                        let heading = last + velocity * dt;
                        Offset::new(difference(heading, target), velocity - target_velocity, remaining)
                    };
                }
            }
            if !layer.active {
                continue;
            }
            let t = blend.elapsed - layer.start;
            for (&i, offset) in inertial.keyed.iter().zip(&layer.offsets) {
                if t < offset.end {
                    pose[i as usize] += offset.at(t);
                }
            }
        }
        let [last, before] = &mut inertial.history;
        std::mem::swap(last, before);
        for (value, &i) in last.iter_mut().zip(inertial.keyed.iter()) {
            *value = pose[i as usize];
        }
        inertial.frames = (inertial.frames + 1).min(2);
    }
}

/// Where a deform timeline is at `time`: the two keys around it and the fraction between them
/// by the earlier key's curve (before the first key, the first; after the last, the last).
fn deform_segment(d: &crate::skeleton::BoundDeform, time: f32) -> (usize, usize, f32) {
    let n = d.times.len();
    let next = d.times.partition_point(|t| *t <= time);
    if next == 0 {
        return (0, 0, 0.0);
    }
    if next >= n {
        return (n - 1, n - 1, 0.0);
    }
    let (a, b) = (next - 1, next);
    let span = d.times[b] - d.times[a];
    let u = if span > 0.0 { (time - d.times[a]) / span } else { 1.0 };
    let f = match d.curves[a] {
        Curve::Linear => u,
        Curve::Stepped => 0.0,
        Curve::Bezier(c) => crate::skeleton::bezier(c, u),
        Curve::SpineBezier(c) => crate::skeleton::spine_bezier(c, u),
        // Refused on deform keys by validation (their curve is a fraction of the change).
        Curve::SpineOffset(_) => u,
    };
    (a, b, f)
}

impl animgraph_runtime::BackendNames for Skeleton2DPoseBackend {
    fn clip_name(&self, clip: ClipId) -> String {
        self.skeleton.clips.get(clip.0 as usize).map_or_else(|| "?".into(), |c| c.name.clone())
    }

    fn mask_bones(&self, mask: MaskId) -> Vec<String> {
        Skeleton2DPoseBackend::mask_bones(self, mask)
    }
}

impl Skeleton2DPoseBackend {
    /// The local pose per bone, as `simulate --poses` prints it:
    /// `[x, y, rotation_deg, scale_x, scale_y, shear_x, shear_y]`.
    pub fn local_pose(&self) -> Vec<(String, [f32; 7])> {
        let c = &self.pose.channels;
        self.skeleton
            .data
            .bones
            .iter()
            .enumerate()
            .map(|(b, bone)| (bone.name.clone(), std::array::from_fn(|k| c[k][b])))
            .collect()
    }
}

/// A 2D pose kept for animation LOD: what [`CrowdBackend::approach`](animgraph_runtime::crowd::CrowdBackend::approach) moves towards.
#[derive(Clone, Debug)]
pub struct Keyframe2D {
    channels: Channels,
    world: Vec<glam::Affine2>,
    colors: Vec<[f32; COLOR_CHANNELS]>,
    deform: Vec<f32>,
    mixes: Vec<f32>,
    ik: Vec<crate::skeleton::IkPose>,
    attachments: Vec<Option<u16>>,
    attachment_keys: Vec<Option<u16>>,
    draw_order: Vec<u16>,
    inherit: Vec<crate::data::Inherit>,
    sequences: Vec<Option<crate::skeleton::SequenceState>>,
}

impl Keyframe2D {
    fn of(pose: &Pose) -> Keyframe2D {
        Keyframe2D {
            channels: pose.channels.clone(),
            world: pose.world.clone(),
            colors: pose.colors.clone(),
            deform: pose.deform.clone(),
            mixes: pose.mixes.clone(),
            ik: pose.ik.clone(),
            attachments: pose.attachments.clone(),
            attachment_keys: pose.attachment_keys.clone(),
            draw_order: pose.draw_order.clone(),
            inherit: pose.inherit.clone(),
            sequences: pose.sequences.clone(),
        }
    }
}

/// Moves `value` `f` of the way to `target`.
#[inline]
fn towards(value: &mut f32, target: f32, f: f32) {
    *value += (target - *value) * f;
}

impl Skeleton2DPoseBackend {
    /// Sets the pose's output values (what a keyframe holds) to `k`'s: what clips key
    /// (`copy_moving!`), the world transforms and the attachments shown.
    fn load(&mut self, k: &Keyframe2D) {
        let pose = &mut self.pose;
        copy_moving!(&mut *pose, k, self.skeleton.moving);
        pose.world.copy_from_slice(&k.world);
        pose.attachments.copy_from_slice(&k.attachments);
    }
}

/// A crowd member keeps its pose, events and inertial state; the per-layer sums and deltas are
/// its thread's. Between LOD samples the bone channels (rotation the shortest way), world
/// transforms, colours, deform offsets and constraint values move linearly towards the sample
/// (world transforms are interpolated, not recomputed: constraints are not solved again);
/// attachments, draw order, inherit modes and sequence frames switch when the pose arrives.
/// What no clip of the skeleton keys (`copy_moving!`: channel blocks on skeletons without
/// constraints, colours, ...) is neither saved, moved nor loaded, as `apply` leaves it alone
/// too: it stays at setup or as the game set it. Clip events fire on every frame, sampled or
/// not.
impl animgraph_runtime::crowd::CrowdBackend for Skeleton2DPoseBackend {
    type Scratch = Option<Box<ApplyScratch>>;
    type Keyframe = Keyframe2D;

    fn member(&self) -> Self {
        self.copy_with(None)
    }

    fn new_scratch(&self) -> Option<Box<ApplyScratch>> {
        Some(self.fresh_scratch())
    }

    fn swap_scratch(&mut self, scratch: &mut Option<Box<ApplyScratch>>) {
        std::mem::swap(&mut self.scratch, scratch);
    }

    fn new_keyframe(&self) -> Keyframe2D {
        Keyframe2D::of(&self.pose)
    }

    fn save_keyframe(&self, into: &mut Keyframe2D) {
        let pose = &self.pose;
        copy_moving!(&mut *into, pose, self.skeleton.moving);
        into.world.copy_from_slice(&pose.world);
        into.attachments.copy_from_slice(&pose.attachments);
    }

    fn load_keyframe(&mut self, from: &Keyframe2D) {
        self.load(from);
    }

    fn approach(&mut self, target: &Keyframe2D, frames_left: u32) {
        if frames_left <= 1 {
            return self.load(target);
        }
        let f = 1.0 / frames_left as f32;
        let pose = &mut self.pose;
        let bones = pose.channels.bones();
        // Channel-major: rotation is the third block; the others move linearly, in straight
        // loops over the contiguous values. What no clip keys is neither saved nor moved
        // (`copy_moving!`): it stays as it is.
        let (values, to) = (pose.channels.as_mut_slice(), target.channels.as_slice());
        let moving = self.skeleton.moving;
        for c in (0..CHANNELS).filter(|&c| c != ROTATION && moving & (1 << c) != 0) {
            let block = c * bones..(c + 1) * bones;
            for (v, t) in values[block.clone()].iter_mut().zip(&to[block]) {
                towards(v, *t, f);
            }
        }
        let rotation = ROTATION * bones..(ROTATION + 1) * bones;
        let rotation = if moving & (1 << ROTATION) != 0 { rotation } else { 0..0 };
        for (v, t) in values[rotation.clone()].iter_mut().zip(&to[rotation.clone()]) {
            // Within one and a half turns (always, between a pose and its next sample) the
            // shortest way is one compare; `shortest` handles the rest the same way.
            let d = t - *v;
            let d = if d > 180.0 && d <= 540.0 {
                d - 360.0
            } else if d <= -180.0 && d > -540.0 {
                d + 360.0
            } else if d.abs() <= 180.0 {
                d
            } else {
                shortest(d)
            };
            *v += d * f;
        }
        for (w, t) in pose.world.iter_mut().zip(&target.world) {
            w.matrix2 += (t.matrix2 - w.matrix2) * f;
            w.translation += (t.translation - w.translation) * f;
        }
        use crate::skeleton::{MOVING_COLORS, MOVING_DEFORM, MOVING_MIXES};
        if moving & MOVING_COLORS != 0 {
            for (c, t) in pose.colors.iter_mut().zip(&target.colors) {
                for (v, t) in c.iter_mut().zip(t) {
                    towards(v, *t, f);
                }
            }
        }
        if moving & MOVING_DEFORM != 0 {
            for (v, t) in pose.deform.iter_mut().zip(&target.deform) {
                towards(v, *t, f);
            }
        }
        if moving & MOVING_MIXES != 0 {
            for (v, t) in pose.mixes.iter_mut().zip(&target.mixes) {
                towards(v, *t, f);
            }
            for (v, t) in pose.ik.iter_mut().zip(&target.ik) {
                towards(&mut v.mix, t.mix, f);
                towards(&mut v.softness, t.softness, f);
            }
        }
    }

    /// The pose's bone channels and world transforms, the per-slot and per-bone arrays `apply`
    /// reads, the inertial history it writes, and the keyframe's channels and world transforms
    /// (what `approach` reads).
    fn prefetch(&self, keyframe: Option<&Keyframe2D>) {
        use animgraph_runtime::core::prefetch::{prefetch, prefetch_slice};
        let pose = &self.pose;
        prefetch_slice(pose.channels.as_slice());
        prefetch_slice(&pose.world);
        prefetch_slice(&pose.attachment_keys);
        prefetch_slice(&pose.attachments);
        prefetch_slice(&pose.sequences);
        prefetch_slice(&pose.active);
        prefetch_slice(&pose.inherit);
        if let Some(inertial) = self.inertial.as_deref() {
            prefetch(inertial);
            prefetch_slice(&inertial.history[0]);
            prefetch_slice(&inertial.history[1]);
        }
        if let Some(keyframe) = keyframe {
            prefetch_slice(keyframe.channels.as_slice());
            prefetch_slice(&keyframe.world);
        }
    }

    fn skip(&mut self, samples: &[ClipSample], layers: &[LayerInfo]) {
        self.events.clear();
        self.events_dropped = 0;
        for (l, info) in layers.iter().enumerate() {
            if info.weight <= 0.0 {
                continue;
            }
            for sample in samples.iter().filter(|s| s.layer as usize == l) {
                if let Some(clip) = self.skeleton.clips.get(sample.clip.0 as usize) {
                    fire_sample_events(&mut self.events, &mut self.events_dropped, clip, sample, info);
                }
            }
        }
    }
}
