//! A transition condition: one test of one parameter.

use super::ParameterType;

/// The test a [`GraphCondition`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ConditionOp {
    /// Bool parameter is true. (`parameter` may be empty: always true.)
    #[default]
    True,
    /// Bool parameter is false. (`parameter` may be empty: never true.)
    False,
    /// Int or float parameter is greater than `value`.
    Greater,
    /// Int or float parameter is less than `value`.
    Less,
    /// Int parameter equals `value`.
    Equal,
    /// Int parameter differs from `value`.
    NotEqual,
    /// Trigger parameter was fired (and not yet consumed).
    Triggered,
}

impl ConditionOp {
    /// Every operator, in file order.
    pub const ALL: [ConditionOp; 7] = [
        ConditionOp::True,
        ConditionOp::False,
        ConditionOp::Greater,
        ConditionOp::Less,
        ConditionOp::Equal,
        ConditionOp::NotEqual,
        ConditionOp::Triggered,
    ];

    /// The name used in `.mres` files.
    pub fn as_str(self) -> &'static str {
        match self {
            ConditionOp::True => "True",
            ConditionOp::False => "False",
            ConditionOp::Greater => "Greater",
            ConditionOp::Less => "Less",
            ConditionOp::Equal => "Equal",
            ConditionOp::NotEqual => "NotEqual",
            ConditionOp::Triggered => "Triggered",
        }
    }

    /// Whether this operator can test a parameter of this type.
    ///
    /// | parameter | operators |
    /// |---|---|
    /// | Bool | True, False |
    /// | Int | Greater, Less, Equal, NotEqual |
    /// | Float | Greater, Less (exact equality on floats is a trap) |
    /// | Trigger | Triggered |
    pub fn fits(self, kind: ParameterType) -> bool {
        use ConditionOp as O;
        match kind {
            ParameterType::Bool => matches!(self, O::True | O::False),
            ParameterType::Int => matches!(self, O::Greater | O::Less | O::Equal | O::NotEqual),
            ParameterType::Float => matches!(self, O::Greater | O::Less),
            ParameterType::Trigger => matches!(self, O::Triggered),
        }
    }

    /// The operators that fit a parameter type (for editors and error messages).
    pub fn fitting(kind: ParameterType) -> impl Iterator<Item = ConditionOp> {
        ConditionOp::ALL.into_iter().filter(move |op| op.fits(kind))
    }
}

/// One test of one parameter; all of a transition's conditions must hold.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GraphCondition {
    /// The parameter's name.
    pub parameter: String,
    /// The test.
    pub op: ConditionOp,
    /// The value compared with (Greater, Less, Equal, NotEqual).
    pub value: f32,
}

impl GraphCondition {
    /// A short human summary: `speed > 2`, `jump`, `!grounded`.
    pub fn summary(&self) -> String {
        let p = &self.parameter;
        match self.op {
            ConditionOp::True if p.is_empty() => "true".to_string(),
            ConditionOp::False if p.is_empty() => "false".to_string(),
            ConditionOp::True | ConditionOp::Triggered => p.clone(),
            ConditionOp::False => format!("!{p}"),
            ConditionOp::Greater => format!("{p} > {}", self.value),
            ConditionOp::Less => format!("{p} < {}", self.value),
            ConditionOp::Equal => format!("{p} == {}", self.value),
            ConditionOp::NotEqual => format!("{p} != {}", self.value),
        }
    }
}
