//! The inspector: the selected state's or transition's fields, or (with nothing selected) the
//! layer's and the graph's. Every change is one undoable edit: text fields apply when they lose
//! focus or on Enter, and a drag of a number is one step however long it lasts.
//!
//! Ranges follow the proposal: layer Weight 0..1 in steps of 0.01; Duration and ExitTime are
//! 0 or more, or -1 ("from Mixes" / "any time"); Offset is a normalised time 0..1.

use animgraph_runtime::ClipBlend;
use animgraph_runtime::graph::{
    ANY_STATE, ConditionOp, EXIT_STATE, GraphCondition, GraphMachine, GraphMixOverride, GraphWindow,
    ParameterType, StateKind, TransitionBlend, TransitionInterrupt, TransitionSync, TravelMode,
};
use eframe::egui;

use crate::character::CharacterInfo;
use crate::document::{Document, Selection};

/// A stable key for coalescing the edits of one widget.
pub fn key(parts: impl std::hash::Hash) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    ("inspector", parts).hash(&mut hasher);
    hasher.finish()
}

/// A labelled text field that returns its new text when the user commits it (Enter or leaving
/// the field), so half-typed names are never applied and each commit is one undo step.
pub fn committed_text(
    ui: &mut egui::Ui,
    salt: impl std::hash::Hash + std::fmt::Debug,
    label: &str,
    value: &str,
) -> Option<String> {
    let width = (ui.available_width() - 60.0).clamp(60.0, 150.0);
    committed_text_sized(ui, salt, label, value, width)
}

/// [`committed_text`] with a field at most `width` wide. Enter or leaving the field commits;
/// Escape cancels.
pub fn committed_text_sized(
    ui: &mut egui::Ui,
    salt: impl std::hash::Hash + std::fmt::Debug,
    label: &str,
    value: &str,
    width: f32,
) -> Option<String> {
    text_field(ui, salt, label, value, width, field_help(label))
}

/// [`committed_text_sized`] explained by `help` (for a short label whose meaning depends on
/// where it is).
fn text_field(
    ui: &mut egui::Ui,
    salt: impl std::hash::Hash + std::fmt::Debug,
    label: &str,
    value: &str,
    width: f32,
    help: Option<&str>,
) -> Option<String> {
    let id = ui.make_persistent_id(("committed", salt));
    let mut buffer = ui.data_mut(|d| d.get_temp::<String>(id)).unwrap_or_else(|| value.to_string());
    let mut out = None;
    ui.horizontal(|ui| {
        let label = ui.label(label);
        let mut response =
            ui.add_sized([width, 20.0], egui::TextEdit::singleline(&mut buffer)).labelled_by(label.id);
        if let Some(help) = help {
            label.on_hover_text(help);
            response = response.on_hover_text(help);
        }
        if response.has_focus() {
            ui.data_mut(|d| d.insert_temp(id, buffer.clone()));
            return;
        }
        ui.data_mut(|d| d.remove::<String>(id));
        // Escape cancels the edit (egui drops the focus on Escape: that must not commit).
        if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            return;
        }
        // Leaving the field commits; so does a value set without focus (assistive technology).
        if (response.lost_focus() || response.changed()) && buffer != value {
            out = Some(buffer.clone());
        }
    });
    out
}

/// Gives a widget (a combo box without a visible label, say) an accessible name.
pub fn name_widget(ui: &egui::Ui, response: &egui::Response, name: &str) {
    ui.ctx().accesskit_node_builder(response.id, |node| node.set_label(name));
}

/// What a transition or state field does, shown when the pointer rests on it.
pub fn field_help(label: &str) -> Option<&'static str> {
    Some(match label {
        "Duration" => {
            "How long the mix into the target takes, in seconds. Off: the graph's Mixes (per clip or state pair) or its default mix."
        }
        "Exit time" => {
            "The transition may fire only once the source has played this far (normalised: 1 = one play-through; 2.5 = halfway through the third loop). Off: any time."
        }
        "Offset" => "Where the target starts, as a fraction of its length (0 = its beginning).",
        "Interrupt" => {
            "Which transitions may cut this one while it mixes: None (not even * ones), Source (the source state's and *), Target (the target state's and *), Both (all of them, by priority then list order)."
        }
        "Curve" => "The shape of the mix over its duration: linear, or eased in, out, or both.",
        "Blend" => {
            "Crossfade samples both states and crosses their weights over Duration. Inertial plays only the target and decays the difference from the previous pose to zero (continuous in value and velocity; one state sampled)."
        }
        "Sync" => {
            "None: the target starts at Offset. Markers: at the phase matching the source's last passed sync marker (feet stay in step); at Offset when either has no markers."
        }
        "Priority" => {
            "When several transitions can fire in the same frame, the highest priority wins (then the order in the list)."
        }
        "Speed" => "How fast this state plays (1 = the clip's own speed; negative plays backwards).",
        "Speed parameter" => "A number parameter multiplied with Speed each frame (none: Speed alone).",
        "Loop" => "Off: the clip plays once and holds its last frame (exit times past 1 then wait on it).",
        "Sync time" => {
            "The blend space's clips advance in normalised time, so their phases match (a walk and a run keep their feet together)."
        }
        "Layer blend" => {
            "Replace: the layer's pose replaces the pose below by its weight (inside its mask). Additive: its clips' difference from the rest pose is added on top."
        }
        "Weight" => {
            "How much of this layer shows: 0 none, 1 all (times the weight parameter, when one is set)."
        }
        "Weight parameter" => {
            "A number parameter scaling the layer's weight each frame, so game code can fade the layer in and out."
        }
        "Travel mode" => {
            "How travel() reaches a state: Direct, one mix straight there; Path, hop by hop along the shortest chain of transitions (each hop with its own duration and blend)."
        }
        "Default mix" => "The crossfade used when a transition has no Duration and no Mixes entry matches.",
        "Name" => {
            "Its name, as transitions, travel() and game code refer to it; unique among its neighbours. Enter applies (transitions follow a renamed state), Escape cancels."
        }
        "Clip" | "clip" => {
            "The skeleton's clip this plays (listed with their lengths when a skeleton is chosen)."
        }
        "From" => {
            "The state the transition leaves (Any State: from whichever state plays, never into itself)."
        }
        "To" => {
            "The state the transition enters (Exit, inside a sub-machine: leave it by the parent's transitions)."
        }
        "Entry" => "The state this sub-machine starts in when entered.",
        "at" => "This clip's position on the blend parameter's axis (positions must ascend).",
        "x" | "y" => "This clip's position on the blend space's axis.",
        "window name" => "What WindowBegin / WindowEnd signals carry (game code matches it).",
        "window from" => "Where the window opens, as a fraction of the state's length.",
        "window to" => {
            "Where the window closes, as a fraction of the state's length (past 1: into the next loop)."
        }
        "mix from" => "The source: a clip name (for clip states), a state name (other kinds), or * for any.",
        "mix to" => "The target: a clip name (for clip states), a state name (other kinds), or * for any.",
        "mix seconds" => "The crossfade's length in seconds.",
        "Bone mask" => "Limit this layer to some bones (an upper-body layer, say); off: every bone.",
        "Include children" => "A ticked bone brings its whole subtree (the mask stores fewer names).",
        "Add bone" => "A bone name to add to the mask (without a skeleton chosen, names are typed).",
        _ => return None,
    })
}

/// A labelled number; returns the new value while it changes.
fn number(
    ui: &mut egui::Ui,
    label: &str,
    value: f32,
    range: std::ops::RangeInclusive<f32>,
    speed: f64,
) -> Option<f32> {
    number_explained(ui, label, field_help(label), value, range, speed)
}

/// [`number`] explained by `help` (for a short label whose meaning depends on where it is).
fn number_explained(
    ui: &mut egui::Ui,
    label: &str,
    help: Option<&str>,
    value: f32,
    range: std::ops::RangeInclusive<f32>,
    speed: f64,
) -> Option<f32> {
    let mut v = value;
    ui.horizontal(|ui| {
        let label = ui.label(label);
        let field = ui.add(egui::DragValue::new(&mut v).range(range).speed(speed)).labelled_by(label.id);
        if let Some(help) = help {
            label.on_hover_text(help);
            field.on_hover_text(help);
        }
    });
    (v != value).then_some(v)
}

/// A number that may be switched off (-1): a checkbox and a value.
fn optional_number(
    ui: &mut egui::Ui,
    label: &str,
    off: &str,
    unit: &str,
    value: f32,
    max: f32,
) -> Option<f32> {
    let mut on = value >= 0.0;
    let mut v = value.max(0.0);
    ui.horizontal(|ui| {
        ui.checkbox(&mut on, label).on_hover_text(field_help(label).unwrap_or(off));
        if on {
            let label_id = ui.label(unit).id;
            ui.add(egui::DragValue::new(&mut v).range(0.0..=max).speed(0.01)).labelled_by(label_id);
        } else {
            ui.weak(off);
        }
    });
    let new = if on { v } else { -1.0 };
    (new != value).then_some(new)
}

fn choose<T: Copy + PartialEq>(
    ui: &mut egui::Ui,
    label: &str,
    value: T,
    all: &[T],
    name: fn(T) -> String,
) -> Option<T> {
    let mut v = value;
    let combo = egui::ComboBox::from_label(label).selected_text(name(value)).show_ui(ui, |ui| {
        for &option in all {
            ui.selectable_value(&mut v, option, name(option));
        }
    });
    if let Some(help) = field_help(label) {
        combo.response.on_hover_text(help);
    }
    (v != value).then_some(v)
}

/// A dropdown of `names` labelled `label` (explained from the help table); returns the choice.
fn name_choice(ui: &mut egui::Ui, label: &str, current: &str, names: &[String]) -> String {
    let mut v = current.to_string();
    egui::ComboBox::from_label(label)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for n in names {
                ui.selectable_value(&mut v, n.clone(), n);
            }
        })
        .response
        .on_hover_text(field_help(label).unwrap_or_default());
    v
}

/// A dropdown of the graph's parameters that pass `fits` (plus "none" when `optional`).
fn parameter_choice(
    ui: &mut egui::Ui,
    label: &str,
    current: &str,
    doc: &Document,
    fits: fn(ParameterType) -> bool,
    optional: bool,
) -> Option<String> {
    let mut v = current.to_string();
    let shown = if current.is_empty() { "(none)".to_string() } else { current.to_string() };
    let combo = egui::ComboBox::from_label(label).selected_text(shown).show_ui(ui, |ui| {
        if optional {
            ui.selectable_value(&mut v, String::new(), "(none)");
        }
        for p in doc.graph.parameters.iter().filter(|p| fits(p.kind)) {
            ui.selectable_value(&mut v, p.name.clone(), format!("{} ({})", p.name, p.kind.as_str()));
        }
    });
    if let Some(help) = field_help(label) {
        combo.response.on_hover_text(help);
    }
    (v != current).then_some(v)
}

/// A clip name: a dropdown of the skeleton's clips when one is chosen, else a text field.
fn clip_field(
    ui: &mut egui::Ui,
    salt: impl std::hash::Hash + std::fmt::Debug,
    label: &str,
    current: &str,
    character: Option<&CharacterInfo>,
) -> Option<String> {
    let Some(character) = character else { return committed_text(ui, salt, label, current) };
    let mut v = current.to_string();
    let known = character.clips.iter().any(|c| c.name == current);
    let shown =
        if known || current.is_empty() { current.to_string() } else { format!("{current} (missing)") };
    let combo = egui::ComboBox::from_id_salt(("clip", salt)).selected_text(shown).show_ui(ui, |ui| {
        for c in &character.clips {
            ui.selectable_value(&mut v, c.name.clone(), format!("{} ({:.2} s)", c.name, c.length));
        }
    });
    name_widget(ui, &combo.response, label);
    let text = ui.label(label);
    if let Some(help) = field_help(label) {
        combo.response.on_hover_text(help);
        text.on_hover_text(help);
    }
    (v != current).then_some(v)
}

/// The inspector for the document's selection.
pub fn show(
    ui: &mut egui::Ui,
    doc: &mut Document,
    character: Option<&CharacterInfo>,
    explain: Option<(&animgraph_runtime::frame::ExplainRecord, usize)>,
) {
    let Some(machine) = doc.machine().cloned() else {
        graph_settings(ui, doc, character);
        return;
    };
    match doc.selection.clone() {
        Selection::States(states) if states.len() == 1 => state(ui, doc, &machine, states[0], character),
        Selection::States(states) => {
            ui.heading(format!("{} states", states.len()));
            for &i in &states {
                if let Some(s) = machine.states.get(i) {
                    ui.label(format!("{} ({})", s.name, crate::canvas::kind_label(&s.kind)));
                }
            }
            ui.horizontal(|ui| {
                if ui.button("Duplicate").clicked() {
                    doc.duplicate_selection();
                }
                if ui.button("Delete").clicked() {
                    doc.delete_selection();
                }
            });
        }
        Selection::Transition(i) if i < machine.transitions.len() => {
            transition(ui, doc, &machine, i, character);
            ui.separator();
            ui.heading("Last frame");
            match explain {
                Some((record, layer)) => {
                    let path = format!("{}.Transitions[{i}]", doc.machine_path());
                    crate::why::show(ui, &crate::why::lookup(record, layer, &path));
                }
                None => {
                    ui.weak("Play the graph (or attach to a game) to see why this transition fires or not.");
                }
            }
        }
        _ => graph_settings(ui, doc, character),
    }
}

fn state(
    ui: &mut egui::Ui,
    doc: &mut Document,
    machine: &GraphMachine,
    i: usize,
    character: Option<&CharacterInfo>,
) {
    let Some(state) = machine.states.get(i).cloned() else { return };
    ui.heading(format!("{} state", crate::canvas::kind_label(&state.kind)));
    if let Some(name) = committed_text(ui, ("state-name", i), "Name", &state.name) {
        if let Err(e) = doc.rename_state(i, &name) {
            doc.status = e;
        }
    }
    if let Some(v) = number(ui, "Speed", state.speed, -10.0..=10.0, 0.01) {
        doc.edit_machine_coalesced(key(("speed", i)), |m| m.states[i].speed = v);
    }
    if let Some(v) =
        parameter_choice(ui, "Speed parameter", &state.speed_parameter, doc, ParameterType::is_numeric, true)
    {
        doc.edit_machine(|m| m.states[i].speed_parameter = v);
    }
    if machine.entry != state.name
        && ui
            .button("Make entry state")
            .on_hover_text("The machine starts in its entry state (the green marker).")
            .clicked()
    {
        doc.edit_machine(|m| m.entry = state.name.clone());
    }
    ui.separator();
    match &state.kind {
        StateKind::Clip(c) => {
            if let Some(v) = clip_field(ui, ("clip", i), "Clip", &c.clip, character) {
                doc.edit_machine(|m| {
                    if let StateKind::Clip(c) = &mut m.states[i].kind {
                        c.clip = v
                    }
                });
            }
            let mut looping = c.looping;
            if ui
                .checkbox(&mut looping, "Loop")
                .on_hover_text(field_help("Loop").unwrap_or_default())
                .changed()
            {
                doc.edit_machine(|m| {
                    if let StateKind::Clip(c) = &mut m.states[i].kind {
                        c.looping = looping
                    }
                });
            }
        }
        StateKind::BlendSpace1D(b) => {
            if let Some(v) =
                parameter_choice(ui, "Parameter", &b.parameter, doc, ParameterType::is_numeric, false)
            {
                doc.edit_machine(|m| {
                    if let StateKind::BlendSpace1D(b) = &mut m.states[i].kind {
                        b.parameter = v
                    }
                });
            }
            let mut sync = b.sync_time;
            if ui
                .checkbox(&mut sync, "Sync time")
                .on_hover_text(field_help("Sync time").unwrap_or_default())
                .changed()
            {
                doc.edit_machine(|m| {
                    if let StateKind::BlendSpace1D(b) = &mut m.states[i].kind {
                        b.sync_time = sync
                    }
                });
            }
            sync_markers_field(ui, doc, i, b.sync_markers);
            ui.label("Points (positions ascending)");
            let mut remove = None;
            for k in 0..b.clips.len() {
                ui.horizontal(|ui| {
                    if let Some(v) = clip_field(ui, ("1d-clip", i, k), "clip", &b.clips[k], character) {
                        doc.edit_machine(|m| {
                            if let StateKind::BlendSpace1D(b) = &mut m.states[i].kind {
                                b.clips[k] = v
                            }
                        });
                    }
                    let position = b.positions.get(k).copied().unwrap_or(0.0);
                    if let Some(v) = number(ui, "at", position, -1000.0..=1000.0, 0.05) {
                        doc.edit_machine_coalesced(key(("1d-pos", i, k)), |m| {
                            if let StateKind::BlendSpace1D(b) = &mut m.states[i].kind {
                                if let Some(p) = b.positions.get_mut(k) {
                                    *p = v
                                }
                            }
                        });
                    }
                    if ui.small_button("x").on_hover_text("Remove this point").clicked() {
                        remove = Some(k);
                    }
                });
            }
            ui.horizontal(|ui| {
                if ui.button("+ Point").clicked() {
                    let next = b.positions.last().map_or(0.0, |p| p + 1.0);
                    let clip =
                        character.and_then(|c| c.clips.first()).map(|c| c.name.clone()).unwrap_or_default();
                    doc.edit_machine(|m| {
                        if let StateKind::BlendSpace1D(b) = &mut m.states[i].kind {
                            b.clips.push(clip);
                            b.positions.push(next);
                        }
                    });
                }
                let sorted = b.positions.windows(2).all(|w| w[0] < w[1]);
                if !sorted && ui.button("Sort points").clicked() {
                    doc.edit_machine(|m| {
                        if let StateKind::BlendSpace1D(b) = &mut m.states[i].kind {
                            let mut pairs: Vec<(f32, String)> =
                                b.positions.iter().copied().zip(b.clips.iter().cloned()).collect();
                            pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
                            (b.positions, b.clips) = pairs.into_iter().unzip();
                        }
                    });
                }
            });
            if let Some(k) = remove {
                doc.edit_machine(|m| {
                    if let StateKind::BlendSpace1D(b) = &mut m.states[i].kind {
                        b.clips.remove(k);
                        if k < b.positions.len() {
                            b.positions.remove(k);
                        }
                    }
                });
            }
        }
        StateKind::BlendSpace2D(b) => {
            for (label, current, is_x) in
                [("Parameter X", &b.parameter_x, true), ("Parameter Y", &b.parameter_y, false)]
            {
                if let Some(v) = parameter_choice(ui, label, current, doc, ParameterType::is_numeric, false) {
                    doc.edit_machine(|m| {
                        if let StateKind::BlendSpace2D(b) = &mut m.states[i].kind {
                            if is_x { b.parameter_x = v } else { b.parameter_y = v }
                        }
                    });
                }
            }
            let mut sync = b.sync_time;
            if ui
                .checkbox(&mut sync, "Sync time")
                .on_hover_text(field_help("Sync time").unwrap_or_default())
                .changed()
            {
                doc.edit_machine(|m| {
                    if let StateKind::BlendSpace2D(b) = &mut m.states[i].kind {
                        b.sync_time = sync
                    }
                });
            }
            sync_markers_field(ui, doc, i, b.sync_markers);
            ui.label("Points (double-click the state to edit them on a plot)");
            let mut remove = None;
            for k in 0..b.clips.len() {
                ui.horizontal(|ui| {
                    if let Some(v) = clip_field(ui, ("2d-clip", i, k), "clip", &b.clips[k], character) {
                        doc.edit_machine(|m| {
                            if let StateKind::BlendSpace2D(b) = &mut m.states[i].kind {
                                b.clips[k] = v
                            }
                        });
                    }
                    let p = b.positions.get(k).copied().unwrap_or([0.0, 0.0]);
                    for axis in 0..2 {
                        if let Some(v) = number(ui, ["x", "y"][axis], p[axis], -1000.0..=1000.0, 0.05) {
                            doc.edit_machine_coalesced(key(("2d-pos", i, k, axis)), |m| {
                                if let StateKind::BlendSpace2D(b) = &mut m.states[i].kind {
                                    if let Some(p) = b.positions.get_mut(k) {
                                        p[axis] = v
                                    }
                                }
                            });
                        }
                    }
                    if ui.small_button("x").on_hover_text("Remove this point").clicked() {
                        remove = Some(k);
                    }
                });
            }
            if ui.button("+ Point").clicked() {
                let clip =
                    character.and_then(|c| c.clips.first()).map(|c| c.name.clone()).unwrap_or_default();
                let n = b.positions.len() as f32;
                doc.edit_machine(|m| {
                    if let StateKind::BlendSpace2D(b) = &mut m.states[i].kind {
                        b.clips.push(clip);
                        b.positions.push([n, 0.0]);
                    }
                });
            }
            if let Some(k) = remove {
                doc.edit_machine(|m| {
                    if let StateKind::BlendSpace2D(b) = &mut m.states[i].kind {
                        b.clips.remove(k);
                        if k < b.positions.len() {
                            b.positions.remove(k);
                        }
                    }
                });
            }
        }
        StateKind::SubMachine(inner) => {
            ui.label(format!("{} states, {} transitions", inner.states.len(), inner.transitions.len()));
            let names: Vec<String> = inner.states.iter().map(|s| s.name.clone()).collect();
            let entry = name_choice(ui, "Entry", &inner.entry, &names);
            if entry != inner.entry {
                doc.edit_machine(|m| {
                    if let StateKind::SubMachine(inner) = &mut m.states[i].kind {
                        inner.entry = entry
                    }
                });
            }
            if ui.button("Enter sub-machine").clicked() {
                doc.nesting.push(i);
                doc.selection = Selection::None;
            }
        }
    }
    if !matches!(state.kind, StateKind::SubMachine(_)) {
        windows_editor(ui, doc, &state, i);
    }
}

/// A blend space's `SyncMarkers` checkbox (1D or 2D).
fn sync_markers_field(ui: &mut egui::Ui, doc: &mut Document, i: usize, on: bool) {
    let mut markers = on;
    let hint = "Keep the clips' markers aligned: markers of the same name are reached together";
    if ui.checkbox(&mut markers, "Sync markers").on_hover_text(hint).changed() {
        doc.edit_machine(|m| match &mut m.states[i].kind {
            StateKind::BlendSpace1D(b) => b.sync_markers = markers,
            StateKind::BlendSpace2D(b) => b.sync_markers = markers,
            _ => {}
        });
    }
}

/// A state's windows: name, start and end (normalised time), add and remove.
fn windows_editor(
    ui: &mut egui::Ui,
    doc: &mut Document,
    state: &animgraph_runtime::graph::GraphState,
    i: usize,
) {
    ui.separator();
    ui.label("Windows (normalised time; raise WindowBegin / WindowEnd)")
        .on_hover_text("Named spans of the state's time, within each loop for looping states: hit boxes, combo windows, foot plants. Each begin has exactly one end, also when the state is left.");
    let mut remove = None;
    for (w, window) in state.windows.iter().enumerate() {
        ui.horizontal(|ui| {
            if let Some(v) =
                committed_text_sized(ui, ("window-name", i, w), "window name", &window.name, 90.0)
            {
                doc.edit_machine(|m| m.states[i].windows[w].name = v.trim().to_string());
            }
            if let Some(v) =
                number_explained(ui, "from", field_help("window from"), window.start, 0.0..=1.0, 0.01)
            {
                doc.edit_machine_coalesced(key(("window-start", i, w)), |m| m.states[i].windows[w].start = v);
            }
            if let Some(v) = number_explained(ui, "to", field_help("window to"), window.end, 0.0..=10.0, 0.01)
            {
                doc.edit_machine_coalesced(key(("window-end", i, w)), |m| m.states[i].windows[w].end = v);
            }
            if ui.small_button("x").on_hover_text("Remove this window").clicked() {
                remove = Some(w);
            }
        });
    }
    if let Some(w) = remove {
        doc.edit_machine(|m| {
            m.states[i].windows.remove(w);
        });
    }
    if ui.button("+ Window").clicked() {
        let taken: Vec<&str> = state.windows.iter().map(|w| w.name.as_str()).collect();
        let name =
            (1..).map(|n| format!("window{n}")).find(|n| !taken.contains(&n.as_str())).unwrap_or_default();
        doc.edit_machine(|m| {
            m.states[i].windows.push(GraphWindow { name, start: 0.25, end: 0.5 });
        });
    }
}

fn transition(
    ui: &mut egui::Ui,
    doc: &mut Document,
    machine: &GraphMachine,
    i: usize,
    character: Option<&CharacterInfo>,
) {
    let t = machine.transitions[i].clone();
    ui.heading("Transition");
    let mut names: Vec<String> = machine.states.iter().map(|s| s.name.clone()).collect();
    let from_names: Vec<String> =
        std::iter::once(ANY_STATE.to_string()).chain(names.iter().cloned()).collect();
    if !doc.nesting.is_empty() {
        names.push(EXIT_STATE.to_string());
    }
    let from = name_choice(ui, "From", &t.from, &from_names);
    let to = name_choice(ui, "To", &t.to, &names);
    if from != t.from || to != t.to {
        doc.edit_machine(|m| {
            m.transitions[i].from = from;
            m.transitions[i].to = to;
        });
    }
    if let Some(v) = optional_number(ui, "Duration", "from Mixes / DefaultMix", "seconds", t.duration, 10.0) {
        doc.edit_machine_coalesced(key(("duration", i)), |m| m.transitions[i].duration = v);
    }
    if let Some(v) = optional_number(ui, "Exit time", "any time", "normalised time", t.exit_time, 100.0) {
        doc.edit_machine_coalesced(key(("exit", i)), |m| m.transitions[i].exit_time = v);
    }
    if let Some(v) = number(ui, "Offset", t.offset, 0.0..=1.0, 0.01) {
        doc.edit_machine_coalesced(key(("offset", i)), |m| m.transitions[i].offset = v);
    }
    if let Some(v) =
        choose(ui, "Interrupt", t.interrupt, &TransitionInterrupt::ALL, |x| x.as_str().to_string())
    {
        doc.edit_machine(|m| m.transitions[i].interrupt = v);
    }
    if let Some(v) = choose(ui, "Curve", t.curve, &animgraph_runtime::graph::TransitionCurve::ALL, |x| {
        x.as_str().to_string()
    }) {
        doc.edit_machine(|m| m.transitions[i].curve = v);
    }
    if let Some(v) = choose(ui, "Blend", t.blend, &TransitionBlend::ALL, |x| x.as_str().to_string()) {
        doc.edit_machine(|m| m.transitions[i].blend = v);
    }
    if let Some(v) = choose(ui, "Sync", t.sync, &TransitionSync::ALL, |x| x.as_str().to_string()) {
        doc.edit_machine(|m| m.transitions[i].sync = v);
    }
    let mut priority = t.priority;
    ui.horizontal(|ui| {
        let help = field_help("Priority").unwrap_or_default();
        let label = ui.label("Priority").on_hover_text(help);
        ui.add(egui::DragValue::new(&mut priority)).labelled_by(label.id).on_hover_text(help);
    });
    if priority != t.priority {
        doc.edit_machine_coalesced(key(("priority", i)), |m| m.transitions[i].priority = priority);
    }
    ui.separator();
    ui.label("Timeline (drag the target bar, the mix's end or the target's start)");
    crate::transition_timeline::show(ui, doc, machine, i, character);
    ui.separator();
    ui.label("Conditions (all must hold)").on_hover_text(
        "Every condition must hold for the transition to fire (AND); for OR, add another transition between the same states. Triggers are used up when the transition fires.",
    );
    let parameters = doc.graph.parameters.clone();
    let count = t.conditions.len();
    for (c, cond) in t.conditions.iter().enumerate() {
        ui.horizontal(|ui| {
            let mut parameter = cond.parameter.clone();
            let shown = if parameter.is_empty() { "(parameter)".to_string() } else { parameter.clone() };
            let combo =
                egui::ComboBox::from_id_salt(("parameter", i, c)).selected_text(shown).show_ui(ui, |ui| {
                    for p in &parameters {
                        ui.selectable_value(&mut parameter, p.name.clone(), &p.name);
                    }
                });
            name_widget(ui, &combo.response, "condition parameter");
            // Operators are filtered by the parameter's type (the runtime's rule).
            let kind = parameters.iter().find(|p| p.name == parameter).map(|p| p.kind);
            let ops: Vec<ConditionOp> =
                kind.map_or(ConditionOp::ALL.to_vec(), |k| ConditionOp::fitting(k).collect());
            let mut op = if ops.contains(&cond.op) { cond.op } else { ops[0] };
            let combo =
                egui::ComboBox::from_id_salt(("op", i, c)).selected_text(op.as_str()).show_ui(ui, |ui| {
                    for o in &ops {
                        ui.selectable_value(&mut op, *o, o.as_str());
                    }
                });
            name_widget(ui, &combo.response, "condition operator");
            let mut value = cond.value;
            if matches!(
                op,
                ConditionOp::Greater | ConditionOp::Less | ConditionOp::Equal | ConditionOp::NotEqual
            ) {
                let label = ui.label("value");
                let speed = if kind == Some(ParameterType::Int) { 1.0 } else { 0.05 };
                ui.add(egui::DragValue::new(&mut value).speed(speed)).labelled_by(label.id);
            }
            let up = c > 0 && ui.small_button("^").on_hover_text("Move up").clicked();
            let down = c + 1 < count && ui.small_button("v").on_hover_text("Move down").clicked();
            let remove = ui.small_button("x").on_hover_text("Remove this condition").clicked();
            if remove {
                doc.edit_machine(|m| {
                    m.transitions[i].conditions.remove(c);
                });
            } else if up {
                doc.move_condition(i, c, -1);
            } else if down {
                doc.move_condition(i, c, 1);
            } else if parameter != cond.parameter || op != cond.op {
                doc.edit_machine(|m| {
                    m.transitions[i].conditions[c] = GraphCondition { parameter, op, value }
                });
            } else if value != cond.value {
                doc.edit_machine_coalesced(key(("cond-value", i, c)), |m| {
                    m.transitions[i].conditions[c].value = value
                });
            }
        });
    }
    if ui.button("+ Condition").clicked() {
        let first = parameters
            .first()
            .map(|p| (p.name.clone(), ConditionOp::fitting(p.kind).next().unwrap_or_default()));
        let (parameter, op) = first.unwrap_or_default();
        doc.edit_machine(|m| m.transitions[i].conditions.push(GraphCondition { parameter, op, value: 0.0 }));
    }
}

/// The layer's settings (blend, weight, mask) and the graph's crossfades.
fn graph_settings(ui: &mut egui::Ui, doc: &mut Document, character: Option<&CharacterInfo>) {
    if let Some(layer) = doc.graph.layers.get(doc.layer).cloned() {
        let l = doc.layer;
        ui.heading("Layer");
        if let Some(v) = committed_text(ui, ("layer-name", l), "Name", &layer.name) {
            let v = v.trim().to_string();
            if v.is_empty() || doc.graph.layers.iter().any(|o| o.name == v) {
                doc.status =
                    format!("cannot rename layer `{}` to `{v}`: the name is empty or taken", layer.name);
            } else {
                doc.edit_graph(|g| g.layers[l].name = v);
            }
        }
        if let Some(v) =
            choose(ui, "Layer blend", layer.blend, &[ClipBlend::Replace, ClipBlend::Additive], |b| {
                b.as_str().to_string()
            })
        {
            doc.edit_graph(|g| g.layers[l].blend = v);
        }
        let mut weight = layer.weight;
        ui.horizontal(|ui| {
            let help = field_help("Weight").unwrap_or_default();
            let label = ui.label("Weight").on_hover_text(help);
            ui.add(egui::Slider::new(&mut weight, 0.0..=1.0).step_by(0.01))
                .labelled_by(label.id)
                .on_hover_text(help);
        });
        if weight != layer.weight {
            doc.edit_graph_coalesced(key(("layer-weight", l)), |g| g.layers[l].weight = weight);
        }
        if let Some(v) = parameter_choice(
            ui,
            "Weight parameter",
            &layer.weight_parameter,
            doc,
            ParameterType::is_numeric,
            true,
        ) {
            doc.edit_graph(|g| g.layers[l].weight_parameter = v);
        }
        mask_editor(ui, doc, l, character);
        if let Some(v) =
            choose(ui, "Travel mode", layer.travel_mode, &TravelMode::ALL, |x| x.as_str().to_string())
        {
            doc.edit_graph(|g| g.layers[l].travel_mode = v);
        }
        ui.separator();
    }
    ui.heading("Graph");
    if let Some(v) = number(ui, "Default mix", doc.graph.default_mix, 0.0..=5.0, 0.01) {
        doc.edit_graph_coalesced(key("default-mix"), |g| g.default_mix = v);
    }
    ui.label("Mixes (crossfade per clip or state pair; * for any)").on_hover_text(
        "Crossfade seconds for transitions without their own Duration, by source and target: a clip state matches by its clip's name, other states by their name. The most specific entry wins: the exact pair, then from -> *, then * -> to, then * -> *.",
    );
    let mixes = doc.graph.mixes.clone();
    let mut remove = None;
    egui::Grid::new("mixes").num_columns(4).show(ui, |ui| {
        for (k, mix) in mixes.iter().enumerate() {
            if let Some(v) = text_field(ui, ("mix-from", k), "from", &mix.from, 80.0, field_help("mix from"))
            {
                doc.edit_graph(|g| g.mixes[k].from = v.trim().to_string());
            }
            if let Some(v) = text_field(ui, ("mix-to", k), "to", &mix.to, 80.0, field_help("mix to")) {
                doc.edit_graph(|g| g.mixes[k].to = v.trim().to_string());
            }
            if let Some(v) =
                number_explained(ui, "s", field_help("mix seconds"), mix.duration, 0.0..=10.0, 0.01)
            {
                doc.edit_graph_coalesced(key(("mix-duration", k)), |g| g.mixes[k].duration = v);
            }
            if ui.small_button("x").on_hover_text("Remove this mix").clicked() {
                remove = Some(k);
            }
            ui.end_row();
        }
    });
    if let Some(k) = remove {
        doc.edit_graph(|g| {
            g.mixes.remove(k);
        });
    }
    if ui.button("+ Mix").clicked() {
        let default = doc.graph.default_mix;
        doc.edit_graph(|g| {
            g.mixes.push(GraphMixOverride { from: "*".into(), to: "*".into(), duration: default })
        });
    }
}

/// The layer's bone mask: a tree of the skeleton's bones with checkboxes when one is chosen,
/// otherwise the list of names.
fn mask_editor(ui: &mut egui::Ui, doc: &mut Document, l: usize, character: Option<&CharacterInfo>) {
    let mask = doc.graph.layers[l].mask.clone();
    let mut on = mask.is_some();
    if ui.checkbox(&mut on, "Bone mask").on_hover_text(field_help("Bone mask").unwrap_or_default()).changed()
    {
        doc.edit_graph(|g| g.layers[l].mask = on.then(|| animgraph_runtime::BoneMask::new(Vec::new(), true)));
        return;
    }
    let Some(mask) = mask else { return };
    let mut children = mask.include_children;
    if ui
        .checkbox(&mut children, "Include children")
        .on_hover_text(field_help("Include children").unwrap_or_default())
        .changed()
    {
        doc.edit_graph(|g| {
            if let Some(m) = &mut g.layers[l].mask {
                m.include_children = children
            }
        });
    }
    let mut toggled: Option<String> = None;
    let mut weighted: Option<(String, f32)> = None;
    // A listed bone's weight (0..1), dragged beside its name.
    let mut weight_field = |ui: &mut egui::Ui, name: &str| {
        let Some(at) = mask.bones.iter().position(|b| b == name) else { return };
        let mut w = mask.weights.get(at).copied().unwrap_or(1.0);
        let response =
            ui.add(egui::DragValue::new(&mut w).range(0.0..=1.0).speed(0.01).max_decimals(2)).on_hover_text(
                "How much of the layer this bone (and, with Include children, its unlisted children) takes",
            );
        name_widget(ui, &response, &format!("weight of {name}"));
        if response.changed() {
            weighted = Some((name.to_string(), w));
        }
    };
    match character {
        Some(character) => {
            ui.label(format!("Bones of {} (ticked: in the mask, with its weight)", character.name));
            egui::ScrollArea::vertical().id_salt("mask-bones").max_height(480.0).show(ui, |ui| {
                for (b, bone) in character.bones.iter().enumerate() {
                    let depth = character.depth(b);
                    let mut inside = mask.bones.contains(&bone.name);
                    ui.horizontal(|ui| {
                        ui.add_space(depth as f32 * 12.0);
                        if ui.checkbox(&mut inside, &bone.name).changed() {
                            toggled = Some(bone.name.clone());
                        }
                        weight_field(ui, &bone.name);
                        // In the mask through a ticked ancestor ("Include children").
                        if !inside && let Some(through) = character.included_through(b, &mask) {
                            ui.weak(format!("included with {through}"));
                        }
                    });
                }
            });
            for name in mask.bones.iter().filter(|n| !character.bones.iter().any(|b| &b.name == *n)) {
                ui.horizontal(|ui| {
                    ui.colored_label(
                        egui::Color32::from_rgb(230, 200, 90),
                        format!("{name} (not in this skeleton)"),
                    );
                    if ui.small_button("x").clicked() {
                        toggled = Some(name.clone());
                    }
                });
            }
        }
        None => {
            for name in &mask.bones {
                ui.horizontal(|ui| {
                    ui.label(name);
                    weight_field(ui, name);
                    if ui.small_button("x").on_hover_text("Remove from the mask").clicked() {
                        toggled = Some(name.clone());
                    }
                });
            }
            if let Some(name) = committed_text(ui, ("mask-add", l), "Add bone", "") {
                let name = name.trim().to_string();
                if !name.is_empty() && !mask.bones.contains(&name) {
                    toggled = Some(name);
                }
            }
            ui.weak("Choose a skeleton to pick bones from its hierarchy.");
        }
    }
    if let Some((name, w)) = weighted {
        doc.edit_graph_coalesced(key(("mask-weight", l, &name)), |g| {
            if let Some(m) = &mut g.layers[l].mask {
                if let Some(at) = m.bones.iter().position(|b| *b == name) {
                    // Weights are all or nothing: the first one set fills the others with 1.
                    m.weights.resize(m.bones.len(), 1.0);
                    m.weights[at] = w;
                    if !m.is_weighted() {
                        m.weights.clear();
                    }
                }
            }
        });
    }
    if let Some(name) = toggled {
        doc.edit_graph(|g| {
            if let Some(m) = &mut g.layers[l].mask {
                match m.bones.iter().position(|b| *b == name) {
                    Some(at) => {
                        m.bones.remove(at);
                        if at < m.weights.len() {
                            m.weights.remove(at);
                        }
                    }
                    None => {
                        m.bones.push(name);
                        if !m.weights.is_empty() {
                            m.weights.push(1.0);
                        }
                    }
                }
            }
        });
    }
}
