//! Reading values of properties: strings, numbers, enums, lists, vectors and lists of
//! sub-resources, each reporting a located error and falling back to its default.

use super::*;

impl<'a> Loader<'a> {
    pub(super) fn prop_string(&mut self, res: &Res<'a>, prop: &Prop<&'static str>) -> String {
        self.string(res, prop.name, prop.default)
    }

    pub(super) fn prop_number(&mut self, res: &Res<'a>, prop: &Prop<f32>) -> f32 {
        self.number(res, prop.name, prop.default)
    }

    pub(super) fn prop_bool(&mut self, res: &Res<'a>, prop: &Prop<bool>) -> bool {
        self.boolean(res, prop.name, prop.default)
    }

    pub(super) fn prop_enum<T: Copy + 'static>(
        &mut self,
        res: &Res<'a>,
        prop: &Prop<T>,
        all: &[T],
        name: fn(T) -> &'static str,
    ) -> T {
        self.enumeration(res, prop.name, all, name, prop.default)
    }

    pub(super) fn string(&mut self, res: &Res<'a>, key: &str, default: &str) -> String {
        match res.get(key) {
            None => default.to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => {
                self.error(&res.loc.child(key), format!("expected a string, found {}", type_name(v)));
                default.to_string()
            }
        }
    }

    pub(super) fn number_value(&mut self, value: &Value, loc: &Loc) -> Option<f32> {
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

    pub(super) fn number(&mut self, res: &Res<'a>, key: &str, default: f32) -> f32 {
        match res.get(key) {
            None => default,
            Some(v) => self.number_value(v, &res.loc.child(key)).unwrap_or(default),
        }
    }

    pub(super) fn integer(&mut self, res: &Res<'a>, key: &str, default: i32) -> i32 {
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

    pub(super) fn boolean(&mut self, res: &Res<'a>, key: &str, default: bool) -> bool {
        match res.get(key) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                self.error(&res.loc.child(key), format!("expected true or false, found {}", type_name(v)));
                default
            }
        }
    }

    pub(super) fn enumeration<T: Copy>(
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

    pub(super) fn array(&mut self, res: &Res<'a>, key: &str) -> &'a [Value] {
        match res.get(key) {
            None => &[],
            Some(Value::Array(a)) => a,
            Some(v) => {
                self.error(&res.loc.child(key), format!("expected an array, found {}", type_name(v)));
                &[]
            }
        }
    }

    pub(super) fn string_list(&mut self, res: &Res<'a>, key: &str) -> Vec<String> {
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

    pub(super) fn number_list(&mut self, res: &Res<'a>, key: &str) -> Vec<f32> {
        let items = self.array(res, key);
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if let Some(f) = self.number_value(item, &res.loc.index(key, i)) {
                out.push(f);
            }
        }
        out
    }

    pub(super) fn vec2_value(&mut self, value: &Value, loc: &Loc) -> Option<[f32; 2]> {
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

    pub(super) fn vec2(&mut self, res: &Res<'a>, key: &str) -> [f32; 2] {
        match res.get(key) {
            None => [0.0, 0.0],
            Some(v) => self.vec2_value(v, &res.loc.child(key)).unwrap_or([0.0, 0.0]),
        }
    }

    pub(super) fn vec2_list(&mut self, res: &Res<'a>, key: &str) -> Vec<[f32; 2]> {
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
    pub(super) fn list<T>(
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
    pub(super) fn name_of(&self, item: &'a Value) -> Option<String> {
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
}
