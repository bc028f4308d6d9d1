//! A reference design review provider for A3S Test (`a3s.test.design-audit-report/1`): it
//! measures a page revision — WCAG contrast of text against what shows behind it, off-grid
//! spacing, an inconsistent font-size scale, misaligned edges within a cluster, pointer targets
//! under 24 px — from the forensic Page Context and the screenshot, and answers with advice.
//!
//! Why a separate binary: core bundles no provider; this one shows what a provider does and
//! gives the end-to-end tests a real one on loopback. It uses no model and no network beyond the
//! socket it listens on.

pub mod audit;
pub mod colour;
pub mod image;
pub mod measure;
pub mod server;
