//! Bounds on what an operation may carry: message and summary lengths, the changed-file list,
//! and (through `verdict`) verification records, baselines and promotions. Checked before the
//! ledger is even locked.
//!
//! Changed files are workspace-relative paths an agent reports; they are recorded and shown,
//! never opened or put into a command, but they are still kept plain (no absolute paths, no
//! `..`, no control characters) so that no view can be confused by them.

use crate::error::{ErrorCode, LedgerError};
use crate::event::Action;
use crate::lease::{lease_length, verify_lease_length};
use crate::verdict::{validate_baseline, validate_promotion, validate_record};

/// The longest message or summary of an agent or reviewer action, in characters: a few
/// sentences for a person; the bound keeps each ledger event small. The MCP tool schemas state it.
pub const MAX_TEXT_CHARS: usize = 8192;
/// The most changed files in one completion.
pub const MAX_CHANGED_FILES: usize = 1000;
/// The longest changed-file path, in bytes.
pub const MAX_PATH_BYTES: usize = 1024;

fn bad(msg: impl Into<String>) -> LedgerError {
    LedgerError::new(ErrorCode::InvalidInput, msg)
}

fn text(what: &str, value: Option<&String>, required: bool) -> Result<(), LedgerError> {
    match value {
        None if required => Err(bad(format!("{what} is required"))),
        None => Ok(()),
        Some(v) if required && v.trim().is_empty() => Err(bad(format!("{what} is empty"))),
        Some(v) if v.chars().count() > MAX_TEXT_CHARS => Err(bad(format!(
            "{what} is longer than {MAX_TEXT_CHARS} characters"
        ))),
        Some(v) if v.contains('\0') => Err(bad(format!("{what} contains a NUL character"))),
        Some(_) => Ok(()),
    }
}

/// Check one changed-file path.
pub fn validate_changed_file(path: &str) -> Result<(), LedgerError> {
    let shown: String = path
        .chars()
        .take(80)
        .flat_map(char::escape_default)
        .collect();
    if path.is_empty() || path.len() > MAX_PATH_BYTES {
        return Err(bad(format!(
            "changed file \"{shown}\" must have 1..={MAX_PATH_BYTES} bytes"
        )));
    }
    if path.chars().any(char::is_control) {
        return Err(bad(format!(
            "changed file \"{shown}\" contains a control character"
        )));
    }
    if path.starts_with('/') || path.starts_with('\\') {
        return Err(bad(format!(
            "changed file \"{shown}\" must be relative to the workspace"
        )));
    }
    if path.split(['/', '\\']).any(|c| c == ".." || c.is_empty()) {
        return Err(bad(format!(
            "changed file \"{shown}\" must not contain `..` or empty components"
        )));
    }
    Ok(())
}

fn changed_files(files: &[String]) -> Result<(), LedgerError> {
    if files.len() > MAX_CHANGED_FILES {
        return Err(bad(format!("more than {MAX_CHANGED_FILES} changed files")));
    }
    for (i, f) in files.iter().enumerate() {
        validate_changed_file(f)?;
        if files[..i].contains(f) {
            return Err(bad(format!("changed file {f} is listed twice")));
        }
    }
    Ok(())
}

/// The longest replacement target a completion may declare, in bytes: one ACL target call, far
/// above any real locator; the MCP tool schema states it.
pub const MAX_REPLACEMENT_BYTES: usize = 4096;

/// A declared replacement is one line of 1..=[`MAX_REPLACEMENT_BYTES`] bytes (the front end admitted it as an ACL
/// target; the ledger only bounds what it stores).
fn replacement_target(target: Option<&str>) -> Result<(), LedgerError> {
    match target {
        Some(t) if t.is_empty() || t.len() > MAX_REPLACEMENT_BYTES || t.contains(['\n', '\r']) => {
            Err(bad(format!(
                "the replacement target must be one line of 1..={MAX_REPLACEMENT_BYTES} bytes"
            )))
        }
        _ => Ok(()),
    }
}

/// Check the bounds of `action`'s arguments.
pub fn validate_action(action: &Action) -> Result<(), LedgerError> {
    match action {
        Action::Claim { lease_ms, .. } => lease_length(*lease_ms).map(drop),
        Action::Progress { message, lease_ms } => {
            text("message", message.as_ref(), false)?;
            lease_length(*lease_ms).map(drop)
        }
        Action::Reply { message } | Action::Answer { message } => {
            text("message", Some(message), true)
        }
        Action::Complete {
            summary,
            changed_files: files,
            lease_ms,
            replacement,
        } => {
            text("summary", summary.as_ref(), false)?;
            replacement_target(replacement.as_deref())?;
            changed_files(files)?;
            lease_length(*lease_ms).map(drop)
        }
        Action::Fail { summary } => text("summary", summary.as_ref(), false),
        Action::Release { message }
        | Action::Accept { message }
        | Action::Reject { message }
        | Action::Reopen { message } => text("message", message.as_ref(), false),
        Action::VerifyStart {
            changed_files: files,
            lease_ms,
        } => {
            changed_files(files)?;
            verify_lease_length(*lease_ms).map(|_| ())
        }
        Action::VerifyResult {
            record,
            changed_files: files,
            ..
        } => {
            changed_files(files)?;
            validate_record(record)
        }
        Action::Baseline { baseline } => validate_baseline(baseline),
        Action::Promote { path, sha256 } => validate_promotion(path, sha256),
        Action::Intake { .. }
        | Action::Expire { .. }
        | Action::Hold { .. }
        | Action::Requeue {}
        | Action::AutoResolve {} => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_files_stay_plain_and_relative() {
        for ok in ["src/app.tsx", "a", "dir/file name.css"] {
            assert!(validate_changed_file(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../b",
            "a//b",
            "a\nb",
            "a\0b",
            "\\x",
        ] {
            assert!(validate_changed_file(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn texts_and_lists_are_bounded() {
        let long = "x".repeat(MAX_TEXT_CHARS + 1);
        assert!(validate_action(&Action::Reply { message: long }).is_err());
        assert!(validate_action(&Action::Reply {
            message: " ".into()
        })
        .is_err());
        let dup = vec!["a".to_owned(), "a".to_owned()];
        assert!(validate_action(&Action::VerifyStart {
            changed_files: dup,
            lease_ms: None
        })
        .is_err());
        let files = vec!["a".to_owned()];
        let start = |lease_ms| Action::VerifyStart {
            changed_files: files.clone(),
            lease_ms,
        };
        assert!(validate_action(&start(Some(24 * 60 * 60 * 1000))).is_ok());
        assert!(validate_action(&start(Some(0))).is_err());
        assert!(validate_action(&start(Some(u64::MAX))).is_err());
        assert!(validate_action(&Action::Promote {
            path: "suites/a.acl".into(),
            sha256: "sha256:XYZ".into(),
        })
        .is_err());
    }
}
