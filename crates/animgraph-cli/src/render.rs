//! `animgraph render GRAPH.mres --skeleton X.mskel --script S.json --frames 0,45,90 --out DIR`

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use animgraph_2d::render::{RenderOptions, render_script};
use animgraph_3d::render::RenderOptions3D;
use animgraph_runtime::mres;
use animgraph_runtime::script::Script;

use crate::skeleton::Character;

/// Arguments of `render`.
#[derive(clap::Args)]
pub struct Args {
    /// The graph to run.
    #[arg(value_name = "GRAPH.mres")]
    graph: PathBuf,
    /// The character: a .mskel (its texture is found next to it) or a glTF .glb / .gltf.
    #[arg(long, value_name = "X.mskel|X.glb")]
    skeleton: PathBuf,
    /// A JSON object mapping the graph's clip names to the skeleton's, e.g. {"walk": "Walking"}.
    #[arg(long, value_name = "MAP.json")]
    clip_map: Option<PathBuf>,
    /// With a glTF skeleton: clip libraries, glTF files whose animations drive the character
    /// (joints matched by name; translations keep the character's rest, see the README).
    #[arg(long = "clips", value_name = "LIB.glb", num_args = 1..)]
    clips: Vec<PathBuf>,
    /// The parameter script (see `animgraph simulate --help`).
    #[arg(long, value_name = "S.json")]
    script: PathBuf,
    /// Frames to draw: a comma-separated list (0,45,90) or `all`.
    #[arg(long, default_value = "0")]
    frames: String,
    /// The folder to write frame_NNNN.png into (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Image width in pixels.
    #[arg(long, default_value_t = 512)]
    width: u32,
    /// Image height in pixels.
    #[arg(long, default_value_t = 512)]
    height: u32,
    /// Draw the bones (joints) over the character.
    #[arg(long)]
    bones: bool,
}

fn fail(message: String) -> ExitCode {
    eprintln!("{message}");
    ExitCode::FAILURE
}

pub fn run(args: &Args) -> ExitCode {
    let graph = match mres::load_file(&args.graph) {
        Ok(l) => l.graph,
        Err(e) => return fail(format!("{}: {e}", args.graph.display())),
    };
    let character = match crate::skeleton::load(&args.skeleton, args.clip_map.as_deref(), &args.clips) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let script =
        match animgraph_runtime::files::read_text(&args.script, animgraph_runtime::script::MAX_SCRIPT_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|t| Script::parse(&t).map_err(|e| e.to_string()))
        {
            Ok(s) => s,
            Err(e) => return fail(format!("{}: {e}", args.script.display())),
        };
    let frames: Vec<u32> = if args.frames == "all" {
        (0..script.frames).collect()
    } else {
        let mut list = Vec::new();
        for part in args.frames.split(',') {
            match part.trim().parse::<u32>() {
                Ok(f) if f < script.frames => list.push(f),
                Ok(f) => {
                    return fail(format!(
                        "--frames: frame {f} is past the script's {} frames",
                        script.frames
                    ));
                }
                Err(_) => {
                    return fail(format!("--frames: \"{part}\" is not a frame number (use 0,45,90 or all)"));
                }
            }
        }
        list.sort_unstable();
        list.dedup();
        list
    };
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        return fail(format!("cannot create {}: {e}", args.out.display()));
    }
    let options = RenderOptions {
        width: args.width.clamp(16, 8192),
        height: args.height.clamp(16, 8192),
        bones: args.bones,
        ..Default::default()
    };
    let total = frames.len();
    let mut written = 0;
    let mut error = None;
    let mut save = |frame: u32, image: tiny_skia::Pixmap| {
        let path = args.out.join(format!("frame_{frame:04}.png"));
        if let Err(e) = image.save_png(&path) {
            error.get_or_insert(format!("cannot write {}: {e}", path.display()));
        }
        written += 1;
        if total > 3 {
            eprint!("\rrendering {written}/{total} [{:<30}]", "#".repeat(written * 30 / total));
            let _ = std::io::stderr().flush();
        }
    };
    let result = match character {
        Character::TwoD(skeleton, texture) => {
            render_script(skeleton, &graph, &script, &texture, &frames, &options, &mut save)
        }
        Character::ThreeD(skeleton) => {
            let options = RenderOptions3D {
                width: options.width,
                height: options.height,
                joints: args.bones,
                ..Default::default()
            };
            animgraph_3d::render::render_script(skeleton, &graph, &script, &frames, &options, &mut save)
        }
    };
    if total > 3 {
        eprintln!();
    }
    if let Some(e) = error {
        return fail(e);
    }
    match result {
        Ok(n) => {
            println!("wrote {n} frames to {}", args.out.display());
            ExitCode::SUCCESS
        }
        Err(e) => fail(format!("{}: {e}", args.script.display())),
    }
}
