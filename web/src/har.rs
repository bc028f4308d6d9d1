//! `har { operation = "start" | "stop" }`: network traffic as a HAR 1.2 log.
//!
//! Built from the `Network.*` events every tab already listens to. Request headers, cookies and
//! `Set-Cookie`/`Authorization`-like response headers are never recorded (secrets are
//! never serialized); bodies are not captured.

use serde_json::{json, Value};
use std::collections::HashMap;

/// Response headers that may carry credentials and are never written.
const SECRET_HEADERS: &[&str] = &[
    "set-cookie",
    "cookie",
    "authorization",
    "proxy-authorization",
    "www-authenticate",
];

#[derive(Debug, Default, Clone)]
struct Entry {
    url: String,
    method: String,
    resource_type: String,
    wall_time: f64,
    start: f64,
    response_at: Option<f64>,
    end: Option<f64>,
    status: i64,
    status_text: String,
    http_version: String,
    mime_type: String,
    headers: Vec<(String, String)>,
    size: i64,
    error: Option<String>,
}

/// Entries being recorded, in request order.
#[derive(Debug, Default)]
pub(crate) struct HarRecorder {
    entries: Vec<Entry>,
    open: HashMap<(String, String), usize>,
    /// Most entries kept (0 = no cap, a HAR step's recording); later requests are counted only.
    limit: usize,
    /// Requests not kept past `limit`.
    dropped: usize,
}

impl HarRecorder {
    /// Record one `Network.*` event of tab `tab`.
    pub fn record(&mut self, method: &str, tab: &str, p: &Value) {
        let Some(id) = p.get("requestId").and_then(Value::as_str) else {
            return;
        };
        let key = (tab.to_string(), id.to_string());
        let num = |v: Option<&Value>| v.and_then(Value::as_f64).unwrap_or(0.0);
        match method {
            "Network.requestWillBeSent" => {
                // A redirect reuses the request id: close the previous hop with its response.
                if let (Some(redirect), Some(&i)) = (p.get("redirectResponse"), self.open.get(&key))
                {
                    apply_response(&mut self.entries[i], redirect, num(p.get("timestamp")));
                    self.entries[i].end = Some(num(p.get("timestamp")));
                }
                let entry = Entry {
                    url: str_of(p.pointer("/request/url")),
                    method: str_of(p.pointer("/request/method")),
                    resource_type: str_of(p.get("type")),
                    wall_time: num(p.get("wallTime")),
                    start: num(p.get("timestamp")),
                    status: 0,
                    size: -1,
                    ..Entry::default()
                };
                if self.limit > 0 && self.entries.len() >= self.limit {
                    self.dropped += 1;
                    return;
                }
                self.entries.push(entry);
                self.open.insert(key, self.entries.len() - 1);
            }
            "Network.responseReceived" => {
                if let (Some(&i), Some(response)) = (self.open.get(&key), p.get("response")) {
                    apply_response(&mut self.entries[i], response, num(p.get("timestamp")));
                }
            }
            "Network.loadingFinished" => {
                if let Some(i) = self.open.remove(&key) {
                    self.entries[i].end = Some(num(p.get("timestamp")));
                    self.entries[i].size = num(p.get("encodedDataLength")) as i64;
                }
            }
            "Network.loadingFailed" => {
                if let Some(i) = self.open.remove(&key) {
                    self.entries[i].end = Some(num(p.get("timestamp")));
                    self.entries[i].error = Some(str_of(p.get("errorText")));
                }
            }
            _ => {}
        }
    }

    /// Number of recorded requests.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// A recorder that keeps at most `limit` requests (a step trace's: it runs for a whole
    /// scenario, whatever the page fetches).
    pub fn bounded(limit: usize) -> HarRecorder {
        HarRecorder {
            limit,
            ..HarRecorder::default()
        }
    }

    /// Requests started since the first `from` were recorded (at most `max`, the first kept),
    /// as a step trace lists them, and how many more there were past `max`.
    pub fn trace_requests(
        &self,
        from: usize,
        max: usize,
    ) -> (Vec<a3s_test_driver::trace::TraceRequest>, usize) {
        use a3s_test_driver::trace::{clip_chars, TraceRequest, MAX_URL_CHARS};
        let later = self.entries.get(from..).unwrap_or_default();
        let requests = later
            .iter()
            .take(max)
            .map(|e| TraceRequest {
                method: e.method.clone(),
                url: clip_chars(&without_credentials(&e.url), MAX_URL_CHARS),
                status: (e.status > 0).then(|| u16::try_from(e.status).unwrap_or(0)),
                failed: e.error.clone(),
                resource_type: e.resource_type.clone(),
                duration_ms: e.end.map(|end| ((end - e.start) * 1000.0).max(0.0) as u64),
                received_bytes: (e.size >= 0).then_some(e.size as u64),
            })
            .collect();
        (requests, later.len().saturating_sub(max))
    }

    /// Requests not kept past the cap of a bounded recorder, since it started.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// The HAR 1.2 document.
    pub fn to_har(&self) -> Value {
        let entries: Vec<Value> = self.entries.iter().map(entry_json).collect();
        json!({
            "log": {
                "version": "1.2",
                "creator": { "name": "a3s-test", "version": env!("CARGO_PKG_VERSION") },
                "pages": [],
                "entries": entries,
            }
        })
    }
}

/// `url` without a user name or password in it (`https://user:secret@host/` → `https://host/`):
/// a trace names requests, never the credentials a page put in one.
fn without_credentials(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if !parsed.username().is_empty() || parsed.password().is_some() => {
            let _ = parsed.set_username("");
            let _ = parsed.set_password(None);
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

fn str_of(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or("").to_string()
}

fn apply_response(entry: &mut Entry, response: &Value, at: f64) {
    entry.response_at = Some(at);
    entry.status = response.get("status").and_then(Value::as_i64).unwrap_or(0);
    entry.status_text = str_of(response.get("statusText"));
    entry.mime_type = str_of(response.get("mimeType"));
    entry.http_version = str_of(response.get("protocol"));
    entry.headers = response
        .get("headers")
        .and_then(Value::as_object)
        .map(|h| {
            h.iter()
                .filter(|(name, _)| !SECRET_HEADERS.contains(&name.to_ascii_lowercase().as_str()))
                .map(|(name, value)| (name.clone(), value.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default();
}

fn entry_json(e: &Entry) -> Value {
    let ms = |a: f64, b: Option<f64>| b.map(|b| ((b - a) * 1000.0).max(0.0)).unwrap_or(-1.0);
    let wait = ms(e.start, e.response_at);
    let receive = match (e.response_at, e.end) {
        (Some(r), Some(end)) => ((end - r) * 1000.0).max(0.0),
        _ => 0.0,
    };
    let total = ms(e.start, e.end).max(0.0);
    let query: Vec<Value> = e
        .url
        .split_once('?')
        .map(|(_, q)| {
            q.split('#')
                .next()
                .unwrap_or("")
                .split('&')
                .filter(|kv| !kv.is_empty())
                .map(|kv| {
                    let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                    json!({ "name": k, "value": v })
                })
                .collect()
        })
        .unwrap_or_default();
    let headers: Vec<Value> = e
        .headers
        .iter()
        .map(|(n, v)| json!({ "name": n, "value": v }))
        .collect();
    let mut entry = json!({
        "startedDateTime": rfc3339(e.wall_time),
        "time": total,
        "request": {
            "method": e.method,
            "url": e.url,
            "httpVersion": if e.http_version.is_empty() { "unknown" } else { &e.http_version },
            "cookies": [],
            "headers": [],
            "queryString": query,
            "headersSize": -1,
            "bodySize": -1,
        },
        "response": {
            "status": e.status,
            "statusText": e.status_text,
            "httpVersion": if e.http_version.is_empty() { "unknown" } else { &e.http_version },
            "cookies": [],
            "headers": headers,
            "content": { "size": e.size.max(0), "mimeType": e.mime_type },
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": e.size,
        },
        "cache": {},
        "timings": { "send": 0, "wait": wait.max(0.0), "receive": receive },
        "_resourceType": e.resource_type,
    });
    if let Some(error) = &e.error {
        entry["_error"] = json!(error);
    }
    entry
}

/// HAR's `startedDateTime` shape: RFC 3339 in UTC with milliseconds.
const HAR_TIME: &[time::format_description::BorrowedFormatItem<'static>] = time::macros::format_description!(
    "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
);

/// Seconds since the Unix epoch (CDP's `wallTime`, fractional) as a HAR timestamp, rounded to
/// the millisecond; the `time` crate does the calendar. An instant out of its range is the epoch.
pub(crate) fn rfc3339(epoch_seconds: f64) -> String {
    let since_epoch = time::Duration::milliseconds((epoch_seconds * 1000.0).round() as i64);
    let at = time::OffsetDateTime::UNIX_EPOCH
        .checked_add(since_epoch)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    at.format(HAR_TIME).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_formats_known_instants() {
        for (wall_time, text) in [
            (0.0, "1970-01-01T00:00:00.000Z"),
            (951_782_400.5, "2000-02-29T00:00:00.500Z"),
            (1_700_000_000.000_4, "2023-11-14T22:13:20.000Z"),
            (f64::MAX, "1970-01-01T00:00:00.000Z"),
        ] {
            assert_eq!(rfc3339(wall_time), text, "{wall_time}");
        }
    }

    #[test]
    fn a_trace_names_requests_without_their_credentials() {
        let mut trace = HarRecorder::bounded(1);
        for (id, url) in [
            ("1", "https://ada:s3cret@h.test/a?q=1"),
            ("2", "https://h.test/b"),
        ] {
            trace.record(
                "Network.requestWillBeSent",
                "t",
                &json!({"requestId": id, "request": {"url": url, "method": "GET"},
                        "timestamp": 1.0, "wallTime": 1_700_000_000.0, "type": "Fetch"}),
            );
        }
        let (requests, more) = trace.trace_requests(0, 10);
        assert_eq!(requests.len(), 1, "the cap keeps the first");
        assert_eq!((more, trace.dropped()), (0, 1), "and counts the rest");
        assert_eq!(requests[0].url, "https://h.test/a?q=1");
        assert_eq!(requests[0].status, None);
        assert_eq!(trace.trace_requests(1, 10).0, vec![]);
    }

    #[test]
    fn har_keeps_no_secret_headers() {
        let mut har = HarRecorder::default();
        har.record(
            "Network.requestWillBeSent",
            "t",
            &json!({"requestId": "1", "request": {"url": "http://h/a?x=1", "method": "GET",
                    "headers": {"Cookie": "s=1"}}, "timestamp": 1.0, "wallTime": 1_700_000_000.0}),
        );
        har.record(
            "Network.responseReceived",
            "t",
            &json!({"requestId": "1", "timestamp": 1.1, "response": {"status": 200,
                    "statusText": "OK", "mimeType": "text/html", "protocol": "http/1.1",
                    "headers": {"Set-Cookie": "s=2", "Content-Type": "text/html"}}}),
        );
        har.record(
            "Network.loadingFinished",
            "t",
            &json!({"requestId": "1", "timestamp": 1.2, "encodedDataLength": 42}),
        );
        let doc = har.to_har();
        let text = doc.to_string();
        assert!(!text.contains("s=1") && !text.contains("s=2"), "{text}");
        let entry = &doc["log"]["entries"][0];
        assert_eq!(entry["response"]["status"], 200);
        assert_eq!(entry["request"]["queryString"][0]["name"], "x");
        assert_eq!(entry["response"]["bodySize"], 42);
    }
}
