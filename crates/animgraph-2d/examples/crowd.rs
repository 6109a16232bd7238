//! Updates N GBots for F frames (profiling aid): `cargo run --release --example crowd -- 2000 30`.
use std::sync::Arc;

use animgraph_2d::{AnimatedSkeleton2D, Skeleton2D, Skeleton2DData};

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().unwrap());
    let (count, frames) = (args.next().unwrap_or(2000), args.next().unwrap_or(30));
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot");
    let skeleton =
        Arc::new(Skeleton2D::new(Skeleton2DData::load(format!("{root}/gbot.mskel")).unwrap()).unwrap());
    let graph = animgraph_runtime::mres::load_file(format!("{root}/gbot.mres")).unwrap().graph;
    let first = animgraph_2d::animated_2d(Arc::clone(&skeleton), Some(&graph), 0).unwrap();
    let mut crowd: Vec<AnimatedSkeleton2D> = (0..count).map(|_| first.instantiate()).collect();
    let speed = crowd[0].player().unwrap().find_parameter("speed").unwrap();
    let start = std::time::Instant::now();
    for frame in 0..frames {
        for (i, c) in crowd.iter_mut().enumerate() {
            c.player_mut().unwrap().set_float(speed, ((i + frame) % 300) as f32 / 100.0).unwrap();
            c.update(1.0 / 60.0);
        }
    }
    let per = start.elapsed().as_secs_f64() / (frames * count) as f64;
    println!(
        "{:.0} ns per character update; {:.2} ms per 10,000-character frame",
        per * 1e9,
        per * 1e4 * 1e3
    );
}
