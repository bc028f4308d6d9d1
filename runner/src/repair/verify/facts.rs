//! What the ledger already knows about a finding that a verification builds on: the *before*
//! baseline A3S Test captured when the finding entered from the live page, and the proof of the
//! latest earlier ACL candidate (a failed one widens the slice), and the replacement target the
//! agent declared when it completed the attempt under verification.

use a3s_test_ledger::verification::Baseline;
use a3s_test_ledger::{AttemptId, Finding, FindingState, LedgerState};

/// The ledger's facts about one finding.
#[derive(Clone, Debug, Default)]
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
    /// The revision step 1 must see a newer ready one than: the later of the finding's context
    /// revision (when the reviewer marked it) and the revision A3S Test's own baseline saw when
    /// the finding was drained from the live page. Edits start after both, so a page that only
    /// changed between the mark and the drain does not pass for a repaired one.
    pub fn reference_revision(&self, finding: &Finding) -> Option<u64> {
        let baseline = self.baseline.as_ref().and_then(|b| b.revision);
        finding.context_revision.max(baseline)
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(context_revision: Option<u64>) -> Finding {
        let revision =
            context_revision.map_or(String::new(), |r| format!(r#","contextRevision":{r}"#));
        let doc = format!(
            r#"{{"protocol":"a3s.test.repair/1","repairs":[{{"id":"f1","createdAt":"2026-01-01T00:00:00Z",
            "target":{{"kind":"node","nodeIds":["n1"]}},"instruction":"Make it blue","intent":"fix",
            "severity":"important","status":"queued","context":{{"untrusted":true}}{revision}}}]}}"#
        );
        a3s_test_ledger::parse_document(doc.as_bytes())
            .unwrap()
            .remove(0)
    }

    fn baseline(revision: Option<u64>) -> Facts {
        Facts {
            baseline: Some(Baseline {
                url: "http://127.0.0.1:1/".into(),
                revision,
                console_errors: 0,
                page_errors: 0,
                evidence: Vec::new(),
            }),
            ..Facts::default()
        }
    }

    #[test]
    fn the_reference_is_the_later_of_the_mark_and_the_baseline() {
        assert_eq!(
            baseline(Some(9)).reference_revision(&finding(Some(4))),
            Some(9)
        );
        assert_eq!(
            baseline(Some(4)).reference_revision(&finding(Some(9))),
            Some(9)
        );
        assert_eq!(
            baseline(None).reference_revision(&finding(Some(4))),
            Some(4)
        );
        assert_eq!(
            baseline(Some(7)).reference_revision(&finding(None)),
            Some(7)
        );
        assert_eq!(Facts::default().reference_revision(&finding(None)), None);
    }
}
