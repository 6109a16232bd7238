//! Hot reload: a watched graph file reloads when it changes, and a broken save leaves the
//! running graph in place.

use std::time::{Duration, Instant};

use animgraph_runtime::mres;
use animgraph_runtime::watch::{FileWatch, GraphFile, Reload};

fn scratch(name: &str) -> std::path::PathBuf {
    animgraph_test_support::scratch_dir(&format!("watch-{name}"))
}

fn locomotion() -> animgraph_runtime::AnimationGraph {
    let path = format!("{}/../../assets/graphs/locomotion.mres", env!("CARGO_MANIFEST_DIR"));
    mres::load_file(&path).unwrap().graph.into_graph()
}

/// Polls until `f` gives something, or fails after 10 s.
fn eventually<T>(mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "nothing happened within 10 s");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_watch_reports_appearance_change_and_removal() {
    let dir = scratch("events");
    let path = dir.join("later.txt");
    let mut watch = FileWatch::new(&path, Duration::from_millis(5));
    assert!(!watch.changed());
    std::fs::write(&path, "hello").unwrap();
    eventually(|| watch.changed().then_some(()));
    watch.acknowledge();
    assert!(!watch.changed());
    std::fs::remove_file(&path).unwrap();
    eventually(|| watch.changed().then_some(()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_graph_file_reloads_changes_and_keeps_the_old_graph_when_a_save_is_broken() {
    let dir = scratch("graph");
    let path = dir.join("g.mres");
    let original = locomotion();
    mres::save_file(&original, &path).unwrap();
    let mut file = GraphFile::open_with_interval(&path, Duration::from_millis(5)).unwrap();
    assert_eq!(file.graph(), &original);
    assert!(matches!(file.reload(), Reload::Unchanged));

    let mut edited = original.clone();
    edited.default_mix = 0.4;
    mres::save_file(&edited, &path).unwrap();
    let reloaded = eventually(|| match file.reload() {
        Reload::Loaded(g) => Some(g.clone()),
        Reload::Unchanged => None,
        Reload::Failed(e) => panic!("{e}"),
    });
    assert_eq!(reloaded, edited);
    assert_eq!(file.version(), 1);

    // Half a file: reported once, the edited graph stays current.
    let text = mres::save_to_string(&original);
    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    let error = eventually(|| match file.reload() {
        Reload::Failed(e) => Some(e),
        Reload::Unchanged => None,
        Reload::Loaded(_) => panic!("a broken file loaded"),
    });
    assert!(!error.to_string().is_empty());
    assert_eq!(file.graph(), &edited);
    assert_eq!(file.version(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A FIFO or a link to a device at the watched path is refused on the watch thread: the game's
/// `reload` never blocks or reads without end, and the running graph stays.
#[cfg(unix)]
#[test]
fn special_files_at_the_watched_path_are_refused_off_the_frame_thread() {
    let dir = scratch("special");
    let path = dir.join("g.mres");
    let original = locomotion();
    mres::save_file(&original, &path).unwrap();
    let mut file = GraphFile::open_with_interval(&path, Duration::from_millis(5)).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(std::process::Command::new("mkfifo").arg(&path).status().unwrap().success());
    let error = eventually(|| match file.reload() {
        Reload::Failed(e) => Some(e.to_string()),
        _ => None,
    });
    assert!(error.contains("not a regular file"), "{error}");
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    let error = eventually(|| match file.reload() {
        Reload::Failed(e) => Some(e.to_string()),
        _ => None,
    });
    assert!(error.contains("not a regular file"), "{error}");
    assert_eq!(file.graph(), &original, "the running graph stays");
    std::fs::remove_dir_all(&dir).unwrap();
}
