//! A mix override: the crossfade duration for one pair of clips or states.

/// Crossfade duration for transitions with `Duration = -1` between `from` and `to`.
///
/// `from` and `to` are clip names for clip states and state names for other state kinds, or
/// `"*"` for any.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GraphMixOverride {
    /// Source clip or state name, or `"*"`.
    pub from: String,
    /// Target clip or state name, or `"*"`.
    pub to: String,
    /// Seconds.
    pub duration: f32,
}
