//! `AnimatedSkeleton2D::update` (graph advance + code tracks + apply with events) allocates
//! nothing after setup, for the first character and for instances made from it.

use animgraph_test_support::counting::{PerThread, thread_allocations};
use std::sync::Arc;

use animgraph_2d::{AnimatedSkeleton2D, Skeleton2D, Skeleton2DData};
use animgraph_runtime::tracks::TrackClip;
use animgraph_runtime::{PoseBackend, mres};

#[global_allocator]
static GLOBAL: PerThread = PerThread;

#[test]
fn updating_gbot_characters_allocates_nothing() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot");
    let skeleton =
        Arc::new(Skeleton2D::new(Skeleton2DData::load(format!("{root}/gbot.mskel")).unwrap()).unwrap());
    let graph = mres::load_file(format!("{root}/gbot.mres")).unwrap().graph;
    let mut first = animgraph_2d::animated_2d(Arc::clone(&skeleton), Some(&graph), 1).unwrap();
    let wave = first.backend.resolve_clip("wave").unwrap();
    let wave = TrackClip::new(&first.backend, wave);
    let mut crowd: Vec<AnimatedSkeleton2D> = (0..3).map(|_| first.instantiate()).collect();
    crowd.push(first);
    let ids: Vec<_> = ["speed", "jump", "grounded", "hurt", "waving"]
        .iter()
        .map(|n| crowd[0].player().unwrap().find_parameter(n).unwrap())
        .collect();
    let before = thread_allocations() as usize;
    let mut events = 0;
    for frame in 0..3000u32 {
        for (i, c) in crowd.iter_mut().enumerate() {
            let p = c.player_mut().unwrap();
            p.set_float(ids[0], ((frame + i as u32 * 50) % 300) as f32 / 100.0).unwrap();
            p.set_bool(ids[2], frame % 200 < 150).unwrap();
            p.set_bool(ids[4], frame % 500 > 250).unwrap();
            if frame % 200 == 10 {
                p.fire(ids[1]).unwrap();
            }
            if frame % 700 == 300 {
                p.fire(ids[3]).unwrap();
            }
            if frame % 400 == 0 {
                c.tracks.set_clip(0, wave).unwrap();
            }
            c.update(1.0 / 60.0);
            events += c.backend.events().len() + c.player().unwrap().events().len();
        }
    }
    assert_eq!(thread_allocations() as usize - before, 0);
    assert!(events > 100, "the run fired only {events} events");
}

/// Meshes: deform blending across two layers, skin changes and world vertices allocate nothing
/// per frame (the Spine fixture with weighted meshes, deform keys, linked meshes and skins).
#[test]
fn deforming_meshes_switching_skins_sequences_and_world_vertices_allocate_nothing() {
    use animgraph_2d::{SkinId, WorldVertices};
    use animgraph_runtime::{ClipBlend, ClipSample, LayerInfo};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/spine/oracle");
    let mut deformed = 0.0f32;
    // Which attachments (frames) slot 0 showed; a fixed array, so recording allocates nothing.
    let mut frames_shown = [false; 64];
    for name in ["mesh-deform", "skins", "sequence"] {
        let json = std::fs::read_to_string(format!("{dir}/{name}.json")).unwrap();
        let atlas = std::fs::read_to_string(format!("{dir}/{name}.atlas")).unwrap();
        let imported = animgraph_2d::spine::import_spine_with_atlas(&json, Some(&atlas)).unwrap();
        let skeleton = Arc::new(Skeleton2D::new(imported.data).unwrap());
        let mut backend = animgraph_2d::Skeleton2DPoseBackend::new(Arc::clone(&skeleton));
        let clip = animgraph_runtime::ClipId(0);
        let layers = [
            LayerInfo::default(),
            LayerInfo { blend: ClipBlend::Additive, weight: 0.5, ..LayerInfo::default() },
        ];
        let skins: Vec<SkinId> = (0..skeleton.skins.names.len() as u16).map(SkinId).collect();
        let mut vertices = WorldVertices::new(&skeleton);
        let before = thread_allocations() as usize;
        for frame in 0..600u32 {
            let t = (frame % 60) as f32 / 60.0;
            let samples = [
                ClipSample { clip, time: t, prev_time: t, weight: 0.6, layer: 0, looped: false },
                ClipSample { clip, time: 1.0 - t, prev_time: 1.0 - t, weight: 0.4, layer: 0, looped: false },
                ClipSample { clip, time: t, prev_time: t, weight: 1.0, layer: 1, looped: false },
            ];
            backend.set_skins(&skins[..(frame as usize / 100) % (skins.len() + 1)]);
            backend.apply(&samples, &layers);
            vertices.update(&skeleton, &backend.pose);
            deformed += backend.pose.deform.iter().map(|d| d.abs()).sum::<f32>();
            if name == "sequence" {
                if let Some(a) = backend.pose.attachments[0] {
                    frames_shown[a as usize % 64] = true;
                }
            }
        }
        assert_eq!(thread_allocations() as usize - before, 0, "{name}");
    }
    assert!(deformed > 0.0, "the deform keys moved vertices");
    let shown = frames_shown.iter().filter(|s| **s).count();
    assert!(shown >= 4, "the sequence stepped through its frames: {shown} shown");
}

/// Inertial blends (started, interrupted, decaying) allocate nothing, and two runs of the same
/// inputs give the same bits.
#[test]
fn inertial_blends_allocate_nothing_and_repeat_bit_for_bit() {
    let path = format!("{}/../../assets/characters/gbot/gbot.mskel", env!("CARGO_MANIFEST_DIR"));
    let skeleton =
        Arc::new(animgraph_2d::Skeleton2D::new(animgraph_2d::Skeleton2DData::load(path).unwrap()).unwrap());
    let run = || {
        let backend = animgraph_2d::Skeleton2DPoseBackend::new(skeleton.clone());
        animgraph_test_support::graphs::inertial_workout(backend, "walk", "hurt", |b| {
            b.pose.channels.iter().flatten().map(|v| v.to_bits()).collect()
        })
    };
    let (allocated, first) = run();
    assert_eq!(allocated, 0, "inertial blending allocated {allocated} times");
    assert_eq!(run().1, first, "the same inputs gave other bits");
}

/// What one GBot crowd member holds on the heap (its player's layers and events, its pose, its
/// inertial history and offsets for the channels clips key; no apply scratch, which its thread
/// lends it), so a change that grows it shows here; the figure is in the README's crowd table.
#[test]
fn a_gbot_crowd_member_holds_under_6_kb_of_heap() {
    let dir = format!("{}/../../assets/characters/gbot", env!("CARGO_MANIFEST_DIR"));
    let skeleton =
        Arc::new(Skeleton2D::new(Skeleton2DData::load(format!("{dir}/gbot.mskel")).unwrap()).unwrap());
    let graph = mres::load_file(format!("{dir}/gbot.mres")).unwrap().graph;
    let mut crowd =
        animgraph_runtime::crowd::Crowd::new(&graph, animgraph_2d::Skeleton2DPoseBackend::new(skeleton))
            .unwrap();
    crowd.reserve(100);
    let (bytes, allocations) = animgraph_test_support::counting::per_call(100, || {
        crowd.spawn();
    });
    assert!(bytes < 6 * 1024 && allocations <= 20, "{bytes} bytes in {allocations} allocations per member");
}
