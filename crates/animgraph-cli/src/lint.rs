//! `animgraph lint GRAPH.mres... [--skeleton FILE] [--json]`

use std::path::PathBuf;
use std::process::ExitCode;

use animgraph_runtime::graph::Severity;
use animgraph_runtime::lint::{SkeletonFacts, lint};
use animgraph_runtime::mres;

/// Arguments of `lint`.
#[derive(clap::Args)]
pub struct Args {
    /// The graphs to lint.
    #[arg(required = true, value_name = "GRAPH.mres")]
    files: Vec<PathBuf>,
    /// Also check clips and mask bones against this skeleton (.mskel, .glb, .gltf).
    #[arg(long, value_name = "FILE")]
    skeleton: Option<PathBuf>,
    /// With --skeleton: a JSON object mapping the graph's clip names to the skeleton's.
    #[arg(long, value_name = "MAP.json", requires = "skeleton")]
    clip_map: Option<PathBuf>,
    /// With a glTF skeleton: clip libraries, glTF files whose animations drive the character
    /// (joints matched by name; translations keep the character's rest, see the README).
    #[arg(long = "clips", value_name = "LIB.glb", num_args = 1.., requires = "skeleton")]
    clips: Vec<PathBuf>,
    /// Print one JSON object instead of lines: {"files": [{"file", "errors", "warnings",
    /// "findings": [{"code", "name", "severity", "path", "resource", "property", "line",
    /// "subject", "message", "fix"}]}]}.
    #[arg(long)]
    json: bool,
}

/// Lints each file; exits 1 when any has an error (a lint error, or a file that does not load).
pub fn run(args: &Args) -> ExitCode {
    let facts = match &args.skeleton {
        None => None,
        Some(path) => match crate::skeleton::load(path, args.clip_map.as_deref(), &args.clips) {
            Ok(character) => {
                let all = character.clips();
                let marked_clips = all.iter().filter(|c| c.markers > 0).map(|c| c.name.clone()).collect();
                let mut clips: Vec<String> = all.into_iter().map(|c| c.name).collect();
                if let Some(map) = &args.clip_map {
                    let text = animgraph_runtime::files::read_text(map, 1 << 20).unwrap_or_default();
                    let aliases: std::collections::BTreeMap<String, String> =
                        serde_json::from_str(&text).unwrap_or_default();
                    clips.extend(aliases.into_keys());
                }
                let bones = character.bones().into_iter().map(|b| b.name).collect();
                Some(SkeletonFacts { clips, bones, marked_clips })
            }
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let mut failed = false;
    let mut files = Vec::new();
    for file in &args.files {
        let name = file.display().to_string();
        let loaded = mres::read_text(file).and_then(|text| mres::load_str_located(&text));
        let (graph, origins) = match loaded {
            Ok((l, o)) => (l.graph, o),
            Err(e) => {
                failed = true;
                if args.json {
                    files.push(serde_json::json!({ "file": name, "errors": 1, "warnings": 0, "load_error": e.to_string(), "findings": [] }));
                } else {
                    println!("{name}: does not load (fix these first; `animgraph validate` explains them):");
                    for line in e.to_string().lines() {
                        println!("  {line}");
                    }
                }
                continue;
            }
        };
        let findings = lint(&graph, facts.as_ref());
        let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
        let warnings = findings.len() - errors;
        failed |= errors > 0;
        if args.json {
            let list: Vec<serde_json::Value> = findings
                .iter()
                .map(|f| {
                    let at = origins.locate(&f.path);
                    serde_json::json!({
                        "code": f.code.id(), "name": f.code.name(),
                        "severity": if f.severity == Severity::Error { "error" } else { "warning" },
                        "path": f.path, "resource": at.resource, "property": at.property, "line": at.line, "column": at.column,
                        "subject": f.subject, "message": f.message, "fix": f.fix,
                    })
                })
                .collect();
            files.push(
                serde_json::json!({ "file": name, "errors": errors, "warnings": warnings, "findings": list }),
            );
            continue;
        }
        if findings.is_empty() {
            println!("{name}: clean");
            continue;
        }
        println!("{name}: {errors} error(s), {warnings} warning(s)");
        for f in &findings {
            let at = origins.locate(&f.path);
            let name = if at.property.is_empty() {
                at.resource.clone()
            } else {
                format!("{}.{}", at.resource, at.property)
            };
            let place = match (at.line, at.column) {
                (Some(line), Some(column)) => format!("{name} (line {line}, column {column})"),
                (Some(line), None) => format!("{name} (line {line})"),
                _ => name,
            };
            let severity = if f.severity == Severity::Error { "error" } else { "warning" };
            println!("  {severity} {} {}: {place}: {}: {}", f.code, f.code.name(), f.subject, f.message);
            println!("      fix: {}", f.fix);
        }
    }
    if args.json {
        println!("{}", serde_json::json!({ "files": files }));
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
