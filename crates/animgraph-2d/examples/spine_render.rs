//! Renders a Spine JSON export (with the `.atlas` beside it) playing one animation, to look at
//! the import: `cargo run -p animgraph-2d --example spine_render -- FILE.json ANIMATION OUT.png
//! [skin,skin...]`. Four frames across the animation, side by side, framed on what they draw.

use std::sync::Arc;

use animgraph_2d::render::{Camera, RenderOptions, load_textures, pose_bounds, render};
use animgraph_2d::spine::{find_atlas, import_spine_with_atlas};
use animgraph_2d::{Skeleton2D, Skeleton2DPoseBackend};
use animgraph_runtime::{ClipSample, LayerInfo, PoseBackend};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, animation, out, rest @ ..] = args.as_slice() else {
        eprintln!("usage: spine_render FILE.json ANIMATION OUT.png [skins]");
        std::process::exit(2);
    };
    let path = std::path::Path::new(file);
    let atlas = find_atlas(path).map(|a| std::fs::read_to_string(a).unwrap());
    let imported =
        import_spine_with_atlas(&std::fs::read_to_string(path).unwrap(), atlas.as_deref()).unwrap();
    eprintln!("{} warnings", imported.warnings.len());
    for w in imported.warnings.iter().take(12) {
        eprintln!("  {w}");
    }
    let (textures, warnings) = load_textures(&imported.data, path.parent().unwrap());
    for w in warnings {
        eprintln!("  {w}");
    }
    let skeleton = Arc::new(Skeleton2D::new(imported.data).unwrap());
    let mut backend = Skeleton2DPoseBackend::new(Arc::clone(&skeleton));
    if let Some(skins) = rest.first() {
        let unknown = backend.set_skins_by_name(&skins.split(',').collect::<Vec<_>>());
        assert!(unknown.is_empty(), "unknown skins {unknown:?}");
    }
    let clip = backend.resolve_clip(animation).expect("no such animation");
    let duration = backend.clip_length(clip);
    let layer = [LayerInfo::default()];
    let mut poses = Vec::new();
    for k in 0..4 {
        let time = duration * k as f32 / 4.0;
        backend.apply(
            &[ClipSample { clip, time, prev_time: time, weight: 1.0, layer: 0, looped: false }],
            &layer,
        );
        poses.push(backend.pose.clone());
    }
    let (mut min, mut max) = (glam::Vec2::splat(f32::MAX), glam::Vec2::splat(f32::MIN));
    for p in &poses {
        let (a, b) = pose_bounds(&skeleton, p);
        (min, max) = (min.min(a), max.max(b));
    }
    let size = 384;
    let camera = Camera::fit(min, max, size, size, 0.04);
    let options = RenderOptions { width: size, height: size, ..Default::default() };
    let mut sheet = tiny_skia::Pixmap::new(size * 4, size).unwrap();
    for (k, p) in poses.iter().enumerate() {
        let image = render(&skeleton, p, &textures, &camera, &options);
        sheet.draw_pixmap(
            (k as u32 * size) as i32,
            0,
            image.as_ref(),
            &tiny_skia::PixmapPaint::default(),
            tiny_skia::Transform::identity(),
            None,
        );
    }
    sheet.save_png(out).unwrap();
}
