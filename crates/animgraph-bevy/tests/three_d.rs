//! The 3D component on a headless Bevy `App` (no window, no GPU): a RobotExpressive glTF scene
//! spawned by Bevy's own loader, posed by a graph.

use std::time::{Duration, Instant};

use animgraph_bevy::{AnimGraph3D, AnimGraphJoint, AnimGraphPlugin, AnimGraphSystems};
use bevy::asset::AssetPlugin;
use bevy::gltf::GltfAssetLabel;
use bevy::prelude::*;
use bevy::world_serialization::WorldAssetRoot;

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");
const ROBOT: &str = "characters/robot/RobotExpressive.glb";

/// A headless app that spawns glTF scenes: assets, transforms, meshes and images (CPU side
/// only), scenes, glTF and Bevy's animation.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin { file_path: ASSETS.into(), ..default() },
        TransformPlugin,
        bevy::image::ImagePlugin::default(),
        bevy::mesh::MeshPlugin,
        bevy::world_serialization::WorldSerializationPlugin,
        bevy::animation::AnimationPlugin,
        bevy::gltf::GltfPlugin::default(),
        AnimGraphPlugin,
    ));
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    app.finish();
    app.cleanup();
    app
}

/// Spawns a Robot scene with the bundled robot graph on it.
fn spawn_robot(app: &mut App) -> Entity {
    let server = app.world().resource::<AssetServer>().clone();
    let scene = server.load(GltfAssetLabel::Scene(0).from_asset(ROBOT));
    let graph = server.load("characters/robot/robot.mres");
    let model = server.load(ROBOT);
    app.world_mut().spawn((WorldAssetRoot(scene), AnimGraph3D::new(graph, model))).id()
}

/// Updates until `entity`'s character is bound (at most 30 seconds).
fn until_bound(app: &mut App, entity: Entity) {
    let start = Instant::now();
    while app.world().get::<AnimGraph3D>(entity).unwrap().character().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let server = app.world().resource::<AssetServer>();
            let c = app.world().get::<AnimGraph3D>(entity).unwrap();
            let states = (server.get_load_state(&c.graph), server.get_load_state(&c.model));
            let children = app.world().get::<Children>(entity).map(|c| c.len());
            let scene = app.world().get::<WorldAssetRoot>(entity).map(|s| server.get_load_state(&s.0));

            panic!(
                "the Robot never bound: graph and model {states:?}, scene {scene:?}, children {children:?}"
            );
        }
        assert!(!app.world().get::<AnimGraph3D>(entity).unwrap().failed(), "the Robot failed to bind");
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Inputs from the character's own tick, so the twin can repeat them.
fn inputs(p: &mut animgraph_runtime::AnimationGraphPlayer) {
    let t = p.tick();
    p.set_float_by_name("speed", (t % 240) as f32 / 60.0).unwrap();
    if t == 150 {
        p.fire_by_name("jump").unwrap();
    }
}

fn drive(mut characters: Query<&mut AnimGraph3D>) {
    for mut c in &mut characters {
        if let Some(p) = c.player_mut() {
            inputs(p);
        }
    }
}

/// The runtime's own Robot, updated like the component.
fn twin(frames: usize) -> animgraph_3d::AnimatedSkeleton3D {
    let model = animgraph_3d::import::import_file(format!("{ASSETS}/{ROBOT}")).unwrap();
    let graph =
        animgraph_runtime::mres::load_file(format!("{ASSETS}/characters/robot/robot.mres")).unwrap().graph;
    let mut twin = animgraph_3d::animated_3d(std::sync::Arc::new(model.skeleton), Some(&graph), 0).unwrap();
    for _ in 0..frames {
        inputs(twin.player_mut().unwrap());
        twin.update(1.0 / 60.0);
    }
    twin
}

/// The joints' `Transform`s (after N updates) are our backend's local pose for the same inputs,
/// bit for bit, and their propagated `GlobalTransform`s are its world transforms; Bevy's own
/// `AnimationPlayer`, playing a clip of the same file on the same scene, does not change them.
#[test]
fn a_spawned_robot_is_posed_exactly_as_the_backend_poses_it() {
    let mut app = app();
    app.add_systems(Update, drive.before(AnimGraphSystems));
    // Bevy's clip is requested with the scene: a label requested after its file loaded makes
    // Bevy load the file again and respawn the scene (the component maps the joints again).
    let server = app.world().resource::<AssetServer>().clone();
    let dance = server.load(GltfAssetLabel::Animation(1).from_asset(ROBOT));
    let robot = spawn_robot(&mut app);
    until_bound(&mut app, robot);
    let tick = |app: &App| app.world().get::<AnimGraph3D>(robot).unwrap().player().unwrap().tick();
    // Bevy spawns the scene again once its sub-assets load; the joints are mapped again.
    while tick(&app) < 20 {
        app.update();
    }
    // Bevy's AnimationPlayer on the same scene plays the Dance clip: it must not show.
    let (graph, node) = AnimationGraph::from_clip(dance);
    let graph = app.world_mut().resource_mut::<Assets<AnimationGraph>>().add(graph);
    let mut players = app.world_mut().query::<(Entity, &mut AnimationPlayer)>();
    let (player_entity, mut player) =
        players.single_mut(app.world_mut()).expect("the glTF scene has one AnimationPlayer");
    player.play(node).repeat();
    app.world_mut().entity_mut(player_entity).insert(AnimationGraphHandle(graph));
    let frames = 300;
    while tick(&app) < frames as u64 {
        app.update();
    }
    let c = app.world().get::<AnimGraph3D>(robot).unwrap().character().unwrap();
    assert_eq!(c.player().unwrap().tick(), frames as u64);
    let twin = twin(frames);
    let (ours, theirs) = (&c.backend.pose, &twin.backend.pose);
    // The local pose, bit for bit (the component skips world matrices: Bevy propagates them).
    assert_eq!(ours.translations, theirs.translations, "the component's pose differs from the runtime's");
    assert_eq!(ours.rotations, theirs.rotations, "the component's pose differs from the runtime's");
    assert_eq!(ours.scales, theirs.scales, "the component's pose differs from the runtime's");
    assert_eq!(ours.morph_weights, theirs.morph_weights, "the component's morph weights differ");
    assert_eq!(c.player().unwrap().current_state_path(0), twin.player().unwrap().current_state_path(0));
    let skeleton = twin.backend.skeleton();
    // Bevy's player did play all along.
    let player = app.world().get::<AnimationPlayer>(player_entity).unwrap();
    let seconds = player.animation(node).expect("Bevy's player plays the Dance clip").elapsed();
    assert!(seconds > 4.0, "Bevy's AnimationPlayer did not advance: {seconds}");
    let mut joints = app.world_mut().query::<(&AnimGraphJoint, &Transform, &GlobalTransform, &Name)>();
    let mut seen = 0;
    for (joint, transform, global, name) in joints.iter(app.world()) {
        assert_eq!(joint.character, robot);
        let j = joint.joint as usize;
        assert_eq!(name.as_str(), skeleton.names[j]);
        assert_eq!(transform.translation.to_array(), theirs.translations[j].to_array(), "{name}");
        assert_eq!(transform.rotation.to_array(), theirs.rotations[j].to_array(), "{name}");
        assert_eq!(transform.scale.to_array(), theirs.scales[j].to_array(), "{name}");
        let world = theirs.world[j].translation.to_array();
        let bevy = global.translation().to_array();
        for k in 0..3 {
            assert!((world[k] - bevy[k]).abs() < 1e-3, "{name}: world {world:?}, Bevy {bevy:?}");
        }
        seen += 1;
    }
    assert_eq!(seen, skeleton.bone_count(), "every joint is mapped once");
    // The run went somewhere: the pose is not the rest pose.
    assert_ne!(theirs.rotations, skeleton.setup_rotation);
}
