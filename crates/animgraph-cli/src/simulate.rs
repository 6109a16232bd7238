//! `animgraph simulate GRAPH.mres --script S.json`

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use animgraph_runtime::PoseBackend;
use animgraph_runtime::mres;
use animgraph_runtime::script::{BackendNames, Script, Simulation};

/// Arguments of `simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// The graph to run.
    #[arg(value_name = "GRAPH.mres")]
    graph: PathBuf,
    /// The parameter script (JSON): fps, frames, clips, steps. Steps apply before their frame's
    /// advance: {"frame": N, "set": {"param": value}}, {"fire": "trigger"},
    /// {"travel": {"layer": 0, "state": "Outer/Inner"}}, {"layer_weight": {"layer": 1, "weight": 0.5}},
    /// and code tracks above the graph: {"track": {"index": 0, "clip": "wave", "loop": false,
    /// "mix": 0.2}} (also "queue": true with "delay", "alpha", "speed", "blend": "Additive",
    /// "mask": ["bone", ...]; "clip": null mixes the track out).
    #[arg(long, value_name = "S.json")]
    script: PathBuf,
    /// A skeleton (.mskel, .glb or .gltf) whose clips replace the script's `clips`.
    #[arg(long, value_name = "X.mskel|X.glb")]
    skeleton: Option<PathBuf>,
    /// With --skeleton: a JSON object mapping the graph's clip names to the skeleton's.
    #[arg(long, value_name = "MAP.json", requires = "skeleton")]
    clip_map: Option<PathBuf>,
    /// With a glTF skeleton: clip libraries, glTF files whose animations drive the character
    /// (joints matched by name; translations keep the character's rest, see the README).
    #[arg(long = "clips", value_name = "LIB.glb", num_args = 1.., requires = "skeleton")]
    clips: Vec<PathBuf>,
    /// With --skeleton: add each frame's applied local pose, bone -> for 2D [x, y, rotation_deg,
    /// scale_x, scale_y, shear_x, shear_y], for 3D [tx, ty, tz, qx, qy, qz, qw, sx, sy, sz], and for 3D
    /// files with morph targets a `morphs` object: mesh node name -> its blended weights.
    #[arg(long, requires = "skeleton")]
    poses: bool,
    /// Add each frame's `explain` object: per layer what was checked, every candidate transition
    /// in evaluation order with its outcome (started, shadowed, conditions failed, exit time not
    /// reached, ...), its exit-time gate and each condition's value; triggers consumed and
    /// cleared unused.
    #[arg(long)]
    explain: bool,
    /// Also write a recording (JSON Lines: a header, then every frame with its parameters,
    /// states, events, explanation and clip samples) that the editor opens and scrubs.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// Prints one JSON object per frame (JSON Lines) after that frame's advance.
pub fn run(args: &Args) -> ExitCode {
    let graph = match mres::load_file(&args.graph) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                eprintln!("{}: {w}", args.graph.display());
            }
            loaded.graph
        }
        Err(e) => {
            eprintln!("{}: {e}", args.graph.display());
            return ExitCode::FAILURE;
        }
    };
    let script = match animgraph_runtime::files::read_text(
        &args.script,
        animgraph_runtime::script::MAX_SCRIPT_BYTES,
    ) {
        Ok(text) => match Script::parse(&text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{}: {e}", args.script.display());
                return ExitCode::FAILURE;
            }
        },
        Err(e) => {
            eprintln!("cannot read {}: {e}", args.script.display());
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = &args.skeleton {
        let character = match crate::skeleton::load(path, args.clip_map.as_deref(), &args.clips) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        let pose_json = |pose: Vec<(String, Vec<f32>)>| {
            serde_json::Value::Object(
                pose.into_iter().map(|(name, v)| (name, serde_json::json!(v))).collect(),
            )
        };
        let result = match character {
            crate::skeleton::Character::TwoD(skeleton, _) => Simulation::new(
                &graph,
                &script,
                animgraph_2d::Skeleton2DPoseBackend::new(skeleton),
            )
            .map(|s| {
                print_frames(s, args, |s| {
                    (
                        pose_json(s.backend.local_pose().into_iter().map(|(n, v)| (n, v.to_vec())).collect()),
                        None,
                    )
                })
            }),
            crate::skeleton::Character::ThreeD(skeleton) => {
                Simulation::new(&graph, &script, animgraph_3d::Skeleton3DPoseBackend::new(skeleton)).map(
                    |s| {
                        print_frames(s, args, |s| {
                            let joints =
                                s.backend.local_pose().into_iter().map(|(n, v)| (n, v.to_vec())).collect();
                            let morphs = s.backend.morph_pose();
                            (pose_json(joints), (!morphs.is_empty()).then(|| pose_json(morphs)))
                        })
                    },
                )
            }
        };
        return result.unwrap_or_else(|e| {
            eprintln!("{}: {e}", args.script.display());
            ExitCode::FAILURE
        });
    }
    let simulation = match Simulation::recording(&graph, &script) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {e}", args.script.display());
            return ExitCode::FAILURE;
        }
    };
    print_frames(simulation, args, |_| (serde_json::Value::Null, None))
}

/// Prints one JSON object per frame; with `--poses`, adds `pose(simulation)` (and `morphs`).
fn print_frames<B: PoseBackend + BackendNames>(
    mut simulation: Simulation<B>,
    args: &Args,
    pose: impl Fn(&Simulation<B>) -> (serde_json::Value, Option<serde_json::Value>),
) -> ExitCode {
    for warning in simulation.player.warnings() {
        eprintln!("{}: warning: {}", args.graph.display(), warning.message);
    }
    simulation.player.set_explain(args.explain || args.record.is_some());
    let mut recording = args.record.as_ref().map(|_| {
        let player = &simulation.player;
        let layers =
            (0..player.layer_count()).map(|l| player.layer_name(l).unwrap_or("").to_string()).collect();
        let uid =
            animgraph_runtime::mres::load_file(&args.graph).map(|l| l.graph.uid.clone()).unwrap_or_default();
        let header = animgraph_runtime::recording::RecordingHeader::new(
            &uid,
            Some(&args.graph.display().to_string()),
            &format!("animgraph simulate --script {}", args.script.display()),
            layers,
        );
        animgraph_runtime::recording::Recording::new(
            header,
            animgraph_runtime::recording::MAX_RECORDING_FRAMES,
        )
    });
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    while !simulation.done() {
        if let Err(e) = simulation.step() {
            let _ = out.flush();
            eprintln!("{}: {e}", args.script.display());
            return ExitCode::FAILURE;
        }
        let record = simulation.record();
        if let Some(r) = recording.as_mut() {
            let time = record.time;
            r.push(animgraph_runtime::recording::RecordedFrame::capture(
                &simulation.player,
                simulation.buffer(),
                &simulation.backend,
                time,
            ));
        }
        let line = if args.poses || args.explain {
            let mut value = serde_json::to_value(&record).expect("records serialise");
            if args.poses {
                let (joints, morphs) = pose(&simulation);
                value["pose"] = joints;
                if let Some(morphs) = morphs {
                    value["morphs"] = morphs;
                }
            }
            if let Some(explain) = animgraph_runtime::frame::ExplainRecord::capture(&simulation.player) {
                value["explain"] = serde_json::to_value(explain).expect("records serialise");
            }
            value.to_string()
        } else {
            serde_json::to_string(&record).expect("records serialise")
        };
        if writeln!(out, "{line}").is_err() {
            return ExitCode::SUCCESS; // stdout closed (e.g. piped into head)
        }
    }
    let _ = out.flush();
    if let (Some(path), Some(r)) = (&args.record, &recording) {
        if let Err(e) = r.save(path) {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        if r.dropped > 0 {
            eprintln!(
                "{}: warning: kept the last {} of {} frames (recordings hold at most {} frames and {} MiB)",
                path.display(),
                r.len(),
                r.len() as u64 + r.dropped,
                animgraph_runtime::recording::MAX_RECORDING_FRAMES,
                animgraph_runtime::recording::MAX_RECORDING_BYTES >> 20
            );
        }
        eprintln!("recorded {} frames to {}", r.len(), path.display());
    }
    ExitCode::SUCCESS
}
