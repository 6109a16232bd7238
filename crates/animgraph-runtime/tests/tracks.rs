//! Code tracks: standalone and above a graph, queueing, mixing out, additive, events.

use animgraph_runtime::graph::AnimationGraphPlayer;
use animgraph_runtime::mres;
use animgraph_runtime::script::RecordingBackend;
use animgraph_runtime::tracks::{AnimationTracks, MAX_TRACK_ENTRIES, TrackClip, TrackEventKind};
use animgraph_runtime::{ClipBlend, PoseBackend, SampleBuffer};

fn backend_with(list: &[(&str, f32, bool)]) -> RecordingBackend {
    RecordingBackend::with_clips(list)
}

fn backend() -> RecordingBackend {
    backend_with(&[("idle", 2.0, true), ("walk", 1.0, true), ("wave", 0.5, false), ("nod", 0.4, false)])
}

fn clip(b: &mut RecordingBackend, name: &str) -> TrackClip {
    let id = b.resolve_clip(name).unwrap();
    TrackClip::new(b, id)
}

fn weights(buffer: &SampleBuffer, layer: u8) -> Vec<(u32, f32)> {
    buffer.samples().iter().filter(|s| s.layer == layer).map(|s| (s.clip.0, s.weight)).collect()
}

fn kinds(tracks: &AnimationTracks) -> Vec<(u32, TrackEventKind)> {
    tracks.events().iter().map(|e| (e.clip.0, e.kind)).collect()
}

#[test]
fn standalone_tracks_are_the_whole_animation() {
    let mut b = backend();
    let mut tracks = AnimationTracks::new(2, 0);
    let mut buffer = SampleBuffer::with_capacity(tracks.sample_capacity(), tracks.len());
    let walk = clip(&mut b, "walk").mix(0.0);
    tracks.set_clip(0, walk).unwrap();
    tracks.advance(0.1, &mut buffer);
    assert_eq!(buffer.layers().len(), 2, "one layer per track");
    assert_eq!(weights(&buffer, 0), vec![(walk.clip.0, 1.0)]);
    assert!(weights(&buffer, 1).is_empty());
    assert_eq!(
        kinds(&tracks),
        vec![(walk.clip.0, TrackEventKind::Start)],
        "set_clip's event is read after advance"
    );
    // Advancing again clears the buffer first (standalone).
    tracks.advance(0.1, &mut buffer);
    assert_eq!(buffer.samples().len(), 1);
    assert!((buffer.samples()[0].time - 0.2).abs() < 1e-6);
}

#[test]
fn tracks_above_a_graph_take_the_next_layers() {
    let mut b = backend_with(&[
        ("idle", 2.0, true),
        ("walk", 0.708, true),
        ("run", 1.158, true),
        ("jump", 0.8, false),
        ("wave", 0.5, false),
    ]);
    let graph = mres::load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/graphs/locomotion.mres"))
        .unwrap()
        .graph;
    let mut player = AnimationGraphPlayer::bind(&graph, &mut b).unwrap();
    let mut tracks = AnimationTracks::new(1, player.layer_count());
    let mut buffer = SampleBuffer::with_capacity(
        player.sample_capacity() + tracks.sample_capacity(),
        player.layer_count() + tracks.len(),
    );
    let wave = clip(&mut b, "wave");
    tracks.set_clip(0, wave).unwrap();
    tracks.set_alpha(0, 0.7).unwrap();
    for _ in 0..3 {
        player.advance(0.05, &mut buffer);
        tracks.advance(0.05, &mut buffer);
    }
    assert_eq!(buffer.layers().len(), 2);
    assert_eq!(buffer.layers()[1].weight, 0.7);
    let graph_layer = weights(&buffer, 0);
    assert_eq!(graph_layer.len(), 1, "the graph's idle");
    // A mix from nothing fades in over the default 0.2 s: 0.15 s in, weight 0.75.
    let track_layer = weights(&buffer, 1);
    assert_eq!(track_layer.len(), 1);
    assert!((track_layer[0].1 - 0.75).abs() < 1e-5, "{track_layer:?}");
}

#[test]
fn set_clip_mixes_from_the_current_one_with_set_mix() {
    let mut b = backend();
    let (idle, walk) = (clip(&mut b, "idle"), clip(&mut b, "walk"));
    let mut tracks = AnimationTracks::new(1, 0);
    tracks.set_mix(idle.clip, walk.clip, 0.4).unwrap();
    let mut buffer = SampleBuffer::with_capacity(tracks.sample_capacity(), 1);
    tracks.set_clip(0, idle.mix(0.0)).unwrap();
    tracks.advance(0.1, &mut buffer);
    tracks.set_clip(0, walk).unwrap();
    assert_eq!(
        kinds(&tracks),
        vec![(idle.clip.0, TrackEventKind::Interrupted), (walk.clip.0, TrackEventKind::Start)]
    );
    tracks.advance(0.1, &mut buffer);
    let w = weights(&buffer, 0);
    assert!((w[0].1 - 0.75).abs() < 1e-5 && (w[1].1 - 0.25).abs() < 1e-5, "{w:?}");
    let mut events = Vec::new();
    for _ in 0..4 {
        tracks.advance(0.1, &mut buffer);
        events.extend(kinds(&tracks));
    }
    assert_eq!(weights(&buffer, 0), vec![(walk.clip.0, 1.0)]);
    assert!(events.contains(&(idle.clip.0, TrackEventKind::End)), "{events:?}");
}

#[test]
fn queued_clip_starts_when_the_current_one_completes() {
    let mut b = backend();
    let (wave, nod) = (clip(&mut b, "wave"), clip(&mut b, "nod"));
    let mut tracks = AnimationTracks::new(1, 0);
    let mut buffer = SampleBuffer::with_capacity(tracks.sample_capacity(), 1);
    tracks.set_clip(0, wave.mix(0.0)).unwrap();
    // Mix 0.1: nod starts 0.1 s before wave's end (0.5 s), so the mix ends as wave completes.
    tracks.queue_clip(0, nod.mix(0.1), 0.0).unwrap();
    assert_eq!(tracks.queued(0), 1);
    let mut started_at = None;
    let mut wave_completed_at = None;
    for frame in 1..=10 {
        tracks.advance(0.05, &mut buffer);
        for e in tracks.events() {
            if e.kind == TrackEventKind::Start && e.clip == nod.clip {
                started_at = Some(frame);
            }
            if e.kind == TrackEventKind::Complete && e.clip == wave.clip {
                wave_completed_at = Some(frame);
            }
        }
    }
    // Wave has played 0.4 s after frame 8; nod starts at frame 9 and wave completes at frame 10.
    assert_eq!(started_at, Some(9));
    assert_eq!(wave_completed_at, Some(10));
    assert_eq!(tracks.current(0), Some(nod.clip));
    assert_eq!(tracks.queued(0), 0);
}

#[test]
fn queued_clip_with_a_delay_and_on_an_empty_track() {
    let mut b = backend();
    let (walk, nod) = (clip(&mut b, "walk"), clip(&mut b, "nod"));
    let mut tracks = AnimationTracks::new(2, 0);
    let mut buffer = SampleBuffer::with_capacity(tracks.sample_capacity(), 2);
    tracks.set_clip(0, walk.mix(0.0)).unwrap();
    // Delays sit between frames (0.05 s each) so float rounding cannot move them.
    tracks.queue_clip(0, nod, 0.22).unwrap();
    tracks.queue_clip(1, nod.mix(0.0), 0.27).unwrap();
    let mut starts = Vec::new();
    for frame in 1..=8 {
        tracks.advance(0.05, &mut buffer);
        starts.extend(
            tracks
                .events()
                .iter()
                .filter(|e| e.kind == TrackEventKind::Start && e.clip == nod.clip)
                .map(|e| (e.track, frame)),
        );
    }
    // Checked before each frame's advance: track 0 once walk has played 0.25 s (frame 6),
    // track 1 once it has been idle 0.30 s (frame 7).
    assert_eq!(starts, vec![(0, 6), (1, 7)]);
}

#[test]
fn empty_clip_mixes_the_track_out() {
    let mut b = backend();
    let walk = clip(&mut b, "walk");
    let mut tracks = AnimationTracks::new(1, 0);
    let mut buffer = SampleBuffer::with_capacity(tracks.sample_capacity(), 1);
    tracks.set_clip(0, walk.mix(0.0)).unwrap();
    tracks.advance(0.1, &mut buffer);
    tracks.set_empty(0, 0.5).unwrap();
    tracks.advance(0.1, &mut buffer);
    assert!((weights(&buffer, 0)[0].1 - 0.8).abs() < 1e-5);
    let mut events = Vec::new();
    for _ in 0..5 {
        tracks.advance(0.1, &mut buffer);
        events.extend(kinds(&tracks));
    }
    assert!(weights(&buffer, 0).is_empty(), "mixed out");
    assert!(events.contains(&(walk.clip.0, TrackEventKind::End)), "{events:?}");
    assert_eq!(tracks.current(0), None);
}

#[test]
fn additive_and_masked_tracks_carry_their_layer_info() {
    let mut b = backend();
    let nod = clip(&mut b, "nod");
    let mask = b.resolve_mask(&animgraph_runtime::BoneMask::new(vec!["head".into()], true));
    let mut tracks = AnimationTracks::new(1, 0);
    let mut buffer = SampleBuffer::with_capacity(tracks.sample_capacity(), 1);
    tracks.set_blend(0, ClipBlend::Additive).unwrap();
    tracks.set_mask(0, mask).unwrap();
    tracks.set_event_threshold(0, 0.1).unwrap();
    tracks.set_clip(0, nod.looping(true).mix(0.0)).unwrap();
    tracks.advance(0.1, &mut buffer);
    let info = buffer.layers()[0];
    assert_eq!(info.blend, ClipBlend::Additive);
    assert_eq!(info.mask, mask);
    assert_eq!(info.event_threshold, 0.1);
    assert_eq!(b.masks[mask.unwrap().0 as usize].bones, ["head"]);
}

#[test]
fn looping_clips_complete_every_loop_and_one_shots_hold() {
    let mut b = backend();
    let (walk, wave) = (clip(&mut b, "walk"), clip(&mut b, "wave"));
    let mut tracks = AnimationTracks::new(2, 0);
    let mut buffer = SampleBuffer::with_capacity(tracks.sample_capacity(), 2);
    tracks.set_clip(0, walk.mix(0.0)).unwrap();
    tracks.set_clip(1, wave.mix(0.0)).unwrap();
    let mut completes = [0, 0];
    for _ in 0..30 {
        tracks.advance(0.1, &mut buffer);
        for e in tracks.events().iter().filter(|e| e.kind == TrackEventKind::Complete) {
            completes[e.track as usize] += 1;
        }
    }
    assert_eq!(completes, [3, 1], "walk loops 3 times in 3 s; wave completes once");
    let held = buffer.samples().iter().find(|s| s.layer == 1).unwrap();
    assert_eq!((held.time, held.prev_time), (0.5, 0.5));
}

#[test]
fn rapid_set_clips_stay_within_the_entry_bound_and_sum_to_one() {
    let mut b = backend();
    let clips = [clip(&mut b, "idle"), clip(&mut b, "walk"), clip(&mut b, "wave"), clip(&mut b, "nod")];
    let mut tracks = AnimationTracks::new(1, 0);
    let mut buffer = SampleBuffer::with_capacity(tracks.sample_capacity(), 1);
    tracks.set_clip(0, clips[0].mix(0.0)).unwrap();
    for frame in 0..200 {
        if frame % 2 == 0 {
            tracks.set_clip(0, clips[frame / 2 % 4].mix(1.0)).unwrap();
        }
        tracks.advance(0.02, &mut buffer);
        assert!(buffer.samples().len() <= MAX_TRACK_ENTRIES);
        assert_eq!(buffer.dropped(), 0);
        let sum: f32 = buffer.samples().iter().map(|s| s.weight).sum();
        assert!((sum - 1.0).abs() < 1e-4, "frame {frame}: {sum}");
    }
}

#[test]
fn bad_track_calls_are_errors() {
    let mut b = backend();
    let walk = clip(&mut b, "walk");
    let mut tracks = AnimationTracks::new(1, 0);
    assert_eq!(tracks.set_clip(3, walk).unwrap_err().to_string(), "track 3 does not exist; there are 1");
    assert!(tracks.set_clip(0, walk.mix(f32::NAN)).is_err());
    assert!(tracks.set_clip(0, TrackClip { length: 0.0, ..walk }).is_err());
    assert!(tracks.set_alpha(0, f32::INFINITY).is_err());
    for _ in 0..animgraph_runtime::tracks::MAX_TRACK_QUEUE {
        tracks.queue_clip(0, walk, 0.0).unwrap();
    }
    assert!(tracks.queue_clip(0, walk, 0.0).unwrap_err().to_string().contains("queue is full"));
}
