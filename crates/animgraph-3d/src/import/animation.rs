//! Animations: joint channels (translation, rotation, scale) and morph-target weight channels,
//! every sampler checked (times finite and ascending, one value per key, finite values); what is
//! skipped is reported once per clip, and clips skipping the same things share one line.

use gltf_json::accessor::ComponentType;
use gltf_json::animation::{Interpolation as GltfInterpolation, Property as GltfProperty};
use gltf_json::validation::Checked;

use super::mesh::Group;
use super::{Context, list, unique_names};
use crate::skeleton::{Channel, Clip3D, Interpolation, MorphChannel, Property};
use glam::{Vec3, Vec4};

/// Skipped channels of one clip, by reason, with the nodes they named.
#[derive(Default)]
struct Skipped(Vec<(&'static str, usize, Vec<String>)>);

impl Skipped {
    fn add(&mut self, reason: &'static str, node: String) {
        match self.0.iter_mut().find(|(r, ..)| *r == reason) {
            Some((_, count, nodes)) => {
                *count += 1;
                if nodes.len() < 8 && !nodes.contains(&node) {
                    nodes.push(node);
                }
            }
            None => self.0.push((reason, 1, vec![node])),
        }
    }

    fn describe(&self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let total: usize = self.0.iter().map(|(_, c, _)| c).sum();
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(reason, count, nodes)| format!("{count} {reason} ({})", list(nodes, 4)))
            .collect();
        Some(format!("{total} channel{} skipped: {}", if total == 1 { "" } else { "s" }, parts.join("; ")))
    }
}

pub(crate) fn build(
    cx: &Context,
    groups: &[Group],
    warnings: &mut Vec<String>,
) -> Result<Vec<Clip3D>, String> {
    let root = cx.root;
    let names = unique_names(
        root.animations
            .iter()
            .enumerate()
            .map(|(a, anim)| anim.name.clone().unwrap_or_else(|| format!("animation_{a}"))),
        "animation",
        warnings,
    );
    let group_of: std::collections::HashMap<usize, usize> =
        groups.iter().enumerate().map(|(g, group)| (group.node, g)).collect();
    let mut clips = Vec::with_capacity(names.len());
    let mut reports: Vec<(String, Vec<String>)> = Vec::new();
    for (animation, name) in root.animations.iter().zip(names) {
        let mut skipped = Skipped::default();
        let mut channels = Vec::new();
        let mut morph = Vec::new();
        let mut duration = 0f32;
        for channel in &animation.channels {
            let node = channel.target.node.value();
            let Some(node_name) = cx.nodes.names.get(node) else {
                skipped.add("drive nodes that do not exist", format!("node {node}"));
                continue;
            };
            let node_name = cx
                .bone_of_node
                .get(&node)
                .map_or_else(|| node_name.clone(), |&b| cx.names[b as usize].clone());
            let Some(sampler) = animation.samplers.get(channel.sampler.value()) else {
                skipped.add("name samplers that do not exist", node_name);
                continue;
            };
            let Checked::Valid(path) = channel.target.path else {
                skipped.add("have a path that is not glTF's", node_name);
                continue;
            };
            let Checked::Valid(interpolation) = sampler.interpolation else {
                skipped.add("have an interpolation that is not glTF's", node_name);
                continue;
            };
            let interpolation = match interpolation {
                GltfInterpolation::Linear => Interpolation::Linear,
                GltfInterpolation::Step => Interpolation::Step,
                GltfInterpolation::CubicSpline => Interpolation::CubicSpline,
            };
            let per_key = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
            let group = group_of.get(&node).copied();
            let width = match path {
                GltfProperty::Translation | GltfProperty::Scale => 3,
                GltfProperty::Rotation => 4,
                GltfProperty::MorphTargetWeights => match group {
                    Some(g) => groups[g].group.default_weights.len(),
                    None => {
                        skipped.add("drive morph weights of nodes without morph targets", node_name);
                        continue;
                    }
                },
            };
            // glTF allows float times, and float or normalized integer values (no u32, no
            // plain integers).
            let allowed = |a: usize, floats_only: bool| match cx.accessors.component(a) {
                Some((ComponentType::F32, _)) => true,
                Some((ComponentType::U32, _)) | None => false,
                Some((_, normalized)) => normalized && !floats_only,
            };
            let scale_or_translation = matches!(path, GltfProperty::Translation | GltfProperty::Scale);
            if !allowed(sampler.input.value(), true) || !allowed(sampler.output.value(), scale_or_translation)
            {
                skipped.add("store keys in a component type glTF does not allow there", node_name);
                continue;
            }
            let times = cx.accessors.floats(sampler.input.value(), 1);
            let values = if path == GltfProperty::MorphTargetWeights {
                cx.accessors.floats(sampler.output.value(), 1)
            } else {
                cx.accessors.floats(sampler.output.value(), width)
            };
            let (Ok(times), Ok(values)) = (times, values) else {
                skipped.add("have keys that cannot be read", node_name);
                continue;
            };
            if times.is_empty()
                || values.len() != times.len() * per_key * width
                || times.iter().any(|t| !t.is_finite())
                || times.windows(2).any(|w| w[1] < w[0])
                || values.iter().any(|v| !v.is_finite())
            {
                skipped.add("have malformed keys", node_name);
                continue;
            }
            let end = *times.last().unwrap_or(&0.0);
            if path == GltfProperty::MorphTargetWeights {
                let g = group.unwrap_or(0);
                duration = duration.max(end);
                morph.push(MorphChannel { group: g as u16, interpolation, times, values });
                continue;
            }
            let property = match path {
                GltfProperty::Translation => Property::Translation,
                GltfProperty::Rotation => Property::Rotation,
                _ => Property::Scale,
            };
            let mut values: Vec<Vec4> = values
                .chunks_exact(width)
                .map(|c| if width == 4 { Vec4::from_slice(c) } else { Vec3::from_slice(c).extend(0.0) })
                .collect();
            let Some(&joint) = cx.bone_of_node.get(&node) else {
                // A channel on a node that is not a bone: silent when it never moves it.
                let rest = cx.nodes.trs[node];
                let at_rest = |v: &Vec4| match property {
                    Property::Translation => v.truncate().abs_diff_eq(rest.0, 1e-5),
                    Property::Rotation => {
                        glam::Quat::from_vec4(*v).normalize().dot(rest.1).abs() > 1.0 - 1e-6
                    }
                    Property::Scale => v.truncate().abs_diff_eq(rest.2, 1e-5),
                };
                let keyed = if per_key == 3 {
                    values.iter().skip(1).step_by(3).collect::<Vec<_>>()
                } else {
                    values.iter().collect()
                };
                if !keyed.iter().all(|v| at_rest(v)) {
                    skipped.add("drive nodes that are not joints", node_name);
                }
                continue;
            };
            if property == Property::Rotation && per_key == 1 {
                if values.iter().any(|q| q.length_squared() < 1e-12) {
                    skipped.add("have malformed keys", node_name);
                    continue;
                }
                values.iter_mut().for_each(|q| *q = q.normalize());
            }
            duration = duration.max(end);
            channels.push(Channel { joint, property, interpolation, times, values });
        }
        if let Some(report) = skipped.describe() {
            match reports.iter_mut().find(|(r, _)| *r == report) {
                Some((_, clips)) => clips.push(name.clone()),
                None => reports.push((report, vec![name.clone()])),
            }
        }
        clips.push(Clip3D { name, duration: duration.max(1.0 / 60.0), channels, morph, markers: Vec::new() });
    }
    for (report, names) in reports {
        let subject = if names.len() == 1 {
            format!("clip {}", names[0])
        } else {
            format!("clips {}", list(&names, 5))
        };
        warnings.push(format!("{subject}: {report}"));
    }
    Ok(clips)
}
