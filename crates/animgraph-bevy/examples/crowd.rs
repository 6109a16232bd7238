//! A crowd of foxes, as Bevy's own `many_foxes` stress test: rings of Fox glTF scenes, each
//! posed either by an animgraph graph (a Walk/Run blend space and a masked upper-body layer
//! playing Survey at half weight) or, with `--bevy`, by Bevy's `AnimationPlayer` playing the
//! same Walk/Run blend (both clips at weight 0.5).
//!
//! It measures the animation time per frame of each: our systems (hot reload check, bind,
//! sources, advance, signals in `Update`; joint writes in `PostUpdate`) against Bevy's
//! `AnimationSystems`, by marker systems around those sets.
//!
//! ```text
//! cargo run --release -p animgraph-bevy --example crowd -- --headless [--bevy] [--count 1000] [--frames 600]
//! cargo run --release -p animgraph-bevy --features render --example crowd     # a window
//! ```
//!
//! Fox model: CC-BY 4.0, PixelMannen (model), tomkranis (rig and animation), @AsoboStudio and
//! @scurest (glTF conversion); see `assets/characters/fox/LICENSE.txt`.

use std::f32::consts::PI;
use std::time::{Duration, Instant};

mod common;

use animgraph_bevy::{AnimGraph3D, AnimGraphPoseSystems, AnimGraphSystems};
use bevy::app::AnimationSystems;
use bevy::gltf::GltfAssetLabel;
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use bevy::world_serialization::{WorldAssetRoot, WorldInstanceReady};

const FOX: &str = "characters/fox/Fox.glb";

#[derive(Resource, Clone, Copy)]
struct Args {
    count: usize,
    /// Frames measured (after every fox is animated).
    frames: usize,
    bevy: bool,
    headless: bool,
}

/// Animation time: ours (Update and PostUpdate spans) and Bevy's (its AnimationSystems).
#[derive(Resource, Default)]
struct Timing {
    mark: Option<Instant>,
    ours: Duration,
    /// The PostUpdate part of `ours` (joint and morph writes).
    pose: Duration,
    bevy: Duration,
    frames: usize,
    measuring: bool,
}

fn mark(mut t: ResMut<Timing>) {
    t.mark = Some(Instant::now());
}

fn ours_end(mut t: ResMut<Timing>) {
    if let (Some(m), true) = (t.mark, t.measuring) {
        t.ours += m.elapsed();
    }
}

fn pose_end(mut t: ResMut<Timing>) {
    if let (Some(m), true) = (t.mark, t.measuring) {
        let d = m.elapsed();
        t.ours += d;
        t.pose += d;
    }
}

fn bevy_end(mut t: ResMut<Timing>) {
    if let (Some(m), true) = (t.mark, t.measuring) {
        t.bevy += m.elapsed();
    }
}

#[derive(Resource)]
struct BevyAnimation {
    graph: Handle<AnimationGraph>,
    nodes: Vec<AnimationNodeIndex>,
}

fn main() {
    let options = common::Options::parse(600);
    let args = Args {
        count: options.value("--count").unwrap_or(1000),
        frames: options.frames as usize,
        bevy: options.flag("--bevy"),
        headless: options.headless,
    };
    // The report ends the run, once the measured frames are done.
    let mut app = common::app(&common::Options { frames: u32::MAX, ..options });
    app.insert_resource(args)
        .init_resource::<Timing>()
        .add_systems(Startup, setup)
        .add_systems(Update, (rotate_rings, report))
        .add_systems(Update, (mark.before(AnimGraphSystems), ours_end.after(AnimGraphSystems)))
        .add_systems(
            PostUpdate,
            (
                mark.before(AnimationSystems),
                bevy_end.after(AnimationSystems).before(AnimGraphPoseSystems),
                mark.after(bevy_end).before(AnimGraphPoseSystems),
                pose_end.after(AnimGraphPoseSystems).before(TransformSystems::Propagate),
            ),
        );
    #[cfg(feature = "render")]
    if !args.headless {
        app.add_systems(Startup, setup_view);
    }
    app.run();
}

#[derive(Component)]
struct Ring(f32);

fn setup(
    mut commands: Commands,
    server: Res<AssetServer>,
    mut graphs: ResMut<Assets<AnimationGraph>>,
    args: Res<Args>,
) {
    let scene = server.load(GltfAssetLabel::Scene(0).from_asset(FOX));
    let model = server.load(FOX);
    let graph = server.load("characters/fox/fox_crowd.mres");
    if args.bevy {
        let mut g = AnimationGraph::new();
        let clips = [1, 2].map(|i| server.load(GltfAssetLabel::Animation(i).from_asset(FOX)));
        let nodes = g.add_clips(clips, 0.5, g.root).collect();
        commands.insert_resource(BevyAnimation { graph: graphs.add(g), nodes });
    }
    // Rings 2 m apart, foxes at least 2 m apart on each, as in many_foxes.
    let (mut left, mut radius, mut ring) = (args.count, 2.0f32, 0);
    while left > 0 {
        let direction = if ring % 2 == 0 { 1.0 } else { -1.0 };
        let parent = commands.spawn((Transform::default(), Ring(direction * radius))).id();
        #[cfg(feature = "render")]
        commands.entity(parent).insert(Visibility::default());
        let n = ((2.0 * PI * radius / 2.0) as usize).clamp(1, left);
        for i in 0..n {
            let angle = i as f32 * 2.0 * PI / n as f32;
            let transform = Transform::from_xyz(radius * angle.cos(), 0.0, radius * angle.sin())
                .with_scale(Vec3::splat(0.01))
                .with_rotation(Quat::from_rotation_y(-angle + if direction > 0.0 { PI } else { 0.0 }));
            let mut fox = commands.spawn((WorldAssetRoot(scene.clone()), transform, ChildOf(parent)));
            if args.bevy {
                fox.observe(play_bevy);
            } else {
                fox.insert(AnimGraph3D::new(graph.clone(), model.clone()));
            }
        }
        left -= n;
        radius += 2.0;
        ring += 1;
    }
}

/// Bevy mode: once a fox's scene is ready, its AnimationPlayer plays Walk and Run at 0.5 each.
fn play_bevy(
    ready: On<WorldInstanceReady>,
    animation: Res<BevyAnimation>,
    children: Query<&Children>,
    mut players: Query<&mut AnimationPlayer>,
    mut commands: Commands,
) {
    for child in children.iter_descendants(ready.entity) {
        if let Ok(mut player) = players.get_mut(child) {
            for &node in &animation.nodes {
                player.play(node).repeat();
            }
            commands.entity(child).insert(AnimationGraphHandle(animation.graph.clone()));
        }
    }
}

fn rotate_rings(time: Res<Time>, mut rings: Query<(&Ring, &mut Transform)>) {
    for (ring, mut t) in &mut rings {
        t.rotate_y(2.0 / ring.0 * time.delta_secs());
    }
}

/// Starts measuring once every fox is animated, prints the figures after `frames` frames and
/// exits (headless), or every 300 frames (window).
fn report(
    mut t: ResMut<Timing>,
    args: Res<Args>,
    ours: Query<&AnimGraph3D>,
    bevy: Query<&AnimationGraphHandle>,
    mut exit: MessageWriter<AppExit>,
) {
    if !t.measuring {
        let ready = if args.bevy {
            bevy.iter().count()
        } else {
            ours.iter().filter(|c| c.character().is_some()).count()
        };
        if ready == args.count {
            t.measuring = true;
            t.ours = Duration::ZERO;
            t.pose = Duration::ZERO;
            t.bevy = Duration::ZERO;
            t.frames = 0;
        }
        return;
    }
    t.frames += 1;
    let every = if args.headless { args.frames } else { 300 };
    if t.frames == every {
        let per = |d: Duration| d.as_secs_f64() * 1e3 / t.frames as f64;
        let who = if args.bevy {
            "Bevy AnimationPlayer (Walk+Run blend)"
        } else {
            "animgraph (Walk/Run blend + masked Survey layer)"
        };
        println!(
            "{} foxes, {who}: animgraph systems {:.3} ms/frame (pose writes {:.3}), Bevy AnimationSystems {:.3} ms/frame ({} frames)",
            args.count,
            per(t.ours),
            per(t.pose),
            per(t.bevy),
            t.frames
        );
        if args.headless {
            exit.write(AppExit::Success);
        }
        t.ours = Duration::ZERO;
        t.pose = Duration::ZERO;
        t.bevy = Duration::ZERO;
        t.frames = 0;
    }
}

#[cfg(feature = "render")]
fn setup_view(world: &mut World) {
    let count = world.resource::<Args>().count;
    let radius = 2.0 * (count as f32 / PI).sqrt().max(2.0);
    let eye = Vec3::new(radius, radius * 0.6, radius * 1.2);
    common::stage_3d(world, eye, Vec3::ZERO, 500.0, Color::srgb(0.3, 0.5, 0.3), false);
}
