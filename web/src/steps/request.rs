//! `request { method url headers body status json_path equals }`: an API check with the browser
//! context's cookies.
//!
//! The call is made by the driver ([`a3s_test_driver::http::send`], bounded in time and body),
//! not by a page: it needs no page on the API's origin and no CORS answer. The cookies are the
//! ones the context would send to that URL (`Network.getCookies` with the URL, which applies
//! domain, path, `Secure` and expiry), so a sign-in through the UI signs the request in. Cookies
//! the answer sets are not stored back into the context. `https://` is sent over the driver's one
//! TLS configuration (`a3s_test_driver::tls`: the machine's trust store, `SSL_CERT_FILE` honoured,
//! names always verified); a certificate the machine does not trust is
//! `test.driver.web.request_failed` with the TLS reason — unless the scenario says
//! `ignore_https_errors = true`, when this step's connection accepts any certificate
//! (`a3s_test_driver::tls::CertificateCheck::Ignored`). Other schemes are refused by name.
//!
//! Header values read from `env("NAME")` and the cookies go to the server only: the step's
//! detail holds the status and body size, a failure quotes at most the first
//! [`QUOTED_BODY`] bytes of the answer's body, and never a header sent.

use super::Outcome;
use crate::cdp::COMMAND_BOUND;
use crate::context::{detail, WebContext};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::http::{self, Outgoing};
use a3s_test_driver::tls::CertificateCheck;
use a3s_test_driver::{vars, StepDetail, StepEnv, StepFailure};
use a3s_test_lang::ir::{ApiRequest, JsonCheck, JsonScalar, PathSegment};
use serde_json::{json, Value};
use tokio::time::Instant;

/// Most bytes of an answer read; a larger one is `request_failed`.
pub(crate) const MAX_BODY: usize = 4 << 20;

/// Most bytes of an answer's body a failure message quotes.
const QUOTED_BODY: usize = 200;

/// `request { … }`.
pub(crate) async fn request(ctx: &mut WebContext, req: &ApiRequest, env: &StepEnv<'_>) -> Outcome {
    let url = resolve_url(&req.url, env.base_url)?;
    let mut headers = Vec::with_capacity(req.headers.len() + 1);
    for h in &req.headers {
        headers.push((
            h.name.clone(),
            vars::resolve(&h.value, env.vars)?.as_str().to_string(),
        ));
    }
    let written_cookie = headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("cookie"));
    if !written_cookie {
        if let Some(cookie) = cookie_header(ctx, &url, env.deadline).await? {
            headers.push(("Cookie".to_string(), cookie));
        }
    }
    let outgoing = Outgoing {
        method: req.method.clone(),
        headers,
        body: req.body.clone().unwrap_or_default().into_bytes(),
        certificates: CertificateCheck::ignoring_if(ctx.ignores_https_errors()),
    };
    let left = env.deadline.saturating_duration_since(Instant::now());
    let bound = env.action_timeout.max(env.expect_timeout).min(left);
    let answer = http::send(&url, &outgoing, bound, MAX_BODY)
        .await
        .map_err(|e| {
            StepFailure::new(
                FailureCode::RequestFailed,
                format!("{} {}: {e}", req.method, shown_url(&url)),
            )
        })?;
    let status_ok = match req.status {
        Some(want) => answer.status == want,
        None => (200..300).contains(&answer.status),
    };
    if !status_ok {
        let want = req
            .status
            .map_or_else(|| "a 2xx status".to_string(), |s| format!("status {s}"));
        return Err(StepFailure::new(
            FailureCode::ApiMismatch,
            format!(
                "{} {} answered {}, expected {want}; body: {}",
                req.method,
                shown_url(&url),
                answer.status,
                quoted(&answer.body)
            ),
        ));
    }
    if let Some(check) = &req.json {
        check_json(check, &answer.body)?;
    }
    Ok(detail(StepDetail::ApiAnswered {
        api_status: answer.status,
        body_bytes: answer.body.len(),
    }))
}

/// `url` as written, or a path joined to `base_url`; only `http://` is sent.
fn resolve_url(written: &str, base: Option<&str>) -> Result<url::Url, StepFailure> {
    let failed = |m: String| StepFailure::new(FailureCode::RequestFailed, m);
    let url = match (written.starts_with('/'), base) {
        (true, Some(base)) => url::Url::parse(base).and_then(|b| b.join(written)),
        (true, None) => {
            return Err(failed(format!(
                "\"{written}\" is a path, and the suite has no `base_url` to resolve it against"
            )))
        }
        (false, _) => url::Url::parse(written),
    }
    .map_err(|e| failed(format!("\"{written}\" is not a URL: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(failed(format!(
            "{} is not sent: `request` steps send to http:// and https:// URLs only",
            shown_url(&url)
        )));
    }
    Ok(url)
}

/// The URL without its query (which may hold a token) for messages.
fn shown_url(url: &url::Url) -> String {
    let mut shown = url.clone();
    let had_query = shown.query().is_some();
    shown.set_query(None);
    if had_query {
        format!("{shown}?…")
    } else {
        shown.to_string()
    }
}

/// The `Cookie` header the context would send to `url`, if it holds cookies for it.
async fn cookie_header(
    ctx: &WebContext,
    url: &url::Url,
    deadline: Instant,
) -> Result<Option<String>, StepFailure> {
    let tab = ctx.tab()?;
    let reply = tab
        .session
        .call(
            "Network.getCookies",
            json!({ "urls": [url.as_str()] }),
            COMMAND_BOUND,
            deadline,
        )
        .await?;
    let pairs: Vec<String> = reply
        .get("cookies")
        .and_then(Value::as_array)
        .map(|cookies| {
            cookies
                .iter()
                .filter_map(|c| {
                    let name = c.get("name")?.as_str()?;
                    let value = c.get("value")?.as_str()?;
                    Some(format!("{name}={value}"))
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((!pairs.is_empty()).then(|| pairs.join("; ")))
}

/// The start of a body, for a failure message.
fn quoted(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(QUOTED_BODY)]).to_string();
    let more = if body.len() > QUOTED_BODY { "…" } else { "" };
    format!("{text:?}{more}")
}

/// The JSON answer holds `check.equals` at `check.json_path`.
fn check_json(check: &JsonCheck, body: &[u8]) -> Result<(), StepFailure> {
    let mismatch = |m: String| StepFailure::new(FailureCode::ApiMismatch, m);
    let doc: Value = serde_json::from_slice(body).map_err(|e| {
        mismatch(format!(
            "the answer is not JSON ({e}); body: {}",
            quoted(body)
        ))
    })?;
    let mut at = &doc;
    for (depth, segment) in check.json_path.0.iter().enumerate() {
        let next = match segment {
            PathSegment::Key(k) => at.get(k),
            PathSegment::Index(i) => at.get(i),
        };
        at = next.ok_or_else(|| {
            let reached = a3s_test_lang::ir::JsonPath(check.json_path.0[..depth].to_vec());
            mismatch(format!(
                "{} is not in the answer: {reached} is {}",
                check.json_path,
                kind_of(at)
            ))
        })?;
    }
    if equals(at, &check.equals) {
        return Ok(());
    }
    let mut found = at.to_string();
    if found.len() > QUOTED_BODY {
        found = format!("{}…", found.chars().take(QUOTED_BODY).collect::<String>());
    }
    Err(mismatch(format!(
        "{} is {found}, expected {}",
        check.json_path, check.equals
    )))
}

fn equals(found: &Value, want: &JsonScalar) -> bool {
    match want {
        JsonScalar::Null => found.is_null(),
        JsonScalar::Bool(b) => found.as_bool() == Some(*b),
        JsonScalar::Integer(i) => found.as_i64() == Some(*i),
        JsonScalar::String(s) => found.as_str() == Some(s.as_str()),
    }
}

fn kind_of(v: &Value) -> String {
    match v {
        Value::Object(m) => format!("an object with {} member(s)", m.len()),
        Value::Array(a) => format!("an array of {} item(s)", a.len()),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::ir::JsonPath;

    fn check(path: &str, equals: JsonScalar) -> JsonCheck {
        JsonCheck {
            json_path: JsonPath::parse(path).unwrap(),
            equals,
        }
    }

    #[test]
    fn json_checks_find_values_and_say_where_a_path_ends() {
        let body = br#"{"user":{"name":"Ada","roles":["admin"],"age":36,"tag":null}}"#;
        let s = |t: &str| JsonScalar::String(t.into());
        assert!(check_json(&check("$.user.name", s("Ada")), body).is_ok());
        assert!(check_json(&check("$.user.roles[0]", s("admin")), body).is_ok());
        assert!(check_json(&check("$.user.age", JsonScalar::Integer(36)), body).is_ok());
        assert!(check_json(&check("$.user.tag", JsonScalar::Null), body).is_ok());
        let e = check_json(&check("$.user.name", s("Bob")), body).unwrap_err();
        assert_eq!(e.message, r#"$.user.name is "Ada", expected "Bob""#);
        let e = check_json(&check("$.user.email", s("x")), body).unwrap_err();
        assert_eq!(
            e.message,
            "$.user.email is not in the answer: $.user is an object with 4 member(s)"
        );
        let e = check_json(&check("$", JsonScalar::Null), b"<html>").unwrap_err();
        assert!(
            e.message.starts_with("the answer is not JSON"),
            "{}",
            e.message
        );
    }

    #[test]
    fn urls_resolve_against_the_base_and_only_http_and_https_are_sent() {
        let u = resolve_url("/api/me?t=1", Some("http://127.0.0.1:9/app/")).unwrap();
        assert_eq!(u.as_str(), "http://127.0.0.1:9/api/me?t=1");
        assert_eq!(shown_url(&u), "http://127.0.0.1:9/api/me?…");
        let u = resolve_url("/v1", Some("https://api.example.test/")).unwrap();
        assert_eq!(u.as_str(), "https://api.example.test/v1");
        let e = resolve_url("ftp://example.test/x", None).unwrap_err();
        assert_eq!(e.code, FailureCode::RequestFailed);
        assert!(resolve_url("/x", None).is_err());
    }
}
