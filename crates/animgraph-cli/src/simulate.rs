//! `animgraph simulate GRAPH.mres --script S.json`

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use animgraph::mres;
use animgraph::script::{Script, Simulation};

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
    let script = match std::fs::read_to_string(&args.script) {
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
    let mut simulation = match Simulation::recording(&graph, &script) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {e}", args.script.display());
            return ExitCode::FAILURE;
        }
    };
    for warning in simulation.player.warnings() {
        eprintln!("{}: warning: {warning}", args.graph.display());
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    while !simulation.done() {
        if let Err(e) = simulation.step() {
            let _ = out.flush();
            eprintln!("{}: {e}", args.script.display());
            return ExitCode::FAILURE;
        }
        let record = simulation.record();
        let line = serde_json::to_string(&record).expect("records serialise");
        if writeln!(out, "{line}").is_err() {
            return ExitCode::SUCCESS; // stdout closed (e.g. piped into head)
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}
