//! Death follows the owner, and sessions are owned state: `kill -9` of `a3s-test run`, the signal
//! × command × trial matrix, and a cleanup that really fails then succeeds on retry. Their own
//! test binary, so the many browser launches of their trials never run beside the
//! timing-sensitive tests of `tests/run` (cargo runs test binaries one after another).

mod cleanup;
#[path = "../common.rs"]
mod common;
#[path = "../run/harness.rs"]
#[allow(dead_code)]
mod harness;
mod kill;
mod matrix;
#[path = "../owned.rs"]
mod owned;
