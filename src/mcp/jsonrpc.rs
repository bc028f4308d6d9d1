//! The JSON-RPC 2.0 envelope check and the error answers the transport gives itself (before a
//! message reaches rmcp), with the standard error codes.

use serde::Serialize;
use serde_json::Value;

/// Invalid JSON was received.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters (also: unknown tool, arguments that break the tool's schema).
pub const INVALID_PARAMS: i64 = -32602;
/// A request other than `initialize` or `ping` arrived before `initialize`.
pub const NOT_INITIALIZED: i64 = -32002;

/// An incoming message, checked for the JSON-RPC envelope.
#[derive(Debug)]
pub struct Incoming {
    /// `None` for a notification.
    pub id: Option<Value>,
    /// The method.
    pub method: String,
}

/// A JSON-RPC error object.
#[derive(Debug, Serialize)]
pub struct ErrorObject {
    /// The code.
    pub code: i64,
    /// A short message.
    pub message: String,
    /// Structured detail, e.g. `{"field": "/limit"}` for invalid params.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// An error without data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        ErrorObject {
            code,
            message: message.into(),
            data: None,
        }
    }
}

/// A response: exactly one of `result` and `error`.
#[derive(Debug, Serialize)]
pub struct Response {
    jsonrpc: &'static str,
    id: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    /// Boxed: an error with data would make every `Result<_, Response>` large.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Box<ErrorObject>>,
}

impl Response {
    /// An error response.
    pub fn error(id: Value, code: i64, message: impl Into<String>) -> Self {
        Response::failure(id, ErrorObject::new(code, message))
    }

    /// An error response with a full error object.
    pub fn failure(id: Value, error: ErrorObject) -> Self {
        Response {
            jsonrpc: "2.0",
            id,
            result: None,
            error: Some(Box::new(error)),
        }
    }
}

/// Check the envelope of one parsed message. `Err` is the response to send (with the id when it
/// could be read, else `null`).
pub fn parse(value: Value) -> Result<Incoming, Response> {
    let Value::Object(mut obj) = value else {
        return Err(Response::error(
            Value::Null,
            INVALID_REQUEST,
            "a message must be one JSON object (batches are not supported)",
        ));
    };
    let id = obj.remove("id");
    // A number id must be an integer that fits 64 bits (what rmcp keeps): a larger one or a
    // fraction cannot be echoed as it was sent, so it is refused with a null id.
    let id_ok = match &id {
        None | Some(Value::String(_)) => true,
        Some(Value::Number(n)) => n.is_i64(),
        Some(_) => false,
    };
    let reply_id = id.clone().filter(|_| id_ok).unwrap_or(Value::Null);
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Response::error(
            reply_id,
            INVALID_REQUEST,
            "jsonrpc must be \"2.0\"",
        ));
    }
    if !id_ok {
        return Err(Response::error(
            Value::Null,
            INVALID_REQUEST,
            "id must be a string or an integer from -2^63 to 2^63-1",
        ));
    }
    let Some(Value::String(method)) = obj.remove("method") else {
        return Err(Response::error(
            reply_id,
            INVALID_REQUEST,
            "method must be a string",
        ));
    };
    let params = obj.remove("params").unwrap_or(Value::Null);
    if !matches!(params, Value::Null | Value::Object(_) | Value::Array(_)) {
        return Err(Response::error(
            reply_id,
            INVALID_REQUEST,
            "params must be an object or an array",
        ));
    }
    Ok(Incoming { id, method })
}
