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

/// Counts of what a graph holds, nested machines included (for summaries and editors).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GraphStats {
    /// Parameters.
    pub parameters: usize,
    /// Layers.
    pub layers: usize,
    /// States in every machine, nested ones included.
    pub states: usize,
    /// Transitions in every machine.
    pub transitions: usize,
    /// 1D and 2D blend-space states.
    pub blend_spaces: usize,
    /// Sub-machine states.
    pub sub_machines: usize,
}

impl AnimationGraph {
    /// Counts states, transitions, blend spaces and sub-machines across every layer.
    pub fn stats(&self) -> GraphStats {
        fn walk(machine: &super::GraphMachine, stats: &mut GraphStats) {
            stats.states += machine.states.len();
            stats.transitions += machine.transitions.len();
            for state in &machine.states {
                match &state.kind {
                    super::StateKind::BlendSpace1D(_) | super::StateKind::BlendSpace2D(_) => {
                        stats.blend_spaces += 1
                    }
                    super::StateKind::SubMachine(inner) => {
                        stats.sub_machines += 1;
                        walk(inner, stats);
                    }
                    super::StateKind::Clip(_) => {}
                }
            }
        }
        let mut stats =
            GraphStats { parameters: self.parameters.len(), layers: self.layers.len(), ..Default::default() };
        for layer in &self.layers {
            walk(&layer.machine, &mut stats);
        }
        stats
    }
}
