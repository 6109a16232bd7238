//! The name half of [`PoseBackend`](super::PoseBackend) that every skeleton backend shares:
//! clip names (with aliases) to clip ids, and bone masks resolved to per-bone weights.

use std::collections::HashMap;

use super::{BoneMask, ClipId, MaskId};

/// Clip names to clip indices, with aliases (so one graph drives skeletons whose clips are named
/// differently, e.g. `walk` -> `Walking`). A name given twice names the later clip.
#[derive(Clone, Debug, Default)]
pub struct ClipNames {
    index: HashMap<String, usize>,
}

impl ClipNames {
    /// Clip `i` is named `names[i]`.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut clips = ClipNames::default();
        for (i, name) in names.into_iter().enumerate() {
            clips.insert(name, i);
        }
        clips
    }

    /// Names clip `index` (replacing what the name named before).
    pub fn insert(&mut self, name: &str, index: usize) {
        self.index.insert(name.to_string(), index);
    }

    /// The clip with this name (or alias).
    pub fn get(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// [`PoseBackend::resolve_clip`](super::PoseBackend::resolve_clip) for a backend whose clip
    /// ids are these indices.
    pub fn resolve(&self, name: &str) -> Option<ClipId> {
        self.get(name).map(|i| ClipId(i as u32))
    }

    /// Adds another name for a clip. Returns false when `clip` does not exist.
    pub fn alias(&mut self, alias: &str, clip: &str) -> bool {
        match self.get(clip) {
            Some(i) => {
                self.insert(alias, i);
                true
            }
            None => false,
        }
    }
}

/// Bone masks a backend has resolved, by [`MaskId`], with the warnings resolving them raised.
#[derive(Clone, Debug, Default)]
pub struct ResolvedMasks {
    /// Per mask, each bone's weight (0: excluded).
    masks: Vec<Vec<f32>>,
    warnings: Vec<String>,
}

impl ResolvedMasks {
    /// [`PoseBackend::resolve_mask`](super::PoseBackend::resolve_mask): `bone` finds a bone by
    /// name, `parents` is the skeleton's hierarchy (for `IncludeChildren`). Unknown bones are
    /// warned about once each and ignored.
    pub fn resolve(
        &mut self,
        mask: &BoneMask,
        bone: impl Fn(&str) -> Option<usize>,
        parents: &[Option<u16>],
    ) -> MaskId {
        let on = mask.resolve(bone, parents, &mut self.warnings);
        self.masks.push(on);
        MaskId(self.masks.len() as u32 - 1)
    }

    /// A resolved mask: each bone's weight, 0 for a bone it excludes (see [`BoneMask::resolve`]).
    pub fn get(&self, mask: MaskId) -> Option<&[f32]> {
        self.masks.get(mask.0 as usize).map(Vec::as_slice)
    }

    /// Warnings from resolving masks (unknown bone names, each once).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_name_the_same_clip_and_unknown_clips_cannot_be_aliased() {
        let mut clips = ClipNames::new(["idle", "walk"]);
        assert!(clips.alias("Walking", "walk"));
        assert!(!clips.alias("Run", "run"));
        assert_eq!(clips.resolve("Walking"), Some(ClipId(1)));
        assert_eq!(clips.resolve("Run"), None);
    }

    #[test]
    fn masks_resolve_by_name_with_children_and_warn_once_per_unknown_bone() {
        let parents = [None, Some(0), Some(1)];
        let names = ["root", "arm", "hand"];
        let bone = |n: &str| names.iter().position(|b| *b == n);
        let mut masks = ResolvedMasks::default();
        let mask = BoneMask::new(vec!["arm".into(), "tail".into()], true);
        let a = masks.resolve(&mask, bone, &parents);
        let b = masks.resolve(&mask, bone, &parents);
        assert_eq!(masks.get(a), Some(&[0.0, 1.0, 1.0][..]));
        assert_ne!(a, b);
        assert_eq!(masks.warnings().len(), 1, "{:?}", masks.warnings());
    }

    #[test]
    fn weighted_masks_hand_weights_down_to_unlisted_children() {
        // root > spine > arm > hand, root > leg
        let parents = [None, Some(0), Some(1), Some(2), Some(0)];
        let names = ["root", "spine", "arm", "hand", "leg"];
        let bone = |n: &str| names.iter().position(|b| *b == n);
        let mut masks = ResolvedMasks::default();
        let mask =
            BoneMask { weights: vec![0.5, 1.0], ..BoneMask::new(vec!["spine".into(), "arm".into()], true) };
        let id = masks.resolve(&mask, bone, &parents);
        // hand takes its nearest listed ancestor's (arm's) weight, not spine's; leg is outside.
        assert_eq!(masks.get(id), Some(&[0.0, 0.5, 1.0, 1.0, 0.0][..]));
        let alone = BoneMask { include_children: false, ..mask.clone() };
        let id = masks.resolve(&alone, bone, &parents);
        assert_eq!(masks.get(id), Some(&[0.0, 0.5, 1.0, 0.0, 0.0][..]));
        // A listed 0 excludes the bone and, under IncludeChildren, what hangs below it.
        let zero = BoneMask { weights: vec![0.0], ..BoneMask::new(vec!["arm".into()], true) };
        let id = masks.resolve(&zero, bone, &parents);
        assert_eq!(masks.get(id), Some(&[0.0; 5][..]));
    }
}
