//! After bind, `advance` (and parameter writes, by id or by name, and travel) allocate nothing.
//! A counting global allocator, counting per thread so the parallel test harness cannot disturb it.

use animgraph_test_support::counting::{PerThread, thread_allocations};

use animgraph_runtime::graph::{AnimationGraphPlayer, GraphEvent, ParamId};
use animgraph_runtime::mres;
use animgraph_runtime::script::RecordingBackend;
use animgraph_test_support::graphs::LOCOMOTION_CLIPS;

#[global_allocator]
static GLOBAL: PerThread = PerThread;

fn allocations() -> usize {
    thread_allocations() as usize
}

fn graph(path: &str) -> animgraph_runtime::AnimationGraph {
    mres::load_file(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap().graph.into_graph()
}

fn backend(clips: &[(&str, f32, bool)]) -> RecordingBackend {
    RecordingBackend::with_clips(clips)
}

/// `locomotion.mres` bound on its clips, a buffer, and its `speed` and `jump` parameters.
fn locomotion() -> (AnimationGraphPlayer, animgraph_runtime::SampleBuffer, ParamId, ParamId) {
    let graph = graph("../../assets/graphs/locomotion.mres");
    let player = AnimationGraphPlayer::bind(&graph, &mut backend(LOCOMOTION_CLIPS)).unwrap();
    let buffer = player.new_buffer();
    let (speed, jump) = (player.find_parameter("speed").unwrap(), player.find_parameter("jump").unwrap());
    (player, buffer, speed, jump)
}

#[test]
fn ten_thousand_busy_frames_allocate_nothing() {
    // The recording backend's own `apply` records into growing vectors, so it is not called
    // here: this test measures the player.
    let (mut player, mut buffer, speed, jump) = locomotion();

    let interrupt = graph("tests/scenarios/graphs/interrupt.mres");
    let mut b2 =
        backend(&[("a", 1.0, true), ("b", 0.7, true), ("c", 1.3, true), ("d", 0.9, true), ("e", 1.1, false)]);
    let mut busy = AnimationGraphPlayer::bind(&interrupt, &mut b2).unwrap();
    let mut busy_buffer = busy.new_buffer();

    let nested = graph("tests/scenarios/graphs/nested.mres");
    let mut b3 =
        backend(&[("idle", 1.0, true), ("walk", 0.8, true), ("fall", 0.5, true), ("hurt", 0.4, false)]);
    let mut inner = AnimationGraphPlayer::bind(&nested, &mut b3).unwrap();
    let mut inner_buffer = inner.new_buffer();

    let before = allocations();
    let mut events = 0usize;
    let mut samples = 0usize;
    for frame in 0..10_000u32 {
        let x = (frame as f32 * 0.013).sin() * 3.0 + 2.0;
        player.set_float(speed, x).unwrap();
        if frame % 97 == 0 {
            player.fire(jump).unwrap();
        }
        if frame % 333 == 0 {
            player.set_float_by_name("speed", 1.0).unwrap();
            player.travel(0, "Jump").unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);

        for (i, name) in ["gob", "goc", "god", "any"].iter().enumerate() {
            busy.set_bool_by_name(name, (frame / 3 + i as u32) % 7 == 0).unwrap();
        }
        busy.advance(1.0 / 30.0, &mut busy_buffer);

        inner.set_float_by_name("speed", if frame % 200 < 100 { 1.0 } else { 0.0 }).unwrap();
        inner.set_bool_by_name("grounded", frame % 150 < 120).unwrap();
        if frame % 411 == 0 {
            inner.fire_by_name("hurt").unwrap();
        }
        inner.advance(1.0 / 60.0, &mut inner_buffer);

        events += player.events().len() + busy.events().len() + inner.events().len();
        samples += buffer.samples().len() + busy_buffer.samples().len() + inner_buffer.samples().len();
    }
    let after = allocations();
    // The script must really have been busy.
    assert!(events > 1000, "only {events} events");
    assert!(samples > 50_000, "only {samples} samples");
    assert_eq!(after - before, 0, "advance allocated {} times", after - before);
}

#[test]
fn the_counter_counts() {
    let before = allocations();
    let v: Vec<u64> = Vec::with_capacity(10);
    drop(v);
    assert_eq!(allocations() - before, 1);
}

#[test]
fn showcase_with_code_tracks_allocates_nothing() {
    use animgraph_runtime::tracks::{AnimationTracks, TrackClip};
    use animgraph_runtime::{ClipBlend, PoseBackend, SampleBuffer};
    let showcase = graph("../../assets/graphs/showcase.mres");
    let names = [
        "idle",
        "idle_fidget",
        "walk_slow",
        "walk",
        "run",
        "aim_idle",
        "strafe_forward",
        "strafe_back",
        "strafe_left",
        "strafe_right",
        "jump",
        "fall",
        "land",
        "hurt",
        "die",
        "arms_relaxed",
        "aim",
        "shoot",
        "breathe",
        "wave",
    ];
    let list: Vec<(&str, f32, bool)> =
        names.iter().enumerate().map(|(i, n)| (*n, 0.3 + i as f32 * 0.07, i % 4 != 1)).collect();
    let mut b = backend(&list);
    let mut player = AnimationGraphPlayer::bind(&showcase, &mut b).unwrap();
    let mut tracks = AnimationTracks::new(2, player.layer_count());
    let mut buffer = SampleBuffer::with_capacity(
        player.sample_capacity() + tracks.sample_capacity(),
        player.layer_count() + 2,
    );
    let (wave_id, breathe_id) = (b.resolve_clip("wave").unwrap(), b.resolve_clip("breathe").unwrap());
    let (wave, breathe) = (TrackClip::new(&b, wave_id), TrackClip::new(&b, breathe_id));
    let mask = b.resolve_mask(&animgraph_runtime::BoneMask::new(vec!["arm_r".into()], true));
    let ids: Vec<_> = [
        "speed",
        "direction_x",
        "direction_y",
        "weapon",
        "aim_weight",
        "grounded",
        "jump",
        "hurt",
        "fire",
        "dead",
    ]
    .iter()
    .map(|n| player.find_parameter(n).unwrap())
    .collect();
    let before = allocations();
    let mut samples = 0;
    for frame in 0..10_000u32 {
        let t = frame as f32 / 60.0;
        player.set_float(ids[0], 2.0 + 2.0 * (t * 0.7).sin()).unwrap();
        player.set_float(ids[1], (t * 1.3).cos()).unwrap();
        player.set_float(ids[2], (t * 0.9).sin()).unwrap();
        player.set_int(ids[3], ((frame / 400) % 2) as i32).unwrap();
        player.set_float(ids[4], ((frame / 400) % 2) as f32).unwrap();
        player.set_bool(ids[5], frame % 500 < 430).unwrap();
        player.set_bool(ids[9], frame % 3000 > 2900).unwrap();
        if frame % 120 == 0 {
            player.fire(ids[6]).unwrap();
        }
        if frame % 777 == 0 {
            player.fire(ids[7]).unwrap();
        }
        if frame % 90 == 0 {
            player.fire(ids[8]).unwrap();
        }
        if frame % 1000 == 0 {
            player.travel(1, "Shoot").unwrap();
        }
        match frame % 300 {
            0 => {
                tracks.set_mask(0, mask).unwrap();
                tracks.set_clip(0, wave.mix(0.2)).unwrap();
                tracks.queue_clip(0, wave.looping(true), 0.0).unwrap();
            }
            200 => tracks.set_empty(0, 0.3).unwrap(),
            100 => {
                tracks.set_blend(1, ClipBlend::Additive).unwrap();
                tracks.set_clip(1, breathe).unwrap();
            }
            250 => tracks.queue_empty(1, 0.1, 0.2).unwrap(),
            _ => {}
        }
        player.advance(1.0 / 60.0, &mut buffer);
        tracks.advance(1.0 / 60.0, &mut buffer);
        samples += buffer.samples().len();
        assert_eq!(buffer.dropped(), 0);
    }
    assert!(samples > 40_000, "only {samples} samples");
    assert_eq!(allocations() - before, 0, "showcase + tracks allocated");
}

#[test]
fn clones_keep_their_capacity_and_do_not_allocate_when_used() {
    use animgraph_runtime::tracks::{AnimationTracks, TrackClip};
    use animgraph_runtime::{ClipId, ClipSample, SampleBuffer};
    let original = SampleBuffer::with_capacity(16, 4);
    let mut tracks = AnimationTracks::new(3, 0).clone();
    let mut buffer = original.clone();
    let clip = TrackClip { clip: ClipId(0), length: 1.0, looping: true, speed: 1.0, mix: Some(0.5) };
    let before = allocations();
    for i in 0..16 {
        buffer.push_sample(ClipSample {
            clip: ClipId(i),
            time: 0.0,
            prev_time: 0.0,
            weight: 1.0,
            layer: 0,
            looped: false,
        });
    }
    for frame in 0..100 {
        for track in 0..3 {
            if frame % 5 == track {
                tracks.set_clip(track, clip).unwrap();
                tracks.queue_clip(track, clip, 0.1).unwrap();
            }
        }
        tracks.advance(0.05, &mut buffer);
    }
    assert_eq!(allocations() - before, 0);
}

#[test]
fn explain_mode_records_without_allocating() {
    let showcase = graph("../../assets/graphs/showcase.mres");
    let names: Vec<String> = showcase.clip_names();
    let clips: Vec<(&str, f32, bool)> = names.iter().map(|n| (n.as_str(), 0.9, n != "die")).collect();
    let mut b = backend(&clips);
    let mut player = AnimationGraphPlayer::bind(&showcase, &mut b).unwrap();
    player.set_explain(true); // sizes the storage: allowed to allocate
    let mut buffer = player.new_buffer();
    let before = allocations();
    let mut checks = 0usize;
    for frame in 0..10_000u32 {
        player.set_float_by_name("speed", ((frame as f32) * 0.01).sin() * 3.0 + 1.5).unwrap();
        player.set_float_by_name("direction_x", ((frame as f32) * 0.007).cos()).unwrap();
        player.set_int_by_name("weapon", ((frame / 300) % 3) as i32).unwrap();
        player.set_bool_by_name("grounded", frame % 240 < 200).unwrap();
        if frame % 131 == 0 {
            player.fire_by_name("jump").unwrap();
        }
        if frame % 457 == 0 {
            player.fire_by_name("hurt").unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
        let e = player.explanation().unwrap();
        checks += e.layers().iter().map(|l| e.candidates(l).len()).sum::<usize>();
        assert_eq!(e.dropped(), 0);
    }
    let after = allocations();
    assert!(checks > 10_000, "only {checks} candidate checks");
    assert_eq!(after - before, 0, "explain mode allocated {} times", after - before);
}

/// Windows (begin, end, closed by transitions and restores), path travel (planning the chain
/// and starting each hop) and marker sync (matched starts, marker-segment clocks) allocate
/// nothing after bind.
#[test]
fn windows_path_travel_and_marker_sync_allocate_nothing() {
    let windows = graph("tests/scenarios/graphs/windows.mres");
    let mut b = backend(animgraph_test_support::graphs::WINDOWS_CLIPS);
    let mut player = AnimationGraphPlayer::bind(&windows, &mut b).unwrap();
    let mut buffer = player.new_buffer();
    let travel = graph("tests/scenarios/graphs/travel_path.mres");
    let mut b2 = backend(animgraph_test_support::graphs::TRAVEL_PATH_CLIPS);
    let mut walker = AnimationGraphPlayer::bind(&travel, &mut b2).unwrap();
    let mut walker_buffer = walker.new_buffer();
    // A snapshot to restore now and then (taken before counting: snapshots allocate).
    for _ in 0..3 {
        player.advance(1.0 / 8.0, &mut buffer);
    }
    let snapshot = player.snapshot();
    let targets = ["Sprint", "Air/Fall", "Crouch", "Idle", "Air", "Walk"];
    let markers = graph("tests/scenarios/graphs/markers.mres");
    let mut b3 = backend(&[("walk", 1.0, true), ("run", 0.75, true)]);
    b3.set_markers("walk", &[("L", 0.0), ("R", 0.5)]);
    b3.set_markers("run", &[("R", 0.125), ("L", 0.5)]);
    let mut synced = AnimationGraphPlayer::bind(&markers, &mut b3).unwrap();
    let mut synced_buffer = synced.new_buffer();
    let before = allocations();
    let (mut window_events, mut hops) = (0usize, 0usize);
    for frame in 0..5_000u32 {
        match frame % 40 {
            2 | 22 => player.fire_by_name("attack").unwrap(),
            25 => player.fire_by_name("hit").unwrap(),
            30 => player.travel(0, "Spin").unwrap(),
            _ => {}
        }
        if frame % 211 == 0 {
            player.restore(&snapshot);
        }
        player.advance(1.0 / 8.0, &mut buffer);
        window_events += player
            .events()
            .iter()
            .filter(|e| matches!(e, GraphEvent::WindowBegin { .. } | GraphEvent::WindowEnd { .. }))
            .count();
        if frame % 17 == 0 {
            walker.travel(0, targets[(frame / 17) as usize % targets.len()]).unwrap();
        }
        walker.advance(1.0 / 8.0, &mut walker_buffer);
        // Marker sync: matched transition starts and a SyncMarkers blend space at moving speeds.
        synced.set_float_by_name("speed", (frame as f32 * 0.05).sin() * 0.5 + 0.5).unwrap();
        match frame % 30 {
            0 => synced.travel(0, "Walk").unwrap(),
            7 => synced.fire_by_name("go").unwrap(),
            14 => synced.fire_by_name("plain").unwrap(),
            21 => synced.travel(0, "Move").unwrap(),
            _ => {}
        }
        synced.advance(1.0 / 60.0, &mut synced_buffer);
        hops += walker.events().iter().filter(|e| matches!(e, GraphEvent::TransitionStarted { .. })).count();
    }
    let after = allocations();
    assert!(window_events > 500, "only {window_events} window events");
    assert!(hops > 300, "only {hops} transitions");
    assert_eq!(after - before, 0, "windows and travel allocated {} times", after - before);
}

/// Once the authority's history is full, a snapshot (capture, encode into a reused buffer,
/// history kept) allocates nothing: the oldest entry's storage takes the new state.
#[test]
fn authority_snapshots_allocate_nothing_once_the_history_is_full() {
    let (mut player, mut buffer, speed, jump) = locomotion();
    let mut authority = animgraph_runtime::net::Authority::default();
    let mut packet = Vec::with_capacity(1024);
    let mut frame = |player: &mut AnimationGraphPlayer, i: u32| {
        player.set_float(speed, (i as f32 * 0.05).sin() * 3.0 + 2.0).unwrap();
        if i % 40 == 0 {
            player.fire(jump).unwrap();
        }
        player.advance(1.0 / 60.0, &mut buffer);
    };
    // Warm-up: fill the history (and let its entries grow to the graph's deepest mix).
    for i in 0..400 {
        frame(&mut player, i);
        packet.clear();
        authority.snapshot(&mut player, &mut packet);
        if i % 3 == 0 {
            authority.ack(player.tick());
        }
    }
    let before = allocations();
    let mut bytes = 0;
    for i in 400..2400 {
        frame(&mut player, i);
        packet.clear();
        authority.snapshot(&mut player, &mut packet);
        bytes += packet.len();
        if i % 3 == 0 {
            authority.ack(player.tick());
        }
    }
    assert!(bytes > 2000 * 4, "snapshots were written ({bytes} bytes)");
    assert_eq!(allocations() - before, 0, "snapshots allocated");
}
