//! Compares our Spine import + 2D backend with reference poses from Spine's runtime
//! (`tools/spine-oracle`): `cargo run -p animgraph-2d --example spine_compare -- SKELETON.json
//! SKELETON.expected.json`. Prints, per animation, the largest bone position and axis difference
//! and the bone where it is, in Spine's y-up space. For trying real exports; the committed
//! fixtures are checked by `tests/spine_oracle.rs`.

use std::collections::BTreeMap;
use std::sync::Arc;

use animgraph_2d::Skeleton2D;
use animgraph_2d::backend::Skeleton2DPoseBackend;
use animgraph_2d::spine::import_spine;
use animgraph_runtime::{ClipSample, LayerInfo, PoseBackend};
use serde_json::Value;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [json, expected] = args.as_slice() else {
        eprintln!("usage: spine_compare SKELETON.json SKELETON.expected.json");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(json).expect("the Spine JSON");
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(expected).expect("the oracle's output"))
            .expect("oracle JSON");
    let imported = match import_spine(&text) {
        Ok(i) => i,
        Err(e) => {
            println!("{json}: import failed: {e}");
            std::process::exit(1);
        }
    };
    println!("{json}: {} warnings", imported.warnings.len());
    let skeleton = match Skeleton2D::new(imported.data) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            println!("invalid: {e}");
            std::process::exit(1);
        }
    };
    let names: Vec<String> = skeleton.data.bones.iter().map(|b| b.name.clone()).collect();
    let mut backend = Skeleton2DPoseBackend::new(skeleton);
    let layer = [LayerInfo::default()];
    // animation -> (worst px, where, worst axis, where)
    let mut worst: BTreeMap<String, (f32, String, f32, String)> = BTreeMap::new();
    for pose in expected["poses"].as_array().unwrap() {
        let animation = pose["animation"].as_str().unwrap();
        let time = pose["time"].as_f64().unwrap() as f32;
        let Some(clip) = backend.resolve_clip(animation) else { continue };
        let sample = ClipSample { clip, time, prev_time: time, weight: 1.0, layer: 0, looped: false };
        backend.apply(&[sample], &layer);
        let entry = worst.entry(animation.to_string()).or_insert((0.0, String::new(), 0.0, String::new()));
        for (i, bone) in names.iter().enumerate() {
            let Some(e) = pose["bones"][bone].as_array() else { continue };
            let e: Vec<f32> = e.iter().map(|v| v.as_f64().unwrap_or(0.0) as f32).collect();
            let ours = animgraph_2d::spine::spine_world_transform(backend.pose.world[i]);
            let px = (ours[0] - e[0]).abs().max((ours[1] - e[1]).abs());
            let axis = (2..6).map(|k| (ours[k] - e[k]).abs()).fold(0.0, f32::max);
            if px > entry.0 {
                (entry.0, entry.1) = (px, format!("{bone} t={time}"));
            }
            if axis > entry.2 {
                (entry.2, entry.3) = (axis, format!("{bone} t={time}"));
            }
        }
    }
    for (animation, (px, at, axis, at_axis)) in worst {
        println!("  {animation}: {px:.3} px ({at}), axis {axis:.4} ({at_axis})");
    }
}
