//! The files each target starts from: the bundled assets and fixtures, and messages, packets
//! and recordings made from them.

use animgraph_runtime::link::{ClientMessage, InstanceInfo, PROTOCOL_VERSION, ServerMessage};
use animgraph_runtime::recording::{RecordedFrame, Recording, RecordingHeader};
use animgraph_runtime::script::{Script, Simulation};
use animgraph_runtime::{AnimationGraphPlayer, frame::PlayerFrame, net};

use crate::targets::{CLIPS, locomotion};

macro_rules! asset {
    ($path:literal) => {
        include_bytes!(concat!("../../../", $path)).to_vec()
    };
}

/// A short recording of the locomotion graph and its script.
fn recording() -> Vec<u8> {
    let script =
        Script::parse(include_str!("../../../assets/scripts/locomotion.json")).expect("bundled script");
    let mut simulation = Simulation::recording(locomotion(), &script).expect("bundled script runs");
    simulation.player.set_explain(true);
    let layers = vec!["Base".to_string()];
    let mut recording = Recording::new(RecordingHeader::new("seed", None, "seed", layers), 40);
    let mut frames = 0;
    while !simulation.done() && frames < 40 {
        simulation.step().expect("bundled script steps");
        recording.push(RecordedFrame::capture(
            &simulation.player,
            simulation.buffer(),
            &simulation.backend,
            frames as f32 / 60.0,
        ));
        frames += 1;
    }
    recording.to_text().into_bytes()
}

/// A full snapshot and a delta of the locomotion graph.
fn packets() -> Vec<Vec<u8>> {
    let mut backend = animgraph_runtime::script::RecordingBackend::with_clips(CLIPS);
    let mut player = AnimationGraphPlayer::bind(locomotion(), &mut backend).expect("bundled graph binds");
    let mut buffer = player.new_buffer();
    let mut authority = net::Authority::default();
    let mut out = Vec::new();
    let _ = player.set_float_by_name("speed", 2.0);
    player.advance(0.1, &mut buffer);
    let mut full = Vec::new();
    authority.snapshot(&mut player, &mut full);
    authority.ack(player.tick());
    let _ = player.fire_by_name("jump");
    player.advance(0.1, &mut buffer);
    authority.snapshot(&mut player, &mut out);
    vec![full, out]
}

fn server_lines() -> Vec<u8> {
    let mut backend = animgraph_runtime::script::RecordingBackend::with_clips(CLIPS);
    let mut player = AnimationGraphPlayer::bind(locomotion(), &mut backend).expect("bundled graph binds");
    let mut buffer = player.new_buffer();
    player.advance(0.3, &mut buffer);
    let instance = InstanceInfo {
        id: 1,
        name: "GBot".into(),
        graph_uid: "uid".into(),
        graph_path: Some("g.mres".into()),
    };
    let messages = [
        ServerMessage::Hello {
            protocol: PROTOCOL_VERSION,
            game: "seed".into(),
            instances: vec![instance.clone()],
        },
        ServerMessage::Instances { instances: vec![instance] },
        ServerMessage::Attached {
            instance: 1,
            layers: vec!["Base".into()],
            parameters: vec!["speed".into()],
        },
        ServerMessage::Frame {
            instance: 1,
            frame: PlayerFrame::capture(&player),
            samples: Vec::new(),
            layer_infos: Vec::new(),
        },
        ServerMessage::Detached { instance: 1, reason: "requested".into() },
        ServerMessage::Error { message: "no".into() },
    ];
    messages
        .iter()
        .flat_map(|m| format!("{}\n", serde_json::to_string(m).expect("serialises")).into_bytes())
        .collect()
}

fn client_lines() -> Vec<u8> {
    [
        ClientMessage::Hello { protocol: PROTOCOL_VERSION },
        ClientMessage::Ping,
        ClientMessage::Attach { instance: 3 },
        ClientMessage::Detach,
    ]
    .iter()
    .flat_map(|m| format!("{}\n", serde_json::to_string(m).expect("serialises")).into_bytes())
    .collect()
}

/// The seed inputs of the target named `target` (a name from [`crate::targets::ALL`]).
pub fn seeds(target: &str) -> Vec<Vec<u8>> {
    match target {
        "mres_load" => vec![
            asset!("assets/graphs/locomotion.mres"),
            asset!("assets/graphs/showcase.mres"),
            asset!("assets/graphs/biped.mres"),
            asset!("assets/characters/gbot/gbot.mres"),
            asset!("assets/lint/mistakes.mres"),
        ],
        "mskel_load" => vec![asset!("assets/characters/gbot/gbot.mskel")],
        "spine_import" => vec![
            asset!("crates/animgraph-2d/tests/spine/hero-4.1.json"),
            asset!("crates/animgraph-2d/tests/spine/oracle/mesh-deform.json"),
            asset!("crates/animgraph-2d/tests/spine/oracle/skins.json"),
            asset!("crates/animgraph-2d/tests/spine/oracle/transform.json"),
            asset!("crates/animgraph-2d/tests/spine/oracle/path.json"),
            asset!("crates/animgraph-2d/tests/spine/oracle/dark-tint.json"),
            asset!("crates/animgraph-2d/tests/spine/oracle/sequence.json"),
            asset!("crates/animgraph-2d/tests/spine/oracle/curves.json"),
            asset!("crates/animgraph-2d/tests/spine/oracle/inherit.json"),
        ],
        "spine_atlas" => vec![
            asset!("crates/animgraph-2d/tests/spine/oracle/skins.atlas"),
            asset!("crates/animgraph-2d/tests/spine/oracle/mesh-deform.atlas"),
            asset!("crates/animgraph-2d/tests/spine/oracle/sequence.atlas"),
        ],
        "godot_import" => vec![asset!("assets/characters/gbot/player.tscn")],
        "gltf_import" => vec![
            asset!("assets/characters/fox/Fox.glb"),
            asset!("assets/characters/morph/MorphStressTest.gltf"),
        ],
        "script_parse" => vec![
            asset!("assets/scripts/locomotion.json"),
            asset!("assets/scripts/showcase.json"),
            asset!("assets/characters/gbot/gbot.script.json"),
        ],
        "recording_load" => vec![recording()],
        "clip_map_load" => vec![
            asset!("assets/graphs/biped.robot.clipmap.json"),
            asset!("assets/graphs/biped.mannequiny.clipmap.json"),
        ],
        "markers_load" => vec![
            String::from_utf8(asset!("assets/characters/robot/RobotExpressive.markers.json"))
                .expect("UTF-8")
                .replace("Walking", "walk")
                .replace("Running", "run")
                .into_bytes(),
            br#"{"walk": [["L", 0.0], ["R", 0.5]], "run": [["R", 0.125], ["L", 0.5], ["L", 0.75]]}"#.to_vec(),
        ],
        "net_receive" => packets(),
        "link_from_editor" => vec![client_lines()],
        "link_from_game" => vec![server_lines()],
        other => panic!("no target named {other}"),
    }
}
