//! The mesh: every primitive of every mesh node, skinned by its skin (up to eight influences,
//! `JOINTS_0/1` and `WEIGHTS_0/1`) or riding a bone rigidly (its node, or the nearest bone
//! above it), in bind space; materials with their base-colour texture (`KHR_texture_transform`
//! applied to the texture coordinates); morph targets per mesh node.

use std::collections::HashMap;

use glam::{Mat4, Vec2, Vec3, Vec4};
use gltf_json::mesh::{Mode, Semantic};
use gltf_json::validation::Checked;

use super::{Context, list, texture};
use crate::skeleton::{MorphGroup, MorphTarget, SkinnedMesh};

/// A morph group with the node it came from.
pub(crate) struct Group {
    pub group: MorphGroup,
    pub node: usize,
}

enum Binding {
    /// A skinned mesh: its skin's joints as bones.
    Skinned(usize),
    /// Rides `bone`, its vertices carried into bind space by the matrix.
    Rigid(u16, Mat4),
}

/// Warnings counted per kind and reported once each.
#[derive(Default)]
struct Tally {
    lines: Vec<(String, Vec<String>)>,
}

impl Tally {
    fn add(&mut self, kind: &str, subject: String) {
        match self.lines.iter_mut().find(|(k, _)| k == kind) {
            Some((_, s)) => {
                // A few names say enough; the count keeps growing.
                if s.len() < 8 && !s.contains(&subject) {
                    s.push(subject);
                }
            }
            None => self.lines.push((kind.to_string(), vec![subject])),
        }
    }

    fn report(self, warnings: &mut Vec<String>) {
        for (kind, subjects) in self.lines {
            warnings.push(format!("{kind}: {}", list(&subjects, 5)));
        }
    }
}

/// The inverse, or identity for a singular matrix (a joint scaled to zero). Quantized files
/// scale by 1e-5 or less, so no determinant threshold is used.
fn inverse(m: Mat4) -> Mat4 {
    let inverse = if m.determinant() != 0.0 { m.inverse() } else { Mat4::IDENTITY };
    if inverse.is_finite() { inverse } else { Mat4::IDENTITY }
}

pub(crate) fn build(
    cx: &Context,
    warnings: &mut Vec<String>,
) -> Result<(Option<SkinnedMesh>, Vec<Group>), String> {
    let root = cx.root;
    let bones = cx.bone_nodes.len();
    let mut tally = Tally::default();
    // Inverse bind matrices: the first skin that binds a joint wins; others without a skin (or
    // promoted nodes) are bound at their rest pose.
    let mut ibm: Vec<Option<Mat4>> = vec![None; bones];
    let mut skin_bones: Vec<Vec<u16>> = Vec::with_capacity(root.skins.len());
    for (s, skin) in root.skins.iter().enumerate() {
        let joints: Vec<u16> = skin.joints.iter().map(|j| cx.bone_of_node[&j.value()]).collect();
        let matrices: Vec<Mat4> = match skin.inverse_bind_matrices {
            Some(a) => {
                let m = cx
                    .accessors
                    .floats(a.value(), 16)
                    .map_err(|e| format!("skins[{s}].inverseBindMatrices: {e}"))?;
                m.chunks_exact(16).map(Mat4::from_cols_slice).collect()
            }
            None => {
                warnings.push(format!(
                    "skin {s} has no inverse bind matrices; identity matrices are used (glTF's default)"
                ));
                vec![Mat4::IDENTITY; joints.len()]
            }
        };
        if matrices.len() != joints.len() {
            return Err(format!(
                "skin {s} has {} inverse bind matrices for {} joints",
                matrices.len(),
                joints.len()
            ));
        }
        for (&j, m) in joints.iter().zip(&matrices) {
            if !m.is_finite() {
                return Err(format!(
                    "skin {s}: the inverse bind matrix of joint {} is not finite",
                    cx.names[j as usize]
                ));
            }
            match ibm[j as usize] {
                None => ibm[j as usize] = Some(*m),
                Some(existing) if !existing.abs_diff_eq(*m, 1e-3) => {
                    tally.add("a later skin binds joints differently from an earlier one; the first binding is used", cx.names[j as usize].clone());
                }
                _ => {}
            }
        }
        skin_bones.push(joints);
    }
    let inverse_bind: Vec<Mat4> =
        (0..bones).map(|b| ibm[b].unwrap_or_else(|| inverse(cx.nodes.world(cx.bone_nodes[b])))).collect();

    let mut mesh = SkinnedMesh { inverse_bind, ..SkinnedMesh::default() };
    let mut groups: Vec<Group> = Vec::new();
    let mut texture_of_image: HashMap<usize, Option<usize>> = HashMap::new();
    let mut taken: std::collections::HashSet<String> = cx.names.iter().cloned().collect();
    for (n, node) in root.nodes.iter().enumerate() {
        let Some(m) = node.mesh else { continue };
        let Some(gmesh) = root.meshes.get(m.value()) else {
            return Err(format!(
                "nodes[{n}].mesh names mesh {}, but the file has {}",
                m.value(),
                root.meshes.len()
            ));
        };
        let mesh_name = gmesh.name.clone().unwrap_or_else(|| format!("mesh {}", m.value()));
        let binding = match node.skin.map(|s| s.value()) {
            Some(s) if s < skin_bones.len() => Binding::Skinned(s),
            Some(s) => {
                return Err(format!("nodes[{n}].skin names skin {s}, but the file has {}", skin_bones.len()));
            }
            None => {
                let (bone, chain) = match cx.bone_of_node.get(&n) {
                    Some(&b) => (Some(b), Mat4::IDENTITY),
                    None => {
                        let (above, between) = cx.links[n];
                        (above.map(|a| cx.bone_of_node[&a]), between * cx.nodes.local(n))
                    }
                };
                match bone {
                    Some(b) => Binding::Rigid(b, inverse(mesh.inverse_bind[b as usize]) * chain),
                    None => {
                        tally.add("meshes neither skinned nor under a joint are skipped", mesh_name.clone());
                        continue;
                    }
                }
            }
        };
        let target_count = gmesh.primitives.first().and_then(|p| p.targets.as_ref()).map_or(0, Vec::len);
        let group_first = mesh.morph_targets.len();
        if target_count > 0 {
            mesh.morph_targets.extend((0..target_count).map(|_| MorphTarget::default()));
        }
        let group_vertices_start = mesh.positions.len();
        for (p, primitive) in gmesh.primitives.iter().enumerate() {
            let what = format!("meshes[{}].primitives[{p}]", m.value());
            let mode = match primitive.mode {
                Checked::Valid(mode) => mode,
                Checked::Invalid => return Err(format!("{what}.mode is not a glTF primitive mode")),
            };
            if !matches!(mode, Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
                tally.add("primitives that are points or lines are skipped", mesh_name.clone());
                continue;
            }
            let attribute = |s: Semantic| primitive.attributes.get(&Checked::Valid(s)).map(|a| a.value());
            let Some(pos) = attribute(Semantic::Positions) else {
                tally.add("primitives without POSITION are skipped", mesh_name.clone());
                continue;
            };
            let read3 = |a: usize| -> Result<Vec<Vec3>, String> {
                Ok(cx
                    .accessors
                    .floats(a, 3)
                    .map_err(|e| format!("{what}: {e}"))?
                    .chunks_exact(3)
                    .map(Vec3::from_slice)
                    .collect())
            };
            let mut positions = read3(pos)?;
            let count = positions.len();
            if positions.iter().any(|p| !p.is_finite()) {
                return Err(format!("{what}: a POSITION is not finite; fix the mesh in the exporter"));
            }
            let mut normals = match attribute(Semantic::Normals) {
                Some(a) => read3(a)?,
                None => Vec::new(),
            };
            if !normals.is_empty() && normals.len() != count {
                return Err(format!("{what}: NORMAL has {} elements for {count} positions", normals.len()));
            }
            // Material, texture and which texture coordinates it reads.
            let material = primitive.material.map(|i| i.value());
            let material = match material {
                Some(i) => {
                    Some(root.materials.get(i).ok_or_else(|| format!("{what}.material {i} does not exist"))?)
                }
                None => None,
            };
            let pbr = material.map(|mat| &mat.pbr_metallic_roughness);
            let base_colour = pbr.map_or(Vec4::ONE, |p| Vec4::from(p.base_color_factor.0));
            let info = pbr.and_then(|p| p.base_color_texture.as_ref());
            let transform =
                info.and_then(|i| i.extensions.as_ref()).and_then(|e| e.texture_transform.as_ref());
            let set = transform.and_then(|t| t.tex_coord).unwrap_or(info.map_or(0, |i| i.tex_coord));
            let mut uvs: Vec<Vec2> = match attribute(Semantic::TexCoords(set)) {
                Some(a) => cx
                    .accessors
                    .floats(a, 2)
                    .map_err(|e| format!("{what}: {e}"))?
                    .chunks_exact(2)
                    .map(Vec2::from_slice)
                    .collect(),
                None => vec![Vec2::ZERO; count],
            };
            if uvs.len() != count {
                return Err(format!(
                    "{what}: TEXCOORD_{set} has {} elements for {count} positions",
                    uvs.len()
                ));
            }
            if let Some(t) = transform {
                let (s, c) = t.rotation.0.sin_cos();
                let (offset, scale) = (Vec2::from(t.offset.0), Vec2::from(t.scale.0));
                for uv in &mut uvs {
                    let (u, v) = (uv.x * scale.x, uv.y * scale.y);
                    *uv = Vec2::new(c * u + s * v, -s * u + c * v) + offset;
                }
            }
            let mut texture = None;
            if let Some(info) = info {
                let t = info.index.value();
                let source = root.textures.get(t).map(|tex| tex.source.value());
                match source {
                    None => {
                        return Err(format!("{what}: the material names texture {t}, which does not exist"));
                    }
                    // Checked either way; decoded only when asked for.
                    Some(_) if !cx.textures => {}
                    Some(image) => {
                        texture =
                            *texture_of_image.entry(image).or_insert_with(|| {
                                match texture::image_bytes(root, cx.buffers, cx.folder, image)
                                    .and_then(|b| texture::decode(&b))
                                {
                                    Ok(decoded) => {
                                        mesh.textures.push(decoded);
                                        Some(mesh.textures.len() - 1)
                                    }
                                    Err(e) => {
                                        tally.add(
                                            "textures not loaded (the base colour is used)",
                                            format!("image {image}: {e}"),
                                        );
                                        None
                                    }
                                }
                            });
                    }
                }
            }
            // Influences.
            let (mut joints, mut weights) = (vec![[0u16; 8]; count], vec![[0f32; 8]; count]);
            match &binding {
                Binding::Rigid(bone, _) => {
                    for (j, w) in joints.iter_mut().zip(&mut weights) {
                        j[0] = *bone;
                        w[0] = 1.0;
                    }
                }
                Binding::Skinned(s) => {
                    let skin = &skin_bones[*s];
                    let mut any = false;
                    for set in 0..2u32 {
                        let (Some(ja), Some(wa)) =
                            (attribute(Semantic::Joints(set)), attribute(Semantic::Weights(set)))
                        else {
                            continue;
                        };
                        let js = cx.accessors.integers(ja, 4).map_err(|e| format!("{what}: {e}"))?;
                        let ws = cx.accessors.floats(wa, 4).map_err(|e| format!("{what}: {e}"))?;
                        if js.len() != count * 4 || ws.len() != count * 4 {
                            return Err(format!(
                                "{what}: JOINTS_{set}/WEIGHTS_{set} do not have one element per position"
                            ));
                        }
                        any = true;
                        for v in 0..count {
                            for k in 0..4 {
                                let (index, weight) = (js[v * 4 + k], ws[v * 4 + k]);
                                if !(weight.is_finite() && weight > 0.0) {
                                    continue;
                                }
                                match skin.get(index as usize) {
                                    Some(&b) => {
                                        joints[v][set as usize * 4 + k] = b;
                                        weights[v][set as usize * 4 + k] = weight;
                                    }
                                    None => tally.add(
                                        "vertex weights on joints the skin does not have are dropped",
                                        mesh_name.clone(),
                                    ),
                                }
                            }
                        }
                    }
                    if attribute(Semantic::Joints(2)).is_some() {
                        tally.add(
                            "influences past eight per vertex (JOINTS_2 and up) are dropped",
                            mesh_name.clone(),
                        );
                    }
                    if !any {
                        tally.add(
                            "skinned primitives without JOINTS_0/WEIGHTS_0 follow the skin's first joint",
                            mesh_name.clone(),
                        );
                        for (j, w) in joints.iter_mut().zip(&mut weights) {
                            j[0] = skin.first().copied().unwrap_or(0);
                            w[0] = 1.0;
                        }
                    }
                }
            }
            // Triangles.
            let indices: Vec<u32> = match primitive.indices {
                Some(a) => cx.accessors.integers(a.value(), 1).map_err(|e| format!("{what}.indices: {e}"))?,
                None => (0..count as u32).collect(),
            };
            let mut triangles: Vec<[u32; 3]> = Vec::with_capacity(indices.len() / 3);
            match mode {
                Mode::TriangleStrip => {
                    for i in 2..indices.len() {
                        let t = if i % 2 == 0 {
                            [indices[i - 2], indices[i - 1], indices[i]]
                        } else {
                            [indices[i - 1], indices[i - 2], indices[i]]
                        };
                        triangles.push(t);
                    }
                }
                Mode::TriangleFan => {
                    for i in 2..indices.len() {
                        triangles.push([indices[0], indices[i - 1], indices[i]]);
                    }
                }
                _ => triangles.extend(indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]])),
            }
            let before = triangles.len();
            triangles.retain(|t| t.iter().all(|&i| (i as usize) < count));
            if triangles.len() != before {
                tally.add("triangles with indices past their vertices are dropped", mesh_name.clone());
            }
            if normals.is_empty() {
                // Area-weighted vertex normals from the triangles.
                normals = vec![Vec3::ZERO; count];
                for t in &triangles {
                    let [a, b, c] = t.map(|i| positions[i as usize]);
                    let n = (b - a).cross(c - a);
                    for &i in t {
                        normals[i as usize] += n;
                    }
                }
                normals.iter_mut().for_each(|n| *n = n.normalize_or(Vec3::Z));
            }
            // Morph targets of this primitive.
            let base = mesh.positions.len() as u32;
            let targets = primitive.targets.as_deref().unwrap_or(&[]);
            if targets.len() != target_count {
                tally.add(
                    "primitives whose morph target count differs from their mesh's first are not morphed",
                    mesh_name.clone(),
                );
            } else {
                for (t, target) in targets.iter().enumerate() {
                    let dp = match target.positions {
                        Some(a) => read3(a.value())?,
                        None => Vec::new(),
                    };
                    let dn = match target.normals {
                        Some(a) => read3(a.value())?,
                        None => Vec::new(),
                    };
                    if (!dp.is_empty() && dp.len() != count) || (!dn.is_empty() && dn.len() != count) {
                        return Err(format!("{what}.targets[{t}] does not have one offset per position"));
                    }
                    let out = &mut mesh.morph_targets[group_first + t];
                    for v in 0..count {
                        let (p, nn) = (
                            dp.get(v).copied().unwrap_or(Vec3::ZERO),
                            dn.get(v).copied().unwrap_or(Vec3::ZERO),
                        );
                        if (p != Vec3::ZERO || nn != Vec3::ZERO) && p.is_finite() && nn.is_finite() {
                            let (p, nn) = match &binding {
                                Binding::Rigid(_, bind) => {
                                    (bind.transform_vector3(p), bind.transform_vector3(nn))
                                }
                                Binding::Skinned(_) => (p, nn),
                            };
                            out.vertices.push(base + v as u32);
                            out.positions.push(p);
                            out.normals.push(nn);
                        }
                    }
                }
            }
            if let Binding::Rigid(_, bind) = &binding {
                positions.iter_mut().for_each(|p| *p = bind.transform_point3(*p));
                normals.iter_mut().for_each(|n| *n = bind.transform_vector3(*n).normalize_or_zero());
            }
            mesh.materials.push((base_colour, texture));
            let material_index = (mesh.materials.len() - 1).min(u16::MAX as usize) as u16;
            for t in triangles {
                mesh.triangles.push(t.map(|i| base + i));
                mesh.triangle_material.push(material_index);
            }
            mesh.positions.extend(positions);
            mesh.normals.extend(normals);
            mesh.uvs.extend(uvs);
            mesh.joints.extend(joints);
            mesh.weights.extend(weights);
            if mesh.positions.len() > super::MAX_ELEMENTS as usize {
                return Err(format!("the meshes have more than {} vertices together", super::MAX_ELEMENTS));
            }
        }
        if target_count > 0 {
            let defaults = node.weights.clone().or_else(|| gmesh.weights.clone()).unwrap_or_default();
            let default_weights: Vec<f32> = (0..target_count)
                .map(|t| defaults.get(t).copied().filter(|w| w.is_finite()).unwrap_or(0.0))
                .collect();
            // The owner: the bone carrying most of the group's vertex weight.
            let owner = match &binding {
                Binding::Rigid(b, _) => *b,
                Binding::Skinned(_) => {
                    let mut total = vec![0f32; bones];
                    for (j, w) in
                        mesh.joints[group_vertices_start..].iter().zip(&mesh.weights[group_vertices_start..])
                    {
                        for k in 0..8 {
                            total[j[k] as usize] += w[k];
                        }
                    }
                    total.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(b, _)| b as u16)
                }
            };
            let mut name = cx.nodes.names[n].clone();
            if taken.contains(&name) {
                name = format!("{name}.morph");
                let mut k = 1;
                while taken.contains(&name) {
                    name = format!("{}.morph{k}", cx.nodes.names[n]);
                    k += 1;
                }
            }
            taken.insert(name.clone());
            groups.push(Group {
                group: MorphGroup {
                    name,
                    node_name: cx.nodes.names[n].clone(),
                    owner,
                    first: group_first,
                    default_weights,
                },
                node: n,
            });
        }
    }
    tally.report(warnings);
    Ok((if mesh.positions.is_empty() { None } else { Some(mesh) }, groups))
}
