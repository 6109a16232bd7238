//! Two processes replicating GBot's graph over UDP on 127.0.0.1.
//!
//! ```sh
//! cargo run -p animgraph-cli --example net_udp -- remote 127.0.0.1:40001
//! cargo run -p animgraph-cli --example net_udp -- authority 127.0.0.1:40001
//! ```
//!
//! The authority runs `gbot.mres` from `gbot.script.json` (one network tick per frame, 30 per
//! second; `--fast` skips the sleeping) and sends a snapshot each tick (a delta once the remote
//! acknowledged one). The remote applies what arrives and acknowledges it. Both print one line
//! per tick they know, `tick N: Base=... UpperBody=... Breathing=...`, so the remote's lines can
//! be checked against the authority's. Only loopback addresses are accepted.

use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::time::{Duration, Instant};

use animgraph_2d::{Skeleton2D, Skeleton2DData, Skeleton2DPoseBackend};
use animgraph_runtime::graph::AnimationGraphPlayer;
use animgraph_runtime::net::{Authority, Received, Remote};
use animgraph_runtime::script::{Script, Simulation};

fn character() -> (animgraph_runtime::graph::ValidGraph, Skeleton2DPoseBackend, Script) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/gbot");
    let graph = animgraph_runtime::mres::load_file(format!("{root}/gbot.mres")).expect("gbot.mres").graph;
    let skeleton = Skeleton2D::new(Skeleton2DData::load(format!("{root}/gbot.mskel")).expect("gbot.mskel"))
        .expect("valid");
    let script = Script::parse(&std::fs::read_to_string(format!("{root}/gbot.script.json")).expect("script"))
        .expect("valid");
    (graph, Skeleton2DPoseBackend::new(Arc::new(skeleton)), script)
}

fn line(player: &AnimationGraphPlayer) -> String {
    let layers: Vec<String> = (0..player.layer_count())
        .map(|l| {
            let mix = player
                .transition_target(l)
                .map(|t| format!("->{}", player.state_path(t)))
                .unwrap_or_default();
            format!(
                "{}={}{mix}",
                player.layer_name(l).unwrap_or("?"),
                player.current_state_path(l).unwrap_or("?")
            )
        })
        .collect();
    format!("tick {}: {}", player.tick(), layers.join(" "))
}

fn loopback(text: &str) -> SocketAddr {
    let addr: SocketAddr =
        text.parse().unwrap_or_else(|_| panic!("{text} is not an address like 127.0.0.1:40001"));
    assert!(addr.ip().is_loopback(), "this example only talks to 127.0.0.1");
    addr
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fast = args.iter().any(|a| a == "--fast");
    match (args.first().map(String::as_str), args.get(1)) {
        (Some("authority"), Some(remote)) => authority(loopback(remote), fast),
        (Some("remote"), Some(bind)) => remote(loopback(bind)),
        _ => eprintln!("usage: net_udp remote 127.0.0.1:PORT | net_udp authority 127.0.0.1:PORT [--fast]"),
    }
}

fn authority(remote: SocketAddr, fast: bool) {
    let (graph, backend, script) = character();
    let fps = script.fps;
    let mut simulation = Simulation::new(&graph, &script, backend).expect("binds");
    let socket = UdpSocket::bind("127.0.0.1:0").expect("bind");
    socket.set_nonblocking(true).expect("non-blocking");
    let mut authority = Authority::default();
    let mut bytes = Vec::new();
    let mut ack = [0u8; 16];
    while !simulation.done() {
        simulation.step().expect("script runs");
        authority.snapshot(&mut simulation.player, &mut bytes);
        let _ = socket.send_to(&bytes, remote);
        while let Ok((n, _)) = socket.recv_from(&mut ack) {
            if n == 8 {
                authority.ack(u64::from_le_bytes(ack[..8].try_into().expect("8 bytes")));
            }
        }
        println!("{} ({} bytes)", line(&simulation.player), bytes.len());
        if !fast {
            std::thread::sleep(Duration::from_secs_f32(1.0 / fps));
        } else {
            std::thread::sleep(Duration::from_micros(300));
        }
    }
}

fn remote(bind: SocketAddr) {
    let (graph, mut backend, script) = character();
    let mut player = AnimationGraphPlayer::bind(&graph, &mut backend).expect("binds");
    let socket = UdpSocket::bind(bind).expect("bind");
    println!("listening on {}", socket.local_addr().expect("address"));
    socket.set_read_timeout(Some(Duration::from_millis(100))).expect("timeout");
    let mut remote = Remote::default();
    let mut packet = [0u8; 2048];
    let mut last = Instant::now();
    let delta = 1.0 / script.fps;
    loop {
        match socket.recv_from(&mut packet) {
            Ok((n, from)) => {
                last = Instant::now();
                match remote.receive(&packet[..n], &mut player, delta) {
                    Ok(Received::Applied(tick)) => {
                        let _ = socket.send_to(&tick.to_le_bytes(), from);
                        println!("{}", line(&player));
                        if tick >= script.frames as u64 {
                            break;
                        }
                    }
                    Ok(Received::Stale(_)) => {}
                    Err(e) => eprintln!("dropped a packet: {e}"),
                }
            }
            Err(_) if last.elapsed() > Duration::from_secs(5) => break,
            Err(_) => {}
        }
    }
    eprintln!("remote done: {} stale packets, {} without baseline", remote.stale, remote.missing_baseline);
}
