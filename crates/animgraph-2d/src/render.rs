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
    Color, FillRule, FilterQuality, Paint, PathBuilder, Pattern, Pixmap, SpreadMode, Stroke, Transform,
};

use crate::data::AttachmentKind;
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

/// The world-space corners of every attachment a pose shows (for framing a camera).
pub fn pose_bounds(skeleton: &Skeleton2D, pose: &Pose) -> (Vec2, Vec2) {
    let mut min = Vec2::splat(f32::MAX);
    let mut max = Vec2::splat(f32::MIN);
    let mut add = |p: Vec2| {
        min = min.min(p);
        max = max.max(p);
    };
    for (slot, attachment) in pose.attachments.iter().enumerate() {
        let Some(a) = attachment else { continue };
        let world = pose.world[skeleton.slot_bones[slot] as usize];
        for v in attachment_corners(&skeleton.attachments[*a as usize].kind) {
            add(world.transform_point2(v));
        }
    }
    for w in &pose.world {
        add(w.translation);
    }
    (min, max)
}

/// An attachment's outline in its bone's space: a region's four corners, a polygon's vertices.
pub fn attachment_corners(kind: &AttachmentKind) -> Vec<Vec2> {
    match kind {
        AttachmentKind::Polygon { vertices, .. } => vertices.iter().map(|v| Vec2::from_array(*v)).collect(),
        AttachmentKind::Region { x, y, rotation, width, height, .. } => {
            region_quad(*x, *y, *rotation, *width, *height).to_vec()
        }
    }
}

fn region_quad(x: f32, y: f32, rotation: f32, width: f32, height: f32) -> [Vec2; 4] {
    let local = Affine2::from_angle_translation(rotation.to_radians(), Vec2::new(x, y));
    let (hw, hh) = (width * 0.5, height * 0.5);
    [Vec2::new(-hw, -hh), Vec2::new(hw, -hh), Vec2::new(hw, hh), Vec2::new(-hw, hh)]
        .map(|p| local.transform_point2(p))
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

fn color(c: [f32; 4]) -> Color {
    Color::from_rgba(c[0].clamp(0.0, 1.0), c[1].clamp(0.0, 1.0), c[2].clamp(0.0, 1.0), c[3].clamp(0.0, 1.0))
        .unwrap_or(Color::BLACK)
}

/// Draws a pose. `texture` is the skeleton's image (attachments draw flat grey without one).
pub fn render(
    skeleton: &Skeleton2D,
    pose: &Pose,
    texture: Option<&Pixmap>,
    camera: &Camera,
    options: &RenderOptions,
) -> Pixmap {
    let ss = options.supersample.max(1);
    let (w, h) = (options.width.max(1), options.height.max(1));
    let mut canvas = Pixmap::new(w * ss, h * ss).expect("non-zero size");
    canvas.fill(color(options.background));
    let view = Affine2::from_scale(Vec2::splat(ss as f32)) * camera.view;
    let texture_size = texture.map(|t| Vec2::new(t.width() as f32, t.height() as f32));
    // Tinted copies of the texture, one per distinct RGB tint in this picture.
    let mut tinted: Vec<([u8; 3], Pixmap)> = Vec::new();
    for &slot in &pose.draw_order {
        let slot = slot as usize;
        let Some(a) = pose.attachments[slot] else { continue };
        let attachment = &skeleton.attachments[a as usize];
        let tint: [f32; 4] = std::array::from_fn(|i| pose.colors[slot][i] * attachment.color[i]);
        let alpha = tint[3];
        if alpha <= 0.0 {
            continue;
        }
        let key = [0, 1, 2].map(|i| (tint[i].clamp(0.0, 1.0) * 255.0).round() as u8);
        let texture = match texture {
            Some(t) if key != [255; 3] => {
                if !tinted.iter().any(|(k, _)| *k == key) {
                    let mut copy = t.clone();
                    for pixel in copy.pixels_mut() {
                        let c = [pixel.red(), pixel.green(), pixel.blue()];
                        let [r, g, b] = [0, 1, 2].map(|i| ((c[i] as u16 * key[i] as u16 + 127) / 255) as u8);
                        *pixel = tiny_skia::PremultipliedColorU8::from_rgba(r, g, b, pixel.alpha())
                            .unwrap_or(*pixel);
                    }
                    tinted.push((key, copy));
                }
                tinted.iter().find(|(k, _)| *k == key).map(|(_, p)| p)
            }
            other => other,
        };
        let to_screen = view * pose.world[skeleton.slot_bones[slot] as usize];
        let mut triangles: Vec<([Vec2; 3], [Vec2; 3])> = Vec::new();
        match &attachment.kind {
            AttachmentKind::Polygon { vertices, uvs, triangles: tris } => {
                for t in tris {
                    let p = t.map(|i| to_screen.transform_point2(Vec2::from_array(vertices[i as usize])));
                    let uv = t.map(|i| Vec2::from_array(uvs[i as usize]));
                    triangles.push((p, uv));
                }
            }
            AttachmentKind::Region { x, y, rotation, width, height, region } => {
                let q =
                    region_quad(*x, *y, *rotation, *width, *height).map(|p| to_screen.transform_point2(p));
                let r = region.unwrap_or([0.0, 0.0, 1.0, 1.0]);
                let uv = [
                    Vec2::new(r[0], r[1]),
                    Vec2::new(r[0] + r[2], r[1]),
                    Vec2::new(r[0] + r[2], r[1] + r[3]),
                    Vec2::new(r[0], r[1] + r[3]),
                ];
                triangles.push(([q[0], q[1], q[2]], [uv[0], uv[1], uv[2]]));
                triangles.push(([q[0], q[2], q[3]], [uv[0], uv[2], uv[3]]));
            }
        }
        for (p, uv) in triangles {
            let mut path = PathBuilder::new();
            path.move_to(p[0].x, p[0].y);
            path.line_to(p[1].x, p[1].y);
            path.line_to(p[2].x, p[2].y);
            path.close();
            let Some(path) = path.finish() else { continue };
            let mut paint = Paint { anti_alias: false, ..Default::default() };
            match (texture, texture_size, triangle_map(uv, p)) {
                (Some(tex), Some(_), Some(map)) => {
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
            canvas.fill_path(&path, &paint, FillRule::Winding, Transform::identity(), None);
        }
    }
    if options.bones {
        let stroke = Stroke { width: 1.5 * ss as f32, ..Default::default() };
        let mut paint = Paint::default();
        paint.set_color(color([1.0, 0.8, 0.2, 0.9]));
        paint.anti_alias = true;
        for (b, world) in pose.world.iter().enumerate() {
            // A bone is drawn to its first child (Godot's convention), else along its x axis.
            let from = (view * *world).transform_point2(Vec2::ZERO);
            let to = match skeleton.parents.iter().position(|p| *p == Some(b as u16)) {
                Some(child) => (view * pose.world[child]).transform_point2(Vec2::ZERO),
                None => {
                    (view * *world).transform_point2(Vec2::new(skeleton.data.bones[b].length.max(4.0), 0.0))
                }
            };
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

#[cfg(feature = "tools")]
/// Runs a graph from a script on a skeleton and renders the requested frames (in frame order),
/// calling `frame_done(frame, image)` for each. The camera frames the setup pose with room around
/// it (`RenderOptions` sets the size). Returns the number of frames rendered.
pub fn render_script(
    skeleton: std::sync::Arc<Skeleton2D>,
    graph: &animgraph_runtime::graph::ValidGraph,
    script: &animgraph_runtime::script::Script,
    texture: Option<&Pixmap>,
    frames: &[u32],
    options: &RenderOptions,
    mut frame_done: impl FnMut(u32, Pixmap),
) -> Result<usize, animgraph_runtime::script::SimulationError> {
    let (min, max) = pose_bounds(&skeleton, &skeleton.setup);
    let grow = (max - min) * 0.2;
    let camera = Camera::fit(min - grow, max + grow, options.width, options.height, 0.02);
    let backend = crate::Skeleton2DPoseBackend::new(std::sync::Arc::clone(&skeleton));
    let mut simulation = animgraph_runtime::script::Simulation::new(graph, script, backend)?;
    let rendered = simulation.run_frames(frames, |frame, s| {
        frame_done(frame, render(&skeleton, &s.backend.pose, texture, &camera, options))
    })?;
    Ok(rendered)
}
