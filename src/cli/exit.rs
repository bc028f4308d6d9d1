//! Process exit codes of `check` and `fmt`, one named constant each (`docs/acl.md` §13 gives the same
//! numbers for `run`: 2 always means invalid input).

use std::process::ExitCode;

/// Everything was admitted (check) or already formatted / formatted now (fmt).
pub const SUCCESS: u8 = 0;
/// `fmt --check` found files whose layout is not canonical.
pub const WOULD_REFORMAT: u8 = 1;
/// Invalid input: a file was not admitted, could not be read, or has a syntax error.
pub const INVALID_INPUT: u8 = 2;
/// `fmt` was stopped by Ctrl+C, SIGTERM or SIGHUP (128 + SIGINT, as for `run`).
pub const INTERRUPTED: u8 = 130;

/// The `ExitCode` for one of the constants above.
pub fn code(value: u8) -> ExitCode {
    ExitCode::from(value)
}
