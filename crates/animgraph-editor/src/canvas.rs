//! The graph canvas: a machine's states as boxes and its transitions as arrows.
//!
//! Pan with the middle mouse button or Space+drag, zoom with the wheel around the cursor, drag
//! states to move them (saved as `EditorPosition`), Shift+drag from one state to another to add a
//! transition, double-click a sub-machine to enter it, right-click the background to add states,
//! Delete removes the selection.

use animgraph::graph::{
    ANY_STATE, BlendSpace1D, BlendSpace2D, ClipState, EXIT_STATE, GraphMachine, GraphState, GraphTransition,
    StateKind,
};
use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2, vec2,
};

use crate::document::{Document, Selection};

/// How the canvas is looked at.
pub struct View {
    /// Graph-space offset.
    pub pan: Vec2,
    /// Pixels per graph unit.
    pub zoom: f32,
    /// A Shift+drag in progress from this state.
    connecting: Option<usize>,
}

impl View {
    /// Where a graph-space point lands on a canvas centred at `centre`.
    pub fn to_screen(&self, centre: Pos2, p: [f32; 2]) -> Pos2 {
        centre + (vec2(p[0], p[1]) + self.pan) * self.zoom
    }

    /// The graph-space point under a screen position (the inverse of [`to_screen`](Self::to_screen)).
    pub fn to_graph(&self, centre: Pos2, p: Pos2) -> Vec2 {
        (p - centre) / self.zoom - self.pan
    }

    /// Zooms by `factor` (clamped to 0.2..=3) keeping the graph point under `cursor` still.
    pub fn zoom_around(&mut self, centre: Pos2, cursor: Pos2, factor: f32) {
        let before = self.to_graph(centre, cursor);
        self.zoom = (self.zoom * factor).clamp(0.2, 3.0);
        self.pan = (cursor - centre) / self.zoom - before;
    }
}

/// The state whose box is under a screen position, topmost (last drawn) first.
pub fn state_at(machine: &GraphMachine, view: &View, centre: Pos2, p: Pos2) -> Option<usize> {
    machine.states.iter().rposition(|s| {
        Rect::from_center_size(view.to_screen(centre, s.editor_position), BOX * view.zoom).contains(p)
    })
}

impl Default for View {
    fn default() -> Self {
        View { pan: Vec2::ZERO, zoom: 1.0, connecting: None }
    }
}

const BOX: Vec2 = vec2(150.0, 46.0);

/// A short tag per state kind (empty for plain clips, the common case).
pub fn icon(kind: &StateKind) -> &'static str {
    match kind {
        StateKind::Clip(_) => "",
        StateKind::BlendSpace1D(_) => "[1D]",
        StateKind::BlendSpace2D(_) => "[2D]",
        StateKind::SubMachine(_) => "[sub]",
    }
}

fn colour(kind: &StateKind) -> Color32 {
    match kind {
        StateKind::Clip(_) => Color32::from_rgb(52, 73, 94),
        StateKind::BlendSpace1D(_) => Color32::from_rgb(39, 96, 80),
        StateKind::BlendSpace2D(_) => Color32::from_rgb(36, 90, 110),
        StateKind::SubMachine(_) => Color32::from_rgb(96, 66, 110),
    }
}

/// Where the "Any State" box sits: left of every state.
fn any_position(machine: &GraphMachine) -> [f32; 2] {
    let (mut min_x, mut min_y) = (0.0f32, 0.0f32);
    for s in &machine.states {
        min_x = min_x.min(s.editor_position[0]);
        min_y = min_y.min(s.editor_position[1]);
    }
    [min_x - 220.0, min_y]
}

/// Centres every state in the view ("frame all").
pub fn frame_all(view: &mut View, machine: &GraphMachine, size: Vec2) {
    let mut points: Vec<[f32; 2]> = machine.states.iter().map(|s| s.editor_position).collect();
    points.push(any_position(machine));
    let (mut lo, mut hi) = (vec2(f32::MAX, f32::MAX), vec2(f32::MIN, f32::MIN));
    for p in points {
        lo = lo.min(vec2(p[0], p[1]));
        hi = hi.max(vec2(p[0], p[1]));
    }
    let extent = (hi - lo) + BOX * 2.0;
    view.zoom = (size.x / extent.x).min(size.y / extent.y).clamp(0.2, 2.0);
    view.pan = -(lo + hi) * 0.5;
}

/// Draws and edits the document's shown machine.
pub fn show(ui: &mut egui::Ui, doc: &mut Document, view: &mut View, playback: &crate::live::Playback) {
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    let rect = response.rect;
    painter.rect_filled(rect, 0.0, Color32::from_rgb(30, 32, 38));
    let Some(machine) = doc.machine().cloned() else {
        painter.text(
            rect.center(),
            Align2::CENTER_CENTER,
            "this graph has no layers; add one",
            FontId::proportional(16.0),
            Color32::GRAY,
        );
        return;
    };
    // Navigation.
    let space = ui.input(|i| i.key_down(egui::Key::Space));
    if response.dragged_by(egui::PointerButton::Middle)
        || (space && response.dragged_by(egui::PointerButton::Primary))
    {
        view.pan += response.drag_delta() / view.zoom;
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            if let Some(cursor) = response.hover_pos() {
                view.zoom_around(rect.center(), cursor, (scroll * 0.002).exp());
            }
        }
    }
    let zoom = view.zoom;
    let prefix = doc.nesting_prefix();
    // A copy of the pan and zoom for this frame, so the closures leave `view` free to change.
    let look = View { pan: view.pan, zoom: view.zoom, connecting: None };
    let to_screen = |p: [f32; 2]| look.to_screen(rect.center(), p);
    let to_graph = |p: Pos2| look.to_graph(rect.center(), p);
    let box_at = |p: [f32; 2]| Rect::from_center_size(to_screen(p), BOX * zoom);
    let any_rect = box_at(any_position(&machine));
    let exit_rect = {
        let max_x = machine.states.iter().map(|s| s.editor_position[0]).fold(0.0f32, f32::max);
        box_at([max_x + 240.0, 0.0])
    };
    let state_rect = |name: &str| -> Option<Rect> {
        match name {
            ANY_STATE => Some(any_rect),
            EXIT_STATE => Some(exit_rect),
            _ => machine.states.iter().find(|s| s.name == name).map(|s| box_at(s.editor_position)),
        }
    };

    // Transitions: arrows with their condition summary; parallel ones drawn apart, by priority.
    let font = FontId::proportional(11.0 * zoom.clamp(0.7, 1.4));
    let mut clicked_transition = None;
    for (i, t) in machine.transitions.iter().enumerate() {
        let (Some(a), Some(b)) = (state_rect(&t.from), state_rect(&t.to)) else { continue };
        let same: Vec<usize> = machine
            .transitions
            .iter()
            .enumerate()
            .filter(|(_, o)| o.from == t.from && o.to == t.to)
            .map(|(j, _)| j)
            .collect();
        let order = same.iter().position(|&j| j == i).unwrap_or(0) as f32 - (same.len() as f32 - 1.0) / 2.0;
        let direction = (b.center() - a.center()).normalized();
        let normal = vec2(-direction.y, direction.x);
        let offset = normal * (order * 14.0 + if t.from < t.to { 6.0 } else { -6.0 }) * zoom;
        let (start, end) = (a.center() + offset, b.center() + offset);
        let start = clip_to_rect(a, start, direction);
        let end = clip_to_rect(b, end, -direction);
        let selected = doc.selection == Selection::Transition(i);
        let stroke = Stroke::new(
            if selected { 3.0 } else { 1.6 },
            if selected { Color32::from_rgb(255, 200, 80) } else { Color32::from_gray(170) },
        );
        painter.line_segment([start, end], stroke);
        if let Some(progress) = running_progress(playback, &prefix, &t.from, &t.to) {
            let lit = Stroke::new(3.5 * zoom.max(0.6), Color32::from_rgb(120, 220, 255));
            painter.line_segment([start, start.lerp(end, progress.clamp(0.0, 1.0))], lit);
        }
        let head = 9.0 * zoom;
        painter.line_segment([end, end - direction * head + normal * head * 0.5], stroke);
        painter.line_segment([end, end - direction * head - normal * head * 0.5], stroke);
        let label = t.summary();
        if !label.is_empty() {
            painter.text(
                start.lerp(end, 0.5) + normal * 8.0 * zoom,
                Align2::CENTER_CENTER,
                label,
                font.clone(),
                Color32::from_gray(210),
            );
        }
        if response.clicked() {
            if let Some(p) = response.interact_pointer_pos() {
                if distance_to_segment(p, start, end) < 6.0 {
                    clicked_transition = Some(i);
                }
            }
        }
    }

    // The Any State and exit boxes.
    for (r, text) in [(any_rect, "Any State"), (exit_rect, if doc.nesting.is_empty() { "" } else { "Exit" })]
    {
        if text.is_empty() {
            continue;
        }
        painter.rect_filled(r, CornerRadius::same(10), Color32::from_rgb(70, 70, 76));
        painter.text(
            r.center(),
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(14.0 * zoom),
            Color32::WHITE,
        );
    }

    // States.
    let mut clicked_state = None;
    for (i, state) in machine.states.iter().enumerate() {
        let r = box_at(state.editor_position);
        let id = response.id.with(("state", i));
        let state_response = ui.interact(r, id, Sense::click_and_drag());
        let selected = doc.selection == Selection::State(i);
        let playing =
            playback.current.as_deref().is_some_and(|p| crate::live::path_shows(p, &prefix, &state.name));
        if playing {
            for (grow, alpha) in [(10.0, 40), (6.0, 70), (3.0, 120)] {
                painter.rect_filled(
                    r.expand(grow * zoom),
                    CornerRadius::same(14),
                    Color32::from_rgba_unmultiplied(120, 220, 255, alpha),
                );
            }
        }
        painter.rect_filled(r, CornerRadius::same(10), colour(&state.kind));
        if selected {
            painter.rect_stroke(
                r,
                CornerRadius::same(10),
                Stroke::new(2.5, Color32::from_rgb(255, 200, 80)),
                StrokeKind::Outside,
            );
        }
        if state.name == machine.entry {
            let m = r.left_center();
            painter.add(egui::Shape::convex_polygon(
                vec![m + vec2(-14.0, -8.0) * zoom, m + vec2(-2.0, 0.0) * zoom, m + vec2(-14.0, 8.0) * zoom],
                Color32::from_rgb(90, 200, 110),
                Stroke::NONE,
            ));
        }
        painter.text(
            r.center(),
            Align2::CENTER_CENTER,
            format!("{} {}", icon(&state.kind), state.name).trim().to_string(),
            FontId::proportional(14.0 * zoom),
            Color32::WHITE,
        );
        let shift = ui.input(|i| i.modifiers.shift);
        if state_response.drag_started() {
            if shift {
                view.connecting = Some(i);
            } else {
                doc.checkpoint();
            }
        }
        if state_response.dragged() && view.connecting.is_none() && !space {
            let delta = state_response.drag_delta() / zoom;
            if let Some(m) = doc.machine_untracked() {
                let p = &mut m.states[i].editor_position;
                *p = [p[0] + delta.x, p[1] + delta.y];
            }
        }
        if state_response.clicked() {
            clicked_state = Some(i);
        }
        if state_response.double_clicked() {
            if let StateKind::SubMachine(_) = state.kind {
                doc.nesting.push(i);
                doc.selection = Selection::None;
                return;
            }
        }
    }

    // Shift+drag from a state: a new transition on release over another.
    if let Some(from) = view.connecting {
        let pointer = ui.input(|i| i.pointer.latest_pos());
        if let Some(p) = pointer {
            painter.line_segment(
                [box_at(machine.states[from].editor_position).center(), p],
                Stroke::new(2.0, Color32::from_rgb(255, 200, 80)),
            );
        }
        if ui.input(|i| i.pointer.any_released()) {
            view.connecting = None;
            let target = pointer.and_then(|p| state_at(&machine, &look, rect.center(), p));
            let target_name = match target {
                Some(t) => Some(machine.states[t].name.clone()),
                None if pointer.is_some_and(|p| exit_rect.contains(p)) && !doc.nesting.is_empty() => {
                    Some(EXIT_STATE.to_string())
                }
                None => None,
            };
            if let Some(to) = target_name {
                let from_name = machine.states[from].name.clone();
                doc.edit_machine(|m| {
                    m.transitions.push(GraphTransition { from: from_name, to, ..Default::default() })
                });
                doc.selection = Selection::Transition(machine.transitions.len());
            }
        }
    }

    if let Some(i) = clicked_state {
        doc.selection = Selection::State(i);
    } else if let Some(i) = clicked_transition {
        doc.selection = Selection::Transition(i);
    } else if response.clicked() {
        doc.selection = Selection::None;
    }

    // Adding states from a context menu.
    type MakeKind = fn() -> StateKind;
    let menu_at = response.interact_pointer_pos().map(to_graph).unwrap_or_default();
    response.context_menu(|ui| {
        let kinds: [(&str, MakeKind); 4] = [
            ("Add clip state", || StateKind::Clip(ClipState::default())),
            ("Add 1D blend space", || StateKind::BlendSpace1D(BlendSpace1D::default())),
            ("Add 2D blend space", || StateKind::BlendSpace2D(BlendSpace2D::default())),
            ("Add sub-machine", || StateKind::SubMachine(GraphMachine::default())),
        ];
        for (label, make) in kinds {
            if ui.button(label).clicked() {
                let name = unique_name(&machine, "State");
                let position = [menu_at.x, menu_at.y];
                doc.edit_machine(|m| {
                    let mut state = GraphState::new(name.clone(), make());
                    state.editor_position = position;
                    if m.entry.is_empty() {
                        m.entry = name;
                    }
                    m.states.push(state);
                });
                doc.selection = Selection::State(machine.states.len());
                ui.close();
            }
        }
    });

    // Delete the selection.
    if ui.input(|i| i.key_pressed(egui::Key::Delete)) && !ui.ctx().egui_wants_keyboard_input() {
        delete_selection(doc);
    }
}

/// Removes the selected state (with its transitions) or transition.
pub fn delete_selection(doc: &mut Document) {
    match doc.selection {
        Selection::State(i) => doc.edit_machine(|m| {
            let name = m.states.remove(i).name;
            m.transitions.retain(|t| t.from != name && t.to != name);
            if m.entry == name {
                m.entry = m.states.first().map(|s| s.name.clone()).unwrap_or_default();
            }
        }),
        Selection::Transition(i) => doc.edit_machine(|m| {
            m.transitions.remove(i);
        }),
        Selection::None => return,
    }
    doc.selection = Selection::None;
}

/// `base`, or `base 2`, `base 3`... whichever is free in the machine.
pub fn unique_name(machine: &GraphMachine, base: &str) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while machine.states.iter().any(|s| s.name == name) {
        name = format!("{base} {n}");
        n += 1;
    }
    name
}

fn clip_to_rect(r: Rect, from: Pos2, direction: Vec2) -> Pos2 {
    // Walk from the centre line to the box edge along the direction.
    let half = r.size() / 2.0;
    let tx = if direction.x.abs() > 1e-6 { half.x / direction.x.abs() } else { f32::MAX };
    let ty = if direction.y.abs() > 1e-6 { half.y / direction.y.abs() } else { f32::MAX };
    from + direction * tx.min(ty)
}

fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    (a + ab * t).distance(p)
}

/// The progress of a running mix drawn on the arrow `from -> to` of the machine at `prefix`: the
/// arrow whose target is (or contains) the mix's target and whose source is playing or is the
/// Any State box.
fn running_progress(playback: &crate::live::Playback, prefix: &str, from: &str, to: &str) -> Option<f32> {
    let (target, progress) = playback.target.as_ref()?;
    if !crate::live::path_shows(target, prefix, to) {
        return None;
    }
    let current = playback.current.as_deref()?;
    (from == ANY_STATE || crate::live::path_shows(current, prefix, from)).then_some(*progress)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn views() -> Vec<View> {
        let mut out = Vec::new();
        for zoom in [0.2, 0.5, 1.0, 1.7, 3.0] {
            for pan in [vec2(0.0, 0.0), vec2(-350.0, 120.5), vec2(1e3, -2e3)] {
                out.push(View { pan, zoom, connecting: None });
            }
        }
        out
    }

    #[test]
    fn screen_and_graph_mappings_are_inverse() {
        let centre = Pos2::new(640.0, 400.0);
        for view in views() {
            for p in [[0.0, 0.0], [123.0, -45.5], [-900.0, 700.0]] {
                let back = view.to_graph(centre, view.to_screen(centre, p));
                assert!((back.x - p[0]).abs() < 1e-3 && (back.y - p[1]).abs() < 1e-3, "{p:?} -> {back:?}");
            }
            for s in [Pos2::new(0.0, 0.0), Pos2::new(1000.0, 20.0)] {
                let g = view.to_graph(centre, s);
                let again = view.to_screen(centre, [g.x, g.y]);
                assert!((again - s).length() < 1e-2, "{s:?} -> {again:?}");
            }
        }
    }

    #[test]
    fn zooming_keeps_the_point_under_the_cursor() {
        let centre = Pos2::new(640.0, 400.0);
        let cursor = Pos2::new(200.0, 650.0);
        for mut view in views() {
            let before = view.to_graph(centre, cursor);
            view.zoom_around(centre, cursor, 1.37);
            let after = view.to_graph(centre, cursor);
            assert!((after - before).length() < 1e-2, "{before:?} vs {after:?} at zoom {}", view.zoom);
        }
    }

    #[test]
    fn hit_testing_finds_the_state_drawn_at_a_point_and_nothing_between() {
        let centre = Pos2::new(640.0, 400.0);
        let mut machine = GraphMachine::default();
        for (name, x) in [("A", -200.0), ("B", 0.0), ("C", 300.0)] {
            machine.states.push(GraphState {
                editor_position: [x, 50.0],
                ..GraphState::new(name, StateKind::Clip(ClipState::default()))
            });
        }
        for view in views() {
            for (i, s) in machine.states.iter().enumerate() {
                assert_eq!(
                    state_at(&machine, &view, centre, view.to_screen(centre, s.editor_position)),
                    Some(i)
                );
            }
            // Half-way between B and C is empty at every zoom (the gap is 300 - 150 graph units).
            assert_eq!(state_at(&machine, &view, centre, view.to_screen(centre, [150.0, 50.0])), None);
        }
    }
}
