//! Validation of an `a3s.test.repair/1` document — the body the Review Overlay POSTs to its
//! `repairEndpoint`, or a file given to `agent repair-import`.
//!
//! The document is hostile until proven otherwise: it is bounded in size and count, every id is
//! checked, every text is bounded, and the page context must declare itself untrusted. Nothing in
//! it can name a path, a command or a credential for A3S Test to use; it only becomes data in
//! the ledger.

use crate::error::{ErrorCode, LedgerError};
use crate::id::FindingId;
use crate::record::{Finding, REPAIR_PROTOCOL};
use crate::status::RepairStatus;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::HashSet;

/// The largest document accepted (1 MiB).
pub const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;
/// The most findings in one document.
pub const MAX_FINDINGS: usize = 100;
/// The longest instruction, in characters: a reviewer's request is a few sentences; the bound
/// keeps one finding (and every inbox listing that carries it) small.
pub const MAX_INSTRUCTION_CHARS: usize = 8192;
pub use crate::criterion::{MAX_CRITERIA, MAX_CRITERION_CHARS};
/// The most node ids in a target.
pub const MAX_NODE_IDS: usize = 64;
/// The longest node id, in bytes.
pub const MAX_NODE_ID_BYTES: usize = 128;
/// The longest selected text of a text target, in characters: what a person selected to point
/// at, bounded like an instruction so a finding stays small.
pub const MAX_TARGET_TEXT_CHARS: usize = 8192;
/// The most declared relations.
pub const MAX_RELATIONS: usize = 16;
/// The most mirrored events a page copy may carry (page bookkeeping, not stored).
pub const MAX_PAGE_EVENTS: usize = 64;

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default)]
    protocol: Option<serde_json::Value>,
    #[serde(default, borrow)]
    repairs: Option<&'a RawValue>,
    #[serde(default, borrow)]
    actions: Option<&'a RawValue>,
}

/// What an `a3s.test.repair/1` document carries: sent findings, or human actions on them.
#[derive(Debug)]
pub enum Submission {
    /// `{"repairs":[…]}`, in the document's order.
    Repairs(Vec<Finding>),
    /// `{"actions":[…]}`, in the document's order.
    Actions(Vec<crate::actions::HumanAction>),
}

pub(crate) fn invalid(index: usize, msg: impl std::fmt::Display) -> LedgerError {
    LedgerError::new(
        ErrorCode::InvalidDocument,
        format!("repairs[{index}]: {msg}"),
    )
}

/// Parse and validate a document that must carry findings (`repair-import`).
pub fn parse_document(bytes: &[u8]) -> Result<Vec<Finding>, LedgerError> {
    match parse_submission(bytes)? {
        Submission::Repairs(findings) => Ok(findings),
        Submission::Actions(_) => Err(LedgerError::new(
            ErrorCode::InvalidDocument,
            "this document carries `actions`; only `repairs` are accepted here",
        )),
    }
}

/// Parse and validate a document carrying either findings or human actions (the endpoint).
pub fn parse_submission(bytes: &[u8]) -> Result<Submission, LedgerError> {
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(LedgerError::new(
            ErrorCode::InvalidDocument,
            format!(
                "the document has {} bytes; the limit is {MAX_DOCUMENT_BYTES}",
                bytes.len()
            ),
        ));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| LedgerError::new(ErrorCode::MalformedDocument, "the document is not UTF-8"))?;
    // A derived struct would also accept a JSON array; the document must be an object.
    if !text.trim_start().starts_with('{') {
        return Err(LedgerError::new(
            ErrorCode::MalformedDocument,
            "the document is not a JSON object",
        ));
    }
    let envelope: Envelope<'_> = serde_json::from_str(text).map_err(|e| {
        LedgerError::new(
            ErrorCode::MalformedDocument,
            format!("the document is not a JSON object: {e}"),
        )
    })?;
    match &envelope.protocol {
        Some(serde_json::Value::String(p)) if p == REPAIR_PROTOCOL => {}
        other => {
            let shown = other
                .as_ref()
                .map_or_else(|| "nothing".to_owned(), |v| truncate(&v.to_string(), 80));
            return Err(LedgerError::new(
                ErrorCode::UnsupportedProtocol,
                format!("protocol must be \"{REPAIR_PROTOCOL}\", got {shown}"),
            ));
        }
    }
    match (envelope.repairs, envelope.actions) {
        (Some(repairs), None) => parse_repairs(repairs).map(Submission::Repairs),
        (None, Some(actions)) => crate::actions::parse_actions(actions).map(Submission::Actions),
        (Some(_), Some(_)) => Err(LedgerError::new(
            ErrorCode::InvalidDocument,
            "send `repairs` or `actions`, not both in one document",
        )),
        (None, None) => Err(LedgerError::new(
            ErrorCode::InvalidDocument,
            "`repairs` (or `actions`) is missing",
        )),
    }
}

fn parse_repairs(raw: &RawValue) -> Result<Vec<Finding>, LedgerError> {
    let items: Vec<&RawValue> = serde_json::from_str(raw.get())
        .map_err(|_| LedgerError::new(ErrorCode::InvalidDocument, "`repairs` must be an array"))?;
    if items.is_empty() || items.len() > MAX_FINDINGS {
        return Err(LedgerError::new(
            ErrorCode::InvalidDocument,
            format!(
                "`repairs` has {} findings; send 1..={MAX_FINDINGS}",
                items.len()
            ),
        ));
    }
    let mut seen = HashSet::new();
    let mut findings = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let mut finding: Finding = serde_json::from_str(item.get()).map_err(|e| invalid(i, e))?;
        validate_finding(i, &finding)?;
        canonicalize(i, &mut finding)?;
        if !seen.insert(finding.id.clone()) {
            return Err(invalid(
                i,
                format!("finding id {} appears twice", finding.id),
            ));
        }
        findings.push(finding);
    }
    Ok(findings)
}

fn validate_finding(i: usize, f: &Finding) -> Result<(), LedgerError> {
    let chars = f.instruction.chars().count();
    if f.instruction.trim().is_empty() || chars > MAX_INSTRUCTION_CHARS {
        return Err(invalid(
            i,
            format!("instruction must have 1..={MAX_INSTRUCTION_CHARS} characters, has {chars}"),
        ));
    }
    if f.criteria().len() > MAX_CRITERIA {
        return Err(invalid(
            i,
            format!("more than {MAX_CRITERIA} success criteria"),
        ));
    }
    for (n, c) in f.criteria().iter().enumerate() {
        c.check()
            .map_err(|e| invalid(i, format!("successCriteria[{n}]: {e}")))?;
    }
    page_bookkeeping(i, f)?;
    if f.created_at.as_ref().is_some_and(|c| c.len() > 64) {
        return Err(invalid(i, "createdAt is longer than 64 bytes"));
    }
    let t = &f.target;
    if t.node_ids.len() > MAX_NODE_IDS {
        return Err(invalid(
            i,
            format!("more than {MAX_NODE_IDS} target node ids"),
        ));
    }
    if t.node_ids
        .iter()
        .any(|n| n.is_empty() || n.len() > MAX_NODE_ID_BYTES)
    {
        return Err(invalid(
            i,
            format!("a target node id is empty or longer than {MAX_NODE_ID_BYTES} bytes"),
        ));
    }
    if let Some(r) = &t.region {
        let finite = [r.x, r.y, r.width, r.height].iter().all(|v| v.is_finite());
        if !finite || r.width < 0.0 || r.height < 0.0 {
            return Err(invalid(
                i,
                "target region must be finite with width, height >= 0",
            ));
        }
    }
    if t.text
        .as_ref()
        .is_some_and(|s| s.chars().count() > MAX_TARGET_TEXT_CHARS)
    {
        return Err(invalid(
            i,
            format!("target text is longer than {MAX_TARGET_TEXT_CHARS} characters"),
        ));
    }
    if let Some(layout) = &t.layout {
        crate::layout::Layout::check(layout.get()).map_err(|e| invalid(i, e))?;
    }
    if f.relations.as_ref().map_or(0, Vec::len) > MAX_RELATIONS {
        return Err(invalid(i, format!("more than {MAX_RELATIONS} relations")));
    }
    let conflicts: Vec<&FindingId> = f.conflicts_with().collect();
    if conflicts.contains(&&f.id) {
        return Err(invalid(i, "a finding cannot conflict with itself"));
    }
    if let Some((n, dup)) = conflicts
        .iter()
        .enumerate()
        .find(|(n, c)| conflicts[..*n].contains(*c))
    {
        return Err(invalid(i, format!("relations[{n}] repeats {dup}")));
    }
    if let Some(ctx) = &f.context {
        let value: serde_json::Value =
            serde_json::from_str(ctx.get()).map_err(|e| invalid(i, e))?;
        match value.get("untrusted") {
            Some(serde_json::Value::Bool(true)) if value.is_object() => {}
            _ => {
                return Err(invalid(
                    i,
                    "context must be an object with \"untrusted\": true",
                ))
            }
        }
        let in_context = value
            .get("contextRevision")
            .and_then(serde_json::Value::as_u64);
        if let (Some(top), Some(ctx)) = (f.context_revision, in_context) {
            if top != ctx {
                return Err(invalid(
                    i,
                    format!("contextRevision is {top} but context.contextRevision is {ctx}"),
                ));
            }
        }
    }
    Ok(())
}

/// Rewrite the verbatim JSON parts (context, layout, drawing, region scroll) in one canonical
/// form (sorted keys, no whitespace): the same finding then has the same digest whether the page
/// posted it (the browser's `JSON.stringify`) or a drain read it through the driver.
fn canonicalize(i: usize, f: &mut Finding) -> Result<(), LedgerError> {
    let t = &mut f.target;
    for raw in [
        &mut f.context,
        &mut t.layout,
        &mut t.drawing,
        &mut t.region_scroll,
    ] {
        if let Some(r) = raw.as_ref() {
            let value: serde_json::Value =
                serde_json::from_str(r.get()).map_err(|e| invalid(i, e))?;
            let text = serde_json::to_string(&value).map_err(|e| invalid(i, e))?;
            *raw = Some(RawValue::from_string(text).map_err(|e| invalid(i, e))?);
        }
    }
    Ok(())
}

/// The page's bookkeeping of its own copy: checked, then dropped (see `record::Finding`).
fn page_bookkeeping(i: usize, f: &Finding) -> Result<(), LedgerError> {
    if let Some(p) = &f.protocol {
        if p != REPAIR_PROTOCOL {
            return Err(invalid(
                i,
                format!(
                    "protocol must be \"{REPAIR_PROTOCOL}\", got \"{}\"",
                    truncate(p, 40)
                ),
            ));
        }
    }
    if let Some(status) = f.status {
        if status != RepairStatus::Queued {
            return Err(invalid(
                i,
                format!(
                    "status must be \"queued\" (only a sent finding enters the ledger), got \"{status}\""
                ),
            ));
        }
    }
    if f.events.as_ref().is_some_and(|e| e.len() > MAX_PAGE_EVENTS) {
        return Err(invalid(
            i,
            format!("more than {MAX_PAGE_EVENTS} mirrored events"),
        ));
    }
    Ok(())
}

pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(items: &str) -> String {
        format!(r#"{{"protocol":"a3s.test.repair/1","repairs":[{items}]}}"#)
    }
    const OK: &str = r#"{"id":"f1","target":{"kind":"node","nodeIds":["n1"]},"instruction":"Make the button blue","intent":"fix","severity":"important","status":"queued","context":{"untrusted":true,"route":"/"}}"#;

    fn code(body: &str) -> ErrorCode {
        parse_document(body.as_bytes()).unwrap_err().code
    }

    #[test]
    fn accepts_a_sent_finding() {
        let f = parse_document(doc(OK).as_bytes()).unwrap();
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].id.as_str(), "f1");
    }

    #[test]
    fn rejects_malformed_and_foreign_documents() {
        assert_eq!(code("{"), ErrorCode::MalformedDocument);
        assert_eq!(code("[1]"), ErrorCode::MalformedDocument);
        assert_eq!(
            code(r#"{"protocol":"a3s.test.repair/2","repairs":[]}"#),
            ErrorCode::UnsupportedProtocol
        );
        assert_eq!(code(r#"{"repairs":[]}"#), ErrorCode::UnsupportedProtocol);
        assert_eq!(
            parse_document(&[0xff, 0xfe]).unwrap_err().code,
            ErrorCode::MalformedDocument
        );
    }

    #[test]
    fn rejects_bad_findings() {
        let cases = [
            doc(""),
            doc(&OK.replace("\"f1\"", "\"f 1; rm -rf /\"")),
            doc(&OK.replace("\"queued\"", "\"resolved\"")),
            doc(&OK.replace("\"fix\"", "\"delete\"")),
            doc(&OK.replace("\"untrusted\":true", "\"untrusted\":false")),
            doc(&OK.replace("Make the button blue", "")),
            doc(&OK.replace("Make the button blue", &"x".repeat(8193))),
            doc(&format!("{OK},{OK}")),
            doc(&OK.replace("\"kind\":\"node\"", "\"kind\":\"shell\"")),
            doc(&OK.replace(
                "\"status\"",
                "\"relations\":[{\"kind\":\"conflicts_with\",\"findingId\":\"f1\"}],\"status\"",
            )),
        ];
        for c in cases {
            assert_eq!(
                code(&c),
                ErrorCode::InvalidDocument,
                "{}",
                &c[..c.len().min(200)]
            );
        }
    }

    #[test]
    fn the_test_kit_shape_is_accepted_and_old_shapes_are_refused() {
        let kit = OK.replace(
            "\"status\"",
            "\"protocol\":\"a3s.test.repair/1\",\"batchId\":\"b1\",\"contextRevision\":3,\"sequence\":0,\"events\":[],\"delivery\":\"page_queue\",\"successCriteria\":[\"calm\",{\"kind\":\"target_state\",\"state\":\"checked\"}],\"relations\":[{\"kind\":\"conflicts_with\",\"findingId\":\"f2\"}],\"status\"",
        );
        let f = parse_document(doc(&kit).as_bytes()).unwrap();
        assert_eq!(f[0].criteria().len(), 2);
        assert_eq!(f[0].conflicts_with().count(), 1);
        for old in [
            OK.replace("\"status\"", "\"criteria\":[\"a\"],\"status\""),
            OK.replace(
                "\"status\"",
                "\"relations\":{\"conflicts_with\":[\"f2\"]},\"status\"",
            ),
            OK.replace("\"status\"", "\"sourceHints\":[],\"status\""),
            OK.replace("\"status\"", "\"delivery\":\"lost\",\"status\""),
            OK.replace(
                "\"status\"",
                "\"protocol\":\"a3s.test.repair/2\",\"status\"",
            ),
            OK.replace(
                "\"status\"",
                "\"successCriteria\":[{\"kind\":\"page_text\",\"contains\":\"\"}],\"status\"",
            ),
            OK.replace(
                "\"untrusted\":true",
                "\"untrusted\":true,\"contextRevision\":4",
            )
            .replace("\"status\"", "\"contextRevision\":3,\"status\""),
        ] {
            assert_eq!(code(&doc(&old)), ErrorCode::InvalidDocument, "{old}");
        }
    }

    #[test]
    fn verbatim_parts_are_stored_in_one_canonical_form() {
        let a = OK.replace(
            "{\"untrusted\":true,\"route\":\"/\"}",
            "{ \"route\": \"/\", \"untrusted\": true }",
        );
        let one = parse_document(doc(&a).as_bytes()).unwrap();
        let two = parse_document(doc(OK).as_bytes()).unwrap();
        let ctx = |f: &Finding| f.context.as_ref().unwrap().get().to_owned();
        assert_eq!(ctx(&one[0]), ctx(&two[0]));
        assert_eq!(ctx(&one[0]), r#"{"route":"/","untrusted":true}"#);
    }

    #[test]
    fn actions_are_parsed_and_bounded() {
        let act = |body: &str| format!(r#"{{"protocol":"a3s.test.repair/1","actions":[{body}]}}"#);
        let good =
            act(r#"{"id":"a1","repairId":"f1","kind":"reply","message":"ok","requestId":"r1"}"#);
        match parse_submission(good.as_bytes()).unwrap() {
            Submission::Actions(a) => assert_eq!(a[0].repair_id.as_str(), "f1"),
            Submission::Repairs(_) => panic!("read as repairs"),
        }
        assert_eq!(
            parse_document(good.as_bytes()).unwrap_err().code,
            ErrorCode::InvalidDocument
        );
        let bad = [
            act(r#"{"id":"a1","repairId":"f1","kind":"reply","requestId":"r1"}"#),
            act(r#"{"id":"a1","repairId":"f1","kind":"delete","requestId":"r1"}"#),
            act(r#"{"id":"a1","repairId":"f 1","kind":"accept","requestId":"r1"}"#),
            act(r#"{"id":"a1","repairId":"f1","kind":"accept","requestId":"r1","attemptId":"x"}"#),
            act(
                r#"{"id":"a1","repairId":"f1","kind":"accept","requestId":"r1"},{"id":"a2","repairId":"f1","kind":"accept","requestId":"r1"}"#,
            ),
            act(""),
            r#"{"protocol":"a3s.test.repair/1","repairs":[],"actions":[]}"#.to_owned(),
            r#"{"protocol":"a3s.test.repair/1"}"#.to_owned(),
        ];
        for b in bad {
            let e = parse_submission(b.as_bytes()).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidDocument, "{b}: {e}");
        }
    }
}
