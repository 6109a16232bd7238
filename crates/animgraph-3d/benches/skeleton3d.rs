//! 3D figures: advance + apply for one Robot driven by robot.mres, and for 10,000 Robots.

use std::sync::Arc;

use animgraph_3d::{AnimatedSkeleton3D, animated_3d, import::import_file};
use animgraph_runtime::mres;
use divan::Bencher;

fn main() {
    divan::main();
}

fn robot() -> AnimatedSkeleton3D {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/robot");
    let skeleton = Arc::new(import_file(format!("{root}/RobotExpressive.glb")).unwrap().skeleton);
    let graph = mres::load_file(format!("{root}/robot.mres")).unwrap().graph;
    animated_3d(skeleton, Some(&graph), 0).unwrap()
}

type Ids = [animgraph_runtime::graph::ParamId; 3];

fn ids(c: &AnimatedSkeleton3D) -> Ids {
    let p = c.player().unwrap();
    ["speed", "emote", "emote_weight"].map(|n| p.find_parameter(n).unwrap())
}

fn drive(c: &mut AnimatedSkeleton3D, [speed, emote, weight]: Ids, i: usize, frame: u32) {
    let p = c.player_mut().unwrap();
    let phase = (i as u32 + frame) % 400;
    p.set_float(speed, (phase % 200) as f32 / 50.0).unwrap();
    p.set_int(emote, ((phase / 100) % 4) as i32).unwrap();
    p.set_float(weight, if phase > 200 { 1.0 } else { 0.0 }).unwrap();
    c.update(1.0 / 60.0);
}

/// One Robot: 1D locomotion blend plus a masked emote layer (43 joints).
#[divan::bench(sample_count = 500, sample_size = 100)]
fn update_one_robot(bencher: Bencher) {
    let mut c = robot();
    let ids = ids(&c);
    let mut frame = 0;
    bencher.bench_local(|| {
        frame += 1;
        drive(&mut c, ids, 0, frame);
        divan::black_box(c.backend.pose.world[5])
    });
}

/// 10,000 Robots per frame on one core.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn update_10000_robots(bencher: Bencher) {
    let first = robot();
    let mut crowd: Vec<AnimatedSkeleton3D> = (0..10_000).map(|_| first.instantiate()).collect();
    let ids = ids(&first);
    let mut frame = 0;
    bencher.bench_local(|| {
        frame += 1;
        for (i, c) in crowd.iter_mut().enumerate() {
            drive(c, ids, i, frame);
        }
        divan::black_box(crowd[0].backend.pose.world[5])
    });
}
