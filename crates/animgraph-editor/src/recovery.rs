//! Autosave to recovery files, and the offer to recover them after a crash.
//!
//! Every [`INTERVAL`], each tab with unsaved edits that changed since its last autosave is
//! written (atomically, as one JSON file: the original path and the `.mres` text) to the
//! recovery folder beside the settings file (`.../animgraph/recovery/`). Saving, closing or
//! discarding a tab removes its file, and so does quitting (the editor's `Drop`), so a file left
//! behind means a session ended without quitting. At start the editor offers those of sessions
//! no longer running (the process id is in the file name) for recovery.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::document::Document;

/// How often dirty tabs are written.
pub const INTERVAL: Duration = Duration::from_secs(20);

/// A tab's recovery file key (unique within this run).
pub fn next_key() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What a recovery file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recovered {
    /// The file the edits belong to (`None`: an untitled graph).
    pub original: Option<PathBuf>,
    /// The graph with the unsaved edits, as `.mres` text.
    pub mres: String,
}

/// The recovery folder and the autosave clock.
#[derive(Debug)]
pub struct Recovery {
    /// Where recovery files go.
    pub dir: PathBuf,
    /// Time between autosaves.
    pub interval: Duration,
    last: Option<Instant>,
}

impl Recovery {
    /// Recovery files in `dir`, written every `interval`.
    pub fn new(dir: PathBuf, interval: Duration) -> Recovery {
        Recovery { dir, interval, last: None }
    }

    /// The recovery folder beside a settings file.
    pub fn beside(settings_file: &Path) -> Option<Recovery> {
        Some(Recovery::new(settings_file.parent()?.join("recovery"), INTERVAL))
    }

    /// Whether an autosave is due at `now` (and starts the next interval when it is).
    pub fn due(&mut self, now: Instant) -> bool {
        let due = self.last.is_none_or(|l| now.duration_since(l) >= self.interval);
        if due {
            self.last = Some(now);
        }
        due
    }

    /// The file of this run's tab `key`.
    pub fn file(&self, key: u64) -> PathBuf {
        self.dir.join(format!("{}-{key}.json", std::process::id()))
    }

    /// Writes a tab's recovery file.
    pub fn write(&self, key: u64, doc: &Document) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let recovered = Recovered {
            original: doc.path.clone(),
            mres: animgraph_runtime::mres::save_to_string(&doc.graph),
        };
        let text = serde_json::to_string(&recovered).map_err(|e| e.to_string())?;
        animgraph_runtime::mres::write_atomic(&self.file(key), text.as_bytes()).map_err(|e| e.to_string())
    }

    /// Removes a tab's recovery file (nothing when there is none).
    pub fn remove(&self, key: u64) {
        let _ = std::fs::remove_file(self.file(key));
    }

    /// Recovery files left by sessions that are no longer running.
    pub fn leftovers(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .filter(|p| {
                let pid = p.file_stem().and_then(|s| s.to_str()).and_then(|s| s.split('-').next());
                pid.and_then(|p| p.parse::<u32>().ok()).is_some_and(|pid| !running(pid))
            })
            .collect();
        files.sort();
        files
    }
}

/// Whether a process with this id runs (on Linux; elsewhere only this process counts).
fn running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    cfg!(target_os = "linux") && Path::new("/proc").join(pid.to_string()).exists()
}

/// Reads a recovery file into a document with the unsaved edits: belonging to the original
/// file, dirty (saving writes the edits there).
pub fn recover(file: &Path) -> Result<Document, String> {
    let text = animgraph_runtime::files::read_text(file, 64 << 20)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let recovered: Recovered = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let loaded = animgraph_runtime::mres::load_str_editable(&recovered.mres)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let name = recovered.original.as_ref().map_or("an untitled graph".into(), |p| p.display().to_string());
    let mut doc = Document::new(
        loaded.graph,
        recovered.original,
        format!("recovered unsaved edits of {name}; save to keep them"),
    );
    doc.mark_unsaved();
    Ok(doc)
}
