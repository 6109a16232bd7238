//! glTF 2.0 import (.glb and .gltf): the skin's joints with their rest pose, the skinned mesh and
//! its materials, and every animation's joint channels.
//!
//! Joints a clip does not key keep the pose below them (the RobotExpressive clips key only some
//! joints; see the layering contract). Morph-target weight channels are reported and ignored;
//! channels on nodes that are not joints of the skin are reported and ignored.

use std::collections::HashMap;
use std::path::Path;

use base64::Engine;
use glam::{Mat4, Quat, Vec2, Vec3, Vec4};
use gltf::animation::util::ReadOutputs;

use crate::skeleton::{Channel, Clip3D, Interpolation, Property, Skeleton3D, SkinnedMesh};

/// Why a glTF file could not be imported.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GltfError(pub String);

/// A skeleton and what the importer skipped.
#[derive(Debug)]
pub struct Imported3D {
    /// The skeleton, clips and mesh.
    pub skeleton: Skeleton3D,
    /// Skipped channels and approximations.
    pub warnings: Vec<String>,
}

/// Imports a .glb or .gltf file (external buffers are read next to it; data URIs decoded).
pub fn import_file(path: impl AsRef<Path>) -> Result<Imported3D, GltfError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| GltfError(format!("cannot read {}: {e}", path.display())))?;
    import_bytes(&bytes, path.parent())
}

/// Imports glTF from bytes; `base` is where relative buffer URIs are looked up.
pub fn import_bytes(bytes: &[u8], base: Option<&Path>) -> Result<Imported3D, GltfError> {
    let gltf =
        gltf::Gltf::from_slice(bytes).map_err(|e| GltfError(format!("not a valid glTF 2.0 file: {e}")))?;
    let mut warnings = Vec::new();
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for buffer in gltf.document.buffers() {
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => {
                gltf.blob.clone().ok_or_else(|| GltfError("the .glb has no binary chunk".into()))?
            }
            gltf::buffer::Source::Uri(uri) => {
                if let Some(data) = uri.strip_prefix("data:") {
                    let encoded = data
                        .split_once(";base64,")
                        .map(|(_, d)| d)
                        .ok_or_else(|| GltfError("only base64 data URIs are supported".into()))?;
                    base64::engine::general_purpose::STANDARD
                        .decode(encoded)
                        .map_err(|e| GltfError(format!("buffer {}: bad base64: {e}", buffer.index())))?
                } else {
                    let file = base.unwrap_or(Path::new(".")).join(uri);
                    std::fs::read(&file).map_err(|e| {
                        GltfError(format!("buffer {}: cannot read {}: {e}", buffer.index(), file.display()))
                    })?
                }
            }
        };
        if data.len() < buffer.length() {
            return Err(GltfError(format!(
                "buffer {} has {} bytes; the file says {}",
                buffer.index(),
                data.len(),
                buffer.length()
            )));
        }
        buffers.push(data);
    }
    let get = |b: gltf::Buffer| buffers.get(b.index()).map(|d| d.as_slice());
    let document = &gltf.document;

    let skins: Vec<gltf::Skin> = document.skins().collect();
    if skins.is_empty() {
        return Err(GltfError(
            "the file has no skin, so no skeleton to animate; export it with its armature".into(),
        ));
    }
    // Exporters often write one skin per mesh over the same skeleton: skins that share joints are
    // merged (their joints' union is the skeleton). Skins of separate skeletons are refused.
    for (i, other) in skins.iter().enumerate().skip(1) {
        let first: std::collections::HashSet<usize> = skins[0].joints().map(|j| j.index()).collect();
        if !other.joints().any(|j| first.contains(&j.index())) {
            return Err(GltfError(format!(
                "skin {i} shares no joint with skin 0: the file holds {} separate skeletons; animgraph imports one skeleton per file, so split the characters into separate files",
                skins.len()
            )));
        }
    }

    // Parents of every node, and which nodes are joints.
    let mut node_parent: HashMap<usize, usize> = HashMap::new();
    for node in document.nodes() {
        for child in node.children() {
            node_parent.insert(child.index(), node.index());
        }
    }
    let mut skin_joints: Vec<gltf::Node> = Vec::new();
    for skin in &skins {
        for joint in skin.joints() {
            if !skin_joints.iter().any(|j| j.index() == joint.index()) {
                skin_joints.push(joint);
            }
        }
    }
    let joint_of_node: HashMap<usize, usize> =
        skin_joints.iter().enumerate().map(|(i, n)| (n.index(), i)).collect();
    let joint_parent = |j: usize| -> Option<usize> {
        let mut node = skin_joints[j].index();
        while let Some(&p) = node_parent.get(&node) {
            if let Some(&pj) = joint_of_node.get(&p) {
                return Some(pj);
            }
            node = p;
        }
        None
    };
    // Order parents first, keeping the skin's order otherwise.
    let mut order: Vec<usize> = Vec::with_capacity(skin_joints.len());
    let mut placed = vec![false; skin_joints.len()];
    while order.len() < skin_joints.len() {
        let before = order.len();
        for j in 0..skin_joints.len() {
            if !placed[j] && joint_parent(j).is_none_or(|p| placed[p]) {
                placed[j] = true;
                order.push(j);
            }
        }
        if order.len() == before {
            return Err(GltfError("the skin's joints form a cycle".into()));
        }
    }
    let new_index: Vec<u16> = {
        let mut v = vec![0u16; order.len()];
        for (new, &old) in order.iter().enumerate() {
            v[old] = new as u16;
        }
        v
    };
    let names: Vec<String> = order
        .iter()
        .map(|&j| {
            skin_joints[j].name().map_or_else(|| format!("joint_{}", skin_joints[j].index()), str::to_string)
        })
        .collect();
    let parents: Vec<Option<u16>> = order.iter().map(|&j| joint_parent(j).map(|p| new_index[p])).collect();
    let rest: Vec<(Vec3, Quat, Vec3)> = order
        .iter()
        .map(|&j| {
            let (t, r, s) = skin_joints[j].transform().decomposed();
            (Vec3::from(t), Quat::from_array(r).normalize(), Vec3::from(s))
        })
        .collect();
    // The world transform above the first root joint (armature nodes, unit conversions).
    let nodes: Vec<gltf::Node> = document.nodes().collect();
    let mut root_transform = Mat4::IDENTITY;
    let mut node = skin_joints[order[0]].index();
    while let Some(&p) = node_parent.get(&node) {
        root_transform = Mat4::from_cols_array_2d(&nodes[p].transform().matrix()) * root_transform;
        node = p;
    }

    // Animations.
    let mut clips = Vec::new();
    let mut morph_warned = false;
    for (a, animation) in document.animations().enumerate() {
        let name = animation.name().map_or_else(|| format!("animation_{a}"), str::to_string);
        let mut channels = Vec::new();
        let mut duration = 0.0f32;
        for channel in animation.channels() {
            let target = channel.target().node();
            let reader = channel.reader(get);
            let Some(&joint) = joint_of_node.get(&target.index()) else {
                if !matches!(channel.target().property(), gltf::animation::Property::MorphTargetWeights) {
                    warnings.push(format!(
                        "clip {name}: a channel drives node {} which is not a joint of the skin; ignored",
                        target.name().unwrap_or("?")
                    ));
                }
                if !morph_warned
                    && matches!(channel.target().property(), gltf::animation::Property::MorphTargetWeights)
                {
                    morph_warned = true;
                    warnings.push(
                        "morph-target weight channels (facial expressions) are reported and ignored".into(),
                    );
                }
                continue;
            };
            let Some(times) = reader.read_inputs() else { continue };
            let times: Vec<f32> = times.collect();
            let (property, values): (Property, Vec<Vec4>) = match reader.read_outputs() {
                Some(ReadOutputs::Translations(v)) => {
                    (Property::Translation, v.map(|t| Vec3::from(t).extend(0.0)).collect())
                }
                Some(ReadOutputs::Rotations(v)) => {
                    (Property::Rotation, v.into_f32().map(Vec4::from).collect())
                }
                Some(ReadOutputs::Scales(v)) => {
                    (Property::Scale, v.map(|s| Vec3::from(s).extend(0.0)).collect())
                }
                Some(ReadOutputs::MorphTargetWeights(_)) => {
                    if !morph_warned {
                        morph_warned = true;
                        warnings.push(
                            "morph-target weight channels (facial expressions) are reported and ignored"
                                .into(),
                        );
                    }
                    continue;
                }
                None => continue,
            };
            let interpolation = match channel.sampler().interpolation() {
                gltf::animation::Interpolation::Linear => Interpolation::Linear,
                gltf::animation::Interpolation::Step => Interpolation::Step,
                gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
            };
            let per_key = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
            if times.is_empty()
                || values.len() != times.len() * per_key
                || times.windows(2).any(|w| w[1] < w[0])
                || times.iter().any(|t| !t.is_finite())
            {
                warnings.push(format!(
                    "clip {name}: a channel of joint {} has malformed keys; ignored",
                    names[new_index[joint] as usize]
                ));
                continue;
            }
            duration = duration.max(*times.last().unwrap_or(&0.0));
            channels.push(Channel { joint: new_index[joint], property, interpolation, times, values });
        }
        clips.push(Clip3D { name, duration: duration.max(1.0 / 60.0), channels });
    }

    // The skinned mesh: every primitive of every mesh node using this skin.
    let mut mesh = SkinnedMesh::default();
    let mut texture_of_image: HashMap<usize, usize> = HashMap::new();
    // Inverse bind matrices per joint, from the first skin that has the joint.
    let mut ibm: Vec<Option<Mat4>> = vec![None; skin_joints.len()];
    // Per skin: its joint list mapped to our joint indices (JOINTS_0 indexes a skin's list).
    let mut skin_map: Vec<Vec<u16>> = Vec::new();
    for (s, skin) in skins.iter().enumerate() {
        let joints: Vec<usize> = skin.joints().map(|j| joint_of_node[&j.index()]).collect();
        let matrices: Vec<Mat4> = match skin.reader(get).read_inverse_bind_matrices() {
            Some(m) => m.map(|c| Mat4::from_cols_array_2d(&c)).collect(),
            None => {
                warnings.push(format!(
                    "skin {s} has no inverse bind matrices; identity matrices are used (glTF's default)"
                ));
                vec![Mat4::IDENTITY; joints.len()]
            }
        };
        if matrices.len() != joints.len() {
            return Err(GltfError(format!(
                "skin {s} has {} inverse bind matrices for {} joints",
                matrices.len(),
                joints.len()
            )));
        }
        for (&j, m) in joints.iter().zip(&matrices) {
            match ibm[j] {
                None => ibm[j] = Some(*m),
                Some(existing) if !existing.abs_diff_eq(*m, 1e-3) => {
                    warnings.push(format!(
                        "skin {s} binds joint {} differently from an earlier skin; the first binding is used",
                        names[new_index[j] as usize]
                    ));
                }
                _ => {}
            }
        }
        skin_map.push(joints.iter().map(|&j| new_index[j]).collect());
    }
    mesh.inverse_bind = order.iter().map(|&j| ibm[j].unwrap_or(Mat4::IDENTITY)).collect();
    for node in document.nodes() {
        let Some(m) = node.mesh() else { continue };
        // Skinned meshes use their skin's joint list; a rigid mesh under a joint follows that
        // joint with full weight, its vertices carried into bind space through the node chain.
        let mut rigid: Option<(u16, Mat4)> = None;
        let skin_index = match node.skin() {
            Some(s) => s.index(),
            None => {
                let mut chain = Mat4::from_cols_array_2d(&node.transform().matrix());
                let mut current = node.index();
                let mut joint = None;
                while let Some(&p) = node_parent.get(&current) {
                    if let Some(&j) = joint_of_node.get(&p) {
                        joint = Some(j);
                        break;
                    }
                    chain = Mat4::from_cols_array_2d(&nodes[p].transform().matrix()) * chain;
                    current = p;
                }
                let Some(j) = joint else {
                    warnings.push(format!(
                        "mesh {} is neither skinned nor under a joint; skipped",
                        m.name().unwrap_or("?")
                    ));
                    continue;
                };
                rigid = Some((new_index[j], ibm[j].unwrap_or(Mat4::IDENTITY).inverse() * chain));
                0
            }
        };
        for primitive in m.primitives() {
            if primitive.mode() != gltf::mesh::Mode::Triangles {
                warnings.push(format!(
                    "mesh {}: a primitive that is not triangles is skipped",
                    m.name().unwrap_or("?")
                ));
                continue;
            }
            let reader = primitive.reader(get);
            let Some(positions) = reader.read_positions() else { continue };
            let base = mesh.positions.len() as u32;
            let mut positions: Vec<Vec3> = positions.map(Vec3::from).collect();
            let count = positions.len();
            let mut normals: Vec<Vec3> = reader
                .read_normals()
                .map(|n| n.map(Vec3::from).collect())
                .unwrap_or_else(|| vec![Vec3::Z; count]);
            if let Some((_, bind)) = rigid {
                positions.iter_mut().for_each(|p| *p = bind.transform_point3(*p));
                normals.iter_mut().for_each(|n| *n = bind.transform_vector3(*n).normalize_or_zero());
            }
            let uvs: Vec<Vec2> = reader
                .read_tex_coords(0)
                .map(|t| t.into_f32().map(Vec2::from).collect())
                .unwrap_or_else(|| vec![Vec2::ZERO; count]);
            let (joints, weights): (Vec<[u16; 4]>, Vec<[f32; 4]>) = match rigid {
                Some((joint, _)) => (vec![[joint, 0, 0, 0]; count], vec![[1.0, 0.0, 0.0, 0.0]; count]),
                None => (
                    reader
                        .read_joints(0)
                        .map(|j| {
                            j.into_u16()
                                .map(|j| {
                                    j.map(|i| skin_map[skin_index].get(i as usize).copied().unwrap_or(0))
                                })
                                .collect()
                        })
                        .unwrap_or_else(|| vec![[0; 4]; count]),
                    reader
                        .read_weights(0)
                        .map(|w| w.into_f32().collect())
                        .unwrap_or_else(|| vec![[1.0, 0.0, 0.0, 0.0]; count]),
                ),
            };
            if normals.len() != count || uvs.len() != count || joints.len() != count || weights.len() != count
            {
                warnings.push(format!(
                    "mesh {}: a primitive's attributes disagree in length; skipped",
                    m.name().unwrap_or("?")
                ));
                continue;
            }
            let indices: Vec<u32> = reader
                .read_indices()
                .map(|i| i.into_u32().collect())
                .unwrap_or_else(|| (0..count as u32).collect());
            // Material: base colour and texture (PNG textures only).
            let material = primitive.material();
            let pbr = material.pbr_metallic_roughness();
            let mut texture = None;
            if let Some(info) = pbr.base_color_texture() {
                let image = info.texture().source();
                if let Some(&t) = texture_of_image.get(&image.index()) {
                    texture = Some(t);
                } else if let gltf::image::Source::View { view, mime_type } = image.source() {
                    let data = &buffers[view.buffer().index()][view.offset()..view.offset() + view.length()];
                    match (mime_type, tiny_skia::Pixmap::decode_png(data)) {
                        ("image/png", Ok(pixmap)) => {
                            let rgba: Vec<u8> = pixmap
                                .pixels()
                                .iter()
                                .flat_map(|p| {
                                    let c = p.demultiply();
                                    [c.red(), c.green(), c.blue(), c.alpha()]
                                })
                                .collect();
                            mesh.textures.push((rgba, pixmap.width(), pixmap.height()));
                            texture_of_image.insert(image.index(), mesh.textures.len() - 1);
                            texture = Some(mesh.textures.len() - 1);
                        }
                        (other, _) => warnings.push(format!(
                            "texture {}: {other} images are not decoded; the base colour is used",
                            image.index()
                        )),
                    }
                } else {
                    warnings.push(
                        "textures in external image files are not loaded; the base colour is used".into(),
                    );
                }
            }
            mesh.materials.push((Vec4::from(pbr.base_color_factor()), texture));
            let material_index = (mesh.materials.len() - 1) as u16;
            for t in indices.chunks_exact(3) {
                if t.iter().all(|&i| (i as usize) < count) {
                    mesh.triangles.push([base + t[0], base + t[1], base + t[2]]);
                    mesh.triangle_material.push(material_index);
                }
            }
            mesh.positions.extend(positions);
            mesh.normals.extend(normals);
            mesh.uvs.extend(uvs);
            mesh.joints.extend(joints);
            mesh.weights.extend(weights);
        }
    }
    let mesh = if mesh.positions.is_empty() {
        warnings.push("no mesh uses the skin; the skeleton imports without one".into());
        None
    } else {
        Some(mesh)
    };
    Ok(Imported3D { skeleton: Skeleton3D::new(names, parents, rest, root_transform, clips, mesh), warnings })
}
