//! `route_from_har`: a recorded HAR file read into an index of answers.
//!
//! The file is read when the step runs (bounded to [`MAX_HAR_BYTES`]) and parsed into typed HAR
//! 1.2 structures — only the fields replay needs; anything that is not JSON, or JSON without
//! `log.entries`, is `test.run.har_invalid` naming the file and the parser's line and column, and
//! no route is set. The file is never written. A request is answered by the first entry with
//! the same method and URL (and, when the entry recorded a body, the same body); the entry's
//! status, headers (less those describing an encoding or length the replayed body no longer
//! has) and `content.text` (base64-decoded when `encoding = "base64"`) make the answer.

use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::StepFailure;
use base64::Engine;
use serde::Deserialize;
use std::path::Path;

/// Largest HAR file read.
pub(crate) const MAX_HAR_BYTES: u64 = 64 << 20;

#[derive(Deserialize)]
struct HarFile {
    log: HarLog,
}

#[derive(Deserialize)]
struct HarLog {
    entries: Vec<HarEntry>,
}

#[derive(Deserialize)]
struct HarEntry {
    request: HarRequest,
    response: HarResponse,
}

#[derive(Deserialize)]
struct HarRequest {
    method: String,
    url: String,
    #[serde(rename = "postData")]
    post_data: Option<HarPostData>,
}

#[derive(Deserialize)]
struct HarPostData {
    #[serde(default)]
    text: Option<String>,
}

#[derive(Deserialize)]
struct HarResponse {
    status: u16,
    #[serde(default)]
    headers: Vec<HarHeader>,
    #[serde(default)]
    content: Option<HarContent>,
}

#[derive(Deserialize)]
struct HarHeader {
    name: String,
    value: String,
}

#[derive(Deserialize)]
struct HarContent {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(rename = "mimeType", default)]
    mime_type: Option<String>,
}

/// Response headers not replayed: the body is replayed decoded and whole.
const DROPPED_HEADERS: &[&str] = &["content-encoding", "content-length", "transfer-encoding"];

/// One recorded answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Recorded {
    method: String,
    url: String,
    post_data: Option<String>,
    /// The status.
    pub status: u16,
    /// The headers to send.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

/// A HAR file's answers, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HarArchive {
    entries: Vec<Recorded>,
}

impl HarArchive {
    /// Read and parse `path` (shown as `shown` in messages).
    pub(crate) fn load(path: &Path, shown: &str) -> Result<HarArchive, StepFailure> {
        let invalid = |m: String| StepFailure::new(FailureCode::HarInvalid, m);
        let size = std::fs::metadata(path)
            .map_err(|e| invalid(format!("cannot read the HAR file {shown}: {e}")))?
            .len();
        if size > MAX_HAR_BYTES {
            return Err(invalid(format!(
                "the HAR file {shown} has {size} bytes; at most {MAX_HAR_BYTES} are read"
            )));
        }
        let bytes = std::fs::read(path)
            .map_err(|e| invalid(format!("cannot read the HAR file {shown}: {e}")))?;
        HarArchive::parse(&bytes).map_err(|why| invalid(format!("{shown} {why}")))
    }

    /// Parse HAR bytes; the error says what is wrong, for a message that names the file first.
    pub(crate) fn parse(bytes: &[u8]) -> Result<HarArchive, String> {
        serde_json::from_slice::<serde::de::IgnoredAny>(bytes).map_err(|e| {
            format!(
                "is not JSON (line {}, column {}): {e}",
                e.line(),
                e.column()
            )
        })?;
        let file: HarFile = serde_json::from_slice(bytes).map_err(|e| {
            format!(
                "is JSON but not a HAR with `log.entries` of requests and responses (line {}, column {}): {e}",
                e.line(),
                e.column()
            )
        })?;
        let mut entries = Vec::with_capacity(file.log.entries.len());
        for (i, entry) in file.log.entries.into_iter().enumerate() {
            let content = entry.response.content;
            let text = content
                .as_ref()
                .and_then(|c| c.text.clone())
                .unwrap_or_default();
            let base64 = content
                .as_ref()
                .and_then(|c| c.encoding.as_deref())
                .is_some_and(|e| e.eq_ignore_ascii_case("base64"));
            let body = if base64 {
                base64::engine::general_purpose::STANDARD
                    .decode(text.as_bytes())
                    .map_err(|e| format!("entry {i}: the base64 body does not decode: {e}"))?
            } else {
                text.into_bytes()
            };
            let mut headers: Vec<(String, String)> = entry
                .response
                .headers
                .into_iter()
                .filter(|h| !DROPPED_HEADERS.contains(&h.name.to_ascii_lowercase().as_str()))
                .filter(|h| !h.name.starts_with(':'))
                .map(|h| (h.name, h.value))
                .collect();
            let typed = headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
            if let (false, Some(mime)) = (typed, content.and_then(|c| c.mime_type)) {
                if !mime.is_empty() {
                    headers.push(("Content-Type".to_string(), mime));
                }
            }
            entries.push(Recorded {
                method: entry.request.method.to_ascii_uppercase(),
                url: entry.request.url,
                post_data: entry.request.post_data.and_then(|p| p.text),
                status: entry.response.status,
                headers,
                body,
            });
        }
        Ok(HarArchive { entries })
    }

    /// The answer recorded for `method url` (with `post_data`), if any.
    pub(crate) fn find(
        &self,
        method: &str,
        url: &str,
        post_data: Option<&str>,
    ) -> Option<&Recorded> {
        let same = |e: &&Recorded| e.method.eq_ignore_ascii_case(method) && e.url == url;
        self.entries
            .iter()
            .filter(same)
            .find(|e| e.post_data.is_none() || e.post_data.as_deref() == post_data)
    }

    /// How many answers it holds.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HAR: &str = r#"{"log":{"version":"1.2","entries":[
        {"request":{"method":"GET","url":"http://h/api/cart","headers":[]},
         "response":{"status":200,"headers":[{"name":"Content-Encoding","value":"gzip"},{"name":"X-Total","value":"2"}],
                     "content":{"mimeType":"application/json","text":"[1,2]"}}},
        {"request":{"method":"POST","url":"http://h/api/cart","postData":{"text":"{\"id\":3}"}},
         "response":{"status":201,"headers":[],"content":{"text":"Y3JlYXRlZA==","encoding":"base64"}}}
    ]}}"#;

    #[test]
    fn entries_answer_by_method_url_and_body() {
        let har = HarArchive::parse(HAR.as_bytes()).unwrap();
        assert_eq!(har.len(), 2);
        let get = har.find("GET", "http://h/api/cart", None).unwrap();
        assert_eq!(get.body, b"[1,2]");
        assert_eq!(
            get.headers,
            vec![
                ("X-Total".to_string(), "2".to_string()),
                ("Content-Type".to_string(), "application/json".to_string())
            ]
        );
        let post = har
            .find("post", "http://h/api/cart", Some("{\"id\":3}"))
            .unwrap();
        assert_eq!((post.status, post.body.as_slice()), (201, &b"created"[..]));
        assert!(har.find("POST", "http://h/api/cart", Some("{}")).is_none());
        assert!(har.find("GET", "http://h/api/other", None).is_none());
    }

    #[test]
    fn not_json_and_not_har_are_told_apart() {
        let e = HarArchive::parse(b"<html>").unwrap_err();
        assert!(e.starts_with("is not JSON (line 1, column 1)"), "{e}");
        let e = HarArchive::parse(br#"{"log":{"pages":[]}}"#).unwrap_err();
        assert!(e.starts_with("is JSON but not a HAR"), "{e}");
    }
}
