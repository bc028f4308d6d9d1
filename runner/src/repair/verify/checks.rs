//! Step 7: the slice's checks, run by A3S Test (`crate::repair::checks`) or, in
//! orchestrator mode (`--checks-json`), read from the results the caller reported. In both modes
//! exactly the selected checks are in the record, in slice order: a selected check the caller did
//! not report is a failed check, a reported check the slice did not select is ignored.

use crate::repair::checks::{caller_reported, run_checks, select, CheckOptions, EvidenceDir};
use crate::session::{SessionCode, SessionError};
use a3s_test_fsroot::ConfinedPath;
use a3s_test_lang::ir::VerificationCheck;
use a3s_test_ledger::verification::{CheckOutcome, CheckResult};
use std::path::Path;

/// The orchestrator's results for exactly the selected checks, in slice order.
pub fn reported(ids: &[String], reported: &[CheckResult]) -> Vec<CheckResult> {
    ids.iter()
        .map(|id| match reported.iter().find(|r| &r.id == id) {
            Some(r) => r.clone(),
            None => caller_reported(
                id.clone(),
                CheckOutcome::Failed,
                Some("selected by the slice but not in --checks-json".into()),
            ),
        })
        .collect()
}

/// Run the selected checks in `root`, their output kept under `session_dir/dir/checks` (every
/// folder on the way opened without following links).
pub async fn execute(
    root: &Path,
    catalog: &[VerificationCheck],
    ids: &[String],
    session_dir: &ConfinedPath,
    dir: &str,
) -> Result<Vec<CheckResult>, SessionError> {
    // The slice was planned over this catalog, so every selected id is in it.
    let checks = select(catalog, ids)
        .map_err(|e| SessionError::new(SessionCode::InvalidInput, e.to_string()))?;
    if checks.is_empty() {
        return Ok(Vec::new());
    }
    let session = session_dir.open_dir().map_err(|e| SessionError::fs(&e))?;
    let evidence = EvidenceDir::create(&session, &format!("{dir}/checks"))
        .map_err(|e| SessionError::fs(e.fs()))?;
    run_checks(root, &checks, &evidence, &CheckOptions::default())
        .await
        .map_err(|e| SessionError::new(e.code(), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_ledger::verification::CheckMode;

    fn result(id: &str, outcome: CheckOutcome) -> CheckResult {
        CheckResult {
            duration_ms: 3,
            ..caller_reported(id.into(), outcome, None)
        }
    }

    #[test]
    fn reported_results_cover_exactly_the_selected_checks() {
        let given = [
            result("unit", CheckOutcome::Passed),
            result("e2e", CheckOutcome::Passed),
        ];
        let ids = ["lint".to_string(), "unit".to_string()];
        let out = reported(&ids, &given);
        let seen: Vec<(&str, CheckOutcome)> =
            out.iter().map(|r| (r.id.as_str(), r.outcome)).collect();
        // A selected check the caller did not report fails; an unselected report is ignored.
        assert_eq!(
            seen,
            [
                ("lint", CheckOutcome::Failed),
                ("unit", CheckOutcome::Passed)
            ]
        );
        assert!(out.iter().all(|r| r.mode == CheckMode::CallerReported));
    }
}
