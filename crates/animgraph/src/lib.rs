//! # animgraph
//!
//! Animation graphs for games: the state machines, blend spaces and layers that decide which
//! clips a character plays, how it moves between them and how they mix.
//!
//! A graph is authored as a `.mres` resource ([`mres`]), held in memory as plain authoring types
//! ([`graph`]), checked by [`graph::validate`], and (once bound) evaluated each frame into a
//! [`SampleBuffer`] that a [`PoseBackend`] turns into a pose.
//!
//! ```text
//!  .mres ──load──▶ AnimationGraph ──bind──▶ compiled ids ──advance──▶ SampleBuffer ──apply──▶ pose
//! ```
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
//! | bind | compiling a graph against a backend into flat arrays of ids, once |
//! | backend | a [`PoseBackend`]: resolves clip names and masks, poses a skeleton from samples |
//!
//! ## Example
//!
//! ```
//! use animgraph::mres;
//!
//! let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/graphs/locomotion.mres"))?;
//! let graph = mres::load_str(&text)?.graph;
//! assert_eq!(graph.layers[0].machine.entry, "Move");
//! assert!(animgraph::graph::validate(&graph).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod core;
pub mod graph;
pub mod mres;
pub mod script;

pub use crate::core::{
    BoneMask, ClipBlend, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend, SampleBuffer,
};
pub use crate::graph::{AnimationGraph, AnimationGraphPlayer, GraphEvent};
