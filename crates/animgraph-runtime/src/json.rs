//! A rule every JSON format of animgraph shares (`.mskel`, recordings, link messages, imported
//! Spine files): numbers must fit an `f32`. `serde_json` reads `1e39` into an `f32` as
//! infinity, which then saves as `null` and never loads again; checking the text first turns
//! that into an error with its line and column.

/// A number too large for an `f32`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line} column {column}: the number {number} is out of range (numbers must be within ±3.4e38)")]
pub struct NumberOutOfRange {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (bytes).
    pub column: usize,
    /// The number as written (at most 40 characters).
    pub number: String,
}

/// Scans JSON text (valid or not) for numbers outside the `f32` range, in one pass without
/// allocating; strings are skipped.
pub fn check_f32_range(text: &str) -> Result<(), NumberOutOfRange> {
    let bytes = text.as_bytes();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
                i += 1;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    } else if bytes[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len() && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    i += 1;
                }
                let token = &text[start..i];
                // Only a long mantissa or an exponent can overflow; skip the parse otherwise.
                let suspicious = token.len() > 38 || token.contains(['e', 'E']);
                if suspicious
                    && token.parse::<f64>().is_ok_and(|n| n.is_infinite() || n.abs() > f32::MAX as f64)
                {
                    return Err(NumberOutOfRange {
                        line,
                        column: start - line_start + 1,
                        number: token.chars().take(40).collect(),
                    });
                }
            }
            _ => i += 1,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_numbers_past_f32_outside_strings() {
        assert_eq!(check_f32_range("{\"a\": [1, 2.5e3, -3.4e38, 18446744073709551615]}"), Ok(()));
        assert_eq!(check_f32_range("{\"1e39\": \"1e39\"}"), Ok(()));
        let e = check_f32_range("{\n  \"x\": 1e39}").unwrap_err();
        assert_eq!((e.line, e.column, e.number.as_str()), (2, 8, "1e39"));
        assert!(check_f32_range("[-1e400]").is_err());
        let long = format!("[{}]", "9".repeat(60));
        assert!(check_f32_range(&long).is_err());
    }
}
