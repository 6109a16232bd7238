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

    /// Which bones of a skeleton the mask includes: `bone(name)` finds a bone's index, `parents`
    /// lists each bone's parent (parents before children). Unknown names are added to `warnings`
    /// once each and ignored. The one place the IncludeChildren rule lives, for every backend.
    pub fn resolve(
        &self,
        bone: impl Fn(&str) -> Option<usize>,
        parents: &[Option<u16>],
        warnings: &mut Vec<String>,
    ) -> Vec<bool> {
        let mut on = vec![false; parents.len()];
        for name in &self.bones {
            match bone(name) {
                Some(b) if b < on.len() => on[b] = true,
                _ => {
                    let warning = format!("mask bone \"{name}\" is not in the skeleton; it is ignored");
                    if !warnings.contains(&warning) {
                        warnings.push(warning);
                    }
                }
            }
        }
        if self.include_children {
            // Parents come first, so one pass marks every descendant.
            for b in 0..on.len() {
                if let Some(p) = parents[b] {
                    on[b] |= on[p as usize];
                }
            }
        }
        on
    }
}
