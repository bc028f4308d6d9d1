//! `har { operation = "start" | "stop" }`: network traffic as a HAR 1.2 log.
//!
//! Built from the `Network.*` events every tab already listens to. Request headers, cookies and
//! `Set-Cookie`/`Authorization`-like response headers are never recorded (secrets are
//! never serialized); bodies are not captured in a HAR. A step trace's recorder also keeps, per
//! request, what its bodies need (`a3s_test_driver::trace_body`): a posted body small enough to
//! keep, the answer's decoded size, and whether any header of the exchange carries credentials —
//! including the `Cookie` and `Set-Cookie` headers Chromium reports only in its `…ExtraInfo`
//! events, which may come before or after the request's other events.

use a3s_test_driver::trace_body::{self, BodyOmitted, TraceBody};
use base64::Engine;
use serde_json::{json, Value};
use std::collections::HashMap;

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
    /// The tab's target id and the request id: where the answer's body can be asked for.
    tab: String,
    request_id: String,
    /// The request's own `Content-Type`, as the page set it.
    request_mime: String,
    /// The request had a body.
    has_post: bool,
    /// Its size, when the browser sent it with the event.
    post_size: Option<u64>,
    /// The body itself, when it is text and small enough to keep ([`trace_body::may_keep`]).
    post_text: Option<String>,
    /// Decoded answer bytes (`Network.dataReceived`).
    decoded: u64,
    /// A header of the exchange carries credentials (or the URL has a user name).
    credentials: bool,
    /// Chromium's `requestWillBeSentExtraInfo` / `responseReceivedExtraInfo` (the raw headers,
    /// cookies included) came, in either order with the others: until both have, the exchange
    /// may carry credentials.
    extra_seen: [bool; 2],
    /// This hop ended in a redirect: its answer's body is not the request id's.
    redirected: bool,
    /// This hop follows a redirect: its request id's `…ExtraInfo` events cannot be told from the
    /// hop before's (they may come after this hop began), so its headers are never known whole.
    after_redirect: bool,
}

/// An `…ExtraInfo` event that came before its request's `requestWillBeSent`.
#[derive(Debug, Default, Clone, Copy)]
struct EarlyExtra {
    seen: [bool; 2],
    credentials: bool,
}

/// Most early `…ExtraInfo` events held for requests not seen yet (those of requests past a
/// bounded recorder's cap never find theirs).
const MAX_EARLY_EXTRA: usize = 1_000;

/// One answer whose body a step trace may read: request `index` of the step's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BodyJob {
    /// Its place in the step's requests.
    pub index: usize,
    /// The target id of the tab that made it.
    pub tab: String,
    /// The request id to ask `Network.getResponseBody` for.
    pub request_id: String,
    /// The answer's media type.
    pub mime_type: String,
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
    /// Every recorded request's latest hop, for `…ExtraInfo` events that come after it ended.
    by_id: HashMap<(String, String), usize>,
    /// `…ExtraInfo` events whose request is not recorded yet.
    early: HashMap<(String, String), EarlyExtra>,
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
                let after_redirect = p.get("redirectResponse").is_some();
                if let (Some(redirect), Some(&i)) = (p.get("redirectResponse"), self.open.get(&key))
                {
                    apply_response(&mut self.entries[i], redirect, num(p.get("timestamp")));
                    self.entries[i].end = Some(num(p.get("timestamp")));
                    self.entries[i].redirected = true;
                }
                if self.limit > 0 && self.entries.len() >= self.limit {
                    self.dropped += 1;
                    self.early.remove(&key);
                    return;
                }
                let mut entry = Entry {
                    url: str_of(p.pointer("/request/url")),
                    method: str_of(p.pointer("/request/method")),
                    resource_type: str_of(p.get("type")),
                    wall_time: num(p.get("wallTime")),
                    start: num(p.get("timestamp")),
                    status: 0,
                    size: -1,
                    tab: tab.to_string(),
                    request_id: id.to_string(),
                    ..Entry::default()
                };
                apply_request(&mut entry, p);
                entry.after_redirect = after_redirect;
                let early = self.early.remove(&key).unwrap_or_default();
                entry.credentials |= early.credentials;
                entry.extra_seen = early.seen;
                self.entries.push(entry);
                self.open.insert(key.clone(), self.entries.len() - 1);
                self.by_id.insert(key, self.entries.len() - 1);
            }
            "Network.requestWillBeSentExtraInfo" | "Network.responseReceivedExtraInfo" => {
                let (side, credential): (usize, fn(&str) -> bool) =
                    if method == "Network.requestWillBeSentExtraInfo" {
                        (0, trace_body::is_credential_request_header)
                    } else {
                        (1, trace_body::is_credential_response_header)
                    };
                // The raw headers as sent and received: `associatedCookies` also lists cookies
                // the browser did not send (another path), which are no credentials of this one.
                let credentials = names_any(p.get("headers"), credential);
                match self.by_id.get(&key) {
                    Some(&i) => {
                        let entry = &mut self.entries[i];
                        entry.credentials |= credentials;
                        entry.extra_seen[side] = true;
                    }
                    None => {
                        if self.early.len() >= MAX_EARLY_EXTRA {
                            self.early.clear();
                        }
                        let early = self.early.entry(key).or_default();
                        early.seen[side] = true;
                        early.credentials |= credentials;
                    }
                }
            }
            "Network.dataReceived" => {
                if let Some(&i) = self.open.get(&key) {
                    self.entries[i].decoded += num(p.get("dataLength")) as u64;
                }
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
    /// as a step trace lists them, and how many more there were past `max`. With `bodies`, each
    /// carries its request body (or why not) and the answers whose bodies may be read are
    /// returned as jobs; without, nothing about bodies is touched.
    pub fn trace_requests(
        &self,
        from: usize,
        max: usize,
        bodies: bool,
    ) -> (
        Vec<a3s_test_driver::trace::TraceRequest>,
        usize,
        Vec<BodyJob>,
    ) {
        use a3s_test_driver::trace::{clip_chars, TraceRequest, MAX_URL_CHARS};
        let later = self.entries.get(from..).unwrap_or_default();
        let mut jobs = Vec::new();
        let requests = later
            .iter()
            .take(max)
            .enumerate()
            .map(|(index, e)| {
                let mut request = TraceRequest {
                    method: e.method.clone(),
                    url: clip_chars(&without_credentials(&e.url), MAX_URL_CHARS),
                    status: (e.status > 0).then(|| u16::try_from(e.status).unwrap_or(0)),
                    failed: e.error.clone(),
                    resource_type: e.resource_type.clone(),
                    duration_ms: e.end.map(|end| ((end - e.start) * 1000.0).max(0.0) as u64),
                    received_bytes: (e.size >= 0).then_some(e.size as u64),
                    request_body: None,
                    response_body: None,
                };
                if bodies && trace_body::records_bodies_of(&e.resource_type) {
                    request.request_body = e.request_body();
                    match e.response_body() {
                        Some(Ok(())) => jobs.push(BodyJob {
                            index,
                            tab: e.tab.clone(),
                            request_id: e.request_id.clone(),
                            mime_type: e.mime_type.clone(),
                        }),
                        Some(Err(omitted)) => request.response_body = Some(omitted),
                        None => {}
                    }
                }
                request
            })
            .collect();
        (requests, later.len().saturating_sub(max), jobs)
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

impl Entry {
    /// Whether the exchange may carry credentials, as far as the browser has told: unless both
    /// of its raw-header events came (Chromium sends none for an answer from a service worker or
    /// the cache, whose own fetch may have carried cookies) and named none, and it is no later
    /// hop of a redirect, it may. (A user name in the URL counts from `apply_request`.)
    fn credentialed(&self) -> bool {
        self.credentials || self.after_redirect || !(self.extra_seen[0] && self.extra_seen[1])
    }

    /// The posted body as a trace records it; `None` when the request had none.
    fn request_body(&self) -> Option<TraceBody> {
        if !self.has_post {
            return None;
        }
        let mime = &self.request_mime;
        Some(
            match trace_body::may_keep(mime, self.post_size, self.credentialed()) {
                Err(why) => TraceBody::omitted(mime, self.post_size, why),
                Ok(()) => match &self.post_text {
                    Some(text) => TraceBody::kept(mime, text.clone()),
                    None => TraceBody::omitted(mime, self.post_size, BodyOmitted::NotKept),
                },
            },
        )
    }

    /// `Ok` when the answer's body may be read from the browser, else the omission to record;
    /// `None` when no answer finished (or this hop was redirected).
    fn response_body(&self) -> Option<Result<(), TraceBody>> {
        if self.end.is_none() || self.error.is_some() || self.redirected || self.status <= 0 {
            return None;
        }
        let size = (self.decoded > 0).then_some(self.decoded);
        let mime = &self.mime_type;
        Some(
            trace_body::may_keep(mime, size, self.credentialed())
                .map_err(|why| TraceBody::omitted(mime, size, why)),
        )
    }
}

/// Whether a header object names a header `credential` picks.
fn names_any(headers: Option<&Value>, credential: fn(&str) -> bool) -> bool {
    headers
        .and_then(Value::as_object)
        .is_some_and(|h| h.keys().any(|name| credential(name)))
}

/// A request's body and credentials from its `requestWillBeSent`: the body is kept only when
/// the rule may keep it (the size is recorded either way); `postDataEntries` (base64 parts) are
/// read when Chromium sent no `postData` string.
fn apply_request(entry: &mut Entry, p: &Value) {
    let request = p.get("request");
    let headers = request.and_then(|r| r.get("headers"));
    entry.request_mime = headers
        .and_then(Value::as_object)
        .and_then(|h| {
            h.iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
        })
        .and_then(|(_, v)| v.as_str())
        .unwrap_or_default()
        .to_string();
    entry.credentials = names_any(headers, trace_body::is_credential_request_header)
        || trace_body::url_has_userinfo(&entry.url);
    // Only a fetch's or an XHR's body is ever recorded: a document's, a script's or an image's
    // request is not copied or decoded at all.
    if !trace_body::records_bodies_of(&entry.resource_type) {
        return;
    }
    let posted = request
        .and_then(|r| r.get("postData"))
        .and_then(Value::as_str);
    let entries = request
        .and_then(|r| r.get("postDataEntries"))
        .and_then(Value::as_array);
    entry.has_post = posted.is_some()
        || entries.is_some()
        || request.and_then(|r| r.get("hasPostData")) == Some(&Value::Bool(true));
    let text = match (posted, entries) {
        (Some(text), _) => Some(text.to_string()),
        (None, Some(parts)) => parts
            .iter()
            .map(|part| {
                let bytes = part.get("bytes").and_then(Value::as_str)?;
                base64::engine::general_purpose::STANDARD.decode(bytes).ok()
            })
            .collect::<Option<Vec<Vec<u8>>>>()
            .and_then(|parts| String::from_utf8(parts.concat()).ok()),
        (None, None) => None,
    };
    entry.post_size = text.as_ref().map(|t| t.len() as u64);
    entry.post_text = text
        .filter(|t| trace_body::may_keep(&entry.request_mime, Some(t.len() as u64), false).is_ok());
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
    entry.credentials |= names_any(
        response.get("headers"),
        trace_body::is_credential_response_header,
    );
    entry.headers = response
        .get("headers")
        .and_then(Value::as_object)
        .map(|h| {
            h.iter()
                // The trace's rule for credential headers, either way: a HAR keeps none either.
                .filter(|(name, _)| {
                    !trace_body::is_credential_response_header(name)
                        && !trace_body::is_credential_request_header(name)
                })
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
        let (requests, more, _) = trace.trace_requests(0, 10, false);
        assert_eq!(requests.len(), 1, "the cap keeps the first");
        assert_eq!((more, trace.dropped()), (0, 1), "and counts the rest");
        assert_eq!(requests[0].url, "https://h.test/a?q=1");
        assert_eq!(requests[0].status, None);
        assert_eq!(trace.trace_requests(1, 10, false).0, vec![]);
    }

    /// Send request `id` to `url`, posting `{"a":1}` with `headers`, and finish its JSON answer
    /// with `answer_headers`.
    fn exchange(trace: &mut HarRecorder, id: &str, headers: Value, answer_headers: Value) {
        trace.record(
            "Network.requestWillBeSent",
            "t",
            &json!({"requestId": id, "hasExtraInfo": true, "type": "Fetch",
                    "request": {"url": "http://h.test/api", "method": "POST",
                                "headers": headers, "postData": "{\"a\":1}"}}),
        );
        trace.record(
            "Network.responseReceived",
            "t",
            &json!({"requestId": id, "hasExtraInfo": true, "response": {"status": 200,
                    "mimeType": "application/json", "headers": answer_headers}}),
        );
        trace.record(
            "Network.dataReceived",
            "t",
            &json!({"requestId": id, "dataLength": 9}),
        );
        trace.record(
            "Network.loadingFinished",
            "t",
            &json!({"requestId": id, "encodedDataLength": 90}),
        );
    }

    fn extra(trace: &mut HarRecorder, id: &str, side: &str, headers: Value) {
        trace.record(
            &format!("Network.{side}ExtraInfo"),
            "t",
            &json!({"requestId": id, "headers": headers}),
        );
    }

    #[test]
    fn a_trace_keeps_bodies_only_of_exchanges_without_credentials() {
        let json_type = json!({"Content-Type": "application/json"});
        let mut trace = HarRecorder::bounded(10);
        // 1: plain, its raw headers reported before and after its other events.
        extra(
            &mut trace,
            "1",
            "requestWillBeSent",
            json!({"Accept": "*/*"}),
        );
        exchange(&mut trace, "1", json_type.clone(), json!({}));
        extra(&mut trace, "1", "responseReceived", json!({}));
        // 2: a page-set Authorization header.
        exchange(
            &mut trace,
            "2",
            json!({"Content-Type": "application/json", "authorization": "Bearer x"}),
            json!({}),
        );
        extra(&mut trace, "2", "requestWillBeSent", json!({}));
        extra(&mut trace, "2", "responseReceived", json!({}));
        // 3: a cookie only the raw request headers show.
        exchange(&mut trace, "3", json_type.clone(), json!({}));
        extra(
            &mut trace,
            "3",
            "requestWillBeSent",
            json!({"Cookie": "s=1"}),
        );
        extra(&mut trace, "3", "responseReceived", json!({}));
        // 4: a Set-Cookie only the raw response headers show.
        extra(&mut trace, "4", "requestWillBeSent", json!({}));
        exchange(&mut trace, "4", json_type.clone(), json!({}));
        extra(
            &mut trace,
            "4",
            "responseReceived",
            json!({"set-cookie": "s=2"}),
        );
        // 5: its raw response headers not reported yet.
        extra(&mut trace, "5", "requestWillBeSent", json!({}));
        exchange(&mut trace, "5", json_type.clone(), json!({}));
        // 6: no raw headers at all (an answer from a service worker or the cache, whose own
        // fetch may have carried cookies the tab never sees).
        exchange(&mut trace, "6", json_type.clone(), json!({}));
        // 7: a credential-like header other than Authorization.
        exchange(
            &mut trace,
            "7",
            json!({"Content-Type": "application/json", "X-API-Key": "k"}),
            json!({}),
        );
        extra(&mut trace, "7", "requestWillBeSent", json!({}));
        extra(&mut trace, "7", "responseReceived", json!({}));
        // 8: the hop after a redirect, whose raw-header events cannot be told from the first
        // hop's (the first hop's answer is a redirect and keeps no body of its own).
        trace.record(
            "Network.requestWillBeSent",
            "t",
            &json!({"requestId": "8", "type": "Fetch",
                    "request": {"url": "http://h.test/from", "method": "GET", "headers": {}}}),
        );
        trace.record(
            "Network.requestWillBeSent",
            "t",
            &json!({"requestId": "8", "type": "Fetch",
                    "redirectResponse": {"status": 302, "headers": {}},
                    "request": {"url": "http://h.test/to", "method": "GET", "headers": {}}}),
        );
        // The first hop's raw headers, late: they land on the second hop's request id.
        extra(&mut trace, "8", "requestWillBeSent", json!({}));
        extra(&mut trace, "8", "responseReceived", json!({}));
        trace.record(
            "Network.responseReceived",
            "t",
            &json!({"requestId": "8", "response": {"status": 200,
                    "mimeType": "application/json", "headers": {}}}),
        );
        trace.record(
            "Network.loadingFinished",
            "t",
            &json!({"requestId": "8", "encodedDataLength": 90}),
        );

        let (requests, _, jobs) = trace.trace_requests(0, 10, true);
        let sent = requests[0].request_body.as_ref().unwrap();
        assert_eq!(sent.text.as_deref(), Some("{\"a\":1}"));
        assert_eq!(
            jobs,
            [BodyJob {
                index: 0,
                tab: "t".into(),
                request_id: "1".into(),
                mime_type: "application/json".into()
            }],
            "only the first answer is read"
        );
        assert_eq!(requests.len(), 9, "{requests:#?}");
        // The redirect's own answer has no body; the hop after it is judged like the others.
        let (after_redirect, rest) = requests[8..].split_first().unwrap();
        assert!(rest.is_empty());
        let body = after_redirect.response_body.as_ref().unwrap();
        assert_eq!(body.body_omitted, Some(BodyOmitted::Credentials));
        for r in &requests[1..7] {
            for body in [&r.request_body, &r.response_body] {
                let body = body.as_ref().unwrap_or_else(|| panic!("{r:?}"));
                assert_eq!(body.body_omitted, Some(BodyOmitted::Credentials), "{r:?}");
                assert_eq!(body.text, None);
            }
        }
        // Without bodies asked for, nothing about them.
        let (plain, _, jobs) = trace.trace_requests(0, 10, false);
        assert!(jobs.is_empty());
        assert!(plain
            .iter()
            .all(|r| r.request_body.is_none() && r.response_body.is_none()));
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
