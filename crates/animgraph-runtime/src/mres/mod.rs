//! The `.mres` file format: load and save [`AnimationGraph`]s.
//!
//! The container is the proposal's: `format` (2), `uid`, `type` (`"AnimationGraph"`), a
//! `resources` table of `id -> {type, props}`, and the root's own `props`. A property that holds
//! a sub-resource is either a reference `{"res": "id"}` or the sub-resource inline
//! (`{"type": ..., "props": ...}`). Property names are the C# names (PascalCase), enums are
//! strings, vectors are `[x, y]`, and a missing property takes its default.
//!
//! Loading collects every problem, each located at a resource id and property path with the line
//! where that resource starts. Unknown properties are warnings (forward compatibility) and are
//! dropped on save. Saving writes each resource once, one per line, in a stable order with
//! deterministic ids, so a file we saved loads and saves back byte for byte.
//!
//! ```
//! let text = r#"{ "format": 2, "uid": "res_1", "type": "AnimationGraph",
//!   "resources": {
//!     "s_idle": { "type": "ClipState", "props": { "Name": "Idle", "Clip": "idle" } },
//!     "m_base": { "type": "GraphMachine", "props": { "Entry": "Idle", "States": [ { "res": "s_idle" } ] } },
//!     "l_base": { "type": "GraphLayer", "props": { "Name": "Base", "Machine": { "res": "m_base" } } }
//!   },
//!   "props": { "Layers": [ { "res": "l_base" } ] } }"#;
//! let loaded = animgraph_runtime::mres::load_str(text).unwrap();
//! assert_eq!(loaded.graph.layers[0].machine.entry, "Idle");
//! let saved = animgraph_runtime::mres::save_to_string(&loaded.graph);
//! assert_eq!(animgraph_runtime::mres::load_str(&saved).unwrap().graph, loaded.graph);
//! ```

pub mod container;
mod diagnostic;
mod load;
mod save;

use std::path::{Path, PathBuf};

pub use diagnostic::{Diagnostic, Severity};
pub use load::{Location, MAX_FILE_BYTES, Origins, load_str, load_str_editable, load_str_located};
pub use save::save_to_string;

use crate::graph::{AnimationGraph, ValidGraph};

pub use container::FORMAT_VERSION;

/// A graph that loaded, with any warnings found on the way: a [`ValidGraph`] (ready to bind)
/// from [`load_str`] and [`load_file`], a plain [`AnimationGraph`] (which may break semantic
/// rules) from the editable loaders.
#[derive(Clone, Debug)]
pub struct Loaded<G = ValidGraph> {
    /// The graph.
    pub graph: G,
    /// Non-fatal findings (unknown properties, unused resources, likely mistakes).
    pub warnings: Vec<Diagnostic>,
}

/// Why a `.mres` file could not be loaded or saved.
#[derive(Debug, thiserror::Error)]
pub enum MresError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file could not be written.
    #[error("cannot write {path}: {source}; nothing was changed")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file was read but is not a valid graph: every error and warning found.
    #[error("{}", list(.0))]
    Invalid(Vec<Diagnostic>),
}

impl MresError {
    /// The diagnostics of an invalid file (empty for I/O errors).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            MresError::Invalid(d) => d,
            _ => &[],
        }
    }

    /// Only the errors of an invalid file.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics().iter().filter(|d| d.is_error())
    }
}

fn list(diagnostics: &[Diagnostic]) -> String {
    let lines: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
    lines.join("\n")
}

/// Loads a graph from a file.
pub fn load_file(path: impl AsRef<Path>) -> Result<Loaded, MresError> {
    load_str(&read_text(path.as_ref())?)
}

/// Loads a graph from a file for editing (see [`load_str_editable`]): semantic errors are
/// returned with the graph instead of refusing it.
pub fn load_file_editable(path: impl AsRef<Path>) -> Result<Loaded<AnimationGraph>, MresError> {
    load_str_editable(&read_text(path.as_ref())?)
}

/// Reads a `.mres` file as text, refusing files over [`MAX_FILE_BYTES`], special files and
/// non-UTF-8 bytes (see [`crate::files::read_text`]).
pub fn read_text(path: &Path) -> Result<String, MresError> {
    let size =
        std::fs::metadata(path).map_err(|source| MresError::Read { path: path.to_path_buf(), source })?.len();
    if size > MAX_FILE_BYTES as u64 {
        return Err(MresError::Invalid(vec![load::too_large(size as usize)]));
    }
    crate::files::read_text(path, MAX_FILE_BYTES as u64).map_err(|e| {
        if e.kind() == std::io::ErrorKind::InvalidInput {
            MresError::Invalid(vec![Diagnostic { message: e.to_string(), ..Diagnostic::default() }])
        } else {
            MresError::Read { path: path.to_path_buf(), source: e }
        }
    })
}

/// Saves a graph to a file atomically: the text goes to a temporary file beside it, which then
/// replaces the target, so a crash or full disk never leaves a half-written graph.
pub fn save_file(graph: &AnimationGraph, path: impl AsRef<Path>) -> Result<(), MresError> {
    write_atomic(path.as_ref(), save_to_string(graph).as_bytes())
}

/// [`crate::files::write_atomic`] with the error naming the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), MresError> {
    crate::files::write_atomic(path, bytes)
        .map_err(|source| MresError::Write { path: path.to_path_buf(), source })
}

/// A fresh resource uid (`res_` and 12 hex digits) for a new graph. Editors and the live link
/// identify graphs by uid, so a new graph needs one that no other graph has: it comes from the
/// standard library's per-process random hash keys, the time and a counter.
pub fn new_uid() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    hasher.write_u128(nanos);
    hasher.write_u32(std::process::id());
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    format!("res_{:012x}", hasher.finish() & 0xffff_ffff_ffff)
}
