//! # animgraph-2d
//!
//! 2D skeletons for [`animgraph_runtime`]: the `.mskel` data ([`Skeleton2DData`]), clip sampling into
//! struct-of-arrays poses, [`Skeleton2DPoseBackend`] (the layering contract), importers (Godot 4
//! scenes, Spine JSON) and a CPU renderer to PNG.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod animated;
pub mod attachment;
pub mod backend;
pub mod data;
pub mod godot;
pub mod path;
pub mod render;
pub mod skeleton;
pub mod spine;

pub use animated::{AnimatedSkeleton2D, animated_2d};
pub use attachment::{Geometry, SkinId, Vertices, WorldVertices};
pub use backend::{MotionSnapshot, Skeleton2DPoseBackend, SkeletonEvent};
pub use data::{Skeleton2DData, SkeletonError};
pub use skeleton::{Channels, Pose, Skeleton2D};
