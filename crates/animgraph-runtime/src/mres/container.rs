//! The resource container every animgraph file shares (`.mres` graphs and `.mskel` skeletons):
//! a JSON object with `format` (the version), `uid`, `type` (what it holds), `resources` and
//! `props`. The header checks are written here once.

use serde_json::Value;

/// The only container format version this crate reads and writes.
pub const FORMAT_VERSION: u64 = 2;

/// The JSON kind of a value, for messages (`a string`, `an array`, ...).
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Checks the `format` field: present and [`FORMAT_VERSION`]; else what to say about it.
pub fn check_format(format: Option<&Value>) -> Result<(), String> {
    match format {
        None => Err(format!("is missing; add \"format\": {FORMAT_VERSION}")),
        Some(v) if v.as_u64() == Some(FORMAT_VERSION) => Ok(()),
        Some(v) => {
            Err(format!("format {v} is not supported; this version reads format {FORMAT_VERSION} only"))
        }
    }
}

/// Checks the `type` field: the string `expected`; else what to say about it.
pub fn check_type(ty: Option<&Value>, expected: &str) -> Result<(), String> {
    match ty {
        Some(Value::String(t)) if t == expected => Ok(()),
        Some(Value::String(t)) => {
            Err(format!("the file holds a \"{t}\"; this loader reads \"{expected}\" files"))
        }
        other => Err(format!("expected \"{expected}\", found {}", other.map_or("nothing", type_name))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_checks_say_what_to_write() {
        assert_eq!(check_format(Some(&Value::from(2))), Ok(()));
        assert_eq!(check_format(None).unwrap_err(), "is missing; add \"format\": 2");
        assert!(check_format(Some(&Value::from(3))).unwrap_err().starts_with("format 3 is not supported"));
        assert_eq!(check_type(Some(&Value::from("Skeleton2DData")), "Skeleton2DData"), Ok(()));
        assert_eq!(
            check_type(Some(&Value::from("AnimationGraph")), "Skeleton2DData").unwrap_err(),
            "the file holds a \"AnimationGraph\"; this loader reads \"Skeleton2DData\" files"
        );
        assert_eq!(
            check_type(None, "AnimationGraph").unwrap_err(),
            "expected \"AnimationGraph\", found nothing"
        );
    }
}
