//! `animgraph render GRAPH.mres --skeleton X.mskel --script S.json --frames 0,45,90 --out DIR`

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use animgraph::mres;
use animgraph::script::Script;
use animgraph_2d::render::{RenderOptions, render_script};
use animgraph_2d::{Skeleton2D, Skeleton2DData};

/// Arguments of `render`.
#[derive(clap::Args)]
pub struct Args {
    /// The graph to run.
    #[arg(value_name = "GRAPH.mres")]
    graph: PathBuf,
    /// The character (.mskel; its texture is found next to it).
    #[arg(long, value_name = "X.mskel")]
    skeleton: PathBuf,
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
    /// Draw the bones over the character.
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
    let data = match Skeleton2DData::load(&args.skeleton) {
        Ok(d) => d,
        Err(e) => return fail(format!("{}: {e}", args.skeleton.display())),
    };
    let texture = data.texture.as_ref().and_then(|t| {
        let path = args.skeleton.parent().unwrap_or(std::path::Path::new(".")).join(t);
        match tiny_skia::Pixmap::load_png(&path) {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("warning: cannot load texture {}: {e}; drawing flat parts", path.display());
                None
            }
        }
    });
    let skeleton = match Skeleton2D::new(data) {
        Ok(s) => Arc::new(s),
        Err(e) => return fail(format!("{}: {e}", args.skeleton.display())),
    };
    let script = match std::fs::read_to_string(&args.script)
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
    let result =
        render_script(skeleton, &graph, &script, texture.as_ref(), &frames, &options, |frame, image| {
            let path = args.out.join(format!("frame_{frame:04}.png"));
            if let Err(e) = image.save_png(&path) {
                error.get_or_insert(format!("cannot write {}: {e}", path.display()));
            }
            written += 1;
            if total > 3 {
                eprint!("\rrendering {written}/{total} [{:<30}]", "#".repeat(written * 30 / total));
                let _ = std::io::stderr().flush();
            }
        });
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
