//! The authoring model's schema, as `.mres` writes it: every resource type's properties, each with its name and default,
//! declared once. The loader reads by these (a missing property takes its default, a property
//! not listed is an unknown-property warning), the saver writes by them (a value equal to its
//! default is left out), and the authoring types' `Default` values are these defaults.
//!
//! | type | properties (default) |
//! |---|---|
//! | `AnimationGraph` | `Parameters`, `Layers`, `Mixes` (empty), `DefaultMix` (0.2) |
//! | `GraphParameter` | `Name` (always written), `Type` (Bool), `Default` (0), `Latch` (false) |
//! | `GraphLayer` | `Name` ("Base", always written), `Blend` (Replace), `Weight` (1), `WeightParameter` (""), `Mask` (none), `Machine`, `TravelMode` (Direct) |
//! | `BoneMask` | `Bones` (empty), `IncludeChildren` (true), `Weights` (empty: all 1) |
//! | `GraphMachine` | `States`, `Transitions` (empty), `Entry` ("") |
//! | every state | `Name` (always written), `Speed` (1), `SpeedParameter` (""), `EditorPosition` ([0, 0]), `Windows` (empty) |
//! | `GraphWindow` | `Name` (always written), `Start` (0), `End` (1) |
//! | `ClipState` | `Clip` (""), `Loop` (true) |
//! | `BlendSpace1DState` | `Parameter` (""), `Clips`, `Positions` (empty), `SyncTime` (true), `SyncMarkers` (false) |
//! | `BlendSpace2DState` | `ParameterX`, `ParameterY` (""), `Clips`, `Positions` (empty), `SyncTime` (true), `SyncMarkers` (false) |
//! | `SubMachineState` | `Machine` |
//! | `GraphTransition` | `From`, `To` (always written), `Conditions` (empty), `Duration` (-1: from `Mixes`), `ExitTime` (-1: none), `Offset` (0), `Interrupt` (None), `Priority` (0), `Curve` (Linear), `Blend` (Crossfade), `Sync` (None) |
//! | `GraphCondition` | `Parameter` (""), `Op` (True), `Value` (0) |
//! | `GraphMixOverride` | `From`, `To` (always written), `Duration` (0) |

use super::{
    ConditionOp, ParameterType, TransitionBlend, TransitionCurve, TransitionInterrupt, TransitionSync,
    TravelMode,
};
use crate::core::ClipBlend;

/// One property: its name, its default, and whether the saver writes it even when default.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prop<T: 'static> {
    pub name: &'static str,
    pub default: T,
    /// Written even when equal to the default (names and transition ends, which read best
    /// present).
    pub always: bool,
}

const fn prop<T>(name: &'static str, default: T) -> Prop<T> {
    Prop { name, default, always: false }
}

const fn always<T>(name: &'static str, default: T) -> Prop<T> {
    Prop { name, default, always: true }
}

/// A property holding a list or a sub-resource (its default is empty or absent).
pub(crate) type Nested = Prop<()>;

const fn nested(name: &'static str) -> Nested {
    prop(name, ())
}

/// `AnimationGraph`, the root.
pub(crate) mod graph {
    use super::*;
    pub const PARAMETERS: Nested = nested("Parameters");
    pub const LAYERS: Nested = nested("Layers");
    pub const MIXES: Nested = nested("Mixes");
    pub const DEFAULT_MIX: Prop<f32> = prop("DefaultMix", 0.2);
    pub const ALL: &[&str] = &[PARAMETERS.name, LAYERS.name, MIXES.name, DEFAULT_MIX.name];
}

/// `GraphParameter`.
pub(crate) mod parameter {
    use super::*;
    pub const NAME: Prop<&str> = always("Name", "");
    pub const TYPE: Prop<ParameterType> = prop("Type", ParameterType::Bool);
    pub const DEFAULT: Prop<f32> = prop("Default", 0.0);
    pub const LATCH: Prop<bool> = prop("Latch", false);
    pub const ALL: &[&str] = &[NAME.name, TYPE.name, DEFAULT.name, LATCH.name];
}

/// `GraphLayer`.
pub(crate) mod layer {
    use super::*;
    pub const NAME: Prop<&str> = always("Name", "Base");
    pub const BLEND: Prop<ClipBlend> = prop("Blend", ClipBlend::Replace);
    pub const WEIGHT: Prop<f32> = prop("Weight", 1.0);
    pub const WEIGHT_PARAMETER: Prop<&str> = prop("WeightParameter", "");
    pub const MASK: Nested = nested("Mask");
    pub const MACHINE: Nested = nested("Machine");
    pub const TRAVEL_MODE: Prop<TravelMode> = prop("TravelMode", TravelMode::Direct);
    pub const ALL: &[&str] = &[
        NAME.name,
        BLEND.name,
        WEIGHT.name,
        WEIGHT_PARAMETER.name,
        MASK.name,
        MACHINE.name,
        TRAVEL_MODE.name,
    ];
}

/// `BoneMask`.
pub(crate) mod mask {
    use super::*;
    pub const BONES: Nested = nested("Bones");
    pub const INCLUDE_CHILDREN: Prop<bool> = prop("IncludeChildren", true);
    /// Per bone, parallel to `Bones` (empty: all 1).
    pub const WEIGHTS: Nested = nested("Weights");
    pub const ALL: &[&str] = &[BONES.name, INCLUDE_CHILDREN.name, WEIGHTS.name];
}

/// `GraphMachine`.
pub(crate) mod machine {
    use super::*;
    pub const STATES: Nested = nested("States");
    pub const TRANSITIONS: Nested = nested("Transitions");
    pub const ENTRY: Prop<&str> = prop("Entry", "");
    pub const ALL: &[&str] = &[STATES.name, TRANSITIONS.name, ENTRY.name];
}

/// What every state type has.
pub(crate) mod state {
    use super::*;
    pub const NAME: Prop<&str> = always("Name", "");
    pub const SPEED: Prop<f32> = prop("Speed", 1.0);
    pub const SPEED_PARAMETER: Prop<&str> = prop("SpeedParameter", "");
    pub const EDITOR_POSITION: Prop<[f32; 2]> = prop("EditorPosition", [0.0, 0.0]);
    pub const WINDOWS: Nested = nested("Windows");
    pub const ALL: &[&str] =
        &[NAME.name, SPEED.name, SPEED_PARAMETER.name, EDITOR_POSITION.name, WINDOWS.name];
}

/// `GraphWindow`.
pub(crate) mod window {
    use super::*;
    pub const NAME: Prop<&str> = always("Name", "");
    pub const START: Prop<f32> = prop("Start", 0.0);
    pub const END: Prop<f32> = prop("End", 1.0);
    pub const ALL: &[&str] = &[NAME.name, START.name, END.name];
}

/// `ClipState`.
pub(crate) mod clip_state {
    use super::*;
    pub const CLIP: Prop<&str> = prop("Clip", "");
    pub const LOOP: Prop<bool> = prop("Loop", true);
    pub const ALL: &[&str] = &[CLIP.name, LOOP.name];
}

/// `BlendSpace1DState`.
pub(crate) mod blend_1d {
    use super::*;
    pub const PARAMETER: Prop<&str> = prop("Parameter", "");
    pub const CLIPS: Nested = nested("Clips");
    pub const POSITIONS: Nested = nested("Positions");
    pub const SYNC_TIME: Prop<bool> = prop("SyncTime", true);
    pub const SYNC_MARKERS: Prop<bool> = prop("SyncMarkers", false);
    pub const ALL: &[&str] = &[PARAMETER.name, CLIPS.name, POSITIONS.name, SYNC_TIME.name, SYNC_MARKERS.name];
}

/// `BlendSpace2DState`.
pub(crate) mod blend_2d {
    use super::*;
    pub const PARAMETER_X: Prop<&str> = prop("ParameterX", "");
    pub const PARAMETER_Y: Prop<&str> = prop("ParameterY", "");
    pub const CLIPS: Nested = nested("Clips");
    pub const POSITIONS: Nested = nested("Positions");
    pub const SYNC_TIME: Prop<bool> = prop("SyncTime", true);
    pub const SYNC_MARKERS: Prop<bool> = prop("SyncMarkers", false);
    pub const ALL: &[&str] =
        &[PARAMETER_X.name, PARAMETER_Y.name, CLIPS.name, POSITIONS.name, SYNC_TIME.name, SYNC_MARKERS.name];
}

/// `SubMachineState`.
pub(crate) mod sub_machine {
    use super::*;
    pub const MACHINE: Nested = nested("Machine");
    pub const ALL: &[&str] = &[MACHINE.name];
}

/// `GraphTransition`.
pub(crate) mod transition {
    use super::*;
    pub const FROM: Prop<&str> = always("From", "");
    pub const TO: Prop<&str> = always("To", "");
    pub const CONDITIONS: Nested = nested("Conditions");
    /// -1: from `Mixes`.
    pub const DURATION: Prop<f32> = prop("Duration", -1.0);
    /// -1: no exit time.
    pub const EXIT_TIME: Prop<f32> = prop("ExitTime", -1.0);
    pub const OFFSET: Prop<f32> = prop("Offset", 0.0);
    pub const INTERRUPT: Prop<TransitionInterrupt> = prop("Interrupt", TransitionInterrupt::None);
    pub const PRIORITY: Prop<i32> = prop("Priority", 0);
    pub const CURVE: Prop<TransitionCurve> = prop("Curve", TransitionCurve::Linear);
    pub const BLEND: Prop<TransitionBlend> = prop("Blend", TransitionBlend::Crossfade);
    pub const SYNC: Prop<TransitionSync> = prop("Sync", TransitionSync::None);
    pub const ALL: &[&str] = &[
        FROM.name,
        TO.name,
        CONDITIONS.name,
        DURATION.name,
        EXIT_TIME.name,
        OFFSET.name,
        INTERRUPT.name,
        PRIORITY.name,
        CURVE.name,
        BLEND.name,
        SYNC.name,
    ];
}

/// `GraphCondition`.
pub(crate) mod condition {
    use super::*;
    pub const PARAMETER: Prop<&str> = prop("Parameter", "");
    pub const OP: Prop<ConditionOp> = prop("Op", ConditionOp::True);
    pub const VALUE: Prop<f32> = prop("Value", 0.0);
    pub const ALL: &[&str] = &[PARAMETER.name, OP.name, VALUE.name];
}

/// `GraphMixOverride`.
pub(crate) mod mix {
    use super::*;
    pub const FROM: Prop<&str> = always("From", "");
    pub const TO: Prop<&str> = always("To", "");
    pub const DURATION: Prop<f32> = prop("Duration", 0.0);
    pub const ALL: &[&str] = &[FROM.name, TO.name, DURATION.name];
}

/// Every resource type of the format, the root first.
pub(crate) const TYPES: &[&str] = &[
    "AnimationGraph",
    "GraphParameter",
    "GraphLayer",
    "BoneMask",
    "GraphMachine",
    "ClipState",
    "BlendSpace1DState",
    "BlendSpace2DState",
    "SubMachineState",
    "GraphTransition",
    "GraphCondition",
    "GraphMixOverride",
    "GraphWindow",
];

/// The state types (each also has [`state::ALL`]).
pub(crate) const STATE_TYPES: &[&str] =
    &["ClipState", "BlendSpace1DState", "BlendSpace2DState", "SubMachineState"];

/// The properties a resource type may have (besides, for states, [`state::ALL`]); empty for a
/// type the format does not have.
pub(crate) fn properties(ty: &str) -> &'static [&'static str] {
    match ty {
        "AnimationGraph" => graph::ALL,
        "GraphParameter" => parameter::ALL,
        "GraphLayer" => layer::ALL,
        "BoneMask" => mask::ALL,
        "GraphMachine" => machine::ALL,
        "ClipState" => clip_state::ALL,
        "BlendSpace1DState" => blend_1d::ALL,
        "BlendSpace2DState" => blend_2d::ALL,
        "SubMachineState" => sub_machine::ALL,
        "GraphTransition" => transition::ALL,
        "GraphCondition" => condition::ALL,
        "GraphMixOverride" => mix::ALL,
        "GraphWindow" => window::ALL,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{
        AnimationGraph, BlendSpace1D, BlendSpace2D, ClipState, GraphCondition, GraphLayer, GraphMixOverride,
        GraphParameter, GraphTransition,
    };

    #[test]
    fn the_authoring_types_default_to_the_schema() {
        let p = GraphParameter::default();
        assert_eq!(
            (p.name.as_str(), p.kind, p.default, p.latch),
            (
                parameter::NAME.default,
                parameter::TYPE.default,
                parameter::DEFAULT.default,
                parameter::LATCH.default
            )
        );
        let l = GraphLayer::default();
        assert_eq!(
            (l.name.as_str(), l.blend, l.weight),
            (layer::NAME.default, layer::BLEND.default, layer::WEIGHT.default)
        );
        let t = GraphTransition::default();
        assert_eq!(
            (t.duration, t.exit_time, t.offset, t.interrupt, t.priority),
            (
                transition::DURATION.default,
                transition::EXIT_TIME.default,
                transition::OFFSET.default,
                transition::INTERRUPT.default,
                transition::PRIORITY.default
            )
        );
        let c = GraphCondition::default();
        assert_eq!((c.op, c.value), (condition::OP.default, condition::VALUE.default));
        assert_eq!(GraphMixOverride::default().duration, mix::DURATION.default);
        assert_eq!(ClipState::default().looping, clip_state::LOOP.default);
        assert_eq!(BlendSpace1D::default().sync_time, blend_1d::SYNC_TIME.default);
        assert_eq!(BlendSpace2D::default().sync_time, blend_2d::SYNC_TIME.default);
        assert_eq!(AnimationGraph::default().default_mix, graph::DEFAULT_MIX.default);
    }

    #[test]
    fn every_resource_type_lists_its_properties_once() {
        for &ty in TYPES {
            let props = properties(ty);
            assert!(!props.is_empty(), "{ty}");
            let unique: std::collections::BTreeSet<&str> = props.iter().copied().collect();
            assert_eq!(unique.len(), props.len(), "{ty} lists a property twice");
        }
        assert!(properties("NoSuchType").is_empty());
    }
}
