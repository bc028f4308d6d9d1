//! `a3s-test contract check`: reconcile an admitted Surface Contract against the rendered page,
//! deterministically — each expectation met, missing or different, with what was seen.
//!
//! Why split in two: [`read`] asks the live context the same read-only questions repair
//! verification asks (how many elements a role and exact name match and their state, a box, the
//! visible text) and decides nothing; [`judge`] turns those facts into outcomes with no browser,
//! so every rule is unit-tested. [`report`] holds the typed result the command prints and writes;
//! [`step`] is a suite's `check_contract` step over the same reads and rules.

pub mod admit;
pub mod judge;
pub mod read;
pub mod report;
pub mod step;

pub use report::{ContractReport, ExpectationResult, Outcome, RouteReport};
