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
    /// How `travel` reaches a state: a direct mix, or along the shortest chain of transitions.
    pub travel_mode: TravelMode,
}

/// How [`travel`](crate::AnimationGraphPlayer::travel) reaches its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TravelMode {
    /// One mix straight to the state (the `Mixes` / `DefaultMix` duration).
    #[default]
    Direct,
    /// Hop by hop along the shortest chain of transitions (fewest hops, ties by rank), each hop
    /// with its own Duration, Curve and Blend, ignoring conditions and exit times; a direct mix
    /// when no chain exists.
    Path,
}

impl TravelMode {
    /// Every mode, in file order.
    pub const ALL: [TravelMode; 2] = [TravelMode::Direct, TravelMode::Path];

    /// The name used in `.mres` files.
    pub fn as_str(self) -> &'static str {
        match self {
            TravelMode::Direct => "Direct",
            TravelMode::Path => "Path",
        }
    }
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
            travel_mode: schema::TRAVEL_MODE.default,
        }
    }
}
