//! Inertialization: the decaying offset a backend adds to a layer's pose after an inertial
//! transition starts, so the pose stays continuous in value and velocity while only the target
//! is sampled. One rule for every backend.
//!
//! At the start frame the backend measures, per pose component, the offset `x0` between where
//! the pose was heading (its value the frame before, moved on at its velocity) and the target's
//! pose, and the offset's velocity `v0` (the pose's velocity minus the target's). The offset then
//! follows a quintic polynomial (David Bollo, "Inertialization: High-Performance Animation
//! Transitions in Gears of War", GDC 2018) that starts at `x0` with velocity `v0` and reaches 0
//! with zero velocity and acceleration at `end`, no later than the transition's `Duration`:
//!
//! ```text
//! x(t) = A t^5 + B t^4 + C t^3 + a0/2 t^2 + v0 t + x0,   a0 = (-8 v0 T - 20 x0) / T^2
//! A = -(a0 T^2 + 6 v0 T + 12 x0) / (2 T^5)
//! B =  (3 a0 T^2 + 16 v0 T + 30 x0) / (2 T^4)
//! C = -(3 a0 T^2 + 12 v0 T + 20 x0) / (2 T^3)
//! ```
//!
//! Two guards keep it from overshooting: an offset moving away from zero starts with no
//! velocity (`v0 = 0`), and one moving towards zero ends no later than `-5 x0 / v0`, where the
//! curve would otherwise cross zero.

/// One component's decaying offset, its polynomial's coefficients computed once at the start.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Offset {
    /// The offset at the start.
    pub x0: f32,
    /// Its velocity at the start (per second).
    pub v0: f32,
    /// Seconds after the start at which it is 0 (at most the blend's remaining duration; 0 for
    /// an offset that is 0 from the start).
    pub end: f32,
    /// `A`, `B`, `C` and `a0 / 2` of the module's polynomial.
    coefficients: [f32; 4],
}

impl Offset {
    /// The offset starting at `x0` with velocity `v0`, to be gone `duration` seconds later.
    pub fn new(x0: f32, v0: f32, duration: f32) -> Offset {
        if !(x0.is_finite() && v0.is_finite() && duration.is_finite())
            || duration <= 0.0
            || (x0 == 0.0 && v0 == 0.0)
        {
            return Offset::default();
        }
        let v0 = if x0 * v0 > 0.0 { 0.0 } else { v0 };
        let end = if v0 != 0.0 && x0 * v0 < 0.0 { duration.min(-5.0 * x0 / v0) } else { duration };
        if end <= 0.0 {
            return Offset::default();
        }
        let e2 = end * end;
        let a0 = (-8.0 * v0 * end - 20.0 * x0) / e2;
        let a = -(a0 * e2 + 6.0 * v0 * end + 12.0 * x0) / (2.0 * e2 * e2 * end);
        let b = (3.0 * a0 * e2 + 16.0 * v0 * end + 30.0 * x0) / (2.0 * e2 * e2);
        let c = -(3.0 * a0 * e2 + 12.0 * v0 * end + 20.0 * x0) / (2.0 * e2 * end);
        Offset { x0, v0, end, coefficients: [a, b, c, 0.5 * a0] }
    }

    /// The offset `t` seconds after the start (0 from `end` on).
    #[inline]
    pub fn at(&self, t: f32) -> f32 {
        if t >= self.end {
            return 0.0;
        }
        if t <= 0.0 {
            return self.x0;
        }
        let [a, b, c, half_a0] = self.coefficients;
        (((((a * t + b) * t + c) * t + half_a0) * t + self.v0) * t) + self.x0
    }
}

/// Whether an inertial blend starts this frame on any layer (the frame a backend measures its
/// offsets).
pub fn starts(layers: &[crate::LayerInfo]) -> bool {
    layers.iter().any(|l| l.inertial.is_some_and(|i| i.started))
}

/// The samples as they were the frame before (`time` = `prev_time`), into `out` up to its
/// capacity (no allocation): what a backend poses to read the target's velocity.
pub fn at_previous_times(samples: &[crate::ClipSample], out: &mut Vec<crate::ClipSample>) {
    out.clear();
    let room = out.capacity();
    out.extend(samples.iter().take(room).map(|s| crate::ClipSample {
        time: s.prev_time,
        looped: false,
        ..*s
    }));
}

/// `sin(h)` and `cos(h)` for `|h| <= pi / 2` from their Taylor series (errors below 2e-4 and
/// 3e-5), for [`exp_rotation`]: plain arithmetic, the same bits on every machine, and no library
/// call per joint per frame.
#[inline]
fn half_sin_cos(h: f32) -> (f32, f32) {
    let h2 = h * h;
    let sin = h * (1.0 - h2 / 6.0 * (1.0 - h2 / 20.0 * (1.0 - h2 / 42.0)));
    let cos = 1.0 - h2 / 2.0 * (1.0 - h2 / 12.0 * (1.0 - h2 / 30.0 * (1.0 - h2 / 56.0)));
    (sin, cos)
}

/// The rotation of a scaled axis `[x, y, z]` (angle = its length, at most pi) as a unit
/// quaternion `[x, y, z, w]`: the exponential map backends apply rotation offsets with.
#[inline]
pub fn exp_rotation(v: [f32; 3]) -> [f32; 4] {
    let angle = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt().min(std::f32::consts::PI);
    if angle < 1e-9 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let (sin, cos) = half_sin_cos(0.5 * angle);
    let k = sin / angle;
    let q = [v[0] * k, v[1] * k, v[2] * k, cos];
    let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    [q[0] / n, q[1] / n, q[2] / n, q[3] / n]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_starts_at_x0_with_v0_and_ends_at_zero_smoothly() {
        let o = Offset::new(1.0, -2.0, 0.5);
        assert_eq!(o.at(0.0), 1.0);
        let h = 1e-3;
        assert!(((o.at(h) - o.at(0.0)) / h + 2.0).abs() < 0.05, "starting velocity");
        assert_eq!(o.at(0.5), 0.0);
        assert!(o.at(0.5 - h).abs() < 1e-6, "reaches 0 with zero velocity: {}", o.at(0.5 - h));
        // Without velocity the curve is (1 - t)^4 (1 + 4t) over end 1 (Bollo's a0 = -20 x0).
        let still = Offset::new(1.0, 0.0, 1.0);
        for t in [0.1f32, 0.25, 0.5, 0.8] {
            let expected = (1.0 - t).powi(4) * (1.0 + 4.0 * t);
            assert!((still.at(t) - expected).abs() < 1e-5, "t {t}: {} vs {expected}", still.at(t));
        }
    }

    #[test]
    fn offsets_never_overshoot_zero() {
        for (x0, v0) in [(1.0, -50.0), (1.0, 3.0), (-0.5, 20.0), (-0.5, -1.0), (0.2, -0.1)] {
            let o = Offset::new(x0, v0, 0.4);
            for i in 0..=400 {
                let x = o.at(i as f32 * 0.001);
                assert!(x * x0 >= -1e-5, "x0 {x0} v0 {v0}: {x} at step {i}");
            }
        }
        assert_eq!(Offset::new(f32::NAN, 0.0, 1.0), Offset::default());
        assert_eq!(Offset::new(1.0, 0.0, 0.0).at(0.0), 0.0);
        assert_eq!(Offset::new(0.0, 0.0, 1.0).end, 0.0, "nothing to decay");
    }

    #[test]
    fn the_exponential_map_matches_the_library_within_2e4() {
        for i in 0..=200 {
            let angle = std::f32::consts::PI * i as f32 / 200.0;
            let axis = [0.48f32, -0.6, 0.64];
            let v = [axis[0] * angle, axis[1] * angle, axis[2] * angle];
            let q = exp_rotation(v);
            let (s, c) = (0.5 * angle).sin_cos();
            let expected = [axis[0] * s, axis[1] * s, axis[2] * s, c];
            for k in 0..4 {
                assert!((q[k] - expected[k]).abs() < 2e-4, "angle {angle}: {q:?} vs {expected:?}");
            }
        }
    }
}
