//! The envelopes every kind shares: `POST {protocol, request}` and the answer
//! `{status: "success", protocol, response}` or `{status: "failure", protocol, error}`.
//!
//! Why two passes when reading: the `status` and `protocol` are read first, so an answer in
//! another protocol is refused as such (`test.provider.protocol`) even when its payload would not
//! parse; only then is the typed payload read. Unknown fields are refused (`deny_unknown_fields`)
//! so a misspelt field is an error rather than a silently missing value.

use crate::code::{ProviderCode, ProviderError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Longest provider failure code kept.
pub const MAX_FAILURE_CODE: usize = 128;
/// Longest provider failure message kept (characters); longer ones are cut.
pub const MAX_FAILURE_MESSAGE: usize = 2_000;

/// What is POSTed to a provider.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestEnvelope<R> {
    /// The kind's protocol string.
    pub protocol: String,
    /// The kind's typed request.
    pub request: R,
}

/// What a provider answers.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnswerEnvelope<R> {
    /// The provider gives advice.
    Success {
        /// The request's protocol string, repeated.
        protocol: String,
        /// The kind's typed response.
        response: R,
    },
    /// The provider cannot help with this request.
    Failure {
        /// The request's protocol string, repeated.
        protocol: String,
        /// Why.
        error: ProviderFailure,
    },
}

/// A provider's own account of why it gave no advice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProviderFailure {
    /// The provider's code (`[A-Za-z0-9._-]`, at most 128 characters).
    pub code: String,
    /// A message for a person (untrusted text, cut at 2,000 characters).
    pub message: String,
    /// True when the same request may succeed later.
    pub retryable: bool,
}

/// The first pass: only what decides how to read the rest.
#[derive(Deserialize)]
struct Head {
    status: Status,
    protocol: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Status {
    Success,
    Failure,
}

/// The request envelope's bytes.
pub fn encode<R: Serialize>(protocol: &str, request: &R) -> Result<Vec<u8>, ProviderError> {
    #[derive(Serialize)]
    struct Borrowed<'a, R> {
        protocol: &'a str,
        request: &'a R,
    }
    serde_json::to_vec(&Borrowed { protocol, request }).map_err(|e| {
        ProviderError::new(
            ProviderCode::Malformed,
            format!("the request could not be encoded: {e}"),
        )
    })
}

/// Read an answer in `protocol`: the response, or the coded reason there is none.
pub fn decode<R: serde::de::DeserializeOwned>(
    protocol: &str,
    body: &[u8],
) -> Result<R, ProviderError> {
    let head: Head = serde_json::from_slice(body).map_err(|e| {
        ProviderError::new(
            ProviderCode::Malformed,
            format!("the answer is not a provider envelope: {e}"),
        )
    })?;
    if head.protocol != protocol {
        return Err(ProviderError::new(
            ProviderCode::Protocol,
            format!(
                "the answer is in protocol \"{}\", the request in \"{protocol}\"",
                shorten(&head.protocol, 200)
            ),
        ));
    }
    let answer: AnswerEnvelope<R> = serde_json::from_slice(body).map_err(|e| {
        let what = match head.status {
            Status::Success => "response",
            Status::Failure => "error",
        };
        ProviderError::new(
            ProviderCode::Malformed,
            format!("the answer's {what} is not the protocol's shape: {e}"),
        )
    })?;
    match answer {
        AnswerEnvelope::Success { response, .. } => Ok(response),
        AnswerEnvelope::Failure { error, .. } => Err(refusal(error)),
    }
}

/// A provider's `failure` as a coded error, its texts bounded and its code checked.
fn refusal(failure: ProviderFailure) -> ProviderError {
    let code_ok = !failure.code.is_empty()
        && failure.code.len() <= MAX_FAILURE_CODE
        && failure
            .code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if !code_ok {
        return ProviderError::new(
            ProviderCode::Malformed,
            "the answer's error code is empty, longer than 128 characters or not [A-Za-z0-9._-]",
        );
    }
    let message = format!(
        "the provider refused ({}{}): {}",
        failure.code,
        if failure.retryable { ", retryable" } else { "" },
        shorten(&one_line(&failure.message), MAX_FAILURE_MESSAGE)
    );
    if failure.retryable {
        ProviderError::retryable(ProviderCode::Refused, message)
    } else {
        ProviderError::new(ProviderCode::Refused, message)
    }
}

/// `text` cut at `max` characters (an ellipsis marks the cut).
pub(crate) fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// Control characters (line breaks, escapes) as spaces: a message is one line of plain text.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
