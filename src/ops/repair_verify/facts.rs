//! What the ledger already knows about a finding that a verification builds on: the *before*
//! baseline A3S Test captured when the finding entered from the live page, and the proof of the
//! latest earlier ACL candidate (a failed one widens the slice), and the replacement target the
//! agent declared when it completed the attempt under verification.

use a3s_test_ledger::verification::Baseline;
use a3s_test_ledger::{AttemptId, FindingState, LedgerState};

/// The ledger's facts about one finding.
#[derive(Debug, Default)]
pub struct Facts {
    /// The baseline recorded for the finding, if any (a finding imported without a live page has
    /// none).
    pub baseline: Option<Baseline>,
    /// Whether the latest earlier verification's ACL candidate proof passed (`None` when no
    /// earlier verification produced a candidate).
    pub prior_acl_proof_passed: Option<bool>,
    /// The replacement target declared at `repair-complete` of the verified attempt.
    pub replacement: Option<String>,
}

impl Facts {
    /// Read the facts of `finding` from the folded `state`, before this verification appends
    /// anything of its own.
    pub fn read(state: &LedgerState, finding: &FindingState, attempt: &AttemptId) -> Facts {
        Facts {
            baseline: state.baseline(finding).cloned(),
            prior_acl_proof_passed: state.prior_acl_proof_passed(finding),
            replacement: finding
                .attempts
                .iter()
                .find(|a| &a.id == attempt)
                .and_then(|a| a.replacement.clone()),
        }
    }
}
