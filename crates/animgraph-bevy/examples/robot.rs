//! RobotExpressive driven by its graph from game systems, by parameter name (the fox example
//! shows ids): Up/Down change the speed (Idle, Walking, Running), Space jumps, 1/2/3 play an
//! emote on the upper-body layer (0 lets it go: the layer's weight parameter), Y nods "Yes" on a
//! code track above the graph, D toggles death (an any-state transition). States, windows and
//! track events are shown on screen.
//!
//! ```text
//! cargo run --release -p animgraph-bevy --features render --example robot
//! cargo run --release -p animgraph-bevy --example robot -- --headless [--frames 600]
//! ```
//!
//! Headless, a script plays the keys and every signal is printed.
//!
//! RobotExpressive: Tomás Laulhé (Quaternius), modified by Don McCurdy, CC0 1.0; see
//! `assets/characters/robot/LICENSE.txt`.

mod common;

use animgraph_bevy::{AnimGraph3D, AnimGraphSignal, AnimGraphSystems, AnimGraphTrackEvent};
use animgraph_runtime::PoseBackend;
use animgraph_runtime::tracks::TrackClip;
use bevy::gltf::GltfAssetLabel;
use bevy::prelude::*;
use bevy::world_serialization::WorldAssetRoot;
use common::{Options, Readout};

const ROBOT: &str = "characters/robot/RobotExpressive.glb";

fn main() {
    let options = Options::parse(480);
    let mut app = common::app(&options);
    app.add_systems(Startup, setup)
        .add_systems(Update, (input, drive).chain().before(AnimGraphSystems))
        .add_systems(Update, (signals, readout).after(AnimGraphSystems));
    #[cfg(feature = "render")]
    if !options.headless {
        app.add_systems(Startup, view);
    }
    app.run();
}

/// What the player asks for this frame.
#[derive(Component, Default)]
struct Robot {
    speed: f32,
    jump: bool,
    /// 0: none; 1 Wave, 2 Punch, 3 ThumbsUp.
    emote: i32,
    nod: bool,
    dead: bool,
    /// Seconds since the graph started playing (the headless script's clock).
    clock: f32,
    /// The last clip or track event, for the readout.
    last_event: String,
}

fn setup(mut commands: Commands, server: Res<AssetServer>) {
    let scene = server.load(GltfAssetLabel::Scene(0).from_asset(ROBOT));
    commands.spawn((
        Name::new("Robot"),
        Robot::default(),
        WorldAssetRoot(scene),
        Transform::from_scale(Vec3::splat(0.5)),
        // One code track for one-off clips above the graph.
        AnimGraph3D::new(server.load("characters/robot/robot.mres"), server.load(ROBOT)).with_tracks(1),
    ));
}

/// Keys in a window; headless, a script on the graph's clock.
fn input(
    mut robots: Query<&mut Robot>,
    time: Res<Time>,
    options: Res<Options>,
    #[cfg(feature = "render")] keys: Option<Res<ButtonInput<KeyCode>>>,
) {
    let dt = time.delta_secs();
    for mut robot in &mut robots {
        if options.headless {
            let t = robot.clock;
            let at = |s: f32| (t - s).abs() < dt / 2.0;
            robot.speed = (t * 2.0).min(2.0);
            robot.jump = at(1.5);
            robot.emote = if (2.5..4.0).contains(&t) { 1 } else { 0 };
            robot.nod = at(3.0);
            robot.dead = t > 5.5;
            continue;
        }
        #[cfg(feature = "render")]
        if let Some(keys) = &keys {
            if keys.pressed(KeyCode::ArrowUp) {
                robot.speed = (robot.speed + 2.0 * dt).min(4.0);
            }
            if keys.pressed(KeyCode::ArrowDown) {
                robot.speed = (robot.speed - 2.0 * dt).max(0.0);
            }
            robot.jump = keys.just_pressed(KeyCode::Space);
            for (key, emote) in
                [(KeyCode::Digit0, 0), (KeyCode::Digit1, 1), (KeyCode::Digit2, 2), (KeyCode::Digit3, 3)]
            {
                if keys.just_pressed(key) {
                    robot.emote = emote;
                }
            }
            robot.nod = keys.just_pressed(KeyCode::KeyY);
            if keys.just_pressed(KeyCode::KeyD) {
                robot.dead = !robot.dead;
            }
        }
    }
}

/// Into the graph by name (a lookup per call; fine for one character, resolve ids for many)
/// and onto the code track.
fn drive(mut robots: Query<(&mut Robot, &mut AnimGraph3D)>, time: Res<Time>) {
    for (mut robot, mut graph) in &mut robots {
        let Some(character) = graph.character_mut() else { continue };
        robot.clock += time.delta_secs();
        if let Some(player) = character.player_mut() {
            let set = [
                player.set_float_by_name("speed", robot.speed),
                player.set_int_by_name("emote", robot.emote),
                // The upper-body layer's weight parameter: on while an emote plays.
                player.set_float_by_name("emote_weight", if robot.emote > 0 { 1.0 } else { 0.0 }),
                player.set_bool_by_name("dead", robot.dead),
                if robot.jump { player.fire_by_name("jump") } else { Ok(()) },
            ];
            if let Some(Err(e)) = set.into_iter().find(Result::is_err) {
                warn!("robot.mres lacks a parameter this example drives: {e}");
            }
        }
        if robot.nod
            && let Some(yes) = character.backend.resolve_clip("Yes")
        {
            // "Yes" once over the graph, mixed in and out over 0.2 s.
            let clip = TrackClip::new(&character.backend, yes).looping(false).mix(0.2);
            let _ = character.tracks.set_clip(0, clip);
            let _ = character.tracks.queue_empty(0, 0.0, 0.2);
        }
    }
}

/// Graph signals and track events, printed headless and kept for the readout.
fn signals(
    mut signals: MessageReader<AnimGraphSignal>,
    mut tracks: MessageReader<AnimGraphTrackEvent>,
    mut robots: Query<(&mut Robot, &AnimGraph3D, &Name)>,
    options: Res<Options>,
) {
    let mut note = |entity: Entity, what: &dyn Fn(&animgraph_runtime::AnimationGraphPlayer) -> String| {
        let Ok((mut robot, graph, name)) = robots.get_mut(entity) else { return };
        let Some(player) = graph.player() else { return };
        let text = what(player);
        if options.headless {
            println!("{:5.2} s  {name}: {text}", robot.clock);
        }
        robot.last_event = text;
    };
    for s in signals.read() {
        note(s.entity, &|player| common::describe(player, &s.event));
    }
    for t in tracks.read() {
        note(t.entity, &|_| format!("code track: {:?}", t.event));
    }
}

fn readout(robots: Query<(&Robot, &AnimGraph3D)>, mut readout: ResMut<Readout>, options: Res<Options>) {
    let Ok((robot, graph)) = robots.single() else { return };
    let states = common::states_or_why(graph.player(), graph.failed(), &options);
    common::set_readout(&mut readout, &options, states, || {
        format!(
            "Up/Down: speed {:.1}  Space: jump  1/2/3: emote ({})  0: none  Y: nod  D: dead ({})\nlast: {}",
            robot.speed, robot.emote, robot.dead, robot.last_event
        )
    });
}

#[cfg(feature = "render")]
fn view(world: &mut World) {
    let eye = Vec3::new(0.0, 3.0, 7.0);
    common::stage_3d(world, eye, Vec3::new(0.0, 1.5, 0.0), 20.0, Color::srgb(0.35, 0.4, 0.5), true);
}
