//! `animgraph-editor [FILE.mres ...]`: the animgraph editor. Without arguments it opens the
//! bundled GBot graph.

fn main() -> eframe::Result {
    let paths = std::env::args_os().skip(1).map(std::path::PathBuf::from).collect();
    animgraph_editor::run(paths)
}
