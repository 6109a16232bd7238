//! The live link from a Bevy app: an editor-side `LinkClient` lists the characters by entity
//! name, attaches to one and receives its frames; a despawned character is withdrawn.
#![cfg(feature = "link")]

use std::time::{Duration, Instant};

use animgraph_bevy::{AnimGraph2D, AnimGraphLink, AnimGraphLinkPlugin, AnimGraphPlugin};
use animgraph_runtime::link::{ClientEvent, InstanceInfo, LinkClient, ServerMessage};
use bevy::prelude::*;

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin { file_path: ASSETS.into(), ..default() },
        AnimGraphPlugin,
        AnimGraphLinkPlugin::new("link test").at(([127, 0, 0, 1], 0).into()),
    ));
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    app.finish();
    app.cleanup();
    app
}

/// Waits (updating the app) for a message the predicate accepts.
fn wait_for(
    app: &mut App,
    client: &LinkClient,
    what: &str,
    mut accept: impl FnMut(&ServerMessage) -> bool,
) -> ServerMessage {
    let begin = Instant::now();
    loop {
        assert!(begin.elapsed() < Duration::from_secs(20), "no {what} from the game");
        app.update();
        while let Some(event) = client.next(Duration::from_millis(1)) {
            match event {
                ClientEvent::Message(m) if accept(&m) => return m,
                ClientEvent::Disconnected => panic!("the game dropped the editor while waiting for {what}"),
                _ => {}
            }
        }
    }
}

fn listed(m: &ServerMessage) -> Option<&[InstanceInfo]> {
    match m {
        ServerMessage::Hello { instances, .. } | ServerMessage::Instances { instances } => Some(instances),
        _ => None,
    }
}

#[test]
fn the_editor_lists_attaches_to_and_loses_bevy_characters() {
    let mut app = app();
    let server = app.world().resource::<AssetServer>().clone();
    let spawn = |app: &mut App, name: &str| {
        let c = AnimGraph2D::new(
            server.load("characters/gbot/gbot.mres"),
            server.load("characters/gbot/gbot.mskel"),
        );
        app.world_mut().spawn((Name::new(name.to_string()), c)).id()
    };
    let first = spawn(&mut app, "GBot A");
    spawn(&mut app, "GBot B");
    let address = app.world().resource::<AnimGraphLink>().address();
    let mut client = LinkClient::connect(address, Duration::from_secs(5)).expect("the game listens");

    // Both characters are listed by name, with their graph's uid and asset path.
    let message = wait_for(&mut app, &client, "both characters", |m| listed(m).is_some_and(|i| i.len() == 2));
    let instances = listed(&message).unwrap().to_vec();
    let names: Vec<&str> = instances.iter().map(|i| i.name.as_str()).collect();
    assert!(names.contains(&"GBot A") && names.contains(&"GBot B"), "{names:?}");
    assert!(instances.iter().all(|i| i.graph_uid == "res_gbot_graph"), "{instances:?}");
    assert_eq!(instances[0].graph_path.as_deref(), Some("characters/gbot/gbot.mres"));
    let a = instances.iter().find(|i| i.name == "GBot A").unwrap().id;

    // Attached: the layers and parameters, then frames with the states, tick by tick.
    client.attach(a).unwrap();
    let attached = wait_for(&mut app, &client, "attached", |m| matches!(m, ServerMessage::Attached { .. }));
    let ServerMessage::Attached { layers, parameters, .. } = attached else { unreachable!() };
    assert_eq!(layers, ["Base", "UpperBody", "Breathing"]);
    assert!(parameters.iter().any(|p| p == "speed"), "{parameters:?}");
    let mut ticks = Vec::new();
    while ticks.len() < 3 {
        let frame = wait_for(&mut app, &client, "a frame", |m| matches!(m, ServerMessage::Frame { .. }));
        let ServerMessage::Frame { instance, frame, .. } = frame else { unreachable!() };
        assert_eq!(instance, a);
        assert_eq!(frame.layers[0].state, "Move");
        ticks.push(frame.tick);
    }
    assert!(ticks.windows(2).all(|w| w[1] > w[0]), "frames in order: {ticks:?}");

    // Despawned: the editor is detached and the list shrinks.
    app.world_mut().despawn(first);
    wait_for(
        &mut app,
        &client,
        "the detach",
        |m| matches!(m, ServerMessage::Detached { instance, .. } if *instance == a),
    );
    let message =
        wait_for(&mut app, &client, "the shorter list", |m| listed(m).is_some_and(|i| i.len() == 1));
    assert_eq!(listed(&message).unwrap()[0].name, "GBot B");
    assert_eq!(app.world().resource::<AnimGraphLink>().listed(), 1);
}
