//! The asset loaders on a headless Bevy `App` (no window, no GPU): the bundled graphs and
//! skeleton load, and a broken graph fails with the runtime's located error.

use std::time::{Duration, Instant};

use animgraph_bevy::{AnimGraphPlugin, GraphAsset, SkeletonAsset};
use bevy::asset::{AssetPlugin, LoadState, UntypedAssetId};
use bevy::prelude::*;

/// A headless app reading assets from `root`.
fn app(root: &str) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin { file_path: root.into(), ..default() }, AnimGraphPlugin));
    app.finish();
    app.cleanup();
    app
}

/// Updates until the asset loads or fails (at most 20 seconds), and returns its state.
fn settle(app: &mut App, id: impl Into<UntypedAssetId>) -> LoadState {
    let id = id.into();
    let start = Instant::now();
    loop {
        app.update();
        let state = app.world().resource::<AssetServer>().get_load_state(id).expect("the asset is known");
        if matches!(state, LoadState::Loaded | LoadState::Failed(_))
            || start.elapsed() > Duration::from_secs(20)
        {
            return state;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

#[test]
fn the_bundled_graphs_and_skeleton_load() {
    let mut app = app(ASSETS);
    let server = app.world().resource::<AssetServer>().clone();
    let robot: Handle<GraphAsset> = server.load("characters/robot/robot.mres");
    let gbot: Handle<GraphAsset> = server.load("characters/gbot/gbot.mres");
    let skeleton: Handle<SkeletonAsset> = server.load("characters/gbot/gbot.mskel");
    for id in [robot.id().untyped(), gbot.id().untyped(), skeleton.id().untyped()] {
        assert!(matches!(settle(&mut app, id), LoadState::Loaded), "{id:?} did not load");
    }
    let graphs = app.world().resource::<Assets<GraphAsset>>();
    let robot = graphs.get(&robot).unwrap();
    let layers: Vec<&str> = robot.graph.layers.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(layers.len(), 2, "{layers:?}");
    assert_eq!(graphs.get(&gbot).unwrap().graph.layers.len(), 3);
    let skeleton = &app.world().resource::<Assets<SkeletonAsset>>().get(&skeleton).unwrap().skeleton;
    assert_eq!(skeleton.bone_count(), 16);
}

#[test]
fn a_broken_graph_fails_with_the_located_error() {
    let dir = std::env::temp_dir().join(format!("animgraph-bevy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read_to_string(format!("{ASSETS}/graphs/locomotion.mres")).unwrap();
    // A transition to a state that does not exist.
    let broken = good.replace(r#""To": "Move", "ExitTime": 0.9"#, r#""To": "Mvoe", "ExitTime": 0.9"#);
    assert_ne!(good, broken, "the fixture changed; update the replacement");
    std::fs::write(dir.join("broken.mres"), broken).unwrap();
    let mut app = app(dir.to_str().unwrap());
    let handle: Handle<GraphAsset> = app.world().resource::<AssetServer>().load("broken.mres");
    let LoadState::Failed(error) = settle(&mut app, handle.id()) else { panic!("a broken graph loaded") };
    let message = error.to_string();
    assert!(message.contains("broken.mres"), "{message}");
    assert!(message.contains("t_land"), "the message names the resource: {message}");
    assert!(message.contains("Mvoe"), "the message names the bad value: {message}");
    std::fs::remove_dir_all(&dir).unwrap();
}
