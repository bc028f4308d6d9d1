//! The MCP tools: a name, a description, a JSON Schema for the arguments and a function. The
//! server validates the arguments against the whole schema (`super::schema`) before the function
//! runs; the function deserializes them into typed parameters.
//!
//! To add a tool, write it in a module here and list it in `all()`.

mod repair;
mod session;

use crate::ops::Context;
use a3s_test_ledger::LedgerError;
use serde_json::{json, Map, Value};

/// Why a tool call did not produce a result.
#[derive(Debug)]
pub enum ToolError {
    /// The arguments do not fit the tool's schema (a JSON-RPC invalid-params error).
    InvalidArguments(String),
    /// The operation was refused (returned as a tool result with `isError: true`).
    Refused(LedgerError),
    /// An agent-session operation was refused or failed (a tool result with `isError: true`).
    Session(a3s_test_runner::session::SessionError),
}

impl From<LedgerError> for ToolError {
    fn from(e: LedgerError) -> Self {
        ToolError::Refused(e)
    }
}

/// One tool.
pub struct Tool {
    /// Its name (`test_…`).
    pub name: &'static str,
    /// What it does, for the model.
    pub description: &'static str,
    /// The JSON Schema of its arguments (an object schema).
    pub input_schema: Value,
    /// The implementation.
    pub run: fn(&Context, Value) -> Result<Value, ToolError>,
}

impl Tool {
    /// The `tools/list` entry.
    pub fn describe(&self) -> Value {
        json!({
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
        })
    }

    /// Run with arguments the server has validated against [`Tool::input_schema`].
    pub fn call(&self, ctx: &Context, args: Value) -> Result<Value, ToolError> {
        (self.run)(ctx, args)
    }
}

/// Deserialize checked arguments into `T`; a type mismatch is an invalid-arguments error.
pub fn args<T: serde::de::DeserializeOwned>(args: Value) -> Result<T, ToolError> {
    serde_json::from_value(args).map_err(|e| ToolError::InvalidArguments(e.to_string()))
}

/// Every tool the server offers.
pub fn all() -> Vec<Tool> {
    let mut tools = repair::tools();
    tools.extend(session::tools());
    tools
}

/// The JSON Schema of a tool's arguments: an object with exactly these properties.
pub(super) fn schema(props: &[(&str, Value)], required: &[&str]) -> Value {
    let properties: Map<String, Value> = props
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_uses_only_enforced_keywords() {
        for tool in all() {
            let unknown = super::super::schema::unknown_keywords(&tool.input_schema);
            assert!(unknown.is_empty(), "{}: {unknown:?}", tool.name);
            assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
        }
    }
}
