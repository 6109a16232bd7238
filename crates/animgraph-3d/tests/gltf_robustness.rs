//! Thousands of mutated variants of real glTF files (the Fox GLB and a small skinless morph
//! file) go through the importer, and whatever imports is posed, skinned and drawn: no panic.
//! (`cargo fuzz run gltf_import` in `fuzz/` searches further.)

use std::sync::Arc;

use animgraph_3d::Skeleton3DPoseBackend;
use animgraph_3d::import::import_bytes;
use animgraph_3d::render::{RenderOptions3D, fit_camera, render};
use animgraph_runtime::{ClipId, ClipSample, LayerInfo, PoseBackend};

/// SplitMix64, so a failure reproduces from its index.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "4",
    "5123",
    "5125",
    "5121",
    "65535",
    "4294967295",
    "1e9",
    "1e39",
    "0.5",
    "16",
    "99999999",
];
const TOKENS: &[&str] =
    &["{", "}", "[", "]", "null", "\"\"", "[0,0]", "{\"node\":0}", "\"CUBICSPLINE\"", "\"weights\"", ","];

/// Mutates glTF JSON text: numbers replaced by troublesome ones (indices, counts, offsets,
/// component types), tokens spliced, elements deleted or duplicated, bytes flipped.
fn mutate_json(json: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = json.to_vec();
    for _ in 0..1 + rng.below(3) {
        match rng.below(5) {
            0 | 1 => {
                let digits: Vec<usize> =
                    bytes.iter().enumerate().filter(|(_, b)| b.is_ascii_digit()).map(|(i, _)| i).collect();
                if digits.is_empty() {
                    continue;
                }
                let mut start = digits[rng.below(digits.len())];
                while start > 0 && (bytes[start - 1].is_ascii_digit() || b".-e".contains(&bytes[start - 1])) {
                    start -= 1;
                }
                let mut end = start;
                while end < bytes.len() && (bytes[end].is_ascii_digit() || b".-e+".contains(&bytes[end])) {
                    end += 1;
                }
                let number = NUMBERS[rng.below(NUMBERS.len())];
                bytes.splice(start..end, number.bytes());
            }
            2 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                let i = rng.below(bytes.len() + 1).min(bytes.len());
                bytes.splice(i..i, token.bytes());
            }
            3 => {
                // Delete or duplicate one comma-separated element.
                let commas: Vec<usize> =
                    bytes.iter().enumerate().filter(|(_, b)| **b == b',').map(|(i, _)| i).collect();
                if commas.len() < 2 {
                    continue;
                }
                let a = rng.below(commas.len() - 1);
                let (from, to) = (commas[a], commas[a + 1]);
                if rng.below(2) == 0 {
                    bytes.drain(from..to);
                } else {
                    let element = bytes[from..to].to_vec();
                    bytes.splice(from..from, element);
                }
            }
            _ => {
                let i = rng.below(bytes.len());
                if let Some(b) = bytes.get_mut(i) {
                    *b ^= 1 << rng.below(8);
                }
            }
        }
    }
    bytes
}

fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut json = json.to_vec();
    while json.len() % 4 != 0 {
        json.push(b' ');
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

/// Poses every clip, skins and draws a tiny image: what a user does next with a file.
fn exercise(bytes: &[u8]) -> Result<(), String> {
    let imported = import_bytes(bytes, None).map_err(|e| e.to_string())?;
    let skeleton = Arc::new(imported.skeleton);
    let mut backend = Skeleton3DPoseBackend::new(Arc::clone(&skeleton));
    for c in 0..skeleton.clips.len().min(4) {
        let sample = ClipSample {
            clip: ClipId(c as u32),
            time: 0.37,
            prev_time: 0.3,
            weight: 1.0,
            layer: 0,
            looped: false,
        };
        backend.apply(&[sample], &[LayerInfo::default()]);
    }
    let camera = fit_camera(&skeleton, &backend.pose, 16, 16);
    render(
        &skeleton,
        &backend.pose,
        &camera,
        &RenderOptions3D { width: 16, height: 16, supersample: 1, ..Default::default() },
    );
    Ok(())
}

#[test]
fn mutated_gltf_files_never_panic_the_importer_or_what_follows() {
    let fox =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/fox/Fox.glb")).unwrap();
    let json_len = u32::from_le_bytes([fox[12], fox[13], fox[14], fox[15]]) as usize;
    let (json, bin) = (fox[20..20 + json_len].to_vec(), fox[20 + json_len + 8..].to_vec());
    let mut rng = Rng(0x61F7);
    let (mut imported, mut refused) = (0usize, 0usize);
    const VARIANTS: usize = 1500;
    for i in 0..VARIANTS {
        let bytes = if i % 10 == 9 {
            // Raw damage to the container and the binary chunk too.
            let mut b = glb(&json, &bin);
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(b.len());
                b[at] ^= 1 << rng.below(8);
            }
            b
        } else {
            glb(&mutate_json(&json, &mut rng), &bin)
        };
        match std::panic::catch_unwind(|| exercise(&bytes)) {
            Ok(Ok(())) => imported += 1,
            Ok(Err(e)) => {
                refused += 1;
                assert!(!e.is_empty() && !e.contains('\n'), "variant {i}: {e:?}");
            }
            Err(_) => panic!("variant {i} panicked; reproduce with Rng(0x61F7) and index {i}"),
        }
    }
    // Both outcomes happen, so the mutations reach past the JSON parser.
    assert!(imported > VARIANTS / 10 && refused > VARIANTS / 10, "{imported} imported, {refused} refused");
}
