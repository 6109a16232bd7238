//! `animgraph import FILE -o OUT.mskel`

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use animgraph_2d::data::ClipData;
use animgraph_2d::{Skeleton2DData, godot};

/// Arguments of `import`.
#[derive(clap::Args)]
pub struct Args {
    /// A Godot 4 scene (.tscn) with a Skeleton2D, or a Spine 4.0-4.2 JSON export (.json).
    #[arg(value_name = "FILE")]
    input: PathBuf,
    /// The .mskel to write (atomically). The texture is copied next to it when found next to FILE.
    #[arg(short, long, value_name = "OUT.mskel")]
    output: PathBuf,
    /// Spine: the texture atlas (.atlas). Default: the one Spine exports beside FILE (`NAME.atlas`,
    /// NAME without `-pro`/`-ess`, or the only .atlas there); without one attachments draw flat.
    #[arg(long, value_name = "FILE.atlas")]
    atlas: Option<PathBuf>,
    /// An overlay merged after importing, for work authored by hand on top of an import:
    /// `{"clips": {name: clip in .mskel form}, "events": [names], "clipEvents": {clip: [[t, event]]},
    /// "attachments": [attachments in .mskel form, e.g. a named skin's]}`.
    #[arg(long, value_name = "CLIPS.json")]
    clips: Option<PathBuf>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Overlay {
    #[serde(default)]
    clips: std::collections::BTreeMap<String, ClipData>,
    #[serde(default)]
    events: Vec<String>,
    #[serde(default)]
    clip_events: std::collections::BTreeMap<String, Vec<(f32, String)>>,
    /// Attachments added after the imported ones (skins authored on top of an import).
    #[serde(default)]
    attachments: Vec<animgraph_2d::data::AttachmentData>,
}

fn fail(message: String) -> ExitCode {
    eprintln!("{message}");
    ExitCode::FAILURE
}

pub fn run(args: &Args) -> ExitCode {
    let extension = args.input.extension().and_then(|e| e.to_str()).unwrap_or("");
    if extension == "skel" {
        return fail(format!(
            "{}: binary Spine exports (.skel) are not supported; export JSON from Spine (Export > JSON) and import the .json",
            args.input.display()
        ));
    }
    let text = match animgraph_runtime::files::read_text(&args.input, 256 << 20) {
        Ok(t) => t,
        Err(e) => return fail(format!("cannot read {}: {e}", args.input.display())),
    };
    let (mut data, warnings): (Skeleton2DData, Vec<String>) = match extension {
        "tscn" => match godot::import_scene(&text) {
            Ok(imported) => (imported.data, imported.warnings),
            Err(e) => return fail(format!("{}: {e}", args.input.display())),
        },
        "json" => {
            let atlas_path = args.atlas.clone().or_else(|| animgraph_2d::spine::find_atlas(&args.input));
            let atlas = match &atlas_path {
                Some(path) => match animgraph_runtime::files::read_text(path, 64 << 20) {
                    Ok(t) => Some(t),
                    Err(e) => return fail(format!("cannot read {}: {e}", path.display())),
                },
                None => {
                    eprintln!(
                        "{}: warning: no .atlas found beside it (give one with --atlas); attachments draw flat",
                        args.input.display()
                    );
                    None
                }
            };
            match animgraph_2d::spine::import_spine_with_atlas(&text, atlas.as_deref()) {
                Ok(mut imported) => {
                    // Page images are named relative to the atlas; the .mskel names them
                    // relative to itself (pages are copied beside it).
                    if let (Some(atlas), Some(path)) = (&mut imported.data.atlas, &atlas_path) {
                        let atlas_dir = path.parent().unwrap_or(Path::new("."));
                        let input_dir = args.input.parent().unwrap_or(Path::new("."));
                        if atlas_dir != input_dir {
                            for page in &mut atlas.pages {
                                let from = atlas_dir.join(&page.image);
                                page.image = from
                                    .strip_prefix(input_dir)
                                    .map(|p| p.display().to_string())
                                    .unwrap_or_else(|_| page.image.clone());
                            }
                        }
                    }
                    (imported.data, imported.warnings)
                }
                Err(e) => {
                    let source = atlas_path.map_or(args.input.display().to_string(), |a| {
                        format!("{} (with {})", args.input.display(), a.display())
                    });
                    return fail(format!("{source}: {e}"));
                }
            }
        }
        other => {
            return fail(format!(
                "{}: cannot import .{other} files; use a Godot 4 scene (.tscn) or Spine 4.0-4.2 JSON (.json)",
                args.input.display()
            ));
        }
    };
    for w in &warnings {
        eprintln!("{}: warning: {w}", args.input.display());
    }
    if let Some(path) = &args.clips {
        let overlay: Overlay = match animgraph_runtime::files::read_text(path, 64 << 20)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(o) => o,
            Err(e) => return fail(format!("{}: {e}", path.display())),
        };
        for event in overlay.events {
            if !data.events.contains(&event) {
                data.events.push(event);
            }
        }
        for (name, clip) in overlay.clips {
            if data.clips.insert(name.clone(), clip).is_some() {
                eprintln!("{}: clip \"{name}\" replaces the imported one", path.display());
            }
        }
        data.attachments.extend(overlay.attachments);
        for (name, events) in overlay.clip_events {
            match data.clips.get_mut(&name) {
                Some(clip) => {
                    clip.events.extend(events);
                    clip.events.sort_by(|a, b| a.0.total_cmp(&b.0));
                }
                None => {
                    return fail(format!(
                        "{}: clipEvents names a clip \"{name}\" that does not exist",
                        path.display()
                    ));
                }
            }
        }
    }
    let issues = data.validate();
    if !issues.is_empty() {
        // Named after the file the user gave (the overlay when it has clips), with the place in
        // the skeleton converted from it.
        let source = match &args.clips {
            Some(clips) => format!("{} (with {})", args.input.display(), clips.display()),
            None => args.input.display().to_string(),
        };
        for i in &issues {
            eprintln!("{source}: in the converted skeleton, {i}");
        }
        return fail(format!(
            "{source}: the imported skeleton is invalid; nothing was written to {}",
            args.output.display()
        ));
    }
    let uid = format!("res_{:012x}", fnv(&args.output.display().to_string()));
    if let Err(e) = data.save(&args.output, &uid) {
        return fail(e.to_string());
    }
    let images: Vec<String> = data
        .texture
        .iter()
        .cloned()
        .chain(data.atlas.iter().flat_map(|a| a.pages.iter().map(|p| p.image.clone())))
        .collect();
    for texture in &images {
        // Copied through the atomic writer, so a killed import never leaves a truncated PNG;
        // the texture may not name a file outside the input's or the output's folder.
        let (input_dir, output_dir) =
            (args.input.parent().unwrap_or(Path::new(".")), args.output.parent().unwrap_or(Path::new(".")));
        let paths =
            animgraph_runtime::files::resolve_inside(input_dir, Path::new(texture)).and_then(|from| {
                Ok((from, animgraph_runtime::files::resolve_inside(output_dir, Path::new(texture))?))
            });
        match paths {
            Err(e) => eprintln!("warning: the image {texture} is not copied: {e}"),
            Ok((from, to)) if from.exists() && !to.exists() => {
                let copied = animgraph_runtime::files::read_bounded(&from, 256 << 20)
                    .and_then(|bytes| animgraph_runtime::files::write_atomic(&to, &bytes));
                if let Err(e) = copied {
                    eprintln!("warning: could not copy {}: {e}", from.display());
                }
            }
            Ok(_) => {}
        }
    }
    println!(
        "{}: {} bones, {} slots, {} clips ({})",
        args.output.display(),
        data.bones.len(),
        data.slots.len(),
        data.clips.len(),
        data.clips.keys().cloned().collect::<Vec<_>>().join(", ")
    );
    ExitCode::SUCCESS
}

/// A stable short hash for uids.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf29ce484222325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3))
        & 0xffff_ffff_ffff
}
