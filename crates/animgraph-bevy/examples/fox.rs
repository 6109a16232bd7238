//! The Fox driven by a graph from game systems: Up/Down change its speed (the graph's Survey,
//! Walk, Run blend space), Space makes it jump (a trigger; the game lifts the fox while the
//! graph is in its Jump state, learnt from the graph's signals). The graph's states are shown
//! on screen.
//!
//! ```text
//! cargo run --release -p animgraph-bevy --features render --example fox
//! cargo run --release -p animgraph-bevy --example fox -- --headless [--frames 600]
//! ```
//!
//! Headless, a script plays the keys (speed up to a run, a jump, slow to a stop) and the
//! states and signals are printed.
//!
//! Fox model: CC0 PixelMannen (model), CC-BY 4.0 tomkranis (rig and animation), @AsoboStudio
//! and @scurest (glTF conversion); see `assets/characters/fox/LICENSE.txt`.

mod common;

use animgraph_bevy::{AnimGraph3D, AnimGraphSignal, AnimGraphSystems};
use animgraph_runtime::GraphEvent;
use animgraph_runtime::graph::ParamId;
use bevy::gltf::GltfAssetLabel;
use bevy::prelude::*;
use bevy::world_serialization::WorldAssetRoot;
use common::{Options, Readout};

const FOX: &str = "characters/fox/Fox.glb";
/// How high a jump lifts the fox (m) and how long it is in the air (s).
const JUMP_HEIGHT: f32 = 0.6;
const JUMP_TIME: f32 = 0.6;

fn main() {
    let options = Options::parse(600);
    let mut app = common::app(&options);
    app.add_systems(Startup, setup)
        .add_systems(Update, (input, (set_parameters, signals, jump)).chain().before(AnimGraphSystems))
        .add_systems(Update, (walk, readout).after(AnimGraphSystems));
    #[cfg(feature = "render")]
    if !options.headless {
        app.add_systems(Startup, view);
    }
    app.run();
}

/// What the player asks for (keys, or the headless script).
#[derive(Component, Default)]
struct Fox {
    speed: f32,
    jump: bool,
    /// The graph's parameters, resolved once.
    ids: Option<(ParamId, ParamId)>,
    /// Seconds since the Jump state was entered, while in the air.
    airborne: Option<f32>,
    /// Around the circle it runs on (radians).
    angle: f32,
    /// Seconds since the graph started playing (the headless script's clock).
    clock: f32,
}

fn setup(mut commands: Commands, server: Res<AssetServer>) {
    let scene = server.load(GltfAssetLabel::Scene(0).from_asset(FOX));
    commands.spawn((
        Name::new("Fox"),
        Fox::default(),
        WorldAssetRoot(scene),
        Transform::from_scale(Vec3::splat(0.02)),
        AnimGraph3D::new(server.load("characters/fox/fox_bevy.mres"), server.load(FOX)),
    ));
}

/// Keys in a window; in headless runs a script from when the graph starts: speed up to a run,
/// jump at 2.5 s, slow down from 4 s.
fn input(
    mut foxes: Query<&mut Fox>,
    time: Res<Time>,
    options: Res<Options>,
    #[cfg(feature = "render")] keys: Option<Res<ButtonInput<KeyCode>>>,
) {
    let dt = time.delta_secs();
    for mut fox in &mut foxes {
        if options.headless {
            let t = fox.clock;
            fox.speed = if t < 4.0 { (t * 1.5).min(3.0) } else { (3.0 - (t - 4.0) * 1.5).max(0.0) };
            fox.jump = (t - 2.5).abs() < dt / 2.0;
            continue;
        }
        #[cfg(feature = "render")]
        if let Some(keys) = &keys {
            if keys.pressed(KeyCode::ArrowUp) {
                fox.speed = (fox.speed + 1.5 * dt).min(3.0);
            }
            if keys.pressed(KeyCode::ArrowDown) {
                fox.speed = (fox.speed - 1.5 * dt).max(0.0);
            }
            fox.jump = keys.just_pressed(KeyCode::Space);
        }
    }
}

/// The game's wishes into the graph, by parameter id (resolved once, no string lookup after).
fn set_parameters(mut foxes: Query<(&mut Fox, &mut AnimGraph3D)>, time: Res<Time>) {
    for (mut fox, mut graph) in &mut foxes {
        let Some(player) = graph.player_mut() else { continue };
        fox.clock += time.delta_secs();
        let ids = match fox.ids {
            Some(ids) => ids,
            None => {
                let (Some(speed), Some(jump)) =
                    (player.find_parameter("speed"), player.find_parameter("jump"))
                else {
                    continue;
                };
                fox.ids = Some((speed, jump));
                (speed, jump)
            }
        };
        // Both parameters exist with these types (found above), so neither call fails.
        let _ = player.set_float(ids.0, fox.speed);
        if fox.jump {
            let _ = player.fire(ids.1);
        }
    }
}

/// The graph's signals: entering Jump starts the lift. Headless, every signal is printed.
fn signals(
    mut messages: MessageReader<AnimGraphSignal>,
    mut foxes: Query<(&mut Fox, &AnimGraph3D, &Name)>,
    options: Res<Options>,
) {
    for signal in messages.read() {
        let Ok((mut fox, graph, name)) = foxes.get_mut(signal.entity) else { continue };
        let Some(player) = graph.player() else { continue };
        if options.headless {
            println!("{:5.2} s  {name}: {}", fox.clock, common::describe(player, &signal.event));
        }
        if let GraphEvent::StateEntered { state, .. } = signal.event
            && player.state_name(state) == "Jump"
        {
            fox.airborne = Some(0.0);
        }
    }
}

/// The jump's arc: up and down in `JUMP_TIME`.
fn jump(mut foxes: Query<(&mut Fox, &mut Transform)>, time: Res<Time>) {
    for (mut fox, mut transform) in &mut foxes {
        let Some(t) = fox.airborne.as_mut() else { continue };
        *t += time.delta_secs();
        let u = (*t / JUMP_TIME).min(1.0);
        transform.translation.y = 4.0 * JUMP_HEIGHT * u * (1.0 - u);
        if u >= 1.0 {
            fox.airborne = None;
        }
    }
}

/// The fox goes round a circle at its speed (1 unit of the parameter: 1 m/s).
fn walk(mut foxes: Query<(&mut Fox, &mut Transform)>, time: Res<Time>) {
    const RADIUS: f32 = 3.0;
    for (mut fox, mut transform) in &mut foxes {
        fox.angle += fox.speed * time.delta_secs() / RADIUS;
        let (x, z) = (RADIUS * fox.angle.cos(), RADIUS * fox.angle.sin());
        transform.translation.x = x;
        transform.translation.z = z;
        // Facing along the circle (the Fox looks down +Z).
        transform.rotation = Quat::from_rotation_y(-fox.angle);
    }
}

fn readout(foxes: Query<(&Fox, &AnimGraph3D)>, mut readout: ResMut<Readout>, options: Res<Options>) {
    let Ok((fox, graph)) = foxes.single() else { return };
    let states = common::states_or_why(graph.player(), graph.failed(), &options);
    common::set_readout(&mut readout, &options, states, || {
        format!("Up/Down: speed {:.1}   Space: jump", fox.speed)
    });
}

#[cfg(feature = "render")]
fn view(world: &mut World) {
    let eye = Vec3::new(0.0, 4.5, 9.0);
    common::stage_3d(world, eye, Vec3::new(0.0, 0.5, 0.0), 20.0, Color::srgb(0.35, 0.5, 0.35), true);
}
