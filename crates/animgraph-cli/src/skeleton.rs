//! Loading a character for `render` and `simulate` (the rules live in `animgraph-character`);
//! what the loader noticed is printed as warnings.

use std::path::Path;

pub use animgraph_character::Character;

/// Loads a character, printing its warnings to stderr.
pub fn load(
    path: &Path,
    clip_map: Option<&Path>,
    libraries: &[std::path::PathBuf],
) -> Result<Character, String> {
    let loaded = Character::load_with_libraries(path, clip_map, libraries)?;
    for w in &loaded.warnings {
        eprintln!("{}: warning: {w}", path.display());
    }
    Ok(loaded.character)
}
