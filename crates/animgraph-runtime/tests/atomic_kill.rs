//! A writer killed (SIGKILL) at random moments never leaves a broken file: the target always
//! holds the old content or the new one, whole. The child is this test binary itself, started
//! with an environment variable that makes it write in a loop.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

const CHILD: &str = "ANIMGRAPH_ATOMIC_CHILD";
const SIZE: usize = 256 * 1024;

fn content(byte: u8) -> Vec<u8> {
    let mut v = vec![byte; SIZE];
    v.push(b'\n');
    v
}

#[test]
fn a_killed_writer_leaves_the_old_or_the_new_content_whole() {
    if let Some(target) = std::env::var_os(CHILD) {
        // The child: alternate two contents until killed.
        let target = PathBuf::from(target);
        for i in 0u64.. {
            animgraph_runtime::files::write_atomic(&target, &content(if i % 2 == 0 { b'a' } else { b'b' }))
                .unwrap();
        }
        return;
    }
    let dir = animgraph_test_support::scratch_dir("atomic-kill");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("graph.mres");
    animgraph_runtime::files::write_atomic(&target, &content(b'a')).unwrap();
    let mut seed = 0x5EEDu64;
    for round in 0..24 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "a_killed_writer_leaves_the_old_or_the_new_content_whole", "--nocapture"])
            .env(CHILD, &target)
            .spawn()
            .unwrap();
        // Wait until the child is writing (the content flips), so each kill lands mid-loop.
        let before = std::fs::read(&target).unwrap();
        let mut waited = 0;
        while std::fs::read(&target).unwrap() == before {
            assert!(waited < 20_000, "round {round}: the child never wrote");
            std::thread::sleep(Duration::from_millis(1));
            waited += 1;
        }
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        std::thread::sleep(Duration::from_micros((seed >> 33) % 20_000));
        child.kill().unwrap();
        child.wait().unwrap();
        let bytes = std::fs::read(&target).unwrap();
        assert!(
            bytes == content(b'a') || bytes == content(b'b'),
            "round {round}: {} bytes, not whole",
            bytes.len()
        );
    }
    // Temporaries of killed writers may remain until they are stale; a later write of the same
    // file removes stale ones (see the files module's tests), and none is ever the target.
    std::fs::remove_dir_all(&dir).unwrap();
}
