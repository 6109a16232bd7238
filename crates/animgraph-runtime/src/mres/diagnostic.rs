//! A located finding from loading a `.mres` file: a [`Finding`](crate::finding::Finding) with its
//! resource id, property, line and column filled in.

pub use crate::finding::Severity;

/// One error or warning of the loader, located at a resource id and property path (and a line
/// when known): the runtime's one [`Finding`](crate::finding::Finding) type.
pub type Diagnostic = crate::finding::Finding;
