//! The shared layering conformance suite on the 2D backend, plus the 2D-only rules (discrete
//! values, events across loops and in reverse).

use std::collections::BTreeMap;
use std::sync::Arc;

use animgraph_2d::data::{
    AttachmentData, AttachmentKind, BoneData, BoneTimelines, ClipData, Curve, Key, SlotData, SlotTimelines,
};
use animgraph_2d::{Skeleton2D, Skeleton2DData, Skeleton2DPoseBackend};
use animgraph_runtime::{ClipSample, LayerInfo, PoseBackend};
use animgraph_test_support::conformance::{self, RigChannel};

fn key(time: f32, values: &[f32]) -> Key {
    let mut v = [0.0; 4];
    v[..values.len()].copy_from_slice(values);
    Key { time, values: v, arity: values.len() as u8, curve: Curve::Linear }
}

fn rig_data() -> Skeleton2DData {
    let (bones, clips) = conformance::rig();
    let bone = |b: &conformance::RigBone| BoneData {
        skin_required: false,
        name: b.name.into(),
        parent: b.parent.map(|p| bones[p].name.to_string()),
        x: b.x,
        y: 0.0,
        rotation: b.rotation,
        scale_x: 1.0,
        scale_y: 1.0,
        shear_x: 0.0,
        shear_y: 0.0,
        length: 4.0,
        inherit: Default::default(),
    };
    let mut data = Skeleton2DData { bones: bones.iter().map(bone).collect(), ..Default::default() };
    for clip in clips {
        let mut timelines: BTreeMap<String, BoneTimelines> = BTreeMap::new();
        for (b, channel, value) in clip.keys {
            let entry = timelines.entry(bones[b].name.to_string()).or_default();
            match channel {
                RigChannel::TranslateX => {
                    entry.translate = vec![key(0.0, &[value, 0.0]), key(clip.duration, &[value, 0.0])]
                }
                RigChannel::Rotation => entry.rotate = vec![key(0.0, &[value]), key(clip.duration, &[value])],
            }
        }
        data.clips.insert(
            clip.name.into(),
            ClipData { duration: clip.duration, looping: true, bones: timelines, ..Default::default() },
        );
    }
    data
}

#[test]
fn the_2d_backend_passes_the_shared_conformance_suite() {
    let skeleton = Arc::new(Skeleton2D::new(rig_data()).unwrap());
    let failures = conformance::run(
        || Skeleton2DPoseBackend::new(Arc::clone(&skeleton)),
        |backend, bone, channel| match channel {
            RigChannel::TranslateX => backend.pose.channels[animgraph_2d::skeleton::X][bone],
            RigChannel::Rotation => backend.pose.channels[animgraph_2d::skeleton::ROTATION][bone],
        },
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(conformance::cases().len() >= 14);
}

/// The rig plus a slot with two attachments and clips that switch them, and events.
fn discrete_data() -> Skeleton2DData {
    let mut data = rig_data();
    data.slots.push(SlotData {
        name: "face".into(),
        bone: "hand".into(),
        attachment: Some("calm".into()),
        color: [1.0; 4],
        dark: None,
        blend: Default::default(),
    });
    data.slots.push(SlotData {
        name: "back".into(),
        bone: "root".into(),
        attachment: None,
        color: [1.0; 4],
        dark: None,
        blend: Default::default(),
    });
    for name in ["calm", "angry", "happy"] {
        data.attachments.push(AttachmentData {
            slot: "face".into(),
            name: name.into(),
            skin: None,
            color: [1.0; 4],
            sequence: None,
            kind: AttachmentKind::Region {
                x: 0.0,
                y: 0.0,
                rotation: 0.0,
                width: 1.0,
                height: 1.0,
                region: None,
            },
        });
    }
    let face = |name: &str| {
        let mut slots = BTreeMap::new();
        slots.insert(
            "face".to_string(),
            SlotTimelines { attachment: vec![(0.0, Some(name.to_string()))], ..Default::default() },
        );
        ClipData { duration: 1.0, looping: true, slots, ..Default::default() }
    };
    data.clips.insert("angry".into(), face("angry"));
    data.clips.insert("happy".into(), face("happy"));
    data.events = vec!["step".into(), "clap".into()];
    data.clips.insert(
        "steps".into(),
        ClipData {
            duration: 1.0,
            looping: true,
            events: vec![(0.0, "clap".into()), (0.25, "step".into()), (0.75, "step".into())],
            draw_order: vec![(0.0, vec!["back".into(), "face".into()])],
            ..Default::default()
        },
    );
    data
}

fn sample(
    b: &mut Skeleton2DPoseBackend,
    clip: &str,
    time: f32,
    prev_time: f32,
    weight: f32,
    layer: u8,
    looped: bool,
) -> ClipSample {
    ClipSample { clip: b.resolve_clip(clip).unwrap(), time, prev_time, weight, layer, looped }
}

fn layer(weight: f32) -> LayerInfo {
    LayerInfo { weight, ..LayerInfo::default() }
}

fn attachment(b: &Skeleton2DPoseBackend) -> String {
    let a = b.pose.attachments[0].unwrap();
    b.skeleton().attachments[a as usize].name.clone()
}

#[test]
fn discrete_values_come_from_the_heaviest_sample_of_the_highest_layer_at_half_weight() {
    let skeleton = Arc::new(Skeleton2D::new(discrete_data()).unwrap());
    let mut b = Skeleton2DPoseBackend::new(skeleton);
    let s =
        [sample(&mut b, "angry", 0.5, 0.4, 0.4, 0, false), sample(&mut b, "happy", 0.5, 0.4, 0.6, 0, false)];
    b.apply(&s, &[layer(1.0)]);
    assert_eq!(attachment(&b), "happy", "the heaviest sample of the layer");
    let s2 =
        [sample(&mut b, "happy", 0.5, 0.4, 1.0, 0, false), sample(&mut b, "angry", 0.5, 0.4, 1.0, 1, false)];
    b.apply(&s2, &[layer(1.0), layer(0.5)]);
    assert_eq!(attachment(&b), "angry", "the highest layer weighing at least 0.5 wins");
    b.apply(&s2, &[layer(1.0), layer(0.49)]);
    assert_eq!(attachment(&b), "happy", "a layer under 0.5 does not decide discrete values");
    b.apply(&[], &[]);
    assert_eq!(attachment(&b), "calm", "setup again when nothing plays");
    // Draw order is discrete too.
    let s3 = [sample(&mut b, "steps", 0.5, 0.4, 1.0, 0, false)];
    b.apply(&s3, &[layer(1.0)]);
    assert_eq!(b.pose.draw_order, vec![1, 0]);
}

fn fired(b: &Skeleton2DPoseBackend) -> Vec<(String, f32)> {
    b.events().iter().map(|e| (b.skeleton().data.events[e.event as usize].clone(), e.time)).collect()
}

#[test]
fn events_fire_in_the_window_across_loops_and_in_reverse() {
    let skeleton = Arc::new(Skeleton2D::new(discrete_data()).unwrap());
    let mut b = Skeleton2DPoseBackend::new(skeleton);
    let mut run = |time, prev, looped, weight: f32| {
        let s = [sample(&mut b, "steps", time, prev, weight, 0, looped)];
        b.apply(&s, &[layer(1.0)]);
        fired(&b)
    };
    assert_eq!(run(0.3, 0.2, false, 1.0), vec![("step".to_string(), 0.25)], "(prev, time]");
    assert_eq!(run(0.25, 0.2, false, 1.0), vec![("step".to_string(), 0.25)], "a key at time fires");
    assert!(run(0.3, 0.25, false, 1.0).is_empty(), "a key at prev_time does not fire again");
    assert_eq!(
        run(0.1, 0.9, true, 1.0),
        vec![("clap".to_string(), 0.0)],
        "across the loop: (0.9, 1] then [0, 0.1]"
    );
    assert_eq!(run(0.8, 0.7, false, 1.0), vec![("step".to_string(), 0.75)]);
    assert_eq!(run(0.2, 0.3, false, 1.0), vec![("step".to_string(), 0.25)], "backwards: [time, prev)");
    assert_eq!(
        run(0.9, 0.1, true, 1.0),
        vec![("clap".to_string(), 0.0)],
        "backwards across the loop: [0, 0.1) then [0.9, 1]"
    );
    assert!(run(0.3, 0.2, false, 0.4).is_empty(), "below the layer's event threshold nothing fires");
}

#[test]
fn one_and_two_bone_ik_reach_the_target() {
    let mut data = rig_data();
    data.bones.push(BoneData {
        skin_required: false,
        name: "target".into(),
        parent: Some("root".into()),
        x: 8.0,
        y: 9.0,
        rotation: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        shear_x: 0.0,
        shear_y: 0.0,
        length: 1.0,
        inherit: Default::default(),
    });
    data.bones[2].length = 6.0; // hand
    data.ik.push(animgraph_2d::data::IkData {
        skin_required: false,
        name: "reach".into(),
        bones: vec!["arm".into(), "hand".into()],
        target: "target".into(),
        bend_positive: true,
        mix: 1.0,
        softness: 0.0,
        compress: false,
        stretch: false,
        uniform: false,
        order: 0,
    });
    let skeleton = Skeleton2D::new(data.clone()).unwrap();
    // Two-bone: arm (at 10, 0) with hand 5 along it and a 6 long hand: the hand's tip reaches.
    let world = &skeleton.setup.world;
    let tip = world[2].transform_point2(glam::Vec2::new(6.0, 0.0));
    let target = world[3].translation;
    assert!((tip - target).length() < 1e-3, "tip {tip} target {target}");
    // Bending the other way reaches too, with the elbow on the other side.
    data.ik[0].bend_positive = false;
    let other = Skeleton2D::new(data.clone()).unwrap();
    let tip2 = other.setup.world[2].transform_point2(glam::Vec2::new(6.0, 0.0));
    assert!((tip2 - target).length() < 1e-3);
    let elbow = |s: &Skeleton2D| s.setup.world[2].translation;
    let side = |s: &Skeleton2D| {
        let (a, e) = (s.setup.world[1].translation, elbow(s));
        (e - a).perp_dot(target - a).signum()
    };
    assert_ne!(side(&skeleton), side(&other));
    // One bone: the hand points at the target.
    data.ik[0].bones = vec!["hand".into()];
    let one = Skeleton2D::new(data).unwrap();
    let w = one.setup.world[2];
    let direction = w.transform_vector2(glam::Vec2::X).normalize();
    let to_target = (target - w.translation).normalize();
    assert!(direction.dot(to_target) > 0.9999, "{direction} vs {to_target}");
}

/// A `.mskel` clip's event keys are its sync markers (GBot's footsteps).
#[test]
fn clip_events_are_the_clips_sync_markers() {
    let path = format!("{}/../../assets/characters/gbot/gbot.mskel", env!("CARGO_MANIFEST_DIR"));
    let data = animgraph_2d::Skeleton2DData::load(&path).unwrap();
    let mut b = Skeleton2DPoseBackend::new(Arc::new(animgraph_2d::Skeleton2D::new(data).unwrap()));
    let walk = b.resolve_clip("walk").unwrap();
    assert_eq!(b.clip_markers(walk), vec![("footstep".to_string(), 0.6), ("footstep".to_string(), 1.8)]);
    let wave = b.resolve_clip("wave").unwrap();
    assert!(b.clip_markers(wave).is_empty());
}
