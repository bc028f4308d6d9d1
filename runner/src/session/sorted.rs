//! Printing a typed fact with its keys sorted at every level, as a `serde_json::Value` prints
//! (serde_json keeps object keys sorted unless `preserve_order` is on, and it is not here).
//!
//! Why: several facts of a session answer (an error's detail, an exec's step detail, a forced
//! close's cause) were JSON objects before they were typed, and agents read the CLI's and MCP's
//! JSON byte for byte. Printing them through a sorted value keeps that JSON identical while the
//! types stay free to declare their fields in the order that reads best.

use serde::Serialize;

/// `value` printed with its keys sorted, as a `serde_json::Value` prints (a field's
/// `serialize_with`).
pub(crate) fn sorted<T: Serialize, S: serde::Serializer>(
    value: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    serde_json::to_value(value)
        .map_err(serde::ser::Error::custom)?
        .serialize(s)
}
