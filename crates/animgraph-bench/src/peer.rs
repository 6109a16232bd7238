//! The side-by-side comparison with `fyrox-animation` 1.0.1 (feature `peer`).
//!
//! Both sides get the same work, built from one [`Synthetic`] data set:
//!
//! | | both sides |
//! |---|---|
//! | skeleton | RobotExpressive's 43 joints (hierarchy and rest pose from the glTF) |
//! | clips | idle 2.0 s, walk 1.0 s, run 0.7 s, jump 0.8 s, wave 1.5 s, every joint keyed on translation, rotation and scale at 30 keys per second, linear |
//! | base layer | locomotion blending idle/walk/run by speed (0, 1.5, 4), speed alternating 0.75 and 2.75 (two clips at 50/50) every 2 s; a jump every 3 s with a 0.1 s mix in and back after 0.72 s |
//! | wave layer | the wave clip on the upper body (both shoulders and the neck with their children), weight 1 |
//! | output | local transforms and world matrices of all 43 joints |
//!
//! How each side expresses it: ours is an `.mres`-equivalent [`AnimationGraph`] (a 1D blend
//! space, `*` -> Jump on a trigger, Jump -> Move on ExitTime 0.9, a masked layer) on a
//! `Skeleton3DPoseBackend`. Fyrox's is a `Machine` with a `BlendAnimations` node whose weights are
//! parameters, Jump states and transitions on rule parameters, and a second layer with a
//! `LayerMask`; its pose is read out of its hash map per joint and turned into the same world
//! matrices with the same glam code.
//!
//! What is not even: fyrox has no 1D blend space or exit time, so the driver computes the three
//! locomotion weights and the landing rule for it (work we do inside the graph, so this favours
//! fyrox slightly); fyrox samples rotations through four independent curves and normalises
//! (equivalent to our normalised lerp between quaternion keys); fyrox's rules are bools the
//! driver sets and clears, where ours is a trigger.

use std::sync::Arc;

use animgraph_3d::Skeleton3DPoseBackend;
use animgraph_3d::skeleton::{Channel, Clip3D, Interpolation, Property, Skeleton3D};
use animgraph_runtime::animated::Animated;
use animgraph_runtime::graph::{
    BlendSpace1D, ClipState, ConditionOp, GraphCondition, GraphLayer, GraphMachine, GraphParameter,
    GraphState, GraphTransition, ParamId, ParameterType, StateKind,
};
use animgraph_runtime::{AnimationGraph, BoneMask};
use fyrox_animation::core::algebra::{UnitQuaternion, Vector3};
use fyrox_animation::core::math::curve::{Curve, CurveKey, CurveKeyKind};
use fyrox_animation::core::pool::{ErasedHandle, Handle};
use fyrox_animation::machine::{
    BlendAnimations, BlendPose, LayerMask, Machine, MachineLayer, Parameter, PlayAnimation, PoseNode,
    PoseWeight, State, Transition,
};
use fyrox_animation::track::Track;
use fyrox_animation::value::{TrackValue, ValueBinding};
use fyrox_animation::{Animation, AnimationContainer, AnimationTracksData};
use glam::{Affine3A, Quat, Vec3};

/// Keys per second on every channel.
pub const KEYS_PER_SECOND: f32 = 30.0;

/// The shared data: a hierarchy, a rest pose and clips.
pub struct Synthetic {
    /// Joint names.
    pub names: Vec<String>,
    /// Parents (parents first).
    pub parents: Vec<Option<u16>>,
    /// Rest translation, rotation, scale per joint.
    pub rest: Vec<(Vec3, Quat, Vec3)>,
    /// `(name, seconds, looping, per joint: translation, rotation, scale keys)`.
    pub clips: Vec<SyntheticClip>,
    /// Joints in the wave layer's mask (upper body).
    pub upper_body: Vec<usize>,
}

/// One clip's keys.
pub struct SyntheticClip {
    /// Name.
    pub name: &'static str,
    /// Seconds.
    pub length: f32,
    /// Loops.
    pub looping: bool,
    /// Key times (shared by every channel).
    pub times: Vec<f32>,
    /// Per joint, per key: translation, rotation, scale.
    pub keys: Vec<Vec<(Vec3, Quat, Vec3)>>,
}

/// Builds the data from RobotExpressive's hierarchy.
pub fn synthetic() -> Synthetic {
    let robot = animgraph_3d::import::import_file(crate::asset("characters/robot/RobotExpressive.glb"))
        .expect("robot")
        .skeleton;
    let n = robot.bone_count();
    let rest: Vec<(Vec3, Quat, Vec3)> =
        (0..n).map(|j| (robot.setup_translation[j], robot.setup_rotation[j], robot.setup_scale[j])).collect();
    let clips = [
        ("idle", 2.0, true),
        ("walk", 1.0, true),
        ("run", 0.7, true),
        ("jump", 0.8, false),
        ("wave", 1.5, true),
    ]
    .into_iter()
    .enumerate()
    .map(|(c, (name, length, looping))| {
        let count = (length * KEYS_PER_SECOND).round() as usize + 1;
        let times: Vec<f32> = (0..count).map(|k| k as f32 / KEYS_PER_SECOND).collect();
        let keys = (0..n)
            .map(|j| {
                times
                    .iter()
                    .map(|&t| {
                        let phase = t / length * std::f32::consts::TAU + j as f32 * 0.37 + c as f32;
                        let (t0, r0, s0) = rest[j];
                        let wobble = Quat::from_euler(
                            glam::EulerRot::XYZ,
                            0.3 * phase.sin(),
                            0.2 * phase.cos(),
                            0.1 * (2.0 * phase).sin(),
                        );
                        (
                            t0 + Vec3::new(0.0, 0.01 * phase.sin(), 0.0),
                            (r0 * wobble).normalize(),
                            s0 * (1.0 + 0.02 * phase.cos()),
                        )
                    })
                    .collect()
            })
            .collect();
        SyntheticClip { name, length, looping, times, keys }
    })
    .collect();
    let roots: Vec<usize> =
        ["Shoulder.L", "Shoulder.R", "Neck"].iter().filter_map(|name| robot.bone_index(name)).collect();
    let upper_body = (0..n)
        .filter(|&j| {
            let mut at = Some(j);
            while let Some(a) = at {
                if roots.contains(&a) {
                    return true;
                }
                at = robot.parents[a].map(usize::from);
            }
            false
        })
        .collect();
    Synthetic { names: robot.names.clone(), parents: robot.parents.clone(), rest, clips, upper_body }
}

/// The inputs of frame `frame`: speed, whether the jump fires, whether the jump has landed.
pub fn inputs(frame: u32) -> (f32, bool, bool) {
    let speed = if (frame / 120) % 2 == 0 { 0.75 } else { 2.75 };
    let since_jump = frame % 180;
    (speed, since_jump == 0 && frame > 0, since_jump == 43)
}

/// Our side: the graph on a `Skeleton3DPoseBackend` over the synthetic skeleton.
pub struct Ours {
    /// The character.
    pub character: Animated<Skeleton3DPoseBackend>,
    speed: ParamId,
    jump: ParamId,
    frame: u32,
}

fn graph(data: &Synthetic) -> AnimationGraph {
    let p = |name: &str, kind| GraphParameter { name: name.into(), kind, default: 0.0, latch: false };
    let mut move_ = GraphState::new(
        "Move",
        StateKind::BlendSpace1D(BlendSpace1D {
            parameter: "speed".into(),
            clips: vec!["idle".into(), "walk".into(), "run".into()],
            positions: vec![0.0, 1.5, 4.0],
            sync_time: false,
            sync_markers: false,
        }),
    );
    move_.editor_position = [0.0, 0.0];
    let jump = GraphState::new("Jump", StateKind::Clip(ClipState { clip: "jump".into(), looping: false }));
    let base = GraphMachine {
        states: vec![move_, jump],
        transitions: vec![
            GraphTransition {
                from: "*".into(),
                to: "Jump".into(),
                conditions: vec![GraphCondition {
                    parameter: "jump".into(),
                    op: ConditionOp::Triggered,
                    value: 0.0,
                }],
                duration: 0.1,
                ..Default::default()
            },
            GraphTransition {
                from: "Jump".into(),
                to: "Move".into(),
                exit_time: 0.9,
                duration: 0.1,
                ..Default::default()
            },
        ],
        entry: "Move".into(),
    };
    let wave = GraphMachine {
        states: vec![GraphState::new(
            "Wave",
            StateKind::Clip(ClipState { clip: "wave".into(), looping: true }),
        )],
        transitions: vec![],
        entry: "Wave".into(),
    };
    let bones = data.upper_body.iter().map(|&j| data.names[j].clone()).collect();
    AnimationGraph {
        uid: "res_peer".into(),
        parameters: vec![p("speed", ParameterType::Float), p("jump", ParameterType::Trigger)],
        layers: vec![
            GraphLayer { machine: base, ..Default::default() },
            GraphLayer {
                name: "Wave".into(),
                machine: wave,
                mask: Some(BoneMask::new(bones, false)),
                ..Default::default()
            },
        ],
        ..Default::default()
    }
}

impl Ours {
    /// Builds our side.
    pub fn new(data: &Synthetic) -> Ours {
        let clips = data
            .clips
            .iter()
            .map(|c| {
                let mut channels = Vec::new();
                for (j, keys) in c.keys.iter().enumerate() {
                    for property in [Property::Translation, Property::Rotation, Property::Scale] {
                        let values = keys
                            .iter()
                            .map(|(t, r, s)| match property {
                                Property::Translation => t.extend(0.0),
                                Property::Rotation => glam::Vec4::from(*r),
                                Property::Scale => s.extend(0.0),
                            })
                            .collect();
                        channels.push(Channel {
                            joint: j as u16,
                            property,
                            interpolation: Interpolation::Linear,
                            times: c.times.clone(),
                            values,
                        });
                    }
                }
                Clip3D { name: c.name.into(), duration: c.length, channels, ..Default::default() }
            })
            .collect();
        let skeleton = Skeleton3D::new(
            data.names.clone(),
            data.parents.clone(),
            data.rest.clone(),
            glam::Mat4::IDENTITY,
            clips,
            None,
        );
        let character = Animated::new(Skeleton3DPoseBackend::new(Arc::new(skeleton)), Some(&graph(data)), 0)
            .expect("binds");
        let player = character.player().expect("a graph");
        let (speed, jump) = (player.find_parameter("speed").unwrap(), player.find_parameter("jump").unwrap());
        Ours { character, speed, jump, frame: 0 }
    }

    /// One frame: inputs, advance, apply (local pose and world matrices).
    pub fn step(&mut self) {
        let (speed, jump, _) = inputs(self.frame);
        let player = self.character.player_mut().expect("a graph");
        let _ = player.set_float(self.speed, speed);
        if jump {
            let _ = player.fire(self.jump);
        }
        self.character.update(1.0 / 60.0);
        self.frame += 1;
    }

    /// A joint's world matrix.
    pub fn world(&self, joint: usize) -> Affine3A {
        self.character.backend.pose.world[joint]
    }
}

/// Fyrox's side.
pub struct Fyrox {
    machine: Machine<ErasedHandle>,
    animations: AnimationContainer<ErasedHandle>,
    joints: Vec<ErasedHandle>,
    parents: Vec<Option<u16>>,
    rest: Vec<(Vec3, Quat, Vec3)>,
    /// World matrices of the last frame.
    pub world: Vec<Affine3A>,
    frame: u32,
}

fn curve(times: &[f32], values: impl Iterator<Item = f32>) -> Curve {
    let mut curve = Curve::default();
    for (&t, v) in times.iter().zip(values) {
        curve.add_key(CurveKey::new(t, v, CurveKeyKind::Linear));
    }
    curve
}

impl Fyrox {
    /// Builds fyrox's side from the same data.
    pub fn new(data: &Synthetic) -> Fyrox {
        let joints: Vec<ErasedHandle> =
            (0..data.names.len()).map(|j| ErasedHandle::new(j as u32 + 1, 1)).collect();
        let mut animations = AnimationContainer::new();
        let mut handles = Vec::new();
        for clip in &data.clips {
            let mut animation = Animation::default();
            animation.set_name(clip.name);
            animation.set_tracks_data(fyrox_resource::Resource::new_embedded(AnimationTracksData::default()));
            for (j, keys) in clip.keys.iter().enumerate() {
                let mut position = Track::new_position();
                let mut rotation = Track::new(
                    fyrox_animation::container::TrackDataContainer::new(
                        fyrox_animation::container::TrackValueKind::UnitQuaternion,
                    ),
                    ValueBinding::Rotation,
                );
                let mut scale = Track::new_scale();
                for axis in 0..3 {
                    position.data_container_mut().curves_mut()[axis] =
                        curve(&clip.times, keys.iter().map(|k| k.0[axis]));
                    scale.data_container_mut().curves_mut()[axis] =
                        curve(&clip.times, keys.iter().map(|k| k.2[axis]));
                }
                for axis in 0..4 {
                    rotation.data_container_mut().curves_mut()[axis] =
                        curve(&clip.times, keys.iter().map(|k| glam::Vec4::from(k.1)[axis]));
                }
                for track in [position, rotation, scale] {
                    animation
                        .add_track_with_binding(fyrox_animation::track::TrackBinding::new(joints[j]), track);
                }
            }
            animation.set_time_slice(0.0..clip.length);
            animation.set_loop(clip.looping);
            handles.push(animations.add(animation));
        }
        let [idle, walk, run, jump, wave] = [0, 1, 2, 3, 4].map(|i| handles[i]);
        let mut machine = Machine::new();
        machine
            .set_parameter("idle_w", Parameter::Weight(1.0))
            .set_parameter("walk_w", Parameter::Weight(0.0))
            .set_parameter("run_w", Parameter::Weight(0.0))
            .set_parameter("jump", Parameter::Rule(false))
            .set_parameter("land", Parameter::Rule(false));
        let base = &mut machine.layers_mut()[0];
        let play = |layer: &mut MachineLayer<ErasedHandle>, a: Handle<Animation<ErasedHandle>>| {
            layer.add_node(PoseNode::PlayAnimation(PlayAnimation::new(a)))
        };
        let (i, w, r) = (play(base, idle), play(base, walk), play(base, run));
        let blend = base.add_node(PoseNode::BlendAnimations(BlendAnimations::new(vec![
            BlendPose::new(PoseWeight::Parameter("idle_w".into()), i),
            BlendPose::new(PoseWeight::Parameter("walk_w".into()), w),
            BlendPose::new(PoseWeight::Parameter("run_w".into()), r),
        ])));
        let move_state = base.add_state(State::new("Move", blend));
        let jump_node = play(base, jump);
        let jump_state = base.add_state(State::new("Jump", jump_node));
        base.set_entry_state(move_state);
        base.add_transition(Transition::new("Move->Jump", move_state, jump_state, 0.1, "jump"));
        base.add_transition(Transition::new("Jump->Move", jump_state, move_state, 0.1, "land"));
        let mut upper = MachineLayer::new();
        let wave_node = play(&mut upper, wave);
        let wave_state = upper.add_state(State::new("Wave", wave_node));
        upper.set_entry_state(wave_state);
        let mut mask = LayerMask::default();
        for (j, handle) in joints.iter().enumerate() {
            if !data.upper_body.contains(&j) {
                mask.add(*handle); // fyrox's mask lists the joints a layer must not animate
            }
        }
        upper.set_mask(mask);
        upper.set_weight(1.0);
        machine.add_layer(upper);
        Fyrox {
            machine,
            animations,
            joints,
            parents: data.parents.clone(),
            rest: data.rest.clone(),
            world: vec![Affine3A::IDENTITY; data.names.len()],
            frame: 0,
        }
    }

    /// One frame: inputs (the driver computes the 1D weights and the landing rule), evaluate,
    /// then the local pose and world matrices out of fyrox's pose.
    pub fn step(&mut self) {
        let (speed, jump, land) = inputs(self.frame);
        let positions = [0.0f32, 1.5, 4.0];
        let mut weights = [0.0f32; 3];
        let k = positions.partition_point(|&p| p <= speed).clamp(1, 2);
        let u = ((speed - positions[k - 1]) / (positions[k] - positions[k - 1])).clamp(0.0, 1.0);
        weights[k - 1] = 1.0 - u;
        weights[k] = u;
        self.machine
            .set_parameter("idle_w", Parameter::Weight(weights[0]))
            .set_parameter("walk_w", Parameter::Weight(weights[1]))
            .set_parameter("run_w", Parameter::Weight(weights[2]))
            .set_parameter("jump", Parameter::Rule(jump))
            .set_parameter("land", Parameter::Rule(land));
        let pose = self.machine.evaluate_pose(&mut self.animations, 1.0 / 60.0);
        for (j, handle) in self.joints.iter().enumerate() {
            let (mut t, mut r, mut s) = self.rest[j];
            if let Some(node) = pose.poses().get(handle) {
                for value in node.values.values.iter() {
                    match (&value.binding, &value.value) {
                        (ValueBinding::Position, TrackValue::Vector3(v)) => t = Vec3::new(v.x, v.y, v.z),
                        (ValueBinding::Scale, TrackValue::Vector3(v)) => s = Vec3::new(v.x, v.y, v.z),
                        (ValueBinding::Rotation, TrackValue::UnitQuaternion(q)) => r = quat(q),
                        _ => {}
                    }
                }
            }
            let local = Affine3A::from_scale_rotation_translation(s, r, t);
            self.world[j] = match self.parents[j] {
                Some(p) => self.world[p as usize] * local,
                None => local,
            };
        }
        self.frame += 1;
    }
}

fn quat(q: &UnitQuaternion<f32>) -> Quat {
    let c = q.coords;
    Quat::from_xyzw(c.x, c.y, c.z, c.w)
}

/// Keeps `Vector3` in the public items' types (fyrox's algebra) from warning unused.
#[allow(dead_code)]
fn _types(_: Vector3<f32>) {}

/// The largest distance between the two sides' joint world positions over the first `frames`
/// frames (before the first jump, both are blending the same clips with the same weights), in
/// the skeleton's units: evidence that they compute the same motion.
pub fn agreement(data: &Synthetic, frames: u32) -> f32 {
    let (mut ours, mut peer) = (Ours::new(data), Fyrox::new(data));
    let mut worst = 0.0f32;
    for _ in 0..frames {
        ours.step();
        peer.step();
        for j in 0..data.names.len() {
            let d = Vec3::from(ours.world(j).translation).distance(Vec3::from(peer.world[j].translation));
            worst = worst.max(d);
        }
    }
    worst
}

/// Times both sides in one run, interleaved so machine noise hits them alike.
pub fn compare(budget: std::time::Duration, allocations: &dyn Fn() -> u64) -> Vec<crate::quick::Row> {
    use crate::quick::{Row, nanos_per_call};
    let data = synthetic();
    let (mut ours, mut peer) = (Ours::new(&data), Fyrox::new(&data));
    for _ in 0..120 {
        ours.step();
        peer.step();
    }
    let slice = budget / 4;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        a.push(nanos_per_call(slice, || ours.step()));
        b.push(nanos_per_call(slice, || peer.step()));
    }
    let (ours_ns, peer_ns) =
        (a.iter().cloned().fold(f64::MAX, f64::min), b.iter().cloned().fold(f64::MAX, f64::min));
    let count = |step: &mut dyn FnMut()| {
        let before = allocations();
        for _ in 0..600 {
            step();
        }
        (allocations() - before) as f64 / 600.0
    };
    let ours_allocs = count(&mut || ours.step());
    let peer_allocs = count(&mut || peer.step());
    let agree = agreement(&data, 170);
    let row = |s: &str, v: f64, u: &str, n: &str| Row {
        scenario: s.into(),
        value: v,
        unit: u.into(),
        note: n.into(),
    };
    vec![
        row(
            "peer: animgraph, same work",
            ours_ns / 1000.0,
            "us",
            "per character-frame: 43 joints, 2 layers, 30 keys/s on every channel",
        ),
        row("peer: fyrox-animation 1.0.1, same work", peer_ns / 1000.0, "us", "per character-frame"),
        row("peer: fyrox / animgraph", peer_ns / ours_ns, "x", "target >= 60"),
        row("peer: animgraph allocations", ours_allocs, "per frame", ""),
        row("peer: fyrox-animation allocations", peer_allocs, "per frame", ""),
        row(
            "peer: largest joint position difference",
            agree as f64,
            "units",
            "over 170 frames of the same blend: both compute the same motion",
        ),
    ]
}
