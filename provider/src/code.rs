//! The `test.provider.*` codes and the one error type of the provider boundary.
//!
//! Why a family of its own: a provider is neither a surface nor a session gate; its failures
//! (a refused endpoint, a redirect, an answer over its bound, a cost over budget) say that advice
//! could not be had, never that the product failed. Each code carries a one-line hint.
//! `docs/codes.md` lists every code (checked by the workspace's `tests/codes.rs`).

use crate::redact::Redactor;

a3s_test_lang::define_codes! {
    /// A stable failure code of the provider boundary.
    pub enum ProviderCode: fn hint -> &'static str {
        /// The project names no provider by that name, or one of another kind.
        NotConfigured => "test.provider.not_configured", "add a `provider \"name\" { … }` block of this kind to the project file, or pick a configured one";
        /// The endpoint is not an absolute `https://` URL (or `http://` to loopback), or holds a user or password.
        Endpoint => "test.provider.endpoint", "write `https://host/path`, or `http://127.0.0.1:PORT/path` for a local provider";
        /// An `http://` endpoint that is not explicit loopback (`127.0.0.0/8`, `::1`, `localhost`); refused before any connection.
        InsecureEndpoint => "test.provider.insecure_endpoint", "use `https://` for a provider that is not on this machine";
        /// `authorization_env` does not start with `A3S_TEST_PROVIDER_AUTHORIZATION_`, or the variable is unset.
        AuthorizationEnv => "test.provider.authorization_env", "export `A3S_TEST_PROVIDER_AUTHORIZATION_<NAME>` and name it in `authorization_env`";
        /// The authorization value is empty or not a valid header value (control characters, non-ASCII).
        AuthorizationValue => "test.provider.authorization_value", "set the variable to the header's value, e.g. `Bearer <token>`, on one line";
        /// The request body is larger than the kind's bound; nothing was sent.
        RequestTooLarge => "test.provider.request_too_large", "send a smaller screenshot or query";
        /// The provider's address could not be resolved or connected to.
        Connect => "test.provider.connect", "check that the provider is running and that `endpoint` names it";
        /// The TLS handshake failed or the certificate is not trusted (webpki roots, the name of the endpoint).
        Tls => "test.provider.tls", "serve a certificate for the endpoint's name from a public authority";
        /// No whole answer within the provider's `timeout_ms`.
        Timeout => "test.provider.timeout", "raise `timeout_ms`, or make the provider answer sooner";
        /// The HTTP exchange broke (the connection closed early, or the answer is not HTTP/1.1).
        Http => "test.provider.http", "check the provider's logs: it closed the connection or did not speak HTTP/1.1";
        /// The provider answered with a redirect; redirects are never followed.
        Redirect => "test.provider.redirect", "point `endpoint` at the final address";
        /// The provider answered with an HTTP status other than 200.
        Status => "test.provider.status", "a provider answers 200 with a `failure` envelope when it cannot help";
        /// The answer is not `application/json`.
        ContentType => "test.provider.content_type", "answer with `Content-Type: application/json`";
        /// The answer is larger than the kind's bound; it was cut there, unread.
        ResponseTooLarge => "test.provider.response_too_large", "return fewer or smaller results";
        /// The answer is not the kind's envelope (JSON, `status`, `response` or `error` of the typed shape).
        Malformed => "test.provider.malformed", "answer `{status, protocol, response}` as `a3s-test provider schema KIND` prints it";
        /// The answer's `protocol` is not the one the request named.
        Protocol => "test.provider.protocol", "answer with the request's `protocol` string";
        /// The provider answered `failure` (its code, message and whether a retry may help are in the message).
        Refused => "test.provider.refused", "read the provider's message; retry only when it says `retryable`";
        /// The answer names another provider than the one configured.
        Identity => "test.provider.identity", "point `endpoint` at the provider the block names, or rename the block";
        /// The answer names another model than the configured `model`.
        Model => "test.provider.model", "set `model` to the model the provider serves";
        /// The answer's cost is above the call's budget (`max_cost_microusd`).
        OverBudget => "test.provider.over_budget", "raise `max_cost_microusd`, or use a cheaper model";
        /// The answer's usage is above the config's `max_input_units` or `max_output_units`.
        OverUsage => "test.provider.over_usage", "raise `max_input_units` / `max_output_units`, or ask for less (a smaller screenshot, a shorter query)";
        /// The answer is about another observation or screenshot than the one sent.
        Binding => "test.provider.binding", "answer with the request's `observation_id` and `screenshot_sha256`";
        /// A box lies outside the image, has no area, or a confidence is outside 0..1.
        Geometry => "test.provider.geometry", "return boxes in image pixels inside the screenshot, with confidence in 0..1";
        /// A contract answer does not repeat every source's SHA-256 as the request sent it.
        Digest => "test.provider.digest", "answer with the request's `sources[].id` and `sha256`, one each";
        /// A candidate's byte span is empty, past the source, cuts a UTF-8 character, or its bytes are not its `quote`.
        Span => "test.provider.span", "give `start..end` as byte offsets of the text sent, with `quote` equal to those bytes";
        /// A candidate's image region has no area or lies outside its image.
        Region => "test.provider.region", "give regions in image pixels inside the design that was sent";
        /// Candidates, conflicts or open decisions are malformed: a bad or repeated id, a reference to nothing, a confidence outside 0..1, a text empty or too long, too many.
        Candidates => "test.provider.candidates", "give unique `[A-Za-z0-9_-]` ids and refer only to candidates and sources of the same answer";
        /// An advisory answer carried an outcome, verdict, expected value or executable action.
        Authority => "test.provider.authority", "a provider advises only: drop outcome, verdict, expected and action fields from the answer";
        /// An answer holds more items, or longer texts, than the kind allows.
        Bounds => "test.provider.bounds", "return at most the request's `max_findings`, with texts within the documented lengths";
    }
}

/// Why a provider gave no usable advice: a code and a message that never holds the
/// authorization value (every error leaving the boundary goes through [`Redactor`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ProviderError {
    /// The stable code.
    pub code: ProviderCode,
    /// What happened, in one line.
    pub message: String,
    /// True when the same call may succeed later (a timeout, a `retryable` refusal).
    pub retryable: bool,
}

impl ProviderError {
    /// An error that a retry will not cure.
    pub fn new(code: ProviderCode, message: impl Into<String>) -> ProviderError {
        ProviderError {
            code,
            message: message.into(),
            retryable: false,
        }
    }

    /// An error that a later call may not meet.
    pub fn retryable(code: ProviderCode, message: impl Into<String>) -> ProviderError {
        ProviderError {
            retryable: true,
            ..ProviderError::new(code, message)
        }
    }

    /// The code's one-line hint.
    pub fn hint(&self) -> &'static str {
        self.code.hint()
    }

    /// The same error with every trace of the secret `redactor` knows replaced.
    pub fn redacted(mut self, redactor: &Redactor) -> ProviderError {
        self.message = redactor.redact(&self.message);
        self
    }
}
