//! The layering-contract conformance suite every [`PoseBackend`] runs (2D and 3D alike).
//!
//! A backend builds the neutral [`rig`] in its own skeleton type and calls [`run`] with a reader
//! of a bone's translation x and rotation (degrees, about the 2D plane or the 3D z axis): every case in [`cases`] resolves its clips and masks
//! through the backend, applies its samples and layers, and compares the pose with the expected
//! values. Cases are named for what they pin down, so a failure reads as the broken rule.

use animgraph_runtime::{BoneMask, ClipBlend, ClipSample, LayerInfo, PoseBackend};

/// A bone of the rig: name, parent index, setup translation x, setup rotation (degrees).
#[derive(Clone, Copy, Debug)]
pub struct RigBone {
    /// Name.
    pub name: &'static str,
    /// Parent (earlier in the list).
    pub parent: Option<usize>,
    /// Setup translation x.
    pub x: f32,
    /// Setup rotation, degrees.
    pub rotation: f32,
}

/// A channel the rig's clips key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RigChannel {
    /// Translation x.
    TranslateX,
    /// Rotation (degrees).
    Rotation,
}

/// A constant-valued clip of the rig (keys at 0 and at its duration).
#[derive(Clone, Debug)]
pub struct RigClip {
    /// Name.
    pub name: &'static str,
    /// Seconds.
    pub duration: f32,
    /// `(bone, channel, value)`: the value held for the whole clip; unlisted channels are unkeyed.
    pub keys: Vec<(usize, RigChannel, f32)>,
}

/// The rig: `root` (x 0), `arm` under root (x 10), `hand` under arm (x 5); rotations 0.
pub fn rig() -> (Vec<RigBone>, Vec<RigClip>) {
    let bones = vec![
        RigBone { name: "root", parent: None, x: 0.0, rotation: 0.0 },
        RigBone { name: "arm", parent: Some(0), x: 10.0, rotation: 0.0 },
        RigBone { name: "hand", parent: Some(1), x: 5.0, rotation: 0.0 },
    ];
    use RigChannel::*;
    let clip = |name, keys| RigClip { name, duration: 1.0, keys };
    let clips = vec![
        clip("slide", vec![(0, TranslateX, 100.0)]),
        clip("slide_half", vec![(0, TranslateX, 50.0)]),
        clip("turn", vec![(1, Rotation, 90.0)]),
        clip("lift", vec![(1, Rotation, 170.0)]),
        clip("lower", vec![(1, Rotation, -170.0)]),
        clip("all", vec![(0, TranslateX, 50.0), (1, Rotation, 60.0), (2, TranslateX, 15.0)]),
    ];
    (bones, clips)
}

/// A layer of a case: blend, weight, mask (bone names, include children, per-bone weights: empty
/// for all 1).
pub type CaseLayer = (ClipBlend, f32, Option<(&'static [&'static str], bool, &'static [f32])>);

/// One named case.
#[derive(Clone, Debug)]
pub struct Case {
    /// What it pins down.
    pub name: &'static str,
    /// Layers in order.
    pub layers: Vec<CaseLayer>,
    /// `(clip, weight, layer)` samples at time 0.5.
    pub samples: Vec<(&'static str, f32, u8)>,
    /// `(bone, channel, expected)`.
    pub expect: Vec<(usize, RigChannel, f32)>,
}

/// Every case.
pub fn cases() -> Vec<Case> {
    use ClipBlend::*;
    use RigChannel::*;
    let case = |name, layers, samples, expect| Case { name, layers, samples, expect };
    vec![
        case(
            "replace_full_weight",
            vec![(Replace, 1.0, None)],
            vec![("slide", 1.0, 0)],
            vec![(0, TranslateX, 100.0), (1, Rotation, 0.0)],
        ),
        case(
            "unfilled_weight_stays_at_setup_on_layer_0",
            vec![(Replace, 1.0, None)],
            vec![("slide", 0.5, 0)],
            vec![(0, TranslateX, 50.0)],
        ),
        case(
            "two_samples_blend_linearly",
            vec![(Replace, 1.0, None)],
            vec![("slide", 0.5, 0), ("slide_half", 0.5, 0)],
            vec![(0, TranslateX, 75.0)],
        ),
        case(
            "layer_0_weight_scales_from_setup",
            vec![(Replace, 0.5, None)],
            vec![("slide", 1.0, 0)],
            vec![(0, TranslateX, 50.0)],
        ),
        case(
            "rotation_blends_along_the_shortest_arc",
            vec![(Replace, 1.0, None)],
            vec![("lift", 0.5, 0), ("lower", 0.5, 0)],
            vec![(1, Rotation, 180.0)],
        ),
        case(
            "higher_replace_layer_overrides_the_pose_below",
            vec![(Replace, 1.0, None), (Replace, 1.0, None)],
            vec![("slide", 1.0, 0), ("slide_half", 1.0, 1)],
            vec![(0, TranslateX, 50.0)],
        ),
        case(
            "higher_layer_unfilled_weight_comes_from_below_not_setup",
            vec![(Replace, 1.0, None), (Replace, 1.0, None)],
            vec![("slide", 1.0, 0), ("slide_half", 0.5, 1)],
            vec![(0, TranslateX, 75.0)],
        ),
        case(
            "higher_layer_weight_lerps_over_below",
            vec![(Replace, 1.0, None), (Replace, 0.5, None)],
            vec![("slide", 1.0, 0), ("slide_half", 1.0, 1)],
            vec![(0, TranslateX, 75.0)],
        ),
        case(
            "additive_adds_value_minus_setup_times_weight",
            vec![(Replace, 1.0, None), (Additive, 0.5, None)],
            vec![("slide", 1.0, 0), ("turn", 1.0, 1)],
            vec![(0, TranslateX, 100.0), (1, Rotation, 45.0)],
        ),
        case(
            "additive_translation_adds_to_the_pose_below",
            vec![(Replace, 1.0, None), (Additive, 1.0, None)],
            vec![("slide", 1.0, 0), ("slide_half", 1.0, 1)],
            vec![(0, TranslateX, 150.0)],
        ),
        case(
            "mask_limits_a_layer_to_its_bones_and_children",
            vec![(Replace, 1.0, None), (Replace, 1.0, Some((&["arm"], true, &[])))],
            vec![("slide", 1.0, 0), ("all", 1.0, 1)],
            vec![(0, TranslateX, 100.0), (1, Rotation, 60.0), (2, TranslateX, 15.0)],
        ),
        case(
            "mask_without_children_leaves_children_below",
            vec![(Replace, 1.0, None), (Replace, 1.0, Some((&["arm"], false, &[])))],
            vec![("slide", 1.0, 0), ("all", 1.0, 1)],
            vec![(0, TranslateX, 100.0), (1, Rotation, 60.0), (2, TranslateX, 5.0)],
        ),
        case(
            "weighted_mask_scales_the_layer_per_bone",
            vec![(Replace, 1.0, None), (Replace, 1.0, Some((&["root", "arm"], true, &[0.5, 1.0])))],
            vec![("slide", 1.0, 0), ("all", 1.0, 1)],
            // root: lerp(100, 50, 0.5); arm and hand (under arm, weight 1): the layer's values.
            vec![(0, TranslateX, 75.0), (1, Rotation, 60.0), (2, TranslateX, 15.0)],
        ),
        case(
            "weighted_mask_child_takes_its_nearest_listed_ancestors_weight",
            vec![(Replace, 1.0, None), (Replace, 1.0, Some((&["root", "hand"], true, &[0.5, 0.0])))],
            vec![("slide", 1.0, 0), ("all", 1.0, 1)],
            // arm is unlisted: root's 0.5 (rotation 0 -> 60 half way); hand listed at 0 stays below.
            vec![(0, TranslateX, 75.0), (1, Rotation, 30.0), (2, TranslateX, 5.0)],
        ),
        case(
            "weighted_mask_scales_an_additive_layer",
            vec![(Replace, 1.0, None), (Additive, 1.0, Some((&["arm"], true, &[0.5])))],
            vec![("slide", 1.0, 0), ("turn", 1.0, 1)],
            vec![(0, TranslateX, 100.0), (1, Rotation, 45.0)],
        ),
        case(
            "weighted_mask_multiplies_with_the_layer_weight",
            vec![(Replace, 1.0, None), (Replace, 0.5, Some((&["root"], false, &[0.5])))],
            vec![("slide", 1.0, 0), ("slide_half", 1.0, 1)],
            // 100 + 0.25 x (50 - 100)
            vec![(0, TranslateX, 87.5)],
        ),
        case(
            "unkeyed_channels_keep_the_pose_below",
            vec![(Replace, 1.0, None), (Replace, 1.0, None)],
            vec![("turn", 1.0, 0), ("slide_half", 1.0, 1)],
            vec![(1, Rotation, 90.0), (0, TranslateX, 50.0)],
        ),
        case(
            "zero_weight_layer_changes_nothing",
            vec![(Replace, 1.0, None), (Replace, 0.0, None)],
            vec![("slide", 1.0, 0), ("slide_half", 1.0, 1)],
            vec![(0, TranslateX, 100.0)],
        ),
    ]
}

fn angle_difference(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// Runs every case on fresh backends from `make`; `read(backend, bone, channel)` reads a bone's
/// local translation x or rotation in degrees (any equivalent angle) after the case's `apply`.
/// Returns one message per failed expectation.
pub fn run<S: PoseBackend>(make: impl Fn() -> S, read: impl Fn(&S, usize, RigChannel) -> f32) -> Vec<String> {
    let mut failures = Vec::new();
    for case in cases() {
        let mut subject = make();
        let layers: Vec<LayerInfo> = case
            .layers
            .iter()
            .map(|(blend, weight, mask)| LayerInfo {
                blend: *blend,
                weight: *weight,
                mask: mask.and_then(|(bones, include_children, weights)| {
                    subject.resolve_mask(&BoneMask {
                        bones: bones.iter().map(|b| b.to_string()).collect(),
                        include_children,
                        weights: weights.to_vec(),
                    })
                }),
                event_threshold: 0.5,
                inertial: None,
            })
            .collect();
        let mut samples = Vec::new();
        for (clip, weight, layer) in &case.samples {
            match subject.resolve_clip(clip) {
                Some(id) => samples.push(ClipSample {
                    clip: id,
                    time: 0.5,
                    prev_time: 0.5,
                    weight: *weight,
                    layer: *layer,
                    looped: false,
                }),
                None => {
                    failures.push(format!("{}: the backend has no clip \"{clip}\" from the rig", case.name))
                }
            }
        }
        subject.apply(&samples, &layers);
        for (bone, channel, expected) in &case.expect {
            let (actual, wrong) = match channel {
                RigChannel::TranslateX => {
                    let v = read(&subject, *bone, RigChannel::TranslateX);
                    (v, (v - expected).abs() > 1e-3)
                }
                RigChannel::Rotation => {
                    let v = read(&subject, *bone, RigChannel::Rotation);
                    (v, angle_difference(v, *expected) > 1e-2)
                }
            };
            if wrong {
                failures
                    .push(format!("{}: bone {bone} {channel:?} is {actual}, expected {expected}", case.name));
            }
        }
    }
    failures
}
