//! A hash of every pose a fixed crowd run produces, to check that a performance change keeps
//! the same bits: `cargo run --release -p animgraph-bench --example pose_hash` before and after
//! the change, and compare (on one toolchain: the standard hasher may change between Rust
//! releases). 64 crowd-store GBots at LOD 1 to 4 for 2,000 frames (local channels
//! and world transforms) and 16 crowd-store Robots for 1,000 frames (world transforms), driven
//! by the bench's inputs (jumps, landings, hurts: inertial blends included).

use std::hash::{Hash, Hasher};

fn main() {
    let mut gbots = animgraph_bench::gbot_store(64);
    for i in 0..64 {
        gbots.crowd.set_lod(i, (i % 4 + 1) as u8);
    }
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    for _ in 0..2000 {
        gbots.update_serial();
        for m in gbots.crowd.members() {
            let pose = &m.backend.pose;
            pose.channels.as_slice().iter().for_each(|v| v.to_bits().hash(&mut hash));
            pose.world.iter().flat_map(|w| w.to_cols_array()).for_each(|v| v.to_bits().hash(&mut hash));
        }
    }
    println!("GBots  {:016x}", hash.finish());
    let mut robots = animgraph_bench::robot_store(16);
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    for _ in 0..1000 {
        robots.update_serial();
        for m in robots.crowd.members() {
            m.backend
                .pose
                .world
                .iter()
                .flat_map(|w| w.to_cols_array())
                .for_each(|v| v.to_bits().hash(&mut hash));
        }
    }
    println!("Robots {:016x}", hash.finish());
}
