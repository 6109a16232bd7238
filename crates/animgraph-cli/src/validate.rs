//! `animgraph validate FILE...`

use std::path::PathBuf;
use std::process::ExitCode;

use animgraph_runtime::mres;

/// Arguments of `validate`.
#[derive(clap::Args)]
pub struct Args {
    /// The .mres files to check.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print warnings for valid files too (they are always printed for invalid ones).
    #[arg(long, short)]
    warnings: bool,
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("{n} {word}") } else { format!("{n} {word}s") }
}

pub fn run(args: &Args) -> ExitCode {
    let mut invalid = 0;
    for file in &args.files {
        let name = file.display();
        match mres::load_file(file) {
            Ok(loaded) => {
                let s = loaded.graph.stats();
                let warnings = if loaded.warnings.is_empty() {
                    String::new()
                } else {
                    format!(", {}", plural(loaded.warnings.len(), "warning"))
                };
                println!(
                    "{name}: ok: {}, {}, {}, {}, {}{warnings}",
                    plural(s.parameters, "parameter"),
                    plural(s.layers, "layer"),
                    plural(s.states, "state"),
                    plural(s.transitions, "transition"),
                    plural(s.blend_spaces, "blend space"),
                );
                if args.warnings {
                    for w in &loaded.warnings {
                        println!("  {w}");
                    }
                }
            }
            Err(mres::MresError::Invalid(diagnostics)) => {
                invalid += 1;
                let errors = diagnostics.iter().filter(|d| d.is_error()).count();
                println!("{name}: invalid: {}", plural(errors, "error"));
                for d in &diagnostics {
                    println!("  {d}");
                }
            }
            Err(e) => {
                invalid += 1;
                println!("{name}: invalid: {e}");
            }
        }
    }
    if invalid > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
