//! Death follows the owner: a `kill -9` of the process that owns a terminal takes the program
//! along (the parent-death signal armed through `a3s_test_driver::child`). The owner is a
//! test-only helper binary, `tests/helpers/owner_helper.rs`.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn a_sigkilled_owner_takes_its_terminal_program_along() {
    let mut owner = Command::new(env!("CARGO_BIN_EXE_a3s-test-tui-owner-helper"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the helper starts");
    let mut line = String::new();
    BufReader::new(owner.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let pid: u32 = line
        .trim()
        .strip_prefix("PID=")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("the helper prints PID=…, got {line:?}"));
    let start = a3s_test_driver::process::start_time(pid).expect("the program runs");
    assert!(!a3s_test_driver::live_group_members(pid).is_empty());

    owner.kill().unwrap(); // SIGKILL: no handler, no drop.
    owner.wait().unwrap();

    assert!(
        common::group_gone(pid),
        "the program's group died with its owner"
    );
    assert!(!a3s_test_driver::process::is_alive(pid, start));
}
