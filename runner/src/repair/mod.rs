//! Repair verification on the runner side: what the tool itself runs to judge a repair, so the
//! agent that made it never certifies its own work.
//!
//! - [`candidate`]: the ACL regression candidate generated from a finding's typed criteria.
//! - [`proof`]: that candidate run by the suite executor in a fresh browser context.

pub mod candidate;
pub mod proof;
