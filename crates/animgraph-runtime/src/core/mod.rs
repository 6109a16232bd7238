//! The contract between producers of animation (graphs, code tracks) and consumers (skeletons).
//!
//! Everything a graph or a set of tracks produces is a flat list of weighted [`ClipSample`]s per
//! layer, plus one [`LayerInfo`] per layer, written into a [`SampleBuffer`] whose capacity is
//! fixed when it is created. A [`PoseBackend`] turns that into a pose.

mod backend;
mod mask;
mod names;
mod sample;

pub mod inertial;
pub mod prefetch;
pub use backend::{BackendNames, PoseBackend};
pub use mask::BoneMask;
pub use names::{ClipNames, ResolvedMasks};
pub use sample::{ClipBlend, ClipId, ClipSample, InertialBlend, LayerInfo, MaskId, SampleBuffer};
