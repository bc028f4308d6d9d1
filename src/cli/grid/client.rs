//! The few W3C WebDriver and Grid requests a run makes, each with its own deadline: `GET /status`
//! (is the Grid ready, how many slots are free, the nodes' session timeout), `POST /session`
//! (a new session; its `se:cdp` endpoint), `GET /session/{id}/timeouts` (keeps an idle session
//! alive while the run talks to the browser over CDP only) and `DELETE /session/{id}`.
//!
//! Why `reqwest`: it is already built for `chromiumoxide`, and gives bounded requests and JSON
//! bodies without plumbing of our own. Answers are read into typed structs; only the
//! capabilities we send stay a JSON map, because the Grid's vendor keys are the user's to choose.

use super::url::GridUrl;
use serde::Deserialize;
use std::time::Duration;

/// Largest answer read from the Grid (a `/status` of a large Grid is a few hundred kB).
const MAX_ANSWER: usize = 8 * 1024 * 1024;

/// One Grid, addressed without its credentials (they go in a header).
#[derive(Debug, Clone)]
pub struct GridClient {
    http: reqwest::Client,
    url: GridUrl,
    /// Why no request to this `https://` Grid can succeed (the machine trusts no root).
    untrusted: Option<String>,
}

/// Why a Grid request got no usable answer. Texts never hold the Grid's credentials: the URL the
/// client sees has none, and request URLs are left out of transport errors.
#[derive(Debug, Clone, thiserror::Error)]
pub enum GridError {
    /// No answer within the request's bound.
    #[error("no answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The connection or the HTTP exchange failed.
    #[error("{0}")]
    Transport(String),
    /// The Grid answered with a WebDriver error.
    #[error("HTTP {status}: {error}: {message}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The WebDriver error name (`session not created`, …).
        error: String,
        /// The first line of the Grid's message.
        message: String,
    },
    /// The answer is not what the protocol says.
    #[error("unexpected answer: {0}")]
    Answer(String),
}

/// `{"value": …}`: every WebDriver answer.
#[derive(Debug, Deserialize)]
struct Envelope<T> {
    value: T,
}

/// The error half of a WebDriver answer.
#[derive(Debug, Deserialize)]
struct ErrorValue {
    #[serde(default)]
    error: String,
    #[serde(default)]
    message: String,
}

/// What `GET /status` says.
#[derive(Debug, Clone, Deserialize)]
pub struct GridStatus {
    /// The Grid accepts new sessions.
    pub ready: bool,
    /// Its own sentence about that.
    #[serde(default)]
    pub message: String,
    /// The registered nodes (a standalone server is one).
    #[serde(default)]
    pub nodes: Vec<Node>,
}

/// One node of `/status`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    /// `UP`, `DRAINING` or `DOWN`.
    #[serde(default)]
    pub availability: String,
    /// Most sessions at once, whatever the browser.
    #[serde(default)]
    pub max_sessions: usize,
    /// How long the node lets a session stay idle (ms).
    #[serde(default)]
    pub session_timeout: Option<u64>,
    /// Its browser slots.
    #[serde(default)]
    pub slots: Vec<Slot>,
}

/// One slot of a node.
#[derive(Debug, Clone, Deserialize)]
pub struct Slot {
    /// The session in it, if busy (only its presence matters here).
    #[serde(default)]
    pub session: Option<serde::de::IgnoredAny>,
    /// What the slot offers.
    #[serde(default)]
    pub stereotype: Stereotype,
}

/// The capabilities a slot offers (only the browser name matters here).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Stereotype {
    /// `chrome`, `firefox`, …
    #[serde(default, rename = "browserName")]
    pub browser_name: Option<String>,
}

impl GridStatus {
    /// Slots free now for `browser` on nodes that are up, each node bounded by its
    /// `maxSessions` (a standalone server offers more slots than it runs sessions at once).
    pub fn free_slots(&self, browser: &str) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.availability == "UP")
            .map(|n| {
                let busy = n.slots.iter().filter(|s| s.session.is_some()).count();
                let free = n
                    .slots
                    .iter()
                    .filter(|s| s.session.is_none())
                    .filter(|s| s.stereotype.browser_name.as_deref() == Some(browser))
                    .count();
                let room = if n.max_sessions == 0 {
                    free
                } else {
                    n.max_sessions.saturating_sub(busy)
                };
                free.min(room)
            })
            .sum()
    }

    /// How long the Grid lets a session idle: the shortest of its nodes' timeouts.
    pub fn session_timeout(&self) -> Option<Duration> {
        self.nodes
            .iter()
            .filter_map(|n| n.session_timeout)
            .filter(|ms| *ms > 0)
            .min()
            .map(Duration::from_millis)
    }
}

/// A new session's answer.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NewSessionValue {
    session_id: String,
    capabilities: SessionCapabilities,
}

/// The capabilities of a new session a run needs.
#[derive(Debug, Clone, Deserialize)]
struct SessionCapabilities {
    #[serde(rename = "se:cdp")]
    cdp: Option<String>,
}

/// A session the Grid opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    /// Its id (checked: letters, digits, `-`, `_`, `.`).
    pub id: String,
    /// Its browser's DevTools WebSocket, through the Grid.
    pub cdp: String,
}

impl GridClient {
    /// A client of the Grid at `url`. An `https://` Grid is reached over the driver's one TLS
    /// configuration (`a3s_test_driver::tls`: the machine's trust store, `SSL_CERT_FILE`
    /// honoured, names always verified), so a Grid's certificate is trusted exactly when a
    /// `request` step's would be. With no trusted root at all every request fails saying so
    /// (naming `SSL_CERT_FILE`) rather than with an unknown issuer.
    pub fn new(url: GridUrl) -> Result<GridClient, GridError> {
        let untrusted = match a3s_test_driver::tls::client_config() {
            Err(no_roots) if url.is_https() => Some(no_roots.to_string()),
            _ => None,
        };
        // reqwest wants a TLS configuration even for a client that never uses it.
        let tls = a3s_test_driver::tls::client_config_even_without_roots();
        let http = reqwest::Client::builder()
            .tls_backend_preconfigured(rustls::ClientConfig::clone(&tls))
            .build()
            .map_err(transport)?;
        Ok(GridClient {
            http,
            url,
            untrusted,
        })
    }

    /// The Grid's address (shown without credentials).
    pub fn url(&self) -> &GridUrl {
        &self.url
    }

    /// `GET /status`.
    pub async fn status(&self, bound: Duration) -> Result<GridStatus, GridError> {
        let request = self.http.get(self.url.join("status"));
        self.exchange(request, bound).await
    }

    /// `POST /session` with `capabilities` as `alwaysMatch`, waiting at most `bound` (the Grid
    /// queues the request while no slot is free).
    pub async fn new_session(
        &self,
        capabilities: &serde_json::Map<String, serde_json::Value>,
        bound: Duration,
    ) -> Result<NewSession, GridError> {
        let body = serde_json::json!({ "capabilities": { "alwaysMatch": capabilities } });
        let request = self
            .http
            .post(self.url.join("session"))
            // The Grid refuses JSON that does not say it is UTF-8.
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/json; charset=utf-8",
            )
            .body(body.to_string());
        let value: NewSessionValue = self.exchange(request, bound).await?;
        let id = checked_id(&value.session_id)?;
        let cdp = value.capabilities.cdp.ok_or_else(|| {
            GridError::Answer(
                "the new session has no `se:cdp` endpoint (is the Grid's CDP proxy off, or the browser not Chromium?)"
                    .into(),
            )
        })?;
        if !(cdp.starts_with("ws://") || cdp.starts_with("wss://")) {
            return Err(GridError::Answer(format!(
                "the session's `se:cdp` is not a WebSocket URL: {cdp}"
            )));
        }
        Ok(NewSession { id, cdp })
    }

    /// `DELETE /session/{id}`: the Grid ends the browser and frees the slot.
    pub async fn delete_session(&self, id: &str, bound: Duration) -> Result<(), GridError> {
        let id = checked_id(id)?;
        let request = self.http.delete(self.url.join(&format!("session/{id}")));
        self.exchange::<serde::de::IgnoredAny>(request, bound)
            .await
            .map(|_| ())
    }

    /// `GET /session/{id}/timeouts`: a WebDriver command that touches no page, so the Grid
    /// counts the session as active (CDP traffic does not count).
    pub async fn touch(&self, id: &str, bound: Duration) -> Result<(), GridError> {
        let id = checked_id(id)?;
        let request = self
            .http
            .get(self.url.join(&format!("session/{id}/timeouts")));
        self.exchange::<serde::de::IgnoredAny>(request, bound)
            .await
            .map(|_| ())
    }

    /// Send `request` with the credentials, read a bounded JSON answer within `bound`.
    async fn exchange<T: serde::de::DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
        bound: Duration,
    ) -> Result<T, GridError> {
        if let Some(why) = &self.untrusted {
            return Err(GridError::Transport(why.clone()));
        }
        let request = match self.url.credentials() {
            Some(c) => request.basic_auth(&c.user, c.password.as_ref()),
            None => request,
        };
        let work = async {
            let response = request.send().await.map_err(transport)?;
            let status = response.status();
            let body = read_bounded(response).await?;
            if !status.is_success() {
                let refused = serde_json::from_slice::<Envelope<ErrorValue>>(&body)
                    .map(|e| e.value)
                    .unwrap_or(ErrorValue {
                        error: "unknown error".into(),
                        message: String::from_utf8_lossy(&body).into_owned(),
                    });
                return Err(GridError::Refused {
                    status: status.as_u16(),
                    error: refused.error,
                    message: first_line(&refused.message),
                });
            }
            serde_json::from_slice::<Envelope<T>>(&body)
                .map(|e| e.value)
                .map_err(|e| GridError::Answer(e.to_string()))
        };
        tokio::time::timeout(bound, work)
            .await
            .map_err(|_| GridError::Timeout(bound))?
    }
}

/// A failed exchange with its causes (a TLS failure says why: `invalid peer certificate:
/// UnknownIssuer`, a name mismatch, …), the request URL left out.
fn transport(e: reqwest::Error) -> GridError {
    let e = e.without_url();
    let mut text = e.to_string();
    let mut cause = std::error::Error::source(&e);
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    GridError::Transport(text)
}

/// The body, at most [`MAX_ANSWER`] bytes.
async fn read_bounded(mut response: reqwest::Response) -> Result<Vec<u8>, GridError> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(transport)? {
        if body.len() + chunk.len() > MAX_ANSWER {
            return Err(GridError::Answer(format!(
                "the answer is larger than {MAX_ANSWER} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The first line of a Grid message, at most 300 characters (Java stack traces follow it).
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or_default().trim();
    match line.char_indices().nth(300) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

/// A session id is put into request paths: only plain characters.
fn checked_id(id: &str) -> Result<String, GridError> {
    let plain = !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain && id != "." && id != ".." {
        Ok(id.to_string())
    } else {
        Err(GridError::Answer(format!(
            "the Grid named a session with an unusable id ({} characters)",
            id.chars().count()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_slots_count_the_browser_and_the_nodes_session_limit() {
        let status: Envelope<GridStatus> = serde_json::from_str(
            r#"{"value":{"ready":true,"message":"ok","nodes":[
              {"availability":"UP","maxSessions":2,"sessionTimeout":20000,"slots":[
                {"session":null,"stereotype":{"browserName":"chrome"}},
                {"session":null,"stereotype":{"browserName":"chrome"}},
                {"session":null,"stereotype":{"browserName":"chrome"}},
                {"session":{"sessionId":"a"},"stereotype":{"browserName":"firefox"}}]},
              {"availability":"UP","maxSessions":4,"sessionTimeout":300000,"slots":[
                {"session":null,"stereotype":{"browserName":"chrome"}},
                {"session":null,"stereotype":{"browserName":"chrome"}}]},
              {"availability":"DOWN","maxSessions":4,"slots":[
                {"session":null,"stereotype":{"browserName":"chrome"}}]}]}}"#,
        )
        .unwrap();
        let status = status.value;
        assert_eq!(status.free_slots("chrome"), 1 + 2);
        assert_eq!(status.free_slots("firefox"), 0);
        assert_eq!(status.session_timeout(), Some(Duration::from_secs(20)));
    }

    #[test]
    fn session_ids_are_plain() {
        assert!(checked_id("0d04820902268458c26bb20d91f2a76c").is_ok());
        for bad in ["", "..", "a/b", "a?b", "a b", &"x".repeat(200)] {
            assert!(checked_id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn messages_keep_their_first_line() {
        assert_eq!(
            first_line("Could not start\nHost info: …"),
            "Could not start"
        );
        assert_eq!(first_line(&"é".repeat(400)).chars().count(), 301);
    }
}
