//! Writing an [`AnimationGraph`] as `.mres` text: stable order, deterministic ids, one resource
//! per line, defaults omitted.

use std::collections::HashSet;
use std::fmt::Write;

use crate::core::ClipBlend;
use crate::graph::{
    ANY_STATE, AnimationGraph, ConditionOp, EXIT_STATE, GraphCondition, GraphLayer, GraphMachine,
    GraphMixOverride, GraphParameter, GraphState, GraphTransition, ParameterType, StateKind,
    TransitionInterrupt,
};

use super::FORMAT_VERSION;

/// Writes a graph as `.mres` text.
///
/// Every sub-resource is written once into `resources` under an id derived from its place and
/// name (`p_speed`, `l_base`, `m_base`, `s_base_move`, `t_base_any_jump`, ...), in depth-first
/// order, one resource per line; properties equal to their default are left out. The same graph
/// always gives the same text.
pub fn save_to_string(graph: &AnimationGraph) -> String {
    let mut writer = Writer { resources: Vec::new(), ids: HashSet::new() };
    let mut root = Props::default();
    let parameters: Vec<String> = graph.parameters.iter().map(|p| writer.parameter(p)).collect();
    root.refs("Parameters", &parameters);
    let layers: Vec<String> = graph.layers.iter().map(|l| writer.layer(l)).collect();
    root.refs("Layers", &layers);
    let mixes: Vec<String> = graph.mixes.iter().enumerate().map(|(i, m)| writer.mix(i, m)).collect();
    root.refs("Mixes", &mixes);
    root.number("DefaultMix", graph.default_mix, 0.2);

    let mut out = String::new();
    out.push_str("{\n");
    let _ = writeln!(out, "  \"format\": {FORMAT_VERSION},");
    let _ = writeln!(out, "  \"uid\": {},", json_string(&graph.uid));
    out.push_str("  \"type\": \"AnimationGraph\",\n");
    out.push_str("  \"resources\": {");
    for (i, (id, ty, props)) in writer.resources.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        let _ =
            write!(out, "    {}: {{ \"type\": \"{ty}\", \"props\": {} }}", json_string(id), props.finish());
    }
    out.push_str(if writer.resources.is_empty() { "},\n" } else { "\n  },\n" });
    let _ = writeln!(out, "  \"props\": {}", root.finish());
    out.push_str("}\n");
    out
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// The shortest text that reads back as the same `f32` (`-0` written as `0`).
fn json_number(v: f32) -> String {
    if v == 0.0 { "0".to_string() } else { format!("{v}") }
}

/// One resource's properties, written in insertion order on one line.
#[derive(Default)]
struct Props {
    fields: Vec<(String, String)>,
}

impl Props {
    fn raw(&mut self, key: &str, value: String) {
        self.fields.push((key.to_string(), value));
    }

    fn string(&mut self, key: &str, value: &str, default: Option<&str>) {
        if Some(value) != default {
            self.raw(key, json_string(value));
        }
    }

    fn number(&mut self, key: &str, value: f32, default: f32) {
        if value.to_bits() != default.to_bits() && !(value == 0.0 && default == 0.0) {
            self.raw(key, json_number(value));
        }
    }

    fn boolean(&mut self, key: &str, value: bool, default: bool) {
        if value != default {
            self.raw(key, value.to_string());
        }
    }

    fn strings(&mut self, key: &str, values: &[String]) {
        if !values.is_empty() {
            let items: Vec<String> = values.iter().map(|s| json_string(s)).collect();
            self.raw(key, format!("[{}]", items.join(", ")));
        }
    }

    fn numbers(&mut self, key: &str, values: &[f32]) {
        if !values.is_empty() {
            let items: Vec<String> = values.iter().map(|v| json_number(*v)).collect();
            self.raw(key, format!("[{}]", items.join(", ")));
        }
    }

    fn vec2(&mut self, key: &str, value: [f32; 2]) {
        if value != [0.0, 0.0] {
            self.raw(key, format!("[{}, {}]", json_number(value[0]), json_number(value[1])));
        }
    }

    fn refs(&mut self, key: &str, ids: &[String]) {
        if !ids.is_empty() {
            let items: Vec<String> =
                ids.iter().map(|id| format!("{{ \"res\": {} }}", json_string(id))).collect();
            self.raw(key, format!("[ {} ]", items.join(", ")));
        }
    }

    fn reference(&mut self, key: &str, id: &str) {
        self.raw(key, format!("{{ \"res\": {} }}", json_string(id)));
    }

    fn finish(&self) -> String {
        if self.fields.is_empty() {
            return "{}".to_string();
        }
        let items: Vec<String> = self.fields.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
        format!("{{ {} }}", items.join(", "))
    }
}

struct Writer {
    resources: Vec<(String, &'static str, Props)>,
    ids: HashSet<String>,
}

/// Lower-case letters, digits and `_` only.
fn slug(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    if s.is_empty() { "_".to_string() } else { s }
}

impl Writer {
    /// Reserves a unique id `base`, `base_2`, `base_3`, ...
    fn id(&mut self, base: String) -> String {
        let mut id = base.clone();
        let mut n = 2;
        while self.ids.contains(&id) {
            id = format!("{base}_{n}");
            n += 1;
        }
        self.ids.insert(id.clone());
        id
    }

    /// Reserves an id and a slot so that a resource precedes its children in the file.
    fn add(&mut self, base: String, ty: &'static str) -> (String, usize) {
        let id = self.id(base);
        self.resources.push((id.clone(), ty, Props::default()));
        (id, self.resources.len() - 1)
    }

    fn parameter(&mut self, p: &GraphParameter) -> String {
        let (id, slot) = self.add(format!("p_{}", slug(&p.name)), "GraphParameter");
        let props = &mut self.resources[slot].2;
        props.string("Name", &p.name, None);
        props.string("Type", p.kind.as_str(), Some(ParameterType::Bool.as_str()));
        props.number("Default", p.default, 0.0);
        props.boolean("Latch", p.latch, false);
        id
    }

    fn layer(&mut self, layer: &GraphLayer) -> String {
        let name = slug(&layer.name);
        let (id, slot) = self.add(format!("l_{name}"), "GraphLayer");
        let mask = layer.mask.as_ref().map(|mask| {
            let (mask_id, mask_slot) = self.add(format!("mask_{name}"), "BoneMask");
            let props = &mut self.resources[mask_slot].2;
            props.strings("Bones", &mask.bones);
            props.boolean("IncludeChildren", mask.include_children, true);
            mask_id
        });
        let machine = self.machine(&layer.machine, &name);
        let props = &mut self.resources[slot].2;
        props.string("Name", &layer.name, None);
        props.string("Blend", layer.blend.as_str(), Some(ClipBlend::Replace.as_str()));
        props.number("Weight", layer.weight, 1.0);
        props.string("WeightParameter", &layer.weight_parameter, Some(""));
        if let Some(mask) = mask {
            props.reference("Mask", &mask);
        }
        props.reference("Machine", &machine);
        id
    }

    fn machine(&mut self, machine: &GraphMachine, scope: &str) -> String {
        let (id, slot) = self.add(format!("m_{scope}"), "GraphMachine");
        let states: Vec<String> = machine.states.iter().map(|s| self.state(s, scope)).collect();
        let transitions: Vec<String> =
            machine.transitions.iter().map(|t| self.transition(t, scope)).collect();
        let props = &mut self.resources[slot].2;
        props.string("Entry", &machine.entry, Some(""));
        props.refs("States", &states);
        props.refs("Transitions", &transitions);
        id
    }

    fn state(&mut self, state: &GraphState, scope: &str) -> String {
        let state_scope = format!("{scope}_{}", slug(&state.name));
        let (id, slot) = self.add(format!("s_{state_scope}"), state.kind.type_name());
        let sub_machine = match &state.kind {
            StateKind::SubMachine(machine) => Some(self.machine(machine, &state_scope)),
            _ => None,
        };
        let props = &mut self.resources[slot].2;
        props.string("Name", &state.name, None);
        props.number("Speed", state.speed, 1.0);
        props.string("SpeedParameter", &state.speed_parameter, Some(""));
        props.vec2("EditorPosition", state.editor_position);
        match &state.kind {
            StateKind::Clip(clip) => {
                props.string("Clip", &clip.clip, Some(""));
                props.boolean("Loop", clip.looping, true);
            }
            StateKind::BlendSpace1D(space) => {
                props.string("Parameter", &space.parameter, Some(""));
                props.strings("Clips", &space.clips);
                props.numbers("Positions", &space.positions);
                props.boolean("SyncTime", space.sync_time, true);
            }
            StateKind::BlendSpace2D(space) => {
                props.string("ParameterX", &space.parameter_x, Some(""));
                props.string("ParameterY", &space.parameter_y, Some(""));
                props.strings("Clips", &space.clips);
                if !space.positions.is_empty() {
                    let items: Vec<String> = space
                        .positions
                        .iter()
                        .map(|p| format!("[{}, {}]", json_number(p[0]), json_number(p[1])))
                        .collect();
                    props.raw("Positions", format!("[{}]", items.join(", ")));
                }
                props.boolean("SyncTime", space.sync_time, true);
            }
            StateKind::SubMachine(_) => {
                if let Some(machine) = &sub_machine {
                    props.reference("Machine", machine);
                }
            }
        }
        id
    }

    fn transition(&mut self, t: &GraphTransition, scope: &str) -> String {
        let end = |name: &str| match name {
            ANY_STATE => "any".to_string(),
            EXIT_STATE => "exit".to_string(),
            other => slug(other),
        };
        let (id, slot) = self.add(format!("t_{scope}_{}_{}", end(&t.from), end(&t.to)), "GraphTransition");
        let conditions: Vec<String> =
            t.conditions.iter().enumerate().map(|(i, c)| self.condition(c, &id, i)).collect();
        let props = &mut self.resources[slot].2;
        props.string("From", &t.from, None);
        props.string("To", &t.to, None);
        props.refs("Conditions", &conditions);
        props.number("Duration", t.duration, -1.0);
        props.number("ExitTime", t.exit_time, -1.0);
        props.number("Offset", t.offset, 0.0);
        props.string("Interrupt", t.interrupt.as_str(), Some(TransitionInterrupt::None.as_str()));
        if t.priority != 0 {
            props.raw("Priority", t.priority.to_string());
        }
        id
    }

    fn condition(&mut self, c: &GraphCondition, transition: &str, index: usize) -> String {
        let base = transition.strip_prefix("t_").unwrap_or(transition);
        let (id, slot) = self.add(format!("c_{base}_{index}"), "GraphCondition");
        let props = &mut self.resources[slot].2;
        props.string("Parameter", &c.parameter, Some(""));
        props.string("Op", c.op.as_str(), Some(ConditionOp::True.as_str()));
        props.number("Value", c.value, 0.0);
        id
    }

    fn mix(&mut self, index: usize, m: &GraphMixOverride) -> String {
        let (id, slot) = self.add(format!("mix_{index}"), "GraphMixOverride");
        let props = &mut self.resources[slot].2;
        props.string("From", &m.from, None);
        props.string("To", &m.to, None);
        props.number("Duration", m.duration, 0.0);
        id
    }
}
