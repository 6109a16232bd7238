//! Feeds arbitrary bytes to the glTF importer (as a .glb or .gltf without a folder): it must
//! never panic, and whatever imports must pose, skin and draw without one.
#![no_main]

use std::sync::Arc;

use animgraph_3d::Skeleton3DPoseBackend;
use animgraph_runtime::{ClipId, ClipSample, LayerInfo, PoseBackend};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(imported) = animgraph_3d::import::import_bytes(data, None) else { return };
    let skeleton = Arc::new(imported.skeleton);
    let mut backend = Skeleton3DPoseBackend::new(Arc::clone(&skeleton));
    for c in 0..skeleton.clips.len().min(4) {
        let sample =
            ClipSample { clip: ClipId(c as u32), time: 0.37, prev_time: 0.3, weight: 1.0, layer: 0, looped: false };
        backend.apply(&[sample], &[LayerInfo::default()]);
    }
    let camera = animgraph_3d::render::fit_camera(&skeleton, &backend.pose, 16, 16);
    let options = animgraph_3d::render::RenderOptions3D { width: 16, height: 16, supersample: 1, ..Default::default() };
    animgraph_3d::render::render(&skeleton, &backend.pose, &camera, &options);
});
