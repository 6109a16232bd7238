//! Net snapshots per entity: a remote GBot fed the authority GBot's packets plays the same
//! states; garbage packets are refused and counted, never a panic.
#![cfg(feature = "net")]

use std::time::{Duration, Instant};

use animgraph_bevy::{AnimGraph2D, AnimGraphAuthority, AnimGraphPlugin, AnimGraphRemote, AnimGraphSystems};
use bevy::prelude::*;

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

#[derive(Resource)]
struct Pair {
    authority: Entity,
    remote: Entity,
}

/// The "network": the authority's new packet (if any) to the remote, acknowledgements back.
fn carry(
    pair: Option<Res<Pair>>,
    mut authorities: Query<&mut AnimGraphAuthority>,
    mut remotes: Query<&mut AnimGraphRemote>,
) {
    let Some(pair) = pair else { return };
    let (Ok(mut authority), Ok(mut remote)) =
        (authorities.get_mut(pair.authority), remotes.get_mut(pair.remote))
    else {
        return;
    };
    if let Some(bytes) = authority.take_packet() {
        remote.receive(bytes);
    }
    let acks: Vec<u64> = remote.take_acks().collect();
    for tick in acks {
        authority.ack(tick);
    }
}

fn states(app: &App, e: Entity) -> Vec<String> {
    let player = app.world().get::<AnimGraph2D>(e).unwrap().player().unwrap();
    (0..player.layer_count()).map(|l| player.current_state_path(l).unwrap_or("-").to_string()).collect()
}

#[test]
fn a_remote_plays_the_authoritys_states() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin { file_path: ASSETS.into(), ..default() }, AnimGraphPlugin));
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    app.add_systems(Update, carry.after(AnimGraphSystems));
    let server = app.world().resource::<AssetServer>().clone();
    let gbot = || {
        AnimGraph2D::new(server.load("characters/gbot/gbot.mres"), server.load("characters/gbot/gbot.mskel"))
    };
    let authority = app.world_mut().spawn((gbot(), AnimGraphAuthority::every(2))).id();
    let remote = app.world_mut().spawn((gbot(), AnimGraphRemote::default())).id();
    app.insert_resource(Pair { authority, remote });
    let begin = Instant::now();
    while [authority, remote].iter().any(|&e| app.world().get::<AnimGraph2D>(e).unwrap().player().is_none()) {
        assert!(begin.elapsed() < Duration::from_secs(20), "the GBots never bound");
        app.update();
    }
    let mut seen_air = false;
    for frame in 0..240 {
        {
            let mut c = app.world_mut().get_mut::<AnimGraph2D>(authority).unwrap();
            let player = c.player_mut().unwrap();
            player.set_float_by_name("speed", (frame as f32 / 60.0).min(2.0)).unwrap();
            player.set_bool_by_name("waving", (90..150).contains(&frame)).unwrap();
            player.set_bool_by_name("grounded", !(60..100).contains(&frame)).unwrap();
            if frame == 59 {
                player.fire_by_name("jump").unwrap();
            }
        }
        app.update();
        seen_air |= states(&app, remote)[0].starts_with("Air");
    }
    // One more snapshot so the remote has the authority's latest tick.
    app.update();
    app.update();
    assert!(seen_air, "the remote jumped when the authority did");
    let remote_state = app.world().get::<AnimGraphRemote>(remote).unwrap();
    assert!(remote_state.applied_tick().is_some());
    assert_eq!(remote_state.refused, 0, "{:?}", remote_state.last_error);
    assert_eq!(states(&app, remote), states(&app, authority));

    // Garbage: refused and counted, the remote's states untouched.
    let before = states(&app, remote);
    app.world_mut()
        .get_mut::<AnimGraphRemote>(remote)
        .unwrap()
        .receive(&[2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    app.world_mut().get_mut::<AnimGraphRemote>(remote).unwrap().receive(b"not a snapshot");
    app.world_mut().remove_resource::<Pair>();
    app.update();
    let remote_state = app.world().get::<AnimGraphRemote>(remote).unwrap();
    assert_eq!(remote_state.refused, 2);
    assert!(remote_state.last_error.is_some());
    assert_eq!(states(&app, remote), before);
}
