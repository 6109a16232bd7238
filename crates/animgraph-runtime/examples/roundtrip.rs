//! Loads a .mres file, prints its warnings and writes it back to stdout.
fn main() {
    let path = std::env::args().nth(1).expect("usage: roundtrip FILE.mres");
    match animgraph_runtime::mres::load_file(&path) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                eprintln!("{w}");
            }
            print!("{}", animgraph_runtime::mres::save_to_string(&loaded.graph));
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
