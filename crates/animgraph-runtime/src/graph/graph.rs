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
            default_mix: super::schema::graph::DEFAULT_MIX.default,
        }
    }
}

impl AnimationGraph {
    /// The parameter with this name.
    pub fn parameter(&self, name: &str) -> Option<&GraphParameter> {
        self.parameters.iter().find(|p| p.name == name)
    }

    /// Every place that names the parameter `name`, as model paths
    /// (`Layers[0].Machine.Transitions[2].Conditions[0].Parameter`), in a stable order.
    pub fn parameter_references(&self, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut graph = self.clone();
        graph.visit_parameter_refs(&mut |path, field| {
            if field == name {
                out.push(path.to_string());
            }
        });
        out
    }

    /// The names of every parameter something in the graph names (conditions, blend spaces,
    /// speeds, layer weights), in one walk of the graph.
    pub fn referenced_parameters(&self) -> std::collections::HashSet<String> {
        let mut out = std::collections::HashSet::new();
        let mut graph = self.clone();
        graph.visit_parameter_refs(&mut |_, field| {
            if !out.contains(field.as_str()) {
                out.insert(field.clone());
            }
        });
        out
    }

    /// Renames a parameter and every reference to it; returns how many references changed.
    /// Nothing changes (and `0` is returned) when `old` is not a parameter or `new` is already
    /// taken.
    pub fn rename_parameter(&mut self, old: &str, new: &str) -> usize {
        if old == new || self.parameter(new).is_some() {
            return 0;
        }
        let Some(index) = self.parameters.iter().position(|p| p.name == old) else { return 0 };
        self.parameters[index].name = new.to_string();
        let mut changed = 0;
        self.visit_parameter_refs(&mut |_, field| {
            if field == old {
                *field = new.to_string();
                changed += 1;
            }
        });
        changed
    }

    /// Every clip name the graph plays (clip states and blend-space points, every layer and
    /// depth), each once, in the order first met.
    pub fn clip_names(&self) -> Vec<String> {
        fn walk(m: &super::GraphMachine, out: &mut Vec<String>) {
            for s in &m.states {
                let clips: &[String] = match &s.kind {
                    super::StateKind::Clip(c) => std::slice::from_ref(&c.clip),
                    super::StateKind::BlendSpace1D(b) => &b.clips,
                    super::StateKind::BlendSpace2D(b) => &b.clips,
                    super::StateKind::SubMachine(inner) => {
                        walk(inner, out);
                        &[]
                    }
                };
                for c in clips {
                    if !c.is_empty() && !out.contains(c) {
                        out.push(c.clone());
                    }
                }
            }
        }
        let mut out = Vec::new();
        for layer in &self.layers {
            walk(&layer.machine, &mut out);
        }
        out
    }

    /// Changes a parameter's type and keeps the graph meaningful: conditions on it whose
    /// operator no longer fits get the new type's first operator (`Float` `Greater` stays
    /// `Greater` as an `Int`; a `Bool`'s `True` becomes a `Trigger`'s `Triggered`), an `Int`'s
    /// default is rounded, a bool's becomes 0 or 1, and `Latch` is cleared unless it is a
    /// trigger. Returns how many conditions changed operator, or `None` when there is no such
    /// parameter. Blend spaces, speeds and weights that need a number are left for the
    /// validator to report.
    pub fn set_parameter_type(&mut self, name: &str, kind: super::ParameterType) -> Option<usize> {
        let parameter = self.parameters.iter_mut().find(|p| p.name == name)?;
        parameter.kind = kind;
        parameter.default = match kind {
            super::ParameterType::Int => parameter.default.round(),
            super::ParameterType::Bool => (parameter.default != 0.0) as u8 as f32,
            super::ParameterType::Trigger => 0.0,
            super::ParameterType::Float => parameter.default,
        };
        if kind != super::ParameterType::Trigger {
            parameter.latch = false;
        }
        fn refit(m: &mut super::GraphMachine, name: &str, kind: super::ParameterType, changed: &mut usize) {
            for t in &mut m.transitions {
                for c in &mut t.conditions {
                    if c.parameter == name && !c.op.fits(kind) {
                        c.op = super::ConditionOp::fitting(kind).next().unwrap_or_default();
                        *changed += 1;
                    }
                }
            }
            for s in &mut m.states {
                if let super::StateKind::SubMachine(inner) = &mut s.kind {
                    refit(inner, name, kind, changed);
                }
            }
        }
        let mut changed = 0;
        for layer in &mut self.layers {
            refit(&mut layer.machine, name, kind, &mut changed);
        }
        Some(changed)
    }

    /// Calls `f` with the model path and value of every field that names a parameter.
    fn visit_parameter_refs(&mut self, f: &mut dyn FnMut(&str, &mut String)) {
        fn machine(m: &mut super::GraphMachine, at: &str, f: &mut dyn FnMut(&str, &mut String)) {
            for (i, state) in m.states.iter_mut().enumerate() {
                let here = format!("{at}.States[{i}]");
                f(&format!("{here}.SpeedParameter"), &mut state.speed_parameter);
                match &mut state.kind {
                    super::StateKind::BlendSpace1D(b) => f(&format!("{here}.Parameter"), &mut b.parameter),
                    super::StateKind::BlendSpace2D(b) => {
                        f(&format!("{here}.ParameterX"), &mut b.parameter_x);
                        f(&format!("{here}.ParameterY"), &mut b.parameter_y);
                    }
                    super::StateKind::SubMachine(inner) => machine(inner, &format!("{here}.Machine"), f),
                    super::StateKind::Clip(_) => {}
                }
            }
            for (i, t) in m.transitions.iter_mut().enumerate() {
                for (j, c) in t.conditions.iter_mut().enumerate() {
                    f(&format!("{at}.Transitions[{i}].Conditions[{j}].Parameter"), &mut c.parameter);
                }
            }
        }
        for (l, layer) in self.layers.iter_mut().enumerate() {
            f(&format!("Layers[{l}].WeightParameter"), &mut layer.weight_parameter);
            machine(&mut layer.machine, &format!("Layers[{l}].Machine"), f);
        }
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
    /// The crossfade seconds a transition with `Duration = -1` takes from state `from` to state
    /// `to` (their [`mix_name`](super::GraphState::mix_name)s): the rule the player applies once
    /// bound, for tools that show it before binding.
    pub fn mix_seconds(&self, from: &super::GraphState, to: &super::GraphState) -> f32 {
        fn key(name: &str) -> Option<&str> {
            (name != super::ANY_STATE).then_some(name)
        }
        let entries = self.mixes.iter().map(|m| (key(&m.from), key(&m.to), m.duration));
        super::mix::pick_mix(entries, &from.mix_name(), &to.mix_name(), self.default_mix)
    }

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
