//! Path constraints: Spine 4.2's `PathConstraint.update`, ported to run on our poses.
//!
//! Bones are placed along the cubic bezier chain of the path attachment their target slot
//! shows: by arc length (constant speed, Spine's 10-segment flattening per curve) or by the
//! path's setup curve lengths; spaced by bone length, a fixed distance, a fraction of the path
//! or in proportion to their lengths; turned along the tangent or toward the next bone (chain),
//! optionally scaled to reach it (chain scale). The computation runs in Spine's y-up space on
//! our mirrored world transforms, in `f64` as Spine's JavaScript runtime does, with scratch
//! storage sized when the skeleton is built (no allocation per frame).

use std::f64::consts::PI;

use glam::Vec2;

use crate::data::{PositionMode, RotateMode, SpacingMode};
use crate::skeleton::{Pose, Skeleton2D, spine_world};

const EPSILON: f64 = 0.00001;
const NONE: i64 = -1;
const BEFORE: i64 = -2;
const AFTER: i64 = -3;

/// A path constraint with its bones and target slot resolved.
#[derive(Clone, Debug)]
pub(crate) struct BoundPath {
    pub bones: Vec<u16>,
    pub slot: u16,
}

/// Per-pose scratch for path constraints, sized at bind for the largest path and chain.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathScratch {
    /// The path's world vertices in our space.
    vertices: Vec<Vec2>,
    /// The same, y-up, flat (x, y, ...), with room for a closed path's repeated point.
    world: Vec<f64>,
    spaces: Vec<f64>,
    positions: Vec<f64>,
    lengths: Vec<f64>,
    curves: Vec<f64>,
}

impl PathScratch {
    /// Storage for paths of up to `vertices` vertices and chains of up to `bones` bones.
    pub(crate) fn new(vertices: usize, bones: usize) -> PathScratch {
        PathScratch {
            vertices: vec![Vec2::ZERO; vertices],
            world: vec![0.0; 2 * vertices + 8],
            spaces: vec![0.0; bones + 1],
            positions: vec![0.0; 3 * (bones + 1) + 2],
            lengths: vec![0.0; bones],
            curves: vec![0.0; vertices / 3 + 1],
        }
    }
}

fn wrap(r: f64) -> f64 {
    if r > PI {
        r - 2.0 * PI
    } else if r < -PI {
        r + 2.0 * PI
    } else {
        r
    }
}

impl Skeleton2D {
    /// Spine's `PathConstraint.update` for path constraint `index`, with its position, spacing
    /// and mixes from `pose.mixes`.
    pub(crate) fn apply_path(&self, pose: &mut Pose, index: usize) {
        let data = &self.data.path[index];
        let bound = &self.path[index];
        let slot = bound.slot as usize;
        let Some(attachment) = pose.attachments[slot] else { return };
        let attachment = attachment as usize;
        let Some(shape) = self.geometry[attachment].path.as_ref() else { return };
        let m = self.path_mixes(index);
        let values = &pose.mixes[m..m + 5];
        let (position, spacing) = (f64::from(values[0]), f64::from(values[1]));
        let (mix_rotate, mix_x, mix_y) = (f64::from(values[2]), f64::from(values[3]), f64::from(values[4]));
        if mix_rotate == 0.0 && mix_x == 0.0 && mix_y == 0.0 {
            return;
        }
        // A pose of this skeleton carries the scratch; one put together otherwise borrows a copy
        // of the setup pose's.
        let Some(mut scratch) = pose.path_scratch.take().or_else(|| self.setup.path_scratch.clone()) else {
            return;
        };
        // The path's world vertices, y-up.
        let count = self.geometry[attachment].vertices.len();
        self.world_vertices(pose, slot, attachment, &mut scratch.vertices[..count]);
        let tangents = data.rotate_mode == RotateMode::Tangent;
        let scale = data.rotate_mode == RotateMode::ChainScale;
        let bones = &bound.bones;
        let bone_count = bones.len();
        let spaces_count = if tangents { bone_count } else { bone_count + 1 };
        let length_of = |b: usize| f64::from(self.data.bones[b].length);
        {
            let PathScratch { spaces, lengths, .. } = &mut *scratch;
            let spaces = &mut spaces[..spaces_count];
            match data.spacing_mode {
                SpacingMode::Percent => {
                    if scale {
                        for i in 0..spaces_count - 1 {
                            let b = bones[i] as usize;
                            let (a, _, c, _, _, _) = spine_world(pose.world[b]);
                            let setup = length_of(b);
                            let (x, y) = (setup * a, setup * c);
                            lengths[i] = (x * x + y * y).sqrt();
                        }
                    }
                    spaces[1..].fill(spacing);
                }
                SpacingMode::Proportional => {
                    let mut sum = 0.0;
                    for i in 0..spaces_count - 1 {
                        let b = bones[i] as usize;
                        let setup = length_of(b);
                        if setup < EPSILON {
                            if scale {
                                lengths[i] = 0.0;
                            }
                            spaces[i + 1] = spacing;
                        } else {
                            let (a, _, c, _, _, _) = spine_world(pose.world[b]);
                            let (x, y) = (setup * a, setup * c);
                            let length = (x * x + y * y).sqrt();
                            if scale {
                                lengths[i] = length;
                            }
                            spaces[i + 1] = length;
                            sum += length;
                        }
                    }
                    if sum > 0.0 {
                        let f = spaces_count as f64 / sum * spacing;
                        for s in &mut spaces[1..] {
                            *s *= f;
                        }
                    }
                }
                SpacingMode::Length | SpacingMode::Fixed => {
                    let length_spacing = data.spacing_mode == SpacingMode::Length;
                    for i in 0..spaces_count - 1 {
                        let b = bones[i] as usize;
                        let setup = length_of(b);
                        if setup < EPSILON {
                            if scale {
                                lengths[i] = 0.0;
                            }
                            spaces[i + 1] = spacing;
                        } else {
                            let (a, _, c, _, _, _) = spine_world(pose.world[b]);
                            let (x, y) = (setup * a, setup * c);
                            let length = (x * x + y * y).sqrt();
                            if scale {
                                lengths[i] = length;
                            }
                            spaces[i + 1] =
                                (if length_spacing { setup + spacing } else { spacing }) * length / setup;
                        }
                    }
                }
            }
            spaces[0] = 0.0;
        }
        compute_world_positions(&mut scratch, count, shape, data, position, spaces_count, tangents);
        let positions = &scratch.positions;
        let (mut bone_x, mut bone_y) = (positions[0], positions[1]);
        let mut offset_rotation = -f64::from(data.offset_rotation);
        let tip = if offset_rotation == 0.0 {
            data.rotate_mode == RotateMode::Chain
        } else {
            let (pa, pb, pc, pd, _, _) = spine_world(pose.world[self.slot_bones[slot] as usize]);
            offset_rotation *= if pa * pd - pb * pc > 0.0 { PI / 180.0 } else { -PI / 180.0 };
            false
        };
        for (i, &bone) in bones.iter().enumerate().take(bone_count) {
            let p = 3 * (i + 1);
            let b = bone as usize;
            let (mut a, mut bb, mut c, mut d, mut wx, mut wy) = spine_world(pose.world[b]);
            wx += (bone_x - wx) * mix_x;
            wy += (bone_y - wy) * mix_y;
            let (x, y) = (positions[p], positions[p + 1]);
            let (dx, dy) = (x - bone_x, y - bone_y);
            if scale {
                let length = scratch.lengths[i];
                if length != 0.0 {
                    let s = ((dx * dx + dy * dy).sqrt() / length - 1.0) * mix_rotate + 1.0;
                    a *= s;
                    c *= s;
                }
            }
            bone_x = x;
            bone_y = y;
            if mix_rotate > 0.0 {
                let mut r = if tangents {
                    positions[p - 1]
                } else if scratch.spaces[i + 1] == 0.0 {
                    positions[p + 2]
                } else {
                    dy.atan2(dx)
                };
                r -= c.atan2(a);
                if tip {
                    let (sin, cos) = r.sin_cos();
                    let length = length_of(b);
                    bone_x += (length * (cos * a - sin * c) - dx) * mix_rotate;
                    bone_y += (length * (sin * a + cos * c) - dy) * mix_rotate;
                } else {
                    r += offset_rotation;
                }
                let r = wrap(r) * mix_rotate;
                let (sin, cos) = r.sin_cos();
                (a, bb, c, d) =
                    (cos * a - sin * c, cos * bb - sin * d, sin * a + cos * c, sin * bb + cos * d);
            }
            self.store_world(pose, b, (a, bb, c, d, wx, wy));
        }
        pose.path_scratch = Some(scratch);
        // Spine updates the constrained bones' other descendants after the constraint.
        let first = bones.iter().copied().min().unwrap_or(0) as usize;
        for b in first + 1..self.parents.len() {
            if bones.contains(&(b as u16)) {
                continue;
            }
            let mut p = self.parents[b];
            while let Some(parent) = p {
                if bones.contains(&parent) {
                    self.update_bone_world(pose, b);
                    break;
                }
                p = self.parents[parent as usize];
            }
        }
    }
}

/// Spine's `PathConstraint.computeWorldPositions`: `spaces_count` positions (x, y, rotation)
/// along the path into `scratch.positions`, from its `count` world vertices in
/// `scratch.vertices`.
fn compute_world_positions(
    scratch: &mut PathScratch,
    count: usize,
    shape: &crate::attachment::PathShape,
    data: &crate::data::PathData,
    mut position: f64,
    spaces_count: usize,
    tangents: bool,
) {
    let PathScratch { vertices, world, spaces, positions: out, curves, .. } = scratch;
    // y-up, flat.
    let all = &mut world[..];
    for (i, v) in vertices[..count].iter().enumerate() {
        all[2 * i] = f64::from(v.x);
        all[2 * i + 1] = -f64::from(v.y);
    }
    let closed = shape.closed;
    let mut vertices_length = 2 * count;
    let mut curve_count = (vertices_length / 6) as i64;
    let mut prev_curve = NONE;
    let percent_position = data.position_mode == PositionMode::Percent;
    let spaces = &spaces[..spaces_count];
    if !shape.constant_speed {
        let lengths = &shape.lengths;
        curve_count -= if closed { 1 } else { 2 };
        let Some(&path_length) = usize::try_from(curve_count).ok().and_then(|c| lengths.get(c)) else {
            return;
        };
        let path_length = f64::from(path_length);
        if percent_position {
            position *= path_length;
        }
        let multiplier = match data.spacing_mode {
            SpacingMode::Percent => path_length,
            SpacingMode::Proportional => path_length / spaces_count as f64,
            _ => 1.0,
        };
        // `seg` holds 8 floats: one curve (or 4 for before / after).
        let mut seg = [0.0f64; 8];
        let mut curve = 0usize;
        for (i, &space) in spaces.iter().enumerate().take(spaces_count) {
            let o = 3 * i;
            let space = space * multiplier;
            position += space;
            let mut p = position;
            if closed {
                p %= path_length;
                if p < 0.0 {
                    p += path_length;
                }
                curve = 0;
            } else if p < 0.0 {
                if prev_curve != BEFORE {
                    prev_curve = BEFORE;
                    seg[..4].copy_from_slice(&all[2..6]);
                }
                add_before_position(p, &seg, 0, out, o);
                continue;
            } else if p > path_length {
                if prev_curve != AFTER {
                    prev_curve = AFTER;
                    seg[..4].copy_from_slice(&all[vertices_length - 6..vertices_length - 2]);
                }
                add_after_position(p - path_length, &seg, 0, out, o);
                continue;
            }
            // The curve containing the position.
            loop {
                let Some(&length) = lengths.get(curve) else { return };
                let length = f64::from(length);
                if p > length {
                    curve += 1;
                    continue;
                }
                if curve == 0 {
                    p /= length;
                } else {
                    let prev = f64::from(lengths[curve - 1]);
                    p = (p - prev) / (length - prev);
                }
                break;
            }
            if curve as i64 != prev_curve {
                prev_curve = curve as i64;
                if closed && curve as i64 == curve_count {
                    seg[..4].copy_from_slice(&all[vertices_length - 4..vertices_length]);
                    seg[4..].copy_from_slice(&all[..4]);
                } else {
                    let start = curve * 6 + 2;
                    let Some(src) = all.get(start..start + 8) else { return };
                    seg.copy_from_slice(src);
                }
            }
            let [x1, y1, cx1, cy1, cx2, cy2, x2, y2] = seg;
            add_curve_position(
                p,
                [x1, y1, cx1, cy1, cx2, cy2, x2, y2],
                out,
                o,
                tangents || (i > 0 && space == 0.0),
            );
        }
        return;
    }
    // World vertices of the whole path (a closed one ends on its first point again).
    let world: &[f64] = if closed {
        vertices_length += 2;
        // [2..n) then [0..2), then the first point again.
        all.copy_within(0..2, 2 * count);
        let (first_x, first_y) = (all[2], all[3]);
        all[2 * count + 2] = first_x;
        all[2 * count + 3] = first_y;
        &all[2..2 * count + 4]
    } else {
        curve_count -= 1;
        vertices_length -= 4;
        &all[2..2 + vertices_length]
    };
    let curve_count = curve_count.max(0) as usize;
    // Curve lengths.
    let curves = &mut curves[..curve_count];
    let mut path_length = 0.0;
    let (mut x1, mut y1) = (world[0], world[1]);
    let (mut cx1, mut cy1, mut cx2, mut cy2, mut x2, mut y2);
    for (i, length) in curves.iter_mut().enumerate() {
        let w = 2 + 6 * i;
        (cx1, cy1, cx2, cy2, x2, y2) =
            (world[w], world[w + 1], world[w + 2], world[w + 3], world[w + 4], world[w + 5]);
        let tmpx = (x1 - cx1 * 2.0 + cx2) * 0.1875;
        let tmpy = (y1 - cy1 * 2.0 + cy2) * 0.1875;
        let dddfx = ((cx1 - cx2) * 3.0 - x1 + x2) * 0.09375;
        let dddfy = ((cy1 - cy2) * 3.0 - y1 + y2) * 0.09375;
        let (mut ddfx, mut ddfy) = (tmpx * 2.0 + dddfx, tmpy * 2.0 + dddfy);
        let mut dfx = (cx1 - x1) * 0.75 + tmpx + dddfx * 0.16666667;
        let mut dfy = (cy1 - y1) * 0.75 + tmpy + dddfy * 0.16666667;
        path_length += (dfx * dfx + dfy * dfy).sqrt();
        dfx += ddfx;
        dfy += ddfy;
        ddfx += dddfx;
        ddfy += dddfy;
        path_length += (dfx * dfx + dfy * dfy).sqrt();
        dfx += ddfx;
        dfy += ddfy;
        path_length += (dfx * dfx + dfy * dfy).sqrt();
        dfx += ddfx + dddfx;
        dfy += ddfy + dddfy;
        path_length += (dfx * dfx + dfy * dfy).sqrt();
        *length = path_length;
        x1 = x2;
        y1 = y2;
    }
    if percent_position {
        position *= path_length;
    }
    let multiplier = match data.spacing_mode {
        SpacingMode::Percent => path_length,
        SpacingMode::Proportional => path_length / spaces_count as f64,
        _ => 1.0,
    };
    let mut segments = [0.0f64; 10];
    let mut curve_length = 0.0;
    let (mut curve, mut segment) = (0usize, 0usize);
    let mut c = [0.0f64; 8];
    for (i, &space) in spaces.iter().enumerate().take(spaces_count) {
        let o = 3 * i;
        let space = space * multiplier;
        position += space;
        let mut p = position;
        if closed {
            p %= path_length;
            if p < 0.0 {
                p += path_length;
            }
            curve = 0;
        } else if p < 0.0 {
            add_before_position(p, world, 0, out, o);
            continue;
        } else if p > path_length {
            add_after_position(p - path_length, world, vertices_length - 4, out, o);
            continue;
        }
        // The curve containing the position.
        loop {
            let Some(&length) = curves.get(curve) else { return };
            if p > length {
                curve += 1;
                continue;
            }
            if curve == 0 {
                p /= length;
            } else {
                let prev = curves[curve - 1];
                p = (p - prev) / (length - prev);
            }
            break;
        }
        // Its segment lengths.
        if curve as i64 != prev_curve {
            prev_curve = curve as i64;
            let ii = curve * 6;
            c.copy_from_slice(&world[ii..ii + 8]);
            let [x1, y1, cx1, cy1, cx2, cy2, x2, y2] = c;
            let tmpx = (x1 - cx1 * 2.0 + cx2) * 0.03;
            let tmpy = (y1 - cy1 * 2.0 + cy2) * 0.03;
            let dddfx = ((cx1 - cx2) * 3.0 - x1 + x2) * 0.006;
            let dddfy = ((cy1 - cy2) * 3.0 - y1 + y2) * 0.006;
            let (mut ddfx, mut ddfy) = (tmpx * 2.0 + dddfx, tmpy * 2.0 + dddfy);
            let mut dfx = (cx1 - x1) * 0.3 + tmpx + dddfx * 0.16666667;
            let mut dfy = (cy1 - y1) * 0.3 + tmpy + dddfy * 0.16666667;
            curve_length = (dfx * dfx + dfy * dfy).sqrt();
            segments[0] = curve_length;
            for s in &mut segments[1..8] {
                dfx += ddfx;
                dfy += ddfy;
                ddfx += dddfx;
                ddfy += dddfy;
                curve_length += (dfx * dfx + dfy * dfy).sqrt();
                *s = curve_length;
            }
            dfx += ddfx;
            dfy += ddfy;
            curve_length += (dfx * dfx + dfy * dfy).sqrt();
            segments[8] = curve_length;
            dfx += ddfx + dddfx;
            dfy += ddfy + dddfy;
            curve_length += (dfx * dfx + dfy * dfy).sqrt();
            segments[9] = curve_length;
            segment = 0;
        }
        // Weighted by segment length.
        p *= curve_length;
        loop {
            let length = segments[segment.min(9)];
            if p > length && segment < 9 {
                segment += 1;
                continue;
            }
            if segment == 0 {
                p /= length;
            } else {
                let prev = segments[segment - 1];
                p = segment as f64 + (p - prev) / (length - prev);
            }
            break;
        }
        add_curve_position(p * 0.1, c, out, o, tangents || (i > 0 && space == 0.0));
    }
}

fn add_before_position(p: f64, temp: &[f64], i: usize, out: &mut [f64], o: usize) {
    let (x1, y1) = (temp[i], temp[i + 1]);
    let r = (temp[i + 3] - y1).atan2(temp[i + 2] - x1);
    out[o] = x1 + p * r.cos();
    out[o + 1] = y1 + p * r.sin();
    out[o + 2] = r;
}

fn add_after_position(p: f64, temp: &[f64], i: usize, out: &mut [f64], o: usize) {
    let (x1, y1) = (temp[i + 2], temp[i + 3]);
    let r = (y1 - temp[i + 1]).atan2(x1 - temp[i]);
    out[o] = x1 + p * r.cos();
    out[o + 1] = y1 + p * r.sin();
    out[o + 2] = r;
}

fn add_curve_position(p: f64, c: [f64; 8], out: &mut [f64], o: usize, tangents: bool) {
    let [x1, y1, cx1, cy1, cx2, cy2, x2, y2] = c;
    if p == 0.0 || p.is_nan() {
        out[o] = x1;
        out[o + 1] = y1;
        out[o + 2] = (cy1 - y1).atan2(cx1 - x1);
        return;
    }
    let (tt, u) = (p * p, 1.0 - p);
    let (ttt, uu) = (tt * p, u * u);
    let uuu = uu * u;
    let ut = u * p;
    let ut3 = ut * 3.0;
    let (uut3, utt3) = (u * ut3, ut3 * p);
    let x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt;
    let y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt;
    out[o] = x;
    out[o + 1] = y;
    if tangents {
        out[o + 2] = if p < 0.001 {
            (cy1 - y1).atan2(cx1 - x1)
        } else {
            (y - (y1 * uu + cy1 * ut * 2.0 + cy2 * tt)).atan2(x - (x1 * uu + cx1 * ut * 2.0 + cx2 * tt))
        };
    }
}
