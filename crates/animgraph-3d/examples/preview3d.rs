//! Renders a glTF character's clips at a few times to /tmp (development aid):
//! `cargo run --release -p animgraph-3d --example preview3d -- FILE.glb Clip...`
use std::sync::Arc;

use animgraph_3d::Skeleton3DPoseBackend;
use animgraph_3d::render::{RenderOptions3D, fit_camera, render};
use animgraph_runtime::{ClipSample, LayerInfo, PoseBackend};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE.glb");
    let skeleton = Arc::new(animgraph_3d::import::import_file(&path).unwrap().skeleton);
    let mut backend = Skeleton3DPoseBackend::new(Arc::clone(&skeleton));
    let options = RenderOptions3D { width: 300, height: 300, joints: false, ..Default::default() };
    let camera = fit_camera(&skeleton, &backend.pose, 300, 300);
    render(&skeleton, &backend.pose, &camera, &options).save_png("/tmp/g3_rest.png").unwrap();
    for clip in args {
        let id = backend.resolve_clip(&clip).unwrap();
        let t = backend.clip_length(id) * 0.3;
        let s = ClipSample { clip: id, time: t, prev_time: t, weight: 1.0, layer: 0, looped: false };
        backend.apply(&[s], &[LayerInfo::default()]);
        render(&skeleton, &backend.pose, &camera, &options).save_png(format!("/tmp/g3_{clip}.png")).unwrap();
    }
}
