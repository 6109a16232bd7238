//! What the animgraph 2D and 3D CPU renderers share. Both draw without anti-aliasing (so shared
//! triangle edges leave no seams) at `supersample` times the requested size, then scale down
//! with a bilinear filter; [`downscale`] is that last step, written once.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use tiny_skia::{FilterQuality, Pixmap, PixmapPaint, Transform};

/// `canvas`, drawn at `supersample` times `width` x `height`, scaled down to `width` x `height`
/// (bilinear). A `supersample` of 1 or less returns the canvas unchanged.
///
/// # Panics
/// If `width` or `height` is 0.
pub fn downscale(canvas: Pixmap, width: u32, height: u32, supersample: u32) -> Pixmap {
    if supersample <= 1 {
        return canvas;
    }
    let mut out = Pixmap::new(width, height).expect("non-zero size");
    let paint = PixmapPaint { quality: FilterQuality::Bilinear, ..Default::default() };
    let scale = 1.0 / supersample as f32;
    out.draw_pixmap(0, 0, canvas.as_ref(), &paint, Transform::from_scale(scale, scale), None);
    out
}

/// The part of the segment `a`-`b` inside the box `min..max` (Liang-Barsky), if any; `None` for
/// segments outside it or with non-finite ends. The 3D renderer steps only this part of a bone
/// (one projected near the camera plane can be billions of pixels long); the editor asks whether
/// an arrow passes through a state's box.
pub fn clip_segment(a: [f32; 2], b: [f32; 2], min: [f32; 2], max: [f32; 2]) -> Option<([f32; 2], [f32; 2])> {
    if !(a.iter().chain(&b).all(|v| v.is_finite())) {
        return None;
    }
    let d = [b[0] - a[0], b[1] - a[1]];
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in
        [(-d[0], a[0] - min[0]), (d[0], max[0] - a[0]), (-d[1], a[1] - min[1]), (d[1], max[1] - a[1])]
    {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    let at = |t: f32| [a[0] + d[0] * t, a[1] + d[1] * t];
    (t0 <= t1).then(|| (at(t0), at(t1)))
}

/// A posed character as triangles for a GPU to draw (the editor's preview hands them to egui):
/// screen positions in the view's units (y down), texture coordinates normalised to the page,
/// premultiplied vertex colours, in drawing order. Consecutive triangles on the same page form
/// one [`Run`]. Built by `animgraph_2d::render::triangles` and `animgraph_3d::render::triangles`;
/// its own buffers are kept between frames (clear, refill: no allocation once grown), while the
/// functions that fill it still allocate small temporaries (a preview's path, not a game's).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Triangles {
    /// Three per triangle, in drawing order.
    pub vertices: Vec<Vertex>,
    /// Runs of triangles sharing a texture page, in drawing order.
    pub runs: Vec<Run>,
    /// Bone lines to draw over the picture (from, to).
    pub lines: Vec<([f32; 2], [f32; 2])>,
}

/// One corner of a triangle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vertex {
    /// Screen position (view units, y down).
    pub position: [f32; 2],
    /// Texture coordinates on the run's page (0..1; 3D textures repeat outside).
    pub uv: [f32; 2],
    /// Premultiplied RGBA multiplying the texture (alpha 0 with colour: additive).
    pub color: [u8; 4],
}

/// Consecutive triangles drawn with one texture page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The page (`None`: flat colour, no texture).
    pub page: Option<u32>,
    /// Its vertices: `vertices[first..first + count]`, three per triangle.
    pub first: u32,
    /// How many vertices.
    pub count: u32,
}

impl Triangles {
    /// Empties the lists, keeping their storage.
    pub fn clear(&mut self) {
        self.vertices.clear();
        self.runs.clear();
        self.lines.clear();
    }

    /// Appends a triangle on `page`, extending the last run when it is on the same page.
    pub fn push(&mut self, page: Option<u32>, corners: [Vertex; 3]) {
        let first = self.vertices.len() as u32;
        self.vertices.extend_from_slice(&corners);
        match self.runs.last_mut() {
            Some(run) if run.page == page && run.first + run.count == first => run.count += 3,
            _ => self.runs.push(Run { page, first, count: 3 }),
        }
    }

    /// How many triangles.
    pub fn len(&self) -> usize {
        self.vertices.len() / 3
    }

    /// Whether there are no triangles.
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// Which pixels of a `width` x `height` image the triangles cover (row-major), sampled at
    /// pixel centres: for comparing with a CPU picture's silhouette.
    pub fn coverage(&self, width: u32, height: u32) -> Vec<bool> {
        let mut covered = vec![false; (width * height) as usize];
        for t in self.vertices.chunks_exact(3) {
            let [a, b, c] = [t[0].position, t[1].position, t[2].position];
            let area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
            if area.abs() < 1e-9 || !area.is_finite() {
                continue;
            }
            let lo = |i: usize| a[i].min(b[i]).min(c[i]).max(0.0) as u32;
            let hi = |i: usize, n: u32| (a[i].max(b[i]).max(c[i]).min(n as f32 - 1.0)).max(0.0) as u32;
            for y in lo(1)..=hi(1, height) {
                for x in lo(0)..=hi(0, width) {
                    let p = [x as f32 + 0.5, y as f32 + 0.5];
                    let edge = |u: [f32; 2], v: [f32; 2]| {
                        (u[0] - p[0]) * (v[1] - p[1]) - (u[1] - p[1]) * (v[0] - p[0])
                    };
                    let (w0, w1, w2) = (edge(b, c) / area, edge(c, a) / area, edge(a, b) / area);
                    if w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0 {
                        covered[(y * width + x) as usize] = true;
                    }
                }
            }
        }
        covered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiny_skia::Color;

    #[test]
    fn segments_are_cut_to_the_box_and_misses_are_none() {
        let (min, max) = ([0.0, 0.0], [10.0, 10.0]);
        assert_eq!(clip_segment([-5.0, 5.0], [15.0, 5.0], min, max), Some(([0.0, 5.0], [10.0, 5.0])));
        assert_eq!(clip_segment([2.0, 2.0], [3.0, 4.0], min, max), Some(([2.0, 2.0], [3.0, 4.0])));
        assert_eq!(clip_segment([-5.0, 20.0], [20.0, 15.0], min, max), None, "passes above");
        assert_eq!(clip_segment([11.0, 0.0], [11.0, 9.0], min, max), None, "parallel, outside");
        assert_eq!(clip_segment([f32::NAN, 0.0], [1.0, 1.0], min, max), None);
    }

    #[test]
    fn a_uniform_canvas_keeps_its_colour_at_a_quarter_of_the_size() {
        let mut canvas = Pixmap::new(8, 6).unwrap();
        canvas.fill(Color::from_rgba8(200, 40, 10, 255));
        let out = downscale(canvas, 4, 3, 2);
        assert_eq!((out.width(), out.height()), (4, 3));
        let p = out.pixel(1, 1).unwrap();
        assert_eq!((p.red(), p.green(), p.blue(), p.alpha()), (200, 40, 10, 255));
    }

    #[test]
    fn no_supersampling_returns_the_canvas_untouched() {
        let mut canvas = Pixmap::new(6, 4).unwrap();
        canvas.fill(Color::from_rgba8(10, 20, 30, 255));
        let before = canvas.data().to_vec();
        let out = downscale(canvas, 3, 2, 1);
        assert_eq!((out.width(), out.height()), (6, 4), "nothing is scaled at supersample 1");
        assert_eq!(out.data(), &before[..]);
    }
}
