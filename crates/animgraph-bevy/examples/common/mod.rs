//! What the examples share: the app (a window with the `render` feature; headless without it
//! or with `--headless`), their command-line options and the readout of a graph's states.
#![allow(dead_code)] // Each example uses its own part.

use std::time::Duration;

use animgraph_bevy::AnimGraphPlugin;
use animgraph_runtime::AnimationGraphPlayer;
use bevy::asset::AssetPlugin;
use bevy::prelude::*;

/// The examples' options: `--headless`, `--frames N` (headless runs end after N frames), and
/// the example's own flags, returned in `rest`.
#[derive(Resource, Clone, Debug)]
pub struct Options {
    pub headless: bool,
    pub frames: u32,
    pub rest: Vec<String>,
}

impl Options {
    /// From the command line; a window is only possible with the `render` feature.
    pub fn parse(default_frames: u32) -> Options {
        let mut options =
            Options { headless: !cfg!(feature = "render"), frames: default_frames, rest: Vec::new() };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--headless" => options.headless = true,
                "--frames" => match args.next().and_then(|n| n.parse().ok()) {
                    Some(n) => options.frames = n,
                    None => fail("--frames needs a number of frames"),
                },
                _ => options.rest.push(arg),
            }
        }
        options
    }

    /// The value after `flag` among the example's own options, parsed.
    pub fn value<T: std::str::FromStr>(&self, flag: &str) -> Option<T> {
        let i = self.rest.iter().position(|a| a == flag)?;
        match self.rest.get(i + 1).and_then(|v| v.parse().ok()) {
            Some(v) => Some(v),
            None => fail(&format!("{flag} needs a value")),
        }
    }

    /// Whether `flag` is among the example's own options.
    pub fn flag(&self, flag: &str) -> bool {
        self.rest.iter().any(|a| a == flag)
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(2)
}

/// The examples' asset folder: the workspace's `assets/`.
pub fn asset_root() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets").to_string()
}

/// An app with the plugin: headless (assets, transforms, glTF scenes and Bevy's animation; each
/// update is 1/60 s of game time, as fast as the machine goes; it exits after
/// `options.frames`), or a window.
pub fn app(options: &Options) -> App {
    let mut app = App::new();
    // Bevy gives a 2-core machine one compute thread (a quarter each for I/O and async tasks):
    // `--compute-threads N` asks for N, for every parallel system, ours and Bevy's.
    let mut tasks = TaskPoolPlugin::default();
    if let Some(n) = options.value::<usize>("--compute-threads") {
        tasks.task_pool_options.compute.min_threads = n.max(1);
    }
    if options.headless {
        app.add_plugins((
            MinimalPlugins.set(tasks),
            bevy::log::LogPlugin::default(),
            AssetPlugin { file_path: asset_root(), ..default() },
            TransformPlugin,
            bevy::image::ImagePlugin::default(),
            bevy::mesh::MeshPlugin,
            bevy::world_serialization::WorldSerializationPlugin,
            bevy::animation::AnimationPlugin,
            bevy::gltf::GltfPlugin::default(),
        ));
        app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )));
        app.add_systems(Last, exit_after_frames);
    } else {
        #[cfg(feature = "render")]
        app.add_plugins(DefaultPlugins.set(AssetPlugin { file_path: asset_root(), ..default() }).set(tasks));
    }
    app.add_plugins(AnimGraphPlugin);
    // The live link (the editor attaches to the characters): always with a window, on request
    // (`--link`) headless. The address is ANIMGRAPH_LINK's, else 127.0.0.1:47800.
    if !options.headless || options.flag("--link") {
        let game = std::env::args().next().unwrap_or_default();
        let name = std::path::Path::new(&game)
            .file_name()
            .map_or("animgraph example".into(), |n| n.to_string_lossy().into_owned());
        app.add_plugins(animgraph_bevy::AnimGraphLinkPlugin::new(&format!("Bevy example {name}")));
    }
    app.insert_resource(options.clone())
        .init_resource::<Readout>()
        .add_systems(Startup, spawn_readout)
        .add_systems(PostUpdate, show_readout);
    app
}

fn exit_after_frames(options: Res<Options>, mut frame: Local<u32>, mut exit: MessageWriter<AppExit>) {
    *frame += 1;
    if *frame >= options.frames {
        exit.write(AppExit::Success);
    }
}

/// Each layer's state, as `Base: Move | UpperBody: Wave -> Rest (40 %)` (the transition's
/// progress only with `progress`).
pub fn states(player: &AnimationGraphPlayer, progress: bool) -> String {
    let mut line = String::new();
    for layer in 0..player.layer_count() {
        if layer > 0 {
            line.push_str(" | ");
        }
        let name = player.layer_name(layer).unwrap_or("?");
        let state = player.current_state_path(layer).unwrap_or("-");
        line.push_str(&format!("{name}: {state}"));
        if let Some(to) = player.transition_target(layer) {
            line.push_str(&format!(" -> {}", player.state_path(to)));
            if let (Some(p), true) = (player.transition_progress(layer), progress) {
                line.push_str(&format!(" ({:.0} %)", p * 100.0));
            }
        }
    }
    line
}

/// The text the examples show: on screen in a window, printed when it changes headless.
#[derive(Resource, Default)]
pub struct Readout(pub String);

#[derive(Component)]
struct ReadoutText;

fn spawn_readout(mut commands: Commands, options: Res<Options>) {
    if options.headless {
        return;
    }
    #[cfg(feature = "render")]
    commands.spawn((
        ReadoutText,
        Text::new(""),
        TextFont { font_size: FontSize::Px(18.0), ..default() },
        Node { position_type: PositionType::Absolute, top: px(12), left: px(12), ..default() },
    ));
    #[cfg(not(feature = "render"))]
    let _ = &mut commands;
}

fn show_readout(
    readout: Res<Readout>,
    options: Res<Options>,
    mut last: Local<String>,
    #[cfg(feature = "render")] mut texts: Query<&mut Text, With<ReadoutText>>,
) {
    if *last == readout.0 {
        return;
    }
    last.clone_from(&readout.0);
    if options.headless {
        println!("{}", readout.0);
    } else {
        #[cfg(feature = "render")]
        for mut text in &mut texts {
            text.0.clone_from(&readout.0);
        }
    }
}

/// A graph event in words, with the player's state paths.
pub fn describe(player: &AnimationGraphPlayer, event: &animgraph_runtime::GraphEvent) -> String {
    use animgraph_runtime::GraphEvent;
    match *event {
        GraphEvent::StateEntered { state, .. } => format!("entered {}", player.state_path(state)),
        GraphEvent::StateExited { state, .. } => format!("exited {}", player.state_path(state)),
        GraphEvent::TransitionStarted { from, to, .. } => {
            format!("transition {} -> {}", player.state_path(from), player.state_path(to))
        }
        ref other => format!("{other:?}"),
    }
}

/// The readout's state line: the graph's states, or why there are none yet.
pub fn states_or_why(player: Option<&AnimationGraphPlayer>, failed: bool, options: &Options) -> String {
    match player {
        Some(player) => states(player, !options.headless),
        None if failed => "the graph did not bind (see the log)".to_string(),
        None => "loading...".to_string(),
    }
}

/// Shows `text`: the state line alone headless (printed when it changes), with the example's
/// key help (`help`, computed only with a window) above it in a window.
pub fn set_readout(readout: &mut Readout, options: &Options, states: String, help: impl FnOnce() -> String) {
    let text = if options.headless { states } else { format!("{}\n{states}", help()) };
    if readout.0 != text {
        readout.0 = text;
    }
}

/// A 3D example's stage: a camera at `eye` looking at `target`, a ground of `ground` metres
/// square in `colour`, and a sun (casting shadows when `shadows`).
#[cfg(feature = "render")]
pub fn stage_3d(world: &mut World, eye: Vec3, target: Vec3, ground: f32, colour: Color, shadows: bool) {
    let mesh = world.resource_mut::<Assets<Mesh>>().add(Plane3d::default().mesh().size(ground, ground));
    let material = world.resource_mut::<Assets<StandardMaterial>>().add(colour);
    world.spawn((Camera3d::default(), Transform::from_translation(eye).looking_at(target, Vec3::Y)));
    world.spawn((Mesh3d(mesh), MeshMaterial3d(material)));
    world.spawn((
        DirectionalLight { shadow_maps_enabled: shadows, ..default() },
        Transform::from_rotation(Quat::from_euler(EulerRot::ZYX, 0.0, 1.0, -std::f32::consts::PI / 4.0)),
    ));
}
