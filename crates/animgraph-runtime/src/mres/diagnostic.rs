//! A located finding from loading a `.mres` file.

use std::fmt;

pub use crate::graph::Severity;

/// One error or warning, located at a resource id and property path (and a line when known).
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The resource id (`t_jump`), `props` for the root resource's own properties, or empty for
    /// problems with the file as a whole.
    pub resource: String,
    /// The property path inside that resource (`Conditions[0]`), possibly empty.
    pub property: String,
    /// 1-based line in the file, when known.
    pub line: Option<usize>,
    /// 1-based column in the file, when known.
    pub column: Option<usize>,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl Diagnostic {
    /// `resource.property`, or whichever of the two is present.
    pub fn location(&self) -> String {
        match (self.resource.is_empty(), self.property.is_empty()) {
            (false, false) => format!("{}.{}", self.resource, self.property),
            (false, true) => self.resource.clone(),
            (true, false) => self.property.clone(),
            (true, true) => String::new(),
        }
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{kind}")?;
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, " (line {l}, column {c})")?,
            (Some(l), None) => write!(f, " (line {l})")?,
            _ => {}
        }
        let location = self.location();
        if location.is_empty() {
            write!(f, ": {}", self.message)
        } else {
            write!(f, ": {location}: {}", self.message)
        }
    }
}
