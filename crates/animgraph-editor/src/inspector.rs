//! The inspector: the selected state's or transition's fields (or the layer and graph settings),
//! and the parameter panel. Every change is one undoable edit.

use animgraph::ClipBlend;
use animgraph::graph::{
    ANY_STATE, ConditionOp, EXIT_STATE, GraphCondition, GraphParameter, ParameterType, StateKind,
    TransitionInterrupt,
};
use eframe::egui;

use crate::document::{Document, Selection};

fn number(ui: &mut egui::Ui, label: &str, value: f32, range: std::ops::RangeInclusive<f32>) -> Option<f32> {
    let mut v = value;
    ui.horizontal(|ui| {
        ui.label(label);
        ui.add(egui::DragValue::new(&mut v).range(range).speed(0.01));
    });
    (v != value).then_some(v)
}

fn text(ui: &mut egui::Ui, label: &str, value: &str) -> Option<String> {
    let mut v = value.to_string();
    ui.horizontal(|ui| {
        ui.label(label);
        ui.text_edit_singleline(&mut v);
    });
    (v != value).then_some(v)
}

fn choose<T: Copy + PartialEq>(
    ui: &mut egui::Ui,
    label: &str,
    value: T,
    all: &[T],
    name: fn(T) -> String,
) -> Option<T> {
    let mut v = value;
    egui::ComboBox::from_label(label).selected_text(name(value)).show_ui(ui, |ui| {
        for &option in all {
            ui.selectable_value(&mut v, option, name(option));
        }
    });
    (v != value).then_some(v)
}

/// The inspector for the document's selection.
pub fn show(ui: &mut egui::Ui, doc: &mut Document) {
    let Some(machine) = doc.machine().cloned() else { return };
    match doc.selection {
        Selection::State(i) => {
            let state = machine.states[i].clone();
            ui.heading(state.kind.type_name());
            if let Some(name) = text(ui, "Name", &state.name) {
                let old = state.name.clone();
                doc.edit_machine(|m| {
                    // Renaming keeps transitions and the entry pointing at the state.
                    for t in &mut m.transitions {
                        if t.from == old {
                            t.from = name.clone();
                        }
                        if t.to == old {
                            t.to = name.clone();
                        }
                    }
                    if m.entry == old {
                        m.entry = name.clone();
                    }
                    m.states[i].name = name;
                });
            }
            if let Some(v) = number(ui, "Speed", state.speed, -10.0..=10.0) {
                doc.edit_machine(|m| m.states[i].speed = v);
            }
            if let Some(v) = text(ui, "Speed parameter", &state.speed_parameter) {
                doc.edit_machine(|m| m.states[i].speed_parameter = v);
            }
            if machine.entry != state.name && ui.button("Make entry state").clicked() {
                doc.edit_machine(|m| m.entry = state.name.clone());
            }
            match &state.kind {
                StateKind::Clip(c) => {
                    if let Some(v) = text(ui, "Clip", &c.clip) {
                        doc.edit_machine(|m| {
                            if let StateKind::Clip(c) = &mut m.states[i].kind {
                                c.clip = v
                            }
                        });
                    }
                    let mut looping = c.looping;
                    if ui.checkbox(&mut looping, "Loop").changed() {
                        doc.edit_machine(|m| {
                            if let StateKind::Clip(c) = &mut m.states[i].kind {
                                c.looping = looping
                            }
                        });
                    }
                }
                StateKind::BlendSpace1D(b) => {
                    if let Some(v) = text(ui, "Parameter", &b.parameter) {
                        doc.edit_machine(|m| {
                            if let StateKind::BlendSpace1D(b) = &mut m.states[i].kind {
                                b.parameter = v
                            }
                        });
                    }
                    ui.label("Points (clip @ position):");
                    for (k, (clip, position)) in b.clips.iter().zip(&b.positions).enumerate() {
                        ui.label(format!("  {k}: {clip} @ {position}"));
                    }
                }
                StateKind::BlendSpace2D(b) => {
                    ui.label(format!("Parameters: {} x {}", b.parameter_x, b.parameter_y));
                    for (k, (clip, p)) in b.clips.iter().zip(&b.positions).enumerate() {
                        ui.label(format!("  {k}: {clip} @ ({}, {})", p[0], p[1]));
                    }
                }
                StateKind::SubMachine(inner) => {
                    ui.label(format!(
                        "{} states, {} transitions (double-click to enter)",
                        inner.states.len(),
                        inner.transitions.len()
                    ));
                }
            }
        }
        Selection::Transition(i) => {
            let t = machine.transitions[i].clone();
            ui.heading("Transition");
            let mut names: Vec<String> = machine.states.iter().map(|s| s.name.clone()).collect();
            let from_names: Vec<String> =
                std::iter::once(ANY_STATE.to_string()).chain(names.iter().cloned()).collect();
            if !doc.nesting.is_empty() {
                names.push(EXIT_STATE.to_string());
            }
            let mut from = t.from.clone();
            egui::ComboBox::from_label("From").selected_text(&from).show_ui(ui, |ui| {
                for n in &from_names {
                    ui.selectable_value(&mut from, n.clone(), n);
                }
            });
            let mut to = t.to.clone();
            egui::ComboBox::from_label("To").selected_text(&to).show_ui(ui, |ui| {
                for n in &names {
                    ui.selectable_value(&mut to, n.clone(), n);
                }
            });
            if from != t.from || to != t.to {
                doc.edit_machine(|m| {
                    m.transitions[i].from = from;
                    m.transitions[i].to = to;
                });
            }
            if let Some(v) = number(ui, "Duration (-1: Mixes)", t.duration, -1.0..=10.0) {
                doc.edit_machine(|m| m.transitions[i].duration = if v < 0.0 { -1.0 } else { v });
            }
            if let Some(v) = number(ui, "Exit time (-1: any)", t.exit_time, -1.0..=100.0) {
                doc.edit_machine(|m| m.transitions[i].exit_time = if v < 0.0 { -1.0 } else { v });
            }
            if let Some(v) = number(ui, "Offset", t.offset, 0.0..=1.0) {
                doc.edit_machine(|m| m.transitions[i].offset = v);
            }
            if let Some(v) =
                choose(ui, "Interrupt", t.interrupt, &TransitionInterrupt::ALL, |x| x.as_str().to_string())
            {
                doc.edit_machine(|m| m.transitions[i].interrupt = v);
            }
            let mut priority = t.priority;
            ui.horizontal(|ui| {
                ui.label("Priority");
                ui.add(egui::DragValue::new(&mut priority));
            });
            if priority != t.priority {
                doc.edit_machine(|m| m.transitions[i].priority = priority);
            }
            ui.separator();
            ui.label("Conditions (all must hold)");
            let parameters = doc.graph.parameters.clone();
            for (c, cond) in t.conditions.iter().enumerate() {
                ui.horizontal(|ui| {
                    let mut parameter = cond.parameter.clone();
                    egui::ComboBox::from_id_salt(("parameter", c)).selected_text(&parameter).show_ui(
                        ui,
                        |ui| {
                            for p in &parameters {
                                ui.selectable_value(&mut parameter, p.name.clone(), &p.name);
                            }
                        },
                    );
                    // Operators are filtered by the parameter's type (the runtime's rule).
                    let kind = parameters.iter().find(|p| p.name == parameter).map(|p| p.kind);
                    let ops: Vec<ConditionOp> =
                        kind.map_or(ConditionOp::ALL.to_vec(), |k| ConditionOp::fitting(k).collect());
                    let mut op = if ops.contains(&cond.op) { cond.op } else { ops[0] };
                    egui::ComboBox::from_id_salt(("op", c)).selected_text(op.as_str()).show_ui(ui, |ui| {
                        for o in &ops {
                            ui.selectable_value(&mut op, *o, o.as_str());
                        }
                    });
                    let mut value = cond.value;
                    if matches!(
                        op,
                        ConditionOp::Greater | ConditionOp::Less | ConditionOp::Equal | ConditionOp::NotEqual
                    ) {
                        ui.add(egui::DragValue::new(&mut value).speed(0.05));
                    }
                    let remove = ui.button("x").clicked();
                    if remove {
                        doc.edit_machine(|m| {
                            m.transitions[i].conditions.remove(c);
                        });
                    } else if parameter != cond.parameter || op != cond.op || value != cond.value {
                        doc.edit_machine(|m| {
                            m.transitions[i].conditions[c] = GraphCondition { parameter, op, value }
                        });
                    }
                });
            }
            if ui.button("+ Condition").clicked() {
                let first = parameters
                    .first()
                    .map(|p| (p.name.clone(), ConditionOp::fitting(p.kind).next().unwrap_or_default()));
                let (parameter, op) = first.unwrap_or_default();
                doc.edit_machine(|m| {
                    m.transitions[i].conditions.push(GraphCondition { parameter, op, value: 0.0 })
                });
            }
        }
        Selection::None => {
            ui.heading("Layer");
            let layer = doc.graph.layers[doc.layer].clone();
            let l = doc.layer;
            if let Some(v) = text(ui, "Name", &layer.name) {
                doc.edit_graph(|g| g.layers[l].name = v);
            }
            if let Some(v) =
                choose(ui, "Blend", layer.blend, &[ClipBlend::Replace, ClipBlend::Additive], |b| {
                    b.as_str().to_string()
                })
            {
                doc.edit_graph(|g| g.layers[l].blend = v);
            }
            if let Some(v) = number(ui, "Weight", layer.weight, 0.0..=1.0) {
                doc.edit_graph(|g| g.layers[l].weight = v);
            }
            if let Some(v) = text(ui, "Weight parameter", &layer.weight_parameter) {
                doc.edit_graph(|g| g.layers[l].weight_parameter = v);
            }
            let mask = layer.mask.as_ref().map(|m| m.bones.join(", ")).unwrap_or_default();
            if let Some(v) = text(ui, "Mask bones", &mask) {
                let bones: Vec<String> =
                    v.split(',').map(|b| b.trim().to_string()).filter(|b| !b.is_empty()).collect();
                doc.edit_graph(|g| {
                    g.layers[l].mask =
                        (!bones.is_empty()).then_some(animgraph::BoneMask { bones, include_children: true })
                });
            }
            ui.separator();
            ui.heading("Graph");
            if let Some(v) = number(ui, "Default mix", doc.graph.default_mix, 0.0..=5.0) {
                doc.edit_graph(|g| g.default_mix = v);
            }
            ui.label(format!("{} mix overrides", doc.graph.mixes.len()));
        }
    }
}

/// The parameter panel: each parameter with a control for its default value.
pub fn parameters(ui: &mut egui::Ui, doc: &mut Document) {
    ui.heading("Parameters");
    let list = doc.graph.parameters.clone();
    for (i, p) in list.iter().enumerate() {
        ui.horizontal(|ui| {
            rename_field(ui, doc, i, &p.name);
            ui.label(p.kind.as_str());
            let mut value = p.default;
            match p.kind {
                ParameterType::Bool => {
                    let mut b = value != 0.0;
                    ui.checkbox(&mut b, "");
                    value = b as u8 as f32;
                }
                ParameterType::Trigger => {
                    let mut latch = p.latch;
                    if ui.checkbox(&mut latch, "latch").changed() {
                        doc.edit_graph(|g| g.parameters[i].latch = latch);
                    }
                }
                ParameterType::Int => {
                    let mut n = value as i32;
                    ui.add(egui::DragValue::new(&mut n));
                    value = n as f32;
                }
                ParameterType::Float => {
                    ui.add(egui::DragValue::new(&mut value).speed(0.01));
                }
            }
            if value != p.default {
                doc.edit_graph(|g| g.parameters[i].default = value);
            }
            if ui.small_button("x").on_hover_text("Remove (references are reported in Problems)").clicked() {
                let references = doc.graph.parameter_references(&p.name).len();
                doc.edit_graph(|g| {
                    g.parameters.remove(i);
                });
                doc.status = if references == 0 {
                    format!("removed parameter `{}`", p.name)
                } else {
                    format!(
                        "removed parameter `{}`: {references} reference(s) now name nothing (see Problems; Ctrl+Z restores it)",
                        p.name
                    )
                };
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        for kind in ParameterType::ALL {
            if ui.button(format!("+ {}", kind.as_str())).clicked() {
                let mut name = kind.as_str().to_lowercase();
                let mut n = 2;
                while doc.graph.parameter(&name).is_some() {
                    name = format!("{}{n}", kind.as_str().to_lowercase());
                    n += 1;
                }
                doc.edit_graph(|g| {
                    g.parameters.push(GraphParameter { name, kind, default: 0.0, latch: false })
                });
            }
        }
    });
}

/// Controls that drive the editor's live player (not the graph: nothing here is an edit).
pub fn live_controls(ui: &mut egui::Ui, doc: &Document, live: &mut crate::live::Live) {
    ui.heading("Live");
    ui.horizontal(|ui| {
        ui.checkbox(&mut live.running, "Play");
        if ui.button("Restart").clicked() {
            live.restart();
        }
    });
    if let Some(error) = &live.error {
        ui.colored_label(egui::Color32::from_rgb(230, 120, 100), format!("Cannot play: {error}"));
        return;
    }
    let mut fire = None;
    for p in &doc.graph.parameters {
        let Some(value) = live.values.get_mut(&p.name) else { continue };
        ui.horizontal(|ui| {
            ui.label(&p.name);
            match p.kind {
                ParameterType::Bool => {
                    let mut b = *value != 0.0;
                    if ui.checkbox(&mut b, "").changed() {
                        *value = b as u8 as f32;
                    }
                }
                ParameterType::Int => {
                    let mut n = *value as i32;
                    if ui.add(egui::DragValue::new(&mut n)).changed() {
                        *value = n as f32;
                    }
                }
                ParameterType::Float => {
                    let top = value.abs().max(10.0);
                    ui.add(egui::Slider::new(value, -top..=top).clamping(egui::SliderClamping::Never));
                }
                ParameterType::Trigger => {
                    if ui.button("Fire").clicked() {
                        fire = Some(p.name.clone());
                    }
                }
            }
        });
    }
    if let Some(name) = fire {
        live.fire(&name);
    }
}

/// A parameter's name as a field; the rename is applied (with every reference) when the field
/// loses focus, so half-typed names never collide with other parameters.
fn rename_field(ui: &mut egui::Ui, doc: &mut Document, index: usize, name: &str) {
    let id = ui.scope_id().with(("parameter-name", index));
    let mut buffer = ui.data_mut(|d| d.get_temp::<String>(id)).unwrap_or_else(|| name.to_string());
    let response = ui.add(egui::TextEdit::singleline(&mut buffer).desired_width(96.0));
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, buffer));
        return;
    }
    ui.data_mut(|d| d.remove::<String>(id));
    if !response.lost_focus() || buffer == name {
        return;
    }
    let new = buffer.trim().to_string();
    if new.is_empty() || doc.graph.parameter(&new).is_some() {
        doc.status = format!("cannot rename `{name}` to `{new}`: the name is empty or taken");
        return;
    }
    let mut changed = 0;
    doc.edit_graph(|g| changed = g.rename_parameter(name, &new));
    doc.status = format!("renamed `{name}` to `{new}` and {changed} reference(s)");
}
