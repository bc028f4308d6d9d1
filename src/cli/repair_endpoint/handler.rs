//! One endpoint request: the checks in order (method, origin, content type, length, document),
//! then either one intake of sent findings or the reviewer's actions (reply, accept, dismiss,
//! reopen) as human events. Every refusal is a JSON error with a stable code; a refused document
//! appends nothing, and a refused action appends nothing of its own (and is a final answer).

use super::http::{Conn, Head, ReadError};
use a3s_test_ledger::intake::MAX_DOCUMENT_BYTES;
use a3s_test_ledger::EndpointCode as Rejection;
use a3s_test_ledger::{
    parse_submission, ActionsResponse, Actor, ErrorCode, Finding, HumanAction, Ledger, LedgerError,
    Submission,
};
use serde_json::json;
use std::net::TcpStream;
use std::time::Duration;

/// Who may post: the browser of the app (the standalone endpoint), or the dev server's plugin
/// holding the `a3s-test dev` channel token. Everything after this check is the same path.
pub enum Access {
    /// Requests must carry exactly this (normalized) `Origin` and be same-origin.
    Origin(String),
    /// Requests must carry `Authorization: Bearer <token>` (compared in constant time).
    Bearer(String),
}

/// What every connection needs.
pub struct Config {
    /// The session's ledger.
    pub ledger: Ledger,
    /// Who may post.
    pub access: Access,
    /// The deadline for reading one request.
    pub timeout: Duration,
    /// Called after an intake appended something (`a3s-test dev` records baselines then).
    pub on_intake: Option<Box<dyn Fn() + Send + Sync>>,
    /// Whether each request leaves a JSON line on stderr.
    pub log: RequestLog,
    /// The project's output folder: `GET …/candidates` reads the latest run's result there.
    pub output: a3s_test_fsroot::ConfinedPath,
}

/// What a served request leaves on stderr. `a3s-test repair-endpoint` documents one JSON line
/// per request; `a3s-test dev` serves its channel quietly, because its terminal is for its own
/// lines (a JSON line there between them would only be noise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestLog {
    /// `{"event":"request","status":N}` on stderr.
    JsonLine,
    /// Nothing.
    Quiet,
}

impl RequestLog {
    /// The line to print for a request answered with `status`, if any.
    fn line(self, status: u16) -> Option<String> {
        match self {
            RequestLog::JsonLine => {
                Some(json!({ "event": "request", "status": status }).to_string())
            }
            RequestLog::Quiet => None,
        }
    }
}

fn ledger_status(code: ErrorCode) -> u16 {
    match code {
        ErrorCode::MalformedDocument | ErrorCode::UnsupportedProtocol => 400,
        ErrorCode::InvalidDocument | ErrorCode::InvalidId | ErrorCode::InvalidInput => 422,
        ErrorCode::UnknownFinding => 404,
        ErrorCode::IdempotencyConflict | ErrorCode::InvalidTransition => 409,
        ErrorCode::LedgerFull => 507,
        ErrorCode::LedgerBusy => 503,
        _ => 500,
    }
}

pub(super) fn error_body(code: &str, message: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({ "error": { "code": code, "message": message } }))
        .expect("JSON values serialize")
}

fn reject(conn: Conn, r: Rejection, message: &str) -> u16 {
    let allow: &[(&str, &str)] = if r == Rejection::Method {
        &[("allow", "POST")]
    } else {
        &[]
    };
    conn.respond(r.status(), allow, &error_body(r.as_str(), message));
    r.status()
}

/// Answer an over-capacity connection with 503 and close it.
pub fn refuse_busy(stream: TcpStream) {
    let conn = Conn::new(stream, Duration::from_millis(100));
    reject(conn, Rejection::Busy, "too many connections; retry");
}

/// Serve one connection.
pub fn serve(config: &Config, stream: TcpStream) {
    let mut conn = Conn::new(stream, config.timeout);
    let status = match conn.read_head() {
        Ok(head) => handle(config, conn, &head),
        Err(e) => {
            let (r, msg) = match e {
                ReadError::Timeout => (Rejection::Timeout, "the request did not arrive in time"),
                ReadError::HeadTooLarge => {
                    (Rejection::HeadTooLarge, "the request head is too large")
                }
                ReadError::Malformed(m) => (Rejection::BadRequest, m),
                ReadError::Closed => return,
            };
            reject(conn, r, msg)
        }
    };
    if let Some(line) = config.log.line(status) {
        eprintln!("{line}");
    }
}

fn is_json(content_type: &str) -> bool {
    let mut parts = content_type.split(';');
    let media = parts.next().unwrap_or("").trim();
    if !media.eq_ignore_ascii_case("application/json") {
        return false;
    }
    parts.all(|p| {
        let p = p.trim().to_ascii_lowercase().replace(' ', "");
        p == "charset=utf-8" || p == "charset=\"utf-8\""
    })
}

fn handle(config: &Config, mut conn: Conn, head: &Head) -> u16 {
    if super::candidates::is_candidates_read(head) {
        return super::candidates::serve(config, conn, head);
    }
    if head.method != "POST" {
        return reject(conn, Rejection::Method, "only POST is accepted");
    }
    if let Err((r, message)) = allowed(&config.access, head) {
        return reject(conn, r, message);
    }
    match head.single("content-type") {
        Ok(Some(ct)) if is_json(ct) => {}
        _ => {
            return reject(
                conn,
                Rejection::ContentType,
                "content-type must be application/json",
            )
        }
    }
    if head.all("transfer-encoding").next().is_some() {
        return reject(
            conn,
            Rejection::LengthRequired,
            "send a Content-Length; transfer codings are not accepted",
        );
    }
    let length = match head.single("content-length") {
        Ok(Some(v)) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            v.parse::<u64>().unwrap_or(u64::MAX)
        }
        Ok(None) => {
            return reject(
                conn,
                Rejection::LengthRequired,
                "a Content-Length is required",
            )
        }
        _ => return reject(conn, Rejection::BadRequest, "invalid Content-Length"),
    };
    if length > MAX_DOCUMENT_BYTES as u64 {
        return reject(
            conn,
            Rejection::TooLarge,
            &format!("the body is larger than {MAX_DOCUMENT_BYTES} bytes"),
        );
    }
    if head
        .single("expect")
        .ok()
        .flatten()
        .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        conn.send_continue();
    }
    let body = match conn.read_body(length as usize) {
        Ok(b) => b,
        Err(ReadError::Timeout) => {
            return reject(conn, Rejection::Timeout, "the body did not arrive in time")
        }
        Err(_) => return 0,
    };
    let (status, body) = match parse_submission(&body) {
        Ok(Submission::Repairs(findings)) => intake(config, findings),
        Ok(Submission::Actions(actions)) => actions_reply(config, &actions),
        Err(e) => (
            ledger_status(e.code),
            error_body(e.code.as_str(), &e.message),
        ),
    };
    conn.respond(status, &[], &body);
    status
}

/// The access check of [`Access`], before anything else of the request is looked at.
pub(super) fn allowed(access: &Access, head: &Head) -> Result<(), (Rejection, &'static str)> {
    match access {
        Access::Origin(expected) => {
            let origin = head
                .single("origin")
                .map_err(|_| (Rejection::Origin, "more than one Origin header"))?;
            if origin != Some(expected.as_str()) {
                return Err((
                    Rejection::Origin,
                    "the Origin header must be the app's origin",
                ));
            }
            if let Ok(Some(site)) = head.single("sec-fetch-site") {
                if site != "same-origin" {
                    return Err((Rejection::Origin, "only same-origin requests are accepted"));
                }
            }
            Ok(())
        }
        Access::Bearer(token) => {
            let sent = head.single("authorization").ok().flatten().unwrap_or("");
            let given = sent.strip_prefix("Bearer ").unwrap_or("");
            if constant_time_eq(given.as_bytes(), token.as_bytes()) {
                Ok(())
            } else {
                Err((
                    Rejection::Unauthorized,
                    "send Authorization: Bearer with this session's channel token",
                ))
            }
        }
    }
}

/// Equal bytes, in time that depends only on the lengths (a token's length is not secret).
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn intake(config: &Config, findings: Vec<Finding>) -> (u16, Vec<u8>) {
    match config.ledger.intake(findings, Actor::PageScript) {
        Ok(report) => {
            if let Some(hook) = config
                .on_intake
                .as_ref()
                .filter(|_| !report.accepted.is_empty())
            {
                hook();
            }
            let body = serde_json::to_vec(&json!({
                "protocol": a3s_test_ledger::REPAIR_PROTOCOL,
                "accepted": report.accepted,
                "duplicates": report.duplicates,
                "held": report.held,
            }))
            .expect("JSON values serialize");
            (200, body)
        }
        Err(LedgerError { code, message }) => {
            (ledger_status(code), error_body(code.as_str(), &message))
        }
    }
}

/// Human actions, each applied on its own, answered per item ([`ActionsResponse`]). 200 when
/// every action got a final answer — applied, duplicate, or refused by the state machine or
/// validation (a refusal is an answer: resending would be refused again). Only when an item could
/// not be judged (ledger busy, full, unreadable, I/O) is the answer the first such failure's
/// status, so the page keeps exactly those items and sends them again.
fn actions_reply(config: &Config, actions: &[HumanAction]) -> (u16, Vec<u8>) {
    let response = ActionsResponse::new(config.ledger.apply_human_actions(actions));
    let status = response
        .error
        .as_ref()
        .map_or(200, |e| ledger_status(e.code));
    (
        status,
        serde_json::to_vec(&response).expect("JSON values serialize"),
    )
}

#[cfg(test)]
mod tests {
    use super::RequestLog;

    #[test]
    fn the_endpoint_logs_each_request_and_the_dev_channel_stays_quiet() {
        assert_eq!(
            RequestLog::JsonLine.line(200).as_deref(),
            Some(r#"{"event":"request","status":200}"#)
        );
        assert_eq!(RequestLog::Quiet.line(200), None);
    }
}
