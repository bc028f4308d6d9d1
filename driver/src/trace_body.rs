//! Which request and response bodies a step trace may keep, and how it says why it kept none.
//!
//! A body is evidence a person debugging a failed step wants ("what did the script post, what
//! did the API answer?"), and also the likeliest place for a secret: a token in a JSON answer, a
//! password in a posted form. So a body is kept only when every part of one rule holds — it
//! belongs to one of the page's own `fetch`/XHR exchanges, it is text by its media type, it is at most [`MAX_BODY_BYTES`], and its exchange carries no
//! credentials — and it is kept whole or not at all (never cut, so a reader never mistakes a
//! prefix for the body). The rule is pure, here in the contract, so every surface that records
//! requests applies the same one and its unit tests need no browser.

use crate::trace::TraceRequest;
use serde::{Deserialize, Serialize};

/// Largest body kept, in bytes: a JSON answer or a posted form fits; a page or a bundle does not.
pub const MAX_BODY_BYTES: u64 = 8 * 1024;

/// Most body bytes one step's capture keeps, all requests together (a step that fetched a
/// hundred small answers must not grow a trace past its budget); later bodies are omitted.
pub const MAX_STEP_BODY_BYTES: u64 = 64 * 1024;

/// One request's or response's body in a trace: its text, or why it was left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceBody {
    /// The media type it was judged by, without parameters (`application/json`); empty when the
    /// exchange named none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mime_type: String,
    /// Its size in bytes, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// The whole body (untrusted page text), when the rule let it be kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Why it was left out, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_omitted: Option<BodyOmitted>,
}

impl TraceBody {
    /// A body kept whole — unless its text names a credential ([`names_a_credential`]):
    /// then it is left out as [`BodyOmitted::Credentials`], its size recorded.
    pub fn kept(mime_type: &str, text: String) -> TraceBody {
        if names_a_credential(&text) {
            return TraceBody::omitted(
                mime_type,
                Some(text.len() as u64),
                BodyOmitted::Credentials,
            );
        }
        TraceBody {
            mime_type: essence(mime_type),
            bytes: Some(text.len() as u64),
            text: Some(text),
            body_omitted: None,
        }
    }

    /// A body left out for `why`; `bytes` its size when known.
    pub fn omitted(mime_type: &str, bytes: Option<u64>, why: BodyOmitted) -> TraceBody {
        TraceBody {
            mime_type: essence(mime_type),
            bytes,
            text: None,
            body_omitted: Some(why),
        }
    }
}

/// Why a body is not in the trace. The names are what a person reads in the trace and report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BodyOmitted {
    /// Larger than [`MAX_BODY_BYTES`] (its size is recorded).
    #[serde(rename = "over 8 KiB")]
    OverLimit,
    /// The step's bodies already fill [`MAX_STEP_BODY_BYTES`].
    #[serde(rename = "over the step's 64 KiB of bodies")]
    OverStepBudget,
    /// The scenario's bodies already fill the recorder's per-scenario budget (1 MiB), so a
    /// trace of many steps stays small enough for the report to read.
    #[serde(rename = "over the scenario's 1 MiB of bodies")]
    OverScenarioBudget,
    /// The exchange carries credentials: a `Cookie`, `Authorization` or other credential-like
    /// header either way, a `Set-Cookie` answer, a user name in the URL, a body that names a
    /// credential — or the browser had not reported all of its headers (nor those of every hop
    /// of a redirect), so it might.
    #[serde(rename = "credentials")]
    Credentials,
    /// The page showed a private field (a password, a card number, `data-a3s-private` …,
    /// `docs/privacy.md`) when the step ended: what it sends may be that field's value, typed
    /// literally rather than through `env("NAME")`, so no body of the step is kept.
    #[serde(rename = "private page")]
    PrivatePage,
    /// Not text by its media type (an image, a binary download, or an answer the browser
    /// could only hand back as base64).
    #[serde(rename = "not text")]
    NotText,
    /// The browser no longer holds it (Chromium evicts bodies under memory pressure, and forgets
    /// those of a closed tab).
    #[serde(rename = "not kept by the browser")]
    NotKept,
}

impl BodyOmitted {
    /// The reason as the trace's JSON names it (its serde name), for the report to print.
    pub fn as_str(self) -> &'static str {
        match self {
            BodyOmitted::OverLimit => "over 8 KiB",
            BodyOmitted::OverStepBudget => "over the step's 64 KiB of bodies",
            BodyOmitted::OverScenarioBudget => "over the scenario's 1 MiB of bodies",
            BodyOmitted::Credentials => "credentials",
            BodyOmitted::PrivatePage => "private page",
            BodyOmitted::NotText => "not text",
            BodyOmitted::NotKept => "not kept by the browser",
        }
    }
}

/// Whether a request of CDP resource type `resource_type` has bodies a trace records: the
/// page's own exchanges (`fetch`, `XMLHttpRequest`) only. A document, script or stylesheet is
/// the page itself, not an answer a step waited for, and holds whatever state the server inlined
/// into it (a stored value, a token); a form that navigates posts every field of the form,
/// private ones included.
pub fn records_bodies_of(resource_type: &str) -> bool {
    matches!(resource_type, "Fetch" | "XHR")
}

/// Whether a body with media type `mime` is text a person can read in a report: `text/*`, JSON,
/// XML (and every `+json`/`+xml` type, SVG included) and URL-encoded forms.
pub fn is_textual(mime: &str) -> bool {
    let mime = essence(mime);
    let Some((kind, sub)) = mime.split_once('/') else {
        return false;
    };
    kind == "text"
        || sub.ends_with("+json")
        || sub.ends_with("+xml")
        || (kind == "application" && matches!(sub, "json" | "xml" | "x-www-form-urlencoded"))
}

/// Parts of a header or field name that say it holds a credential (`X-API-Key`,
/// `X-Auth-Token`, `X-CSRF-Token`, `password`, `access_token`, `client_secret` …), compared
/// without case. Broad on purpose: a false alarm costs a body in a trace, a miss leaks a secret.
const CREDENTIAL_WORDS: [&str; 13] = [
    "auth", "token", "secret", "password", "passwd", "passcode", "api-key", "api_key", "apikey",
    "session", "csrf", "xsrf", "bearer",
];

/// Whether `text` — a header's name, or a whole body — contains a [`CREDENTIAL_WORDS`] part.
/// A body is judged on its whole text without parsing (a JSON key `"password"`, a form field
/// `access_token=`, a `Bearer` value, an `api_key` in XML), so no format hides one; a body that
/// merely mentions a token is left out too.
pub fn names_a_credential(text: &str) -> bool {
    // Compared without case and without a lowered copy: header names are judged on every
    // network event of a traced or recorded page.
    let text = text.as_bytes();
    CREDENTIAL_WORDS.iter().any(|w| {
        text.windows(w.len())
            .any(|part| part.eq_ignore_ascii_case(w.as_bytes()))
    })
}

/// Whether a request header named `name` carries credentials: `Cookie`, and every name with a
/// credential-like part (`Authorization`, `Proxy-Authorization`, `X-API-Key`, `X-CSRF-Token` …).
pub fn is_credential_request_header(name: &str) -> bool {
    name.eq_ignore_ascii_case("cookie") || names_a_credential(name)
}

/// Whether a response header named `name` carries credentials: `Set-Cookie` and every name
/// with a credential-like part (an `X-Auth-Token` handed back).
pub fn is_credential_response_header(name: &str) -> bool {
    ["set-cookie", "set-cookie2"]
        .iter()
        .any(|h| name.eq_ignore_ascii_case(h))
        || names_a_credential(name)
}

/// Whether `url` has a user name or password in it (`https://ada:pw@host/`).
pub fn url_has_userinfo(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| !u.username().is_empty() || u.password().is_some())
}

/// The rule before the body is read: `Ok` when a body of media type `mime`, of `bytes` bytes
/// when known, in an exchange that does (`credentials`) or does not carry credentials may be
/// kept. Credentials are judged first: such a body is never read at all.
pub fn may_keep(mime: &str, bytes: Option<u64>, credentials: bool) -> Result<(), BodyOmitted> {
    if credentials {
        return Err(BodyOmitted::Credentials);
    }
    if !is_textual(mime) {
        return Err(BodyOmitted::NotText);
    }
    match bytes {
        Some(n) if n > MAX_BODY_BYTES => Err(BodyOmitted::OverLimit),
        _ => Ok(()),
    }
}

/// Keep at most [`MAX_STEP_BODY_BYTES`] of body text across one step's `requests`, in their
/// order (each request's sent body before its answer's): a later body that would pass it is
/// omitted with its size.
pub fn fit_step_budget(requests: &mut [TraceRequest]) {
    keep_within(
        requests,
        &mut 0,
        MAX_STEP_BODY_BYTES,
        BodyOmitted::OverStepBudget,
    );
}

/// Keep the body text of `requests` that fits `limit` bytes beside the `used` bytes kept
/// before (a step's, or a whole scenario's), in order, each request's sent body before its
/// answer's; a body that would pass it is left out for `why`, its size kept, and a later
/// smaller one that still fits is kept. Returns how many were left out. The one rule behind
/// every body budget (the step's here, the scenario's in the runner's recorder).
pub fn keep_within(
    requests: &mut [TraceRequest],
    used: &mut u64,
    limit: u64,
    why: BodyOmitted,
) -> usize {
    let mut omitted = 0;
    for body in requests
        .iter_mut()
        .flat_map(|r| [&mut r.request_body, &mut r.response_body])
        .flatten()
    {
        let Some(text) = &body.text else { continue };
        let size = text.len() as u64;
        if *used + size > limit {
            body.text = None;
            body.body_omitted = Some(why);
            omitted += 1;
        } else {
            *used += size;
        }
    }
    omitted
}

/// Leave out every body of `requests` for `why` (sizes kept): a rule that condemns the whole
/// step, such as a private field on the page.
pub fn withhold_all(requests: &mut [TraceRequest], why: BodyOmitted) {
    for request in requests {
        for body in [&mut request.request_body, &mut request.response_body]
            .into_iter()
            .flatten()
        {
            body.text = None;
            body.body_omitted = Some(why);
        }
    }
}

/// `mime` lower-cased, without parameters (`Application/JSON; charset=utf-8` → `application/json`).
fn essence(mime: &str) -> String {
    mime.split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reason_prints_as_its_json_names_it() {
        use BodyOmitted as B;
        for why in [
            B::OverLimit,
            B::OverStepBudget,
            B::OverScenarioBudget,
            B::Credentials,
            B::PrivatePage,
            B::NotText,
            B::NotKept,
        ] {
            assert_eq!(serde_json::to_value(why).unwrap(), why.as_str());
        }
    }

    #[test]
    fn credential_like_names_and_texts_are_never_kept() {
        for name in [
            "Authorization",
            "Cookie",
            "X-API-Key",
            "x-auth-token",
            "X-CSRF-Token",
        ] {
            assert!(is_credential_request_header(name), "{name}");
        }
        for name in ["Accept", "Content-Type", "X-Request-Id"] {
            assert!(!is_credential_request_header(name), "{name}");
        }
        assert!(is_credential_response_header("Set-Cookie"));
        assert!(is_credential_response_header("X-Auth-Token"));
        assert!(!is_credential_response_header("Content-Length"));
        for text in [
            r#"{"email":"ada@example.test","password":"hunter2"}"#,
            r#"{"access_token":"abc"}"#,
            "user=ada&PassWord=x",
            "<r><api_key>k</api_key></r>",
            "Bearer abc",
        ] {
            let body = TraceBody::kept("application/json", text.into());
            assert_eq!(body.body_omitted, Some(BodyOmitted::Credentials), "{text}");
            assert_eq!(body.text, None);
            assert_eq!(body.bytes, Some(text.len() as u64));
        }
        let fine = TraceBody::kept("application/json", r#"{"item":"tea","qty":2}"#.into());
        assert_eq!(fine.text.as_deref(), Some(r#"{"item":"tea","qty":2}"#));
    }

    #[test]
    fn text_json_xml_and_forms_are_textual_by_their_media_type() {
        for mime in [
            "text/plain",
            "text/html; charset=utf-8",
            "application/json",
            "Application/JSON;charset=UTF-8",
            "application/problem+json",
            "application/xml",
            "image/svg+xml",
            "application/x-www-form-urlencoded",
        ] {
            assert!(is_textual(mime), "{mime}");
        }
        for mime in [
            "",
            "image/png",
            "application/octet-stream",
            "multipart/form-data; boundary=x",
            "application/jsonp",
            "json",
        ] {
            assert!(!is_textual(mime), "{mime}");
        }
    }

    #[test]
    fn only_the_pages_own_exchanges_have_bodies_recorded() {
        assert!(records_bodies_of("Fetch") && records_bodies_of("XHR"));
        for kind in ["Document", "Script", "Stylesheet", "Image", "Other", ""] {
            assert!(!records_bodies_of(kind), "{kind}");
        }
    }

    #[test]
    fn credential_headers_are_named_in_any_case() {
        for name in ["Authorization", "proxy-authorization", "COOKIE"] {
            assert!(is_credential_request_header(name), "{name}");
        }
        assert!(!is_credential_request_header("Content-Type"));
        assert!(is_credential_response_header("Set-Cookie"));
        assert!(!is_credential_response_header("Cookie-Policy"));
        assert!(url_has_userinfo("https://ada:pw@h.test/"));
        assert!(url_has_userinfo("https://ada@h.test/"));
        assert!(!url_has_userinfo("https://h.test/a?user=ada@x"));
    }

    #[test]
    fn a_body_is_kept_only_when_textual_small_and_free_of_credentials() {
        let json = "application/json";
        assert_eq!(may_keep(json, Some(20), false), Ok(()));
        assert_eq!(may_keep(json, None, false), Ok(()), "size read later");
        assert_eq!(may_keep(json, Some(MAX_BODY_BYTES), false), Ok(()));
        assert_eq!(
            may_keep(json, Some(MAX_BODY_BYTES + 1), false),
            Err(BodyOmitted::OverLimit)
        );
        assert_eq!(
            may_keep("image/png", Some(20), false),
            Err(BodyOmitted::NotText)
        );
        // Credentials win over every other reason: such a body is never even read.
        assert_eq!(
            may_keep("image/png", Some(1 << 20), true),
            Err(BodyOmitted::Credentials)
        );
    }

    #[test]
    fn a_step_keeps_bodies_until_its_budget_is_spent() {
        let request = |size: usize| TraceRequest {
            method: "POST".into(),
            url: "http://h.test/".into(),
            status: Some(200),
            failed: None,
            resource_type: "Fetch".into(),
            duration_ms: Some(1),
            received_bytes: Some(1),
            request_body: Some(TraceBody::kept("text/plain", "q".repeat(size))),
            response_body: Some(TraceBody::kept("text/plain", "a".repeat(size))),
        };
        let half = (MAX_STEP_BODY_BYTES / 4) as usize;
        let mut requests = vec![request(half), request(half), request(1)];
        fit_step_budget(&mut requests);
        let kept: Vec<[bool; 2]> = requests
            .iter()
            .map(|r| {
                [&r.request_body, &r.response_body].map(|b| b.as_ref().unwrap().text.is_some())
            })
            .collect();
        assert_eq!(kept, [[true, true], [true, true], [false, false]]);
        let cut = requests[2].response_body.as_ref().unwrap();
        assert_eq!(cut.body_omitted, Some(BodyOmitted::OverStepBudget));
        assert_eq!(cut.bytes, Some(1), "its size stays");
    }

    #[test]
    fn a_reason_reads_as_the_trace_names_it() {
        let body = TraceBody::omitted("application/json", Some(9000), BodyOmitted::OverLimit);
        let text = serde_json::to_string(&body).unwrap();
        assert_eq!(
            text,
            r#"{"mime_type":"application/json","bytes":9000,"body_omitted":"over 8 KiB"}"#
        );
        assert_eq!(serde_json::from_str::<TraceBody>(&text).unwrap(), body);
        let kept = TraceBody::kept("text/plain; charset=utf-8", "hi".into());
        assert_eq!(
            serde_json::to_string(&kept).unwrap(),
            r#"{"mime_type":"text/plain","bytes":2,"text":"hi"}"#
        );
    }
}
