//! The parameter API: set and read bool, int, float and trigger parameters by id (resolved
//! once) or by name, and the host property paths (`Parameters/<name>`).

use super::super::bound::Value;
use super::super::{ParamId, ParameterType};
use super::AnimationGraphPlayer;

/// Why a parameter, layer or state access failed. The old value is kept.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParameterError {
    /// No parameter has this name.
    #[error("no parameter \"{0}\" in the graph")]
    Unknown(String),
    /// The id is not a parameter of this graph.
    #[error("parameter id {0} is out of range")]
    BadId(u16),
    /// The parameter has another type.
    #[error("parameter \"{name}\" is a {actual}, not a {expected}")]
    WrongType {
        /// Parameter name.
        name: String,
        /// Its type.
        actual: &'static str,
        /// The type the call needs.
        expected: &'static str,
    },
    /// NaN or infinity.
    #[error("parameter \"{name}\": {value} is not a finite number")]
    NotFinite {
        /// Parameter name.
        name: String,
        /// The refused value.
        value: f32,
    },
    /// A property path other than `Parameters/<name>`.
    #[error("unknown property \"{0}\"; use \"Parameters/<name>\"")]
    UnknownProperty(String),
    /// An Int parameter set from a float with a fraction.
    #[error("parameter \"{name}\" is an Int; {value} is not a whole number")]
    NotWhole {
        /// Parameter name.
        name: String,
        /// The refused value.
        value: f32,
    },
}

/// Why a layer or state call failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LayerError {
    /// No such layer.
    #[error("layer {0} does not exist")]
    NoLayer(usize),
    /// No state with this path in the layer.
    #[error("layer {layer} has no state \"{path}\"; use a name or an Outer/Inner path")]
    NoState {
        /// The layer.
        layer: usize,
        /// The requested path.
        path: String,
    },
    /// NaN or infinite weight.
    #[error("layer weight {0} is not a finite number")]
    NotFinite(f32),
}

/// A value for [`AnimationGraphPlayer::set_property`] / [`get_property`](AnimationGraphPlayer::get_property).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PropertyValue {
    /// For Bool parameters (and triggers: `true` fires, `false` clears).
    Bool(bool),
    /// For Int parameters (Float ones accept it too).
    Int(i32),
    /// For Float parameters (Int ones accept whole numbers).
    Float(f32),
}

impl AnimationGraphPlayer {
    /// The id of the parameter with this name (resolve once, then use the id).
    pub fn find_parameter(&self, name: &str) -> Option<ParamId> {
        self.graph.param_by_name.get(name).copied()
    }

    /// How many parameters the graph has (ids are `0..count`).
    pub fn parameter_count(&self) -> usize {
        self.values.len()
    }

    /// A parameter's name.
    pub fn parameter_name(&self, param: ParamId) -> Option<&str> {
        self.graph.parameters.get(param.index()).map(|p| p.name.as_str())
    }

    /// A parameter's type.
    pub fn parameter_type(&self, param: ParamId) -> Option<ParameterType> {
        self.graph.parameters.get(param.index()).map(|p| p.kind)
    }

    fn slot(&mut self, param: ParamId, expected: ParameterType) -> Result<&mut Value, ParameterError> {
        let def = self.graph.parameters.get(param.index()).ok_or(ParameterError::BadId(param.0))?;
        if def.kind != expected {
            return Err(ParameterError::WrongType {
                name: def.name.clone(),
                actual: def.kind.as_str(),
                expected: expected.as_str(),
            });
        }
        Ok(&mut self.values[param.index()])
    }

    fn id(&self, name: &str) -> Result<ParamId, ParameterError> {
        self.find_parameter(name).ok_or_else(|| ParameterError::Unknown(name.to_string()))
    }

    /// Sets a Bool parameter.
    pub fn set_bool(&mut self, param: ParamId, value: bool) -> Result<(), ParameterError> {
        *self.slot(param, ParameterType::Bool)? = Value::Bool(value);
        Ok(())
    }

    /// Sets an Int parameter.
    pub fn set_int(&mut self, param: ParamId, value: i32) -> Result<(), ParameterError> {
        *self.slot(param, ParameterType::Int)? = Value::Int(value);
        Ok(())
    }

    /// Sets a Float parameter; NaN and infinity are refused and the old value kept.
    pub fn set_float(&mut self, param: ParamId, value: f32) -> Result<(), ParameterError> {
        if !value.is_finite() {
            let name = self.parameter_name(param).ok_or(ParameterError::BadId(param.0))?.to_string();
            return Err(ParameterError::NotFinite { name, value });
        }
        *self.slot(param, ParameterType::Float)? = Value::Float(value);
        Ok(())
    }

    /// Fires a trigger: set until a transition that tests it starts, or the end of this advance
    /// (or, with `Latch`, until used).
    pub fn fire(&mut self, trigger: ParamId) -> Result<(), ParameterError> {
        *self.slot(trigger, ParameterType::Trigger)? = Value::Trigger(true);
        self.fired[trigger.index()] = true;
        Ok(())
    }

    /// Clears a trigger without it being used.
    pub fn reset_trigger(&mut self, trigger: ParamId) -> Result<(), ParameterError> {
        *self.slot(trigger, ParameterType::Trigger)? = Value::Trigger(false);
        Ok(())
    }

    /// A Bool parameter's value (`None` for another type or id).
    pub fn get_bool(&self, param: ParamId) -> Option<bool> {
        match self.values.get(param.index()) {
            Some(Value::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    /// An Int parameter's value.
    pub fn get_int(&self, param: ParamId) -> Option<i32> {
        match self.values.get(param.index()) {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }
    }

    /// A Float parameter's value.
    pub fn get_float(&self, param: ParamId) -> Option<f32> {
        match self.values.get(param.index()) {
            Some(Value::Float(f)) => Some(*f),
            _ => None,
        }
    }

    /// Whether a trigger is set.
    pub fn is_triggered(&self, trigger: ParamId) -> Option<bool> {
        match self.values.get(trigger.index()) {
            Some(Value::Trigger(t)) => Some(*t),
            _ => None,
        }
    }

    /// [`set_bool`](Self::set_bool) by name.
    pub fn set_bool_by_name(&mut self, name: &str, value: bool) -> Result<(), ParameterError> {
        self.set_bool(self.id(name)?, value)
    }

    /// [`set_int`](Self::set_int) by name.
    pub fn set_int_by_name(&mut self, name: &str, value: i32) -> Result<(), ParameterError> {
        self.set_int(self.id(name)?, value)
    }

    /// [`set_float`](Self::set_float) by name.
    pub fn set_float_by_name(&mut self, name: &str, value: f32) -> Result<(), ParameterError> {
        self.set_float(self.id(name)?, value)
    }

    /// [`fire`](Self::fire) by name.
    pub fn fire_by_name(&mut self, name: &str) -> Result<(), ParameterError> {
        self.fire(self.id(name)?)
    }

    /// Sets `Parameters/<name>` from a host's property system (keyframe tracks): Bool for bools
    /// and triggers (`true` fires), Int or Float for floats, Int or a whole Float for ints.
    pub fn set_property(&mut self, path: &str, value: PropertyValue) -> Result<(), ParameterError> {
        let name = path
            .strip_prefix("Parameters/")
            .ok_or_else(|| ParameterError::UnknownProperty(path.to_string()))?;
        let id = self.id(name)?;
        let kind = self.graph.parameters[id.index()].kind;
        match (kind, value) {
            (ParameterType::Bool, PropertyValue::Bool(b)) => self.set_bool(id, b),
            (ParameterType::Trigger, PropertyValue::Bool(true)) => self.fire(id),
            (ParameterType::Trigger, PropertyValue::Bool(false)) => self.reset_trigger(id),
            (ParameterType::Float, PropertyValue::Float(f)) => self.set_float(id, f),
            (ParameterType::Float, PropertyValue::Int(i)) => self.set_float(id, i as f32),
            (ParameterType::Int, PropertyValue::Int(i)) => self.set_int(id, i),
            (ParameterType::Int, PropertyValue::Float(f)) => {
                if !f.is_finite() {
                    Err(ParameterError::NotFinite { name: name.to_string(), value: f })
                } else if f.fract() != 0.0 || f < i32::MIN as f32 || f > i32::MAX as f32 {
                    Err(ParameterError::NotWhole { name: name.to_string(), value: f })
                } else {
                    self.set_int(id, f as i32)
                }
            }
            (kind, value) => Err(ParameterError::WrongType {
                name: name.to_string(),
                actual: kind.as_str(),
                expected: match value {
                    PropertyValue::Bool(_) => "Bool",
                    PropertyValue::Int(_) => "Int",
                    PropertyValue::Float(_) => "Float",
                },
            }),
        }
    }

    /// Reads `Parameters/<name>` (triggers read as Bool).
    pub fn get_property(&self, path: &str) -> Option<PropertyValue> {
        let id = self.find_parameter(path.strip_prefix("Parameters/")?)?;
        Some(match self.values[id.index()] {
            Value::Bool(b) | Value::Trigger(b) => PropertyValue::Bool(b),
            Value::Int(i) => PropertyValue::Int(i),
            Value::Float(f) => PropertyValue::Float(f),
        })
    }
}
