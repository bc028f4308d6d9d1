//! Validated identifiers: session, finding, batch, request and attempt ids.
//!
//! Every id that may ever appear in a generated command is checked here first: 1–64 characters of
//! `[A-Za-z0-9_-]`, nothing else. An id that passed this check cannot carry shell syntax, paths,
//! whitespace or option-like text (a leading `-` is refused too), so a command built from ids
//! alone is safe to show to an agent.
//!
//! These newtypes are the one parser of ids in the whole binary: command-line flags parse them
//! with clap through [`std::str::FromStr`], MCP arguments through serde (`TryFrom<String>`), and
//! the tool schemas state the same rule as [`ID_PATTERN`] (the `schema` feature), so an id the
//! session accepts is always one its ledger accepts.

use crate::error::{ErrorCode, LedgerError};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// The longest id accepted.
pub const MAX_ID_LEN: usize = 64;

/// The id rule as a regular expression, for JSON Schemas: the MCP tool schemas state the rule
/// with it (a test checks it agrees with [`check_id`]).
pub const ID_PATTERN: &str = "^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$";

/// An id that breaks the rule. The one message every refusal of an id shows, whether clap, serde,
/// the MCP schema check or the ledger refuses it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid {what} \"{shown}\": use 1-{MAX_ID_LEN} characters of A-Z a-z 0-9 _ - (not starting with -)"
)]
pub struct IdError {
    /// Which id ("session id").
    pub what: String,
    /// The refused text, escaped and cut to 80 characters (never echoed raw).
    pub shown: String,
}

impl From<IdError> for LedgerError {
    fn from(e: IdError) -> Self {
        LedgerError::new(ErrorCode::InvalidId, e.to_string())
    }
}

/// Check `value` against the id rule; `what` names the id in the error ("session id").
pub fn check_id(what: &str, value: &str) -> Result<(), IdError> {
    let ok_len = !value.is_empty() && value.len() <= MAX_ID_LEN;
    let ok_chars = value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok_len && ok_chars && !value.starts_with('-') {
        return Ok(());
    }
    let shown: String = value
        .chars()
        .take(80)
        .flat_map(char::escape_default)
        .collect();
    Err(IdError {
        what: what.to_owned(),
        shown,
    })
}

/// [`check_id`] as a ledger error (`test.session.repair_invalid_id`).
pub fn validate_id(what: &str, value: &str) -> Result<(), LedgerError> {
    Ok(check_id(what, value)?)
}

/// Validates an id from borrowed text, so a valid id costs one allocation to read.
struct IdVisitor<F>(F);

impl<'de, T, F: FnOnce(&str) -> Result<T, String>> serde::de::Visitor<'de> for IdVisitor<F> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an id of 1-64 characters of A-Z a-z 0-9 _ -")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<T, E> {
        (self.0)(v).map_err(E::custom)
    }
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// What this id is called in messages.
            pub const WHAT: &'static str = $what;

            /// Validate and wrap `value` (a refusal is `test.session.repair_invalid_id`).
            pub fn parse(value: &str) -> Result<Self, LedgerError> {
                Ok($name::new(value.to_owned())?)
            }

            /// Validate and wrap `value`, keeping its allocation.
            pub fn new(value: String) -> Result<Self, IdError> {
                check_id($what, &value)?;
                Ok($name(value))
            }

            /// The id as text (always safe to put in a command).
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_str(IdVisitor(|s: &str| {
                    $name::parse(s).map_err(|e| e.message)
                }))
            }
        }

        /// The command-line parser (clap's `value_parser` goes through `FromStr`).
        impl std::str::FromStr for $name {
            type Err = IdError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $name::new(s.to_owned())
            }
        }

        impl TryFrom<String> for $name {
            type Error = IdError;
            fn try_from(s: String) -> Result<Self, Self::Error> {
                $name::new(s)
            }
        }

        /// An id is read as the text it is (a folder name, a command argument, a JSON value).
        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        /// The schema states the id rule ([`ID_PATTERN`]); `title` names the id, so a refusal
        /// by the schema check says what [`IdError`] says.
        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "title": $what,
                    "pattern": ID_PATTERN,
                })
            }
        }
    };
}

id_type!(
    /// An agent session id (names the folder `.a3s-test/agent-sessions/<id>/`).
    SessionId,
    "session id"
);
/// A session id names its folder (`agent-sessions/<id>`): it is a path component as it is.
impl AsRef<std::path::Path> for SessionId {
    fn as_ref(&self) -> &std::path::Path {
        std::path::Path::new(&self.0)
    }
}

id_type!(
    /// A finding id: the Review Overlay's stable draft id.
    FindingId,
    "finding id"
);
id_type!(
    /// A batch id: one send of the Review Overlay (a single finding or a batch).
    BatchId,
    "batch id"
);
id_type!(
    /// A caller-chosen request id that makes an operation idempotent.
    RequestId,
    "request id"
);
id_type!(
    /// An attempt id returned by `claim`; the fencing token of one lease.
    AttemptId,
    "attempt id"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_plain_ids() {
        for ok in ["a", "S1", "rf_01-x", &"x".repeat(64)] {
            assert!(SessionId::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn refuses_anything_that_could_escape_a_command() {
        let long = "x".repeat(65);
        for bad in [
            "", "-rf", "a b", "a;b", "$(x)", "`x`", "a/b", "..", "a\nb", "é", "a'b", "a\"b",
            "--json", &long,
        ] {
            let err = FindingId::parse(bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidId, "{bad}");
        }
    }

    #[test]
    fn a_leading_dash_is_refused_by_every_parser_with_one_message() {
        let message =
            "invalid session id \"-x\": use 1-64 characters of A-Z a-z 0-9 _ - (not starting with -)";
        assert_eq!("-x".parse::<SessionId>().unwrap_err().to_string(), message);
        assert_eq!(
            SessionId::try_from("-x".to_owned())
                .unwrap_err()
                .to_string(),
            message
        );
        assert_eq!(SessionId::parse("-x").unwrap_err().message, message);
        let serde = serde_json::from_str::<SessionId>("\"-x\"").unwrap_err();
        assert!(serde.to_string().starts_with(message), "{serde}");
        assert_eq!(&*"x-1".parse::<SessionId>().unwrap(), "x-1");
    }

    #[test]
    fn deserializing_validates() {
        assert!(serde_json::from_str::<AttemptId>("\"ok-1\"").is_ok());
        assert!(serde_json::from_str::<AttemptId>("\"rm -rf /\"").is_err());
    }
}
