//! Conflict holds at intake: findings that must not be repaired independently are held for a
//! person instead of being handed to two workers.
//!
//! Two sources only: a `conflicts_with` relation the reviewer declared (never inferred from the
//! instruction text), and two findings of one sent batch whose targets overlap (a shared node id
//! or regions sharing an area). Either way both findings must be `queued`; both go to
//! `needs_input`.

use crate::event::HoldReason;
use crate::id::FindingId;
use crate::record::Finding;
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

/// The holds to apply: each finding at most once, in the order found, with the first reason.
pub fn holds(candidates: &[Candidate<'_>]) -> Vec<(FindingId, HoldReason)> {
    let mut out: Vec<(FindingId, HoldReason)> = Vec::new();
    let mut hold = |id: &FindingId, reason: HoldReason| {
        if !out.iter().any(|(h, _)| h == id) {
            out.push((id.clone(), reason));
        }
    };
    let queued = |c: &Candidate<'_>| c.status == RepairStatus::Queued;
    for (i, a) in candidates.iter().enumerate() {
        if !a.in_batch {
            continue;
        }
        for b in candidates.iter() {
            if std::ptr::eq(a, b) || !queued(a) || !queued(b) {
                continue;
            }
            let declared = a.finding.conflicts_with().any(|c| *c == b.finding.id)
                || b.finding.conflicts_with().any(|c| *c == a.finding.id);
            if declared {
                hold(
                    &a.finding.id,
                    HoldReason::ConflictsWith {
                        other: b.finding.id.clone(),
                    },
                );
                hold(
                    &b.finding.id,
                    HoldReason::ConflictsWith {
                        other: a.finding.id.clone(),
                    },
                );
            }
        }
        for b in candidates[i + 1..].iter().filter(|b| b.in_batch) {
            if queued(a) && queued(b) && a.finding.target_overlaps(b.finding) {
                hold(
                    &a.finding.id,
                    HoldReason::TargetOverlap {
                        other: b.finding.id.clone(),
                    },
                );
                hold(
                    &b.finding.id,
                    HoldReason::TargetOverlap {
                        other: a.finding.id.clone(),
                    },
                );
            }
        }
    }
    out
}
