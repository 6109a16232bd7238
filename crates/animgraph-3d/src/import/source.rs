//! Where a glTF's bytes come from: the file itself (JSON or GLB container), buffers and images in
//! the GLB's binary chunk, in files beside a `.gltf` (percent-decoded relative URIs that stay in
//! the asset's folder), or in `data:` URIs. Every read is bounded and refuses special files.

use std::path::{Path, PathBuf};

use base64::Engine;

/// The largest file the importer reads (a `.glb`, `.gltf`, `.bin` or image): 1 GiB.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Reads a regular file of at most `limit` bytes. Devices, FIFOs and directories are refused
/// before anything is read, and a file that grows past the limit while read is refused too.
pub(crate) fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    animgraph_runtime::files::read_bounded(path, limit).map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidInput => e.to_string(),
        _ => format!("cannot read {}: {e}", path.display()),
    })
}

/// A glTF container: its JSON and, for a GLB, its binary chunk.
pub(crate) struct Container<'a> {
    pub json: &'a [u8],
    pub blob: Option<&'a [u8]>,
}

/// Splits a GLB into its chunks (bounds-checked), or takes the bytes as JSON.
pub(crate) fn container(bytes: &[u8]) -> Result<Container<'_>, String> {
    if !bytes.starts_with(b"glTF") {
        return Ok(Container { json: bytes, blob: None });
    }
    let word = |at: usize| -> Option<u32> {
        bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let version = word(4).ok_or("the .glb ends inside its 12-byte header")?;
    if version != 2 {
        return Err(format!("the .glb is container version {version}; only glTF 2.0 (version 2) is read"));
    }
    let length = word(8).ok_or("the .glb ends inside its 12-byte header")? as usize;
    if length > bytes.len() {
        return Err(format!(
            "the .glb says it has {length} bytes but the file has {}: it is truncated; export it again",
            bytes.len()
        ));
    }
    let bytes = &bytes[..length];
    let mut at = 12usize;
    let mut json = None;
    let mut blob = None;
    while at < bytes.len() {
        let (Some(len), Some(kind)) = (word(at), word(at + 4)) else {
            return Err(format!("the .glb ends inside a chunk header at byte {at}"));
        };
        let start = at + 8;
        let end = start
            .checked_add(len as usize)
            .filter(|&e| e <= bytes.len())
            .ok_or_else(|| format!("a .glb chunk at byte {at} says {len} bytes, past the end of the file"))?;
        match kind {
            0x4E4F_534A if json.is_none() => json = Some(&bytes[start..end]),
            0x004E_4942 if blob.is_none() && json.is_some() => blob = Some(&bytes[start..end]),
            _ => {} // Unknown chunks are skipped, as the container format says.
        }
        at = end.next_multiple_of(4);
    }
    let json = json.ok_or("the .glb has no JSON chunk")?;
    Ok(Container { json, blob })
}

/// Decodes a `data:` URI's payload (base64 or percent-encoded).
pub(crate) fn data_uri(uri: &str) -> Option<Result<Vec<u8>, String>> {
    let rest = uri.strip_prefix("data:")?;
    let Some((header, payload)) = rest.split_once(',') else {
        return Some(Err("a data: URI has no ',' before its payload".into()));
    };
    Some(if header.ends_with(";base64") {
        base64::engine::general_purpose::STANDARD
            .decode(payload.trim())
            .map_err(|e| format!("a data: URI's base64 is broken ({e})"))
    } else {
        Ok(percent_encoding::percent_decode_str(payload).collect())
    })
}

/// Where a relative URI points: percent-decoded, under `folder`. Absolute paths, other schemes
/// (`http:`, `file:`) and paths that leave the folder (`../`, or a link that points outside)
/// are refused.
pub(crate) fn resolve(folder: Option<&Path>, uri: &str) -> Result<PathBuf, String> {
    let decoded = percent_encoding::percent_decode_str(uri)
        .decode_utf8()
        .map_err(|_| format!("\"{uri}\" is not UTF-8 once percent-decoded"))?;
    let decoded: &str = &decoded;
    if let Some((scheme, _)) = decoded.split_once(':')
        && !scheme.is_empty()
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && scheme.len() > 1
    {
        return Err(format!(
            "\"{uri}\" is a {scheme}: URI; only files beside the glTF and data: URIs are read"
        ));
    }
    let Some(folder) = folder else {
        return Err(format!(
            "\"{uri}\" is a file beside the glTF, but the glTF was given as bytes without a folder; load it from its file"
        ));
    };
    animgraph_runtime::files::resolve_inside(folder, Path::new(decoded))
        .map_err(|e| if decoded == uri { e } else { format!("\"{uri}\" (decoded): {e}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_decoded_and_may_not_leave_the_folder() {
        let folder = Path::new("/assets/fox");
        assert_eq!(resolve(Some(folder), "Fox%20data.bin").unwrap(), folder.join("Fox data.bin"));
        assert_eq!(resolve(Some(folder), "tex/a.png").unwrap(), folder.join("tex/a.png"));
        assert!(resolve(Some(folder), "tex/../a.png").is_ok());
        for bad in
            ["../secret.bin", "/dev/zero", "a/../../b", "%2E%2E/x", "http://example.com/a.bin", "file:///x"]
        {
            let e = resolve(Some(folder), bad).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
        assert!(resolve(None, "a.bin").unwrap_err().contains("without a folder"));
    }

    #[test]
    fn data_uris_decode_base64_and_percent_payloads() {
        assert_eq!(data_uri("data:application/octet-stream;base64,AAEC").unwrap().unwrap(), [0, 1, 2]);
        assert_eq!(data_uri("data:,a%20b").unwrap().unwrap(), b"a b");
        assert!(data_uri("data:nocomma").unwrap().is_err());
        assert!(data_uri("x.bin").is_none());
    }

    #[test]
    fn glb_chunks_are_bounds_checked() {
        let mut glb = b"glTF".to_vec();
        glb.extend(2u32.to_le_bytes());
        glb.extend(40u32.to_le_bytes());
        glb.extend(100u32.to_le_bytes()); // A JSON chunk longer than the file.
        glb.extend(0x4E4F_534Au32.to_le_bytes());
        glb.resize(40, b' ');
        assert!(container(&glb).err().unwrap().contains("past the end"));
        glb[8..12].copy_from_slice(&400u32.to_le_bytes());
        assert!(container(&glb).err().unwrap().contains("truncated"));
        assert!(container(b"glTF\x02\0\0").err().unwrap().contains("header"));
    }

    #[test]
    fn special_files_and_directories_are_refused() {
        assert!(read_bounded(Path::new("/dev/zero"), 1 << 20).unwrap_err().contains("not a regular file"));
        assert!(read_bounded(Path::new("/tmp"), 1 << 20).unwrap_err().contains("not a regular file"));
    }
}
