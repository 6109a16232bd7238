//! Time per character as the crowd grows, on one thread (the best of a few rounds, as the
//! machine may be shared): the rise past a few hundred characters is the cache. `cargo run
//! --release -p animgraph-bench --example crowd_scaling [rounds]`.

use std::time::Duration;

use animgraph_bench::quick::nanos_per_call;

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(3);
    let budget = Duration::from_millis(200);
    println!("characters   GBot ns each   Robot ns each");
    for n in [1usize, 10, 100, 300, 1000, 3000, 10_000, 30_000] {
        let mut gbots = animgraph_bench::Crowd::new(&animgraph_bench::gbot(), n);
        let mut robots = animgraph_bench::Crowd::new(&animgraph_bench::robot(), n);
        let (mut g, mut r) = (f64::MAX, f64::MAX);
        for _ in 0..rounds {
            g = g.min(nanos_per_call(budget, || gbots.update_serial()) / n as f64);
            r = r.min(nanos_per_call(budget, || robots.update_serial()) / n as f64);
        }
        println!("{n:>10} {g:>14.0} {r:>15.0}");
    }
}
