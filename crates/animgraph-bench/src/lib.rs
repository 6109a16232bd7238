//! # animgraph-bench
//!
//! The benchmark scenarios, written once: the divan suite (`cargo bench -p animgraph-bench`),
//! `animgraph bench` (a quick run of the same scenarios on any machine) and the peer comparison
//! use these fixtures and drivers, so every figure measures the same work.
//!
//! | scenario | what it measures |
//! |---|---|
//! | `bind_*` | compiling a graph against a backend (locomotion, showcase, a generated 500-state graph) |
//! | `advance_*` | one `advance` of a graph whose parameters move every frame (locomotion, showcase, GBot's, the Robot's) |
//! | `apply_*` | one `apply` of a character's own last frame (GBot, 16 bones; Robot, 43 joints) |
//! | `update_*_crowd` | advance + apply of 10,000 characters, on one thread or on a rayon pool |
//! | `net_*` | encoding and decoding a three-layer graph's replicated state |
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod fixtures;
#[cfg(feature = "peer")]
pub mod peer;
pub mod quick;

pub use fixtures::*;
