//! Importing the Godot 4 2D scene subset that skeletal characters such as GBot use.
//!
//! Read: `Skeleton2D` / `Bone2D` nodes (pose and rest), `Polygon2D` parts with their texture,
//! UVs, sub-polygons and bone weights, and `Animation` resources (value tracks on a bone's
//! `position`, `rotation`, `rotation_degrees` and `scale`, with nearest or linear interpolation),
//! named by the scene's `AnimationLibrary`. Everything else is listed in the warnings.
//!
//! Each `Polygon2D` becomes one slot and one mesh attachment: weighted (per vertex its bones'
//! weights, positions in each bone's rest space, as Godot skins it) when the part has bone
//! weights, unweighted in its bone's space when not. Godot 4's typed collections
//! (`Array[Vector2]([...])`, `Dictionary[String, Texture]({...})`) parse; Godot 3 scenes
//! (`format=2`) are refused with a message to open them in Godot 4 first.
//!
//! Godot interpolates looping tracks across the loop point (`loop_wrap`); keys are added at 0 and
//! at the clip's end where needed so the `.mskel` clip plays the same.

use std::collections::BTreeMap;

use glam::{Affine2, Mat2, Vec2};

use crate::data::{
    AttachmentData, AttachmentKind, BoneData, BoneTimelines, ClipData, Curve, Key, Skeleton2DData, SlotData,
};

/// A parsed `.tscn` value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A number.
    Number(f64),
    /// A string or `&"StringName"`.
    Text(String),
    /// `true` / `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `Name(args...)`: `Vector2`, `PackedFloat32Array`, `NodePath`, `SubResource`, ...
    Call(String, Vec<Value>),
    /// `[ ... ]`.
    Array(Vec<Value>),
    /// `{ key: value, ... }`.
    Dict(Vec<(Value, Value)>),
}

impl Value {
    fn number(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            Value::Call(name, args) if name == "NodePath" || name == "StringName" => args.first()?.text(),
            _ => None,
        }
    }

    /// Numbers of a call (`Vector2(1, 2)` -> [1, 2]) or an array of numbers.
    fn numbers(&self) -> Vec<f64> {
        match self {
            Value::Call(_, args) | Value::Array(args) => args.iter().filter_map(Value::number).collect(),
            Value::Number(n) => vec![*n],
            _ => Vec::new(),
        }
    }

    fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Dict(entries) => entries.iter().find(|(k, _)| k.text() == Some(key)).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// A `[section]` of a scene: its header attributes and properties.
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// `node`, `sub_resource`, `ext_resource`, ...
    pub kind: String,
    /// Header attributes (`type`, `name`, `parent`, `id`, ...).
    pub attributes: BTreeMap<String, Value>,
    /// `key = value` lines, in order.
    pub properties: Vec<(String, Value)>,
    /// The 1-based line of the header.
    pub line: usize,
}

impl Section {
    fn attribute(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).and_then(Value::text)
    }

    fn property(&self, key: &str) -> Option<&Value> {
        self.properties.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// Why a scene could not be imported.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ImportError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn line(&self) -> usize {
        self.text[..self.at.min(self.text.len())].iter().filter(|&&c| c == b'\n').count() + 1
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, ImportError> {
        Err(ImportError { line: self.line(), message: message.into() })
    }

    fn skip_space(&mut self) {
        while self.at < self.text.len() && self.text[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn string(&mut self) -> Result<String, ImportError> {
        self.at += 1; // opening quote
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            self.at += 1;
            match c {
                b'"' => return Ok(String::from_utf8_lossy(&out).into_owned()),
                b'\\' => {
                    if let Some(e) = self.peek() {
                        self.at += 1;
                        out.push(match e {
                            b'n' => b'\n',
                            b't' => b'\t',
                            other => other,
                        });
                    }
                }
                other => out.push(other),
            }
        }
        self.error("unterminated string")
    }

    fn value(&mut self) -> Result<Value, ImportError> {
        self.depth += 1;
        if self.depth > 64 {
            return self.error("values nest more than 64 deep");
        }
        self.skip_space();
        let value = match self.peek() {
            None => return self.error("expected a value, found the end of the file"),
            Some(b'"') => Value::Text(self.string()?),
            Some(b'&') | Some(b'^') => {
                self.at += 1;
                if self.peek() != Some(b'"') {
                    return self.error("expected a string after & or ^");
                }
                Value::Text(self.string()?)
            }
            Some(b'[') => {
                self.at += 1;
                Value::Array(self.list(b']')?)
            }
            Some(b'{') => {
                self.at += 1;
                let mut entries = Vec::new();
                loop {
                    self.skip_space();
                    if self.peek() == Some(b'}') {
                        self.at += 1;
                        break;
                    }
                    let key = self.value()?;
                    self.skip_space();
                    if self.peek() != Some(b':') {
                        return self.error("expected ':' in a dictionary");
                    }
                    self.at += 1;
                    let value = self.value()?;
                    entries.push((key, value));
                    self.skip_space();
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {}
                        _ => return self.error("expected ',' or '}' in a dictionary"),
                    }
                }
                Value::Dict(entries)
            }
            Some(c) if c == b'-' || c == b'.' || c.is_ascii_digit() => {
                let start = self.at;
                while let Some(c) = self.peek() {
                    if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E') {
                        self.at += 1;
                    } else {
                        break;
                    }
                }
                let text = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
                match text.parse::<f64>() {
                    Ok(n) if n.abs() > f32::MAX as f64 => {
                        return self.error(format!(
                            "the number {text} is out of range (numbers must be within ±3.4e38)"
                        ));
                    }
                    Ok(n) => Value::Number(n),
                    Err(_) => return self.error(format!("bad number \"{text}\"")),
                }
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let start = self.at;
                while let Some(c) = self.peek() {
                    if c.is_ascii_alphanumeric() || c == b'_' {
                        self.at += 1;
                    } else {
                        break;
                    }
                }
                let name = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
                match name.as_str() {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "null" => Value::Null,
                    "inf" => Value::Number(f64::INFINITY),
                    "nan" => Value::Number(f64::NAN),
                    "Array" | "Dictionary" if self.peek() == Some(b'[') => {
                        // Godot 4.2+ typed collections, `Array[Vector2]([...])` and
                        // `Dictionary[String, Texture2D]({...})`: the element types are skipped,
                        // the collection inside read as an untyped one.
                        self.type_arguments(&name)?;
                        self.skip_space();
                        if self.peek() != Some(b'(') {
                            return self
                                .error(format!("expected '(' after the typed {name}'s element types"));
                        }
                        self.at += 1;
                        let inner = self.value()?;
                        self.skip_space();
                        if self.peek() != Some(b')') {
                            return self.error(format!("expected ')' closing the typed {name}"));
                        }
                        self.at += 1;
                        inner
                    }
                    _ => {
                        let after_name = self.at;
                        self.skip_space();
                        if self.peek() != Some(b'(') {
                            // Reported where the name ends, so the line is the name's.
                            self.at = after_name;
                            while self.peek().is_some_and(|c| c == b' ' || c == b'\t' || c == b'\r') {
                                self.at += 1;
                            }
                            let found = match self.peek() {
                                None => "the end of the file".to_string(),
                                Some(b'\n') => "the end of the line".to_string(),
                                Some(c) => format!("'{}'", c as char),
                            };
                            return self.error(format!(
                                "expected '(' after {name}, found {found}: a value is a number, a \"string\", [an array], {{a dictionary}}, true/false/null or a constructor such as Vector2(1, 2); check this line and the one before it for a value cut short"
                            ));
                        }
                        self.at += 1;
                        Value::Call(name, self.list(b')')?)
                    }
                }
            }
            Some(c) => return self.error(format!("unexpected character '{}'", c as char)),
        };
        self.depth -= 1;
        Ok(value)
    }

    /// Skips a typed collection's `[Type, ...]` (nested brackets allowed, bounded by the file).
    fn type_arguments(&mut self, name: &str) -> Result<(), ImportError> {
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            self.at += 1;
            match c {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                b'\n' | b'(' | b'{' | b'"' => break,
                _ => {}
            }
        }
        self.error(format!("unterminated element types of a typed {name}: expected ']'"))
    }

    fn list(&mut self, close: u8) -> Result<Vec<Value>, ImportError> {
        let mut items = Vec::new();
        loop {
            self.skip_space();
            if self.peek() == Some(close) {
                self.at += 1;
                return Ok(items);
            }
            items.push(self.value()?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(c) if c == close => {}
                _ => return self.error(format!("expected ',' or '{}'", close as char)),
            }
        }
    }
}

/// Splits a `.tscn` into sections.
pub fn parse_scene(text: &str) -> Result<Vec<Section>, ImportError> {
    let mut p = Parser { text: text.as_bytes(), at: 0, depth: 0 };
    let mut sections: Vec<Section> = Vec::new();
    loop {
        p.skip_space();
        let Some(c) = p.peek() else { break };
        if c == b';' {
            while p.peek().is_some_and(|c| c != b'\n') {
                p.at += 1;
            }
            continue;
        }
        if c == b'[' {
            let line = p.line();
            p.at += 1;
            let start = p.at;
            while p.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
                p.at += 1;
            }
            let kind = String::from_utf8_lossy(&p.text[start..p.at]).into_owned();
            let mut attributes = BTreeMap::new();
            loop {
                p.skip_space();
                match p.peek() {
                    Some(b']') => {
                        p.at += 1;
                        break;
                    }
                    None => return p.error("unterminated section header"),
                    _ => {}
                }
                let key_start = p.at;
                while p.peek().is_some_and(|c| c != b'=' && c != b']' && !c.is_ascii_whitespace()) {
                    p.at += 1;
                }
                let key = String::from_utf8_lossy(&p.text[key_start..p.at]).into_owned();
                p.skip_space();
                if p.peek() != Some(b'=') {
                    return p.error(format!("expected '=' after {key} in a section header"));
                }
                p.at += 1;
                let value = p.value()?;
                attributes.insert(key, value);
            }
            sections.push(Section { kind, attributes, properties: Vec::new(), line });
            continue;
        }
        let key_start = p.at;
        while p.peek().is_some_and(|c| c != b'=' && c != b'\n') {
            p.at += 1;
        }
        let key = String::from_utf8_lossy(&p.text[key_start..p.at]).trim().to_string();
        if p.peek() != Some(b'=') {
            return p.error(format!("expected 'key = value', found \"{key}\""));
        }
        p.at += 1;
        let value = p.value()?;
        match sections.last_mut() {
            Some(section) => section.properties.push((key, value)),
            None => return p.error("a property before any [section]"),
        }
    }
    Ok(sections)
}

/// A Godot `Transform2D(xx, xy, yx, yy, ox, oy)`.
fn transform(value: Option<&Value>) -> Affine2 {
    let n = value.map(Value::numbers).unwrap_or_default();
    if n.len() == 6 {
        Affine2::from_mat2_translation(
            Mat2::from_cols(Vec2::new(n[0] as f32, n[1] as f32), Vec2::new(n[2] as f32, n[3] as f32)),
            Vec2::new(n[4] as f32, n[5] as f32),
        )
    } else {
        Affine2::IDENTITY
    }
}

fn vector(value: Option<&Value>, default: Vec2) -> Vec2 {
    let n = value.map(Value::numbers).unwrap_or_default();
    if n.len() == 2 { Vec2::new(n[0] as f32, n[1] as f32) } else { default }
}

fn points(value: Option<&Value>) -> Vec<Vec2> {
    let n = value.map(Value::numbers).unwrap_or_default();
    n.chunks_exact(2).map(|c| Vec2::new(c[0] as f32, c[1] as f32)).collect()
}

/// The imported skeleton and what could not be imported.
#[derive(Debug)]
pub struct Imported {
    /// The skeleton with its clips.
    pub data: Skeleton2DData,
    /// Nodes, properties and tracks that were skipped, and approximations made.
    pub warnings: Vec<String>,
}

/// Triangulates a simple polygon (ear clipping; falls back to a fan).
fn triangulate(polygon: &[usize], at: &dyn Fn(usize) -> Vec2) -> Vec<[usize; 3]> {
    let mut rest: Vec<usize> = polygon.to_vec();
    let area: f32 = (0..rest.len())
        .map(|i| {
            let (a, b) = (at(rest[i]), at(rest[(i + 1) % rest.len()]));
            a.x * b.y - b.x * a.y
        })
        .sum();
    let orientation = area.signum();
    let mut out = Vec::new();
    let mut guard = 0;
    while rest.len() > 3 && guard < 10_000 {
        guard += 1;
        let n = rest.len();
        let mut clipped = false;
        for i in 0..n {
            let (ia, ib, ic) = (rest[(i + n - 1) % n], rest[i], rest[(i + 1) % n]);
            let (a, b, c) = (at(ia), at(ib), at(ic));
            if (b - a).perp_dot(c - b) * orientation <= 0.0 {
                continue;
            }
            let inside = rest.iter().any(|&j| {
                if j == ia || j == ib || j == ic {
                    return false;
                }
                let p = at(j);
                let s1 = (b - a).perp_dot(p - a) * orientation;
                let s2 = (c - b).perp_dot(p - b) * orientation;
                let s3 = (a - c).perp_dot(p - c) * orientation;
                s1 > 0.0 && s2 > 0.0 && s3 > 0.0
            });
            if !inside {
                out.push([ia, ib, ic]);
                rest.remove(i);
                clipped = true;
                break;
            }
        }
        if !clipped {
            break;
        }
    }
    for i in 1..rest.len().saturating_sub(1) {
        out.push([rest[0], rest[i], rest[i + 1]]);
    }
    out
}

/// Imports a Godot 4 `.tscn` holding a `Skeleton2D`.
pub fn import_scene(text: &str) -> Result<Imported, ImportError> {
    let sections = parse_scene(text)?;
    // Godot 3 scenes (`format=2`) name properties and tracks differently; read as Godot 4 they
    // import silently wrong, so they are refused with what to do.
    if let Some(header) = sections.iter().find(|s| s.kind == "gd_scene") {
        if let Some(Value::Number(format)) = header.attributes.get("format") {
            if *format < 3.0 {
                return Err(ImportError {
                    line: header.line,
                    message: format!(
                        "this is a Godot 3 scene (format={format}); open it in Godot 4, which converts it, save it, and import the saved .tscn"
                    ),
                });
            }
        }
    }
    let mut warnings = Vec::new();
    let nodes: Vec<&Section> = sections.iter().filter(|s| s.kind == "node").collect();
    let path_of = |s: &Section| -> String {
        let name = s.attribute("name").unwrap_or("");
        match s.attribute("parent") {
            None => String::new(),
            Some(".") => name.to_string(),
            Some(parent) => format!("{parent}/{name}"),
        }
    };
    let Some(skeleton) = nodes.iter().find(|n| n.attribute("type") == Some("Skeleton2D")) else {
        return Err(ImportError {
            line: 1,
            message: "no Skeleton2D node in the scene; import a scene with a 2D skeleton".into(),
        });
    };
    let skeleton_path = path_of(skeleton);

    // Bones, in scene order (parents come first in a .tscn).
    let mut bones: Vec<BoneData> = Vec::new();
    let mut bone_paths: Vec<String> = Vec::new();
    let mut rest_world: Vec<Affine2> = Vec::new();
    for node in nodes.iter().filter(|n| n.attribute("type") == Some("Bone2D")) {
        let path = path_of(node);
        let parent_path = node.attribute("parent").unwrap_or("");
        let parent = bone_paths.iter().position(|p| p == parent_path);
        if parent.is_none() && parent_path != skeleton_path {
            warnings.push(format!(
                "line {}: bone {path} is not under the Skeleton2D; imported as a root",
                node.line
            ));
        }
        let name = node.attribute("name").unwrap_or("").to_string();
        if bones.iter().any(|b| b.name == name) {
            return Err(ImportError {
                line: node.line,
                message: format!("two bones are named \"{name}\"; bone names must be unique"),
            });
        }
        let position = vector(node.property("position"), Vec2::ZERO);
        let scale = vector(node.property("scale"), Vec2::ONE);
        let rotation = node.property("rotation").and_then(Value::number).unwrap_or(0.0) as f32;
        let rest = transform(node.property("rest"));
        let world = match parent {
            Some(p) => rest_world[p] * rest,
            None => rest,
        };
        rest_world.push(world);
        bones.push(BoneData {
            skin_required: false,
            name,
            parent: parent.map(|p| bones[p].name.clone()),
            x: position.x,
            y: position.y,
            rotation: rotation.to_degrees(),
            scale_x: scale.x,
            scale_y: scale.y,
            shear_x: 0.0,
            shear_y: 0.0,
            length: node.property("length").and_then(Value::number).unwrap_or(0.0) as f32,
            inherit: Default::default(),
        });
        bone_paths.push(path);
    }
    if bones.is_empty() {
        return Err(ImportError {
            line: skeleton.line,
            message: "the Skeleton2D has no Bone2D children".into(),
        });
    }
    // Bones without an explicit length reach to their first child.
    for b in 0..bones.len() {
        if bones[b].length == 0.0 {
            let name = bones[b].name.clone();
            if let Some(child) = bones.iter().find(|c| c.parent.as_deref() == Some(&name)) {
                bones[b].length = Vec2::new(child.x, child.y).length();
            } else {
                bones[b].length = 16.0;
            }
        }
    }
    let relative_bone = |path: &str| -> Option<usize> {
        bone_paths
            .iter()
            .position(|p| p.strip_prefix(&skeleton_path).map(|r| r.trim_start_matches('/')) == Some(path))
    };

    // Textures.
    let textures: BTreeMap<String, String> = sections
        .iter()
        .filter(|s| s.kind == "ext_resource" && s.attribute("type") == Some("Texture2D"))
        .filter_map(|s| {
            let path = s.attribute("path")?;
            Some((s.attribute("id")?.to_string(), path.rsplit('/').next().unwrap_or(path).to_string()))
        })
        .collect();

    // Polygon2D parts -> slots and polygon attachments.
    let mut slots = Vec::new();
    let mut attachments = Vec::new();
    let mut texture = None;
    for node in nodes.iter().filter(|n| n.attribute("type") == Some("Polygon2D")) {
        let part = node.attribute("name").unwrap_or("part").to_string();
        if let Some(Value::Call(_, args)) = node.property("texture") {
            if let Some(id) = args.first().and_then(Value::text) {
                if let Some(file) = textures.get(id) {
                    if texture.as_ref().is_some_and(|t| t != file) {
                        warnings.push(format!(
                            "line {}: part {part} uses a second texture; only {} is used",
                            node.line,
                            texture.as_ref().unwrap()
                        ));
                    }
                    texture.get_or_insert_with(|| file.clone());
                }
            }
        }
        let offset =
            vector(node.property("position"), Vec2::ZERO) + vector(node.property("offset"), Vec2::ZERO);
        let polygon = points(node.property("polygon"));
        let mut uv = points(node.property("uv"));
        if uv.len() != polygon.len() {
            uv = polygon.clone();
        }
        let mut pieces: Vec<Vec<usize>> = match node.property("polygons") {
            Some(Value::Array(list)) if !list.is_empty() => list
                .iter()
                .map(|p| p.numbers().into_iter().map(|i| i as usize).filter(|&i| i < polygon.len()).collect())
                .collect(),
            _ => vec![(0..polygon.len()).collect()],
        };
        pieces.retain(|p| p.len() >= 3);
        // Weights: ["bone/path", PackedFloat32Array(...), ...].
        let mut weights: Vec<(usize, Vec<f64>)> = Vec::new();
        if let Some(Value::Array(list)) = node.property("bones") {
            for pair in list.chunks(2) {
                if let [path, w] = pair {
                    let numbers = w.numbers();
                    match path.text().and_then(relative_bone) {
                        Some(b) => weights.push((b, numbers)),
                        // Stale paths with no weight are ignored, as Godot does.
                        None if numbers.iter().all(|&x| x == 0.0) => {}
                        None => warnings.push(format!(
                            "line {}: part {part} is weighted to {:?}, which is not a bone of the skeleton; that weight is ignored",
                            node.line,
                            path.text().unwrap_or("?")
                        )),
                    }
                }
            }
        }
        // One weighted mesh per part, as Godot skins it: per vertex its bones' weights,
        // normalised (Godot keeps the 4 heaviest); positions in each bone's rest space.
        let mut influences: Vec<Vec<(usize, f64)>> = (0..polygon.len())
            .map(|i| {
                let mut list: Vec<(usize, f64)> = weights
                    .iter()
                    .map(|(b, w)| (*b, w.get(i).copied().unwrap_or(0.0)))
                    .filter(|(_, w)| *w > 0.0)
                    .collect();
                list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                list.truncate(4);
                let total: f64 = list.iter().map(|(_, w)| w).sum();
                list.iter_mut().for_each(|(_, w)| *w /= total);
                list
            })
            .collect();
        // The part's bone: the heaviest overall (its slot follows it).
        let mut totals = vec![0.0f64; bones.len()];
        for list in &influences {
            for (b, w) in list {
                totals[*b] += w;
            }
        }
        let bone = totals
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
            .map_or(0, |(b, _)| b);
        if totals.iter().all(|t| *t == 0.0) && !weights.is_empty() {
            warnings.push(format!(
                "line {}: part {part} has no bone weights; attached to {}",
                node.line, bones[0].name
            ));
        }
        let unpainted = influences.iter().filter(|l| l.is_empty()).count();
        if unpainted > 0 && totals.iter().any(|t| *t > 0.0) {
            warnings.push(format!(
                "line {}: {unpainted} vertices of part {part} have no bone weights; they follow {}",
                node.line, bones[bone].name
            ));
        }
        for list in &mut influences {
            if list.is_empty() {
                list.push((bone, 1.0));
            }
        }
        let mut triangles = Vec::new();
        for piece in &pieces {
            for t in triangulate(piece, &|i| polygon[i]) {
                triangles.push([t[0] as u16, t[1] as u16, t[2] as u16]);
            }
        }
        let rigid = influences.iter().all(|l| l.len() == 1 && l[0].0 == bone);
        let at = |b: usize, i: usize| rest_world[b].inverse().transform_point2(offset + polygon[i]);
        let (vertices, weighted) = if rigid {
            ((0..polygon.len()).map(|i| at(bone, i).to_array()).collect(), Vec::new())
        } else {
            let weighted = influences
                .iter()
                .enumerate()
                .map(|(i, list)| {
                    list.iter()
                        .map(|&(b, w)| {
                            let p = at(b, i);
                            (bones[b].name.clone(), p.x, p.y, w as f32)
                        })
                        .collect()
                })
                .collect();
            (Vec::new(), weighted)
        };
        slots.push(SlotData {
            name: part.clone(),
            bone: bones[bone].name.clone(),
            attachment: Some(part.clone()),
            color: [1.0; 4],
            dark: None,
            blend: Default::default(),
        });
        attachments.push(AttachmentData {
            slot: part.clone(),
            name: part.clone(),
            skin: None,
            color: [1.0; 4],
            sequence: None,
            kind: AttachmentKind::Mesh {
                vertices,
                weights: weighted,
                uvs: uv.iter().map(|v| v.to_array()).collect(),
                triangles,
                hull: 0,
                edges: Vec::new(),
                region: None,
            },
        });
    }

    // Animations, named by the AnimationLibrary.
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for library in sections
        .iter()
        .filter(|s| s.kind == "sub_resource" && s.attribute("type") == Some("AnimationLibrary"))
    {
        if let Some(Value::Dict(entries)) = library.property("_data") {
            for (key, value) in entries {
                if let (Some(name), Value::Call(_, args)) = (key.text(), value) {
                    if let Some(id) = args.first().and_then(Value::text) {
                        names.insert(id.to_string(), name.to_string());
                    }
                }
            }
        }
    }
    let mut clips = BTreeMap::new();
    for anim in
        sections.iter().filter(|s| s.kind == "sub_resource" && s.attribute("type") == Some("Animation"))
    {
        let id = anim.attribute("id").unwrap_or("").to_string();
        let name = names
            .get(&id)
            .cloned()
            .or_else(|| anim.property("resource_name").and_then(Value::text).map(str::to_string))
            .unwrap_or_else(|| format!("animation_{id}"));
        let duration = anim.property("length").and_then(Value::number).unwrap_or(1.0) as f32;
        let loop_mode = anim.property("loop_mode").and_then(Value::number).unwrap_or(0.0) as i32;
        if loop_mode == 2 {
            warnings.push(format!("clip {name}: ping-pong looping is imported as a plain loop"));
        }
        let looping = loop_mode != 0;
        let mut timelines: BTreeMap<String, BoneTimelines> = BTreeMap::new();
        let mut track = 0;
        while let Some(path) = anim.property(&format!("tracks/{track}/path")).and_then(Value::text) {
            let index = track;
            let get = |key: &str| anim.property(&format!("tracks/{index}/{key}"));
            track += 1;
            let kind = get("type").and_then(Value::text).unwrap_or("value");
            let (node_path, property) = path.rsplit_once(':').unwrap_or((path, ""));
            let bone = node_path
                .strip_prefix(&skeleton_path)
                .map(|r| r.trim_start_matches('/'))
                .and_then(relative_bone);
            let (Some(bone), "value") = (bone, kind) else {
                warnings
                    .push(format!("clip {name}: track {path} ({kind}) is not a bone value track; skipped"));
                continue;
            };
            if get("enabled") == Some(&Value::Bool(false)) {
                continue;
            }
            let interp = get("interp").and_then(Value::number).unwrap_or(1.0) as i32;
            let curve = match interp {
                0 => Curve::Stepped,
                1 => Curve::Linear,
                other => {
                    warnings.push(format!(
                        "clip {name}: track {path} uses interpolation {other}; imported as linear"
                    ));
                    Curve::Linear
                }
            };
            let keys = get("keys");
            let times = keys.and_then(|k| k.get("times")).map(Value::numbers).unwrap_or_default();
            let values = match keys.and_then(|k| k.get("values")) {
                Some(Value::Array(v)) => v.clone(),
                _ => Vec::new(),
            };
            if let Some(t) = keys.and_then(|k| k.get("transitions")).map(Value::numbers) {
                if t.iter().any(|&e| e != 1.0) {
                    warnings.push(format!("clip {name}: track {path} has eased keys; imported as linear"));
                }
            }
            let (arity, convert): (u8, Converter) = match property {
                "rotation_degrees" => (1, Box::new(|v: &Value| Some([v.number()? as f32, 0.0, 0.0, 0.0]))),
                "rotation" => {
                    (1, Box::new(|v: &Value| Some([(v.number()? as f32).to_degrees(), 0.0, 0.0, 0.0])))
                }
                "position" | "scale" => (
                    2,
                    Box::new(|v: &Value| {
                        let n = v.numbers();
                        (n.len() == 2).then(|| [n[0] as f32, n[1] as f32, 0.0, 0.0])
                    }),
                ),
                other => {
                    warnings.push(format!(
                        "clip {name}: property {other} of {node_path} is not supported; skipped"
                    ));
                    continue;
                }
            };
            let mut list: Vec<Key> = times
                .iter()
                .zip(&values)
                .filter_map(|(t, v)| Some(Key { time: *t as f32, values: convert(v)?, arity, curve }))
                .collect();
            list.sort_by(|a, b| a.time.total_cmp(&b.time));
            if looping
                && curve == Curve::Linear
                && !list.is_empty()
                && get("loop_wrap") != Some(&Value::Bool(false))
            {
                wrap_loop(&mut list, duration);
            }
            let bone_name = bones[bone].name.clone();
            let entry = timelines.entry(bone_name).or_default();
            match property {
                "position" => entry.translate = list,
                "scale" => entry.scale = list,
                _ => entry.rotate = list,
            }
        }
        clips.insert(name, ClipData { duration, looping, bones: timelines, ..Default::default() });
    }

    for node in &nodes {
        let kind = node.attribute("type").unwrap_or("?");
        if !matches!(kind, "Bone2D" | "Skeleton2D" | "Polygon2D") {
            warnings.push(format!(
                "line {}: node {} ({kind}) is not part of a skeleton; skipped",
                node.line,
                path_of(node)
            ));
        }
    }
    Ok(Imported {
        data: Skeleton2DData {
            texture,
            atlas: None,
            bones,
            slots,
            attachments,
            ik: Vec::new(),
            transform: Vec::new(),
            path: Vec::new(),
            skins: Vec::new(),
            events: Vec::new(),
            clips,
        },
        warnings,
    })
}

/// Turns a Godot key value into `.mskel` key values.
type Converter = Box<dyn Fn(&Value) -> Option<[f32; 4]>>;

/// Godot interpolates a looping track from its last key to its first across the loop point; add
/// keys at 0 and at the end holding that interpolation.
fn wrap_loop(keys: &mut Vec<Key>, duration: f32) {
    let (first, last) = (keys[0], keys[keys.len() - 1]);
    let gap = first.time + (duration - last.time);
    let across = |time_after_last: f32| -> [f32; 4] {
        let f = if gap > 0.0 { time_after_last / gap } else { 0.0 };
        std::array::from_fn(|i| last.values[i] + (first.values[i] - last.values[i]) * f)
    };
    if first.time > 0.0 {
        keys.insert(0, Key { time: 0.0, values: across(duration - last.time), ..first });
    }
    if last.time < duration {
        keys.push(Key { time: duration, values: across(duration - last.time), ..last });
    }
}
