//! The arena binary run headless as a real process: an editor-side link client attaches to its
//! characters and sees their states change; editing its graph file rebinds them, keeping their
//! states; a broken save leaves them running.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use animgraph_runtime::frame::PlayerFrame;
use animgraph_runtime::link::{ClientEvent, LinkClient, ServerMessage};

const WAIT: Duration = Duration::from_secs(20);

struct Arena {
    child: Child,
    lines: Receiver<String>,
    address: SocketAddr,
}

impl Drop for Arena {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn asset(p: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets").join(p)
}

fn start(extra: &[&str]) -> Arena {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["--headless", "--link", "0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the arena starts");
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let first = lines.recv_timeout(WAIT).expect("the arena prints its link address");
    let address = first
        .strip_prefix("arena: link on ")
        .and_then(|rest| rest.split(';').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line: {first}"));
    Arena { child, lines, address }
}

/// Waits for a stdout line containing `text`.
fn wait_line(arena: &Arena, text: &str) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(!left.is_zero(), "the arena never printed {text:?}");
        if let Ok(line) = arena.lines.recv_timeout(left) {
            if line.contains(text) {
                return line;
            }
        }
    }
}

/// Connects, reads the hello, attaches to the instance named `name`.
fn attach(arena: &Arena, name: &str) -> (LinkClient, Vec<animgraph_runtime::link::InstanceInfo>) {
    let mut client = LinkClient::connect(arena.address, WAIT).unwrap();
    let instances = match client.next(WAIT) {
        Some(ClientEvent::Message(ServerMessage::Hello { instances, .. })) => instances,
        other => panic!("no hello: {other:?}"),
    };
    let id =
        instances.iter().find(|i| i.name == name).unwrap_or_else(|| panic!("no {name}: {instances:?}")).id;
    client.attach(id).unwrap();
    (client, instances)
}

/// The next frame message, or `None` at disconnect.
fn next_frame(client: &LinkClient) -> Option<PlayerFrame> {
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        match client.next(Duration::from_millis(200)) {
            Some(ClientEvent::Message(ServerMessage::Frame { frame, .. })) => return Some(frame),
            Some(ClientEvent::Disconnected) => return None,
            _ => {}
        }
    }
    panic!("no frame within {WAIT:?}");
}

#[test]
fn an_attached_client_sees_a_running_characters_states_change() {
    let arena = start(&["--gbots", "2", "--robots", "1"]);
    let (mut client, instances) = attach(&arena, "GBot 1");
    let gbot_uid =
        animgraph_runtime::mres::load_file(asset("characters/gbot/gbot.mres")).unwrap().graph.uid.clone();
    let robot_uid =
        animgraph_runtime::mres::load_file(asset("characters/robot/robot.mres")).unwrap().graph.uid.clone();
    assert_eq!(
        instances.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(),
        ["GBot 1", "GBot 2", "Robot 1"]
    );
    assert!(instances[..2].iter().all(|i| i.graph_uid == gbot_uid));
    assert_eq!(instances[2].graph_uid, robot_uid);

    // Its inputs jump every few seconds: the base layer goes Move -> Air/... -> Move.
    let mut states = std::collections::BTreeSet::new();
    let mut transitions = 0;
    let mut last_tick = 0;
    let deadline = Instant::now() + WAIT;
    while (states.len() < 2 || transitions == 0) && Instant::now() < deadline {
        let frame = next_frame(&client).expect("the arena is running");
        assert!(frame.tick > last_tick, "ticks go forward");
        last_tick = frame.tick;
        assert_eq!(frame.layers.len(), 3, "GBot's graph has three layers");
        states.insert(frame.layers[0].state.clone());
        transitions += frame.events.iter().filter(|e| e.kind == "TransitionStarted").count();
    }
    assert!(states.len() >= 2 && transitions > 0, "saw {states:?}, {transitions} transitions");
    // An attached character is explained: each frame says what its layers checked.
    let frame = next_frame(&client).unwrap();
    let explain = frame.explain.expect("attached characters stream their explanation");
    assert_eq!(explain.layers.len(), 3);
    assert!(states.contains("Move"), "{states:?}");

    // The Robot streams its own two layers.
    client.detach().unwrap();
    let robot = instances[2].id;
    client.attach(robot).unwrap();
    let deadline = Instant::now() + WAIT;
    loop {
        assert!(Instant::now() < deadline, "no Robot frame");
        if let Some(ClientEvent::Message(ServerMessage::Frame { instance, frame, .. })) =
            client.next(Duration::from_millis(200))
        {
            if instance == robot {
                assert_eq!(frame.layers.len(), 2);
                break;
            }
        }
    }

    // The game quits: the client is told, without hanging.
    drop(arena);
    let deadline = Instant::now() + WAIT;
    while client.is_connected() || client.next(Duration::from_millis(50)).is_some() {
        assert!(Instant::now() < deadline, "the disconnect was not noticed");
    }
    assert!(!client.is_connected());
}

#[test]
fn saving_the_graph_rebinds_running_characters_and_a_broken_save_changes_nothing() {
    let dir = animgraph_test_support::scratch_dir("arena-reload");
    let path = dir.join("gbot.mres");
    std::fs::copy(asset("characters/gbot/gbot.mres"), &path).unwrap();
    let arena = start(&["--gbots", "2", "--robots", "0", "--gbot-graph", path.to_str().unwrap()]);
    let (client, _) = attach(&arena, "GBot 1");
    for _ in 0..30 {
        next_frame(&client).unwrap();
    }

    // The editor saves a new version: one more parameter.
    let mut graph = animgraph_runtime::mres::load_file(&path).unwrap().graph.into_graph();
    graph.parameters.push(animgraph_runtime::graph::GraphParameter {
        name: "reload_marker".into(),
        kind: animgraph_runtime::graph::ParameterType::Float,
        default: 0.5,
        latch: false,
    });
    animgraph_runtime::mres::save_file(&graph, &path).unwrap();
    let mut before = next_frame(&client).unwrap();
    let after = loop {
        let frame = next_frame(&client).unwrap();
        if frame.parameter("reload_marker").is_some() {
            break frame;
        }
        assert!(frame.tick < before.tick + 600, "no rebind within 10 s of game time");
        before = frame;
    };
    wait_line(&arena, "2 GBots rebound");
    // Rebound in place: the next tick, the same layers in the same (or the mix's next) states.
    assert_eq!(after.tick, before.tick + 1);
    assert_eq!(after.parameter("reload_marker"), Some(0.5));
    for (b, a) in before.layers.iter().zip(&after.layers) {
        let continued = a.state == b.state || b.transition_to.as_deref() == Some(a.state.as_str());
        assert!(continued, "layer went from {b:?} to {a:?}");
    }

    // A save naming a clip the skeleton lacks rebinds, and says so (it used to say only
    // "rebound, states kept").
    let text = std::fs::read_to_string(&path).unwrap();
    animgraph_runtime::mres::write_atomic(
        &path,
        text.replacen("\"Clip\": \"land\"", "\"Clip\": \"land_missing\"", 1).as_bytes(),
    )
    .unwrap();
    let line = wait_line(&arena, "2 GBots rebound, states kept; ");
    assert!(line.contains("land_missing"), "{line}");

    // A broken save: reported, and the characters keep the graph they had.
    std::fs::write(&path, "{ \"format\": 2, broken").unwrap();
    wait_line(&arena, "keep the previous graph");
    let mut last = next_frame(&client).unwrap();
    for _ in 0..30 {
        let frame = next_frame(&client).unwrap();
        assert!(frame.tick > last.tick);
        assert_eq!(frame.parameter("reload_marker"), Some(0.5));
        last = frame;
    }
    std::fs::remove_dir_all(&dir).ok();
}
