//! Record and scrub: the editor keeps the last minute of the preview (or of the attached game)
//! in a ring; dragging the timeline pauses and shows that frame everywhere: the canvas, the
//! parameter values, the explanation and, in the preview, the character's pose. Recordings save
//! to and open from JSON Lines files (`animgraph simulate --record` writes the same), so a
//! session can go with a bug report.

use std::path::PathBuf;

use animgraph_runtime::frame::{LayerInfoRecord, PlayerFrame, SampleRecord};
use animgraph_runtime::recording::{RecordedFrame, Recording, RecordingHeader};
use eframe::egui;

use crate::document::Document;
use crate::live::{Live, Playback};

/// Frames the ring keeps (a minute at 60 frames a second).
pub const RING_FRAMES: usize = 3600;

/// Where the frames come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The editor's own player.
    Preview,
    /// An attached game's character (no samples: no pose to show).
    Game(String),
    /// A recording file.
    File(PathBuf),
}

/// The timeline of one tab.
pub struct Timeline {
    /// The frames.
    pub recording: Recording,
    /// Where they come from.
    pub source: Source,
    /// Record while playing.
    pub recording_on: bool,
    /// The frame shown while scrubbing (`None`: live).
    pub cursor: Option<usize>,
    /// The path field for save and open.
    pub path_field: String,
    /// The last message.
    pub status: String,
    last_tick: Option<u64>,
    started: std::time::Instant,
}

impl Timeline {
    /// An empty timeline for a document.
    pub fn new(doc: &Document) -> Timeline {
        Timeline {
            recording: Recording::new(header(doc, "editor preview", Vec::new()), RING_FRAMES),
            source: Source::Preview,
            recording_on: true,
            cursor: None,
            path_field: String::new(),
            status: String::new(),
            last_tick: None,
            started: std::time::Instant::now(),
        }
    }

    /// The frame being scrubbed.
    pub fn scrubbed(&self) -> Option<&RecordedFrame> {
        self.recording.get(self.cursor?)
    }

    fn restart(&mut self, doc: &Document, source: Source, layers: Vec<String>) {
        let name = match &source {
            Source::Game(name) => name.clone(),
            _ => "editor preview".into(),
        };
        self.recording = Recording::new(header(doc, &name, layers), RING_FRAMES);
        self.source = source;
        self.cursor = None;
        self.last_tick = None;
        self.started = std::time::Instant::now();
    }

    /// Whether the recording is of a game character.
    pub fn is_game(&self) -> bool {
        matches!(self.source, Source::Game(_))
    }

    /// After the live player stepped: keeps its frame when the tick moved.
    pub fn record_preview(&mut self, doc: &Document, live: &Live) {
        if !self.recording_on || self.cursor.is_some() || matches!(self.source, Source::File(_)) {
            return;
        }
        if self.source != Source::Preview {
            self.restart(doc, Source::Preview, live.layer_names().to_vec());
        }
        let Some(tick) = live.player().map(|p| p.tick()) else { return };
        if self.last_tick == Some(tick) {
            return;
        }
        if self.last_tick.is_some_and(|t| tick < t) {
            // Restarted: a new recording.
            self.restart(doc, Source::Preview, live.layer_names().to_vec());
        }
        if self.recording.header.layers.is_empty() {
            self.recording.header.layers = live.layer_names().to_vec();
        }
        self.last_tick = Some(tick);
        if let Some(frame) = live.record(self.started.elapsed().as_secs_f32()) {
            self.recording.push(frame);
        }
    }

    /// A frame streamed from an attached game.
    /// `pose` is the frame's samples and layer infos when the game streams them (then the
    /// recording poses the preview when scrubbed, as the preview's own does).
    pub fn record_stream(
        &mut self,
        doc: &Document,
        name: &str,
        layers: &[String],
        frame: &PlayerFrame,
        pose: Option<&(Vec<SampleRecord>, Vec<LayerInfoRecord>)>,
    ) {
        if !self.recording_on || self.cursor.is_some() || matches!(self.source, Source::File(_)) {
            return;
        }
        if self.source != Source::Game(name.to_string()) {
            self.restart(doc, Source::Game(name.to_string()), layers.to_vec());
        }
        if self.last_tick.is_some_and(|t| frame.tick <= t) {
            return;
        }
        self.last_tick = Some(frame.tick);
        let time = self.started.elapsed().as_secs_f32();
        let (samples, layer_infos) = pose.cloned().unwrap_or_default();
        self.recording.push(RecordedFrame { time, frame: frame.clone(), samples, layer_infos });
    }

    /// Goes to a recorded frame (pausing the live player) and poses the preview like it.
    pub fn scrub_to(&mut self, index: usize, live: &mut Live) {
        if self.recording.is_empty() {
            return;
        }
        let index = index.min(self.recording.len() - 1);
        self.cursor = Some(index);
        live.running = false;
        if self.recording.get(index).is_some_and(|frame| !frame.samples.is_empty()) {
            live.pose_recorded(&self.recording, index);
        }
    }

    /// Back to the live player.
    pub fn go_live(&mut self, live: &mut Live, doc: &Document) {
        self.cursor = None;
        if matches!(self.source, Source::File(_)) {
            self.restart(doc, Source::Preview, live.layer_names().to_vec());
        }
        live.running = true;
    }

    /// What a layer (by name) played at the scrubbed frame.
    pub fn playback(&self, layer: &str) -> Option<Playback> {
        let frame = self.scrubbed()?;
        let index = self.recording.header.layers.iter().position(|l| l == layer)?;
        frame.frame.layers.get(index).map(Playback::of_record)
    }

    /// The index of a layer (by name) in the recording.
    pub fn layer_index(&self, layer: &str) -> Option<usize> {
        self.recording.header.layers.iter().position(|l| l == layer)
    }

    /// Saves the recording.
    pub fn save(&mut self, path: PathBuf) {
        match self.recording.save(&path) {
            Ok(()) => self.status = format!("saved {} frames to {}", self.recording.len(), path.display()),
            Err(e) => self.status = format!("cannot save: {e}"),
        }
    }

    /// Opens a recording file and shows its first frame.
    pub fn open(&mut self, path: PathBuf, doc: &Document, live: &mut Live) {
        match Recording::load(&path) {
            Ok(recording) => {
                let other = recording.header.graph_uid != doc.graph.uid;
                self.status = format!(
                    "opened {} frames from {} ({}){}",
                    recording.len(),
                    path.display(),
                    recording.header.source,
                    if other {
                        "; it was recorded from another graph, so states may not match the canvas"
                    } else {
                        ""
                    }
                );
                self.recording = recording;
                self.source = Source::File(path);
                self.scrub_to(0, live);
            }
            Err(e) => self.status = format!("cannot open {}: {e}", path.display()),
        }
    }
}

fn header(doc: &Document, source: &str, layers: Vec<String>) -> RecordingHeader {
    let path = doc.path.as_ref().map(|p| p.display().to_string());
    RecordingHeader::new(&doc.graph.uid, path.as_deref(), source, layers)
}

/// The timeline strip: record toggle, the slider over the recorded frames, live, save, open.
pub fn show(ui: &mut egui::Ui, timeline: &mut Timeline, live: &mut Live, doc: &Document) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut timeline.recording_on, "Record");
        let n = timeline.recording.len();
        let seconds = match (timeline.recording.frames().front(), timeline.recording.frames().back()) {
            (Some(a), Some(b)) => b.time - a.time,
            _ => 0.0,
        };
        let what = match &timeline.source {
            Source::Preview => "preview".to_string(),
            Source::Game(name) => format!("live: {name}"),
            Source::File(p) => p.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned()),
        };
        ui.label(format!("{n} frames, {seconds:.1} s ({what})"));
        if n > 0 {
            let mut index = timeline.cursor.unwrap_or(n - 1);
            let label = ui.label("frame");
            // What follows the slider on this row: the step buttons, "Back to live" while
            // scrubbing, the recording file's field and buttons.
            let after = if timeline.cursor.is_some() { 690.0 } else { 580.0 };
            let width = (ui.available_width() - after).max(120.0);
            ui.spacing_mut().slider_width = width;
            let slider =
                ui.add(egui::Slider::new(&mut index, 0..=n - 1).show_value(true)).labelled_by(label.id);
            if slider.changed() {
                timeline.scrub_to(index, live);
            }
            if ui
                .add_enabled(timeline.cursor.is_some_and(|c| c > 0), egui::Button::new("<"))
                .on_hover_text("Previous frame")
                .clicked()
            {
                timeline.scrub_to(index.saturating_sub(1), live);
            }
            if ui
                .add_enabled(timeline.cursor.is_some_and(|c| c + 1 < n), egui::Button::new(">"))
                .on_hover_text("Next frame")
                .clicked()
            {
                timeline.scrub_to(index + 1, live);
            }
        }
        if timeline.cursor.is_some() && ui.button("Back to live").clicked() {
            timeline.go_live(live, doc);
        }
        let label = ui.label("Recording file");
        ui.add(
            egui::TextEdit::singleline(&mut timeline.path_field)
                .desired_width(140.0)
                .hint_text("session.jsonl"),
        )
        .labelled_by(label.id);
        let path = PathBuf::from(timeline.path_field.trim());
        let has_path = !timeline.path_field.trim().is_empty();
        if ui.add_enabled(has_path && n > 0, egui::Button::new("Save recording")).clicked() {
            timeline.save(path.clone());
        }
        if ui.add_enabled(has_path, egui::Button::new("Open recording")).clicked() {
            timeline.open(path, doc, live);
        }
    });
    if let Some(frame) = timeline.scrubbed() {
        ui.colored_label(
            egui::Color32::from_rgb(255, 150, 60),
            format!(
                "SCRUBBING: tick {} at {:.2} s, paused{}",
                frame.frame.tick,
                frame.time,
                if timeline.status.is_empty() { String::new() } else { format!(" ({})", timeline.status) }
            ),
        );
    } else if !timeline.status.is_empty() {
        ui.weak(&timeline.status);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use animgraph_character::Character;

    #[test]
    fn scrubbing_shows_exactly_what_was_recorded_and_a_saved_recording_reopens_equal() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/gbot");
        let doc = Document::open(root.join("gbot.mres")).unwrap();
        let character = Character::load(&root.join("gbot.mskel"), None).unwrap().character;
        let mut live = Live::new();
        live.set_character(Some(character));
        live.sync(&doc);
        let mut timeline = Timeline::new(&doc);
        let mut states = Vec::new();
        for frame in 0..240 {
            if frame == 30 {
                live.values.insert("speed".into(), 1.5);
            }
            if frame == 90 {
                live.fire("jump");
            }
            live.step(1.0 / 60.0);
            timeline.record_preview(&doc, &live);
            let p = live.player().unwrap();
            states.push((
                p.current_state_path(0).unwrap().to_string(),
                p.normalised_time(0).unwrap(),
                live.render(&Default::default()).unwrap().data().to_vec(),
            ));
        }
        assert_eq!(timeline.recording.len(), 240);
        // Scrub: the canvas's playback and the preview's picture are the recorded frame's.
        for k in [10usize, 120, 95, 239] {
            timeline.scrub_to(k, &mut live);
            assert!(!live.running);
            let shown = timeline.playback("Base").unwrap();
            assert_eq!(shown.current.as_deref(), Some(states[k].0.as_str()), "frame {k}");
            assert_eq!(shown.normalised_time, states[k].1);
            let picture = live.render(&Default::default()).unwrap();
            assert!(picture.data() == states[k].2.as_slice(), "frame {k}: the preview's pose differs");
        }
        assert!(states.iter().any(|s| s.0.starts_with("Air")), "the jump was recorded");
        // Save, open: the same frames, scrubbable.
        let dir = animgraph_test_support::scratch_dir("timeline");
        let path = dir.join("session.jsonl");
        timeline.save(path.clone());
        let saved: Vec<RecordedFrame> = timeline.recording.frames().iter().cloned().collect();
        let mut reopened = Timeline::new(&doc);
        reopened.open(path, &doc, &mut live);
        assert_eq!(reopened.recording.frames().iter().cloned().collect::<Vec<_>>(), saved);
        reopened.scrub_to(120, &mut live);
        assert_eq!(reopened.playback("Base").unwrap().current.as_deref(), Some(states[120].0.as_str()));
        assert!(reopened.scrubbed().unwrap().frame.explain.is_some(), "recordings carry the explanation");
        // Back to live: recording resumes.
        reopened.go_live(&mut live, &doc);
        assert!(live.running && reopened.cursor.is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
