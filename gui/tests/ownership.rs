//! The parent-death guarantee of the desktop: an owner killed with SIGKILL (no handler, no drop)
//! takes its whole desktop — the X server, both buses, the registry — and the program on it
//! along. The owner is the test-only helper binary `tests/helpers/owner_helper.rs`, started
//! with the variables that switch a program's accessibility off (`NO_AT_BRIDGE=1`,
//! `GTK_A11Y=none`): the calculator must still appear on the bus, since the desktop removes them.

use a3s_test_driver::live_group_members;
use a3s_test_driver::process::start_time;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Wait (bounded) until no live process is left in group `pgid`.
fn group_gone(pgid: u32, within: Duration) -> bool {
    let until = Instant::now() + within;
    loop {
        if live_group_members(pgid).is_empty() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        std::thread::yield_now();
    }
}

#[test]
fn a_sigkilled_owner_takes_its_desktop_and_program_along() {
    let mut owner = Command::new(env!("CARGO_BIN_EXE_a3s-test-gui-owner-helper"))
        .env("NO_AT_BRIDGE", "1")
        .env("GTK_A11Y", "none")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the helper starts");
    let stdout = owner.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(line) => line,
        Err(_) => {
            owner.kill().unwrap();
            panic!("the helper did not report its groups within 60 s");
        }
    };
    let groups: Vec<u32> = line
        .trim()
        .strip_prefix("GROUPS=")
        .map(|g| g.split(' ').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(groups.len(), 2, "the helper prints GROUPS=…, got {line:?}");
    let members: Vec<(u32, u64)> = groups
        .iter()
        .flat_map(|&pgid| live_group_members(pgid))
        .filter_map(|pid| start_time(pid).map(|start| (pid, start)))
        .collect();
    // Watchdog, X server, session bus, launcher, its bus, registry; watchdog and calculator.
    assert!(members.len() >= 8, "{members:?}");

    owner.kill().unwrap(); // SIGKILL: no handler, no drop.
    owner.wait().unwrap();

    for pgid in groups {
        assert!(
            group_gone(pgid, Duration::from_secs(5)),
            "group {pgid} died with its owner: {:?}",
            live_group_members(pgid)
        );
    }
    let survivors: Vec<_> = members
        .iter()
        .filter(|&&(pid, start)| a3s_test_driver::process::is_alive(pid, start))
        .collect();
    assert!(survivors.is_empty(), "{survivors:?}");
}
