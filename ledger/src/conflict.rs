//! Conflict holds at intake: findings that must not be repaired independently are held for a
//! person (`queued → needs_input`, naming the other finding) instead of being handed to two
//! workers who would edit one scope at once.
//!
//! Three rules, checked for every pair that includes a finding of the batch being taken in:
//! - a `conflicts_with` relation the reviewer declared (compared by id only, never inferred from
//!   the instruction text), when both findings are `queued`;
//! - targets that overlap (a shared node id, or regions sharing an area), when the other finding
//!   is still open ([`is_open`]) — in this batch or an earlier one;
//! - source hints naming the same file, when the other finding is open: the same file is enough
//!   when either hint has no line, and when both name lines their line ranges must overlap.
//!
//! Only a `queued` finding can be held, so a new finding that overlaps one an agent is already
//! repairing is held alone, naming it; two queued ones are both held, each naming the other.

use crate::event::HoldReason;
use crate::id::FindingId;
use crate::record::Finding;
use crate::source::{source_mappings, SourceMapping};
use crate::status::RepairStatus;

/// A finding as the conflict check sees it.
pub struct Candidate<'a> {
    /// The finding.
    pub finding: &'a Finding,
    /// Its status before holds.
    pub status: RepairStatus,
    /// Whether it arrived in the batch being checked.
    pub in_batch: bool,
}

/// Whether a finding in `status` still has work ahead that an agent may do: queued or held,
/// leased, failed verification or reopened. A finding awaiting review or finished is not open,
/// so a new finding on the same scope is not held for it.
pub fn is_open(status: RepairStatus) -> bool {
    matches!(
        status,
        RepairStatus::Queued
            | RepairStatus::Claimed
            | RepairStatus::Repairing
            | RepairStatus::Verifying
            | RepairStatus::NeedsInput
            | RepairStatus::VerificationFailed
            | RepairStatus::Reopened
    )
}

/// A source hint's file and line range (`line..=endLine`, or the one line), when it names lines.
fn span(m: &SourceMapping) -> (&str, Option<(u32, u32)>) {
    let lines = m.line.map(|l| (l, m.end_line.unwrap_or(l).max(l)));
    (m.file.as_str(), lines)
}

/// The first file two findings' source hints share, by the rule in the module doc.
pub fn shared_source(a: &Finding, b: &Finding) -> Option<String> {
    let (ma, mb) = (
        source_mappings(a.context.as_deref()),
        source_mappings(b.context.as_deref()),
    );
    ma.iter().find_map(|x| {
        let (file, lines) = span(x);
        mb.iter()
            .map(span)
            .any(|(other, other_lines)| {
                other == file
                    && match (lines, other_lines) {
                        (Some((s1, e1)), Some((s2, e2))) => s1 <= e2 && s2 <= e1,
                        _ => true,
                    }
            })
            .then(|| file.to_owned())
    })
}

/// The holds to apply: each finding at most once, in the order found, with the first reason.
pub fn holds(candidates: &[Candidate<'_>]) -> Vec<(FindingId, HoldReason)> {
    let mut out: Vec<(FindingId, HoldReason)> = Vec::new();
    let mut hold = |c: &Candidate<'_>, reason: HoldReason| {
        if c.status == RepairStatus::Queued && !out.iter().any(|(h, _)| *h == c.finding.id) {
            out.push((c.finding.id.clone(), reason));
        }
    };
    for (i, a) in candidates.iter().enumerate() {
        if !a.in_batch || a.status != RepairStatus::Queued {
            continue;
        }
        // Every other finding, but a pair of two batch findings only once (from the first).
        let others = candidates
            .iter()
            .enumerate()
            .filter(|(j, b)| *j != i && !(b.in_batch && *j < i))
            .map(|(_, b)| b);
        for b in others {
            let (fa, fb) = (a.finding, b.finding);
            let declared = b.status == RepairStatus::Queued
                && (fa.conflicts_with().any(|c| *c == fb.id)
                    || fb.conflicts_with().any(|c| *c == fa.id));
            let reason = |other: &FindingId| {
                if declared {
                    return Some(HoldReason::ConflictsWith {
                        other: other.clone(),
                    });
                }
                if !is_open(b.status) {
                    return None;
                }
                if fa.target_overlaps(fb) {
                    return Some(HoldReason::TargetOverlap {
                        other: other.clone(),
                    });
                }
                shared_source(fa, fb).map(|file| HoldReason::SharedSource {
                    other: other.clone(),
                    file,
                })
            };
            if let Some(r) = reason(&fb.id) {
                hold(a, r);
                hold(b, reason(&fa.id).expect("the rules are symmetric"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(id: &str, nodes: &[&str], hints: &str) -> Finding {
        let nodes: Vec<String> = nodes.iter().map(|n| format!("\"{n}\"")).collect();
        serde_json::from_str(&format!(
            r#"{{"id":"{id}","target":{{"kind":"node","nodeIds":[{}]}},"instruction":"x","intent":"fix","severity":"important","context":{{"untrusted":true,"sourceHints":[{hints}]}}}}"#,
            nodes.join(",")
        ))
        .unwrap()
    }

    fn hint(file: &str, lines: Option<(u32, u32)>) -> String {
        let lines = lines.map_or(String::new(), |(s, e)| {
            format!(r#","line":{s},"endLine":{e}"#)
        });
        format!(
            r#"{{"span":{{"file":"{file}"{lines}}},"confidence":1,"origin":"source_map","relation":"exact","registrationId":"r"}}"#
        )
    }

    fn run(list: &[(&Finding, RepairStatus, bool)]) -> Vec<(String, HoldReason)> {
        let c: Vec<Candidate<'_>> = list
            .iter()
            .map(|(f, status, in_batch)| Candidate {
                finding: f,
                status: *status,
                in_batch: *in_batch,
            })
            .collect();
        holds(&c)
            .into_iter()
            .map(|(id, r)| (id.as_str().to_owned(), r))
            .collect()
    }

    fn id(s: &str) -> FindingId {
        FindingId::parse(s).unwrap()
    }

    #[test]
    fn a_shared_file_holds_across_batches_naming_the_other() {
        let old = finding("old", &["n1"], &hint("src/Checkout.tsx", None));
        let new = finding("new", &["n9"], &hint("src/Checkout.tsx", Some((3, 9))));
        let held = run(&[
            (&old, RepairStatus::Queued, false),
            (&new, RepairStatus::Queued, true),
        ]);
        let shared = |other: &str| HoldReason::SharedSource {
            other: id(other),
            file: "src/Checkout.tsx".into(),
        };
        assert_eq!(
            held,
            vec![("new".into(), shared("old")), ("old".into(), shared("new"))]
        );
    }

    #[test]
    fn line_ranges_must_overlap_when_both_hints_have_lines() {
        let a = finding("a", &[], &hint("src/App.tsx", Some((1, 10))));
        let apart = finding("b", &[], &hint("src/App.tsx", Some((11, 20))));
        let touching = finding("c", &[], &hint("src/App.tsx", Some((10, 12))));
        let other_file = finding("d", &[], &hint("src/Other.tsx", Some((1, 10))));
        for (b, expect) in [(&apart, false), (&touching, true), (&other_file, false)] {
            let held = run(&[
                (&a, RepairStatus::Queued, false),
                (b, RepairStatus::Queued, true),
            ]);
            assert_eq!(!held.is_empty(), expect, "{}", b.id);
        }
    }

    #[test]
    fn an_open_finding_an_agent_holds_is_named_but_not_held() {
        let busy = finding("busy", &["n1"], "");
        let new = finding("new", &["n1"], "");
        let held = run(&[
            (&busy, RepairStatus::Repairing, false),
            (&new, RepairStatus::Queued, true),
        ]);
        assert_eq!(
            held,
            vec![(
                "new".into(),
                HoldReason::TargetOverlap { other: id("busy") }
            )]
        );
    }

    #[test]
    fn finished_or_reviewed_findings_hold_nothing() {
        let new = finding("new", &["n1"], &hint("src/A.tsx", None));
        for status in [
            RepairStatus::ReviewReady,
            RepairStatus::Resolved,
            RepairStatus::Dismissed,
            RepairStatus::Cancelled,
            RepairStatus::Failed,
        ] {
            let done = finding("done", &["n1"], &hint("src/A.tsx", None));
            let held = run(&[(&done, status, false), (&new, RepairStatus::Queued, true)]);
            assert!(held.is_empty(), "{status}: {held:?}");
        }
    }

    #[test]
    fn unrelated_findings_and_earlier_pairs_are_not_held() {
        let a = finding("a", &["n1"], &hint("src/A.tsx", None));
        let b = finding("b", &["n2"], &hint("src/B.tsx", None));
        assert!(run(&[
            (&a, RepairStatus::Queued, false),
            (&b, RepairStatus::Queued, true)
        ])
        .is_empty());
        // Two findings already in the ledger are not checked again by a later intake.
        let c = finding("c", &["n1"], "");
        let d = finding("d", &["n7"], "");
        assert!(run(&[
            (&a, RepairStatus::Queued, false),
            (&c, RepairStatus::Queued, false),
            (&d, RepairStatus::Queued, true)
        ])
        .is_empty());
    }
}
