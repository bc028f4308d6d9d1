//! Text a step types or compares that may be a secret: a literal, or `env("NAME")`.
//!
//! Why a type of its own: a password or token must be usable in a suite without being written in
//! it. `env("NAME")` names a process environment variable that the runner reads when the step
//! runs — never at admission, never stored — so the IR, every report and every printed suite
//! carry only the name, and `lang` stays pure (it never reads the environment). Only the places
//! that type or compare a control's text take one: `fill`, `type` and `insert_text` values and
//! `expect { value = … }`. The checker refuses `env(…)` everywhere else.
//!
//! JSON form: a literal is the plain JSON string it always was (suites, agent session files and
//! tool arguments written before this type read back unchanged); a variable is
//! `{"env": "NAME"}`.

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest admitted variable name, in bytes (`docs/acl.md` §5): longer than any real
/// variable, short enough that a name never becomes a place to hide data.
pub const MAX_ENV_NAME_BYTES: usize = 128;

/// The name of a process environment variable, as `env("NAME")` writes it: ASCII letters, digits
/// and `_`, not starting with a digit, 1–[`MAX_ENV_NAME_BYTES`] bytes.
///
/// Why validated: the name is printed in messages and reports and looked up in the environment,
/// so it is kept to the portable shell-variable alphabet (POSIX `[A-Za-z_][A-Za-z0-9_]*`); a typo
/// such as `env("API-TOKEN")` is an admission error, not a variable that is never set.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct EnvVar(String);

/// Why a text is not an environment variable name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvVarError {
    /// The name is empty.
    #[error("the variable name is empty")]
    Empty,
    /// The name is longer than [`MAX_ENV_NAME_BYTES`].
    #[error("the variable name is {0} bytes long; the limit is {MAX_ENV_NAME_BYTES}")]
    TooLong(usize),
    /// The name starts with a digit.
    #[error("a variable name cannot start with a digit")]
    LeadingDigit,
    /// The name holds a character other than an ASCII letter, digit or `_`.
    #[error("a variable name cannot hold {0:?}")]
    Character(char),
}

impl EnvVar {
    /// The name, validated.
    pub fn new(name: impl Into<String>) -> Result<EnvVar, EnvVarError> {
        let name = name.into();
        if name.is_empty() {
            return Err(EnvVarError::Empty);
        }
        if name.len() > MAX_ENV_NAME_BYTES {
            return Err(EnvVarError::TooLong(name.len()));
        }
        if let Some(c) = name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
        {
            return Err(EnvVarError::Character(c));
        }
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(EnvVarError::LeadingDigit);
        }
        Ok(EnvVar(name))
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for EnvVar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for EnvVar {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        EnvVar::new(name).map_err(de::Error::custom)
    }
}

/// A text a step types into a control or expects a control to hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TextValue {
    /// The text as written in the suite (`"Ada"`).
    Literal(String),
    /// `env("NAME")`: the value of this environment variable when the step runs. Its value is
    /// never shown: messages and reports print `env("NAME")`.
    Env(EnvVar),
}

impl TextValue {
    /// A literal text.
    pub fn literal(text: impl Into<String>) -> TextValue {
        TextValue::Literal(text.into())
    }

    /// The literal text, or `None` for a variable (whose value only the runner reads).
    pub fn as_literal(&self) -> Option<&str> {
        match self {
            TextValue::Literal(text) => Some(text),
            TextValue::Env(_) => None,
        }
    }

    /// The variable, when the text is read from the environment.
    pub fn env_var(&self) -> Option<&EnvVar> {
        match self {
            TextValue::Literal(_) => None,
            TextValue::Env(var) => Some(var),
        }
    }

    /// True for `env("NAME")`: the text may be a secret and is never shown.
    pub fn is_concealed(&self) -> bool {
        matches!(self, TextValue::Env(_))
    }
}

impl From<&str> for TextValue {
    fn from(text: &str) -> TextValue {
        TextValue::literal(text)
    }
}

impl From<String> for TextValue {
    fn from(text: String) -> TextValue {
        TextValue::Literal(text)
    }
}

impl From<EnvVar> for TextValue {
    fn from(var: EnvVar) -> TextValue {
        TextValue::Env(var)
    }
}

/// As ACL: a string literal, or `env("NAME")` — never a variable's value, which this type does
/// not hold.
impl std::fmt::Display for TextValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextValue::Literal(text) => f.write_str(&crate::printer::string_literal(text)),
            TextValue::Env(var) => write!(f, "env(\"{var}\")"),
        }
    }
}

impl Serialize for TextValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            TextValue::Literal(text) => serializer.serialize_str(text),
            TextValue::Env(var) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("env", var)?;
                map.end()
            }
        }
    }
}

/// A JSON string is a literal; `{"env": "NAME"}` (that key alone) is a variable. Written by hand
/// rather than `#[serde(untagged)]` so a bad name says why instead of "no variant matched".
impl<'de> Deserialize<'de> for TextValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextValueVisitor;

        impl<'de> Visitor<'de> for TextValueVisitor {
            type Value = TextValue;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string, or {\"env\": \"NAME\"}")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<TextValue, E> {
                Ok(TextValue::literal(text))
            }

            fn visit_string<E: de::Error>(self, text: String) -> Result<TextValue, E> {
                Ok(TextValue::Literal(text))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TextValue, A::Error> {
                let mut var: Option<EnvVar> = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    if key != "env" {
                        return Err(de::Error::unknown_field(&key, &["env"]));
                    }
                    if var.is_some() {
                        return Err(de::Error::duplicate_field("env"));
                    }
                    var = Some(map.next_value()?);
                }
                var.map(TextValue::Env)
                    .ok_or_else(|| de::Error::missing_field("env"))
            }
        }

        deserializer.deserialize_any(TextValueVisitor)
    }
}

/// The JSON Schema of both forms, for operation parameters that take a [`TextValue`] as it is
/// (MCP tool arguments).
#[cfg(feature = "schema")]
impl schemars::JsonSchema for TextValue {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TextValue".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A text, or {\"env\": \"NAME\"} to use the value of that environment variable of the session (never shown).",
            "anyOf": [
                { "type": "string" },
                {
                    "type": "object",
                    "properties": {
                        "env": {
                            "type": "string",
                            "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
                            "maxLength": MAX_ENV_NAME_BYTES,
                        }
                    },
                    "required": ["env"],
                    "additionalProperties": false,
                }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_follow_the_shell_variable_alphabet() {
        for good in ["A", "_", "A3S_TEST_SECRET", "lower_case", "_9"] {
            assert_eq!(EnvVar::new(good).map(|v| v.to_string()), Ok(good.into()));
        }
        assert_eq!(EnvVar::new(""), Err(EnvVarError::Empty));
        assert_eq!(EnvVar::new("9A"), Err(EnvVarError::LeadingDigit));
        assert_eq!(EnvVar::new("API-KEY"), Err(EnvVarError::Character('-')));
        assert_eq!(EnvVar::new("A B"), Err(EnvVarError::Character(' ')));
        assert_eq!(EnvVar::new("É"), Err(EnvVarError::Character('É')));
        assert!(EnvVar::new("A".repeat(MAX_ENV_NAME_BYTES)).is_ok());
        assert_eq!(
            EnvVar::new("A".repeat(MAX_ENV_NAME_BYTES + 1)),
            Err(EnvVarError::TooLong(MAX_ENV_NAME_BYTES + 1))
        );
    }

    #[test]
    fn a_literal_is_a_plain_json_string_and_a_variable_an_env_object() {
        let literal = TextValue::literal("Ada");
        let var = TextValue::Env(EnvVar::new("PASSWORD").unwrap());
        assert_eq!(serde_json::to_value(&literal).unwrap(), json!("Ada"));
        assert_eq!(
            serde_json::to_value(&var).unwrap(),
            json!({ "env": "PASSWORD" })
        );
        for value in [literal, var] {
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(serde_json::from_str::<TextValue>(&json).unwrap(), value);
        }
    }

    #[test]
    fn malformed_json_forms_are_refused_saying_why() {
        for (json, says) in [
            (json!({ "env": "9X" }), "cannot start with a digit"),
            (json!({ "env": "A", "x": 1 }), "unknown field `x`"),
            (json!({}), "missing field `env`"),
            (json!({ "env": 3 }), "expected a string"),
            (json!(3), "a string, or {\"env\": \"NAME\"}"),
        ] {
            let error = serde_json::from_value::<TextValue>(json.clone()).unwrap_err();
            assert!(error.to_string().contains(says), "{json}: {error}");
        }
    }

    #[test]
    fn printed_as_acl_never_as_a_value() {
        assert_eq!(TextValue::literal("a \"b\"").to_string(), "\"a \\\"b\\\"\"");
        assert_eq!(
            TextValue::Env(EnvVar::new("TOKEN").unwrap()).to_string(),
            "env(\"TOKEN\")"
        );
    }
}
