//! Test helpers every animgraph crate's tests share, kept out of the runtime so a game that
//! links it gets none of them:
//!
//! - [`conformance`]: the layering-contract suite (a neutral three-bone rig, named cases with
//!   expected values) that every [`PoseBackend`](animgraph_runtime::PoseBackend) runs;
//! - [`counting`]: a global allocator that counts allocations, per thread and in all, for the
//!   zero-allocation tests and `animgraph bench`;
//! - [`RecordingBackend`]: a backend that poses nothing and keeps the last frame's samples (it
//!   is also the clip-timing backend `animgraph simulate` runs scripts on, so it lives with the
//!   script runner in the runtime's `tools` feature and is re-exported here);
//! - [`scratch_dir`]: a folder for a test's files that the next test run removes.

pub mod conformance;
pub mod counting;
pub mod crowd;
pub mod graphs;

pub use animgraph_runtime::script::{ClipSpec, RecordingBackend};

/// A folder for a test's files: `<temp>/animgraph-tests/<process id>/<name>`, created (the same
/// folder for the same name within a process). The first call in a process removes the folders of earlier test processes that have
/// ended, so files a test leaves behind (a failing one, or one that keeps them to look at) last
/// until the next run instead of piling up.
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    let root = std::env::temp_dir().join("animgraph-tests");
    SWEPT.call_once(|| sweep(&root));
    let dir = root.join(std::process::id().to_string()).join(name);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// Removes the folders under `root` named after processes that no longer run (on systems with
/// `/proc`; elsewhere nothing is removed).
fn sweep(root: &std::path::Path) {
    if !std::path::Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(root) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if pid != std::process::id() && !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    /// A scratch folder exists and is under this process's folder; the folder of a process
    /// that has ended is swept on the first call.
    #[test]
    fn scratch_dirs_are_fresh_and_ended_runs_are_swept() {
        let root = std::env::temp_dir().join("animgraph-tests");
        // A pid far above any live one (Linux caps pids at 2^22).
        let stale = root.join("4999999").join("left-behind");
        std::fs::create_dir_all(&stale).unwrap();
        let dir = super::scratch_dir("fresh");
        assert!(dir.is_dir());
        assert!(dir.starts_with(root.join(std::process::id().to_string())));
        if std::path::Path::new("/proc/self").exists() {
            assert!(!stale.exists(), "the ended run's folder is still there");
        }
    }
}
