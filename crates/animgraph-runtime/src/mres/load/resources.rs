//! Building each resource type of the model from its properties, by the schema.

use super::*;

impl<'a> Loader<'a> {
    pub(super) fn graph(&mut self, res: &Res<'a>, uid: String) -> AnimationGraph {
        let parameters = self.list(
            res,
            schema::graph::PARAMETERS.name,
            "",
            &["GraphParameter"],
            |l, r, _| l.parameter(r),
            None,
        );
        let layers =
            self.list(res, schema::graph::LAYERS.name, "", &["GraphLayer"], |l, r, m| l.layer(r, m), None);
        let mixes =
            self.list(res, schema::graph::MIXES.name, "", &["GraphMixOverride"], |l, r, _| l.mix(r), None);
        let default_mix = self.prop_number(res, &schema::graph::DEFAULT_MIX);
        AnimationGraph { uid, parameters, layers, mixes, default_mix }
    }

    pub(super) fn parameter(&mut self, res: &Res<'a>) -> GraphParameter {
        let name = self.string(res, "Name", "");
        let errors_before = self.diagnostics.len();
        let kind = self.prop_enum(res, &schema::parameter::TYPE, &ParameterType::ALL, ParameterType::as_str);
        if self.diagnostics.len() > errors_before {
            self.untyped_parameters.insert(name.clone());
        }
        GraphParameter {
            name,
            kind,
            default: self.prop_number(res, &schema::parameter::DEFAULT),
            latch: self.prop_bool(res, &schema::parameter::LATCH),
        }
    }

    pub(super) fn layer(&mut self, res: &Res<'a>, model: &str) -> GraphLayer {
        let name = self.prop_string(res, &schema::layer::NAME);
        let blend = self.prop_enum(
            res,
            &schema::layer::BLEND,
            &[ClipBlend::Replace, ClipBlend::Additive],
            ClipBlend::as_str,
        );
        let weight = self.prop_number(res, &schema::layer::WEIGHT);
        let weight_parameter = self.prop_string(res, &schema::layer::WEIGHT_PARAMETER);
        let mask = match res.get(schema::layer::MASK.name) {
            None => None,
            Some(v) => {
                self.with_resource(v, res.loc.child("Mask"), &join(model, "Mask"), &["BoneMask"], |l, r| {
                    BoneMask {
                        bones: l.string_list(r, schema::mask::BONES.name),
                        include_children: l.prop_bool(r, &schema::mask::INCLUDE_CHILDREN),
                        weights: l.number_list(r, schema::mask::WEIGHTS.name),
                    }
                })
            }
        };
        let machine = self.machine_property(res, model);
        let travel_mode =
            self.prop_enum(res, &schema::layer::TRAVEL_MODE, &TravelMode::ALL, TravelMode::as_str);
        GraphLayer { name, blend, weight, weight_parameter, mask, machine, travel_mode }
    }

    pub(super) fn machine_property(&mut self, res: &Res<'a>, model: &str) -> GraphMachine {
        match res.get("Machine") {
            None => GraphMachine::default(),
            Some(v) => self
                .with_resource(
                    v,
                    res.loc.child("Machine"),
                    &join(model, "Machine"),
                    &["GraphMachine"],
                    |l, r| l.machine(r, &join(model, "Machine")),
                )
                .unwrap_or_default(),
        }
    }

    pub(super) fn machine(&mut self, res: &Res<'a>, model: &str) -> GraphMachine {
        let states = self.list(
            res,
            schema::machine::STATES.name,
            model,
            STATE_TYPES,
            |l, r, m| l.state(r, m),
            Some(placeholder_state),
        );
        let transitions = self.list(
            res,
            schema::machine::TRANSITIONS.name,
            model,
            &["GraphTransition"],
            |l, r, m| l.transition(r, m),
            None,
        );
        let entry = self.prop_string(res, &schema::machine::ENTRY);
        GraphMachine { states, transitions, entry }
    }

    pub(super) fn state(&mut self, res: &Res<'a>, model: &str) -> GraphState {
        let name = self.prop_string(res, &schema::state::NAME);
        let speed = self.prop_number(res, &schema::state::SPEED);
        let speed_parameter = self.prop_string(res, &schema::state::SPEED_PARAMETER);
        let editor_position = self.vec2(res, schema::state::EDITOR_POSITION.name);
        let kind = match res.ty {
            "ClipState" => StateKind::Clip(ClipState {
                clip: self.prop_string(res, &schema::clip_state::CLIP),
                looping: self.prop_bool(res, &schema::clip_state::LOOP),
            }),
            "BlendSpace1DState" => StateKind::BlendSpace1D(BlendSpace1D {
                parameter: self.prop_string(res, &schema::blend_1d::PARAMETER),
                clips: self.string_list(res, schema::blend_1d::CLIPS.name),
                positions: self.number_list(res, schema::blend_1d::POSITIONS.name),
                sync_time: self.prop_bool(res, &schema::blend_1d::SYNC_TIME),
                sync_markers: self.prop_bool(res, &schema::blend_1d::SYNC_MARKERS),
            }),
            "BlendSpace2DState" => StateKind::BlendSpace2D(BlendSpace2D {
                parameter_x: self.prop_string(res, &schema::blend_2d::PARAMETER_X),
                parameter_y: self.prop_string(res, &schema::blend_2d::PARAMETER_Y),
                clips: self.string_list(res, schema::blend_2d::CLIPS.name),
                positions: self.vec2_list(res, schema::blend_2d::POSITIONS.name),
                sync_time: self.prop_bool(res, &schema::blend_2d::SYNC_TIME),
                sync_markers: self.prop_bool(res, &schema::blend_2d::SYNC_MARKERS),
            }),
            _ => StateKind::SubMachine(self.machine_property(res, model)),
        };
        let windows =
            self.list(res, schema::state::WINDOWS.name, model, &["GraphWindow"], |l, r, _| l.window(r), None);
        GraphState { name, speed, speed_parameter, editor_position, kind, windows }
    }

    pub(super) fn window(&mut self, res: &Res<'a>) -> GraphWindow {
        GraphWindow {
            name: self.prop_string(res, &schema::window::NAME),
            start: self.prop_number(res, &schema::window::START),
            end: self.prop_number(res, &schema::window::END),
        }
    }

    pub(super) fn transition(&mut self, res: &Res<'a>, model: &str) -> GraphTransition {
        GraphTransition {
            from: self.prop_string(res, &schema::transition::FROM),
            to: self.prop_string(res, &schema::transition::TO),
            conditions: self.list(
                res,
                schema::transition::CONDITIONS.name,
                model,
                &["GraphCondition"],
                |l, r, _| l.condition(r),
                None,
            ),
            duration: self.prop_number(res, &schema::transition::DURATION),
            exit_time: self.prop_number(res, &schema::transition::EXIT_TIME),
            offset: self.prop_number(res, &schema::transition::OFFSET),
            interrupt: self.prop_enum(
                res,
                &schema::transition::INTERRUPT,
                &TransitionInterrupt::ALL,
                TransitionInterrupt::as_str,
            ),
            priority: self.integer(
                res,
                schema::transition::PRIORITY.name,
                schema::transition::PRIORITY.default,
            ),
            curve: self.prop_enum(
                res,
                &schema::transition::CURVE,
                &crate::graph::TransitionCurve::ALL,
                crate::graph::TransitionCurve::as_str,
            ),
            blend: self.prop_enum(
                res,
                &schema::transition::BLEND,
                &TransitionBlend::ALL,
                TransitionBlend::as_str,
            ),
            sync: self.prop_enum(
                res,
                &schema::transition::SYNC,
                &TransitionSync::ALL,
                TransitionSync::as_str,
            ),
        }
    }

    pub(super) fn condition(&mut self, res: &Res<'a>) -> GraphCondition {
        GraphCondition {
            parameter: self.prop_string(res, &schema::condition::PARAMETER),
            op: self.prop_enum(res, &schema::condition::OP, &ConditionOp::ALL, ConditionOp::as_str),
            value: self.prop_number(res, &schema::condition::VALUE),
        }
    }

    pub(super) fn mix(&mut self, res: &Res<'a>) -> GraphMixOverride {
        GraphMixOverride {
            from: self.prop_string(res, &schema::mix::FROM),
            to: self.prop_string(res, &schema::mix::TO),
            duration: self.prop_number(res, &schema::mix::DURATION),
        }
    }
}
