//! Parameter sources: graph parameters fed from values on the character's entity without code
//! (the proposal's open question 3). A source names a component by its reflected type path and a
//! field inside it by a reflection path (`"0"`, `"linear.x"`), optionally reduces a vector to
//! its length, then scales, clamps and smooths the value at a fixed step. Sources are evaluated
//! in `Update` before the graph advances; after the first frame they allocate nothing and look
//! up no strings (the component, path and parameter are resolved once, and again only when the
//! graph is rebound).
//!
//! ```no_run
//! use animgraph_bevy::{AnimGraphSources, ParameterSource};
//! # use bevy::prelude::*;
//! #[derive(Component, Reflect)]
//! #[reflect(Component)]
//! struct Velocity(Vec3);
//!
//! // speed <- |velocity| / 2, at most 3, smoothed over 0.1 s.
//! let sources = AnimGraphSources::new([ParameterSource::new("speed", "Velocity", "0")
//!     .length()
//!     .scale(0.5)
//!     .clamp(0.0, 3.0)
//!     .smooth(0.1)]);
//! ```

use std::sync::Arc;

use animgraph_runtime::AnimationGraphPlayer;
use animgraph_runtime::graph::{ParamId, ParameterType as ParamType};
use bevy::ecs::prelude::*;
use bevy::ecs::reflect::{AppTypeRegistry, ReflectComponent};
use bevy::math::{Vec2, Vec3};
use bevy::reflect::{GetPath, ParsedPath, PartialReflect};
use bevy::time::Time;

use crate::{AnimGraph2D, AnimGraph3D};

/// The fixed step at which sources smooth: 1/120 s, the same result whatever the frame rate.
pub const SMOOTHING_STEP: f32 = 1.0 / 120.0;

/// The parameter sources of one character (on the entity with its [`AnimGraph2D`] or
/// [`AnimGraph3D`]).
#[derive(Component, Debug, Default)]
pub struct AnimGraphSources {
    /// The sources, evaluated in order.
    pub sources: Vec<ParameterSource>,
}

impl AnimGraphSources {
    /// These sources.
    pub fn new(sources: impl IntoIterator<Item = ParameterSource>) -> Self {
        AnimGraphSources { sources: sources.into_iter().collect() }
    }
}

/// How a source turns the reflected value into a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reduce {
    /// A number as it is (`f32`, `f64`, integers, `bool` as 0 or 1).
    #[default]
    Value,
    /// The length of a `Vec2` or `Vec3` (a number's absolute value).
    Length,
}

/// One graph parameter fed from a reflected field of a component on the same entity.
#[derive(Debug, Clone)]
pub struct ParameterSource {
    /// The graph parameter (float, int or bool; an int takes the rounded value, a bool whether
    /// it is not 0).
    pub parameter: String,
    /// The component: its full type path (`my_game::Velocity`) or its short one (`Velocity`).
    /// The type must be registered with `#[reflect(Component)]`.
    pub component: String,
    /// The field inside it, as a Bevy reflection path (`"0"`, `"linear.x"`; empty: the
    /// component itself).
    pub path: String,
    /// Number or vector length.
    pub reduce: Reduce,
    /// Multiplies the value.
    pub scale: f32,
    /// Clamps the scaled value.
    pub clamp: Option<(f32, f32)>,
    /// Smoothing time constant in seconds (exponential approach at [`SMOOTHING_STEP`]).
    pub smoothing: Option<f32>,
    state: SourceState,
}

#[derive(Debug, Clone, Default)]
enum SourceState {
    #[default]
    Unresolved,
    Resolved(Box<Resolved>),
    /// Could not be resolved; logged once, with the message kept for [`ParameterSource::error`].
    Failed(String),
}

#[derive(Clone)]
struct Resolved {
    component: ReflectComponent,
    path: ParsedPath,
    /// The player's bound graph the ids below belong to (re-resolved after a rebind).
    graph: usize,
    param: ParamId,
    kind: ParamType,
    /// The smoothed value and the time not yet stepped.
    value: Option<f32>,
    carry: f32,
    alpha: f32,
}

impl ParameterSource {
    /// `parameter` <- `component`'s field at `path`, as it is.
    pub fn new(parameter: &str, component: &str, path: &str) -> Self {
        ParameterSource {
            parameter: parameter.into(),
            component: component.into(),
            path: path.into(),
            reduce: Reduce::Value,
            scale: 1.0,
            clamp: None,
            smoothing: None,
            state: SourceState::Unresolved,
        }
    }

    /// Takes the length of a vector field.
    pub fn length(mut self) -> Self {
        self.reduce = Reduce::Length;
        self
    }

    /// Multiplies the value by `scale`.
    pub fn scale(mut self, scale: f32) -> Self {
        self.scale = scale;
        self
    }

    /// Clamps the scaled value to `min..=max`.
    pub fn clamp(mut self, min: f32, max: f32) -> Self {
        self.clamp = Some((min, max));
        self
    }

    /// Smooths with time constant `seconds`, stepped at [`SMOOTHING_STEP`].
    pub fn smooth(mut self, seconds: f32) -> Self {
        self.smoothing = Some(seconds);
        self
    }

    /// Why the source does nothing (unknown component, bad path, missing parameter), if so.
    pub fn error(&self) -> Option<&str> {
        match &self.state {
            SourceState::Failed(e) => Some(e),
            _ => None,
        }
    }

    /// The value last given to the parameter (after scale, clamp and smoothing).
    pub fn value(&self) -> Option<f32> {
        match &self.state {
            SourceState::Resolved(r) => r.value,
            _ => None,
        }
    }

    fn resolve(&self, registry: &AppTypeRegistry, player: &AnimationGraphPlayer) -> Result<Resolved, String> {
        let registry = registry.read();
        let registration = registry
            .get_with_type_path(&self.component)
            .or_else(|| registry.get_with_short_type_path(&self.component))
            .ok_or_else(|| {
                format!(
                    "no reflected type \"{}\"; derive Reflect, add #[reflect(Component)] and register it (app.register_type)",
                    self.component
                )
            })?;
        let component = registration.data::<ReflectComponent>().cloned().ok_or_else(|| {
            format!("\"{}\" is reflected but not as a component; add #[reflect(Component)]", self.component)
        })?;
        let path = ParsedPath::parse(&self.path)
            .map_err(|e| format!("the path \"{}\" into {} does not parse: {e}", self.path, self.component))?;
        let param = player.find_parameter(&self.parameter).ok_or_else(|| {
            format!("the graph has no parameter \"{}\"; add it or fix the source's name", self.parameter)
        })?;
        let kind = player.parameter_type(param).expect("found above");
        if kind == ParamType::Trigger {
            return Err(format!(
                "\"{}\" is a trigger; a source feeds float, int and bool parameters",
                self.parameter
            ));
        }
        if let Some(tau) = self.smoothing
            && !(tau.is_finite() && tau >= 0.0)
        {
            return Err(format!("the smoothing time of \"{}\" is {tau}; give seconds >= 0", self.parameter));
        }
        let alpha = match self.smoothing {
            Some(tau) if tau > 0.0 => 1.0 - (-SMOOTHING_STEP / tau).exp(),
            _ => 1.0,
        };
        Ok(Resolved {
            component,
            path,
            graph: graph_key(player),
            param,
            kind,
            value: None,
            carry: 0.0,
            alpha,
        })
    }
}

impl std::fmt::Debug for Resolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resolved")
            .field("path", &self.path)
            .field("param", &self.param)
            .field("value", &self.value)
            .finish()
    }
}

/// Identifies the bound graph a player plays (ids change when it is rebound).
fn graph_key(player: &AnimationGraphPlayer) -> usize {
    Arc::as_ptr(player.bound_graph()) as *const () as usize
}

/// A reflected field as a number.
fn number(value: &dyn PartialReflect, reduce: Reduce) -> Option<f32> {
    let length = reduce == Reduce::Length;
    if let Some(v) = value.try_downcast_ref::<f32>() {
        return Some(if length { v.abs() } else { *v });
    }
    if let Some(v) = value.try_downcast_ref::<f64>() {
        return Some(if length { v.abs() as f32 } else { *v as f32 });
    }
    if let Some(v) = value.try_downcast_ref::<Vec3>() {
        return length.then(|| v.length());
    }
    if let Some(v) = value.try_downcast_ref::<Vec2>() {
        return length.then(|| v.length());
    }
    if let Some(v) = value.try_downcast_ref::<bool>() {
        return Some(f32::from(u8::from(*v)));
    }
    if let Some(v) = value.try_downcast_ref::<i32>() {
        return Some(*v as f32);
    }
    if let Some(v) = value.try_downcast_ref::<u32>() {
        return Some(*v as f32);
    }
    value.try_downcast_ref::<usize>().map(|v| *v as f32)
}

/// The player of the character on `entity` (2D or 3D), once bound.
fn player_of(world: &World, entity: Entity) -> Option<&AnimationGraphPlayer> {
    world
        .get::<AnimGraph3D>(entity)
        .and_then(AnimGraph3D::player)
        .or_else(|| world.get::<AnimGraph2D>(entity).and_then(AnimGraph2D::player))
}

/// Evaluates every character's sources and sets their parameters (before the graph advances).
pub(crate) fn apply_sources(
    world: &mut World,
    characters: &mut QueryState<Entity, With<AnimGraphSources>>,
    mut entities: Local<Vec<Entity>>,
) {
    entities.clear();
    entities.extend(characters.iter(world));
    let dt = world.get_resource::<Time>().map_or(0.0, Time::delta_secs);
    for &entity in entities.iter() {
        let Some(mut holder) = world.get_mut::<AnimGraphSources>(entity) else { continue };
        // Taken out (no allocation) so the entity's other components can be read meanwhile.
        let mut sources = std::mem::take(&mut holder.sources);
        for source in &mut sources {
            update_source(world, entity, source, dt);
        }
        if let Some(mut holder) = world.get_mut::<AnimGraphSources>(entity) {
            holder.sources = sources;
        }
    }
}

/// Resolves (when needed), reads and applies one source.
fn update_source(world: &mut World, entity: Entity, source: &mut ParameterSource, dt: f32) {
    let Some(player) = player_of(world, entity) else { return };
    let stale = match &source.state {
        SourceState::Unresolved => true,
        SourceState::Resolved(r) => r.graph != graph_key(player),
        // A rebound graph may now have the parameter: try again then.
        SourceState::Failed(_) => false,
    };
    if stale {
        let registry = world.resource::<AppTypeRegistry>();
        source.state = match source.resolve(registry, player) {
            Ok(r) => SourceState::Resolved(Box::new(r)),
            Err(e) => {
                bevy::log::warn!("{entity}: parameter source for \"{}\": {e}", source.parameter);
                SourceState::Failed(e)
            }
        };
    }
    let SourceState::Resolved(r) = &mut source.state else { return };
    let entity_ref = world.entity(entity);
    let Some(raw) = r
        .component
        .reflect(entity_ref)
        .and_then(|c| c.reflect_path(&r.path).ok())
        .and_then(|v| number(v, source.reduce))
    else {
        // The component is absent this frame (or the field is not a number): leave the
        // parameter as it is.
        return;
    };
    let mut target = raw * source.scale;
    if let Some((min, max)) = source.clamp {
        target = target.clamp(min, max);
    }
    if !target.is_finite() {
        return;
    }
    let value = match r.value {
        // The first value is taken as it is (no ramp from 0).
        None => target,
        Some(mut v) if r.alpha < 1.0 => {
            r.carry += dt;
            while r.carry >= SMOOTHING_STEP {
                v += (target - v) * r.alpha;
                r.carry -= SMOOTHING_STEP;
            }
            v
        }
        Some(_) => target,
    };
    r.value = Some(value);
    let (param, kind) = (r.param, r.kind);
    let player = match world.get_mut::<AnimGraph3D>(entity) {
        Some(c) => c.into_inner().player_mut(),
        None => world.get_mut::<AnimGraph2D>(entity).and_then(|c| c.into_inner().player_mut()),
    };
    let Some(player) = player else { return };
    // The ids were resolved on this graph, so these cannot fail.
    let _ = match kind {
        ParamType::Float => player.set_float(param, value),
        ParamType::Int => player.set_int(param, value.round() as i32),
        ParamType::Bool => player.set_bool(param, value != 0.0),
        ParamType::Trigger => Ok(()),
    };
}
