//! Foot plants found in 3D clips: the sync markers `animgraph markers` writes to a model's
//! `NAME.markers.json` (see [`crate::import::markers_path`]).
//!
//! Each named foot joint is followed through the clip in world space (sampled evenly, at least
//! 16 times, the clip alone at full weight). A foot is planted while it is in the lowest quarter
//! of its height range (glTF's y is up), its vertical speed is within a quarter of its fastest,
//! and it is not moving forward (the direction it swings in the air) faster than a quarter of
//! its swing speed: a planted foot slides back in an in-place clip or stays put with root
//! motion, while a foot tapping the ground on its way through moves forward. A marker goes
//! where each plant starts, the sample the foot touches down (touch-downs of one foot within a
//! fifth of the clip of each other count once). Clips in which a foot
//! hardly moves (an idle) get no markers for it.

use std::sync::Arc;

use animgraph_runtime::{ClipSample, LayerInfo, PoseBackend};

use crate::{Skeleton3D, Skeleton3DPoseBackend};

/// A foot to follow: its joint and the marker name its plants get.
#[derive(Clone, Debug, PartialEq)]
pub struct Foot {
    /// The joint's name.
    pub joint: String,
    /// The marker's name (`L`, `R`, ...).
    pub marker: String,
}

/// Share of a foot's height range above its lowest point that still counts as on the ground.
pub const GROUND_SHARE: f32 = 0.25;

/// Share of a foot's fastest vertical speed below which it counts as still (touched down).
pub const STILL_SHARE: f32 = 0.25;

/// The foot plants of `clip`: `(marker, seconds)` in time order. Errors name a missing clip or
/// joint.
pub fn foot_plants(
    skeleton: &Arc<Skeleton3D>,
    clip: &str,
    feet: &[Foot],
    samples_per_second: f32,
) -> Result<Vec<(String, f32)>, String> {
    let mut backend = Skeleton3DPoseBackend::new(skeleton.clone());
    let id = backend.resolve_clip(clip).ok_or_else(|| format!("the model has no clip \"{clip}\""))?;
    let joints: Vec<usize> = feet
        .iter()
        .map(|f| {
            skeleton.bone_index(&f.joint).ok_or_else(|| {
                format!(
                    "the model has no joint \"{}\"; name one of its joints (see `animgraph lint --skeleton`)",
                    f.joint
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let duration = backend.clip_length(id).max(1e-3);
    let n = ((duration * samples_per_second.max(1.0)).ceil() as usize).clamp(16, 100_000);
    let dt = duration / n as f32;
    let layers = [LayerInfo::default()];
    // Per foot, per sample: the joint's world position.
    let mut paths = vec![Vec::with_capacity(n); feet.len()];
    for k in 0..n {
        let time = k as f32 * dt;
        let sample = ClipSample { clip: id, time, prev_time: time, weight: 1.0, layer: 0, looped: false };
        backend.apply(&[sample], &layers);
        for (path, &j) in paths.iter_mut().zip(&joints) {
            path.push(glam::Vec3::from(backend.pose.world[j].translation));
        }
    }
    let mut markers = Vec::new();
    for (foot, path) in feet.iter().zip(&paths) {
        let heights: Vec<f32> = path.iter().map(|p| p.y).collect();
        let (low, high) = heights.iter().fold((f32::MAX, f32::MIN), |(l, h), &y| (l.min(y), h.max(y)));
        // A foot that barely lifts (against the clip's own scale) is not stepping.
        let reach = path.iter().map(|p| p.length()).fold(0.0f32, f32::max).max(1e-6);
        if high - low < 1e-3 * reach {
            continue;
        }
        // Vertical speed: a foot touching down has stopped falling. (Speed along the ground
        // cannot tell: in an in-place clip the planted foot slides back as fast as the other
        // swings forward.)
        let rise: Vec<f32> =
            (0..n).map(|k| (heights[(k + 1) % n] - heights[(k + n - 1) % n]) / (2.0 * dt)).collect();
        let fastest = rise.iter().fold(0.0f32, |m, r| m.max(r.abs()));
        let ground = low + GROUND_SHARE * (high - low);
        // Along the ground: the swing (the foot in the air) goes forward; a planted foot goes
        // backward (an in-place clip) or stays (root motion), while a foot merely tapping the
        // ground on its way through still goes forward.
        let along: Vec<glam::Vec2> = (0..n)
            .map(|k| {
                let (a, b) = (path[(k + n - 1) % n], path[(k + 1) % n]);
                glam::Vec2::new(b.x - a.x, b.z - a.z) / (2.0 * dt)
            })
            .collect();
        let swing: glam::Vec2 = (0..n).filter(|&k| heights[k] > ground).map(|k| along[k]).sum();
        let forward = swing.normalize_or_zero();
        let swing_speed =
            (0..n).filter(|&k| heights[k] > ground).map(|k| along[k].length()).fold(0.0f32, f32::max);
        let planted: Vec<bool> = (0..n)
            .map(|k| {
                heights[k] <= ground
                    && rise[k].abs() <= STILL_SHARE * fastest
                    && along[k].dot(forward) <= STILL_SHARE * swing_speed
            })
            .collect();
        let mut found: Vec<usize> = Vec::new();
        for k in 0..n {
            if planted[k] && !planted[(k + n - 1) % n] {
                found.push(k);
            }
        }
        // One plant per contact: touch-downs of one foot closer than a fifth of the clip (a
        // foot settling) count once, the first.
        let apart = n / 5;
        let mut kept: Vec<usize> = Vec::new();
        for &k in &found {
            let near = |a: usize, b: usize| (a + n - b) % n < apart || (b + n - a) % n < apart;
            if !kept.iter().any(|&q| near(k, q)) {
                kept.push(k);
            }
        }
        markers.extend(kept.into_iter().map(|k| (foot.marker.clone(), k as f32 * dt)));
    }
    markers.sort_by(|a, b| a.1.total_cmp(&b.1));
    Ok(markers)
}
