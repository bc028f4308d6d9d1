//! Snapshot expectations, decided by the runner: `expect { screenshot }` against a baseline
//! image beside the suite (`visual.rs`, comparing with `pixels.rs`, files in `baseline.rs`)
//! and `expect { aria_snapshot }` against a written outline (`aria.rs`) — `docs/acl.md` §9.2.
//!
//! Why in the runner: a surface only captures ([`a3s_test_driver::SurfaceContext::capture`]);
//! the baseline, the update mode and the read-again loop are one rule for every surface, as
//! every other `expect` is ([`crate::expect`]).

pub mod aria;
pub mod baseline;
pub mod pixels;
pub mod visual;
