//! Writing an [`AnimationGraph`] as `.mres` text: stable order, deterministic ids, one resource
//! per line, defaults omitted.

use std::collections::HashSet;
use std::fmt::Write;

use crate::core::ClipBlend;
use crate::graph::{
    ANY_STATE, AnimationGraph, ConditionOp, EXIT_STATE, GraphCondition, GraphLayer, GraphMachine,
    GraphMixOverride, GraphParameter, GraphState, GraphTransition, GraphWindow, ParameterType, StateKind,
    TransitionBlend, TransitionInterrupt, TransitionSync, TravelMode,
};

use super::FORMAT_VERSION;
use crate::graph::schema::{self, Prop};

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
    root.refs(schema::graph::PARAMETERS.name, &parameters);
    let layers: Vec<String> = graph.layers.iter().map(|l| writer.layer(l)).collect();
    root.refs(schema::graph::LAYERS.name, &layers);
    let mixes: Vec<String> = graph.mixes.iter().enumerate().map(|(i, m)| writer.mix(i, m)).collect();
    root.refs(schema::graph::MIXES.name, &mixes);
    root.prop_number(&schema::graph::DEFAULT_MIX, graph.default_mix);

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

    /// A string, left out when it equals the default (unless the schema always writes it).
    fn prop_string(&mut self, prop: &Prop<&'static str>, value: &str) {
        if prop.always || value != prop.default {
            self.raw(prop.name, json_string(value));
        }
    }

    /// An enum by its name, left out when default.
    fn prop_enum<T: Copy + PartialEq + 'static>(
        &mut self,
        prop: &Prop<T>,
        value: T,
        name: fn(T) -> &'static str,
    ) {
        if prop.always || value != prop.default {
            self.raw(prop.name, json_string(name(value)));
        }
    }

    /// A number, left out when it has the default's bits (either zero for a zero default).
    fn prop_number(&mut self, prop: &Prop<f32>, value: f32) {
        let default = prop.default;
        if prop.always || value.to_bits() != default.to_bits() && !(value == 0.0 && default == 0.0) {
            self.raw(prop.name, json_number(value));
        }
    }

    fn prop_bool(&mut self, prop: &Prop<bool>, value: bool) {
        if prop.always || value != prop.default {
            self.raw(prop.name, value.to_string());
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

    fn vec2(&mut self, prop: &Prop<[f32; 2]>, value: [f32; 2]) {
        if prop.always || value != prop.default {
            self.raw(prop.name, format!("[{}, {}]", json_number(value[0]), json_number(value[1])));
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
        props.prop_string(&schema::parameter::NAME, &p.name);
        props.prop_enum(&schema::parameter::TYPE, p.kind, ParameterType::as_str);
        props.prop_number(&schema::parameter::DEFAULT, p.default);
        props.prop_bool(&schema::parameter::LATCH, p.latch);
        id
    }

    fn layer(&mut self, layer: &GraphLayer) -> String {
        let name = slug(&layer.name);
        let (id, slot) = self.add(format!("l_{name}"), "GraphLayer");
        let mask = layer.mask.as_ref().map(|mask| {
            let (mask_id, mask_slot) = self.add(format!("mask_{name}"), "BoneMask");
            let props = &mut self.resources[mask_slot].2;
            props.strings(schema::mask::BONES.name, &mask.bones);
            props.prop_bool(&schema::mask::INCLUDE_CHILDREN, mask.include_children);
            if mask.is_weighted() {
                props.numbers(schema::mask::WEIGHTS.name, &mask.weights);
            }
            mask_id
        });
        let machine = self.machine(&layer.machine, &name);
        let props = &mut self.resources[slot].2;
        props.prop_string(&schema::layer::NAME, &layer.name);
        props.prop_enum(&schema::layer::BLEND, layer.blend, ClipBlend::as_str);
        props.prop_number(&schema::layer::WEIGHT, layer.weight);
        props.prop_string(&schema::layer::WEIGHT_PARAMETER, &layer.weight_parameter);
        if let Some(mask) = mask {
            props.reference(schema::layer::MASK.name, &mask);
        }
        props.reference(schema::layer::MACHINE.name, &machine);
        props.prop_enum(&schema::layer::TRAVEL_MODE, layer.travel_mode, TravelMode::as_str);
        id
    }

    fn machine(&mut self, machine: &GraphMachine, scope: &str) -> String {
        let (id, slot) = self.add(format!("m_{scope}"), "GraphMachine");
        let states: Vec<String> = machine.states.iter().map(|s| self.state(s, scope)).collect();
        let transitions: Vec<String> =
            machine.transitions.iter().map(|t| self.transition(t, scope)).collect();
        let props = &mut self.resources[slot].2;
        props.prop_string(&schema::machine::ENTRY, &machine.entry);
        props.refs(schema::machine::STATES.name, &states);
        props.refs(schema::machine::TRANSITIONS.name, &transitions);
        id
    }

    fn state(&mut self, state: &GraphState, scope: &str) -> String {
        let state_scope = format!("{scope}_{}", slug(&state.name));
        let (id, slot) = self.add(format!("s_{state_scope}"), state.kind.type_name());
        let sub_machine = match &state.kind {
            StateKind::SubMachine(machine) => Some(self.machine(machine, &state_scope)),
            _ => None,
        };
        let windows: Vec<String> = state.windows.iter().map(|w| self.window(w, &state_scope)).collect();
        let props = &mut self.resources[slot].2;
        props.prop_string(&schema::state::NAME, &state.name);
        props.prop_number(&schema::state::SPEED, state.speed);
        props.prop_string(&schema::state::SPEED_PARAMETER, &state.speed_parameter);
        props.vec2(&schema::state::EDITOR_POSITION, state.editor_position);
        match &state.kind {
            StateKind::Clip(clip) => {
                props.prop_string(&schema::clip_state::CLIP, &clip.clip);
                props.prop_bool(&schema::clip_state::LOOP, clip.looping);
            }
            StateKind::BlendSpace1D(space) => {
                props.prop_string(&schema::blend_1d::PARAMETER, &space.parameter);
                props.strings(schema::blend_1d::CLIPS.name, &space.clips);
                props.numbers(schema::blend_1d::POSITIONS.name, &space.positions);
                props.prop_bool(&schema::blend_1d::SYNC_TIME, space.sync_time);
                props.prop_bool(&schema::blend_1d::SYNC_MARKERS, space.sync_markers);
            }
            StateKind::BlendSpace2D(space) => {
                props.prop_string(&schema::blend_2d::PARAMETER_X, &space.parameter_x);
                props.prop_string(&schema::blend_2d::PARAMETER_Y, &space.parameter_y);
                props.strings(schema::blend_2d::CLIPS.name, &space.clips);
                if !space.positions.is_empty() {
                    let items: Vec<String> = space
                        .positions
                        .iter()
                        .map(|p| format!("[{}, {}]", json_number(p[0]), json_number(p[1])))
                        .collect();
                    props.raw(schema::blend_2d::POSITIONS.name, format!("[{}]", items.join(", ")));
                }
                props.prop_bool(&schema::blend_2d::SYNC_TIME, space.sync_time);
                props.prop_bool(&schema::blend_2d::SYNC_MARKERS, space.sync_markers);
            }
            StateKind::SubMachine(_) => {
                if let Some(machine) = &sub_machine {
                    props.reference(schema::sub_machine::MACHINE.name, machine);
                }
            }
        }
        props.refs(schema::state::WINDOWS.name, &windows);
        id
    }

    fn window(&mut self, w: &GraphWindow, scope: &str) -> String {
        let (id, slot) = self.add(format!("w_{scope}_{}", slug(&w.name)), "GraphWindow");
        let props = &mut self.resources[slot].2;
        props.prop_string(&schema::window::NAME, &w.name);
        props.prop_number(&schema::window::START, w.start);
        props.prop_number(&schema::window::END, w.end);
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
        props.prop_string(&schema::transition::FROM, &t.from);
        props.prop_string(&schema::transition::TO, &t.to);
        props.refs(schema::transition::CONDITIONS.name, &conditions);
        props.prop_number(&schema::transition::DURATION, t.duration);
        props.prop_number(&schema::transition::EXIT_TIME, t.exit_time);
        props.prop_number(&schema::transition::OFFSET, t.offset);
        props.prop_enum(&schema::transition::INTERRUPT, t.interrupt, TransitionInterrupt::as_str);
        if t.priority != schema::transition::PRIORITY.default {
            props.raw(schema::transition::PRIORITY.name, t.priority.to_string());
        }
        props.prop_enum(&schema::transition::CURVE, t.curve, crate::graph::TransitionCurve::as_str);
        props.prop_enum(&schema::transition::BLEND, t.blend, TransitionBlend::as_str);
        props.prop_enum(&schema::transition::SYNC, t.sync, TransitionSync::as_str);
        id
    }

    fn condition(&mut self, c: &GraphCondition, transition: &str, index: usize) -> String {
        let base = transition.strip_prefix("t_").unwrap_or(transition);
        let (id, slot) = self.add(format!("c_{base}_{index}"), "GraphCondition");
        let props = &mut self.resources[slot].2;
        props.prop_string(&schema::condition::PARAMETER, &c.parameter);
        props.prop_enum(&schema::condition::OP, c.op, ConditionOp::as_str);
        props.prop_number(&schema::condition::VALUE, c.value);
        id
    }

    fn mix(&mut self, index: usize, m: &GraphMixOverride) -> String {
        let (id, slot) = self.add(format!("mix_{index}"), "GraphMixOverride");
        let props = &mut self.resources[slot].2;
        props.prop_string(&schema::mix::FROM, &m.from);
        props.prop_string(&schema::mix::TO, &m.to);
        props.prop_number(&schema::mix::DURATION, m.duration);
        id
    }
}
