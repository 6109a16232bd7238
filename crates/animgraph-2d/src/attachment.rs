//! Attachments resolved for drawing and deformation: geometry (rigid or weighted vertices,
//! triangles, texture coordinates in page pixels), skins, deform storage, and world vertices.
//!
//! Everything here is computed once when a [`Skeleton2D`] is built, from the
//! `.mskel` data: a region becomes a quad whose corners include Spine's whitespace stripping and
//! whose texture coordinates include the atlas rotation; a mesh's region UVs (0..1 over its
//! region) become page pixels the way Spine's `MeshAttachment.updateRegion` computes them; a
//! linked mesh copies its parent's geometry with UVs of its own region. Per frame only
//! [`WorldVertices::update`] runs: vertices (plus deform offsets) through their bones' world
//! transforms, into storage sized at creation.

use std::collections::HashMap;

use glam::{Affine2, Vec2};

use crate::data::{AtlasData, AttachmentKind, RegionRef, Skeleton2DData};
use crate::skeleton::{Pose, Skeleton2D};

/// An attachment's vertices.
#[derive(Clone, Debug, PartialEq)]
pub enum Vertices {
    /// In the slot bone's space.
    Rigid(Vec<Vec2>),
    /// Vertex `v` has `counts[v]` influences; influences are flat in vertex order: a bone, a
    /// position in that bone's space and a weight each.
    Weighted {
        /// Influences per vertex.
        counts: Vec<u16>,
        /// Per influence: its bone.
        bones: Vec<u16>,
        /// Per influence: the position in its bone's space.
        positions: Vec<Vec2>,
        /// Per influence: its weight.
        weights: Vec<f32>,
    },
}

impl Vertices {
    /// How many vertices.
    pub fn len(&self) -> usize {
        match self {
            Vertices::Rigid(v) => v.len(),
            Vertices::Weighted { counts, .. } => counts.len(),
        }
    }

    /// True when there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many floats a deform of these vertices has (x, y per vertex, or per influence).
    pub fn deform_len(&self) -> usize {
        match self {
            Vertices::Rigid(v) => 2 * v.len(),
            Vertices::Weighted { positions, .. } => 2 * positions.len(),
        }
    }
}

/// What an attachment draws, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// The texture it samples: the atlas page, or 0 for the skeleton's `texture`; `None` draws
    /// a flat colour.
    pub page: Option<u16>,
    /// Vertices.
    pub vertices: Vertices,
    /// Texture coordinates in page pixels, one per vertex.
    pub uvs: Vec<Vec2>,
    /// Vertex index triples.
    pub triangles: Vec<[u16; 3]>,
    /// The deform storage it reads (see [`Skeleton2D::deform_range`]): its own, its parent's for
    /// a linked mesh that plays the parent's keys, `None` when no clip deforms it.
    pub deform: Option<u16>,
    /// A path attachment's shape (it draws nothing: no triangles).
    pub path: Option<PathShape>,
    /// A clipping attachment's reach (it draws nothing: no triangles).
    pub clipping: Option<ClipShape>,
    /// A sequence attachment's frames (each a geometry of its own).
    pub sequence: Option<Frames>,
}

/// Where a sequence attachment's frames are among the geometries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frames {
    /// The first frame's geometry.
    pub first: u16,
    /// How many frames.
    pub count: u16,
    /// The frame shown where no sequence timeline plays.
    pub setup: u16,
    /// The attachment whose sequence timelines it plays (itself, or a linked mesh's parent).
    pub owner: u16,
}

/// How far a clipping polygon reaches in the draw order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClipShape {
    /// The last slot it clips (`None`: to the end of the draw order).
    pub end: Option<u16>,
}

/// A path attachment's shape beyond its vertices.
#[derive(Clone, Debug, PartialEq)]
pub struct PathShape {
    /// The last point joins the first.
    pub closed: bool,
    /// Positions are by arc length.
    pub constant_speed: bool,
    /// Setup length at the end of each curve.
    pub lengths: Vec<f32>,
}

/// Vertices from `.mskel`'s unweighted list or weighted influences (bones resolved).
fn vertices_of(
    vertices: &[[f32; 2]],
    weights: &[Vec<crate::data::Influence>],
    bones: &HashMap<&str, u16>,
) -> Vertices {
    if weights.is_empty() {
        return Vertices::Rigid(vertices.iter().map(|v| Vec2::from_array(*v)).collect());
    }
    let mut counts = Vec::with_capacity(weights.len());
    let (mut b, mut p, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for influences in weights {
        counts.push(influences.len() as u16);
        for (bone, x, y, weight) in influences {
            b.push(bones.get(bone.as_str()).copied().unwrap_or(0));
            p.push(Vec2::new(*x, *y));
            w.push(*weight);
        }
    }
    Vertices::Weighted { counts, bones: b, positions: p, weights: w }
}

/// Where an attachment's texture coordinates come from.
enum Mapping<'a> {
    /// No texture: flat colour.
    Flat,
    /// A rectangle of the skeleton's texture.
    Rect([f32; 4]),
    /// An atlas region.
    Atlas(&'a crate::data::AtlasRegion),
}

fn mapping<'a>(atlas: Option<&'a AtlasData>, region: Option<&RegionRef>) -> Mapping<'a> {
    match region {
        None => Mapping::Flat,
        Some(RegionRef::Rect(r)) => Mapping::Rect(*r),
        Some(RegionRef::Named(name)) => atlas
            .and_then(|a| a.regions.iter().find(|r| &r.name == name))
            .map_or(Mapping::Flat, Mapping::Atlas),
    }
}

impl Mapping<'_> {
    fn page(&self, textured_without_region: bool) -> Option<u16> {
        match self {
            Mapping::Flat if textured_without_region => Some(0),
            Mapping::Flat => None,
            Mapping::Rect(_) => Some(0),
            Mapping::Atlas(r) => Some(r.page),
        }
    }

    /// A mesh's region UVs (0..1 over the region's original, unstripped image, v down) in page
    /// pixels, as Spine's `MeshAttachment.updateRegion` computes them.
    fn mesh_uv(&self, uv: Vec2) -> Vec2 {
        match self {
            Mapping::Flat => uv,
            Mapping::Rect(r) => Vec2::new(r[0] + uv.x * r[2], r[1] + uv.y * r[3]),
            Mapping::Atlas(r) => {
                let (ow, oh) = r.original();
                match r.rotate.rem_euclid(360.0) as u32 {
                    90 => {
                        let u = r.x - (oh - r.offset_y - r.height);
                        let v = r.y - (ow - r.offset_x - r.width);
                        Vec2::new(u + uv.y * oh, v + (1.0 - uv.x) * ow)
                    }
                    180 => {
                        let u = r.x - (ow - r.offset_x - r.width);
                        let v = r.y - r.offset_y;
                        Vec2::new(u + (1.0 - uv.x) * ow, v + (1.0 - uv.y) * oh)
                    }
                    270 => {
                        let u = r.x - r.offset_y;
                        let v = r.y - r.offset_x;
                        Vec2::new(u + (1.0 - uv.y) * oh, v + uv.x * ow)
                    }
                    _ => {
                        let u = r.x - r.offset_x;
                        let v = r.y - (oh - r.offset_y - r.height);
                        Vec2::new(u + uv.x * ow, v + uv.y * oh)
                    }
                }
            }
        }
    }
}

/// A region attachment's quad: corners in the bone's space (whitespace stripping applied) and
/// their texture coordinates, in the order top-left, top-right, bottom-right, bottom-left as
/// the image shows them.
fn region_geometry(
    x: f32,
    y: f32,
    rotation: f32,
    width: f32,
    height: f32,
    m: &Mapping,
) -> ([Vec2; 4], [Vec2; 4]) {
    let local = Affine2::from_angle_translation(rotation.to_radians(), Vec2::new(x, y));
    let (hw, hh) = (width * 0.5, height * 0.5);
    // Image corners (y down): top-left, top-right, bottom-right, bottom-left.
    let (mut x1, mut y1, mut x2, mut y2) = (-hw, -hh, hw, hh);
    let uv = match m {
        Mapping::Flat => [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y],
        Mapping::Rect(r) => [
            Vec2::new(r[0], r[1]),
            Vec2::new(r[0] + r[2], r[1]),
            Vec2::new(r[0] + r[2], r[1] + r[3]),
            Vec2::new(r[0], r[1] + r[3]),
        ],
        Mapping::Atlas(r) => {
            let (ow, oh) = r.original();
            let (sx, sy) = (width / ow, height / oh);
            // Spine's offsets are from the bottom-left; the stripped pixels sit inside.
            x1 = -hw + r.offset_x * sx;
            x2 = x1 + r.width * sx;
            y2 = hh - r.offset_y * sy;
            y1 = y2 - r.height * sy;
            let rotated = r.rotate.rem_euclid(360.0) as u32 == 90;
            let (pw, ph) = if rotated { (r.height, r.width) } else { (r.width, r.height) };
            let (u, v, u2, v2) = (r.x, r.y, r.x + pw, r.y + ph);
            if rotated {
                // Stored turned a quarter turn (Spine's packer): the image's top-left is the
                // page's bottom-left (Spine's `RegionAttachment.updateRegion`).
                [Vec2::new(u, v2), Vec2::new(u, v), Vec2::new(u2, v), Vec2::new(u2, v2)]
            } else {
                [Vec2::new(u, v), Vec2::new(u2, v), Vec2::new(u2, v2), Vec2::new(u, v2)]
            }
        }
    };
    let corners = [Vec2::new(x1, y1), Vec2::new(x2, y1), Vec2::new(x2, y2), Vec2::new(x1, y2)]
        .map(|p| local.transform_point2(p));
    (corners, uv)
}

/// Skins: which attachment a slot shows for an attachment name, per skin.
#[derive(Clone, Debug, Default)]
pub struct Skins {
    /// Skin names; 0 is `default`.
    pub names: Vec<String>,
    /// Per slot: its first attachment key (keys are the distinct attachment names of a slot).
    key_start: Vec<u32>,
    /// Keys in all.
    keys: usize,
    /// `table[skin * keys + key]`: the attachment.
    table: Vec<Option<u16>>,
}

/// A skin by index (0 is the default skin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SkinId(pub u16);

impl Skins {
    /// The skin named `name` (`"default"` is 0).
    pub fn find(&self, name: &str) -> Option<SkinId> {
        self.names.iter().position(|n| n == name).map(|i| SkinId(i as u16))
    }

    /// The attachment `key` resolves to under `skins` (later skins win) then the default skin.
    pub fn resolve(&self, key: u16, skins: &[SkinId]) -> Option<u16> {
        let key = key as usize;
        skins
            .iter()
            .rev()
            .find_map(|s| self.table.get(s.0 as usize * self.keys + key).copied().flatten())
            .or_else(|| self.table.get(key).copied().flatten())
    }

    /// The slot's first key.
    pub fn key_start(&self, slot: usize) -> u32 {
        self.key_start[slot]
    }
}

/// What [`bind`] makes of the data's attachments.
pub(crate) struct Bound {
    pub geometry: Vec<Geometry>,
    pub skins: Skins,
    /// `(slot, name) -> key`.
    pub key_of: HashMap<(u16, String), u16>,
    /// Deform storage: per deform index, `(first float, floats)` into [`Pose::deform`].
    pub deform_ranges: Vec<(u32, u32)>,
    /// Per sequence frame geometry (those after the attachments): its attachment and frame.
    pub frame_of: Vec<(u16, u16)>,
}

/// The index of attachment `name` of `slot` in skin `skin` (`None`: default).
pub(crate) fn find_attachment(
    data: &Skeleton2DData,
    slot: &str,
    name: &str,
    skin: Option<&str>,
) -> Option<usize> {
    data.attachments.iter().position(|a| a.slot == slot && a.name == name && a.skin.as_deref() == skin)
}

/// Resolves attachments (validated data). The attachments some clip deforms (the owners of
/// their timelines) get deform storage.
pub(crate) fn bind(data: &Skeleton2DData, slots: &HashMap<&str, u16>, bones: &HashMap<&str, u16>) -> Bound {
    let atlas = data.atlas.as_ref();
    let textured = data.texture.is_some();
    let n = data.attachments.len();
    // Skins: default first, then in order of appearance.
    let mut names = vec!["default".to_string()];
    for a in &data.attachments {
        if let Some(s) = &a.skin {
            if !names.contains(s) {
                names.push(s.clone());
            }
        }
    }
    // Skins that only activate bones or constraints have no attachments.
    for skin in &data.skins {
        if !names.contains(&skin.name) {
            names.push(skin.name.clone());
        }
    }
    // Keys: per slot, distinct names in order of appearance.
    let mut per_slot: Vec<Vec<&str>> = vec![Vec::new(); data.slots.len()];
    let mut key_of = HashMap::new();
    let mut local = Vec::with_capacity(n);
    for a in &data.attachments {
        let s = slots[a.slot.as_str()] as usize;
        let k = match per_slot[s].iter().position(|x| *x == a.name) {
            Some(k) => k,
            None => {
                per_slot[s].push(&a.name);
                per_slot[s].len() - 1
            }
        };
        local.push((s, k));
    }
    let mut key_start = Vec::with_capacity(data.slots.len());
    let mut total = 0u32;
    for list in &per_slot {
        key_start.push(total);
        total += list.len() as u32;
    }
    for (s, list) in per_slot.iter().enumerate() {
        for (k, name) in list.iter().enumerate() {
            key_of.insert((s as u16, name.to_string()), (key_start[s] + k as u32) as u16);
        }
    }
    let keys: Vec<u16> = local.iter().map(|&(s, k)| (key_start[s] + k as u32) as u16).collect();
    let mut table = vec![None; names.len() * total as usize];
    for (i, a) in data.attachments.iter().enumerate() {
        let skin = a.skin.as_ref().map_or(0, |s| names.iter().position(|n| n == s).unwrap_or(0));
        table[skin * total as usize + keys[i] as usize] = Some(i as u16);
    }
    // Deform owners: a linked mesh playing its parent's keys reads the parent's.
    let parent_of = |i: usize| -> Option<usize> {
        let a = &data.attachments[i];
        match &a.kind {
            AttachmentKind::LinkedMesh { parent, parent_skin, .. } => {
                find_attachment(data, &a.slot, parent, parent_skin.as_deref())
            }
            _ => None,
        }
    };
    let deform_owner: Vec<u16> = (0..n)
        .map(|i| match &data.attachments[i].kind {
            AttachmentKind::LinkedMesh { deform: true, .. } => parent_of(i).unwrap_or(i) as u16,
            _ => i as u16,
        })
        .collect();
    // Attachment `i`'s geometry, showing `frame` in place of its region when given.
    let geometry_of = |i: usize, frame: Option<&RegionRef>| -> Geometry {
        let a = &data.attachments[i];
        let pick = |region: &Option<RegionRef>| frame.cloned().or_else(|| region.clone());
        match &a.kind {
            AttachmentKind::Region { x, y, rotation, width, height, region } => {
                let region = pick(region);
                let m = mapping(atlas, region.as_ref());
                let (corners, uvs) = region_geometry(*x, *y, *rotation, *width, *height, &m);
                Geometry {
                    page: m.page(false),
                    vertices: Vertices::Rigid(corners.to_vec()),
                    uvs: uvs.to_vec(),
                    triangles: vec![[0, 1, 2], [0, 2, 3]],
                    deform: None,
                    path: None,
                    clipping: None,
                    sequence: None,
                }
            }
            AttachmentKind::Polygon { vertices, uvs, triangles } => Geometry {
                page: textured.then_some(0),
                vertices: Vertices::Rigid(vertices.iter().map(|v| Vec2::from_array(*v)).collect()),
                uvs: uvs.iter().map(|v| Vec2::from_array(*v)).collect(),
                triangles: triangles.clone(),
                deform: None,
                path: None,
                clipping: None,
                sequence: None,
            },
            AttachmentKind::Path { vertices, weights, closed, constant_speed, lengths } => Geometry {
                page: None,
                vertices: vertices_of(vertices, weights, bones),
                uvs: Vec::new(),
                triangles: Vec::new(),
                deform: None,
                path: Some(PathShape {
                    closed: *closed,
                    constant_speed: *constant_speed,
                    lengths: lengths.clone(),
                }),
                clipping: None,
                sequence: None,
            },
            AttachmentKind::Clipping { vertices, weights, end } => Geometry {
                page: None,
                vertices: vertices_of(vertices, weights, bones),
                uvs: Vec::new(),
                triangles: Vec::new(),
                deform: None,
                path: None,
                clipping: Some(ClipShape { end: end.as_deref().and_then(|e| slots.get(e).copied()) }),
                sequence: None,
            },
            AttachmentKind::Mesh { .. } | AttachmentKind::LinkedMesh { .. } => {
                let (source, region) = match &a.kind {
                    AttachmentKind::LinkedMesh { region, .. } => (parent_of(i).unwrap_or(i), pick(region)),
                    AttachmentKind::Mesh { region, .. } => (i, pick(region)),
                    _ => unreachable!("matched above"),
                };
                let m = mapping(atlas, region.as_ref());
                match &data.attachments[source].kind {
                    AttachmentKind::Mesh { vertices, weights, uvs, triangles, .. } => {
                        let vertices = vertices_of(vertices, weights, bones);
                        Geometry {
                            page: m.page(textured),
                            vertices,
                            uvs: uvs.iter().map(|uv| m.mesh_uv(Vec2::from_array(*uv))).collect(),
                            triangles: triangles.clone(),
                            deform: None,
                            path: None,
                            clipping: None,
                            sequence: None,
                        }
                    }
                    // A linked mesh whose parent is missing or not a mesh (refused by validation).
                    _ => Geometry {
                        page: None,
                        vertices: Vertices::Rigid(Vec::new()),
                        uvs: Vec::new(),
                        triangles: Vec::new(),
                        deform: None,
                        path: None,
                        clipping: None,
                        sequence: None,
                    },
                }
            }
        }
    };
    let mut geometry: Vec<Geometry> = (0..n).map(|i| geometry_of(i, None)).collect();
    // Sequence frames: one geometry each, after the attachments (the frame's own region, so
    // its texture coordinates and, for a region, its whitespace stripping).
    let mut frame_of = Vec::new();
    let mut deform_owner = deform_owner;
    for (i, a) in data.attachments.iter().enumerate() {
        let Some(sequence) = &a.sequence else { continue };
        if sequence.frames.is_empty() {
            continue;
        }
        let first = geometry.len() as u16;
        for (f, frame) in sequence.frames.iter().enumerate() {
            geometry.push(geometry_of(i, Some(frame)));
            frame_of.push((i as u16, f as u16));
            deform_owner.push(deform_owner[i]);
        }
        let count = sequence.frames.len() as u16;
        geometry[i].sequence = Some(Frames {
            first,
            count,
            setup: (sequence.setup as u16).min(count - 1),
            owner: deform_owner[i],
        });
    }
    // Deform storage for every owner some clip deforms.
    let mut deform_ranges = Vec::new();
    let mut slot_of_owner: HashMap<u16, u16> = HashMap::new();
    let mut next = 0u32;
    for clip in data.clips.values() {
        for t in &clip.deform {
            let Some(owner) = find_attachment(data, &t.slot, &t.attachment, t.skin.as_deref()) else {
                continue;
            };
            let owner = deform_owner[owner];
            if let std::collections::hash_map::Entry::Vacant(e) = slot_of_owner.entry(owner) {
                let len = geometry[owner as usize].vertices.deform_len() as u32;
                e.insert(deform_ranges.len() as u16);
                deform_ranges.push((next, len));
                next += len;
            }
        }
    }
    for (i, g) in geometry.iter_mut().enumerate() {
        g.deform = slot_of_owner.get(&deform_owner[i]).copied();
    }
    Bound {
        geometry,
        skins: Skins { names, key_start, keys: total as usize, table },
        key_of,
        deform_ranges,
        frame_of,
    }
}

impl Skeleton2D {
    /// The world positions of attachment `attachment`'s vertices in `pose` (deform offsets
    /// included) into `out` (at least as long as its vertex count; the rest is left alone).
    pub fn world_vertices(&self, pose: &Pose, slot: usize, attachment: usize, out: &mut [Vec2]) {
        let g = &self.geometry[attachment];
        let deform = g.deform.map(|d| {
            let (start, len) = self.deform_ranges[d as usize];
            &pose.deform[start as usize..(start + len) as usize]
        });
        // Two loops each (with and without deform offsets), so the common case reads no
        // offsets.
        match (&g.vertices, deform) {
            (Vertices::Rigid(vertices), None) => {
                let world = pose.world[self.slot_bones[slot] as usize];
                for (v, o) in vertices.iter().zip(out.iter_mut()) {
                    *o = world.transform_point2(*v);
                }
            }
            (Vertices::Rigid(vertices), Some(d)) => {
                let world = pose.world[self.slot_bones[slot] as usize];
                for ((v, o), d) in vertices.iter().zip(out.iter_mut()).zip(d.chunks_exact(2)) {
                    *o = world.transform_point2(*v + Vec2::new(d[0], d[1]));
                }
            }
            (Vertices::Weighted { counts, bones, positions, weights }, d) => {
                // Zipped slices (no bounds checks in the inner loop); influences past the
                // lists (refused by validation) are ignored.
                let world = &pose.world[..];
                let n = bones.len().min(positions.len()).min(weights.len());
                let (bones, positions, weights) = (&bones[..n], &positions[..n], &weights[..n]);
                let mut k = 0;
                match d {
                    None => {
                        for (count, o) in counts.iter().zip(out.iter_mut()) {
                            let end = (k + *count as usize).min(n);
                            let mut sum = Vec2::ZERO;
                            for ((b, p), w) in
                                bones[k..end].iter().zip(&positions[k..end]).zip(&weights[k..end])
                            {
                                if let Some(m) = world.get(*b as usize) {
                                    sum += m.transform_point2(*p) * *w;
                                }
                            }
                            k = end;
                            *o = sum;
                        }
                    }
                    Some(d) => {
                        let n = n.min(d.len() / 2);
                        for (count, o) in counts.iter().zip(out.iter_mut()) {
                            let end = (k + *count as usize).min(n);
                            let mut sum = Vec2::ZERO;
                            let influences =
                                bones[k..end].iter().zip(&positions[k..end]).zip(&weights[k..end]);
                            for (((b, p), w), off) in influences.zip(d[2 * k..2 * end].chunks_exact(2)) {
                                if let Some(m) = world.get(*b as usize) {
                                    sum += m.transform_point2(*p + Vec2::new(off[0], off[1])) * *w;
                                }
                            }
                            k = end;
                            *o = sum;
                        }
                    }
                }
            }
        }
    }
}

/// Every slot's world vertices for a pose, in storage sized once per skeleton (the largest
/// attachment of each slot), so updating allocates nothing.
#[derive(Clone, Debug)]
pub struct WorldVertices {
    /// Per slot: first vertex in `positions` and its capacity.
    ranges: Vec<(u32, u32)>,
    /// Per slot: the attachment the vertices are of (`None`: nothing shown).
    shown: Vec<Option<u16>>,
    /// The vertices.
    positions: Vec<Vec2>,
}

impl WorldVertices {
    /// Storage for `skeleton`'s slots.
    pub fn new(skeleton: &Skeleton2D) -> WorldVertices {
        let mut capacity = vec![0u32; skeleton.slot_bones.len()];
        for (a, g) in skeleton.attachments.iter().zip(&skeleton.geometry) {
            let c = &mut capacity[a.slot as usize];
            *c = (*c).max(g.vertices.len() as u32);
        }
        let mut ranges = Vec::with_capacity(capacity.len());
        let mut next = 0;
        for c in capacity {
            ranges.push((next, c));
            next += c;
        }
        WorldVertices {
            ranges,
            shown: vec![None; skeleton.slot_bones.len()],
            positions: vec![Vec2::ZERO; next as usize],
        }
    }

    /// Computes the world vertices of what every slot shows in `pose`.
    pub fn update(&mut self, skeleton: &Skeleton2D, pose: &Pose) {
        for (slot, shown) in pose.attachments.iter().enumerate() {
            self.shown[slot] = *shown;
            let Some(a) = *shown else { continue };
            let (start, capacity) = self.ranges[slot];
            let out = &mut self.positions[start as usize..(start + capacity) as usize];
            skeleton.world_vertices(pose, slot, a as usize, out);
        }
    }

    /// Slot `slot`'s world vertices and the attachment they are of.
    pub fn slot(&self, skeleton: &Skeleton2D, slot: usize) -> Option<(u16, &[Vec2])> {
        let a = self.shown[slot]?;
        let (start, _) = self.ranges[slot];
        let n = skeleton.geometry[a as usize].vertices.len();
        Some((a, &self.positions[start as usize..start as usize + n]))
    }
}
