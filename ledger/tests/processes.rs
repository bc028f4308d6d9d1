//! Real processes against one ledger: a writer killed with SIGKILL in the middle of a stream of
//! appends loses no acknowledged event and leaves a readable file; two writer processes at once
//! never interleave, lose an event, or both win one claim.
//!
//! The children are the test-only helper binary `a3s-test-ledger-writer`
//! (`tests/helpers/writer.rs`), told what to write by `A3S_LEDGER_*` variables. Each child runs in
//! its own process group with a deadline, and is killed by its pid only.

mod common;

use a3s_test_fsroot::ConfinedPath;
use a3s_test_ledger::*;
use common::*;
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

const CHILD: &str = "A3S_LEDGER_CHILD";
const DEADLINE: Duration = Duration::from_secs(120);

fn spawn_child(mode: &str, path: &Path, prefix: &str, count: usize) -> Child {
    Command::new(env!("CARGO_BIN_EXE_a3s-test-ledger-writer"))
        .env(CHILD, mode)
        .env("A3S_LEDGER_PATH", path)
        .env("A3S_LEDGER_PREFIX", prefix)
        .env("A3S_LEDGER_COUNT", count.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
        .unwrap()
}

/// Forward the child's stdout lines to a channel (so the parent can wait with a deadline).
fn lines_of(child: &mut Child) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

fn kill_group(child: &Child) {
    // SAFETY: signals the process group of a child this test spawned (pgid = its pid).
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
}

/// Wait for `child` to exit before `deadline`; on timeout kill its group and fail.
fn wait_until(child: &mut Child, deadline: Instant) -> std::process::ExitStatus {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() >= deadline {
            kill_group(child);
            let _ = child.wait();
            panic!("child {} missed its deadline", child.id());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_writer_killed_mid_stream_loses_no_acknowledged_event() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repairs.jsonl");
    let mut child = spawn_child("crash", &path, "k", 100_000);
    let rx = lines_of(&mut child);
    let deadline = Instant::now() + DEADLINE;
    let mut acked = Vec::new();
    while acked.len() < 60 {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                if let Some(id) = line.strip_prefix("ack ") {
                    acked.push(id.to_owned());
                }
            }
            Err(_) => {
                kill_group(&child);
                let _ = child.wait();
                panic!("the writer stopped acknowledging");
            }
        }
    }
    kill_group(&child);
    let status = wait_until(&mut child, deadline);
    assert!(!status.success(), "the writer was killed, not finished");
    // Acknowledgements that were already in the pipe count too.
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(5)) {
        if let Some(id) = line.strip_prefix("ack ") {
            acked.push(id.to_owned());
        }
    }
    let ledger = Ledger::at_path(
        ConfinedPath::new(dir.path(), "repairs.jsonl"),
        Arc::new(SystemClock),
    );
    let state = ledger.read().expect("the ledger still reads after SIGKILL");
    let present: HashSet<&str> = state.findings.iter().map(|f| f.id.as_str()).collect();
    for id in &acked {
        assert!(
            present.contains(id.as_str()),
            "acknowledged {id} is missing"
        );
    }
    assert!(present.len() >= acked.len());
    // And a new writer carries on after the last complete record.
    let more = parse_document(doc(&[finding("after", "")]).as_bytes()).unwrap();
    ledger.intake(more, Actor::Human).unwrap();
    let state = ledger.read().unwrap();
    assert!(state.torn_tail.is_none());
    assert_eq!(state.findings.last().unwrap().id.as_str(), "after");
}

#[test]
fn two_writer_processes_never_interleave_lose_events_or_share_a_claim() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repairs.jsonl");
    let ledger = Ledger::at_path(
        ConfinedPath::new(dir.path(), "repairs.jsonl"),
        Arc::new(SystemClock),
    );
    let seeds: Vec<String> = (0..50).map(|i| finding(&format!("c{i}"), "")).collect();
    ledger
        .intake(
            parse_document(doc(&seeds).as_bytes()).unwrap(),
            Actor::Human,
        )
        .unwrap();
    const N: usize = 100;
    let mut a = spawn_child("contend", &path, "a", N);
    let mut b = spawn_child("contend", &path, "b", N);
    let (ra, rb) = (lines_of(&mut a), lines_of(&mut b));
    let deadline = Instant::now() + DEADLINE;
    assert!(wait_until(&mut a, deadline).success());
    assert!(wait_until(&mut b, deadline).success());
    let mut claims: HashMap<String, Vec<String>> = HashMap::new();
    for rx in [ra, rb] {
        for line in rx.iter() {
            if let Some(rest) = line.strip_prefix("claimed ") {
                let (target, attempt) = rest.split_once(' ').unwrap();
                claims
                    .entry(target.into())
                    .or_default()
                    .push(attempt.into());
            }
        }
    }
    let state = ledger.read().unwrap();
    assert_eq!(state.findings.len(), 50 + 2 * N);
    assert_eq!(state.events.len() as u64, state.next_seq() - 1);
    for i in 0..50 {
        let id = format!("c{i}");
        let won = claims.get(&id).map_or(0, Vec::len);
        assert_eq!(won, 1, "{id} was claimed {won} times");
        let f = state.finding(&fid(&id)).unwrap();
        assert_eq!(f.attempts.len(), 1);
        assert_eq!(f.attempts[0].id.as_str(), claims[&id][0]);
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.ends_with('\n'));
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("every line is one whole event");
    }
}
