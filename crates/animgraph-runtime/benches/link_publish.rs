//! How long `LinkServer::publish` takes per frame, as percentiles (a game cares about the worst
//! frames): nobody attached, a healthy editor attached, and an editor that never reads.
//! `cargo bench -p animgraph --bench link_publish`.

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use animgraph_runtime::link::{LinkClient, LinkServer};
use animgraph_runtime::script::RecordingBackend;
use animgraph_runtime::{AnimationGraphPlayer, mres};

const FRAMES: usize = 20_000;

fn player() -> (String, AnimationGraphPlayer) {
    let path = format!("{}/../../assets/characters/gbot/gbot.mres", env!("CARGO_MANIFEST_DIR"));
    let graph = mres::load_file(&path).unwrap().graph;
    let clips: Vec<(&str, f32, bool)> = graph
        .clip_names()
        .iter()
        .map(|c| (Box::leak(c.clone().into_boxed_str()) as &str, 1.0, true))
        .collect();
    let mut backend = RecordingBackend::with_clips(&clips);
    let player = AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    (graph.uid.clone(), player)
}

fn percentiles(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize].as_nanos();
    println!(
        "{name:<34} p50 {:>7} ns   p99 {:>7} ns   p99.9 {:>8} ns   max {:>9} ns",
        at(0.5),
        at(0.99),
        at(0.999),
        times.last().unwrap().as_nanos()
    );
}

fn run(name: &str, server: &LinkServer, id: u32, player: &mut AnimationGraphPlayer) {
    let mut buffer = player.new_buffer();
    let speed = player.find_parameter("speed").unwrap();
    let mut times = Vec::with_capacity(FRAMES);
    for frame in 0..FRAMES {
        player.set_float(speed, (frame % 300) as f32 / 100.0).unwrap();
        player.advance(1.0 / 60.0, &mut buffer);
        let start = Instant::now();
        server.publish(id, player);
        times.push(start.elapsed());
    }
    percentiles(name, times);
}

fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return; // `cargo test --benches` / `--list`: nothing to list
    }
    let (uid, mut player) = player();
    let server = LinkServer::bind(SocketAddr::from(([127, 0, 0, 1], 0)), "bench").unwrap();
    let id = server.register("GBot", &player, &uid, None);
    run("nobody attached", &server, id, &mut player);

    let mut healthy = LinkClient::connect(server.local_addr(), Duration::from_secs(5)).unwrap();
    healthy.attach(id).unwrap();
    while !server.is_attached(id) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let reader = std::thread::spawn(move || {
        let mut frames = 0usize;
        while let Some(e) = healthy.next(Duration::from_millis(500)) {
            if matches!(
                e,
                animgraph_runtime::link::ClientEvent::Message(
                    animgraph_runtime::link::ServerMessage::Frame { .. }
                )
            ) {
                frames += 1;
            }
        }
        frames
    });
    run("a reading editor attached", &server, id, &mut player);
    let before = server.stats();

    let mut stalled = TcpStream::connect(server.local_addr()).unwrap();
    let hello =
        format!("{{\"type\":\"hello\",\"protocol\":{}}}\n", animgraph_runtime::link::PROTOCOL_VERSION);
    stalled.write_all(hello.as_bytes()).unwrap();
    stalled.write_all(format!("{{\"type\":\"attach\",\"instance\":{id}}}\n").as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    run("+ an editor that never reads", &server, id, &mut player);
    let after = server.stats();
    println!(
        "lines queued {}, dropped {} (the stalled editor's queue overflowing)",
        after.sent - before.sent,
        after.dropped
    );
    drop(server);
    println!("the reading editor received {} frames", reader.join().unwrap());
}
