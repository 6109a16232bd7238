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
    let dir = animgraph_test_support::scratch_dir("bevy");
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

/// The frame deltas the characters were advanced by.
#[derive(Resource, Default)]
struct Deltas(Vec<f32>);

fn record(time: Res<Time>, mut deltas: ResMut<Deltas>) {
    deltas.0.push(time.delta_secs());
}

/// Inputs from the character's own tick, so the twin below can repeat them.
fn inputs(p: &mut animgraph_runtime::AnimationGraphPlayer) {
    let t = p.tick();
    p.set_float_by_name("speed", (t % 200) as f32 / 60.0).unwrap();
    p.set_bool_by_name("grounded", t % 150 < 120).unwrap();
}

fn drive(mut characters: Query<&mut animgraph_bevy::AnimGraph2D>) {
    for mut c in &mut characters {
        if let Some(p) = c.player_mut() {
            inputs(p);
        }
    }
}

/// A GBot spawned as a component plays exactly as the runtime's own character does with the
/// same deltas and parameters: the same states and the same pose bits.
#[test]
fn a_2d_character_plays_like_the_runtime_character() {
    use animgraph_bevy::{AnimGraph2D, AnimGraphSystems};
    let mut app = app(ASSETS);
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    app.init_resource::<Deltas>();
    app.add_systems(Update, (drive.before(AnimGraphSystems), record.after(AnimGraphSystems)));
    let server = app.world().resource::<AssetServer>().clone();
    let (graph, skeleton) =
        (server.load("characters/gbot/gbot.mres"), server.load("characters/gbot/gbot.mskel"));
    let entity = app.world_mut().spawn(AnimGraph2D::new(graph, skeleton)).id();
    // Until bound (the deltas of frames before it are dropped), then 300 frames.
    let mut frames = 0;
    while frames < 300 {
        app.update();
        if app.world().get::<AnimGraph2D>(entity).unwrap().character().is_some() {
            frames += 1;
        } else {
            app.world_mut().resource_mut::<Deltas>().0.clear();
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let deltas = app.world().resource::<Deltas>().0.clone();
    assert_eq!(deltas.len(), 300);
    // The runtime's character with the same deltas; on the bind frame `drive` found no player,
    // so the first advance has the default inputs.
    let root = format!("{ASSETS}/characters/gbot");
    let skeleton = std::sync::Arc::new(
        animgraph_2d::Skeleton2D::new(
            animgraph_2d::Skeleton2DData::load(format!("{root}/gbot.mskel")).unwrap(),
        )
        .unwrap(),
    );
    let graph = animgraph_runtime::mres::load_file(format!("{root}/gbot.mres")).unwrap().graph;
    let mut twin = animgraph_2d::animated_2d(skeleton, Some(&graph), 0).unwrap();
    for (i, dt) in deltas.iter().enumerate() {
        if i > 0 {
            inputs(twin.player_mut().unwrap());
        }
        twin.update(*dt);
    }
    let c = app.world().get::<AnimGraph2D>(entity).unwrap().character().unwrap();
    let (p, q) = (c.player().unwrap(), twin.player().unwrap());
    assert_eq!(p.tick(), 300);
    assert_eq!(p.current_state_path(0), q.current_state_path(0));
    assert_eq!(c.backend.pose.channels, twin.backend.pose.channels);
    assert_eq!(c.backend.pose.world, twin.backend.pose.world);
    // The run went somewhere: the pose is not the setup pose.
    assert_ne!(c.backend.pose.channels, c.backend.skeleton().setup.channels);
}

/// Signals arrive as messages naming the entity: two GBots, one of them hurt.
#[test]
fn graph_events_arrive_as_messages_with_the_entity() {
    use animgraph_bevy::{AnimGraph2D, AnimGraphSignal, AnimGraphSystems};
    use animgraph_runtime::GraphEvent;

    #[derive(Resource, Default)]
    struct Seen(Vec<(Entity, String)>);

    fn collect(
        mut signals: MessageReader<AnimGraphSignal>,
        characters: Query<&AnimGraph2D>,
        mut seen: ResMut<Seen>,
    ) {
        for s in signals.read() {
            if let GraphEvent::StateEntered { state, .. } = s.event {
                let player = characters.get(s.entity).unwrap().character().unwrap().player().unwrap();
                seen.0.push((s.entity, player.state_path(state).to_string()));
            }
        }
    }

    let mut app = app(ASSETS);
    app.init_resource::<Seen>();
    app.add_systems(Update, collect.after(AnimGraphSystems));
    let server = app.world().resource::<AssetServer>().clone();
    let (graph, skeleton) =
        (server.load("characters/gbot/gbot.mres"), server.load("characters/gbot/gbot.mskel"));
    let calm = app.world_mut().spawn(AnimGraph2D::new(graph.clone(), skeleton.clone())).id();
    let hurt = app.world_mut().spawn(AnimGraph2D::new(graph, skeleton)).id();
    let start = Instant::now();
    while app.world().get::<AnimGraph2D>(hurt).unwrap().character().is_none() {
        assert!(start.elapsed() < Duration::from_secs(20), "the GBot never bound");
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    app.world_mut().get_mut::<AnimGraph2D>(hurt).unwrap().player_mut().unwrap().fire_by_name("hurt").unwrap();
    for _ in 0..3 {
        app.update();
    }
    let seen = &app.world().resource::<Seen>().0;
    let hurt_entered: Vec<&(Entity, String)> = seen.iter().filter(|(_, s)| s.contains("Hurt")).collect();
    assert!(!hurt_entered.is_empty(), "no Hurt state entered: {seen:?}");
    assert!(hurt_entered.iter().all(|(e, _)| *e == hurt), "{seen:?}");
    // Both entered their entry states when they first advanced.
    assert!(seen.iter().any(|(e, _)| *e == calm), "{seen:?}");
}
