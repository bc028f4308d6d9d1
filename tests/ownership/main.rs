//! Death follows the owner, for `a3s-test run`: its own test binary, so the many browser launches
//! of its trials never run beside the timing-sensitive tests of `tests/run` (cargo runs test
//! binaries one after another).

#[path = "../common.rs"]
mod common;
#[path = "../run/harness.rs"]
#[allow(dead_code)]
mod harness;
mod kill;
mod matrix;
#[path = "../owned.rs"]
mod owned;
