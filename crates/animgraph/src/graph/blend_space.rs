//! Blend spaces: clips placed at positions, weighted by where a parameter point falls.

/// Most clips a 1D blend space weights at once (the two positions around the parameter).
pub const MAX_WEIGHTS_1D: usize = 2;

/// The weights of a 1D blend space at `x`: the two positions around it weighted linearly, the
/// end clip at full weight beyond either end, a single point always at full weight. Writes
/// `(point index, weight)` pairs with weight > 0 into `out` and returns how many (1 or 2). The
/// weights sum to 1.
///
/// `positions` must be non-empty and strictly ascending (validated at bind).
pub fn weights_1d(positions: &[f32], x: f32, out: &mut [(u16, f32); MAX_WEIGHTS_1D]) -> usize {
    let last = positions.len() - 1;
    if last == 0 || x <= positions[0] {
        out[0] = (0, 1.0);
        return 1;
    }
    if x >= positions[last] {
        out[0] = (last as u16, 1.0);
        return 1;
    }
    // The segment [positions[i], positions[i + 1]) holding x; spaces are small, so a linear
    // scan beats a binary search.
    let mut i = 0;
    while positions[i + 1] <= x {
        i += 1;
    }
    let t = (x - positions[i]) / (positions[i + 1] - positions[i]);
    if t <= 0.0 {
        out[0] = (i as u16, 1.0);
        return 1;
    }
    out[0] = (i as u16, 1.0 - t);
    out[1] = (i as u16 + 1, t);
    2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weights(positions: &[f32], x: f32) -> Vec<(u16, f32)> {
        let mut out = [(0, 0.0); MAX_WEIGHTS_1D];
        let n = weights_1d(positions, x, &mut out);
        out[..n].to_vec()
    }

    fn assert_close(actual: Vec<(u16, f32)>, expected: &[(u16, f32)]) {
        assert_eq!(actual.len(), expected.len(), "{actual:?}");
        for (a, e) in actual.iter().zip(expected) {
            assert!(a.0 == e.0 && (a.1 - e.1).abs() < 1e-6, "{actual:?} != {expected:?}");
        }
    }

    #[test]
    fn between_positions_weights_linearly() {
        assert_close(weights(&[0.0, 1.5, 4.0], 0.75), &[(0, 0.5), (1, 0.5)]);
        assert_close(weights(&[0.0, 1.5, 4.0], 3.5), &[(1, 0.2), (2, 0.8)]);
    }

    #[test]
    fn at_a_position_that_clip_has_full_weight() {
        assert_eq!(weights(&[0.0, 1.5, 4.0], 1.5), vec![(1, 1.0)]);
        assert_eq!(weights(&[0.0, 1.5, 4.0], 0.0), vec![(0, 1.0)]);
        assert_eq!(weights(&[0.0, 1.5, 4.0], 4.0), vec![(2, 1.0)]);
    }

    #[test]
    fn beyond_the_ends_the_end_clip_has_full_weight() {
        assert_eq!(weights(&[0.0, 1.5, 4.0], -3.0), vec![(0, 1.0)]);
        assert_eq!(weights(&[0.0, 1.5, 4.0], 99.0), vec![(2, 1.0)]);
    }

    #[test]
    fn single_point_blend_space_is_always_that_clip() {
        for x in [-1.0, 0.0, 2.0, 1e9] {
            assert_eq!(weights(&[2.0], x), vec![(0, 1.0)]);
        }
    }

    #[test]
    fn weights_sum_to_one_and_are_never_negative() {
        let positions = [-2.0, -0.5, 0.0, 1.0, 7.5];
        for i in -400..400 {
            let x = i as f32 * 0.037;
            let w = weights(&positions, x);
            let sum: f32 = w.iter().map(|(_, w)| w).sum();
            assert!((sum - 1.0).abs() < 1e-6, "x={x}: {w:?}");
            assert!(w.iter().all(|(_, w)| *w > 0.0));
        }
    }
}
