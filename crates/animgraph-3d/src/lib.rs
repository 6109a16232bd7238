//! # animgraph-3d
//!
//! 3D skeletons for [`animgraph`]: glTF 2.0 import ([`import`]), [`Skeleton3DPoseBackend`] (the
//! layering contract with quaternion blending), [`AnimatedSkeleton3D`], and CPU skinning with a
//! small software rasteriser to PNG ([`render`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod backend;
pub mod import;
pub mod skeleton;

pub use backend::{Pose3D, Skeleton3DPoseBackend};
pub use skeleton::Skeleton3D;
