//! Hot reload through Bevy's file watcher on a headless `App`: an edited `.mres` is rebound on
//! the running character, which keeps its states and parameter values; a broken save leaves
//! the running graph in place.

use std::path::Path;
use std::time::{Duration, Instant};

use animgraph_bevy::{AnimGraph2D, AnimGraphPlugin};
use bevy::asset::AssetPlugin;
use bevy::prelude::*;

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

fn app(root: &Path) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: root.to_str().unwrap().into(),
            watch_for_changes_override: Some(true),
            ..default()
        },
        AnimGraphPlugin,
    ));
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    app.finish();
    app.cleanup();
    app
}

/// Updates (with short sleeps, so the loader and watcher threads run) until `done` holds or
/// `seconds` pass; returns whether it held.
fn until(app: &mut App, seconds: u64, mut done: impl FnMut(&mut App) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(seconds) {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

fn player(app: &App, e: Entity) -> &animgraph_runtime::AnimationGraphPlayer {
    app.world().get::<AnimGraph2D>(e).unwrap().player().unwrap()
}

#[test]
fn an_edited_graph_is_rebound_keeping_states_and_a_broken_save_changes_nothing() {
    let dir = animgraph_test_support::scratch_dir("bevy-reload");
    let gbot = format!("{ASSETS}/characters/gbot");
    let good = std::fs::read_to_string(format!("{gbot}/gbot.mres")).unwrap();
    std::fs::write(dir.join("gbot.mres"), &good).unwrap();
    std::fs::copy(format!("{gbot}/gbot.mskel"), dir.join("gbot.mskel")).unwrap();
    let mut app = app(&dir);
    let server = app.world().resource::<AssetServer>().clone();
    let e = app.world_mut().spawn(AnimGraph2D::new(server.load("gbot.mres"), server.load("gbot.mskel"))).id();
    assert!(until(&mut app, 30, |app| app.world().get::<AnimGraph2D>(e).unwrap().character().is_some()));
    // Off the ground and moving: the base layer leaves its entry state.
    {
        let mut c = app.world_mut().get_mut::<AnimGraph2D>(e).unwrap();
        let p = c.player_mut().unwrap();
        p.set_bool_by_name("grounded", true).unwrap();
        p.set_float_by_name("speed", 2.5).unwrap();
        p.fire_by_name("jump").unwrap();
    }
    for _ in 0..5 {
        app.update();
    }
    app.world_mut()
        .get_mut::<AnimGraph2D>(e)
        .unwrap()
        .player_mut()
        .unwrap()
        .set_bool_by_name("grounded", false)
        .unwrap();
    for _ in 0..85 {
        app.update();
    }
    let before = player(&app, e).current_state_path(0).unwrap().to_string();
    let upper = player(&app, e).current_state_path(1).unwrap().to_string();
    assert!(before.contains("Air") || before.contains("Fall"), "{before}");
    let tick = player(&app, e).tick();

    // The animator adds a parameter and saves.
    let edited = good
        .replace(
            r#""p_speed": { "type": "GraphParameter", "props": { "Name": "speed", "Type": "Float" } },"#,
            r#""p_speed": { "type": "GraphParameter", "props": { "Name": "speed", "Type": "Float" } },
    "p_tired": { "type": "GraphParameter", "props": { "Name": "tired", "Type": "Float", "Default": 0.5 } },"#,
        )
        .replace(r#"{ "res": "p_speed" },"#, r#"{ "res": "p_speed" }, { "res": "p_tired" },"#);
    assert_ne!(edited, good, "the fixture changed; update the edit");
    std::thread::sleep(Duration::from_millis(50));
    std::fs::write(dir.join("gbot.mres"), &edited).unwrap();
    assert!(
        until(&mut app, 30, |app| player(app, e).find_parameter("tired").is_some()),
        "the edited graph was never rebound"
    );
    let p = player(&app, e);
    assert_eq!(p.current_state_path(0), Some(before.as_str()), "the base layer kept its state");
    assert_eq!(p.current_state_path(1), Some(upper.as_str()), "the upper-body layer kept its state");
    assert_eq!(p.get_float(p.find_parameter("speed").unwrap()).unwrap(), 2.5, "parameters keep their values");
    assert!(p.tick() > tick, "the character plays on");

    // A save with a syntax error: Bevy keeps the loaded graph and logs the loader's error.
    std::fs::write(dir.join("gbot.mres"), &edited[..edited.len() / 2]).unwrap();
    let handle = app.world().get::<AnimGraph2D>(e).unwrap().graph.clone();
    assert!(
        until(&mut app, 30, |app| matches!(
            app.world().resource::<AssetServer>().get_load_state(&handle),
            Some(bevy::asset::LoadState::Failed(_))
        )),
        "the broken save was never read"
    );
    for _ in 0..10 {
        app.update();
    }
    let p = player(&app, e);
    assert!(p.find_parameter("tired").is_some(), "the running graph stays in place");
    assert_eq!(p.current_state_path(0), Some(before.as_str()));
    std::fs::remove_dir_all(&dir).unwrap();
}
