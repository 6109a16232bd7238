//! `Skeleton3DPoseBackend`: the layering contract on a 3D skeleton, with quaternion blending.

use std::sync::Arc;

use animgraph::{BoneMask, ClipBlend, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend};
use glam::{Affine3A, Quat, Vec3, Vec4};

use crate::skeleton::{Property, Skeleton3D};

/// A 3D pose: local transforms per joint and world matrices.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose3D {
    /// Local translations.
    pub translations: Vec<Vec3>,
    /// Local rotations.
    pub rotations: Vec<Quat>,
    /// Local scales.
    pub scales: Vec<Vec3>,
    /// World transforms (including the skeleton's root transform).
    pub world: Vec<Affine3A>,
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
    translation_delta: Vec<Vec3>,
    scale_delta: Vec<Vec3>,
    rotation_first: Vec<Quat>,
    rotation_second: Vec<Quat>,
    rotation_sum: Vec<Vec4>,
    rotation_weights: Vec<[f32; 2]>,
    rotation_count: Vec<u32>,
    rotation_total: Vec<f32>,
    masks: Vec<Vec<bool>>,
    warnings: Vec<String>,
}

impl Clone for Skeleton3DPoseBackend {
    fn clone(&self) -> Self {
        Skeleton3DPoseBackend {
            skeleton: Arc::clone(&self.skeleton),
            pose: self.pose.clone(),
            translation_delta: self.translation_delta.clone(),
            scale_delta: self.scale_delta.clone(),
            rotation_first: self.rotation_first.clone(),
            rotation_second: self.rotation_second.clone(),
            rotation_sum: self.rotation_sum.clone(),
            rotation_weights: self.rotation_weights.clone(),
            rotation_count: self.rotation_count.clone(),
            rotation_total: self.rotation_total.clone(),
            masks: self.masks.clone(),
            warnings: self.warnings.clone(),
        }
    }
}

impl Skeleton3DPoseBackend {
    /// A backend posing `skeleton`, starting at its rest pose.
    pub fn new(skeleton: Arc<Skeleton3D>) -> Self {
        let n = skeleton.joint_count();
        let mut backend = Skeleton3DPoseBackend {
            pose: Pose3D {
                translations: skeleton.rest_translation.clone(),
                rotations: skeleton.rest_rotation.clone(),
                scales: skeleton.rest_scale.clone(),
                world: vec![Affine3A::IDENTITY; n],
            },
            translation_delta: vec![Vec3::ZERO; n],
            scale_delta: vec![Vec3::ZERO; n],
            rotation_first: vec![Quat::IDENTITY; n],
            rotation_second: vec![Quat::IDENTITY; n],
            rotation_sum: vec![Vec4::ZERO; n],
            rotation_weights: vec![[0.0; 2]; n],
            rotation_count: vec![0; n],
            rotation_total: vec![0.0; n],
            masks: Vec::new(),
            warnings: Vec::new(),
            skeleton,
        };
        backend.update_world();
        backend
    }

    /// The skeleton.
    pub fn skeleton(&self) -> &Arc<Skeleton3D> {
        &self.skeleton
    }

    /// Warnings from resolving masks (unknown joint names, each once).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The joints a resolved mask includes.
    pub fn mask_joints(&self, mask: MaskId) -> Vec<String> {
        let Some(m) = self.masks.get(mask.0 as usize) else { return Vec::new() };
        m.iter().enumerate().filter(|(_, on)| **on).map(|(j, _)| self.skeleton.names[j].clone()).collect()
    }

    /// World matrices from the local pose.
    pub fn update_world(&mut self) {
        let s = &self.skeleton;
        let root = Affine3A::from_mat4(s.root_transform);
        for j in 0..s.joint_count() {
            let local = Affine3A::from_scale_rotation_translation(
                self.pose.scales[j],
                self.pose.rotations[j],
                self.pose.translations[j],
            );
            self.pose.world[j] = match s.parents[j] {
                Some(p) => self.pose.world[p as usize] * local,
                None => root * local,
            };
        }
    }

    /// The local pose per joint, as `simulate --poses` prints it:
    /// `[tx, ty, tz, qx, qy, qz, qw, sx, sy, sz]`.
    pub fn local_pose(&self) -> Vec<(String, [f32; 10])> {
        let p = &self.pose;
        (0..self.skeleton.joint_count())
            .map(|j| {
                let (t, q, s) = (p.translations[j], p.rotations[j], p.scales[j]);
                (self.skeleton.names[j].clone(), [t.x, t.y, t.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z])
            })
            .collect()
    }
}

impl PoseBackend for Skeleton3DPoseBackend {
    fn resolve_clip(&mut self, name: &str) -> Option<ClipId> {
        self.skeleton.clip_index.get(name).map(|&i| ClipId(i as u32))
    }

    fn resolve_mask(&mut self, mask: &BoneMask) -> Option<MaskId> {
        let skeleton = &self.skeleton;
        let on = mask.resolve(|name| skeleton.joint(name), &skeleton.parents, &mut self.warnings);
        self.masks.push(on);
        Some(MaskId(self.masks.len() as u32 - 1))
    }

    fn clip_length(&self, clip: ClipId) -> f32 {
        self.skeleton.clips.get(clip.0 as usize).map_or(0.0, |c| c.duration)
    }

    fn clip_loops(&self, _clip: ClipId) -> bool {
        true
    }

    fn apply(&mut self, samples: &[ClipSample], layers: &[LayerInfo]) {
        let skeleton = Arc::clone(&self.skeleton);
        self.pose.translations.copy_from_slice(&skeleton.rest_translation);
        self.pose.rotations.copy_from_slice(&skeleton.rest_rotation);
        self.pose.scales.copy_from_slice(&skeleton.rest_scale);
        let masks = std::mem::take(&mut self.masks);
        for (l, info) in layers.iter().enumerate() {
            if info.weight <= 0.0 {
                continue;
            }
            let mask = info.mask.and_then(|m| masks.get(m.0 as usize));
            let additive = info.blend == ClipBlend::Additive;
            self.translation_delta.fill(Vec3::ZERO);
            self.scale_delta.fill(Vec3::ZERO);
            self.rotation_count.fill(0);
            for sample in samples.iter().filter(|s| s.layer as usize == l) {
                let Some(clip) = skeleton.clips.get(sample.clip.0 as usize) else { continue };
                let w = sample.weight;
                let spacing = &skeleton.spacing[sample.clip.0 as usize];
                let baked = skeleton.baked[sample.clip.0 as usize].as_ref();
                let place = baked.map(|b| b.place(sample.time));
                for (c, (channel, &spaced)) in clip.channels.iter().zip(spacing).enumerate() {
                    let j = channel.joint as usize;
                    if mask.is_some_and(|m| !m[j]) {
                        continue;
                    }
                    let v = match (baked, place) {
                        (Some(b), Some(p)) => b.value(c, p, channel.property == Property::Rotation),
                        _ => channel.sample_spaced(sample.time, spaced),
                    };
                    match channel.property {
                        Property::Translation => {
                            let reference = if additive {
                                skeleton.rest_translation[j]
                            } else {
                                self.pose.translations[j]
                            };
                            self.translation_delta[j] += w * (v.truncate() - reference);
                        }
                        Property::Scale => {
                            let reference =
                                if additive { skeleton.rest_scale[j] } else { self.pose.scales[j] };
                            self.scale_delta[j] += w * (v.truncate() - reference);
                        }
                        Property::Rotation => {
                            let mut q = Quat::from_vec4(v).normalize();
                            if additive {
                                q = skeleton.rest_rotation[j].inverse() * q;
                            }
                            match self.rotation_count[j] {
                                0 => {
                                    self.rotation_first[j] = q;
                                    self.rotation_sum[j] = Vec4::from(q) * w;
                                    self.rotation_weights[j] = [w, 0.0];
                                }
                                count => {
                                    // Hemisphere correction: blend with the first sample's side.
                                    if q.dot(self.rotation_first[j]) < 0.0 {
                                        q = -q;
                                    }
                                    if count == 1 {
                                        self.rotation_second[j] = q;
                                        self.rotation_weights[j][1] = w;
                                    }
                                    self.rotation_sum[j] += Vec4::from(q) * w;
                                }
                            }
                            self.rotation_count[j] += 1;
                            self.rotation_total[j] =
                                if self.rotation_count[j] == 1 { w } else { self.rotation_total[j] + w };
                        }
                    }
                }
            }
            for j in 0..skeleton.joint_count() {
                self.pose.translations[j] += info.weight * self.translation_delta[j];
                self.pose.scales[j] += info.weight * self.scale_delta[j];
                let count = self.rotation_count[j];
                if count == 0 {
                    continue;
                }
                let [w1, w2] = self.rotation_weights[j];
                let (blend, filled) = match count {
                    1 => (self.rotation_first[j], w1),
                    2 if w1 + w2 > 0.0 => {
                        (self.rotation_first[j].slerp(self.rotation_second[j], w2 / (w1 + w2)), w1 + w2)
                    }
                    _ => {
                        let sum = self.rotation_sum[j];
                        let total = sum.length();
                        if total < 1e-9 {
                            continue;
                        }
                        // The filled weight is the samples' total (the sum's length is not, once
                        // rotations differ).
                        (Quat::from_vec4(sum / total), self.rotation_total[j])
                    }
                };
                let amount = (filled * info.weight).clamp(0.0, 1.0);
                if amount >= 1.0 && !additive {
                    self.pose.rotations[j] = blend.normalize();
                } else if additive {
                    let delta = Quat::IDENTITY.slerp(blend, amount);
                    self.pose.rotations[j] = (self.pose.rotations[j] * delta).normalize();
                } else {
                    self.pose.rotations[j] = self.pose.rotations[j].slerp(blend, amount).normalize();
                }
            }
        }
        self.masks = masks;
        self.update_world();
    }
}

impl animgraph::script::BackendNames for Skeleton3DPoseBackend {
    fn clip_name(&self, clip: ClipId) -> String {
        self.skeleton.clips.get(clip.0 as usize).map_or_else(|| "?".into(), |c| c.name.clone())
    }

    fn mask_bones(&self, mask: MaskId) -> Vec<String> {
        self.mask_joints(mask)
    }
}

impl animgraph::conformance::ConformanceSubject for Skeleton3DPoseBackend {
    fn translation_x(&self, bone: usize) -> f32 {
        self.pose.translations[bone].x
    }

    /// Rotation about z (the suite's rig turns only about z).
    fn rotation_degrees(&self, bone: usize) -> f32 {
        let q = self.pose.rotations[bone];
        (2.0 * q.z.atan2(q.w)).to_degrees()
    }
}
