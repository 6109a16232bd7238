//! # animgraph
//!
//! Animation graphs for games: the state machines, blend spaces and layers that decide which
//! clips a character plays, how it moves between them and how they mix.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod core;
pub mod graph;
pub mod mres;

pub use crate::core::{
    BoneMask, ClipBlend, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend, SampleBuffer,
};
pub use crate::graph::AnimationGraph;
