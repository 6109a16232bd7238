//! Batch updates across threads give exactly what updating one character after another gives.

use animgraph_runtime::animated::{Animated, update_all};
use animgraph_runtime::mres;
use animgraph_runtime::script::RecordingBackend;

#[test]
fn update_all_matches_serial_updates_bit_for_bit() {
    let path = format!("{}/../../assets/graphs/showcase.mres", env!("CARGO_MANIFEST_DIR"));
    let graph = mres::load_file(&path).unwrap().graph;
    let names = graph.clip_names();
    let clips: Vec<(&str, f32, bool)> =
        names.iter().enumerate().map(|(i, n)| (n.as_str(), 0.5 + i as f32 * 0.1, true)).collect();
    let first = Animated::new(RecordingBackend::with_clips(&clips), Some(&graph), 1).unwrap();
    let mut parallel: Vec<_> = (0..300).map(|_| first.instantiate()).collect();
    let mut serial: Vec<_> = (0..300).map(|_| first.instantiate()).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for frame in 0..120u32 {
        for (i, (a, b)) in parallel.iter_mut().zip(serial.iter_mut()).enumerate() {
            let speed = ((i as u32 * 7 + frame) % 300) as f32 / 75.0;
            a.player_mut().unwrap().set_float_by_name("speed", speed).unwrap();
            b.player_mut().unwrap().set_float_by_name("speed", speed).unwrap();
            if (i as u32 + frame) % 97 == 0 {
                a.player_mut().unwrap().fire_by_name("jump").unwrap();
                b.player_mut().unwrap().fire_by_name("jump").unwrap();
            }
        }
        pool.install(|| update_all(&mut parallel, 1.0 / 60.0));
        for b in &mut serial {
            b.update(1.0 / 60.0);
        }
        for (a, b) in parallel.iter().zip(&serial) {
            assert_eq!(a.buffer().samples(), b.buffer().samples(), "frame {frame}");
            assert_eq!(a.buffer().layers(), b.buffer().layers());
        }
    }
    let states: std::collections::BTreeSet<&str> =
        parallel.iter().map(|c| c.player().unwrap().current_state_path(0).unwrap()).collect();
    assert!(states.len() > 1, "the crowd is doing different things: {states:?}");
}
