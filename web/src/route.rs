//! `network_route` / `network_unroute`: answering matching requests from the suite.
//!
//! Routes belong to the context (every tab). Interception uses `Fetch.enable` with one
//! `urlPattern` per route; the CDP wildcard syntax (`*` = any run of characters, `?` = one
//! character) already reads a glob like `**/api/users` the way a suite author means it, so the
//! pattern is passed through and matched here with the same rules ([`a3s_test_driver::glob`]) to pick the route.

use super::cdp::{Session, COMMAND_BOUND};
use super::tab::{ContextShared, Tab};
use a3s_test_driver::glob::{Dialect, Wildcard};
use a3s_test_driver::StepFailure;
use a3s_test_lang::ir::RouteResponse;
use base64::Engine;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::time::Instant;

/// One active route. Its pattern is compiled once, when the route is added: every paused request
/// is matched against every route, so compiling there would repeat the work per request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Route {
    /// The glob as written.
    pub pattern: String,
    /// The compiled pattern; `None` when it does not compile (a trailing `\`): it matches nothing.
    matcher: Option<Wildcard>,
    /// How matching requests are answered.
    pub response: RouteResponse,
}

impl Route {
    /// A route answering requests that match `pattern` with `response`.
    pub(crate) fn new(pattern: &str, response: RouteResponse) -> Route {
        Route {
            pattern: pattern.to_string(),
            matcher: compile(pattern),
            response,
        }
    }

    /// True when `url` matches this route's pattern.
    fn matches(&self, url: &str) -> bool {
        self.matcher.as_ref().is_some_and(|w| w.matches(url))
    }
}

/// The CDP wildcard `pattern` (`*`, `?`, `\` escapes; see [`a3s_test_driver::glob::Dialect::Url`])
/// compiled, or `None` when it does not compile.
fn compile(pattern: &str) -> Option<Wildcard> {
    Wildcard::new(pattern, Dialect::Url).ok()
}

/// Make the tab's interception match the context's routes (`Fetch.enable`/`Fetch.disable`).
pub(crate) async fn apply_patterns(
    tab: &Tab,
    shared: &Arc<ContextShared>,
    deadline: Instant,
) -> Result<(), StepFailure> {
    let filtered = shared
        .network_filter
        .lock()
        .expect("network filter lock")
        .is_some();
    let credentials = shared
        .credentials
        .lock()
        .expect("credentials lock")
        .is_some();
    let patterns: Vec<Value> = if filtered || credentials {
        // Authentication challenges are reported only for requests the tab intercepts, so
        // `http_credentials` intercepts them all (unrouted ones continue at once).
        // A session's network policy sees every request; routes are still matched per request.
        vec![json!({ "urlPattern": "*", "requestStage": "Request" })]
    } else {
        let routes = shared.routes.lock().expect("routes lock");
        routes
            .iter()
            .map(|r| json!({ "urlPattern": r.pattern, "requestStage": "Request" }))
            .collect()
    };
    if patterns.is_empty() {
        tab.session
            .call("Fetch.disable", json!({}), COMMAND_BOUND, deadline)
            .await?;
    } else {
        tab.session
            .call(
                "Fetch.enable",
                json!({ "patterns": patterns, "handleAuthRequests": credentials }),
                COMMAND_BOUND,
                deadline,
            )
            .await?;
    }
    Ok(())
}

/// Answer one paused request: the newest matching route wins; no match continues it.
pub(crate) async fn handle_paused(session: &Session, shared: &ContextShared, params: &Value) {
    let Some(request_id) = params.get("requestId").and_then(Value::as_str) else {
        return;
    };
    let url = params
        .pointer("/request/url")
        .and_then(Value::as_str)
        .unwrap_or("");
    let refused = shared
        .network_filter
        .lock()
        .expect("network filter lock")
        .as_ref()
        .is_some_and(|filter| !filter.allows(url));
    if refused {
        shared
            .blocked
            .lock()
            .expect("blocked lock")
            .push(url.to_string());
        let params = json!({ "requestId": request_id, "errorReason": "BlockedByClient" });
        let deadline = Instant::now() + COMMAND_BOUND;
        let _ = session
            .call("Fetch.failRequest", params, COMMAND_BOUND, deadline)
            .await;
        return;
    }
    let route = {
        let routes = shared.routes.lock().expect("routes lock");
        routes.iter().rev().find(|r| r.matches(url)).cloned()
    };
    let deadline = Instant::now() + COMMAND_BOUND;
    let (method, params) = match route.map(|r| r.response) {
        Some(RouteResponse::Fulfill {
            body,
            status,
            content_type,
        }) => {
            let content_type =
                content_type.unwrap_or_else(|| "text/plain; charset=utf-8".to_string());
            let body = base64::engine::general_purpose::STANDARD.encode(body.as_bytes());
            (
                "Fetch.fulfillRequest",
                json!({
                    "requestId": request_id,
                    "responseCode": status,
                    "responseHeaders": [
                        { "name": "Content-Type", "value": content_type },
                        { "name": "Access-Control-Allow-Origin", "value": "*" },
                    ],
                    "body": body,
                }),
            )
        }
        Some(RouteResponse::Abort) => (
            "Fetch.failRequest",
            json!({ "requestId": request_id, "errorReason": "Failed" }),
        ),
        None => ("Fetch.continueRequest", json!({ "requestId": request_id })),
    };
    // Best effort: a tab that closed meanwhile has nothing left to answer.
    let _ = session.call(method, params, COMMAND_BOUND, deadline).await;
}

/// Answer one authentication challenge with `http_credentials` (a tab intercepts challenges only
/// when the context has them). The first challenge of a request gets the credentials; a second
/// one for the same request means they were refused, and is cancelled so the page sees the 401
/// instead of a loop.
pub(crate) async fn handle_auth(session: &Session, shared: &ContextShared, params: &Value) {
    let Some(request_id) = params.get("requestId").and_then(Value::as_str) else {
        return;
    };
    let response = {
        let credentials = shared.credentials.lock().expect("credentials lock");
        let mut answered = shared.auth_answered.lock().expect("auth answered lock");
        match credentials.as_ref() {
            Some(c) if answered.insert(request_id.to_string()) => json!({
                "response": "ProvideCredentials",
                "username": c.username,
                "password": c.password,
            }),
            _ => json!({ "response": "CancelAuth" }),
        }
    };
    let params = json!({ "requestId": request_id, "authChallengeResponse": response });
    let deadline = Instant::now() + COMMAND_BOUND;
    // Best effort, as for a paused request: a closed tab has nothing left to answer.
    let _ = session
        .call("Fetch.continueWithAuth", params, COMMAND_BOUND, deadline)
        .await;
}

#[cfg(test)]
mod tests {
    use super::Route;
    use a3s_test_lang::ir::RouteResponse;

    #[test]
    fn globs_follow_cdp_wildcards() {
        let cases = [
            ("**/api/users", "http://127.0.0.1:4173/api/users", true),
            ("**/api/users", "http://127.0.0.1:4173/api/users/1", false),
            ("**/api/*", "http://h/api/users", true),
            ("http://h/a?c", "http://h/abc", true),
            ("http://h/a?c", "http://h/ac", false),
            ("*", "anything", true),
            ("exact", "exact", true),
            ("exact", "exactly", false),
            ("a\\*b", "a*b", true),
            ("a\\*b", "axb", false),
            // A pattern that does not compile matches nothing.
            ("trailing\\", "trailing\\", false),
        ];
        for (pattern, url, want) in cases {
            let route = Route::new(pattern, RouteResponse::Abort);
            assert_eq!(route.matches(url), want, "{pattern} vs {url}");
        }
    }
}
