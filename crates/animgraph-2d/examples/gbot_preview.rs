//! Imports the GBot scene and renders its setup pose and a few clip frames to /tmp (development aid).
use std::sync::Arc;

use animgraph_2d::render::{Camera, RenderOptions, pose_bounds, render};
use animgraph_2d::{Skeleton2D, Skeleton2DPoseBackend, godot};
use animgraph_runtime::{ClipSample, LayerInfo, PoseBackend};

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "../shared/assets/gbot-2d".into());
    let text = std::fs::read_to_string(format!("{dir}/player.tscn")).unwrap();
    let imported = godot::import_scene(&text).unwrap();
    for w in &imported.warnings {
        eprintln!("warning: {w}");
    }
    let skeleton = Arc::new(Skeleton2D::new(imported.data).unwrap());
    let texture = tiny_skia::Pixmap::load_png(format!("{dir}/gBot.png")).unwrap();
    let (min, max) = pose_bounds(&skeleton, &skeleton.setup);
    let camera = Camera::fit(min, max, 400, 400, 0.12);
    let options = RenderOptions { width: 400, height: 400, bones: true, ..Default::default() };
    render(&skeleton, &skeleton.setup, std::slice::from_ref(&Some(texture.clone())), &camera, &options)
        .save_png("/tmp/gbot_setup.png")
        .unwrap();
    let mut backend = Skeleton2DPoseBackend::new(Arc::clone(&skeleton));
    for clip in ["idle", "walk", "run", "jump"] {
        let id = backend.resolve_clip(clip).unwrap();
        let t = backend.clip_length(id) * 0.3;
        let sample = ClipSample { clip: id, time: t, prev_time: t, weight: 1.0, layer: 0, looped: false };
        let layer = LayerInfo::default();
        backend.apply(&[sample], &[layer]);
        render(
            &skeleton,
            &backend.pose,
            std::slice::from_ref(&Some(texture.clone())),
            &camera,
            &RenderOptions { bones: false, ..options },
        )
        .save_png(format!("/tmp/gbot_{clip}.png"))
        .unwrap();
    }
    println!(
        "bones {}, slots {}, clips {:?}",
        skeleton.bone_count(),
        skeleton.slot_bones.len(),
        skeleton.clip_names().collect::<Vec<_>>()
    );
}
