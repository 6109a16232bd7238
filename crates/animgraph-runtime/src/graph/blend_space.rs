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

/// Most clips a 2D blend space weights at once (the three corners of a triangle).
pub const MAX_WEIGHTS_2D: usize = 3;

/// The shape a set of 2D positions makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape2D {
    /// One point: always full weight.
    Point,
    /// Two points, or all on one line: blended in 1D along that line.
    Line,
    /// A Delaunay triangulation: barycentric weights inside, nearest hull edge outside.
    Triangles,
}

/// A bound 2D blend space: the Delaunay triangulation of its positions, its convex hull and a
/// uniform grid over the triangles for O(1) average point lookup. Built once at bind; read-only
/// afterwards (the editor draws the runtime's own triangles from it).
#[derive(Clone, Debug)]
pub struct Triangulation2D {
    points: Vec<[f32; 2]>,
    shape: Shape2D,
    triangles: Vec<[u16; 3]>,
    hull: Vec<[u16; 2]>,
    /// Line shape: point indices sorted along the line, and their positions on it.
    line_order: Vec<u16>,
    line_positions: Vec<f32>,
    line_origin: [f64; 2],
    line_direction: [f64; 2],
    grid: Grid,
}

#[derive(Clone, Debug, Default)]
struct Grid {
    min: [f64; 2],
    max: [f64; 2],
    cell: [f64; 2],
    columns: usize,
    rows: usize,
    /// Per cell, a range into `items`.
    cells: Vec<(u32, u32)>,
    /// Triangle indices.
    items: Vec<u16>,
}

fn barycentric(a: [f32; 2], b: [f32; 2], c: [f32; 2], p: [f32; 2]) -> [f64; 3] {
    let (ax, ay) = (a[0] as f64, a[1] as f64);
    let (v0x, v0y) = (b[0] as f64 - ax, b[1] as f64 - ay);
    let (v1x, v1y) = (c[0] as f64 - ax, c[1] as f64 - ay);
    let (v2x, v2y) = (p[0] as f64 - ax, p[1] as f64 - ay);
    let d = v0x * v1y - v1x * v0y;
    let u = (v2x * v1y - v1x * v2y) / d;
    let v = (v0x * v2y - v2x * v0y) / d;
    [1.0 - u - v, u, v]
}

/// Tolerance for "inside a triangle", in barycentric units.
const INSIDE_EPSILON: f64 = 1e-9;

impl Triangulation2D {
    /// Triangulates positions (no two equal, all finite: validated before bind).
    ///
    /// # Panics
    /// On an empty slice, or more than 65,535 points.
    pub fn new(points: &[[f32; 2]]) -> Self {
        use spade::{DelaunayTriangulation, Point2, Triangulation};
        assert!(!points.is_empty() && points.len() <= u16::MAX as usize, "1..=65535 points");
        let mut space = Triangulation2D {
            points: points.to_vec(),
            shape: Shape2D::Point,
            triangles: Vec::new(),
            hull: Vec::new(),
            line_order: Vec::new(),
            line_positions: Vec::new(),
            line_origin: [0.0; 2],
            line_direction: [0.0; 2],
            grid: Grid::default(),
        };
        if points.len() == 1 {
            return space;
        }
        let mut delaunay: DelaunayTriangulation<Point2<f64>> = DelaunayTriangulation::new();
        // spade's vertex index of each of our points (they match insertion order, but map to be safe).
        let mut ours = vec![0u16; points.len()];
        let mut inserted = true;
        for (i, p) in points.iter().enumerate() {
            match delaunay.insert(Point2::new(p[0] as f64, p[1] as f64)) {
                Ok(handle) => {
                    if handle.index() < ours.len() {
                        ours[handle.index()] = i as u16;
                    } else {
                        inserted = false;
                    }
                }
                Err(_) => inserted = false,
            }
        }
        if !inserted || delaunay.num_vertices() != points.len() || delaunay.num_inner_faces() == 0 {
            space.build_line();
            return space;
        }
        for face in delaunay.inner_faces() {
            let [a, b, c] = face.vertices();
            space.triangles.push([ours[a.fix().index()], ours[b.fix().index()], ours[c.fix().index()]]);
        }
        for edge in delaunay.convex_hull() {
            space.hull.push([ours[edge.from().fix().index()], ours[edge.to().fix().index()]]);
        }
        space.shape = Shape2D::Triangles;
        space.build_grid();
        space
    }

    fn build_line(&mut self) {
        self.shape = Shape2D::Line;
        let origin = [self.points[0][0] as f64, self.points[0][1] as f64];
        // The direction towards the point farthest from the first one.
        let far = self
            .points
            .iter()
            .map(|p| (p[0] as f64 - origin[0], p[1] as f64 - origin[1]))
            .max_by(|a, b| (a.0 * a.0 + a.1 * a.1).total_cmp(&(b.0 * b.0 + b.1 * b.1)))
            .unwrap_or((1.0, 0.0));
        let length = (far.0 * far.0 + far.1 * far.1).sqrt();
        let direction = if length > 0.0 { [far.0 / length, far.1 / length] } else { [1.0, 0.0] };
        let along = |p: &[f32; 2]| {
            (p[0] as f64 - origin[0]) * direction[0] + (p[1] as f64 - origin[1]) * direction[1]
        };
        let mut order: Vec<u16> = (0..self.points.len() as u16).collect();
        order.sort_by(|&a, &b| along(&self.points[a as usize]).total_cmp(&along(&self.points[b as usize])));
        self.line_positions = order.iter().map(|&i| along(&self.points[i as usize]) as f32).collect();
        // Positions must ascend strictly for the 1D rule; distinct points on a line do, unless
        // f32 rounding merges two: nudge those apart.
        for i in 1..self.line_positions.len() {
            if self.line_positions[i] <= self.line_positions[i - 1] {
                self.line_positions[i] = self.line_positions[i - 1].next_up();
            }
        }
        self.line_order = order;
        self.line_origin = origin;
        self.line_direction = direction;
    }

    fn build_grid(&mut self) {
        let mut min = [f64::MAX; 2];
        let mut max = [f64::MIN; 2];
        for p in &self.points {
            for axis in 0..2 {
                min[axis] = min[axis].min(p[axis] as f64);
                max[axis] = max[axis].max(p[axis] as f64);
            }
        }
        let side = ((self.triangles.len() as f64).sqrt().ceil() as usize).clamp(1, 64);
        let cell = [
            ((max[0] - min[0]) / side as f64).max(f64::MIN_POSITIVE),
            ((max[1] - min[1]) / side as f64).max(f64::MIN_POSITIVE),
        ];
        let mut buckets: Vec<Vec<u16>> = vec![Vec::new(); side * side];
        for (t, tri) in self.triangles.iter().enumerate() {
            let mut lo = [f64::MAX; 2];
            let mut hi = [f64::MIN; 2];
            for &v in tri {
                for axis in 0..2 {
                    lo[axis] = lo[axis].min(self.points[v as usize][axis] as f64);
                    hi[axis] = hi[axis].max(self.points[v as usize][axis] as f64);
                }
            }
            let c0 = (((lo[0] - min[0]) / cell[0]).floor() as usize).min(side - 1);
            let c1 = (((hi[0] - min[0]) / cell[0]).floor() as usize).min(side - 1);
            let r0 = (((lo[1] - min[1]) / cell[1]).floor() as usize).min(side - 1);
            let r1 = (((hi[1] - min[1]) / cell[1]).floor() as usize).min(side - 1);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    buckets[r * side + c].push(t as u16);
                }
            }
        }
        let mut cells = Vec::with_capacity(buckets.len());
        let mut items = Vec::new();
        for bucket in buckets {
            let start = items.len() as u32;
            items.extend(bucket);
            cells.push((start, items.len() as u32));
        }
        self.grid = Grid { min, max, cell, columns: side, rows: side, cells, items };
    }

    /// The positions, in clip order.
    pub fn points(&self) -> &[[f32; 2]] {
        &self.points
    }

    /// Point, line or triangles.
    pub fn shape(&self) -> Shape2D {
        self.shape
    }

    /// The Delaunay triangles (indices into [`points`](Self::points)); empty unless the shape is
    /// [`Shape2D::Triangles`].
    pub fn triangles(&self) -> &[[u16; 3]] {
        &self.triangles
    }

    /// The convex hull's edges, in order around the hull.
    pub fn hull_edges(&self) -> &[[u16; 2]] {
        &self.hull
    }

    /// The triangle containing `p`, found through the grid.
    pub fn find_triangle(&self, p: [f32; 2]) -> Option<usize> {
        if self.shape != Shape2D::Triangles {
            return None;
        }
        let g = &self.grid;
        let (x, y) = (p[0] as f64, p[1] as f64);
        if x < g.min[0] || y < g.min[1] || x > g.max[0] || y > g.max[1] {
            return None;
        }
        let column = (((x - g.min[0]) / g.cell[0]) as usize).min(g.columns - 1);
        let row = (((y - g.min[1]) / g.cell[1]) as usize).min(g.rows - 1);
        let (start, end) = g.cells[row * g.columns + column];
        g.items[start as usize..end as usize].iter().map(|&t| t as usize).find(|&t| self.contains(t, p))
    }

    /// The triangle containing `p`, by testing every triangle (for tests and tools).
    pub fn find_triangle_brute_force(&self, p: [f32; 2]) -> Option<usize> {
        (0..self.triangles.len()).find(|&t| self.contains(t, p))
    }

    fn contains(&self, t: usize, p: [f32; 2]) -> bool {
        let [a, b, c] = self.triangles[t];
        let w = barycentric(self.points[a as usize], self.points[b as usize], self.points[c as usize], p);
        w.iter().all(|&x| x >= -INSIDE_EPSILON)
    }

    /// The weights at `p`: barycentric in its triangle; outside the hull, the nearest point of
    /// the nearest hull edge; along the line for line shapes. Writes `(point index, weight)`
    /// pairs with weight > 0 into `out` and returns how many (1 to 3); they sum to 1.
    pub fn weights(&self, p: [f32; 2], out: &mut [(u16, f32); MAX_WEIGHTS_2D]) -> usize {
        match self.shape {
            Shape2D::Point => {
                out[0] = (0, 1.0);
                1
            }
            Shape2D::Line => {
                let x = (p[0] as f64 - self.line_origin[0]) * self.line_direction[0]
                    + (p[1] as f64 - self.line_origin[1]) * self.line_direction[1];
                let mut line = [(0u16, 0.0f32); MAX_WEIGHTS_1D];
                let n = weights_1d(&self.line_positions, x as f32, &mut line);
                for i in 0..n {
                    out[i] = (self.line_order[line[i].0 as usize], line[i].1);
                }
                n
            }
            Shape2D::Triangles => match self.find_triangle(p) {
                Some(t) => {
                    let tri = self.triangles[t];
                    let w = barycentric(
                        self.points[tri[0] as usize],
                        self.points[tri[1] as usize],
                        self.points[tri[2] as usize],
                        p,
                    );
                    let clamped = [w[0].max(0.0), w[1].max(0.0), w[2].max(0.0)];
                    let sum = clamped[0] + clamped[1] + clamped[2];
                    let mut n = 0;
                    for i in 0..3 {
                        let weight = (clamped[i] / sum) as f32;
                        if weight > 0.0 {
                            out[n] = (tri[i], weight);
                            n += 1;
                        }
                    }
                    n
                }
                None => self.nearest_hull_point(p, out),
            },
        }
    }

    fn nearest_hull_point(&self, p: [f32; 2], out: &mut [(u16, f32); MAX_WEIGHTS_2D]) -> usize {
        let (px, py) = (p[0] as f64, p[1] as f64);
        let mut best = (f64::MAX, 0u16, 0u16, 0.0f64);
        for &[a, b] in &self.hull {
            let (ax, ay) = (self.points[a as usize][0] as f64, self.points[a as usize][1] as f64);
            let (bx, by) = (self.points[b as usize][0] as f64, self.points[b as usize][1] as f64);
            let (dx, dy) = (bx - ax, by - ay);
            let t = (((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
            let (cx, cy) = (ax + t * dx - px, ay + t * dy - py);
            let distance = cx * cx + cy * cy;
            if distance < best.0 {
                best = (distance, a, b, t);
            }
        }
        let (_, a, b, t) = best;
        let t = t as f32;
        if t <= 0.0 {
            out[0] = (a, 1.0);
            1
        } else if t >= 1.0 {
            out[0] = (b, 1.0);
            1
        } else {
            out[0] = (a, 1.0 - t);
            out[1] = (b, t);
            2
        }
    }
}
