//! The runtime player that runs inside the editor: rebound whenever the document changes
//! (keeping each layer's state, as a game's instances do on a new graph version), driven by the
//! live parameter controls, and read by the canvas to light the active state, fill a running
//! transition's arrow and show normalised time.
//!
//! With a chosen skeleton it is a [`CharacterInstance`]: the runtime's own backend poses that
//! skeleton, and the preview draws it. Without one every clip is a looping one-second
//! placeholder, so exit times and mixes still play out at a readable pace.

use std::collections::{BTreeMap, VecDeque};

use animgraph_character::{Character, CharacterInstance};
use animgraph_runtime::frame::{EventRecord, LayerRecord};
use animgraph_runtime::graph::{ParamId, ParameterType};
use animgraph_runtime::{
    AnimationGraphPlayer, BoneMask, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend, SampleBuffer,
};

use crate::document::Document;

/// Length given to every clip while no skeleton is chosen.
pub const PLACEHOLDER_CLIP_SECONDS: f32 = 1.0;

/// A backend that accepts any clip name and poses nothing: every clip a one-second loop.
#[derive(Default)]
struct TimingBackend {
    clips: Vec<(String, f32)>,
}

impl PoseBackend for TimingBackend {
    fn resolve_clip(&mut self, name: &str) -> Option<ClipId> {
        let index = self.clips.iter().position(|(c, _)| c == name).unwrap_or_else(|| {
            self.clips.push((name.to_string(), PLACEHOLDER_CLIP_SECONDS));
            self.clips.len() - 1
        });
        Some(ClipId(index as u32))
    }

    fn resolve_mask(&mut self, _mask: &BoneMask) -> Option<MaskId> {
        Some(MaskId(0))
    }

    fn clip_length(&self, clip: ClipId) -> f32 {
        self.clips.get(clip.0 as usize).map_or(PLACEHOLDER_CLIP_SECONDS, |c| c.1)
    }

    fn clip_loops(&self, _clip: ClipId) -> bool {
        true
    }

    fn apply(&mut self, _samples: &[ClipSample], _layers: &[LayerInfo]) {}
}

/// Most lines the event log keeps.
pub const EVENT_LOG_LINES: usize = 400;

/// Clip names of the timing driver (for recordings).
struct TimingNames(Vec<String>);

impl animgraph_runtime::script::BackendNames for TimingNames {
    fn clip_name(&self, clip: ClipId) -> String {
        self.0.get(clip.0 as usize).cloned().unwrap_or_default()
    }

    fn mask_bones(&self, _mask: MaskId) -> Vec<String> {
        Vec::new()
    }
}

/// What the live player drives. (One per open graph: the size difference does not matter.)
#[allow(clippy::large_enum_variant)]
enum Driver {
    /// No skeleton: placeholder timing, nothing posed.
    Timing { player: AnimationGraphPlayer, buffer: SampleBuffer, names: TimingNames },
    /// The chosen skeleton, posed by the runtime's own backend.
    Character(Box<CharacterInstance>),
}

impl Driver {
    fn player(&self) -> &AnimationGraphPlayer {
        match self {
            Driver::Timing { player, .. } => player,
            Driver::Character(c) => c.player(),
        }
    }

    fn player_mut(&mut self) -> &mut AnimationGraphPlayer {
        match self {
            Driver::Timing { player, .. } => player,
            Driver::Character(c) => c.player_mut(),
        }
    }
}

/// The live player of one document.
#[derive(Default)]
pub struct Live {
    bound_version: Option<u64>,
    bound_character: u64,
    driver: Option<Driver>,
    /// Each parameter's id and type, resolved at bind so a frame looks up no names.
    params: Vec<(String, ParamId, ParameterType)>,
    /// Live parameter values by name (bools/ints as numbers); kept across rebinds.
    pub values: BTreeMap<String, f32>,
    /// Why the graph could not be bound, if it could not.
    pub error: Option<String>,
    /// Paused when false.
    pub running: bool,
    /// Playback speed (1 is real time).
    pub speed: f32,
    step_once: bool,
    character: Option<Character>,
    character_version: u64,
    restart: bool,
    layer_names: Vec<String>,
    /// Signals and clip events, newest last (`tick: Base: Move -> Jump`).
    pub events: VecDeque<String>,
}

/// What the canvas shows of a layer's playback.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Playback {
    /// The playing leaf state's `Outer/Inner` path.
    pub current: Option<String>,
    /// Its normalised time (cumulative over loops).
    pub normalised_time: f32,
    /// A running mix's target path and progress.
    pub target: Option<(String, f32)>,
    /// A path travel's hops still to start, as `[from, to]` state paths.
    pub travel: Vec<[String; 2]>,
}

impl Playback {
    /// A layer of a recorded or streamed frame.
    pub fn of_record(layer: &LayerRecord) -> Playback {
        Playback {
            current: Some(layer.state.clone()),
            normalised_time: layer.normalised_time,
            target: layer.transition_to.clone().map(|t| (t, layer.transition_progress.unwrap_or(0.0))),
            travel: layer.travel.clone(),
        }
    }
}

impl Live {
    /// A running live player (bound on the first [`sync`](Self::sync)).
    pub fn new() -> Live {
        Live { running: true, speed: 1.0, ..Default::default() }
    }

    /// Drives this character (or placeholder timing without one); rebinds on the next sync.
    pub fn set_character(&mut self, character: Option<Character>) {
        self.character = character;
        self.character_version += 1;
    }

    /// Whether a skeleton is posed (so [`render`](Self::render) draws something).
    pub fn has_character(&self) -> bool {
        matches!(self.driver, Some(Driver::Character(_)))
    }

    /// Rebinds when the document changed since the last bind, keeping live values whose
    /// parameter still exists (new ones start at their default) and each layer's state.
    pub fn sync(&mut self, doc: &Document) {
        let character_changed = self.bound_character != self.character_version;
        if self.bound_version == Some(doc.version) && !character_changed && !self.restart {
            return;
        }
        self.bound_version = Some(doc.version);
        self.bound_character = self.character_version;
        let mut values = BTreeMap::new();
        for p in &doc.graph.parameters {
            let kept = self.values.get(&p.name).copied().filter(|_| p.kind != ParameterType::Trigger);
            values.insert(p.name.clone(), kept.unwrap_or(p.default));
        }
        self.values = values;
        let fresh = self.restart || character_changed || self.driver.is_none();
        self.restart = false;
        let bound = if fresh {
            match &self.character {
                Some(character) => {
                    CharacterInstance::new(character, &doc.graph).map(|c| Driver::Character(Box::new(c)))
                }
                None => {
                    let mut backend = TimingBackend::default();
                    AnimationGraphPlayer::bind(&doc.graph, &mut backend).map(|player| {
                        let buffer = player.new_buffer();
                        let names = TimingNames(backend.clips.iter().map(|c| c.0.clone()).collect());
                        Driver::Timing { player, buffer, names }
                    })
                }
            }
            .map(Some)
        } else {
            match self.driver.as_mut() {
                Some(Driver::Character(c)) => c.rebind(&doc.graph).map(|()| None),
                Some(Driver::Timing { player, buffer, names }) => {
                    let mut backend = TimingBackend::default();
                    player.rebind(&doc.graph, &mut backend).map(|()| {
                        *buffer = player.new_buffer();
                        *names = TimingNames(backend.clips.iter().map(|c| c.0.clone()).collect());
                        None
                    })
                }
                None => Ok(None),
            }
        };
        match bound {
            Ok(new) => {
                if let Some(driver) = new {
                    self.driver = Some(driver);
                    self.events.clear();
                }
                // The editor always explains (it shows why transitions fired); it is cheap.
                if let Some(d) = self.driver.as_mut() {
                    d.player_mut().set_explain(true);
                }
                let player = self.driver.as_ref().expect("bound above").player();
                self.params = doc
                    .graph
                    .parameters
                    .iter()
                    .filter_map(|p| Some((p.name.clone(), player.find_parameter(&p.name)?, p.kind)))
                    .collect();
                self.layer_names = (0..player.layer_count())
                    .map(|l| player.layer_name(l).unwrap_or("").to_string())
                    .collect();
                self.error = None;
            }
            Err(e) => {
                // A graph that is briefly invalid while being edited (a new clip state with no
                // clip yet, a new empty layer) does not stop the preview: the last version that
                // bound keeps playing (its parameters as they were) until this one binds. Only
                // a new skeleton, or nothing bound yet, leaves nothing to play.
                if character_changed {
                    self.driver = None;
                }
                self.error = Some(e.to_string());
            }
        }
    }

    /// Whether the preview plays an earlier version of the graph because the current one does
    /// not bind ([`error`](Self::error) says why).
    pub fn stale(&self) -> bool {
        self.error.is_some() && self.driver.is_some()
    }

    /// Advances one frame of `1/60` s on the next [`step`](Self::step), even while paused.
    pub fn step_one_frame(&mut self) {
        self.step_once = true;
    }

    /// Pushes the live values and advances `delta` seconds times the playback speed (nothing
    /// while paused, unless one frame was asked for).
    pub fn step(&mut self, delta: f32) {
        let Some(driver) = self.driver.as_mut() else { return };
        let player = driver.player_mut();
        for (name, id, kind) in &self.params {
            let Some(&v) = self.values.get(name) else { continue };
            // The ids come from the player itself and the types from the graph it was bound
            // from, so these cannot fail.
            let _ = match kind {
                ParameterType::Bool => player.set_bool(*id, v != 0.0),
                ParameterType::Int => player.set_int(*id, v as i32),
                ParameterType::Float => player.set_float(*id, v),
                ParameterType::Trigger => Ok(()),
            };
        }
        let dt = if self.running {
            delta * self.speed
        } else if self.step_once {
            1.0 / 60.0
        } else {
            return;
        };
        self.step_once = false;
        match driver {
            Driver::Timing { player, buffer, .. } => player.advance(dt, buffer),
            Driver::Character(c) => c.update(dt),
        }
        self.log_events();
    }

    fn log_events(&mut self) {
        let Some(driver) = self.driver.as_ref() else { return };
        let player = driver.player();
        let tick = player.tick();
        for e in player.events() {
            let line = format!("{tick}: {}", EventRecord::of(player, e).describe(&self.layer_names));
            self.events.push_back(line);
        }
        if let Driver::Character(c) = driver {
            for name in c.clip_events() {
                self.events.push_back(format!("{tick}: event {name}"));
            }
        }
        while self.events.len() > EVENT_LOG_LINES {
            self.events.pop_front();
        }
    }

    /// Fires a trigger on the live player.
    pub fn fire(&mut self, name: &str) {
        if let Some(driver) = self.driver.as_mut() {
            let _ = driver.player_mut().fire_by_name(name);
        }
    }

    /// Restarts playback from the entry states (on the next sync).
    pub fn restart(&mut self) {
        self.restart = true;
    }

    /// The player, once bound.
    pub fn player(&self) -> Option<&AnimationGraphPlayer> {
        self.driver.as_ref().map(Driver::player)
    }

    /// The last frame as a recorded frame (`time` in seconds).
    pub fn record(&self, time: f32) -> Option<animgraph_runtime::recording::RecordedFrame> {
        match self.driver.as_ref()? {
            Driver::Timing { player, buffer, names } => {
                Some(animgraph_runtime::recording::RecordedFrame::capture(player, buffer, names, time))
            }
            Driver::Character(c) => Some(c.record(time)),
        }
    }

    /// Poses the preview's character as frame `index` of a recording did (scrubbing).
    pub fn pose_recorded(&mut self, recording: &animgraph_runtime::recording::Recording, index: usize) {
        if let Some(Driver::Character(c)) = self.driver.as_mut() {
            c.pose_recorded(|i| recording.get(i), index);
        }
    }

    /// The layer names of the bound graph.
    pub fn layer_names(&self) -> &[String] {
        &self.layer_names
    }

    /// Why transitions did or did not fire on the last frame.
    pub fn explain(&self) -> Option<animgraph_runtime::frame::ExplainRecord> {
        animgraph_runtime::frame::ExplainRecord::capture(self.player()?)
    }

    /// The samples of the last frame.
    pub fn samples(&self) -> &[animgraph_runtime::ClipSample] {
        match &self.driver {
            Some(Driver::Timing { buffer, .. }) => buffer.samples(),
            Some(Driver::Character(c)) => c.buffer().samples(),
            None => &[],
        }
    }

    /// The posed character as triangles for the GPU (false without a skeleton); runs name
    /// [`Character::pages`](animgraph_character::Character::pages) of the chosen character.
    pub fn triangles(
        &self,
        view: &animgraph_character::View,
        scratch: &mut animgraph_character::TriangleScratch,
        out: &mut animgraph_character::Triangles,
    ) -> bool {
        match &self.driver {
            Some(Driver::Character(c)) => {
                c.triangles(view, scratch, out);
                true
            }
            _ => false,
        }
    }

    /// Poses the character from a frame an attached game streamed (nothing without a skeleton);
    /// the editor's own player is not advanced meanwhile.
    pub fn pose_frame(&mut self, frame: &animgraph_runtime::recording::RecordedFrame) {
        if let Some(Driver::Character(c)) = self.driver.as_mut() {
            c.pose_frame(frame);
        }
    }

    /// The posed character's local pose (bone, values), empty without a skeleton.
    pub fn local_pose(&self) -> Vec<(String, Vec<f32>)> {
        match &self.driver {
            Some(Driver::Character(c)) => c.local_pose(),
            _ => Vec::new(),
        }
    }

    /// Counts skeleton choices: changes when the character does (the preview re-uploads pages).
    pub fn character_version(&self) -> u64 {
        self.character_version
    }

    /// Draws the posed character (`None` without a skeleton).
    pub fn render(&self, view: &animgraph_character::View) -> Option<tiny_skia::Pixmap> {
        match &self.driver {
            Some(Driver::Character(c)) => Some(c.render(view)),
            _ => None,
        }
    }

    /// A layer's playback, for the canvas.
    pub fn playback(&self, layer: usize) -> Playback {
        let Some(player) = self.player() else { return Playback::default() };
        let current = player.current_state_path(layer).map(str::to_string);
        let target = player
            .transition_target(layer)
            .zip(player.transition_progress(layer))
            .map(|(s, p)| (player.state_path(s).to_string(), p));
        let hops = player.travel_path(layer).iter().filter_map(|&t| player.transition_ends(t));
        let travel = hops.map(|(from, to)| [from.to_string(), to.to_string()]).collect();
        Playback { current, normalised_time: player.normalised_time(layer).unwrap_or(0.0), target, travel }
    }
}

/// Whether the state `name`, shown in the machine reached through `prefix` (`Outer/` or empty),
/// is or contains the playing state at `path`.
pub fn path_shows(path: &str, prefix: &str, name: &str) -> bool {
    path.strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix(name))
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locomotion() -> Document {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/locomotion.mres");
        Document::open(path).expect("bundled graph opens")
    }

    #[test]
    fn path_matching_lights_the_state_and_its_enclosing_sub_machine() {
        assert!(path_shows("Locomotion/Walk", "", "Locomotion"));
        assert!(path_shows("Locomotion/Walk", "Locomotion/", "Walk"));
        assert!(!path_shows("Locomotion/Walker", "Locomotion/", "Walk"));
        assert!(!path_shows("Jump", "", "Jum"));
        assert!(path_shows("Jump", "", "Jump"));
    }

    #[test]
    fn the_live_player_follows_fired_triggers_and_exit_times() {
        let doc = locomotion();
        let mut live = Live::new();
        live.sync(&doc);
        assert_eq!(live.error, None);
        assert_eq!(live.playback(0).current.as_deref(), Some("Move"));
        live.fire("jump");
        live.step(1.0 / 60.0);
        let mixing = live.playback(0);
        assert_eq!(mixing.target.as_ref().map(|(s, _)| s.as_str()), Some("Jump"), "{mixing:?}");
        // Jump's exit time is 0.9 of a one-second placeholder clip: heading back to Move by 1.2 s.
        for _ in 0..72 {
            live.step(1.0 / 60.0);
        }
        let back = live.playback(0);
        let heading_to_move = back.target.as_ref().is_some_and(|(s, _)| s == "Move");
        assert!(
            back.current.as_deref() == Some("Move") && (heading_to_move || back.target.is_none()),
            "{back:?}"
        );
    }

    /// An edit that makes the graph briefly invalid (a new clip state without a clip) does not
    /// stop the preview: the last version keeps playing, marked stale, until the graph binds.
    #[test]
    fn an_invalid_edit_keeps_the_last_version_playing() {
        let mut doc = locomotion();
        let mut live = Live::new();
        live.sync(&doc);
        live.fire("jump");
        live.step(1.0 / 60.0);
        let tick = live.player().unwrap().tick();
        let added = doc
            .add_state(
                animgraph_runtime::graph::StateKind::Clip(animgraph_runtime::graph::ClipState::default()),
                [0.0, 0.0],
            )
            .unwrap();
        live.sync(&doc);
        assert!(live.error.is_some(), "a clip state with no clip does not bind");
        assert!(live.stale(), "the last version still plays");
        for _ in 0..10 {
            live.step(1.0 / 60.0);
        }
        assert_eq!(live.player().unwrap().tick(), tick + 10, "and keeps advancing");
        doc.edit_machine(|m| {
            if let animgraph_runtime::graph::StateKind::Clip(c) = &mut m.states[added].kind {
                c.clip = "idle".into();
            }
        });
        live.sync(&doc);
        assert_eq!(live.error, None, "fixed: it binds again");
        assert!(!live.stale());
        assert_eq!(live.player().unwrap().tick(), tick + 10, "keeping its clock");
    }

    #[test]
    fn an_edit_keeps_the_playing_state_and_its_clock() {
        let mut doc = locomotion();
        let mut live = Live::new();
        live.sync(&doc);
        live.fire("jump");
        for _ in 0..20 {
            live.step(1.0 / 60.0);
        }
        let before = live.playback(0);
        assert_eq!(before.current.as_deref(), Some("Jump"));
        doc.edit_graph(|g| g.default_mix = 0.3);
        live.sync(&doc);
        let after = live.playback(0);
        assert_eq!(after.current, before.current);
        assert_eq!(after.normalised_time, before.normalised_time);
        live.restart();
        live.sync(&doc);
        assert_eq!(live.playback(0).current.as_deref(), Some("Move"));
    }

    #[test]
    fn the_preview_plays_exactly_what_a_headless_player_fed_the_same_inputs_plays() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/gbot");
        let doc = Document::open(root.join("gbot.mres")).unwrap();
        let character = Character::load(&root.join("gbot.mskel"), None).unwrap().character;
        let mut live = Live::new();
        live.set_character(Some(character.clone()));
        live.sync(&doc);
        assert!(live.has_character(), "{:?}", live.error);
        let mut headless = CharacterInstance::new(&character, &doc.graph).unwrap();
        headless.player_mut().set_explain(true); // as the editor's own player always is
        let inputs: [(u32, &str, f32); 5] = [
            (0, "speed", 0.0),
            (30, "speed", 1.4),
            (80, "waving", 1.0),
            (120, "jump", 1.0),
            (200, "speed", 3.0),
        ];
        for frame in 0..300u32 {
            for &(at, name, value) in &inputs {
                if at != frame {
                    continue;
                }
                if name == "jump" {
                    live.fire(name);
                    headless.player_mut().fire_by_name(name).unwrap();
                } else {
                    live.values.insert(name.to_string(), value);
                    let p = headless.player_mut();
                    match p.parameter_type(p.find_parameter(name).unwrap()).unwrap() {
                        ParameterType::Bool => p.set_bool_by_name(name, value != 0.0).unwrap(),
                        _ => p.set_float_by_name(name, value).unwrap(),
                    }
                }
            }
            live.step(1.0 / 60.0);
            headless.update(1.0 / 60.0);
            let (a, b) = (live.player().unwrap(), headless.player());
            assert_eq!(
                animgraph_runtime::frame::PlayerFrame::capture(a),
                animgraph_runtime::frame::PlayerFrame::capture(b),
                "frame {frame}"
            );
            assert_eq!(live.samples(), headless.buffer().samples(), "frame {frame}");
        }
        // It went through the air and back, and the log shows it.
        assert!(live.events.iter().any(|l| l.contains("Move -> Air/Jump")), "{:?}", live.events);
        assert!(live.events.iter().any(|l| l.contains("event footstep")), "{:?}", live.events);
        let picture = live.render(&animgraph_character::View { width: 64, height: 64, ..Default::default() });
        assert!(picture.is_some());
    }

    #[test]
    fn paused_the_player_steps_one_frame_at_a_time_and_speed_scales_time() {
        let doc = locomotion();
        let mut live = Live::new();
        live.sync(&doc);
        live.running = false;
        live.step(0.5);
        assert_eq!(live.player().unwrap().tick(), 0);
        live.step_one_frame();
        live.step(0.5);
        assert_eq!(live.player().unwrap().tick(), 1);
        live.step(0.5);
        assert_eq!(live.player().unwrap().tick(), 1);
        live.running = true;
        live.speed = 0.5;
        live.restart();
        live.sync(&doc);
        for _ in 0..60 {
            live.step(1.0 / 60.0);
        }
        // Half speed for one second: half a second of the one-second placeholder idle.
        let t = live.playback(0).normalised_time;
        assert!((t - 0.5).abs() < 0.02, "{t}");
    }

    #[test]
    fn live_values_survive_an_edit_and_pausing_freezes_playback() {
        let mut doc = locomotion();
        let mut live = Live::new();
        live.sync(&doc);
        live.values.insert("speed".into(), 3.0);
        doc.edit_graph(|g| {
            g.parameters.push(animgraph_runtime::graph::GraphParameter {
                name: "lean".into(),
                kind: ParameterType::Float,
                default: 0.25,
                latch: false,
            })
        });
        live.sync(&doc);
        assert_eq!(live.error, None);
        assert_eq!(live.values.get("speed"), Some(&3.0));
        assert_eq!(live.values.get("lean"), Some(&0.25));
        live.running = false;
        live.fire("jump");
        live.step(0.5);
        assert_eq!(live.playback(0).target, None);
    }
}
