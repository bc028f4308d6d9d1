//! The one module that knows `lsp-types`: what the server can do, the parameters of each method
//! read into the core's terms, and the core's answers written back as protocol values.
//!
//! Every method answers a `serde_json::Value` or a typed [`Refusal`]; the loop in
//! [`crate::server`] turns refusals into error responses with their JSON-RPC codes.

mod capabilities;
mod convert;
mod names;
mod notifications;
mod outline;
mod requests;

pub use capabilities::initialize_result;
pub use notifications::{handle_notification, publish_diagnostics, DocEvent};
pub use requests::handle_request;

/// Why a request or notification was not carried out.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Refusal {
    /// The method is not one this server implements (`MethodNotFound`).
    #[error("unknown method `{0}`")]
    UnknownMethod(String),
    /// The parameters do not match the method (`InvalidParams`).
    #[error("invalid parameters for `{method}`: {reason}")]
    InvalidParams {
        /// The method.
        method: String,
        /// What serde said.
        reason: String,
    },
    /// The document named is not open (`InvalidParams`: a client must open it first).
    #[error("{0} is not open: send textDocument/didOpen first")]
    NotOpen(String),
    /// The request was understood but cannot be carried out (`RequestFailed`), e.g. a rename to
    /// a name that is not an id.
    #[error("{0}")]
    Failed(String),
}

/// Read `params` as `P`, or refuse naming `method`.
fn params<P: serde::de::DeserializeOwned>(
    method: &str,
    params: serde_json::Value,
) -> Result<P, Refusal> {
    serde_json::from_value(params).map_err(|e| Refusal::InvalidParams {
        method: method.to_string(),
        reason: e.to_string(),
    })
}
