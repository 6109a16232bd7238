//! # animgraph-bevy
//!
//! animgraph in [Bevy](https://bevy.org) 0.19. So far:
//! - [`AnimGraphPlugin`] registers `.mres` graphs ([`GraphAsset`]) and `.mskel` 2D skeletons
//!   ([`SkeletonAsset`]) as Bevy assets. Their loaders run the runtime's own loader and
//!   validation, so a broken file fails to load with the same located errors as `animgraph
//!   validate` (resource id, property, line and a fix), prefixed with the asset's path.
//! - [`AnimGraph2D`], a component that plays a graph on a 2D skeleton: once both assets have
//!   loaded the plugin binds them (a bind error is logged once, with the entity), then advances
//!   the character by `Time`'s delta in `Update`, entities in parallel. Parameters are set
//!   through [`AnimGraph2D::player_mut`]; the pose is [`AnimGraph2D::character`]'s backend's.
//! - Signals: every graph event of a frame (`StateEntered`, `StateExited`, `TransitionStarted`,
//!   windows, ...) arrives as an [`AnimGraphSignal`] message naming the entity, in the order the
//!   player raised them.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use animgraph_bevy::{AnimGraphPlugin, GraphAsset};
//!
//! fn load(assets: Res<AssetServer>) {
//!     let _robot: Handle<GraphAsset> = assets.load("characters/robot/robot.mres");
//! }
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, AssetPlugin::default(), AnimGraphPlugin))
//!     .add_systems(Startup, load)
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
