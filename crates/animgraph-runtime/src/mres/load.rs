//! Reading `.mres` text into an [`AnimationGraph`], collecting every problem on the way.

mod resources;
mod values;

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::container::{self, type_name};
use super::{Diagnostic, Loaded, MresError, Severity};
use crate::core::{BoneMask, ClipBlend};
use crate::graph::schema::{self, Prop};
use crate::graph::{
    AnimationGraph, BlendSpace1D, BlendSpace2D, ClipState, ConditionOp, GraphCondition, GraphLayer,
    GraphMachine, GraphMixOverride, GraphParameter, GraphState, GraphTransition, GraphWindow, ParameterType,
    StateKind, TransitionBlend, TransitionInterrupt, TransitionSync, TravelMode, ValidGraph, validate,
};

/// Largest file the loader reads (16 MiB); larger input is refused with a clear error.
pub const MAX_FILE_BYTES: usize = 16 << 20;
/// Deepest chain of resource references followed (sub-machines nest through several resources).
const MAX_REFERENCE_DEPTH: usize = 200;

const STATE_TYPES: &[&str] = schema::STATE_TYPES;
const KNOWN_TYPES: &[&str] = schema::TYPES;

pub(super) fn too_large(size: usize) -> Diagnostic {
    file_error(format!(
        "the file is {size} bytes; the limit is {MAX_FILE_BYTES} bytes. Split the graph or check that this is a .mres file"
    ))
}

fn placeholder_state(name: String) -> GraphState {
    GraphState::new(name, StateKind::Clip(ClipState::default()))
}

fn file_error(message: String) -> Diagnostic {
    Diagnostic { message, ..Diagnostic::default() }
}

/// Loads a graph from `.mres` text.
///
/// Returns the graph and its warnings, or every error and warning found. Never panics, and
/// bounded in time and stack for any input (nesting and size are limited).
pub fn load_str(text: &str) -> Result<Loaded, MresError> {
    let (graph, diagnostics, _, _) = load_with_diagnostics(text)?;
    if diagnostics.iter().any(|d| d.is_error()) {
        Err(MresError::Invalid(diagnostics))
    } else {
        Ok(Loaded { graph: ValidGraph::already_validated(graph), warnings: diagnostics })
    }
}

/// Loads a graph for editing: like [`load_str`], but a graph whose structure reads completely
/// is returned even when it breaks semantic rules (a missing entry state, a transition to a
/// deleted state, an operator that does not fit its parameter). An editor saves such graphs
/// mid-edit so no work is lost, and must be able to reopen them; every finding, errors
/// included, is in [`Loaded::warnings`]. Text that cannot be read as a whole graph (malformed
/// JSON, unknown resource types, dangling references, unreadable values) is still an error,
/// because saving what was read would drop part of the file.
pub fn load_str_editable(text: &str) -> Result<Loaded<AnimationGraph>, MresError> {
    let (graph, diagnostics, structural_errors, _) = load_with_diagnostics(text)?;
    if structural_errors {
        Err(MresError::Invalid(diagnostics))
    } else {
        Ok(Loaded { graph, warnings: diagnostics })
    }
}

/// Loads like [`load_str`] and also returns where each part of the graph came from, so tools
/// that find problems in the model (lint) can name the resource and line as load errors do.
pub fn load_str_located(text: &str) -> Result<(Loaded, Origins), MresError> {
    let (graph, diagnostics, _, origins) = load_with_diagnostics(text)?;
    if diagnostics.iter().any(|d| d.is_error()) {
        Err(MresError::Invalid(diagnostics))
    } else {
        Ok((Loaded { graph: ValidGraph::already_validated(graph), warnings: diagnostics }, origins))
    }
}

/// Where the parts of a loaded graph came from: model paths to resource ids and lines.
#[derive(Clone, Debug, Default)]
pub struct Origins {
    origins: HashMap<String, Loc>,
    lines: HashMap<String, Option<(usize, usize)>>,
}

/// A model path's place in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The resource id (`t_land`), or `props` for the root.
    pub resource: String,
    /// The property path inside it (`Conditions[0].Value`).
    pub property: String,
    /// The line where the resource starts.
    pub line: Option<usize>,
    /// The column of the resource's id on that line (what tells resources apart in a file
    /// written on one line).
    pub column: Option<usize>,
}

impl Origins {
    /// Where a model path (`Layers[0].Machine.Transitions[1]`) came from.
    pub fn locate(&self, path: &str) -> Location {
        let (resource, property) = locate(&self.origins, path);
        let at = self.lines.get(&resource).copied().flatten();
        Location { resource, property, line: at.map(|a| a.0), column: at.map(|a| a.1) }
    }
}

/// Reads the text into a graph; returns it with every diagnostic, whether any error was
/// structural (found while reading, before the semantic rules ran), and the origins.
fn load_with_diagnostics(text: &str) -> Result<(AnimationGraph, Vec<Diagnostic>, bool, Origins), MresError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(MresError::Invalid(vec![too_large(text.len())]));
    }
    let root: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let full = e.to_string();
            let message = match full.find(" at line ") {
                Some(i) => full[..i].to_string(),
                None => full,
            };
            return Err(MresError::Invalid(vec![Diagnostic {
                line: Some(e.line()),
                column: Some(e.column()),
                ..file_error(format!("malformed JSON: {message}"))
            }]));
        }
    };
    let mut loader = Loader {
        text,
        resources: None,
        diagnostics: Vec::new(),
        stack: Vec::new(),
        used: HashSet::new(),
        origins: HashMap::new(),
        lines: HashMap::new(),
        key_lines: None,
        untyped_parameters: HashSet::new(),
        broken: HashSet::new(),
        placeholders: Vec::new(),
    };
    let graph = loader.root(&root);
    let mut diagnostics = std::mem::take(&mut loader.diagnostics);
    let Some(graph) = graph else {
        return Err(MresError::Invalid(diagnostics));
    };
    let structural_errors = diagnostics.iter().any(|d| d.is_error());
    // Semantic rules, mapped back from model paths to resource ids.
    for issue in validate(&graph) {
        if issue.parameter.as_ref().is_some_and(|p| loader.untyped_parameters.contains(p)) {
            continue; // that parameter's Type was already reported as unreadable
        }
        let under_placeholder = loader.placeholders.iter().any(|p| {
            issue.path.strip_prefix(p.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        });
        if under_placeholder {
            continue;
        }
        let (resource, property) = locate(&loader.origins, &issue.path);
        if loader.broken.contains(&(resource.clone(), property.clone())) {
            continue; // the same property already has a structural error
        }
        let at = loader.line_of(&resource);
        // The validator's finding, located: its code and model path kept.
        let (line, column) = (at.map(|a| a.0), at.map(|a| a.1));
        diagnostics.push(Diagnostic { resource, property, line, column, ..issue });
    }
    let resources: Vec<String> = loader.origins.values().map(|l| l.resource.clone()).collect();
    for r in resources {
        loader.line_of(&r);
    }
    let origins =
        Origins { origins: std::mem::take(&mut loader.origins), lines: std::mem::take(&mut loader.lines) };
    Ok((graph, diagnostics, structural_errors, origins))
}

/// Every object key of a JSON text (its raw text between the quotes) and the line and column
/// (1-based, in bytes like the JSON parser's columns) where it is first used as a key, in one pass: strings are skipped
/// with their escapes, and a string counts as a key when the next non-blank character is `:`.
fn key_lines(text: &str) -> HashMap<&str, (usize, usize)> {
    let bytes = text.as_bytes();
    let mut keys = HashMap::new();
    let (mut i, mut line, mut line_start) = (0, 1, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => (line, line_start) = (line + 1, i + 1),
            b'"' => {
                let (start, key_at) = (i + 1, (line, i - line_start + 1));
                let mut end = start;
                while end < bytes.len() && bytes[end] != b'"' {
                    if bytes[end] == b'\n' {
                        (line, line_start) = (line + 1, end + 1); // not valid JSON; counted anyway
                    }
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                let end = end.min(bytes.len());
                let mut after = end + 1;
                while after < bytes.len() && bytes[after].is_ascii_whitespace() {
                    if bytes[after] == b'\n' {
                        (line, line_start) = (line + 1, after + 1);
                    }
                    after += 1;
                }
                if bytes.get(after) == Some(&b':') {
                    // Quotes and backslashes are ASCII, so `start..end` are char boundaries.
                    if let Some(key) = text.get(start..end) {
                        keys.entry(key).or_insert(key_at);
                    }
                }
                i = after;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    keys
}

/// Maps a model path (`Layers[0].Machine.States[1].Speed`) to the resource it came from and the
/// property path inside it.
fn locate(origins: &HashMap<String, Loc>, path: &str) -> (String, String) {
    let mut cut = Some(path.len());
    while let Some(end) = cut {
        let prefix = &path[..end];
        if let Some(loc) = origins.get(prefix) {
            let rest = path[end..].trim_start_matches('.');
            return (loc.resource.clone(), join(&loc.property, rest));
        }
        cut = prefix.rfind('.');
        if cut.is_none() && !prefix.is_empty() {
            cut = Some(0);
        }
    }
    ("props".to_string(), path.to_string())
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}.{b}"),
    }
}

/// Where a value sits in the file: a resource id and a property path inside it.
#[derive(Clone, Debug)]
struct Loc {
    resource: String,
    property: String,
}

impl Loc {
    fn child(&self, property: &str) -> Loc {
        Loc { resource: self.resource.clone(), property: join(&self.property, property) }
    }

    fn index(&self, property: &str, index: usize) -> Loc {
        self.child(&format!("{property}[{index}]"))
    }
}

/// A resolved resource object: its type, props and location.
struct Res<'a> {
    ty: &'a str,
    props: Option<&'a Map<String, Value>>,
    loc: Loc,
}

impl<'a> Res<'a> {
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.props.and_then(|p| p.get(key)).filter(|v| !v.is_null())
    }
}

struct Loader<'a> {
    text: &'a str,
    resources: Option<&'a Map<String, Value>>,
    diagnostics: Vec<Diagnostic>,
    /// Resource ids being resolved, outermost first (cycle detection).
    stack: Vec<&'a str>,
    used: HashSet<&'a str>,
    /// Model path -> where that model object came from.
    origins: HashMap<String, Loc>,
    /// Resource id -> the line and column where its entry starts.
    lines: HashMap<String, Option<(usize, usize)>>,
    /// Every object key in the text -> the line and column of its first use as a key (made on
    /// the first lookup, in one pass over the text).
    key_lines: Option<HashMap<&'a str, (usize, usize)>>,
    /// Parameters whose `Type` could not be read (type-dependent findings about them are noise).
    untyped_parameters: HashSet<String>,
    /// (resource, property) pairs that already have a structural error.
    broken: HashSet<(String, String)>,
    /// Model paths of stand-ins for states that failed to load.
    placeholders: Vec<String>,
}

impl<'a> Loader<'a> {
    /// The line and column where a resource's entry starts.
    fn line_of(&mut self, resource: &str) -> Option<(usize, usize)> {
        if resource.is_empty() || resource == "props" {
            return None;
        }
        if let Some(line) = self.lines.get(resource) {
            return *line;
        }
        let text = self.text;
        let keys = self.key_lines.get_or_insert_with(|| key_lines(text));
        let line = keys.get(resource).copied();
        self.lines.insert(resource.to_string(), line);
        line
    }

    fn report(&mut self, severity: Severity, loc: &Loc, message: String) {
        let at = self.line_of(&loc.resource);
        let (line, column) = (at.map(|a| a.0), at.map(|a| a.1));
        if severity == Severity::Error {
            self.broken.insert((loc.resource.clone(), loc.property.clone()));
        }
        self.diagnostics.push(Diagnostic {
            severity,
            resource: loc.resource.clone(),
            property: loc.property.clone(),
            line,
            column,
            message,
            ..Diagnostic::default()
        });
    }

    fn error(&mut self, loc: &Loc, message: String) {
        self.report(Severity::Error, loc, message);
    }

    fn warning(&mut self, loc: &Loc, message: String) {
        self.report(Severity::Warning, loc, message);
    }

    fn root(&mut self, root: &'a Value) -> Option<AnimationGraph> {
        let top = Loc { resource: String::new(), property: String::new() };
        let Some(object) = root.as_object() else {
            self.error(
                &top,
                format!(
                    "the file holds {}; a .mres file is a JSON object with format, uid, type, resources and props",
                    type_name(root)
                ),
            );
            return None;
        };
        if let Err(message) = container::check_format(object.get("format")) {
            self.error(&top.child("format"), message);
            return None;
        }
        if let Err(message) = container::check_type(object.get("type"), "AnimationGraph") {
            self.error(&top.child("type"), message);
            return None;
        }
        let uid = match object.get("uid") {
            Some(Value::String(s)) => s.clone(),
            None => {
                self.warning(
                    &top.child("uid"),
                    "is missing; add a unique \"uid\" (editors and the live link identify graphs by it)"
                        .into(),
                );
                String::new()
            }
            Some(v) => {
                self.error(&top.child("uid"), format!("expected a string, found {}", type_name(v)));
                String::new()
            }
        };
        for key in object.keys() {
            if !["format", "uid", "type", "resources", "props"].contains(&key.as_str()) {
                self.warning(
                    &top.child(key),
                    "unknown top-level key (ignored, and dropped when saved)".into(),
                );
            }
        }
        match object.get("resources") {
            None => {}
            Some(Value::Object(map)) => {
                self.resources = Some(map);
                for (id, entry) in map {
                    let loc = Loc { resource: id.clone(), property: String::new() };
                    match entry {
                        Value::Object(e) => {
                            if !matches!(e.get("type"), Some(Value::String(_))) {
                                self.error(
                                    &loc.child("type"),
                                    "is missing or not a string; give the resource a type".into(),
                                );
                            }
                            if let Some(p) = e.get("props") {
                                if !p.is_object() {
                                    self.error(
                                        &loc.child("props"),
                                        format!("expected an object, found {}", type_name(p)),
                                    );
                                }
                            }
                            for key in e.keys() {
                                if key != "type" && key != "props" {
                                    self.warning(
                                        &loc.child(key),
                                        "unknown key beside type and props (ignored)".into(),
                                    );
                                }
                            }
                        }
                        other => self.error(
                            &loc,
                            format!(
                                "expected an object {{\"type\": ..., \"props\": ...}}, found {}",
                                type_name(other)
                            ),
                        ),
                    }
                }
            }
            Some(v) => {
                self.error(
                    &top.child("resources"),
                    format!("expected an object of id -> resource, found {}", type_name(v)),
                );
            }
        }
        let props = match object.get("props") {
            None => None,
            Some(Value::Object(map)) => Some(map),
            Some(v) => {
                self.error(&top.child("props"), format!("expected an object, found {}", type_name(v)));
                None
            }
        };
        let root_loc = Loc { resource: "props".into(), property: String::new() };
        self.origins.insert(String::new(), root_loc.clone());
        let res = Res { ty: "AnimationGraph", props, loc: root_loc };
        let graph = self.graph(&res, uid);

        if let Some(resources) = self.resources {
            for (id, entry) in resources {
                if !self.used.contains(id.as_str()) && entry.is_object() {
                    let loc = Loc { resource: id.clone(), property: String::new() };
                    self.warning(
                        &loc,
                        "is never referenced (dropped when saved); reference it or delete it".into(),
                    );
                }
            }
        }
        Some(graph)
    }

    /// Resolves a reference or inline resource of one of the `expected` types and builds it.
    fn with_resource<T>(
        &mut self,
        value: &'a Value,
        at: Loc,
        model: &str,
        expected: &[&str],
        build: impl FnOnce(&mut Self, &Res<'a>) -> T,
    ) -> Option<T> {
        let Some(object) = value.as_object() else {
            self.error(
                &at,
                format!(
                    "expected a reference {{\"res\": \"id\"}} or an inline resource {{\"type\": ..., \"props\": ...}}, found {}",
                    type_name(value)
                ),
            );
            return None;
        };
        let (entry, loc, id) = if let Some(reference) = object.get("res") {
            let Some(id) = reference.as_str() else {
                self.error(
                    &at.child("res"),
                    format!("expected a resource id string, found {}", type_name(reference)),
                );
                return None;
            };
            let Some(entry) = self.resources.and_then(|r| r.get(id)) else {
                self.error(&at, format!("no resource \"{id}\"; define it under \"resources\" or fix the id"));
                return None;
            };
            let Some(entry) = entry.as_object() else {
                return None; // reported where the table was checked
            };
            if let Some(start) = self.stack.iter().position(|s| *s == id) {
                let mut cycle: Vec<&str> = self.stack[start..].to_vec();
                cycle.push(id);
                self.error(
                    &at,
                    format!(
                        "cyclic reference {}; a resource cannot contain itself (a sub-machine inside itself?)",
                        cycle.join(" -> ")
                    ),
                );
                return None;
            }
            if self.stack.len() >= MAX_REFERENCE_DEPTH {
                self.error(
                    &at,
                    format!("resources nest more than {MAX_REFERENCE_DEPTH} deep; flatten the graph"),
                );
                return None;
            }
            self.used.insert(id);
            (entry, Loc { resource: id.to_string(), property: String::new() }, Some(id))
        } else if object.contains_key("type") {
            for key in object.keys() {
                if key != "type" && key != "props" {
                    self.warning(&at.child(key), "unknown key beside type and props (ignored)".into());
                }
            }
            if let Some(p) = object.get("props") {
                if !p.is_object() {
                    self.error(&at.child("props"), format!("expected an object, found {}", type_name(p)));
                }
            }
            (object, at.clone(), None)
        } else {
            self.error(
                &at,
                "expected a reference {\"res\": \"id\"} or an inline resource with a \"type\"".to_string(),
            );
            return None;
        };
        let ty = match entry.get("type") {
            Some(Value::String(t)) => t.as_str(),
            _ => return None, // reported with the table, or below for inline
        };
        if !KNOWN_TYPES.contains(&ty) {
            self.error(
                &loc.child("type"),
                format!("unknown type \"{ty}\"; known types are {}", KNOWN_TYPES[1..].join(", ")),
            );
            return None;
        }
        if !expected.contains(&ty) {
            self.error(&at, format!("expected {} here, found a {ty}", expected.join(" or ")));
            return None;
        }
        let props = entry.get("props").and_then(Value::as_object);
        if let Some(props) = props {
            let known = schema::properties(ty);
            let common = if STATE_TYPES.contains(&ty) { schema::state::ALL } else { &[] };
            for key in props.keys() {
                if !known.contains(&key.as_str()) && !common.contains(&key.as_str()) {
                    let all: Vec<&str> = common.iter().chain(known.iter()).copied().collect();
                    self.warning(
                        &loc.child(key),
                        format!(
                            "unknown property of {ty} (ignored, and dropped when saved); known: {}",
                            all.join(", ")
                        ),
                    );
                }
            }
        }
        self.origins.insert(model.to_string(), loc.clone());
        if let Some(id) = id {
            self.stack.push(id);
        }
        let res = Res { ty, props, loc };
        let built = build(self, &res);
        if id.is_some() {
            self.stack.pop();
        }
        Some(built)
    }

    // ---- typed property readers -------------------------------------------------------------
}

#[cfg(test)]
mod tests {
    use super::key_lines;

    #[test]
    fn key_lines_finds_each_keys_first_line_past_escapes_and_values() {
        let text =
            "{\n  \"a\": \"b\",\n  \"s\": \"x\\\"b\\\": y\",\n  \"b\" :\n 1, \"a\": 2,\n  \"c\\\\\": 3\n}";
        let keys = key_lines(text);
        assert_eq!(keys.get("a"), Some(&(2, 3)), "the first use counts");
        assert_eq!(keys.get("s"), Some(&(3, 3)));
        // `"b"` as a value and inside an escaped string are not keys; the key on line 4 is.
        assert_eq!(keys.get("b"), Some(&(4, 3)));
        assert_eq!(keys.get("c\\\\"), Some(&(6, 3)), "raw text between the quotes");
        let one_line = key_lines("{\"x\": {\"y\": 1}, \"z\": 2}");
        assert_eq!(one_line.get("z"), Some(&(1, 17)), "columns tell keys on one line apart");
        assert_eq!(keys.get("x"), None);
        // Unterminated input ends without reading past it.
        assert!(key_lines("{\"a\": \"never ends").contains_key("a"));
        assert!(key_lines("\"\\").is_empty());
    }
}
