//! Lease rules: the allowed lengths, when a lease counts as expired and where the expiry rule
//! sends a finding.
//!
//! A lease is what keeps a finding from being handed to a second worker: only the attempt that
//! holds it may report progress, reply, complete or fail, and it ends by time unless renewed.

use crate::error::{ErrorCode, LedgerError};
use crate::event::Lease;
use crate::status::RepairStatus;
use serde::Serialize;

/// Lease length when none is asked for: 5 minutes.
pub const DEFAULT_LEASE_MS: u64 = 5 * 60 * 1000;
/// The longest lease: 15 minutes.
pub const MAX_LEASE_MS: u64 = 15 * 60 * 1000;
/// The shortest lease: 1 second.
pub const MIN_LEASE_MS: u64 = 1000;

/// The longest verification lease: 7 days. A verification's lease is A3S Test's own estimate of
/// how long it may take (its page steps, every project check's own timeout, the candidate's
/// proof), and a project may give one check up to a day; the cap only keeps the number sane.
pub const MAX_VERIFY_LEASE_MS: u64 = 7 * 24 * 60 * 60 * 1000;

/// Resolve the lease of a `verify_start`: `None` is the default; out of range is rejected.
pub fn verify_lease_length(requested: Option<u64>) -> Result<u64, LedgerError> {
    bounded(requested, MAX_VERIFY_LEASE_MS, "verification lease")
}

/// Resolve a requested lease length: `None` is the default; out of range is rejected, never
/// clamped.
pub fn lease_length(requested: Option<u64>) -> Result<u64, LedgerError> {
    bounded(requested, MAX_LEASE_MS, "lease")
}

/// `requested` if it is within `MIN_LEASE_MS..=max`, the default lease if absent.
fn bounded(requested: Option<u64>, max: u64, what: &str) -> Result<u64, LedgerError> {
    match requested {
        None => Ok(DEFAULT_LEASE_MS),
        Some(ms) if (MIN_LEASE_MS..=max).contains(&ms) => Ok(ms),
        Some(ms) => Err(LedgerError::new(
            ErrorCode::InvalidLease,
            format!("{what} of {ms} ms is out of range {MIN_LEASE_MS}..={max} ms"),
        )),
    }
}

/// Whether `lease` has expired at `now_ms`.
pub fn is_expired(lease: &Lease, now_ms: u64) -> bool {
    now_ms >= lease.expires_at_ms
}

/// Where the expiry rule sends a finding whose lease ran out in `status`: back to `queued` if
/// no edit was reported, to `needs_input` once editing may have begun.
pub fn expiry_target(status: RepairStatus) -> RepairStatus {
    if status.editing_may_have_begun() {
        RepairStatus::NeedsInput
    } else {
        RepairStatus::Queued
    }
}

/// A lease as a view shows it at a given time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum LeaseState {
    /// No attempt holds the finding.
    None,
    /// An attempt holds it.
    Active {
        /// The holding attempt.
        attempt_id: String,
        /// RFC 3339 expiry.
        expires_at: String,
        /// Milliseconds left.
        remaining_ms: u64,
    },
    /// The lease ran out and no write has applied the expiry rule yet.
    Expired {
        /// The attempt whose lease ran out.
        attempt_id: String,
        /// RFC 3339 expiry.
        expired_at: String,
        /// Milliseconds since it expired.
        overdue_ms: u64,
        /// Where the next write will move the finding.
        returns_to: RepairStatus,
    },
}

impl LeaseState {
    /// The state of `lease` on a finding in `status` at `now_ms`.
    pub fn at(lease: Option<&Lease>, status: RepairStatus, now_ms: u64) -> Self {
        match lease {
            None => LeaseState::None,
            Some(l) if is_expired(l, now_ms) => LeaseState::Expired {
                attempt_id: l.attempt_id.to_string(),
                expired_at: crate::clock::rfc3339(l.expires_at_ms),
                overdue_ms: now_ms - l.expires_at_ms,
                returns_to: expiry_target(status),
            },
            Some(l) => LeaseState::Active {
                attempt_id: l.attempt_id.to_string(),
                expires_at: crate::clock::rfc3339(l.expires_at_ms),
                remaining_ms: l.expires_at_ms - now_ms,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lease_lengths_are_rejected_not_clamped() {
        assert_eq!(lease_length(None).unwrap(), 300_000);
        assert_eq!(lease_length(Some(900_000)).unwrap(), 900_000);
        assert_eq!(lease_length(Some(1_000)).unwrap(), 1_000);
        for bad in [0, 999, 900_001, u64::MAX] {
            assert_eq!(
                lease_length(Some(bad)).unwrap_err().code,
                ErrorCode::InvalidLease
            );
        }
    }

    #[test]
    fn expiry_depends_on_whether_editing_began() {
        assert_eq!(expiry_target(RepairStatus::Claimed), RepairStatus::Queued);
        assert_eq!(
            expiry_target(RepairStatus::Repairing),
            RepairStatus::NeedsInput
        );
        assert_eq!(
            expiry_target(RepairStatus::Verifying),
            RepairStatus::NeedsInput
        );
    }
}
