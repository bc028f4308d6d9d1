//! The rules a verification record, a baseline and a promotion must satisfy before the ledger
//! stores them.
//!
//! Bounds keep a hostile or buggy caller from bloating the ledger. Consistency keeps a verdict
//! honest: a record may only say `passed` when every fact in it passed (every verifiable
//! criterion held, a layout check — if any — held, no new page error, a slice was planned and
//! each selected check has a passing result, a candidate — if any — was proven), and a failed record must name its
//! failing step. So even a caller that builds a record by hand cannot store a pass that its own
//! facts contradict.

use crate::criterion::MAX_CRITERIA;
use crate::error::{ErrorCode, LedgerError};
use crate::validate::{validate_changed_file, MAX_PATH_BYTES, MAX_TEXT_CHARS};
use crate::verification::{
    Baseline, EvidenceKind, EvidenceRef, VerificationRecord, SLICE_PROTOCOL, VERIFICATION_PROTOCOL,
};

/// The most evidence files in one baseline or verification record.
pub const MAX_EVIDENCE: usize = 16;
/// The most check results in one verification record.
pub const MAX_CHECKS: usize = 64;
/// The longest short text of a record (URL, ACL target, code, observed text), in characters:
/// each is one value, never a document; the bound keeps a verification record small.
pub const MAX_SHORT_CHARS: usize = 4096;

fn bad(msg: impl Into<String>) -> LedgerError {
    LedgerError::new(ErrorCode::InvalidInput, msg)
}

fn short(what: &str, value: &str, max: usize) -> Result<(), LedgerError> {
    if value.chars().count() > max {
        return Err(bad(format!("{what} is longer than {max} characters")));
    }
    if value.contains('\0') {
        return Err(bad(format!("{what} contains a NUL character")));
    }
    Ok(())
}

/// Check a `sha256:<64 lowercase hex>` digest.
pub fn validate_digest(digest: &str) -> Result<(), LedgerError> {
    let hex = digest.strip_prefix("sha256:").unwrap_or("");
    let ok = hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if ok {
        Ok(())
    } else {
        Err(bad("a digest must be sha256:<64 lowercase hex>"))
    }
}

fn evidence(list: &[EvidenceRef], allowed: &[EvidenceKind]) -> Result<(), LedgerError> {
    if list.len() > MAX_EVIDENCE {
        return Err(bad(format!("more than {MAX_EVIDENCE} evidence files")));
    }
    for e in list {
        evidence_ref(e)?;
        if !allowed.contains(&e.kind) {
            return Err(bad(format!(
                "evidence {} has a kind that does not belong here",
                e.path
            )));
        }
    }
    Ok(())
}

fn evidence_ref(e: &EvidenceRef) -> Result<(), LedgerError> {
    // Session-relative and plain, like a changed file: no absolute path, no `..`.
    validate_changed_file(&e.path).map_err(|err| bad(format!("evidence path: {}", err.message)))?;
    validate_digest(&e.sha256)
}

const PAGE_EVIDENCE: [EvidenceKind; 5] = [
    EvidenceKind::Screenshot,
    EvidenceKind::PageContext,
    EvidenceKind::Console,
    EvidenceKind::PageErrors,
    EvidenceKind::UiUnderstanding,
];

/// Cited `@uN` facts: bounded, and pinned by a `ui_understanding` file among the evidence (a
/// citation without the file it comes from is refused).
fn ui_facts(r: &VerificationRecord) -> Result<(), LedgerError> {
    use crate::verification::{MAX_UI_FACTS, MAX_UI_FACT_CHARS};
    if r.page.ui_facts.is_empty() {
        return Ok(());
    }
    if r.page.ui_facts.len() > MAX_UI_FACTS {
        return Err(bad(format!("more than {MAX_UI_FACTS} cited UI facts")));
    }
    for f in &r.page.ui_facts {
        short("cited UI fact", f, MAX_UI_FACT_CHARS)?;
        if !f.starts_with("@u") {
            return Err(bad("a cited UI fact starts with its @uN"));
        }
    }
    if !r
        .page
        .evidence
        .iter()
        .any(|e| e.kind == EvidenceKind::UiUnderstanding)
    {
        return Err(bad(
            "cited UI facts need the ui_understanding evidence file they come from",
        ));
    }
    Ok(())
}

/// Check a baseline's bounds.
pub fn validate_baseline(b: &Baseline) -> Result<(), LedgerError> {
    short("baseline url", &b.url, MAX_SHORT_CHARS)?;
    evidence(&b.evidence, &PAGE_EVIDENCE)
}

/// Check a promotion's arguments: the suite file as the reviewer named it, and its digest.
pub fn validate_promotion(path: &str, sha256: &str) -> Result<(), LedgerError> {
    if path.is_empty() || path.len() > MAX_PATH_BYTES || path.chars().any(char::is_control) {
        return Err(bad(format!(
            "the promoted path must have 1..={MAX_PATH_BYTES} bytes and no control characters"
        )));
    }
    validate_digest(sha256)
}

/// Check a verification record's bounds and that its verdict agrees with its facts.
pub fn validate_record(r: &VerificationRecord) -> Result<(), LedgerError> {
    if r.protocol != VERIFICATION_PROTOCOL {
        return Err(bad(format!(
            "a verification record's protocol must be {VERIFICATION_PROTOCOL}"
        )));
    }
    if let Some(t) = &r.page.target {
        short("target", &t.acl_target, MAX_SHORT_CHARS)?;
    }
    if r.page.criteria.len() > MAX_CRITERIA {
        return Err(bad(format!("more than {MAX_CRITERIA} criteria")));
    }
    for c in &r.page.criteria {
        c.criterion.check().map_err(bad)?;
        if let Some(o) = &c.observed {
            short("observed text", o, MAX_SHORT_CHARS)?;
        }
    }
    if let Some(o) = r.page.layout.as_ref().and_then(|l| l.occupant.as_ref()) {
        short("layout occupant", o, MAX_SHORT_CHARS)?;
    }
    evidence(&r.page.evidence, &PAGE_EVIDENCE)?;
    ui_facts(r)?;
    if let Some(s) = &r.slice {
        if s.protocol != SLICE_PROTOCOL {
            return Err(bad(format!("a slice's protocol must be {SLICE_PROTOCOL}")));
        }
    }
    if r.checks.len() > MAX_CHECKS {
        return Err(bad(format!("more than {MAX_CHECKS} check results")));
    }
    for c in &r.checks {
        short("check id", &c.id, MAX_SHORT_CHARS)?;
        if let Some(m) = &c.message {
            short("check message", m, MAX_TEXT_CHARS)?;
        }
        for (out, kind) in [
            (&c.stdout, EvidenceKind::CheckStdout),
            (&c.stderr, EvidenceKind::CheckStderr),
        ] {
            if let Some(e) = out {
                evidence(std::slice::from_ref(e), &[kind])?;
            }
        }
    }
    if let Some(c) = &r.candidate {
        evidence_ref(&EvidenceRef {
            kind: EvidenceKind::Candidate,
            path: c.path.clone(),
            sha256: c.sha256.clone(),
            bytes: 0,
        })?;
        for t in [&c.proof.code, &c.proof.message].into_iter().flatten() {
            short("proof text", t, MAX_TEXT_CHARS)?;
        }
    }
    if let Some(f) = &r.failure {
        short("failure code", &f.code, MAX_SHORT_CHARS)?;
        short("failure message", &f.message, MAX_TEXT_CHARS)?;
    }
    verdict(r).map_err(|why| bad(format!("the verification record is inconsistent: {why}")))
}

/// Why the record's verdict disagrees with its facts, if it does.
fn verdict(r: &VerificationRecord) -> Result<(), String> {
    if !r.passed {
        return match r.failure {
            Some(_) => Ok(()),
            None => Err("a failed verification must name its failing step".into()),
        };
    }
    if r.failure.is_some() {
        return Err("it passed but names a failure".into());
    }
    if let Some(c) = r
        .page
        .criteria
        .iter()
        .find(|c| c.verifiable && c.passed != Some(true))
    {
        return Err(format!("it passed but criterion {} did not", c.index));
    }
    if r.page.layout.as_ref().is_some_and(|l| !l.passed) {
        return Err("it passed but its layout check did not".into());
    }
    if r.page
        .errors
        .as_ref()
        .is_some_and(|e| e.new_page_errors > 0)
    {
        return Err("it passed with a new page error".into());
    }
    let slice = r.slice.as_ref().ok_or("it passed without a slice")?;
    if slice.selected_checks.is_empty() {
        return Err("it passed with no selected check".into());
    }
    for id in &slice.selected_checks {
        match r.checks.iter().find(|c| &c.id == id) {
            Some(c) if c.outcome.passed() => {}
            Some(_) => return Err(format!("it passed but check {id} did not")),
            None => return Err(format!("it passed without a result for check {id}")),
        }
    }
    if r.candidate.as_ref().is_some_and(|c| !c.proof.passed) {
        return Err("it passed but its candidate's proof did not".into());
    }
    Ok(())
}
