//! The parameter panel: each parameter's name (renamed with its references when the field is
//! committed), type, default and latch; and the live controls that drive the editor's player
//! (checkbox, int field, slider, Fire button), which are not edits.

use animgraph_runtime::graph::ParameterType;
use eframe::egui;

use crate::document::Document;
use crate::live::Live;

/// The parameter list with add, rename, retype and remove.
pub fn panel(ui: &mut egui::Ui, doc: &mut Document) {
    ui.heading("Parameters");
    let list = doc.graph.parameters.clone();
    let mut remove = None;
    egui::Grid::new("parameters").num_columns(4).striped(true).show(ui, |ui| {
        for (i, p) in list.iter().enumerate() {
            rename_field(ui, doc, i, &p.name);
            let mut kind = p.kind;
            let combo = egui::ComboBox::from_id_salt(("parameter-type", i))
                .selected_text(kind.as_str())
                .width(64.0)
                .show_ui(ui, |ui| {
                    for k in ParameterType::ALL {
                        ui.selectable_value(&mut kind, k, k.as_str());
                    }
                });
            crate::inspector::name_widget(ui, &combo.response, &format!("type of {}", p.name));
            combo.response.on_hover_text(
                "Bool (on/off), Int (whole numbers), Float (any number), Trigger (set by a Fire, used up by the transition that reads it). Changing the type keeps the conditions that still fit.",
            );
            if kind != p.kind {
                doc.set_parameter_type(&p.name, kind);
            }
            let mut value = p.default;
            match p.kind {
                ParameterType::Bool => {
                    let mut b = value != 0.0;
                    ui.checkbox(&mut b, "default").on_hover_text("Its value when the graph starts");
                    value = b as u8 as f32;
                }
                ParameterType::Trigger => {
                    let mut latch = p.latch;
                    if ui
                        .checkbox(&mut latch, "latch")
                        .on_hover_text("stay set until a transition uses it")
                        .changed()
                    {
                        doc.edit_graph(|g| g.parameters[i].latch = latch);
                    }
                }
                ParameterType::Int => {
                    let mut n = value as i32;
                    ui.add(egui::DragValue::new(&mut n).prefix("default "))
                        .on_hover_text("Its value when the graph starts");
                    value = n as f32;
                }
                ParameterType::Float => {
                    ui.add(egui::DragValue::new(&mut value).speed(0.01).prefix("default "))
                        .on_hover_text("Its value when the graph starts");
                }
            }
            if value != p.default {
                let key = crate::inspector::key(("parameter-default", i));
                doc.edit_graph_coalesced(key, |g| g.parameters[i].default = value);
            }
            if ui.small_button("x").on_hover_text("Remove (references are reported in Problems)").clicked() {
                remove = Some(i);
            }
            ui.end_row();
        }
    });
    if let Some(i) = remove {
        doc.remove_parameter(i);
    }
    ui.horizontal_wrapped(|ui| {
        for kind in ParameterType::ALL {
            if ui.button(format!("+ {}", kind.as_str())).clicked() {
                let name = doc.add_parameter(kind);
                doc.status =
                    format!("added {} parameter `{name}`; click its name to rename it", kind.as_str());
            }
        }
    });
}

/// Controls that drive the editor's live player (not the graph: nothing here is an edit).
pub fn live_controls(ui: &mut egui::Ui, doc: &Document, live: &mut Live) {
    ui.heading("Live");
    crate::preview::controls(ui, live);
    if let Some(error) = &live.error {
        let red = egui::Color32::from_rgb(230, 120, 100);
        if !live.stale() {
            ui.colored_label(red, format!("Cannot play: {error}"));
            return;
        }
        ui.colored_label(red, format!("Playing the last version that worked; this one cannot play: {error}"));
    }
    let mut fire = None;
    egui::Grid::new("live-controls").num_columns(2).show(ui, |ui| {
        for p in &doc.graph.parameters {
            let Some(value) = live.values.get_mut(&p.name) else { continue };
            let label = ui.label(&p.name);
            match p.kind {
                ParameterType::Bool => {
                    let mut b = *value != 0.0;
                    if ui.checkbox(&mut b, "on").labelled_by(label.id).changed() {
                        *value = b as u8 as f32;
                    }
                }
                ParameterType::Int => {
                    let mut n = *value as i32;
                    if ui.add(egui::DragValue::new(&mut n)).labelled_by(label.id).changed() {
                        *value = n as f32;
                    }
                }
                ParameterType::Float => {
                    let top = value.abs().max(10.0);
                    ui.add(egui::Slider::new(value, -top..=top).clamping(egui::SliderClamping::Never))
                        .labelled_by(label.id);
                }
                ParameterType::Trigger => {
                    if ui.button(format!("Fire {}", p.name)).clicked() {
                        fire = Some(p.name.clone());
                    }
                }
            }
            ui.end_row();
        }
    });
    if let Some(name) = fire {
        live.fire(&name);
    }
}

/// A parameter's name as a field; the rename is applied (with every reference) when the field
/// loses focus, so half-typed names never collide with other parameters.
fn rename_field(ui: &mut egui::Ui, doc: &mut Document, index: usize, name: &str) {
    let id = ui.make_persistent_id(("parameter-name", index));
    let mut buffer = ui.data_mut(|d| d.get_temp::<String>(id)).unwrap_or_else(|| name.to_string());
    let response = ui
        .add_sized([104.0, 20.0], egui::TextEdit::singleline(&mut buffer))
        .on_hover_text("Parameter name: type a new one and press Enter to rename it everywhere");
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, buffer));
        return;
    }
    ui.data_mut(|d| d.remove::<String>(id));
    if !(response.lost_focus() || response.changed()) || buffer == name {
        return;
    }
    if let Err(e) = doc.rename_parameter(name, &buffer) {
        doc.status = e;
    }
}
