//! A quick run of every scenario (about a second each by default): what `animgraph bench`
//! prints, so anyone can measure their own machine.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::fixtures::*;

/// One figure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The scenario (`advance locomotion.mres`).
    pub scenario: String,
    /// The figure.
    pub value: f64,
    /// Its unit (`ns`, `us`, `ms`, `characters`, `allocations`, `bytes`).
    pub unit: String,
    /// What it means, or the target.
    pub note: String,
}

/// How long and how big.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Time spent measuring each scenario.
    pub budget: Duration,
    /// Characters in the crowd scenarios.
    pub crowd: usize,
    /// Threads for the parallel crowd (0: every core).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { budget: Duration::from_millis(700), crowd: 10_000, threads: 0 }
    }
}

/// Median nanoseconds per call of `f`, over batches of about a millisecond for `budget`.
pub fn nanos_per_call(budget: Duration, mut f: impl FnMut()) -> f64 {
    // Warm up, and find a batch size of about a millisecond.
    let mut batch = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..batch {
            f();
        }
        let took = start.elapsed();
        if took >= Duration::from_micros(500) || batch >= 1 << 20 {
            break;
        }
        batch *= 2;
    }
    let mut samples = Vec::new();
    let end = Instant::now() + budget;
    while Instant::now() < end || samples.len() < 5 {
        let start = Instant::now();
        for _ in 0..batch {
            f();
        }
        samples.push(start.elapsed().as_nanos() as f64 / batch as f64);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[samples.len() / 2]
}

fn row(scenario: &str, value: f64, unit: &str, note: &str) -> Row {
    Row { scenario: scenario.into(), value, unit: unit.into(), note: note.into() }
}

/// Runs every scenario; `allocations` reads the caller's allocation counter (a binary's
/// counting allocator), or returns 0 when it has none.
pub fn run(options: &Options, allocations: &dyn Fn() -> u64, mut progress: impl FnMut(&str)) -> Vec<Row> {
    let budget = options.budget;
    let mut rows = Vec::new();

    progress("bind");
    for (name, g) in [
        ("locomotion.mres", graph("graphs/locomotion.mres")),
        ("showcase.mres", graph("graphs/showcase.mres")),
        ("generated 500 states", big_graph(500)),
    ] {
        let mut backend = backend_for(&g);
        let ns = nanos_per_call(budget, || {
            std::hint::black_box(animgraph_runtime::AnimationGraphPlayer::bind(&g, &mut backend).unwrap());
        });
        rows.push(row(&format!("bind {name}"), ns / 1000.0, "us", "once per graph version"));
    }

    progress("advance");
    for (name, file, note) in [
        ("locomotion.mres", "graphs/locomotion.mres", "target < 150 ns"),
        ("showcase.mres", "graphs/showcase.mres", "3 layers, sub-machine, 1D and 2D spaces"),
        ("gbot.mres", "characters/gbot/gbot.mres", "3 layers"),
        ("robot.mres", "characters/robot/robot.mres", "2 layers"),
    ] {
        let mut busy = Busy::new(&graph(file));
        let ns = nanos_per_call(budget, || busy.step());
        rows.push(row(&format!("advance {name}"), ns, "ns", note));
    }

    progress("apply");
    {
        let mut c = gbot();
        let mut inputs = Busy::with_player(animgraph_runtime::AnimationGraphPlayer::new(
            c.player().unwrap().bound_graph().clone(),
        ));
        for _ in 0..90 {
            inputs.drive();
            c.update(1.0 / 60.0);
        }
        let (samples, layers) = (c.buffer().samples().to_vec(), c.buffer().layers().to_vec());
        let ns = nanos_per_call(budget, || {
            animgraph_runtime::PoseBackend::apply(&mut c.backend, &samples, &layers)
        });
        rows.push(row(
            "apply GBot (16 bones)",
            ns,
            "ns",
            &format!("{} samples, {} layers", samples.len(), layers.len()),
        ));
        let mut r = robot();
        for _ in 0..90 {
            r.update(1.0 / 60.0);
        }
        let (samples, layers) = (r.buffer().samples().to_vec(), r.buffer().layers().to_vec());
        let ns = nanos_per_call(budget, || {
            animgraph_runtime::PoseBackend::apply(&mut r.backend, &samples, &layers)
        });
        rows.push(row(
            "apply Robot (43 joints)",
            ns,
            "ns",
            &format!("{} samples, {} layers", samples.len(), layers.len()),
        ));
        let mut one = Crowd::new(&robot(), 1);
        let ns = nanos_per_call(budget, || one.update_serial());
        rows.push(row("update one Robot (advance + apply)", ns / 1000.0, "us", "target < 3 us"));
    }

    progress("motion quality");
    {
        // Transitions every 20 frames, so a 0.3 s blend is always running.
        let mut per_blend = Vec::new();
        for blend in ["Inertial", "Crossfade"] {
            let mut c = robot_two_states(blend);
            let (go, back) = {
                let p = c.player().unwrap();
                (p.find_parameter("go").unwrap(), p.find_parameter("back").unwrap())
            };
            let mut frame = 0u32;
            let ns = nanos_per_call(budget, || {
                frame += 1;
                match frame % 40 {
                    0 => c.player_mut().unwrap().fire(go).unwrap(),
                    20 => c.player_mut().unwrap().fire(back).unwrap(),
                    _ => {}
                }
                c.update(1.0 / 60.0);
            });
            per_blend.push(ns);
            rows.push(row(
                &format!("update Robot, {} transitions always blending", blend.to_lowercase()),
                ns / 1000.0,
                "us",
                "Walking <-> Punch every 20 frames, 0.3 s",
            ));
        }
        if let [inertial, crossfade] = per_blend[..] {
            rows.push(row("inertial / crossfade cost", inertial / crossfade, "x", "same graph, same inputs"));
        }
        let mut per_sync = Vec::new();
        for markers in [true, false] {
            let mut c = robot_markers(markers);
            let speed = c.player().unwrap().find_parameter("speed").unwrap();
            c.player_mut().unwrap().set_float(speed, 2.7).unwrap();
            let ns = nanos_per_call(budget, || c.update(1.0 / 60.0));
            per_sync.push(ns);
            let name = if markers { "SyncMarkers" } else { "SyncTime" };
            rows.push(row(
                &format!("update Robot, walk/run blend with {name}"),
                ns / 1000.0,
                "us",
                "speed 2.7",
            ));
        }
        if let [markers, time] = per_sync[..] {
            rows.push(row("SyncMarkers / SyncTime cost", markers / time, "x", "same graph otherwise"));
        }
    }

    progress("crowds");
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    };
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    let all_threads = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
    let n = options.crowd;
    for (name, serial_ms, parallel_ms) in [
        {
            let mut crowd = Crowd::new(&gbot(), n);
            let s = one_thread.install(|| nanos_per_call(budget, || crowd.update_parallel())) / 1e6;
            let p = all_threads.install(|| nanos_per_call(budget, || crowd.update_parallel())) / 1e6;
            ("GBot", s, p)
        },
        {
            let mut crowd = Crowd::new(&robot(), n);
            let s = one_thread.install(|| nanos_per_call(budget, || crowd.update_parallel())) / 1e6;
            let p = all_threads.install(|| nanos_per_call(budget, || crowd.update_parallel())) / 1e6;
            ("Robot", s, p)
        },
    ] {
        rows.push(row(&format!("update {n} {name}s, 1 thread"), serial_ms, "ms", "per frame"));
        rows.push(row(
            &format!("{name}s per 16.6 ms frame, 1 thread"),
            (n as f64 * 16.6 / serial_ms).floor(),
            "characters",
            "separate Animated characters",
        ));
        rows.push(row(
            &format!("update {n} {name}s, {threads} threads"),
            parallel_ms,
            "ms",
            &format!("{:.2}x one thread", serial_ms / parallel_ms),
        ));
        rows.push(row(
            &format!("{name}s per 16.6 ms frame, {threads} threads"),
            (n as f64 * 16.6 / parallel_ms).floor(),
            "characters",
            "",
        ));
    }

    progress("crowd store");
    {
        // The crowd store (animgraph_runtime::crowd): per character as the crowd grows (one
        // thread), what each member costs in memory (heap requested spawning it, counted while
        // the binary's allocator is test-support's PerThread; 0 otherwise), threads, and LOD.
        use animgraph_test_support::counting::{thread_allocations, thread_bytes};
        let mut per_size = Vec::new();
        for n in [100usize, 1_000, 10_000, 30_000] {
            let mut crowd = gbot_store(0);
            let (bytes, allocations) = (thread_bytes(), thread_allocations());
            crowd.crowd.reserve(n);
            for _ in 0..n {
                crowd.crowd.spawn();
            }
            let bytes = (thread_bytes() - bytes) as f64 / n as f64;
            let allocations = (thread_allocations() - allocations) as f64 / n as f64;
            let ns = nanos_per_call(budget, || crowd.update_serial()) / n as f64;
            per_size.push(ns);
            rows.push(row(&format!("crowd store: {n} GBots, 1 thread"), ns, "ns/character", ""));
            if n == 10_000 {
                rows.push(row(
                    "crowd store: GBots per 16.6 ms frame, 1 thread",
                    (16.6e6 / ns).floor(),
                    "characters",
                    "target 20,000",
                ));
                let p = all_threads.install(|| nanos_per_call(budget, || crowd.update_parallel())) / n as f64;
                rows.push(row(
                    &format!("crowd store: GBots per 16.6 ms frame, {threads} threads"),
                    (16.6e6 / p).floor(),
                    "characters",
                    &format!("{:.2}x one thread (target 1.9x)", ns / p),
                ));
            }
            if n == 1_000 {
                rows.push(row(
                    "crowd store: memory per GBot",
                    bytes,
                    "bytes",
                    "heap per member; target < 2,048",
                ));
                rows.push(row("crowd store: allocations per GBot", allocations, "allocations", "per member"));
            }
        }
        if let (Some(first), Some(last)) = (per_size.first(), per_size.last()) {
            rows.push(row(
                "crowd store: 30,000 / 100 GBots per character",
                last / first,
                "x",
                "target <= 1.3",
            ));
        }
        {
            let n = 10_000;
            let mut crowd = robot_store(n);
            let ns = nanos_per_call(budget, || crowd.update_serial()) / n as f64;
            rows.push(row(
                "crowd store: Robots per 16.6 ms frame, 1 thread",
                (16.6e6 / ns).floor(),
                "characters",
                &format!("target 12,000; {ns:.0} ns each"),
            ));
            let p = all_threads.install(|| nanos_per_call(budget, || crowd.update_parallel())) / n as f64;
            rows.push(row(
                &format!("crowd store: Robots per 16.6 ms frame, {threads} threads"),
                (16.6e6 / p).floor(),
                "characters",
                &format!("{:.2}x one thread", ns / p),
            ));
        }
        {
            // Mixed LOD: every 10th GBot at full rate, the others posed every 4th frame.
            let n = 30_000;
            let mut crowd = gbot_store(n);
            for i in (0..n).filter(|i| i % 10 != 0) {
                crowd.crowd.set_lod(i, 4);
            }
            let ns = nanos_per_call(budget, || crowd.update_serial()) / n as f64;
            rows.push(row(
                "crowd store: mixed-LOD GBots per 16.6 ms frame, 1 thread",
                (16.6e6 / ns).floor(),
                "characters",
                &format!("10 % every frame, 90 % every 4th; {n} measured; target 50,000"),
            ));
        }
    }

    progress("net");
    {
        let state = net_state();
        let mut bytes = Vec::with_capacity(256);
        let ns = nanos_per_call(budget, || {
            bytes.clear();
            animgraph_runtime::net::encode(&state, None, &mut bytes);
        });
        rows.push(row("net encode (GBot, 3 layers)", ns, "ns", &format!("{} bytes", bytes.len())));
        let ns = nanos_per_call(budget, || {
            std::hint::black_box(animgraph_runtime::net::decode(&bytes, None).unwrap());
        });
        rows.push(row("net decode", ns, "ns", ""));
    }

    progress("allocations");
    {
        let mut g = Crowd::new(&gbot(), 8);
        let mut r = Crowd::new(&robot(), 8);
        for _ in 0..10 {
            g.update_serial();
            r.update_serial();
        }
        let before = allocations();
        for _ in 0..1000 {
            g.update_serial();
            r.update_serial();
        }
        let per_frame = (allocations() - before) as f64 / 1000.0;
        rows.push(row("allocations per frame (8 GBots + 8 Robots)", per_frame, "allocations", "target 0"));
        let mut store = gbot_store(64);
        for i in 0..64 {
            store.crowd.set_lod(i, 1 + (i % 4) as u8);
        }
        for _ in 0..10 {
            store.update_serial();
        }
        let before = allocations();
        for _ in 0..1000 {
            store.update_serial();
        }
        let per_frame = (allocations() - before) as f64 / 1000.0;
        rows.push(row(
            "allocations per frame (crowd store, 64 GBots, LOD 1-4)",
            per_frame,
            "allocations",
            "target 0",
        ));
    }
    rows
}
