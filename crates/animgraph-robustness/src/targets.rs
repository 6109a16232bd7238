//! One function per loader and decoder: arbitrary bytes in, `true` when the loader accepted
//! them, a panic only on a bug. Each goes on to do what a user does next with what loaded, so
//! a loader that lets through something the rest cannot handle is caught too.

use std::sync::{Arc, OnceLock};

use animgraph_2d::render::{Camera, RenderOptions, pose_bounds, render};
use animgraph_2d::{Skeleton2D, Skeleton2DData, Skeleton2DPoseBackend};
use animgraph_3d::Skeleton3DPoseBackend;
use animgraph_runtime::graph::ValidGraph;
use animgraph_runtime::link::{
    ClientMessage, Incoming, LineReader, MAX_LINE_BYTES, MAX_SERVER_LINE_BYTES, ServerMessage,
};
use animgraph_runtime::recording::Recording;
use animgraph_runtime::script::{RecordingBackend, Script, Simulation};
use animgraph_runtime::{AnimationGraphPlayer, ClipId, ClipSample, LayerInfo, PoseBackend, mres, net};

/// Most frames a script or graph is run for (a script may ask for hours of frames, which is
/// work, not a bug).
const FRAMES: usize = 120;

/// The clips the bundled graphs name, for binding fuzzed graphs and scripts.
pub const CLIPS: &[(&str, f32, bool)] = &[
    ("idle", 2.0, true),
    ("walk", 1.0, true),
    ("run", 0.8, true),
    ("jump", 0.8, false),
    ("wave", 1.5, false),
    ("attack", 0.6, false),
];

/// The locomotion graph every network and script input runs on.
pub fn locomotion() -> &'static ValidGraph {
    static GRAPH: OnceLock<ValidGraph> = OnceLock::new();
    GRAPH.get_or_init(|| {
        mres::load_str(include_str!("../../../assets/graphs/locomotion.mres"))
            .expect("the bundled graph loads")
            .graph
    })
}

/// GBot, the 2D skeleton recordings and clip maps are tried on.
pub fn gbot() -> Arc<Skeleton2D> {
    static GBOT: OnceLock<Arc<Skeleton2D>> = OnceLock::new();
    Arc::clone(GBOT.get_or_init(|| {
        let data = Skeleton2DData::parse(include_str!("../../../assets/characters/gbot/gbot.mskel"))
            .expect("the bundled skeleton loads");
        Arc::new(Skeleton2D::new(data).expect("the bundled skeleton binds"))
    }))
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Binds a graph to a backend with [`CLIPS`] and runs it a few frames, setting every parameter.
fn run_graph(graph: &ValidGraph) {
    let mut backend = RecordingBackend::with_clips(CLIPS);
    let Ok(mut player) = AnimationGraphPlayer::bind(graph, &mut backend) else { return };
    let mut buffer = player.new_buffer();
    for frame in 0..FRAMES {
        if frame % 30 == 0 {
            for p in 0..player.parameter_count() {
                let id = animgraph_runtime::graph::ParamId(p as u16);
                let _ = player.set_float(id, (frame / 30) as f32);
                let _ = player.set_bool(id, frame % 60 == 0);
                let _ = player.fire(id);
            }
        }
        player.advance(1.0 / 60.0, &mut buffer);
        backend.apply(buffer.samples(), buffer.layers());
    }
}

/// `.mres` text: load (which validates), save and load back to the same graph, bind, advance.
pub fn mres(data: &[u8]) -> bool {
    let Some(text) = text(data) else { return false };
    let Ok(loaded) = mres::load_str(text) else { return false };
    let saved = mres::save_to_string(&loaded.graph);
    let again = mres::load_str(&saved).expect("a saved graph loads");
    assert_eq!(again.graph, loaded.graph, "a graph changed through save and load");
    run_graph(&loaded.graph);
    true
}

/// An inertial blend from whatever `backend` shows to each of `samples` in turn: prepared, started
/// (the offsets measured against the last two outputs) and decaying over a few frames, so the
/// inertial storage sized from the skeleton's keyed channels meets every fuzzed skeleton.
fn exercise_inertial(backend: &mut impl PoseBackend, samples: &[ClipSample]) {
    backend.prepare_inertial(&[true], 4);
    for (frame, sample) in samples.iter().enumerate() {
        for step in 0..3 {
            let elapsed = (step + 1) as f32 / 60.0;
            let blend = animgraph_runtime::InertialBlend { started: step == 0, elapsed, duration: 0.05 };
            let info = LayerInfo { inertial: (frame > 0).then_some(blend), ..LayerInfo::default() };
            backend.apply(std::slice::from_ref(sample), &[info]);
        }
    }
}

/// Poses up to four clips of a 2D skeleton and draws a tiny picture.
fn exercise_2d(skeleton: Arc<Skeleton2D>) {
    let names: Vec<String> = skeleton.data.clips.keys().take(4).cloned().collect();
    let mut backend = Skeleton2DPoseBackend::new(Arc::clone(&skeleton));
    let mut samples = Vec::new();
    for name in &names {
        let Some(clip) = backend.resolve_clip(name) else { continue };
        for time in [0.0, 0.37, 1e6] {
            let sample =
                ClipSample { clip, time, prev_time: time * 0.5, weight: 0.7, layer: 0, looped: true };
            backend.apply(&[sample], &[LayerInfo::default()]);
            samples.push(sample);
        }
    }
    exercise_inertial(&mut Skeleton2DPoseBackend::new(Arc::clone(&skeleton)), &samples);
    let (min, max) = pose_bounds(&skeleton, &backend.pose);
    let camera = Camera::fit(min, max, 16, 16, 0.1);
    let options = RenderOptions { width: 16, height: 16, supersample: 1, ..Default::default() };
    render(&skeleton, &backend.pose, &[], &camera, &options);
    // The same pose as GPU triangles (clipping cut on the CPU): nothing may panic or hang.
    let mut triangles = animgraph_draw::Triangles::default();
    animgraph_2d::render::triangles(&skeleton, &backend.pose, &[], &camera, true, &mut triangles);
}

/// `.mskel` text: parse (validates), bind the skeleton, pose, draw.
pub fn mskel(data: &[u8]) -> bool {
    let Some(text) = text(data) else { return false };
    let Ok(parsed) = Skeleton2DData::parse(text) else { return false };
    let skeleton = Skeleton2D::new(parsed).expect("validated .mskel data builds a skeleton");
    exercise_2d(Arc::new(skeleton));
    true
}

/// Checks what an importer produced the way `animgraph import` does: it validates (an invalid
/// result is refused with located findings, as the CLI writes nothing); a valid one must
/// survive its own `.mskel` text and build, pose and draw.
fn exercise_imported_2d(data: Skeleton2DData) -> bool {
    if !data.validate().is_empty() {
        return false;
    }
    let text = data.to_string_pretty("fuzz");
    if let Err(e) = Skeleton2DData::parse(&text) {
        let line = match &e {
            animgraph_2d::SkeletonError::Syntax { line, .. } => {
                text.lines().nth(line.saturating_sub(1)).unwrap_or("")
            }
            _ => "",
        };
        panic!("an imported skeleton's .mskel text does not load: {e} ({line})");
    }
    let skeleton = Skeleton2D::new(data).expect("an imported skeleton builds");
    exercise_2d(Arc::new(skeleton));
    true
}

/// Spine JSON: import, then the imported skeleton as a user's next step uses it.
pub fn spine(data: &[u8]) -> bool {
    let Some(text) = text(data) else { return false };
    let Ok(imported) = animgraph_2d::spine::import_spine(text) else { return false };
    exercise_imported_2d(imported.data)
}

/// A Spine `.atlas`: parse, then import two small Spine exports with it (weighted and linked
/// meshes, regions, skins; sequences, whose frames the atlas may lack) and use the results.
pub fn spine_atlas(data: &[u8]) -> bool {
    let Some(text) = text(data) else { return false };
    if animgraph_2d::spine::parse_atlas(text).is_err() {
        return false;
    }
    let exports = [
        include_str!("../../animgraph-2d/tests/spine/oracle/skins.json"),
        include_str!("../../animgraph-2d/tests/spine/oracle/sequence.json"),
    ];
    exports.into_iter().all(|json| {
        let imported =
            animgraph_2d::spine::import_spine_with_atlas(json, Some(text)).expect("the atlas parsed");
        exercise_imported_2d(imported.data)
    })
}

/// A Godot scene (`.tscn`): import, then the imported skeleton.
pub fn godot(data: &[u8]) -> bool {
    let Some(text) = text(data) else { return false };
    let Ok(imported) = animgraph_2d::godot::import_scene(text) else { return false };
    exercise_imported_2d(imported.data)
}

/// glTF or GLB bytes without a folder: import, pose four clips, skin and draw.
pub fn gltf(data: &[u8]) -> bool {
    let Ok(imported) = animgraph_3d::import::import_bytes(data, None) else { return false };
    let skeleton = Arc::new(imported.skeleton);
    let mut backend = Skeleton3DPoseBackend::new(Arc::clone(&skeleton));
    let mut samples = Vec::new();
    for c in 0..skeleton.clips.len().min(4) {
        let sample = ClipSample {
            clip: ClipId(c as u32),
            time: 0.37,
            prev_time: 0.3,
            weight: 1.0,
            layer: 0,
            looped: false,
        };
        backend.apply(&[sample], &[LayerInfo::default()]);
        samples.push(sample);
    }
    exercise_inertial(&mut Skeleton3DPoseBackend::new(Arc::clone(&skeleton)), &samples);
    let camera = animgraph_3d::render::fit_camera(&skeleton, &backend.pose, 16, 16);
    let options =
        animgraph_3d::render::RenderOptions3D { width: 16, height: 16, supersample: 1, ..Default::default() };
    animgraph_3d::render::render(&skeleton, &backend.pose, &camera, &options);
    let mut triangles = animgraph_draw::Triangles::default();
    let mut scratch = Default::default();
    animgraph_3d::render::triangles(
        &skeleton,
        &backend.pose,
        &camera,
        (16.0, 16.0),
        true,
        &mut scratch,
        &mut triangles,
    );
    // What the Bevy plugin imports: the same file without decoding images, never refused where
    // the full import was accepted.
    let bare = animgraph_3d::import::import_bytes_untextured(data, None)
        .expect("the untextured import succeeds too");
    assert_eq!(bare.skeleton.bone_count(), skeleton.bone_count());
    true
}

/// A parameter script: parse, run its first frames on the locomotion graph.
pub fn script(data: &[u8]) -> bool {
    let Some(text) = text(data) else { return false };
    let Ok(script) = Script::parse(text) else { return false };
    let Ok(mut simulation) = Simulation::recording(locomotion(), &script) else { return true };
    for _ in 0..FRAMES {
        if simulation.done() || simulation.step().is_err() {
            break;
        }
        let _ = simulation.record();
    }
    true
}

/// A recording: parse, save and parse back to the same frames, pose its first frames on GBot.
pub fn recording(data: &[u8]) -> bool {
    let Some(text) = text(data) else { return false };
    let Ok(recording) = Recording::parse(text) else { return false };
    let again = Recording::parse(&recording.to_text()).expect("a recording's own text parses");
    assert_eq!(again.len(), recording.len());
    let mut backend = Skeleton2DPoseBackend::new(gbot());
    let mut scratch = Vec::new();
    for frame in recording.frames().iter().take(FRAMES) {
        frame.pose(&mut backend, &mut scratch);
    }
    true
}

/// A clip map: parse, alias its clips on GBot.
pub fn clip_map(data: &[u8]) -> bool {
    let Some(text) = text(data) else { return false };
    let Ok(map) = animgraph_character::parse_clip_map(text) else { return false };
    let mut skeleton = (*gbot()).clone();
    for (alias, clip) in &map {
        skeleton.alias_clip(alias, clip);
    }
    true
}

/// A markers sidecar (`NAME.markers.json`): parsed against two clips (walk 1 s, run 0.75 s);
/// when it loads, its markers drive a graph with a `Sync: Markers` transition and a
/// `SyncMarkers` blend space for a few seconds of changing speeds and transitions (the marker
/// math on any marker times a file may hold).
pub fn markers(data: &[u8]) -> bool {
    let Some(text) = text(data) else { return false };
    let lengths = |clip: &str| match clip {
        "walk" => Some(1.0),
        "run" => Some(0.75),
        _ => None,
    };
    let Ok(lists) = animgraph_runtime::markers::parse_sidecar(text, lengths) else { return false };
    let mut backend = RecordingBackend::with_clips(&[("walk", 1.0, true), ("run", 0.75, true)]);
    for (clip, list) in &lists {
        let list: Vec<(&str, f32)> = list.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        backend.set_markers(clip, &list);
    }
    static GRAPH: OnceLock<ValidGraph> = OnceLock::new();
    let graph = GRAPH.get_or_init(|| {
        let text = include_str!("../../animgraph-runtime/tests/scenarios/graphs/markers.mres");
        animgraph_runtime::mres::load_str(text).expect("the markers scenario graph loads").graph
    });
    let Ok(bound) = animgraph_runtime::BoundGraph::bind(graph, &mut backend) else { return true };
    let mut player = animgraph_runtime::AnimationGraphPlayer::new(std::sync::Arc::new(bound));
    let mut buffer = player.new_buffer();
    let _ = player.travel(0, "Move");
    for frame in 0..FRAMES {
        let _ = player.set_float_by_name("speed", (frame as f32 * 0.1).sin() * 0.5 + 0.5);
        match frame % 20 {
            5 => {
                let _ = player.travel(0, "Walk");
            }
            9 => {
                let _ = player.fire_by_name("go");
            }
            14 => {
                let _ = player.fire_by_name("plain");
            }
            18 => {
                let _ = player.travel(0, "Move");
            }
            _ => {}
        }
        player.advance(1.0 / 60.0, &mut buffer);
        assert!(
            buffer.samples().iter().all(|s| s.time.is_finite() && s.weight.is_finite()),
            "{:?}",
            buffer.samples()
        );
    }
    true
}

/// A network packet: decode alone, then received by a remote locomotion player (first packet
/// and after a real one), which then advances.
pub fn net(data: &[u8]) -> bool {
    let decoded = net::decode(data, None).is_ok();
    let mut backend = RecordingBackend::with_clips(CLIPS);
    let mut player = AnimationGraphPlayer::bind(locomotion(), &mut backend).expect("the bundled graph binds");
    let mut buffer = player.new_buffer();
    let mut remote = net::Remote::default();
    let mut applied = remote.receive(data, &mut player, 1.0 / 60.0).is_ok();
    // After a genuine snapshot, as a delta's baseline would be.
    let mut authority = net::Authority::default();
    let mut real = Vec::new();
    player.advance(1.0 / 60.0, &mut buffer);
    authority.snapshot(&mut player, &mut real);
    let mut remote = net::Remote::default();
    let _ = remote.receive(&real, &mut player, 1.0 / 60.0);
    applied |= remote.receive(data, &mut player, 1.0 / 60.0).is_ok();
    for _ in 0..10 {
        player.advance(1.0 / 60.0, &mut buffer);
    }
    decoded || applied
}

/// Bytes an editor sends a game: split into bounded lines as the game's reader does, each
/// parsed; what parses must survive its own text form.
pub fn link_from_editor(data: &[u8]) -> bool {
    let mut reader = LineReader::new(data, MAX_LINE_BYTES);
    let mut any = false;
    while let Incoming::Line(line) = reader.next_line(None, || true) {
        if let Ok(message) = ClientMessage::parse(&line) {
            let text = serde_json::to_string(&message).expect("messages serialise");
            assert_eq!(ClientMessage::parse(&text).as_ref(), Ok(&message));
            any = true;
        }
    }
    any
}

/// Bytes a game sends an editor: split as the editor's reader does, each parsed; what parses
/// must survive its own text form.
pub fn link_from_game(data: &[u8]) -> bool {
    let mut reader = LineReader::new(data, MAX_SERVER_LINE_BYTES);
    let mut any = false;
    while let Incoming::Line(line) = reader.next_line(None, || true) {
        if let Ok(message) = ServerMessage::parse(&line) {
            let text = serde_json::to_string(&message).expect("messages serialise");
            ServerMessage::parse(&text).expect("a message's own text parses");
            any = true;
        }
    }
    any
}

/// A target: any bytes in, whether the loader accepted them.
pub type Target = fn(&[u8]) -> bool;

/// Every target by its fuzz target name.
pub const ALL: &[(&str, Target)] = &[
    ("mres_load", mres),
    ("mskel_load", mskel),
    ("spine_import", spine),
    ("spine_atlas", spine_atlas),
    ("godot_import", godot),
    ("gltf_import", gltf),
    ("script_parse", script),
    ("recording_load", recording),
    ("clip_map_load", clip_map),
    ("markers_load", markers),
    ("net_receive", net),
    ("link_from_editor", link_from_editor),
    ("link_from_game", link_from_game),
];
