//! The benchmark suite: `cargo bench -p animgraph-bench`. Every scenario comes from
//! `animgraph_bench::fixtures`, the same ones `animgraph bench` runs.

use animgraph_bench::*;
use animgraph_runtime::PoseBackend;
use divan::Bencher;

fn main() {
    divan::main();
}

mod bind {
    use super::*;

    fn bind(bencher: Bencher, g: animgraph_runtime::AnimationGraph) {
        let mut backend = backend_for(&g);
        bencher.bench_local(|| animgraph_runtime::AnimationGraphPlayer::bind(&g, &mut backend).unwrap());
    }

    #[divan::bench(sample_count = 100, sample_size = 20)]
    fn locomotion(b: Bencher) {
        bind(b, graph("graphs/locomotion.mres"));
    }

    #[divan::bench(sample_count = 100, sample_size = 10)]
    fn showcase(b: Bencher) {
        bind(b, graph("graphs/showcase.mres"));
    }

    #[divan::bench(sample_count = 30, sample_size = 2)]
    fn generated_500_states(b: Bencher) {
        bind(b, big_graph(500));
    }
}

mod advance {
    use super::*;

    fn advance(bencher: Bencher, file: &str) {
        let mut busy = Busy::new(&graph(file));
        bencher.bench_local(|| busy.step());
    }

    #[divan::bench(sample_count = 500, sample_size = 200)]
    fn locomotion(b: Bencher) {
        advance(b, "graphs/locomotion.mres");
    }

    #[divan::bench(sample_count = 500, sample_size = 200)]
    fn showcase(b: Bencher) {
        advance(b, "graphs/showcase.mres");
    }

    #[divan::bench(sample_count = 500, sample_size = 200)]
    fn gbot(b: Bencher) {
        advance(b, "characters/gbot/gbot.mres");
    }

    #[divan::bench(sample_count = 500, sample_size = 200)]
    fn robot(b: Bencher) {
        advance(b, "characters/robot/robot.mres");
    }
}

mod apply {
    use super::*;

    fn apply<B: PoseBackend>(bencher: Bencher, mut c: animgraph_runtime::animated::Animated<B>) {
        for _ in 0..90 {
            c.update(1.0 / 60.0);
        }
        let (samples, layers) = (c.buffer().samples().to_vec(), c.buffer().layers().to_vec());
        bencher.bench_local(|| c.backend.apply(&samples, &layers));
    }

    #[divan::bench(sample_count = 500, sample_size = 100)]
    fn gbot(b: Bencher) {
        apply(b, animgraph_bench::gbot());
    }

    #[divan::bench(sample_count = 500, sample_size = 100)]
    fn robot(b: Bencher) {
        apply(b, animgraph_bench::robot());
    }
}

mod update {
    use super::*;

    #[divan::bench(sample_count = 300, sample_size = 50)]
    fn one_robot(b: Bencher) {
        let mut crowd = Crowd::new(&robot(), 1);
        b.bench_local(|| crowd.update_serial());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn gbots_10000_one_thread(b: Bencher) {
        let mut crowd = Crowd::new(&gbot(), 10_000);
        b.bench_local(|| crowd.update_serial());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn gbots_10000_all_threads(b: Bencher) {
        let mut crowd = Crowd::new(&gbot(), 10_000);
        b.bench_local(|| crowd.update_parallel());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn robots_10000_one_thread(b: Bencher) {
        let mut crowd = Crowd::new(&robot(), 10_000);
        b.bench_local(|| crowd.update_serial());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn robots_10000_all_threads(b: Bencher) {
        let mut crowd = Crowd::new(&robot(), 10_000);
        b.bench_local(|| crowd.update_parallel());
    }
}

/// The crowd store (`animgraph_runtime::crowd`): GBots as the crowd grows (one thread, one
/// frame of the whole crowd per iteration), two threads, and a mixed-LOD crowd.
mod crowd_store {
    use super::*;

    #[divan::bench(args = [100, 1_000, 10_000, 30_000], sample_count = 10, sample_size = 1)]
    fn gbots_one_thread(b: Bencher, n: usize) {
        let mut crowd = gbot_store(n);
        b.bench_local(|| crowd.update_serial());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn gbots_10000_all_threads(b: Bencher) {
        let mut crowd = gbot_store(10_000);
        b.bench_local(|| crowd.update_parallel());
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn robots_10000_one_thread(b: Bencher) {
        let mut crowd = robot_store(10_000);
        b.bench_local(|| crowd.update_serial());
    }

    /// Every 10th GBot every frame, the others posed every 4th frame.
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn gbots_30000_mixed_lod(b: Bencher) {
        let mut crowd = gbot_store(30_000);
        for i in (0..30_000).filter(|i| i % 10 != 0) {
            crowd.crowd.set_lod(i, 4);
        }
        b.bench_local(|| crowd.update_serial());
    }
}

mod net {
    use super::*;

    #[divan::bench(sample_count = 500, sample_size = 200)]
    fn encode(b: Bencher) {
        let state = net_state();
        let mut bytes = Vec::with_capacity(256);
        b.bench_local(|| {
            bytes.clear();
            animgraph_runtime::net::encode(&state, None, &mut bytes);
        });
    }

    #[divan::bench(sample_count = 500, sample_size = 200)]
    fn decode(b: Bencher) {
        let mut bytes = Vec::new();
        animgraph_runtime::net::encode(&net_state(), None, &mut bytes);
        b.bench_local(|| animgraph_runtime::net::decode(&bytes, None).unwrap());
    }
}
