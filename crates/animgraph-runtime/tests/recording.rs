//! Recordings: a ring that keeps the newest frames, a text form that round-trips exactly, and
//! errors that name the line.

use animgraph_runtime::mres;
use animgraph_runtime::recording::{RecordedFrame, Recording, RecordingHeader};
use animgraph_runtime::script::{Script, Simulation};

fn showcase_recording(capacity: usize) -> (Recording, usize) {
    let path = format!("{}/../../assets/graphs/showcase.mres", env!("CARGO_MANIFEST_DIR"));
    let graph = mres::load_file(&path).unwrap().graph;
    let script_path = format!("{}/../../assets/scripts/showcase.json", env!("CARGO_MANIFEST_DIR"));
    let script = Script::parse(&std::fs::read_to_string(script_path).unwrap()).unwrap();
    let mut simulation = Simulation::recording(&graph, &script).unwrap();
    simulation.player.set_explain(true);
    let layers = (0..simulation.player.layer_count())
        .map(|l| simulation.player.layer_name(l).unwrap().to_string())
        .collect();
    let mut recording =
        Recording::new(RecordingHeader::new(&graph.uid, Some(&path), "test", layers), capacity);
    let mut frames = 0;
    while !simulation.done() {
        simulation.step().unwrap();
        let time = frames as f32 / 60.0;
        recording.push(RecordedFrame::capture(
            &simulation.player,
            simulation.buffer(),
            &simulation.backend,
            time,
        ));
        frames += 1;
    }
    (recording, frames)
}

#[test]
fn a_recording_round_trips_through_its_text_exactly() {
    let (recording, frames) = showcase_recording(100_000);
    assert_eq!(recording.len(), frames);
    assert!(recording.frames().iter().all(|f| f.frame.explain.is_some()));
    assert!(recording.frames().iter().any(|f| !f.samples.is_empty()));
    let text = recording.to_text();
    let back = Recording::parse(&text).unwrap();
    assert_eq!(back.header, recording.header);
    assert_eq!(back.frames(), recording.frames());
    // Saved and loaded from a file too.
    let dir = animgraph_test_support::scratch_dir("recording");
    recording.save(&dir.join("r.jsonl")).unwrap();
    assert_eq!(Recording::load(&dir.join("r.jsonl")).unwrap().frames(), recording.frames());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_ring_keeps_the_newest_frames() {
    let (recording, frames) = showcase_recording(50);
    assert_eq!(recording.len(), 50);
    assert_eq!(recording.dropped as usize, frames - 50);
    let ticks: Vec<u64> = recording.frames().iter().map(|f| f.frame.tick).collect();
    assert_eq!(ticks.first().copied(), Some(frames as u64 - 49));
    assert!(ticks.windows(2).all(|w| w[1] == w[0] + 1));
}

#[test]
fn broken_recordings_are_refused_with_the_line() {
    let (recording, _) = showcase_recording(3);
    let text = recording.to_text();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "{ not a frame";
    let e = Recording::parse(&lines.join("\n")).unwrap_err();
    assert!(e.to_string().starts_with("line 3: not a recorded frame"), "{e}");
    let e = Recording::parse("").unwrap_err();
    assert!(e.to_string().contains("empty"), "{e}");
    let e = Recording::parse(&text.replacen("animgraph-recording", "something-else", 1)).unwrap_err();
    assert!(e.to_string().contains("not \"animgraph-recording\""), "{e}");
    let e = Recording::parse(&text.replacen("\"version\":1", "\"version\":99", 1)).unwrap_err();
    assert!(e.to_string().contains("version 99 is not supported"), "{e}");
    assert!(Recording::load(std::path::Path::new("/nonexistent/r.jsonl")).is_err());
}

#[test]
fn the_writer_and_the_loader_agree_on_the_frame_limit() {
    use animgraph_runtime::recording::MAX_RECORDING_FRAMES;
    let (small, _) = showcase_recording(1);
    let mut frame = small.frames()[0].clone();
    frame.frame.explain = None;
    let mut recording = Recording::new(small.header.clone(), usize::MAX);
    assert_eq!(recording.capacity(), MAX_RECORDING_FRAMES);
    for i in 0..MAX_RECORDING_FRAMES + 5 {
        frame.frame.tick = i as u64;
        recording.push(frame.clone());
    }
    assert_eq!((recording.len(), recording.dropped), (MAX_RECORDING_FRAMES, 5));
    let text = recording.to_text();
    assert_eq!(text.len() as u64, recording.text_bytes());
    let back = Recording::parse(&text).unwrap();
    assert_eq!(back.len(), MAX_RECORDING_FRAMES);
    assert_eq!(back.frames().front().map(|f| f.frame.tick), Some(5));
    // One frame more than a recording can hold is refused at that frame's line.
    let one_more = format!("{text}{}\n", text.lines().last().unwrap());
    let e = Recording::parse(&one_more).unwrap_err();
    assert!(
        e.to_string().starts_with(&format!(
            "line {}: more than {MAX_RECORDING_FRAMES} frames",
            MAX_RECORDING_FRAMES + 2
        )),
        "{e}"
    );
}

#[test]
fn a_ring_never_holds_more_text_than_its_byte_limit() {
    let (source, frames) = showcase_recording(100_000);
    let limit = 40_000;
    let mut recording = Recording::with_byte_limit(source.header.clone(), 100_000, limit);
    for f in source.frames() {
        recording.push(f.clone());
        assert!(recording.text_bytes() <= limit);
    }
    assert!(recording.len() > 1 && recording.len() < frames, "{} of {frames}", recording.len());
    assert_eq!(recording.len() as u64 + recording.dropped, frames as u64);
    let text = recording.to_text();
    assert_eq!(text.len() as u64, recording.text_bytes());
    assert_eq!(Recording::parse(&text).unwrap().frames(), recording.frames());
    // The kept frames are the newest.
    assert_eq!(recording.frames().back(), source.frames().back());
}
