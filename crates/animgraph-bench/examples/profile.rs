//! A fixed amount of work for profilers (`perf record`, `valgrind --tool=callgrind`):
//! `cargo run --release -p animgraph-bench --example profile -- gbot|robot|gbot-store|gbot-lod4|robot-store|synthetic [frames] [characters]`
//! (`-store`: the crowd store; `gbot-lod4`: the crowd store with every character at LOD 4).

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "gbot".into());
    let frames: u32 = std::env::args().nth(2).and_then(|f| f.parse().ok()).unwrap_or(300);
    let characters: usize = std::env::args().nth(3).and_then(|f| f.parse().ok()).unwrap_or(2000);
    match which.as_str() {
        "gbot" => {
            let mut crowd = animgraph_bench::Crowd::new(&animgraph_bench::gbot(), characters);
            for _ in 0..frames {
                crowd.update_serial();
            }
        }
        "gbot-store" | "gbot-lod4" => {
            let mut crowd = animgraph_bench::gbot_store(characters);
            if which == "gbot-lod4" {
                for i in 0..characters {
                    crowd.crowd.set_lod(i, 4);
                }
            }
            for _ in 0..frames {
                crowd.update_serial();
            }
        }
        "robot-store" => {
            let mut crowd = animgraph_bench::robot_store(characters);
            for _ in 0..frames {
                crowd.update_serial();
            }
        }
        "robot" => {
            let mut crowd = animgraph_bench::Crowd::new(&animgraph_bench::robot(), characters);
            for _ in 0..frames {
                crowd.update_serial();
            }
        }
        #[cfg(feature = "peer")]
        "synthetic" => {
            let data = animgraph_bench::peer::synthetic();
            let mut ours: Vec<_> = (0..200).map(|_| animgraph_bench::peer::Ours::new(&data)).collect();
            for _ in 0..frames {
                for o in &mut ours {
                    o.step();
                }
            }
        }
        #[cfg(feature = "peer")]
        "ours1" => {
            let data = animgraph_bench::peer::synthetic();
            let mut ours = animgraph_bench::peer::Ours::new(&data);
            for _ in 0..frames {
                ours.step();
            }
        }
        #[cfg(feature = "peer")]
        "fyrox1" => {
            let data = animgraph_bench::peer::synthetic();
            let mut peer = animgraph_bench::peer::Fyrox::new(&data);
            for _ in 0..frames {
                peer.step();
            }
        }
        other => eprintln!("unknown scenario {other}; use gbot, robot or (with --features peer) synthetic"),
    }
}
