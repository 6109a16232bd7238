//! Our Spine import + 2D backend against Spine's official runtime. Each fixture in
//! `tests/spine/oracle/` is a small Spine 4.2 JSON we wrote, one per feature; beside it,
//! `NAME.expected.json` holds every bone's world transform at 21+ times per animation as
//! `@esotericsoftware/spine-core` computes them (`tools/spine-oracle`, which regenerates them).
//! Our poses must agree within 0.01 px and about 0.01 degrees, mirrored into our y-down space.

use std::sync::Arc;

use animgraph_2d::Skeleton2D;
use animgraph_2d::backend::Skeleton2DPoseBackend;
use animgraph_2d::spine::import_spine;
use animgraph_runtime::{ClipBlend, ClipSample, LayerInfo, PoseBackend};
use serde_json::Value;

/// Translations within 0.01 px; matrix entries within 2e-4 (0.01 degrees is 1.7e-4).
const PX: f32 = 0.01;
const AXIS: f32 = 2e-4;

fn check(name: &str) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/spine/oracle");
    let text = std::fs::read_to_string(format!("{dir}/{name}.json")).unwrap();
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{name}.expected.json")).unwrap())
            .unwrap();
    let imported = import_spine(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let skeleton = Arc::new(Skeleton2D::new(imported.data).unwrap());
    let names: Vec<String> = skeleton.data.bones.iter().map(|b| b.name.clone()).collect();
    let mut backend = Skeleton2DPoseBackend::new(skeleton);
    let layer = [LayerInfo { blend: ClipBlend::Replace, weight: 1.0, mask: None, event_threshold: 0.5 }];
    let mut failures = Vec::new();
    let mut compared = 0;
    for pose in expected["poses"].as_array().unwrap() {
        let animation = pose["animation"].as_str().unwrap();
        let time = pose["time"].as_f64().unwrap() as f32;
        let clip = backend.resolve_clip(animation).unwrap();
        let sample = ClipSample { clip, time, prev_time: time, weight: 1.0, layer: 0, looped: false };
        backend.apply(&[sample], &layer);
        for (i, bone) in names.iter().enumerate() {
            let e: Vec<f32> =
                pose["bones"][bone].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
            let ours = animgraph_2d::spine::spine_world_transform(backend.pose.world[i]);
            compared += 1;
            let off_px = (ours[0] - e[0]).abs().max((ours[1] - e[1]).abs());
            let off_axis = (2..6).map(|k| (ours[k] - e[k]).abs()).fold(0.0, f32::max);
            if off_px > PX || off_axis > AXIS {
                failures.push(format!(
                    "{animation} t={time} {bone}: ours {ours:?} spine {e:?} (off {off_px} px, {off_axis} axis)"
                ));
            }
        }
        // Slots: the attachment shown, the colour (within a 255th), the draw order.
        let skeleton = backend.skeleton();
        let slot_name = |s: usize| skeleton.data.slots[s].name.as_str();
        for (s, slot) in skeleton.data.slots.iter().enumerate() {
            let Some(expected) = pose["attachments"].get(&slot.name) else { continue };
            let ours = backend.pose.attachments[s].map(|a| skeleton.attachments[a as usize].name.as_str());
            compared += 1;
            if ours != expected.as_str() {
                failures.push(format!(
                    "{animation} t={time} slot {}: shows {ours:?}, spine {expected}",
                    slot.name
                ));
            }
            let e: Vec<f32> = pose["colors"][&slot.name]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap() as f32)
                .collect();
            let c = backend.pose.colors[s];
            if (0..4).any(|k| (c[k] - e[k]).abs() > 1.0 / 255.0) {
                failures.push(format!("{animation} t={time} slot {} colour {c:?}, spine {e:?}", slot.name));
            }
        }
        if let Some(order) = pose["drawOrder"].as_array() {
            let ours: Vec<&str> = backend.pose.draw_order.iter().map(|&s| slot_name(s as usize)).collect();
            let e: Vec<&str> = order.iter().map(|v| v.as_str().unwrap()).collect();
            compared += 1;
            if ours != e {
                failures.push(format!("{animation} t={time} draw order {ours:?}, spine {e:?}"));
            }
        }
        // Region attachments: each of Spine's four corners has one of ours within PX.
        for (slot, corners) in pose["regions"].as_object().into_iter().flatten() {
            let s = backend.skeleton().data.slots.iter().position(|x| &x.name == slot).unwrap();
            let Some(a) = backend.pose.attachments[s] else {
                failures.push(format!("{animation} t={time} slot {slot}: no attachment shows"));
                continue;
            };
            let world = backend.pose.world[backend.skeleton().slot_bones[s] as usize];
            let kind = &backend.skeleton().attachments[a as usize].kind;
            let ours: Vec<glam::Vec2> = animgraph_2d::render::attachment_corners(kind)
                .into_iter()
                .map(|c| world.transform_point2(c) * glam::Vec2::new(1.0, -1.0))
                .collect();
            let e: Vec<f32> =
                corners.as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
            for k in 0..4 {
                let corner = glam::Vec2::new(e[2 * k], e[2 * k + 1]);
                let nearest = ours.iter().map(|o| o.distance(corner)).fold(f32::INFINITY, f32::min);
                compared += 1;
                if nearest > PX {
                    failures.push(format!(
                        "{animation} t={time} slot {slot} corner {corner}: ours {ours:?} ({nearest} px)"
                    ));
                }
            }
        }
    }
    assert!(compared > 0);
    assert!(
        failures.is_empty(),
        "{name}: {} of {compared} checks (bones, region corners, attachments, colours, draw order) differ from spine-core; first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(6)]
    );
}

#[test]
fn two_channel_curves_match_spine() {
    check("two-channel");
}

#[test]
fn the_setup_pose_holds_before_a_timelines_first_key() {
    check("before-first-key");
}

#[test]
fn split_timelines_match_spine() {
    check("split-timelines");
}

#[test]
fn ik_constraints_run_in_their_order() {
    check("ik-order");
}

#[test]
fn every_inherit_mode_matches_spine() {
    check("inherit");
}

#[test]
fn ik_softness_stretch_compress_uniform_and_keyed_mix_match_spine() {
    check("ik-features");
}

#[test]
fn region_attachments_with_scale_and_mirroring_match_spine() {
    check("regions");
}

#[test]
fn attachment_colour_and_draw_order_keys_match_spine() {
    check("slots");
}

#[test]
fn colour_channels_with_their_own_curves_and_rgb_alpha_timelines_match_spine() {
    check("colors");
}
