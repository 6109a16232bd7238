//! A bone mask: the bones a layer affects, named so that it works on any backend.

/// The bones a layer affects, by name (and in 2D, those bones' slots).
#[derive(Clone, Debug, PartialEq)]
pub struct BoneMask {
    /// Included bones.
    pub bones: Vec<String>,
    /// Whether each named bone's descendants are included too. Default `true`.
    pub include_children: bool,
    /// Per named bone, how much of the layer it takes (0..=1), parallel to `bones`; empty means
    /// 1 for every bone. Under `include_children` a child takes its nearest listed ancestor's
    /// weight unless it is listed itself.
    pub weights: Vec<f32>,
}

impl Default for BoneMask {
    fn default() -> Self {
        BoneMask { bones: Vec::new(), include_children: true, weights: Vec::new() }
    }
}

impl BoneMask {
    /// A mask of these bones, each at full weight.
    pub fn new(bones: Vec<String>, include_children: bool) -> Self {
        BoneMask { bones, include_children, weights: Vec::new() }
    }

    /// Whether any bone has a weight other than 1.
    pub fn is_weighted(&self) -> bool {
        self.weights.iter().any(|&w| w != 1.0)
    }

    /// How much of the layer each bone of a skeleton takes: `bone(name)` finds a bone's index,
    /// `parents` lists each bone's parent (parents before children). A listed bone takes its
    /// weight (1 when `weights` is empty); under `include_children` an unlisted bone takes its
    /// nearest listed ancestor's; every other bone 0 (excluded). Unknown names are added to
    /// `warnings` once each and ignored. The one place the IncludeChildren and weight rules live,
    /// for every backend.
    pub fn resolve(
        &self,
        bone: impl Fn(&str) -> Option<usize>,
        parents: &[Option<u16>],
        warnings: &mut Vec<String>,
    ) -> Vec<f32> {
        let mut listed: Vec<Option<f32>> = vec![None; parents.len()];
        for (i, name) in self.bones.iter().enumerate() {
            match bone(name) {
                Some(b) if b < listed.len() => {
                    let w = self.weights.get(i).copied().unwrap_or(1.0);
                    listed[b] = Some(if w.is_finite() { w.clamp(0.0, 1.0) } else { 0.0 });
                }
                _ => {
                    let warning = format!("mask bone \"{name}\" is not in the skeleton; it is ignored");
                    if !warnings.contains(&warning) {
                        warnings.push(warning);
                    }
                }
            }
        }
        if self.include_children {
            // Parents come first, so one pass hands each listed weight down to its descendants.
            for b in 0..listed.len() {
                if listed[b].is_none() {
                    if let Some(p) = parents[b] {
                        listed[b] = listed.get(p as usize).copied().flatten();
                    }
                }
            }
        }
        listed.into_iter().map(|w| w.unwrap_or(0.0)).collect()
    }
}
