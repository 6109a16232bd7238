//! The skeleton chosen for a graph tab: its bones (for the mask picker), its clips (for clip
//! fields and the live player's timing) and the character itself (for the preview).

use std::path::{Path, PathBuf};

use animgraph_character::{Bone, Character, Clip};

/// A loaded skeleton, as the editor uses it.
#[derive(Clone)]
pub struct CharacterInfo {
    /// The file.
    pub path: PathBuf,
    /// Its file name, for labels.
    pub name: String,
    /// Bones or joints, parents first.
    pub bones: Vec<Bone>,
    /// Clips with lengths.
    pub clips: Vec<Clip>,
    /// The character.
    pub character: Character,
    /// What loading it noticed.
    pub warnings: Vec<String>,
    /// Clip libraries whose clips were added (glTF skeletons only).
    pub libraries: Vec<PathBuf>,
}

impl CharacterInfo {
    /// Loads a `.mskel`, `.glb` or `.gltf` file.
    pub fn load(path: &Path) -> Result<CharacterInfo, String> {
        CharacterInfo::load_with(path, &[])
    }

    /// Loads a skeleton with clip libraries (glTF files whose joints match it by name).
    pub fn load_with(path: &Path, libraries: &[PathBuf]) -> Result<CharacterInfo, String> {
        let loaded = Character::load_with_libraries(path, None, libraries)?;
        let name =
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        Ok(CharacterInfo {
            path: path.to_path_buf(),
            name,
            bones: loaded.character.bones(),
            clips: loaded.character.clips(),
            character: loaded.character,
            warnings: loaded.warnings,
            libraries: libraries.to_vec(),
        })
    }

    /// What lint checks against: clip and bone names.
    pub fn facts(&self) -> animgraph_runtime::lint::SkeletonFacts {
        animgraph_runtime::lint::SkeletonFacts {
            clips: self.clips.iter().map(|c| c.name.clone()).collect(),
            bones: self.bones.iter().map(|b| b.name.clone()).collect(),
            marked_clips: self.clips.iter().filter(|c| c.markers > 0).map(|c| c.name.clone()).collect(),
        }
    }

    /// How deep a bone sits (roots are 0).
    pub fn depth(&self, bone: usize) -> usize {
        let mut depth = 0;
        let mut at = self.bones.get(bone).and_then(|b| b.parent);
        while let Some(p) = at {
            depth += 1;
            if depth > self.bones.len() {
                break; // parents come first, so this cannot loop; stay safe anyway
            }
            at = self.bones.get(p).and_then(|b| b.parent);
        }
        depth
    }

    /// The nearest ancestor of `bone` that `mask` names, when the mask includes children: the
    /// bone is in the mask through it.
    pub fn included_through(&self, bone: usize, mask: &animgraph_runtime::BoneMask) -> Option<&str> {
        if !mask.include_children {
            return None;
        }
        let mut at = self.bones.get(bone).and_then(|b| b.parent);
        let mut steps = 0;
        while let Some(p) = at {
            let parent = self.bones.get(p)?;
            if mask.bones.contains(&parent.name) {
                return Some(&parent.name);
            }
            steps += 1;
            if steps > self.bones.len() {
                return None;
            }
            at = parent.parent;
        }
        None
    }

    /// The clips a graph names that this skeleton lacks.
    pub fn missing_clips(&self, graph: &animgraph_runtime::AnimationGraph) -> Vec<String> {
        let mut missing: Vec<String> =
            graph.clip_names().into_iter().filter(|n| !self.clips.iter().any(|c| &c.name == n)).collect();
        missing.sort();
        missing.dedup();
        missing
    }
}
