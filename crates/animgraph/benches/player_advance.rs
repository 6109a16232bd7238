//! `player_advance`: nanoseconds per `advance` on the example graphs, with parameters moving
//! so that blend weights, transitions and mixes all run.

use std::collections::BTreeMap;

use animgraph::graph::AnimationGraphPlayer;
use animgraph::mres;
use animgraph::script::{ClipSpec, RecordingBackend};
use divan::Bencher;

fn main() {
    divan::main();
}

fn graph(path: &str) -> animgraph::AnimationGraph {
    mres::load_file(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap().graph
}

fn backend(list: &[(&str, f32, bool)]) -> RecordingBackend {
    let clips: BTreeMap<String, ClipSpec> = list
        .iter()
        .map(|(n, l, looping)| (n.to_string(), ClipSpec { length: *l, looping: *looping }))
        .collect();
    RecordingBackend::new(&clips)
}

/// locomotion.mres: a 1D blend space (speed sweeping), a jump every 97 frames.
#[divan::bench(sample_count = 2000)]
fn locomotion(bencher: Bencher) {
    let graph = graph("../../assets/graphs/locomotion.mres");
    let mut b =
        backend(&[("idle", 2.0, true), ("walk", 0.708, true), ("run", 1.158, true), ("jump", 0.8, false)]);
    let mut player = AnimationGraphPlayer::new(&graph, &mut b).unwrap();
    let mut buffer = player.new_buffer();
    let speed = player.find_parameter("speed").unwrap();
    let jump = player.find_parameter("jump").unwrap();
    let mut frame = 0u32;
    bencher.bench_local(|| {
        frame = frame.wrapping_add(1);
        player.set_float(speed, ((frame % 600) as f32) * (4.5 / 600.0)).unwrap();
        if frame % 97 == 0 {
            player.fire(jump).unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
        divan::black_box(buffer.samples().len())
    });
}

/// Four clip layers with interruptible mixes (tests/scenarios/graphs/interrupt.mres).
#[divan::bench(sample_count = 2000)]
fn four_layers_interrupting(bencher: Bencher) {
    let graph = graph("tests/scenarios/graphs/interrupt.mres");
    let mut b =
        backend(&[("a", 1.0, true), ("b", 0.7, true), ("c", 1.3, true), ("d", 0.9, true), ("e", 1.1, true)]);
    let mut player = AnimationGraphPlayer::new(&graph, &mut b).unwrap();
    let mut buffer = player.new_buffer();
    let params: Vec<_> =
        ["gob", "goc", "god", "any"].iter().map(|n| player.find_parameter(n).unwrap()).collect();
    let mut frame = 0u32;
    bencher.bench_local(|| {
        frame = frame.wrapping_add(1);
        for (i, &p) in params.iter().enumerate() {
            player.set_bool(p, (frame / 5 + i as u32) % 9 == 0).unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
        divan::black_box(buffer.samples().len())
    });
}
