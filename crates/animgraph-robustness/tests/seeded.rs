//! The short version of every fuzz target: a few thousand seeded mutations of the bundled
//! assets per loader, none of which may panic, and enough of which load that the mutations
//! reach past the parsers. (`cargo fuzz run <target>` in `fuzz/` searches further.)

use animgraph_robustness::{mutate, seeds::seeds, targets};

/// Runs `count` inputs of a target and checks both outcomes happen.
fn check(name: &str, count: usize, seed: u64) {
    let (_, target) = targets::ALL.iter().find(|(n, _)| *n == name).expect("a target of that name");
    let inputs = seeds(name);
    for (i, input) in inputs.iter().enumerate() {
        assert!(target(input), "{name}: seed {i} is not accepted");
    }
    let accepted = mutate::run(name, &inputs, count, seed, target);
    assert!(accepted > inputs.len() && accepted < count, "{name}: {accepted} of {count} accepted");
}

#[test]
fn mres_load() {
    check("mres_load", 3000, 0x3E5);
}

#[test]
fn mskel_load() {
    check("mskel_load", 2000, 0x5CE1);
}

#[test]
fn spine_import() {
    check("spine_import", 3000, 0x5917E);
}

#[test]
fn spine_atlas() {
    check("spine_atlas", 2000, 0xA71A5);
}

#[test]
fn godot_import() {
    check("godot_import", 2000, 0x60D07);
}

#[test]
fn gltf_import() {
    check("gltf_import", 600, 0x617F);
}

#[test]
fn script_parse() {
    check("script_parse", 3000, 0x5C217);
}

#[test]
fn recording_load() {
    check("recording_load", 2000, 0x2EC);
}

#[test]
fn markers_load() {
    check("markers_load", 3000, 0x3A7);
}

#[test]
fn clip_map_load() {
    check("clip_map_load", 3000, 0xC11);
}

#[test]
fn net_receive() {
    check("net_receive", 5000, 0x7E7);
}

#[test]
fn link_from_editor() {
    check("link_from_editor", 5000, 0x11E);
}

#[test]
fn link_from_game() {
    check("link_from_game", 3000, 0x6A3E);
}

#[test]
fn every_target_is_tested_here() {
    let source = include_str!("seeded.rs");
    for (name, _) in targets::ALL {
        assert!(source.contains(&format!("fn {name}()")), "no seeded test for {name}");
    }
}
