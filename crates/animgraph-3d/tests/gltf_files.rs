//! glTF files as users bring them, built byte by byte: broken files are one-line errors (never
//! a panic or a hang), compressed geometry is refused by name, and scene fidelity, influences,
//! names, warnings, external files, texture transforms, rigid hierarchies and morph weights
//! import as glTF means them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use animgraph_3d::import::{import_bytes, import_file};
use animgraph_3d::render::skin_positions;
use animgraph_3d::{Skeleton3D, Skeleton3DPoseBackend};
use animgraph_runtime::{BoneMask, ClipBlend, ClipSample, LayerInfo, PoseBackend};
use base64::Engine;
use glam::Vec3;
use serde_json::{Value, json};

/// A glTF document under construction: JSON plus one binary buffer.
struct Doc {
    json: Value,
    bin: Vec<u8>,
}

impl Doc {
    fn new() -> Doc {
        Doc { json: json!({ "asset": { "version": "2.0" } }), bin: Vec::new() }
    }

    fn push(&mut self, key: &str, value: Value) -> usize {
        let list = self.json.as_object_mut().unwrap().entry(key).or_insert_with(|| json!([]));
        list.as_array_mut().unwrap().push(value);
        list.as_array().unwrap().len() - 1
    }

    fn set(&mut self, key: &str, value: Value) {
        self.json.as_object_mut().unwrap().insert(key.into(), value);
    }

    fn view(&mut self, bytes: &[u8]) -> usize {
        while self.bin.len() % 4 != 0 {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.push("bufferViews", json!({ "buffer": 0, "byteOffset": offset, "byteLength": bytes.len() }))
    }

    fn floats(&mut self, data: &[f32], ty: &str) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|f| f.to_le_bytes()).collect();
        let per = match ty {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            _ => 16,
        };
        let view = self.view(&bytes);
        self.push(
            "accessors",
            json!({ "bufferView": view, "componentType": 5126, "count": data.len() / per, "type": ty }),
        )
    }

    fn raw(&mut self, bytes: &[u8], component: u32, count: usize, ty: &str, normalized: bool) -> usize {
        let view = self.view(bytes);
        self.push(
            "accessors",
            json!({ "bufferView": view, "componentType": component, "count": count, "type": ty, "normalized": normalized }),
        )
    }

    fn buffer(&mut self) -> Value {
        json!([{ "byteLength": self.bin.len() }])
    }

    fn glb(&mut self) -> Vec<u8> {
        let buffers = self.buffer();
        self.set("buffers", buffers);
        let mut json = serde_json::to_vec(&self.json).unwrap();
        while json.len() % 4 != 0 {
            json.push(b' ');
        }
        let mut bin = self.bin.clone();
        while bin.len() % 4 != 0 {
            bin.push(0);
        }
        let mut out = b"glTF".to_vec();
        out.extend(2u32.to_le_bytes());
        out.extend(((12 + 8 + json.len() + 8 + bin.len()) as u32).to_le_bytes());
        out.extend((json.len() as u32).to_le_bytes());
        out.extend(0x4E4F_534Au32.to_le_bytes());
        out.extend(json);
        out.extend((bin.len() as u32).to_le_bytes());
        out.extend(0x004E_4942u32.to_le_bytes());
        out.extend(bin);
        out
    }

    /// The document as a `.gltf` with its buffer at `uri` (written by the caller).
    fn gltf(&mut self, uri: &str) -> Vec<u8> {
        self.set("buffers", json!([{ "byteLength": self.bin.len(), "uri": uri }]));
        serde_json::to_vec(&self.json).unwrap()
    }
}

/// One triangle (in the xy plane, 1 unit) skinned to joint 0, with normals and uvs.
fn triangle(doc: &mut Doc) -> (usize, usize, usize) {
    let p = doc.floats(&[0., 0., 0., 1., 0., 0., 0., 1., 0.], "VEC3");
    let n = doc.floats(&[0., 0., 1., 0., 0., 1., 0., 0., 1.], "VEC3");
    let uv = doc.floats(&[0.5, 0.25, 0.5, 0.25, 0.5, 0.75], "VEC2");
    (p, n, uv)
}

/// A skin over `joints` (identity inverse binds), a triangle mesh node using it.
fn skinned(doc: &mut Doc, joints: &[usize], extra: Value) -> usize {
    let identity: Vec<f32> = (0..joints.len())
        .flat_map(|_| [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.])
        .collect();
    let ibm = doc.floats(&identity, "MAT4");
    doc.push("skins", json!({ "joints": joints, "inverseBindMatrices": ibm }));
    let (p, n, uv) = triangle(doc);
    let j = doc.raw(&[0u8; 12], 5121, 3, "VEC4", false);
    let w = doc.floats(&[1., 0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 0.], "VEC4");
    let mut attributes =
        json!({ "POSITION": p, "NORMAL": n, "TEXCOORD_0": uv, "JOINTS_0": j, "WEIGHTS_0": w });
    if let Value::Object(more) = extra {
        attributes.as_object_mut().unwrap().extend(more);
    }
    let mesh = doc.push("meshes", json!({ "primitives": [ { "attributes": attributes } ] }));
    doc.push("nodes", json!({ "name": "body", "mesh": mesh, "skin": 0 }))
}

fn error(bytes: &[u8], folder: Option<&Path>) -> String {
    let e = import_bytes(bytes, folder).expect_err("the file is broken").to_string();
    assert!(!e.contains('\n') && e.len() < 400, "one short line: {e}");
    e
}

#[test]
fn malformed_files_are_one_line_errors_or_named_warnings_never_panics() {
    // An image buffer view past the end of the buffer: the texture is skipped by name.
    let mut doc = Doc::new();
    let a = doc.push("nodes", json!({ "name": "a" }));
    skinned(&mut doc, &[a], json!({}));
    doc.push("bufferViews", json!({ "buffer": 0, "byteOffset": 4, "byteLength": 1_000_000 }));
    let view = doc.json["bufferViews"].as_array().unwrap().len() - 1;
    doc.push("images", json!({ "bufferView": view, "mimeType": "image/png" }));
    doc.push("textures", json!({ "source": 0 }));
    doc.push("materials", json!({ "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } }));
    doc.json["meshes"][0]["primitives"][0]["material"] = json!(0);
    let imported = import_bytes(&doc.glb(), None).unwrap();
    assert!(
        imported.warnings.iter().any(|w| w.contains(&format!("bufferViews[{view}] covers bytes 4..1000004"))),
        "{:?}",
        imported.warnings
    );

    // A rotation output stored as u32: the channel is skipped with its reason.
    let mut doc = Doc::new();
    let a = doc.push("nodes", json!({ "name": "a" }));
    skinned(&mut doc, &[a], json!({}));
    let input = doc.floats(&[0.0, 1.0], "SCALAR");
    let output = doc.raw(&[1u8; 32], 5125, 2, "VEC4", false);
    doc.push(
        "animations",
        json!({ "name": "spin", "samplers": [ { "input": input, "output": output } ],
                "channels": [ { "sampler": 0, "target": { "node": a, "path": "rotation" } } ] }),
    );
    let imported = import_bytes(&doc.glb(), None).unwrap();
    assert_eq!(
        imported.warnings,
        ["clip spin: 1 channel skipped: 1 store keys in a component type glTF does not allow there (a)"]
    );

    // A cycle in the hierarchy above the root joint.
    let mut doc = Doc::new();
    let a = doc.push("nodes", json!({ "name": "a" }));
    doc.push("nodes", json!({ "name": "up", "children": [a, 2] }));
    doc.push("nodes", json!({ "name": "loop", "children": [1] }));
    skinned(&mut doc, &[a], json!({}));
    doc.json["nodes"][a]["children"] = json!([]);
    let e = error(&doc.glb(), None);
    assert!(e.contains("cycle"), "{e}");

    // A child that does not exist, an accessor too long for its view, a count past the limit.
    let mut doc = Doc::new();
    doc.push("nodes", json!({ "name": "a", "children": [7] }));
    skinned(&mut doc, &[0], json!({}));
    assert!(error(&doc.glb(), None).contains("nodes[0].children names node 7"));
    let mut doc = Doc::new();
    let a = doc.push("nodes", json!({ "name": "a" }));
    skinned(&mut doc, &[a], json!({}));
    doc.json["accessors"][1]["count"] = json!(1000);
    assert!(error(&doc.glb(), None).contains("do not fit its buffer view"));
    doc.json["accessors"][1]["count"] = json!(4_000_000_000u64);
    assert!(error(&doc.glb(), None).contains("more than the 16777216 allowed"));

    // Buffers outside the folder, special files, truncated containers.
    let mut doc = Doc::new();
    let a = doc.push("nodes", json!({ "name": "a" }));
    skinned(&mut doc, &[a], json!({}));
    let folder = std::env::temp_dir();
    for (uri, expected) in
        [("/dev/zero", "leaves the folder of the file"), ("../x.bin", "leaves the folder of the file")]
    {
        let e = error(&doc.gltf(uri), Some(&folder));
        assert!(e.starts_with("buffers[0]: ") && e.contains(expected), "{e}");
    }
    let glb = doc.glb();
    assert!(error(&glb[..glb.len() - 10], None).contains("truncated"));
    let e = error(b"{ \"asset\": 3 }", None);
    assert!(e.starts_with("not a valid glTF 2.0 file: asset: invalid type"), "{e}");
    // A type error deep in the JSON names its path, not only a column.
    let e = error(
        br#"{ "asset": { "version": "2.0" }, "nodes": [ { "name": "a" }, { "children": [1, [2]] } ] }"#,
        None,
    );
    assert!(e.starts_with("not a valid glTF 2.0 file: nodes[1].children[1]: invalid type"), "{e}");
}

#[test]
fn compressed_geometry_is_refused_in_one_line_naming_the_extension_and_the_fix() {
    for (extension, required) in [
        ("EXT_meshopt_compression", false),
        ("KHR_draco_mesh_compression", true),
        ("EXT_meshopt_compression", true),
    ] {
        let mut doc = Doc::new();
        let a = doc.push("nodes", json!({ "name": "a" }));
        skinned(&mut doc, &[a], json!({}));
        doc.set("extensionsUsed", json!([extension]));
        if required {
            doc.set("extensionsRequired", json!([extension]));
        }
        let e = error(&doc.glb(), None);
        assert!(e.starts_with(&format!("{extension}: ")), "{e}");
        assert!(e.contains("npx @gltf-transform/cli copy in.glb out.glb"), "{e}");
    }
    // Draco that is only used (with uncompressed fallbacks) imports.
    let mut doc = Doc::new();
    let a = doc.push("nodes", json!({ "name": "a" }));
    skinned(&mut doc, &[a], json!({}));
    doc.set("extensionsUsed", json!(["KHR_draco_mesh_compression"]));
    assert!(import_bytes(&doc.glb(), None).is_ok());
}

fn world(skeleton: &Arc<Skeleton3D>, bone: &str) -> Vec3 {
    let backend = Skeleton3DPoseBackend::new(Arc::clone(skeleton));
    Vec3::from(backend.pose.world[skeleton.bone_index(bone).unwrap()].translation)
}

#[test]
fn nodes_between_joints_and_above_each_root_contribute_their_transforms() {
    let mut doc = Doc::new();
    // Armature (z + 5) -> A (x + 1) -> socket (y + 2) -> B (z + 1); Armature -> Turn (90 deg
    // about y) -> C (x + 1): two roots (A and C), each with its own ancestors.
    let turn = [0.0, std::f32::consts::FRAC_1_SQRT_2, 0.0, std::f32::consts::FRAC_1_SQRT_2];
    doc.push("nodes", json!({ "name": "Armature", "translation": [0, 0, 5], "children": [1, 3] }));
    doc.push("nodes", json!({ "name": "A", "translation": [1, 0, 0], "children": [2] }));
    doc.push("nodes", json!({ "name": "socket", "translation": [0, 2, 0], "children": [4] }));
    doc.push("nodes", json!({ "name": "Turn", "rotation": turn, "children": [5] }));
    doc.push("nodes", json!({ "name": "B", "translation": [0, 0, 1] }));
    doc.push("nodes", json!({ "name": "C", "translation": [1, 0, 0] }));
    skinned(&mut doc, &[1, 4, 5], json!({}));
    let s = Arc::new(import_bytes(&doc.glb(), None).unwrap().skeleton);
    assert_eq!(s.names, ["A", "B", "C"]);
    assert_eq!(s.parents, [None, Some(0), None]);
    assert!(world(&s, "A").abs_diff_eq(Vec3::new(1.0, 0.0, 5.0), 1e-5));
    assert!(world(&s, "B").abs_diff_eq(Vec3::new(1.0, 2.0, 6.0), 1e-5));
    assert!(world(&s, "C").abs_diff_eq(Vec3::new(0.0, 0.0, 4.0), 1e-5), "{}", world(&s, "C"));
}

#[test]
fn eight_influences_unique_names_and_one_warning_line_per_reason() {
    let mut doc = Doc::new();
    for _ in 0..3 {
        doc.push("nodes", json!({ "name": "Bone" }));
    }
    doc.push("nodes", json!({ "name": "Camera" }));
    doc.push("nodes", json!({ "name": "Lamp", "translation": [0, 3, 0] }));
    // JOINTS_1 / WEIGHTS_1: vertex 0 puts half its weight on joint 2 through the second set.
    let joints1 = doc.raw(&[2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 5121, 3, "VEC4", false);
    let weights1 = doc.floats(&[0.5, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.], "VEC4");
    skinned(&mut doc, &[0, 1, 2], json!({ "JOINTS_1": joints1, "WEIGHTS_1": weights1 }));
    let times = doc.floats(&[0.0, 1.0], "SCALAR");
    let moving = doc.floats(&[0., 0., 0., 1., 1., 1.], "VEC3");
    let resting = doc.floats(&[0., 3., 0., 0., 3., 0.], "VEC3");
    for name in ["Walk", "Walk", "Run"] {
        doc.push(
            "animations",
            json!({ "name": name,
                "samplers": [ { "input": times, "output": moving }, { "input": times, "output": resting } ],
                "channels": [
                    { "sampler": 0, "target": { "node": 0, "path": "translation" } },
                    { "sampler": 0, "target": { "node": 3, "path": "translation" } },
                    { "sampler": 0, "target": { "node": 3, "path": "scale" } },
                    { "sampler": 1, "target": { "node": 4, "path": "translation" } } ] }),
        );
    }
    let imported = import_bytes(&doc.glb(), None).unwrap();
    let s = &imported.skeleton;
    assert_eq!(s.names, ["Bone", "Bone.1", "Bone.2"]);
    let clips: Vec<&str> = s.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(clips, ["Walk", "Walk.1", "Run"]);
    assert_eq!(
        imported.warnings,
        [
            "2 joint names repeat; the later ones are renamed so each is named once: Bone -> Bone.1, Bone -> Bone.2",
            "1 animation names repeat; the later ones are renamed so each is named once: Walk -> Walk.1",
            // Lamp's channel never moves it from its rest: no warning.
            "clips Walk, Walk.1, Run: 2 channels skipped: 2 drive nodes that are not joints (Camera)",
        ]
    );
    let mesh = s.mesh.as_ref().unwrap();
    assert_eq!((mesh.joints[0][4], mesh.weights[0][4]), (2, 0.5), "the fifth influence");
}

#[test]
fn external_files_are_percent_decoded_and_data_uri_and_jpeg_textures_load() {
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gltf-external");
    std::fs::create_dir_all(&folder).unwrap();
    let jpeg = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/red_over_blue.jpg"))
        .unwrap();
    std::fs::write(folder.join("red over blue.jpg"), jpeg).unwrap();
    let mut png = tiny_skia::Pixmap::new(2, 2).unwrap();
    png.fill(tiny_skia::Color::from_rgba8(0, 255, 0, 255));
    let png = base64::engine::general_purpose::STANDARD.encode(png.encode_png().unwrap());

    let mut doc = Doc::new();
    let a = doc.push("nodes", json!({ "name": "a" }));
    skinned(&mut doc, &[a], json!({}));
    doc.push("images", json!({ "uri": "red%20over%20blue.jpg" }));
    doc.push("images", json!({ "uri": format!("data:image/png;base64,{png}") }));
    doc.push("textures", json!({ "source": 0 }));
    doc.push("textures", json!({ "source": 1 }));
    doc.push("materials", json!({ "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } }));
    let primitive = doc.json["meshes"][0]["primitives"][0].clone();
    let mut second = primitive.clone();
    second["material"] = json!(1);
    doc.push(
        "materials",
        json!({ "pbrMetallicRoughness": { "baseColorTexture": { "index": 1,
        "extensions": { "KHR_texture_transform": { "offset": [0.25, 0.0], "scale": [2.0, 2.0] } } } } }),
    );
    doc.json["meshes"][0]["primitives"] =
        json!([ { "material": 0, "attributes": primitive["attributes"] }, second ]);
    let gltf = doc.gltf("my%20data.bin");
    std::fs::write(folder.join("my data.bin"), &doc.bin).unwrap();
    std::fs::write(folder.join("character.gltf"), gltf).unwrap();

    let imported = import_file(folder.join("character.gltf")).unwrap();
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let mesh = imported.skeleton.mesh.unwrap();
    assert_eq!(mesh.textures.len(), 2);
    let (jpeg, w, h) = &mesh.textures[0];
    assert_eq!((*w, *h), (16, 16));
    let top = &jpeg[..4];
    let bottom = &jpeg[(15 * 16) * 4..(15 * 16) * 4 + 4];
    assert!(top[0] > 200 && top[2] < 60 && bottom[2] > 200 && bottom[0] < 60, "{top:?} {bottom:?}");
    assert_eq!(&mesh.textures[1].0[..4], &[0, 255, 0, 255]);
    // The second primitive's uvs went through the transform: uv x 2 + (0.25, 0).
    assert_eq!(mesh.uvs[3], glam::Vec2::new(1.25, 0.5));
    assert_eq!(mesh.uvs[0], glam::Vec2::new(0.5, 0.25));
}

/// A prop without a skin: Body (a triangle) with a child Wheel (a triangle one unit up), the
/// body moving along x and the wheel's morph target lifting its first vertex.
fn prop() -> Vec<u8> {
    let mut doc = Doc::new();
    let (p, n, uv) = triangle(&mut doc);
    let lift = doc.floats(&[0., 1., 0., 0., 0., 0., 0., 0., 0.], "VEC3");
    let push = doc.floats(&[0., 0., 1., 0., 0., 0., 0., 0., 0.], "VEC3");
    let body = doc.push(
        "meshes",
        json!({ "primitives": [ { "attributes": { "POSITION": p, "NORMAL": n, "TEXCOORD_0": uv } } ] }),
    );
    let wheel = doc.push(
        "meshes",
        json!({ "weights": [0.0, 0.0], "primitives": [ { "attributes": { "POSITION": p },
        "targets": [ { "POSITION": lift }, { "POSITION": push } ] } ] }),
    );
    doc.push("nodes", json!({ "name": "Body", "mesh": body, "children": [1] }));
    doc.push("nodes", json!({ "name": "Wheel", "mesh": wheel, "translation": [0, 1, 0] }));
    doc.push("scenes", json!({ "nodes": [0] }));
    let times = doc.floats(&[0.0, 1.0], "SCALAR");
    let along = doc.floats(&[0., 0., 0., 4., 0., 0.], "VEC3");
    let weights = doc.floats(&[0., 0., 1., 0.5], "SCALAR");
    doc.push(
        "animations",
        json!({ "name": "drive",
            "samplers": [ { "input": times, "output": along }, { "input": times, "output": weights } ],
            "channels": [ { "sampler": 0, "target": { "node": 0, "path": "translation" } },
                          { "sampler": 1, "target": { "node": 1, "path": "weights" } } ] }),
    );
    doc.glb()
}

fn sample(clip: animgraph_runtime::ClipId, time: f32, layer: u8) -> ClipSample {
    ClipSample { clip, time, prev_time: time, weight: 1.0, layer, looped: false }
}

#[test]
fn a_file_without_a_skin_plays_as_a_rigid_hierarchy_with_morph_weights() {
    let imported = import_bytes(&prop(), None).unwrap();
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let s = Arc::new(imported.skeleton);
    assert_eq!(s.names, ["Body", "Wheel"]);
    assert_eq!(s.morph_groups.len(), 1);
    assert_eq!(
        (s.morph_groups[0].name.as_str(), s.names[s.morph_groups[0].owner as usize].as_str()),
        ("Wheel.morph", "Wheel")
    );
    let mut b = Skeleton3DPoseBackend::new(Arc::clone(&s));
    let drive = b.resolve_clip("drive").unwrap();
    b.apply(&[sample(drive, 0.5, 0)], &[LayerInfo::default()]);
    assert!(world(&s, "Wheel").abs_diff_eq(Vec3::Y, 1e-6), "rest");
    assert!(Vec3::from(b.pose.world[1].translation).abs_diff_eq(Vec3::new(2.0, 1.0, 0.0), 1e-5));
    assert_eq!(b.pose.morph_weights, [0.5, 0.25]);
    assert_eq!(b.morph_pose(), [("Wheel".to_string(), vec![0.5, 0.25])]);
    // The renderer moves the wheel's first vertex by the weighted targets, riding the node.
    let mut skinned = Vec::new();
    skin_positions(&s, &b.pose, &mut skinned);
    assert_eq!(skinned.len(), 6);
    assert!(skinned[0].0.abs_diff_eq(Vec3::new(2.0, 0.0, 0.0), 1e-5), "body vertex 0 {}", skinned[0].0);
    assert!(skinned[3].0.abs_diff_eq(Vec3::new(2.0, 1.5, 0.25), 1e-5), "wheel vertex 0 {}", skinned[3].0);
}

#[test]
fn morph_weights_blend_inside_the_layering_contract() {
    let s = Arc::new(import_bytes(&prop(), None).unwrap().skeleton);
    let mut b = Skeleton3DPoseBackend::new(Arc::clone(&s));
    let drive = b.resolve_clip("drive").unwrap();
    let body_only = b.resolve_mask(&BoneMask::new(vec!["Body".into()], false));
    let by_name = b.resolve_mask(&BoneMask::new(vec!["Wheel.morph".into()], false));
    let by_owner = b.resolve_mask(&BoneMask::new(vec!["Body".into()], true));
    assert!(b.warnings().is_empty(), "{:?}", b.warnings());
    let layer = |blend, weight, mask| LayerInfo { blend, weight, mask, ..Default::default() };
    // Replace at half weight over the defaults (0, 0): halfway to (1, 0.5).
    b.apply(&[sample(drive, 1.0, 0)], &[layer(ClipBlend::Replace, 0.5, None)]);
    assert_eq!(b.pose.morph_weights, [0.5, 0.25]);
    // Additive adds the difference from the defaults on top of the layer below.
    b.apply(
        &[sample(drive, 0.5, 0), sample(drive, 1.0, 1)],
        &[layer(ClipBlend::Replace, 1.0, None), layer(ClipBlend::Additive, 1.0, None)],
    );
    assert_eq!(b.pose.morph_weights, [1.5, 0.75]);
    // Masks: a mask of the body alone leaves the wheel's weights; naming the group, or its
    // owner's parent with children, includes them.
    for (mask, expected) in [(body_only, [0.0, 0.0]), (by_name, [1.0, 0.5]), (by_owner, [1.0, 0.5])] {
        b.apply(&[sample(drive, 1.0, 0)], &[layer(ClipBlend::Replace, 1.0, mask)]);
        assert_eq!(b.pose.morph_weights, expected, "{:?}", mask.map(|m| b.mask_bones(m)));
    }
}

#[test]
fn a_quantized_file_poses_like_the_float_original() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let float = Arc::new(
        import_file(root.join("../../assets/characters/robot/RobotExpressive.glb")).unwrap().skeleton,
    );
    let quantized = import_file(root.join("tests/fixtures/RobotExpressive.quantized.glb")).unwrap();
    assert!(quantized.warnings.is_empty(), "{:?}", quantized.warnings);
    let quantized = Arc::new(quantized.skeleton);
    assert_eq!(quantized.names, float.names);
    assert_eq!(quantized.clips.len(), float.clips.len());
    let pose = |s: &Arc<Skeleton3D>| {
        let mut b = Skeleton3DPoseBackend::new(Arc::clone(s));
        let wave = b.resolve_clip("Wave").unwrap();
        b.apply(&[sample(wave, 0.7, 0)], &[LayerInfo::default()]);
        let mut out = Vec::new();
        skin_positions(s, &b.pose, &mut out);
        let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for (p, _) in &out {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        (lo, hi, out.len())
    };
    let (a, b) = (pose(&float), pose(&quantized));
    // gltfpack welds a few vertices; the posed bounds agree within 1 % of the 4-unit robot.
    assert!(a.0.abs_diff_eq(b.0, 0.04) && a.1.abs_diff_eq(b.1, 0.04), "{a:?} {b:?}");
    assert!(b.2 > 6000, "{} vertices", b.2);
}

fn rig(names: &[&str], hips_rest: Vec3, clips: Vec<animgraph_3d::skeleton::Clip3D>) -> Skeleton3D {
    let parents = (0..names.len()).map(|i| if i == 0 { None } else { Some(0) }).collect();
    let rest = (0..names.len())
        .map(|i| (if i == 0 { hips_rest } else { Vec3::Y }, glam::Quat::IDENTITY, Vec3::ONE))
        .collect();
    Skeleton3D::new(
        names.iter().map(|n| n.to_string()).collect(),
        parents,
        rest,
        glam::Mat4::IDENTITY,
        clips,
        None,
    )
}

fn key(
    joint: u16,
    property: animgraph_3d::skeleton::Property,
    v: glam::Vec4,
) -> animgraph_3d::skeleton::Channel {
    animgraph_3d::skeleton::Channel {
        joint,
        property,
        interpolation: animgraph_3d::skeleton::Interpolation::Linear,
        times: vec![0.0, 1.0],
        values: vec![v, v],
    }
}

#[test]
fn clip_libraries_match_joints_by_name_keep_the_characters_rest_and_report_once() {
    use animgraph_3d::Retarget;
    use animgraph_3d::skeleton::{Clip3D, Property};
    let own = Clip3D { name: "Walk".into(), duration: 1.0, ..Default::default() };
    let character = rig(&["mixamorig:Hips", "mixamorig:Spine", "Jaw"], Vec3::new(0.0, 1.0, 0.0), vec![own]);
    let walk = Clip3D {
        name: "Walk".into(),
        duration: 1.0,
        channels: vec![
            key(0, Property::Translation, glam::Vec4::new(0.0, 2.5, 0.0, 0.0)),
            key(1, Property::Rotation, glam::Quat::from_rotation_x(0.5).into()),
            key(2, Property::Rotation, glam::Quat::from_rotation_z(0.5).into()),
        ],
        ..Default::default()
    };
    let library = rig(&["mixamorig1:Hips", "mixamorig1:Spine", "Tail"], Vec3::new(0.0, 2.0, 0.0), vec![walk]);
    let mut shifted = character.clone();
    let report = shifted.add_library(&library, Retarget::RestOffset, "pack.glb").unwrap();
    assert_eq!(report.clips, ["Walk.1"]);
    assert_eq!(
        report.warnings,
        [
            "pack.glb: 1 keyed joints are not in the character, their channels are dropped: Tail",
            "pack.glb: 1 of the character's joints are not in the library; its clips leave them to the pose below: Jaw",
            "pack.glb: clip Walk is renamed Walk.1; the character has one so named",
        ]
    );
    let clip = shifted.clip("Walk.1").unwrap();
    assert_eq!(clip.channels.len(), 2, "the Tail channel is dropped");
    // The hips move 0.5 above the library's rest: 0.5 above the character's.
    assert_eq!(clip.channels[0].sample(0.5).y, 1.5);
    assert_eq!(clip.channels[1].joint, 1, "mixamorig1:Spine is the character's mixamorig:Spine");
    let mut as_is = character.clone();
    as_is.add_library(&library, Retarget::AsIs, "pack.glb").unwrap();
    assert_eq!(as_is.clip("Walk.1").unwrap().channels[0].sample(0.5).y, 2.5);
    // A library of another rig is refused.
    let fox = rig(&["b_Root", "b_Hip"], Vec3::ZERO, Vec::new());
    assert!(
        character
            .clone()
            .add_library(&fox, Retarget::default(), "fox.glb")
            .unwrap_err()
            .contains("none of its 2 joints")
    );
}

/// Renders `clip` at `time` on `skeleton`, framed on that pose, and compares with a golden.
fn golden(skeleton: &Arc<Skeleton3D>, clip: &str, time: f32, name: &str) -> Option<String> {
    use animgraph_3d::render::{RenderOptions3D, fit_camera, render};
    let mut b = Skeleton3DPoseBackend::new(Arc::clone(skeleton));
    let id = b.resolve_clip(clip).unwrap_or_else(|| panic!("{clip}"));
    b.apply(&[sample(id, time, 0)], &[LayerInfo::default()]);
    let camera = fit_camera(skeleton, &b.pose, 160, 160);
    let image = render(
        skeleton,
        &b.pose,
        &camera,
        &RenderOptions3D { width: 160, height: 160, ..Default::default() },
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens").join(format!("{name}.png"));
    if std::env::var_os("UPDATE_GOLDENS").is_some() {
        image.save_png(&path).unwrap();
        return None;
    }
    let expected = tiny_skia::Pixmap::load_png(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let differing = image
        .data()
        .chunks_exact(4)
        .zip(expected.data().chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 16))
        .count();
    if differing * 200 <= (160 * 160) {
        return None;
    }
    let actual = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}_actual.png"));
    image.save_png(&actual).unwrap();
    Some(format!("{name}: {differing} pixels differ; see {}", actual.display()))
}

#[test]
fn other_peoples_characters_render_like_their_goldens() {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters");
    // Mannequiny (GDQuest, CC BY 4.0): a character without clips, driven by its clip library.
    let mut mannequiny = import_file(assets.join("mannequiny/mannequiny.glb")).unwrap().skeleton;
    assert!(mannequiny.clips.is_empty());
    let library = import_file(assets.join("mannequiny/mannequiny_clips.glb")).unwrap();
    assert!(library.skeleton.mesh.is_none());
    let report =
        mannequiny.add_library(&library.skeleton, animgraph_3d::Retarget::default(), "clips").unwrap();
    assert_eq!(report.clips.len(), 10);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let mannequiny = Arc::new(mannequiny);
    // MorphStressTest (Khronos, CC BY 4.0): no skin, morph-animated bars and a texture.
    let morph = import_file(assets.join("morph/MorphStressTest.gltf")).unwrap();
    assert!(morph.warnings.is_empty(), "{:?}", morph.warnings);
    let morph = Arc::new(morph.skeleton);
    assert_eq!(morph.morph_groups.len(), 1);
    assert_eq!(morph.morph_count, 8);
    let failures: Vec<String> = [
        golden(&mannequiny, "run_root.001", 0.3, "mannequiny_run"),
        golden(&mannequiny, "fight_kick_root.001", 0.5, "mannequiny_kick"),
        golden(&morph, &morph.clips[0].name.clone(), 1.0, "morph_stress_1s"),
        golden(&morph, &morph.clips[1].name.clone(), 2.5, "morph_stress_clip1"),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}\n(re-bless with UPDATE_GOLDENS=1)", failures.join("\n"));
}

/// Found by `cargo fuzz run gltf_import`: keys 1e-30 s apart are evenly spaced at a rate of 1e30
/// per second, so the arithmetic guess of a later time overflowed. It now falls back to the
/// search and samples the last key.
#[test]
fn evenly_spaced_keys_at_extreme_rates_sample_without_overflow() {
    use animgraph_3d::skeleton::{Channel, Interpolation, Property, Spacing};
    let times = vec![0.0, 1e-30, 2e-30];
    let spacing = Spacing::of(&times);
    assert!(matches!(spacing, Spacing::Uniform { .. }), "{spacing:?}");
    let channel = Channel {
        joint: 0,
        property: Property::Translation,
        interpolation: Interpolation::Linear,
        times,
        values: vec![glam::Vec4::X, glam::Vec4::Y, glam::Vec4::Z],
    };
    assert_eq!(channel.sample_spaced(0.37, spacing), glam::Vec4::Z);
    assert_eq!(channel.sample_spaced(f32::MAX, spacing), glam::Vec4::Z);
}

#[test]
fn a_file_without_meshes_draws_its_bones_by_default() {
    use animgraph_3d::render::{RenderOptions3D, fit_camera, render};
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/mannequiny/mannequiny_clips.glb");
    let library = Arc::new(import_file(path).unwrap().skeleton);
    assert!(library.mesh.is_none());
    let b = Skeleton3DPoseBackend::new(Arc::clone(&library));
    let camera = fit_camera(&library, &b.pose, 64, 64);
    let options = RenderOptions3D { width: 64, height: 64, joints: false, ..Default::default() };
    let image = render(&library, &b.pose, &camera, &options);
    // The bone colour (255, 204, 51), blended into the background (41, 43, 51) by the
    // downscale, shows although `joints` is off.
    let bone_pixels = image.pixels().iter().filter(|p| p.red() > 90 && p.red() > p.blue() + 30).count();
    assert!(bone_pixels > 20, "{bone_pixels} bone pixels");
}
