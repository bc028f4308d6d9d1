//! Shared by the terminal engine's tests: starting real programs, deadlines, and the `/proc`
//! check that nothing of a program's group is left.
#![allow(dead_code)]

use a3s_test_tui::{ProgramSpec, Terminal, TerminalOptions, TerminalSize};
use std::time::{Duration, Instant};

/// A deadline `secs` from now: generous, since the machine is shared with other builds.
pub fn within(secs: u64) -> Instant {
    Instant::now() + Duration::from_secs(secs)
}

/// Start `argv` on an 80×24 terminal.
pub fn start(argv: &[&str]) -> Terminal {
    start_with(argv, TerminalOptions::default())
}

/// Start `argv` with `options`.
pub fn start_with(argv: &[&str], options: TerminalOptions) -> Terminal {
    Terminal::spawn(&spec(argv), options).expect("the program starts")
}

/// The spec of `argv`, with a `HOME` and history files that leave nothing behind.
pub fn spec(argv: &[&str]) -> ProgramSpec {
    let mut spec = ProgramSpec::new(argv[0], &argv[1..]);
    spec.env = vec![
        ("LESSHISTFILE".into(), "-".into()),
        ("PYTHONSTARTUP".into(), "".into()),
        ("PYTHON_BASIC_REPL".into(), "1".into()),
    ];
    spec
}

/// Options with another size.
pub fn sized(columns: u32, rows: u32) -> TerminalOptions {
    TerminalOptions {
        size: TerminalSize::new(columns, rows).expect("a valid size"),
        ..TerminalOptions::default()
    }
}

/// Whether no live process is left in group `pgid`, checked through `/proc` until a deadline
/// (a group member killed by a signal disappears once its parent reaps it).
pub fn group_gone(pgid: u32) -> bool {
    let until = within(5);
    loop {
        if a3s_test_driver::live_group_members(pgid).is_empty() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        std::thread::yield_now();
    }
}
