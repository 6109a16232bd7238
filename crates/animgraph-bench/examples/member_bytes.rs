//! Where a GBot crowd member's memory goes: its slot in the crowd's `Vec`, its player's heap
//! (layers with their blend stacks, the event list, parameter values) and its backend's heap
//! (the pose's arrays, the clip-event list, inertial blending's storage), counted with
//! test-support's allocator. `cargo run --release -p animgraph-bench --example member_bytes`.

use animgraph_runtime::crowd::CrowdBackend;
use animgraph_test_support::counting::{PerThread, thread_allocations, thread_bytes};

#[global_allocator]
static GLOBAL: PerThread = PerThread;

fn main() {
    let store = animgraph_bench::gbot_store(1);
    let crowd = &store.crowd;
    let (bytes, allocations) = (thread_bytes(), thread_allocations());
    let player = animgraph_runtime::AnimationGraphPlayer::new(crowd.bound_graph().clone());
    let (player_bytes, player_allocations) = (thread_bytes() - bytes, thread_allocations() - allocations);
    let (bytes, allocations) = (thread_bytes(), thread_allocations());
    let backend = crowd.backend(0).member();
    let (backend_bytes, backend_allocations) = (thread_bytes() - bytes, thread_allocations() - allocations);
    let slot = std::mem::size_of_val(&crowd.members()[0]) as u64;
    println!(
        "slot in the crowd's Vec     {slot:>5} bytes (player {}, backend {})",
        size_of_val(&player),
        size_of_val(&backend)
    );
    println!("player heap                 {player_bytes:>5} bytes in {player_allocations} allocations");
    println!("backend heap                {backend_bytes:>5} bytes in {backend_allocations} allocations");
    println!("member                      {:>5} bytes", slot + player_bytes + backend_bytes);
    let pose = &backend.pose;
    let arrays = [
        ("bone channels", size_of_val(pose.channels.as_slice())),
        ("world transforms", size_of_val(&pose.world[..])),
        ("slot colours", size_of_val(&pose.colors[..])),
        ("attachments", size_of_val(&pose.attachments[..])),
        ("attachment keys", size_of_val(&pose.attachment_keys[..])),
        ("sequence frames", size_of_val(&pose.sequences[..])),
        ("active bones", size_of_val(&pose.active[..])),
        ("inherit modes", size_of_val(&pose.inherit[..])),
        ("draw order", size_of_val(&pose.draw_order[..])),
    ];
    for (name, bytes) in arrays {
        println!("  pose: {name:<20} {bytes:>5} bytes");
    }
}
