//! The animation graph resource: parameters, layers and crossfade settings.

use super::{GraphLayer, GraphMixOverride, GraphParameter};

/// An animation graph, as authored and saved in `.mres`.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimationGraph {
    /// The resource's unique id (`res_...`), kept across saves.
    pub uid: String,
    /// Parameters; names unique.
    pub parameters: Vec<GraphParameter>,
    /// Layers; `[0]` is the base layer.
    pub layers: Vec<GraphLayer>,
    /// Crossfade durations per clip or state pair.
    pub mixes: Vec<GraphMixOverride>,
    /// Crossfade seconds when no `Mixes` entry matches. Default `0.2`.
    pub default_mix: f32,
}

impl Default for AnimationGraph {
    fn default() -> Self {
        AnimationGraph {
            uid: String::new(),
            parameters: Vec::new(),
            layers: Vec::new(),
            mixes: Vec::new(),
            default_mix: 0.2,
        }
    }
}

impl AnimationGraph {
    /// The parameter with this name.
    pub fn parameter(&self, name: &str) -> Option<&GraphParameter> {
        self.parameters.iter().find(|p| p.name == name)
    }
}
