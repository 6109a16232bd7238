//! Updating Robots (graph advance + quaternion blending + world transforms) allocates nothing.

use animgraph_test_support::counting::{PerThread, thread_allocations};
use std::sync::Arc;

use animgraph_3d::{animated_3d, import::import_file};

#[global_allocator]
static GLOBAL: PerThread = PerThread;

#[test]
fn updating_robots_allocates_nothing() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/robot");
    let skeleton = Arc::new(import_file(format!("{root}/RobotExpressive.glb")).unwrap().skeleton);
    let graph = animgraph_runtime::mres::load_file(format!("{root}/robot.mres")).unwrap().graph;
    let first = animated_3d(skeleton, Some(&graph), 0).unwrap();
    let mut crowd = [first.instantiate(), first.instantiate(), first];
    let p = crowd[0].player().unwrap();
    let [speed, emote, weight, jump, dead] =
        ["speed", "emote", "emote_weight", "jump", "dead"].map(|n| p.find_parameter(n).unwrap());
    let before = thread_allocations() as usize;
    for frame in 0..2000u32 {
        for (i, c) in crowd.iter_mut().enumerate() {
            let p = c.player_mut().unwrap();
            let phase = (frame + i as u32 * 70) % 600;
            p.set_float(speed, (phase % 200) as f32 / 40.0).unwrap();
            p.set_int(emote, ((phase / 150) % 4) as i32).unwrap();
            p.set_float(weight, if phase > 300 { 1.0 } else { 0.3 }).unwrap();
            p.set_bool(dead, phase > 580).unwrap();
            if phase % 120 == 0 {
                p.fire(jump).unwrap();
            }
            c.update(1.0 / 60.0);
        }
    }
    assert_eq!(thread_allocations() as usize - before, 0);
}

/// Inertial blends (started, interrupted, decaying) allocate nothing, and two runs of the same
/// inputs give the same bits.
#[test]
fn inertial_blends_allocate_nothing_and_repeat_bit_for_bit() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/robot");
    let skeleton = Arc::new(import_file(format!("{root}/RobotExpressive.glb")).unwrap().skeleton);
    let run = || {
        let backend = animgraph_3d::Skeleton3DPoseBackend::new(skeleton.clone());
        animgraph_test_support::graphs::inertial_workout(backend, "Walking", "Punch", |b| {
            b.pose.rotations.iter().flat_map(|q| q.to_array()).map(f32::to_bits).collect()
        })
    };
    let (allocated, first) = run();
    assert_eq!(allocated, 0, "inertial blending allocated {allocated} times");
    assert_eq!(run().1, first, "the same inputs gave other bits");
}

/// What one Robot crowd member holds on the heap: inertial history and offsets only for the
/// (joint, property) pairs some clip keys (30 of RobotExpressive's 43 x 3), and an empty apply
/// scratch (its thread lends it a sized one), so a change that grows it shows here.
#[test]
fn a_robot_crowd_member_holds_under_10_kb_of_heap() {
    let dir = format!("{}/../../assets/characters/robot", env!("CARGO_MANIFEST_DIR"));
    let skeleton = Arc::new(import_file(format!("{dir}/RobotExpressive.glb")).unwrap().skeleton);
    let graph = animgraph_runtime::mres::load_file(format!("{dir}/robot.mres")).unwrap().graph;
    let mut crowd =
        animgraph_runtime::crowd::Crowd::new(&graph, animgraph_3d::Skeleton3DPoseBackend::new(skeleton))
            .unwrap();
    crowd.reserve(100);
    let (bytes, allocations) = animgraph_test_support::counting::per_call(100, || {
        crowd.spawn();
    });
    assert!(bytes < 10 * 1024, "{bytes} bytes in {allocations} allocations per member");
}
