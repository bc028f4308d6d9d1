//! Tool arguments read into the tool's parameters struct. The typed deserialization IS the
//! check: a field's type refuses what its schema does not allow (bounds through
//! `crate::ops::bounded`, enums and tagged actions through serde), and a refusal is a JSON-RPC
//! invalid-params error (−32602) naming the field as a JSON Pointer (`/limit`,
//! `/changed_files/3`), read by `serde_path_to_error`.
//!
//! Two things are not the field types' own, and each is said here:
//! - unknown fields: the arguments object may hold only the properties of the derived schema
//!   (the fields of the struct, flattened ones included; serde's `deny_unknown_fields` does not
//!   work through `#[serde(flatten)]`, which every verb's parameters use);
//! - where serde's `flatten` buffered a value before reading it, the path of a refusal inside it
//!   is lost; [`locate`] finds the field again by leaving fields out one by one;
//!
//! Ids (`session`, `finding`, `request_id`, `attempt_id`) are the ledger's id types, which
//! refuse a bad id themselves, in the same words as on the command line.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// Why the arguments do not fit the tool's parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{field}` {reason}")]
pub struct Refusal {
    /// The failing field as a JSON Pointer into the arguments (`/limit`, `/changed_files/3`);
    /// empty for the arguments object itself.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

impl Refusal {
    fn at(field: impl Into<String>, reason: impl Into<String>) -> Refusal {
        Refusal {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// `field` + `/name`, with the name escaped as RFC 6901 asks.
fn pointer(field: &str, name: &str) -> String {
    format!("{field}/{}", name.replace('~', "~0").replace('/', "~1"))
}

/// The arguments `args` as `P`, whose derived input schema is `schema`.
pub fn read<P: DeserializeOwned>(schema: &Value, args: &Value) -> Result<P, Refusal> {
    let Some(map) = args.as_object() else {
        return Err(Refusal::at("", "must be an object"));
    };
    let properties = schema.get("properties").and_then(Value::as_object);
    if let Some(unknown) = map
        .keys()
        .find(|k| !properties.is_some_and(|p| p.contains_key(*k)))
    {
        return Err(Refusal::at(
            pointer("", unknown),
            "is not an argument of this tool",
        ));
    }
    let error = match serde_path_to_error::deserialize::<_, P>(args) {
        Ok(params) => return Ok(params),
        Err(e) => e,
    };
    let mut field = String::new();
    for segment in error.path().iter() {
        match segment {
            serde_path_to_error::Segment::Map { key } => field = pointer(&field, key),
            serde_path_to_error::Segment::Seq { index } => field = format!("{field}/{index}"),
            serde_path_to_error::Segment::Enum { .. } => {}
            serde_path_to_error::Segment::Unknown => break,
        }
    }
    let reason = error.into_inner().to_string();
    if let Some(name) = reason
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return Err(Refusal::at(pointer(&field, name), "is required"));
    }
    if field.is_empty() {
        field = locate::<P>(map, &reason).unwrap_or_default();
    }
    Err(Refusal::at(field, reason))
}

/// The field a refusal read at the top (a value inside a flattened struct) is about, found by
/// leaving fields out and reading the arguments again (only on a refusal):
/// - a field whose absence lifts or changes the refusal, other than into its own "missing
///   field";
/// - else, of the required fields whose absence only says they are missing, the one serde reads
///   last: a flattened struct is read whole, its values before its missing fields, so a required
///   field read before the refused value is missed first, and the refused one is missed last
///   (with two left out, the one missed first is the earlier);
///
/// and within a list, the first item that alone is refused the same way.
fn locate<P: DeserializeOwned>(map: &Map<String, Value>, reason: &str) -> Option<String> {
    let refusal = |args: Map<String, Value>| {
        serde_json::from_value::<P>(Value::Object(args))
            .err()
            .map(|e| e.to_string())
    };
    let without = |keys: &[&String]| {
        let mut args = map.clone();
        for key in keys {
            args.remove(*key);
        }
        refusal(args)
    };
    let missing = |key: &str| Some(format!("missing field `{key}`"));
    let mut required = Vec::new();
    let mut lifted = None;
    for key in map.keys() {
        let now = without(&[key]);
        if now == missing(key) {
            required.push(key);
        } else if now.as_deref() != Some(reason) {
            lifted = Some(key);
            break;
        }
    }
    let key = match lifted {
        Some(key) => key,
        None => required.iter().copied().reduce(|latest, key| {
            if without(&[latest, key]) == missing(latest) {
                key
            } else {
                latest
            }
        })?,
    };
    let with = |value: Value| {
        let mut args = map.clone();
        args.insert(key.clone(), value);
        refusal(args)
    };
    if let Some(Value::Array(items)) = map.get(key) {
        if with(Value::Array(Vec::new())).as_deref() != Some(reason) {
            let alone = |item: &Value| with(Value::Array(vec![item.clone()]));
            if let Some(i) = items
                .iter()
                .position(|item| alone(item).as_deref() == Some(reason))
            {
                return Some(format!("{}/{i}", pointer("", key)));
            }
        }
    }
    Some(pointer("", key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::bounded::{items, items_schema, Bounded, Text};
    use schemars::JsonSchema;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Inner {
        limit: Option<Bounded<u64, 1, 100>>,
        #[serde(default)]
        full: bool,
        #[serde(default, deserialize_with = "items::<_, _, 0, 2>")]
        #[schemars(schema_with = "items_schema::<Text<1, 8>, 0, 2>")]
        files: Vec<Text<1, 8>>,
        #[serde(deserialize_with = "crate::ops::bounded::present")]
        attempt: Option<String>,
        #[serde(deserialize_with = "crate::ops::bounded::some_items::<_, _, 0, 2>")]
        #[schemars(schema_with = "items_schema::<Text<1, 8>, 0, 2>")]
        changed: Option<Vec<Text<1, 8>>>,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Params {
        session: a3s_test_ledger::SessionId,
        statement: Option<Text<0, 4>>,
        #[serde(flatten)]
        inner: Inner,
    }

    /// The field the refusal of `args` (with the required fields added) names.
    fn field(mut args: Value) -> String {
        if let Some(map) = args.as_object_mut() {
            map.entry("attempt").or_insert(json!("a"));
            map.entry("changed").or_insert(json!([]));
        }
        let schema = crate::ops::schema_of::<Params>();
        read::<Params>(&schema, &args).unwrap_err().field
    }

    #[test]
    fn good_arguments_pass() {
        let schema = crate::ops::schema_of::<Params>();
        let ok = json!({ "session": "abc", "limit": 3, "statement": "éééé", "files": ["a"],
                         "attempt": "a", "changed": [] });
        assert!(read::<Params>(&schema, &ok).is_ok());
    }

    #[test]
    fn each_refusal_names_its_field() {
        assert_eq!(field(json!({})), "/session");
        assert_eq!(field(json!({ "session": "../x" })), "/session");
        assert_eq!(
            field(json!({ "session": "a", "statement": "12345" })),
            "/statement"
        );
        assert_eq!(field(json!({ "session": "a", "shell": "id" })), "/shell");
        assert_eq!(field(json!([])), "");
        // Inside a flattened struct.
        assert_eq!(field(json!({ "session": "a", "limit": 0 })), "/limit");
        assert_eq!(field(json!({ "session": "a", "limit": 1.5 })), "/limit");
        assert_eq!(field(json!({ "session": "a", "limit": "ten" })), "/limit");
        assert_eq!(field(json!({ "session": "a", "full": "yes" })), "/full");
        assert_eq!(
            field(json!({ "session": "a", "files": ["a", "b", "c"] })),
            "/files"
        );
        assert_eq!(
            field(json!({ "session": "a", "files": ["a", ""] })),
            "/files/1"
        );
    }

    /// A property outside the derived schema is refused before anything is read, named as a
    /// JSON Pointer (escaped), with the one reason; the fields of a flattened struct are the
    /// tool's own and pass.
    #[test]
    fn an_unknown_field_is_refused_by_name() {
        let schema = crate::ops::schema_of::<Params>();
        let known = json!({ "session": "a", "full": true, "attempt": "a", "changed": [] });
        assert!(read::<Params>(&schema, &known).is_ok());
        for (name, pointer) in [("shell", "/shell"), ("a/b", "/a~1b"), ("x~y", "/x~0y")] {
            let mut args = known.clone();
            args[name] = json!("id");
            let refusal = read::<Params>(&schema, &args).unwrap_err();
            assert_eq!(
                refusal,
                Refusal::at(pointer, "is not an argument of this tool"),
                "{name}"
            );
        }
        // Refused even where the rest would not read (the unknown field is named first).
        let refusal = read::<Params>(&schema, &json!({ "shell": "id" })).unwrap_err();
        assert_eq!(refusal.field, "/shell");
    }
}
