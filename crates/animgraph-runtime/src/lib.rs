//! # animgraph-runtime
//!
//! Animation graphs for games: the state machines, blend spaces and layers that decide which
//! clips a character plays, how it moves between them and how they mix.
//!
//! A graph is authored as a `.mres` resource ([`mres`]), held in memory as plain authoring types
//! ([`graph`]), checked once by [`graph::validate`] (a [`ValidGraph`] proves it), bound once
//! against a backend into a shared [`BoundGraph`], and evaluated each frame by one
//! [`AnimationGraphPlayer`] per character into a [`SampleBuffer`] that a [`PoseBackend`] turns
//! into a pose.
//!
//! ```text
//!  .mres ──load──▶ ValidGraph ──bind──▶ Arc<BoundGraph> ──new──▶ player ──advance──▶ SampleBuffer ──apply──▶ pose
//! ```
//!
//! ## Features
//!
//! A game that only plays graphs depends on this crate with `default-features = false` (adding
//! `parallel` for batch updates on threads) and gets no TCP server, no file watcher, no lint and
//! no script runner. All of these are on by default, for tools:
//!
//! | feature | what it adds |
//! |---|---|
//! | `parallel` | [`animated::update_all`] and [`crowd::Crowd::update_parallel`] on rayon's threads |
//! | `link` | `link`: live debugging over TCP on 127.0.0.1 |
//! | `watch` | `watch`: hot reload of graph files |
//! | `lint` | `lint`: authoring checks with stable codes |
//! | `tools` | `script` (parameter scripts, `Simulation`, `RecordingBackend`) and `recording` |
//!
//! ## Glossary
//!
//! | term | meaning |
//! |---|---|
//! | clip | a named animation the backend can sample (`idle`, `walk`) |
//! | sample | one clip at one time with one weight on one layer ([`ClipSample`]) |
//! | parameter | a named bool, int, float or trigger that game code sets and conditions read |
//! | trigger | a one-shot parameter: set by `fire`, consumed by the transition that uses it |
//! | layer | one state machine whose result combines with the layers below (Replace or Additive, weight, mask) |
//! | state | what a layer plays: a clip, a 1D or 2D blend space, or a nested machine |
//! | blend space | clips placed at positions; a parameter point picks their weights |
//! | transition | a rule to leave one state for another, with a crossfade of `Duration` seconds |
//! | any state (`*`) | a transition source meaning every state of the machine |
//! | `<exit>` | a transition target inside a sub-machine: hand back to the parent's transitions |
//! | exit time | normalised source time (cumulative over loops) before which a transition waits |
//! | normalised time | time / clip length; `2.5` is halfway through the third loop |
//! | mask | the bones a layer affects, by name ([`BoneMask`]) |
//! | bind | compiling a graph against a backend into flat arrays of ids, once ([`BoundGraph`]) |
//! | valid graph | a graph that passed validation, ready to bind ([`ValidGraph`]) |
//! | blend stack | what one layer or code track blends: frozen sources, the mix's target, the mix |
//! | backend | a [`PoseBackend`]: resolves clip names and masks, poses a skeleton from samples |
//! | sub-machine | a state that is itself a machine; its states are addressed as `Outer/Inner` |
//! | interruption | a transition starting while another mix runs; the blend so far is frozen as its source |
//! | code track | a clip played from code above the graph's layers ([`tracks::AnimationTracks`]) |
//! | tick | one `advance`; the unit of time for networking |
//! | blend curve | how a crossfade's weight follows its progress (`Curve`: Linear, EaseIn, EaseOut, EaseInOut) |
//! | inertial transition | `Blend: Inertial`: only the target is sampled from the start; the backend decays the offset from the pose the layer had ([`core::inertial`]) |
//! | sync marker | a named time in a clip (a foot plant), from 2D event keys, a glTF's `NAME.markers.json` or a script ([`markers`]) |
//! | marker sync | `Sync: Markers` on a transition (the target starts at the matching marker phase) or `SyncMarkers` on a blend space (same-named markers reached together) |
//! | travel path | `TravelMode: Path`: `travel` walks the shortest chain of transitions hop by hop |
//! | weighted mask | a mask giving each bone a share of the layer (`Weights`, inherited by unlisted children) |
//! | window | a named span of a state's normalised time, signalled by `WindowBegin` / `WindowEnd` (hit boxes, combo windows) |
//! | crowd store | many characters of one bound graph and skeleton kept in one `Vec`, updated in memory order with per-thread scratch ([`crowd::Crowd`]) |
//! | animation LOD | a crowd member's pose sampled every Nth frame and interpolated between, while its graph advances every frame |
//!
//! ## Example
//!
//! Load the proposal's locomotion graph, bind it to a backend, and run frames:
//!
//! ```
//! use std::sync::Arc;
//! use animgraph_runtime::{mres, AnimationGraphPlayer, BoundGraph, PoseBackend};
//! use animgraph_runtime::script::{ClipSpec, RecordingBackend};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/graphs/locomotion.mres");
//! let graph = mres::load_file(path)?.graph;                          // a ValidGraph
//!
//! // Any PoseBackend: a skeleton in a game; here one that records clip samples.
//! let clips = [("idle", 2.0), ("walk", 0.708), ("run", 1.158), ("jump", 0.8)]
//!     .map(|(name, length)| (name.to_string(), ClipSpec::new(length, name != "jump")));
//! let mut backend = RecordingBackend::new(&clips.into_iter().collect());
//!
//! let bound = Arc::new(BoundGraph::bind(&graph, &mut backend)?);    // bind once
//! let mut player = AnimationGraphPlayer::new(Arc::clone(&bound));     // one per character
//! let mut buffer = player.new_buffer();                               // sized at bind
//! let speed = player.find_parameter("speed").unwrap();                // resolve names once
//!
//! player.set_float(speed, 2.0)?;
//! player.advance(1.0 / 60.0, &mut buffer);                            // no allocation
//! backend.apply(buffer.samples(), buffer.layers());
//!
//! // speed 2.0 sits between walk (1.5) and run (4.0): 80% walk, 20% run.
//! let weights: Vec<f32> = buffer.samples().iter().map(|s| s.weight).collect();
//! assert!((weights[0] - 0.8).abs() < 1e-6 && (weights[1] - 0.2).abs() < 1e-6);
//!
//! player.fire_by_name("jump")?;
//! player.advance(1.0 / 60.0, &mut buffer);
//! assert_eq!(player.transition_target(0).map(|s| player.state_path(s)), Some("Jump"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The player's frame steps and its transition and interruption rules are tabulated in
//! [`graph::player`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod animated;
pub(crate) mod blend;
pub mod core;
pub mod crowd;
pub mod files;
pub mod finding;
#[cfg(feature = "frame")]
pub mod frame;
pub mod graph;
pub mod json;
#[cfg(feature = "link")]
pub mod link;
#[cfg(feature = "lint")]
pub mod lint;
pub mod markers;
pub mod mres;
pub mod net;
#[cfg(feature = "tools")]
pub mod recording;
#[cfg(feature = "tools")]
pub mod script;
pub mod tracks;
#[cfg(feature = "watch")]
pub mod watch;

pub use crate::core::{
    BackendNames, BoneMask, ClipBlend, ClipId, ClipSample, InertialBlend, LayerInfo, MaskId, PoseBackend,
    SampleBuffer,
};
pub use crate::finding::{Code, Finding, Severity};
pub use crate::graph::{AnimationGraph, AnimationGraphPlayer, BoundGraph, GraphEvent, ValidGraph};
