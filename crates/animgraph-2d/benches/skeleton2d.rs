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
    let mask = backend.resolve_mask(&animgraph_runtime::BoneMask::new(vec!["LeftArm".into()], true));
    let layers = [
        LayerInfo::default(),
        LayerInfo { weight: 0.8, mask, ..LayerInfo::default() },
        LayerInfo { blend: ClipBlend::Additive, weight: 0.6, ..LayerInfo::default() },
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

/// A synthetic Spine export the size of a typical Spine hero: 70 bones, 50 slots (40 regions and
/// 10 weighted meshes of 100 vertices, 2 influences each), 2 two-bone IK constraints and 1
/// transform constraint, an animation keying every bone's rotation (Spine beziers) and three
/// meshes' deform.
fn spine_hero() -> Arc<Skeleton2D> {
    use serde_json::json;
    let mut bones = vec![json!({ "name": "root" })];
    for i in 1..70 {
        let parent = if i < 10 { 0 } else { (i - 1) / 2 + 1 };
        let parent = if parent >= i { 0 } else { parent };
        bones.push(json!({ "name": format!("b{i}"), "parent": bones[parent]["name"], "x": 12.0, "length": 12.0, "rotation": (i * 7 % 40) as f32 - 20.0 }));
    }
    let mut slots = Vec::new();
    let mut attachments = serde_json::Map::new();
    let mut deform = serde_json::Map::new();
    for s in 0..50usize {
        let name = format!("s{s}");
        let bone = format!("b{}", 1 + s % 69);
        slots.push(json!({ "name": name, "bone": bone, "attachment": name }));
        let attachment = if s < 10 {
            let (mut uvs, mut vertices, mut triangles) = (Vec::new(), Vec::new(), Vec::new());
            for v in 0..100usize {
                let (x, y) = ((v % 10) as f32 * 4.0, (v / 10) as f32 * 4.0);
                uvs.extend([x / 40.0, y / 40.0]);
                let (b0, b1) = (1 + s % 69, 1 + (s + 1) % 69);
                vertices.extend([2.0, b0 as f32, x, y, 0.7, b1 as f32, x - 12.0, y, 0.3]);
                if v % 10 < 9 && v / 10 < 9 {
                    triangles.extend([v, v + 1, v + 10, v + 1, v + 11, v + 10]);
                }
            }
            if s < 3 {
                let keys: Vec<_> = (0..5)
                    .map(|k| json!({ "time": k as f32 * 0.25, "vertices": vec![(k % 2) as f32 * 2.0; 400] }))
                    .collect();
                deform.insert(name.clone(), json!({ name.clone(): { "deform": keys } }));
            }
            json!({ "type": "mesh", "uvs": uvs, "vertices": vertices, "triangles": triangles, "hull": 36 })
        } else {
            json!({ "x": 3.0, "width": 20.0, "height": 14.0, "rotation": 5.0 })
        };
        attachments.insert(name.clone(), json!({ name: attachment }));
    }
    let mut timelines = serde_json::Map::new();
    for i in 1..70 {
        let keys: Vec<_> = (0..5)
            .map(|k| {
                json!({ "time": k as f32 * 0.25, "value": ((i + k) % 5) as f32 * 6.0 - 12.0,
                "curve": [k as f32 * 0.25 + 0.08, 0.0, k as f32 * 0.25 + 0.17, 5.0] })
            })
            .collect();
        timelines.insert(format!("b{i}"), json!({ "rotate": keys }));
    }
    let doc = json!({
        "skeleton": { "spine": "4.2.40" },
        "bones": bones,
        "slots": slots,
        "ik": [
            { "name": "ik1", "order": 0, "bones": ["b10", "b20"], "target": "b5" },
            { "name": "ik2", "order": 1, "bones": ["b11", "b22"], "target": "b6", "bendPositive": false }
        ],
        "transform": [ { "name": "t1", "order": 2, "bones": ["b30", "b31"], "target": "b7", "mixRotate": 0.5, "mixX": 0.3 } ],
        "skins": [ { "name": "default", "attachments": attachments } ],
        "animations": { "run": { "bones": timelines, "attachments": { "default": deform } } }
    });
    let imported = animgraph_2d::spine::import_spine(&doc.to_string()).unwrap();
    Arc::new(Skeleton2D::new(imported.data).unwrap())
}

/// The Spine-hero-sized character: apply (two samples crossfading: 69 rotation timelines, 3
/// deforms, 2 IK and 1 transform constraint, world transforms) plus every slot's world vertices
/// (10 weighted meshes of 100 vertices, 40 regions). Target: under 5 us.
#[divan::bench(sample_count = 500, sample_size = 50)]
fn spine_hero_apply_constraints_and_mesh_vertices(bencher: Bencher) {
    let skeleton = spine_hero();
    assert_eq!((skeleton.bone_count(), skeleton.slot_bones.len()), (70, 50));
    let mut backend = Skeleton2DPoseBackend::new(Arc::clone(&skeleton));
    let mut vertices = animgraph_2d::WorldVertices::new(&skeleton);
    let run = backend.resolve_clip("run").unwrap();
    let layers = [LayerInfo::default()];
    let mut t = 0.0f32;
    bencher.bench_local(|| {
        t = (t + 1.0 / 60.0) % 1.0;
        let s = |time: f32, weight| ClipSample {
            clip: run,
            time,
            prev_time: time,
            weight,
            layer: 0,
            looped: false,
        };
        backend.apply(&[s(t, 0.7), s((t + 0.5) % 1.0, 0.3)], &layers);
        vertices.update(&skeleton, &backend.pose);
        divan::black_box(vertices.slot(&skeleton, 0).map(|(_, v)| v[0]))
    });
}

/// The Spine hero's world vertices alone (10 weighted meshes of 100 vertices, 40 regions).
#[divan::bench(sample_count = 500, sample_size = 50)]
fn spine_hero_mesh_vertices_only(bencher: Bencher) {
    let skeleton = spine_hero();
    let mut backend = Skeleton2DPoseBackend::new(Arc::clone(&skeleton));
    let mut vertices = animgraph_2d::WorldVertices::new(&skeleton);
    let run = backend.resolve_clip("run").unwrap();
    let layers = [LayerInfo::default()];
    backend.apply(
        &[ClipSample { clip: run, time: 0.3, prev_time: 0.3, weight: 1.0, layer: 0, looped: false }],
        &layers,
    );
    bencher.bench_local(|| {
        vertices.update(&skeleton, &backend.pose);
        divan::black_box(vertices.slot(&skeleton, 0).map(|(_, v)| v[0]))
    });
}
