//! Reading `.mres` text into an [`AnimationGraph`], collecting every problem on the way.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::container::{self, type_name};
use super::{Diagnostic, Loaded, MresError, Severity};
use crate::core::{BoneMask, ClipBlend};
use crate::graph::schema::{self, Prop};
use crate::graph::{
    AnimationGraph, BlendSpace1D, BlendSpace2D, ClipState, ConditionOp, GraphCondition, GraphLayer,
    GraphMachine, GraphMixOverride, GraphParameter, GraphState, GraphTransition, ParameterType, StateKind,
    TransitionInterrupt, ValidGraph, validate,
};

/// Largest file the loader reads (16 MiB); larger input is refused with a clear error.
pub const MAX_FILE_BYTES: usize = 16 << 20;
/// Deepest chain of resource references followed (sub-machines nest through several resources).
const MAX_REFERENCE_DEPTH: usize = 200;

const STATE_TYPES: &[&str] = &["ClipState", "BlendSpace1DState", "BlendSpace2DState", "SubMachineState"];
const KNOWN_TYPES: &[&str] = &[
    "AnimationGraph",
    "GraphParameter",
    "GraphLayer",
    "BoneMask",
    "GraphMachine",
    "ClipState",
    "BlendSpace1DState",
    "BlendSpace2DState",
    "SubMachineState",
    "GraphTransition",
    "GraphCondition",
    "GraphMixOverride",
];

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
    lines: HashMap<String, Option<usize>>,
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
}

impl Origins {
    /// Where a model path (`Layers[0].Machine.Transitions[1]`) came from.
    pub fn locate(&self, path: &str) -> Location {
        let (resource, property) = locate(&self.origins, path);
        let line = self.lines.get(&resource).copied().flatten();
        Location { resource, property, line }
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
        let line = loader.line_of(&resource);
        // The validator's finding, located: its code and model path kept.
        diagnostics.push(Diagnostic { resource, property, line, ..issue });
    }
    let resources: Vec<String> = loader.origins.values().map(|l| l.resource.clone()).collect();
    for r in resources {
        loader.line_of(&r);
    }
    let origins =
        Origins { origins: std::mem::take(&mut loader.origins), lines: std::mem::take(&mut loader.lines) };
    Ok((graph, diagnostics, structural_errors, origins))
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
    /// Resource id -> the line where its entry starts.
    lines: HashMap<String, Option<usize>>,
    /// Parameters whose `Type` could not be read (type-dependent findings about them are noise).
    untyped_parameters: HashSet<String>,
    /// (resource, property) pairs that already have a structural error.
    broken: HashSet<(String, String)>,
    /// Model paths of stand-ins for states that failed to load.
    placeholders: Vec<String>,
}

impl<'a> Loader<'a> {
    fn line_of(&mut self, resource: &str) -> Option<usize> {
        if resource.is_empty() || resource == "props" {
            return None;
        }
        if let Some(line) = self.lines.get(resource) {
            return *line;
        }
        let needle = format!("\"{resource}\"");
        let mut line = None;
        let mut from = 0;
        while let Some(i) = self.text[from..].find(&needle) {
            let at = from + i;
            let after = self.text[at + needle.len()..].trim_start();
            if after.starts_with(':') {
                line = Some(self.text[..at].matches('\n').count() + 1);
                break;
            }
            from = at + needle.len();
        }
        self.lines.insert(resource.to_string(), line);
        line
    }

    fn report(&mut self, severity: Severity, loc: &Loc, message: String) {
        let line = self.line_of(&loc.resource);
        if severity == Severity::Error {
            self.broken.insert((loc.resource.clone(), loc.property.clone()));
        }
        self.diagnostics.push(Diagnostic {
            severity,
            resource: loc.resource.clone(),
            property: loc.property.clone(),
            line,
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

    fn prop_string(&mut self, res: &Res<'a>, prop: &Prop<&'static str>) -> String {
        self.string(res, prop.name, prop.default)
    }

    fn prop_number(&mut self, res: &Res<'a>, prop: &Prop<f32>) -> f32 {
        self.number(res, prop.name, prop.default)
    }

    fn prop_bool(&mut self, res: &Res<'a>, prop: &Prop<bool>) -> bool {
        self.boolean(res, prop.name, prop.default)
    }

    fn prop_enum<T: Copy + 'static>(
        &mut self,
        res: &Res<'a>,
        prop: &Prop<T>,
        all: &[T],
        name: fn(T) -> &'static str,
    ) -> T {
        self.enumeration(res, prop.name, all, name, prop.default)
    }

    fn string(&mut self, res: &Res<'a>, key: &str, default: &str) -> String {
        match res.get(key) {
            None => default.to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => {
                self.error(&res.loc.child(key), format!("expected a string, found {}", type_name(v)));
                default.to_string()
            }
        }
    }

    fn number_value(&mut self, value: &Value, loc: &Loc) -> Option<f32> {
        match value.as_f64() {
            Some(n) => {
                let f = n as f32;
                if f.is_finite() {
                    Some(f)
                } else {
                    self.error(
                        loc,
                        format!("{n} is out of range for a 32-bit float (NaN and infinity are not allowed)"),
                    );
                    None
                }
            }
            None => {
                self.error(loc, format!("expected a number, found {}", type_name(value)));
                None
            }
        }
    }

    fn number(&mut self, res: &Res<'a>, key: &str, default: f32) -> f32 {
        match res.get(key) {
            None => default,
            Some(v) => self.number_value(v, &res.loc.child(key)).unwrap_or(default),
        }
    }

    fn integer(&mut self, res: &Res<'a>, key: &str, default: i32) -> i32 {
        let Some(value) = res.get(key) else {
            return default;
        };
        if let Some(i) = value.as_i64() {
            if let Ok(i) = i32::try_from(i) {
                return i;
            }
        }
        let found = match value {
            Value::Number(n) => format!("{n}"),
            other => type_name(other).to_string(),
        };
        self.error(&res.loc.child(key), format!("expected a whole number within 32 bits, found {found}"));
        default
    }

    fn boolean(&mut self, res: &Res<'a>, key: &str, default: bool) -> bool {
        match res.get(key) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                self.error(&res.loc.child(key), format!("expected true or false, found {}", type_name(v)));
                default
            }
        }
    }

    fn enumeration<T: Copy>(
        &mut self,
        res: &Res<'a>,
        key: &str,
        all: &[T],
        name: fn(T) -> &'static str,
        default: T,
    ) -> T {
        match res.get(key) {
            None => default,
            Some(Value::String(s)) => match all.iter().find(|v| name(**v) == s) {
                Some(v) => *v,
                None => {
                    let names: Vec<&str> = all.iter().map(|v| name(*v)).collect();
                    self.error(
                        &res.loc.child(key),
                        format!("unknown value \"{s}\"; use one of {}", names.join(", ")),
                    );
                    default
                }
            },
            Some(v) => {
                let names: Vec<&str> = all.iter().map(|v| name(*v)).collect();
                self.error(
                    &res.loc.child(key),
                    format!("expected one of the strings {}, found {}", names.join(", "), type_name(v)),
                );
                default
            }
        }
    }

    fn array(&mut self, res: &Res<'a>, key: &str) -> &'a [Value] {
        match res.get(key) {
            None => &[],
            Some(Value::Array(a)) => a,
            Some(v) => {
                self.error(&res.loc.child(key), format!("expected an array, found {}", type_name(v)));
                &[]
            }
        }
    }

    fn string_list(&mut self, res: &Res<'a>, key: &str) -> Vec<String> {
        let items = self.array(res, key);
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => out.push(s.clone()),
                v => self.error(&res.loc.index(key, i), format!("expected a string, found {}", type_name(v))),
            }
        }
        out
    }

    fn number_list(&mut self, res: &Res<'a>, key: &str) -> Vec<f32> {
        let items = self.array(res, key);
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if let Some(f) = self.number_value(item, &res.loc.index(key, i)) {
                out.push(f);
            }
        }
        out
    }

    fn vec2_value(&mut self, value: &Value, loc: &Loc) -> Option<[f32; 2]> {
        match value.as_array() {
            Some(a) if a.len() == 2 => {
                let x = self.number_value(&a[0], &loc.child("x"));
                let y = self.number_value(&a[1], &loc.child("y"));
                Some([x?, y?])
            }
            _ => {
                self.error(loc, format!("expected a vector [x, y], found {}", type_name(value)));
                None
            }
        }
    }

    fn vec2(&mut self, res: &Res<'a>, key: &str) -> [f32; 2] {
        match res.get(key) {
            None => [0.0, 0.0],
            Some(v) => self.vec2_value(v, &res.loc.child(key)).unwrap_or([0.0, 0.0]),
        }
    }

    fn vec2_list(&mut self, res: &Res<'a>, key: &str) -> Vec<[f32; 2]> {
        let items = self.array(res, key);
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if let Some(v) = self.vec2_value(item, &res.loc.index(key, i)) {
                out.push(v);
            }
        }
        out
    }

    /// Builds each element of a list of sub-resources; elements that fail are reported and left out.
    fn list<T>(
        &mut self,
        res: &Res<'a>,
        key: &str,
        model: &str,
        expected: &[&str],
        mut build: impl FnMut(&mut Self, &Res<'a>, &str) -> T,
        placeholder: Option<fn(String) -> T>,
    ) -> Vec<T> {
        let items = self.array(res, key);
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let model_path = join(model, &format!("{key}[{}]", out.len()));
            let at = res.loc.index(key, i);
            if let Some(built) =
                self.with_resource(item, at, &model_path, expected, |l, r| build(l, r, &model_path))
            {
                out.push(built);
            } else if let (Some(make), Some(name)) = (placeholder, self.name_of(item)) {
                // Keep a named stand-in so that references to it by name do not cascade into
                // more errors; nothing under it is validated.
                self.placeholders.push(model_path);
                out.push(make(name));
            }
        }
        out
    }

    /// The `Name` property of a reference's target or an inline resource, if readable.
    fn name_of(&self, item: &'a Value) -> Option<String> {
        let object = match item.get("res").and_then(Value::as_str) {
            Some(id) => self.resources?.get(id)?,
            None => item,
        };
        // A resource of another known type (a parameter where a state belongs) is no stand-in.
        let ty = object.get("type").and_then(Value::as_str).unwrap_or("");
        if KNOWN_TYPES.contains(&ty) && !STATE_TYPES.contains(&ty) {
            return None;
        }
        let name = object.get("props")?.get("Name")?.as_str()?;
        (!name.is_empty()).then(|| name.to_string())
    }

    // ---- resource builders ------------------------------------------------------------------

    fn graph(&mut self, res: &Res<'a>, uid: String) -> AnimationGraph {
        let parameters = self.list(
            res,
            schema::graph::PARAMETERS.name,
            "",
            &["GraphParameter"],
            |l, r, _| l.parameter(r),
            None,
        );
        let layers =
            self.list(res, schema::graph::LAYERS.name, "", &["GraphLayer"], |l, r, m| l.layer(r, m), None);
        let mixes =
            self.list(res, schema::graph::MIXES.name, "", &["GraphMixOverride"], |l, r, _| l.mix(r), None);
        let default_mix = self.prop_number(res, &schema::graph::DEFAULT_MIX);
        AnimationGraph { uid, parameters, layers, mixes, default_mix }
    }

    fn parameter(&mut self, res: &Res<'a>) -> GraphParameter {
        let name = self.string(res, "Name", "");
        let errors_before = self.diagnostics.len();
        let kind = self.prop_enum(res, &schema::parameter::TYPE, &ParameterType::ALL, ParameterType::as_str);
        if self.diagnostics.len() > errors_before {
            self.untyped_parameters.insert(name.clone());
        }
        GraphParameter {
            name,
            kind,
            default: self.prop_number(res, &schema::parameter::DEFAULT),
            latch: self.prop_bool(res, &schema::parameter::LATCH),
        }
    }

    fn layer(&mut self, res: &Res<'a>, model: &str) -> GraphLayer {
        let name = self.prop_string(res, &schema::layer::NAME);
        let blend = self.prop_enum(
            res,
            &schema::layer::BLEND,
            &[ClipBlend::Replace, ClipBlend::Additive],
            ClipBlend::as_str,
        );
        let weight = self.prop_number(res, &schema::layer::WEIGHT);
        let weight_parameter = self.prop_string(res, &schema::layer::WEIGHT_PARAMETER);
        let mask = match res.get(schema::layer::MASK.name) {
            None => None,
            Some(v) => {
                self.with_resource(v, res.loc.child("Mask"), &join(model, "Mask"), &["BoneMask"], |l, r| {
                    BoneMask {
                        bones: l.string_list(r, schema::mask::BONES.name),
                        include_children: l.prop_bool(r, &schema::mask::INCLUDE_CHILDREN),
                    }
                })
            }
        };
        let machine = self.machine_property(res, model);
        GraphLayer { name, blend, weight, weight_parameter, mask, machine }
    }

    fn machine_property(&mut self, res: &Res<'a>, model: &str) -> GraphMachine {
        match res.get("Machine") {
            None => GraphMachine::default(),
            Some(v) => self
                .with_resource(
                    v,
                    res.loc.child("Machine"),
                    &join(model, "Machine"),
                    &["GraphMachine"],
                    |l, r| l.machine(r, &join(model, "Machine")),
                )
                .unwrap_or_default(),
        }
    }

    fn machine(&mut self, res: &Res<'a>, model: &str) -> GraphMachine {
        let states = self.list(
            res,
            schema::machine::STATES.name,
            model,
            STATE_TYPES,
            |l, r, m| l.state(r, m),
            Some(placeholder_state),
        );
        let transitions = self.list(
            res,
            schema::machine::TRANSITIONS.name,
            model,
            &["GraphTransition"],
            |l, r, m| l.transition(r, m),
            None,
        );
        let entry = self.prop_string(res, &schema::machine::ENTRY);
        GraphMachine { states, transitions, entry }
    }

    fn state(&mut self, res: &Res<'a>, model: &str) -> GraphState {
        let name = self.prop_string(res, &schema::state::NAME);
        let speed = self.prop_number(res, &schema::state::SPEED);
        let speed_parameter = self.prop_string(res, &schema::state::SPEED_PARAMETER);
        let editor_position = self.vec2(res, schema::state::EDITOR_POSITION.name);
        let kind = match res.ty {
            "ClipState" => StateKind::Clip(ClipState {
                clip: self.prop_string(res, &schema::clip_state::CLIP),
                looping: self.prop_bool(res, &schema::clip_state::LOOP),
            }),
            "BlendSpace1DState" => StateKind::BlendSpace1D(BlendSpace1D {
                parameter: self.prop_string(res, &schema::blend_1d::PARAMETER),
                clips: self.string_list(res, schema::blend_1d::CLIPS.name),
                positions: self.number_list(res, schema::blend_1d::POSITIONS.name),
                sync_time: self.prop_bool(res, &schema::blend_1d::SYNC_TIME),
            }),
            "BlendSpace2DState" => StateKind::BlendSpace2D(BlendSpace2D {
                parameter_x: self.prop_string(res, &schema::blend_2d::PARAMETER_X),
                parameter_y: self.prop_string(res, &schema::blend_2d::PARAMETER_Y),
                clips: self.string_list(res, schema::blend_2d::CLIPS.name),
                positions: self.vec2_list(res, schema::blend_2d::POSITIONS.name),
                sync_time: self.prop_bool(res, &schema::blend_2d::SYNC_TIME),
            }),
            _ => StateKind::SubMachine(self.machine_property(res, model)),
        };
        GraphState { name, speed, speed_parameter, editor_position, kind }
    }

    fn transition(&mut self, res: &Res<'a>, model: &str) -> GraphTransition {
        GraphTransition {
            from: self.prop_string(res, &schema::transition::FROM),
            to: self.prop_string(res, &schema::transition::TO),
            conditions: self.list(
                res,
                schema::transition::CONDITIONS.name,
                model,
                &["GraphCondition"],
                |l, r, _| l.condition(r),
                None,
            ),
            duration: self.prop_number(res, &schema::transition::DURATION),
            exit_time: self.prop_number(res, &schema::transition::EXIT_TIME),
            offset: self.prop_number(res, &schema::transition::OFFSET),
            interrupt: self.prop_enum(
                res,
                &schema::transition::INTERRUPT,
                &TransitionInterrupt::ALL,
                TransitionInterrupt::as_str,
            ),
            priority: self.integer(
                res,
                schema::transition::PRIORITY.name,
                schema::transition::PRIORITY.default,
            ),
        }
    }

    fn condition(&mut self, res: &Res<'a>) -> GraphCondition {
        GraphCondition {
            parameter: self.prop_string(res, &schema::condition::PARAMETER),
            op: self.prop_enum(res, &schema::condition::OP, &ConditionOp::ALL, ConditionOp::as_str),
            value: self.prop_number(res, &schema::condition::VALUE),
        }
    }

    fn mix(&mut self, res: &Res<'a>) -> GraphMixOverride {
        GraphMixOverride {
            from: self.prop_string(res, &schema::mix::FROM),
            to: self.prop_string(res, &schema::mix::TO),
            duration: self.prop_number(res, &schema::mix::DURATION),
        }
    }
}
