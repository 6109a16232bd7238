//! The game's window: every character drawn by the CPU renderers into a tile, with its name and
//! state, and the game's log.

use std::time::Instant;

use eframe::egui;

use super::{DT, Game};

struct App {
    game: Game,
    frames: u64,
    textures: Vec<Option<egui::TextureHandle>>,
    last: Instant,
    behind: f32,
}

/// Opens the window; the game steps at 60 Hz whatever the display's rate.
pub fn run(game: Game, frames: u64) -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1100.0, 760.0])
            .with_title("animgraph arena"),
        ..Default::default()
    };
    let textures = game.actors.iter().map(|_| None).collect();
    eframe::run_native(
        "animgraph arena",
        options,
        Box::new(move |_cc| Ok(Box::new(App { game, frames, textures, last: Instant::now(), behind: 0.0 }))),
    )
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        // Fixed steps, at most 4 per drawn frame so a slow machine slows down instead of piling up.
        let now = Instant::now();
        self.behind = (self.behind + (now - self.last).as_secs_f32()).min(4.0 * DT);
        self.last = now;
        while self.behind >= DT {
            self.game.step();
            self.behind -= DT;
        }
        if self.frames > 0 && self.game.frame >= self.frames {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        egui::Panel::top("status").show(ui, |ui| {
            let link = match &self.game.link {
                Some(l) => {
                    let s = l.stats();
                    format!(
                        "link on {} ({} editors, {} lines sent, {} dropped)",
                        l.local_addr(),
                        s.clients,
                        s.sent,
                        s.dropped
                    )
                }
                None => "no link".into(),
            };
            ui.label(format!("frame {} | {} characters | {link}", self.game.frame, self.game.actors.len()));
        });
        egui::Panel::bottom("log").default_size(120.0).show(ui, |ui| {
            egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
                for line in &self.game.log {
                    ui.monospace(line);
                }
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            let n = self.game.actors.len().max(1);
            let columns = (n as f32).sqrt().ceil() as usize;
            let rows = n.div_ceil(columns);
            let size = ui.available_size();
            let tile = (size.x / columns as f32).min(size.y / rows as f32 - 20.0).max(60.0);
            let pixels = (tile * ctx.pixels_per_point()) as u32;
            egui::Grid::new("tiles").num_columns(columns).spacing([0.0, 0.0]).show(ui, |ui| {
                for (i, actor) in self.game.actors.iter().enumerate() {
                    ui.vertical(|ui| {
                        let view =
                            animgraph_character::View { width: pixels, height: pixels, ..Default::default() };
                        let picture = actor.instance.render(&view);
                        let image = egui::ColorImage::from_rgba_premultiplied(
                            [picture.width() as usize, picture.height() as usize],
                            picture.data(),
                        );
                        let texture = match &mut self.textures[i] {
                            Some(t) => {
                                t.set(image, egui::TextureOptions::LINEAR);
                                t.clone()
                            }
                            slot => slot
                                .insert(ctx.load_texture(
                                    format!("actor-{i}"),
                                    image,
                                    egui::TextureOptions::LINEAR,
                                ))
                                .clone(),
                        };
                        ui.image((texture.id(), egui::vec2(tile, tile)));
                        let state = actor.instance.player().current_state_path(0).unwrap_or("?");
                        ui.label(format!("{}: {state}", actor.name));
                    });
                    if (i + 1) % columns == 0 {
                        ui.end_row();
                    }
                }
            });
        });
        ctx.request_repaint();
    }
}
