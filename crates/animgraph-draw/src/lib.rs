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

#[cfg(test)]
mod tests {
    use super::*;
    use tiny_skia::Color;

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
