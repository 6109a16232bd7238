//! The editor window: document tabs, the toolbar, the panels around the canvas, and the prompts
//! (unsaved changes, file changed on disk).
//!
//! | key | does |
//! |---|---|
//! | Ctrl+N / Ctrl+O / Ctrl+S / Ctrl+Shift+S | new, open, save, save as |
//! | Ctrl+W | close the tab (asks when it has unsaved changes) |
//! | Ctrl+Z / Ctrl+Shift+Z or Ctrl+Y | undo / redo |

use std::path::{Path, PathBuf};

use animgraph_runtime::graph::Severity;
use eframe::egui;

use crate::canvas;
use crate::character::CharacterInfo;
use crate::document::{Document, Selection};
use crate::files::{Dialogs, Purpose};
use crate::live::Live;
use crate::settings::Settings;

/// One open graph.
pub struct Tab {
    /// The document.
    pub doc: Document,
    /// How its canvas is looked at.
    pub view: canvas::View,
    /// Its live player.
    pub live: Live,
    /// The chosen skeleton.
    pub character: Option<CharacterInfo>,
    /// The preview's camera and picture.
    pub preview: crate::preview::Preview,
    /// The open blend space editor.
    pub blend_editor: Option<crate::blend_editor::BlendEditor>,
    /// Record and scrub.
    pub timeline: crate::timeline::Timeline,
    /// The file's new text when it changed on disk while the document had unsaved edits.
    pub disk_change: Option<String>,
    /// Frame all on the next frames (a few, while the panels around the canvas settle).
    frame_next: u8,
    /// The layer and nesting framed last: showing another machine frames it.
    framed: (usize, Vec<usize>),
    /// The attached game's frame the preview was last posed from.
    pub(crate) game_tick: Option<u64>,
    /// Names this tab's recovery file.
    recovery_key: u64,
    /// The content id last autosaved.
    autosaved: Option<u64>,
}

impl Tab {
    /// A tab for a document.
    pub fn new(doc: Document) -> Tab {
        Tab {
            timeline: crate::timeline::Timeline::new(&doc),
            doc,
            view: canvas::View::default(),
            live: Live::new(),
            character: None,
            preview: Default::default(),
            blend_editor: None,
            disk_change: None,
            frame_next: 3,
            framed: (0, Vec::new()),
            game_tick: None,
            recovery_key: crate::recovery::next_key(),
            autosaved: None,
        }
    }

    /// Uses a skeleton for clip names, bones, the live player and the preview.
    pub fn set_character(&mut self, character: Option<CharacterInfo>) {
        self.live.set_character(character.as_ref().map(|c| c.character.clone()));
        self.character = character;
    }
}

/// The editor.
pub struct Editor {
    /// Open graphs.
    pub tabs: Vec<Tab>,
    /// The tab shown.
    pub active: usize,
    /// The toolbar's path field (open or save as by typing).
    pub path_field: String,
    /// The toolbar's Find field, and which match Enter shows next.
    pub find_field: String,
    find_next: usize,
    /// The skeleton path field.
    pub skeleton_field: String,
    /// Remembered between runs.
    pub settings: Settings,
    dialogs: Dialogs,
    /// A tab waiting for an answer to "save changes?" before it closes.
    closing_tab: Option<usize>,
    quitting: bool,
    /// Messages not tied to a tab.
    pub status: String,
    /// The connection to a running game.
    pub debugger: crate::debug::Debugger,
    /// Autosave (none when the settings are not saved, as in tests).
    pub recovery: Option<crate::recovery::Recovery>,
    /// Recovery files of a session that ended without quitting, offered at start.
    pub recoverable: Vec<PathBuf>,
    /// Frames per second printed each second (`ANIMGRAPH_EDITOR_FPS` set).
    pub frame_meter: Option<FrameMeter>,
    /// The theme's panel colour: the window is cleared to it and panels are not filled.
    panel_colour: egui::Color32,
}

/// The graph opened when the editor starts without arguments.
pub fn bundled_example() -> PathBuf {
    let relative = PathBuf::from("assets/characters/gbot/gbot.mres");
    if relative.exists() {
        relative
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative)
    }
}

/// The skeleton's clips, each a drag source: dropped on the canvas, a clip state playing it.
fn clip_list(ui: &mut egui::Ui, c: &CharacterInfo) {
    egui::CollapsingHeader::new(format!("Clips of {} (drag onto the canvas)", c.name))
        .id_salt("clip-list")
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().id_salt("clip-list-scroll").max_height(150.0).show(ui, |ui| {
                for clip in &c.clips {
                    let id = ui.make_persistent_id(("canvas-clip", &clip.name));
                    ui.dnd_drag_source(id, clip.name.clone(), |ui| {
                        ui.label(format!("{}  ({:.2} s)", clip.name, clip.length));
                    });
                }
            });
        });
}

/// A skeleton file beside a graph with the same stem (`gbot.mres` -> `gbot.mskel`), used when
/// no skeleton was chosen for it yet.
fn sibling_skeleton(graph: &Path) -> Option<PathBuf> {
    ["mskel", "glb", "gltf"].iter().map(|e| graph.with_extension(e)).find(|p| p.exists())
}

impl Editor {
    /// An editor with these files open (the bundled example when none), remembering into
    /// `settings`.
    pub fn new(paths: Vec<PathBuf>, settings: Settings) -> Editor {
        let mut editor = Editor {
            tabs: Vec::new(),
            active: 0,
            path_field: String::new(),
            find_field: String::new(),
            find_next: 0,
            skeleton_field: String::new(),
            settings,
            dialogs: Dialogs::default(),
            closing_tab: None,
            quitting: false,
            status: String::new(),
            debugger: Default::default(),
            recovery: None,
            recoverable: Vec::new(),
            frame_meter: FrameMeter::from_env(),
            panel_colour: egui::Color32::from_gray(27),
        };
        let paths = if paths.is_empty() { vec![bundled_example()] } else { paths };
        for path in paths {
            editor.open(path);
        }
        if editor.tabs.is_empty() {
            editor.tabs.push(Tab::new(Document::untitled()));
        }
        editor.active = 0;
        editor.debugger.command = editor.settings.game_command.clone();
        if let Some(recovery) = editor.settings.file.as_deref().and_then(crate::recovery::Recovery::beside) {
            editor.use_recovery(recovery);
        }
        editor
    }

    /// Autosaves into `recovery`'s folder, and offers what a crashed session left there.
    pub fn use_recovery(&mut self, recovery: crate::recovery::Recovery) {
        self.recoverable = recovery.leftovers();
        self.recovery = Some(recovery);
    }

    /// Writes the recovery files of tabs with unsaved edits that changed since their last
    /// autosave and removes those of clean tabs (when the interval has passed).
    pub fn autosave(&mut self, now: std::time::Instant) {
        let Some(recovery) = self.recovery.as_mut() else { return };
        if !recovery.due(now) {
            return;
        }
        let mut failed = None;
        for tab in &mut self.tabs {
            let content = tab.doc.content_id();
            if !tab.doc.dirty() {
                if tab.autosaved.take().is_some() {
                    recovery.remove(tab.recovery_key);
                }
            } else if tab.autosaved != Some(content) {
                match recovery.write(tab.recovery_key, &tab.doc) {
                    Ok(()) => tab.autosaved = Some(content),
                    Err(e) => failed = Some(e),
                }
            }
        }
        if let Some(e) = failed {
            self.status = format!("autosave failed: {e}");
        }
    }

    /// Opens every offered recovery file as a tab (then deletes the file: the tab autosaves
    /// anew).
    pub fn recover_all(&mut self) {
        for file in std::mem::take(&mut self.recoverable) {
            match crate::recovery::recover(&file) {
                Ok(doc) => {
                    self.tabs.push(Tab::new(doc));
                    self.active = self.tabs.len() - 1;
                    let _ = std::fs::remove_file(&file);
                }
                Err(e) => self.status = format!("cannot recover: {e}"),
            }
        }
    }

    /// Deletes the offered recovery files.
    pub fn discard_recovered(&mut self) {
        for file in std::mem::take(&mut self.recoverable) {
            let _ = std::fs::remove_file(file);
        }
    }

    /// The active tab.
    pub fn tab(&mut self) -> Option<&mut Tab> {
        self.tabs.get_mut(self.active)
    }

    /// Opens a graph in a new tab (or shows its tab when it is open already).
    pub fn open(&mut self, path: PathBuf) {
        if let Some(i) = self.tabs.iter().position(|t| t.doc.is_file(&path)) {
            self.active = i;
            self.status.clear();
            return;
        }
        match Document::open(path.clone()) {
            Ok(doc) => {
                // An earlier editor-wide message (a failed open) would hide this tab's.
                self.status.clear();
                let mut tab = Tab::new(doc);
                let skeleton = self.settings.skeleton_for(&path).cloned().or_else(|| sibling_skeleton(&path));
                if let Some(skeleton) = skeleton {
                    match CharacterInfo::load_with(&skeleton, &self.settings.libraries_for(&skeleton)) {
                        Ok(c) => tab.set_character(Some(c)),
                        Err(e) => {
                            tab.doc.status = format!("{}; the skeleton did not load: {e}", tab.doc.status)
                        }
                    }
                }
                self.tabs.push(tab);
                self.active = self.tabs.len() - 1;
                self.settings.add_recent(&path);
                self.save_settings();
            }
            Err(e) => self.status = e,
        }
    }

    /// A new untitled graph in a new tab.
    pub fn new_document(&mut self) {
        self.status.clear();
        self.tabs.push(Tab::new(Document::untitled()));
        self.active = self.tabs.len() - 1;
    }

    /// Saves the active graph (asks for a path when it has none).
    pub fn save(&mut self) {
        let Some(tab) = self.tabs.get_mut(self.active) else { return };
        if tab.doc.path.is_none() {
            self.dialogs.ask(Purpose::SaveAs, None);
            return;
        }
        match tab.doc.save() {
            Ok(()) => self.status.clear(),
            Err(e) => tab.doc.status = e,
        }
    }

    /// Saves the active graph to `path`, which it then belongs to.
    pub fn save_as(&mut self, path: PathBuf) {
        let path = if path.extension().is_none() { path.with_extension("mres") } else { path };
        let Some(tab) = self.tabs.get_mut(self.active) else { return };
        match tab.doc.save_as(path.clone()) {
            Ok(()) => {
                self.status.clear();
                if let Some(c) = &tab.character {
                    self.settings.set_skeleton(&path, &c.path);
                }
                self.settings.add_recent(&path);
                self.save_settings();
            }
            Err(e) => tab.doc.status = e,
        }
    }

    /// Chooses the active graph's skeleton (remembered for its file).
    pub fn choose_skeleton(&mut self, path: PathBuf) {
        let libraries = self.settings.libraries_for(&path);
        let Some(tab) = self.tabs.get_mut(self.active) else { return };
        match CharacterInfo::load_with(&path, &libraries) {
            Ok(c) => {
                let missing = c.missing_clips(&tab.doc.graph);
                let from = if libraries.is_empty() {
                    String::new()
                } else {
                    format!(" ({} from clip libraries)", libraries.len())
                };
                tab.doc.status = if missing.is_empty() {
                    format!("skeleton {}: {} bones, {} clips{from}", c.name, c.bones.len(), c.clips.len())
                } else {
                    format!("skeleton {}: the graph names clips it lacks: {}", c.name, missing.join(", "))
                };
                if let Some(graph) = tab.doc.path.clone() {
                    self.settings.set_skeleton(&graph, &path);
                }
                tab.set_character(Some(c));
                self.save_settings();
            }
            Err(e) => tab.doc.status = e,
        }
    }

    /// Adds clip libraries to the active graph's glTF skeleton (remembered for that skeleton):
    /// the skeleton reloads with them; a library that does not fit leaves it as it was.
    pub fn add_clip_libraries(&mut self, paths: Vec<PathBuf>) {
        let Some(tab) = self.tabs.get_mut(self.active) else { return };
        let Some(current) = &tab.character else {
            tab.doc.status = "choose a glTF skeleton first; clip libraries add clips to it".into();
            return;
        };
        let mut libraries = current.libraries.clone();
        libraries.extend(paths.iter().filter(|p| !current.libraries.contains(p)).cloned());
        let before = current.clips.len();
        match CharacterInfo::load_with(&current.path.clone(), &libraries) {
            Ok(c) => {
                let names: Vec<String> = paths
                    .iter()
                    .map(|p| {
                        p.file_name()
                            .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
                    })
                    .collect();
                let noticed = if c.warnings.is_empty() {
                    String::new()
                } else {
                    format!("; {}", c.warnings.join("; "))
                };
                tab.doc.status = format!(
                    "clip library {}: {} clips added ({} in all){noticed}",
                    names.join(", "),
                    c.clips.len() - before,
                    c.clips.len()
                );
                self.settings.set_libraries(&c.path, &libraries);
                tab.set_character(Some(c));
                self.save_settings();
            }
            Err(e) => tab.doc.status = e,
        }
    }

    /// Removes the active skeleton's clip libraries.
    pub fn clear_clip_libraries(&mut self) {
        let Some(tab) = self.tabs.get_mut(self.active) else { return };
        let Some(current) = &tab.character else { return };
        let path = current.path.clone();
        match CharacterInfo::load(&path) {
            Ok(c) => {
                tab.doc.status = format!("clip libraries removed: {} clips", c.clips.len());
                self.settings.set_libraries(&path, &[]);
                tab.set_character(Some(c));
                self.save_settings();
            }
            Err(e) => tab.doc.status = e,
        }
    }

    /// Closes a tab now (no questions).
    pub fn close_now(&mut self, index: usize) {
        if index < self.tabs.len() {
            let tab = self.tabs.remove(index);
            if let Some(recovery) = &self.recovery {
                recovery.remove(tab.recovery_key);
            }
        }
        if self.tabs.is_empty() {
            self.tabs.push(Tab::new(Document::untitled()));
        }
        self.active = self.active.min(self.tabs.len() - 1);
    }

    /// Closes a tab, asking first when it has unsaved changes.
    pub fn close(&mut self, index: usize) {
        match self.tabs.get(index) {
            Some(t) if t.doc.dirty() => self.closing_tab = Some(index),
            Some(_) => self.close_now(index),
            None => {}
        }
    }

    fn save_settings(&mut self) {
        if let Err(e) = self.settings.save() {
            self.status = e;
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let (undo, redo, save, save_as, open, new, close) = ctx.input_mut(|i| {
            use egui::{Key, Modifiers as M};
            // The Shift forms first: a plain Ctrl+Z match would also take Ctrl+Shift+Z.
            let shift_z = i.consume_key(M::COMMAND | M::SHIFT, Key::Z);
            let save_as = i.consume_key(M::COMMAND | M::SHIFT, Key::S);
            (
                !shift_z && i.consume_key(M::COMMAND, Key::Z),
                shift_z || i.consume_key(M::COMMAND, Key::Y),
                !save_as && i.consume_key(M::COMMAND, Key::S),
                save_as,
                i.consume_key(M::COMMAND, Key::O),
                i.consume_key(M::COMMAND, Key::N),
                i.consume_key(M::COMMAND, Key::W),
            )
        });
        if save {
            self.save();
        }
        if save_as {
            self.dialogs.ask(Purpose::SaveAs, None);
        }
        if open {
            self.dialogs.ask(Purpose::Open, None);
        }
        if new {
            self.new_document();
        }
        if close {
            self.close(self.active);
        }
        if let Some(tab) = self.tab() {
            if undo {
                tab.doc.undo();
            }
            if redo {
                tab.doc.redo();
            }
        }
    }

    fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if ui.button("New").on_hover_text("Ctrl+N").clicked() {
                self.new_document();
            }
            if ui
                .add_enabled(!self.dialogs.busy(), egui::Button::new("Open..."))
                .on_hover_text("Ctrl+O")
                .clicked()
            {
                self.dialogs.ask(Purpose::Open, None);
            }
            ui.menu_button("Recent", |ui| {
                if self.settings.recent.is_empty() {
                    ui.weak("no recent files");
                }
                for path in self.settings.recent.clone() {
                    if ui.button(path.display().to_string()).clicked() {
                        self.open(path);
                        ui.close();
                    }
                }
            });
            if ui.button("Save").on_hover_text("Ctrl+S").clicked() {
                self.save();
            }
            if ui
                .add_enabled(!self.dialogs.busy(), egui::Button::new("Save as..."))
                .on_hover_text("Ctrl+Shift+S")
                .clicked()
            {
                self.dialogs.ask(Purpose::SaveAs, None);
            }
            ui.separator();
            let label = ui.label("Path");
            ui.add(
                egui::TextEdit::singleline(&mut self.path_field).desired_width(220.0).hint_text("file.mres"),
            )
            .labelled_by(label.id);
            let typed = PathBuf::from(self.path_field.trim());
            let has_path = !self.path_field.trim().is_empty();
            if ui.add_enabled(has_path, egui::Button::new("Open path")).clicked() {
                self.open(typed.clone());
            }
            if ui.add_enabled(has_path, egui::Button::new("Save to path")).clicked() {
                self.save_as(typed);
            }
            ui.separator();
            let Some(tab) = self.tabs.get_mut(self.active) else { return };
            let (can_undo, can_redo) = tab.doc.can_undo();
            if ui.add_enabled(can_undo, egui::Button::new("Undo")).on_hover_text("Ctrl+Z").clicked() {
                tab.doc.undo();
            }
            if ui
                .add_enabled(can_redo, egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Shift+Z or Ctrl+Y")
                .clicked()
            {
                tab.doc.redo();
            }
            if ui.button("Frame all").on_hover_text("F over the canvas").clicked() {
                tab.frame_next = 1;
            }
            if ui
                .button("Arrange")
                .on_hover_text("Lay the states out in layers from the entry state (undoable)")
                .clicked()
                && tab.doc.arrange()
            {
                tab.frame_next = 1;
            }
            ui.separator();
            let label = ui.label("Find");
            let field = ui
                .add(egui::TextEdit::singleline(&mut self.find_field).desired_width(120.0).hint_text("state or parameter"))
                .labelled_by(label.id)
                .on_hover_text("Enter shows the next state whose name contains this, in any layer or sub-machine, or where a parameter is used");
            if field.changed() {
                self.find_next = 0;
            }
            if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                self.find();
                field.request_focus();
            }
        });
        // Tabs.
        ui.horizontal(|ui| {
            let mut close = None;
            for i in 0..self.tabs.len() {
                let title = self.tab_title(i);
                let full = self.tabs[i]
                    .doc
                    .path
                    .as_ref()
                    .map_or("not saved yet".into(), |p| p.display().to_string());
                if ui.selectable_label(i == self.active, &title).on_hover_text(full).clicked() {
                    self.active = i;
                }
                let x = ui.small_button("x").on_hover_text("Close (Ctrl+W)");
                crate::inspector::name_widget(ui, &x, &format!("Close {title}"));
                if x.clicked() {
                    close = Some(i);
                }
                ui.separator();
            }
            if let Some(i) = close {
                self.close(i);
            }
        });
        // The skeleton of the active tab (wrapping: a long "lacks clips" list must not push the
        // buttons off the window).
        ui.horizontal_wrapped(|ui| {
            let busy = self.dialogs.busy();
            let Some(tab) = self.tabs.get_mut(self.active) else { return };
            match &tab.character {
                Some(c) => {
                    ui.label(format!(
                        "Skeleton: {} ({}, {} bones, {} clips)",
                        c.name,
                        c.character.kind(),
                        c.bones.len(),
                        c.clips.len()
                    ));
                    let missing = c.missing_clips(&tab.doc.graph);
                    if !missing.is_empty() {
                        ui.colored_label(
                            egui::Color32::from_rgb(230, 200, 90),
                            format!("lacks clips: {}", missing.join(", ")),
                        );
                    }
                }
                None => {
                    ui.label("Skeleton: none (clips play as one-second placeholders)");
                }
            }
            let choose = ui.add_enabled(!busy, egui::Button::new("Choose skeleton...")).clicked();
            let label = ui.label("Skeleton path");
            ui.add(
                egui::TextEdit::singleline(&mut self.skeleton_field)
                    .desired_width(200.0)
                    .hint_text(".mskel / .glb"),
            )
            .labelled_by(label.id);
            let load = ui
                .add_enabled(!self.skeleton_field.trim().is_empty(), egui::Button::new("Load skeleton"))
                .clicked();
            let three_d = self
                .tabs
                .get(self.active)
                .and_then(|t| t.character.as_ref())
                .map(|c| (c.character.kind() == "3D", c.libraries.len()));
            let (add_library, add_clips, clear) = match three_d {
                Some((true, libraries)) => {
                    let pick = ui.add_enabled(!busy, egui::Button::new("Add clip library...")).clicked();
                    let typed = ui
                        .add_enabled(!self.skeleton_field.trim().is_empty(), egui::Button::new("Add clips"))
                        .on_hover_text(
                            "Add the glTF in the path field as a clip library (its joints match by name)",
                        )
                        .clicked();
                    let clear =
                        libraries > 0 && ui.button(format!("Remove clip libraries ({libraries})")).clicked();
                    (pick, typed, clear)
                }
                _ => (false, false, false),
            };
            if choose {
                self.dialogs.ask(Purpose::Skeleton, None);
            }
            if load {
                self.choose_skeleton(PathBuf::from(self.skeleton_field.trim()));
            }
            if add_library {
                self.dialogs.ask(Purpose::ClipLibrary, None);
            }
            if add_clips {
                self.add_clip_libraries(vec![PathBuf::from(self.skeleton_field.trim())]);
            }
            if clear {
                self.clear_clip_libraries();
            }
        });
        ui.label(self.status_line());
    }

    /// Tab `i`'s title: the file name (with `*` when unsaved), and its folder's name when
    /// another tab has a file of the same name.
    pub fn tab_title(&self, i: usize) -> String {
        let Some(doc) = self.tabs.get(i).map(|t| &t.doc) else { return String::new() };
        let name = |d: &Document| d.path.as_ref().and_then(|p| p.file_name()).map(|n| n.to_os_string());
        let mine = name(doc);
        let shared =
            mine.is_some() && self.tabs.iter().enumerate().any(|(j, t)| j != i && name(&t.doc) == mine);
        let folder = doc.path.as_ref().and_then(|p| p.parent()).and_then(|p| p.file_name());
        match (shared, folder) {
            (true, Some(folder)) => format!("{} ({})", doc.title(), folder.to_string_lossy()),
            _ => doc.title(),
        }
    }

    /// Shows the next state matching the Find field (switching layer and sub-machine, selected
    /// and framed), or says where a parameter of that name is used.
    pub fn find(&mut self) {
        let text = self.find_field.trim().to_string();
        let Some(tab) = self.tabs.get_mut(self.active) else { return };
        let found = tab.doc.find_states(&text);
        if let Some((shown, model)) = found.get(self.find_next % found.len().max(1)).cloned() {
            let n = found.len();
            let k = self.find_next % n + 1;
            self.find_next += 1;
            if tab.doc.reveal(&model) {
                tab.frame_next = 1;
                tab.doc.status = format!("{shown} ({k} of {n}; Enter for the next)");
            }
            return;
        }
        let parameter = tab
            .doc
            .graph
            .parameters
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(&text))
            .map(|p| p.name.clone());
        tab.doc.status = match parameter {
            Some(name) => {
                let uses = tab.doc.graph.parameter_references(&name);
                if uses.is_empty() {
                    format!("parameter {name} is not used")
                } else {
                    format!("parameter {name} is used by: {}", uses.join(", "))
                }
            }
            None => format!("no state or parameter named like \"{text}\""),
        };
    }

    /// The status line: an editor-wide message (a file that did not open, settings that did not
    /// save) until the next successful open, save or new graph, else the active tab's.
    pub fn status_line(&self) -> String {
        match self.tabs.get(self.active) {
            Some(t) if self.status.is_empty() => t.doc.status.clone(),
            _ => self.status.clone(),
        }
    }

    fn dialog_results(&mut self) {
        let Some((purpose, paths)) = self.dialogs.poll() else { return };
        if paths.is_empty() {
            self.status = "no file chosen (if no dialog appeared, this desktop has no file chooser: type a path in the Path field)".into();
            return;
        }
        self.status.clear();
        match purpose {
            Purpose::Open => {
                for p in paths {
                    self.open(p);
                }
            }
            Purpose::SaveAs => self.save_as(paths[0].clone()),
            Purpose::Skeleton => self.choose_skeleton(paths[0].clone()),
            Purpose::ClipLibrary => self.add_clip_libraries(paths),
        }
    }

    fn prompts(&mut self, ctx: &egui::Context) {
        // Work a crashed session left.
        if !self.recoverable.is_empty() {
            let count = self.recoverable.len();
            egui::Window::new("Recover unsaved work").collapsible(false).resizable(false).show(ctx, |ui| {
                ui.label(format!(
                    "The editor did not quit normally last time: {count} graph(s) had unsaved edits."
                ));
                ui.horizontal(|ui| {
                    if ui.button("Recover").clicked() {
                        self.recover_all();
                    }
                    if ui.button("Discard").clicked() {
                        self.discard_recovered();
                    }
                });
            });
        }
        // Closing a tab with unsaved changes.
        if let Some(i) = self.closing_tab {
            let title = self.tabs.get(i).map_or(String::new(), |t| t.doc.title());
            egui::Window::new("Unsaved changes").collapsible(false).resizable(false).show(ctx, |ui| {
                ui.label(format!("Save the changes to {title} before closing?"));
                ui.horizontal(|ui| {
                    if ui.button("Save and close").clicked() {
                        self.active = i;
                        self.save();
                        if self.tabs.get(i).is_some_and(|t| !t.doc.dirty()) {
                            self.close_now(i);
                        }
                        self.closing_tab = None;
                    }
                    if ui.button("Close without saving").clicked() {
                        self.close_now(i);
                        self.closing_tab = None;
                    }
                    if ui.button("Cancel").clicked() {
                        self.closing_tab = None;
                    }
                });
            });
        }
        // A file that changed on disk while it had unsaved edits here.
        let active = self.active;
        if let Some(tab) = self.tabs.get_mut(active) {
            if let Some(text) = tab.disk_change.clone() {
                let title = tab.doc.title();
                egui::Window::new("Changed on disk").collapsible(false).resizable(false).show(ctx, |ui| {
                    ui.label(format!("{title} changed on disk, and it has unsaved edits here."));
                    ui.horizontal(|ui| {
                        if ui
                            .button("Reload from disk")
                            .on_hover_text("Ctrl+Z brings your edits back")
                            .clicked()
                        {
                            if let Err(e) = tab.doc.reload_from(text.clone()) {
                                tab.doc.status = e;
                            }
                            tab.disk_change = None;
                        }
                        if ui.button("Keep my version").clicked() {
                            tab.doc.keep_over_disk(text.clone());
                            tab.disk_change = None;
                        }
                    });
                });
            }
        }
        // Quitting with unsaved changes.
        if ctx.input(|i| i.viewport().close_requested())
            && self.tabs.iter().any(|t| t.doc.dirty())
            && !self.quitting
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.quitting = true;
        }
        if self.quitting {
            egui::Window::new("Quit").collapsible(false).resizable(false).show(ctx, |ui| {
                let dirty: Vec<String> =
                    self.tabs.iter().filter(|t| t.doc.dirty()).map(|t| t.doc.title()).collect();
                ui.label(format!("Unsaved changes in: {}", dirty.join(", ")));
                ui.horizontal(|ui| {
                    if ui.button("Save all and quit").clicked() {
                        let mut failed = false;
                        for t in &mut self.tabs {
                            if t.doc.dirty() && t.doc.save().is_err() {
                                failed = true;
                            }
                        }
                        if failed {
                            self.status =
                                "some graphs have no file yet: save them with Save as, then quit".into();
                            self.quitting = false;
                        } else {
                            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                        }
                    }
                    if ui.button("Quit without saving").clicked() {
                        // Discarded on purpose: no recovery files either.
                        if let Some(recovery) = &self.recovery {
                            for tab in &self.tabs {
                                recovery.remove(tab.recovery_key);
                            }
                        }
                        self.tabs.clear();
                        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                    if ui.button("Cancel").clicked() {
                        self.quitting = false;
                    }
                });
            });
        }
    }

    /// Reloads clean tabs whose file changed on disk; flags dirty ones for the prompt.
    fn watch_files(&mut self) {
        for tab in &mut self.tabs {
            if tab.disk_change.is_some() {
                continue;
            }
            let Some(text) = tab.doc.changed_on_disk() else { continue };
            if tab.doc.dirty() {
                tab.disk_change = Some(text);
            } else if let Err(e) = tab.doc.reload_from(text) {
                tab.doc.status = e;
            }
        }
    }

    /// One frame of the whole editor (separate from `eframe::App` so tests and benchmarks can
    /// drive it).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.autosave(std::time::Instant::now());
        // The Play command is remembered once it is no longer being typed.
        if self.settings.game_command != self.debugger.command && ctx.memory(|m| m.focused().is_none()) {
            self.settings.game_command = self.debugger.command.clone();
            self.save_settings();
        }
        self.dialog_results();
        self.watch_files();
        self.shortcuts(&ctx);
        self.prompts(&ctx);
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        if self.tabs.is_empty() {
            return;
        }
        self.active = self.active.min(self.tabs.len() - 1);
        self.debugger.poll();
        let debugger = &mut self.debugger;
        let idle = !ctx.input(|i| i.pointer.any_down()) && ctx.memory(|m| m.focused().is_none());
        let Tab {
            doc,
            view,
            live,
            character,
            preview,
            blend_editor,
            timeline,
            frame_next,
            framed,
            game_tick,
            ..
        } = &mut self.tabs[self.active];
        if framed.0 != doc.layer || framed.1 != doc.nesting {
            *framed = (doc.layer, doc.nesting.clone());
            *frame_next = (*frame_next).max(1);
        }
        if idle {
            doc.break_coalescing();
        }
        live.sync(doc);
        let attached = debugger.shows(&doc.graph.uid);
        // An attached game that streams its samples poses the preview (the editor's own player
        // waits meanwhile); else the editor's player runs.
        let game_poses = attached && debugger.last_pose.is_some() && live.has_character();
        if game_poses {
            if let (Some(frame), Some((samples, layer_infos))) = (&debugger.last, &debugger.last_pose) {
                if *game_tick != Some(frame.tick) && timeline.cursor.is_none() {
                    *game_tick = Some(frame.tick);
                    live.pose_frame(&animgraph_runtime::recording::RecordedFrame {
                        time: 0.0,
                        frame: frame.clone(),
                        samples: samples.clone(),
                        layer_infos: layer_infos.clone(),
                    });
                }
            }
        } else {
            *game_tick = None;
            live.step(ctx.input(|i| i.stable_dt).min(0.1));
        }
        if live.running || debugger.connected() {
            ctx.request_repaint();
        } else {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
        match (&debugger.attached, &debugger.last) {
            (Some(a), Some(frame)) if attached => {
                timeline.record_stream(doc, &a.name, &debugger.layers, frame, debugger.last_pose.as_ref())
            }
            // The game went away: its recording stays to be scrubbed (the preview's own frames
            // are not recorded over it) until it comes back or the editor disconnects.
            _ if debugger.awaiting() && timeline.is_game() => {}
            _ => timeline.record_preview(doc, live),
        }
        let scrubbing = timeline.cursor.is_some();
        // Explain mode's word on the last frame, for the shown layer (the game's when attached,
        // the recorded one while scrubbing).
        let layer_name = doc.graph.layers.get(doc.layer).map_or(String::new(), |l| l.name.clone());
        let explain: Option<(animgraph_runtime::frame::ExplainRecord, usize)> = if scrubbing {
            let frame = timeline.scrubbed().and_then(|f| f.frame.explain.clone());
            frame.zip(timeline.layer_index(&layer_name))
        } else if attached {
            let index = debugger.layers.iter().position(|l| *l == layer_name);
            debugger.last.as_ref().and_then(|f| f.explain.clone()).zip(index)
        } else {
            live.explain().map(|r| (r, doc.layer))
        };
        let explain_ref = explain.as_ref().map(|(r, l)| (r, *l));
        egui::Panel::bottom("timeline").show(ui, |ui| crate::timeline::show(ui, timeline, live, doc));
        egui::Panel::left("parameters").default_size(300.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                crate::parameters::panel(ui, doc);
                if let Some(c) = character.as_ref() {
                    ui.separator();
                    clip_list(ui, c);
                }
                ui.separator();
                if let Some(frame) = timeline.scrubbed() {
                    crate::debug::parameters(ui, &frame.frame, "Recorded values (read-only)");
                } else if let (true, Some(frame)) = (attached, &debugger.last) {
                    crate::debug::parameters(ui, frame, "Live values (read-only)");
                } else {
                    crate::parameters::live_controls(ui, doc, live);
                }
                ui.separator();
                crate::debug::panel(ui, debugger, &doc.graph.uid);
            });
        });
        egui::Panel::right("inspector").default_size(330.0).size_range(240.0..=520.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                if character.is_some() {
                    let title = if game_poses {
                        "Preview (the game's character, live)"
                    } else if attached {
                        "Preview (the editor's own player: the game streams no samples)"
                    } else {
                        "Preview"
                    };
                    egui::CollapsingHeader::new(title).id_salt("preview").default_open(true).show(ui, |ui| {
                        let key = match (timeline.cursor, *game_tick) {
                            (Some(c), _) => (1 << 63) | c as u64,
                            (None, Some(t)) => (1 << 62) | t,
                            (None, None) => live.player().map_or(0, |p| p.tick()),
                        };
                        crate::preview::show(ui, live, preview, character.as_ref(), key);
                    });
                    ui.separator();
                }
                crate::inspector::show(ui, doc, character.as_ref(), explain_ref)
            });
        });
        egui::Panel::bottom("problems").default_size(130.0).show(ui, |ui| {
            egui::Panel::right("events").default_size(360.0).show(ui, |ui| {
                if attached {
                    crate::preview::log_lines(ui, "Live events", &debugger.events);
                } else {
                    crate::preview::log_lines(ui, "Events", &live.events);
                }
            });
            let issues = doc.problems().to_vec();
            let facts = character.as_ref().map(CharacterInfo::facts);
            let findings = doc.lint(facts.as_ref()).to_vec();
            ui.heading(format!("Problems ({})", issues.len() + findings.len()));
            egui::ScrollArea::vertical().show(ui, |ui| {
                // One list of the runtime's findings: lint's, then validation's.
                for f in findings.into_iter().chain(issues) {
                    let colour = if f.severity == Severity::Error {
                        egui::Color32::from_rgb(240, 110, 100)
                    } else {
                        egui::Color32::from_rgb(230, 200, 90)
                    };
                    let line = if f.subject.is_empty() {
                        format!("{}: {}", f.path, f.message)
                    } else {
                        format!("{} {}: {}: {}", f.code, f.code.name(), f.subject, f.message)
                    };
                    let hover = if f.fix.is_empty() {
                        "Show it on the canvas".to_string()
                    } else {
                        format!("fix: {}", f.fix)
                    };
                    if ui.link(egui::RichText::new(line).color(colour)).on_hover_text(hover).clicked() {
                        doc.reveal(&f.path);
                    }
                }
            });
        });
        if let Some(editor) = blend_editor {
            let clips: Vec<String> = match character {
                Some(c) => c.clips.iter().map(|c| c.name.clone()).collect(),
                None => doc.graph.clip_names(),
            };
            // Docked under the canvas (it used to float over it).
            let mut open = true;
            egui::Panel::bottom("blend-space").resizable(true).default_size(400.0).show(ui, |ui| {
                open = crate::blend_editor::show(ui, editor, doc, live, &clips);
            });
            if !open {
                *blend_editor = None;
            }
        }
        egui::CentralPanel::default().show(ui, |ui| {
            layer_tabs(ui, doc, frame_next);
            breadcrumb(ui, doc);
            if *frame_next > 0 {
                if let Some(m) = doc.machine() {
                    canvas::frame_all(view, m, ui.available_size(), !doc.nesting.is_empty());
                }
                *frame_next -= 1;
            }
            if attached {
                let name = debugger.attached.as_ref().map_or(String::new(), |a| a.name.clone());
                let game = debugger.game.clone().unwrap_or_default();
                ui.horizontal(|ui| {
                    ui.label(
                        egui::RichText::new(format!("LIVE: {name} in {game}, read-only"))
                            .strong()
                            .color(egui::Color32::from_rgb(255, 150, 60)),
                    );
                    if ui.button("Detach").clicked() {
                        debugger.detach();
                    }
                });
            }
            let playback = if scrubbing {
                timeline.playback(&layer_name).unwrap_or_default()
            } else if attached {
                debugger.playback(&layer_name).unwrap_or_default()
            } else {
                live.playback(doc.layer)
            };
            let output = canvas::show(ui, doc, view, &playback, explain_ref);
            if let Some(i) = output.open_blend_space {
                doc.selection = Selection::state(i);
                *blend_editor = Some(crate::blend_editor::BlendEditor::new(doc, i));
            }
        });
    }
}

/// Layer tabs: click to show, right-click to move or remove; `+ Layer` adds one.
fn layer_tabs(ui: &mut egui::Ui, doc: &mut Document, frame_next: &mut u8) {
    ui.horizontal(|ui| {
        let count = doc.graph.layers.len();
        for i in 0..count {
            let name = doc.graph.layers[i].name.clone();
            let response = ui.selectable_label(i == doc.layer, &name);
            if response.clicked() {
                doc.show_layer(i);
                *frame_next = 1;
            }
            response.context_menu(|ui| {
                if i > 0 && ui.button("Move left").clicked() {
                    doc.move_layer(i, i - 1);
                    ui.close();
                }
                if i + 1 < count && ui.button("Move right").clicked() {
                    doc.move_layer(i, i + 1);
                    ui.close();
                }
                if count > 1 && ui.button("Remove layer").clicked() {
                    doc.remove_layer(i);
                    ui.close();
                }
            });
        }
        if ui.button("+ Layer").clicked() {
            doc.add_layer();
            *frame_next = 1;
        }
        if count > 1 {
            let layer = doc.layer;
            if layer > 0 && ui.small_button("<").on_hover_text("Move this layer left (blend order)").clicked()
            {
                doc.move_layer(layer, layer - 1);
            }
            if layer + 1 < count
                && ui.small_button(">").on_hover_text("Move this layer right (blend order)").clicked()
            {
                doc.move_layer(layer, layer + 1);
            }
            if ui.button("- Layer").on_hover_text("Remove this layer").clicked() {
                doc.remove_layer(layer);
                *frame_next = 1;
            }
        }
    });
}

/// The layer's name, then each entered sub-machine; clicking one goes back to it.
fn breadcrumb(ui: &mut egui::Ui, doc: &mut Document) {
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
            let name =
                doc.machine().and_then(|m| m.states.get(index)).map_or(String::new(), |s| s.name.clone());
            doc.nesting = saved;
            if ui.link(name).clicked() {
                doc.nesting.truncate(depth + 1);
                doc.selection = Selection::None;
            }
        }
    });
}

impl eframe::App for Editor {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        // Panels are not filled: the window is cleared to their colour instead (below), which
        // saves filling every pixel once more each frame (most of a frame's cost on software GL).
        if ui.visuals().panel_fill != egui::Color32::TRANSPARENT {
            self.panel_colour = ui.visuals().panel_fill;
            ui.ctx().global_style_mut(|style| style.visuals.panel_fill = egui::Color32::TRANSPARENT);
        }
        self.show(ui);
        if let Some(meter) = &mut self.frame_meter {
            // Measuring: every frame is drawn, idle or not, so the figure is the throughput.
            ui.ctx().request_repaint();
            if let Some(line) = meter.tick(std::time::Instant::now()) {
                eprintln!("{line}");
            }
        }
    }

    fn clear_color(&self, _visuals: &egui::Visuals) -> [f32; 4] {
        self.panel_colour.to_normalized_gamma_f32()
    }
}

/// Frames per second of the real window, printed once a second when `ANIMGRAPH_EDITOR_FPS` is
/// set (for measuring the editor under a given GL, e.g. software GL under Xvfb). The editor then
/// draws continuously, so the figure is how many frames a second it can draw.
#[derive(Debug)]
pub struct FrameMeter {
    since: Option<std::time::Instant>,
    frames: u32,
}

impl FrameMeter {
    /// A meter when the environment asks for one.
    pub fn from_env() -> Option<FrameMeter> {
        std::env::var_os("ANIMGRAPH_EDITOR_FPS").map(|_| FrameMeter { since: None, frames: 0 })
    }

    /// Counts a frame ending at `now`; a line to print when a second has passed.
    pub fn tick(&mut self, now: std::time::Instant) -> Option<String> {
        let since = *self.since.get_or_insert(now);
        self.frames += 1;
        let elapsed = now.duration_since(since).as_secs_f64();
        if elapsed < 1.0 {
            return None;
        }
        let frames = f64::from(self.frames - 1);
        let line =
            format!("fps {:.1} ({:.2} ms a frame)", frames / elapsed, elapsed * 1000.0 / frames.max(1.0));
        self.since = Some(now);
        self.frames = 1;
        Some(line)
    }
}

/// Runs the editor window on these files.
pub fn run(paths: Vec<PathBuf>) -> eframe::Result {
    let (settings, message) = Settings::load(crate::settings::default_file());
    animgraph_runtime::files::allow_paths_outside(settings.allow_outside_paths);
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("animgraph editor"),
        ..Default::default()
    };
    eframe::run_native(
        "animgraph editor",
        options,
        Box::new(move |_cc| {
            let mut editor = Editor::new(paths, settings);
            if let Some(m) = message {
                editor.status = m;
            }
            Ok(Box::new(editor))
        }),
    )
}

impl Drop for Editor {
    /// Quitting (with or without saving) leaves no recovery files: only a crash does.
    fn drop(&mut self) {
        if let Some(recovery) = &self.recovery {
            for tab in &self.tabs {
                recovery.remove(tab.recovery_key);
            }
        }
    }
}
