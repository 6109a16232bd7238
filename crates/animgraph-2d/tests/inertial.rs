//! Inertial transitions on GBot: the pose stays continuous across the start frame (where a cut
//! jumps), an interrupting inertial blend starts from the current output, and after `Duration`
//! the pose is the target's alone.

use std::sync::Arc;

use animgraph_2d::skeleton::{CHANNELS, ROTATION, shortest};
use animgraph_2d::{Skeleton2D, Skeleton2DData, Skeleton2DPoseBackend};
use animgraph_runtime::{AnimationGraphPlayer, ClipSample, LayerInfo, PoseBackend, mres};
use animgraph_test_support::graphs;

fn gbot() -> Arc<Skeleton2D> {
    let path = format!("{}/../../assets/characters/gbot/gbot.mskel", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Skeleton2D::new(Skeleton2DData::load(path).unwrap()).unwrap())
}

use animgraph_2d::Channels;

/// walk -> hurt (`go` at frame 40, `back` at `back`): each frame's bone channels and samples.
fn run(blend: &str, duration: f32, back: Option<usize>) -> (Vec<Channels>, Vec<Vec<ClipSample>>) {
    let graph = mres::load_str(&graphs::two_states("walk", "hurt", blend, duration)).unwrap().graph;
    let mut backend = Skeleton2DPoseBackend::new(gbot());
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
        poses.push(backend.pose.channels.clone());
        samples.push(buffer.samples().to_vec());
    }
    (poses, samples)
}

/// Per bone, how far its channels moved from the frame before (rotation in degrees / 10, so
/// one degree weighs like 0.1 px).
fn moves(poses: &[Channels]) -> Vec<Vec<f32>> {
    let bones = poses[0][0].len();
    let mut out = vec![vec![0.0; bones]];
    for f in 1..poses.len() {
        out.push(
            (0..bones)
                .map(|b| {
                    (0..CHANNELS)
                        .map(|c| {
                            let d = poses[f][c][b] - poses[f - 1][c][b];
                            if c == ROTATION { shortest(d).abs() / 10.0 } else { d.abs() }
                        })
                        .sum()
                })
                .collect(),
        );
    }
    out
}

#[test]
fn an_inertial_transition_is_continuous_and_then_the_pure_target() {
    let (poses, samples) = run("Inertial", 0.3, None);
    assert_eq!(samples[40].len(), 1, "only the target is sampled: {:?}", samples[40]);
    let jumps = graphs::jumps(&moves(&poses), 40, 1.5, 0.05);
    assert!(jumps.is_empty(), "bones that jumped (bone, before, at, after): {jumps:?}");
    for frame in 58..90 {
        let mut fresh = Skeleton2DPoseBackend::new(gbot());
        fresh.apply(&samples[frame], &[LayerInfo::default()]);
        assert_eq!(poses[frame], fresh.pose.channels, "frame {frame}: not the pure target");
    }
}

#[test]
fn a_cut_jumps_where_an_inertial_transition_does_not() {
    let (poses, _) = run("Crossfade", 0.0, None);
    let jumps = graphs::jumps(&moves(&poses), 40, 1.5, 0.05);
    assert!(jumps.len() > 3, "a cut from walking to hurt should jump: {jumps:?}");
}

#[test]
fn interrupting_an_inertial_blend_with_another_starts_from_the_current_output() {
    let (poses, samples) = run("Inertial", 0.3, Some(49));
    assert_eq!(samples[49].len(), 1);
    let m = moves(&poses);
    for at in [40, 49] {
        let jumps = graphs::jumps(&m, at, 1.5, 0.05);
        assert!(jumps.is_empty(), "frame {at}: {jumps:?}");
    }
}

/// The backend keeps offsets only for the bone channels some clip keys: during the blend those
/// carry the offset (the pose is not the target's alone), and every channel no clip keys stays
/// exactly at its setup value.
#[test]
fn an_inertial_blend_offsets_keyed_channels_and_leaves_the_others_at_setup() {
    let (poses, samples) = run("Inertial", 0.3, None);
    let skeleton = gbot();
    let setup = Skeleton2DPoseBackend::new(skeleton.clone()).pose.channels;
    let bones = setup.bones();
    let keyed: Vec<bool> = (0..CHANNELS * bones)
        .map(|i| (1..poses.len()).any(|f| poses[f].as_slice()[i] != setup.as_slice()[i]))
        .collect();
    assert!(keyed.iter().any(|k| !k), "GBot should have channels no clip keys");
    for frame in 40..58 {
        let mut target = Skeleton2DPoseBackend::new(skeleton.clone());
        target.apply(&samples[frame], &[LayerInfo::default()]);
        let (blended, pure) = (poses[frame].as_slice(), target.pose.channels.as_slice());
        for (i, &k) in keyed.iter().enumerate() {
            if !k {
                assert_eq!(blended[i].to_bits(), setup.as_slice()[i].to_bits(), "frame {frame}, channel {i}");
            }
        }
        if frame < 50 {
            let offset = (0..blended.len()).filter(|&i| keyed[i] && blended[i] != pure[i]).count();
            assert!(offset > 0, "frame {frame}: no keyed channel carries an offset");
        }
    }
}
