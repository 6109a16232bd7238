//! The transition timeline (as Unity's transition preview): the source state's bar, the target's
//! bar starting at the exit time, the crossfade between them with its curve, in seconds.
//! Dragging edits the transition: the target bar moves the exit time, the mix's end handle sets
//! the duration, the target's start handle sets the offset. Each drag is one undoable edit; the
//! scale holds still while dragging (the bars do not run away from the pointer).
//!
//! Lengths come from the skeleton's clips (a clip state's clip); states of other kinds, and
//! clips the skeleton lacks, are drawn one second long, and the timeline says so.

use animgraph_runtime::graph::{ANY_STATE, GraphMachine, GraphState, GraphTransition, StateKind};
use eframe::egui::{self, Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, vec2};

use crate::blend_editor::snap;
use crate::character::CharacterInfo;
use crate::document::Document;
use crate::inspector::key;

/// What the timeline draws, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spans {
    /// The source state's length (one loop).
    pub source: f32,
    /// The target state's length.
    pub target: f32,
    /// When the target starts: exit time x source length (0 for "any time").
    pub exit: f32,
    /// The crossfade's seconds (the graph's `Mixes` rule when the transition takes it from there).
    pub mix: f32,
    /// The target's start within its clip (offset x target length).
    pub offset: f32,
}

impl Spans {
    /// The spans of `t`, with the states' lengths (`None`: unknown, drawn 1 s).
    pub fn of(
        doc: &Document,
        t: &GraphTransition,
        from: Option<&GraphState>,
        to: Option<&GraphState>,
        lengths: (Option<f32>, Option<f32>),
    ) -> Spans {
        let source = lengths.0.unwrap_or(1.0).max(0.01);
        let target = lengths.1.unwrap_or(1.0).max(0.01);
        let mix = if t.duration >= 0.0 {
            t.duration
        } else {
            match (from, to) {
                (Some(f), Some(t)) => doc.graph.mix_seconds(f, t),
                _ => doc.graph.default_mix,
            }
        };
        Spans { source, target, exit: t.exit_time.max(0.0) * source, mix, offset: t.offset * target }
    }

    /// Seconds the view spans: everything drawn, with room to drag further.
    fn extent(&self) -> f32 {
        let source_end = self.source * (self.exit / self.source).ceil().max(1.0);
        let target_end = self.exit + (self.target - self.offset).max(self.mix);
        source_end.max(target_end).max(self.exit + self.mix) * 1.25
    }
}

/// A state's clip length on the character (`None` for other kinds, or no such clip).
fn length(state: Option<&GraphState>, character: Option<&CharacterInfo>) -> Option<f32> {
    let StateKind::Clip(c) = &state?.kind else { return None };
    character?.clips.iter().find(|k| k.name == c.clip).map(|k| k.length)
}

const BAR: f32 = 22.0;
const SOURCE_COLOUR: Color32 = Color32::from_rgb(70, 110, 160);
const TARGET_COLOUR: Color32 = Color32::from_rgb(80, 150, 110);
const MIX_COLOUR: Color32 = Color32::from_rgba_premultiplied(60, 55, 20, 60);

/// Where a dragged handle is, in seconds: where it was when the drag started (`start`) moved by
/// the pointer, kept exact in egui's memory between frames (the document gets it snapped to
/// hundredths); `None` while it is not being moved.
fn dragged(ui: &egui::Ui, handle: &egui::Response, start: f32, per_second: f32) -> Option<f32> {
    if !handle.dragged() || handle.drag_delta().x == 0.0 {
        return None;
    }
    let id = handle.id.with("seconds");
    let from = ui.data(|d| d.get_temp::<f32>(id)).filter(|_| !handle.drag_started()).unwrap_or(start);
    let seconds = from + handle.drag_delta().x / per_second;
    ui.data_mut(|d| d.insert_temp(id, seconds));
    Some(seconds)
}

/// The timeline of transition `i` of `machine`.
pub fn show(
    ui: &mut egui::Ui,
    doc: &mut Document,
    machine: &GraphMachine,
    i: usize,
    character: Option<&CharacterInfo>,
) {
    let t = machine.transitions[i].clone();
    let (from, to) = (machine.state(&t.from), machine.state(&t.to));
    let lengths = (length(from, character), length(to, character));
    let spans = Spans::of(doc, &t, from, to, lengths);
    let width = ui.available_width().max(160.0);
    let (rect, _) = ui.allocate_exact_size(vec2(width, 16.0 + 2.0 * BAR + 8.0), Sense::hover());
    let frozen_id = ui.make_persistent_id(("transition-timeline-extent", i));
    // The scale holds while a handle is dragged.
    let [exit_id, mix_id, offset_id] =
        ["tt-exit", "tt-mix", "tt-offset"].map(|n| ui.make_persistent_id((n, i)));
    let dragging = [exit_id, mix_id, offset_id].into_iter().any(|id| ui.ctx().is_being_dragged(id));
    let extent = match ui.data(|d| d.get_temp::<f32>(frozen_id)) {
        Some(e) if dragging => e,
        _ => spans.extent(),
    };
    ui.data_mut(|d| d.insert_temp(frozen_id, extent));
    let per_second = rect.width() / extent;
    let x = |seconds: f32| rect.left() + seconds * per_second;
    let painter = ui.painter_at(rect.expand(1.0));
    let weak = ui.visuals().weak_text_color();
    painter.rect_filled(rect, 3.0, ui.visuals().extreme_bg_color);
    // Ruler: seconds.
    // About five labelled marks (nice_step aims at a twentieth of what it is given).
    let step = crate::blend_editor::nice_step(extent * 4.0);
    let mut s = 0.0;
    while s <= extent {
        painter.line_segment(
            [Pos2::new(x(s), rect.top()), Pos2::new(x(s), rect.top() + 5.0)],
            Stroke::new(1.0, weak),
        );
        painter.text(
            Pos2::new(x(s) + 2.0, rect.top() + 1.0),
            Align2::LEFT_TOP,
            format!("{s:.2}s"),
            FontId::proportional(10.0),
            weak,
        );
        s += step;
    }
    let source_row = Rect::from_min_size(Pos2::new(rect.left(), rect.top() + 16.0), vec2(rect.width(), BAR));
    let target_row = source_row.translate(vec2(0.0, BAR + 4.0));
    // Source: its loops up to where the mix ends.
    let source_end = (spans.exit + spans.mix).max(spans.source);
    let source_name = if t.from == ANY_STATE { "any state".to_string() } else { t.from.clone() };
    let source_bar = Rect::from_x_y_ranges(x(0.0)..=x(source_end), source_row.y_range());
    painter.rect_filled(source_bar, 3.0, SOURCE_COLOUR);
    let mut loop_end = spans.source;
    while loop_end < source_end - 1e-4 {
        painter.line_segment(
            [Pos2::new(x(loop_end), source_row.top()), Pos2::new(x(loop_end), source_row.bottom())],
            Stroke::new(1.0, Color32::from_gray(20)),
        );
        loop_end += spans.source;
    }
    painter.text(
        source_bar.left_center() + vec2(4.0, 0.0),
        Align2::LEFT_CENTER,
        &source_name,
        FontId::proportional(12.0),
        Color32::WHITE,
    );
    // Target: from its clip's start (the offset part faded) to its end.
    let target_start = spans.exit - spans.offset;
    let target_end = spans.exit + (spans.target - spans.offset).max(spans.mix);
    let skipped = Rect::from_x_y_ranges(x(target_start)..=x(spans.exit), target_row.y_range());
    let target_bar = Rect::from_x_y_ranges(x(spans.exit)..=x(target_end), target_row.y_range());
    painter.rect_filled(skipped, 3.0, TARGET_COLOUR.gamma_multiply(0.35));
    painter.rect_filled(target_bar, 3.0, TARGET_COLOUR);
    painter.text(
        target_bar.left_center() + vec2(4.0, 0.0),
        Align2::LEFT_CENTER,
        &t.to,
        FontId::proportional(12.0),
        Color32::WHITE,
    );
    // The mix: shaded over both rows, with the target's weight curve.
    let mix = Rect::from_x_y_ranges(
        x(spans.exit)..=x(spans.exit + spans.mix),
        source_row.top()..=target_row.bottom(),
    );
    painter.rect_filled(mix, 0.0, MIX_COLOUR);
    if spans.mix > 0.0 {
        let points: Vec<Pos2> = (0..=24)
            .map(|k| {
                let p = k as f32 / 24.0;
                Pos2::new(mix.left() + p * mix.width(), mix.bottom() - t.curve.apply(p) * mix.height())
            })
            .collect();
        painter.add(egui::Shape::line(points, Stroke::new(1.5, Color32::from_rgb(240, 210, 90))));
    }
    // Handles.
    let handle = |at: f32, row: Rect, width: f32| {
        Rect::from_center_size(Pos2::new(x(at), row.center().y), vec2(width, row.height() + 4.0))
    };
    let exit_rect = Rect::from_x_y_ranges(
        x(spans.exit) + 5.0..=(x(target_end) - 5.0).max(x(spans.exit) + 10.0),
        target_row.y_range(),
    );
    let exit = ui.interact(exit_rect, exit_id, Sense::drag());
    let mix_handle = ui.interact(handle(spans.exit + spans.mix, source_row, 10.0), mix_id, Sense::drag());
    let offset = ui.interact(handle(target_start, target_row, 10.0), offset_id, Sense::drag());
    exit.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Slider, true, "Exit time handle"));
    mix_handle.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Slider, true, "Duration handle"));
    offset.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Slider, true, "Offset handle"));
    for (r, colour) in [(&mix_handle, Color32::from_rgb(240, 210, 90)), (&offset, TARGET_COLOUR)] {
        let lit = r.hovered() || r.dragged();
        painter.line_segment(
            [Pos2::new(r.rect.center().x, r.rect.top()), Pos2::new(r.rect.center().x, r.rect.bottom())],
            Stroke::new(if lit { 3.0 } else { 2.0 }, colour),
        );
    }
    let exit = exit
        .on_hover_cursor(egui::CursorIcon::ResizeHorizontal)
        .on_hover_text("Drag: when the target starts (exit time)");
    let mix_handle = mix_handle
        .on_hover_cursor(egui::CursorIcon::ResizeHorizontal)
        .on_hover_text("Drag: how long the mix lasts (duration)");
    let offset = offset
        .on_hover_cursor(egui::CursorIcon::ResizeHorizontal)
        .on_hover_text("Drag: where in its clip the target starts (offset)");
    if let Some(seconds) = dragged(ui, &exit, spans.exit, per_second) {
        let v = snap(seconds.max(0.0) / spans.source, 0.01);
        doc.edit_machine_coalesced(key(("exit", i)), |m| m.transitions[i].exit_time = v);
    }
    if let Some(seconds) = dragged(ui, &mix_handle, spans.exit + spans.mix, per_second) {
        let v = snap((seconds - spans.exit).max(0.0), 0.01);
        doc.edit_machine_coalesced(key(("duration", i)), |m| m.transitions[i].duration = v);
    }
    if let Some(seconds) = dragged(ui, &offset, target_start, per_second) {
        let v = snap(((spans.exit - seconds) / spans.target).clamp(0.0, 1.0), 0.01);
        doc.edit_machine_coalesced(key(("offset", i)), |m| m.transitions[i].offset = v);
    }
    // What the numbers are, under the bars.
    let mut notes = vec![format!(
        "exit {} · mix {:.2}s{} · offset {:.2}",
        if t.exit_time < 0.0 { "any time".to_string() } else { format!("{:.2}", t.exit_time) },
        spans.mix,
        match (t.duration < 0.0, from) {
            (false, _) => "",
            (true, Some(_)) => " (from Mixes)",
            // A `*` transition takes its mix from the state it leaves: not known here.
            (true, None) => " (from Mixes by the state it leaves; the default shown)",
        },
        t.offset
    )];
    if (t.from != ANY_STATE && lengths.0.is_none()) || lengths.1.is_none() {
        notes.push("lengths unknown are drawn 1 s".into());
    }
    ui.weak(notes.join(" · "));
}
