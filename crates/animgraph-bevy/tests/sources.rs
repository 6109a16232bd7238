//! Parameter sources on a headless `App`: a GBot's `speed` fed from the length of a reflected
//! velocity component drives its Move blend space, with scale, clamp and smoothing; a source
//! naming something that does not exist reports why and changes nothing.

use std::time::{Duration, Instant};

use animgraph_bevy::{AnimGraph2D, AnimGraphPlugin, AnimGraphSources, ParameterSource};
use bevy::asset::AssetPlugin;
use bevy::prelude::*;

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

#[derive(Component, Reflect, Default)]
#[reflect(Component)]
struct Velocity(Vec3);

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin { file_path: ASSETS.into(), ..default() }, AnimGraphPlugin));
    app.register_type::<Velocity>();
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    app.finish();
    app.cleanup();
    app
}

fn spawn(app: &mut App, sources: AnimGraphSources, velocity: Vec3) -> Entity {
    let server = app.world().resource::<AssetServer>().clone();
    let c =
        AnimGraph2D::new(server.load("characters/gbot/gbot.mres"), server.load("characters/gbot/gbot.mskel"));
    app.world_mut().spawn((c, sources, Velocity(velocity))).id()
}

fn until_bound(app: &mut App, e: Entity) {
    let start = Instant::now();
    while app.world().get::<AnimGraph2D>(e).unwrap().character().is_none() {
        assert!(start.elapsed() < Duration::from_secs(30), "never bound");
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn speed(app: &App, e: Entity) -> f32 {
    let p = app.world().get::<AnimGraph2D>(e).unwrap().player().unwrap();
    p.get_float(p.find_parameter("speed").unwrap()).unwrap()
}

/// The blend-space point with the largest weight in the base layer's current state.
fn dominant_point(app: &App, e: Entity) -> (u16, f32) {
    let p = app.world().get::<AnimGraph2D>(e).unwrap().player().unwrap();
    let mut out = [(0u16, 0f32); animgraph_runtime::graph::blend_space::MAX_WEIGHTS_2D];
    let n = p.blend_space_weights(p.current_state(0).unwrap(), &mut out);
    assert!(n > 0, "the base layer's state is not a blend space");
    out[..n].iter().copied().fold((0, -1.0), |a, b| if b.1 > a.1 { b } else { a })
}

#[test]
fn a_velocity_length_drives_the_move_blend_space() {
    let mut app = app();
    let source = ParameterSource::new("speed", "Velocity", "0").length().scale(0.5).clamp(0.0, 2.0);
    let e = spawn(&mut app, AnimGraphSources::new([source]), Vec3::ZERO);
    until_bound(&mut app, e);
    app.update();
    assert_eq!(speed(&app, e), 0.0);
    let standing = dominant_point(&app, e);
    // |(3, 4, 0)| = 5, scaled by 0.5 = 2.5, clamped to 2.
    app.world_mut().get_mut::<Velocity>(e).unwrap().0 = Vec3::new(3.0, 4.0, 0.0);
    app.update();
    assert_eq!(speed(&app, e), 2.0);
    let running = dominant_point(&app, e);
    assert_ne!(standing.0, running.0, "the blend space's dominant point moved with the speed");
    // |(0, 1.2, 0)| * 0.5 = 0.6, inside the clamp.
    app.world_mut().get_mut::<Velocity>(e).unwrap().0 = Vec3::new(0.0, 1.2, 0.0);
    app.update();
    assert!((speed(&app, e) - 0.6).abs() < 1e-6, "{}", speed(&app, e));
}

#[test]
fn smoothing_approaches_the_target_at_a_fixed_step() {
    let mut app = app();
    let source = ParameterSource::new("speed", "Velocity", "0").length().smooth(0.1);
    let e = spawn(&mut app, AnimGraphSources::new([source]), Vec3::ZERO);
    until_bound(&mut app, e);
    app.update();
    app.world_mut().get_mut::<Velocity>(e).unwrap().0 = Vec3::X * 2.0;
    let mut last = 0.0;
    for frame in 0..60 {
        app.update();
        let s = speed(&app, e);
        assert!(s > last && s < 2.0, "frame {frame}: {s} after {last}");
        last = s;
    }
    // One second is ten time constants: within e^-10 of the target.
    assert!((2.0 - last) < 2.0 * 1e-4, "{last}");
    // The first frame went about 1 - e^(-1/6) of the way (two 1/120 s steps).
    let app2 = {
        let mut app = self::app();
        let e2 = spawn(
            &mut app,
            AnimGraphSources::new([ParameterSource::new("speed", "Velocity", "0").length().smooth(0.1)]),
            Vec3::ZERO,
        );
        until_bound(&mut app, e2);
        app.update();
        app.world_mut().get_mut::<Velocity>(e2).unwrap().0 = Vec3::X * 2.0;
        app.update();
        (app, e2)
    };
    let first = speed(&app2.0, app2.1);
    let expected = 2.0 * (1.0 - (-1.0f32 / 6.0).exp());
    assert!((first - expected).abs() < 1e-3, "{first} vs {expected}");
}

#[test]
fn a_source_naming_nothing_reports_why_and_sets_nothing() {
    let mut app = app();
    let sources = AnimGraphSources::new([
        ParameterSource::new("speed", "Velocty", "0").length(),
        ParameterSource::new("sped", "Velocity", "0").length(),
        ParameterSource::new("jump", "Velocity", "0").length(),
        ParameterSource::new("speed", "Velocity", "0.nope").length(),
    ]);
    let e = spawn(&mut app, sources, Vec3::X * 3.0);
    until_bound(&mut app, e);
    app.update();
    let sources = &app.world().get::<AnimGraphSources>(e).unwrap().sources;
    let errors: Vec<Option<&str>> = sources.iter().map(|s| s.error()).collect();
    assert!(errors[0].unwrap().contains("Velocty"), "{errors:?}");
    assert!(errors[0].unwrap().contains("register"), "{errors:?}");
    assert!(errors[1].unwrap().contains("sped"), "{errors:?}");
    assert!(errors[2].unwrap().contains("trigger"), "{errors:?}");
    // A path that resolves to nothing at run time leaves the parameter alone.
    assert_eq!(errors[3], None);
    assert_eq!(sources[3].value(), None);
    assert_eq!(speed(&app, e), 0.0);
}
