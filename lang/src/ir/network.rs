//! Network IR (`docs/acl.md` §7, "Routes"): which requests a route takes ([`UrlPattern`]) and how
//! it answers them ([`RouteResponse`]).
//!
//! Why a URL pattern is a glob or a regular expression and nothing else: the glob is the form
//! most routes need (`**/api/cart`) and the one Chromium's `Fetch` domain filters on itself; a
//! regular expression is written as every other ACL regular expression (`/…/flags`) for the cases
//! a glob cannot say (an optional query, one of several paths). The checker compiles it once so a
//! pattern the driver could not use is refused at its span, not at run time.

use super::browser_context::HttpHeader;
use serde::{Deserialize, Serialize};

/// The requests a route (or a network wait) takes, by their full URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum UrlPattern {
    /// A glob: `*` any run of characters, `?` one character, `\` escapes (`**/api/cart`). The
    /// whole URL must match.
    Glob(String),
    /// A regular expression found anywhere in the URL (`/\/api\/cart(\?.*)?$/`).
    Regex {
        /// The expression between the slashes.
        regex: String,
        /// Its flags (`i`, `m`, `s`, `u`).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        flags: String,
    },
}

impl std::fmt::Display for UrlPattern {
    /// As written in ACL: `"**/api"` shows as `**/api`, a regular expression as `/…/flags`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UrlPattern::Glob(glob) => f.write_str(glob),
            UrlPattern::Regex { regex, flags } => write!(f, "/{regex}/{flags}"),
        }
    }
}

impl From<&str> for UrlPattern {
    /// A glob.
    fn from(glob: &str) -> UrlPattern {
        UrlPattern::Glob(glob.to_string())
    }
}

impl UrlPattern {
    /// The expression the Rust `regex` crate compiles for a `Regex` pattern: the flags as inline
    /// flags (`u` is always on there), `\/` kept (an escaped slash is a slash).
    pub fn regex_source(regex: &str, flags: &str) -> String {
        let inline: String = flags
            .chars()
            .filter(|f| matches!(f, 'i' | 'm' | 's'))
            .collect();
        if inline.is_empty() {
            regex.to_string()
        } else {
            format!("(?{inline}){regex}")
        }
    }
}

/// How a routed request is answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RouteResponse {
    /// Fulfil with this body.
    Fulfill {
        /// The response body.
        body: String,
        /// The HTTP status (default 200).
        status: u16,
        /// The `content-type` header, when given.
        content_type: Option<String>,
        /// Further response headers (`headers = { "X-Total" = "3" }`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        headers: Vec<HttpHeader>,
    },
    /// Fail the request.
    Abort,
    /// Let the request go on to the network, with what is given replaced.
    Continue(ContinueOverrides),
}

/// What `continue = true` replaces in the request before it goes on (all optional: none sends it
/// unchanged, which a route with `times` uses to let a request through).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContinueOverrides {
    /// Another URL, same scheme (Chromium refuses a scheme change).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Another method (`POST`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Headers set on the request (added, or replacing one of the same name); values may be
    /// `env("NAME")`, read when the route is set and never written out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<HttpHeader>,
    /// Another request body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_data: Option<String>,
}

/// `wait { request = … }` / `wait { response = … status = … }`: a request sent, or a response
/// received, whose URL matches — counted from the start of the action before the wait.
///
/// Why armed at the preceding action and not at the wait: the request a click starts may be
/// answered before the click step returns, so a listener set up by the wait would miss it. Each
/// action marks where the context's network log stands when it begins; a network wait looks at
/// everything logged since that mark (and waits for more), so the natural order — the click,
/// then the wait — never misses a response that arrived during the click.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkWait {
    /// A request, or a response.
    pub event: NetworkEvent,
    /// Its URL.
    pub pattern: UrlPattern,
    /// A response's status, when one is required.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
}

/// What a network wait waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NetworkEvent {
    /// A request the page sent (`Network.requestWillBeSent`).
    Request,
    /// A response the page received (`Network.responseReceived`), routed ones included.
    Response,
}

impl NetworkEvent {
    /// The attribute name (`request`, `response`).
    pub fn as_str(self) -> &'static str {
        match self {
            NetworkEvent::Request => "request",
            NetworkEvent::Response => "response",
        }
    }
}

impl std::fmt::Display for NetworkWait {
    /// `response "**/api/cart" with status 200`, as failure messages name it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.pattern {
            UrlPattern::Glob(g) => write!(f, "{} {g:?}", self.event.as_str())?,
            p @ UrlPattern::Regex { .. } => write!(f, "{} {p}", self.event.as_str())?,
        }
        if let Some(status) = self.status {
            write!(f, " with status {status}")?;
        }
        Ok(())
    }
}

/// `request { method url headers body status json_path equals }`: an API call made with the
/// browser context's cookies, and what its answer must be.
///
/// Why in the browser context's name: an API check usually follows a sign-in through the UI, and
/// the request must be the signed-in user's. The driver sends it with the cookies the context
/// holds for its URL (as a page's `fetch` with credentials would), not from the page, so no
/// page, origin or CORS rule is involved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiRequest {
    /// `GET` unless written.
    pub method: String,
    /// Absolute, or relative to the suite's `base_url`.
    pub url: String,
    /// Request headers; values may be `env("NAME")` (never written out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<HttpHeader>,
    /// The request body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// The status the answer must have; `None` = any 2xx.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// A value the JSON answer must hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json: Option<JsonCheck>,
}

/// `json_path = "$.user.name" equals = "Ada"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonCheck {
    /// Where the value is.
    pub json_path: super::JsonPath,
    /// What it must equal.
    pub equals: super::JsonScalar,
}

/// `route_from_har { path not_found }`: answer requests from a recorded HAR file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HarReplay {
    /// The HAR file, relative to the working directory (read when the step runs, never written).
    pub path: String,
    /// What a request the HAR has no entry for gets.
    pub not_found: HarNotFound,
}

/// `not_found = "abort" | "fallback"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HarNotFound {
    /// Fail it (the page sees a network error): nothing reaches a server by accident.
    #[default]
    Abort,
    /// Let it through to older routes, then the network.
    Fallback,
}

impl HarNotFound {
    /// The keywords, as written.
    pub const KEYWORDS: &'static [&'static str] = &["abort", "fallback"];
}
