//! Orchestrator mode (`--checks-json FILE`): results of checks a caller already ran, read into
//! the same [`CheckResult`]s an executed check produces, marked [`CheckMode::CallerReported`]
//! so a reviewer always sees that A3S Test did not run them. Nothing is executed here.
//!
//! The document is strict, versioned and bounded (see `docs/repair.md`):
//!
//! ```json
//! {"protocol": "a3s.test.repair-check-results/1",
//!  "checks": [{"id": "unit", "passed": true, "exitCode": 0, "durationMs": 812, "summary": "41 passed"}]}
//! ```
//!
//! Unknown fields, a wrong protocol, an id the project catalog does not declare, an id given
//! twice, an empty list, a pass with a non-zero exit code, a NUL in a summary and oversize input
//! are all refused
//! (`test.session.repair_check_results`): a malformed report must never read as a pass.

use crate::session::SessionCode;
use a3s_test_lang::ir::VerificationCheck;
use a3s_test_ledger::verification::{CheckMode, CheckOutcome, CheckResult};
use serde::Deserialize;
use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

/// The protocol of a caller-reported results document.
pub const CHECK_RESULTS_PROTOCOL: &str = "a3s.test.repair-check-results/1";
/// The largest document accepted, in bytes.
pub const MAX_RESULTS_BYTES: usize = 256 * 1024;
/// The longest `summary` accepted, in characters.
pub const MAX_SUMMARY_CHARS: usize = 2_000;

/// Why a caller-reported results document was refused.
#[derive(Debug, thiserror::Error)]
pub enum CallerResultsError {
    /// The file could not be read.
    #[error("failed to read the check results `{path}`: {source}")]
    Unreadable {
        /// The file as given.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// More than [`MAX_RESULTS_BYTES`].
    #[error("the check results are larger than {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// Not JSON of the documented shape (unknown or missing fields, wrong types, not UTF-8).
    #[error("the check results are not a `{CHECK_RESULTS_PROTOCOL}` document: {0}")]
    Shape(String),
    /// Another protocol.
    #[error("the check results declare protocol `{0}`, expected `{CHECK_RESULTS_PROTOCOL}`")]
    Protocol(String),
    /// No result at all.
    #[error("the check results list no check")]
    Empty,
    /// An id the project catalog does not declare.
    #[error("check `{0}` is not in the project's verification catalog")]
    UnknownCheck(String),
    /// The same id twice.
    #[error("check `{0}` is reported twice")]
    Duplicate(String),
    /// `passed: true` with a non-zero exit code.
    #[error("check `{id}` is reported passed with exit code {exit_code}")]
    Inconsistent {
        /// The check.
        id: String,
        /// Its exit code.
        exit_code: i32,
    },
    /// A summary with a NUL character (the ledger stores no NUL).
    #[error("the summary of check `{0}` contains a NUL character")]
    Nul(String),
    /// A summary over [`MAX_SUMMARY_CHARS`].
    #[error("the summary of check `{0}` is longer than {MAX_SUMMARY_CHARS} characters")]
    SummaryTooLong(String),
}

impl CallerResultsError {
    /// The stable code of every refusal (one code: the document is the caller's to fix).
    pub fn code(&self) -> SessionCode {
        SessionCode::RepairCheckResults
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Document {
    protocol: String,
    checks: Vec<Reported>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Reported {
    id: String,
    passed: bool,
    #[serde(default)]
    exit_code: Option<i32>,
    #[serde(default)]
    duration_ms: Option<u64>,
    #[serde(default)]
    summary: Option<String>,
}

/// Read the results an orchestrator reported from `bytes`, against the project's `catalog`.
/// Executes nothing; every result is [`CheckMode::CallerReported`], `Passed` or `Failed`.
pub fn parse_caller_results(
    bytes: &[u8],
    catalog: &[VerificationCheck],
) -> Result<Vec<CheckResult>, CallerResultsError> {
    if bytes.len() > MAX_RESULTS_BYTES {
        return Err(CallerResultsError::TooLarge {
            limit: MAX_RESULTS_BYTES,
        });
    }
    let doc: Document =
        serde_json::from_slice(bytes).map_err(|e| CallerResultsError::Shape(e.to_string()))?;
    if doc.protocol != CHECK_RESULTS_PROTOCOL {
        return Err(CallerResultsError::Protocol(doc.protocol));
    }
    if doc.checks.is_empty() {
        return Err(CallerResultsError::Empty);
    }
    let known: HashSet<&str> = catalog.iter().map(|c| c.id.as_str()).collect();
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(doc.checks.len());
    for r in doc.checks {
        if !known.contains(r.id.as_str()) {
            return Err(CallerResultsError::UnknownCheck(r.id));
        }
        if !seen.insert(r.id.clone()) {
            return Err(CallerResultsError::Duplicate(r.id));
        }
        if let (true, Some(code)) = (r.passed, r.exit_code) {
            if code != 0 {
                return Err(CallerResultsError::Inconsistent {
                    id: r.id,
                    exit_code: code,
                });
            }
        }
        if r.summary
            .as_ref()
            .is_some_and(|s| s.chars().count() > MAX_SUMMARY_CHARS)
        {
            return Err(CallerResultsError::SummaryTooLong(r.id));
        }
        if r.summary.as_ref().is_some_and(|s| s.contains('\0')) {
            return Err(CallerResultsError::Nul(r.id));
        }
        let outcome = if r.passed {
            CheckOutcome::Passed
        } else {
            CheckOutcome::Failed
        };
        let mut result = caller_reported(r.id, outcome, r.summary);
        result.exit_code = r.exit_code;
        result.duration_ms = r.duration_ms.unwrap_or(0);
        out.push(result);
    }
    Ok(out)
}

/// A result the caller reported rather than A3S Test ran: no process ran here, so it has no
/// captured output; no exit code and no time until the report says so.
pub fn caller_reported(id: String, outcome: CheckOutcome, message: Option<String>) -> CheckResult {
    CheckResult {
        id,
        mode: CheckMode::CallerReported,
        outcome,
        exit_code: None,
        duration_ms: 0,
        stdout: None,
        stderr: None,
        message,
    }
}

/// [`parse_caller_results`] on a file, reading at most one byte over [`MAX_RESULTS_BYTES`] (an
/// endless or huge file is refused without being read whole).
pub fn read_caller_results(
    path: &Path,
    catalog: &[VerificationCheck],
) -> Result<Vec<CheckResult>, CallerResultsError> {
    let unreadable = |source| CallerResultsError::Unreadable {
        path: path.display().to_string(),
        source,
    };
    // A FIFO or device would block `open` or never end: only a regular file is read.
    if !std::fs::metadata(path).map_err(unreadable)?.is_file() {
        return Err(unreadable(std::io::Error::other("not a regular file")));
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(MAX_RESULTS_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    parse_caller_results(&bytes, catalog)
}

/// The selected check ids (the slice's `selectedChecks`) that have no result in `results`, in
/// selection order: a caller report that leaves a selected check out must not pass step 7.
pub fn unreported(selected: &[String], results: &[CheckResult]) -> Vec<String> {
    selected
        .iter()
        .filter(|id| !results.iter().any(|r| &r.id == *id))
        .cloned()
        .collect()
}
