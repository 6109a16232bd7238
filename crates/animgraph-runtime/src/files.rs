//! Reading and writing files safely, once for every loader and saver in the workspace.
//!
//! - [`read_bounded`] / [`read_text`]: regular files only (devices such as `/dev/zero`, FIFOs
//!   and directories are refused before anything is read, so nothing blocks or fills memory),
//!   at most `limit` bytes (checked before and while reading).
//! - [`resolve_inside`]: a path named inside a file (a texture, a buffer, a clip library)
//!   resolved against that file's folder; absolute paths and paths that leave the folder, also
//!   through a symbolic link, are refused. The messages never echo the other file's contents or
//!   size.
//! - [`write_atomic`]: a temporary file in the target's folder, fsync, rename over the target,
//!   fsync of the folder; the target's permissions are kept, a symbolic link is written through
//!   to its target, and stale temporaries of this pattern left by killed writers are removed.

use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

fn refused(path: &Path, why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("{}: {why}", path.display()))
}

/// Reads a regular file of at most `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(refused(path, "not a regular file (a directory, device or FIFO); point it at a file"));
    }
    if meta.len() > limit {
        return Err(refused(path, &format!("{} bytes, more than the {limit} allowed", meta.len())));
    }
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(refused(path, &format!("grew past the {limit} bytes allowed while it was read")));
    }
    Ok(bytes)
}

/// [`read_bounded`] as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    let bytes = read_bounded(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        refused(
            path,
            &format!(
                "not UTF-8 text (bad byte at offset {}); save it as UTF-8",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Whether paths inside files may leave their file's folder (the user's choice:
/// `animgraph --allow-outside-paths`, the editor's `allow_outside_paths` setting).
static ALLOW_OUTSIDE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Lets paths named inside files (textures, buffers, clip libraries) leave the folder of the
/// file that names them, for this process. Special files and size limits still apply: those are
/// checked when reading.
pub fn allow_paths_outside(allow: bool) {
    ALLOW_OUTSIDE.store(allow, std::sync::atomic::Ordering::Relaxed);
}

/// Whether [`allow_paths_outside`] is on.
pub fn paths_outside_allowed() -> bool {
    ALLOW_OUTSIDE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Resolves `relative` (as named inside a file in `folder`) so that it stays inside `folder`,
/// unless [`allow_paths_outside`] was called.
pub fn resolve_inside(folder: &Path, relative: &Path) -> Result<PathBuf, String> {
    resolve_path(folder, relative, paths_outside_allowed())
}

/// [`resolve_inside`] with the choice given.
pub fn resolve_path(folder: &Path, relative: &Path, allow_outside: bool) -> Result<PathBuf, String> {
    if allow_outside {
        return Ok(folder.join(relative));
    }
    let shown = relative.display();
    let mut depth = 0usize;
    for part in relative.components() {
        match part {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir if depth > 0 => depth -= 1,
            _ => {
                return Err(format!(
                    "\"{shown}\" leaves the folder of the file that names it; keep it beside (or below) that file, or allow it (`animgraph --allow-outside-paths`, the editor's allow_outside_paths setting)"
                ));
            }
        }
    }
    let path = folder.join(relative);
    if let (Ok(real), Ok(root)) = (path.canonicalize(), folder.canonicalize())
        && !real.starts_with(&root)
    {
        return Err(format!(
            "\"{shown}\" links outside the folder of the file that names it; copy the file there instead"
        ));
    }
    Ok(path)
}

/// Stale temporaries older than this are removed by the next write of the same target.
const STALE_SECONDS: u64 = 60;

/// Writes `bytes` to `path` atomically (see the module docs): readers see the old content or
/// the new, whole, whenever the writer is killed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // Through a symbolic link to its target, so the link stays a link.
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    };
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?
        .to_string_lossy()
        .into_owned();
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let prefix = format!(".{name}.");
    remove_stale(&folder, &prefix);
    let temp = folder.join(format!("{prefix}{}.tmp", std::process::id()));
    let permissions = std::fs::metadata(&target).ok().map(|m| m.permissions());
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        if let Some(p) = &permissions {
            file.set_permissions(p.clone())?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, &target)?;
        // The rename itself is durable once the folder is synced (not possible everywhere).
        if let Ok(dir) = std::fs::File::open(&folder) {
            let _ = dir.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Removes `{prefix}{pid}.tmp` files older than [`STALE_SECONDS`] (a killed writer's).
fn remove_stale(folder: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(name) = file_name.to_str() else { continue };
        let Some(pid) = name.strip_prefix(prefix).and_then(|rest| rest.strip_suffix(".tmp")) else {
            continue;
        };
        if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() >= STALE_SECONDS);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = animgraph_test_support::scratch_dir(&format!("files-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn special_files_directories_and_oversized_files_are_refused_before_reading() {
        let dir = scratch("read");
        for special in [Path::new("/dev/zero"), Path::new("/dev/urandom"), dir.as_path()] {
            let e = read_bounded(special, 1 << 20).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
        let file = dir.join("big.txt");
        std::fs::write(&file, vec![b'a'; 100]).unwrap();
        assert!(
            read_bounded(&file, 99).unwrap_err().to_string().contains("100 bytes, more than the 99 allowed")
        );
        assert_eq!(read_text(&file, 100).unwrap().len(), 100);
        std::fs::write(&file, [0xFF, 0xFE]).unwrap();
        assert!(read_text(&file, 100).unwrap_err().to_string().contains("not UTF-8"));
    }

    #[test]
    fn named_paths_stay_in_the_naming_files_folder() {
        let dir = scratch("resolve");
        assert_eq!(resolve_inside(&dir, Path::new("tex/a.png")).unwrap(), dir.join("tex/a.png"));
        for bad in ["../x.png", "/etc/passwd", "a/../../b"] {
            let e = resolve_inside(&dir, Path::new(bad)).unwrap_err();
            assert!(e.contains("leaves the folder") && !e.contains("root:"), "{e}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/hostname", dir.join("link.png")).unwrap();
            assert!(resolve_inside(&dir, Path::new("link.png")).unwrap_err().contains("links outside"));
            // Allowed by the user, both resolve.
            assert!(resolve_path(&dir, Path::new("link.png"), true).is_ok());
            assert_eq!(resolve_path(&dir, Path::new("../x.png"), true).unwrap(), dir.join("../x.png"));
        }
    }

    #[cfg(unix)]
    #[test]
    fn atomic_writes_keep_permissions_follow_links_and_clean_stale_temporaries() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("write");
        let target = dir.join("graph.mres");
        std::fs::write(&target, "old").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.join("link.mres");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        // A killed writer's temporary, two minutes old.
        let stale = dir.join(".graph.mres.999999.tmp");
        std::fs::write(&stale, "half").unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
        std::fs::File::options().write(true).open(&stale).unwrap().set_modified(old).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o600);
        assert!(!stale.exists(), "the stale temporary is removed");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left.len(), 2, "{left:?}");
    }
}
