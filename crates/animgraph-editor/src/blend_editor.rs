//! The blend space editor (double-click a blend-space state): its clip points on a line (1D) or a
//! plane (2D) with the runtime's own triangulation drawn, a preview point that sets the
//! parameters (and so the preview), and each point's weight from the live player.
//!
//! | gesture | does |
//! |---|---|
//! | drag the white preview point (or click the plot) | sets the blend parameters |
//! | drag a clip point | moves it (one undo step per drag), onto round values (Alt: anywhere) |
//! | right-click a clip point | deletes it |
//! | drag a clip from the list onto the plot | adds a point there |

use animgraph_runtime::graph::{StateKind, blend_space::MAX_WEIGHTS_2D};
use eframe::egui::{self, Color32, Pos2, Rect, Sense, Stroke, vec2};

use crate::document::Document;
use crate::live::Live;

/// Which state the editor shows: a layer, the sub-machines entered on the way, the state.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendEditor {
    /// The layer.
    pub layer: usize,
    /// Sub-machine states entered from the layer's machine.
    pub nesting: Vec<usize>,
    /// The blend-space state's index in that machine.
    pub state: usize,
    /// The plot's parameter-space bounds, kept while a point is dragged so the plot holds still.
    bounds: Option<([f32; 2], [f32; 2])>,
    /// The clip point being dragged.
    dragging: Option<usize>,
}

impl BlendEditor {
    /// An editor for the state at `state` of the document's shown machine.
    pub fn new(doc: &Document, state: usize) -> BlendEditor {
        BlendEditor { layer: doc.layer, nesting: doc.nesting.clone(), state, bounds: None, dragging: None }
    }
}

/// Where parameter space lands in a plot rectangle (y up, as plots are read).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlotFrame {
    /// The plot's screen rectangle.
    pub rect: Rect,
    /// Parameter-space corner at the bottom left.
    pub min: [f32; 2],
    /// Parameter-space corner at the top right.
    pub max: [f32; 2],
}

impl PlotFrame {
    /// Bounds around `points` with a margin of a fifth of their extent (at least 0.5), so every
    /// point sits inside the plot.
    pub fn bounds(points: &[[f32; 2]]) -> ([f32; 2], [f32; 2]) {
        let mut min = [f32::MAX; 2];
        let mut max = [f32::MIN; 2];
        for p in points {
            for a in 0..2 {
                min[a] = min[a].min(p[a]);
                max[a] = max[a].max(p[a]);
            }
        }
        if points.is_empty() {
            return ([-1.0, -1.0], [1.0, 1.0]);
        }
        for a in 0..2 {
            let margin = ((max[a] - min[a]) * 0.2).max(0.5);
            min[a] -= margin;
            max[a] += margin;
        }
        (min, max)
    }

    /// The screen position of a parameter-space point.
    pub fn to_screen(&self, p: [f32; 2]) -> Pos2 {
        let u = (p[0] - self.min[0]) / (self.max[0] - self.min[0]);
        let v = (p[1] - self.min[1]) / (self.max[1] - self.min[1]);
        Pos2::new(self.rect.left() + u * self.rect.width(), self.rect.bottom() - v * self.rect.height())
    }

    /// The parameter-space point under a screen position (the inverse of
    /// [`to_screen`](Self::to_screen)).
    pub fn to_space(&self, s: Pos2) -> [f32; 2] {
        let u = (s.x - self.rect.left()) / self.rect.width();
        let v = (self.rect.bottom() - s.y) / self.rect.height();
        [self.min[0] + u * (self.max[0] - self.min[0]), self.min[1] + v * (self.max[1] - self.min[1])]
    }

    /// The point whose marker (of `radius` pixels) is under a screen position, nearest first.
    pub fn point_at(&self, points: &[[f32; 2]], s: Pos2, radius: f32) -> Option<usize> {
        points
            .iter()
            .enumerate()
            .map(|(i, p)| (i, self.to_screen(*p).distance(s)))
            .filter(|(_, d)| *d <= radius)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}

/// The blend-space data the editor draws, read from the graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Space {
    /// The state's name.
    pub name: String,
    /// Its path as the player names it (`Outer/Inner`).
    pub path: String,
    /// Clip names.
    pub clips: Vec<String>,
    /// Positions, as 2D points (1D spaces use y = 0).
    pub points: Vec<[f32; 2]>,
    /// The parameters (1D: one).
    pub parameters: Vec<String>,
}

impl Space {
    /// Whether it is a 1D space.
    pub fn one_d(&self) -> bool {
        self.parameters.len() == 1
    }
}

/// The blend space an editor shows, if that state still is one.
pub fn space_of(doc: &Document, editor: &BlendEditor) -> Option<Space> {
    let mut machine = &doc.graph.layers.get(editor.layer)?.machine;
    let mut path = String::new();
    for &i in &editor.nesting {
        let state = machine.states.get(i)?;
        path.push_str(&state.name);
        path.push('/');
        match &state.kind {
            StateKind::SubMachine(inner) => machine = inner,
            _ => return None,
        }
    }
    let state = machine.states.get(editor.state)?;
    path.push_str(&state.name);
    let (clips, points, parameters) = match &state.kind {
        StateKind::BlendSpace1D(b) => {
            (b.clips.clone(), b.positions.iter().map(|&x| [x, 0.0]).collect(), vec![b.parameter.clone()])
        }
        StateKind::BlendSpace2D(b) => {
            (b.clips.clone(), b.positions.clone(), vec![b.parameter_x.clone(), b.parameter_y.clone()])
        }
        _ => return None,
    };
    Some(Space { name: state.name.clone(), path, clips, points, parameters })
}

/// Each clip point's weight as the live player blends it now (0 for points it does not use).
pub fn shown_weights(live: &Live, layer: usize, space: &Space) -> Vec<f32> {
    let mut weights = vec![0.0; space.clips.len()];
    let Some(player) = live.player() else { return weights };
    let Some(state) = player.find_state(layer, &space.path) else { return weights };
    let mut out = [(0u16, 0.0f32); MAX_WEIGHTS_2D];
    let n = player.blend_space_weights(state, &mut out);
    for &(i, w) in &out[..n] {
        if let Some(slot) = weights.get_mut(i as usize) {
            *slot = w;
        }
    }
    weights
}

/// The preview point: the live values of the space's parameters.
pub fn preview_point(live: &Live, space: &Space) -> [f32; 2] {
    let value = |i: usize| space.parameters.get(i).and_then(|p| live.values.get(p)).copied().unwrap_or(0.0);
    [value(0), if space.one_d() { 0.0 } else { value(1) }]
}

/// Moves the preview point: sets the space's parameters on the live player.
pub fn set_preview_point(live: &mut Live, space: &Space, p: [f32; 2]) {
    for (axis, name) in space.parameters.iter().enumerate() {
        if let Some(v) = live.values.get_mut(name) {
            *v = p[axis];
        }
    }
}

fn set_position(doc: &mut Document, editor: &BlendEditor, point: usize, p: [f32; 2], key: u64) {
    let (layer, nesting, state) = (editor.layer, editor.nesting.clone(), editor.state);
    doc.edit_graph_coalesced(key, |g| {
        if let Some(s) = state_mut(g, layer, &nesting, state) {
            match &mut s.kind {
                StateKind::BlendSpace1D(b) => {
                    if let Some(x) = b.positions.get_mut(point) {
                        *x = p[0];
                    }
                }
                StateKind::BlendSpace2D(b) => {
                    if let Some(q) = b.positions.get_mut(point) {
                        *q = p;
                    }
                }
                _ => {}
            }
        }
    });
}

fn state_mut<'g>(
    g: &'g mut animgraph_runtime::AnimationGraph,
    layer: usize,
    nesting: &[usize],
    state: usize,
) -> Option<&'g mut animgraph_runtime::graph::GraphState> {
    let mut machine = &mut g.layers.get_mut(layer)?.machine;
    for &i in nesting {
        match &mut machine.states.get_mut(i)?.kind {
            StateKind::SubMachine(inner) => machine = inner,
            _ => return None,
        }
    }
    machine.states.get_mut(state)
}

/// Adds a clip point (1D points are kept in ascending order).
pub fn add_point(doc: &mut Document, editor: &BlendEditor, clip: &str, p: [f32; 2]) {
    let (layer, nesting, state) = (editor.layer, editor.nesting.clone(), editor.state);
    doc.edit_graph(|g| {
        if let Some(s) = state_mut(g, layer, &nesting, state) {
            match &mut s.kind {
                StateKind::BlendSpace1D(b) => {
                    let at = b.positions.iter().position(|&x| x > p[0]).unwrap_or(b.positions.len());
                    b.positions.insert(at, p[0]);
                    b.clips.insert(at.min(b.clips.len()), clip.to_string());
                }
                StateKind::BlendSpace2D(b) => {
                    b.positions.push(p);
                    b.clips.push(clip.to_string());
                }
                _ => {}
            }
        }
    });
}

/// Removes a clip point.
pub fn remove_point(doc: &mut Document, editor: &BlendEditor, point: usize) {
    let (layer, nesting, state) = (editor.layer, editor.nesting.clone(), editor.state);
    doc.edit_graph(|g| {
        if let Some(s) = state_mut(g, layer, &nesting, state) {
            match &mut s.kind {
                StateKind::BlendSpace1D(b) if point < b.clips.len() => {
                    b.clips.remove(point);
                    if point < b.positions.len() {
                        b.positions.remove(point);
                    }
                }
                StateKind::BlendSpace2D(b) if point < b.clips.len() => {
                    b.clips.remove(point);
                    if point < b.positions.len() {
                        b.positions.remove(point);
                    }
                }
                _ => {}
            }
        }
    });
}

/// Draws the editor window; returns false when it was closed.
pub fn show(
    ui: &mut egui::Ui,
    editor: &mut BlendEditor,
    doc: &mut Document,
    live: &mut Live,
    clips: &[String],
) -> bool {
    let Some(space) = space_of(doc, editor) else { return false };
    let mut open = true;
    ui.horizontal(|ui| {
        ui.heading(format!("Blend space: {}", space.name));
        ui.label(format!(
            "{} over {}",
            if space.one_d() { "1D" } else { "2D" },
            space
                .parameters
                .iter()
                .map(|p| if p.is_empty() { "(no parameter)" } else { p })
                .collect::<Vec<_>>()
                .join(" x ")
        ));
        if ui.button("Close").on_hover_text("Close the blend space editor").clicked() {
            open = false;
        }
    });
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(110.0);
            ui.label("Clips (drag onto the plot)");
            egui::ScrollArea::vertical().id_salt("blend-clips").max_height(360.0).show(ui, |ui| {
                for clip in clips {
                    let id = ui.make_persistent_id(("blend-clip", clip));
                    ui.dnd_drag_source(id, clip.clone(), |ui| {
                        ui.label(clip);
                    });
                }
            });
        });
        plot(ui, editor, doc, live, &space);
    });
    open
}

/// A round step for snapping over `span`: 1, 2 or 5 times a power of ten, about a twentieth of
/// the span.
pub fn nice_step(span: f32) -> f32 {
    let target = (span.abs() / 20.0).max(1e-6);
    let power = 10f32.powf(target.log10().floor());
    let step =
        [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|s| *s >= target).unwrap_or(10.0 * power);
    tidy(step, power)
}

/// `v` rounded to the decimals of `step` (so 5 x 10^-2 prints, and compares, as 0.05).
fn tidy(v: f32, step: f32) -> f32 {
    let decimals = (-step.log10().floor()).max(0.0) as i32;
    let scale = 10f32.powi(decimals);
    (v * scale).round() / scale
}

/// `v` rounded to a multiple of `step` (tidied to the step's decimals).
pub fn snap(v: f32, step: f32) -> f32 {
    tidy((v / step).round() * step, step)
}

fn plot(ui: &mut egui::Ui, editor: &mut BlendEditor, doc: &mut Document, live: &mut Live, space: &Space) {
    let size = vec2(
        ui.available_width().max(200.0),
        if space.one_d() { 140.0 } else { ui.available_width().clamp(200.0, 360.0) },
    );
    let (response, painter) = ui.allocate_painter(size, Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Blend space plot"));
    let rect = response.rect.shrink2(vec2(48.0, 18.0));
    painter.rect_filled(response.rect, 4.0, Color32::from_rgb(28, 30, 36));
    if editor.dragging.is_none() || editor.bounds.is_none() {
        let mut all = space.points.clone();
        all.push(preview_point(live, space));
        editor.bounds = Some(PlotFrame::bounds(&all));
    }
    let (mut min, mut max) = editor.bounds.expect("set above");
    if space.one_d() {
        min[1] = -1.0;
        max[1] = 1.0;
    }
    let frame = PlotFrame { rect, min, max };
    // Axes through zero, where zero is inside.
    let axis = Stroke::new(1.0, Color32::from_gray(70));
    if min[0] < 0.0 && max[0] > 0.0 {
        painter.line_segment([frame.to_screen([0.0, min[1]]), frame.to_screen([0.0, max[1]])], axis);
    }
    painter.line_segment([frame.to_screen([min[0], 0.0]), frame.to_screen([max[0], 0.0])], axis);
    // The axes' values at the plot's edges (the view holds still while a point is dragged).
    let values = egui::FontId::proportional(11.0);
    let grey = Color32::from_gray(150);
    let (x_lo, x_hi) = (frame.to_screen([min[0], min[1]]), frame.to_screen([max[0], min[1]]));
    painter.text(
        x_lo + vec2(0.0, 4.0),
        egui::Align2::LEFT_TOP,
        format!("{:.2}", min[0]),
        values.clone(),
        grey,
    );
    painter.text(
        x_hi + vec2(0.0, 4.0),
        egui::Align2::RIGHT_TOP,
        format!("{:.2}", max[0]),
        values.clone(),
        grey,
    );
    if !space.one_d() {
        let (y_lo, y_hi) = (frame.to_screen([min[0], min[1]]), frame.to_screen([min[0], max[1]]));
        painter.text(
            y_lo - vec2(4.0, 0.0),
            egui::Align2::RIGHT_BOTTOM,
            format!("{:.2}", min[1]),
            values.clone(),
            grey,
        );
        painter.text(y_hi - vec2(4.0, 0.0), egui::Align2::RIGHT_TOP, format!("{:.2}", max[1]), values, grey);
    }
    // The runtime's own triangulation (2D).
    let player_space = live.player().and_then(|p| Some((p, p.find_state(editor.layer, &space.path)?)));
    if let Some((player, state)) = player_space {
        if let Some(tri) = player.blend_space_2d(state) {
            let points = tri.points();
            let edge = Stroke::new(1.2, Color32::from_rgb(90, 140, 170));
            for t in tri.triangles() {
                let p = t.map(|i| frame.to_screen(points[i as usize]));
                painter.add(egui::Shape::closed_line(p.to_vec(), edge));
            }
            let hull = Stroke::new(2.0, Color32::from_rgb(110, 170, 200));
            for e in tri.hull_edges() {
                painter.line_segment(
                    [frame.to_screen(points[e[0] as usize]), frame.to_screen(points[e[1] as usize])],
                    hull,
                );
            }
        }
    }
    // Clip points with their live weights.
    let weights = shown_weights(live, editor.layer, space);
    let font = egui::FontId::proportional(12.0);
    for (i, p) in space.points.iter().enumerate() {
        let s = frame.to_screen(*p);
        let w = weights.get(i).copied().unwrap_or(0.0);
        painter.circle_filled(
            s,
            6.0 + 8.0 * w,
            Color32::from_rgba_unmultiplied(255, 190, 80, (60.0 + 195.0 * w) as u8),
        );
        painter.circle_stroke(s, 6.0, Stroke::new(1.5, Color32::from_rgb(255, 200, 80)));
        painter.text(
            s + vec2(9.0, -9.0),
            egui::Align2::LEFT_BOTTOM,
            &space.clips[i],
            font.clone(),
            Color32::WHITE,
        );
        painter.text(
            s + vec2(9.0, 3.0),
            egui::Align2::LEFT_TOP,
            format!("{:.0}%", w * 100.0),
            font.clone(),
            Color32::from_gray(200),
        );
    }
    // The preview point.
    let preview = preview_point(live, space);
    let ps = frame.to_screen(preview);
    painter.circle_filled(ps, 5.0, Color32::WHITE);
    painter.circle_stroke(ps, 9.0, Stroke::new(1.5, Color32::WHITE));

    let pointer = response.interact_pointer_pos();
    if response.drag_started() {
        let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(ps);
        editor.dragging =
            if origin.distance(ps) <= 10.0 { None } else { frame.point_at(&space.points, origin, 10.0) };
        if editor.dragging.is_some() {
            doc.break_coalescing();
        }
    }
    let drag_key = crate::inspector::key(("blend-point", editor.layer, editor.state));
    if response.dragged() {
        if let Some(p) = pointer {
            let mut q = frame.to_space(p);
            if space.one_d() {
                q[1] = 0.0;
            }
            match editor.dragging {
                Some(i) => {
                    // Clip points land on round values (Alt: anywhere).
                    if !ui.input(|inp| inp.modifiers.alt) {
                        q = [snap(q[0], nice_step(max[0] - min[0])), snap(q[1], nice_step(max[1] - min[1]))];
                        if space.one_d() {
                            q[1] = 0.0;
                        }
                    }
                    set_position(doc, editor, i, q, drag_key)
                }
                None => set_preview_point(live, space, q),
            }
        }
    }
    if response.drag_stopped() {
        editor.dragging = None;
        doc.break_coalescing();
    }
    if response.clicked() {
        if let Some(p) = pointer {
            set_preview_point(live, space, frame.to_space(p));
        }
    }
    if response.secondary_clicked() {
        if let Some(i) = pointer.and_then(|p| frame.point_at(&space.points, p, 10.0)) {
            remove_point(doc, editor, i);
        }
    }
    if let Some(clip) = response.dnd_release_payload::<String>() {
        if let Some(p) = ui.input(|i| i.pointer.latest_pos()) {
            let mut q = frame.to_space(p);
            if space.one_d() {
                q[1] = 0.0;
            }
            add_point(doc, editor, &clip, q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use animgraph_runtime::graph::blend_space::Triangulation2D;

    fn frames() -> Vec<PlotFrame> {
        let rects = [
            Rect::from_min_size(Pos2::new(10.0, 20.0), vec2(300.0, 300.0)),
            Rect::from_min_size(Pos2::new(-50.0, 400.0), vec2(640.0, 120.0)),
        ];
        let bounds = [([-1.0, -1.0], [1.0, 1.0]), ([0.0, -3.5], [12.0, 7.25])];
        rects
            .iter()
            .flat_map(|&rect| bounds.iter().map(move |&(min, max)| PlotFrame { rect, min, max }))
            .collect()
    }

    #[test]
    fn screen_and_parameter_space_are_inverse() {
        for f in frames() {
            for p in [[0.0, 0.0], [0.3, -0.7], [11.0, 6.0], [-2.0, 3.0]] {
                let back = f.to_space(f.to_screen(p));
                assert!((back[0] - p[0]).abs() < 1e-4 && (back[1] - p[1]).abs() < 1e-4, "{p:?} -> {back:?}");
            }
            // Up on screen is up in parameter space.
            let low = f.to_screen([f.min[0], f.min[1]]);
            let high = f.to_screen([f.min[0], f.max[1]]);
            assert!(high.y < low.y);
            assert!((low - f.rect.left_bottom()).length() < 1e-3);
        }
    }

    #[test]
    fn bounds_hold_every_point_with_a_margin() {
        let points = [[0.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [1.0, -1.0]];
        let (min, max) = PlotFrame::bounds(&points);
        for p in points {
            assert!(p[0] > min[0] && p[0] < max[0] && p[1] > min[1] && p[1] < max[1]);
        }
        let (min, max) = PlotFrame::bounds(&[[2.0, 2.0]]);
        assert!(max[0] - min[0] >= 1.0, "a single point still gets a visible extent");
    }

    #[test]
    fn hit_testing_picks_the_nearest_point_within_the_radius() {
        let f = frames()[0];
        let points = [[0.0, 0.0], [0.1, 0.0], [1.0, 1.0]];
        let a = f.to_screen(points[0]);
        let b = f.to_screen(points[1]);
        assert_eq!(f.point_at(&points, a + vec2(1.0, 0.0), 10.0), Some(0));
        assert_eq!(f.point_at(&points, b - vec2(1.0, 0.0), 10.0), Some(1));
        assert_eq!(f.point_at(&points, f.to_screen([0.5, 0.5]), 10.0), None);
    }

    /// The showcase's 2D space, opened in an editor over a live player.
    fn strafe() -> (Document, Live, BlendEditor) {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/showcase.mres");
        let mut doc = Document::open(path).unwrap();
        // Find the Strafe state wherever it is nested.
        fn find(m: &animgraph_runtime::graph::GraphMachine, nesting: &mut Vec<usize>) -> Option<usize> {
            if let Some(i) = m.state_index("Strafe") {
                return Some(i);
            }
            for (i, s) in m.states.iter().enumerate() {
                if let StateKind::SubMachine(inner) = &s.kind {
                    nesting.push(i);
                    if let Some(found) = find(inner, nesting) {
                        return Some(found);
                    }
                    nesting.pop();
                }
            }
            None
        }
        let mut nesting = Vec::new();
        let state = find(&doc.graph.layers[0].machine, &mut nesting).expect("showcase has Strafe");
        doc.nesting = nesting;
        let editor = BlendEditor::new(&doc, state);
        let mut live = Live::new();
        live.sync(&doc);
        (doc, live, editor)
    }

    #[test]
    fn the_weights_shown_are_the_runtimes_weights_at_the_dragged_preview_point() {
        let (doc, mut live, editor) = strafe();
        let space = space_of(&doc, &editor).unwrap();
        assert!(!space.one_d());
        // Make the player play Strafe, then drag the preview point around the plot.
        live.player().unwrap();
        let path = space.path.clone();
        let frame = PlotFrame {
            rect: Rect::from_min_size(Pos2::ZERO, vec2(300.0, 300.0)),
            min: [-1.5, -1.5],
            max: [1.5, 1.5],
        };
        let reference = Triangulation2D::new(&space.points);
        for screen in
            [Pos2::new(150.0, 150.0), Pos2::new(220.0, 90.0), Pos2::new(20.0, 280.0), Pos2::new(299.0, 10.0)]
        {
            let p = frame.to_space(screen);
            set_preview_point(&mut live, &space, p);
            live.step(1.0 / 60.0);
            assert_eq!(preview_point(&live, &space), p);
            let shown = shown_weights(&live, editor.layer, &space);
            let mut expected = vec![0.0; space.clips.len()];
            let mut out = [(0u16, 0.0f32); MAX_WEIGHTS_2D];
            let n = reference.weights(p, &mut out);
            for &(i, w) in &out[..n] {
                expected[i as usize] = w;
            }
            for (a, b) in shown.iter().zip(&expected) {
                assert!((a - b).abs() < 1e-6, "at {p:?} ({path}): shown {shown:?}, runtime {expected:?}");
            }
            assert!((shown.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{shown:?}");
        }
    }

    #[test]
    fn points_are_added_moved_and_removed_as_undoable_edits() {
        let (mut doc, _live, editor) = strafe();
        let before = doc.graph.clone();
        add_point(&mut doc, &editor, "aim_idle", [0.5, 0.5]);
        assert_eq!(space_of(&doc, &editor).unwrap().points.len(), 6);
        set_position(&mut doc, &editor, 5, [0.6, 0.4], 99);
        set_position(&mut doc, &editor, 5, [0.7, 0.3], 99);
        assert_eq!(space_of(&doc, &editor).unwrap().points[5], [0.7, 0.3]);
        doc.break_coalescing();
        remove_point(&mut doc, &editor, 0);
        assert_eq!(space_of(&doc, &editor).unwrap().clips[0], "strafe_forward");
        // Three undo steps: remove, the whole drag, add.
        doc.undo();
        doc.undo();
        assert_eq!(space_of(&doc, &editor).unwrap().points[5], [0.5, 0.5]);
        doc.undo();
        assert_eq!(doc.graph, before);
    }

    /// Dragged points snap to round steps of about a twentieth of the plot's span.
    #[test]
    fn points_snap_to_round_steps() {
        assert_eq!(nice_step(3.0), 0.2);
        assert_eq!(nice_step(2.0), 0.1);
        assert_eq!(nice_step(100.0), 5.0);
        assert_eq!(nice_step(0.5), 0.05);
        assert_eq!(snap(1.2345, 0.1), 1.2);
        assert_eq!(snap(-0.37, 0.2), -0.4);
        assert_eq!(snap(7.4, 5.0), 5.0);
    }

    #[test]
    fn a_1d_point_is_inserted_in_order() {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/locomotion.mres");
        let mut doc = Document::open(path).unwrap();
        let editor = BlendEditor::new(&doc, 0);
        add_point(&mut doc, &editor, "jog", [2.5, 0.0]);
        let space = space_of(&doc, &editor).unwrap();
        assert!(space.one_d());
        assert_eq!(space.clips, ["idle", "walk", "jog", "run"]);
        assert!(animgraph_runtime::graph::validate(&doc.graph).is_empty());
    }
}
