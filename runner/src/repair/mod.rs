//! The runner's side of verifying a repair: the work A3S Test does itself, so that an agent's
//! "done" is never the verdict.
//!
//! - [`checks`]: the project's trusted checks (or the results an orchestrator reported), step 7.
//! - [`candidate`]: the ACL regression candidate generated from a finding's typed criteria.
//! - [`proof`]: that candidate run by the suite executor in a fresh browser context.
//! - [`verify`]: the pipeline — one finding's verification, steps 0–8 in order, from the
//!   ledger's claim to the verdict it records.

pub mod candidate;
pub mod checks;
pub mod proof;
pub mod verify;
