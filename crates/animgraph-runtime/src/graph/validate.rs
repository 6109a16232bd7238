//! Validation of an authoring graph: every rule a graph must satisfy before it can be bound.
//!
//! The `.mres` loader runs this after building the model and reports each finding at its resource
//! id; an editor runs it on the graph being edited and reports the model path.

use std::collections::HashSet;

use super::{ANY_STATE, AnimationGraph, EXIT_STATE, GraphMachine, GraphState, ParameterType, StateKind};
use crate::core::ClipBlend;

/// Deepest sub-machine nesting accepted (a machine inside a state inside a machine counts one).
pub const MAX_MACHINE_DEPTH: usize = 32;

/// Most parameters, states (at every depth), machines and transitions a graph may have (bind's
/// ids are `u16`).
pub const MAX_IDS: usize = u16::MAX as usize;

/// Most windows one state may have (the player keeps a state's open windows as 64 bits).
pub const MAX_WINDOWS: usize = 64;

pub use crate::finding::Severity;
use crate::finding::{Code, Finding};

/// A finding of [`validate`] (code [`Code::Rule`]): where (a model path such as
/// `Layers[0].Machine.Transitions[2].To`) and what, with how to fix it.
pub type GraphIssue = Finding;

/// Checks every rule of a graph and returns all findings (errors and warnings), in model order.
pub fn validate(graph: &AnimationGraph) -> Vec<GraphIssue> {
    let mut v = Validator { graph, issues: Vec::new() };
    // Bind's id limits first: a graph over them is refused at once, before the per-state rules
    // (which would take seconds on such a graph only to be refused by bind anyway).
    if v.counts() {
        v.graph();
    }
    v.issues
}

/// Whether any finding is an error.
pub fn has_errors(issues: &[GraphIssue]) -> bool {
    issues.iter().any(|i| i.severity == Severity::Error)
}

struct Validator<'a> {
    graph: &'a AnimationGraph,
    issues: Vec<GraphIssue>,
}

fn join(path: &str, property: &str) -> String {
    if path.is_empty() { property.to_string() } else { format!("{path}.{property}") }
}

fn quoted_list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    // At most this many names: a message per broken reference in a huge graph must stay small.
    const SHOWN: usize = 12;
    let mut shown: Vec<String> = Vec::new();
    let mut more = 0usize;
    for n in names {
        if shown.len() < SHOWN {
            shown.push(format!("\"{n}\""));
        } else {
            more += 1;
        }
    }
    match (shown.is_empty(), more) {
        (true, _) => "none".to_string(),
        (false, 0) => shown.join(", "),
        (false, more) => format!("{} and {more} more", shown.join(", ")),
    }
}

impl<'a> Validator<'a> {
    fn error(&mut self, path: String, message: String) {
        self.issues.push(Finding::error(Code::Rule, path, message));
    }

    fn warning(&mut self, path: String, message: String) {
        self.issues.push(Finding::warning(Code::Rule, path, message));
    }

    fn type_error(&mut self, path: String, message: String, parameter: &str) {
        self.issues.push(Finding {
            parameter: Some(parameter.to_string()),
            ..Finding::error(Code::Rule, path, message)
        });
    }

    fn finite(&mut self, path: &str, property: &str, value: f32) -> bool {
        if value.is_finite() {
            true
        } else {
            self.error(join(path, property), format!("{value} is not a finite number; use a real value"));
            false
        }
    }

    fn parameter_list(&self) -> String {
        quoted_list(self.graph.parameters.iter().map(|p| p.name.as_str()))
    }

    /// Checks that `name` is a numeric parameter (empty allowed when `optional`).
    fn numeric_parameter(&mut self, path: &str, property: &str, name: &str, optional: bool) {
        if name.is_empty() {
            if !optional {
                self.error(
                    format!("{path}.{property}"),
                    "is empty; name an Int or Float parameter".to_string(),
                );
            }
            return;
        }
        match self.graph.parameter(name) {
            None => {
                let list = self.parameter_list();
                self.error(
                    format!("{path}.{property}"),
                    format!("no parameter \"{name}\"; add it to Parameters or use one of {list}"),
                )
            }
            Some(p) if !p.kind.is_numeric() => self.type_error(
                format!("{path}.{property}"),
                format!("parameter \"{name}\" is a {}; it must be an Int or Float", p.kind.as_str()),
                name,
            ),
            Some(_) => {}
        }
    }

    /// Checks what bind indexes with 16-bit ids (parameters, machines, states and transitions
    /// at every depth); false when one is over.
    fn counts(&mut self) -> bool {
        let max = MAX_IDS;
        let (mut machines, mut states, mut transitions) = (0usize, 0usize, 0usize);
        let mut stack: Vec<(&GraphMachine, usize)> =
            self.graph.layers.iter().map(|l| (&l.machine, 0)).collect();
        while let Some((m, depth)) = stack.pop() {
            machines += 1;
            states += m.states.len();
            transitions += m.transitions.len();
            if depth < MAX_MACHINE_DEPTH {
                for s in &m.states {
                    if let StateKind::SubMachine(inner) = &s.kind {
                        stack.push((inner, depth + 1));
                    }
                }
            }
        }
        let mut fine = true;
        for (what, count) in [
            ("parameters", self.graph.parameters.len()),
            ("machines", machines),
            ("states", states),
            ("transitions", transitions),
        ] {
            if count > max {
                self.error(
                    "Layers".into(),
                    format!("the graph has {count} {what} in all, more than the {max} a graph may have; split it into several graphs"),
                );
                fine = false;
            }
        }
        fine
    }

    fn graph(&mut self) {
        let graph = self.graph;
        if self.finite("", "DefaultMix", graph.default_mix) && graph.default_mix < 0.0 {
            self.error(
                "DefaultMix".into(),
                format!("is {}; a crossfade duration must be 0 or more seconds", graph.default_mix),
            );
        }

        let mut names = HashSet::new();
        for (i, p) in graph.parameters.iter().enumerate() {
            let path = format!("Parameters[{i}]");
            if p.name.is_empty() {
                self.error(format!("{path}.Name"), "is empty; give the parameter a name".into());
            } else if !names.insert(p.name.as_str()) {
                self.error(
                    format!("{path}.Name"),
                    format!("duplicate parameter name \"{}\"; parameter names must be unique", p.name),
                );
            }
            if self.finite(&path, "Default", p.default) {
                match p.kind {
                    ParameterType::Int if p.default.fract() != 0.0 => self.error(
                        format!("{path}.Default"),
                        format!("{} is not a whole number; an Int parameter needs one", p.default),
                    ),
                    ParameterType::Bool | ParameterType::Trigger if p.default != 0.0 && p.default != 1.0 => {
                        self.error(
                            format!("{path}.Default"),
                            format!(
                                "{} is not 0 or 1; a {} parameter starts false (0) or true (1)",
                                p.default,
                                p.kind.as_str()
                            ),
                        )
                    }
                    _ => {}
                }
            }
            if p.latch && p.kind != ParameterType::Trigger {
                self.warning(
                    format!("{path}.Latch"),
                    format!(
                        "only triggers latch; \"{}\" is a {}, so Latch has no effect",
                        p.name,
                        p.kind.as_str()
                    ),
                );
            }
        }

        for (i, m) in graph.mixes.iter().enumerate() {
            let path = format!("Mixes[{i}]");
            if m.from.is_empty() {
                self.error(format!("{path}.From"), "is empty; name a clip or state, or \"*\" for any".into());
            }
            if m.to.is_empty() {
                self.error(format!("{path}.To"), "is empty; name a clip or state, or \"*\" for any".into());
            }
            if self.finite(&path, "Duration", m.duration) && m.duration < 0.0 {
                self.error(
                    format!("{path}.Duration"),
                    format!("is {}; a crossfade duration must be 0 or more seconds", m.duration),
                );
            }
        }

        if graph.layers.is_empty() {
            self.error(
                "Layers".into(),
                "the graph has no layers; add a base layer with a state machine".into(),
            );
        }
        let mut layer_names = HashSet::new();
        for (i, layer) in graph.layers.iter().enumerate() {
            let path = format!("Layers[{i}]");
            if layer.name.is_empty() {
                self.error(format!("{path}.Name"), "is empty; give the layer a name".into());
            } else if !layer_names.insert(layer.name.as_str()) {
                self.error(
                    format!("{path}.Name"),
                    format!("duplicate layer name \"{}\"; layer names must be unique", layer.name),
                );
            }
            if self.finite(&path, "Weight", layer.weight) && !(0.0..=1.0).contains(&layer.weight) {
                self.error(
                    format!("{path}.Weight"),
                    format!("is {}; a layer weight must be within 0..1", layer.weight),
                );
            }
            self.numeric_parameter(&path, "WeightParameter", &layer.weight_parameter, true);
            if i == 0 && layer.blend == ClipBlend::Additive {
                self.warning(
                    format!("{path}.Blend"),
                    "the base layer is Additive, so it adds to the setup pose; base layers are usually Replace".into(),
                );
            }
            if let Some(mask) = &layer.mask {
                if mask.bones.is_empty() {
                    self.warning(
                        format!("{path}.Mask.Bones"),
                        "the mask names no bones, so the layer affects nothing".into(),
                    );
                }
                for (b, bone) in mask.bones.iter().enumerate() {
                    if bone.is_empty() {
                        self.error(format!("{path}.Mask.Bones[{b}]"), "is empty; name a bone".into());
                    }
                }
                if !mask.weights.is_empty() && mask.weights.len() != mask.bones.len() {
                    self.error(
                        format!("{path}.Mask.Weights"),
                        format!(
                            "has {} weights for {} bones; give one weight per bone, or none for all 1",
                            mask.weights.len(),
                            mask.bones.len()
                        ),
                    );
                }
                for (b, &w) in mask.weights.iter().enumerate() {
                    let property = format!("Mask.Weights[{b}]");
                    if self.finite(&path, &property, w) && !(0.0..=1.0).contains(&w) {
                        self.error(
                            format!("{path}.{property}"),
                            format!("is {w}; a bone's weight must be within 0..1"),
                        );
                    }
                }
            }
            self.machine(&format!("{path}.Machine"), &layer.machine, 0);
        }
    }

    fn machine(&mut self, path: &str, machine: &GraphMachine, depth: usize) {
        if depth > MAX_MACHINE_DEPTH {
            self.error(
                path.to_string(),
                format!("sub-machines are nested more than {MAX_MACHINE_DEPTH} deep; flatten the graph"),
            );
            return;
        }
        if machine.states.is_empty() {
            self.error(format!("{path}.States"), "the machine has no states; add at least one".into());
        }
        let mut names = HashSet::new();
        for (i, state) in machine.states.iter().enumerate() {
            let state_path = format!("{path}.States[{i}]");
            if state.name.is_empty() {
                self.error(format!("{state_path}.Name"), "is empty; give the state a name".into());
            } else if state.name == ANY_STATE || state.name == EXIT_STATE || state.name.contains('/') {
                self.error(
                    format!("{state_path}.Name"),
                    format!("\"{}\" is reserved (\"*\", \"<exit>\" and names with '/' have meanings); rename the state", state.name),
                );
            } else if !names.insert(state.name.as_str()) {
                self.error(
                    format!("{state_path}.Name"),
                    format!(
                        "duplicate state name \"{}\"; state names must be unique within a machine",
                        state.name
                    ),
                );
            }
            self.state(&state_path, state, depth);
        }

        let state_list = || quoted_list(machine.states.iter().map(|s| s.name.as_str()));
        // Every name (reserved ones too), for lookups in one step instead of a scan per use.
        let all_names: HashSet<&str> = machine.states.iter().map(|s| s.name.as_str()).collect();
        let has_state = |name: &str| all_names.contains(name);
        if machine.entry.is_empty() {
            if !machine.states.is_empty() {
                self.error(
                    format!("{path}.Entry"),
                    format!("is empty; name the state the machine starts in, one of {}", state_list()),
                );
            }
        } else if !has_state(&machine.entry) {
            self.error(
                format!("{path}.Entry"),
                format!("no state \"{}\"; use one of {}", machine.entry, state_list()),
            );
        }

        for (i, t) in machine.transitions.iter().enumerate() {
            let tp = format!("{path}.Transitions[{i}]");
            if t.from != ANY_STATE && !has_state(&t.from) {
                self.error(
                    format!("{tp}.From"),
                    format!("no state \"{}\" in this machine; use one of {} or \"*\"", t.from, state_list()),
                );
            }
            if t.to == EXIT_STATE {
                if depth == 0 {
                    self.error(
                        format!("{tp}.To"),
                        "\"<exit>\" leaves a sub-machine, but this is a layer's top machine; target a state"
                            .into(),
                    );
                }
            } else if !has_state(&t.to) {
                let exit = if depth > 0 { " or \"<exit>\"" } else { "" };
                self.error(
                    format!("{tp}.To"),
                    format!("no state \"{}\" in this machine; use one of {}{exit}", t.to, state_list()),
                );
            }
            if t.from != ANY_STATE && t.from == t.to && t.conditions.is_empty() && t.exit_time < 0.0 {
                self.warning(
                    tp.clone(),
                    format!(
                        "\"{}\" -> itself with no conditions and no exit time restarts the state every frame",
                        t.from
                    ),
                );
            }
            if self.finite(&tp, "Duration", t.duration) && t.duration < 0.0 && t.duration != -1.0 {
                self.error(
                    format!("{tp}.Duration"),
                    format!(
                        "is {}; use seconds (0 or more), or -1 for the graph's Mixes/DefaultMix",
                        t.duration
                    ),
                );
            }
            if self.finite(&tp, "ExitTime", t.exit_time) && t.exit_time < 0.0 && t.exit_time != -1.0 {
                self.error(
                    format!("{tp}.ExitTime"),
                    format!("is {}; use a normalised time (0 or more), or -1 for any time", t.exit_time),
                );
            }
            if self.finite(&tp, "Offset", t.offset) && t.offset < 0.0 {
                self.error(
                    format!("{tp}.Offset"),
                    format!("is {}; use a normalised time of 0 or more", t.offset),
                );
            }
            for (c, cond) in t.conditions.iter().enumerate() {
                let cp = format!("{tp}.Conditions[{c}]");
                self.finite(&cp, "Value", cond.value);
                if cond.parameter.is_empty() {
                    if !matches!(cond.op, super::ConditionOp::True | super::ConditionOp::False) {
                        self.error(format!("{cp}.Parameter"), "is empty; name the parameter to test".into());
                    }
                    continue;
                }
                let Some(p) = self.graph.parameter(&cond.parameter) else {
                    let list = self.parameter_list();
                    self.error(
                        format!("{cp}.Parameter"),
                        format!(
                            "no parameter \"{}\"; add it to Parameters or use one of {list}",
                            cond.parameter
                        ),
                    );
                    continue;
                };
                if !cond.op.fits(p.kind) {
                    let fitting: Vec<&str> =
                        super::ConditionOp::fitting(p.kind).map(|o| o.as_str()).collect();
                    self.type_error(
                        format!("{cp}.Op"),
                        format!(
                            "{} does not fit {} parameter \"{}\"; use {}",
                            cond.op.as_str(),
                            p.kind.as_str(),
                            p.name,
                            fitting.join(", ")
                        ),
                        &p.name,
                    );
                } else if p.kind == ParameterType::Int
                    && matches!(cond.op, super::ConditionOp::Equal | super::ConditionOp::NotEqual)
                    && cond.value.fract() != 0.0
                {
                    self.warning(
                        format!("{cp}.Value"),
                        format!(
                            "{} is not a whole number, so Int parameter \"{}\" never equals it",
                            cond.value, p.name
                        ),
                    );
                }
            }
        }
    }

    fn state(&mut self, path: &str, state: &GraphState, depth: usize) {
        self.finite(path, "Speed", state.speed);
        self.windows(path, state);
        self.numeric_parameter(path, "SpeedParameter", &state.speed_parameter, true);
        let [x, y] = state.editor_position;
        if !x.is_finite() || !y.is_finite() {
            self.error(format!("{path}.EditorPosition"), "is not finite; use real coordinates".into());
        }
        match &state.kind {
            StateKind::Clip(clip) => {
                if clip.clip.is_empty() {
                    self.error(format!("{path}.Clip"), "is empty; name the clip to play".into());
                }
            }
            StateKind::BlendSpace1D(space) => {
                self.numeric_parameter(path, "Parameter", &space.parameter, false);
                self.clip_names(path, &space.clips);
                if space.clips.len() != space.positions.len() {
                    self.error(
                        format!("{path}.Positions"),
                        format!(
                            "has {} positions for {} clips; give exactly one position per clip",
                            space.positions.len(),
                            space.clips.len()
                        ),
                    );
                }
                let mut previous: Option<f32> = None;
                for (i, &p) in space.positions.iter().enumerate() {
                    if !p.is_finite() {
                        self.error(format!("{path}.Positions[{i}]"), format!("{p} is not a finite number"));
                        previous = None;
                        continue;
                    }
                    if let Some(prev) = previous {
                        if p <= prev {
                            self.error(
                                format!("{path}.Positions[{i}]"),
                                format!("{p} is not greater than the previous position {prev}; positions must ascend strictly"),
                            );
                        }
                    }
                    previous = Some(p);
                }
            }
            StateKind::BlendSpace2D(space) => {
                self.numeric_parameter(path, "ParameterX", &space.parameter_x, false);
                self.numeric_parameter(path, "ParameterY", &space.parameter_y, false);
                self.clip_names(path, &space.clips);
                if space.clips.len() != space.positions.len() {
                    self.error(
                        format!("{path}.Positions"),
                        format!(
                            "has {} positions for {} clips; give exactly one position per clip",
                            space.positions.len(),
                            space.clips.len()
                        ),
                    );
                }
                for (i, p) in space.positions.iter().enumerate() {
                    if !p[0].is_finite() || !p[1].is_finite() {
                        self.error(
                            format!("{path}.Positions[{i}]"),
                            "is not finite; use real coordinates".into(),
                        );
                        continue;
                    }
                    if let Some(j) = space.positions[..i].iter().position(|q| q == p) {
                        self.error(
                            format!("{path}.Positions[{i}]"),
                            format!(
                                "[{}, {}] repeats Positions[{j}]; each point needs its own place",
                                p[0], p[1]
                            ),
                        );
                    }
                }
            }
            StateKind::SubMachine(machine) => self.machine(&format!("{path}.Machine"), machine, depth + 1),
        }
    }

    /// A state's windows: names unique and present, `Start < End`, finite; clip and blend-space
    /// states only; at most [`MAX_WINDOWS`] each.
    fn windows(&mut self, path: &str, state: &GraphState) {
        if state.windows.is_empty() {
            return;
        }
        if matches!(state.kind, StateKind::SubMachine(_)) {
            self.error(
                format!("{path}.Windows"),
                "a sub-machine state has no time of its own; put the windows on the states inside it".into(),
            );
            return;
        }
        if state.windows.len() > MAX_WINDOWS {
            self.error(
                format!("{path}.Windows"),
                format!(
                    "has {} windows, more than the {MAX_WINDOWS} a state may have; merge some",
                    state.windows.len()
                ),
            );
        }
        let mut names = HashSet::new();
        for (i, w) in state.windows.iter().enumerate() {
            let wp = format!("{path}.Windows[{i}]");
            if w.name.is_empty() {
                self.error(format!("{wp}.Name"), "is empty; give the window a name".into());
            } else if !names.insert(w.name.as_str()) {
                self.error(
                    format!("{wp}.Name"),
                    format!(
                        "duplicate window name \"{}\"; window names must be unique within a state",
                        w.name
                    ),
                );
            }
            let finite = self.finite(&wp, "Start", w.start) & self.finite(&wp, "End", w.end);
            if finite && w.start >= w.end {
                self.error(
                    format!("{wp}.End"),
                    format!(
                        "is {}, not after Start {}; a window is open from Start up to End, so End must be greater",
                        w.end, w.start
                    ),
                );
            }
        }
    }

    fn clip_names(&mut self, path: &str, clips: &[String]) {
        if clips.is_empty() {
            self.error(format!("{path}.Clips"), "the blend space has no clips; add at least one".into());
        }
        for (i, c) in clips.iter().enumerate() {
            if c.is_empty() {
                self.error(format!("{path}.Clips[{i}]"), "is empty; name a clip".into());
            }
        }
    }
}

/// An [`AnimationGraph`] that passed [`validate`] with no error: the proof
/// [`BoundGraph::bind`](super::BoundGraph::bind) asks for, so a graph is validated once, where it
/// is made (the `.mres` loader, an editor's edit), not again at bind. Reads as the graph
/// (`Deref`); [`into_graph`](Self::into_graph) gives it back for editing.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidGraph {
    graph: AnimationGraph,
}

impl ValidGraph {
    /// Validates a graph: `Ok` when no finding is an error, else every error. (Warnings are for
    /// the tools that show them: run [`validate`] itself.)
    pub fn new(graph: AnimationGraph) -> Result<ValidGraph, Vec<GraphIssue>> {
        let errors: Vec<GraphIssue> = validate(&graph).into_iter().filter(GraphIssue::is_error).collect();
        if errors.is_empty() { Ok(ValidGraph { graph }) } else { Err(errors) }
    }

    /// For a loader that has just run [`validate`] on `graph` and found no error: wraps it
    /// without validating again.
    pub(crate) fn already_validated(graph: AnimationGraph) -> ValidGraph {
        ValidGraph { graph }
    }

    /// The graph.
    pub fn graph(&self) -> &AnimationGraph {
        &self.graph
    }

    /// The graph, to edit (validate it again before binding).
    pub fn into_graph(self) -> AnimationGraph {
        self.graph
    }
}

impl std::ops::Deref for ValidGraph {
    type Target = AnimationGraph;

    fn deref(&self) -> &AnimationGraph {
        &self.graph
    }
}

impl PartialEq<AnimationGraph> for ValidGraph {
    fn eq(&self, other: &AnimationGraph) -> bool {
        &self.graph == other
    }
}

#[cfg(test)]
mod tests {
    use super::quoted_list;

    #[test]
    fn name_lists_in_messages_are_capped() {
        assert_eq!(quoted_list([].into_iter()), "none");
        assert_eq!(quoted_list(["a", "b"].into_iter()), "\"a\", \"b\"");
        let names: Vec<String> = (0..40_000).map(|i| format!("S{i}")).collect();
        let list = quoted_list(names.iter().map(String::as_str));
        assert!(list.starts_with("\"S0\", \"S1\""), "{list}");
        assert!(list.ends_with("\"S11\" and 39988 more"), "{list}");
    }
}
