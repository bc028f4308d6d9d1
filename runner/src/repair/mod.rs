//! The runner's side of verifying a repair: the work A3S Test does itself, so that an agent's
//! "done" is never the verdict.
//!
//! - [`checks`]: the project's trusted checks (or the results an orchestrator reported), step 7.
//! - [`candidate`]: the ACL regression candidate generated from a finding's typed criteria.
//! - [`proof`]: that candidate run by the suite executor in a fresh browser context.

pub mod candidate;
pub mod checks;
pub mod proof;
