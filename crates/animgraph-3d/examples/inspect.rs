//! Prints what a glTF file imports as: `cargo run -p animgraph-3d --example inspect -- FILE.glb`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: inspect FILE.glb");
    let imported = animgraph_3d::import::import_file(&path).unwrap_or_else(|e| panic!("{e}"));
    let s = &imported.skeleton;
    println!(
        "{} joints; roots: {:?}",
        s.bone_count(),
        s.parents
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_none())
            .map(|(i, _)| &s.names[i])
            .collect::<Vec<_>>()
    );
    for c in &s.clips {
        println!("  clip {:<12} {:.4} s, {} channels", c.name, c.duration, c.channels.len());
    }
    if let Some(m) = &s.mesh {
        println!(
            "mesh: {} vertices, {} triangles, {} materials, {} textures",
            m.positions.len(),
            m.triangles.len(),
            m.materials.len(),
            m.textures.len()
        );
    }
    for w in &imported.warnings {
        println!("warning: {w}");
    }
}
