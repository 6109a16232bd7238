//! The preview pane: the chosen skeleton posed by the live player, with playback controls.
//! Drag to orbit a 3D character, scroll to zoom; 2D characters pan nowhere and zoom.

use eframe::egui;

use crate::character::CharacterInfo;
use crate::live::Live;

/// The preview's camera and its last picture.
#[derive(Default)]
pub struct Preview {
    /// How the character is drawn.
    pub view: animgraph_character::View,
    texture: Option<egui::TextureHandle>,
    /// What the texture shows: (tick, view), so a paused preview is not redrawn every frame.
    drawn: Option<(u64, animgraph_character::View)>,
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
    let pixels = (side * ui.ctx().pixels_per_point()).round() as u32;
    preview.view.width = pixels;
    preview.view.height = pixels;
    let tick = key;
    if preview.drawn != Some((tick, preview.view)) || preview.texture.is_none() {
        if let Some(picture) = live.render(&preview.view) {
            let image = egui::ColorImage::from_rgba_premultiplied(
                [picture.width() as usize, picture.height() as usize],
                picture.data(),
            );
            match &mut preview.texture {
                Some(t) => t.set(image, egui::TextureOptions::LINEAR),
                None => {
                    preview.texture =
                        Some(ui.ctx().load_texture("preview", image, egui::TextureOptions::LINEAR))
                }
            }
            preview.drawn = Some((tick, preview.view));
        }
    }
    let Some(texture) = &preview.texture else { return };
    let response =
        ui.add(egui::Image::new((texture.id(), egui::vec2(side, side))).sense(egui::Sense::click_and_drag()));
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "Character preview"));
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
