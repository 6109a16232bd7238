//! Our Spine import + 2D backend against Spine's official runtime. Each fixture in
//! `tests/spine/oracle/` is a small Spine 4.2 JSON we wrote, one per feature; beside it,
//! `NAME.expected.json` holds every bone's world transform at 21+ times per animation as
//! `@esotericsoftware/spine-core` computes them (`tools/spine-oracle`, which regenerates them).
//! Our poses must agree within 0.01 px and about 0.01 degrees, mirrored into our y-down space.

use std::sync::Arc;

use animgraph_2d::Skeleton2D;
use animgraph_2d::backend::Skeleton2DPoseBackend;
use animgraph_2d::data::{AttachmentKind, RegionRef};
use animgraph_2d::spine::import_spine_with_atlas;
use animgraph_runtime::{ClipSample, LayerInfo, PoseBackend};
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
    let atlas = std::fs::read_to_string(format!("{dir}/{name}.atlas")).ok();
    let imported = import_spine_with_atlas(&text, atlas.as_deref()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let skeleton = Arc::new(Skeleton2D::new(imported.data).unwrap());
    let names: Vec<String> = skeleton.data.bones.iter().map(|b| b.name.clone()).collect();
    let mut backend = Skeleton2DPoseBackend::new(skeleton);
    let fixture: Value = serde_json::from_str(&text).unwrap();
    if let Some(skins) = fixture["oracleSkins"].as_array() {
        let skins: Vec<&str> = skins.iter().map(|s| s.as_str().unwrap()).collect();
        assert!(backend.set_skins_by_name(&skins).is_empty());
    }
    // Page sizes: Spine's texture coordinates are 0..1 of the page, ours pixels.
    let pages: Vec<glam::Vec2> = expected["atlas"]["pages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| glam::Vec2::new(p["width"].as_f64().unwrap() as f32, p["height"].as_f64().unwrap() as f32))
        .collect();
    let mut vertices = Vec::new();
    let (mut mesh_checks, mut uv_checks, mut frame_checks) = (0, 0, 0);
    let layer = [LayerInfo::default()];
    let mut failures = Vec::new();
    let mut compared = 0;
    for pose in expected["poses"].as_array().unwrap() {
        let animation = pose["animation"].as_str().unwrap();
        let time = pose["time"].as_f64().unwrap() as f32;
        let clip = backend.resolve_clip(animation).unwrap();
        let sample = ClipSample { clip, time, prev_time: time, weight: 1.0, layer: 0, looped: false };
        backend.apply(&[sample], &layer);
        for (i, bone) in names.iter().enumerate() {
            // Spine reports active bones only: a skin-required bone no chosen skin lists.
            compared += 1;
            let Some(e) = pose["bones"][bone].as_array() else {
                if backend.pose.active[i] {
                    failures.push(format!("{animation} t={time} {bone}: active, spine has it inactive"));
                }
                continue;
            };
            if !backend.pose.active[i] {
                failures.push(format!("{animation} t={time} {bone}: inactive, spine has it active"));
                continue;
            }
            let e: Vec<f32> = e.iter().map(|v| v.as_f64().unwrap() as f32).collect();
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
            // Spine keeps an inactive bone's slot attachment but never draws it; we show none.
            if pose["bones"].get(&slot.bone).is_none() {
                compared += 1;
                if backend.pose.attachments[s].is_some() {
                    failures
                        .push(format!("{animation} t={time} slot {}: drawn on an inactive bone", slot.name));
                }
                continue;
            }
            let ours = backend.pose.attachments[s].map(|a| skeleton.attachments[a as usize].name.as_str());
            compared += 1;
            if ours != expected.as_str() {
                failures.push(format!(
                    "{animation} t={time} slot {}: shows {ours:?}, spine {expected}",
                    slot.name
                ));
            }
            // A sequence attachment: the frame (its region) shown.
            if let Some(frame) = pose["frames"].get(&slot.name) {
                let ours = backend.pose.attachments[s].map(|a| &skeleton.attachments[a as usize].kind);
                let region = match ours {
                    Some(
                        AttachmentKind::Region { region, .. }
                        | AttachmentKind::Mesh { region, .. }
                        | AttachmentKind::LinkedMesh { region, .. },
                    ) => region.as_ref(),
                    _ => None,
                };
                let ours = match region {
                    Some(RegionRef::Named(n)) => Some(n.as_str()),
                    _ => None,
                };
                compared += 1;
                frame_checks += 1;
                if ours != frame.as_str() {
                    failures.push(format!(
                        "{animation} t={time} slot {}: shows frame {ours:?}, spine {frame}",
                        slot.name
                    ));
                }
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
            // The two-colour tint's dark colour (black for slots without one).
            let dark: Vec<f32> = pose["darks"]
                .get(&slot.name)
                .and_then(|d| d.as_array())
                .map_or(vec![0.0; 3], |d| d.iter().map(|v| v.as_f64().unwrap() as f32).collect());
            compared += 1;
            if (0..3).any(|k| (c[4 + k] - dark[k]).abs() > 1.0 / 255.0) {
                failures.push(format!(
                    "{animation} t={time} slot {} dark {:?}, spine {dark:?}",
                    slot.name,
                    &c[4..]
                ));
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
            if pose["bones"].get(&backend.skeleton().data.slots[s].bone).is_none() {
                continue; // an inactive bone's slot: checked above to draw nothing
            }
            let Some(a) = backend.pose.attachments[s] else {
                failures.push(format!("{animation} t={time} slot {slot}: no attachment shows"));
                continue;
            };
            let world = backend.pose.world[backend.skeleton().slot_bones[s] as usize];
            let ours: Vec<glam::Vec2> =
                animgraph_2d::render::attachment_corners(backend.skeleton(), a as usize)
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
        // Meshes and paths: every deformed world vertex within PX, in order.
        let vertex_lists = pose["meshes"].as_object().into_iter().chain(pose["paths"].as_object()).flatten();
        for (slot, expected_vertices) in vertex_lists {
            let skeleton = backend.skeleton();
            let s = skeleton.data.slots.iter().position(|x| &x.name == slot).unwrap();
            let Some(a) = backend.pose.attachments[s] else {
                failures.push(format!("{animation} t={time} slot {slot}: no mesh shows"));
                continue;
            };
            vertices.clear();
            vertices.resize(skeleton.geometry[a as usize].vertices.len(), glam::Vec2::ZERO);
            skeleton.world_vertices(&backend.pose, s, a as usize, &mut vertices);
            let e: Vec<f32> =
                expected_vertices.as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
            compared += 1;
            mesh_checks += 1;
            if e.len() != 2 * vertices.len() {
                failures.push(format!(
                    "{animation} t={time} mesh {slot}: {} vertices, spine {}",
                    vertices.len(),
                    e.len() / 2
                ));
                continue;
            }
            for (k, v) in vertices.iter().enumerate() {
                let ours = glam::Vec2::new(v.x, -v.y);
                let spine = glam::Vec2::new(e[2 * k], e[2 * k + 1]);
                if ours.distance(spine) > PX {
                    failures.push(format!(
                        "{animation} t={time} mesh {slot} vertex {k}: ours {ours} spine {spine}"
                    ));
                }
            }
        }
        // Texture coordinates (fixtures with an atlas): each of Spine's has one of ours within a
        // 1000th of a pixel... of the page, as fractions.
        for (slot, expected_uvs) in pose["uvs"].as_object().into_iter().flatten() {
            let skeleton = backend.skeleton();
            let s = skeleton.data.slots.iter().position(|x| &x.name == slot).unwrap();
            let Some(a) = backend.pose.attachments[s] else { continue };
            let g = &skeleton.geometry[a as usize];
            let page = pages[g.page.unwrap() as usize];
            let ours: Vec<glam::Vec2> = g.uvs.iter().map(|uv| *uv / page).collect();
            let e: Vec<f32> =
                expected_uvs.as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
            let is_mesh = pose["meshes"].get(slot).is_some();
            for k in 0..e.len() / 2 {
                let spine = glam::Vec2::new(e[2 * k], e[2 * k + 1]);
                compared += 1;
                uv_checks += 1;
                // Meshes in vertex order; a region's corners in any order (Spine lists them from
                // the bottom-left, we from the top-left).
                let off = if is_mesh {
                    ours.get(k).map_or(f32::INFINITY, |o| o.distance(spine))
                } else {
                    ours.iter().map(|o| o.distance(spine)).fold(f32::INFINITY, f32::min)
                };
                if off > 1e-5 {
                    failures.push(format!(
                        "{animation} t={time} slot {slot} uv {k}: spine {spine}, ours {ours:?}"
                    ));
                }
            }
            // A region's corners and their texture coordinates pair up as Spine's do.
            if !is_mesh {
                let corners: Vec<glam::Vec2> = pose["regions"][slot]
                    .as_array()
                    .unwrap()
                    .chunks(2)
                    .map(|c| glam::Vec2::new(c[0].as_f64().unwrap() as f32, c[1].as_f64().unwrap() as f32))
                    .collect();
                let world = backend.pose.world[skeleton.slot_bones[s] as usize];
                if let crate_vertices @ animgraph_2d::Vertices::Rigid(local) = &g.vertices {
                    let _ = crate_vertices;
                    for (k, corner) in corners.iter().enumerate() {
                        let spine_uv = glam::Vec2::new(e[2 * k], e[2 * k + 1]);
                        let i = ours.iter().position(|o| o.distance(spine_uv) < 1e-5);
                        let ok = i.is_some_and(|i| {
                            let p = world.transform_point2(local[i]);
                            glam::Vec2::new(p.x, -p.y).distance(*corner) < PX
                        });
                        if !ok {
                            failures.push(format!("{animation} t={time} slot {slot}: corner {k} is not where its texture coordinate is"));
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 0);
    let has = |key: &str| {
        expected["poses"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p[key].as_object().is_some_and(|m| !m.is_empty()))
    };
    assert_eq!(has("meshes") || has("paths"), mesh_checks > 0, "{name}: meshes compared {mesh_checks}");
    assert_eq!(has("uvs"), uv_checks > 0, "{name}: texture coordinates compared {uv_checks}");
    assert_eq!(has("frames"), frame_checks > 0, "{name}: sequence frames compared {frame_checks}");
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

#[test]
fn two_colour_tint_and_its_rgba2_and_rgb2_timelines_match_spine() {
    check("dark-tint");
}

#[test]
fn weighted_meshes_deform_and_atlas_regions_match_spine() {
    check("mesh-deform");
}

#[test]
fn combined_skins_and_linked_meshes_match_spine() {
    check("skins");
}

#[test]
fn transform_constraints_in_every_mode_match_spine() {
    check("transform");
}

#[test]
fn path_constraints_in_every_mode_and_constraint_timelines_match_spine() {
    check("path");
}

#[test]
fn sequences_in_every_mode_match_spine() {
    check("sequence");
}

#[test]
fn curves_that_swing_on_flat_segments_or_reach_outside_their_segment_match_spine() {
    check("curves");
}

#[test]
fn skin_required_bones_and_constraints_follow_the_chosen_skins_as_in_spine() {
    check("skin-required");
    check("skin-required-default");
}
