//! The plugin's per-frame systems allocate nothing after warm-up: Robots (glTF scenes) and
//! GBots with parameter sources, signals and net snapshots (an authority each, acknowledged), on a headless `App` whose schedules run on the
//! main thread (one compute thread, single-threaded executors), so every allocation of our
//! systems is counted on this thread between marker systems placed around our sets.

use std::time::{Duration, Instant};

use animgraph_bevy::{
    AnimGraph2D, AnimGraph3D, AnimGraphAuthority, AnimGraphPlugin, AnimGraphPoseSystems, AnimGraphSignal,
    AnimGraphSources, AnimGraphSystems, ParameterSource,
};
use animgraph_test_support::counting::{PerThread, thread_allocations};
use bevy::app::AnimationSystems;
use bevy::asset::AssetPlugin;
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::gltf::GltfAssetLabel;
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use bevy::world_serialization::WorldAssetRoot;

#[global_allocator]
static GLOBAL: PerThread = PerThread;

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");
const ROBOT: &str = "characters/robot/RobotExpressive.glb";

#[derive(Component, Reflect, Default)]
#[reflect(Component)]
struct Velocity(Vec3);

/// Allocations counted inside our systems (between the markers), and the count at the last
/// start marker.
#[derive(Resource, Default)]
struct Counted {
    inside: u64,
    start: u64,
    frames: u64,
}

fn start(mut c: ResMut<Counted>) {
    c.start = thread_allocations();
}

fn end(mut c: ResMut<Counted>) {
    let n = thread_allocations() - c.start;
    c.inside += n;
    c.frames += 1;
}

/// Game code: varies the velocities and fires jumps (outside the markers).
fn drive(mut q: Query<(&mut Velocity, Option<&mut AnimGraph3D>)>, time: Res<Time>) {
    let t = time.elapsed_secs();
    for (mut v, c) in &mut q {
        v.0 = Vec3::new((t * 0.7).sin().abs() * 4.0, 0.0, 0.0);
        if let Some(p) = c.and_then(|c| c.into_inner().player_mut())
            && (p.tick() % 97) == 50
        {
            p.fire_by_name("jump").unwrap();
        }
    }
}

/// Packets the authorities produced (and how many were deltas).
#[derive(Resource, Default)]
struct Sent {
    packets: usize,
    deltas: usize,
}

/// Game code: takes the authorities' packets and acknowledges every third (as a remote would),
/// so snapshots are deltas against acknowledged baselines.
fn send_packets(mut q: Query<&mut AnimGraphAuthority>, mut sent: ResMut<Sent>) {
    for mut a in &mut q {
        let Some(packet) = a.take_packet() else { continue };
        let (tick, baseline) = animgraph_runtime::net::peek(packet).unwrap();
        sent.packets += 1;
        sent.deltas += baseline.is_some() as usize;
        if tick % 3 == 0 {
            a.ack(tick);
        }
    }
}

fn read_signals(mut signals: MessageReader<AnimGraphSignal>, mut seen: Local<usize>) {
    *seen += signals.read().count();
}

#[test]
fn our_systems_allocate_nothing_per_frame_after_warm_up() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin { task_pool_options: TaskPoolOptions::with_num_threads(1) }),
        AssetPlugin { file_path: ASSETS.into(), ..default() },
        TransformPlugin,
        bevy::image::ImagePlugin::default(),
        bevy::mesh::MeshPlugin,
        bevy::world_serialization::WorldSerializationPlugin,
        bevy::animation::AnimationPlugin,
        bevy::gltf::GltfPlugin::default(),
        AnimGraphPlugin,
    ));
    app.register_type::<Velocity>();
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    app.init_resource::<Counted>();
    app.init_resource::<Sent>();
    app.edit_schedule(Update, |s| {
        s.set_executor(SingleThreadedExecutor::new());
    });
    app.edit_schedule(PostUpdate, |s| {
        s.set_executor(SingleThreadedExecutor::new());
    });
    app.add_systems(
        Update,
        (drive, start).chain().before(AnimGraphSystems).after(bevy::asset::AssetEventSystems),
    );
    app.add_systems(Update, (end.after(AnimGraphSystems), read_signals.after(end), send_packets.after(end)));
    app.add_systems(
        PostUpdate,
        (
            start.after(AnimationSystems).before(AnimGraphPoseSystems),
            end.after(AnimGraphPoseSystems).before(TransformSystems::Propagate),
        ),
    );
    app.finish();
    app.cleanup();

    let server = app.world().resource::<AssetServer>().clone();
    let speed =
        || AnimGraphSources::new([ParameterSource::new("speed", "Velocity", "0").length().smooth(0.1)]);
    let mut characters = Vec::new();
    for _ in 0..3 {
        let scene = server.load(GltfAssetLabel::Scene(0).from_asset(ROBOT));
        let c =
            AnimGraph3D::new(server.load("characters/robot/robot.mres"), server.load(ROBOT)).with_tracks(1);
        characters.push(app.world_mut().spawn((WorldAssetRoot(scene), c, speed(), Velocity::default())).id());
        let c = AnimGraph2D::new(
            server.load("characters/gbot/gbot.mres"),
            server.load("characters/gbot/gbot.mskel"),
        );
        // GBots also replicate: the authority's snapshots are counted with our systems.
        characters.push(
            app.world_mut().spawn((c, speed(), Velocity::default(), AnimGraphAuthority::default())).id(),
        );
    }
    let bound = |app: &App| {
        characters.iter().all(|&e| {
            app.world().get::<AnimGraph3D>(e).map(|c| c.character().is_some()).unwrap_or(true)
                && app.world().get::<AnimGraph2D>(e).map(|c| c.character().is_some()).unwrap_or(true)
        })
    };
    let begin = Instant::now();
    while !bound(&app) {
        assert!(begin.elapsed() < Duration::from_secs(30), "the characters never bound");
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    // Warm-up: message buffers, the sources' first resolution, every state's first entry.
    for _ in 0..400 {
        app.update();
    }
    *app.world_mut().resource_mut::<Counted>() = Counted::default();
    for _ in 0..600 {
        app.update();
    }
    let counted = app.world().resource::<Counted>();
    // Two marked spans per frame (Update and PostUpdate).
    assert_eq!(counted.frames, 1200, "the markers ran every frame");
    assert_eq!(counted.inside, 0, "our systems allocated {} times in 600 frames", counted.inside);
    // The GBots' authorities snapshotted every frame, mostly as deltas against acknowledged ticks.
    let sent = app.world().resource::<Sent>();
    assert!(
        sent.packets >= 3 * 1000 && sent.deltas > sent.packets / 2,
        "{} packets, {} deltas",
        sent.packets,
        sent.deltas
    );
    // The frames did something: the Robots were posed away from their rest pose.
    let c = app.world().get::<AnimGraph3D>(characters[0]).unwrap().character().unwrap();
    assert!(c.player().unwrap().tick() > 900);
    assert_ne!(c.backend.pose.rotations, c.backend.skeleton().setup_rotation);
}
