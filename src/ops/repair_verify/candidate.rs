//! Step 8: the ACL regression candidate. When the target resolved through a stable locator and
//! the finding has explicit text criteria, `runner::repair::candidate` prints and admits the
//! candidate suite, and the session's supervisor proves it in a fresh browser context of the
//! session's browser (`RepairProve`), writing it under the verification's evidence folder. It is
//! never written into the application's files.

use super::{Checked, Facts};
use crate::ops::session::turn;
use crate::ops::Context;
use a3s_test_ledger::verification::{CandidateRecord, VerificationRecord};
use a3s_test_ledger::Finding;
use a3s_test_runner::repair::candidate::generate;
use a3s_test_runner::session::protocol::RepairProve;
use a3s_test_runner::session::{SessionCode, SessionError};

/// The code of a failed proof that names none of its own.
pub const PROOF_FAILED: &str = SessionCode::RepairCandidateFailed.as_str();

/// What step 8 came to.
pub enum Step8 {
    /// The finding allows no candidate (no stable target, no text criterion, no page URL).
    NotDue,
    /// The candidate and its proof (passed or failed).
    Proven(CandidateRecord),
    /// A candidate was due but did not admit (a generator bug): step 8 fails with this message.
    NotAdmitted(String),
}

/// Generate and prove the candidate.
pub fn prove(
    ctx: &Context,
    c: &Checked,
    finding: &Finding,
    facts: &Facts,
    record: &VerificationRecord,
    dir: &str,
) -> Result<Step8, SessionError> {
    let Some(target) = &record.page.target else {
        return Ok(Step8::NotDue);
    };
    let Some(url) = facts.baseline.as_ref().map(|b| b.url.clone()) else {
        return Ok(Step8::NotDue);
    };
    let source = match generate(finding, target, &url) {
        Ok(Some(source)) => source,
        Ok(None) => return Ok(Step8::NotDue),
        Err(e) => return Ok(Step8::NotAdmitted(e.to_string())),
    };
    let request = RepairProve {
        candidate: source,
        dir: dir.to_owned(),
    };
    turn(ctx, c.session.as_str(), request).map(Step8::Proven)
}
