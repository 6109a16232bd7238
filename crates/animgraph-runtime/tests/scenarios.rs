//! Golden scenarios (STYLE.md tier 2): each `tests/scenarios/*.json` names a graph, runs a
//! parameter script and compares the trace of events (and, at probe frames, states and samples)
//! with the expected one.
//!
//! A scenario file: `{ "description", "graph": "graphs/x.mres", "script": {...}, "probes": [frame,
//! ...], "trace": ["<frame> L<layer> <event>", ...] }`. Run with `UPDATE_GOLDENS=1` to write the
//! actual traces into the files (then review every changed line before committing).

use std::path::Path;

use animgraph_runtime::mres;
use animgraph_runtime::script::{FrameRecord, Script, Simulation};
use serde_json::Value;

fn trace(records: &[FrameRecord], probes: &[u64]) -> Vec<String> {
    let mut lines = Vec::new();
    for r in records {
        for e in &r.events {
            let what = match (&e.state, &e.from, &e.to, &e.clip) {
                (Some(s), _, _, _) if e.window.is_some() => {
                    format!("{s} {}", e.window.as_deref().unwrap_or(""))
                }
                (Some(s), _, _, _) => s.clone(),
                (None, None, Some(t), _) => format!("-> {t}"),
                (None, Some(f), Some(t), _) => format!("{f} -> {t}"),
                (_, _, _, Some(clip)) => clip.clone(),
                _ => String::new(),
            };
            lines.push(format!("{} L{} {} {what}", r.frame, e.layer, e.kind));
        }
        if probes.contains(&(r.frame as u64)) {
            for (l, layer) in r.layers.iter().enumerate() {
                let mix = match (&layer.transition_to, layer.transition_progress) {
                    (Some(to), Some(p)) => format!(" mix {to} {p:.3}"),
                    _ => String::new(),
                };
                let mut extra = String::new();
                if !layer.windows.is_empty() {
                    extra += &format!(" windows {}", layer.windows.join(","));
                }
                if !layer.travel.is_empty() {
                    let hops: Vec<String> = layer.travel.iter().map(|[f, t]| format!("{f} -> {t}")).collect();
                    extra += &format!(" travel {}", hops.join(", "));
                }
                lines.push(format!(
                    "{} L{l} state {} t {:.3}{mix} weight {:.3}{extra}",
                    r.frame, layer.state, layer.normalised_time, layer.weight
                ));
            }
            for s in &r.samples {
                lines.push(format!(
                    "{} L{} sample {} w {:.4} time {:.4} prev {:.4}{}",
                    r.frame,
                    s.layer,
                    s.clip,
                    s.weight,
                    s.time,
                    s.prev_time,
                    if s.looped { " looped" } else { "" }
                ));
            }
        }
    }
    lines
}

fn run_scenario(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut file: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let dir = path.parent().unwrap();
    let graph_path = dir.join(file["graph"].as_str().ok_or("no graph")?);
    let graph = mres::load_file(&graph_path).map_err(|e| format!("{}: {e}", graph_path.display()))?.graph;
    let script = Script::parse(&file["script"].to_string()).map_err(|e| e.to_string())?;
    let probes: Vec<u64> = file
        .get("probes")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let records = Simulation::recording(&graph, &script)
        .map_err(|e| e.to_string())?
        .run_to_end()
        .map_err(|e| e.to_string())?;
    let actual = trace(&records, &probes);
    if std::env::var_os("UPDATE_GOLDENS").is_some() {
        file["trace"] = Value::from(actual);
        let pretty = serde_json::to_string_pretty(&file).unwrap() + "\n";
        std::fs::write(path, pretty).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected: Vec<String> = file["trace"]
        .as_array()
        .ok_or("no trace (run with UPDATE_GOLDENS=1 and review it)")?
        .iter()
        .map(|v| v.as_str().unwrap_or("").to_string())
        .collect();
    if actual != expected {
        let mut diff = String::new();
        for i in 0..actual.len().max(expected.len()) {
            let (a, e) = (actual.get(i), expected.get(i));
            if a != e {
                diff.push_str(&format!("  line {i}: expected {e:?}\n           actual   {a:?}\n"));
            }
        }
        return Err(format!("trace differs:\n{diff}"));
    }
    Ok(())
}

#[test]
fn golden_scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 15, "expected the full set of scenarios, found {}", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        if let Err(e) = run_scenario(path) {
            failures.push(format!("{}: {e}", path.file_name().unwrap().to_string_lossy()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
}
