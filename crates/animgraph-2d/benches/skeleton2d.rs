//! 2D skeleton figures: `apply` for GBot with 6 samples over 3 layers, and `update` (advance +
//! apply) for 10,000 GBot characters per frame on one core.

use std::sync::Arc;

use animgraph_2d::{AnimatedSkeleton2D, Skeleton2D, Skeleton2DData, Skeleton2DPoseBackend};
use animgraph_runtime::{ClipBlend, ClipSample, LayerInfo, PoseBackend, mres};
use divan::Bencher;

fn main() {
    divan::main();
}

fn gbot() -> Arc<Skeleton2D> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot/gbot.mskel");
    Arc::new(Skeleton2D::new(Skeleton2DData::load(path).unwrap()).unwrap())
}

/// 6 samples over 3 layers: walk/run blend + jump crossfading on the base, wave on a masked
/// layer, breathe on an additive one.
#[divan::bench(sample_count = 500, sample_size = 100)]
fn apply_gbot_6_samples_3_layers(bencher: Bencher) {
    let mut backend = Skeleton2DPoseBackend::new(gbot());
    let clip = |b: &mut Skeleton2DPoseBackend, name: &str| b.resolve_clip(name).unwrap();
    let (walk, run, jump, wave, breathe, idle) = (
        clip(&mut backend, "walk"),
        clip(&mut backend, "run"),
        clip(&mut backend, "jump"),
        clip(&mut backend, "wave"),
        clip(&mut backend, "breathe"),
        clip(&mut backend, "idle"),
    );
    let mask = backend
        .resolve_mask(&animgraph_runtime::BoneMask { bones: vec!["LeftArm".into()], include_children: true });
    let layers = [
        LayerInfo { blend: ClipBlend::Replace, weight: 1.0, mask: None, event_threshold: 0.5 },
        LayerInfo { blend: ClipBlend::Replace, weight: 0.8, mask, event_threshold: 0.5 },
        LayerInfo { blend: ClipBlend::Additive, weight: 0.6, mask: None, event_threshold: 0.5 },
    ];
    let mut t = 0.0f32;
    bencher.bench_local(|| {
        t = (t + 1.0 / 60.0) % 1.0;
        let s = |clip, weight, layer| ClipSample {
            clip,
            time: t,
            prev_time: t - 1.0 / 60.0,
            weight,
            layer,
            looped: false,
        };
        let samples = [
            s(walk, 0.4, 0),
            s(run, 0.3, 0),
            s(jump, 0.3, 0),
            s(wave, 0.7, 1),
            s(idle, 0.3, 1),
            s(breathe, 1.0, 2),
        ];
        backend.apply(&samples, &layers);
        divan::black_box(backend.pose.world[3])
    });
}

/// advance + apply for 10,000 GBots (gbot.mres, parameters varying per character), one core.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn update_10000_gbots(bencher: Bencher) {
    let skeleton = gbot();
    let graph =
        mres::load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot/gbot.mres"))
            .unwrap()
            .graph;
    let first = animgraph_2d::animated_2d(Arc::clone(&skeleton), Some(&graph), 0).unwrap();
    let mut characters: Vec<AnimatedSkeleton2D> = (0..10_000).map(|_| first.instantiate()).collect();
    let speed = characters[0].player().unwrap().find_parameter("speed").unwrap();
    let waving = characters[0].player().unwrap().find_parameter("waving").unwrap();
    let mut frame = 0u32;
    bencher.bench_local(|| {
        frame += 1;
        for (i, c) in characters.iter_mut().enumerate() {
            let player = c.player_mut().unwrap();
            player.set_float(speed, ((i as u32 + frame) % 300) as f32 / 100.0).unwrap();
            player.set_bool(waving, (i + frame as usize / 60) % 4 == 0).unwrap();
            c.update(1.0 / 60.0);
        }
        divan::black_box(characters[0].backend.pose.world[0])
    });
}
