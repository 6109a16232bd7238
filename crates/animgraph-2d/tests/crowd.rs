//! The crowd store against single characters: the same states, signals, replicated state and
//! clip events at every LOD, the same pose bits at LOD 1, on one thread or two; LOD never pops;
//! no allocation per frame.

use std::sync::Arc;

use animgraph_2d::{AnimatedSkeleton2D, Skeleton2D, Skeleton2DData, Skeleton2DPoseBackend};
use animgraph_runtime::crowd::Crowd;
use animgraph_runtime::graph::ParamId;
use animgraph_runtime::net::NetState;
use animgraph_runtime::{AnimationGraph, AnimationGraphPlayer, mres};
use animgraph_test_support::counting::{PerThread, thread_allocations};
use proptest::prelude::*;

#[global_allocator]
static GLOBAL: PerThread = PerThread;

fn gbot() -> (Arc<Skeleton2D>, AnimationGraph) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot");
    let skeleton =
        Arc::new(Skeleton2D::new(Skeleton2DData::load(format!("{root}/gbot.mskel")).unwrap()).unwrap());
    (skeleton, mres::load_file(format!("{root}/gbot.mres")).unwrap().graph.into_graph())
}

/// One character's inputs for one frame.
#[derive(Clone, Copy, Debug)]
struct Input {
    speed: f32,
    grounded: bool,
    waving: bool,
    jump: bool,
    hurt: bool,
}

fn input() -> impl Strategy<Value = Input> {
    (
        0.0f32..3.5,
        prop::bool::weighted(0.8),
        any::<bool>(),
        prop::bool::weighted(0.03),
        prop::bool::weighted(0.02),
    )
        .prop_map(|(speed, grounded, waving, jump, hurt)| Input { speed, grounded, waving, jump, hurt })
}

fn ids(player: &AnimationGraphPlayer) -> [ParamId; 5] {
    ["speed", "grounded", "waving", "jump", "hurt"].map(|n| player.find_parameter(n).unwrap())
}

fn set(player: &mut AnimationGraphPlayer, ids: &[ParamId; 5], i: Input) {
    player.set_float(ids[0], i.speed).unwrap();
    player.set_bool(ids[1], i.grounded).unwrap();
    player.set_bool(ids[2], i.waving).unwrap();
    if i.jump {
        player.fire(ids[3]).unwrap();
    }
    if i.hurt {
        player.fire(ids[4]).unwrap();
    }
}

/// Runs `inputs[frame][character]` through single characters and through a crowd whose
/// members have the given LODs (changed to `later` halfway), and compares every frame.
fn compare(inputs: &[Vec<Input>], lods: &[u8], later: &[u8], threads: usize) -> Result<(), TestCaseError> {
    let (skeleton, graph) = gbot();
    let first = animgraph_2d::animated_2d(Arc::clone(&skeleton), Some(&graph), 0).unwrap();
    let n = lods.len();
    let mut single: Vec<AnimatedSkeleton2D> = (0..n).map(|_| first.instantiate()).collect();
    let mut crowd = Crowd::new(&graph, Skeleton2DPoseBackend::new(skeleton)).unwrap();
    for (i, &lod) in lods.iter().enumerate() {
        crowd.spawn();
        crowd.set_lod(i, lod);
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let id = ids(single[0].player().unwrap());
    let (mut a, mut b) = (NetState::default(), NetState::default());
    for (frame, inputs) in inputs.iter().enumerate() {
        if frame == inputs.len() / 2 {
            for (i, &lod) in later.iter().enumerate() {
                crowd.set_lod(i, lod);
            }
        }
        for (i, input) in inputs.iter().enumerate().take(n) {
            set(single[i].player_mut().unwrap(), &id, *input);
            set(crowd.player_mut(i), &id, *input);
        }
        for c in &mut single {
            c.update(1.0 / 60.0);
        }
        pool.install(|| crowd.update_parallel(1.0 / 60.0));
        for (i, c) in single.iter_mut().enumerate() {
            let (p, q) = (c.player_mut().unwrap(), crowd.player_mut(i));
            prop_assert_eq!(p.events(), q.events(), "graph events, frame {} character {}", frame, i);
            prop_assert_eq!(p.current_state_path(0), q.current_state_path(0));
            p.capture_net(&mut a);
            q.capture_net(&mut b);
            prop_assert_eq!(&a, &b, "net state, frame {} character {}", frame, i);
            let m = &crowd.members()[i];
            prop_assert_eq!(
                c.backend.events(),
                m.backend.events(),
                "clip events, frame {} character {}",
                frame,
                i
            );
            if m.lod() == 1 && lods[i] == 1 {
                // Never above LOD 1: the pose is the same bits.
                prop_assert_eq!(
                    &c.backend.pose.channels,
                    &m.backend.pose.channels,
                    "frame {} character {}",
                    frame,
                    i
                );
                prop_assert_eq!(&c.backend.pose.world, &m.backend.pose.world);
                prop_assert_eq!(&c.backend.pose.attachments, &m.backend.pose.attachments);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn crowd_members_match_single_characters(
        inputs in prop::collection::vec(prop::collection::vec(input(), 6), 150..240),
        lods in prop::collection::vec(prop_oneof![Just(1u8), 1u8..6], 6),
        later in prop::collection::vec(1u8..6, 6),
        threads in 1usize..3,
    ) {
        compare(&inputs, &lods, &later, threads)?;
    }
}

/// A deterministic run with fixed inputs: one member stays at LOD 1 throughout (pose bits
/// compared), the others change LOD, on two threads; and the run really fires events.
#[test]
fn a_busy_crowd_matches_single_characters_on_two_threads() {
    let inputs: Vec<Vec<Input>> = (0..600u32)
        .map(|f| {
            (0..6u32)
                .map(|i| Input {
                    speed: ((f + i * 40) % 300) as f32 / 90.0,
                    grounded: (f + i * 13) % 200 < 160,
                    waving: (f / 90 + i) % 3 == 0,
                    jump: (f + i * 31) % 170 == 5,
                    hurt: (f + i * 57) % 230 == 9,
                })
                .collect()
        })
        .collect();
    compare(&inputs, &[1, 1, 2, 3, 4, 8], &[1, 4, 1, 1, 2, 3], 2).unwrap();
}

fn max_world_step(a: &[glam::Affine2], b: &[glam::Affine2]) -> f32 {
    a.iter().zip(b).map(|(a, b)| (a.translation - b.translation).length()).fold(0.0, f32::max)
}

/// At a steady LOD n the pose arrives at each sample exactly, n - 1 frames late; changing the LOD
/// (up or down) never moves a bone further in a frame than twice the most a full-rate character
/// moves in one.
#[test]
fn lod_lags_by_whole_samples_and_never_pops() {
    let (skeleton, graph) = gbot();
    let mut crowd = Crowd::new(&graph, Skeleton2DPoseBackend::new(skeleton)).unwrap();
    let (full, lod) = (crowd.spawn(), crowd.spawn());
    let id = ids(crowd.player(0));
    crowd.set_lod(lod, 4);
    let mut full_poses = Vec::new();
    let mut lod_poses = Vec::new();
    let schedule = |frame: usize| match frame {
        0..120 => 4,
        120..200 => 1,
        200..300 => 8,
        300..360 => 2,
        _ => 5,
    };
    for frame in 0..420usize {
        if frame > 0 {
            crowd.set_lod(lod, schedule(frame));
        }
        let input = Input { speed: 2.5, grounded: true, waving: frame > 50, jump: false, hurt: false };
        set(crowd.player_mut(full), &id, input);
        set(crowd.player_mut(lod), &id, input);
        crowd.update(1.0 / 60.0);
        full_poses.push(crowd.backend(full).pose.world.clone());
        lod_poses.push(crowd.backend(lod).pose.world.clone());
    }
    // Steady LOD 4 from frame 0: samples at 0, 4, 8, ...; the sample of frame k shows at k + 3.
    for k in (0..112).step_by(4) {
        assert_eq!(lod_poses[k + 3], full_poses[k], "sample of frame {k}");
        assert_ne!(lod_poses[k + 1], full_poses[k + 1], "frame {} is interpolated", k + 1);
    }
    let full_step =
        (1..full_poses.len()).map(|f| max_world_step(&full_poses[f], &full_poses[f - 1])).fold(0.0, f32::max);
    assert!(full_step > 0.0);
    for f in 1..lod_poses.len() {
        let step = max_world_step(&lod_poses[f], &lod_poses[f - 1]);
        assert!(
            step <= 2.0 * full_step + 1e-3,
            "frame {f}: a bone moved {step}, full rate at most {full_step}"
        );
    }
    // Back at LOD 1 for long enough, the LOD member shows the full-rate pose again.
    assert_eq!(lod_poses[199], full_poses[199]);
}

/// `apply` resets to setup only what the skeleton's clips key: a tint the game gives GBot's
/// slots (no GBot clip keys colours) and a shear (no clip keys shear) stay as the game set them,
/// frame after frame, as in Spine's runtime; a rotation the game sets on a keyed bone is
/// replaced by the clips' at the next apply.
#[test]
fn apply_keeps_what_no_clip_keys() {
    use animgraph_2d::skeleton::{ROTATION, SHEAR_X};
    use animgraph_runtime::PoseBackend;
    let (skeleton, graph) = gbot();
    let setup = skeleton.setup.clone();
    let mut backend = Skeleton2DPoseBackend::new(skeleton);
    let mut player = AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    let bound = player.bound_graph().clone();
    let mut buffer =
        animgraph_runtime::SampleBuffer::with_capacity(bound.sample_capacity(), bound.layer_count());
    let id = ids(&player);
    let tint = [1.0, 0.25, 0.25, 1.0, 0.0, 0.0, 0.0];
    for frame in 0..120u32 {
        set(
            &mut player,
            &id,
            Input { speed: 1.5, grounded: true, waving: frame > 60, jump: false, hurt: false },
        );
        backend.pose.colors[0] = tint;
        backend.pose.channels[SHEAR_X][1] = 7.0;
        backend.pose.channels[ROTATION][1] = 1234.0;
        player.advance(1.0 / 60.0, &mut buffer);
        backend.apply(buffer.samples(), buffer.layers());
        let pose = &backend.pose;
        assert_eq!(pose.colors[0], tint, "frame {frame}: the game's tint");
        assert_eq!(pose.colors[1..], setup.colors[1..], "frame {frame}: the other slots");
        assert_eq!(pose.channels[SHEAR_X][1], 7.0, "frame {frame}: the game's shear");
        assert_ne!(pose.channels[ROTATION][1], 1234.0, "frame {frame}: the clips' rotation");
    }
}

/// At LOD 4 too, what no clip keys stays as the game set it: a tint given between two samples
/// is neither moved back towards the last sample nor replaced when the pose arrives at it.
#[test]
fn lod_keeps_what_no_clip_keys() {
    let (skeleton, graph) = gbot();
    let mut crowd = Crowd::new(&graph, Skeleton2DPoseBackend::new(skeleton)).unwrap();
    let member = crowd.spawn();
    crowd.set_lod(member, 4);
    let id = ids(crowd.player(member));
    let tint = [1.0, 0.25, 0.25, 1.0, 0.0, 0.0, 0.0];
    for frame in 0..60u32 {
        let input = Input { speed: 1.5, grounded: true, waving: false, jump: false, hurt: false };
        set(crowd.player_mut(member), &id, input);
        if frame == 6 {
            crowd.members_mut()[member].backend.pose.colors[0] = tint;
        }
        crowd.update(1.0 / 60.0);
        if frame >= 6 {
            assert_eq!(crowd.backend(member).pose.colors[0], tint, "frame {frame}");
        }
    }
}

/// Between LOD samples the pose moves only what clips key: GBot's clips key rotations and
/// translations, so its scale and shear channels and its slot colours stay at setup bit for bit
/// on every frame, while its rotations do move between samples.
#[test]
fn lod_moves_only_what_clips_key() {
    use animgraph_2d::skeleton::{ROTATION, SCALE_X, SCALE_Y, SHEAR_X, SHEAR_Y};
    let (skeleton, graph) = gbot();
    let setup = skeleton.setup.clone();
    let mut crowd = Crowd::new(&graph, Skeleton2DPoseBackend::new(skeleton)).unwrap();
    let member = crowd.spawn();
    crowd.set_lod(member, 4);
    let id = ids(crowd.player(member));
    let bits = |values: &[f32]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    let mut rotations_moved_between_samples = 0;
    let mut last_rotations = bits(&setup.channels[ROTATION]);
    for frame in 0..240u32 {
        let input = Input {
            speed: (frame % 180) as f32 / 60.0,
            grounded: true,
            waving: frame > 90,
            jump: false,
            hurt: false,
        };
        set(crowd.player_mut(member), &id, input);
        crowd.update(1.0 / 60.0);
        let pose = &crowd.backend(member).pose;
        for c in [SCALE_X, SCALE_Y, SHEAR_X, SHEAR_Y] {
            assert_eq!(bits(&pose.channels[c]), bits(&setup.channels[c]), "frame {frame}: channel {c}");
        }
        let colors =
            |p: &animgraph_2d::Pose| p.colors.iter().flatten().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(colors(pose), colors(&setup), "frame {frame}: colours");
        let rotations = bits(&pose.channels[ROTATION]);
        if frame % 4 != 0 && rotations != last_rotations {
            rotations_moved_between_samples += 1;
        }
        last_rotations = rotations;
    }
    assert!(
        rotations_moved_between_samples > 100,
        "{rotations_moved_between_samples} interpolated frames moved"
    );
}

#[test]
fn crowd_updates_allocate_nothing() {
    let (skeleton, graph) = gbot();
    let mut crowd = Crowd::new(&graph, Skeleton2DPoseBackend::new(skeleton)).unwrap();
    for i in 0..64 {
        crowd.spawn();
        crowd.set_lod(i, 1 + (i % 4) as u8);
    }
    let id = ids(crowd.player(0));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let frame = |crowd: &mut Crowd<Skeleton2DPoseBackend>, f: u32| {
        for (i, m) in crowd.members_mut().iter_mut().enumerate() {
            let i = i as u32;
            let input = Input {
                speed: ((f + i * 9) % 300) as f32 / 100.0,
                grounded: (f + i) % 200 < 150,
                waving: f % 500 > 250,
                jump: (f + i) % 200 == 10,
                hurt: (f + i) % 700 == 300,
            };
            set(&mut m.player, &id, input);
        }
    };
    for f in 0..30 {
        frame(&mut crowd, f);
        crowd.update(1.0 / 60.0);
    }
    let before = thread_allocations();
    for f in 30..1500 {
        frame(&mut crowd, f);
        if f % 100 == 0 {
            // LOD changes after the first one above 1 allocate nothing (members 1, 5, 9, ...
            // started above 1).
            crowd.set_lod((f as usize / 100 * 4 + 1) % 64, 1 + (f / 100 % 5) as u8);
        }
        crowd.update(1.0 / 60.0);
    }
    assert_eq!(thread_allocations() - before, 0);
    // Two threads: each pool thread's scratch is made at the first parallel frame.
    // The frames run inside the pool, as a game's frame loop on a rayon pool does (installing
    // from outside the pool for every call pays rayon's own injection queue, a block per 63
    // calls).
    let workers = || pool.broadcast(|_| thread_allocations());
    let mut run = |frames: std::ops::Range<u32>| {
        pool.install(|| {
            for f in frames {
                frame(&mut crowd, f);
                crowd.update_parallel(1.0 / 60.0);
            }
        })
    };
    run(1500..1530);
    // Counted on this thread and on each pool thread (other tests run beside this one).
    let before_workers = workers();
    let before = thread_allocations();
    run(1530..1830);
    let calling = thread_allocations() - before;
    let after_workers = workers();
    assert_eq!(calling, 0, "allocations on the calling thread");
    for (a, b) in after_workers.iter().zip(&before_workers) {
        assert_eq!(a - b, 0, "allocations on a pool thread over 300 parallel frames");
    }
}

/// A crowd member holds no apply scratch between frames (the crowd lends it its thread's).
/// Posed directly instead, outside a crowd update, it makes its own once rather than failing,
/// and poses exactly as the crowd does.
#[test]
fn a_member_posed_outside_the_crowd_makes_its_own_scratch() {
    use animgraph_runtime::PoseBackend;
    let (skeleton, graph) = gbot();
    let (mut crowd, mut player, mut member, mut buffer) =
        animgraph_test_support::crowd::member_apart(&graph, Skeleton2DPoseBackend::new(skeleton));
    let id = ids(&player);
    for f in 0..240u32 {
        let input = Input {
            speed: (f % 200) as f32 / 60.0,
            grounded: f % 90 < 70,
            waving: f > 120,
            jump: f % 90 == 75,
            hurt: f == 100,
        };
        set(&mut player, &id, input);
        set(crowd.player_mut(0), &id, input);
        crowd.update(1.0 / 60.0);
        player.advance(1.0 / 60.0, &mut buffer);
        member.apply(buffer.samples(), buffer.layers());
        let bits = |b: &Skeleton2DPoseBackend| -> Vec<u32> {
            let world = b.pose.world.iter().flat_map(|w| w.to_cols_array());
            b.pose.channels.as_slice().iter().copied().chain(world).map(f32::to_bits).collect()
        };
        assert_eq!(bits(&member), bits(crowd.backend(0)), "frame {f}");
    }
}
