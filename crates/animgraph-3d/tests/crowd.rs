//! The crowd store with the 3D backend: members at LOD 1 pose the same bits as single Robots,
//! members at any LOD keep the same states, signals and net state, an LOD member arrives at
//! each sample exactly, `n - 1` frames late (without inertial blends), and nothing allocates per
//! frame.

use std::sync::Arc;

use animgraph_3d::{Skeleton3DPoseBackend, animated_3d, import::import_file};
use animgraph_runtime::crowd::Crowd;
use animgraph_runtime::net::NetState;
use animgraph_test_support::counting::{PerThread, thread_allocations};

#[global_allocator]
static GLOBAL: PerThread = PerThread;

#[test]
fn robot_crowd_members_match_single_robots() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/robot");
    let skeleton = Arc::new(import_file(format!("{root}/RobotExpressive.glb")).unwrap().skeleton);
    let graph = animgraph_runtime::mres::load_file(format!("{root}/robot.mres")).unwrap().graph.into_graph();
    let first = animated_3d(Arc::clone(&skeleton), Some(&graph), 0).unwrap();
    let lods = [1u8, 1, 2, 4, 3];
    let mut single: Vec<_> = lods.iter().map(|_| first.instantiate()).collect();
    let mut crowd = Crowd::new(&graph, Skeleton3DPoseBackend::new(skeleton)).unwrap();
    for (i, &lod) in lods.iter().enumerate() {
        crowd.spawn();
        crowd.set_lod(i, lod);
    }
    let p = single[0].player().unwrap();
    let [speed, emote, weight, jump, dead] =
        ["speed", "emote", "emote_weight", "jump", "dead"].map(|n| p.find_parameter(n).unwrap());
    let (mut a, mut b) = (NetState::default(), NetState::default());
    let mut full_rate = Vec::new();
    let mut at_lod_4 = Vec::new();
    let mut events = 0;
    let mut allocations = 0;
    for frame in 0..900u32 {
        for (i, twin) in single.iter_mut().enumerate() {
            let phase = (frame + i as u32 * 70) % 600;
            for p in [twin.player_mut().unwrap(), crowd.player_mut(i)] {
                p.set_float(speed, (phase % 200) as f32 / 40.0).unwrap();
                p.set_int(emote, ((phase / 150) % 4) as i32).unwrap();
                p.set_float(weight, if phase > 300 { 1.0 } else { 0.3 }).unwrap();
                // Robot 3 (LOD 4) neither jumps nor dies: those transitions are inertial, and
                // an LOD member's inertial offsets come from its sampled frames only.
                p.set_bool(dead, i != 3 && phase > 580).unwrap();
                if i != 3 && phase % 120 == 0 {
                    p.fire(jump).unwrap();
                }
            }
        }
        for c in &mut single {
            c.update(1.0 / 60.0);
        }
        let before = thread_allocations();
        crowd.update(1.0 / 60.0);
        if frame > 10 {
            allocations += thread_allocations() - before;
        }
        for (i, c) in single.iter_mut().enumerate() {
            let (p, q) = (c.player_mut().unwrap(), crowd.player_mut(i));
            assert_eq!(p.events(), q.events(), "frame {frame} robot {i}");
            events += p.events().len();
            p.capture_net(&mut a);
            q.capture_net(&mut b);
            assert_eq!(a, b, "frame {frame} robot {i}");
            if lods[i] == 1 {
                let m = &crowd.backend(i).pose;
                assert_eq!(c.backend.pose.rotations, m.rotations, "frame {frame} robot {i}");
                assert_eq!(c.backend.pose.world, m.world);
            }
        }
        // Member 3 plays the inputs of member 3 at LOD 4; its single twin at full rate.
        full_rate.push(single[3].backend.pose.translations.clone());
        at_lod_4.push(crowd.backend(3).pose.translations.clone());
    }
    assert_eq!(allocations, 0);
    assert!(events > 50, "the run fired only {events} graph events");
    for k in (0..880).step_by(4) {
        assert_eq!(at_lod_4[k + 3], full_rate[k], "the sample of frame {k} shows at frame {}", k + 3);
    }
}

/// A crowd member holds an empty apply scratch between frames (the crowd lends it its
/// thread's). Posed directly instead, outside a crowd update, it makes its own once rather than
/// failing, and poses exactly as the crowd does.
#[test]
fn a_member_posed_outside_the_crowd_makes_its_own_scratch() {
    use animgraph_runtime::PoseBackend;
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/robot");
    let skeleton = Arc::new(import_file(format!("{root}/RobotExpressive.glb")).unwrap().skeleton);
    let graph = animgraph_runtime::mres::load_file(format!("{root}/robot.mres")).unwrap().graph.into_graph();
    let (mut crowd, mut player, mut member, mut buffer) =
        animgraph_test_support::crowd::member_apart(&graph, Skeleton3DPoseBackend::new(skeleton));
    let [speed, jump] = ["speed", "jump"].map(|n| player.find_parameter(n).unwrap());
    for frame in 0..240u32 {
        for p in [&mut player, crowd.player_mut(0)] {
            p.set_float(speed, (frame % 200) as f32 / 40.0).unwrap();
            if frame % 120 == 60 {
                p.fire(jump).unwrap();
            }
        }
        crowd.update(1.0 / 60.0);
        player.advance(1.0 / 60.0, &mut buffer);
        member.apply(buffer.samples(), buffer.layers());
        let bits = |b: &Skeleton3DPoseBackend| -> Vec<u32> {
            b.pose.world.iter().flat_map(|w| w.to_cols_array()).map(f32::to_bits).collect()
        };
        assert_eq!(bits(&member), bits(crowd.backend(0)), "frame {frame}");
    }
}
