//! Writes each fuzz target's seed inputs into `DIR/<target>/` (`fuzz/corpus` by default), for
//! `cargo fuzz run <target>` to start from: `cargo run -p animgraph-robustness --example
//! seed_corpus -- fuzz/corpus`.

fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "fuzz/corpus".into()));
    for (name, _) in animgraph_robustness::targets::ALL {
        let folder = dir.join(name);
        if let Err(e) = std::fs::create_dir_all(&folder) {
            eprintln!("{}: {e}", folder.display());
            std::process::exit(1);
        }
        for (i, seed) in animgraph_robustness::seeds::seeds(name).iter().enumerate() {
            let file = folder.join(format!("seed-{i}"));
            if let Err(e) = animgraph_runtime::files::write_atomic(&file, seed) {
                eprintln!("{}: {e}", file.display());
                std::process::exit(1);
            }
        }
        println!("{name}: {} seeds", animgraph_robustness::seeds::seeds(name).len());
    }
}
