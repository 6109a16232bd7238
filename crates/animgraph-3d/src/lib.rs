//! # animgraph-3d
//!
//! 3D skeletons for [`animgraph_runtime`]: glTF 2.0 import ([`import`]), [`Skeleton3DPoseBackend`] (the
//! layering contract with quaternion blending), [`AnimatedSkeleton3D`], and CPU skinning with a
//! small software rasteriser to PNG ([`render`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod backend;
pub mod import;
pub mod library;
pub mod markers;
pub mod skeleton;

pub use backend::{MotionSnapshot, Pose3D, Skeleton3DPoseBackend};
pub use library::{LibraryReport, Retarget};
pub use skeleton::Skeleton3D;
pub mod render;

/// A posed 3D character: the runtime's [`animgraph_runtime::animated::Animated`] over
/// [`Skeleton3DPoseBackend`].
pub type AnimatedSkeleton3D = animgraph_runtime::animated::Animated<Skeleton3DPoseBackend>;

/// Binds `graph` (if any) to a new backend for `skeleton`, with `track_count` code tracks.
pub fn animated_3d(
    skeleton: std::sync::Arc<Skeleton3D>,
    graph: Option<&animgraph_runtime::AnimationGraph>,
    track_count: usize,
) -> Result<AnimatedSkeleton3D, animgraph_runtime::graph::BindError> {
    animgraph_runtime::animated::Animated::new(Skeleton3DPoseBackend::new(skeleton), graph, track_count)
}
