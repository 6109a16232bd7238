//! CPU skinning and a small software rasteriser: a posed 3D skeleton's mesh, shaded, from a fixed
//! camera, to an image (for tests, the CLI and editor previews).
//!
//! Each vertex is skinned by its four weighted joint matrices (`world x inverse bind`); triangles
//! are rasterised with a depth buffer and perspective-correct texture coordinates, lit by one
//! directional light (Lambert plus ambient) and multiplied by the material's base colour and
//! texture. Drawn at `supersample` times the size, then scaled down.

use glam::{Mat4, Vec2, Vec3, Vec4};
use tiny_skia::Pixmap;

use crate::Skeleton3D;
use crate::backend::Pose3D;

/// What to draw.
#[derive(Clone, Copy, Debug)]
pub struct RenderOptions3D {
    /// Image width.
    pub width: u32,
    /// Image height.
    pub height: u32,
    /// Background RGBA (0..1).
    pub background: [f32; 4],
    /// Draw joints as lines over the mesh.
    pub joints: bool,
    /// Drawing scale before downsampling.
    pub supersample: u32,
}

impl Default for RenderOptions3D {
    fn default() -> Self {
        RenderOptions3D {
            width: 512,
            height: 512,
            background: [0.16, 0.17, 0.2, 1.0],
            joints: false,
            supersample: 2,
        }
    }
}

/// A fixed camera: world -> clip space.
#[derive(Clone, Copy, Debug)]
pub struct Camera3D {
    /// Projection x view.
    pub view_projection: Mat4,
    /// Direction towards the light (world space).
    pub light: Vec3,
}

/// Skinned vertex positions and normals of a pose (world space), morph targets applied first.
pub fn skin_positions(skeleton: &Skeleton3D, pose: &Pose3D, out: &mut Vec<(Vec3, Vec3)>) {
    out.clear();
    let Some(mesh) = &skeleton.mesh else { return };
    let joint: Vec<Mat4> =
        pose.world.iter().zip(&mesh.inverse_bind).map(|(w, ibm)| Mat4::from(*w) * *ibm).collect();
    let mut morphed: Option<(Vec<Vec3>, Vec<Vec3>)> = None;
    for (t, target) in mesh.morph_targets.iter().enumerate() {
        let weight = pose.morph_weights.get(t).copied().unwrap_or(0.0);
        if weight == 0.0 {
            continue;
        }
        let (positions, normals) =
            morphed.get_or_insert_with(|| (mesh.positions.clone(), mesh.normals.clone()));
        for ((&v, dp), dn) in target.vertices.iter().zip(&target.positions).zip(&target.normals) {
            positions[v as usize] += *dp * weight;
            normals[v as usize] += *dn * weight;
        }
    }
    let (positions, normals) = match &morphed {
        Some((p, n)) => (p.as_slice(), n.as_slice()),
        None => (mesh.positions.as_slice(), mesh.normals.as_slice()),
    };
    for v in 0..positions.len() {
        let (j, w) = (mesh.joints[v], mesh.weights[v]);
        let total: f32 = w.iter().sum();
        let mut m = Mat4::ZERO;
        for k in 0..8 {
            if w[k] > 0.0 {
                m += joint[j[k] as usize] * (w[k] / total.max(1e-6));
            }
        }
        if total <= 0.0 {
            m = joint[j[0] as usize];
        }
        let p = m.transform_point3(positions[v]);
        let n = m.transform_vector3(normals[v]).normalize_or_zero();
        out.push((p, n));
    }
}

/// A camera looking at the pose's mesh from the front (+z), a little above and to the side,
/// framing it with room to move.
pub fn fit_camera(skeleton: &Skeleton3D, pose: &Pose3D, width: u32, height: u32) -> Camera3D {
    let (centre, radius) = pose_sphere(skeleton, pose);
    sphere_camera(centre, radius, width, height)
}

/// The centre and radius of what a pose shows (its skinned mesh, or its joints without one).
pub fn pose_sphere(skeleton: &Skeleton3D, pose: &Pose3D) -> (Vec3, f32) {
    bounds_sphere(pose_bounds(skeleton, pose))
}

/// An orbit camera around `centre`: `yaw` turns around the vertical (0 looks from +z), `pitch`
/// looks down from above (radians), `distance` is in multiples of `radius` (4 frames a whole
/// character).
pub fn orbit_camera(
    centre: Vec3,
    radius: f32,
    yaw: f32,
    pitch: f32,
    distance: f32,
    width: u32,
    height: u32,
) -> Camera3D {
    let pitch = pitch.clamp(-1.5, 1.5);
    let direction = Vec3::new(yaw.sin() * pitch.cos(), pitch.sin(), yaw.cos() * pitch.cos());
    let eye = centre + direction * radius * distance.max(0.5);
    let view = Mat4::look_at_rh(eye, centre, Vec3::Y);
    let projection = Mat4::perspective_rh(
        35f32.to_radians(),
        width.max(1) as f32 / height.max(1) as f32,
        radius * 0.05,
        radius * (distance + 4.0) * 2.0,
    );
    Camera3D { view_projection: projection * view, light: Vec3::new(0.4, 0.8, 0.6).normalize() }
}

fn to_u8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// Where world point `p` lands in a `size` view (pixels, y down), its NDC depth and its clip
/// `w`; `None` behind the camera.
fn project(camera: &Camera3D, p: Vec3, size: Vec2) -> Option<(Vec2, f32, f32)> {
    let c = camera.view_projection * p.extend(1.0);
    if c.w <= 1e-6 {
        return None;
    }
    let ndc = c.truncate() / c.w;
    Some((Vec2::new((ndc.x * 0.5 + 0.5) * size.x, (1.0 - (ndc.y * 0.5 + 0.5)) * size.y), ndc.z, c.w))
}

/// Each bone as a segment from its joint to its parent's in a `size` view, cut to the view
/// (one projected near the camera plane can be billions of pixels long); bones behind the
/// camera or outside the view are left out.
fn bone_segments<'a>(
    skeleton: &'a Skeleton3D,
    pose: &'a Pose3D,
    camera: &'a Camera3D,
    size: Vec2,
) -> impl Iterator<Item = (Vec2, Vec2)> + 'a {
    skeleton.parents.iter().enumerate().filter_map(move |(j, parent)| {
        let at = |b: usize| project(camera, Vec3::from(pose.world[b].translation), size);
        let (a, b) = (at(j)?, at(*parent.as_ref()? as usize)?);
        let (a, b) = animgraph_draw::clip_segment(a.0.to_array(), b.0.to_array(), [0.0; 2], size.to_array())?;
        Some((Vec2::from(a), Vec2::from(b)))
    })
}

/// Draws a pose's skinned mesh (and joints when asked).
pub fn render(skeleton: &Skeleton3D, pose: &Pose3D, camera: &Camera3D, options: &RenderOptions3D) -> Pixmap {
    let ss = options.supersample.max(1);
    let (w, h) = (options.width.max(1) * ss, options.height.max(1) * ss);
    let mut color = vec![[0u8; 4]; (w * h) as usize];
    let background = options.background.map(to_u8);
    color.fill(background);
    let mut depth = vec![f32::INFINITY; (w * h) as usize];
    let size = Vec2::new(w as f32, h as f32);
    let to_screen = |p: Vec3| project(camera, p, size).map(|(p, z, w)| (p, z, 1.0 / w));
    if let Some(mesh) = &skeleton.mesh {
        let mut skinned = Vec::new();
        skin_positions(skeleton, pose, &mut skinned);
        for (t, tri) in mesh.triangles.iter().enumerate() {
            let corners: Vec<_> = tri.iter().filter_map(|&i| to_screen(skinned[i as usize].0)).collect();
            if corners.len() < 3 {
                continue;
            }
            let (a, b, c) = (corners[0], corners[1], corners[2]);
            let area = (b.0 - a.0).perp_dot(c.0 - a.0);
            if area.abs() < 1e-9 {
                continue;
            }
            let (material_color, texture) = mesh.materials[mesh.triangle_material[t] as usize];
            let texture = texture.and_then(|i| mesh.textures.get(i));
            let normals = tri.map(|i| skinned[i as usize].1);
            let uvs = tri.map(|i| mesh.uvs[i as usize]);
            let lo = a.0.min(b.0).min(c.0).max(Vec2::ZERO);
            let hi = a.0.max(b.0).max(c.0).min(Vec2::new(w as f32 - 1.0, h as f32 - 1.0));
            for y in lo.y as u32..=hi.y.max(0.0) as u32 {
                for x in lo.x as u32..=hi.x.max(0.0) as u32 {
                    let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                    let w0 = (b.0 - p).perp_dot(c.0 - p) / area;
                    let w1 = (c.0 - p).perp_dot(a.0 - p) / area;
                    let w2 = 1.0 - w0 - w1;
                    if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                        continue;
                    }
                    let z = w0 * a.1 + w1 * b.1 + w2 * c.1;
                    let index = (y * w + x) as usize;
                    if z >= depth[index] || z < -1.0 {
                        continue;
                    }
                    depth[index] = z;
                    // Perspective-correct attributes.
                    let (p0, p1, p2) = (w0 * a.2, w1 * b.2, w2 * c.2);
                    let sum = p0 + p1 + p2;
                    let normal =
                        ((normals[0] * p0 + normals[1] * p1 + normals[2] * p2) / sum).normalize_or_zero();
                    let mut base = material_color;
                    if let Some((pixels, tw, th)) = texture {
                        let uv = (uvs[0] * p0 + uvs[1] * p1 + uvs[2] * p2) / sum;
                        let tx = ((uv.x.rem_euclid(1.0)) * *tw as f32) as u32 % tw;
                        let ty = ((uv.y.rem_euclid(1.0)) * *th as f32) as u32 % th;
                        let i = ((ty * tw + tx) * 4) as usize;
                        base *=
                            Vec4::new(pixels[i] as f32, pixels[i + 1] as f32, pixels[i + 2] as f32, 255.0)
                                / 255.0;
                    }
                    let light = 0.3 + 0.7 * normal.dot(camera.light).abs();
                    color[index] = [to_u8(base.x * light), to_u8(base.y * light), to_u8(base.z * light), 255];
                }
            }
        }
    }
    // A file without a mesh (a clip library, a bare armature) shows its bones.
    if options.joints || skeleton.mesh.is_none() {
        for (a, b) in bone_segments(skeleton, pose, camera, size) {
            let steps = (b - a).length().ceil().max(1.0) as u32;
            for s in 0..=steps {
                let q = a.lerp(b, s as f32 / steps as f32);
                if q.x >= 0.0 && q.y >= 0.0 && (q.x as u32) < w && (q.y as u32) < h {
                    color[(q.y as u32 * w + q.x as u32) as usize] = [255, 204, 51, 255];
                }
            }
        }
    }
    let mut canvas = Pixmap::new(w, h).expect("non-zero size");
    for (dst, src) in canvas.pixels_mut().iter_mut().zip(&color) {
        *dst = tiny_skia::ColorU8::from_rgba(src[0], src[1], src[2], src[3]).premultiply();
    }
    animgraph_draw::downscale(canvas, options.width.max(1), options.height.max(1), ss)
}

/// A pose's skinned mesh as triangles for a GPU ([`animgraph_draw::Triangles`], cleared first):
/// projected to a `width` x `height` view (y down), sorted far to near (a GPU drawing them in
/// order without a depth buffer paints the nearest last), lit per vertex as [`render`] lights
/// per pixel, coloured by the material's base colour, with the material's texture as the run's
/// page (an index into the mesh's textures; they repeat). Triangles with a corner behind the
/// camera are left out. `scratch` keeps the skinned vertices and the sort between frames.
pub fn triangles(
    skeleton: &Skeleton3D,
    pose: &Pose3D,
    camera: &Camera3D,
    (width, height): (f32, f32),
    joints: bool,
    scratch: &mut TriangleScratch,
    out: &mut animgraph_draw::Triangles,
) {
    out.clear();
    let size = Vec2::new(width, height);
    let to_screen = |p: Vec3| project(camera, p, size).map(|(p, _, w)| (p, w));
    if let Some(mesh) = &skeleton.mesh {
        skin_positions(skeleton, pose, &mut scratch.skinned);
        scratch.projected.clear();
        scratch.projected.extend(scratch.skinned.iter().map(|(p, n)| {
            let light = 0.3 + 0.7 * n.dot(camera.light).abs();
            (to_screen(*p), light)
        }));
        scratch.order.clear();
        for (t, tri) in mesh.triangles.iter().enumerate() {
            let corners = tri.map(|i| scratch.projected[i as usize].0);
            if let [Some(a), Some(b), Some(c)] = corners {
                if (b.0 - a.0).perp_dot(c.0 - a.0).abs() > 1e-9 {
                    // Distance along the view: the mean of the corners' clip w.
                    scratch.order.push(((a.1 + b.1 + c.1) / 3.0, t as u32));
                }
            }
        }
        scratch.order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(_, t) in &scratch.order {
            let tri = mesh.triangles[t as usize];
            let (base, texture) = mesh.materials[mesh.triangle_material[t as usize] as usize];
            let page = texture.filter(|i| *i < mesh.textures.len()).map(|i| i as u32);
            let corner = |i: u32| {
                let (screen, light) = scratch.projected[i as usize];
                let p = screen.map_or(Vec2::ZERO, |s| s.0);
                animgraph_draw::Vertex {
                    position: p.to_array(),
                    uv: mesh.uvs[i as usize].to_array(),
                    color: [to_u8(base.x * light), to_u8(base.y * light), to_u8(base.z * light), 255],
                }
            };
            out.push(page, tri.map(corner));
        }
    }
    if joints || skeleton.mesh.is_none() {
        out.lines
            .extend(bone_segments(skeleton, pose, camera, size).map(|(a, b)| (a.to_array(), b.to_array())));
    }
}

/// What [`triangles`] keeps between frames.
#[derive(Clone, Debug, Default)]
pub struct TriangleScratch {
    skinned: Vec<(Vec3, Vec3)>,
    projected: Vec<(Option<(Vec2, f32)>, f32)>,
    order: Vec<(f32, u32)>,
}

/// A camera like [`fit_camera`] framing a sphere (centre, radius).
pub fn sphere_camera(centre: Vec3, radius: f32, width: u32, height: u32) -> Camera3D {
    let direction = Vec3::new(0.45, 0.25, 1.0).normalize();
    let eye = centre + Vec3::Y * radius * 0.25 + direction * radius * 4.2;
    let view = Mat4::look_at_rh(eye, centre, Vec3::Y);
    let projection = Mat4::perspective_rh(
        35f32.to_radians(),
        width.max(1) as f32 / height.max(1) as f32,
        radius * 0.1,
        radius * 10.0,
    );
    Camera3D { view_projection: projection * view, light: Vec3::new(0.4, 0.8, 0.6).normalize() }
}

/// The box (min, max) of what a pose shows (its skinned mesh, or its joints without one).
pub fn pose_bounds(skeleton: &Skeleton3D, pose: &Pose3D) -> Option<(Vec3, Vec3)> {
    let mut skinned = Vec::new();
    skin_positions(skeleton, pose, &mut skinned);
    let points: Vec<Vec3> = if skinned.is_empty() {
        pose.world.iter().map(|m| Vec3::from(m.translation)).collect()
    } else {
        skinned.iter().map(|p| p.0).collect()
    };
    let first = *points.first()?;
    Some(points.iter().fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))))
}

/// The sphere around the union of boxes (as [`pose_sphere`] for one).
pub fn bounds_sphere(boxes: impl IntoIterator<Item = (Vec3, Vec3)>) -> (Vec3, f32) {
    let mut union: Option<(Vec3, Vec3)> = None;
    for (lo, hi) in boxes {
        union = Some(union.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
    }
    match union {
        Some((lo, hi)) => ((lo + hi) * 0.5, ((hi - lo).length() * 0.5).max(1e-3)),
        None => (Vec3::ZERO, 1.0),
    }
}

#[cfg(feature = "tools")]
/// Runs a graph from a script on a 3D skeleton and renders the requested frames, calling
/// `frame_done(frame, image)` for each. The camera frames every requested frame's pose (the
/// script runs twice: once to measure, once to draw), so a character that travels stays in
/// view. Returns how many frames were drawn.
pub fn render_script(
    skeleton: std::sync::Arc<Skeleton3D>,
    graph: &animgraph_runtime::graph::ValidGraph,
    script: &animgraph_runtime::script::Script,
    frames: &[u32],
    options: &RenderOptions3D,
    mut frame_done: impl FnMut(u32, Pixmap),
) -> Result<usize, animgraph_runtime::script::SimulationError> {
    let backend = crate::Skeleton3DPoseBackend::new(std::sync::Arc::clone(&skeleton));
    let rest = pose_sphere(&skeleton, &backend.pose);
    let mut boxes = Vec::new();
    let mut measure = animgraph_runtime::script::Simulation::new(graph, script, backend)?;
    measure.run_frames(frames, |_, s| boxes.extend(pose_bounds(&skeleton, &s.backend.pose)))?;
    let (centre, radius) = if boxes.is_empty() { rest } else { bounds_sphere(boxes) };
    let camera = sphere_camera(centre, radius, options.width, options.height);
    let backend = crate::Skeleton3DPoseBackend::new(std::sync::Arc::clone(&skeleton));
    let mut simulation = animgraph_runtime::script::Simulation::new(graph, script, backend)?;
    let rendered = simulation.run_frames(frames, |frame, s| {
        frame_done(frame, render(&skeleton, &s.backend.pose, &camera, options))
    })?;
    Ok(rendered)
}

#[cfg(test)]
mod tests {
    use glam::Vec2;

    /// The renderer's segment cut, on `Vec2`s in a `[0, size]` canvas.
    fn clip_segment(a: Vec2, b: Vec2, size: Vec2) -> Option<(Vec2, Vec2)> {
        animgraph_draw::clip_segment(a.to_array(), b.to_array(), [0.0; 2], size.to_array())
            .map(|(a, b)| (Vec2::from(a), Vec2::from(b)))
    }

    /// A bone projected near the camera plane ends billions of pixels away; drawing stepped it
    /// pixel by pixel (a fuzzed Fox GLB took 46 s in a 16 x 16 frame). Only its visible part is
    /// stepped now.
    #[test]
    fn bone_lines_are_clipped_to_the_canvas_before_stepping() {
        let size = Vec2::new(16.0, 16.0);
        let (a, b) = clip_segment(Vec2::new(8.0, 8.0), Vec2::new(4.0e9, 8.0), size).unwrap();
        assert_eq!((a, b), (Vec2::new(8.0, 8.0), Vec2::new(16.0, 8.0)));
        let (a, b) = clip_segment(Vec2::new(-1.0e12, -1.0e12), Vec2::new(1.0e12, 1.0e12), size).unwrap();
        assert!((b - a).length() <= size.length() + 1e-3 && a.x >= -1e-3 && b.x <= 16.001, "{a} {b}");
        assert_eq!(
            clip_segment(Vec2::new(2.0, 3.0), Vec2::new(5.0, 7.0), size),
            Some((Vec2::new(2.0, 3.0), Vec2::new(5.0, 7.0)))
        );
        assert_eq!(
            clip_segment(Vec2::new(-5.0, 3.0), Vec2::new(-1.0, 7.0), size),
            None,
            "left of the canvas"
        );
        assert_eq!(clip_segment(Vec2::new(f32::NAN, 3.0), Vec2::new(1.0, 7.0), size), None);
        assert_eq!(clip_segment(Vec2::new(f32::INFINITY, 3.0), Vec2::new(1.0, 7.0), size), None);
    }
}
