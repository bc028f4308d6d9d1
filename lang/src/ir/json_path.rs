//! `json_path = "$.items[0].name"`: where a `request` step's expectation reads the JSON answer.
//!
//! Why a small dialect and not full JSONPath: a check names one value. Filters, wildcards and
//! recursive descent select several, and the expectation (`equals`) compares one. The dialect is
//! `$` (the whole document), then any number of `.name` (letters, digits, `_`, `-`), `[index]`
//! (a non-negative integer) and `["any key"]` (a JSON string's escapes `\"` and `\\`). Parsed at
//! admission, so a typo is refused at its span; read by the driver on the parsed segments.

use serde::{Deserialize, Serialize};

/// A parsed path: the segments after `$`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct JsonPath(pub Vec<PathSegment>);

/// One step into the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// Why a text is not a path: the byte offset and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected} at byte {at}")]
pub struct JsonPathError {
    /// Offset in the text.
    pub at: usize,
    /// What should have come.
    pub expected: &'static str,
}

/// Longest path text admitted.
pub const MAX_JSON_PATH: usize = 1024;

impl JsonPath {
    /// Parse `text` (`$.a[0]["b c"]`).
    pub fn parse(text: &str) -> Result<JsonPath, JsonPathError> {
        if text.len() > MAX_JSON_PATH {
            return Err(JsonPathError {
                at: MAX_JSON_PATH,
                expected: "a path of at most 1024 bytes",
            });
        }
        let bytes = text.as_bytes();
        if bytes.first() != Some(&b'$') {
            return Err(JsonPathError {
                at: 0,
                expected: "`$` (the whole document)",
            });
        }
        let mut i = 1;
        let mut out = Vec::new();
        let name_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
        while i < bytes.len() {
            match bytes[i] {
                b'.' => {
                    let start = i + 1;
                    let mut end = start;
                    while end < bytes.len() && name_byte(bytes[end]) {
                        end += 1;
                    }
                    if end == start {
                        return Err(JsonPathError {
                            at: start,
                            expected: "a member name (letters, digits, `_`, `-`) after `.`",
                        });
                    }
                    out.push(PathSegment::Key(text[start..end].to_string()));
                    i = end;
                }
                b'[' if bytes.get(i + 1) == Some(&b'"') => {
                    let mut key = String::new();
                    let mut j = i + 2;
                    loop {
                        match bytes.get(j) {
                            None => {
                                return Err(JsonPathError {
                                    at: j,
                                    expected: "`\"]` closing the key",
                                })
                            }
                            Some(b'\\') => match bytes.get(j + 1) {
                                Some(&c @ (b'"' | b'\\')) => {
                                    key.push(char::from(c));
                                    j += 2;
                                }
                                _ => {
                                    return Err(JsonPathError {
                                        at: j,
                                        expected: "`\\\"` or `\\\\` (the only escapes in a key)",
                                    })
                                }
                            },
                            Some(b'"') => break,
                            Some(_) => {
                                let c = text[j..].chars().next().expect("inside the text");
                                key.push(c);
                                j += c.len_utf8();
                            }
                        }
                    }
                    if bytes.get(j + 1) != Some(&b']') {
                        return Err(JsonPathError {
                            at: j + 1,
                            expected: "`]` after the key",
                        });
                    }
                    out.push(PathSegment::Key(key));
                    i = j + 2;
                }
                b'[' => {
                    let start = i + 1;
                    let mut end = start;
                    while end < bytes.len() && bytes[end].is_ascii_digit() {
                        end += 1;
                    }
                    let index = text[start..end].parse::<usize>().ok();
                    match (index, bytes.get(end)) {
                        (Some(index), Some(b']')) if end - start <= 9 => {
                            out.push(PathSegment::Index(index));
                            i = end + 1;
                        }
                        _ => {
                            return Err(JsonPathError {
                                at: start,
                                expected: "an index of up to 9 digits then `]`, or a quoted key",
                            })
                        }
                    }
                }
                _ => {
                    return Err(JsonPathError {
                        at: i,
                        expected: "`.name`, `[index]` or `[\"key\"]`",
                    })
                }
            }
        }
        Ok(JsonPath(out))
    }
}

impl std::fmt::Display for JsonPath {
    /// The canonical text, which [`JsonPath::parse`] reads back to the same path.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("$")?;
        for segment in &self.0 {
            match segment {
                PathSegment::Index(i) => write!(f, "[{i}]")?,
                PathSegment::Key(k)
                    if !k.is_empty()
                        && k.bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') =>
                {
                    write!(f, ".{k}")?
                }
                PathSegment::Key(k) => {
                    write!(f, "[\"{}\"]", k.replace('\\', "\\\\").replace('"', "\\\""))?
                }
            }
        }
        Ok(())
    }
}

impl TryFrom<String> for JsonPath {
    type Error = JsonPathError;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        JsonPath::parse(&text)
    }
}

impl From<JsonPath> for String {
    fn from(path: JsonPath) -> String {
        path.to_string()
    }
}

/// The value a `request` expectation compares (`equals = …`): a JSON scalar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum JsonScalar {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Integer(i64),
    /// A string.
    String(String),
}

impl std::fmt::Display for JsonScalar {
    /// As JSON (`"Ada"`, `3`, `true`, `null`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JsonScalar::Null => f.write_str("null"),
            JsonScalar::Bool(b) => write!(f, "{b}"),
            JsonScalar::Integer(i) => write!(f, "{i}"),
            JsonScalar::String(s) => write!(f, "{s:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_parse_and_print_back() {
        let path = JsonPath::parse(r#"$.user.items[0]["a \"b\""].x-y"#).unwrap();
        assert_eq!(
            path.0,
            vec![
                PathSegment::Key("user".into()),
                PathSegment::Key("items".into()),
                PathSegment::Index(0),
                PathSegment::Key("a \"b\"".into()),
                PathSegment::Key("x-y".into()),
            ]
        );
        assert_eq!(JsonPath::parse(&path.to_string()).unwrap(), path);
        assert_eq!(JsonPath::parse("$").unwrap().0, vec![]);
    }

    #[test]
    fn mistakes_name_their_offset() {
        for (text, at) in [
            ("user", 0),
            ("$.", 2),
            ("$[x]", 2),
            ("$[1", 2),
            ("$[\"a", 4),
            ("$.a b", 3),
            ("$[\"a\"x", 5),
            ("$[1234567890]", 2),
        ] {
            assert_eq!(JsonPath::parse(text).unwrap_err().at, at, "{text}");
        }
    }
}
