//! `network_route` / `network_unroute`: answering matching requests from the suite.
//!
//! Routes belong to the context (every tab). Interception uses `Fetch.enable` with one
//! `urlPattern` per glob route; the CDP wildcard syntax (`*` = any run of characters, `?` = one
//! character) already reads a glob like `**/api/users` the way a suite author means it, so the
//! pattern is passed through and matched here with the same rules ([`a3s_test_driver::glob`]) to
//! pick the route. A regular-expression route has no CDP form, so it makes the tab intercept every
//! request (`*`) and is matched here with the `regex` crate (the checker compiled it the same way).
//!
//! A route's answer is resolved when the route is set: `env("NAME")` header values are read then,
//! kept only in this process's memory (never in a `Debug` output) and sent only to the browser.
//! A route with `times = N` answers N requests, counted under the routes lock so two paused
//! requests never both take the last one, and is then removed: later requests fall through to an
//! older matching route, or to the network.

use super::cdp::{Session, COMMAND_BOUND};
use super::har_replay::HarArchive;
use super::tab::{ContextShared, Tab};
use a3s_test_driver::glob::{Dialect, Wildcard};
use a3s_test_driver::vars::{self, VarSource};
use a3s_test_driver::StepFailure;
use a3s_test_lang::ir::{HarNotFound, HttpHeader, RouteResponse, UrlPattern};
use base64::Engine;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::time::Instant;

/// Header names and values with every variable already read. `Debug` names the headers only.
#[derive(Clone, PartialEq, Eq, Default)]
pub(crate) struct Headers(pub Vec<(String, String)>);

impl std::fmt::Debug for Headers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|(name, _)| name))
            .finish()
    }
}

/// How a route answers, ready to send (see [`RouteResponse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// `Fetch.fulfillRequest` with these.
    Fulfill {
        /// The body.
        body: String,
        /// The status.
        status: u16,
        /// All response headers, `Content-Type` first.
        headers: Headers,
    },
    /// `Fetch.failRequest`.
    Abort,
    /// `Fetch.continueRequest` with what is replaced.
    Continue {
        /// Another URL.
        url: Option<String>,
        /// Another method.
        method: Option<String>,
        /// Headers set on the request (merged into the request's own by name).
        headers: Headers,
        /// Another body.
        post_data: Option<String>,
    },
    /// A fulfilment with a body of any bytes (a HAR's answers).
    Raw {
        /// The status.
        status: u16,
        /// The headers.
        headers: Headers,
        /// The body.
        body: Vec<u8>,
    },
    /// `route_from_har`: the recorded answer, else what `not_found` says.
    Har {
        /// The recorded answers.
        archive: Arc<HarArchive>,
        /// What an unrecorded request gets.
        not_found: HarNotFound,
    },
}

impl Answer {
    /// `response` with its variables read from `source` (`test.spec.env_unset` when one is not).
    pub(crate) fn resolve(
        response: &RouteResponse,
        source: &dyn VarSource,
    ) -> Result<Answer, StepFailure> {
        let read = |headers: &[HttpHeader]| -> Result<Vec<(String, String)>, StepFailure> {
            headers
                .iter()
                .map(|h| {
                    Ok((
                        h.name.clone(),
                        vars::resolve(&h.value, source)?.as_str().to_string(),
                    ))
                })
                .collect()
        };
        Ok(match response {
            RouteResponse::Fulfill {
                body,
                status,
                content_type,
                headers,
            } => {
                let content_type = content_type
                    .clone()
                    .unwrap_or_else(|| "text/plain; charset=utf-8".to_string());
                let mut all = vec![
                    ("Content-Type".to_string(), content_type),
                    ("Access-Control-Allow-Origin".to_string(), "*".to_string()),
                ];
                merge(&mut all, read(headers)?);
                Answer::Fulfill {
                    body: body.clone(),
                    status: *status,
                    headers: Headers(all),
                }
            }
            RouteResponse::Abort => Answer::Abort,
            RouteResponse::Continue(o) => Answer::Continue {
                url: o.url.clone(),
                method: o.method.clone(),
                headers: Headers(read(&o.headers)?),
                post_data: o.post_data.clone(),
            },
        })
    }
}

impl Answer {
    /// A fulfilment with these body bytes (a HAR's body may not be UTF-8).
    fn with_body(self, bytes: &[u8]) -> Answer {
        match self {
            Answer::Fulfill {
                status, headers, ..
            } => Answer::Raw {
                status,
                headers,
                body: bytes.to_vec(),
            },
            other => other,
        }
    }
}

/// Set each of `set` in `into`, replacing a header of the same name (any case) in place.
fn merge(into: &mut Vec<(String, String)>, set: Vec<(String, String)>) {
    for (name, value) in set {
        match into.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(&name)) {
            Some(slot) => *slot = (name, value),
            None => into.push((name, value)),
        }
    }
}

/// A compiled URL pattern; `None` inside when it does not compile (a glob's trailing `\`): it
/// matches nothing.
#[derive(Debug, Clone)]
enum Matcher {
    Glob(Option<Wildcard>),
    Regex(Option<regex::Regex>),
}

/// A [`UrlPattern`] compiled once, for routes and network waits alike.
#[derive(Debug, Clone)]
pub(crate) struct UrlMatcher(Matcher);

impl UrlMatcher {
    /// `pattern` compiled.
    pub(crate) fn new(pattern: &UrlPattern) -> UrlMatcher {
        UrlMatcher(compile(pattern))
    }

    /// True when `url` matches.
    pub(crate) fn matches(&self, url: &str) -> bool {
        match &self.0 {
            Matcher::Glob(w) => w.as_ref().is_some_and(|w| w.matches(url)),
            Matcher::Regex(r) => r.as_ref().is_some_and(|r| r.is_match(url)),
        }
    }
}

/// One active route. Its pattern is compiled once, when the route is added: every paused request
/// is matched against every route, so compiling there would repeat the work per request.
#[derive(Debug, Clone)]
pub(crate) struct Route {
    /// The pattern as written.
    pub pattern: UrlPattern,
    matcher: UrlMatcher,
    /// How matching requests are answered.
    pub answer: Answer,
    /// Requests it still answers (`times`); `None` = every one.
    remaining: Option<u32>,
}

impl Route {
    /// A route answering requests that match `pattern` with `answer`, `times` of them at most.
    pub(crate) fn new(pattern: UrlPattern, answer: Answer, times: Option<u32>) -> Route {
        Route {
            matcher: UrlMatcher::new(&pattern),
            pattern,
            answer,
            remaining: times,
        }
    }

    /// True when `url` matches this route's pattern.
    fn matches(&self, url: &str) -> bool {
        self.matcher.matches(url)
    }

    /// The `Fetch.enable` URL pattern that lets this route see its requests.
    fn fetch_pattern(&self) -> &str {
        match &self.pattern {
            UrlPattern::Glob(glob) => glob,
            UrlPattern::Regex { .. } => "*",
        }
    }
}

/// `pattern` compiled (globs: the CDP wildcard dialect, see
/// [`a3s_test_driver::glob::Dialect::Url`]; regular expressions as the checker compiled them).
fn compile(pattern: &UrlPattern) -> Matcher {
    match pattern {
        UrlPattern::Glob(glob) => Matcher::Glob(Wildcard::new(glob, Dialect::Url).ok()),
        UrlPattern::Regex { regex, flags } => {
            Matcher::Regex(regex::Regex::new(&UrlPattern::regex_source(regex, flags)).ok())
        }
    }
}

/// A paused request as routes see it.
pub(crate) struct Paused<'a> {
    /// Its URL.
    pub url: &'a str,
    /// Its method.
    pub method: &'a str,
    /// Its body, when it has one.
    pub post_data: Option<&'a str>,
}

/// The answer of the newest route matching `request`, counted as used: one with `times` left
/// loses one, and the last use removes it (so the next request falls through). A HAR route
/// without an entry for the request answers with an abort, or (`not_found = "fallback"`) lets
/// the older routes answer.
pub(crate) fn take_route(routes: &mut Vec<Route>, request: &Paused<'_>) -> Option<Answer> {
    let mut index = routes.len();
    while index > 0 {
        index -= 1;
        if !routes[index].matches(request.url) {
            continue;
        }
        let answer = match &routes[index].answer {
            Answer::Har { archive, not_found } => {
                match archive.find(request.method, request.url, request.post_data) {
                    Some(recorded) => Answer::Fulfill {
                        body: String::new(),
                        status: recorded.status,
                        headers: Headers(recorded.headers.clone()),
                    }
                    .with_body(&recorded.body),
                    None if *not_found == HarNotFound::Abort => Answer::Abort,
                    None => continue,
                }
            }
            other => other.clone(),
        };
        let route = &mut routes[index];
        if let Some(left) = route.remaining.as_mut() {
            *left = left.saturating_sub(1);
            if *left == 0 {
                routes.remove(index);
            }
        }
        return Some(answer);
    }
    None
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
        let mut seen: Vec<&str> = Vec::new();
        for r in routes.iter() {
            if !seen.contains(&r.fetch_pattern()) {
                seen.push(r.fetch_pattern());
            }
        }
        seen.iter()
            .map(|p| json!({ "urlPattern": p, "requestStage": "Request" }))
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
    let paused = Paused {
        url,
        method: params
            .pointer("/request/method")
            .and_then(Value::as_str)
            .unwrap_or("GET"),
        post_data: params.pointer("/request/postData").and_then(Value::as_str),
    };
    let answer = take_route(&mut shared.routes.lock().expect("routes lock"), &paused);
    let deadline = Instant::now() + COMMAND_BOUND;
    let (method, params) = match answer {
        Some(answer) => answer_params(request_id, params, answer),
        None => ("Fetch.continueRequest", json!({ "requestId": request_id })),
    };
    // Best effort: a tab that closed meanwhile has nothing left to answer.
    let _ = session.call(method, params, COMMAND_BOUND, deadline).await;
}

/// The `Fetch` command and its parameters that answer paused request `request_id` (event
/// `paused`) with `answer`.
fn answer_params(request_id: &str, paused: &Value, answer: Answer) -> (&'static str, Value) {
    let b64 = |text: &str| base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let entries = |headers: &[(String, String)]| -> Vec<Value> {
        headers
            .iter()
            .map(|(name, value)| json!({ "name": name, "value": value }))
            .collect()
    };
    match answer {
        Answer::Fulfill {
            body,
            status,
            headers,
        } => (
            "Fetch.fulfillRequest",
            json!({
                "requestId": request_id,
                "responseCode": status,
                "responseHeaders": entries(&headers.0),
                "body": b64(&body),
            }),
        ),
        Answer::Raw {
            status,
            headers,
            body,
        } => (
            "Fetch.fulfillRequest",
            json!({
                "requestId": request_id,
                "responseCode": status,
                "responseHeaders": entries(&headers.0),
                "body": base64::engine::general_purpose::STANDARD.encode(&body),
            }),
        ),
        // Resolved by `take_route` before it answers.
        Answer::Har { .. } => ("Fetch.continueRequest", json!({ "requestId": request_id })),
        Answer::Abort => (
            "Fetch.failRequest",
            json!({ "requestId": request_id, "errorReason": "Failed" }),
        ),
        Answer::Continue {
            url,
            method,
            headers,
            post_data,
        } => {
            let mut params = json!({ "requestId": request_id });
            if let Some(url) = url {
                params["url"] = json!(url);
            }
            if let Some(method) = method {
                params["method"] = json!(method);
            }
            if let Some(body) = post_data {
                params["postData"] = json!(b64(&body));
            }
            if !headers.0.is_empty() {
                // `headers` replaces all of the request's: start from its own.
                let mut all: Vec<(String, String)> = paused
                    .pointer("/request/headers")
                    .and_then(Value::as_object)
                    .map(|h| {
                        h.iter()
                            .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                            .collect()
                    })
                    .unwrap_or_default();
                merge(&mut all, headers.0);
                params["headers"] = json!(entries(&all));
            }
            ("Fetch.continueRequest", params)
        }
    }
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
    use super::{take_route, Answer, Paused, Route};
    use a3s_test_lang::ir::UrlPattern;

    fn glob(p: &str) -> UrlPattern {
        UrlPattern::Glob(p.to_string())
    }

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
            let route = Route::new(glob(pattern), Answer::Abort, None);
            assert_eq!(route.matches(url), want, "{pattern} vs {url}");
        }
    }

    #[test]
    fn regexes_are_found_anywhere_with_their_flags() {
        let re = |regex: &str, flags: &str| UrlPattern::Regex {
            regex: regex.to_string(),
            flags: flags.to_string(),
        };
        let cases = [
            (
                re("\\/api\\/cart(\\?.*)?$", ""),
                "http://h/api/cart?x=1",
                true,
            ),
            (
                re("\\/api\\/cart(\\?.*)?$", ""),
                "http://h/api/cart/2",
                false,
            ),
            (re("/API/", ""), "http://h/api/cart", false),
            (re("/API/", "i"), "http://h/api/cart", true),
        ];
        for (pattern, url, want) in cases {
            let route = Route::new(pattern.clone(), Answer::Abort, None);
            assert_eq!(route.matches(url), want, "{pattern} vs {url}");
            assert_eq!(route.fetch_pattern(), "*");
        }
    }

    #[test]
    fn times_counts_down_then_falls_through_to_the_older_route() {
        let fulfil = |body: &str| Answer::Fulfill {
            body: body.to_string(),
            status: 200,
            headers: super::Headers::default(),
        };
        let mut routes = vec![
            Route::new(glob("**/api"), fulfil("old"), None),
            Route::new(glob("**/api"), fulfil("new"), Some(2)),
        ];
        let body = |a: Option<Answer>| match a {
            Some(Answer::Fulfill { body, .. }) => body,
            other => format!("{other:?}"),
        };
        let get = |url| Paused {
            url,
            method: "GET",
            post_data: None,
        };
        assert_eq!(body(take_route(&mut routes, &get("http://h/api"))), "new");
        assert_eq!(body(take_route(&mut routes, &get("http://h/api"))), "new");
        assert_eq!(body(take_route(&mut routes, &get("http://h/api"))), "old");
        assert_eq!(routes.len(), 1);
        assert_eq!(take_route(&mut routes, &get("http://h/other")), None);
    }

    #[test]
    fn resolved_headers_never_show_their_values() {
        let headers = super::Headers(vec![("Authorization".into(), "Bearer s3cret".into())]);
        assert_eq!(format!("{headers:?}"), "[\"Authorization\"]");
    }
}
