//! Base-colour textures: images from a buffer view, a file beside the `.gltf` or a `data:` URI,
//! PNG (tiny-skia) or JPEG (zune-jpeg), told apart by their bytes (not the declared MIME type);
//! KTX2/Basis and WebP are named in a warning and the material's base colour is used.

use std::path::Path;

use super::accessor;
use super::source;

/// The largest texture decoded: 8192 x 8192 pixels.
pub const MAX_TEXTURE_SIDE: u32 = 8192;

/// The largest image file read: 256 MiB.
const MAX_IMAGE_BYTES: u64 = 256 << 20;

/// A decoded texture: RGBA8 (straight alpha), width, height.
pub(crate) type Texture = (Vec<u8>, u32, u32);

/// Why an image was not decoded (grouped into one warning per kind).
pub(crate) fn decode(bytes: &[u8]) -> Result<Texture, String> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        let (w, h) = match bytes.get(16..24) {
            Some(d) => {
                (u32::from_be_bytes([d[0], d[1], d[2], d[3]]), u32::from_be_bytes([d[4], d[5], d[6], d[7]]))
            }
            None => return Err("a PNG that ends inside its header".into()),
        };
        if w > MAX_TEXTURE_SIDE || h > MAX_TEXTURE_SIDE {
            return Err(format!("a {w} x {h} PNG, larger than {MAX_TEXTURE_SIDE} pixels a side"));
        }
        let pixmap =
            tiny_skia::Pixmap::decode_png(bytes).map_err(|e| format!("a PNG that does not decode ({e})"))?;
        let rgba = pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect();
        return Ok((rgba, pixmap.width(), pixmap.height()));
    }
    if bytes.starts_with(&[0xFF, 0xD8]) {
        use zune_jpeg::zune_core::colorspace::ColorSpace;
        use zune_jpeg::zune_core::options::DecoderOptions;
        let options = DecoderOptions::default()
            .jpeg_set_out_colorspace(ColorSpace::RGBA)
            .set_max_width(MAX_TEXTURE_SIDE as usize)
            .set_max_height(MAX_TEXTURE_SIDE as usize);
        let mut decoder = zune_jpeg::JpegDecoder::new_with_options(std::io::Cursor::new(bytes), options);
        let pixels = decoder.decode().map_err(|e| format!("a JPEG that does not decode ({e:?})"))?;
        let info = decoder.info().ok_or("a JPEG without a frame header")?;
        let (w, h) = (info.width as u32, info.height as u32);
        if pixels.len() != (w * h * 4) as usize {
            return Err(format!("a JPEG that decoded to {} bytes for {w} x {h} pixels", pixels.len()));
        }
        return Ok((pixels, w, h));
    }
    if bytes.starts_with(b"\xABKTX 20\xBB") {
        return Err(
            "KTX2/Basis (KHR_texture_basisu), which is not decoded; export PNG or JPEG textures".into()
        );
    }
    if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        return Err("WebP (EXT_texture_webp), which is not decoded; export PNG or JPEG textures".into());
    }
    Err("neither PNG nor JPEG".into())
}

/// The bytes of image `index`.
pub(crate) fn image_bytes(
    root: &gltf_json::Root,
    buffers: &[Vec<u8>],
    folder: Option<&Path>,
    index: usize,
) -> Result<Vec<u8>, String> {
    let image = root.images.get(index).ok_or_else(|| format!("images[{index}] does not exist"))?;
    if let Some(view) = image.buffer_view {
        return Ok(accessor::view(buffers, root, view.value())?.0.to_vec());
    }
    let Some(uri) = &image.uri else {
        return Err(format!("images[{index}] has neither a bufferView nor a uri"));
    };
    if let Some(data) = source::data_uri(uri) {
        return data;
    }
    let path = source::resolve(folder, uri)?;
    source::read_bounded(&path, MAX_IMAGE_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_told_apart_by_their_bytes() {
        assert!(decode(b"\xABKTX 20\xBB\r\n\x1a\n").unwrap_err().contains("KHR_texture_basisu"));
        assert!(decode(b"RIFF\0\0\0\0WEBPVP8 ").unwrap_err().contains("WebP"));
        assert!(decode(b"GIF89a").unwrap_err().contains("neither PNG nor JPEG"));
        assert!(decode(&[0xFF, 0xD8, 0xFF]).unwrap_err().contains("JPEG"));
        let mut huge = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        huge.extend(100_000u32.to_be_bytes());
        huge.extend(4u32.to_be_bytes());
        assert!(decode(&huge).unwrap_err().contains("larger than"));
        // A real PNG decodes.
        let mut p = tiny_skia::Pixmap::new(3, 2).unwrap();
        p.fill(tiny_skia::Color::from_rgba8(10, 200, 30, 255));
        let (rgba, w, h) = decode(&p.encode_png().unwrap()).unwrap();
        assert_eq!((w, h, &rgba[..4]), (3, 2, &[10, 200, 30, 255][..]));
    }
}
