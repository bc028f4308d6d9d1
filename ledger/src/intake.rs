//! Validation of an `a3s.test.repair/1` document — the body the Review Overlay POSTs to its
//! `repairEndpoint`, or a file given to `agent repair-import`.
//!
//! The document is hostile until proven otherwise: it is bounded in size and count, every id is
//! checked, every text is bounded, and the page context must declare itself untrusted. Nothing in
//! it can name a path, a command or a credential for A3S Test to use; it only becomes data in
//! the ledger.

use crate::error::{ErrorCode, LedgerError};
use crate::record::{Finding, REPAIR_PROTOCOL};
use crate::status::RepairStatus;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::HashSet;

/// The largest document accepted (1 MiB).
pub const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;
/// The most findings in one document.
pub const MAX_FINDINGS: usize = 100;
/// The longest instruction, in characters.
pub const MAX_INSTRUCTION_CHARS: usize = 8192;
/// The most success criteria.
pub const MAX_CRITERIA: usize = 32;
/// The longest criterion, in characters.
pub const MAX_CRITERION_CHARS: usize = 2048;
/// The most node ids in a target.
pub const MAX_NODE_IDS: usize = 5000;
/// The longest node id, in bytes.
pub const MAX_NODE_ID_BYTES: usize = 128;
/// The longest selected text of a text target, in characters.
pub const MAX_TARGET_TEXT_CHARS: usize = 16 * 1024;
/// The most declared conflicts.
pub const MAX_CONFLICTS: usize = 100;

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default)]
    protocol: Option<serde_json::Value>,
    #[serde(default, borrow)]
    repairs: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct StatusOnly {
    #[serde(default)]
    status: Option<serde_json::Value>,
}

fn invalid(index: usize, msg: impl std::fmt::Display) -> LedgerError {
    LedgerError::new(
        ErrorCode::InvalidDocument,
        format!("repairs[{index}]: {msg}"),
    )
}

/// Parse and validate a repair document; returns its findings in the document's order.
pub fn parse_document(bytes: &[u8]) -> Result<Vec<Finding>, LedgerError> {
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
    let raw = envelope
        .repairs
        .ok_or_else(|| LedgerError::new(ErrorCode::InvalidDocument, "`repairs` is missing"))?;
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
        let status: StatusOnly = serde_json::from_str(item.get())
            .map_err(|e| invalid(i, format!("not an object: {e}")))?;
        match status.status {
            None => {}
            Some(serde_json::Value::String(s)) if s == RepairStatus::Queued.as_str() => {}
            Some(other) => {
                return Err(invalid(
                    i,
                    format!(
                        "status must be \"queued\" (only a sent finding enters the ledger), got {}",
                        truncate(&other.to_string(), 40)
                    ),
                ))
            }
        }
        let finding: Finding = serde_json::from_str(item.get()).map_err(|e| invalid(i, e))?;
        validate_finding(i, &finding)?;
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
    if f.criteria.len() > MAX_CRITERIA {
        return Err(invalid(i, format!("more than {MAX_CRITERIA} criteria")));
    }
    if f.criteria
        .iter()
        .any(|c| c.chars().count() > MAX_CRITERION_CHARS)
    {
        return Err(invalid(
            i,
            format!("a criterion is longer than {MAX_CRITERION_CHARS} characters"),
        ));
    }
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
    let conflicts = &f.relations.conflicts_with;
    if conflicts.len() > MAX_CONFLICTS {
        return Err(invalid(
            i,
            format!("more than {MAX_CONFLICTS} conflicts_with ids"),
        ));
    }
    if conflicts.contains(&f.id) {
        return Err(invalid(i, "a finding cannot conflict with itself"));
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
    }
    Ok(())
}

fn truncate(s: &str, max: usize) -> String {
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
                "\"relations\":{\"conflicts_with\":[\"f1\"]},\"status\"",
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
}
