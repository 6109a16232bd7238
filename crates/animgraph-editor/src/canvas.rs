//! The graph canvas: a machine's states as boxes and its transitions as arrows.
//!
//! | gesture | does |
//! |---|---|
//! | drag from a state's edge (or Shift+drag from anywhere on it, or drag the Any State box) onto another state | adds a transition |
//! | drag a state | moves it, with every selected state (one undo step), landing on the grid (Alt: anywhere) |
//! | click / Ctrl+click / Shift+click a state | selects it / toggles it / adds it |
//! | drag on the background | selects the states the rectangle touches |
//! | middle drag, or Space+drag | pans |
//! | wheel | zooms around the cursor |
//! | double-click a sub-machine | enters it (the breadcrumb goes back) |
//! | double-click a blend space | opens its blend space editor |
//! | right-click | adds states, pastes (background); entry, make transition (then click the target), duplicate, copy, cut, delete (state) |
//! | Ctrl+C / Ctrl+X / Ctrl+V | copy, cut, paste states (with the transitions among them and the parameters they use; across tabs) |
//! | Delete, Ctrl+D, Ctrl+A, F | delete, duplicate, select all, frame all |
//! | drop a clip from the clip list | adds a clip state playing it there |

use std::collections::HashMap;

use animgraph_runtime::graph::{
    ANY_STATE, BlendSpace1D, BlendSpace2D, ClipState, EXIT_STATE, GraphMachine, StateKind,
};
use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Vec2, vec2,
};

use crate::document::{Document, Selection};

/// How the canvas is looked at, and the gesture in progress.
#[derive(Clone, Debug)]
pub struct View {
    /// Graph-space offset.
    pub pan: Vec2,
    /// Pixels per graph unit.
    pub zoom: f32,
    /// A transition being dragged out of this state (name, or `*`).
    connecting: Option<String>,
    /// A selection rectangle being dragged from this graph point.
    band: Option<Vec2>,
    /// Where the background's context menu was opened (graph space): new states go there.
    menu_at: Vec2,
    /// The transition was started from the menu ("Make transition"): it ends with the next
    /// click (on a state: made; elsewhere: cancelled), not with the release of the menu click.
    connecting_by_click: bool,
}

impl Default for View {
    fn default() -> Self {
        View {
            pan: Vec2::ZERO,
            zoom: 1.0,
            connecting: None,
            band: None,
            menu_at: Vec2::ZERO,
            connecting_by_click: false,
        }
    }
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

    /// The screen box of a state at graph position `p`.
    pub fn state_rect(&self, centre: Pos2, p: [f32; 2]) -> Rect {
        Rect::from_center_size(self.to_screen(centre, p), BOX * self.zoom)
    }
}

/// A state box's size in graph units.
pub const BOX: Vec2 = vec2(150.0, 46.0);

/// The state whose box is under a screen position, topmost (last drawn) first.
pub fn state_at(machine: &GraphMachine, view: &View, centre: Pos2, p: Pos2) -> Option<usize> {
    machine.states.iter().rposition(|s| view.state_rect(centre, s.editor_position).contains(p))
}

/// The states whose boxes a screen rectangle touches.
pub fn states_in(machine: &GraphMachine, view: &View, centre: Pos2, band: Rect) -> Vec<usize> {
    (0..machine.states.len())
        .filter(|&i| view.state_rect(centre, machine.states[i].editor_position).intersects(band))
        .collect()
}

/// Whether a screen point lies in the band along a box's edge where a drag starts a transition.
pub fn on_edge(r: Rect, p: Pos2) -> bool {
    let band = (r.height() * 0.22).clamp(3.0, 10.0);
    r.contains(p) && !r.shrink(band).contains(p)
}

/// A short tag per state kind, as text (for summaries and accessibility).
pub fn kind_label(kind: &StateKind) -> &'static str {
    match kind {
        StateKind::Clip(_) => "clip",
        StateKind::BlendSpace1D(_) => "1D blend space",
        StateKind::BlendSpace2D(_) => "2D blend space",
        StateKind::SubMachine(_) => "sub-machine",
    }
}

/// How full a playing state's time bar is for normalised time `t`: the fraction of the current
/// loop, except that a non-looping clip holds at full once it has played through (its exit mix
/// runs past 1, where the fraction would wrap to an almost empty bar).
pub fn time_bar_fraction(kind: &StateKind, t: f32) -> f32 {
    let holds = matches!(kind, StateKind::Clip(c) if !c.looping);
    if holds || (t >= 1.0 && t.fract() == 0.0) { t.clamp(0.0, 1.0) } else { t.fract().abs() }
}

fn colour(kind: &StateKind) -> Color32 {
    match kind {
        StateKind::Clip(_) => Color32::from_rgb(52, 73, 94),
        StateKind::BlendSpace1D(_) => Color32::from_rgb(39, 96, 80),
        StateKind::BlendSpace2D(_) => Color32::from_rgb(36, 90, 110),
        StateKind::SubMachine(_) => Color32::from_rgb(96, 66, 110),
    }
}

/// Draws a state kind's icon in the square `r`: a play triangle (clip), dots on a line (1D), a
/// triangle of dots (2D), nested boxes (sub-machine).
fn paint_icon(painter: &egui::Painter, r: Rect, kind: &StateKind) {
    let ink = Color32::from_gray(225);
    let stroke = Stroke::new((r.width() * 0.09).max(1.0), ink);
    let dot = r.width() * 0.12;
    let at = |x: f32, y: f32| r.min + vec2(x, y) * r.width();
    match kind {
        StateKind::Clip(_) => {
            painter.add(Shape::convex_polygon(
                vec![at(0.25, 0.15), at(0.85, 0.5), at(0.25, 0.85)],
                ink,
                Stroke::NONE,
            ));
        }
        StateKind::BlendSpace1D(_) => {
            painter.line_segment([at(0.05, 0.5), at(0.95, 0.5)], stroke);
            for x in [0.15, 0.5, 0.85] {
                painter.circle_filled(at(x, 0.5), dot, ink);
            }
        }
        StateKind::BlendSpace2D(_) => {
            let (a, b, c) = (at(0.5, 0.12), at(0.1, 0.85), at(0.9, 0.85));
            painter.add(Shape::closed_line(vec![a, b, c], stroke));
            for p in [a, b, c] {
                painter.circle_filled(p, dot, ink);
            }
        }
        StateKind::SubMachine(_) => {
            painter.rect_stroke(
                Rect::from_min_max(at(0.05, 0.1), at(0.7, 0.65)),
                2.0,
                stroke,
                StrokeKind::Middle,
            );
            painter.rect_stroke(
                Rect::from_min_max(at(0.3, 0.35), at(0.95, 0.9)),
                2.0,
                stroke,
                StrokeKind::Middle,
            );
        }
    }
}

/// Where the "Any State" box sits: left of every state.
pub fn any_position(machine: &GraphMachine) -> [f32; 2] {
    let (mut min_x, mut min_y) = (0.0f32, 0.0f32);
    for s in &machine.states {
        min_x = min_x.min(s.editor_position[0]);
        min_y = min_y.min(s.editor_position[1]);
    }
    [min_x - 220.0, min_y]
}

/// Where the "Exit" box of a sub-machine sits: right of every state.
pub fn exit_position(machine: &GraphMachine) -> [f32; 2] {
    let max_x = machine.states.iter().map(|s| s.editor_position[0]).fold(0.0f32, f32::max);
    [max_x + 240.0, 0.0]
}

/// Centres every state in the view ("frame all"), the Any State box and (in a sub-machine,
/// `nested`) the Exit box included.
pub fn frame_all(view: &mut View, machine: &GraphMachine, size: Vec2, nested: bool) {
    let mut points: Vec<[f32; 2]> = machine.states.iter().map(|s| s.editor_position).collect();
    points.push(any_position(machine));
    if nested {
        points.push(exit_position(machine));
    }
    let (mut lo, mut hi) = (vec2(f32::MAX, f32::MAX), vec2(f32::MIN, f32::MIN));
    for p in points {
        lo = lo.min(vec2(p[0], p[1]));
        hi = hi.max(vec2(p[0], p[1]));
    }
    let extent = (hi - lo) + BOX * 2.0;
    view.zoom = (size.x / extent.x).min(size.y / extent.y).clamp(0.2, 2.0);
    view.pan = -(lo + hi) * 0.5;
}

/// Transitions `from -> to` of a machine in drawing order: by priority (highest first), then
/// list order, as the player checks them.
pub fn parallel_order(machine: &GraphMachine, from: &str, to: &str) -> Vec<usize> {
    let mut same: Vec<usize> = (0..machine.transitions.len())
        .filter(|&j| machine.transitions[j].from == from && machine.transitions[j].to == to)
        .collect();
    same.sort_by_key(|&j| (-machine.transitions[j].priority, j));
    same
}

/// State names: 14 px at zoom 1, never under 12 px while the boxes are big enough to hold
/// them (zoom 0.5 and up), scaling freely below that (names are hidden under zoom 0.25).
pub fn name_size(zoom: f32) -> f32 {
    let size = 14.0 * zoom;
    if zoom >= 0.5 { size.max(12.0) } else { size }
}

/// Where a `* -> target` arrow starts: a small "Any" tag above and left of the target's box.
pub fn any_tag(target: Rect, zoom: f32) -> Rect {
    let size = vec2(44.0, 20.0) * zoom;
    Rect::from_center_size(target.left_top() + vec2(-34.0, -24.0) * zoom, size)
}

/// Moves label rectangles apart, each along its own push direction (away from its arrow's
/// pair), in order, until it overlaps none placed before it (at most a few steps each).
pub fn separate_labels(labels: &mut [(Rect, Vec2)]) {
    for i in 0..labels.len() {
        let (mut r, push) = labels[i];
        let push = if push.length() > 0.0 { push.normalized() } else { vec2(0.0, 1.0) };
        for _ in 0..12 {
            let Some(other) = labels[..i].iter().map(|(o, _)| *o).find(|o| o.intersects(r)) else { break };
            // Just far enough along the push to clear the other (and a pixel more).
            let overlap = r.intersect(other).size();
            let step =
                if push.x.abs() > push.y.abs() { overlap.x / push.x.abs() } else { overlap.y / push.y.abs() };
            r = r.translate(push * (step.min(r.height() + r.width()) + 1.0));
        }
        labels[i].0 = r;
    }
}

/// Graph units between grid lines (every fifth line is brighter).
pub const GRID: f32 = 50.0;

/// Where dragged states land: multiples of this many graph units (a fifth of the grid).
pub const SNAP: f32 = GRID / 5.0;

/// A grid behind the states, in graph space (so it pans and zooms with them); lines closer
/// than 8 px are skipped.
fn paint_grid(painter: &egui::Painter, rect: Rect, view: &View) {
    let step = GRID * view.zoom;
    if step < 8.0 {
        return;
    }
    let centre = rect.center();
    let origin = view.to_screen(centre, [0.0, 0.0]);
    let (minor, major) = (Color32::from_rgb(36, 38, 45), Color32::from_rgb(45, 48, 57));
    // Lines at origin + k x step across [lo, hi] on one axis; every fifth brighter.
    let lines = |lo: f32, hi: f32, o: f32, segment: &dyn Fn(f32) -> [Pos2; 2]| {
        let mut k = ((lo - o) / step).floor() as i64;
        while o + k as f32 * step <= hi {
            let colour = if k.rem_euclid(5) == 0 { major } else { minor };
            painter.line_segment(segment(o + k as f32 * step), Stroke::new(1.0, colour));
            k += 1;
        }
    };
    lines(rect.left(), rect.right(), origin.x, &|x| [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())]);
    lines(rect.top(), rect.bottom(), origin.y, &|y| [Pos2::new(rect.left(), y), Pos2::new(rect.right(), y)]);
}

/// What the canvas asks of the rest of the editor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CanvasOutput {
    /// The blend space state (index in the shown machine) to open in the blend space editor.
    pub open_blend_space: Option<usize>,
}

/// Draws and edits the document's shown machine.
pub fn show(
    ui: &mut egui::Ui,
    doc: &mut Document,
    view: &mut View,
    playback: &crate::live::Playback,
    explain: Option<(&animgraph_runtime::frame::ExplainRecord, usize)>,
) -> CanvasOutput {
    let mut output = CanvasOutput::default();
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Graph canvas"));
    let rect = response.rect;
    let centre = rect.center();
    painter.rect_filled(rect, 0.0, Color32::from_rgb(30, 32, 38));
    paint_grid(&painter, rect, view);
    let Some(machine) = doc.machine().cloned() else {
        painter.text(
            rect.center(),
            Align2::CENTER_CENTER,
            "this graph has no layers; add one with + Layer",
            FontId::proportional(16.0),
            Color32::GRAY,
        );
        return output;
    };
    if machine.states.is_empty() {
        painter.text(
            rect.center() + vec2(0.0, 60.0),
            Align2::CENTER_CENTER,
            "right-click to add a state",
            FontId::proportional(15.0),
            Color32::GRAY,
        );
    }
    let modifiers = ui.input(|i| i.modifiers);
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
                view.zoom_around(centre, cursor, (scroll * 0.002).exp());
            }
        }
    }
    let zoom = view.zoom;
    let prefix = doc.nesting_prefix();
    // A copy of the pan and zoom for this frame, so the closures leave `view` free to change.
    let look = View { pan: view.pan, zoom: view.zoom, ..Default::default() };
    let box_at = |p: [f32; 2]| look.state_rect(centre, p);
    let any_rect = box_at(any_position(&machine));
    let nested = !doc.nesting.is_empty();
    let exit_rect = box_at(exit_position(&machine));
    // One index per frame: names to boxes, and each (from, to) pair's transitions by priority,
    // so a frame is linear in the graph's size.
    let by_name: HashMap<&str, usize> =
        machine.states.iter().enumerate().map(|(i, s)| (s.name.as_str(), i)).collect();
    let state_rect = |name: &str| -> Option<Rect> {
        match name {
            ANY_STATE => Some(any_rect),
            EXIT_STATE => Some(exit_rect),
            _ => by_name.get(name).map(|&i| box_at(machine.states[i].editor_position)),
        }
    };
    let mut pairs: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    for (i, t) in machine.transitions.iter().enumerate() {
        pairs.entry((t.from.as_str(), t.to.as_str())).or_default().push(i);
    }
    for group in pairs.values_mut() {
        group.sort_by_key(|&j| (-machine.transitions[j].priority, j));
    }
    // Only what can be seen is drawn (and text only where it can be read).
    let visible = rect.expand(20.0);
    let readable = zoom >= 0.3;

    // Transitions: arrows with their condition summary; parallel ones drawn apart, by priority.
    // Transition labels: readable at the default zoom (at least 11 px), growing to 15 px.
    let font = FontId::proportional((11.0 * zoom).clamp(11.0, 15.0));
    let mut clicked_transition = None;
    let mut hovered_transition = None;
    let mut labels: Vec<(Rect, Vec2, std::sync::Arc<egui::Galley>)> = Vec::new();
    let hover = response.hover_pos();
    let mut any_tags: Vec<Rect> = Vec::new();
    // Arrows go around the boxes they do not connect.
    let mut boxes: Vec<Rect> = machine.states.iter().map(|s| box_at(s.editor_position)).collect();
    boxes.push(any_rect);
    if nested {
        boxes.push(exit_rect);
    }
    let obstacles = Obstacles::new(boxes);
    for (i, t) in machine.transitions.iter().enumerate() {
        let Some(b) = state_rect(&t.to) else { continue };
        // A `*` transition starts at a small "Any" tag beside its target (Unity's way), not at
        // the Any State box, so it never runs across other states.
        let a = if t.from == ANY_STATE {
            let tag = any_tag(b, zoom);
            if !any_tags.contains(&tag) {
                any_tags.push(tag);
            }
            tag
        } else {
            let Some(a) = state_rect(&t.from) else { continue };
            a
        };
        if t.from == t.to || !visible.intersects(a.union(b)) {
            continue;
        }
        let same = &pairs[&(t.from.as_str(), t.to.as_str())];
        let order = same.iter().position(|&j| j == i).unwrap_or(0) as f32;
        let (start, end, outward) = arrow_ends(a, b, order, zoom);
        let selected = doc.selection == Selection::Transition(i);
        let base =
            if t.from == ANY_STATE { Color32::from_rgb(160, 160, 190) } else { Color32::from_gray(170) };
        let stroke = Stroke::new(
            if selected { 3.0 } else { 1.6 },
            if selected { Color32::from_rgb(255, 200, 80) } else { base },
        );
        let path = if t.from == ANY_STATE {
            vec![start, end]
        } else {
            route(start, end, a, b, outward, &obstacles, 24.0 * zoom)
        };
        painter.add(Shape::line(path.clone(), stroke));
        if planned_hop(playback, &prefix, &t.from, &t.to) {
            // A path travel's hop still to come: dashed, in the travel colour.
            let planned = Stroke::new(3.0 * zoom.max(0.6), Color32::from_rgb(255, 160, 60));
            painter.extend(Shape::dashed_line(&path, planned, 8.0 * zoom, 5.0 * zoom));
        }
        if let Some(progress) = running_progress(playback, &prefix, &t.from, &t.to) {
            let lit = Stroke::new(3.5 * zoom.max(0.6), Color32::from_rgb(120, 220, 255));
            painter.add(Shape::line(part(&path, progress), lit));
        }
        // The head points along the path's last stretch.
        let (_, direction) = along(&path, 1.0);
        let normal = vec2(-direction.y, direction.x);
        let head = 9.0 * zoom;
        painter.add(Shape::convex_polygon(
            vec![
                end,
                end - direction * head + normal * head * 0.5,
                end - direction * head - normal * head * 0.5,
            ],
            stroke.color,
            Stroke::NONE,
        ));
        let mut label = if readable { t.summary() } else { String::new() };
        if readable && t.priority != 0 {
            label = format!("[p{}] {label}", t.priority);
        }
        if !label.trim().is_empty() {
            // Beyond its own arrow, away from the pair's centre line; placed after every arrow
            // is drawn, so no two labels overlap and no line strikes through one.
            let galley =
                painter.layout_no_wrap(label.trim().to_string(), font.clone(), Color32::from_gray(210));
            let (at, push) = if t.from == ANY_STATE {
                // Above its "Any" tag (the arrow is too short to carry it).
                (a.center_top() - vec2(0.0, galley.size().y * 0.5 + 3.0), vec2(0.0, -1.0))
            } else {
                let (middle, _) = along(&path, 0.5);
                (middle + outward * (7.0 + 4.0 * zoom), outward)
            };
            labels.push((Rect::from_center_size(at, galley.size() + vec2(6.0, 2.0)), push, galley));
        }
        if response.clicked() {
            if let Some(p) = response.interact_pointer_pos() {
                if distance_to_polyline(p, &path) < 8.0 {
                    clicked_transition = Some(i);
                }
            }
        }
        if hover.is_some_and(|p| distance_to_polyline(p, &path) < 8.0) {
            hovered_transition = Some((i, t.from.clone(), t.to.clone()));
        }
    }
    // Labels last: moved apart where they would overlap, on a backing that keeps lines off them.
    let mut rects: Vec<(Rect, Vec2)> = labels.iter().map(|(r, push, _)| (*r, *push)).collect();
    separate_labels(&mut rects);
    for ((r, _), (_, _, galley)) in rects.iter().zip(labels) {
        painter.rect_filled(*r, CornerRadius::same(3), Color32::from_rgba_unmultiplied(30, 32, 38, 215));
        painter.galley(r.center() - galley.size() / 2.0, galley, Color32::from_gray(210));
    }

    // Over an arrow: why it did or did not fire on the last frame.
    if let (Some((i, from, to)), Some((record, layer))) = (&hovered_transition, explain) {
        let path = format!("{}.Transitions[{i}]", doc.machine_path());
        let why = crate::why::lookup(record, layer, &path);
        response.clone().on_hover_ui_at_pointer(|ui| {
            ui.strong(format!("{from} -> {to}, last frame"));
            crate::why::show(ui, &why);
        });
    }

    // The Any State box (a drag source for `*` transitions) and a sub-machine's Exit box.
    let any_response = ui.interact(any_rect, response.id.with("any-state"), Sense::drag());
    any_response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, "Any State"));
    let any_response = any_response.on_hover_text(
        "Drag onto a state to add a * transition (drawn from an \"Any\" tag beside its target)",
    );
    if any_response.drag_started() {
        view.connecting = Some(ANY_STATE.to_string());
    }
    for tag in &any_tags {
        painter.rect_filled(*tag, CornerRadius::same(6), Color32::from_rgb(70, 70, 76));
        painter.text(
            tag.center(),
            Align2::CENTER_CENTER,
            "Any",
            FontId::proportional((11.0 * zoom).max(9.0)),
            Color32::from_gray(220),
        );
    }
    for (r, text, show_it) in [(any_rect, "Any State", true), (exit_rect, "Exit", nested)] {
        if !show_it {
            continue;
        }
        painter.rect_filled(r, CornerRadius::same(10), Color32::from_rgb(70, 70, 76));
        painter.text(
            r.center(),
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(name_size(zoom)),
            Color32::WHITE,
        );
    }

    // States.
    let mut clicked_state = None;
    let pointer = ui.input(|i| i.pointer.latest_pos());
    for (i, state) in machine.states.iter().enumerate() {
        let r = box_at(state.editor_position);
        if !visible.intersects(r) {
            continue;
        }
        let state_response = ui.interact(r, response.id.with(("state", i)), Sense::click_and_drag());
        let label = format!("{} ({})", state.name, kind_label(&state.kind));
        state_response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
        let selected = doc.selection.has_state(i);
        let playing =
            playback.current.as_deref().is_some_and(|p| crate::live::path_shows(p, &prefix, &state.name));
        // The target of a running mix glows too, brighter as the mix goes on.
        let mixing_in = playback
            .target
            .as_ref()
            .filter(|(p, _)| !playing && crate::live::path_shows(p, &prefix, &state.name))
            .map(|(_, progress)| progress.clamp(0.0, 1.0));
        if playing || mixing_in.is_some() {
            let strength = mixing_in.map_or(1.0, |p| 0.35 + 0.65 * p);
            for (grow, alpha) in [(10.0, 40.0), (6.0, 70.0), (3.0, 120.0)] {
                painter.rect_filled(
                    r.expand(grow * zoom),
                    CornerRadius::same(14),
                    Color32::from_rgba_unmultiplied(120, 220, 255, (alpha * strength) as u8),
                );
            }
        }
        painter.rect_filled(r, CornerRadius::same(10), colour(&state.kind));
        if playing {
            // Normalised time as a bar along the bottom edge.
            let fraction = time_bar_fraction(&state.kind, playback.normalised_time);
            let bar = Rect::from_min_size(
                r.left_bottom() + vec2(8.0 * zoom, -6.0 * zoom),
                vec2((r.width() - 16.0 * zoom) * fraction, 3.0 * zoom),
            );
            painter.rect_filled(bar, 1.0, Color32::from_rgb(120, 220, 255));
        }
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
            painter.add(Shape::convex_polygon(
                vec![m + vec2(-14.0, -8.0) * zoom, m + vec2(-2.0, 0.0) * zoom, m + vec2(-14.0, 8.0) * zoom],
                Color32::from_rgb(90, 200, 110),
                Stroke::NONE,
            ));
        }
        let icon = Rect::from_min_size(r.left_center() + vec2(10.0, -8.0) * zoom, vec2(16.0, 16.0) * zoom);
        paint_icon(&painter, icon, &state.kind);
        if zoom >= 0.25 {
            painter.text(
                r.center() + vec2(10.0 * zoom, 0.0),
                Align2::CENTER_CENTER,
                &state.name,
                FontId::proportional(name_size(zoom)),
                Color32::WHITE,
            );
        }
        if pointer.is_some_and(|p| on_edge(r, p)) && view.connecting.is_none() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Crosshair);
        }
        if state_response.drag_started_by(egui::PointerButton::Primary) && !space {
            let origin = ui.input(|inp| inp.pointer.press_origin()).unwrap_or(r.center());
            if modifiers.shift || on_edge(r, origin) {
                view.connecting = Some(state.name.clone());
            } else {
                if !selected {
                    doc.selection = Selection::state(i);
                }
                doc.checkpoint();
            }
        }
        if state_response.dragged_by(egui::PointerButton::Primary) && view.connecting.is_none() && !space {
            let delta = state_response.drag_delta() / zoom;
            doc.move_selected_untracked([delta.x, delta.y]);
        }
        // A move ends on the grid's subdivisions (Alt: where it was dropped); part of the
        // drag's undo step.
        if state_response.drag_stopped() && view.connecting.is_none() && !space && !modifiers.alt {
            doc.snap_selected_untracked(SNAP);
        }
        if state_response.clicked() {
            clicked_state = Some(i);
        }
        if state_response.double_clicked() {
            match state.kind {
                StateKind::SubMachine(_) => {
                    doc.nesting.push(i);
                    doc.selection = Selection::None;
                    return output;
                }
                StateKind::BlendSpace1D(_) | StateKind::BlendSpace2D(_) => output.open_blend_space = Some(i),
                StateKind::Clip(_) => {}
            }
        }
        state_response.context_menu(|ui| {
            if !doc.selection.has_state(i) {
                doc.selection = Selection::state(i);
            }
            if machine.entry != state.name && ui.button("Make entry state").clicked() {
                let name = state.name.clone();
                doc.edit_machine(|m| m.entry = name);
                ui.close();
            }
            if let StateKind::SubMachine(_) = state.kind {
                if ui.button("Enter sub-machine").clicked() {
                    doc.nesting.push(i);
                    doc.selection = Selection::None;
                    ui.close();
                }
            }
            if matches!(state.kind, StateKind::BlendSpace1D(_) | StateKind::BlendSpace2D(_))
                && ui.button("Edit blend space").clicked()
            {
                output.open_blend_space = Some(i);
                ui.close();
            }
            if ui
                .button("Make transition")
                .on_hover_text("then click the target state (Escape cancels)")
                .clicked()
            {
                view.connecting = Some(state.name.clone());
                view.connecting_by_click = true;
                doc.status = format!("click the state {} goes to (Escape cancels)", state.name);
                ui.close();
            }
            if ui.button("Duplicate").clicked() {
                doc.duplicate_selection();
                ui.close();
            }
            if ui.button("Copy").on_hover_text("Ctrl+C; paste in any machine or tab").clicked() {
                if let Some(clip) = doc.copy_selection() {
                    doc.status = format!("copied {} state(s)", clip.states.len());
                    keep_clip(ui, clip);
                }
                ui.close();
            }
            if ui.button("Cut").on_hover_text("Ctrl+X").clicked() {
                if let Some(clip) = doc.cut_selection() {
                    keep_clip(ui, clip);
                }
                ui.close();
            }
            if ui.button("Delete").clicked() {
                doc.delete_selection();
                ui.close();
            }
        });
    }

    // A transition being dragged out: a rubber line, and a new transition on release over
    // another state (or a sub-machine's Exit box).
    if let Some(from) = view.connecting.clone() {
        if let (Some(p), Some(a)) = (pointer, state_rect(&from)) {
            painter.line_segment([a.center(), p], Stroke::new(2.0, Color32::from_rgb(255, 200, 80)));
        }
        let (released, pressed, escape) = ui
            .input(|i| (i.pointer.any_released(), i.pointer.any_pressed(), i.key_pressed(egui::Key::Escape)));
        if escape {
            view.connecting = None;
            view.connecting_by_click = false;
        } else if view.connecting_by_click && !pressed {
            // Started from the menu: wait for the next click (the menu's own release is not it).
        } else if released || (view.connecting_by_click && pressed) {
            view.connecting = None;
            view.connecting_by_click = false;
            let target = pointer
                .and_then(|p| state_at(&machine, &look, centre, p))
                .map(|t| machine.states[t].name.clone());
            let target = target.or_else(|| {
                (nested && pointer.is_some_and(|p| exit_rect.contains(p))).then(|| EXIT_STATE.to_string())
            });
            if let Some(to) = target.filter(|to| *to != from) {
                doc.connect(&from, &to);
            }
        }
    }

    // A selection rectangle dragged on the background.
    if response.drag_started_by(egui::PointerButton::Primary) && !space && view.connecting.is_none() {
        let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(centre);
        view.band = Some(look.to_graph(centre, origin));
    }
    if let Some(start) = view.band {
        let a = look.to_screen(centre, [start.x, start.y]);
        let b = pointer.unwrap_or(a);
        let band = Rect::from_two_pos(a, b);
        painter.rect(
            band,
            0.0,
            Color32::from_rgba_unmultiplied(255, 200, 80, 24),
            Stroke::new(1.0, Color32::from_rgb(255, 200, 80)),
            StrokeKind::Inside,
        );
        if ui.input(|i| i.pointer.any_released()) {
            view.band = None;
            let mut chosen = states_in(&machine, &look, centre, band);
            if modifiers.shift || modifiers.command {
                chosen.extend_from_slice(doc.selection.states());
                chosen.sort_unstable();
                chosen.dedup();
            }
            doc.selection = if chosen.is_empty() { Selection::None } else { Selection::States(chosen) };
        }
    }

    if let Some(i) = clicked_state {
        if modifiers.command {
            doc.selection.toggle_state(i);
        } else if modifiers.shift {
            if !doc.selection.has_state(i) {
                doc.selection.toggle_state(i);
            }
        } else {
            doc.selection = Selection::state(i);
        }
    } else if let Some(i) = clicked_transition {
        doc.selection = Selection::Transition(i);
    } else if response.clicked() {
        doc.selection = Selection::None;
    }

    // Adding states from the background's context menu.
    type MakeKind = fn() -> StateKind;
    if response.secondary_clicked() {
        if let Some(p) = response.interact_pointer_pos() {
            view.menu_at = look.to_graph(centre, p);
        }
    }
    let menu_at = view.menu_at;
    response.context_menu(|ui| {
        let kinds: [(&str, MakeKind); 4] = [
            ("Add clip state", || StateKind::Clip(ClipState::default())),
            ("Add 1D blend space", || StateKind::BlendSpace1D(BlendSpace1D::default())),
            ("Add 2D blend space", || StateKind::BlendSpace2D(BlendSpace2D::default())),
            ("Add sub-machine", || StateKind::SubMachine(Default::default())),
        ];
        for (label, make) in kinds {
            if ui.button(label).clicked() {
                doc.add_state(make(), [menu_at.x, menu_at.y]);
                ui.close();
            }
        }
        ui.separator();
        let clip = ui.ctx().data(|d| d.get_temp::<crate::document::Clipboard>(clipboard_id()));
        if ui.add_enabled(clip.is_some(), egui::Button::new("Paste")).on_hover_text("Ctrl+V").clicked() {
            if let Some(clip) = clip {
                doc.paste(&clip);
            }
            ui.close();
        }
        if ui.button("Select all").clicked() {
            doc.select_all();
            ui.close();
        }
    });

    // A clip dragged from the clip list: a clip state playing it, where it was dropped.
    if let Some(clip) = response.dnd_release_payload::<String>() {
        if let Some(p) = ui.input(|i| i.pointer.latest_pos()) {
            let at = look.to_graph(centre, p);
            doc.add_clip_state(&clip, [at.x, at.y]);
        }
    }

    // Keys, when no text field has them.
    if ui.rect_contains_pointer(rect) && !ui.ctx().egui_wants_keyboard_input() {
        let (delete, duplicate, all, frame) = ui.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::NONE, egui::Key::Delete)
                    || i.consume_key(egui::Modifiers::NONE, egui::Key::Backspace),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::D),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::A),
                i.consume_key(egui::Modifiers::NONE, egui::Key::F),
            )
        });
        if delete {
            doc.delete_selection();
        }
        if duplicate {
            doc.duplicate_selection();
        }
        if all {
            doc.select_all();
        }
        if frame {
            frame_all(view, &machine, rect.size(), nested);
        }
        clipboard_keys(ui, doc);
    }
    output
}

/// Where the editor keeps copied states: in egui's memory, so every tab shares it.
fn clipboard_id() -> egui::Id {
    egui::Id::unique("animgraph-state-clipboard")
}

/// The text put on the system clipboard with a copy (Ctrl+V only arrives as a paste event when
/// the system clipboard holds text); a paste whose text starts with it pastes the states.
pub const CLIPBOARD_MARK: &str = "animgraph states:";

/// Keeps copied states for pasting (and marks the system clipboard, see [`CLIPBOARD_MARK`]).
fn keep_clip(ui: &egui::Ui, clip: crate::document::Clipboard) {
    let names: Vec<&str> = clip.states.iter().map(|s| s.name.as_str()).collect();
    ui.ctx().copy_text(format!("{CLIPBOARD_MARK} {}", names.join(", ")));
    ui.ctx().data_mut(|d| d.insert_temp(clipboard_id(), clip));
}

/// Ctrl+C, Ctrl+X, Ctrl+V on the canvas: states with the transitions among them, between
/// machines, layers and tabs.
fn clipboard_keys(ui: &mut egui::Ui, doc: &mut Document) {
    let (copy, cut, paste) = ui.input_mut(|i| {
        let copy = i.events.iter().any(|e| matches!(e, egui::Event::Copy))
            | i.consume_key(egui::Modifiers::COMMAND, egui::Key::C);
        let cut = i.events.iter().any(|e| matches!(e, egui::Event::Cut))
            | i.consume_key(egui::Modifiers::COMMAND, egui::Key::X);
        let paste =
            i.events.iter().any(|e| matches!(e, egui::Event::Paste(t) if t.starts_with(CLIPBOARD_MARK)))
                | i.consume_key(egui::Modifiers::COMMAND, egui::Key::V);
        (copy, cut, paste)
    });
    let clip = if cut {
        doc.cut_selection()
    } else if copy {
        doc.copy_selection()
    } else {
        None
    };
    if let Some(clip) = clip {
        if !cut {
            doc.status = format!("copied {} state(s)", clip.states.len());
        }
        keep_clip(ui, clip);
    }
    if paste && let Some(clip) = ui.ctx().data(|d| d.get_temp::<crate::document::Clipboard>(clipboard_id())) {
        doc.paste(&clip);
    }
}

/// Where a ray from `from` (inside `r`; the box centre, or beside it for offset parallel
/// arrows) along `direction` leaves the box, so arrow ends and heads sit exactly on its edge.
pub fn clip_to_rect(r: Rect, from: Pos2, direction: Vec2) -> Pos2 {
    let exit = |lo: f32, hi: f32, p: f32, d: f32| {
        if d > 1e-6 {
            (hi - p) / d
        } else if d < -1e-6 {
            (lo - p) / d
        } else {
            f32::MAX
        }
    };
    let tx = exit(r.min.x, r.max.x, from.x, direction.x);
    let ty = exit(r.min.y, r.max.y, from.y, direction.y);
    from + direction * tx.min(ty).max(0.0)
}

/// Where the arrow from box `a` to box `b` starts and ends (on their edges), and its outward
/// side (unit normal). Each arrow is offset to its own side of the centre line, so A -> B and
/// B -> A lie apart; parallel ones (`order` by priority) stack outwards.
pub fn arrow_ends(a: Rect, b: Rect, order: f32, zoom: f32) -> (Pos2, Pos2, Vec2) {
    let direction = (b.center() - a.center()).normalized();
    let outward = vec2(-direction.y, direction.x);
    let offset = outward * (9.0 + order * 14.0) * zoom;
    (
        clip_to_rect(a, a.center() + offset, direction),
        clip_to_rect(b, b.center() + offset, -direction),
        outward,
    )
}

/// Boxes by grid cell, so an arrow looks only at the boxes near it (a frame stays linear in
/// the graph's size).
pub struct Obstacles {
    cell: f32,
    cells: HashMap<(i32, i32), Vec<usize>>,
    boxes: Vec<Rect>,
}

impl Obstacles {
    /// An index of `boxes` (screen rectangles) in cells about two boxes wide.
    pub fn new(boxes: Vec<Rect>) -> Obstacles {
        let cell = boxes.first().map_or(200.0, |r| r.width().max(r.height()) * 2.0).max(1.0);
        let mut cells: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
        for (i, r) in boxes.iter().enumerate() {
            for key in Self::keys(cell, *r) {
                cells.entry(key).or_default().push(i);
            }
        }
        Obstacles { cell, cells, boxes }
    }

    fn keys(cell: f32, r: Rect) -> impl Iterator<Item = (i32, i32)> {
        let (x0, x1) = ((r.min.x / cell).floor() as i32, (r.max.x / cell).floor() as i32);
        let (y0, y1) = ((r.min.y / cell).floor() as i32, (r.max.y / cell).floor() as i32);
        // A huge rectangle (zoomed far in) is not worth indexing cell by cell.
        let (x1, y1) = (x1.min(x0 + 64), y1.min(y0 + 64));
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    /// Whether the segment `a`-`b` passes through a box other than `except`.
    fn hits(&self, a: Pos2, b: Pos2, except: [Option<Rect>; 2]) -> bool {
        let span = Rect::from_two_pos(a, b);
        Self::keys(self.cell, span).any(|key| {
            self.cells.get(&key).is_some_and(|list| {
                list.iter().any(|&i| {
                    let r = self.boxes[i];
                    !except.contains(&Some(r)) && segment_hits_rect(a, b, r.shrink(1.0))
                })
            })
        })
    }
}

/// Whether the segment `a`-`b` passes through `r` (Liang-Barsky).
pub fn segment_hits_rect(a: Pos2, b: Pos2, r: Rect) -> bool {
    let (min, max) = ([r.min.x, r.min.y], [r.max.x, r.max.y]);
    animgraph_draw::clip_segment([a.x, a.y], [b.x, b.y], min, max).is_some()
}

/// An arrow's path from `start` to `end` (on the edges of `from` and `to`): straight when that
/// crosses no other box, else a curve bowed to whichever side clears every box with the least
/// bend (tried on the arrow's own side first, so parallel arrows stay apart). Points of a
/// polyline; the last segment gives the head's direction.
pub fn route(
    start: Pos2,
    end: Pos2,
    from: Rect,
    to: Rect,
    side: Vec2,
    obstacles: &Obstacles,
    step: f32,
) -> Vec<Pos2> {
    let except = [Some(from), Some(to)];
    if !obstacles.hits(start, end, except) {
        return vec![start, end];
    }
    let mid = start.lerp(end, 0.5);
    let curve = |bend: f32| -> Vec<Pos2> {
        // A quadratic curve through the point `bend` away from the middle.
        let control = mid + side * bend * 2.0;
        (0..=16)
            .map(|k| {
                let t = k as f32 / 16.0;
                let u = 1.0 - t;
                (start.to_vec2() * u * u + control.to_vec2() * 2.0 * u * t + end.to_vec2() * t * t).to_pos2()
            })
            .collect()
    };
    let clear = |points: &[Pos2]| points.windows(2).all(|w| !obstacles.hits(w[0], w[1], except));
    for k in 1..=10 {
        for sign in [1.0, -1.0] {
            let points = curve(sign * k as f32 * step);
            if clear(&points) {
                return points;
            }
        }
    }
    vec![start, end]
}

/// Where `fraction` of a polyline's length falls: the index of its segment, the point and the
/// segment's direction (the last segment's end past the end).
fn locate(points: &[Pos2], fraction: f32) -> (usize, Pos2, Vec2) {
    let total: f32 = points.windows(2).map(|w| w[0].distance(w[1])).sum();
    let mut left = total * fraction.clamp(0.0, 1.0);
    for (i, w) in points.windows(2).enumerate() {
        let length = w[0].distance(w[1]);
        if left <= length && length > 0.0 {
            return (i, w[0].lerp(w[1], left / length), (w[1] - w[0]) / length);
        }
        left -= length;
    }
    let n = points.len();
    (n.saturating_sub(2), points[n - 1], (points[n - 1] - points[n.saturating_sub(2)]).normalized())
}

/// The point `fraction` of the way along a polyline, and the direction there.
pub fn along(points: &[Pos2], fraction: f32) -> (Pos2, Vec2) {
    let (_, at, direction) = locate(points, fraction);
    (at, direction)
}

/// The polyline up to `fraction` of its length.
fn part(points: &[Pos2], fraction: f32) -> Vec<Pos2> {
    let (segment, at, _) = locate(points, fraction);
    points[..=segment].iter().copied().chain(std::iter::once(at)).collect()
}

fn distance_to_polyline(p: Pos2, points: &[Pos2]) -> f32 {
    points.windows(2).map(|w| distance_to_segment(p, w[0], w[1])).fold(f32::MAX, f32::min)
}

fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    (a + ab * t).distance(p)
}

/// Whether the arrow `from -> to` of the machine at `prefix` is a hop of the path travel under
/// way.
fn planned_hop(playback: &crate::live::Playback, prefix: &str, from: &str, to: &str) -> bool {
    playback.travel.iter().any(|[f, t]| {
        crate::live::path_shows(t, prefix, to)
            && (from == ANY_STATE || crate::live::path_shows(f, prefix, from))
    })
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
    use animgraph_runtime::graph::{GraphState, GraphTransition};

    /// A non-looping clip's bar stays full through its exit mix (t past 1) instead of wrapping
    /// to almost empty; looping states show the fraction of the current loop.
    /// A `*` transition's arrow runs from its "Any" tag to its target without crossing any
    /// other state's box, in every bundled graph (the old arrows from the Any State box ran
    /// under other states).
    #[test]
    fn any_state_arrows_cross_no_other_state() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets");
        let mut checked = 0;
        for file in ["characters/robot/robot.mres", "characters/gbot/gbot.mres", "graphs/showcase.mres"] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            let graph = animgraph_runtime::mres::load_str_editable(&text).unwrap().graph;
            let view = View::default();
            let centre = Pos2::ZERO;
            for layer in &graph.layers {
                let m = &layer.machine;
                for t in m.transitions.iter().filter(|t| t.from == ANY_STATE) {
                    let Some(target) = m.state(&t.to) else { continue };
                    let b = view.state_rect(centre, target.editor_position);
                    let tag = any_tag(b, 1.0);
                    assert!(!tag.intersects(b), "{file}: the tag covers {}", t.to);
                    for other in m.states.iter().filter(|s| s.name != t.to) {
                        let r = view.state_rect(centre, other.editor_position);
                        let hits =
                            (0..=20).any(|k| r.contains(tag.center().lerp(b.center(), k as f32 / 20.0)));
                        assert!(!hits && !r.intersects(tag), "{file}: * -> {} crosses {}", t.to, other.name);
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked >= 3, "checked {checked} any-state transitions");
    }

    /// No arrow passes through a box it does not connect, in any machine of any bundled graph
    /// (laid out as the editor lays out files without positions): arrows that would are routed
    /// around. At the default zoom, with the Any State box and a sub-machine's Exit box in the
    /// way too.
    #[test]
    fn no_arrow_crosses_a_box_it_does_not_connect() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets");
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("graphs"))
            .unwrap()
            .chain(
                std::fs::read_dir(root.join("characters"))
                    .unwrap()
                    .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap()),
            )
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "mres"))
            .collect();
        files.sort();
        let (mut arrows, mut routed) = (0, 0);
        fn machines<'a>(m: &'a GraphMachine, nested: bool, out: &mut Vec<(&'a GraphMachine, bool)>) {
            out.push((m, nested));
            for s in &m.states {
                if let StateKind::SubMachine(inner) = &s.kind {
                    machines(inner, true, out);
                }
            }
        }
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            let mut graph = animgraph_runtime::mres::load_str_editable(&text).unwrap().graph;
            crate::layout::arrange_piled_up(graph.layers.iter_mut().map(|l| &mut l.machine));
            let view = View::default();
            let centre = Pos2::ZERO;
            for layer in &graph.layers {
                let mut all = Vec::new();
                machines(&layer.machine, false, &mut all);
                for (m, nested) in all {
                    let rect_of = |name: &str| match name {
                        ANY_STATE => Some(view.state_rect(centre, any_position(m))),
                        EXIT_STATE => Some(view.state_rect(centre, exit_position(m))),
                        _ => m.state(name).map(|s| view.state_rect(centre, s.editor_position)),
                    };
                    let mut boxes: Vec<Rect> =
                        m.states.iter().map(|s| view.state_rect(centre, s.editor_position)).collect();
                    boxes.push(view.state_rect(centre, any_position(m)));
                    if nested {
                        boxes.push(view.state_rect(centre, exit_position(m)));
                    }
                    let obstacles = Obstacles::new(boxes.clone());
                    for t in m.transitions.iter().filter(|t| t.from != ANY_STATE && t.from != t.to) {
                        let (Some(a), Some(b)) = (rect_of(&t.from), rect_of(&t.to)) else { continue };
                        let order = parallel_order(m, &t.from, &t.to)
                            .iter()
                            .position(|&j| m.transitions[j] == *t)
                            .unwrap_or(0);
                        let (start, end, outward) = arrow_ends(a, b, order as f32, 1.0);
                        let path = route(start, end, a, b, outward, &obstacles, 24.0);
                        if path.len() > 2 {
                            routed += 1;
                        }
                        for r in boxes.iter().filter(|r| **r != a && **r != b) {
                            let crossing =
                                path.windows(2).any(|w| segment_hits_rect(w[0], w[1], r.shrink(1.0)));
                            assert!(
                                !crossing,
                                "{}: {} -> {} crosses a box at {:?}",
                                file.display(),
                                t.from,
                                t.to,
                                r.center()
                            );
                        }
                        arrows += 1;
                    }
                }
            }
        }
        assert!(arrows >= 40, "checked {arrows} arrows in {} files", files.len());
        eprintln!("{arrows} arrows, {routed} routed around boxes, {} files", files.len());
    }

    /// A -> C and C -> A across B (three in a row, and a fourth box above the middle): the
    /// straight lines would run through B; the routed arrows bow around it on opposite sides,
    /// clear of every other box, from and to the same ends.
    #[test]
    fn arrows_are_routed_around_a_box_in_the_way() {
        let view = View::default();
        let at = |x: f32, y: f32| view.state_rect(Pos2::ZERO, [x, y]);
        let (a, b, c, d) = (at(0.0, 0.0), at(250.0, 0.0), at(500.0, 0.0), at(250.0, -120.0));
        let obstacles = Obstacles::new(vec![a, b, c, d]);
        let mut bends = Vec::new();
        for (from, to) in [(a, c), (c, a)] {
            let (start, end, outward) = arrow_ends(from, to, 0.0, 1.0);
            assert!(segment_hits_rect(start, end, b), "the straight line would cross B");
            let path = route(start, end, from, to, outward, &obstacles, 24.0);
            assert!(path.len() > 2, "not routed");
            for r in [b, d] {
                assert!(!path.windows(2).any(|w| segment_hits_rect(w[0], w[1], r)), "crosses {r:?}");
            }
            assert_eq!((path[0], *path.last().unwrap()), (start, end));
            bends.push(along(&path, 0.5).0.y);
        }
        // Each on its own side (the gap between B and D is wide enough for one).
        assert!(bends[0] * bends[1] < 0.0, "both bend the same way: {bends:?}");
        // With nothing in the way the arrow stays straight.
        let (start, end, outward) = arrow_ends(a, d, 0.0, 1.0);
        assert_eq!(route(start, end, a, d, outward, &obstacles, 24.0).len(), 2);
    }

    /// A path's point and direction at a fraction of its length, and its part up to there (what
    /// a running mix fills), on an L of two 10-unit legs.
    #[test]
    fn polylines_are_measured_along_their_length() {
        let l = [Pos2::new(0.0, 0.0), Pos2::new(10.0, 0.0), Pos2::new(10.0, 10.0)];
        assert_eq!(along(&l, 0.25), (Pos2::new(5.0, 0.0), vec2(1.0, 0.0)));
        assert_eq!(along(&l, 0.75), (Pos2::new(10.0, 5.0), vec2(0.0, 1.0)));
        assert_eq!(along(&l, 1.0), (Pos2::new(10.0, 10.0), vec2(0.0, 1.0)));
        assert_eq!(part(&l, 0.75), vec![l[0], l[1], Pos2::new(10.0, 5.0)]);
        assert_eq!(part(&l, 0.25), vec![l[0], Pos2::new(5.0, 0.0)]);
    }

    /// Arrow ends (and so their heads) land on the box's edge, also for offset parallel
    /// arrows at diagonals, where the old centre-based step overshot into or short of the box.
    #[test]
    fn arrow_ends_sit_on_the_box_edge() {
        let r = Rect::from_center_size(Pos2::new(100.0, 50.0), BOX);
        for angle in (0..36).map(|k| k as f32 * 10.0_f32.to_radians()) {
            let d = vec2(angle.cos(), angle.sin());
            let normal = vec2(-d.y, d.x);
            for offset in [0.0, 9.0, 23.0] {
                let from = r.center() + normal * offset;
                if !r.contains(from) {
                    continue;
                }
                let end = clip_to_rect(r, from, d);
                let on_edge = ((end.x - r.min.x).abs() < 0.01 || (end.x - r.max.x).abs() < 0.01)
                    && end.y >= r.min.y - 0.01
                    && end.y <= r.max.y + 0.01
                    || ((end.y - r.min.y).abs() < 0.01 || (end.y - r.max.y).abs() < 0.01)
                        && end.x >= r.min.x - 0.01
                        && end.x <= r.max.x + 0.01;
                assert!(on_edge, "angle {angle}, offset {offset}: {end:?} not on {r:?}");
            }
        }
    }

    /// Overlapping transition labels are moved apart along their push directions.
    #[test]
    fn labels_never_overlap_after_separation() {
        let r = |x: f32, y: f32| Rect::from_center_size(Pos2::new(x, y), vec2(80.0, 14.0));
        let mut labels = vec![
            (r(100.0, 100.0), vec2(0.0, 1.0)),
            (r(110.0, 104.0), vec2(0.0, 1.0)),
            (r(105.0, 98.0), vec2(0.0, -1.0)),
            (r(100.0, 100.0), vec2(1.0, 0.0)),
            (r(300.0, 300.0), vec2(0.0, 1.0)),
        ];
        let far = labels[4].0;
        separate_labels(&mut labels);
        for i in 0..labels.len() {
            for j in 0..i {
                assert!(
                    !labels[i].0.intersects(labels[j].0),
                    "{i} overlaps {j}: {:?} {:?}",
                    labels[i].0,
                    labels[j].0
                );
            }
        }
        assert_eq!(labels[4].0, far, "a label with room stays put");
        assert!(labels[1].0.center().y > 104.0, "moved along its push");
    }

    /// State names stay readable (12 px or more) from zoom 0.5 up and scale with zoom.
    #[test]
    fn state_names_have_a_readable_minimum() {
        assert_eq!(name_size(0.6), 12.0);
        assert_eq!(name_size(1.0), 14.0);
        assert_eq!(name_size(2.0), 28.0);
        assert!(name_size(0.3) < 12.0);
        assert!((0..20).all(|k| name_size(0.5 + k as f32 * 0.1) >= 12.0));
    }

    #[test]
    fn a_held_clip_keeps_a_full_time_bar() {
        let clip = |looping| StateKind::Clip(ClipState { clip: "jump".into(), looping });
        assert_eq!(time_bar_fraction(&clip(false), 1.05), 1.0);
        assert_eq!(time_bar_fraction(&clip(false), 0.4), 0.4);
        assert!((time_bar_fraction(&clip(true), 1.25) - 0.25).abs() < 1e-6);
        assert_eq!(time_bar_fraction(&clip(true), 2.0), 1.0);
        assert_eq!(time_bar_fraction(&clip(true), 0.0), 0.0);
    }

    fn views() -> Vec<View> {
        let mut out = Vec::new();
        for zoom in [0.2, 0.5, 1.0, 1.7, 3.0] {
            for pan in [vec2(0.0, 0.0), vec2(-350.0, 120.5), vec2(1e3, -2e3)] {
                out.push(View { pan, zoom, ..Default::default() });
            }
        }
        out
    }

    fn three_states() -> GraphMachine {
        let mut machine = GraphMachine::default();
        for (name, x) in [("A", -200.0), ("B", 0.0), ("C", 300.0)] {
            machine.states.push(GraphState {
                editor_position: [x, 50.0],
                ..GraphState::new(name, StateKind::Clip(ClipState::default()))
            });
        }
        machine
    }

    #[test]
    fn a_travels_hops_light_their_arrows_at_every_depth() {
        let playback = crate::live::Playback {
            travel: vec![["Idle".into(), "Air/Jump".into()], ["Air/Jump".into(), "Air/Fall".into()]],
            ..Default::default()
        };
        // The top machine shows Idle -> Air (entering the sub-machine); inside Air, Jump -> Fall.
        assert!(planned_hop(&playback, "", "Idle", "Air"));
        assert!(planned_hop(&playback, "Air/", "Jump", "Fall"));
        assert!(!planned_hop(&playback, "", "Air", "Idle"));
        assert!(!planned_hop(&playback, "", "Idle", "Walk"));
        assert!(!planned_hop(&crate::live::Playback::default(), "", "Idle", "Air"));
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
        let machine = three_states();
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

    #[test]
    fn a_band_selects_the_states_it_touches() {
        let centre = Pos2::new(640.0, 400.0);
        let machine = three_states();
        for view in views() {
            let band = Rect::from_two_pos(
                view.to_screen(centre, [-210.0, 40.0]),
                view.to_screen(centre, [10.0, 60.0]),
            );
            assert_eq!(states_in(&machine, &view, centre, band), vec![0, 1]);
            let empty = Rect::from_two_pos(
                view.to_screen(centre, [140.0, 40.0]),
                view.to_screen(centre, [160.0, 60.0]),
            );
            assert!(states_in(&machine, &view, centre, empty).is_empty());
        }
    }

    #[test]
    fn the_edge_band_is_inside_the_box_and_leaves_a_body_to_drag() {
        let r = Rect::from_center_size(Pos2::new(100.0, 100.0), BOX);
        assert!(on_edge(r, Pos2::new(r.left() + 2.0, 100.0)));
        assert!(on_edge(r, Pos2::new(150.0, r.top() + 1.0)));
        assert!(!on_edge(r, r.center()));
        assert!(!on_edge(r, Pos2::new(r.left() - 1.0, 100.0)));
        let small = Rect::from_center_size(Pos2::new(0.0, 0.0), BOX * 0.2);
        assert!(!on_edge(small, small.center()));
    }

    #[test]
    fn parallel_transitions_are_ordered_by_priority_then_list_order() {
        let mut machine = three_states();
        for priority in [0, 2, 0, 5] {
            machine.transitions.push(GraphTransition {
                from: "A".into(),
                to: "B".into(),
                priority,
                ..Default::default()
            });
        }
        machine.transitions.push(GraphTransition { from: "B".into(), to: "A".into(), ..Default::default() });
        assert_eq!(parallel_order(&machine, "A", "B"), vec![3, 1, 0, 2]);
        assert_eq!(parallel_order(&machine, "B", "A"), vec![4]);
    }
}
