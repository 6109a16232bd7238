//! Watching a file for changes without a per-frame cost: a background thread looks at the
//! file's modification time and size a few times a second, and the caller reads one atomic
//! counter when it wants to know.
//!
//! Used by the editor (reload a graph changed on disk) and by games (hot reload: see
//! [`GraphFile`]).
//!
//! ```
//! use std::time::Duration;
//! let dir = std::env::temp_dir().join(format!("animgraph-watch-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("a.txt");
//! std::fs::write(&path, "one").unwrap();
//! let mut watch = animgraph_runtime::watch::FileWatch::new(&path, Duration::from_millis(10));
//! assert!(!watch.changed());
//! std::fs::write(&path, "two, longer").unwrap();
//! // The thread notices within a few intervals.
//! let deadline = std::time::Instant::now() + Duration::from_secs(5);
//! while !watch.changed() && std::time::Instant::now() < deadline {
//!     std::thread::sleep(Duration::from_millis(5));
//! }
//! assert!(watch.changed());
//! watch.acknowledge();
//! assert!(!watch.changed());
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use crate::graph::ValidGraph;
use crate::mres::{self, MresError};

/// How often [`FileWatch::new_default`] looks at the file.
pub const DEFAULT_INTERVAL: Duration = Duration::from_millis(250);

struct Shared {
    /// Bumped each time the thread sees the file's stamp change.
    generation: AtomicU64,
    stop: AtomicBool,
}

/// A file being watched. Dropping it stops the thread (within one interval).
pub struct FileWatch {
    path: PathBuf,
    shared: Arc<Shared>,
    seen: u64,
}

/// What the thread compares: modification time and length (`None` while the file is missing).
type Stamp = Option<(SystemTime, u64)>;

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

impl FileWatch {
    /// Starts watching `path`, looking every `interval`. The file need not exist yet: its
    /// appearance, change and removal are each a change.
    pub fn new(path: impl Into<PathBuf>, interval: Duration) -> FileWatch {
        let path = path.into();
        let shared = Arc::new(Shared { generation: AtomicU64::new(0), stop: AtomicBool::new(false) });
        let thread_shared = Arc::clone(&shared);
        let thread_path = path.clone();
        let mut last = stamp(&path);
        let spawned = std::thread::Builder::new().name("animgraph-watch".into()).spawn(move || {
            while !thread_shared.stop.load(Ordering::Relaxed) {
                std::thread::sleep(interval);
                let now = stamp(&thread_path);
                if now != last {
                    last = now;
                    thread_shared.generation.fetch_add(1, Ordering::Release);
                }
            }
        });
        // Without a thread (the platform refused one) the watch simply never reports.
        drop(spawned);
        FileWatch { path, shared, seen: 0 }
    }

    /// Starts watching with [`DEFAULT_INTERVAL`].
    pub fn new_default(path: impl Into<PathBuf>) -> FileWatch {
        FileWatch::new(path, DEFAULT_INTERVAL)
    }

    /// The watched path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file changed since the watch started or was last
    /// [acknowledged](Self::acknowledge). One atomic load: cheap enough for every frame.
    pub fn changed(&self) -> bool {
        self.shared.generation.load(Ordering::Acquire) != self.seen
    }

    /// Marks every change seen so far as handled.
    pub fn acknowledge(&mut self) {
        self.seen = self.shared.generation.load(Ordering::Acquire);
    }
}

impl Drop for FileWatch {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

/// A graph loaded from a file and watched for hot reload.
///
/// A game keeps one per graph file; once a frame (or less often) it calls
/// [`reload`](Self::reload), which costs one atomic load until the file changes. The file is
/// read and parsed on the watch thread, never the frame thread (a huge or slow file does not
/// stall a frame; devices, FIFOs and oversized files are refused by [`mres::read_text`]); a file
/// that fails to load (half-saved, broken by hand) is reported and the previous graph stays in
/// use, so a running game never loses its animation.
pub struct GraphFile {
    path: PathBuf,
    shared: Arc<GraphShared>,
    seen: u64,
    graph: ValidGraph,
    text: String,
    version: u64,
}

/// What the watch thread read last: the text and what it loaded to.
type Pending = (String, Result<ValidGraph, MresError>);

struct GraphShared {
    generation: AtomicU64,
    stop: AtomicBool,
    pending: std::sync::Mutex<Option<Pending>>,
}

impl Drop for GraphFile {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

/// What [`GraphFile::reload`] found.
#[derive(Debug)]
pub enum Reload<'g> {
    /// The file did not change (or changed back to the same text).
    Unchanged,
    /// The file changed and loaded: rebind players to this graph.
    Loaded(&'g ValidGraph),
    /// The file changed but does not load; the previous graph stays current.
    Failed(MresError),
}

fn read_and_load(path: &Path) -> Pending {
    match mres::read_text(path) {
        Ok(text) => {
            let loaded = mres::load_str(&text).map(|l| l.graph);
            (text, loaded)
        }
        Err(e) => (String::new(), Err(e)),
    }
}

impl GraphFile {
    /// Loads `path` and starts watching it.
    pub fn open(path: impl Into<PathBuf>) -> Result<GraphFile, MresError> {
        GraphFile::open_with_interval(path, DEFAULT_INTERVAL)
    }

    /// Loads `path` and watches it every `interval`.
    pub fn open_with_interval(path: impl Into<PathBuf>, interval: Duration) -> Result<GraphFile, MresError> {
        let path = path.into();
        // Stamp first, so a change between reading and watching is not missed.
        let mut last = stamp(&path);
        let text = mres::read_text(&path)?;
        let graph = mres::load_str(&text)?.graph;
        let shared = Arc::new(GraphShared {
            generation: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            pending: std::sync::Mutex::new(None),
        });
        let thread_shared = Arc::clone(&shared);
        let thread_path = path.clone();
        let spawned = std::thread::Builder::new().name("animgraph-reload".into()).spawn(move || {
            while !thread_shared.stop.load(Ordering::Relaxed) {
                std::thread::sleep(interval);
                let now = stamp(&thread_path);
                if now != last {
                    last = now;
                    let pending = read_and_load(&thread_path);
                    if let Ok(mut slot) = thread_shared.pending.lock() {
                        *slot = Some(pending);
                    }
                    thread_shared.generation.fetch_add(1, Ordering::Release);
                }
            }
        });
        // Without a thread (the platform refused one) the file simply never reloads.
        drop(spawned);
        Ok(GraphFile { path, shared, seen: 0, graph, text, version: 0 })
    }

    /// The current graph.
    pub fn graph(&self) -> &ValidGraph {
        &self.graph
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bumped each time a changed file loaded (the proposal's `Version`).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Takes what the watch thread loaded, if the file changed. See [`Reload`]. One atomic load
    /// while nothing changed; never reads or parses on the caller's thread.
    pub fn reload(&mut self) -> Reload<'_> {
        let generation = self.shared.generation.load(Ordering::Acquire);
        if generation == self.seen {
            return Reload::Unchanged;
        }
        self.seen = generation;
        let Some((text, loaded)) = self.shared.pending.lock().ok().and_then(|mut p| p.take()) else {
            return Reload::Unchanged;
        };
        if !text.is_empty() && text == self.text {
            return Reload::Unchanged;
        }
        match loaded {
            Ok(graph) => {
                self.text = text;
                self.graph = graph;
                self.version += 1;
                Reload::Loaded(&self.graph)
            }
            Err(e) => {
                // Remember the broken text so the same failure is reported once.
                if !text.is_empty() {
                    self.text = text;
                }
                Reload::Failed(e)
            }
        }
    }
}
