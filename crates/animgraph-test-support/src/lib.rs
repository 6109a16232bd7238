//! Test helpers every animgraph crate's tests share, kept out of the runtime so a game that
//! links it gets none of them:
//!
//! - [`conformance`]: the layering-contract suite (a neutral three-bone rig, named cases with
//!   expected values) that every [`PoseBackend`](animgraph_runtime::PoseBackend) runs;
//! - [`counting`]: a global allocator that counts allocations, per thread and in all, for the
//!   zero-allocation tests and `animgraph bench`;
//! - [`RecordingBackend`]: a backend that poses nothing and keeps the last frame's samples (it
//!   is also the clip-timing backend `animgraph simulate` runs scripts on, so it lives with the
//!   script runner in the runtime's `tools` feature and is re-exported here).

pub mod conformance;
pub mod counting;
pub mod graphs;

pub use animgraph_runtime::script::{ClipSpec, RecordingBackend};
