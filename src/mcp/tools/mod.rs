//! The MCP tools: a name, a description, a JSON Schema for the arguments and a function. The
//! server checks arguments against the schema's property names and required list before the
//! function runs; the function deserializes them into typed parameters.
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

    /// Check `args` against the schema's properties and required names, then run.
    pub fn call(&self, ctx: &Context, args: Value) -> Result<Value, ToolError> {
        let Value::Object(map) = &args else {
            return Err(ToolError::InvalidArguments(
                "arguments must be an object".into(),
            ));
        };
        let props = self.input_schema["properties"]
            .as_object()
            .expect("tool schemas have properties");
        if let Some(unknown) = map.keys().find(|k| !props.contains_key(*k)) {
            return Err(ToolError::InvalidArguments(format!(
                "unknown argument `{unknown}`"
            )));
        }
        let required = self.input_schema["required"].as_array();
        for name in required.into_iter().flatten().filter_map(Value::as_str) {
            if !map.contains_key(name) {
                return Err(ToolError::InvalidArguments(format!(
                    "missing argument `{name}`"
                )));
            }
        }
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
