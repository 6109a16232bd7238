//! A layer: one state machine whose pose combines with the layers below it.

use super::GraphMachine;
use crate::core::{BoneMask, ClipBlend};

/// One layer of a graph: a state machine, how it blends, its weight and mask.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphLayer {
    /// Unique within the graph. Default `"Base"`.
    pub name: String,
    /// Replace or Additive.
    pub blend: ClipBlend,
    /// `0..=1`. Default `1`.
    pub weight: f32,
    /// Optional float parameter that drives the weight (multiplied with `weight`).
    pub weight_parameter: String,
    /// Optional bone mask.
    pub mask: Option<BoneMask>,
    /// The layer's state machine.
    pub machine: GraphMachine,
}

impl Default for GraphLayer {
    fn default() -> Self {
        GraphLayer {
            name: "Base".to_string(),
            blend: ClipBlend::Replace,
            weight: 1.0,
            weight_parameter: String::new(),
            mask: None,
            machine: GraphMachine::default(),
        }
    }
}
