//! `Skeleton3DPoseBackend`: the layering contract on a 3D skeleton, with quaternion blending.

use std::ops::Range;
use std::sync::Arc;

use animgraph_runtime::core::ResolvedMasks;
use animgraph_runtime::core::inertial::Offset;
use animgraph_runtime::{BoneMask, ClipBlend, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend};
use glam::{Affine3A, Quat, Vec3, Vec4};

use crate::skeleton::{Baked, Place, Property, Skeleton3D};

/// A 3D pose: local transforms per joint and world matrices.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose3D {
    /// Local translations.
    pub translations: Vec<Vec3>,
    /// Local rotations.
    pub rotations: Vec<Quat>,
    /// Local scales.
    pub scales: Vec<Vec3>,
    /// World transforms (including the skeleton's offsets).
    pub world: Vec<Affine3A>,
    /// Morph-target weights, per target of every [`MorphGroup`](crate::skeleton::MorphGroup).
    pub morph_weights: Vec<f32>,
}

impl Pose3D {
    /// Copies `other` into this pose (the same skeleton; no allocation).
    pub fn copy_from(&mut self, other: &Pose3D) {
        self.translations.copy_from_slice(&other.translations);
        self.rotations.copy_from_slice(&other.rotations);
        self.scales.copy_from_slice(&other.scales);
        self.world.copy_from_slice(&other.world);
        self.morph_weights.copy_from_slice(&other.morph_weights);
    }
}

/// One joint's running sums within a layer: the weighted translation and scale deltas, and the
/// rotations seen so far (the first two, their weights, their weighted sum and total weight).
#[derive(Clone, Copy, Debug)]
struct Accum {
    translation: Vec3,
    scale: Vec3,
    first: Quat,
    second: Quat,
    sum: Vec4,
    weights: [f32; 2],
    total: f32,
    count: u32,
}

impl Accum {
    const EMPTY: Accum = Accum {
        translation: Vec3::ZERO,
        scale: Vec3::ZERO,
        first: Quat::IDENTITY,
        second: Quat::IDENTITY,
        sum: Vec4::ZERO,
        weights: [0.0; 2],
        total: 0.0,
        count: 0,
    };
}

/// What adding one sample value to a joint's sums reads: the pose below and the setup pose.
struct Below<'a> {
    skeleton: &'a Skeleton3D,
    pose: &'a Pose3D,
    additive: bool,
}

impl Below<'_> {
    /// Adds `v` (a unit quaternion for rotations) with weight `w` to joint `j`'s sums.
    #[inline(always)]
    fn add(&self, acc: &mut Accum, j: usize, property: Property, v: Vec4, w: f32) {
        match property {
            Property::Translation => self.add_translation(acc, j, v, w),
            Property::Rotation => self.add_rotation(acc, j, Quat::from_vec4(v), w),
            Property::Scale => self.add_scale(acc, j, v, w),
        }
    }

    #[inline(always)]
    fn add_translation(&self, acc: &mut Accum, j: usize, v: Vec4, w: f32) {
        let reference =
            if self.additive { self.skeleton.setup_translation[j] } else { self.pose.translations[j] };
        acc.translation += w * (v.truncate() - reference);
    }

    #[inline(always)]
    fn add_scale(&self, acc: &mut Accum, j: usize, v: Vec4, w: f32) {
        let reference = if self.additive { self.skeleton.setup_scale[j] } else { self.pose.scales[j] };
        acc.scale += w * (v.truncate() - reference);
    }

    /// `q` is unit length.
    #[inline(always)]
    fn add_rotation(&self, acc: &mut Accum, j: usize, mut q: Quat, w: f32) {
        if self.additive {
            q = self.skeleton.setup_rotation[j].inverse() * q;
        }
        if acc.count == 0 {
            acc.first = q;
            acc.sum = Vec4::from(q) * w;
            acc.weights = [w, 0.0];
            acc.total = w;
        } else {
            // Hemisphere correction: blend with the first sample's side.
            if q.dot(acc.first) < 0.0 {
                q = -q;
            }
            if acc.count == 1 {
                acc.second = q;
                acc.weights[1] = w;
            }
            acc.sum += Vec4::from(q) * w;
            acc.total += w;
        }
        acc.count += 1;
    }

    /// Adds one baked sample (`row`: a key, or two keys interpolated) to the sums, one
    /// branch-free loop per property.
    #[inline(always)]
    fn add_baked(
        &self,
        accum: &mut [Accum],
        baked: &Baked,
        row: impl BakedRow,
        w: f32,
        mask: Option<&[f32]>,
    ) {
        let [t_end, r_end] = baked.ends;
        let n = baked.joints.len();
        let included = |j: usize| mask.is_none_or(|m| m[j] > 0.0);
        for (&j, v) in baked.joints[..t_end].iter().zip(row.vectors(0..t_end)) {
            let j = j as usize;
            if included(j) {
                self.add_translation(&mut accum[j], j, v, w);
            }
        }
        for (&j, q) in baked.joints[t_end..r_end].iter().zip(row.rotations(t_end..r_end)) {
            let j = j as usize;
            if included(j) {
                self.add_rotation(&mut accum[j], j, q, w);
            }
        }
        for (&j, v) in baked.joints[r_end..].iter().zip(row.vectors(r_end..n)) {
            let j = j as usize;
            if included(j) {
                self.add_scale(&mut accum[j], j, v, w);
            }
        }
    }
}

/// A baked clip's values at one time, for a range of its channels.
trait BakedRow {
    fn vectors(&self, channels: Range<usize>) -> impl Iterator<Item = Vec4>;
    fn rotations(&self, channels: Range<usize>) -> impl Iterator<Item = Quat>;
}

/// At a key: the row as stored (rotations unit length).
struct AtKey<'a>(&'a [Vec4]);

impl BakedRow for AtKey<'_> {
    #[inline(always)]
    fn vectors(&self, channels: Range<usize>) -> impl Iterator<Item = Vec4> {
        self.0[channels].iter().copied()
    }

    #[inline(always)]
    fn rotations(&self, channels: Range<usize>) -> impl Iterator<Item = Quat> {
        self.0[channels].iter().map(|&v| Quat::from_vec4(v))
    }
}

/// Between two keys: lerp, and normalised lerp for rotations (as [`Channel::sample_spaced`]).
///
/// [`Channel::sample_spaced`]: crate::skeleton::Channel::sample_spaced
struct BetweenKeys<'a>(&'a [Vec4], &'a [Vec4], f32);

impl BakedRow for BetweenKeys<'_> {
    #[inline(always)]
    fn vectors(&self, channels: Range<usize>) -> impl Iterator<Item = Vec4> {
        let u = self.2;
        self.0[channels.clone()].iter().zip(&self.1[channels]).map(move |(&a, &b)| a.lerp(b, u))
    }

    #[inline(always)]
    fn rotations(&self, channels: Range<usize>) -> impl Iterator<Item = Quat> {
        let u = self.2;
        let pairs = self.0[channels.clone()].iter().zip(&self.1[channels]);
        pairs.map(move |(&a, &b)| Quat::from_vec4(a).lerp(Quat::from_vec4(b), u))
    }
}

/// Poses a [`Skeleton3D`] from clip samples (see [`PoseBackend::apply`] for the contract).
///
/// Per layer and joint: translations and scales move by `weight x sum(w_i x (v_i - ref))` (ref =
/// the pose below for Replace, setup for Additive). Rotations: the layer's samples are blended
/// first (hemisphere-corrected; slerp when exactly two, a normalised weighted sum when more),
/// then the pose rotates from the pose below towards that blend by `layer weight x their summed
/// weight` (slerp), so unfilled weight stays with the pose below. Additive rotations use the
/// setup-relative delta `setup^-1 x value`, scaled from identity by the same amount and applied
/// after the pose below. Joints a clip does not key keep the pose below. glTF has no events, so
/// this backend fires none.
#[derive(Debug)]
pub struct Skeleton3DPoseBackend {
    skeleton: Arc<Skeleton3D>,
    /// The pose after the last `apply`.
    pub pose: Pose3D,
    /// What `apply` uses only while it runs (a crowd keeps one per thread).
    /// Boxed: a crowd member's is swapped by pointer, and keeps its struct small.
    scratch: Box<ApplyScratch>,
    /// Masks over bones then morph groups (a group is a child of its owner bone); shared by the
    /// copies of a bound backend (resolving a mask copies them first).
    masks: Arc<ResolvedMasks>,
    /// Inertial blending's storage, made by `prepare_inertial` (graphs with inertial
    /// transitions only).
    inertial: Option<Box<Inertial3D>>,
    /// Whether `apply` computes `pose.world` (on by default; see
    /// [`set_world_matrices`](Self::set_world_matrices)).
    world_matrices: bool,
    /// Per joint: whether some clip keys it (shared by copies). Only those can have anything in
    /// a layer's sums, so only those are added to the pose per layer. The same as
    /// `rest_local[j].is_none()`, kept as bytes: walking the 80-byte options instead cost 111
    /// instructions per crowd Robot update and 195 per character-frame of the peer comparison
    /// (callgrind).
    animated: Arc<[bool]>,
    /// Per joint no clip keys: its local matrix at rest (offset included), which `apply` leaves
    /// it at; `None` for animated joints (shared by copies).
    rest_local: Arc<[Option<Affine3A>]>,
}

/// What a 3D backend's `apply` uses only while it runs: per-layer sums. Empty in a
/// [`member`](animgraph_runtime::crowd::CrowdBackend::member) of a crowd, which swaps its
/// thread's in around `apply` (a member applied on its own sizes its own first). Unlike the 2D
/// backend's, it is not an `Option`: taking it out and back around the blend cost 100 to 230
/// instructions per Robot update (callgrind), for the 120 bytes an empty one holds.
#[derive(Clone, Debug, Default)]
pub struct ApplyScratch {
    /// Per joint: the current layer's running sums.
    accum: Vec<Accum>,
    /// Per morph weight: the current layer's weighted delta.
    morph_accum: Vec<f32>,
    /// One group's sampled weights.
    morph_scratch: Vec<f32>,
    /// Inertial blends (sized by `prepare_inertial`): a starting blend's target at the
    /// samples' previous times, and those samples.
    target_prev: Vec<(Vec3, Quat, Vec3)>,
    prev_samples: Vec<ClipSample>,
    /// Sized for a skeleton (false in the empty scratch a crowd member holds between applies).
    sized: bool,
}

impl ApplyScratch {
    /// Scratch for `skeleton`, with room for inertial blends of `inertial_samples` samples.
    fn for_skeleton(skeleton: &Skeleton3D, inertial_samples: Option<usize>) -> ApplyScratch {
        let joints = if inertial_samples.is_some() { skeleton.bone_count() } else { 0 };
        ApplyScratch {
            sized: true,
            target_prev: vec![(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE); joints],
            prev_samples: Vec::with_capacity(inertial_samples.map_or(0, |n| n + 64)),
            accum: vec![Accum::EMPTY; skeleton.bone_count()],
            morph_accum: vec![0.0; skeleton.morph_count],
            morph_scratch: vec![
                0.0;
                skeleton
                    .morph_groups
                    .iter()
                    .map(|g| g.default_weights.len())
                    .max()
                    .unwrap_or(0)
            ],
        }
    }
}

/// What inertial blends need, sized once. Rotations are offset as scaled axes (the rotation
/// from the target to the pose, `log(pose x target^-1)`), so each component decays on its own.
///
/// Only the joint properties some clip keys get history and offsets: the others stay at the
/// rest pose, so there is nothing to carry over (RobotExpressive keys 30 of its 43 x 3).
#[derive(Clone, Debug)]
struct Inertial3D {
    /// The keyed `(joint, property)` pairs in joint order (shared by the members of a crowd).
    keyed: Arc<[(u16, Property)]>,
    /// The keyed properties' output values of the last two applies (`[0]` the last), in
    /// `keyed`'s order: xyz for translation and scale, xyzw for rotation.
    history: [Vec<Vec4>; 2],
    frames: u8,
    /// The most samples per frame (the scratch's `prev_samples` is sized from it).
    samples: usize,
    /// Per layer: per keyed property its 3 offsets (xyz; a rotation's as a scaled axis), the
    /// blend's elapsed seconds at its start, and whether it runs.
    layers: Vec<(Vec<[Offset; 3]>, f32, bool)>,
}

/// Every channel of `skeleton`'s clips on one of its joints: what `apply` can move (the other
/// joints stay at rest).
fn keyed_channels(skeleton: &Skeleton3D) -> impl Iterator<Item = &crate::skeleton::Channel> {
    let n = skeleton.bone_count();
    skeleton.clips.iter().flat_map(|c| &c.channels).filter(move |c| (c.joint as usize) < n)
}

/// A joint's local matrix: `offset x TRS`.
#[inline]
fn local_matrix(offset: Option<&Affine3A>, scale: Vec3, rotation: Quat, translation: Vec3) -> Affine3A {
    let m = Affine3A::from_scale_rotation_translation(scale, rotation, translation);
    offset.map_or(m, |offset| *offset * m)
}

/// The rotation taking `b` to `a` as a scaled axis (shortest way round).
fn rotation_between(a: Quat, b: Quat) -> Vec3 {
    let q = a * b.inverse();
    let q = if q.w < 0.0 { -q } else { q };
    q.normalize().to_scaled_axis()
}

impl Clone for Skeleton3DPoseBackend {
    fn clone(&self) -> Self {
        // Between applies the scratch holds nothing worth copying.
        self.copy_with(animgraph_runtime::crowd::CrowdBackend::new_scratch(self))
    }
}

impl Skeleton3DPoseBackend {
    /// A copy of this backend with `scratch` for its own.
    fn copy_with(&self, scratch: Box<ApplyScratch>) -> Self {
        Skeleton3DPoseBackend {
            skeleton: Arc::clone(&self.skeleton),
            pose: self.pose.clone(),
            scratch,
            masks: Arc::clone(&self.masks),
            inertial: self.inertial.clone(),
            world_matrices: self.world_matrices,
            animated: Arc::clone(&self.animated),
            rest_local: Arc::clone(&self.rest_local),
        }
    }
}

/// What a 3D backend's inertial blends depend on (its last two outputs and the offsets running),
/// for rollback: restore it with the player's snapshot and re-simulation repeats bit for bit.
#[derive(Clone, Debug, Default)]
pub struct MotionSnapshot(Option<Box<Inertial3D>>);

impl Skeleton3DPoseBackend {
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
            to.0.copy_from_slice(&from.0);
            (to.1, to.2) = (from.1, from.2);
        }
    }

    /// A backend posing `skeleton`, starting at its rest pose.
    pub fn new(skeleton: Arc<Skeleton3D>) -> Self {
        let n = skeleton.bone_count();
        let mut backend = Skeleton3DPoseBackend {
            pose: Pose3D {
                translations: skeleton.setup_translation.clone(),
                rotations: skeleton.setup_rotation.clone(),
                scales: skeleton.setup_scale.clone(),
                world: vec![Affine3A::IDENTITY; n],
                morph_weights: skeleton.morph_defaults(),
            },
            scratch: Box::new(ApplyScratch::for_skeleton(&skeleton, None)),
            masks: Arc::default(),
            inertial: None,
            world_matrices: true,
            animated: Arc::default(),
            rest_local: Arc::default(),
            skeleton,
        };
        let s = &*backend.skeleton;
        let mut keyed = vec![false; n];
        for c in keyed_channels(s) {
            keyed[c.joint as usize] = true;
        }
        backend.rest_local = (0..n)
            .map(|j| {
                (!keyed[j]).then(|| {
                    let (t, r, sc) = (s.setup_translation[j], s.setup_rotation[j], s.setup_scale[j]);
                    local_matrix(s.offsets[j].as_ref(), sc, r, t)
                })
            })
            .collect();
        backend.animated = keyed.into();
        backend.update_world();
        backend
    }

    /// Whether `apply` also computes the world matrices (`pose.world`, which skinning and
    /// drawing read). On by default. An engine that propagates joint transforms itself (Bevy
    /// writes the local pose into its `Transform`s) turns them off and saves about a fifth of
    /// `apply`; `pose.world` then keeps its last value until turned on again.
    pub fn set_world_matrices(&mut self, on: bool) {
        self.world_matrices = on;
    }

    /// The skeleton.
    pub fn skeleton(&self) -> &Arc<Skeleton3D> {
        &self.skeleton
    }

    /// Warnings from resolving masks (unknown joint names, each once).
    pub fn warnings(&self) -> &[String] {
        self.masks.warnings()
    }

    /// The bones a resolved mask includes.
    pub fn mask_bones(&self, mask: MaskId) -> Vec<String> {
        let Some(m) = self.masks.get(mask) else { return Vec::new() };
        let s = &self.skeleton;
        m.iter()
            .enumerate()
            .filter(|(_, weight)| **weight > 0.0)
            .map(|(j, _)| s.names.get(j).unwrap_or_else(|| &s.morph_groups[j - s.bone_count()].name).clone())
            .collect()
    }

    /// World matrices from the local pose.
    pub fn update_world(&mut self) {
        self.world_from_local(false);
    }

    /// World matrices from the local pose, parents first. With `rest_unkeyed` (right after
    /// `apply`, which leaves every joint no clip keys at rest) those joints take the local
    /// matrix computed once at creation (the same bits) instead of composing it again.
    #[inline(always)]
    fn world_from_local(&mut self, rest_unkeyed: bool) {
        let s = &self.skeleton;
        let n = s.bone_count();
        let (rest_local, parents, offsets) = (&self.rest_local[..n], &s.parents[..n], &s.offsets[..n]);
        let pose = &mut self.pose;
        for j in 0..n {
            let m = match rest_local[j] {
                Some(m) if rest_unkeyed => m,
                _ => {
                    local_matrix(offsets[j].as_ref(), pose.scales[j], pose.rotations[j], pose.translations[j])
                }
            };
            pose.world[j] = parents[j].map_or(m, |p| pose.world[p as usize] * m);
        }
    }

    /// The local pose per joint, as `simulate --poses` prints it:
    /// `[tx, ty, tz, qx, qy, qz, qw, sx, sy, sz]`.
    pub fn local_pose(&self) -> Vec<(String, [f32; 10])> {
        let p = &self.pose;
        (0..self.skeleton.bone_count())
            .map(|j| {
                let (t, q, s) = (p.translations[j], p.rotations[j], p.scales[j]);
                (self.skeleton.names[j].clone(), [t.x, t.y, t.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z])
            })
            .collect()
    }

    /// The morph weights per mesh node, as `simulate --poses` prints them (`morphs`). Nodes
    /// named alike are told apart by their group names.
    pub fn morph_pose(&self) -> Vec<(String, Vec<f32>)> {
        self.skeleton
            .morph_groups
            .iter()
            .map(|g| {
                let n = g.default_weights.len();
                let unique =
                    self.skeleton.morph_groups.iter().filter(|o| o.node_name == g.node_name).count() == 1;
                let name = if unique { g.node_name.clone() } else { g.name.clone() };
                (name, self.pose.morph_weights[g.first..g.first + n].to_vec())
            })
            .collect()
    }
}

impl PoseBackend for Skeleton3DPoseBackend {
    fn resolve_clip(&mut self, name: &str) -> Option<ClipId> {
        self.skeleton.clip_names.resolve(name)
    }

    fn resolve_mask(&mut self, mask: &BoneMask) -> Option<MaskId> {
        let s = &self.skeleton;
        if s.morph_groups.is_empty() {
            return Some(Arc::make_mut(&mut self.masks).resolve(mask, |name| s.bone_index(name), &s.parents));
        }
        // Morph groups are named after their mesh nodes and hang below their owner bones.
        let n = s.bone_count();
        let lookup = |name: &str| {
            s.bone_index(name).or_else(|| s.morph_groups.iter().position(|g| g.name == name).map(|g| n + g))
        };
        let parents: Vec<Option<u16>> =
            s.parents.iter().copied().chain(s.morph_groups.iter().map(|g| Some(g.owner))).collect();
        Some(Arc::make_mut(&mut self.masks).resolve(mask, lookup, &parents))
    }

    fn clip_length(&self, clip: ClipId) -> f32 {
        self.skeleton.clips.get(clip.0 as usize).map_or(0.0, |c| c.duration)
    }

    fn clip_loops(&self, _clip: ClipId) -> bool {
        true
    }

    fn clip_markers(&self, clip: ClipId) -> Vec<(String, f32)> {
        self.skeleton.clips.get(clip.0 as usize).map(|c| c.markers.clone()).unwrap_or_default()
    }

    fn apply(&mut self, samples: &[ClipSample], layers: &[LayerInfo]) {
        if !self.scratch.sized {
            // A crowd member applied without its thread's scratch swapped in makes its own once
            // (and keeps it) rather than failing.
            self.scratch = animgraph_runtime::crowd::CrowdBackend::new_scratch(self);
        }
        let starting = self.inertial.is_some() && animgraph_runtime::core::inertial::starts(layers);
        if starting {
            // An inertial blend starts: the target at the samples' previous times gives its
            // velocity.
            let mut prev_samples = std::mem::take(&mut self.scratch.prev_samples);
            animgraph_runtime::core::inertial::at_previous_times(samples, &mut prev_samples);
            self.blend_layers(&prev_samples, layers);
            self.scratch.prev_samples = prev_samples;
            let pose = &self.pose;
            for (j, target) in self.scratch.target_prev.iter_mut().enumerate() {
                *target = (pose.translations[j], pose.rotations[j], pose.scales[j]);
            }
        }
        self.blend_layers(samples, layers);
        if self.inertial.is_some() {
            self.inertialize(layers);
        }
        if self.world_matrices {
            self.world_from_local(true);
        }
    }

    fn prepare_inertial(&mut self, layers: &[bool], samples: usize) {
        let keyed: std::collections::BTreeSet<(u16, Property)> =
            keyed_channels(&self.skeleton).map(|c| (c.joint, c.property)).collect();
        let keyed: Arc<[(u16, Property)]> = keyed.into_iter().collect();
        *self.scratch = ApplyScratch::for_skeleton(&self.skeleton, Some(samples));
        self.inertial = Some(Box::new(Inertial3D {
            history: [vec![Vec4::ZERO; keyed.len()], vec![Vec4::ZERO; keyed.len()]],
            frames: 0,
            samples,
            // Layers without inertial transitions get no offsets.
            layers: layers
                .iter()
                .map(|&on| (vec![[Offset::default(); 3]; if on { keyed.len() } else { 0 }], 0.0, false))
                .collect(),
            keyed,
        }));
    }
}

impl Skeleton3DPoseBackend {
    /// Steps 1-6 of the contract: the layers blended into the local pose (no world matrices).
    fn blend_layers(&mut self, samples: &[ClipSample], layers: &[LayerInfo]) {
        let skeleton = &*self.skeleton;
        let pose = &mut self.pose;
        pose.translations.copy_from_slice(&skeleton.setup_translation);
        pose.rotations.copy_from_slice(&skeleton.setup_rotation);
        pose.scales.copy_from_slice(&skeleton.setup_scale);
        let morphs = skeleton.morph_count > 0;
        if morphs {
            for g in &skeleton.morph_groups {
                pose.morph_weights[g.first..g.first + g.default_weights.len()]
                    .copy_from_slice(&g.default_weights);
            }
        }
        for (l, info) in layers.iter().enumerate() {
            if info.weight <= 0.0 {
                continue;
            }
            let mask = info.mask.and_then(|m| self.masks.get(m));
            let excluded = |j: usize| mask.is_some_and(|m| m[j] <= 0.0);
            let additive = info.blend == ClipBlend::Additive;
            // Every joint's sums are empty here (each is emptied as it is added to the pose).
            if morphs {
                self.scratch.morph_accum.fill(0.0);
            }
            let below = Below { skeleton, pose, additive };
            for sample in samples.iter().filter(|s| s.layer as usize == l) {
                let c = sample.clip.0 as usize;
                let Some(clip) = skeleton.clips.get(c) else { continue };
                let w = sample.weight;
                if morphs {
                    // Morph weights: Replace moves from the weights below, Additive adds the
                    // difference from the defaults, both by the sample's weight.
                    for channel in &clip.morph {
                        let g = channel.group as usize;
                        let group = &skeleton.morph_groups[g];
                        // A morph group's weight under the mask (by its name or its owner joint).
                        let group_weight =
                            mask.map_or(1.0, |m| m.get(skeleton.bone_count() + g).copied().unwrap_or(0.0));
                        if group_weight <= 0.0 {
                            continue;
                        }
                        let w = w * group_weight;
                        let n = group.default_weights.len();
                        let sampled = &mut self.scratch.morph_scratch[..n];
                        sampled.copy_from_slice(&pose.morph_weights[group.first..group.first + n]);
                        channel.sample_into(sample.time, sampled);
                        let below = if additive {
                            &group.default_weights[..]
                        } else {
                            &pose.morph_weights[group.first..group.first + n]
                        };
                        for ((acc, v), b) in self.scratch.morph_accum[group.first..group.first + n]
                            .iter_mut()
                            .zip(sampled.iter())
                            .zip(below)
                        {
                            *acc += w * (v - b);
                        }
                    }
                }
                if let Some(baked) = &skeleton.baked[c] {
                    // One place for all channels; values read row by row.
                    match baked.place(sample.time) {
                        Place::At(k) => {
                            below.add_baked(&mut self.scratch.accum, baked, AtKey(baked.row(k)), w, mask)
                        }
                        Place::Between(k, u) => {
                            let row = BetweenKeys(baked.row(k), baked.row(k + 1), u);
                            below.add_baked(&mut self.scratch.accum, baked, row, w, mask);
                        }
                    }
                    continue;
                }
                for (channel, &spaced) in clip.channels.iter().zip(&skeleton.spacing[c]) {
                    let j = channel.joint as usize;
                    if excluded(j) {
                        continue;
                    }
                    let mut v = channel.sample_spaced(sample.time, spaced);
                    if channel.property == Property::Rotation {
                        v = Quat::from_vec4(v).normalize().into();
                    }
                    below.add(&mut self.scratch.accum[j], j, channel.property, v, w);
                }
            }
            let joints = self
                .scratch
                .accum
                .iter_mut()
                .zip(&mut pose.translations)
                .zip(&mut pose.scales)
                .zip(&mut pose.rotations)
                .zip(self.animated.iter());
            for (j, ((((acc, translation), scale), rotation), &animated)) in joints.enumerate() {
                if !animated {
                    continue;
                }
                // Emptied for the next layer as it is read: the sums, and the count that marks
                // the rotation fields stale (the first rotation added overwrites them).
                let (delta_translation, delta_scale) = (acc.translation, acc.scale);
                let count = std::mem::take(&mut acc.count);
                (acc.translation, acc.scale) = (Vec3::ZERO, Vec3::ZERO);
                let acc = &*acc;
                // A weighted mask scales the layer per joint.
                let layer_weight = info.weight * mask.map_or(1.0, |m| m[j]);
                *translation += layer_weight * delta_translation;
                *scale += layer_weight * delta_scale;
                if count == 0 {
                    continue;
                }
                let [w1, w2] = acc.weights;
                let (blend, filled) = match count {
                    1 => (acc.first, w1),
                    2 if w1 + w2 > 0.0 => (acc.first.slerp(acc.second, w2 / (w1 + w2)), w1 + w2),
                    _ => {
                        let total = acc.sum.length();
                        if total < 1e-9 {
                            continue;
                        }
                        // The filled weight is the samples' total (the sum's length is not, once
                        // rotations differ).
                        (Quat::from_vec4(acc.sum / total), acc.total)
                    }
                };
                let amount = (filled * layer_weight).clamp(0.0, 1.0);
                *rotation = if amount >= 1.0 && !additive {
                    blend.normalize()
                } else if additive {
                    (*rotation * Quat::IDENTITY.slerp(blend, amount)).normalize()
                } else {
                    rotation.slerp(blend, amount).normalize()
                };
            }
            if morphs {
                for (weight, acc) in pose.morph_weights.iter_mut().zip(&self.scratch.morph_accum) {
                    *weight += info.weight * acc;
                }
            }
        }
    }

    /// Step 7: inertial blends (see the 2D backend's, per joint: translation, rotation as a
    /// scaled axis, scale). Morph weights are not inertialized.
    fn inertialize(&mut self, layers: &[LayerInfo]) {
        let Some(inertial) = self.inertial.as_deref_mut() else { return };
        let pose = &mut self.pose;
        for (l, info) in layers.iter().enumerate() {
            let Some((offsets, start, active)) = inertial.layers.get_mut(l) else { break };
            let Some(blend) = info.inertial else {
                *active = false;
                continue;
            };
            let mask = info.mask.and_then(|m| self.masks.get(m));
            if blend.started {
                let dt = blend.elapsed.max(1e-6);
                let remaining = blend.duration - blend.elapsed;
                (*start, *active) = (blend.elapsed, true);
                for (k, (offset, &(j, property))) in offsets.iter_mut().zip(inertial.keyed.iter()).enumerate()
                {
                    let j = j as usize;
                    if mask.is_some_and(|m| m[j] <= 0.0) || inertial.frames == 0 {
                        *offset = [Offset::default(); 3];
                        continue;
                    }
                    let last = inertial.history[0][k];
                    let before = if inertial.frames >= 2 { inertial.history[1][k] } else { last };
                    let (target_prev, target) = (self.scratch.target_prev[j], &*pose);
                    // Where the pose was heading, and how fast, against the target.
                    let (x, v) = if property == Property::Rotation {
                        let (r1, r2) = (Quat::from_vec4(last), Quat::from_vec4(before));
                        let (rt, rp) = (target.rotations[j], target_prev.1);
                        let rv = rotation_between(r1, r2) / dt;
                        let heading = Quat::from_scaled_axis(rv * dt) * r1;
                        (rotation_between(heading, rt), rv - rotation_between(rt, rp) / dt)
                    } else {
                        let (p1, p2) = (last.truncate(), before.truncate());
                        let (pt, pp) = if property == Property::Translation {
                            (target.translations[j], target_prev.0)
                        } else {
                            (target.scales[j], target_prev.2)
                        };
                        let pv = (p1 - p2) / dt;
                        (p1 + pv * dt - pt, pv - (pt - pp) / dt)
                    };
                    *offset = std::array::from_fn(|i| Offset::new(x[i], v[i], remaining));
                }
            }
            if !*active {
                continue;
            }
            let t = blend.elapsed - *start;
            for (offset, &(j, property)) in offsets.iter().zip(inertial.keyed.iter()) {
                if offset.iter().all(|o| o.end <= t) {
                    continue;
                }
                let j = j as usize;
                let at = Vec3::new(offset[0].at(t), offset[1].at(t), offset[2].at(t));
                match property {
                    Property::Translation => pose.translations[j] += at,
                    Property::Rotation => {
                        let rotation =
                            Quat::from_array(animgraph_runtime::core::inertial::exp_rotation(at.to_array()));
                        pose.rotations[j] = (rotation * pose.rotations[j]).normalize();
                    }
                    Property::Scale => pose.scales[j] += at,
                }
            }
        }
        let [last, before] = &mut inertial.history;
        std::mem::swap(last, before);
        for (h, &(j, property)) in last.iter_mut().zip(inertial.keyed.iter()) {
            let j = j as usize;
            *h = match property {
                Property::Translation => pose.translations[j].extend(0.0),
                Property::Rotation => Vec4::from(pose.rotations[j]),
                Property::Scale => pose.scales[j].extend(0.0),
            };
        }
        inertial.frames = (inertial.frames + 1).min(2);
    }
}

impl animgraph_runtime::BackendNames for Skeleton3DPoseBackend {
    fn clip_name(&self, clip: ClipId) -> String {
        self.skeleton.clips.get(clip.0 as usize).map_or_else(|| "?".into(), |c| c.name.clone())
    }

    fn mask_bones(&self, mask: MaskId) -> Vec<String> {
        self.mask_bones(mask)
    }
}

/// A crowd member keeps its pose and inertial state; the per-layer sums are its thread's.
/// Between LOD samples the local translations, scales and morph weights move linearly towards
/// the sample and rotations by normalised lerp the shorter way; world transforms are recomputed
/// from them (a pass over the joints, much cheaper than sampling).
impl animgraph_runtime::crowd::CrowdBackend for Skeleton3DPoseBackend {
    type Scratch = Box<ApplyScratch>;
    /// A whole pose: the LOD target is just another pose.
    type Keyframe = Pose3D;

    fn member(&self) -> Self {
        self.copy_with(Box::default())
    }

    fn new_scratch(&self) -> Box<ApplyScratch> {
        Box::new(ApplyScratch::for_skeleton(&self.skeleton, self.inertial.as_ref().map(|i| i.samples)))
    }

    fn swap_scratch(&mut self, scratch: &mut Box<ApplyScratch>) {
        std::mem::swap(&mut self.scratch, scratch);
    }

    fn new_keyframe(&self) -> Pose3D {
        self.pose.clone()
    }

    fn save_keyframe(&self, into: &mut Pose3D) {
        into.copy_from(&self.pose);
    }

    fn load_keyframe(&mut self, from: &Pose3D) {
        self.pose.copy_from(from);
    }

    // No `prefetch`: hinting the pose's arrays (local transforms, world matrices, inertial
    // history) two Robots ahead measured alike with and without (`crowd_scaling`, 10,000 and
    // 30,000 Robots, alternated builds) for 400 more instructions per update.

    fn approach(&mut self, target: &Pose3D, frames_left: u32) {
        if frames_left <= 1 {
            return self.load_keyframe(target);
        }
        let f = 1.0 / frames_left as f32;
        let p = &mut self.pose;
        for (v, t) in p.translations.iter_mut().zip(&target.translations) {
            *v = v.lerp(*t, f);
        }
        for (v, t) in p.scales.iter_mut().zip(&target.scales) {
            *v = v.lerp(*t, f);
        }
        for (q, t) in p.rotations.iter_mut().zip(&target.rotations) {
            let t = if q.dot(*t) < 0.0 { -*t } else { *t };
            *q = q.lerp(t, f);
        }
        for (v, t) in p.morph_weights.iter_mut().zip(&target.morph_weights) {
            *v += (t - *v) * f;
        }
        if self.world_matrices {
            self.update_world();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::{Channel, Clip3D, Interpolation};
    use glam::Mat4;

    /// A small deterministic generator for key values.
    fn values(seed: &mut u32, n: usize, rotation: bool) -> Vec<Vec4> {
        let mut next = || {
            *seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (*seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        };
        (0..n)
            .map(|_| {
                let v = Vec4::new(next(), next(), next(), next());
                if rotation { v.normalize() } else { v }
            })
            .collect()
    }

    /// Channels in mixed property order (as glTF files list them), on 11 keys 0.1 s apart.
    fn clip(name: &str, seed: &mut u32) -> Clip3D {
        // Clip "b" holds its last key longer (keys unevenly spaced, as the Fox's Run).
        let mut times: Vec<f32> = (0..11).map(|k| k as f32 * 0.1).collect();
        if name == "b" {
            times[10] = 1.3;
        }
        let order = [
            (1, Property::Rotation),
            (0, Property::Translation),
            (2, Property::Scale),
            (3, Property::Rotation),
            (2, Property::Translation),
            (0, Property::Rotation),
            (1, Property::Scale),
        ];
        let channels = order
            .iter()
            .map(|&(joint, property)| Channel {
                joint,
                property,
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values: values(seed, times.len(), property == Property::Rotation),
            })
            .collect();
        Clip3D { name: name.into(), duration: 1.0, channels, ..Default::default() }
    }

    fn skeleton(bake: bool) -> Arc<Skeleton3D> {
        let mut seed = 7;
        let clips = vec![clip("a", &mut seed), clip("b", &mut seed)];
        let rest = (0..4)
            .map(|j| (Vec3::splat(j as f32), Quat::from_rotation_z(0.3 * j as f32), Vec3::ONE))
            .collect();
        let names = (0..4).map(|j| format!("j{j}")).collect();
        let mut s =
            Skeleton3D::new(names, vec![None, Some(0), Some(1), Some(0)], rest, Mat4::IDENTITY, clips, None);
        assert!(s.baked.iter().all(Option::is_some), "linear clips with shared keys are baked");
        assert_eq!(s.spacing[1][0], crate::skeleton::Spacing::Irregular, "clip b's keys are uneven");
        if !bake {
            s.baked = vec![None; s.clips.len()];
        }
        Arc::new(s)
    }

    /// The baked (time-major, property-grouped) path poses exactly what per-channel sampling
    /// does: at keys, between keys, past the end, on masked and additive layers.
    #[test]
    fn baked_clips_pose_like_per_channel_sampling() {
        let poses: Vec<Pose3D> = [true, false]
            .into_iter()
            .map(|bake| {
                let mut backend = Skeleton3DPoseBackend::new(skeleton(bake));
                let mask = backend.resolve_mask(&BoneMask::new(vec!["j1".into()], true));
                let (a, b) = (backend.resolve_clip("a").unwrap(), backend.resolve_clip("b").unwrap());
                let sample = |clip, time, weight, layer| ClipSample {
                    clip,
                    time,
                    prev_time: time,
                    weight,
                    layer,
                    looped: false,
                };
                let samples = [
                    sample(a, 0.37, 0.6, 0),
                    sample(b, 0.0, 0.4, 0),
                    sample(a, 1.5, 1.0, 1),
                    sample(b, 0.55, 0.7, 2),
                    sample(a, 0.2, 0.3, 2),
                    sample(b, 0.81, 0.3, 2),
                    sample(b, 1.1, 0.2, 2),
                ];
                let layers = [
                    LayerInfo::default(),
                    LayerInfo { blend: ClipBlend::Additive, weight: 0.8, mask, ..Default::default() },
                    LayerInfo { weight: 0.5, mask, ..Default::default() },
                ];
                backend.apply(&samples, &layers);
                backend.pose.clone()
            })
            .collect();
        let (baked, plain) = (&poses[0], &poses[1]);
        for j in 0..4 {
            assert!(baked.translations[j].abs_diff_eq(plain.translations[j], 1e-5), "joint {j} translation");
            assert!(baked.scales[j].abs_diff_eq(plain.scales[j], 1e-5), "joint {j} scale");
            assert!(baked.rotations[j].abs_diff_eq(plain.rotations[j], 1e-5), "joint {j} rotation");
            assert!(baked.world[j].abs_diff_eq(plain.world[j], 1e-4), "joint {j} world");
        }
        assert!(!baked.rotations[1].abs_diff_eq(Quat::IDENTITY, 1e-3), "the clips move the masked joint");
    }

    /// With world matrices off, `apply` leaves `pose.world` as it was and poses the locals the
    /// same; turned on again, the next `apply` brings the world matrices up to date.
    #[test]
    fn world_matrices_can_be_switched_off() {
        let mut on = Skeleton3DPoseBackend::new(skeleton(true));
        let mut off = Skeleton3DPoseBackend::new(skeleton(true));
        off.set_world_matrices(false);
        let rest = off.pose.world.clone();
        let a = on.resolve_clip("a").unwrap();
        let samples =
            [ClipSample { clip: a, time: 0.37, prev_time: 0.37, weight: 1.0, layer: 0, looped: false }];
        let layers = [LayerInfo::default()];
        on.apply(&samples, &layers);
        off.apply(&samples, &layers);
        assert_eq!(off.pose.rotations, on.pose.rotations);
        assert_eq!(off.pose.translations, on.pose.translations);
        assert_eq!(off.pose.world, rest, "world matrices untouched");
        assert_ne!(on.pose.world, rest, "the clip moves the joints");
        off.set_world_matrices(true);
        off.apply(&samples, &layers);
        assert_eq!(off.pose.world, on.pose.world);
    }
}
