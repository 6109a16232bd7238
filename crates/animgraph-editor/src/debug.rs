//! Live debugging of a running game: connect to its link, pick one of its characters that plays
//! the open graph (matched by uid), and watch that character's states, transitions, parameters
//! and events on the canvas and panels. Read-only: the link carries nothing back to the game.
//!
//! When the game quits the view drops its last frame (nothing stale stays on screen) and the
//! editor tries to reconnect every second; when the game is back it re-attaches to the character
//! of the same name.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use animgraph_runtime::frame::{LayerInfoRecord, PlayerFrame, SampleRecord};
use animgraph_runtime::link::{ClientEvent, InstanceInfo, LinkClient, ServerMessage};
use eframe::egui;

use crate::live::Playback;

/// How long a connection attempt may take (the game is on this machine).
const CONNECT_TIMEOUT: Duration = Duration::from_millis(200);
/// How often a lost game is looked for again.
const RETRY_EVERY: Duration = Duration::from_secs(1);

/// The editor's connection to a running game.
pub struct Debugger {
    /// The game's address as typed.
    pub address: String,
    client: Option<LinkClient>,
    /// What happened last, for the panel.
    pub status: String,
    /// The game's name from its hello.
    pub game: Option<String>,
    /// Its characters.
    pub instances: Vec<InstanceInfo>,
    /// The character streamed now.
    pub attached: Option<InstanceInfo>,
    /// Its layer names, as the game's graph has them.
    pub layers: Vec<String>,
    /// Its latest frame.
    pub last: Option<PlayerFrame>,
    /// The latest frame's clip samples and layer infos, when the game streams them
    /// ([`publish_posed`](animgraph_runtime::link::LinkServer::publish_posed)): the preview is
    /// posed from them.
    pub last_pose: Option<(Vec<SampleRecord>, Vec<LayerInfoRecord>)>,
    /// Its signals, newest last.
    pub events: VecDeque<String>,
    /// The character to attach to when the game comes back (by name).
    wanted: Option<String>,
    retry_at: Option<Instant>,
    /// Lines from the game that were not messages.
    pub garbage: usize,
    /// The command "Play" runs (through the shell), e.g. `cargo run -p animgraph-arena`.
    pub command: String,
    /// The game "Play" started, while it runs.
    child: Option<GameProcess>,
    /// Attach to the first character playing the graph with this uid when the game lists it.
    pub auto_attach: Option<String>,
}

impl Default for Debugger {
    fn default() -> Self {
        let address = animgraph_runtime::link::default_address()
            .map_or_else(|_| "127.0.0.1:47800".into(), |a| a.to_string());
        Debugger {
            address,
            client: None,
            status: "not connected".into(),
            game: None,
            instances: Vec::new(),
            attached: None,
            layers: Vec::new(),
            last: None,
            last_pose: None,
            events: VecDeque::new(),
            wanted: None,
            retry_at: None,
            garbage: 0,
            command: String::new(),
            child: None,
            auto_attach: None,
        }
    }
}

/// A game "Play" started: it ends with the editor (killed when dropped).
#[derive(Debug)]
struct GameProcess(std::process::Child);

impl Drop for GameProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Debugger {
    /// Whether a game is connected (until its disconnect has been handled by
    /// [`poll`](Self::poll), so state and this answer always agree).
    pub fn connected(&self) -> bool {
        self.client.is_some()
    }

    /// Connects to the game at [`address`](Self::address).
    pub fn connect(&mut self) {
        let address: SocketAddr = match animgraph_runtime::link::parse_address(&self.address) {
            Ok(a) => a,
            Err(e) => {
                self.status = e.to_string();
                return;
            }
        };
        match LinkClient::connect(address, CONNECT_TIMEOUT) {
            Ok(client) => {
                self.client = Some(client);
                self.status = format!("connected to {address}");
                self.retry_at = None;
            }
            Err(e) => {
                self.status =
                    format!("no game at {address} ({e}); start one, e.g. cargo run -p animgraph-arena");
            }
        }
    }

    /// Starts the game command with `ANIMGRAPH_LINK` set to this address, then connects as
    /// soon as it listens and attaches to its first character playing the graph `uid`.
    pub fn play(&mut self, uid: &str) {
        if self.command.trim().is_empty() {
            self.status =
                "type the command that starts your game first (e.g. cargo run -p animgraph-arena)".into();
            return;
        }
        self.stop();
        let mut shell = if cfg!(windows) {
            let mut c = std::process::Command::new("cmd");
            c.arg("/C");
            c
        } else {
            let mut c = std::process::Command::new("sh");
            c.arg("-c");
            c
        };
        shell
            .arg(&self.command)
            .env("ANIMGRAPH_LINK", &self.address)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        match shell.spawn() {
            Ok(child) => {
                self.child = Some(GameProcess(child));
                self.auto_attach = Some(uid.to_string());
                self.client = None;
                self.clear_game();
                self.retry_at = Some(Instant::now());
                self.status = format!("started the game; waiting for it on {}", self.address);
            }
            Err(e) => self.status = format!("cannot start the game: {e}"),
        }
    }

    /// Whether a game "Play" started is running.
    pub fn playing(&self) -> bool {
        self.child.is_some()
    }

    /// Ends the game "Play" started (if any).
    pub fn stop(&mut self) {
        if self.child.take().is_some() {
            self.status = "stopped the game".into();
        }
    }

    /// Whether the attached game went away and the editor waits to attach to the same
    /// character again (its recording is kept meanwhile, to scrub its last moments).
    pub fn awaiting(&self) -> bool {
        self.wanted.is_some() && self.attached.is_none()
    }

    /// Disconnects and forgets the game (no reconnecting).
    pub fn disconnect(&mut self) {
        self.client = None;
        self.wanted = None;
        self.retry_at = None;
        self.clear_game();
        self.status = "not connected".into();
    }

    fn clear_game(&mut self) {
        self.game = None;
        self.instances.clear();
        self.attached = None;
        self.layers.clear();
        self.last = None;
        self.last_pose = None;
    }

    /// Streams a character.
    pub fn attach(&mut self, instance: u32) {
        let Some(info) = self.instances.iter().find(|i| i.id == instance).cloned() else { return };
        if let Some(client) = self.client.as_mut() {
            match client.attach(instance) {
                Ok(()) => {
                    self.wanted = Some(info.name.clone());
                    self.status = format!("attaching to {}", info.name);
                }
                Err(e) => self.status = format!("cannot attach: {e}"),
            }
        }
    }

    /// Stops streaming (the canvas goes back to the editor's own player).
    pub fn detach(&mut self) {
        if let Some(client) = self.client.as_mut() {
            let _ = client.detach();
        }
        self.wanted = None;
        self.attached = None;
        self.last = None;
        self.last_pose = None;
        self.status = "detached".into();
    }

    /// The game's characters that play the graph with this uid.
    pub fn matching(&self, uid: &str) -> Vec<&InstanceInfo> {
        self.instances.iter().filter(|i| i.graph_uid == uid).collect()
    }

    /// Whether the attached character plays the graph with this uid (so its frames belong on
    /// that graph's canvas).
    pub fn shows(&self, uid: &str) -> bool {
        self.attached.as_ref().is_some_and(|a| a.graph_uid == uid) && self.last.is_some()
    }

    /// What the attached character plays on the layer named `layer`.
    pub fn playback(&self, layer: &str) -> Option<Playback> {
        let frame = self.last.as_ref()?;
        let index = self.layers.iter().position(|l| l == layer)?;
        frame.layers.get(index).map(Playback::of_record)
    }

    /// Handles everything that arrived (never waits); reconnects to a game that went away.
    pub fn poll(&mut self) {
        if let Some(status) = self.child.as_mut().and_then(|c| c.0.try_wait().ok().flatten()) {
            self.child = None;
            self.auto_attach = None;
            self.retry_at = None;
            self.status = format!("the game exited ({status})");
        }
        let mut events = self.client.as_ref().map(LinkClient::poll).unwrap_or_default();
        if self.client.as_ref().is_some_and(|c| !c.is_connected())
            && !events.contains(&ClientEvent::Disconnected)
        {
            events.push(ClientEvent::Disconnected);
        }
        for event in events {
            match event {
                ClientEvent::Message(m) => self.handle(m),
                ClientEvent::Garbage(_) => self.garbage += 1,
                ClientEvent::Disconnected => {
                    self.client = None;
                    self.clear_game();
                    self.status = "the game went away; looking for it again every second".into();
                    self.retry_at = Some(Instant::now() + RETRY_EVERY);
                }
            }
        }
        if self.client.is_none() && self.retry_at.is_some_and(|t| Instant::now() >= t) {
            self.connect();
            if self.client.is_none() {
                self.status = "the game went away; looking for it again every second".into();
                self.retry_at = Some(Instant::now() + RETRY_EVERY);
            }
        }
    }

    fn handle(&mut self, message: ServerMessage) {
        match message {
            ServerMessage::Hello { game, instances, .. } => {
                self.status = format!("connected to {game}: {} characters", instances.len());
                self.game = Some(game);
                self.instances = instances;
                // Back after a restart: attach to the same character again.
                if let Some(name) = self.wanted.clone() {
                    if let Some(id) = self.instances.iter().find(|i| i.name == name).map(|i| i.id) {
                        self.attach(id);
                    }
                }
                self.attach_wanted_graph();
            }
            ServerMessage::Instances { instances } => {
                self.instances = instances;
                self.attach_wanted_graph();
            }
            ServerMessage::Attached { instance, layers, .. } => {
                self.attached = self.instances.iter().find(|i| i.id == instance).cloned();
                self.layers = layers;
                self.last = None;
                self.last_pose = None;
                self.events.clear();
                if let Some(a) = &self.attached {
                    self.status = format!("attached to {} (live, read-only)", a.name);
                }
            }
            ServerMessage::Frame { instance, frame, samples, layer_infos } => {
                if self.attached.as_ref().is_some_and(|a| a.id == instance) {
                    self.last_pose = (!samples.is_empty()).then_some((samples, layer_infos));
                    for e in &frame.events {
                        self.events.push_back(format!("{}: {}", frame.tick, e.describe(&self.layers)));
                    }
                    while self.events.len() > crate::live::EVENT_LOG_LINES {
                        self.events.pop_front();
                    }
                    self.last = Some(frame);
                }
            }
            ServerMessage::Detached { reason, .. } => {
                self.attached = None;
                self.last = None;
                self.last_pose = None;
                self.status = format!("detached: {reason}");
            }
            ServerMessage::Error { message } => self.status = format!("the game says: {message}"),
        }
    }
}

impl Debugger {
    /// After "Play": attaches to the first listed character of the wanted graph.
    fn attach_wanted_graph(&mut self) {
        let Some(uid) = self.auto_attach.clone() else { return };
        if self.attached.is_some() {
            return;
        }
        if let Some(id) = self.instances.iter().find(|i| i.graph_uid == uid).map(|i| i.id) {
            self.auto_attach = None;
            self.attach(id);
        }
    }
}

/// The debug section: address, connect, the open graph's characters in the game.
pub fn panel(ui: &mut egui::Ui, debugger: &mut Debugger, uid: &str) {
    ui.heading("Debug a running game");
    ui.horizontal(|ui| {
        let label = ui.label("Command");
        ui.add(
            egui::TextEdit::singleline(&mut debugger.command)
                .desired_width(170.0)
                .hint_text("cargo run -p animgraph-arena"),
        )
        .labelled_by(label.id)
        .on_hover_text("What Play runs, with ANIMGRAPH_LINK set to the Game address");
        if debugger.playing() {
            if ui.button("Stop").clicked() {
                debugger.stop();
            }
        } else if ui
            .button("Play")
            .on_hover_text("Start the game and attach to its first character of this graph")
            .clicked()
        {
            debugger.play(uid);
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("Game");
        ui.add(egui::TextEdit::singleline(&mut debugger.address).desired_width(130.0)).labelled_by(label.id);
        if debugger.connected() {
            if ui.button("Disconnect").clicked() {
                debugger.disconnect();
            }
        } else if ui.button("Connect").clicked() {
            debugger.connect();
        }
    });
    // The connection is shared by every tab: a tab whose graph the attached character does not
    // play says so instead of repeating "attached".
    match &debugger.attached {
        Some(a) if a.graph_uid != uid => {
            ui.weak(format!("attached to {} in another tab's graph ({})", a.name, a.graph_uid));
        }
        _ => {
            ui.weak(&debugger.status);
        }
    }
    if !debugger.connected() {
        return;
    }
    let matching: Vec<InstanceInfo> = debugger.matching(uid).into_iter().cloned().collect();
    if matching.is_empty() && debugger.attached.is_none() {
        ui.label(format!("None of its {} characters plays this graph.", debugger.instances.len()));
    }
    for instance in &matching {
        ui.horizontal(|ui| {
            let attached = debugger.attached.as_ref().is_some_and(|a| a.id == instance.id);
            ui.label(&instance.name);
            if attached {
                if ui.button("Detach").clicked() {
                    debugger.detach();
                }
            } else if ui.button(format!("Attach {}", instance.name)).clicked() {
                debugger.attach(instance.id);
            }
        });
    }
    let others = debugger.instances.len() - matching.len();
    if others > 0 {
        ui.weak(format!("{others} other character(s) play other graphs"));
    }
}

/// A streamed or recorded frame's parameters, read-only.
pub fn parameters(ui: &mut egui::Ui, frame: &PlayerFrame, title: &str) {
    ui.heading(title);
    egui::Grid::new("debug-values").num_columns(2).show(ui, |ui| {
        for p in &frame.parameters {
            ui.label(&p.name);
            let text = match p.kind.as_str() {
                "Bool" => if p.value != 0.0 { "true" } else { "false" }.to_string(),
                "Trigger" => if p.value != 0.0 { "set" } else { "-" }.to_string(),
                "Int" => format!("{}", p.value as i64),
                _ => format!("{:.3}", p.value),
            };
            ui.monospace(text);
            ui.end_row();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use animgraph_runtime::link::LinkServer;
    use animgraph_runtime::script::RecordingBackend;

    fn player() -> (animgraph_runtime::AnimationGraph, animgraph_runtime::AnimationGraphPlayer) {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/locomotion.mres");
        let graph = animgraph_runtime::mres::load_file(path).unwrap().graph;
        let mut backend = RecordingBackend::with_clips(&[
            ("idle", 1.0, true),
            ("walk", 1.0, true),
            ("run", 1.0, true),
            ("jump", 0.5, false),
        ]);
        let player = animgraph_runtime::AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
        (graph.into_graph(), player)
    }

    fn until(debugger: &mut Debugger, mut done: impl FnMut(&Debugger) -> bool, pump: &mut dyn FnMut()) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !done(debugger) {
            assert!(Instant::now() < deadline, "timed out: {}", debugger.status);
            pump();
            debugger.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn attach_follow_a_game_that_quits_and_come_back_when_it_restarts() {
        let (graph, mut player) = player();
        let server = LinkServer::bind(SocketAddr::from(([127, 0, 0, 1], 0)), "game").unwrap();
        let address = server.local_addr();
        let other = server.register("Other", &player, "res_another_graph", None);
        let id = server.register("Runner", &player, &graph.uid, None);
        let mut debugger = Debugger { address: address.to_string(), ..Default::default() };
        debugger.connect();
        until(&mut debugger, |d| d.instances.len() == 2, &mut || {});
        assert_eq!(debugger.matching(&graph.uid).iter().map(|i| i.id).collect::<Vec<_>>(), [id]);
        assert_ne!(other, id);
        debugger.attach(id);
        until(&mut debugger, |d| d.attached.is_some(), &mut || {});
        let mut buffer = player.new_buffer();
        player.fire_by_name("jump").unwrap();
        let server = std::cell::RefCell::new(Some(server));
        let mut pump = || {
            player.advance(1.0 / 60.0, &mut buffer);
            if let Some(s) = server.borrow().as_ref() {
                s.publish(id, &player);
            }
        };
        until(
            &mut debugger,
            |d| d.playback("Base").is_some_and(|p| p.current.as_deref() == Some("Jump")),
            &mut pump,
        );
        assert!(debugger.shows(&graph.uid));
        assert!(!debugger.shows("res_another_graph"));
        assert!(debugger.events.iter().any(|e| e.contains("Move -> Jump")), "{:?}", debugger.events);

        // The game quits: nothing stale stays.
        drop(server.borrow_mut().take());
        until(&mut debugger, |d| !d.connected(), &mut || {});
        assert!(debugger.last.is_none() && debugger.attached.is_none() && debugger.instances.is_empty());
        assert!(debugger.playback("Base").is_none());

        // It restarts on the same port: the debugger finds it and re-attaches to "Runner".
        let (_, player2) = self::player();
        let restarted = LinkServer::bind(address, "game").unwrap();
        let id2 = restarted.register("Runner", &player2, &graph.uid, None);
        let mut player2 = player2;
        let mut buffer2 = player2.new_buffer();
        let mut pump2 = || {
            player2.advance(1.0 / 60.0, &mut buffer2);
            restarted.publish(id2, &player2);
        };
        until(&mut debugger, |d| d.shows(&graph.uid), &mut pump2);
        assert_eq!(debugger.attached.as_ref().map(|a| a.name.as_str()), Some("Runner"));

        // Detach: back to the editor's own player.
        debugger.detach();
        assert!(!debugger.shows(&graph.uid));
    }

    #[test]
    fn a_bad_address_or_no_game_is_said_plainly() {
        let mut debugger = Debugger { address: "10.0.0.1:47800".into(), ..Default::default() };
        debugger.connect();
        assert!(debugger.status.contains("loopback"), "{}", debugger.status);
        // A port nothing listens on (bound then released).
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
        debugger.address = free.to_string();
        debugger.connect();
        assert!(!debugger.connected());
        assert!(debugger.status.contains("no game"), "{}", debugger.status);
    }
}
