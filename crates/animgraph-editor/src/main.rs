//! `animgraph-editor [FILE.mres ...]`: the animgraph editor. Without arguments it opens the
//! bundled GBot graph.

mod canvas;
mod document;
mod inspector;
mod live;

use std::path::PathBuf;

use animgraph::graph::{GraphLayer, Severity, validate};
use eframe::egui;

use document::{Document, Selection};

struct Editor {
    documents: Vec<(Document, canvas::View, live::Live)>,
    active: usize,
    open_path: String,
    closing: bool,
    frame_next: bool,
}

fn bundled_example() -> PathBuf {
    let relative = PathBuf::from("assets/characters/gbot/gbot.mres");
    if relative.exists() {
        relative
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative)
    }
}

impl Editor {
    fn new(paths: Vec<PathBuf>) -> Editor {
        let paths = if paths.is_empty() { vec![bundled_example()] } else { paths };
        let mut documents = Vec::new();
        for path in paths {
            let doc = match Document::open(path.clone()) {
                Ok(d) => d,
                Err(e) => Document::new(animgraph::AnimationGraph::default(), Some(path), e),
            };
            documents.push((doc, canvas::View::default(), live::Live::new()));
        }
        Editor { documents, active: 0, open_path: String::new(), closing: false, frame_next: true }
    }

    fn menu(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let (undo, redo, save) = ctx.input_mut(|i| {
            // Ctrl+Shift+Z first: a plain Ctrl+Z match would also take it.
            let shift_z = i.consume_key(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
            let undo = !shift_z && i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z);
            let redo = shift_z || i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y);
            (undo, redo, i.consume_key(egui::Modifiers::COMMAND, egui::Key::S))
        });
        ui.horizontal(|ui| {
            ui.label("Open:");
            ui.text_edit_singleline(&mut self.open_path);
            if ui.button("Open").clicked() && !self.open_path.is_empty() {
                match Document::open(PathBuf::from(self.open_path.trim())) {
                    Ok(d) => {
                        self.documents.push((d, canvas::View::default(), live::Live::new()));
                        self.active = self.documents.len() - 1;
                        self.frame_next = true;
                    }
                    Err(e) => {
                        if let Some((doc, _, _)) = self.documents.get_mut(self.active) {
                            doc.status = e;
                        }
                    }
                }
            }
            let Some((doc, view, _)) = self.documents.get_mut(self.active) else { return };
            if ui.button("Save").clicked() || save {
                if let Err(e) = doc.save() {
                    doc.status = e;
                }
            }
            let (can_undo, can_redo) = doc.can_undo();
            if ui.add_enabled(can_undo, egui::Button::new("Undo")).clicked() || (undo && can_undo) {
                doc.undo();
            }
            if ui.add_enabled(can_redo, egui::Button::new("Redo")).clicked() || (redo && can_redo) {
                doc.redo();
            }
            if ui.button("Frame all").clicked() {
                if let Some(m) = doc.machine() {
                    canvas::frame_all(view, m, ui.ctx().content_rect().size() * 0.6);
                }
            }
            ui.label(&doc.status);
        });
        ui.horizontal(|ui| {
            for (i, (doc, _, _)) in self.documents.iter().enumerate() {
                if ui.selectable_label(i == self.active, doc.title()).clicked() {
                    self.active = i;
                }
            }
        });
    }
}

impl eframe::App for Editor {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        // An unsaved-changes prompt on close.
        if ui.ctx().input(|i| i.viewport().close_requested())
            && self.documents.iter().any(|(d, _, _)| d.dirty())
            && !self.closing
        {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.closing = true;
        }
        if self.closing {
            egui::Window::new("Unsaved changes").collapsible(false).show(ui.ctx(), |ui| {
                ui.label("Some graphs have unsaved changes.");
                ui.horizontal(|ui| {
                    if ui.button("Save all and quit").clicked() {
                        for (d, _, _) in &mut self.documents {
                            let _ = d.save();
                        }
                        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                    if ui.button("Quit without saving").clicked() {
                        for (d, _, _) in &mut self.documents {
                            d.checkpoint();
                            d.undo();
                        }
                        self.documents.clear();
                        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                    if ui.button("Cancel").clicked() {
                        self.closing = false;
                    }
                });
            });
        }
        egui::Panel::top("menu").show(ui, |ui| self.menu(ui));
        let Some((doc, view, live)) = self.documents.get_mut(self.active) else { return };
        live.sync(doc);
        live.step(doc, ui.input(|i| i.stable_dt).min(0.1));
        if live.running {
            ui.ctx().request_repaint();
        }
        egui::Panel::left("parameters").default_size(260.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                inspector::parameters(ui, doc);
                ui.separator();
                inspector::live_controls(ui, doc, live);
            });
        });
        egui::Panel::right("inspector").default_size(300.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| inspector::show(ui, doc));
        });
        egui::Panel::bottom("problems").default_size(110.0).show(ui, |ui| {
            let issues = validate(&doc.graph);
            ui.heading(format!("Problems ({})", issues.len()));
            egui::ScrollArea::vertical().show(ui, |ui| {
                for issue in issues {
                    let colour = if issue.severity == Severity::Error {
                        egui::Color32::from_rgb(240, 110, 100)
                    } else {
                        egui::Color32::from_rgb(230, 200, 90)
                    };
                    ui.colored_label(colour, format!("{}: {}", issue.path, issue.message));
                }
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            // Layer tabs and the breadcrumb of entered sub-machines.
            ui.horizontal(|ui| {
                for (i, layer) in doc.graph.layers.clone().iter().enumerate() {
                    if ui.selectable_label(i == doc.layer, &layer.name).clicked() {
                        doc.layer = i;
                        doc.nesting.clear();
                        doc.selection = Selection::None;
                        self.frame_next = true;
                    }
                }
                if ui.button("+ Layer").clicked() {
                    let n = doc.graph.layers.len() + 1;
                    doc.edit_graph(|g| {
                        g.layers.push(GraphLayer { name: format!("Layer {n}"), ..Default::default() })
                    });
                }
                if doc.graph.layers.len() > 1 && ui.button("- Layer").clicked() {
                    let l = doc.layer;
                    doc.edit_graph(|g| {
                        g.layers.remove(l);
                    });
                    doc.repair_view();
                }
            });
            ui.horizontal(|ui| {
                let layer_name = doc.graph.layers.get(doc.layer).map_or(String::new(), |l| l.name.clone());
                if ui.link(layer_name).clicked() {
                    doc.nesting.clear();
                    doc.selection = Selection::None;
                }
                let nesting = doc.nesting.clone();
                for (depth, &index) in nesting.iter().enumerate() {
                    ui.label(">");
                    let saved = doc.nesting.clone();
                    doc.nesting.truncate(depth);
                    let name = doc
                        .machine()
                        .and_then(|m| m.states.get(index))
                        .map_or(String::new(), |s| s.name.clone());
                    doc.nesting = saved;
                    if ui.link(name).clicked() {
                        doc.nesting.truncate(depth + 1);
                        doc.selection = Selection::None;
                    }
                }
            });
            if self.frame_next {
                if let Some(m) = doc.machine() {
                    canvas::frame_all(view, m, ui.available_size());
                }
                self.frame_next = false;
            }
            let playback = live.playback(doc.layer);
            canvas::show(ui, doc, view, &playback);
        });
    }
}

fn main() -> eframe::Result {
    let paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    eframe::run_native("animgraph editor", options, Box::new(|_cc| Ok(Box::new(Editor::new(paths)))))
}
