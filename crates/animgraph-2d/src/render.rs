//! A CPU renderer: a posed 2D skeleton to an RGBA image (tiny-skia), for tests, the CLI and
//! editor previews.
//!
//! Slots are drawn in the pose's draw order. Each triangle of a polygon attachment (and each
//! region quad) is filled with the texture through the affine map that takes its texture
//! coordinates to its screen corners, so the picture is exact per triangle. Triangles are filled
//! without anti-aliasing (so shared edges leave no seams) at `supersample` times the size, then
//! scaled down with bilinear filtering. Slot and attachment colours multiply the texture (RGB
//! tint through a tinted copy of the texture per distinct colour, alpha as opacity).

use glam::{Affine2, Vec2};
use tiny_skia::{
    Color, FillRule, FilterQuality, Mask, Paint, PathBuilder, Pattern, Pixmap, SpreadMode, Stroke, Transform,
};

use crate::data::BlendMode;
use crate::skeleton::{Pose, Skeleton2D};

/// Where the skeleton's space lands on the image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Skeleton space -> image pixels.
    pub view: Affine2,
}

impl Camera {
    /// A camera showing `min..max` (skeleton space, y down) inside `width x height` with a margin
    /// (fraction of the size), keeping proportions.
    pub fn fit(min: Vec2, max: Vec2, width: u32, height: u32, margin: f32) -> Camera {
        let size = (max - min).max(Vec2::splat(1e-3));
        let usable = Vec2::new(width as f32, height as f32) * (1.0 - 2.0 * margin);
        let scale = (usable.x / size.x).min(usable.y / size.y);
        let centre = (min + max) * 0.5;
        let view = Affine2::from_translation(Vec2::new(width as f32, height as f32) * 0.5)
            * Affine2::from_scale(Vec2::splat(scale))
            * Affine2::from_translation(-centre);
        Camera { view }
    }
}

/// What to draw.
#[derive(Clone, Copy, Debug)]
pub struct RenderOptions {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Background RGBA (0..1).
    pub background: [f32; 4],
    /// Draw bones as lines over the picture.
    pub bones: bool,
    /// Drawing scale before downsampling (1 = none).
    pub supersample: u32,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            width: 512,
            height: 512,
            background: [0.16, 0.17, 0.2, 1.0],
            bones: false,
            supersample: 2,
        }
    }
}

/// The world-space bounds of everything a pose draws (the bones' origins when it draws
/// nothing), for framing a camera.
pub fn pose_bounds(skeleton: &Skeleton2D, pose: &Pose) -> (Vec2, Vec2) {
    let mut min = Vec2::splat(f32::MAX);
    let mut max = Vec2::splat(f32::MIN);
    let mut vertices = Vec::new();
    for (slot, attachment) in pose.attachments.iter().enumerate() {
        let Some(a) = attachment else { continue };
        let alpha = pose.colors[slot][3] * skeleton.attachments[*a as usize].color[3];
        // Paths and clipping polygons draw nothing.
        if alpha <= 0.0 || skeleton.geometry[*a as usize].triangles.is_empty() {
            continue;
        }
        world_vertices(skeleton, pose, slot, *a as usize, &mut vertices);
        for p in &vertices {
            min = min.min(*p);
            max = max.max(*p);
        }
    }
    if min.x > max.x {
        for w in &pose.world {
            min = min.min(w.translation);
            max = max.max(w.translation);
        }
    }
    (min, max)
}

fn world_vertices(skeleton: &Skeleton2D, pose: &Pose, slot: usize, attachment: usize, out: &mut Vec<Vec2>) {
    out.clear();
    out.resize(skeleton.geometry[attachment].vertices.len(), Vec2::ZERO);
    skeleton.world_vertices(pose, slot, attachment, out);
}

/// An attachment's setup outline in its slot bone's space: a region's four corners (whitespace
/// stripping applied), a polygon's or unweighted mesh's vertices (a weighted mesh's are in
/// several bones' spaces: empty).
pub fn attachment_corners(skeleton: &Skeleton2D, attachment: usize) -> Vec<Vec2> {
    match &skeleton.geometry[attachment].vertices {
        crate::attachment::Vertices::Rigid(v) => v.clone(),
        crate::attachment::Vertices::Weighted { .. } => Vec::new(),
    }
}

/// The images of a skeleton: per atlas page (or its one `texture` as page 0), `None` where
/// an image is missing (those attachments draw flat).
pub type Textures = Vec<Option<Pixmap>>;

/// Loads a skeleton's images from `folder` (the `.mskel`'s): its atlas pages, or its `texture`.
/// Paths stay inside the folder; files are regular and at most 256 MiB. Premultiplied pages
/// are read as stored. Returns the images and a warning per image that did not load.
pub fn load_textures(data: &crate::Skeleton2DData, folder: &std::path::Path) -> (Textures, Vec<String>) {
    let pages: Vec<(String, bool)> = match &data.atlas {
        Some(atlas) => atlas.pages.iter().map(|p| (p.image.clone(), p.pma)).collect(),
        None => data.texture.iter().map(|t| (t.clone(), false)).collect(),
    };
    let mut warnings = Vec::new();
    let textures = pages
        .iter()
        .map(|(image, pma)| {
            let loaded = animgraph_runtime::files::resolve_inside(folder, std::path::Path::new(image))
                .and_then(|file| {
                    let bytes = animgraph_runtime::files::read_bounded(&file, 256 << 20)
                        .map_err(|e| e.to_string())?;
                    if *pma {
                        decode_premultiplied(&bytes)
                    } else {
                        Pixmap::decode_png(&bytes).map_err(|e| e.to_string())
                    }
                });
            match loaded {
                Ok(p) => Some(p),
                Err(e) => {
                    warnings.push(format!("cannot load texture \"{image}\": {e}; drawing flat parts"));
                    None
                }
            }
        })
        .collect();
    (textures, warnings)
}

/// A PNG whose colours are already multiplied by alpha (Spine's "premultiplied alpha" pages),
/// kept as stored (decoding it as straight alpha would multiply twice and darken edges).
pub fn decode_premultiplied(bytes: &[u8]) -> Result<Pixmap, String> {
    let mut decoder = png::Decoder::new(bytes);
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let (width, height) = (reader.info().width, reader.info().height);
    if u64::from(width) * u64::from(height) > 1 << 28 {
        return Err(format!("{width}x{height} is too large"));
    }
    let mut buffer = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buffer).map_err(|e| e.to_string())?;
    let mut pixmap = Pixmap::new(width, height).ok_or("empty image")?;
    let channels = frame.color_type.samples();
    let stride = frame.line_size;
    for (y, row) in buffer.chunks(stride).take(height as usize).enumerate() {
        for x in 0..width as usize {
            let p = &row[x * channels..(x + 1) * channels];
            let (r, g, b, a) = match channels {
                1 => (p[0], p[0], p[0], 255),
                2 => (p[0], p[0], p[0], p[1]),
                3 => (p[0], p[1], p[2], 255),
                _ => (p[0], p[1], p[2], p[3]),
            };
            let c = tiny_skia::PremultipliedColorU8::from_rgba(r.min(a), g.min(a), b.min(a), a)
                .unwrap_or(tiny_skia::PremultipliedColorU8::TRANSPARENT);
            pixmap.pixels_mut()[y * width as usize + x] = c;
        }
    }
    Ok(pixmap)
}

fn to_skia(a: Affine2) -> Transform {
    let m = a.matrix2;
    Transform::from_row(m.x_axis.x, m.x_axis.y, m.y_axis.x, m.y_axis.y, a.translation.x, a.translation.y)
}

/// The affine map taking three texture points to three screen points (`None` if degenerate).
fn triangle_map(uv: [Vec2; 3], screen: [Vec2; 3]) -> Option<Affine2> {
    let u = glam::Mat2::from_cols(uv[1] - uv[0], uv[2] - uv[0]);
    if u.determinant().abs() < 1e-9 {
        return None;
    }
    let s = glam::Mat2::from_cols(screen[1] - screen[0], screen[2] - screen[0]);
    let m = s * u.inverse();
    Some(Affine2::from_mat2_translation(m, screen[0] - m * uv[0]))
}

/// Ends the clip in force after the slot it ends at.
fn end_clip<C>(clip: &mut Option<(C, Option<u16>)>, slot: u16) {
    if clip.as_ref().is_some_and(|(_, end)| *end == Some(slot)) {
        *clip = None;
    }
}

fn color(c: [f32; 4]) -> Color {
    Color::from_rgba(c[0].clamp(0.0, 1.0), c[1].clamp(0.0, 1.0), c[2].clamp(0.0, 1.0), c[3].clamp(0.0, 1.0))
        .unwrap_or(Color::BLACK)
}

/// Each bone as a line in view space: to its first child (Godot's convention), else along its
/// x axis for its length (at least 4).
fn bone_lines<'a>(
    skeleton: &'a Skeleton2D,
    pose: &'a Pose,
    view: Affine2,
) -> impl Iterator<Item = (Vec2, Vec2)> + 'a {
    pose.world.iter().enumerate().map(move |(b, world)| {
        let from = (view * *world).transform_point2(Vec2::ZERO);
        let to = match skeleton.parents.iter().position(|p| *p == Some(b as u16)) {
            Some(child) => (view * pose.world[child]).transform_point2(Vec2::ZERO),
            None => (view * *world).transform_point2(Vec2::new(skeleton.data.bones[b].length.max(4.0), 0.0)),
        };
        (from, to)
    })
}

/// Draws a pose. `textures` are the skeleton's images by page ([`load_textures`]); an
/// attachment whose page is missing draws flat grey.
pub fn render(
    skeleton: &Skeleton2D,
    pose: &Pose,
    textures: &[Option<Pixmap>],
    camera: &Camera,
    options: &RenderOptions,
) -> Pixmap {
    let ss = options.supersample.max(1);
    let (w, h) = (options.width.max(1), options.height.max(1));
    let mut canvas = Pixmap::new(w * ss, h * ss).expect("non-zero size");
    canvas.fill(color(options.background));
    let view = Affine2::from_scale(Vec2::splat(ss as f32)) * camera.view;
    // Tinted copies of the pages, one per distinct page and tint (light RGB, dark RGB).
    let mut tinted: Vec<(u16, [u8; 6], Pixmap)> = Vec::new();
    let mut vertices = Vec::new();
    // The clipping polygon in force, as a mask, and the last slot it clips.
    let mut clip: Option<(Mask, Option<u16>)> = None;
    for &slot in &pose.draw_order {
        let slot_id = slot;
        let slot = slot as usize;
        let Some(a) = pose.attachments[slot] else {
            end_clip(&mut clip, slot_id);
            continue;
        };
        let attachment = &skeleton.attachments[a as usize];
        let geometry = &skeleton.geometry[a as usize];
        if let Some(shape) = geometry.clipping {
            // As Spine's clipStart: a second polygon while one is active is ignored, and the
            // clipping slot does not end its own clip.
            if clip.is_none() {
                world_vertices(skeleton, pose, slot, a as usize, &mut vertices);
                let mut path = PathBuilder::new();
                for (i, v) in vertices.iter().enumerate() {
                    let p = view.transform_point2(*v);
                    if i == 0 { path.move_to(p.x, p.y) } else { path.line_to(p.x, p.y) }
                }
                path.close();
                if let (Some(path), Some(mut mask)) = (path.finish(), Mask::new(w * ss, h * ss)) {
                    mask.fill_path(&path, FillRule::Winding, false, Transform::identity());
                    clip = Some((mask, shape.end));
                }
            }
            continue;
        }
        let tint: [f32; 4] = std::array::from_fn(|i| pose.colors[slot][i] * attachment.color[i]);
        let alpha = tint[3];
        if alpha <= 0.0 {
            end_clip(&mut clip, slot_id);
            continue;
        }
        let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
        let dark = &pose.colors[slot][4..7];
        let key = [byte(tint[0]), byte(tint[1]), byte(tint[2]), byte(dark[0]), byte(dark[1]), byte(dark[2])];
        let page = geometry.page;
        let texture = match page.and_then(|p| textures.get(p as usize)).and_then(Option::as_ref) {
            Some(t) if key != [255, 255, 255, 0, 0, 0] => {
                let p = page.unwrap_or(0);
                if !tinted.iter().any(|(q, k, _)| *q == p && *k == key) {
                    let mut copy = t.clone();
                    for pixel in copy.pixels_mut() {
                        // Premultiplied two-colour tint: c * light + (alpha - c) * dark.
                        let (c, alpha) = ([pixel.red(), pixel.green(), pixel.blue()], pixel.alpha() as u32);
                        let [r, g, b] = [0, 1, 2].map(|i| {
                            let c = c[i] as u32;
                            let v = c * key[i] as u32 + alpha.saturating_sub(c) * key[3 + i] as u32;
                            ((v + 127) / 255).min(alpha) as u8
                        });
                        *pixel = tiny_skia::PremultipliedColorU8::from_rgba(r, g, b, pixel.alpha())
                            .unwrap_or(*pixel);
                    }
                    tinted.push((p, key, copy));
                }
                tinted.iter().find(|(q, k, _)| *q == p && *k == key).map(|(_, _, t)| t)
            }
            other => other,
        };
        world_vertices(skeleton, pose, slot, a as usize, &mut vertices);
        let blend_mode = match skeleton.data.slots[slot].blend {
            BlendMode::Normal => tiny_skia::BlendMode::SourceOver,
            BlendMode::Additive => tiny_skia::BlendMode::Plus,
            BlendMode::Multiply => tiny_skia::BlendMode::Multiply,
            BlendMode::Screen => tiny_skia::BlendMode::Screen,
        };
        for t in &geometry.triangles {
            let p = t.map(|i| view.transform_point2(vertices[i as usize]));
            let uv = t.map(|i| geometry.uvs[i as usize]);
            let mut path = PathBuilder::new();
            path.move_to(p[0].x, p[0].y);
            path.line_to(p[1].x, p[1].y);
            path.line_to(p[2].x, p[2].y);
            path.close();
            let Some(path) = path.finish() else { continue };
            let mut paint = Paint { anti_alias: false, blend_mode, ..Default::default() };
            match (texture, triangle_map(uv, p)) {
                (Some(tex), Some(map)) => {
                    paint.shader = Pattern::new(
                        tex.as_ref(),
                        SpreadMode::Pad,
                        FilterQuality::Bilinear,
                        alpha,
                        to_skia(map),
                    );
                }
                _ => paint.set_color(color([0.7 * tint[0], 0.7 * tint[1], 0.75 * tint[2], alpha])),
            }
            canvas.fill_path(
                &path,
                &paint,
                FillRule::Winding,
                Transform::identity(),
                clip.as_ref().map(|c| &c.0),
            );
        }
        end_clip(&mut clip, slot_id);
    }
    if options.bones {
        let stroke = Stroke { width: 1.5 * ss as f32, ..Default::default() };
        let mut paint = Paint::default();
        paint.set_color(color([1.0, 0.8, 0.2, 0.9]));
        paint.anti_alias = true;
        for (from, to) in bone_lines(skeleton, pose, view) {
            let mut path = PathBuilder::new();
            path.move_to(from.x, from.y);
            path.line_to(to.x, to.y);
            if let Some(path) = path.finish() {
                canvas.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
            }
            if let Some(dot) = PathBuilder::from_circle(from.x, from.y, 2.5 * ss as f32) {
                canvas.fill_path(&dot, &paint, FillRule::Winding, Transform::identity(), None);
            }
        }
    }
    animgraph_draw::downscale(canvas, w, h, ss)
}

/// A pose as triangles for a GPU ([`animgraph_draw::Triangles`], cleared first), in the same
/// order and places as [`render`] draws them (`camera` maps to view units). Texture coordinates
/// are normalised by each page's size in `textures`; a missing page draws flat (run page
/// `None`) in the same grey as [`render`]. Slot and attachment colours tint the vertices
/// (premultiplied); additive slots have vertex alpha 0 (premultiplied blending adds them).
/// Clipping attachments clip the triangles on the CPU (the clipping polygon cut into convex
/// pieces, each triangle clipped against each piece), as Spine's runtimes do. Not drawn as in
/// [`render`]: the two-colour tint's dark colour, and multiply/screen slots (drawn as normal).
pub fn triangles(
    skeleton: &Skeleton2D,
    pose: &Pose,
    textures: &[Option<Pixmap>],
    camera: &Camera,
    bones: bool,
    out: &mut animgraph_draw::Triangles,
) {
    out.clear();
    let view = camera.view;
    let mut vertices = Vec::new();
    // The clip in force: its convex pieces (view space) and the last slot it clips.
    let mut clip: Option<(Vec<Vec<Vec2>>, Option<u16>)> = None;
    let mut polygon: Vec<(Vec2, Vec2)> = Vec::new();
    let mut scratch: Vec<(Vec2, Vec2)> = Vec::new();
    for &slot_id in &pose.draw_order {
        let slot = slot_id as usize;
        let Some(a) = pose.attachments[slot] else {
            end_clip(&mut clip, slot_id);
            continue;
        };
        let attachment = &skeleton.attachments[a as usize];
        let geometry = &skeleton.geometry[a as usize];
        if geometry.clipping.is_some() {
            if clip.is_none() {
                world_vertices(skeleton, pose, slot, a as usize, &mut vertices);
                let shape: Vec<Vec2> = vertices.iter().map(|v| view.transform_point2(*v)).collect();
                clip = Some((convex_pieces(&shape), geometry.clipping.and_then(|c| c.end)));
            }
            continue;
        }
        let tint: [f32; 4] = std::array::from_fn(|i| pose.colors[slot][i] * attachment.color[i]);
        let alpha = tint[3].clamp(0.0, 1.0);
        if alpha <= 0.0 || geometry.triangles.is_empty() {
            end_clip(&mut clip, slot_id);
            continue;
        }
        let page = geometry.page.filter(|p| textures.get(*p as usize).is_some_and(Option::is_some));
        let size = page
            .and_then(|p| textures[p as usize].as_ref())
            .map_or(Vec2::ONE, |t| Vec2::new(t.width() as f32, t.height() as f32));
        let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
        let rgb = match page {
            Some(_) => [tint[0], tint[1], tint[2]],
            None => [0.7 * tint[0], 0.7 * tint[1], 0.75 * tint[2]],
        };
        let additive = skeleton.data.slots[slot].blend == BlendMode::Additive;
        let color = [
            byte(rgb[0] * alpha),
            byte(rgb[1] * alpha),
            byte(rgb[2] * alpha),
            if additive { 0 } else { byte(alpha) },
        ];
        world_vertices(skeleton, pose, slot, a as usize, &mut vertices);
        let corner = |p: Vec2, uv: Vec2| animgraph_draw::Vertex {
            position: p.to_array(),
            uv: (uv / size).to_array(),
            color,
        };
        let page = page.map(u32::from);
        for t in &geometry.triangles {
            let p = t.map(|i| view.transform_point2(vertices[i as usize]));
            let uv = t.map(|i| geometry.uvs[i as usize]);
            match &clip {
                None => out.push(page, [0, 1, 2].map(|k| corner(p[k], uv[k]))),
                Some((pieces, _)) => {
                    for piece in pieces {
                        polygon.clear();
                        polygon.extend((0..3).map(|k| (p[k], uv[k])));
                        clip_convex(&mut polygon, piece, &mut scratch);
                        for k in 1..polygon.len().saturating_sub(1) {
                            let [a, b, c] = [polygon[0], polygon[k], polygon[k + 1]];
                            out.push(page, [corner(a.0, a.1), corner(b.0, b.1), corner(c.0, c.1)]);
                        }
                    }
                }
            }
        }
        end_clip(&mut clip, slot_id);
    }
    if bones {
        out.lines.extend(bone_lines(skeleton, pose, view).map(|(a, b)| (a.to_array(), b.to_array())));
    }
}

/// Twice the signed area of a polygon (positive when its corners turn anticlockwise in y-up
/// terms, i.e. clockwise on screen).
fn signed_area(polygon: &[Vec2]) -> f32 {
    (0..polygon.len()).map(|i| polygon[i].perp_dot(polygon[(i + 1) % polygon.len()])).sum()
}

/// A simple polygon as convex pieces, all wound the same way (positive [`signed_area`]): itself
/// when convex, else its triangles by ear clipping. Degenerate input gives no pieces.
fn convex_pieces(polygon: &[Vec2]) -> Vec<Vec<Vec2>> {
    let mut points: Vec<Vec2> = polygon.iter().copied().filter(|p| p.is_finite()).collect();
    if points.len() < 3 {
        return Vec::new();
    }
    if signed_area(&points) < 0.0 {
        points.reverse();
    }
    let n = points.len();
    let turn = |i: usize, pts: &[Vec2]| {
        let m = pts.len();
        (pts[(i + 1) % m] - pts[i]).perp_dot(pts[(i + 2) % m] - pts[(i + 1) % m])
    };
    if (0..n).all(|i| turn(i, &points) >= 0.0) {
        return vec![points];
    }
    // Ear clipping: O(n^2) corners for clipping polygons of a few dozen points.
    let mut pieces = Vec::new();
    let mut guard = 0;
    while points.len() > 3 && guard < 10_000 {
        guard += 1;
        let m = points.len();
        let ear = (0..m).find(|&i| {
            let (a, b, c) = (points[i], points[(i + 1) % m], points[(i + 2) % m]);
            if (b - a).perp_dot(c - b) <= 0.0 {
                return false;
            }
            let inside = |p: Vec2| {
                (b - a).perp_dot(p - a) > 0.0
                    && (c - b).perp_dot(p - b) > 0.0
                    && (a - c).perp_dot(p - c) > 0.0
            };
            (0..m).filter(|&j| j != i && j != (i + 1) % m && j != (i + 2) % m).all(|j| !inside(points[j]))
        });
        let i = ear.unwrap_or(0);
        let (a, b, c) = (points[i], points[(i + 1) % m], points[(i + 2) % m]);
        if (b - a).perp_dot(c - b) > 0.0 {
            pieces.push(vec![a, b, c]);
        }
        points.remove((i + 1) % m);
    }
    if points.len() == 3 && signed_area(&points) > 0.0 {
        pieces.push(points);
    }
    pieces
}

/// Sutherland-Hodgman: `polygon` (position, uv) cut to the inside of the convex `clip` (wound
/// with positive [`signed_area`]), in place.
fn clip_convex(polygon: &mut Vec<(Vec2, Vec2)>, clip: &[Vec2], scratch: &mut Vec<(Vec2, Vec2)>) {
    for i in 0..clip.len() {
        if polygon.is_empty() {
            return;
        }
        let (a, b) = (clip[i], clip[(i + 1) % clip.len()]);
        let side = |p: Vec2| (b - a).perp_dot(p - a);
        scratch.clear();
        for k in 0..polygon.len() {
            let (p, q) = (polygon[k], polygon[(k + 1) % polygon.len()]);
            let (sp, sq) = (side(p.0), side(q.0));
            if sp >= 0.0 {
                scratch.push(p);
            }
            if (sp >= 0.0) != (sq >= 0.0) {
                let t = sp / (sp - sq);
                scratch.push((p.0.lerp(q.0, t), p.1.lerp(q.1, t)));
            }
        }
        std::mem::swap(polygon, scratch);
    }
}

#[cfg(feature = "tools")]
/// Runs a graph from a script on a skeleton and renders the requested frames (in frame order),
/// calling `frame_done(frame, image)` for each. The camera frames what those frames draw (the
/// union of their bounds, with a margin; `RenderOptions` sets the size), so helper bones far
/// from the art do not shrink the character. Returns the number of frames rendered.
pub fn render_script(
    skeleton: std::sync::Arc<Skeleton2D>,
    graph: &animgraph_runtime::graph::ValidGraph,
    script: &animgraph_runtime::script::Script,
    textures: &[Option<Pixmap>],
    frames: &[u32],
    options: &RenderOptions,
    mut frame_done: impl FnMut(u32, Pixmap),
) -> Result<usize, animgraph_runtime::script::SimulationError> {
    let backend = crate::Skeleton2DPoseBackend::new(std::sync::Arc::clone(&skeleton));
    let mut simulation = animgraph_runtime::script::Simulation::new(graph, script, backend)?;
    let mut poses = Vec::with_capacity(frames.len());
    simulation.run_frames(frames, |frame, s| poses.push((frame, s.backend.pose.clone())))?;
    let mut min = Vec2::splat(f32::MAX);
    let mut max = Vec2::splat(f32::MIN);
    for (_, pose) in &poses {
        let (a, b) = pose_bounds(&skeleton, pose);
        min = min.min(a);
        max = max.max(b);
    }
    if poses.is_empty() {
        (min, max) = pose_bounds(&skeleton, &skeleton.setup);
    }
    let grow = (max - min) * 0.1;
    let camera = Camera::fit(min - grow, max + grow, options.width, options.height, 0.02);
    for (frame, pose) in &poses {
        frame_done(*frame, render(&skeleton, pose, textures, &camera, options));
    }
    Ok(poses.len())
}
