//! Reading accessors: every component type (normalized or not), byte strides, matrix column
//! padding, sparse substitution and accessors without a buffer view, each element's bytes checked
//! against its buffer view and buffer before anything is allocated (so `KHR_mesh_quantization`'s
//! integer positions, normals and texture coordinates read like floats).

use gltf_json::accessor::{ComponentType, GenericComponentType, Type};
use gltf_json::validation::Checked;

/// The most elements one accessor may hold (16.7 million): a count past it is refused before
/// anything is allocated.
pub const MAX_ELEMENTS: u64 = 1 << 24;

/// The most values one import reads from accessors in all (268 million): a file that reuses
/// large accessors from very many primitives or channels is refused instead of reading for
/// minutes.
pub const MAX_VALUES_READ: u64 = 1 << 28;

/// The most values an accessor without a buffer view (all zeros, or sparse) may hold.
const MAX_ZERO_VALUES: u64 = 1 << 22;

/// Reads accessors of one document over its loaded buffers.
pub(crate) struct Accessors<'a> {
    pub root: &'a gltf_json::Root,
    pub buffers: &'a [Vec<u8>],
    /// Values read so far.
    pub read: std::cell::Cell<u64>,
}

fn component_size(c: ComponentType) -> usize {
    match c {
        ComponentType::I8 | ComponentType::U8 => 1,
        ComponentType::I16 | ComponentType::U16 => 2,
        ComponentType::U32 | ComponentType::F32 => 4,
    }
}

fn components(t: Type) -> (usize, usize) {
    // (columns, rows): matrices are column-major and each column starts 4-byte aligned.
    match t {
        Type::Scalar => (1, 1),
        Type::Vec2 => (1, 2),
        Type::Vec3 => (1, 3),
        Type::Vec4 => (1, 4),
        Type::Mat2 => (2, 2),
        Type::Mat3 => (3, 3),
        Type::Mat4 => (4, 4),
    }
}

fn read_component(bytes: &[u8], c: ComponentType, normalized: bool) -> f32 {
    match c {
        ComponentType::I8 => {
            let v = bytes[0] as i8 as f32;
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        ComponentType::U8 => {
            let v = bytes[0] as f32;
            if normalized { v / 255.0 } else { v }
        }
        ComponentType::I16 => {
            let v = i16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized { (v / 32767.0).max(-1.0) } else { v }
        }
        ComponentType::U16 => {
            let v = u16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized { v / 65535.0 } else { v }
        }
        ComponentType::U32 => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f32,
        ComponentType::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
    }
}

fn read_integer(bytes: &[u8], c: ComponentType) -> u32 {
    match c {
        ComponentType::I8 | ComponentType::U8 => bytes[0] as u32,
        ComponentType::I16 | ComponentType::U16 => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        ComponentType::U32 => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        ComponentType::F32 => {
            let f = f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            if f.is_finite() && f >= 0.0 { f as u32 } else { u32::MAX }
        }
    }
}

/// The bytes of a buffer view (bounds-checked), with its stride.
pub(crate) fn view<'b>(
    buffers: &'b [Vec<u8>],
    root: &gltf_json::Root,
    index: usize,
) -> Result<(&'b [u8], Option<usize>), String> {
    let view = root.buffer_views.get(index).ok_or_else(|| format!("bufferViews[{index}] does not exist"))?;
    let buffer = view.buffer.value();
    let data =
        buffers.get(buffer).ok_or_else(|| format!("bufferViews[{index}].buffer {buffer} does not exist"))?;
    let start = view.byte_offset.map_or(0, |o| o.0);
    let end = start.checked_add(view.byte_length.0);
    match end {
        Some(end) if end <= data.len() as u64 => {
            Ok((&data[start as usize..end as usize], view.byte_stride.map(|s| s.0)))
        }
        _ => Err(format!(
            "bufferViews[{index}] covers bytes {start}..{} of buffer {buffer}, which has {}; the file is truncated or broken",
            start.saturating_add(view.byte_length.0),
            data.len()
        )),
    }
}

/// One accessor's layout, checked.
struct Layout {
    component: ComponentType,
    columns: usize,
    rows: usize,
    column_stride: usize,
    element: usize,
}

fn layout(component: ComponentType, t: Type) -> Layout {
    let size = component_size(component);
    let (columns, rows) = components(t);
    let column_stride = if columns > 1 { (rows * size).next_multiple_of(4) } else { rows * size };
    Layout { component, columns, rows, column_stride, element: column_stride * (columns - 1) + rows * size }
}

/// Elements of `count` laid out from `offset` in `data` with `stride`: each element's bytes
/// checked to lie inside.
fn check_span(
    data_len: usize,
    offset: u64,
    stride: usize,
    element: usize,
    count: u64,
    what: &str,
) -> Result<(), String> {
    if count == 0 {
        return Ok(());
    }
    let last = (count - 1)
        .checked_mul(stride as u64)
        .and_then(|b| b.checked_add(offset))
        .and_then(|b| b.checked_add(element as u64));
    match last {
        Some(end) if end <= data_len as u64 => Ok(()),
        _ => Err(format!(
            "{what}: {count} elements of {element} bytes (stride {stride}) from byte {offset} do not fit its buffer view of {data_len} bytes"
        )),
    }
}

impl Accessors<'_> {
    /// Counts `values` against [`MAX_VALUES_READ`] (and [`MAX_ZERO_VALUES`] for an accessor
    /// without a buffer view) before they are allocated.
    fn charge(&self, what: &str, values: u64, has_view: bool) -> Result<(), String> {
        if !has_view && values > MAX_ZERO_VALUES {
            return Err(format!(
                "{what} has no buffer view but {values} values, more than the {MAX_ZERO_VALUES} allowed for one"
            ));
        }
        let total = self.read.get().saturating_add(values);
        if total > MAX_VALUES_READ {
            return Err(format!(
                "{what}: the file reads more than {MAX_VALUES_READ} values from accessors in all (accessors reused by too many primitives or channels)"
            ));
        }
        self.read.set(total);
        Ok(())
    }

    fn accessor(&self, index: usize) -> Result<&gltf_json::Accessor, String> {
        self.root.accessors.get(index).ok_or_else(|| format!("accessors[{index}] does not exist"))
    }

    /// The accessor's component type and whether it is normalized.
    pub fn component(&self, index: usize) -> Option<(ComponentType, bool)> {
        let a = self.root.accessors.get(index)?;
        match a.component_type {
            Checked::Valid(GenericComponentType(c)) => Some((c, a.normalized)),
            Checked::Invalid => None,
        }
    }

    /// Reads accessor `index` as floats, `n` components per element (the accessor must have
    /// that many), flattened. Normalized integers become 0..1 (or -1..1); others keep their value.
    pub fn floats(&self, index: usize, n: usize) -> Result<Vec<f32>, String> {
        let a = self.accessor(index)?;
        let what = format!("accessors[{index}]");
        let Checked::Valid(GenericComponentType(component)) = a.component_type else {
            return Err(format!("{what}.componentType is not a glTF component type"));
        };
        let Checked::Valid(t) = a.type_ else { return Err(format!("{what}.type is not a glTF type")) };
        let l = layout(component, t);
        if l.columns * l.rows != n {
            return Err(format!(
                "{what} has {} components per element; {n} are needed here",
                l.columns * l.rows
            ));
        }
        let count = a.count.0;
        if count > MAX_ELEMENTS {
            return Err(format!("{what} has {count} elements, more than the {MAX_ELEMENTS} allowed"));
        }
        self.charge(&what, count * n as u64, a.buffer_view.is_some())?;
        let mut out = vec![0f32; count as usize * n];
        let size = component_size(component);
        let read_into = |out: &mut [f32], bytes: &[u8]| {
            for c in 0..l.columns {
                for r in 0..l.rows {
                    let at = c * l.column_stride + r * size;
                    out[c * l.rows + r] = read_component(&bytes[at..at + size], l.component, a.normalized);
                }
            }
        };
        if let Some(v) = a.buffer_view {
            let (data, stride) = view(self.buffers, self.root, v.value())?;
            let stride = stride.unwrap_or(l.element).max(1);
            let offset = a.byte_offset.map_or(0, |o| o.0);
            check_span(data.len(), offset, stride, l.element, count, &what)?;
            for (i, element) in out.chunks_exact_mut(n).enumerate() {
                let at = offset as usize + i * stride;
                read_into(element, &data[at..at + l.element]);
            }
        }
        if let Some(sparse) = &a.sparse {
            let k = sparse.count.0;
            if k > count {
                return Err(format!("{what}.sparse.count {k} is more than the accessor's {count} elements"));
            }
            let Checked::Valid(ic) = sparse.indices.component_type else {
                return Err(format!("{what}.sparse.indices.componentType is not an index type"));
            };
            let ic = match ic.0 {
                ComponentType::U8 | ComponentType::U16 | ComponentType::U32 => ic.0,
                other => {
                    return Err(format!(
                        "{what}.sparse.indices.componentType {other:?} is not an index type"
                    ));
                }
            };
            let (idata, _) = view(self.buffers, self.root, sparse.indices.buffer_view.value())?;
            let ioff = sparse.indices.byte_offset.0;
            let isize = component_size(ic);
            check_span(idata.len(), ioff, isize, isize, k, &format!("{what}.sparse.indices"))?;
            let (vdata, _) = view(self.buffers, self.root, sparse.values.buffer_view.value())?;
            let voff = sparse.values.byte_offset.0;
            check_span(vdata.len(), voff, l.element, l.element, k, &format!("{what}.sparse.values"))?;
            for s in 0..k as usize {
                let at = ioff as usize + s * isize;
                let target = read_integer(&idata[at..at + isize], ic) as usize;
                let Some(element) = out.get_mut(target * n..target * n + n) else {
                    return Err(format!("{what}.sparse.indices names element {target} of {count}"));
                };
                let at = voff as usize + s * l.element;
                read_into(element, &vdata[at..at + l.element]);
            }
        }
        Ok(out)
    }

    /// Reads accessor `index` as unsigned integers (indices, joints), `n` per element.
    pub fn integers(&self, index: usize, n: usize) -> Result<Vec<u32>, String> {
        let a = self.accessor(index)?;
        let what = format!("accessors[{index}]");
        let Checked::Valid(GenericComponentType(component)) = a.component_type else {
            return Err(format!("{what}.componentType is not a glTF component type"));
        };
        if component == ComponentType::F32 && !a.normalized {
            // Floats where integers belong: read and rounded (some exporters write joints so).
            return Ok(self
                .floats(index, n)?
                .into_iter()
                .map(|f| if f.is_finite() && f >= 0.0 { f.round() as u32 } else { u32::MAX })
                .collect());
        }
        let Checked::Valid(t) = a.type_ else { return Err(format!("{what}.type is not a glTF type")) };
        let l = layout(component, t);
        if l.columns * l.rows != n || l.columns != 1 {
            return Err(format!(
                "{what} has {} components per element; {n} are needed here",
                l.columns * l.rows
            ));
        }
        let count = a.count.0;
        if count > MAX_ELEMENTS {
            return Err(format!("{what} has {count} elements, more than the {MAX_ELEMENTS} allowed"));
        }
        if a.sparse.is_some() {
            // Sparse integer accessors are rare; read through floats (exact below 2^24).
            return Ok(self.floats(index, n)?.into_iter().map(|f| f as u32).collect());
        }
        self.charge(&what, count * n as u64, a.buffer_view.is_some())?;
        let mut out = vec![0u32; count as usize * n];
        if let Some(v) = a.buffer_view {
            let (data, stride) = view(self.buffers, self.root, v.value())?;
            let stride = stride.unwrap_or(l.element).max(1);
            let offset = a.byte_offset.map_or(0, |o| o.0);
            check_span(data.len(), offset, stride, l.element, count, &what)?;
            let size = component_size(component);
            for (i, element) in out.chunks_exact_mut(n).enumerate() {
                let at = offset as usize + i * stride;
                for (r, value) in element.iter_mut().enumerate() {
                    let b = at + r * size;
                    *value = read_integer(&data[b..b + size], component);
                }
            }
        }
        Ok(out)
    }
}
