//! The shared layering conformance suite on the 3D backend (rotations about z), and 3D-specific
//! quaternion edge cases.

use std::sync::Arc;

use animgraph_3d::skeleton::{Channel, Clip3D, Interpolation, Property};
use animgraph_3d::{Skeleton3D, Skeleton3DPoseBackend};
use animgraph_runtime::{ClipBlend, ClipSample, LayerInfo, PoseBackend};
use animgraph_test_support::conformance::{self, RigChannel};
use glam::{Mat4, Quat, Vec3, Vec4};

fn constant(joint: u16, property: Property, value: Vec4, duration: f32) -> Channel {
    Channel {
        joint,
        property,
        interpolation: Interpolation::Linear,
        times: vec![0.0, duration],
        values: vec![value, value],
    }
}

fn rig() -> Skeleton3D {
    let (bones, clips) = conformance::rig();
    let rest = bones
        .iter()
        .map(|b| (Vec3::new(b.x, 0.0, 0.0), Quat::from_rotation_z(b.rotation.to_radians()), Vec3::ONE))
        .collect();
    let clips = clips
        .into_iter()
        .map(|c| Clip3D {
            name: c.name.into(),
            duration: c.duration,
            channels: c
                .keys
                .iter()
                .map(|(b, channel, value)| match channel {
                    RigChannel::TranslateX => {
                        let rest_y = 0.0;
                        constant(
                            *b as u16,
                            Property::Translation,
                            Vec4::new(*value, rest_y, 0.0, 0.0),
                            c.duration,
                        )
                    }
                    RigChannel::Rotation => constant(
                        *b as u16,
                        Property::Rotation,
                        Vec4::from(Quat::from_rotation_z(value.to_radians())),
                        c.duration,
                    ),
                })
                .collect(),
            ..Default::default()
        })
        .collect();
    Skeleton3D::new(
        bones.iter().map(|b| b.name.to_string()).collect(),
        bones.iter().map(|b| b.parent.map(|p| p as u16)).collect(),
        rest,
        Mat4::IDENTITY,
        clips,
        None,
    )
}

#[test]
fn the_3d_backend_passes_the_shared_conformance_suite() {
    let skeleton = Arc::new(rig());
    let failures = conformance::run(
        || Skeleton3DPoseBackend::new(Arc::clone(&skeleton)),
        |backend, bone, channel| match channel {
            RigChannel::TranslateX => backend.pose.translations[bone].x,
            // Rotation about z (the suite's rig turns only about z).
            RigChannel::Rotation => {
                let q = backend.pose.rotations[bone];
                (2.0 * q.z.atan2(q.w)).to_degrees()
            }
        },
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn layer(blend: ClipBlend, weight: f32) -> LayerInfo {
    LayerInfo { blend, weight, ..LayerInfo::default() }
}

fn spin_rig(rotations: &[(&str, Quat)]) -> Arc<Skeleton3D> {
    let clips = rotations
        .iter()
        .map(|(name, q)| Clip3D {
            name: name.to_string(),
            duration: 1.0,
            channels: vec![constant(0, Property::Rotation, Vec4::from(*q), 1.0)],
            ..Default::default()
        })
        .collect();
    Arc::new(Skeleton3D::new(
        vec!["j".into()],
        vec![None],
        vec![(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE)],
        Mat4::IDENTITY,
        clips,
        None,
    ))
}

fn blend(backend: &mut Skeleton3DPoseBackend, samples: &[(&str, f32)]) -> Quat {
    let s: Vec<ClipSample> = samples
        .iter()
        .map(|(c, w)| ClipSample {
            clip: backend.resolve_clip(c).unwrap(),
            time: 0.5,
            prev_time: 0.5,
            weight: *w,
            layer: 0,
            looped: false,
        })
        .collect();
    backend.apply(&s, &[layer(ClipBlend::Replace, 1.0)]);
    backend.pose.rotations[0]
}

#[test]
fn opposite_hemisphere_quaternions_blend_as_the_same_rotation() {
    // q and -q are the same rotation: blending them must not cancel out.
    let q = Quat::from_rotation_y(1.0);
    let mut b = Skeleton3DPoseBackend::new(spin_rig(&[("a", q), ("b", -q)]));
    let r = blend(&mut b, &[("a", 0.5), ("b", 0.5)]);
    assert!(r.angle_between(q) < 1e-4, "{r} vs {q}");
    assert!(r.is_normalized());
}

#[test]
fn two_inputs_slerp_and_near_parallel_inputs_stay_stable() {
    let (a, c) = (Quat::from_rotation_x(0.0), Quat::from_rotation_x(1.6));
    let mut b =
        Skeleton3DPoseBackend::new(spin_rig(&[("a", a), ("c", c), ("n", Quat::from_rotation_x(1e-7))]));
    let r = blend(&mut b, &[("a", 0.25), ("c", 0.75)]);
    assert!(r.angle_between(a.slerp(c, 0.75)) < 1e-5, "slerp for two inputs");
    let r = blend(&mut b, &[("a", 0.5), ("n", 0.5)]);
    assert!(r.is_normalized() && r.angle_between(a) < 1e-6, "near-parallel inputs: {r}");
}

#[test]
fn zero_weights_leave_the_pose_at_rest_and_partial_weights_slerp_from_it() {
    let q = Quat::from_rotation_z(1.0);
    let mut b = Skeleton3DPoseBackend::new(spin_rig(&[("a", q)]));
    assert_eq!(blend(&mut b, &[("a", 0.0)]), Quat::IDENTITY);
    let r = blend(&mut b, &[("a", 0.5)]);
    assert!(r.angle_between(Quat::IDENTITY.slerp(q, 0.5)) < 1e-5);
}

#[test]
fn three_inputs_blend_as_a_normalised_weighted_sum() {
    let qs = [Quat::from_rotation_z(0.2), Quat::from_rotation_z(0.4), Quat::from_rotation_z(0.6)];
    let mut b = Skeleton3DPoseBackend::new(spin_rig(&[("a", qs[0]), ("b", qs[1]), ("c", qs[2])]));
    let r = blend(&mut b, &[("a", 1.0 / 3.0), ("b", 1.0 / 3.0), ("c", 1.0 / 3.0)]);
    assert!(r.angle_between(qs[1]) < 1e-4, "symmetric rotations about one axis average to the middle: {r}");
}

#[test]
fn linear_rotation_keys_stay_within_1e4_of_slerp() {
    // Keys a quarter turn apart (far more than a keyframed clip's step) still agree closely.
    let (a, b) = (Quat::from_rotation_y(0.1), Quat::from_rotation_y(0.1 + std::f32::consts::FRAC_PI_4));
    let channel = Channel {
        joint: 0,
        property: Property::Rotation,
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0],
        values: vec![Vec4::from(a), Vec4::from(b)],
    };
    for i in 0..=20 {
        let u = i as f32 / 20.0;
        let q = Quat::from_vec4(channel.sample(u));
        assert!((Vec4::from(q) - Vec4::from(a.slerp(b, u))).length() < 0.01, "u {u}");
        if i == 10 {
            assert!((Vec4::from(q) - Vec4::from(a.slerp(b, u))).length() < 1e-6, "equal at the midpoint");
        }
    }
    // At keyframe spacing (about 3 degrees) the components differ by less than 1e-4.
    // (Compared by components: f32 angle_between has ~3e-4 rad of noise near zero.)
    let c = Quat::from_rotation_y(0.1 + 0.05);
    let close = Channel { values: vec![Vec4::from(a), Vec4::from(c)], ..channel };
    for i in 0..=20 {
        let u = i as f32 / 20.0;
        assert!((close.sample(u) - Vec4::from(a.slerp(c, u))).length() < 1e-4);
    }
}
