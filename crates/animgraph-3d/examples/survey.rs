//! Imports glTF files and renders each one's first clip at a few times: a quick look at files
//! other people made. `cargo run --release -p animgraph-3d --example survey -- OUT_DIR FILE...`
use std::sync::Arc;

use animgraph_3d::Skeleton3DPoseBackend;
use animgraph_3d::render::{RenderOptions3D, fit_camera, render};
use animgraph_runtime::{ClipSample, LayerInfo, PoseBackend};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(args.next().expect("OUT_DIR FILE..."));
    std::fs::create_dir_all(&out).unwrap();
    let mut sheet: Vec<tiny_skia::Pixmap> = Vec::new();
    for file in args {
        let name = std::path::Path::new(&file).file_stem().unwrap().to_string_lossy().to_string();
        let imported = match animgraph_3d::import::import_file(&file) {
            Ok(i) => i,
            Err(e) => {
                let e = e.to_string();
                println!("{name}: ERROR ({} chars): {}", e.len(), &e[..e.len().min(300)]);
                continue;
            }
        };
        let s = Arc::new(imported.skeleton);
        let verts = s.mesh.as_ref().map_or(0, |m| m.positions.len());
        let textures = s.mesh.as_ref().map_or(0, |m| m.textures.len());
        println!(
            "{name}: {} bones, {} clips, {verts} vertices, {textures} textures, {} warnings",
            s.bone_count(),
            s.clips.len(),
            imported.warnings.len()
        );
        for w in imported.warnings.iter().take(6) {
            println!("    {w}");
        }
        let mut backend = Skeleton3DPoseBackend::new(Arc::clone(&s));
        let camera = fit_camera(&s, &backend.pose, 256, 256);
        let options = RenderOptions3D { width: 256, height: 256, joints: true, ..Default::default() };
        let clip = s.clips.first().map(|c| (backend.resolve_clip(&c.name).unwrap(), c.duration));
        for k in 0..3 {
            if let Some((id, duration)) = clip {
                let t = duration * k as f32 / 3.0;
                let sample =
                    ClipSample { clip: id, time: t, prev_time: t, weight: 1.0, layer: 0, looped: false };
                backend.apply(&[sample], &[LayerInfo::default()]);
            }
            let image = render(&s, &backend.pose, &camera, &options);
            image.save_png(out.join(format!("{name}_{k}.png"))).unwrap();
            sheet.push(image);
        }
    }
    // One contact sheet, three frames a row (a file per row).
    let rows = sheet.len().div_ceil(3) as u32;
    let mut all = tiny_skia::Pixmap::new(3 * 256, rows.max(1) * 256).unwrap();
    for (i, image) in sheet.iter().enumerate() {
        let (x, y) = ((i % 3) as i32 * 256, (i / 3) as i32 * 256);
        all.draw_pixmap(x, y, image.as_ref(), &Default::default(), tiny_skia::Transform::identity(), None);
    }
    all.save_png(out.join("sheet.png")).unwrap();
}
