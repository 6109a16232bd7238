//! The bound skeleton: names resolved to indices, clips compiled, the setup pose precomputed.

use animgraph_runtime::core::ClipNames;

use glam::{Affine2, Mat2, Vec2};

use crate::attachment::{Geometry, SkinId, Skins};
use crate::data::{
    AttachmentKind, Curve, IkKey, Inherit, Key, SequenceKey, SequenceMode, Skeleton2DData, SkeletonError,
};

/// Transform channels of a bone, in pose-array order.
pub const X: usize = 0;
/// Translation y.
pub const Y: usize = 1;
/// Rotation in degrees.
pub const ROTATION: usize = 2;
/// Scale x.
pub const SCALE_X: usize = 3;
/// Scale y.
pub const SCALE_Y: usize = 4;
/// Shear x in degrees.
pub const SHEAR_X: usize = 5;
/// Shear y in degrees.
pub const SHEAR_Y: usize = 6;
/// Channels per bone.
pub const CHANNELS: usize = 7;

/// Colour channels per slot: RGBA, then the dark colour's RGB (see [`SlotData::dark`]).
///
/// [`SlotData::dark`]: crate::data::SlotData::dark
pub const COLOR_CHANNELS: usize = 7;

/// A pose in struct-of-arrays form: `channels[c][bone]`, slot colours and attachments, draw
/// order, and world transforms.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    /// `channels[X][bone]`, ... (see the channel constants).
    pub channels: Channels,
    /// Per slot: the RGBA tint, then the two-colour tint's dark RGB (black without one).
    pub colors: Vec<[f32; COLOR_CHANNELS]>,
    /// Per slot: the attachment shown (index into the skeleton's attachments), resolved from
    /// `attachment_keys` through the chosen skins.
    pub attachments: Vec<Option<u16>>,
    /// Per slot: the attachment name keyed (a key of [`Skins`], the slot's names in all skins).
    pub attachment_keys: Vec<Option<u16>>,
    /// Deform offsets from the setup vertices of every deformed mesh (see
    /// [`Skeleton2D::deform_range`]).
    pub deform: Vec<f32>,
    /// Slot indices, back to front.
    pub draw_order: Vec<u16>,
    /// Per IK constraint: its mix, softness and switches now.
    pub ik: Vec<IkPose>,
    /// Constraint values that clips key and layers blend: per transform constraint its six
    /// mixes (rotate, x, y, scale x, scale y, shear y), then per path constraint its position,
    /// spacing and three mixes (rotate, x, y).
    pub mixes: Vec<f32>,
    /// Per bone: what it inherits from its parent (setup, or keyed by an inherit timeline).
    pub inherit: Vec<Inherit>,
    /// Per bone: posed (Spine's `active`: false for a skin-required bone no chosen skin lists).
    pub active: Vec<bool>,
    /// Per constraint in update order: it runs.
    pub constraint_active: Vec<bool>,
    /// Per slot: the sequence frame a clip keyed (`None`: the attachment's setup frame).
    pub sequences: Vec<Option<SequenceState>>,
    /// Scratch storage of path constraints (sized once; no allocation per frame), for skeletons
    /// that have path constraints (`None` otherwise: a crowd of characters without paths keeps
    /// none of it).
    pub path_scratch: Option<Box<crate::path::PathScratch>>,
    /// Per bone world transform (after IK).
    pub world: Vec<Affine2>,
}

/// A pose's bone channels, `channels[c][bone]` (see the channel constants): the seven channels
/// of every bone in one allocation, channel-major, so a pose's transforms are one contiguous
/// block (one cache stream per character in a crowd, not seven).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Channels {
    values: Vec<f32>,
    bones: usize,
}

impl Channels {
    /// Zeroed channels for `bones` bones.
    pub fn new(bones: usize) -> Channels {
        Channels { values: vec![0.0; CHANNELS * bones], bones }
    }

    /// The number of bones.
    pub fn bones(&self) -> usize {
        self.bones
    }

    /// Every value, channel-major (`[c * bones + bone]`).
    pub fn as_slice(&self) -> &[f32] {
        &self.values
    }

    /// Every value, channel-major, to change in place.
    pub fn as_mut_slice(&mut self) -> &mut [f32] {
        &mut self.values
    }

    /// Bone `b`'s seven channel values.
    #[inline]
    pub fn bone(&self, b: usize) -> [f32; CHANNELS] {
        std::array::from_fn(|c| self.values[c * self.bones + b])
    }

    /// Adds `weight x delta[c]` to bone `b`'s channel `c`, for each channel `c` whose bit is
    /// set in `channels`.
    #[inline]
    pub fn add_to_bone(&mut self, b: usize, weight: f32, delta: &[f32; CHANNELS], channels: u8) {
        for (c, d) in delta.iter().enumerate() {
            if channels & (1 << c) != 0 {
                self.values[c * self.bones + b] += weight * d;
            }
        }
    }

    /// Copies `other`'s values (the same bone count; no allocation).
    pub fn copy_from(&mut self, other: &Channels) {
        self.values.copy_from_slice(&other.values);
    }

    /// The channels in order, each a slice over the bones.
    pub fn iter(&self) -> impl Iterator<Item = &[f32]> {
        (0..CHANNELS).map(move |c| &self.values[c * self.bones..(c + 1) * self.bones])
    }

    /// The channels in order, to change in place.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut [f32]> {
        let bones = self.bones;
        let mut rest: &mut [f32] = &mut self.values;
        (0..CHANNELS).map(move |_| {
            let (channel, tail) = std::mem::take(&mut rest).split_at_mut(bones);
            rest = tail;
            channel
        })
    }
}

impl std::ops::Index<usize> for Channels {
    type Output = [f32];

    #[inline]
    fn index(&self, c: usize) -> &[f32] {
        &self.values[c * self.bones..(c + 1) * self.bones]
    }
}

impl std::ops::IndexMut<usize> for Channels {
    #[inline]
    fn index_mut(&mut self, c: usize) -> &mut [f32] {
        &mut self.values[c * self.bones..(c + 1) * self.bones]
    }
}

/// An IK constraint's values in a pose (setup, or keyed by the playing clip).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkPose {
    /// 0..1: how much IK wins over the animated pose (0: the constraint is off).
    pub mix: f32,
    /// Two-bone chains: the distance from full reach over which the chain slows down.
    pub softness: f32,
    /// Bend direction of a two-bone chain (in this y-down space).
    pub bend_positive: bool,
    /// One-bone: scale down to reach a closer target.
    pub compress: bool,
    /// Scale up to reach a target out of reach.
    pub stretch: bool,
}

/// A bone's applied local values and world transform as Spine's runtime sees them (y-up).
#[derive(Clone, Copy)]
struct SpineBone {
    x: f64,
    y: f64,
    rotation: f64,
    scale_x: f64,
    scale_y: f64,
    shear_x: f64,
    shear_y: f64,
    a: f64,
    b: f64,
    c: f64,
    d: f64,
    world_x: f64,
    world_y: f64,
}

/// Spine's world matrix and position of one of our (mirrored) world transforms.
pub(crate) fn spine_world(w: Affine2) -> (f64, f64, f64, f64, f64, f64) {
    let (m, t) = (w.matrix2.as_dmat2(), w.translation.as_dvec2());
    (m.x_axis.x, -m.y_axis.x, -m.x_axis.y, m.y_axis.y, t.x, -t.y)
}

/// The local transform of bone channels (Spine's convention: shear x tilts the x axis, shear y
/// the y axis; degrees).
pub fn local_transform(x: f32, y: f32, rotation: f32, sx: f32, sy: f32, shx: f32, shy: f32) -> Affine2 {
    if shx == 0.0 && shy == 0.0 {
        // No shear (the common case): the y axis is the x axis turned 90 degrees; one sin_cos.
        let (sin, cos) = rotation.to_radians().sin_cos();
        return Affine2::from_mat2_translation(
            Mat2::from_cols(Vec2::new(cos * sx, sin * sx), Vec2::new(-sin * sy, cos * sy)),
            Vec2::new(x, y),
        );
    }
    let rx = (rotation + shx).to_radians();
    let ry = (rotation + 90.0 + shy).to_radians();
    Affine2::from_mat2_translation(
        Mat2::from_cols(Vec2::new(rx.cos() * sx, rx.sin() * sx), Vec2::new(ry.cos() * sy, ry.sin() * sy)),
        Vec2::new(x, y),
    )
}

/// Bone `b`'s world transform from its local one, its parent's world (already in `world`) and
/// its inherit mode.
#[inline(always)]
fn place(
    world: &[Affine2],
    parent: Option<u16>,
    mode: Inherit,
    local: Affine2,
    c: &Channels,
    b: usize,
) -> Affine2 {
    match (parent, mode) {
        (Some(p), Inherit::Normal) => world[p as usize] * local,
        (Some(p), mode) => inherit_world(world[p as usize], mode, local.translation, c, b),
        (None, _) => local,
    }
}

/// A bone's world transform under an inherit mode other than normal, computed as Spine's
/// `Bone.updateWorldTransformWith` does, in Spine's y-up space (our y-down space is its mirror:
/// a world matrix `[[a, -b], [-c, d]]` here is Spine's `[[a, b], [c, d]]`).
fn inherit_world(parent: Affine2, mode: Inherit, local: Vec2, c: &Channels, b: usize) -> Affine2 {
    let translation = parent.transform_point2(local);
    let m = parent.matrix2;
    // The parent in Spine's space.
    let (mut pa, mut pb, mut pc, mut pd) = (m.x_axis.x, -m.y_axis.x, -m.x_axis.y, m.y_axis.y);
    // The bone's local values in Spine's space.
    let (rotation, shear_x, shear_y) = (-c[ROTATION][b], -c[SHEAR_X][b], -c[SHEAR_Y][b]);
    let (scale_x, scale_y) = (c[SCALE_X][b], c[SCALE_Y][b]);
    let (a, bb, cc, d) = match mode {
        Inherit::Normal | Inherit::OnlyTranslation => {
            let rx = (rotation + shear_x).to_radians();
            let ry = (rotation + 90.0 + shear_y).to_radians();
            (rx.cos() * scale_x, ry.cos() * scale_y, rx.sin() * scale_x, ry.sin() * scale_y)
        }
        Inherit::NoRotationOrReflection => {
            let mut s = pa * pa + pc * pc;
            let prx;
            if s > 0.0001 {
                s = (pa * pd - pb * pc).abs() / s;
                pb = pc * s;
                pd = pa * s;
                prx = pc.atan2(pa).to_degrees();
            } else {
                pa = 0.0;
                pc = 0.0;
                prx = 90.0 - pd.atan2(pb).to_degrees();
            }
            let rx = (rotation + shear_x - prx).to_radians();
            let ry = (rotation + shear_y - prx + 90.0).to_radians();
            let (la, lb) = (rx.cos() * scale_x, ry.cos() * scale_y);
            let (lc, ld) = (rx.sin() * scale_x, ry.sin() * scale_y);
            (pa * la - pb * lc, pa * lb - pb * ld, pc * la + pd * lc, pc * lb + pd * ld)
        }
        Inherit::NoScale | Inherit::NoScaleOrReflection => {
            let r = rotation.to_radians();
            let (sin, cos) = r.sin_cos();
            let mut za = pa * cos + pb * sin;
            let mut zc = pc * cos + pd * sin;
            let mut s = (za * za + zc * zc).sqrt();
            if s > 0.00001 {
                s = 1.0 / s;
            }
            za *= s;
            zc *= s;
            s = (za * za + zc * zc).sqrt();
            if mode == Inherit::NoScale && pa * pd - pb * pc < 0.0 {
                s = -s;
            }
            let r = std::f32::consts::FRAC_PI_2 + zc.atan2(za);
            let (zb, zd) = (r.cos() * s, r.sin() * s);
            let (shx, shy) = (shear_x.to_radians(), (90.0 + shear_y).to_radians());
            let (la, lb) = (shx.cos() * scale_x, shy.cos() * scale_y);
            let (lc, ld) = (shx.sin() * scale_x, shy.sin() * scale_y);
            (za * la + zb * lc, za * lb + zb * ld, zc * la + zd * lc, zc * lb + zd * ld)
        }
    };
    Affine2::from_mat2_translation(Mat2::from_cols(Vec2::new(a, -cc), Vec2::new(-bb, d)), translation)
}

/// A compiled bone timeline.
#[derive(Clone, Debug)]
pub(crate) struct Channel {
    pub bone: u16,
    /// First channel written (X for translate, ROTATION, SCALE_X, SHEAR_X).
    pub first: u8,
    /// 1 (rotate) or 2.
    pub width: u8,
    /// Bit `c` for each channel `c` written (`first` to `first + width`).
    pub bits: u8,
    /// Its clip's group of channels with the same key times (see [`BoundClip::groups`]).
    pub group: u32,
    pub keys: Vec<Key>,
    /// Per key: its Spine curve's 9 points (x, y), computed once (empty when no key has one).
    pub points: Vec<[f32; 18]>,
}

/// Stepped attachment keys: (time, attachment index or none).
pub(crate) type AttachmentKeys = Vec<(f32, Option<u16>)>;

/// A compiled clip.
#[derive(Clone, Debug)]
pub(crate) struct BoundClip {
    pub name: String,
    pub duration: f32,
    pub looping: bool,
    pub channels: Vec<Channel>,
    /// Per group of `channels` with the same key times (most clips have one or two): the index
    /// of its first channel, whose keys locate a time for the whole group.
    pub groups: Vec<u32>,
    /// Per slot: attachment keys (stepped).
    pub attachments: Vec<(u16, AttachmentKeys)>,
    /// Colour timelines: (slot, first colour channel, width, keys).
    pub colors: Vec<(u16, u8, u8, Vec<Key>)>,
    pub draw_order: Vec<(f32, Vec<u16>)>,
    pub events: Vec<(f32, u16)>,
    pub ik: Vec<(u16, Vec<IkKey>)>,
    /// Keyed constraint values (transform and path), into [`Pose::mixes`].
    pub mixes: Vec<MixChannel>,
    pub deform: Vec<BoundDeform>,
    pub sequence: Vec<BoundSequence>,
    /// Inherit timelines: (bone, stepped keys).
    pub inherit: Vec<(u16, Vec<(f32, Inherit)>)>,
}

/// A compiled sequence timeline.
#[derive(Clone, Debug)]
pub(crate) struct BoundSequence {
    pub slot: u16,
    /// The attachment it plays (see [`Frames::owner`](crate::attachment::Frames)).
    pub owner: u16,
    pub keys: Vec<SequenceKey>,
}

/// A slot's keyed sequence frame before it meets the attachment shown: the timeline's
/// attachment, the key's mode and first frame, and the whole frames elapsed since the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceState {
    /// The attachment whose timeline keyed it.
    pub owner: u16,
    /// How frames advance.
    pub mode: SequenceMode,
    /// The key's frame.
    pub index: i32,
    /// Frames elapsed since the key (`(time - key time) / delay`, truncated).
    pub steps: i32,
}

impl SequenceState {
    /// The frame for `count` frames, as Spine's `SequenceTimeline.apply` computes it.
    pub fn frame(&self, count: i32) -> i32 {
        let index =
            if self.mode == SequenceMode::Hold { self.index } else { self.index.saturating_add(self.steps) };
        let pingpong = |i: i32| {
            let n = 2 * count - 2;
            let i = if n == 0 { 0 } else { i.rem_euclid(n) };
            if i >= count { n - i } else { i }
        };
        match self.mode {
            SequenceMode::Hold => index,
            SequenceMode::Once => index.min(count - 1),
            SequenceMode::Loop => index.rem_euclid(count),
            SequenceMode::Pingpong => pingpong(index),
            SequenceMode::OnceReverse => (count - 1 - index).max(0),
            SequenceMode::LoopReverse => count - 1 - index.rem_euclid(count),
            SequenceMode::PingpongReverse => pingpong(index.saturating_add(count - 1)),
        }
    }
}

/// The sequence key at `time` (`None` before the first) as a [`SequenceState`].
pub(crate) fn sample_sequence(t: &BoundSequence, time: f32) -> Option<SequenceState> {
    let i = t.keys.partition_point(|k| k.time <= time).checked_sub(1)?;
    let key = &t.keys[i];
    // Spine: `(time - before) / delay + 0.00001 | 0` in doubles; a zero delay gives no steps.
    let steps = ((time as f64 - key.time as f64) / key.delay as f64 + 0.00001) as i64;
    let steps = if key.delay > 0.0 { steps.clamp(0, i32::MAX as i64) as i32 } else { 0 };
    Some(SequenceState {
        owner: t.owner,
        mode: key.mode,
        index: key.index.min(i32::MAX as u32) as i32,
        steps,
    })
}

/// A keyed constraint value: one-value keys for `Pose::mixes[index]`.
#[derive(Clone, Debug)]
pub(crate) struct MixChannel {
    pub index: u16,
    /// The constraint's first bone (layer masks).
    pub bone: u16,
    pub keys: Vec<Key>,
    /// Per key: its Spine curve's points (empty when no key has one).
    pub points: Vec<[f32; 18]>,
}

/// The bit of [`Skeleton2D::moving`] for slot colours (bits 0 to 6 are the bone channels).
pub(crate) const MOVING_COLORS: u16 = 1 << CHANNELS;
/// The bit of [`Skeleton2D::moving`] for the slots' attachment keys.
pub(crate) const MOVING_ATTACHMENTS: u16 = 1 << (CHANNELS + 1);
/// The bit of [`Skeleton2D::moving`] for the bones' inherit modes.
pub(crate) const MOVING_INHERIT: u16 = 1 << (CHANNELS + 2);
/// The bit of [`Skeleton2D::moving`] for the draw order.
pub(crate) const MOVING_DRAW_ORDER: u16 = 1 << (CHANNELS + 3);
/// The bit of [`Skeleton2D::moving`] for the slots' sequence frames.
pub(crate) const MOVING_SEQUENCES: u16 = 1 << (CHANNELS + 4);
/// The bit of [`Skeleton2D::moving`] for mesh deform offsets.
pub(crate) const MOVING_DEFORM: u16 = 1 << (CHANNELS + 5);
/// The bit of [`Skeleton2D::moving`] for constraint mixes and IK states.
pub(crate) const MOVING_MIXES: u16 = 1 << (CHANNELS + 6);

/// Which of a pose's values `apply` can leave away from setup: bit `c` for bone channel `c`
/// when some clip keys it, [`MOVING_COLORS`] when some clip keys slot colours, and so on for
/// each kind of value clips key (the `MOVING_*` bits); every bone channel when there are
/// constraints, which store the applied values of the bones they move (they only read the
/// other values). The others are at setup in every applied pose and keyframe, unless the game
/// changed them: `apply` neither resets nor moves them.
fn moving_values(clips: &[BoundClip], order: &[Constraint]) -> u16 {
    let mut bits = if order.is_empty() { 0 } else { (1 << CHANNELS) - 1 };
    for clip in clips {
        bits |= clip.channels.iter().fold(0, |b, c| b | u16::from(c.bits));
        let kinds = [
            (!clip.colors.is_empty(), MOVING_COLORS),
            (!clip.attachments.is_empty(), MOVING_ATTACHMENTS),
            (!clip.inherit.is_empty(), MOVING_INHERIT),
            (!clip.draw_order.is_empty(), MOVING_DRAW_ORDER),
            (!clip.sequence.is_empty(), MOVING_SEQUENCES),
            (!clip.deform.is_empty(), MOVING_DEFORM),
            (!clip.mixes.is_empty() || !clip.ik.is_empty(), MOVING_MIXES),
        ];
        for (keyed, bit) in kinds {
            if keyed {
                bits |= bit;
            }
        }
    }
    bits
}

/// Sets each channel's [`group`](Channel::group): channels whose key times are the same bits
/// share one; returns each group's first channel.
fn group_by_key_times(channels: &mut [Channel]) -> Vec<u32> {
    let mut groups: Vec<u32> = Vec::new();
    fn times(c: &Channel) -> impl Iterator<Item = u32> + '_ {
        c.keys.iter().map(|k| k.time.to_bits())
    }
    for i in 0..channels.len() {
        let same = |&g: &u32| times(&channels[g as usize]).eq(times(&channels[i]));
        let group = match groups.iter().position(same) {
            Some(g) => g,
            None => {
                groups.push(i as u32);
                groups.len() - 1
            }
        };
        channels[i].group = group as u32;
    }
    groups
}

/// Per key: its Spine curve's 9 points, or nothing when no key has a Spine curve.
fn spine_points(keys: &[Key]) -> Vec<[f32; 18]> {
    if !keys.iter().any(|k| matches!(k.curve, Curve::SpineBezier(_) | Curve::SpineOffset(_))) {
        return Vec::new();
    }
    keys.iter()
        .map(|k| match k.curve {
            Curve::SpineBezier(c) => spine_bezier_points(c),
            Curve::SpineOffset(c) => spine_bezier_points_to(c, 0.0),
            _ => [0.0; 18],
        })
        .collect()
}

/// A compiled deform timeline: `keys` times and curves, `values` one full row of offsets per key.
#[derive(Clone, Debug)]
pub(crate) struct BoundDeform {
    /// The slot (for masks).
    pub slot: u16,
    /// Its deform storage.
    pub deform: u16,
    pub times: Vec<f32>,
    pub curves: Vec<Curve>,
    pub values: Vec<f32>,
}

/// An attachment with its slot resolved.
#[derive(Clone, Debug)]
pub struct BoundAttachment {
    /// The slot.
    pub slot: u16,
    /// Its name.
    pub name: String,
    /// RGBA.
    pub color: [f32; 4],
    /// Geometry.
    pub kind: AttachmentKind,
}

/// An IK constraint with bones resolved.
#[derive(Clone, Debug)]
pub(crate) struct BoundIk {
    pub bones: Vec<u16>,
    pub target: u16,
}

/// A skeleton ready to pose: built once from [`Skeleton2DData`].
#[derive(Clone, Debug)]
pub struct Skeleton2D {
    /// The data it was built from (names, for tools).
    pub data: Skeleton2DData,
    /// Parent of each bone.
    pub parents: Vec<Option<u16>>,
    /// Bone of each slot.
    pub slot_bones: Vec<u16>,
    /// Attachments, slots resolved.
    pub attachments: Vec<BoundAttachment>,
    /// The setup pose (world transforms computed).
    pub setup: Pose,
    /// Per attachment: what it draws.
    pub geometry: Vec<Geometry>,
    /// Skins (attachment names to attachments).
    pub skins: Skins,
    /// Per deform storage index: `(first float, floats)` in [`Pose::deform`].
    pub deform_ranges: Vec<(u32, u32)>,
    pub(crate) key_of: std::collections::HashMap<(u16, String), u16>,
    pub(crate) clips: Vec<BoundClip>,
    pub(crate) clip_names: ClipNames,
    pub(crate) ik: Vec<BoundIk>,
    pub(crate) transform: Vec<BoundIk>,
    pub(crate) path: Vec<crate::path::BoundPath>,
    /// Every constraint in update order.
    pub(crate) order: Vec<Constraint>,
    /// What `apply` can leave away from setup ([`moving_values`]): `apply` resets only these
    /// to setup before the layers blend, and animation LOD moves only these towards a sample.
    pub(crate) moving: u16,
    /// Per bone: posed only while a chosen skin activates it.
    pub(crate) skin_required: Vec<bool>,
    /// Per constraint in update order: its target bone, and whether it needs a skin.
    pub(crate) constraint_needs: Vec<(u16, bool)>,
    /// Per skin (a [`SkinId`](crate::SkinId)): the bones it activates (with their ancestors)
    /// and the constraints (indices into the update order).
    pub(crate) skin_activates: Vec<(Vec<u16>, Vec<u16>)>,
}

/// A constraint by kind and index, in update order.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Constraint {
    Ik(u16),
    Transform(u16),
    Path(u16),
}

/// Evaluates a normalised cubic bezier (CSS `cubic-bezier`) at time fraction `u`.
pub fn bezier(c: [f32; 4], u: f32) -> f32 {
    let [x1, y1, x2, y2] = c;
    bezier_at(y1, y2, bezier_solve(x1, x2, u))
}

/// One coordinate of a normalised cubic bezier whose inner control points have `a` and `b` in
/// it, at curve parameter `s`.
#[inline(always)]
fn bezier_at(a: f32, b: f32, s: f32) -> f32 {
    let r = 1.0 - s;
    3.0 * r * r * s * a + 3.0 * r * s * s * b + s * s * s
}

/// The curve parameter at which a normalised cubic bezier with inner control x coordinates `x1`
/// and `x2` reaches x = `u`: the costly half of [`bezier`], which [`BezierMemo`] keeps.
fn bezier_solve(x1: f32, x2: f32, u: f32) -> f32 {
    let at = bezier_at;
    // Solve x(s) = u: Newton from s = u, then bisection if it wanders (deterministic either way).
    let mut s = u;
    for _ in 0..8 {
        let x = at(x1, x2, s) - u;
        let r = 1.0 - s;
        let dx = 3.0 * r * r * x1 + 6.0 * r * s * (x2 - x1) + 3.0 * s * s * (1.0 - x2);
        if x.abs() < 1e-6 || dx.abs() < 1e-6 {
            break;
        }
        s = (s - x / dx).clamp(0.0, 1.0);
    }
    if (at(x1, x2, s) - u).abs() > 1e-4 {
        let (mut lo, mut hi) = (0.0f32, 1.0f32);
        for _ in 0..30 {
            s = 0.5 * (lo + hi);
            if at(x1, x2, s) < u {
                lo = s;
            } else {
                hi = s;
            }
        }
    }
    s
}

/// The last bezier solved for a group of channels with the same key times (the same `u`): a
/// clip's channels usually share their easing, so each group solves it once per sample. The same
/// inputs give the same `s`, so it changes no bits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct BezierMemo {
    /// `x1`, `x2` and `u` as bits (`None` before the first solve).
    key: Option<[u32; 3]>,
    s: f32,
}

impl BezierMemo {
    /// A memo holding nothing.
    pub const EMPTY: BezierMemo = BezierMemo { key: None, s: 0.0 };

    /// [`bezier`], solving for the curve parameter only when `c`'s x coordinates or `u` differ
    /// from the last call's.
    #[inline(always)]
    fn bezier(&mut self, c: [f32; 4], u: f32) -> f32 {
        let key = Some([c[0].to_bits(), c[2].to_bits(), u.to_bits()]);
        if key != self.key {
            *self = BezierMemo { key, s: bezier_solve(c[0], c[2], u) };
        }
        bezier_at(c[1], c[3], self.s)
    }
}

/// Evaluates a normalised cubic bezier (control points `(x1, y1)`, `(x2, y2)` from (0, 0) to
/// (1, 1)) at time fraction `u` the way Spine's runtimes do ([`Curve::SpineBezier`]), so Spine exports play exactly as in
/// Spine: the curve is cut into 10 segments by forward differencing (Spine's `setBezier`) and
/// the value interpolated linearly on the segment holding `u` (`getBezierValue`). Away from
/// the 9 inner points this differs from the exact curve by well under 1 % of the key's change.
/// No allocation, no iteration to convergence: the same bits on every machine.
pub fn spine_bezier(c: [f32; 4], u: f32) -> f32 {
    spine_bezier_at(&spine_bezier_points(c), u)
}

/// The 9 inner points of a Spine curve (`x, y` pairs, as Spine stores them, in f32), by
/// Spine's forward differencing; [`spine_bezier_at`] reads them. Computed once per key at bind.
pub fn spine_bezier_points(c: [f32; 4]) -> [f32; 18] {
    spine_bezier_points_to(c, 1.0)
}

/// [`spine_bezier_points`] for a curve from (0, 0) to (1, `end`): `end` 1 for a fraction of the
/// key's change, 0 for [`Curve::SpineOffset`] (the curve returns to the key's value).
pub fn spine_bezier_points_to(c: [f32; 4], end: f32) -> [f32; 18] {
    let [cx1, cy1, cx2, cy2] = c.map(f64::from);
    let end = f64::from(end);
    let tmpx = (-cx1 * 2.0 + cx2) * 0.03;
    let tmpy = (-cy1 * 2.0 + cy2) * 0.03;
    let dddx = ((cx1 - cx2) * 3.0 + 1.0) * 0.006;
    let dddy = ((cy1 - cy2) * 3.0 + end) * 0.006;
    let (mut ddx, mut ddy) = (tmpx * 2.0 + dddx, tmpy * 2.0 + dddy);
    let mut dx = cx1 * 0.3 + tmpx + dddx * 0.16666667;
    let mut dy = cy1 * 0.3 + tmpy + dddy * 0.16666667;
    let (mut x, mut y) = (dx, dy);
    let mut points = [0.0f32; 18];
    for i in 0..9 {
        (points[2 * i], points[2 * i + 1]) = (x as f32, y as f32);
        dx += ddx;
        dy += ddy;
        ddx += dddx;
        ddy += dddy;
        x += dx;
        y += dy;
    }
    points
}

/// A Spine curve's value at `u` from its points ([`spine_bezier_points`]): linear on the
/// segment holding `u` (Spine's `getBezierValue`).
#[inline]
pub fn spine_bezier_at(points: &[f32; 18], u: f32) -> f32 {
    spine_bezier_at_to(points, u, 1.0)
}

/// [`spine_bezier_at`] for a curve ending at `end` (see [`spine_bezier_points_to`]).
#[inline]
pub fn spine_bezier_at_to(points: &[f32; 18], u: f32, end: f32) -> f32 {
    let u = f64::from(u);
    let end = f64::from(end);
    let (mut px, mut py) = (0.0f64, 0.0f64);
    for i in 0..9 {
        let (fx, fy) = (f64::from(points[2 * i]), f64::from(points[2 * i + 1]));
        if fx >= u {
            let span = fx - px;
            return (if span > 0.0 { py + (u - px) / span * (fy - py) } else { fy }) as f32;
        }
        (px, py) = (fx, fy);
    }
    let span = 1.0 - px;
    (if span > 0.0 { py + (u - px) / span * (end - py) } else { end }) as f32
}

/// The value `u` of the way from key value `a` to `b` along `curve` (stepped: `a`).
pub fn curve_value(curve: Curve, u: f32, a: f32, b: f32) -> f32 {
    match curve {
        Curve::Linear => a + (b - a) * u,
        Curve::Stepped => a,
        Curve::Bezier(c) => a + (b - a) * bezier(c, u),
        Curve::SpineBezier(c) => a + (b - a) * spine_bezier(c, u),
        Curve::SpineOffset(c) => a + spine_bezier_at_to(&spine_bezier_points_to(c, 0.0), u, 0.0),
    }
}

/// Where a time falls among a timeline's keys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum KeyPlace {
    /// At or before the first key (or no keys).
    First,
    /// After the last key.
    Last,
    /// Between keys `next - 1` and `next`, `u` of the way (0..=1 of the span).
    Between { next: u32, u: f32 },
}

/// Where `t` falls among `keys` (binary search: O(log keys)). Timelines with the same key times
/// share it: a clip's channels that do are sampled from one search per frame.
#[inline]
pub(crate) fn key_place(keys: &[Key], t: f32) -> KeyPlace {
    let Some(first) = keys.first() else { return KeyPlace::First };
    if t <= first.time {
        return KeyPlace::First;
    }
    let next = keys.partition_point(|k| k.time <= t);
    if next >= keys.len() {
        return KeyPlace::Last;
    }
    let (a, b) = (&keys[next - 1], &keys[next]);
    let span = b.time - a.time;
    let u = if span > 0.0 { (t - a.time) / span } else { 1.0 };
    KeyPlace::Between { next: next as u32, u }
}

/// `keys`' values at `place` (found by [`key_place`] on these keys or on keys with the same
/// times): between keys by the earlier key's curve, Spine curves read from their precomputed
/// `points` (empty: computed here).
#[inline(always)]
pub(crate) fn sample_placed(keys: &[Key], points: &[[f32; 18]], place: KeyPlace) -> [f32; 4] {
    let mut memo = BezierMemo::EMPTY;
    sample_placed_memo(keys, points, place, &mut memo)
}

/// [`sample_placed`] with a [`BezierMemo`] shared by the channels placed at `place`.
#[inline(always)]
pub(crate) fn sample_placed_memo(
    keys: &[Key],
    points: &[[f32; 18]],
    place: KeyPlace,
    memo: &mut BezierMemo,
) -> [f32; 4] {
    let (next, u) = match place {
        KeyPlace::First => return keys.first().map_or([0.0; 4], |k| k.values),
        KeyPlace::Last => return keys.last().map_or([0.0; 4], |k| k.values),
        KeyPlace::Between { next, u } => (next as usize, u),
    };
    let (a, b) = (&keys[next - 1], &keys[next]);
    let f = match a.curve {
        Curve::Linear => u,
        Curve::Stepped => return a.values,
        Curve::Bezier(c) => memo.bezier(c, u),
        Curve::SpineBezier(c) => match points.get(next - 1) {
            Some(points) => spine_bezier_at(points, u),
            None => spine_bezier(c, u),
        },
        Curve::SpineOffset(_) => {
            return match points.get(next - 1) {
                Some(points) => {
                    let swing = spine_bezier_at_to(points, u, 0.0);
                    std::array::from_fn(|i| a.values[i] + swing)
                }
                None => std::array::from_fn(|i| curve_value(a.curve, u, a.values[i], b.values[i])),
            };
        }
    };
    std::array::from_fn(|i| a.values[i] + (b.values[i] - a.values[i]) * f)
}

/// [`sample_keys`] with Spine curves read from their precomputed `points` (empty: none).
#[inline(always)]
pub(crate) fn sample_with_points(keys: &[Key], points: &[[f32; 18]], t: f32) -> [f32; 4] {
    sample_placed(keys, points, key_place(keys, t))
}

/// Samples keys at time `t`: before the first key its values, after the last key its values,
/// between keys by the earlier key's curve. Binary search: O(log keys), no allocation.
#[inline]
pub fn sample_keys(keys: &[Key], t: f32) -> [f32; 4] {
    sample_placed(keys, &[], key_place(keys, t))
}

/// An IK timeline at time `t` (Spine's): `None` before its first key (the setup values hold);
/// mix and softness by their curves between keys, bend, compress and stretch from the earlier
/// key.
pub fn sample_ik(keys: &[IkKey], t: f32) -> Option<IkPose> {
    let n = keys.partition_point(|k| k.time <= t);
    if n == 0 {
        return None;
    }
    let a = &keys[n - 1];
    let (mut mix, mut softness) = (a.mix, a.softness);
    if let Some(b) = keys.get(n) {
        let span = b.time - a.time;
        let u = if span > 0.0 { (t - a.time) / span } else { 1.0 };
        mix = curve_value(a.curve, u, a.mix, b.mix);
        softness = curve_value(a.softness_curve, u, a.softness, b.softness);
    }
    Some(IkPose { mix, softness, bend_positive: a.bend_positive, compress: a.compress, stretch: a.stretch })
}

/// The entry of a stepped list in effect at `t` (the last with time <= t).
pub(crate) fn stepped<T>(list: &[(f32, T)], t: f32) -> Option<&T> {
    let n = list.partition_point(|(time, _)| *time <= t);
    if n == 0 { None } else { Some(&list[n - 1].1) }
}

impl Skeleton2D {
    /// Builds a skeleton from validated data (validates again; errors are located).
    pub fn new(data: Skeleton2DData) -> Result<Self, SkeletonError> {
        let issues = data.validate();
        if !issues.is_empty() {
            return Err(SkeletonError::Invalid(issues));
        }
        // Name lookups through maps (first occurrence, as `position` found): linear in the
        // skeleton, where scanning per channel was quadratic for large rigs. Counts fit u16
        // (validated).
        let bones: std::collections::HashMap<&str, u16> =
            data.bones.iter().enumerate().rev().map(|(i, b)| (b.name.as_str(), i as u16)).collect();
        let slots: std::collections::HashMap<&str, u16> =
            data.slots.iter().enumerate().rev().map(|(i, s)| (s.name.as_str(), i as u16)).collect();
        let bound = crate::attachment::bind(&data, &slots, &bones);
        let bone = |name: &str| *bones.get(name).expect("validated");
        let slot = |name: &str| *slots.get(name).expect("validated");
        let key_of = &bound.key_of;
        let attachment = |slot_name: &str, name: &str| {
            *key_of.get(&(slot(slot_name), name.to_string())).expect("validated")
        };
        let parents: Vec<Option<u16>> = data.bones.iter().map(|b| b.parent.as_deref().map(bone)).collect();
        let slot_bones: Vec<u16> = data.slots.iter().map(|s| bone(&s.bone)).collect();
        let mut attachments: Vec<BoundAttachment> = data
            .attachments
            .iter()
            .map(|a| BoundAttachment {
                slot: slot(&a.slot),
                name: a.name.clone(),
                color: a.color,
                kind: a.kind.clone(),
            })
            .collect();
        // Sequence frames: the attachment again, its region the frame's.
        for &(i, frame) in &bound.frame_of {
            let a = &data.attachments[i as usize];
            let frame = a.sequence.as_ref().and_then(|s| s.frames.get(frame as usize)).cloned();
            let mut kind = a.kind.clone();
            match &mut kind {
                AttachmentKind::Region { region, .. }
                | AttachmentKind::Mesh { region, .. }
                | AttachmentKind::LinkedMesh { region, .. } => *region = frame,
                _ => {}
            }
            attachments.push(BoundAttachment {
                slot: slot(&a.slot),
                name: a.name.clone(),
                color: a.color,
                kind,
            });
        }
        let n = data.bones.len();
        let mut channels = Channels::new(n);
        for (i, b) in data.bones.iter().enumerate() {
            for (c, v) in
                [b.x, b.y, b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y].into_iter().enumerate()
            {
                channels[c][i] = v;
            }
        }
        let setup = Pose {
            channels,
            colors: data
                .slots
                .iter()
                .map(|s| {
                    let [r, g, b, a] = s.color;
                    let [dr, dg, db] = s.dark.unwrap_or([0.0; 3]);
                    [r, g, b, a, dr, dg, db]
                })
                .collect(),
            attachments: vec![None; data.slots.len()],
            attachment_keys: data
                .slots
                .iter()
                .map(|s| s.attachment.as_deref().map(|a| attachment(&s.name, a)))
                .collect(),
            deform: vec![0.0; bound.deform_ranges.iter().map(|r| r.1 as usize).sum()],
            sequences: vec![None; data.slots.len()],
            active: vec![true; data.bones.len()],
            constraint_active: vec![true; data.ik.len() + data.transform.len() + data.path.len()],
            inherit: data.bones.iter().map(|b| b.inherit).collect(),
            draw_order: (0..data.slots.len() as u16).collect(),
            ik: data
                .ik
                .iter()
                .map(|ik| IkPose {
                    mix: ik.mix,
                    softness: ik.softness,
                    bend_positive: ik.bend_positive,
                    compress: ik.compress,
                    stretch: ik.stretch,
                })
                .collect(),
            mixes: data
                .transform
                .iter()
                .flat_map(|t| [t.mix_rotate, t.mix_x, t.mix_y, t.mix_scale_x, t.mix_scale_y, t.mix_shear_y])
                .chain(data.path.iter().flat_map(|p| [p.position, p.spacing, p.mix_rotate, p.mix_x, p.mix_y]))
                .collect(),
            path_scratch: (!data.path.is_empty()).then(|| {
                let vertices = bound
                    .geometry
                    .iter()
                    .filter(|g| g.path.is_some())
                    .map(|g| g.vertices.len())
                    .max()
                    .unwrap_or(0);
                let chain = data.path.iter().map(|p| p.bones.len()).max().unwrap_or(0);
                Box::new(crate::path::PathScratch::new(vertices, chain))
            }),
            world: vec![Affine2::IDENTITY; n],
        };
        let mut clips = Vec::new();
        let mut clip_names = ClipNames::default();
        for (name, clip) in &data.clips {
            let mut channels = Vec::new();
            for (b, t) in &clip.bones {
                for (_, first, width, keys) in t.all() {
                    if !keys.is_empty() {
                        let points = spine_points(keys);
                        channels.push(Channel {
                            bone: bone(b),
                            first: first as u8,
                            width,
                            bits: ((1u16 << width) - 1).wrapping_shl(first as u32) as u8,
                            group: 0,
                            keys: keys.clone(),
                            points,
                        });
                    }
                }
            }
            let groups = group_by_key_times(&mut channels);
            let attachments = clip
                .slots
                .iter()
                .filter(|(_, t)| !t.attachment.is_empty())
                .map(|(s, t)| {
                    let keys = t
                        .attachment
                        .iter()
                        .map(|(time, a)| (*time, a.as_deref().map(|a| attachment(s, a))))
                        .collect();
                    (slot(s), keys)
                })
                .collect();
            let colors = clip
                .slots
                .iter()
                .flat_map(|(s, t)| {
                    t.colors()
                        .into_iter()
                        .filter(|(_, _, _, keys)| !keys.is_empty())
                        .map(|(_, first, width, keys)| (slot(s), first as u8, width, keys.clone()))
                        .collect::<Vec<_>>()
                })
                .collect();
            let draw_order = clip
                .draw_order
                .iter()
                .map(|(time, order)| (*time, order.iter().map(|s| slot(s)).collect()))
                .collect();
            let events = clip
                .events
                .iter()
                .map(|(time, e)| (*time, data.events.iter().position(|x| x == e).expect("validated") as u16))
                .collect();
            let ik = clip
                .ik
                .iter()
                .map(|(c, keys)| {
                    (data.ik.iter().position(|ik| &ik.name == c).expect("validated") as u16, keys.clone())
                })
                .collect();
            let deform = clip
                .deform
                .iter()
                .filter_map(|t| {
                    let a =
                        crate::attachment::find_attachment(&data, &t.slot, &t.attachment, t.skin.as_deref())?;
                    let d = bound.geometry[a].deform?;
                    let len = bound.deform_ranges[d as usize].1 as usize;
                    let mut values = vec![0.0; len * t.keys.len()];
                    for (k, key) in t.keys.iter().enumerate() {
                        let row = &mut values[k * len..(k + 1) * len];
                        for (i, v) in key.vertices.iter().enumerate() {
                            if let Some(x) = row.get_mut(key.offset as usize + i) {
                                *x = *v;
                            }
                        }
                    }
                    Some(BoundDeform {
                        slot: slot(&t.slot),
                        deform: d,
                        times: t.keys.iter().map(|k| k.time).collect(),
                        curves: t.keys.iter().map(|k| k.curve).collect(),
                        values,
                    })
                })
                .collect();
            let mut mixes = Vec::new();
            for (c, t) in &clip.transform {
                let i = data.transform.iter().position(|x| &x.name == c).expect("validated");
                let first = bone(&data.transform[i].bones[0]);
                for (k, (_, keys)) in t.all().into_iter().enumerate() {
                    if !keys.is_empty() {
                        let index = (6 * i + k) as u16;
                        mixes.push(MixChannel {
                            index,
                            bone: first,
                            keys: keys.clone(),
                            points: spine_points(keys),
                        });
                    }
                }
            }
            for (c, t) in &clip.path {
                let i = data.path.iter().position(|x| &x.name == c).expect("validated");
                let first = bone(&data.path[i].bones[0]);
                for (k, (_, keys)) in t.all().into_iter().enumerate() {
                    if !keys.is_empty() {
                        let index = (6 * data.transform.len() + 5 * i + k) as u16;
                        mixes.push(MixChannel {
                            index,
                            bone: first,
                            keys: keys.clone(),
                            points: spine_points(keys),
                        });
                    }
                }
            }
            clip_names.insert(name, clips.len());
            clips.push(BoundClip {
                mixes,
                name: name.clone(),
                duration: clip.duration,
                looping: clip.looping,
                channels,
                groups,
                attachments,
                colors,
                draw_order,
                events,
                ik,
                deform,
                inherit: clip
                    .bones
                    .iter()
                    .filter(|(_, t)| !t.inherit.is_empty())
                    .map(|(b, t)| (bone(b), t.inherit.clone()))
                    .collect(),
                sequence: clip
                    .sequence
                    .iter()
                    .filter_map(|t| {
                        let a = crate::attachment::find_attachment(
                            &data,
                            &t.slot,
                            &t.attachment,
                            t.skin.as_deref(),
                        )?;
                        let frames = bound.geometry[a].sequence?;
                        Some(BoundSequence { slot: slot(&t.slot), owner: frames.owner, keys: t.keys.clone() })
                    })
                    .collect(),
            });
        }
        let ik = data
            .ik
            .iter()
            .map(|ik| BoundIk { bones: ik.bones.iter().map(|b| bone(b)).collect(), target: bone(&ik.target) })
            .collect();
        let transform = data
            .transform
            .iter()
            .map(|t| BoundIk { bones: t.bones.iter().map(|b| bone(b)).collect(), target: bone(&t.target) })
            .collect();
        let path = data
            .path
            .iter()
            .map(|p| crate::path::BoundPath {
                bones: p.bones.iter().map(|b| bone(b)).collect(),
                slot: slot(&p.target),
            })
            .collect();
        // Spine's update order: by `order`, IK before transform before path on a tie, then list
        // order.
        let mut order: Vec<(u32, u8, usize, Constraint)> = data
            .ik
            .iter()
            .enumerate()
            .map(|(i, c)| (c.order, 0, i, Constraint::Ik(i as u16)))
            .chain(
                data.transform
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (c.order, 1, i, Constraint::Transform(i as u16))),
            )
            .chain(data.path.iter().enumerate().map(|(i, c)| (c.order, 2, i, Constraint::Path(i as u16))))
            .collect();
        order.sort_by_key(|c| (c.0, c.1, c.2));
        let order: Vec<Constraint> = order.into_iter().map(|c| c.3).collect();
        let constraint_needs: Vec<(u16, bool)> = order
            .iter()
            .map(|c| match *c {
                Constraint::Ik(i) => (bone(&data.ik[i as usize].target), data.ik[i as usize].skin_required),
                Constraint::Transform(i) => {
                    (bone(&data.transform[i as usize].target), data.transform[i as usize].skin_required)
                }
                Constraint::Path(i) => {
                    let p = &data.path[i as usize];
                    (slot_bones[slot(&p.target) as usize], p.skin_required)
                }
            })
            .collect();
        let constraint_name = |c: &Constraint| match *c {
            Constraint::Ik(i) => data.ik[i as usize].name.as_str(),
            Constraint::Transform(i) => data.transform[i as usize].name.as_str(),
            Constraint::Path(i) => data.path[i as usize].name.as_str(),
        };
        let skin_activates: Vec<(Vec<u16>, Vec<u16>)> = bound
            .skins
            .names
            .iter()
            .map(|name| match data.skins.iter().find(|s| &s.name == name) {
                Some(skin) => (
                    skin.bones.iter().map(|b| bone(b)).collect(),
                    order
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| skin.constraints.iter().any(|n| n == constraint_name(c)))
                        .map(|(i, _)| i as u16)
                        .collect(),
                ),
                None => (Vec::new(), Vec::new()),
            })
            .collect();
        let skin_required: Vec<bool> = data.bones.iter().map(|b| b.skin_required).collect();
        let crate::attachment::Bound { geometry, skins, key_of, deform_ranges, .. } = bound;
        let moving = moving_values(&clips, &order);
        let mut skeleton = Skeleton2D {
            data,
            parents,
            slot_bones,
            attachments,
            setup,
            geometry,
            skins,
            deform_ranges,
            key_of,
            clips,
            clip_names,
            ik,
            transform,
            path,
            moving,
            order,
            skin_required,
            constraint_needs,
            skin_activates,
        };
        let mut active = std::mem::take(&mut skeleton.setup.active);
        let mut constraints = std::mem::take(&mut skeleton.setup.constraint_active);
        skeleton.activate(&mut active, &mut constraints, &[]);
        (skeleton.setup.active, skeleton.setup.constraint_active) = (active, constraints);
        let mut shown = skeleton.setup.clone();
        skeleton.resolve_attachments(&mut shown, &[]);
        skeleton.setup.attachments = shown.attachments;
        // The setup pose's world transforms include its constraints; its channels stay the
        // authored setup values (constraints write the applied values of a pose, which must not
        // become the next pose's starting point).
        let mut setup = skeleton.setup.clone();
        skeleton.update_world(&mut setup);
        skeleton.setup.world = setup.world;
        Ok(skeleton)
    }

    /// Which bones and constraints the chosen `skins` make active (Spine's `updateCache`): every
    /// bone that is not skin-required, the bones the skins list and their ancestors; every
    /// constraint whose target is active and that needs no skin or is listed by one. Called
    /// when skins change, not per frame (allocates nothing).
    pub fn activate(&self, active: &mut [bool], constraints: &mut [bool], skins: &[crate::SkinId]) {
        for (a, required) in active.iter_mut().zip(&self.skin_required) {
            *a = !required;
        }
        for skin in skins {
            let Some((bones, _)) = self.skin_activates.get(skin.0 as usize) else { continue };
            for &b in bones {
                let mut b = Some(b);
                while let Some(i) = b {
                    active[i as usize] = true;
                    b = self.parents[i as usize];
                }
            }
        }
        for (i, (c, (target, required))) in constraints.iter_mut().zip(&self.constraint_needs).enumerate() {
            let listed = || {
                skins.iter().any(|s| {
                    self.skin_activates.get(s.0 as usize).is_some_and(|(_, c)| c.contains(&(i as u16)))
                })
            };
            *c = active[*target as usize] && (!required || listed());
        }
    }

    /// Sets `pose.attachments` from `pose.attachment_keys` through `skins` (later skins win),
    /// then the default skin.
    pub fn resolve_attachments(&self, pose: &mut Pose, skins: &[SkinId]) {
        let slots = pose.attachments.iter_mut().zip(&pose.attachment_keys).zip(&pose.sequences);
        for (s, ((shown, key), keyed)) in slots.enumerate() {
            // A slot on a bone no chosen skin activates shows nothing (Spine draws no slot of an
            // inactive bone).
            if !pose.active[self.slot_bones[s] as usize] {
                *shown = None;
                continue;
            }
            *shown = key.and_then(|k| self.skins.resolve(k, skins));
            // A sequence attachment shows one of its frames: the keyed one when the timeline
            // that keyed it plays this attachment (Spine's check), else its setup frame.
            if let Some(frames) = shown.and_then(|a| self.geometry[a as usize].sequence) {
                let owner_count =
                    self.geometry[frames.owner as usize].sequence.map_or(frames.count, |f| f.count);
                let index = match keyed {
                    Some(state) if state.owner == frames.owner => state.frame(owner_count as i32),
                    _ => -1,
                };
                let frame = if index < 0 { frames.setup } else { index.min(frames.count as i32 - 1) as u16 };
                *shown = Some(frames.first + frame);
            }
        }
    }

    /// The attachment key of `name` in slot `slot` (any skin).
    pub fn attachment_key(&self, slot: usize, name: &str) -> Option<u16> {
        self.key_of.get(&(slot as u16, name.to_string())).copied()
    }

    /// Deform storage `index`'s floats in [`Pose::deform`].
    pub fn deform_range(&self, index: u16) -> std::ops::Range<usize> {
        let (start, len) = self.deform_ranges[index as usize];
        start as usize..(start + len) as usize
    }

    /// How many bones.
    pub fn bone_count(&self) -> usize {
        self.parents.len()
    }

    /// Clip names, in clip index order.
    pub fn clip_names(&self) -> impl Iterator<Item = &str> {
        self.clips.iter().map(|c| c.name.as_str())
    }

    /// Adds another name for a clip (so one graph can drive skeletons whose clips are named
    /// differently). Returns false when `clip` does not exist.
    pub fn alias_clip(&mut self, alias: &str, clip: &str) -> bool {
        self.clip_names.alias(alias, clip)
    }

    /// A clip's duration.
    pub fn clip_duration(&self, name: &str) -> Option<f32> {
        self.clip_names.get(name).map(|i| self.clips[i].duration)
    }

    /// How many event keys a clip has (they are its sync markers).
    pub fn clip_event_count(&self, name: &str) -> usize {
        self.clip_names.get(name).map_or(0, |i| self.clips[i].events.len())
    }

    /// World transforms from local channels, then IK, in bone order (parents first).
    pub fn update_world(&self, pose: &mut Pose) {
        // Every bone in order (parents first), as `update_bone` does, with the channel slices
        // taken once (one bounds check per slice instead of one per value).
        let n = self.parents.len();
        let Pose { channels, world, active, inherit, .. } = pose;
        let (parents, active, inherit) = (&self.parents[..n], &active[..n], &inherit[..n]);
        let [xs, ys, rotations, sxs, sys, shxs, shys] = std::array::from_fn(|c| &channels[c][..n]);
        for b in 0..n {
            if !active[b] {
                continue;
            }
            let local = local_transform(xs[b], ys[b], rotations[b], sxs[b], sys[b], shxs[b], shys[b]);
            world[b] = place(world, parents[b], inherit[b], local, channels, b);
        }
        for (i, c) in self.order.iter().enumerate() {
            if !pose.constraint_active[i] {
                continue;
            }
            match *c {
                Constraint::Ik(i) => {
                    if pose.ik[i as usize].mix != 0.0 {
                        self.apply_ik(pose, i as usize);
                    }
                }
                Constraint::Transform(i) => self.apply_transform(pose, i as usize),
                Constraint::Path(i) => self.apply_path(pose, i as usize),
            }
        }
    }

    /// IK constraint `c`'s first bone.
    pub(crate) fn ik_first_bone(&self, c: usize) -> usize {
        self.ik[c].bones[0] as usize
    }

    /// Where path constraint `index`'s values start in [`Pose::mixes`].
    pub(crate) fn path_mixes(&self, index: usize) -> usize {
        6 * self.data.transform.len() + 5 * index
    }

    /// Recomputes bone `b`'s world transform from its channels and its parent's world.
    pub(crate) fn update_bone_world(&self, pose: &mut Pose, b: usize) {
        self.update_bone(pose, b);
    }

    fn update_bone(&self, pose: &mut Pose, b: usize) {
        let c = &pose.channels;
        let v = c.bone(b);
        let local = local_transform(v[X], v[Y], v[ROTATION], v[SCALE_X], v[SCALE_Y], v[SHEAR_X], v[SHEAR_Y]);
        pose.world[b] = place(&pose.world, self.parents[b], pose.inherit[b], local, c, b);
    }

    /// Recomputes world transforms of `from` and every bone after it that descends from it.
    fn update_descendants(&self, pose: &mut Pose, from: usize) {
        self.update_bone(pose, from);
        self.update_children(pose, from);
    }

    /// Recomputes world transforms of every bone after `from` that descends from it.
    fn update_children(&self, pose: &mut Pose, from: usize) {
        for b in from + 1..self.parents.len() {
            let mut p = self.parents[b];
            while let Some(parent) = p {
                if parent as usize == from {
                    self.update_bone(pose, b);
                    break;
                }
                p = self.parents[parent as usize];
            }
        }
    }

    /// Bone `b` as Spine sees it.
    fn spine_bone(&self, pose: &Pose, b: usize) -> SpineBone {
        let c = &pose.channels;
        let (a, bb, cc, d, world_x, world_y) = spine_world(pose.world[b]);
        let v = |channel: usize| f64::from(c[channel][b]);
        SpineBone {
            x: v(X),
            y: -v(Y),
            rotation: -v(ROTATION),
            scale_x: v(SCALE_X),
            scale_y: v(SCALE_Y),
            shear_x: -v(SHEAR_X),
            shear_y: -v(SHEAR_Y),
            a,
            b: bb,
            c: cc,
            d,
            world_x,
            world_y,
        }
    }

    /// The world of `b`'s parent as Spine sees it (identity for a root).
    fn spine_parent(&self, pose: &Pose, b: usize) -> (f64, f64, f64, f64, f64, f64) {
        self.parents[b].map_or((1.0, 0.0, 0.0, 1.0, 0.0, 0.0), |p| spine_world(pose.world[p as usize]))
    }

    /// Spine's `updateWorldTransformWith`: sets bone `b`'s local values (Spine's space) and
    /// recomputes its world transform.
    #[allow(clippy::too_many_arguments)]
    fn set_local(
        &self,
        pose: &mut Pose,
        b: usize,
        x: f64,
        y: f64,
        rotation: f64,
        sx: f64,
        sy: f64,
        shx: f64,
        shy: f64,
    ) {
        let c = &mut pose.channels;
        (c[X][b], c[Y][b], c[ROTATION][b]) = (x as f32, -y as f32, -rotation as f32);
        (c[SCALE_X][b], c[SCALE_Y][b]) = (sx as f32, sy as f32);
        (c[SHEAR_X][b], c[SHEAR_Y][b]) = (-shx as f32, -shy as f32);
        self.update_bone(pose, b);
    }

    /// Spine's one-bone IK (`IkConstraint.apply1`), in Spine's space: points the bone at the
    /// target, `alpha` of the way, and with compress or stretch scales it to reach.
    #[allow(clippy::too_many_arguments)]
    fn ik1(
        &self,
        pose: &mut Pose,
        b: usize,
        target: (f64, f64),
        compress: bool,
        stretch: bool,
        uniform: bool,
        alpha: f64,
    ) {
        let bone = self.spine_bone(pose, b);
        let (pa, mut pb, pc, mut pd, pwx, pwy) = self.spine_parent(pose, b);
        let inherit = pose.inherit[b];
        let mut rotation_ik = -bone.shear_x - bone.rotation;
        let (mut tx, mut ty);
        if inherit == Inherit::OnlyTranslation {
            tx = target.0 - bone.world_x;
            ty = target.1 - bone.world_y;
        } else {
            if inherit == Inherit::NoRotationOrReflection {
                let s = (pa * pd - pb * pc).abs() / (pa * pa + pc * pc).max(0.0001);
                let (sa, sc) = (pa, pc);
                pb = -sc * s;
                pd = sa * s;
                rotation_ik += sc.atan2(sa).to_degrees();
            }
            let (x, y) = (target.0 - pwx, target.1 - pwy);
            let d = pa * pd - pb * pc;
            if d.abs() <= 0.0001 {
                (tx, ty) = (0.0, 0.0);
            } else {
                tx = (x * pd - y * pb) / d - bone.x;
                ty = (y * pa - x * pc) / d - bone.y;
            }
        }
        rotation_ik += ty.atan2(tx).to_degrees();
        if bone.scale_x < 0.0 {
            rotation_ik += 180.0;
        }
        if rotation_ik > 180.0 {
            rotation_ik -= 360.0;
        } else if rotation_ik < -180.0 {
            rotation_ik += 360.0;
        }
        let (mut sx, mut sy) = (bone.scale_x, bone.scale_y);
        if compress || stretch {
            if matches!(inherit, Inherit::NoScale | Inherit::NoScaleOrReflection) {
                tx = target.0 - bone.world_x;
                ty = target.1 - bone.world_y;
            }
            let length = f64::from(self.data.bones[b].length) * sx;
            if length > 0.0001 {
                let dd = tx * tx + ty * ty;
                if (compress && dd < length * length) || (stretch && dd > length * length) {
                    let s = (dd.sqrt() / length - 1.0) * alpha + 1.0;
                    sx *= s;
                    if uniform {
                        sy *= s;
                    }
                }
            }
        }
        let rotation = bone.rotation + rotation_ik * alpha;
        self.set_local(pose, b, bone.x, bone.y, rotation, sx, sy, bone.shear_x, bone.shear_y);
    }

    /// Spine's two-bone IK (`IkConstraint.apply2`), in Spine's space: bends parent and child so
    /// the child's tip reaches the target (softness slows the chain near full reach; stretch
    /// scales the parent to reach further), `alpha` of the way. Chains whose bones do not
    /// inherit normally are left alone, as Spine leaves them.
    #[allow(clippy::too_many_arguments)]
    fn ik2(
        &self,
        pose: &mut Pose,
        p: usize,
        ch: usize,
        target: (f64, f64),
        bend: f64,
        stretch: bool,
        uniform: bool,
        softness: f64,
        alpha: f64,
    ) {
        use std::f64::consts::PI;
        if pose.inherit[p] != Inherit::Normal || pose.inherit[ch] != Inherit::Normal {
            return;
        }
        let parent = self.spine_bone(pose, p);
        let child = self.spine_bone(pose, ch);
        let (px, py) = (parent.x, parent.y);
        let (mut psx, mut psy) = (parent.scale_x, parent.scale_y);
        let (mut sx, mut sy) = (psx, psy);
        let mut csx = child.scale_x;
        let (os1, mut s2) = if psx < 0.0 {
            psx = -psx;
            (180.0, -1.0)
        } else {
            (0.0, 1.0)
        };
        if psy < 0.0 {
            psy = -psy;
            s2 = -s2;
        }
        let os2 = if csx < 0.0 {
            csx = -csx;
            180.0
        } else {
            0.0
        };
        let (cx, cy, cwx, cwy);
        let (mut a, mut b, mut c, mut d) = (parent.a, parent.b, parent.c, parent.d);
        let u = (psx - psy).abs() <= 0.0001;
        if !u || stretch {
            cy = 0.0;
            cx = child.x;
            cwx = a * cx + parent.world_x;
            cwy = c * cx + parent.world_y;
        } else {
            cx = child.x;
            cy = child.y;
            cwx = a * cx + b * cy + parent.world_x;
            cwy = c * cx + d * cy + parent.world_y;
        }
        let (ppa, ppb, ppc, ppd, ppx, ppy) = self.spine_parent(pose, p);
        (a, b, c, d) = (ppa, ppb, ppc, ppd);
        let mut id = a * d - b * c;
        let (mut x, mut y) = (cwx - ppx, cwy - ppy);
        id = if id.abs() <= 0.0001 { 0.0 } else { 1.0 / id };
        let dx = (x * d - y * b) * id - px;
        let dy = (y * a - x * c) * id - py;
        let l1 = (dx * dx + dy * dy).sqrt();
        let mut l2 = f64::from(self.data.bones[ch].length) * csx;
        if l1.is_nan() || l1 < 0.0001 {
            self.ik1(pose, p, target, false, stretch, false, alpha);
            self.set_local(pose, ch, cx, cy, 0.0, child.scale_x, child.scale_y, child.shear_x, child.shear_y);
            return;
        }
        x = target.0 - ppx;
        y = target.1 - ppy;
        let mut tx = (x * d - y * b) * id - px;
        let mut ty = (y * a - x * c) * id - py;
        let mut dd = tx * tx + ty * ty;
        if softness != 0.0 {
            let softness = softness * psx * (csx + 1.0) * 0.5;
            let td = dd.sqrt();
            let sd = td - l1 - l2 * psx + softness;
            if sd > 0.0 {
                let mut q = (sd / (softness * 2.0)).min(1.0) - 1.0;
                q = (sd - softness * (1.0 - q * q)) / td;
                tx -= q * tx;
                ty -= q * ty;
                dd = tx * tx + ty * ty;
            }
        }
        let (a1, a2);
        'outer: {
            if u {
                l2 *= psx;
                let mut cos = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
                let angle;
                if cos < -1.0 {
                    cos = -1.0;
                    angle = PI * bend;
                } else if cos > 1.0 {
                    cos = 1.0;
                    angle = 0.0;
                    if stretch {
                        let s = (dd.sqrt() / (l1 + l2) - 1.0) * alpha + 1.0;
                        sx *= s;
                        if uniform {
                            sy *= s;
                        }
                    }
                } else {
                    angle = cos.acos() * bend;
                }
                a2 = angle;
                let aa = l1 + l2 * cos;
                let bb = l2 * a2.sin();
                a1 = (ty * aa - tx * bb).atan2(tx * aa + ty * bb);
                break 'outer;
            }
            let aa0 = psx * l2;
            let bb0 = psy * l2;
            let (aa, bb, ta) = (aa0 * aa0, bb0 * bb0, ty.atan2(tx));
            let cq = bb * l1 * l1 + aa * dd - aa * bb;
            let (c1, c2) = (-2.0 * bb * l1, bb - aa);
            let disc = c1 * c1 - 4.0 * c2 * cq;
            if disc >= 0.0 {
                let mut q = disc.sqrt();
                if c1 < 0.0 {
                    q = -q;
                }
                q = -(c1 + q) * 0.5;
                let (r0, r1) = (q / c2, cq / q);
                let r = if r0.abs() < r1.abs() { r0 } else { r1 };
                let r0 = dd - r * r;
                if r0 >= 0.0 {
                    let y = r0.sqrt() * bend;
                    a1 = ta - y.atan2(r);
                    a2 = (y / psy).atan2((r - l1) / psx);
                    break 'outer;
                }
            }
            let (mut min_angle, mut min_x, mut min_y) = (PI, l1 - aa0, 0.0f64);
            let mut min_dist = min_x * min_x;
            let (mut max_angle, mut max_x, mut max_y) = (0.0f64, l1 + aa0, 0.0f64);
            let mut max_dist = max_x * max_x;
            let cc = -aa0 * l1 / (aa - bb);
            if (-1.0..=1.0).contains(&cc) {
                let cc = cc.acos();
                let x = aa0 * cc.cos() + l1;
                let y = bb0 * cc.sin();
                let dist = x * x + y * y;
                if dist < min_dist {
                    (min_angle, min_dist, min_x, min_y) = (cc, dist, x, y);
                }
                if dist > max_dist {
                    (max_angle, max_dist, max_x, max_y) = (cc, dist, x, y);
                }
            }
            if dd <= (min_dist + max_dist) * 0.5 {
                a1 = ta - (min_y * bend).atan2(min_x);
                a2 = min_angle * bend;
            } else {
                a1 = ta - (max_y * bend).atan2(max_x);
                a2 = max_angle * bend;
            }
        }
        let os = cy.atan2(cx) * s2;
        let wrap = |v: f64| {
            if v > 180.0 {
                v - 360.0
            } else if v < -180.0 {
                v + 360.0
            } else {
                v
            }
        };
        let r1 = wrap((a1 - os).to_degrees() + os1 - parent.rotation);
        self.set_local(pose, p, px, py, parent.rotation + r1 * alpha, sx, sy, 0.0, 0.0);
        let r2 = wrap(((a2 + os).to_degrees() - child.shear_x) * s2 + os2 - child.rotation);
        let rotation = child.rotation + r2 * alpha;
        self.set_local(
            pose,
            ch,
            cx,
            cy,
            rotation,
            child.scale_x,
            child.scale_y,
            child.shear_x,
            child.shear_y,
        );
    }

    /// Applies one IK constraint as Spine's runtime does, then updates the bones below it.
    fn apply_ik(&self, pose: &mut Pose, index: usize) {
        let ik = &self.ik[index];
        let state = pose.ik[index];
        let (_, _, _, _, tx, ty) = spine_world(pose.world[ik.target as usize]);
        let uniform = self.data.ik[index].uniform;
        match ik.bones.as_slice() {
            [bone] => {
                let b = *bone as usize;
                self.ik1(pose, b, (tx, ty), state.compress, state.stretch, uniform, f64::from(state.mix));
                self.update_descendants(pose, b);
            }
            [upper, lower] => {
                let (p, c) = (*upper as usize, *lower as usize);
                // Our y-down bend direction is Spine's mirrored.
                let bend = if state.bend_positive { -1.0 } else { 1.0 };
                let (softness, mix) = (f64::from(state.softness), f64::from(state.mix));
                self.ik2(pose, p, c, (tx, ty), bend, state.stretch, uniform, softness, mix);
                self.update_descendants(pose, p);
            }
            _ => {}
        }
    }
}

impl Skeleton2D {
    /// Spine's `TransformConstraint.update`, in Spine's space (the four modes: world or local,
    /// absolute or relative), each constrained bone's descendants recomputed after it.
    fn apply_transform(&self, pose: &mut Pose, index: usize) {
        use std::f64::consts::PI;
        let d = &self.data.transform[index];
        let m = |v: f32| f64::from(v);
        let mixes = &pose.mixes[6 * index..6 * index + 6];
        let (mix_rotate, mix_x, mix_y) = (m(mixes[0]), m(mixes[1]), m(mixes[2]));
        let (mix_scale_x, mix_scale_y, mix_shear_y) = (m(mixes[3]), m(mixes[4]), m(mixes[5]));
        if [mix_rotate, mix_x, mix_y, mix_scale_x, mix_scale_y, mix_shear_y].iter().all(|v| *v == 0.0) {
            return;
        }
        // Offsets in Spine's y-up space.
        let (offset_rotation, offset_x, offset_y) = (-m(d.offset_rotation), m(d.offset_x), -m(d.offset_y));
        let (offset_scale_x, offset_scale_y, offset_shear_y) =
            (m(d.offset_scale_x), m(d.offset_scale_y), -m(d.offset_shear_y));
        let c = &self.transform[index];
        let target = c.target as usize;
        let wrap = |r: f64| {
            if r > PI {
                r - 2.0 * PI
            } else if r < -PI {
                r + 2.0 * PI
            } else {
                r
            }
        };
        for &b in &c.bones {
            let b = b as usize;
            if d.local {
                let t = self.spine_bone(pose, target);
                let bone = self.spine_bone(pose, b);
                let (rotation, x, y, scale_x, scale_y, shear_y) = if d.relative {
                    (
                        bone.rotation + (t.rotation + offset_rotation) * mix_rotate,
                        bone.x + (t.x + offset_x) * mix_x,
                        bone.y + (t.y + offset_y) * mix_y,
                        bone.scale_x * ((t.scale_x - 1.0 + offset_scale_x) * mix_scale_x + 1.0),
                        bone.scale_y * ((t.scale_y - 1.0 + offset_scale_y) * mix_scale_y + 1.0),
                        bone.shear_y + (t.shear_y + offset_shear_y) * mix_shear_y,
                    )
                } else {
                    let mut rotation = bone.rotation;
                    if mix_rotate != 0.0 {
                        rotation += (t.rotation - rotation + offset_rotation) * mix_rotate;
                    }
                    let x = bone.x + (t.x - bone.x + offset_x) * mix_x;
                    let y = bone.y + (t.y - bone.y + offset_y) * mix_y;
                    let (mut scale_x, mut scale_y) = (bone.scale_x, bone.scale_y);
                    // As Spine 4.2 computes it (the result is divided by the bone's scale).
                    if mix_scale_x != 0.0 && scale_x != 0.0 {
                        scale_x = (scale_x + (t.scale_x - scale_x + offset_scale_x) * mix_scale_x) / scale_x;
                    }
                    if mix_scale_y != 0.0 && scale_y != 0.0 {
                        scale_y = (scale_y + (t.scale_y - scale_y + offset_scale_y) * mix_scale_y) / scale_y;
                    }
                    let mut shear_y = bone.shear_y;
                    if mix_shear_y != 0.0 {
                        shear_y += (t.shear_y - shear_y + offset_shear_y) * mix_shear_y;
                    }
                    (rotation, x, y, scale_x, scale_y, shear_y)
                };
                self.set_local(pose, b, x, y, rotation, scale_x, scale_y, bone.shear_x, shear_y);
            } else {
                let (ta, tb, tc, td, twx, twy) = spine_world(pose.world[target]);
                let reflect = if ta * td - tb * tc > 0.0 { 1.0 } else { -1.0 };
                let (offset_rotation, offset_shear_y) =
                    (offset_rotation.to_radians() * reflect, offset_shear_y.to_radians() * reflect);
                let (mut a, mut bb, mut cc, mut dd, mut wx, mut wy) = spine_world(pose.world[b]);
                if mix_rotate != 0.0 {
                    let r = if d.relative { tc.atan2(ta) } else { tc.atan2(ta) - cc.atan2(a) };
                    let r = wrap(r + offset_rotation) * mix_rotate;
                    let (sin, cos) = r.sin_cos();
                    (a, bb, cc, dd) =
                        (cos * a - sin * cc, cos * bb - sin * dd, sin * a + cos * cc, sin * bb + cos * dd);
                }
                if mix_x != 0.0 || mix_y != 0.0 {
                    let (px, py) = (offset_x * ta + offset_y * tb + twx, offset_x * tc + offset_y * td + twy);
                    if d.relative {
                        wx += px * mix_x;
                        wy += py * mix_y;
                    } else {
                        wx += (px - wx) * mix_x;
                        wy += (py - wy) * mix_y;
                    }
                }
                if mix_scale_x != 0.0 {
                    let s = if d.relative {
                        ((ta * ta + tc * tc).sqrt() - 1.0 + offset_scale_x) * mix_scale_x + 1.0
                    } else {
                        let s = (a * a + cc * cc).sqrt();
                        if s != 0.0 {
                            (s + ((ta * ta + tc * tc).sqrt() - s + offset_scale_x) * mix_scale_x) / s
                        } else {
                            s
                        }
                    };
                    a *= s;
                    cc *= s;
                }
                if mix_scale_y != 0.0 {
                    let s = if d.relative {
                        ((tb * tb + td * td).sqrt() - 1.0 + offset_scale_y) * mix_scale_y + 1.0
                    } else {
                        let s = (bb * bb + dd * dd).sqrt();
                        if s != 0.0 {
                            (s + ((tb * tb + td * td).sqrt() - s + offset_scale_y) * mix_scale_y) / s
                        } else {
                            s
                        }
                    };
                    bb *= s;
                    dd *= s;
                }
                if mix_shear_y > 0.0 {
                    let r = if d.relative {
                        let r = wrap(td.atan2(tb) - tc.atan2(ta));
                        dd.atan2(bb) + (r - PI / 2.0 + offset_shear_y) * mix_shear_y
                    } else {
                        let by = dd.atan2(bb);
                        let r = wrap(td.atan2(tb) - tc.atan2(ta) - (by - cc.atan2(a)));
                        by + (r + offset_shear_y) * mix_shear_y
                    };
                    let s = (bb * bb + dd * dd).sqrt();
                    (bb, dd) = (r.cos() * s, r.sin() * s);
                }
                self.store_world(pose, b, (a, bb, cc, dd, wx, wy));
                self.update_children(pose, b);
                continue;
            }
            self.update_descendants(pose, b);
        }
    }

    /// Sets bone `b`'s world matrix and position (Spine's space) as a constraint computed them,
    /// and its channels to the applied values (for constraints after it that read them); the
    /// world matrix stays as computed (Spine keeps it: the applied scale y of a sheared bone does
    /// not give it back exactly).
    pub(crate) fn store_world(&self, pose: &mut Pose, b: usize, world: (f64, f64, f64, f64, f64, f64)) {
        let (a, bb, cc, dd, wx, wy) = world;
        let (x, y, rotation, scale_x, scale_y, shear_y) = self.applied(pose, b, world);
        let ch = &mut pose.channels;
        (ch[X][b], ch[Y][b], ch[ROTATION][b]) = (x as f32, -y as f32, -rotation as f32);
        (ch[SCALE_X][b], ch[SCALE_Y][b]) = (scale_x as f32, scale_y as f32);
        (ch[SHEAR_X][b], ch[SHEAR_Y][b]) = (0.0, -shear_y as f32);
        pose.world[b] = Affine2::from_mat2_translation(
            Mat2::from_cols(Vec2::new(a as f32, -cc as f32), Vec2::new(-bb as f32, dd as f32)),
            Vec2::new(wx as f32, -wy as f32),
        );
    }

    /// Spine's `Bone.updateAppliedTransform`: the local values (Spine's space) that give bone
    /// `b` the world matrix `world` under its parent.
    fn applied(
        &self,
        pose: &Pose,
        b: usize,
        world: (f64, f64, f64, f64, f64, f64),
    ) -> (f64, f64, f64, f64, f64, f64) {
        let (a, bb, c, d, wx, wy) = world;
        let deg = 180.0 / std::f64::consts::PI;
        let Some(_) = self.parents[b] else {
            return (
                wx,
                wy,
                c.atan2(a) * deg,
                (a * a + c * c).sqrt(),
                (bb * bb + d * d).sqrt(),
                (a * bb + c * d).atan2(a * d - bb * c) * deg,
            );
        };
        let (mut pa, mut pb, mut pc, mut pd, pwx, pwy) = self.spine_parent(pose, b);
        let mut pid = 1.0 / (pa * pd - pb * pc);
        let (mut ia, mut ib, mut ic, mut id) = (pd * pid, pb * pid, pc * pid, pa * pid);
        let (dx, dy) = (wx - pwx, wy - pwy);
        let (x, y) = (dx * ia - dy * ib, dy * id - dx * ic);
        let inherit = pose.inherit[b];
        let (ra, rb, rc, rd) = if inherit == Inherit::OnlyTranslation {
            (a, bb, c, d)
        } else {
            match inherit {
                Inherit::NoRotationOrReflection => {
                    let s = (pa * pd - pb * pc).abs() / (pa * pa + pc * pc);
                    pb = -pc * s;
                    pd = pa * s;
                    pid = 1.0 / (pa * pd - pb * pc);
                    ia = pd * pid;
                    ib = pb * pid;
                }
                Inherit::NoScale | Inherit::NoScaleOrReflection => {
                    let rotation = -f64::from(pose.channels[ROTATION][b]);
                    let (sin, cos) = rotation.to_radians().sin_cos();
                    pa = pa * cos + pb * sin;
                    pc = pc * cos + pd * sin;
                    let mut s = (pa * pa + pc * pc).sqrt();
                    if s > 0.00001 {
                        s = 1.0 / s;
                    }
                    pa *= s;
                    pc *= s;
                    s = (pa * pa + pc * pc).sqrt();
                    if inherit == Inherit::NoScale && pid < 0.0 {
                        s = -s;
                    }
                    let r = std::f64::consts::PI / 2.0 + pc.atan2(pa);
                    pb = r.cos() * s;
                    pd = r.sin() * s;
                    pid = 1.0 / (pa * pd - pb * pc);
                    ia = pd * pid;
                    ib = pb * pid;
                    ic = pc * pid;
                    id = pa * pid;
                }
                _ => {}
            }
            (ia * a - ib * c, ia * bb - ib * d, id * c - ic * a, id * d - ic * bb)
        };
        let scale_x = (ra * ra + rc * rc).sqrt();
        if scale_x > 0.0001 {
            let det = ra * rd - rb * rc;
            (x, y, rc.atan2(ra) * deg, scale_x, det / scale_x, -(ra * rb + rc * rd).atan2(det) * deg)
        } else {
            (x, y, 90.0 - rd.atan2(rb) * deg, 0.0, (rb * rb + rd * rd).sqrt(), 0.0)
        }
    }
}

/// An angle difference in degrees brought into (-180, 180].
#[inline]
pub fn shortest(degrees: f32) -> f32 {
    // Most differences are already within half a turn (the arithmetic below returns them as
    // they are, bit for bit).
    if degrees > -180.0 && degrees <= 180.0 {
        return degrees;
    }
    // Whole turns by truncation (one instruction; `round` and `rem_euclid` are libm calls on
    // baseline x86-64), then at most one turn more either way; -180 maps to 180.
    let turns = degrees / 360.0;
    let d = if turns.abs() < 8_388_608.0 {
        degrees - 360.0 * (turns as i32 as f32)
    } else {
        // Too big for the subtraction to be exact; the remainder is.
        degrees.rem_euclid(360.0)
    };
    if d > 180.0 {
        d - 360.0
    } else if d <= -180.0 {
        d + 360.0
    } else {
        d
    }
}

#[cfg(test)]
mod tests {
    use super::shortest;
    use super::{Channel, group_by_key_times, key_place, sample_placed, sample_with_points, spine_points};
    use crate::data::{Curve, Key};

    fn channel(times: &[f32], curves: &[Curve]) -> Channel {
        let keys: Vec<Key> = times
            .iter()
            .enumerate()
            .map(|(i, &time)| Key {
                time,
                values: [i as f32 * 10.0 - 7.0, 3.0 - i as f32, 0.0, 0.0],
                arity: 2,
                curve: curves[i % curves.len()],
            })
            .collect();
        Channel { bone: 0, first: 0, width: 2, bits: 3, group: 0, points: spine_points(&keys), keys }
    }

    /// Channels whose key times are the same bits share a group, and a place found on the
    /// group's first channel samples every member exactly as its own search would.
    #[test]
    fn channels_with_the_same_key_times_share_one_search() {
        let spine = Curve::SpineBezier([0.25, 0.1, 0.25, 1.0]);
        let mut channels = vec![
            channel(&[0.0, 0.4, 1.0], &[Curve::Linear]),
            channel(&[0.0, 0.5, 1.0], &[Curve::Stepped]),
            channel(&[0.0, 0.4, 1.0], &[Curve::Bezier([0.4, 0.0, 0.6, 1.0]), spine]),
            channel(&[0.0, 0.4, 1.0, 1.5], &[Curve::Linear]),
            channel(&[0.0, 0.4, 1.0], &[Curve::SpineOffset([0.3, 2.0, 0.7, -1.0]), Curve::Linear]),
        ];
        let groups = group_by_key_times(&mut channels);
        assert_eq!(groups, [0, 1, 3]);
        assert_eq!(channels.iter().map(|c| c.group).collect::<Vec<_>>(), [0, 1, 0, 2, 0]);
        for t in [-1.0, 0.0, 0.1, 0.4, 0.41, 0.77, 1.0, 1.2, 1.5, 9.0] {
            for c in &channels {
                let place = key_place(&channels[groups[c.group as usize] as usize].keys, t);
                let shared = sample_placed(&c.keys, &c.points, place).map(f32::to_bits);
                assert_eq!(shared, sample_with_points(&c.keys, &c.points, t).map(f32::to_bits), "t {t}");
            }
        }
    }

    /// A memo shared across calls (same curve and time, other easings, other times, NaN)
    /// gives every call the bits `bezier` gives alone.
    #[test]
    fn a_shared_bezier_memo_changes_no_bits() {
        let curves =
            [[0.42, 0.0, 0.58, 1.0], [0.42, 0.3, 0.58, -2.0], [0.1, 0.9, 0.2, 0.1], [0.0, 0.0, 1.0, 1.0]];
        let times = [0.0, 0.25, 0.25, 0.5, 1.0, f32::NAN, f32::from_bits(u32::MAX), 0.7];
        let mut memo = super::BezierMemo::EMPTY;
        for u in times {
            for c in curves.iter().chain(curves.iter().rev()) {
                assert_eq!(memo.bezier(*c, u).to_bits(), super::bezier(*c, u).to_bits(), "{c:?} at {u}");
            }
        }
    }

    /// What `apply` resets and animation LOD moves: GBot (no constraints) only the channels
    /// its clips key; a skeleton with constraints every bone channel, as constraints store the
    /// applied values of the bones they move, and of the other values those its clips key.
    #[test]
    fn lod_moves_keyed_channels_and_every_channel_under_constraints() {
        use super::{CHANNELS, MOVING_COLORS, MOVING_MIXES, ROTATION, X, Y};
        use crate::{Skeleton2D, Skeleton2DData};
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot");
        let gbot = Skeleton2D::new(Skeleton2DData::load(format!("{dir}/gbot.mskel")).unwrap()).unwrap();
        assert_eq!(gbot.moving, 1 << X | 1 << Y | 1 << ROTATION);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/spine/oracle/ik-features.json");
        let text = std::fs::read_to_string(path).unwrap();
        let ik = crate::spine::import_spine_with_atlas(&text, None).unwrap();
        let ik = Skeleton2D::new(ik.data).unwrap();
        // ik-features keys IK mixes and no colours.
        assert_eq!(ik.moving, ((1 << CHANNELS) - 1) | MOVING_MIXES);
        assert_eq!(ik.moving & MOVING_COLORS, 0);
    }

    #[test]
    fn shortest_arc_is_within_half_a_turn() {
        for (input, expected) in [
            (0.0, 0.0),
            (190.0, -170.0),
            (-190.0, 170.0),
            (540.0, 180.0),
            (-180.0, 180.0),
            (359.0, -1.0),
            (-725.0, -5.0),
            (180.0, 180.0),
            (181.0, -179.0),
            (-179.0, -179.0),
        ] {
            assert!((shortest(input) - expected).abs() < 1e-3, "{input} -> {}", shortest(input));
        }
        // Huge angles take the exact remainder instead; still within half a turn.
        for huge in [1.0e12f32, -3.0e15, 7.5e30] {
            let d = shortest(huge);
            assert!(d > -180.0 && d <= 180.0, "{huge} -> {d}");
        }
        assert!(shortest(f32::NAN).is_nan());
    }
}
