//! Validated identifiers: session, finding, batch, request and attempt ids.
//!
//! Every id that may ever appear in a generated command is checked here first: 1–64 characters of
//! `[A-Za-z0-9_-]`, nothing else. An id that passed this check cannot carry shell syntax, paths,
//! whitespace or option-like text (a leading `-` is refused too), so a command built from ids
//! alone is safe to show to an agent.

use crate::error::{ErrorCode, LedgerError};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// The longest id accepted.
pub const MAX_ID_LEN: usize = 64;

/// Check `value` against the id rule; `what` names the id in the error ("session id").
pub fn validate_id(what: &str, value: &str) -> Result<(), LedgerError> {
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
    Err(LedgerError::new(
        ErrorCode::InvalidId,
        format!(
            "invalid {what} \"{shown}\": use 1-{MAX_ID_LEN} characters of A-Z a-z 0-9 _ - \
             (not starting with -)"
        ),
    ))
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
            /// Validate and wrap `value`.
            pub fn parse(value: &str) -> Result<Self, LedgerError> {
                validate_id($what, value)?;
                Ok($name(value.to_owned()))
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

        impl std::str::FromStr for $name {
            type Err = LedgerError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $name::parse(s)
            }
        }
    };
}

id_type!(
    /// An agent session id (names the folder `.a3s-test/agent-sessions/<id>/`).
    SessionId,
    "session id"
);
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
    fn deserializing_validates() {
        assert!(serde_json::from_str::<AttemptId>("\"ok-1\"").is_ok());
        assert!(serde_json::from_str::<AttemptId>("\"rm -rf /\"").is_err());
    }
}
