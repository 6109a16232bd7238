//! The game: characters, their inputs, the link and hot reload, stepped at a fixed 60 Hz.

pub mod window;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use animgraph_character::{Character, CharacterInstance};
use animgraph_runtime::link::{LinkServer, parse_address};
use animgraph_runtime::watch::{GraphFile, Reload};

use crate::Args;

/// One frame's length.
pub const DT: f32 = 1.0 / 60.0;

/// The kind of character, which decides the inputs it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// GBot (2D): speed, jump, hurt, waving.
    GBot,
    /// RobotExpressive (3D): speed, jump, emote.
    Robot,
}

/// A small deterministic generator (SplitMix64), so a seed replays the same game.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..1`.
    pub fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A whole number in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % (hi - lo + 1) as u64) as u32
    }
}

/// One character of the game.
pub struct Actor {
    /// `GBot 1`, `Robot 2`.
    pub name: String,
    /// Which inputs it gets.
    pub kind: Kind,
    /// The character.
    pub instance: CharacterInstance,
    /// Which graph file it plays (index into the game's graphs).
    pub graph: usize,
    /// Its id on the link.
    pub link_id: Option<u32>,
    rng: Rng,
    next_speed: u64,
    next_jump: u64,
    next_extra: u64,
}

impl Actor {
    /// This frame's inputs: a new target speed every few seconds, a jump now and then, a wave
    /// or an emote. Parameters a (reloaded) graph lacks are skipped.
    fn drive(&mut self, frame: u64) {
        let player = self.instance.player_mut();
        if frame >= self.next_speed {
            let speed = match self.rng.range(0, 3) {
                0 => 0.0,
                1 => 0.8 + self.rng.unit(),
                _ => 1.5 + self.rng.unit() * 2.0,
            };
            let _ = player.set_float_by_name("speed", speed);
            self.next_speed = frame + self.rng.range(90, 240) as u64;
        }
        if frame >= self.next_jump {
            let _ = player.fire_by_name("jump");
            self.next_jump = frame + self.rng.range(150, 300) as u64;
        }
        if frame >= self.next_extra {
            match self.kind {
                Kind::GBot => {
                    let wave = self.rng.unit() < 0.5;
                    let _ = player.set_bool_by_name("waving", wave);
                    if self.rng.unit() < 0.2 {
                        let _ = player.fire_by_name("hurt");
                    }
                }
                Kind::Robot => {
                    let emote = self.rng.range(0, 3) as i32;
                    let _ = player.set_int_by_name("emote", emote);
                    let _ = player.set_float_by_name("emote_weight", if emote == 0 { 0.0 } else { 1.0 });
                }
            }
            self.next_extra = frame + self.rng.range(120, 360) as u64;
        }
    }
}

/// A graph file and the characters that play it.
pub struct GraphSource {
    /// The watched file.
    pub file: GraphFile,
    /// What the file's graph is shown as.
    pub label: &'static str,
}

/// Everything the game holds.
pub struct Game {
    /// The characters.
    pub actors: Vec<Actor>,
    /// The graph files they play.
    pub graphs: Vec<GraphSource>,
    /// The link, when on.
    pub link: Option<LinkServer>,
    /// Frames run so far.
    pub frame: u64,
    /// Lines for the window's log (and stdout when headless).
    pub log: Vec<String>,
}

fn asset(relative: &str) -> PathBuf {
    let here = PathBuf::from(relative);
    if here.exists() { here } else { PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative) }
}

fn load_character(path: &Path) -> Result<Character, String> {
    Ok(Character::load(path, None)?.character)
}

impl Game {
    /// Loads the characters and graphs and starts the link.
    pub fn new(args: &Args) -> Result<Game, String> {
        let gbot_graph = args.gbot_graph.clone().unwrap_or_else(|| asset("assets/characters/gbot/gbot.mres"));
        let robot_graph =
            args.robot_graph.clone().unwrap_or_else(|| asset("assets/characters/robot/robot.mres"));
        let mut graphs = Vec::new();
        let mut actors = Vec::new();
        let mut rng = Rng(args.seed);
        for (kind, count, graph_path, skeleton, label) in [
            (Kind::GBot, args.gbots, gbot_graph, "assets/characters/gbot/gbot.mskel", "GBot"),
            (Kind::Robot, args.robots, robot_graph, "assets/characters/robot/RobotExpressive.glb", "Robot"),
        ] {
            if count == 0 {
                continue;
            }
            let file = GraphFile::open(&graph_path).map_err(|e| format!("{}: {e}", graph_path.display()))?;
            let character = load_character(&asset(skeleton))?;
            let first = CharacterInstance::new(&character, file.graph())
                .map_err(|e| format!("{}: {e}", graph_path.display()))?;
            let index = graphs.len();
            for n in 0..count {
                let instance = first.instantiate();
                let seed = rng.next();
                actors.push(Actor {
                    name: format!("{label} {}", n + 1),
                    kind,
                    instance,
                    graph: index,
                    link_id: None,
                    rng: Rng(seed),
                    next_speed: 0,
                    next_jump: 60 + (n as u64) * 37,
                    next_extra: 30 + (n as u64) * 23,
                });
            }
            graphs.push(GraphSource { file, label });
        }
        let link = if args.no_link {
            None
        } else {
            let address = match &args.link {
                Some(a) => parse_address(a).map_err(|e| e.to_string())?,
                None => animgraph_runtime::link::default_address().map_err(|e| e.to_string())?,
            };
            Some(LinkServer::bind(address, "animgraph arena").map_err(|e| e.to_string())?)
        };
        let mut game = Game { actors, graphs, link, frame: 0, log: Vec::new() };
        game.register_all();
        Ok(game)
    }

    fn register_all(&mut self) {
        let Some(link) = &self.link else { return };
        for actor in &mut self.actors {
            let source = &self.graphs[actor.graph].file;
            let path = source.path().display().to_string();
            let uid = source.graph().uid.clone();
            actor.link_id = Some(link.register(&actor.name, actor.instance.player(), &uid, Some(&path)));
        }
    }

    fn say(&mut self, line: String) {
        self.log.push(line);
        if self.log.len() > 200 {
            self.log.remove(0);
        }
    }

    /// Reloads graph files that changed (one atomic load each when none did): every character
    /// of a reloaded graph rebinds, keeping its states; a file that fails to load leaves the
    /// running graph as it was.
    pub fn hot_reload(&mut self) {
        for g in 0..self.graphs.len() {
            let label = self.graphs[g].label;
            let path = self.graphs[g].file.path().display().to_string();
            let line = match self.graphs[g].file.reload() {
                Reload::Unchanged => continue,
                Reload::Failed(e) => {
                    format!("reload of {path} failed, {label}s keep the previous graph: {e}")
                }
                Reload::Loaded(graph) => {
                    let graph = graph.clone();
                    let mut rebound = 0;
                    let mut failed = Vec::new();
                    let mut warnings: Vec<String> = Vec::new();
                    for actor in self.actors.iter_mut().filter(|a| a.graph == g) {
                        match actor.instance.rebind(&graph) {
                            Ok(()) => {
                                rebound += 1;
                                for w in actor.instance.player().warnings() {
                                    if !warnings.contains(&w.message) {
                                        warnings.push(w.message.clone());
                                    }
                                }
                            }
                            Err(e) => failed.push(format!("{}: {e}", actor.name)),
                        }
                    }
                    // Bind warnings (a clip the skeleton lacks) are said, not hidden behind "rebound".
                    let warned = if warnings.is_empty() {
                        String::new()
                    } else {
                        let shown: Vec<&str> = warnings.iter().take(3).map(String::as_str).collect();
                        let more = warnings.len().saturating_sub(3);
                        let more = if more > 0 { format!(" (+{more} more)") } else { String::new() };
                        format!("; {} warnings: {}{more}", warnings.len(), shown.join("; "))
                    };
                    if failed.is_empty() {
                        format!("reloaded {path}: {rebound} {label}s rebound, states kept{warned}")
                    } else {
                        format!(
                            "reloaded {path}: {rebound} rebound; {} kept the previous graph",
                            failed.join("; ")
                        )
                    }
                }
            };
            self.say(line);
        }
    }

    /// One frame: reload changed graphs, drive and update every character, publish to the link.
    pub fn step(&mut self) {
        self.hot_reload();
        let frame = self.frame;
        for actor in &mut self.actors {
            actor.drive(frame);
            // Explain mode only while an editor watches (it then shows why transitions fired).
            let watched =
                matches!((&self.link, actor.link_id), (Some(link), Some(id)) if link.is_attached(id));
            actor.instance.player_mut().set_explain(watched);
            actor.instance.update(DT);
            if let (Some(link), Some(id)) = (&self.link, actor.link_id) {
                link.publish_posed(
                    id,
                    actor.instance.player(),
                    actor.instance.buffer(),
                    actor.instance.names(),
                );
            }
        }
        self.frame += 1;
    }

    /// Runs without a window at 60 Hz (or as fast as possible with `--fast`), printing the
    /// link address first and then what happens, until `--frames` (or forever).
    pub fn run_headless(&mut self, args: &Args) {
        let mut out = std::io::stdout();
        match &self.link {
            Some(link) => {
                let _ =
                    writeln!(out, "arena: link on {}; {} characters", link.local_addr(), self.actors.len());
            }
            None => {
                let _ = writeln!(out, "arena: no link; {} characters", self.actors.len());
            }
        }
        let _ = out.flush();
        let start = Instant::now();
        while args.frames == 0 || self.frame < args.frames {
            self.step();
            for line in self.log.drain(..) {
                let _ = writeln!(out, "arena: {line}");
            }
            let _ = out.flush();
            if self.frame % 600 == 0 {
                let states: Vec<String> = self
                    .actors
                    .iter()
                    .map(|a| {
                        format!("{}={}", a.name, a.instance.player().current_state_path(0).unwrap_or("?"))
                    })
                    .collect();
                let _ = writeln!(out, "arena: frame {}: {}", self.frame, states.join(", "));
            }
            if !args.fast {
                let due = start + Duration::from_secs_f64(self.frame as f64 / 60.0);
                if let Some(wait) = due.checked_duration_since(Instant::now()) {
                    std::thread::sleep(wait);
                }
            }
        }
    }
}
