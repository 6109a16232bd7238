//! 2D blend spaces: named edge cases, invariants, and the grid against a brute-force search.

use animgraph_runtime::graph::blend_space::{MAX_WEIGHTS_2D, Shape2D, Triangulation2D};

fn weights(space: &Triangulation2D, p: [f32; 2]) -> Vec<(u16, f32)> {
    let mut out = [(0, 0.0); MAX_WEIGHTS_2D];
    let n = space.weights(p, &mut out);
    let w = out[..n].to_vec();
    let sum: f32 = w.iter().map(|x| x.1).sum();
    assert!((sum - 1.0).abs() <= 1e-6, "{p:?}: weights {w:?} sum to {sum}");
    assert!(w.iter().all(|x| x.1 > 0.0), "{p:?}: {w:?}");
    w
}

fn weight_of(w: &[(u16, f32)], point: u16) -> f32 {
    w.iter().find(|x| x.0 == point).map_or(0.0, |x| x.1)
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

/// The Fox-style 9-point locomotion space: centre, 4 directions, 4 diagonals.
fn nine_points() -> Vec<[f32; 2]> {
    vec![
        [0.0, 0.0],
        [0.0, 1.0],
        [0.0, -1.0],
        [-1.0, 0.0],
        [1.0, 0.0],
        [-1.0, 1.0],
        [1.0, 1.0],
        [-1.0, -1.0],
        [1.0, -1.0],
    ]
}

#[test]
fn single_point_blend_space_is_always_that_clip() {
    let space = Triangulation2D::new(&[[3.0, -2.0]]);
    assert_eq!(space.shape(), Shape2D::Point);
    for p in [[0.0, 0.0], [3.0, -2.0], [-1e6, 1e6]] {
        assert_eq!(weights(&space, p), vec![(0, 1.0)]);
    }
}

#[test]
fn two_point_blend_space_falls_back_to_1d() {
    let space = Triangulation2D::new(&[[0.0, 0.0], [2.0, 2.0]]);
    assert_eq!(space.shape(), Shape2D::Line);
    let w = weights(&space, [1.0, 1.0]);
    assert!(close(weight_of(&w, 0), 0.5) && close(weight_of(&w, 1), 0.5), "{w:?}");
    // Off the line: projected onto it.
    let w = weights(&space, [2.0, 0.0]);
    assert!(close(weight_of(&w, 0), 0.5), "{w:?}");
    // Beyond the ends: the end point.
    assert_eq!(weights(&space, [-5.0, -5.0]), vec![(0, 1.0)]);
    assert_eq!(weights(&space, [9.0, 9.0]), vec![(1, 1.0)]);
}

#[test]
fn collinear_blend_space_falls_back_to_1d() {
    // Out of order along the line on purpose.
    let space = Triangulation2D::new(&[[2.0, 0.0], [0.0, 0.0], [5.0, 0.0], [1.0, 0.0]]);
    assert_eq!(space.shape(), Shape2D::Line);
    assert!(space.triangles().is_empty());
    let w = weights(&space, [1.5, 3.0]);
    assert!(close(weight_of(&w, 3), 0.5) && close(weight_of(&w, 0), 0.5), "{w:?}");
    let w = weights(&space, [3.5, -1.0]);
    assert!(close(weight_of(&w, 0), 0.5) && close(weight_of(&w, 2), 0.5), "{w:?}");
}

#[test]
fn triangulations_use_every_point_once_without_overlaps() {
    for points in [
        nine_points(),
        vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
        vec![[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0], [2.0, 1.5]],
    ] {
        let space = Triangulation2D::new(&points);
        assert_eq!(space.shape(), Shape2D::Triangles);
        let mut used = vec![false; points.len()];
        for t in space.triangles() {
            let mut corners = t.to_vec();
            corners.sort();
            corners.dedup();
            assert_eq!(corners.len(), 3, "degenerate triangle {t:?}");
            for &c in t {
                used[c as usize] = true;
            }
        }
        assert!(used.iter().all(|u| *u), "a point is in no triangle");
        // Triangle areas add up to the hull's area: no overlaps, no gaps.
        let area = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
            ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])).abs() / 2.0
        };
        let triangles: f32 = space
            .triangles()
            .iter()
            .map(|t| area(points[t[0] as usize], points[t[1] as usize], points[t[2] as usize]))
            .sum();
        let hull = space.hull_edges();
        let origin = points[hull[0][0] as usize];
        let hull_area: f32 =
            hull.iter().map(|e| area(origin, points[e[0] as usize], points[e[1] as usize])).sum();
        assert!((triangles - hull_area).abs() < 1e-4, "triangles {triangles} vs hull {hull_area}");
    }
}

#[test]
fn point_on_a_vertex_is_that_clip_alone() {
    let space = Triangulation2D::new(&nine_points());
    for (i, p) in nine_points().iter().enumerate() {
        let w = weights(&space, *p);
        assert!(close(weight_of(&w, i as u16), 1.0), "vertex {i}: {w:?}");
    }
}

#[test]
fn point_on_an_edge_weights_only_its_two_ends() {
    let space = Triangulation2D::new(&nine_points());
    // Midway between centre (0) and right (4): an edge of the triangulation.
    let w = weights(&space, [0.5, 0.0]);
    assert!(close(weight_of(&w, 0), 0.5) && close(weight_of(&w, 4), 0.5), "{w:?}");
    // A hull edge: between up-left (5) and up (1).
    let w = weights(&space, [-0.25, 1.0]);
    assert!(close(weight_of(&w, 5), 0.25) && close(weight_of(&w, 1), 0.75), "{w:?}");
}

#[test]
fn point_at_the_centroid_weights_three_clips_equally() {
    let points = [[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]];
    let space = Triangulation2D::new(&points);
    let w = weights(&space, [1.0, 1.0]);
    assert_eq!(w.len(), 3);
    for i in 0..3 {
        assert!(close(weight_of(&w, i), 1.0 / 3.0), "{w:?}");
    }
}

#[test]
fn point_far_outside_each_hull_edge_projects_onto_it() {
    let points = [[0.0, 0.0], [4.0, 0.0], [4.0, 2.0], [0.0, 2.0]];
    let space = Triangulation2D::new(&points);
    // Far below the bottom edge (0-1), a quarter along it.
    let w = weights(&space, [1.0, -100.0]);
    assert!(close(weight_of(&w, 0), 0.75) && close(weight_of(&w, 1), 0.25), "{w:?}");
    // Far right of the right edge (1-2), halfway up.
    let w = weights(&space, [100.0, 1.0]);
    assert!(close(weight_of(&w, 1), 0.5) && close(weight_of(&w, 2), 0.5), "{w:?}");
    // Far above the top edge (2-3).
    let w = weights(&space, [3.0, 50.0]);
    assert!(close(weight_of(&w, 2), 0.75) && close(weight_of(&w, 3), 0.25), "{w:?}");
    // Far left of the left edge (3-0).
    let w = weights(&space, [-70.0, 0.5]);
    assert!(close(weight_of(&w, 0), 0.75) && close(weight_of(&w, 3), 0.25), "{w:?}");
    // Beyond a corner: that corner alone.
    assert!(close(weight_of(&weights(&space, [10.0, 10.0]), 2), 1.0));
}

/// SplitMix64.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn float(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

#[test]
fn grid_lookup_agrees_with_brute_force_on_100k_points() {
    let mut rng = Rng(7);
    let mut spaces = vec![Triangulation2D::new(&nine_points())];
    for _ in 0..4 {
        let points: Vec<[f32; 2]> = (0..40).map(|_| [rng.float(-5.0, 5.0), rng.float(-3.0, 3.0)]).collect();
        spaces.push(Triangulation2D::new(&points));
    }
    let mut inside = 0;
    for i in 0..100_000 {
        let space = &spaces[i % spaces.len()];
        let p = [rng.float(-6.0, 6.0), rng.float(-4.0, 4.0)];
        let grid = space.find_triangle(p);
        let brute = space.find_triangle_brute_force(p);
        // Both must agree on inside/outside; on a shared edge either neighbour is right, so
        // compare the weights they give rather than the triangle index.
        assert_eq!(grid.is_some(), brute.is_some(), "point {p:?}");
        if grid.is_some() {
            inside += 1;
        }
        weights(space, p);
    }
    assert!(inside > 30_000, "only {inside} points fell inside a hull");
}

#[test]
fn weights_sum_to_one_and_are_never_negative_anywhere() {
    let mut rng = Rng(99);
    let space = Triangulation2D::new(&nine_points());
    for _ in 0..20_000 {
        weights(&space, [rng.float(-50.0, 50.0), rng.float(-50.0, 50.0)]);
    }
    // Huge coordinates stay finite and normalised.
    weights(&space, [1e30, -1e30]);
}
