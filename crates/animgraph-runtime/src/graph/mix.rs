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

/// The `Mixes` rule, on any key (names at authoring time, interned keys once bound): the most
/// specific entry (exact pair, then `from -> *`, then `* -> to`, then `* -> *`; list order among
/// equals; `None` is `*`), else `default`.
pub(crate) fn pick_mix<K: PartialEq>(
    entries: impl IntoIterator<Item = (Option<K>, Option<K>, f32)>,
    from: &K,
    to: &K,
    default: f32,
) -> f32 {
    let mut best: Option<(u8, f32)> = None;
    for (f, t, duration) in entries {
        let score = match (f, t) {
            (Some(f), Some(t)) if f == *from && t == *to => 4,
            (Some(f), None) if f == *from => 3,
            (None, Some(t)) if t == *to => 2,
            (None, None) => 1,
            _ => 0,
        };
        if score > 0 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, duration));
        }
    }
    best.map_or(default, |(_, d)| d)
}
