//! Networking: rollback, encoding round trips and sizes, a lossy channel, decoding garbage.

use animgraph_runtime::graph::{AnimationGraphPlayer, ParamId, ParameterType, TransitionInterrupt};
use animgraph_runtime::mres;
use animgraph_runtime::net::{
    self, Authority, NetLayer, NetSource, NetState, NetTransition, Received, Remote,
};
use animgraph_runtime::script::RecordingBackend;
use animgraph_runtime::{AnimationGraph, SampleBuffer};
use proptest::prelude::*;

fn load(path: &str) -> AnimationGraph {
    mres::load_file(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap().graph.into_graph()
}

/// A recording backend with every clip the graph names (1 s, looping; the jump-like ones not).
fn backend_for(graph: &AnimationGraph) -> RecordingBackend {
    let text = mres::save_to_string(graph);
    let mut names: Vec<String> = Vec::new();
    for key in ["\"Clip\": \"", "\"Clips\": ["] {
        for part in text.split(key).skip(1) {
            let end = part.find([']', '}']).unwrap_or(part.len());
            for n in part[..end].split(',') {
                let n = n.trim().trim_matches('"').split('"').next().unwrap_or("").to_string();
                if !n.is_empty() && !names.contains(&n) {
                    names.push(n);
                }
            }
        }
    }
    let list: Vec<(&str, f32, bool)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            (n.as_str(), 0.4 + (i % 7) as f32 * 0.15, !n.to_lowercase().contains("jump") && i % 5 != 4)
        })
        .collect();
    RecordingBackend::with_clips(&list)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Random inputs: floats drift, bools and ints flip now and then, triggers fire.
fn drive(player: &mut AnimationGraphPlayer, rng: &mut Rng) {
    for p in 0..player.parameter_count() {
        let id = ParamId(p as u16);
        match player.parameter_type(id).unwrap() {
            ParameterType::Float if rng.below(10) == 0 => {
                player.set_float(id, rng.below(500) as f32 / 100.0 - 0.5).unwrap()
            }
            ParameterType::Int if rng.below(40) == 0 => player.set_int(id, rng.below(4) as i32).unwrap(),
            ParameterType::Bool if rng.below(60) == 0 => player.set_bool(id, rng.below(2) == 0).unwrap(),
            ParameterType::Trigger if rng.below(50) == 0 => player.fire(id).unwrap(),
            _ => {}
        }
    }
}

fn fingerprint(buffer: &SampleBuffer) -> Vec<u32> {
    buffer
        .samples()
        .iter()
        .flat_map(|s| [s.clip.0, s.time.to_bits(), s.weight.to_bits(), s.layer as u32])
        .collect()
}

#[test]
fn snapshot_and_restore_resimulate_bit_identically() {
    let graph = load("assets/graphs/showcase.mres");
    let mut player = AnimationGraphPlayer::bind(&graph, &mut backend_for(&graph)).unwrap();
    let mut buffer = player.new_buffer();
    let mut rng = Rng(3);
    for _ in 0..300 {
        drive(&mut player, &mut rng);
        player.advance(1.0 / 60.0, &mut buffer);
    }
    let saved = player.snapshot();
    let saved_rng = rng.0;
    let mut first = Vec::new();
    for _ in 0..500 {
        drive(&mut player, &mut rng);
        player.advance(1.0 / 60.0, &mut buffer);
        first.push(fingerprint(&buffer));
    }
    player.restore(&saved);
    assert_eq!(player.tick(), saved.tick());
    rng.0 = saved_rng;
    for (i, expected) in first.iter().enumerate() {
        drive(&mut player, &mut rng);
        player.advance(1.0 / 60.0, &mut buffer);
        assert_eq!(&fingerprint(&buffer), expected, "frame {i} after restore");
    }
}

fn state_strategy() -> impl Strategy<Value = NetState> {
    let source = (0u16..500, 0u64..1000, 0.0f32..=1.0).prop_map(|(state, age, weight)| NetSource {
        state,
        entry_tick: 5000 - age,
        weight,
    });
    let transition = (
        proptest::option::of(0u16..300),
        0u16..500,
        0u64..1000,
        proptest::option::of(0.0f32..3.0),
        0usize..4,
        0u32..16,
        proptest::option::of(0.0f32..1.0),
    )
        .prop_map(|(transition, target, age, duration, i, target_exited, offset)| NetTransition {
            transition,
            target,
            start_tick: 5000 - age,
            // Travel always carries its duration.
            duration: if transition.is_none() { Some(duration.unwrap_or(0.2)) } else { duration },
            interrupt: TransitionInterrupt::ALL[i],
            offset,
            target_exited,
        });
    let layer = (
        prop::collection::vec(source, 1..5),
        proptest::option::of(transition),
        0u32..8,
        prop_oneof![Just(1.0f32), 0.0f32..1.0],
        prop::collection::vec(0u16..300, 0..4),
    )
        .prop_map(|(mut sources, transition, current_exited, layer_weight, travel)| {
            if sources.len() == 1 {
                sources[0].weight = 1.0;
            } else {
                // Weights travel as u16.
                for s in &mut sources {
                    s.weight = (s.weight * 65535.0).round() / 65535.0;
                }
            }
            let current = (sources.len() - 1) as u8;
            NetLayer { sources, current, current_exited, layer_weight, transition, travel }
        });
    (
        prop::collection::vec(layer, 1..5),
        prop::collection::vec(any::<bool>(), 0..20),
        prop::collection::vec(any::<i32>(), 0..6),
        prop::collection::vec(-1e6f32..1e6, 0..6),
        prop::collection::vec(any::<bool>(), 0..10),
    )
        .prop_map(|(layers, bools, ints, floats, triggers)| NetState {
            tick: 5000,
            layers,
            bools,
            ints,
            floats,
            triggers,
        })
}

fn assert_close(a: &NetState, b: &NetState) {
    assert_eq!(a.tick, b.tick);
    assert_eq!(a.bools, b.bools);
    assert_eq!(a.ints, b.ints);
    assert_eq!(a.floats, b.floats);
    assert_eq!(a.triggers, b.triggers);
    assert_eq!(a.layers.len(), b.layers.len());
    for (x, y) in a.layers.iter().zip(&b.layers) {
        assert_eq!(x.transition, y.transition);
        assert_eq!(x.travel, y.travel);
        assert_eq!(
            (x.current, x.current_exited, x.layer_weight),
            (y.current, y.current_exited, y.layer_weight)
        );
        for (s, t) in x.sources.iter().zip(&y.sources) {
            assert_eq!((s.state, s.entry_tick), (t.state, t.entry_tick));
            assert!((s.weight - t.weight).abs() <= 1e-5);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    /// `copy_from` (what the authority's history reuses its storage with) makes a state equal
    /// to a clone, whatever shapes the two had (more or fewer layers, sources, parameters).
    #[test]
    fn copy_from_equals_a_clone(state in state_strategy(), other in state_strategy()) {
        let mut copy = other.clone();
        copy.copy_from(&state);
        prop_assert_eq!(&copy, &state);
    }

    #[test]
    fn encode_decode_round_trips_full_and_delta(state in state_strategy(), other in state_strategy()) {
        let mut bytes = Vec::new();
        net::encode(&state, None, &mut bytes);
        assert_close(&net::decode(&bytes, None).unwrap(), &state);
        // A delta against an older state of the same shape.
        let mut base = state.clone();
        base.tick = 4990;
        for (l, o) in base.layers.iter_mut().zip(&other.layers) {
            if o.sources.len() == 1 { *l = NetLayer { sources: vec![NetSource { state: o.sources[0].state, entry_tick: 4000, weight: 1.0 }], ..l.clone() }; }
        }
        net::encode(&state, Some(&base), &mut bytes);
        assert_eq!(net::peek(&bytes).unwrap(), (5000, Some(4990)));
        assert_close(&net::decode(&bytes, Some(&base)).unwrap(), &state);
        prop_assert!(net::decode(&bytes, None).is_err(), "a delta needs its baseline");
    }
}

#[test]
fn snapshot_sizes_are_a_few_bytes() {
    let mut report = Vec::new();
    for path in [
        "assets/graphs/locomotion.mres",
        "assets/characters/gbot/gbot.mres",
        "assets/characters/robot/robot.mres",
    ] {
        let graph = load(path);
        let mut player = AnimationGraphPlayer::bind(&graph, &mut backend_for(&graph)).unwrap();
        let mut buffer = player.new_buffer();
        let mut rng = Rng(11);
        let (mut full, mut delta, mut count, mut largest) = (0usize, 0usize, 0usize, 0usize);
        let mut authority = Authority::default();
        let mut bytes = Vec::new();
        let mut state = NetState::default();
        for tick in 0..600 {
            drive(&mut player, &mut rng);
            player.advance(1.0 / 60.0, &mut buffer);
            player.capture_net(&mut state);
            net::encode(&state, None, &mut bytes);
            full += bytes.len();
            largest = largest.max(bytes.len());
            authority.snapshot(&mut player, &mut bytes);
            delta += bytes.len();
            authority.ack(player.tick()); // an ideal channel: every snapshot acknowledged
            count += 1;
            if tick == 599 && path.contains("locomotion") {
                // One layer, one float, one trigger: version 1 + tick 2 + layer (5 bytes when in one
                // state) + parameters 7 + triggers 2.
                let params = 1 + 1 + 1 + 4 + 2;
                assert!(bytes.len() <= 8 + params + 3, "locomotion delta {} bytes", bytes.len());
            }
        }
        report.push(format!(
            "{path}: {} layers, full {:.1} bytes (largest {largest}), delta {:.1} bytes per tick",
            player.layer_count(),
            full as f64 / count as f64,
            delta as f64 / count as f64
        ));
        if path.contains("locomotion") {
            // Header: version 1 + tick 2 + kind 1 + layer count 1; parameters: three counts, one
            // f32, trigger count and bits = 9. The layer itself must stay within 8 bytes, even
            // mid-transition.
            assert!(largest <= 5 + 9 + 8, "locomotion's largest full snapshot is {largest} bytes");
        }
    }
    println!("{}", report.join("\n"));
}

/// An in-memory channel: loss, duplicates, reordering by random latency.
struct Channel {
    rng: Rng,
    in_flight: Vec<(u64, Vec<u8>)>,
}

impl Channel {
    fn send(&mut self, now: u64, bytes: &[u8]) {
        if self.rng.below(100) < 20 {
            return; // lost
        }
        let copies = if self.rng.below(100) < 5 { 2 } else { 1 };
        for _ in 0..copies {
            // 100 ms at 60 ticks per second, +-50 ms: packets overtake each other.
            let arrive = now + 3 + self.rng.below(7);
            self.in_flight.push((arrive, bytes.to_vec()));
        }
    }

    fn deliver(&mut self, now: u64) -> Vec<Vec<u8>> {
        let mut due = Vec::new();
        let mut i = 0;
        while i < self.in_flight.len() {
            if self.in_flight[i].0 <= now {
                due.push(self.in_flight.swap_remove(i).1);
            } else {
                i += 1;
            }
        }
        due
    }
}

#[test]
fn a_remote_follows_through_a_lossy_channel() {
    let graph = load("assets/graphs/showcase.mres");
    let mut backend = backend_for(&graph);
    let mut authority_player = AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    let mut remote_player = AnimationGraphPlayer::new(authority_player.bound_graph().clone());
    let (mut a_buffer, mut r_buffer) = (authority_player.new_buffer(), remote_player.new_buffer());
    let mut authority = Authority::default();
    let mut remote = Remote::default();
    let mut to_remote = Channel { rng: Rng(1), in_flight: Vec::new() };
    let mut to_authority = Channel { rng: Rng(2), in_flight: Vec::new() };
    let mut rng = Rng(99);
    let delta = 1.0 / 60.0;
    // Per tick: each layer's (current, target) and the summed weight per (layer, clip).
    type Record = (Vec<(u16, Option<u16>)>, Vec<((u8, u32), f32)>);
    let mut history: std::collections::HashMap<u64, Record> = std::collections::HashMap::new();
    let record = |player: &AnimationGraphPlayer, buffer: &SampleBuffer| -> Record {
        let states = (0..player.layer_count())
            .map(|l| (player.current_state(l).unwrap().0, player.transition_target(l).map(|s| s.0)))
            .collect();
        let mut weights: Vec<((u8, u32), f32)> = Vec::new();
        for s in buffer.samples() {
            match weights.iter_mut().find(|w| w.0 == (s.layer, s.clip.0)) {
                Some(w) => w.1 += s.weight,
                None => weights.push(((s.layer, s.clip.0), s.weight)),
            }
        }
        weights.sort_by_key(|w| w.0);
        (states, weights)
    };
    let (mut applied, mut bytes_sent, mut packets) = (0, 0usize, 0usize);
    let mut bytes = Vec::new();
    for now in 0..10_000u64 {
        drive(&mut authority_player, &mut rng);
        authority_player.advance(delta, &mut a_buffer);
        history.insert(authority_player.tick(), record(&authority_player, &a_buffer));
        authority.snapshot(&mut authority_player, &mut bytes);
        bytes_sent += bytes.len();
        packets += 1;
        to_remote.send(now, &bytes);
        for packet in to_remote.deliver(now) {
            match remote.receive(&packet, &mut remote_player, delta) {
                Ok(Received::Applied(tick)) => {
                    applied += 1;
                    to_authority.send(now, &tick.to_le_bytes());
                    remote_player.sample_current(&mut r_buffer);
                    let (states, weights) = record(&remote_player, &r_buffer);
                    let (a_states, a_weights) = &history[&tick];
                    assert_eq!(&states, a_states, "tick {tick}: layer states");
                    assert_eq!(weights.len(), a_weights.len(), "tick {tick}: {weights:?} vs {a_weights:?}");
                    for (w, aw) in weights.iter().zip(a_weights) {
                        assert_eq!(w.0, aw.0);
                        assert!((w.1 - aw.1).abs() <= 1e-4, "tick {tick}: weight {w:?} vs {aw:?}");
                    }
                }
                Ok(Received::Stale(_)) => {}
                Err(net::NetError::MissingBaseline(_)) => {}
                Err(e) => panic!("tick {now}: {e}"),
            }
        }
        for ack in to_authority.deliver(now) {
            authority.ack(u64::from_le_bytes(ack.try_into().unwrap()));
        }
    }
    println!(
        "applied {applied} of 10000 snapshots; {} stale, {} missing baselines; {:.1} bytes per snapshot",
        remote.stale,
        remote.missing_baseline,
        bytes_sent as f64 / packets as f64
    );
    // 20 % are lost and an overtaken packet is stale, so fewer than half apply; every one is checked.
    assert!(applied > 3000, "only {applied} applied");
    assert!(remote.stale > 100, "the channel must reorder and duplicate");
}

#[test]
fn decoding_a_million_random_and_mutated_inputs_never_panics() {
    let graph = load("assets/graphs/showcase.mres");
    let mut player = AnimationGraphPlayer::bind(&graph, &mut backend_for(&graph)).unwrap();
    let mut buffer = player.new_buffer();
    let mut rng = Rng(5);
    let mut valid = Vec::new();
    let mut state = NetState::default();
    for _ in 0..50 {
        for _ in 0..17 {
            drive(&mut player, &mut rng);
            player.advance(1.0 / 60.0, &mut buffer);
        }
        player.capture_net(&mut state);
        let mut bytes = Vec::new();
        net::encode(&state, None, &mut bytes);
        valid.push((bytes, state.clone()));
    }
    let (mut ok, mut errors) = (0, 0);
    for i in 0..1_000_000u64 {
        let bytes: Vec<u8> = if i % 2 == 0 {
            (0..rng.below(40)).map(|_| rng.next() as u8).collect()
        } else {
            let mut b = valid[(i / 2 % 50) as usize].0.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(b.len() as u64) as usize;
                match rng.below(3) {
                    0 => b[at] ^= 1 << rng.below(8),
                    1 => b.truncate(at),
                    _ => b.insert(at, rng.next() as u8),
                }
                if b.is_empty() {
                    break;
                }
            }
            b
        };
        let base = &valid[(i % 50) as usize].1;
        match std::panic::catch_unwind(|| net::decode(&bytes, Some(base))) {
            Ok(Ok(decoded)) => {
                ok += 1;
                // Whatever decodes is applied or refused, never a panic.
                let mut p = AnimationGraphPlayer::new(player.bound_graph().clone());
                let _ = p.apply_net(&decoded, 1.0 / 60.0);
            }
            Ok(Err(_)) => errors += 1,
            Err(_) => panic!("input {i} panicked: {bytes:?}"),
        }
    }
    assert!(errors > 900_000 && ok > 0, "ok {ok}, errors {errors}");
}

#[test]
fn float_interpolator_blends_between_the_two_latest_snapshots() {
    let mut i = net::FloatInterpolator::default();
    i.push(10, &[0.0, 4.0]);
    i.push(20, &[10.0, 2.0]);
    i.push(15, &[99.0, 99.0]); // late: ignored
    let mut out = [0.0; 2];
    i.at(15.0, &mut out);
    assert_eq!(out, [5.0, 3.0]);
    i.at(30.0, &mut out);
    assert_eq!(out, [10.0, 2.0], "held after the latest");
    i.at(0.0, &mut out);
    assert_eq!(out, [0.0, 4.0], "held before the earlier");
}

#[test]
fn a_forged_far_future_tick_is_refused_and_later_real_packets_still_apply() {
    let graph = load("assets/graphs/showcase.mres");
    let mut backend = backend_for(&graph);
    let mut authority_player = AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    let mut remote_player = AnimationGraphPlayer::new(authority_player.bound_graph().clone());
    let mut buffer = authority_player.new_buffer();
    let mut authority = Authority::default();
    let mut remote = Remote::default();
    let mut bytes = Vec::new();
    authority_player.advance(1.0 / 60.0, &mut buffer);
    authority.snapshot(&mut authority_player, &mut bytes);
    assert_eq!(remote.receive(&bytes, &mut remote_player, 1.0 / 60.0), Ok(Received::Applied(1)));
    // The same state claiming a tick near the end of time.
    let mut forged_state = NetState::default();
    authority_player.capture_net(&mut forged_state);
    forged_state.tick = u64::MAX - 5;
    let mut forged = Vec::new();
    net::encode(&forged_state, None, &mut forged);
    let refused = remote.receive(&forged, &mut remote_player, 1.0 / 60.0);
    assert!(matches!(refused, Err(net::NetError::Malformed(_))), "{refused:?}");
    assert_eq!(remote.applied_tick(), Some(1));
    authority_player.advance(1.0 / 60.0, &mut buffer);
    authority.snapshot(&mut authority_player, &mut bytes);
    assert_eq!(remote.receive(&bytes, &mut remote_player, 1.0 / 60.0), Ok(Received::Applied(2)));
}

/// Window signals as `(kind, state, window)` for comparison between players of one bound graph.
fn window_events(player: &AnimationGraphPlayer) -> Vec<(bool, u16, u32)> {
    use animgraph_runtime::GraphEvent;
    player
        .events()
        .iter()
        .filter_map(|e| match *e {
            GraphEvent::WindowBegin { state, window, .. } => Some((true, state.0, window.0)),
            GraphEvent::WindowEnd { state, window, .. } => Some((false, state.0, window.0)),
            _ => None,
        })
        .collect()
}

/// Windows replicate: a remote applying every tick's snapshot raises the authority's window
/// begins and ends at the same ticks; a path travel's hops left travel with the layer, so the
/// remote walks the same chain.
#[test]
fn a_remote_sees_the_same_window_signals_and_travel_hops_at_the_same_ticks() {
    let graph =
        mres::load_file(format!("{}/tests/scenarios/graphs/windows.mres", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .graph
            .into_graph();
    let mut backend = RecordingBackend::with_clips(animgraph_test_support::graphs::WINDOWS_CLIPS);
    let mut authority_player = AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    let mut remote_player = AnimationGraphPlayer::new(authority_player.bound_graph().clone());
    let mut buffer = authority_player.new_buffer();
    let (mut authority, mut remote) = (Authority::default(), Remote::default());
    let mut bytes = Vec::new();
    let delta = 0.125;
    let mut compared = 0;
    for tick in 0..2_000u32 {
        match tick % 37 {
            1 | 20 => authority_player.fire_by_name("attack").unwrap(),
            24 => authority_player.fire_by_name("hit").unwrap(),
            30 => authority_player.travel(0, "Spin").unwrap(),
            _ => {}
        }
        authority_player.advance(delta, &mut buffer);
        authority.snapshot(&mut authority_player, &mut bytes);
        let Received::Applied(t) = remote.receive(&bytes, &mut remote_player, delta).unwrap() else {
            panic!("tick {tick} was not applied")
        };
        authority.ack(t);
        let expected = window_events(&authority_player);
        compared += expected.len();
        assert_eq!(window_events(&remote_player), expected, "tick {tick}");
    }
    assert!(compared > 200, "only {compared} window signals");

    // Travel by path: the hops left are replicated.
    let travel =
        mres::load_file(format!("{}/tests/scenarios/graphs/travel_path.mres", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .graph
            .into_graph();
    let mut backend = RecordingBackend::with_clips(animgraph_test_support::graphs::TRAVEL_PATH_CLIPS);
    let mut authority_player = AnimationGraphPlayer::bind(&travel, &mut backend).unwrap();
    let mut remote_player = AnimationGraphPlayer::new(authority_player.bound_graph().clone());
    let mut state = NetState::default();
    authority_player.travel(0, "Air/Fall").unwrap();
    authority_player.advance(delta, &mut buffer);
    authority_player.capture_net(&mut state);
    assert_eq!(state.layers[0].travel.len(), 1, "Idle -> Air has started; Air/Jump -> Air/Fall is left");
    net::encode(&state, None, &mut bytes);
    let decoded = net::decode(&bytes, None).unwrap();
    assert_eq!(decoded.layers[0].travel, state.layers[0].travel);
    remote_player.apply_net(&decoded, delta).unwrap();
    assert_eq!(remote_player.travel_path(0), authority_player.travel_path(0));
    for _ in 0..6 {
        authority_player.advance(delta, &mut buffer);
        remote_player.advance(delta, &mut buffer);
        assert_eq!(remote_player.current_state(0), authority_player.current_state(0));
        assert_eq!(remote_player.transition_target(0), authority_player.transition_target(0));
    }
    assert_eq!(remote_player.state_path(remote_player.current_state(0).unwrap()), "Air/Fall");
}
