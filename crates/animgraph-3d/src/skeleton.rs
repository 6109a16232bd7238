//! `Skeleton3D`: joints (parents first) with rest transforms, clips as keyed channels, and an
//! optional skinned mesh; built by the glTF importer.

use animgraph_runtime::core::ClipNames;

use glam::{Affine3A, Mat4, Quat, Vec2, Vec3, Vec4};

/// How a channel interpolates between keys (glTF's three modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// Lerp (translation, scale) or slerp (rotation).
    Linear,
    /// Hold each key until the next.
    Step,
    /// Cubic Hermite spline with in and out tangents per key.
    CubicSpline,
}

/// What a channel drives (ordered translation, rotation, scale, the order baked clips keep).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Property {
    /// Translation (xyz).
    Translation,
    /// Rotation (quaternion xyzw).
    Rotation,
    /// Scale (xyz).
    Scale,
}

/// One keyed channel of a clip.
#[derive(Clone, Debug)]
pub struct Channel {
    /// The joint.
    pub joint: u16,
    /// Translation, rotation or scale.
    pub property: Property,
    /// Interpolation.
    pub interpolation: Interpolation,
    /// Key times, ascending.
    pub times: Vec<f32>,
    /// Values (xyz in xyz for translation and scale, xyzw for rotation); for CubicSpline three
    /// per key: in-tangent, value, out-tangent.
    pub values: Vec<Vec4>,
}

/// How a channel's key times are laid out: evenly (the index of a time is arithmetic) or not
/// (binary search).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spacing {
    /// Keys every `1 / rate` seconds from `first`.
    Uniform {
        /// The first key's time.
        first: f32,
        /// Keys per second.
        rate: f32,
    },
    /// Anything else.
    Irregular,
}

impl Spacing {
    /// Finds out how `times` (ascending) are spaced: uniform when every key is within a
    /// thousandth of a step of its even place.
    pub fn of(times: &[f32]) -> Spacing {
        let n = times.len();
        if n < 3 {
            return Spacing::Irregular;
        }
        let (first, last) = (times[0], times[n - 1]);
        let step = (last - first) / (n - 1) as f32;
        if !(step > 0.0 && step.is_finite()) {
            return Spacing::Irregular;
        }
        let even =
            times.iter().enumerate().all(|(i, &t)| (t - (first + i as f32 * step)).abs() <= step * 1e-3);
        if even { Spacing::Uniform { first, rate: 1.0 / step } } else { Spacing::Irregular }
    }
}

/// A clip whose channels all share one set of linear keys, stored time-major
/// (`values[key * channels + channel]`): a frame reads two contiguous rows instead of two keys
/// from every channel's own array, and finds its place once for all channels. Channels are
/// ordered translations, rotations, scales (stable within each), so each property's loop is
/// branch-free; a joint's sums come out the same in any channel order.
#[derive(Clone, Debug)]
pub(crate) struct Baked {
    times: Vec<f32>,
    /// How `times` are spaced (uniform: the place is found in O(1)).
    spacing: Spacing,
    channels: usize,
    values: Vec<Vec4>,
    /// Per channel: its joint, contiguous (the loop over a row reads nothing else).
    pub(crate) joints: Vec<u16>,
    /// Where each property's channels end: translations `..ends[0]`, rotations
    /// `ends[0]..ends[1]`, scales `ends[1]..`.
    pub(crate) ends: [usize; 2],
}

/// Where a time falls among a baked clip's keys.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Place {
    /// At or before the first key, or at or after the last: that key.
    At(usize),
    /// Between keys `i` and `i + 1`, fraction `u`.
    Between(usize, f32),
}

/// Where `t` falls among `times` (ascending, not empty). With uniform `spacing` the key is found
/// in O(1): the arithmetic index is corrected to the exact place a binary search finds, so the
/// answer is the same bits either way.
#[inline]
pub(crate) fn place(times: &[f32], t: f32, spacing: Spacing) -> Place {
    let n = times.len();
    if t <= times[0] {
        return Place::At(0);
    }
    let next = match spacing {
        Spacing::Uniform { first, rate } => {
            // The count of keys at or before `t`, as partition_point gives it. A guess past the
            // keys (rates near f32's limits, from a broken file) falls back to the search.
            let guess = (t - first) * rate;
            if guess.is_nan() || guess >= n as f32 {
                return finish(times, t, times.partition_point(|&k| k <= t));
            }
            let mut next = (guess as usize + 1).min(n);
            while next < n && times[next] <= t {
                next += 1;
            }
            while next > 1 && times[next - 1] > t {
                next -= 1;
            }
            next
        }
        Spacing::Irregular => times.partition_point(|&k| k <= t),
    };
    finish(times, t, next)
}

/// The place for `next` keys at or before `t` (`t` is past the first key).
#[inline]
fn finish(times: &[f32], t: f32, next: usize) -> Place {
    let n = times.len();
    if next >= n {
        return Place::At(n - 1);
    }
    let i = next - 1;
    let dt = times[next] - times[i];
    Place::Between(i, if dt > 0.0 { (t - times[i]) / dt } else { 0.0 })
}

impl Baked {
    /// Bakes a clip when it qualifies.
    fn of(clip: &Clip3D) -> Option<Baked> {
        let first = clip.channels.first()?;
        // Unevenly spaced keys (a clip whose last key holds longer, as the Fox's Run) bake too:
        // the place is then a binary search, still once per sample rather than per channel.
        let spacing = Spacing::of(&first.times);
        let same = clip.channels.iter().all(|c| {
            c.interpolation == Interpolation::Linear
                && c.times == first.times
                && c.values.len() == c.times.len()
        });
        if !same {
            return None;
        }
        let (keys, channels) = (first.times.len(), clip.channels.len());
        let mut order: Vec<&Channel> = clip.channels.iter().collect();
        order.sort_by_key(|c| c.property);
        let ends = [
            order.partition_point(|c| c.property == Property::Translation),
            order.partition_point(|c| c.property != Property::Scale),
        ];
        let mut values = Vec::with_capacity(keys * channels);
        for k in 0..keys {
            for c in &order {
                // Rotation keys are stored unit length, so a key read as is needs no normalising.
                let v = c.values[k];
                values.push(if c.property == Property::Rotation {
                    Quat::from_vec4(v).normalize().into()
                } else {
                    v
                });
            }
        }
        let joints = order.iter().map(|c| c.joint).collect();
        Some(Baked { times: first.times.clone(), spacing, channels, values, joints, ends })
    }

    /// Where `t` falls among the keys.
    #[inline]
    pub(crate) fn place(&self, t: f32) -> Place {
        place(&self.times, t, self.spacing)
    }

    /// Key `k`'s values, one per channel.
    #[inline]
    pub(crate) fn row(&self, k: usize) -> &[Vec4] {
        &self.values[k * self.channels..(k + 1) * self.channels]
    }
}

impl Channel {
    /// The channel's value at `t` (clamped to its keys).
    pub fn sample(&self, t: f32) -> Vec4 {
        self.sample_spaced(t, Spacing::Irregular)
    }

    /// [`sample`](Self::sample), finding the keys around `t` in O(1) when they are evenly
    /// spaced. The answer is the same bits either way: the arithmetic index is corrected to the
    /// exact place a binary search finds.
    #[inline]
    pub fn sample_spaced(&self, t: f32, spacing: Spacing) -> Vec4 {
        let n = self.times.len();
        let value = |i: usize| {
            if self.interpolation == Interpolation::CubicSpline {
                self.values[3 * i + 1]
            } else {
                self.values[i]
            }
        };
        if n == 0 {
            return Vec4::ZERO;
        }
        let (i, u) = match place(&self.times, t, spacing) {
            Place::At(k) => return value(k),
            Place::Between(i, u) => (i, u),
        };
        let next = i + 1;
        let dt = self.times[next] - self.times[i];
        let rotation = self.property == Property::Rotation;
        match self.interpolation {
            Interpolation::Step => value(i),
            // Keys of a clip are close together, where a normalised lerp is within 1e-4 of glTF's
            // slerp (equal at the midpoint) at a fraction of the cost.
            Interpolation::Linear if rotation => {
                Quat::from_vec4(value(i)).lerp(Quat::from_vec4(value(next)), u).into()
            }
            Interpolation::Linear => value(i).lerp(value(next), u),
            Interpolation::CubicSpline => {
                let (p0, m0) = (self.values[3 * i + 1], self.values[3 * i + 2] * dt);
                let (p1, m1) = (self.values[3 * next + 1], self.values[3 * next] * dt);
                let (u2, u3) = (u * u, u * u * u);
                let v = p0 * (2.0 * u3 - 3.0 * u2 + 1.0)
                    + m0 * (u3 - 2.0 * u2 + u)
                    + p1 * (-2.0 * u3 + 3.0 * u2)
                    + m1 * (u3 - u2);
                if rotation { Quat::from_vec4(v).normalize().into() } else { v }
            }
        }
    }
}

/// A keyed morph-target weight channel: one weight per target of a [`MorphGroup`] per key.
#[derive(Clone, Debug)]
pub struct MorphChannel {
    /// The group (index into [`Skeleton3D::morph_groups`]).
    pub group: u16,
    /// Interpolation.
    pub interpolation: Interpolation,
    /// Key times, ascending.
    pub times: Vec<f32>,
    /// `group.count` weights per key, key-major (three such rows per key for CubicSpline:
    /// in-tangents, values, out-tangents).
    pub values: Vec<f32>,
}

impl MorphChannel {
    /// Writes the weights at `t` (clamped to the keys) into `out` (one per target).
    pub fn sample_into(&self, t: f32, out: &mut [f32]) {
        let n = out.len();
        let cubic = self.interpolation == Interpolation::CubicSpline;
        let row = |k: usize, part: usize| {
            let at = if cubic { (3 * k + part) * n } else { k * n };
            &self.values[at..at + n]
        };
        if self.times.is_empty() || self.values.len() < self.times.len() * n * if cubic { 3 } else { 1 } {
            return;
        }
        match place(&self.times, t, Spacing::Irregular) {
            Place::At(k) => out.copy_from_slice(row(k, 1)),
            Place::Between(i, u) => match self.interpolation {
                Interpolation::Step => out.copy_from_slice(row(i, 1)),
                Interpolation::Linear => {
                    for ((o, a), b) in out.iter_mut().zip(row(i, 1)).zip(row(i + 1, 1)) {
                        *o = a + (b - a) * u;
                    }
                }
                Interpolation::CubicSpline => {
                    let dt = self.times[i + 1] - self.times[i];
                    let (u2, u3) = (u * u, u * u * u);
                    for (k, o) in out.iter_mut().enumerate() {
                        let (p0, m0) = (row(i, 1)[k], row(i, 2)[k] * dt);
                        let (p1, m1) = (row(i + 1, 1)[k], row(i + 1, 0)[k] * dt);
                        *o = p0 * (2.0 * u3 - 3.0 * u2 + 1.0)
                            + m0 * (u3 - 2.0 * u2 + u)
                            + p1 * (-2.0 * u3 + 3.0 * u2)
                            + m1 * (u3 - u2);
                    }
                }
            },
        }
    }
}

/// A clip: a duration and channels.
#[derive(Clone, Debug, Default)]
pub struct Clip3D {
    /// Name.
    pub name: String,
    /// Seconds (the last key time).
    pub duration: f32,
    /// Joint channels.
    pub channels: Vec<Channel>,
    /// Morph-target weight channels.
    pub morph: Vec<MorphChannel>,
    /// Sync markers `(name, seconds)` in time order, from a `NAME.markers.json` sidecar.
    pub markers: Vec<(String, f32)>,
}

/// The morph targets of one mesh node (glTF's `weights` of a node): their weights are channels
/// the backend blends like joint channels. Masks include a group by naming its mesh node, or
/// through its `owner` joint (the joint carrying most of its mesh), with `IncludeChildren`.
#[derive(Clone, Debug)]
pub struct MorphGroup {
    /// The group's name for masks: the mesh node's name, with `.morph` added when a joint or an
    /// earlier group has that name.
    pub name: String,
    /// The mesh node's name as the file gives it (`simulate --poses` prints weights under it).
    pub node_name: String,
    /// The joint the group belongs to for masks.
    pub owner: u16,
    /// Its first weight in [`crate::Pose3D::morph_weights`].
    pub first: usize,
    /// Default weights (the node's or mesh's `weights`), one per target.
    pub default_weights: Vec<f32>,
}

/// One morph target's vertex offsets, only the vertices it moves.
#[derive(Clone, Debug, Default)]
pub struct MorphTarget {
    /// Vertex indices into the mesh.
    pub vertices: Vec<u32>,
    /// Position offsets (bind space).
    pub positions: Vec<Vec3>,
    /// Normal offsets (bind space).
    pub normals: Vec<Vec3>,
}

/// A skinned triangle mesh (positions in bind space).
#[derive(Clone, Debug, Default)]
pub struct SkinnedMesh {
    /// Vertex positions.
    pub positions: Vec<Vec3>,
    /// Vertex normals.
    pub normals: Vec<Vec3>,
    /// Texture coordinates (empty when untextured).
    pub uvs: Vec<Vec2>,
    /// Up to eight joints per vertex (indices into the skeleton's joints; glTF's `JOINTS_0` and
    /// `JOINTS_1`).
    pub joints: Vec<[u16; 8]>,
    /// Their weights (unused slots 0).
    pub weights: Vec<[f32; 8]>,
    /// Triangles.
    pub triangles: Vec<[u32; 3]>,
    /// Per triangle: index into `materials`.
    pub triangle_material: Vec<u16>,
    /// Base colours (RGBA) and an optional texture index per material.
    pub materials: Vec<(Vec4, Option<usize>)>,
    /// Decoded textures (RGBA8, width, height).
    pub textures: Vec<(Vec<u8>, u32, u32)>,
    /// Inverse bind matrices, per joint.
    pub inverse_bind: Vec<Mat4>,
    /// Morph targets, in the order of the skeleton's morph weights.
    pub morph_targets: Vec<MorphTarget>,
}

/// A 3D skeleton with its clips.
#[derive(Clone, Debug)]
pub struct Skeleton3D {
    /// Bone names (glTF joints), parents first.
    pub names: Vec<String>,
    /// Parent of each bone (parents come first).
    pub parents: Vec<Option<u16>>,
    /// Setup-pose (glTF rest) translation per bone.
    pub setup_translation: Vec<Vec3>,
    /// Setup-pose rotation per bone.
    pub setup_rotation: Vec<Quat>,
    /// Setup-pose scale per bone.
    pub setup_scale: Vec<Vec3>,
    /// Per bone: the static transform of the nodes between its parent (or the scene root) and
    /// it that are not bones (armature nodes, unit conversions, sockets); `None` is identity.
    /// A bone's world is `parent world x offset x local`.
    pub offsets: Vec<Option<Affine3A>>,
    /// Morph-target groups (one per mesh node with targets).
    pub morph_groups: Vec<MorphGroup>,
    /// How many morph weights the pose holds (the groups' targets together).
    pub morph_count: usize,
    /// Clips.
    pub clips: Vec<Clip3D>,
    /// The skinned mesh, when the file has one.
    pub mesh: Option<SkinnedMesh>,
    pub(crate) clip_names: ClipNames,
    /// Per clip, per channel: how its keys are spaced.
    pub(crate) spacing: Vec<Vec<Spacing>>,
    /// Per clip: its keys time-major, when every channel shares evenly spaced linear keys.
    pub(crate) baked: Vec<Option<Baked>>,
}

impl Skeleton3D {
    /// Assembles a skeleton (joints must be ordered parents first); `root_transform` is the
    /// offset of every root bone (see [`offsets`](Self::offsets) for other offsets).
    pub fn new(
        names: Vec<String>,
        parents: Vec<Option<u16>>,
        rest: Vec<(Vec3, Quat, Vec3)>,
        root_transform: Mat4,
        clips: Vec<Clip3D>,
        mesh: Option<SkinnedMesh>,
    ) -> Self {
        let clip_names = ClipNames::new(clips.iter().map(|c| c.name.as_str()));
        let spacing =
            clips.iter().map(|c| c.channels.iter().map(|ch| Spacing::of(&ch.times)).collect()).collect();
        let baked = clips.iter().map(Baked::of).collect();
        let root = (root_transform != Mat4::IDENTITY).then(|| Affine3A::from_mat4(root_transform));
        let offsets = parents.iter().map(|p| if p.is_none() { root } else { None }).collect();
        Skeleton3D {
            names,
            parents,
            setup_translation: rest.iter().map(|r| r.0).collect(),
            setup_rotation: rest.iter().map(|r| r.1).collect(),
            setup_scale: rest.iter().map(|r| r.2).collect(),
            offsets,
            morph_groups: Vec::new(),
            morph_count: 0,
            clips,
            mesh,
            clip_names,
            spacing,
            baked,
        }
    }

    /// Sets every bone's offset (identity matrices are stored as `None`).
    pub fn with_offsets(mut self, offsets: Vec<Mat4>) -> Self {
        self.offsets = offsets
            .into_iter()
            .map(|m| (!m.abs_diff_eq(Mat4::IDENTITY, 1e-7)).then(|| Affine3A::from_mat4(m)))
            .collect();
        self
    }

    /// Sets the morph-target groups.
    pub fn with_morph_groups(mut self, groups: Vec<MorphGroup>) -> Self {
        self.morph_count = groups.iter().map(|g| g.default_weights.len()).sum();
        self.morph_groups = groups;
        self
    }

    /// The default morph weights, in pose order.
    pub fn morph_defaults(&self) -> Vec<f32> {
        let mut w = vec![0.0; self.morph_count];
        for g in &self.morph_groups {
            w[g.first..g.first + g.default_weights.len()].copy_from_slice(&g.default_weights);
        }
        w
    }

    /// How many bones (glTF's joints; both backends say bone).
    pub fn bone_count(&self) -> usize {
        self.names.len()
    }

    /// Adds a clip (named uniquely by the caller), indexing it as [`new`](Self::new) does.
    pub fn push_clip(&mut self, clip: Clip3D) {
        self.spacing.push(clip.channels.iter().map(|ch| Spacing::of(&ch.times)).collect());
        self.baked.push(Baked::of(&clip));
        self.clip_names.insert(&clip.name, self.clips.len());
        self.clips.push(clip);
    }

    /// A bone's index by name.
    pub fn bone_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// A clip by name.
    pub fn clip(&self, name: &str) -> Option<&Clip3D> {
        self.clip_names.get(name).map(|i| &self.clips[i])
    }

    /// Adds another name for a clip (so one graph can drive skeletons whose clips are named
    /// differently, e.g. `walk` -> `Walking`). Returns false when `clip` does not exist.
    pub fn alias_clip(&mut self, alias: &str, clip: &str) -> bool {
        self.clip_names.alias(alias, clip)
    }
}
