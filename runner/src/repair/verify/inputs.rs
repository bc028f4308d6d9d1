//! What a verification reads before it contacts anything: the project's check catalog — and
//! what a claim pins of it. A catalog that does not admit is refused here (exit 2) so that a bad
//! input never leaves a half-done verification behind.

use a3s_test_fsroot::{ConfinedPath, FsError};
use a3s_test_lang::ir::{AdmittedDocument, VerificationCheck};
use a3s_test_ledger::event::PinnedChecks;
use a3s_test_ledger::ledger::sha256_digest;
use a3s_test_ledger::{ErrorCode, LedgerError};
use std::path::Path;

/// The project file holding `verification { check … }`, relative to the project root.
pub const PROJECT_FILE: &str = ".a3s-test/project.acl";

/// The largest project file read.
const MAX_PROJECT_BYTES: u64 = 1 << 20;

fn invalid(message: String) -> LedgerError {
    LedgerError::new(ErrorCode::InvalidInput, message)
}

/// The trusted checks of the project under `root`, in configuration order (none when the project
/// has no project file), with the file's digest: what a claim pins, and what a verification
/// compares with the pinned ones. A project file that does not admit is refused: verifying
/// against a catalog the tool cannot read would let a broken file pass for an empty one.
///
/// The file is read without following a link from the project folder down (`.a3s-test` and
/// `project.acl` must be a real folder and a regular file): the catalog decides which commands
/// run, so it must be the project's own file, not one a link points at.
pub fn read_checks(root: &Path) -> Result<PinnedChecks, LedgerError> {
    let bytes = match ConfinedPath::new(root, PROJECT_FILE).read(MAX_PROJECT_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => {
            return Ok(PinnedChecks {
                project_sha256: None,
                checks: Vec::new(),
            })
        }
        Err(FsError::TooLarge { .. }) => {
            return Err(invalid(format!("{PROJECT_FILE} is larger than 1 MiB")))
        }
        Err(e) if e.is_refusal() => return Err(LedgerError::fs(&e)),
        Err(e) => return Err(invalid(format!("failed to read {PROJECT_FILE}: {e}"))),
    };
    let admission = a3s_test_lang::admit_bytes(&bytes);
    match admission.document {
        Some(AdmittedDocument::Project(project)) => Ok(PinnedChecks {
            project_sha256: Some(sha256_digest(&bytes)),
            checks: project.checks,
        }),
        Some(
            AdmittedDocument::Suite(_)
            | AdmittedDocument::Library(_)
            | AdmittedDocument::Contract(_),
        ) => Err(invalid(format!(
            "{PROJECT_FILE} is a suite, not a project configuration"
        ))),
        None => {
            let first = admission
                .diagnostics
                .first()
                .map(|d| format!("{}: {}", d.code.as_str(), d.message))
                .unwrap_or_default();
            Err(invalid(format!(
                "{PROJECT_FILE} is not admitted ({first}); run `a3s-test check {PROJECT_FILE}`"
            )))
        }
    }
}

/// What differs between the checks pinned at claim and the ones the project file holds now:
/// the ids of checks added, removed or changed, in that order (empty: the same checks).
pub fn changed_checks(pinned: &[VerificationCheck], now: &[VerificationCheck]) -> Vec<String> {
    let mut out = Vec::new();
    for c in now {
        match pinned.iter().find(|p| p.id == c.id) {
            None => out.push(format!("`{}` added", c.id)),
            Some(p) if p != c => out.push(format!("`{}` changed", c.id)),
            Some(_) => {}
        }
    }
    for p in pinned {
        if !now.iter().any(|c| c.id == p.id) {
            out.push(format!("`{}` removed", p.id));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_project_file_is_an_empty_catalog_and_a_broken_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_checks(dir.path()).unwrap().checks.is_empty());
        std::fs::create_dir_all(dir.path().join(".a3s-test")).unwrap();
        std::fs::write(
            dir.path().join(PROJECT_FILE),
            "project \"p\" { verification {",
        )
        .unwrap();
        assert_eq!(
            read_checks(dir.path()).unwrap_err().code,
            ErrorCode::InvalidInput
        );
        std::fs::write(
            dir.path().join(PROJECT_FILE),
            "project \"p\" {\n  verification {\n    check \"unit\" {\n      tier = \"focused\"\n      command = [\"true\"]\n      file_prefixes = [\"src/\"]\n    }\n  }\n}\n",
        )
        .unwrap();
        let catalog = read_checks(dir.path()).unwrap().checks;
        assert_eq!(catalog.len(), 1);
        assert_eq!(catalog[0].id, "unit");
    }
}
