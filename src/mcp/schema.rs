//! Tool arguments checked against the tool's own declared JSON Schema, before the tool runs.
//!
//! Why one validator driven by the schema (and not checks inside each tool): the schema a client
//! reads in `tools/list` is then exactly the contract enforced, for every tool at once, and a
//! violation is a JSON-RPC invalid-params error (−32602) naming the failing field instead of a
//! tool error. Only the keywords our schemas use are understood (listed in `KEYWORDS`); a test
//! checks every tool schema uses nothing else, so a keyword can never be silently ignored. Why
//! not the `jsonschema` crate: it brings a large dependency tree (remote references, formats)
//! for the dozen keywords these flat schemas need.

use regex::Regex;
use serde_json::{Map, Value};

/// The schema keywords [`validate`] enforces (plus `description` and `default`, which are
/// documentation, and `format`, which on the derived integer schemas only restates the type and
/// the `minimum` beside it).
#[cfg(test)]
pub const KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "enum",
    "const",
    "items",
    "minItems",
    "maxItems",
    "oneOf",
    "anyOf",
    "description",
    "title",
    "default",
    "format",
];

/// Why a value breaks its schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{field}` {reason}")]
pub struct Violation {
    /// The failing field as a JSON Pointer into the arguments (`/limit`, `/changed_files/3`);
    /// empty for the arguments object itself.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

impl Violation {
    fn at(field: &str, reason: impl Into<String>) -> Violation {
        Violation {
            field: field.to_owned(),
            reason: reason.into(),
        }
    }
}

/// Check `value` against `schema`; the first violation found, in schema order.
pub fn validate(schema: &Value, value: &Value) -> Result<(), Violation> {
    check(schema, value, "")
}

fn check(schema: &Value, value: &Value, field: &str) -> Result<(), Violation> {
    let Some(schema) = schema.as_object() else {
        return Ok(());
    };
    // A derived schema names an optional field's type as `[kind, "null"]`.
    let kinds: Vec<&str> = match schema.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !kinds.is_empty() && !kinds.iter().any(|k| has_type(value, k)) {
        return Err(Violation::at(
            field,
            format!("must be {} (got {})", article(kinds[0]), type_of(value)),
        ));
    }
    if let Some(expected) = schema.get("const") {
        if value != expected {
            return Err(Violation::at(field, format!("must be {expected}")));
        }
    }
    if let Some(Value::Array(allowed)) = schema.get("enum") {
        if !allowed.contains(value) {
            let names: Vec<String> = allowed.iter().map(Value::to_string).collect();
            return Err(Violation::at(
                field,
                format!("must be one of {}", names.join(", ")),
            ));
        }
    }
    match value {
        Value::String(s) => string(schema, s, field)?,
        Value::Number(_) => number(schema, value, field)?,
        Value::Array(items) => array(schema, items, field)?,
        Value::Object(map) => object(schema, map, field)?,
        Value::Bool(_) | Value::Null => {}
    }
    if let Some(Value::Array(choices)) = schema.get("oneOf") {
        match choices
            .iter()
            .filter(|c| check(c, value, field).is_ok())
            .count()
        {
            1 => {}
            0 => return Err(Violation::at(field, "matches none of the allowed forms")),
            _ => return Err(Violation::at(field, "matches more than one allowed form")),
        }
    }
    // An optional enum (`Option<T>`) is derived as `anyOf: [T, null]`.
    if let Some(Value::Array(choices)) = schema.get("anyOf") {
        if !choices.iter().any(|c| check(c, value, field).is_ok()) {
            return Err(Violation::at(field, "matches none of the allowed forms"));
        }
    }
    Ok(())
}

fn string(schema: &Map<String, Value>, s: &str, field: &str) -> Result<(), Violation> {
    let chars = || s.chars().count();
    if let Some(max) = schema.get("maxLength").and_then(Value::as_u64) {
        // Counting stops at the limit: a huge string costs no more than a short one.
        if s.len() as u64 > max && s.chars().nth(max as usize).is_some() {
            return Err(Violation::at(
                field,
                format!("must be at most {max} characters"),
            ));
        }
    }
    if let Some(min) = schema.get("minLength").and_then(Value::as_u64) {
        if (chars() as u64) < min {
            return Err(Violation::at(
                field,
                format!("must be at least {min} characters"),
            ));
        }
    }
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        let matches = Regex::new(pattern).map(|re| re.is_match(s));
        // A pattern that does not compile is our bug; refuse rather than let the value through.
        if !matches.unwrap_or(false) {
            return Err(Violation::at(field, pattern_reason(schema, pattern, s)));
        }
    }
    Ok(())
}

/// Why `s` breaks `pattern`. An id field (its schema is the ledger's id rule, `title` naming the
/// id) is refused in the id parser's own words, so the tool and the CLI flag say the same.
fn pattern_reason(schema: &Map<String, Value>, pattern: &str, s: &str) -> String {
    let title = schema.get("title").and_then(Value::as_str);
    match title {
        Some(what) if pattern == a3s_test_ledger::ID_PATTERN => {
            match a3s_test_ledger::id::check_id(what, s) {
                Err(e) => e.to_string(),
                Ok(()) => format!("must match {pattern}"),
            }
        }
        _ => format!("must match {pattern}"),
    }
}

fn number(schema: &Map<String, Value>, value: &Value, field: &str) -> Result<(), Violation> {
    let n = value.as_f64().unwrap_or(f64::NAN);
    if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
        if n.is_nan() || n < min {
            return Err(Violation::at(field, format!("must be at least {min}")));
        }
    }
    if let Some(max) = schema.get("maximum").and_then(Value::as_f64) {
        if n.is_nan() || n > max {
            return Err(Violation::at(field, format!("must be at most {max}")));
        }
    }
    Ok(())
}

fn array(schema: &Map<String, Value>, items: &[Value], field: &str) -> Result<(), Violation> {
    if let Some(max) = schema.get("maxItems").and_then(Value::as_u64) {
        if items.len() as u64 > max {
            return Err(Violation::at(
                field,
                format!("must have at most {max} items"),
            ));
        }
    }
    if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
        if (items.len() as u64) < min {
            return Err(Violation::at(
                field,
                format!("must have at least {min} items"),
            ));
        }
    }
    if let Some(item) = schema.get("items") {
        for (i, v) in items.iter().enumerate() {
            check(item, v, &format!("{field}/{i}"))?;
        }
    }
    Ok(())
}

fn object(
    schema: &Map<String, Value>,
    map: &Map<String, Value>,
    field: &str,
) -> Result<(), Violation> {
    let empty = Map::new();
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !map.contains_key(name) {
            return Err(Violation::at(&pointer(field, name), "is required"));
        }
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        if let Some(unknown) = map.keys().find(|k| !props.contains_key(*k)) {
            return Err(Violation::at(
                &pointer(field, unknown),
                "is not an argument of this tool",
            ));
        }
    }
    for (name, sub) in props {
        if let Some(v) = map.get(name) {
            check(sub, v, &pointer(field, name))?;
        }
    }
    Ok(())
}

/// `field` + `/name`, with the name escaped as RFC 6901 asks.
fn pointer(field: &str, name: &str) -> String {
    format!("{field}/{}", name.replace('~', "~0").replace('/', "~1"))
}

fn has_type(value: &Value, kind: &str) -> bool {
    match kind {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "null" => value.is_null(),
        _ => false,
    }
}

fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn article(kind: &str) -> String {
    match kind {
        "integer" | "object" | "array" => format!("an {kind}"),
        other => format!("a {other}"),
    }
}

/// Every keyword used anywhere in `schema` that [`validate`] does not know.
#[cfg(test)]
pub fn unknown_keywords(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(map) = schema.as_object() else {
        return out;
    };
    for (key, sub) in map {
        if !KEYWORDS.contains(&key.as_str()) {
            out.push(key.clone());
        }
        match key.as_str() {
            "properties" => {
                for s in sub.as_object().into_iter().flat_map(|m| m.values()) {
                    out.extend(unknown_keywords(s));
                }
            }
            "items" => out.extend(unknown_keywords(sub)),
            "oneOf" | "anyOf" => {
                for s in sub.as_array().into_iter().flatten() {
                    out.extend(unknown_keywords(s));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "session": { "type": "string", "pattern": "^[a-z]{1,8}$" },
                "limit": { "type": "integer", "minimum": 1, "maximum": 100 },
                "statement": { "type": "string", "maxLength": 4 },
                "files": { "type": "array", "maxItems": 2, "items": { "type": "string", "minLength": 1 } },
                "status": { "enum": ["passed", "failed"] },
            },
            "required": ["session"],
            "additionalProperties": false,
        })
    }

    fn field(args: Value) -> String {
        validate(&schema(), &args).unwrap_err().field
    }

    #[test]
    fn good_arguments_pass() {
        let ok = json!({ "session": "abc", "limit": 3, "statement": "éééé", "files": ["a"], "status": "passed" });
        assert_eq!(validate(&schema(), &ok), Ok(()));
    }

    #[test]
    fn each_violation_names_its_field() {
        assert_eq!(field(json!({})), "/session");
        assert_eq!(field(json!({ "session": "../x" })), "/session");
        assert_eq!(field(json!({ "session": "a", "limit": 0 })), "/limit");
        assert_eq!(field(json!({ "session": "a", "limit": 1.5 })), "/limit");
        assert_eq!(field(json!({ "session": "a", "limit": "ten" })), "/limit");
        assert_eq!(
            field(json!({ "session": "a", "statement": "12345" })),
            "/statement"
        );
        assert_eq!(
            field(json!({ "session": "a", "files": ["a", "b", "c"] })),
            "/files"
        );
        assert_eq!(field(json!({ "session": "a", "files": [""] })), "/files/0");
        assert_eq!(
            field(json!({ "session": "a", "status": "maybe" })),
            "/status"
        );
        assert_eq!(field(json!({ "session": "a", "shell": "id" })), "/shell");
        assert_eq!(field(json!([])), "");
    }

    #[test]
    fn the_id_schema_is_the_id_parser() {
        use a3s_test_ledger::SessionId;
        #[derive(schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Params {
            /// A session.
            session: SessionId,
        }
        let params = crate::ops::schema_of::<Params>();
        let long = "x".repeat(65);
        let max = "x".repeat(64);
        for value in [
            "a", "S1", "_x", "rf_01-x", "x-", &max, "", "-x", "--json", "a b", "a/b", "..", "é",
            "$(id)", &long,
        ] {
            let parsed = value.parse::<SessionId>();
            let checked = validate(&params, &json!({ "session": value }));
            assert_eq!(parsed.is_ok(), checked.is_ok(), "{value:?}");
            if let (Err(by_parser), Err(by_schema)) = (parsed, checked) {
                assert_eq!(by_schema.reason, by_parser.to_string(), "{value:?}");
            }
        }
    }

    #[test]
    fn one_of_needs_exactly_one_form() {
        let s = json!({ "oneOf": [
            { "type": "object", "required": ["action"], "additionalProperties": false,
              "properties": { "action": { "const": "a" } } },
            { "type": "object", "required": ["action", "x"], "additionalProperties": false,
              "properties": { "action": { "const": "b" }, "x": { "type": "string" } } },
        ]});
        assert_eq!(validate(&s, &json!({ "action": "a" })), Ok(()));
        assert!(validate(&s, &json!({ "action": "b" })).is_err());
        assert!(validate(&s, &json!({ "action": "explode" })).is_err());
    }

    #[test]
    fn any_of_needs_at_least_one_form() {
        let s = json!({ "type": "object", "properties": { "edge": { "anyOf": [
            { "oneOf": [{ "const": "top" }, { "const": "bottom" }] },
            { "type": "null" },
        ]}}});
        assert_eq!(validate(&s, &json!({ "edge": "top" })), Ok(()));
        assert_eq!(validate(&s, &json!({ "edge": null })), Ok(()));
        assert_eq!(validate(&s, &json!({})), Ok(()));
        let err = validate(&s, &json!({ "edge": "middle" })).unwrap_err();
        assert_eq!(err.field, "/edge");
    }

    #[test]
    fn unknown_keywords_are_found() {
        assert!(unknown_keywords(&schema()).is_empty());
        assert_eq!(
            unknown_keywords(&json!({ "properties": { "a": { "$ref": "#/$defs/a" } } })),
            ["$ref"]
        );
    }
}
