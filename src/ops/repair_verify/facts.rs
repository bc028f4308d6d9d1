//! What the ledger already knows about a finding that a verification builds on: the *before*
//! baseline A3S Test captured when the finding entered from the live page, and the proof of the
//! latest earlier ACL candidate (a failed one widens the slice).

use a3s_test_ledger::verification::Baseline;
use a3s_test_ledger::{Action, FindingState, LedgerState};

/// The ledger's facts about one finding.
#[derive(Debug, Default)]
pub struct Facts {
    /// The first baseline recorded for the finding, if any (a finding imported without a live
    /// page has none).
    pub baseline: Option<Baseline>,
    /// Whether the latest earlier verification's ACL candidate proof passed (`None` when no
    /// earlier verification produced a candidate).
    pub prior_acl_proof_passed: Option<bool>,
}

impl Facts {
    /// Read the facts of `finding` from the folded `state`.
    pub fn read(state: &LedgerState, finding: &FindingState) -> Facts {
        let mut facts = Facts::default();
        for event in state.events.iter().filter(|e| e.finding_id == finding.id) {
            match &event.action {
                Action::Baseline { baseline } if facts.baseline.is_none() => {
                    facts.baseline = Some(baseline.clone());
                }
                Action::VerifyResult { record, .. } => {
                    if let Some(candidate) = &record.candidate {
                        facts.prior_acl_proof_passed = Some(candidate.proof.passed);
                    }
                }
                _ => {}
            }
        }
        facts
    }
}
