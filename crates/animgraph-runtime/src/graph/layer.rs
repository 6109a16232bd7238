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
        use super::schema::layer as schema;
        GraphLayer {
            name: schema::NAME.default.to_string(),
            blend: schema::BLEND.default,
            weight: schema::WEIGHT.default,
            weight_parameter: schema::WEIGHT_PARAMETER.default.to_string(),
            mask: None,
            machine: GraphMachine::default(),
        }
    }
}
