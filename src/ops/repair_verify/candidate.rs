//! Step 8: the ACL regression candidate. When the target resolved through a stable locator and
//! the finding has explicit text criteria, `runner::repair::candidate` prints and admits the
//! candidate suite, and the session's supervisor proves it in a fresh browser context of the
//! session's browser (`RepairProve`), writing it under the verification's evidence folder. It is
//! never written into the application's files.

use super::{Checked, Facts};
use crate::ops::session::{turn, typed};
use crate::ops::Context;
use a3s_test_ledger::verification::{CandidateRecord, VerificationRecord};
use a3s_test_ledger::{ErrorCode, Finding};
use a3s_test_runner::repair::candidate::generate;
use a3s_test_runner::session::protocol::Request;
use a3s_test_runner::session::{SessionCode, SessionError};

/// The code of a failed proof that names none of its own: the candidate is not proven.
pub const PROOF_FAILED: &str = ErrorCode::NotProven.as_str();

/// Generate and prove the candidate, or `None` when the finding allows none (no stable target,
/// no text criterion, no page URL).
pub fn prove(
    ctx: &Context,
    c: &Checked,
    finding: &Finding,
    facts: &Facts,
    record: &VerificationRecord,
    dir: &str,
) -> Result<Option<CandidateRecord>, SessionError> {
    let Some(target) = &record.target else {
        return Ok(None);
    };
    let Some(url) = facts.baseline.as_ref().map(|b| b.url.clone()) else {
        return Ok(None);
    };
    let source = generate(finding, target, &url)
        .map_err(|e| SessionError::new(SessionCode::Supervisor, e.to_string()))?;
    let Some(source) = source else {
        return Ok(None);
    };
    let request = Request::RepairProve {
        candidate: source,
        dir: dir.to_owned(),
    };
    typed(turn(ctx, c.session.as_str(), request)?).map(Some)
}
