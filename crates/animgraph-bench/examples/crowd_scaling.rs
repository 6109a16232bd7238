//! Time per character as the crowd grows, on one thread (the best of a few rounds, as the
//! machine may be shared), in the crowd store and as separate `Animated` characters: the rise
//! past a few hundred characters is the cache. `cargo run --release -p animgraph-bench
//! --example crowd_scaling [rounds]`.

use std::time::Duration;

use animgraph_bench::quick::nanos_per_call;

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(3);
    let budget = Duration::from_millis(200);
    println!("characters   GBot ns each (store / Animated)   Robot ns each (store / Animated)");
    for n in [1usize, 10, 100, 300, 1000, 3000, 10_000, 30_000] {
        let mut gbots = animgraph_bench::gbot_store(n);
        let mut robots = animgraph_bench::robot_store(n);
        let mut gbots_apart = animgraph_bench::Crowd::new(&animgraph_bench::gbot(), n);
        let mut robots_apart = animgraph_bench::Crowd::new(&animgraph_bench::robot(), n);
        let [mut g, mut r, mut ga, mut ra] = [f64::MAX; 4];
        for _ in 0..rounds {
            g = g.min(nanos_per_call(budget, || gbots.update_serial()) / n as f64);
            ga = ga.min(nanos_per_call(budget, || gbots_apart.update_serial()) / n as f64);
            r = r.min(nanos_per_call(budget, || robots.update_serial()) / n as f64);
            ra = ra.min(nanos_per_call(budget, || robots_apart.update_serial()) / n as f64);
        }
        println!("{n:>10} {g:>14.0} / {ga:<14.0} {r:>15.0} / {ra:<14.0}");
    }
}
