//! `animgraph markers MODEL.glb --foot JOINT=NAME... [--clips A,B] [--out FILE] [--dry-run]`:
//! finds the foot plants of a glTF's clips and writes them as sync markers to the model's
//! `NAME.markers.json` (clips already in that file and not measured now keep their markers).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use animgraph_3d::markers::{Foot, foot_plants};

/// Arguments of `markers`.
#[derive(clap::Args)]
pub struct Args {
    /// The model (.glb or .gltf).
    #[arg(value_name = "MODEL.glb")]
    model: PathBuf,
    /// A foot joint and the marker its plants get, e.g. `Foot.L=L`; give one per foot.
    #[arg(long = "foot", value_name = "JOINT=NAME", required = true)]
    feet: Vec<String>,
    /// Only these clips (comma-separated); default: every clip.
    #[arg(long, value_delimiter = ',', value_name = "CLIP")]
    clips: Vec<String>,
    /// Where to write; default NAME.markers.json beside the model, which the importer reads.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Samples per second of clip time.
    #[arg(long, default_value_t = 120.0)]
    rate: f32,
    /// Print what would be written, write nothing.
    #[arg(long)]
    dry_run: bool,
}

/// Measures and writes; exits 1 with a message on a bad model, foot or clip.
pub fn run(args: &Args) -> ExitCode {
    match markers(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn markers(args: &Args) -> Result<(), String> {
    let feet: Vec<Foot> = args
        .feet
        .iter()
        .map(|f| match f.split_once('=') {
            Some((joint, marker)) if !joint.is_empty() && !marker.is_empty() => {
                Ok(Foot { joint: joint.to_string(), marker: marker.to_string() })
            }
            _ => Err(format!("--foot {f}: write JOINT=NAME, e.g. --foot Foot.L=L")),
        })
        .collect::<Result<_, _>>()?;
    if !(args.rate.is_finite() && args.rate > 0.0) {
        return Err(format!("--rate {}: give samples per second above 0", args.rate));
    }
    // The model without its current sidecar's markers (they are what is being replaced).
    let bytes = animgraph_runtime::files::read_bounded(&args.model, animgraph_3d::import::MAX_FILE_BYTES)
        .map_err(|e| format!("{}: {e}", args.model.display()))?;
    let folder = args.model.parent().unwrap_or(std::path::Path::new("."));
    let skeleton = Arc::new(
        animgraph_3d::import::import_bytes(&bytes, Some(folder))
            .map_err(|e| format!("{}: {e}", args.model.display()))?
            .skeleton,
    );
    let clips: Vec<String> = if args.clips.is_empty() {
        skeleton.clips.iter().map(|c| c.name.clone()).collect()
    } else {
        args.clips.clone()
    };
    let out = args.out.clone().unwrap_or_else(|| animgraph_3d::import::markers_path(&args.model));
    // What the file holds already (kept for clips not measured now).
    let mut all: BTreeMap<String, Vec<(String, f32)>> = match std::fs::metadata(&out) {
        Ok(_) => animgraph_3d::import::read_markers(&out, &skeleton)?,
        Err(_) => BTreeMap::new(),
    };
    for clip in &clips {
        let plants = foot_plants(&skeleton, clip, &feet, args.rate)?;
        let duration = skeleton.clip(clip).map_or(0.0, |c| c.duration);
        let shown: Vec<String> = plants.iter().map(|(n, t)| format!("{n} {t:.3}")).collect();
        println!(
            "{clip} ({duration:.3} s): {}",
            if shown.is_empty() { "no plants".into() } else { shown.join(", ") }
        );
        if plants.is_empty() {
            all.remove(clip);
        } else {
            all.insert(clip.clone(), plants);
        }
    }
    let mut text = String::from("{\n");
    for (i, (clip, list)) in all.iter().enumerate() {
        let items: Vec<String> = list
            .iter()
            .map(|(n, t)| format!("[{}, {}]", serde_json::to_string(n).unwrap_or_default(), round(*t)))
            .collect();
        let comma = if i + 1 < all.len() { "," } else { "" };
        text += &format!(
            "  {}: [{}]{comma}\n",
            serde_json::to_string(clip).unwrap_or_default(),
            items.join(", ")
        );
    }
    text += "}\n";
    if args.dry_run {
        print!("{text}");
        return Ok(());
    }
    animgraph_runtime::files::write_atomic(&out, text.as_bytes())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {} ({} clips with markers)", out.display(), all.len());
    Ok(())
}

/// Seconds to the millisecond (a sample lies between keys anyway).
fn round(t: f32) -> String {
    let r = (t * 1000.0).round() / 1000.0;
    format!("{r}")
}
