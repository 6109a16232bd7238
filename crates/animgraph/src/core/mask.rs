//! A bone mask: the bones a layer affects, named so that it works on any backend.

/// The bones a layer affects, by name (and in 2D, those bones' slots).
#[derive(Clone, Debug, PartialEq)]
pub struct BoneMask {
    /// Included bones.
    pub bones: Vec<String>,
    /// Whether each named bone's descendants are included too. Default `true`.
    pub include_children: bool,
}

impl Default for BoneMask {
    fn default() -> Self {
        BoneMask { bones: Vec::new(), include_children: true }
    }
}
