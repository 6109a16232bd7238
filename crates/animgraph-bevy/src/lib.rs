//! # animgraph-bevy
//!
//! animgraph in [Bevy](https://bevy.org) 0.19: state machines, blend spaces and layers for
//! Bevy characters, 2D and 3D, driven from game systems.
//!
//! - **Assets.** [`AnimGraphPlugin`] registers `.mres` graphs ([`GraphAsset`]), `.mskel` 2D
//!   skeletons ([`SkeletonAsset`]) and glTF models as animgraph reads them ([`ModelAsset`],
//!   picked by handle type, so Bevy's own glTF loader keeps `.glb` for scenes). The loaders run
//!   the runtime's loader and validation: a broken file fails to load with the same located
//!   error as `animgraph validate` (resource id, property, line, a fix). With Bevy's
//!   `file_watcher`, an edited graph is rebound on every character that plays it, each layer
//!   keeping its state and every parameter its value; a save that does not load leaves the
//!   running graph in place and logs why.
//! - **3D.** [`AnimGraph3D`] on a glTF scene instance: once Bevy has spawned the scene, its
//!   joints are mapped to their entities once by name path ([`AnimGraphJoint`]), the 3D backend
//!   poses them from the model's clips (and clip libraries), and their `Transform`s are written
//!   in `PostUpdate` after Bevy's `AnimationSystems` and before transform propagation
//!   ([`AnimGraphPoseSystems`]), so Bevy's `AnimationPlayer` does not fight it. Morph weights
//!   reach `MorphWeights` ([`AnimGraphMorphs`]).
//! - **2D.** [`AnimGraph2D`] plays a graph on a `.mskel` skeleton; with the `render` feature
//!   `AnimGraphSprite` draws it as one textured, deformed `Mesh2d` rebuilt in place each frame
//!   (draw order, tint, normal and additive blending).
//! - **Game code.** Parameters by id (`player_mut()?.find_parameter` once, then `set_float`)
//!   or by name, `travel`, layer weights and code tracks (`character_mut()?.tracks`) from any
//!   system ordered `.before(AnimGraphSystems)`. Graph events arrive as [`AnimGraphSignal`]
//!   messages naming the entity, 2D clip events as [`AnimGraphClipEvent`], code-track events as
//!   [`AnimGraphTrackEvent`]. [`AnimGraphSources`] binds a parameter to a value on the entity
//!   (e.g. `speed` <- the length of a `Velocity`, by Bevy reflection path) with scale, clamp and
//!   fixed-step smoothing, evaluated before the advance.
//! - **Many characters.** Characters advance in parallel (Bevy's parallel queries), joints are
//!   written in parallel; each character's result is the same bits on any thread. After
//!   warm-up the plugin's systems allocate nothing per frame (a test counts).
//! - **Tools** (default features): `link`: `AnimGraphLinkPlugin` lists the characters to the
//!   animgraph editor by entity name, which attaches and watches them live; `net`:
//!   `AnimGraphAuthority` / `AnimGraphRemote` capture and apply replication snapshots per
//!   entity.
//!
//! Features: `link`, `net` (default); `render` (the window, renderer and 2D drawing the
//! examples use; off by default, it is most of Bevy's build). The plugin itself needs only
//! Bevy's asset, log, mesh and task features.
//!
//! ## Glossary
//! - *graph*: a `.mres` resource (parameters, layers, state machines, transitions).
//! - *character*: a graph bound to a skeleton, with its player, code tracks and pose
//!   ([`AnimGraph2D::character`], [`AnimGraph3D::character`]).
//! - *player*: the graph's evaluation state (states, parameters, transitions), the same type as
//!   in the runtime (`AnimationGraphPlayer`).
//! - *signal*: an event the player raises (state entered or exited, transition started, window
//!   begun or ended).
//! - *parameter source*: a parameter fed from a component field instead of code.
//!
//! ```no_run
//! use animgraph_bevy::{AnimGraph3D, AnimGraphPlugin, AnimGraphSignal, AnimGraphSystems};
//! use bevy::prelude::*;
//! use bevy::world_serialization::WorldAssetRoot;
//!
//! fn spawn(mut commands: Commands, assets: Res<AssetServer>) {
//!     let scene = assets.load(GltfAssetLabel::Scene(0).from_asset("Fox.glb"));
//!     commands.spawn((
//!         WorldAssetRoot(scene),
//!         AnimGraph3D::new(assets.load("fox.mres"), assets.load("Fox.glb")),
//!     ));
//! }
//!
//! fn drive(mut foxes: Query<&mut AnimGraph3D>, time: Res<Time>, mut jumped: Local<bool>) {
//!     for mut fox in &mut foxes {
//!         let Some(player) = fox.player_mut() else { continue };
//!         let _ = player.set_float_by_name("speed", 1.5 + time.elapsed_secs().sin());
//!         if time.elapsed_secs() > 5.0 && !*jumped {
//!             *jumped = true;
//!             let _ = player.fire_by_name("jump");
//!         }
//!     }
//! }
//!
//! fn react(mut signals: MessageReader<AnimGraphSignal>) {
//!     for s in signals.read() {
//!         info!("{}: {:?}", s.entity, s.event);
//!     }
//! }
//!
//! App::new()
//!     .add_plugins((DefaultPlugins, AnimGraphPlugin))
//!     .add_systems(Startup, spawn)
//!     .add_systems(Update, (drive.before(AnimGraphSystems), react.after(AnimGraphSystems)))
//!     .run();
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod assets;
mod character;
#[cfg(feature = "render")]
mod draw_2d;
#[cfg(feature = "link")]
mod link;
#[cfg(feature = "net")]
mod net;
mod reload;
mod sources;
mod three_d;
mod two_d;

pub use assets::{
    AnimGraphLoadError, GraphAsset, ModelAsset, ModelLoader, MresLoader, MskelLoader, SkeletonAsset,
};
#[cfg(feature = "render")]
pub use draw_2d::{AnimGraphSprite, Skeleton2DMaterial};
#[cfg(feature = "link")]
pub use link::{AnimGraphLink, AnimGraphLinkPlugin, AnimGraphLinked};
#[cfg(feature = "net")]
pub use net::{AnimGraphAuthority, AnimGraphRemote};
pub use sources::{AnimGraphSources, ParameterSource, Reduce, SMOOTHING_STEP};
pub use three_d::{AnimGraph3D, AnimGraphJoint, AnimGraphMorphs};
pub use two_d::AnimGraph2D;

use bevy::app::{AnimationSystems, App, Plugin, PostUpdate, Update};
use bevy::asset::AssetApp;
use bevy::ecs::prelude::*;
use bevy::transform::TransformSystems;

/// Registers the animgraph asset types and their loaders, and the systems that bind, advance
/// and pose characters.
#[derive(Default)]
pub struct AnimGraphPlugin;

impl Plugin for AnimGraphPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<GraphAsset>()
            .init_asset::<SkeletonAsset>()
            .init_asset::<ModelAsset>()
            .register_asset_loader(MresLoader)
            .register_asset_loader(MskelLoader)
            .register_asset_loader(ModelLoader)
            .add_message::<AnimGraphSignal>()
            .add_message::<AnimGraphClipEvent>()
            .add_message::<AnimGraphTrackEvent>()
            .add_systems(
                Update,
                (
                    reload::reload_graphs,
                    (two_d::bind_2d, three_d::bind_3d),
                    sources::apply_sources,
                    (two_d::advance_2d, three_d::advance_3d),
                    signal,
                )
                    .chain()
                    .in_set(AnimGraphSystems),
            )
            .add_systems(
                PostUpdate,
                (three_d::write_joints, three_d::write_morphs)
                    .in_set(AnimGraphPoseSystems)
                    .after(AnimationSystems)
                    .before(TransformSystems::Propagate),
            );
        #[cfg(feature = "net")]
        app.add_systems(
            Update,
            (
                net::apply_remote
                    .after(sources::apply_sources)
                    .before(two_d::advance_2d)
                    .before(three_d::advance_3d),
                net::capture_authority.after(two_d::advance_2d).after(three_d::advance_3d).before(signal),
            )
                .in_set(AnimGraphSystems),
        );
        #[cfg(feature = "render")]
        app.add_plugins(draw_2d::Draw2DPlugin)
            .add_systems(PostUpdate, draw_2d::draw_2d.in_set(AnimGraphPoseSystems));
    }
}

/// The plugin's systems in `Update` (hot reload, binding, advancing, signals): order game
/// systems that set parameters `.before(AnimGraphSystems)` and ones that read states, poses or
/// signals `.after(AnimGraphSystems)`.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct AnimGraphSystems;

/// The plugin's systems in `PostUpdate` that write 3D poses into joint `Transform`s and
/// `MorphWeights`: after Bevy's `AnimationSystems`, before transform propagation.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct AnimGraphPoseSystems;

/// A graph event of one character this frame (read with `MessageReader<AnimGraphSignal>` in a
/// system after [`AnimGraphSystems`]).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct AnimGraphSignal {
    /// The character's entity.
    pub entity: Entity,
    /// The event, as the player raised it (`StateEntered`, `StateExited`, `TransitionStarted`,
    /// window begins and ends, ...; its state ids name states through the player's
    /// `state_path`).
    pub event: animgraph_runtime::GraphEvent,
}

/// A clip event (a key of a 2D clip's event timeline) a character's pose crossed this frame.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct AnimGraphClipEvent {
    /// The character's entity.
    pub entity: Entity,
    /// The event: its name is `skeleton.events[event.event]`.
    pub event: animgraph_2d::SkeletonEvent,
}

/// A code track event (an entry started, was interrupted, completed or ended) of one character.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct AnimGraphTrackEvent {
    /// The character's entity.
    pub entity: Entity,
    /// The event.
    pub event: animgraph_runtime::tracks::TrackEvent,
}

/// Sends the frame's events as messages, after the parallel advance (a message writer is not
/// shared across threads), characters in query order and each one's events in the order raised.
fn signal(
    two: Query<(Entity, &AnimGraph2D)>,
    three: Query<(Entity, &AnimGraph3D)>,
    mut signals: MessageWriter<AnimGraphSignal>,
    mut clips: MessageWriter<AnimGraphClipEvent>,
    mut tracks: MessageWriter<AnimGraphTrackEvent>,
) {
    for (entity, c) in &two {
        let Some(c) = c.character() else { continue };
        if let Some(player) = c.player() {
            signals.write_batch(player.events().iter().map(|&event| AnimGraphSignal { entity, event }));
        }
        clips.write_batch(c.backend.events().iter().map(|&event| AnimGraphClipEvent { entity, event }));
        tracks.write_batch(c.tracks.events().iter().map(|&event| AnimGraphTrackEvent { entity, event }));
    }
    for (entity, c) in &three {
        let Some(c) = c.character() else { continue };
        if let Some(player) = c.player() {
            signals.write_batch(player.events().iter().map(|&event| AnimGraphSignal { entity, event }));
        }
        tracks.write_batch(c.tracks.events().iter().map(|&event| AnimGraphTrackEvent { entity, event }));
    }
}
