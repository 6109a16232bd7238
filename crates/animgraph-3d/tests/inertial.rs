//! Inertial transitions on the Robot: the pose stays continuous across the start frame (where a
//! cut jumps), and after `Duration` it is the target's alone.

use std::sync::Arc;

use animgraph_3d::Skeleton3DPoseBackend;
use animgraph_3d::import::import_file;
use animgraph_runtime::{AnimationGraphPlayer, PoseBackend, mres};
use animgraph_test_support::graphs;
use glam::{Quat, Vec3};

/// Each frame's local pose, the skeleton, each frame's samples.
type Run =
    (Vec<Vec<(Vec3, Quat, Vec3)>>, Arc<animgraph_3d::Skeleton3D>, Vec<Vec<animgraph_runtime::ClipSample>>);

fn robot() -> Arc<animgraph_3d::Skeleton3D> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/robot");
    Arc::new(import_file(format!("{root}/RobotExpressive.glb")).unwrap().skeleton)
}

/// Runs Walking -> Punch (`go` at frame 40, and `back` at frame `back` when given) and returns
/// each frame's local pose.
fn run_with(blend: &str, duration: f32, back: Option<usize>) -> Run {
    let skeleton = robot();
    let graph = mres::load_str(&graphs::two_states("Walking", "Punch", blend, duration)).unwrap().graph;
    let mut backend = Skeleton3DPoseBackend::new(skeleton.clone());
    let mut player = AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    let mut buffer = player.new_buffer();
    let (mut poses, mut samples) = (Vec::new(), Vec::new());
    for frame in 0..90 {
        if frame == 40 {
            player.fire_by_name("go").unwrap();
        }
        if Some(frame) == back {
            player.fire_by_name("back").unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
        backend.apply(buffer.samples(), buffer.layers());
        let p = &backend.pose;
        poses.push(
            (0..p.translations.len()).map(|j| (p.translations[j], p.rotations[j], p.scales[j])).collect(),
        );
        samples.push(buffer.samples().to_vec());
    }
    (poses, skeleton, samples)
}

fn run(blend: &str, duration: f32) -> Run {
    run_with(blend, duration, None)
}

/// How far each joint moved from the frame before: translation distance + rotation angle.
fn moves(poses: &[Vec<(Vec3, Quat, Vec3)>]) -> Vec<Vec<f32>> {
    let mut out = vec![vec![0.0; poses[0].len()]];
    for f in 1..poses.len() {
        out.push(
            poses[f]
                .iter()
                .zip(&poses[f - 1])
                .map(|(a, b)| a.0.distance(b.0) + a.1.angle_between(b.1) + a.2.distance(b.2))
                .collect(),
        );
    }
    out
}

#[test]
fn an_inertial_transition_is_continuous_and_then_the_pure_target() {
    let (poses, skeleton, samples) = run("Inertial", 0.3);
    // From the start frame only the target is sampled.
    assert!(samples[40].iter().all(|s| samples[40].len() == 1 && s.weight == 1.0), "{:?}", samples[40]);
    let jumps = graphs::jumps(&moves(&poses), 40, 1.5, 2e-3);
    assert!(jumps.is_empty(), "joints that jumped at the start frame (joint, before, at, after): {jumps:?}");
    // After 0.3 s (18 frames) the pose is the target's alone: what a fresh backend makes of the
    // same samples, exactly.
    for frame in 58..90 {
        let mut fresh = Skeleton3DPoseBackend::new(skeleton.clone());
        let layers = [animgraph_runtime::LayerInfo::default()];
        fresh.apply(&samples[frame], &layers);
        let p = &fresh.pose;
        for (j, pose) in poses[frame].iter().enumerate() {
            assert_eq!(*pose, (p.translations[j], p.rotations[j], p.scales[j]), "frame {frame} joint {j}");
        }
    }
    // Before then it is not (the offset is still decaying).
    let mut fresh = Skeleton3DPoseBackend::new(skeleton);
    fresh.apply(&samples[45], &[animgraph_runtime::LayerInfo::default()]);
    assert!(poses[45].iter().enumerate().any(|(j, p)| p.1.angle_between(fresh.pose.rotations[j]) > 1e-3));
}

#[test]
fn a_cut_jumps_where_an_inertial_transition_does_not() {
    let (poses, _, _) = run("Crossfade", 0.0);
    let jumps = graphs::jumps(&moves(&poses), 40, 1.5, 2e-3);
    assert!(jumps.len() > 5, "a cut from walking to punching should jump: {jumps:?}");
}

#[test]
fn interrupting_an_inertial_blend_with_another_starts_from_the_current_output() {
    // Punch is interrupted half way through its 0.3 s blend by Punch -> Walking.
    let (poses, _, samples) = run_with("Inertial", 0.3, Some(49));
    assert_eq!(samples[49].len(), 1, "only the new target is sampled: {:?}", samples[49]);
    let m = moves(&poses);
    for at in [40, 49] {
        let jumps = graphs::jumps(&m, at, 1.5, 2e-3);
        assert!(jumps.is_empty(), "frame {at}: {jumps:?}");
    }
}

/// Rollback: the player's snapshot and the backend's motion snapshot, restored together, repeat
/// an inertial blend bit for bit; the player's alone does not.
#[test]
fn rollback_inside_an_inertial_blend_repeats_bit_for_bit() {
    let graph = mres::load_str(&graphs::two_states("Walking", "Punch", "Inertial", 0.3)).unwrap().graph;
    let mut backend = Skeleton3DPoseBackend::new(robot());
    let mut player = AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    let mut buffer = player.new_buffer();
    let mut step = |player: &mut AnimationGraphPlayer, backend: &mut Skeleton3DPoseBackend, frame: u32| {
        if frame == 40 {
            player.fire_by_name("go").unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
        backend.apply(buffer.samples(), buffer.layers());
        backend.pose.rotations.clone()
    };
    for frame in 0..45 {
        step(&mut player, &mut backend, frame);
    }
    let (saved_player, saved_motion) = (player.snapshot(), backend.motion_snapshot());
    let first: Vec<_> = (45..60).map(|f| step(&mut player, &mut backend, f)).collect();
    player.restore(&saved_player);
    backend.restore_motion(&saved_motion);
    let again: Vec<_> = (45..60).map(|f| step(&mut player, &mut backend, f)).collect();
    assert_eq!(again, first);
    player.restore(&saved_player);
    let player_only: Vec<_> = (45..60).map(|f| step(&mut player, &mut backend, f)).collect();
    assert_ne!(player_only, first, "without the motion snapshot the blend continues from the wrong frames");
}

/// Over the network: a remote applying the authority's snapshot every tick starts the inertial
/// blend on the same frame and poses like the authority through it (within what replication
/// rounds: clip times are ticks x delta on the remote, sums of deltas on the authority).
#[test]
fn a_remote_applying_every_tick_blends_like_the_authority() {
    use animgraph_runtime::net::{Authority, Received, Remote};
    let graph = mres::load_str(&graphs::two_states("Walking", "Punch", "Inertial", 0.3)).unwrap().graph;
    let skeleton = robot();
    let mut authority_backend = Skeleton3DPoseBackend::new(skeleton.clone());
    let mut authority_player = AnimationGraphPlayer::bind(&graph, &mut authority_backend).unwrap();
    let mut remote_backend = Skeleton3DPoseBackend::new(skeleton);
    let mut remote_player = AnimationGraphPlayer::bind(&graph, &mut remote_backend).unwrap();
    let (mut a_buffer, mut r_buffer) = (authority_player.new_buffer(), remote_player.new_buffer());
    let (mut authority, mut remote) = (Authority::default(), Remote::default());
    let mut bytes = Vec::new();
    let delta = 1.0 / 60.0;
    let mut worst = 0.0f32;
    for frame in 0..90 {
        match frame {
            30 => authority_player.fire_by_name("go").unwrap(),
            60 => authority_player.fire_by_name("back").unwrap(),
            _ => {}
        }
        authority_player.advance(delta, &mut a_buffer);
        authority_backend.apply(a_buffer.samples(), a_buffer.layers());
        authority.snapshot(&mut authority_player, &mut bytes);
        let Received::Applied(tick) = remote.receive(&bytes, &mut remote_player, delta).unwrap() else {
            panic!("frame {frame} not applied")
        };
        authority.ack(tick);
        remote_player.sample_current(&mut r_buffer);
        assert_eq!(
            r_buffer.layers()[0].inertial.map(|i| i.started),
            a_buffer.layers()[0].inertial.map(|i| i.started),
            "frame {frame}: the blend starts on the same frame"
        );
        remote_backend.apply(r_buffer.samples(), r_buffer.layers());
        for (a, r) in authority_backend.pose.rotations.iter().zip(&remote_backend.pose.rotations) {
            worst = worst.max(a.angle_between(*r));
        }
    }
    assert!(worst < 1e-3, "the remote's pose strays {worst} rad from the authority's");
}
