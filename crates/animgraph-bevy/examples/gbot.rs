//! The 2D GBot (a Godot character imported to `.mskel`) in Bevy: Left/Right walk and run, Space
//! jumps, H hurts, W waves. Its `speed` parameter is not set by code: a parameter source binds it
//! to the length of the entity's `Velocity` (scaled, clamped and smoothed). With the `render`
//! feature it is drawn as one textured, deformed `Mesh2d` (`AnimGraphSprite`).
//!
//! ```text
//! cargo run --release -p animgraph-bevy --features render --example gbot
//! cargo run --release -p animgraph-bevy --example gbot -- --headless [--frames 480]
//! ```
//!
//! gBot: by Juan Linietsky, from Godot's demo projects (MIT); see
//! `assets/characters/gbot/LICENSE.txt`.

mod common;

use animgraph_bevy::{
    AnimGraph2D, AnimGraphClipEvent, AnimGraphSignal, AnimGraphSources, AnimGraphSystems, ParameterSource,
};
use bevy::prelude::*;
use common::{Options, Readout};

/// Running speed (m/s) and jump speed, gravity (m/s, m/s^2); the skeleton is in pixels, drawn
/// at 1 px = 1 unit, 100 units to the metre.
const RUN: f32 = 2.5;
const JUMP: f32 = 4.0;
const GRAVITY: f32 = 9.8;
const PIXELS_PER_METRE: f32 = 100.0;

/// The GBot's velocity (m/s), read by the `speed` parameter source through reflection.
#[derive(Component, Reflect, Default)]
#[reflect(Component)]
struct Velocity(Vec2);

#[derive(Component, Default)]
struct Bot {
    /// Height above the ground (m).
    height: f32,
    /// Seconds since the graph started playing (the headless script's clock).
    clock: f32,
    last_event: String,
}

fn main() {
    let options = Options::parse(480);
    let mut app = common::app(&options);
    app.register_type::<Velocity>()
        .add_systems(Startup, setup)
        .add_systems(Update, (input, physics).chain().before(AnimGraphSystems))
        .add_systems(Update, (signals, readout).after(AnimGraphSystems));
    #[cfg(feature = "render")]
    if !options.headless {
        app.add_systems(Startup, |mut commands: Commands| {
            // The GBot is about 700 px tall: a camera showing twice the window's pixels.
            let projection = OrthographicProjection { scale: 2.0, ..OrthographicProjection::default_2d() };
            commands.spawn((
                Camera2d,
                Projection::Orthographic(projection),
                Transform::from_xyz(0.0, 450.0, 0.0),
            ));
        });
    }
    app.run();
}

fn setup(mut commands: Commands, server: Res<AssetServer>, options: Res<Options>) {
    // speed <- |Velocity| in m/s, at most 2.5 (the graph's run), smoothed over 0.1 s.
    let speed = ParameterSource::new("speed", "Velocity", "0").length().clamp(0.0, RUN).smooth(0.1);
    let mut bot = commands.spawn((
        Name::new("GBot"),
        Bot::default(),
        Velocity::default(),
        AnimGraphSources::new([speed]),
        AnimGraph2D::new(server.load("characters/gbot/gbot.mres"), server.load("characters/gbot/gbot.mskel")),
        Transform::default(),
    ));
    #[cfg(feature = "render")]
    if !options.headless {
        bot.insert(animgraph_bevy::AnimGraphSprite::default());
    }
    let _ = (&mut bot, options);
}

/// Keys in a window; headless, a script: run right, jump, wave, stop, get hurt.
fn input(
    mut bots: Query<(&mut Bot, &mut Velocity, &mut AnimGraph2D)>,
    time: Res<Time>,
    options: Res<Options>,
    #[cfg(feature = "render")] keys: Option<Res<ButtonInput<KeyCode>>>,
) {
    let dt = time.delta_secs();
    for (mut bot, mut velocity, mut graph) in &mut bots {
        let Some(player) = graph.player_mut() else { continue };
        bot.clock += dt;
        let (mut run, mut jump, mut hurt, mut wave) = (0.0, false, false, None);
        if options.headless {
            let t = bot.clock;
            let at = |s: f32| (t - s).abs() < dt / 2.0;
            run = if t < 3.0 { 1.0 } else { 0.0 };
            jump = at(1.5);
            wave = Some((2.0..3.5).contains(&t));
            hurt = at(4.5);
        }
        #[cfg(feature = "render")]
        if let (false, Some(keys)) = (options.headless, &keys) {
            run = f32::from(keys.pressed(KeyCode::ArrowRight)) - f32::from(keys.pressed(KeyCode::ArrowLeft));
            jump = keys.just_pressed(KeyCode::Space);
            hurt = keys.just_pressed(KeyCode::KeyH);
            if keys.just_pressed(KeyCode::KeyW) {
                let waving = player.find_parameter("waving").and_then(|p| player.get_bool(p));
                wave = Some(!waving.unwrap_or(false));
            }
        }
        velocity.0.x = run * RUN;
        // Grounded as the frame starts: the graph's jump needs it (it leaves the ground after).
        let _ = player.set_bool_by_name("grounded", bot.height <= 0.0);
        if jump && bot.height <= 0.0 {
            velocity.0.y = JUMP;
            bot.height = 1e-4;
            let _ = player.fire_by_name("jump");
        }
        if hurt {
            let _ = player.fire_by_name("hurt");
        }
        if let Some(wave) = wave {
            let _ = player.set_bool_by_name("waving", wave);
        }
    }
}

/// Falls, lands, faces where it runs. (The speed source reads the whole velocity, so a jump
/// straight up reads as speed; the graph's Air state ignores it.)
fn physics(mut bots: Query<(&mut Bot, &mut Velocity, &mut Transform)>, time: Res<Time>) {
    let dt = time.delta_secs();
    for (mut bot, mut velocity, mut transform) in &mut bots {
        if bot.height > 0.0 {
            velocity.0.y -= GRAVITY * dt;
            bot.height = (bot.height + velocity.0.y * dt).max(0.0);
            if bot.height <= 0.0 {
                velocity.0.y = 0.0;
            }
        }
        transform.translation.x =
            (transform.translation.x + velocity.0.x * dt * PIXELS_PER_METRE).clamp(-500.0, 500.0);
        transform.translation.y = bot.height * PIXELS_PER_METRE;
        if velocity.0.x != 0.0 {
            transform.scale.x = velocity.0.x.signum();
        }
    }
}

/// Graph signals and the skeleton's clip events (footsteps), printed headless.
fn signals(
    mut signals: MessageReader<AnimGraphSignal>,
    mut clips: MessageReader<AnimGraphClipEvent>,
    mut bots: Query<(&mut Bot, &AnimGraph2D)>,
    options: Res<Options>,
) {
    for s in signals.read() {
        let Ok((mut bot, graph)) = bots.get_mut(s.entity) else { continue };
        let Some(player) = graph.player() else { continue };
        bot.last_event = common::describe(player, &s.event);
        if options.headless {
            println!("{:5.2} s  GBot: {}", bot.clock, bot.last_event);
        }
    }
    for e in clips.read() {
        let Ok((mut bot, graph)) = bots.get_mut(e.entity) else { continue };
        let Some(c) = graph.character() else { continue };
        let name = c.backend.skeleton().data.events.get(e.event.event as usize).map_or("?", String::as_str);
        bot.last_event = format!("clip event \"{name}\"");
        if options.headless {
            println!("{:5.2} s  GBot: {}", bot.clock, bot.last_event);
        }
    }
}

fn readout(
    bots: Query<(&Bot, &AnimGraph2D, &AnimGraphSources)>,
    mut readout: ResMut<Readout>,
    options: Res<Options>,
) {
    let Ok((bot, graph, sources)) = bots.single() else { return };
    let states = common::states_or_why(graph.player(), graph.failed(), &options);
    common::set_readout(&mut readout, &options, states, || {
        let speed = sources.sources.first().and_then(ParameterSource::value).unwrap_or(0.0);
        format!(
            "Left/Right: run (speed {speed:.2}, from |Velocity|)  Space: jump  W: wave  H: hurt\nlast: {}",
            bot.last_event
        )
    });
}
