//! # animgraph-robustness
//!
//! Any bytes, any loader: [`targets`] holds one function per loader and decoder that takes
//! arbitrary bytes, runs them through the loader and then through what a user does next with
//! the result (bind, advance, pose, draw), and panics only on a real bug. The same functions are
//! the bodies of the `cargo fuzz` targets in `fuzz/` and of this crate's seeded tests, which feed
//! each a few thousand deterministic mutations ([`mutate`]) of the bundled assets ([`seeds`]),
//! so CI catches regressions the long fuzz runs found.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod mutate;
pub mod seeds;
pub mod targets;
