//! The editor's own settings, kept out of `.mres` files: recent files and the skeleton chosen for
//! each graph. Stored as JSON at `$ANIMGRAPH_EDITOR_SETTINGS`, else
//! `$XDG_CONFIG_HOME/animgraph/editor.json`, else `~/.config/animgraph/editor.json`; written
//! atomically. A missing or unreadable file means defaults (the problem is reported, never fatal).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Most recent files kept.
pub const RECENT_LIMIT: usize = 10;

/// What the editor remembers between runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Recently opened or saved graphs, newest first.
    pub recent: Vec<PathBuf>,
    /// The preview skeleton chosen per graph file.
    pub skeletons: BTreeMap<PathBuf, PathBuf>,
    /// Clip libraries added to a glTF skeleton, per skeleton file.
    pub clip_libraries: BTreeMap<PathBuf, Vec<PathBuf>>,
    /// Let paths inside files (textures, glTF buffers) leave their file's folder (off: a file
    /// cannot make the editor read elsewhere). Applied when the settings load.
    pub allow_outside_paths: bool,
    /// The command the debug panel's Play runs.
    pub game_command: String,
    /// Where the settings live (`None`: not saved, as in tests).
    #[serde(skip)]
    pub file: Option<PathBuf>,
}

/// The default settings file.
pub fn default_file() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ANIMGRAPH_EDITOR_SETTINGS") {
        return Some(PathBuf::from(p));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("animgraph").join("editor.json"))
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

impl Settings {
    /// Loads settings from `file`; returns defaults and a message when it cannot be read.
    pub fn load(file: Option<PathBuf>) -> (Settings, Option<String>) {
        let Some(path) = file else { return (Settings::default(), None) };
        let mut settings = match animgraph_runtime::files::read_text(&path, 1 << 20) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Settings::default(),
            Err(e) => {
                let message = format!("cannot read settings {}: {e}; using defaults", path.display());
                return (Settings { file: Some(path), ..Default::default() }, Some(message));
            }
            Ok(text) => match serde_json::from_str(&text) {
                Ok(s) => s,
                Err(e) => {
                    let message = format!("settings {} are not valid ({e}); using defaults", path.display());
                    return (Settings { file: Some(path), ..Default::default() }, Some(message));
                }
            },
        };
        settings.file = Some(path);
        (settings, None)
    }

    /// Writes the settings (atomically) when they have a file.
    pub fn save(&self) -> Result<(), String> {
        let Some(path) = &self.file else { return Ok(()) };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        animgraph_runtime::mres::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
    }

    /// Puts `path` first in the recent list.
    pub fn add_recent(&mut self, path: &Path) {
        let path = canonical(path);
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_LIMIT);
    }

    /// The skeleton remembered for a graph file.
    pub fn skeleton_for(&self, graph: &Path) -> Option<&PathBuf> {
        self.skeletons.get(&canonical(graph))
    }

    /// The clip libraries remembered for a skeleton file.
    pub fn libraries_for(&self, skeleton: &Path) -> Vec<PathBuf> {
        self.clip_libraries.get(&canonical(skeleton)).cloned().unwrap_or_default()
    }

    /// Remembers a skeleton's clip libraries (none forgets them).
    pub fn set_libraries(&mut self, skeleton: &Path, libraries: &[PathBuf]) {
        if libraries.is_empty() {
            self.clip_libraries.remove(&canonical(skeleton));
        } else {
            self.clip_libraries.insert(canonical(skeleton), libraries.iter().map(|l| canonical(l)).collect());
        }
    }

    /// Remembers the skeleton for a graph file.
    pub fn set_skeleton(&mut self, graph: &Path, skeleton: &Path) {
        self.skeletons.insert(canonical(graph), canonical(skeleton));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_recent_files_stay_unique_newest_first() {
        let dir = animgraph_test_support::scratch_dir("settings");
        let file = dir.join("nested/editor.json");
        let (mut s, message) = Settings::load(Some(file.clone()));
        assert_eq!(message, None);
        for i in 0..12 {
            s.add_recent(&dir.join(format!("{i}.mres")));
        }
        s.add_recent(&dir.join("5.mres"));
        assert_eq!(s.recent.len(), RECENT_LIMIT);
        assert_eq!(s.recent[0], dir.join("5.mres"));
        assert_eq!(s.recent.iter().filter(|p| p.ends_with("5.mres")).count(), 1);
        s.set_skeleton(&dir.join("5.mres"), &dir.join("gbot.mskel"));
        s.save().unwrap();
        let (back, message) = Settings::load(Some(file.clone()));
        assert_eq!(message, None);
        assert_eq!(back, s);
        assert_eq!(back.skeleton_for(&dir.join("5.mres")), Some(&dir.join("gbot.mskel")));
        // A broken file gives defaults and says so.
        std::fs::write(&file, "{ not json").unwrap();
        let (broken, message) = Settings::load(Some(file));
        assert!(broken.recent.is_empty());
        assert!(message.unwrap().contains("not valid"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
