//! A graph parameter: a named bool, int, float or trigger that game code sets and conditions read.

/// The type of a [`GraphParameter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ParameterType {
    /// `true` or `false`; tested with `True` / `False`.
    #[default]
    Bool,
    /// A whole number; tested with `Greater`, `Less`, `Equal`, `NotEqual`.
    Int,
    /// A real number; tested with `Greater`, `Less`.
    Float,
    /// A one-shot flag set by `fire`; tested with `Triggered`.
    Trigger,
}

impl ParameterType {
    /// Every type, in file order.
    pub const ALL: [ParameterType; 4] =
        [ParameterType::Bool, ParameterType::Int, ParameterType::Float, ParameterType::Trigger];

    /// The name used in `.mres` files.
    pub fn as_str(self) -> &'static str {
        match self {
            ParameterType::Bool => "Bool",
            ParameterType::Int => "Int",
            ParameterType::Float => "Float",
            ParameterType::Trigger => "Trigger",
        }
    }

    /// Whether the parameter holds a number (int or float), usable by blend spaces, weights and
    /// speed multipliers.
    pub fn is_numeric(self) -> bool {
        matches!(self, ParameterType::Int | ParameterType::Float)
    }
}

/// A named value the graph reads.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GraphParameter {
    /// Unique within the graph.
    pub name: String,
    /// Bool, Int, Float or Trigger.
    pub kind: ParameterType,
    /// The starting value (`0`/`1` for bools, a whole number for ints).
    pub default: f32,
    /// Triggers only: stay set until a transition uses them instead of clearing at frame end.
    pub latch: bool,
}
