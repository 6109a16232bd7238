//! glTF 2.0 import (.glb and .gltf): a skeleton with its rest pose, the skinned (or rigid) mesh
//! with its materials and textures, morph targets, and every animation's channels.
//!
//! What becomes a bone:
//! - A file with skins: every skin's joints (skins over one skeleton are merged), plus animated
//!   nodes between or above them (an animated armature node). Other nodes between joints and
//!   above each root contribute their static transforms as the bone's offset.
//! - A file without a skin (node-animated props, morph-animated creatures, animation-only clip
//!   libraries): every node of the scene, a rigid hierarchy; meshes ride their nodes.
//!
//! Names are made unique: a repeated joint or animation name gets `.1`, `.2`, ... in file order
//! (`Walk`, `Walk.1`), with one warning. Warnings about skipped channels are grouped per clip
//! (and clips with the same reasons share one line); channels that never move a node from its
//! rest pose are dropped silently. Every index and byte range is checked: a broken file is one
//! error line naming the cause first, never a panic.

mod accessor;
mod animation;
mod mesh;
mod scene;
mod source;
mod texture;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use glam::{Mat4, Quat, Vec3};

use crate::skeleton::Skeleton3D;

pub use accessor::MAX_ELEMENTS;
pub use source::MAX_FILE_BYTES;
pub use texture::MAX_TEXTURE_SIDE;

/// The most bones a skeleton may have.
pub const MAX_BONES: usize = u16::MAX as usize;

/// Why a glTF file could not be imported: one line, the cause first.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GltfError(pub String);

/// A skeleton and what the importer skipped.
#[derive(Debug)]
pub struct Imported3D {
    /// The skeleton, clips and mesh.
    pub skeleton: Skeleton3D,
    /// Skipped channels and approximations, grouped.
    pub warnings: Vec<String>,
}

/// Imports a .glb or .gltf file (buffers and images beside it are read from its folder), with
/// the sync markers of a `NAME.markers.json` beside it when there is one.
pub fn import_file(path: impl AsRef<Path>) -> Result<Imported3D, GltfError> {
    let path = path.as_ref();
    let bytes = source::read_bounded(path, MAX_FILE_BYTES).map_err(GltfError)?;
    let mut imported = import_bytes(&bytes, Some(path.parent().unwrap_or(Path::new("."))))?;
    let sidecar = markers_path(path);
    if sidecar.exists() {
        for (clip, markers) in read_markers(&sidecar, &imported.skeleton).map_err(GltfError)? {
            let index =
                imported.skeleton.clip_names.get(&clip).expect("read_markers checked the clip exists");
            imported.skeleton.clips[index].markers = markers;
        }
    }
    Ok(imported)
}

/// The largest markers sidecar read: 4 MiB.
pub const MARKERS_FILE_BYTES: u64 = 4 << 20;

/// Where a model's sync markers live: `NAME.markers.json` beside `NAME.glb` / `NAME.gltf`.
pub fn markers_path(model: &Path) -> std::path::PathBuf {
    model.with_extension("markers.json")
}

/// A markers sidecar (`{"clip": [["L", 0.0], ...]}`, seconds) as clip -> markers, checked
/// against the skeleton's clips (a bounded read of a regular file); errors name the file and
/// say how to fix it. The importer and `animgraph markers` both read sidecars here.
pub fn read_markers(
    sidecar: &Path,
    skeleton: &Skeleton3D,
) -> Result<std::collections::BTreeMap<String, Vec<(String, f32)>>, String> {
    let text = animgraph_runtime::files::read_text(sidecar, MARKERS_FILE_BYTES)
        .map_err(|e| format!("{}: {e}", sidecar.display()))?;
    animgraph_runtime::markers::parse_sidecar(&text, |clip| skeleton.clip(clip).map(|c| c.duration))
        .map_err(|e| format!("{}: {e}; fix the file or delete it", sidecar.display()))
}

/// Extensions whose data the importer reads, or that change nothing it draws.
const UNDERSTOOD: &[&str] = &[
    "KHR_mesh_quantization",
    "KHR_texture_transform",
    "KHR_materials_unlit",
    "KHR_materials_emissive_strength",
    "KHR_materials_specular",
    "KHR_materials_ior",
    "KHR_materials_transmission",
    "KHR_materials_volume",
    "KHR_materials_clearcoat",
    "KHR_materials_sheen",
    "KHR_materials_variants",
    "KHR_lights_punctual",
];

/// Imports glTF from bytes; `folder` is where relative buffer and image URIs are looked up
/// (`None`: only the GLB chunk and `data:` URIs).
pub fn import_bytes(bytes: &[u8], folder: Option<&Path>) -> Result<Imported3D, GltfError> {
    import(bytes, folder, true).map_err(GltfError)
}

/// [`import_bytes`] without decoding the materials' images (materials keep their base colour
/// and no texture): for users that pose the skeleton and draw with their own renderer, such
/// as the Bevy plugin, which would otherwise decode every texture a second time for nothing.
pub fn import_bytes_untextured(bytes: &[u8], folder: Option<&Path>) -> Result<Imported3D, GltfError> {
    import(bytes, folder, false).map_err(GltfError)
}

fn import(bytes: &[u8], folder: Option<&Path>, textures: bool) -> Result<Imported3D, String> {
    let container = source::container(bytes)?;
    // Through serde_path_to_error, so a type error names its JSON path (`nodes[3].children`).
    let root: gltf_json::Root = serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_slice(
        container.json,
    ))
    .map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path.is_empty() {
            format!("not a valid glTF 2.0 file: {inner}")
        } else {
            format!("not a valid glTF 2.0 file: {path}: {inner}")
        }
    })?;
    let mut warnings = Vec::new();
    if !root.asset.version.starts_with("2.") {
        return Err(format!(
            "the file is glTF {}; only glTF 2.x is read (convert it with Blender)",
            root.asset.version
        ));
    }
    let mentions =
        |name: &str| root.extensions_used.iter().chain(&root.extensions_required).any(|e| e == name);
    for meshopt in ["EXT_meshopt_compression", "KHR_meshopt_compression"] {
        if mentions(meshopt) {
            return Err(format!(
                "{meshopt}: the geometry is meshopt-compressed, which animgraph does not decode; decompress it with `npx @gltf-transform/cli copy in.glb out.glb` (the copy is plain, quantized at most) or re-export without compression"
            ));
        }
    }
    if root.extensions_required.iter().any(|e| e == "KHR_draco_mesh_compression") {
        return Err("KHR_draco_mesh_compression: the geometry is Draco-compressed, which animgraph does not decode (no maintained Rust decoder); decompress it with `npx @gltf-transform/cli copy in.glb out.glb` or re-export without Draco".into());
    }
    let ignored: Vec<&str> = root
        .extensions_required
        .iter()
        .map(String::as_str)
        .filter(|e| {
            !UNDERSTOOD.contains(e) && *e != "KHR_draco_mesh_compression" && *e != "KHR_texture_basisu"
        })
        .collect();
    if !ignored.is_empty() {
        warnings.push(format!(
            "the file requires {}, which animgraph ignores; it may look different",
            ignored.join(", ")
        ));
    }

    // Buffers.
    let mut buffers: Vec<Vec<u8>> = Vec::with_capacity(root.buffers.len().min(1024));
    for (i, buffer) in root.buffers.iter().enumerate() {
        let declared = buffer.byte_length.0;
        if declared > MAX_FILE_BYTES {
            return Err(format!(
                "buffers[{i}] declares {declared} bytes, more than the {MAX_FILE_BYTES} allowed"
            ));
        }
        let data = match &buffer.uri {
            None if i == 0 => container.blob.map(<[u8]>::to_vec).ok_or(
                "buffers[0] has no uri and the file has no GLB binary chunk; the file is incomplete",
            )?,
            None => {
                return Err(format!(
                    "buffers[{i}] has no uri (only buffer 0 may live in the GLB's binary chunk)"
                ));
            }
            Some(uri) => match source::data_uri(uri) {
                Some(data) => data.map_err(|e| format!("buffers[{i}]: {e}"))?,
                None => {
                    let path = source::resolve(folder, uri).map_err(|e| format!("buffers[{i}]: {e}"))?;
                    source::read_bounded(&path, declared.max(1).saturating_add(3))
                        .map_err(|e| format!("buffers[{i}]: {e}"))?
                }
            },
        };
        if (data.len() as u64) < declared {
            return Err(format!(
                "buffers[{i}] has {} bytes; the file says {declared}: it is truncated, export it again",
                data.len()
            ));
        }
        buffers.push(data);
    }
    let accessors = accessor::Accessors { root: &root, buffers: &buffers, read: std::cell::Cell::new(0) };
    let nodes = scene::Nodes::of(&root)?;

    // Which nodes are bones.
    let skinned = !root.skins.is_empty();
    let mut bone_nodes: Vec<usize> = Vec::new();
    if skinned {
        let mut seen = HashSet::new();
        let mut first: HashSet<usize> = HashSet::new();
        for (s, skin) in root.skins.iter().enumerate() {
            let joints: Vec<usize> = skin.joints.iter().map(|j| j.value()).collect();
            if let Some(&bad) = joints.iter().find(|&&j| j >= root.nodes.len()) {
                return Err(format!(
                    "skins[{s}].joints names node {bad}, but the file has {} nodes",
                    root.nodes.len()
                ));
            }
            if s == 0 {
                first = joints.iter().copied().collect();
            } else if !joints.iter().any(|j| first.contains(j)) {
                return Err(format!(
                    "skin {s} shares no joint with skin 0: the file holds {} separate skeletons; animgraph imports one skeleton per file, so split the characters into separate files",
                    root.skins.len()
                ));
            }
            for j in joints {
                if seen.insert(j) {
                    bone_nodes.push(j);
                }
            }
        }
        // Animated nodes above or between joints become bones too, so their motion is kept.
        let animated: HashSet<usize> = root
            .animations
            .iter()
            .flat_map(|a| a.channels.iter().map(|c| c.target.node.value()))
            .filter(|&n| n < root.nodes.len())
            .collect();
        let above = nodes.above(&bone_nodes);
        let mut promoted: Vec<usize> =
            animated.into_iter().filter(|&n| !seen.contains(&n) && above[n]).collect();
        promoted.sort_unstable();
        bone_nodes.extend(promoted);
    } else {
        if root.animations.is_empty() {
            warnings.push(
                "the file has no skin and no animations: it imports as a still node hierarchy (add clips from a clip library, or export the character with its armature)".into(),
            );
        }
        // Every node of the scene (or every node, without scenes), a rigid hierarchy.
        let scene = root.scene.map(|s| s.value()).or((!root.scenes.is_empty()).then_some(0));
        let mut stack: Vec<usize> = match scene.and_then(|s| root.scenes.get(s)) {
            Some(s) => s.nodes.iter().map(|n| n.value()).filter(|&n| n < root.nodes.len()).rev().collect(),
            None => (0..root.nodes.len()).filter(|&n| nodes.parent[n].is_none()).rev().collect(),
        };
        let mut seen = vec![false; root.nodes.len()];
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut seen[n], true) {
                continue;
            }
            bone_nodes.push(n);
            for c in root.nodes[n].children.iter().flatten().rev() {
                stack.push(c.value());
            }
        }
    }
    if bone_nodes.len() > MAX_BONES {
        return Err(format!(
            "the skeleton has {} bones, more than the {MAX_BONES} allowed",
            bone_nodes.len()
        ));
    }
    if bone_nodes.is_empty() {
        return Err("the scene has no nodes, so nothing to animate".into());
    }

    // Parents first (the nearest bone above each bone), keeping the file's order otherwise.
    let is_bone: HashMap<usize, usize> = bone_nodes.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let mut bone_flags = vec![false; root.nodes.len()];
    for &n in &bone_nodes {
        bone_flags[n] = true;
    }
    let links = nodes.links(&bone_flags);
    let bone_parent = |b: usize| -> Option<usize> { links[bone_nodes[b]].0.map(|p| is_bone[&p]) };
    let mut order: Vec<usize> = Vec::with_capacity(bone_nodes.len());
    let mut placed = vec![false; bone_nodes.len()];
    let parent_of: Vec<Option<usize>> = (0..bone_nodes.len()).map(bone_parent).collect();
    // Depth-first from the roots: acyclic, so this places every bone once.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); bone_nodes.len()];
    for (b, p) in parent_of.iter().enumerate() {
        if let Some(p) = p {
            children[*p].push(b);
        }
    }
    for (b, parent) in parent_of.iter().enumerate() {
        if parent.is_none() {
            let mut stack = vec![b];
            while let Some(x) = stack.pop() {
                if !std::mem::replace(&mut placed[x], true) {
                    order.push(x);
                    stack.extend(children[x].iter().rev());
                }
            }
        }
    }
    let mut new_index = vec![0u16; bone_nodes.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new as u16;
    }
    let bone_of_node: HashMap<usize, u16> =
        bone_nodes.iter().enumerate().map(|(b, &n)| (n, new_index[b])).collect();
    let ordered_nodes: Vec<usize> = order.iter().map(|&b| bone_nodes[b]).collect();
    let names = unique_names(ordered_nodes.iter().map(|&n| nodes.names[n].clone()), "joint", &mut warnings);
    let parents: Vec<Option<u16>> = order.iter().map(|&b| parent_of[b].map(|p| new_index[p])).collect();
    let rest: Vec<(Vec3, Quat, Vec3)> = ordered_nodes.iter().map(|&n| nodes.trs[n]).collect();
    // Offsets: the static nodes between a bone and the bone above it (all ancestors for roots).
    let offsets: Vec<Mat4> = ordered_nodes.iter().map(|&n| links[n].1).collect();

    let context = Context {
        root: &root,
        buffers: &buffers,
        accessors: &accessors,
        nodes: &nodes,
        folder,
        bone_of_node: &bone_of_node,
        bone_nodes: &ordered_nodes,
        names: &names,
        links: &links,
        textures,
    };
    let (mesh, groups) = mesh::build(&context, &mut warnings)?;
    let clips = animation::build(&context, &groups, &mut warnings)?;
    let groups = groups.into_iter().map(|g| g.group).collect();
    let skeleton = Skeleton3D::new(names, parents, rest, Mat4::IDENTITY, clips, mesh)
        .with_offsets(offsets)
        .with_morph_groups(groups);
    Ok(Imported3D { skeleton, warnings })
}

/// What the mesh and animation passes read.
pub(crate) struct Context<'a> {
    pub root: &'a gltf_json::Root,
    pub buffers: &'a [Vec<u8>],
    pub accessors: &'a accessor::Accessors<'a>,
    pub nodes: &'a scene::Nodes,
    pub folder: Option<&'a Path>,
    /// Node index to bone index (bones are ordered parents first).
    pub bone_of_node: &'a HashMap<usize, u16>,
    /// Bone index to node index.
    pub bone_nodes: &'a [usize],
    pub names: &'a [String],
    /// Per node: the nearest bone above it and the static transforms between.
    pub links: &'a [scene::Link],
    /// Whether materials' images are decoded (else materials keep only their base colour).
    pub textures: bool,
}

/// Makes names unique by the documented rule (`Walk`, `Walk.1`, `Walk.2` in file order), with
/// one warning listing the repeated names.
pub(crate) fn unique_names(
    names: impl Iterator<Item = String>,
    what: &str,
    warnings: &mut Vec<String>,
) -> Vec<String> {
    let names: Vec<String> = names.collect();
    let mut taken: HashSet<String> = names.iter().cloned().collect();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut renamed: Vec<String> = Vec::new();
    let mut next: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(names.len());
    for name in &names {
        if seen.insert(name.as_str()) {
            out.push(name.clone());
            continue;
        }
        let k = next.entry(name.clone()).or_insert(1usize);
        let unique = loop {
            let candidate = format!("{name}.{k}");
            *k += 1;
            if !taken.contains(&candidate) {
                break candidate;
            }
        };
        taken.insert(unique.clone());
        renamed.push(format!("{name} -> {unique}"));
        out.push(unique);
    }
    if !renamed.is_empty() {
        warnings.push(format!(
            "{} {what} names repeat; the later ones are renamed so each is named once: {}",
            renamed.len(),
            list(&renamed, 6)
        ));
    }
    out
}

/// `a, b, c (+4 more)`.
pub(crate) fn list(items: &[String], most: usize) -> String {
    let shown = items.iter().take(most).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > most { format!("{shown} (+{} more)", items.len() - most) } else { shown }
}
