//! The preview pane: the chosen skeleton posed by the live player, with playback controls.
//! Drag to orbit a 3D character, scroll to zoom; 2D characters pan nowhere and zoom.

use eframe::egui;

use crate::character::CharacterInfo;
use crate::live::Live;

/// The preview's camera, the character's texture pages on the GPU, and the triangles of its
/// last pose. The picture is drawn by the GPU each frame from egui meshes (the CPU only skins
/// and projects); triangles are rebuilt only when the pose or the view changes.
#[derive(Default)]
pub struct Preview {
    /// How the character is drawn.
    pub view: animgraph_character::View,
    /// The character's pages as egui textures, and the character version they belong to.
    pages: Option<(u64, Vec<Option<egui::TextureHandle>>)>,
    /// The last pose's triangles, in `view` units (points).
    triangles: animgraph_character::Triangles,
    scratch: animgraph_character::TriangleScratch,
    /// What the triangles show: (key, view).
    drawn: Option<(u64, animgraph_character::View, egui::Pos2)>,
    /// The egui meshes made from them, placed on screen (rebuilt with them, or when the pane
    /// moves); handed to egui by reference count each frame, not copied.
    meshes: Vec<std::sync::Arc<egui::Mesh>>,
}

/// The preview's background (as the CPU renderer's).
const BACKGROUND: egui::Color32 = egui::Color32::from_rgb(41, 43, 51);

impl Preview {
    /// How many triangles the last drawn pose has (tests, benchmarks).
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// Uploads the character's pages once per character.
    fn upload_pages(&mut self, ctx: &egui::Context, live: &Live, character: &CharacterInfo) {
        let version = live.character_version();
        if self.pages.as_ref().is_some_and(|(v, _)| *v == version) {
            return;
        }
        let pages = character
            .character
            .pages()
            .into_iter()
            .enumerate()
            .map(|(i, page)| {
                let page = page?;
                let size = [page.width as usize, page.height as usize];
                let image = if page.premultiplied {
                    egui::ColorImage::from_rgba_premultiplied(size, &page.rgba)
                } else {
                    egui::ColorImage::from_rgba_unmultiplied(size, &page.rgba)
                };
                let wrap = if page.repeat {
                    egui::TextureWrapMode::Repeat
                } else {
                    egui::TextureWrapMode::ClampToEdge
                };
                let options = egui::TextureOptions { wrap_mode: wrap, ..egui::TextureOptions::LINEAR };
                Some(ctx.load_texture(format!("preview-page-{version}-{i}"), image, options))
            })
            .collect();
        self.pages = Some((version, pages));
        self.drawn = None;
    }

    /// Rebuilds the egui meshes (at `origin`) from the triangles: one mesh per run, flat runs
    /// on egui's white texel.
    fn build_meshes(&mut self, origin: egui::Pos2) {
        self.meshes.clear();
        let pages = self.pages.as_ref().map(|(_, p)| p.as_slice()).unwrap_or(&[]);
        for run in &self.triangles.runs {
            let texture = run.page.and_then(|p| pages.get(p as usize)).and_then(Option::as_ref);
            let mut mesh = match texture {
                Some(t) => egui::Mesh::with_texture(t.id()),
                None => egui::Mesh::default(),
            };
            let corners = &self.triangles.vertices[run.first as usize..(run.first + run.count) as usize];
            for (i, v) in corners.iter().enumerate() {
                let uv = match texture {
                    Some(_) => egui::pos2(v.uv[0], v.uv[1]),
                    None => egui::epaint::WHITE_UV,
                };
                let [r, g, b, a] = v.color;
                mesh.vertices.push(egui::epaint::Vertex {
                    pos: origin + egui::vec2(v.position[0], v.position[1]),
                    uv,
                    color: egui::Color32::from_rgba_premultiplied(r, g, b, a),
                });
                mesh.indices.push(i as u32);
            }
            self.meshes.push(std::sync::Arc::new(mesh));
        }
    }
}

/// Playback controls: play/pause, one frame, restart, speed.
pub fn controls(ui: &mut egui::Ui, live: &mut Live) {
    ui.horizontal(|ui| {
        let label = if live.running { "Pause" } else { "Play" };
        if ui.button(label).on_hover_text("Space over the preview").clicked() {
            live.running = !live.running;
        }
        if ui
            .add_enabled(!live.running, egui::Button::new("Step"))
            .on_hover_text("One frame (1/60 s)")
            .clicked()
        {
            live.step_one_frame();
        }
        if ui.button("Restart").clicked() {
            live.restart();
        }
    });
    // On a row of its own, so the side panel stays narrow and the canvas wide.
    ui.horizontal(|ui| {
        // "Playback", not "speed": graphs have speed parameters listed right below.
        let label = ui.label("Playback").on_hover_text("How fast the preview runs (1 = real time)");
        ui.add(egui::Slider::new(&mut live.speed, 0.05..=2.0).logarithmic(true).max_decimals(2).suffix("x"))
            .labelled_by(label.id);
    });
}

/// The pane: the picture and its view options (playback controls are in the Live section).
/// `key` says what is shown (the live tick, or a scrubbed frame): the picture is redrawn only
/// when it or the view changes.
pub fn show(
    ui: &mut egui::Ui,
    live: &mut Live,
    preview: &mut Preview,
    character: Option<&CharacterInfo>,
    key: u64,
) {
    let Some(character) = character else {
        ui.weak("Choose a skeleton (toolbar) to see the character here.");
        return;
    };
    if !live.has_character() {
        let why = live.error.as_deref().unwrap_or("it has not bound yet");
        ui.colored_label(egui::Color32::from_rgb(230, 120, 100), format!("Nothing to play: {why}"));
        return;
    }
    if live.stale() {
        // Banner: the picture is of the last version that bound.
        ui.colored_label(
            egui::Color32::from_rgb(230, 170, 90),
            "Showing the last version that played: fix the graph (see Problems) to see this one.",
        );
    }
    ui.horizontal(|ui| {
        ui.checkbox(&mut preview.view.bones, "bones");
        if ui.small_button("Reset view").clicked() {
            let bones = preview.view.bones;
            preview.view = animgraph_character::View { bones, ..Default::default() };
        }
        ui.weak(if character.character.kind() == "3D" {
            "drag to orbit, scroll to zoom"
        } else {
            "scroll to zoom"
        });
    });
    let side = ui.available_width().clamp(120.0, 420.0);
    // The view in points: the GPU draws at the screen's resolution, smoothed by egui's
    // feathering-free meshes (no supersampling needed).
    preview.view.width = side.round() as u32;
    preview.view.height = side.round() as u32;
    preview.upload_pages(ui.ctx(), live, character);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "Character preview"));
    if preview.drawn != Some((key, preview.view, rect.min))
        && live.triangles(&preview.view, &mut preview.scratch, &mut preview.triangles)
    {
        preview.build_meshes(rect.min);
        preview.drawn = Some((key, preview.view, rect.min));
    }
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, BACKGROUND);
    for mesh in &preview.meshes {
        painter.add(egui::Shape::mesh(std::sync::Arc::clone(mesh)));
    }
    let offset = rect.min.to_vec2();
    let bone = egui::Stroke::new(1.5, egui::Color32::from_rgba_unmultiplied(255, 204, 51, 230));
    for (from, to) in &preview.triangles.lines {
        let (a, b) = (egui::pos2(from[0], from[1]) + offset, egui::pos2(to[0], to[1]) + offset);
        painter.line_segment([a, b], bone);
        painter.circle_filled(a, 2.5, bone.color);
    }
    if response.dragged() {
        let d = response.drag_delta();
        preview.view.yaw -= d.x * 0.01;
        preview.view.pitch = (preview.view.pitch + d.y * 0.01).clamp(-1.2, 1.2);
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            preview.view.zoom = (preview.view.zoom * (scroll * 0.002).exp()).clamp(0.3, 6.0);
        }
        if ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Space)) {
            live.running = !live.running;
        }
    }
}

/// An event log: signals and clip events, newest at the bottom.
pub fn log_lines(ui: &mut egui::Ui, title: &str, lines: &std::collections::VecDeque<String>) {
    ui.heading(format!("{title} ({})", lines.len()));
    egui::ScrollArea::vertical().id_salt("event-log").stick_to_bottom(true).auto_shrink([false, false]).show(
        ui,
        |ui| {
            for line in lines {
                ui.monospace(line);
            }
        },
    );
}
