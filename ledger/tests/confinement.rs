//! The ledger never reaches outside the session folder: a link (or FIFO, or second hard link)
//! where `.a3s-test`, `agent-sessions`, the session folder, `repairs.jsonl` or its `.torn` file
//! should be is `repair_unsafe_path` before anything is read or written, and the file it points
//! to stays byte-identical — the old writer cut such a file to 0 bytes and copied it into the
//! workspace on a *refused* claim. A request that appends nothing never cuts a torn tail.

mod common;

use a3s_test_ledger::store::StoreLimits;
use a3s_test_ledger::*;
use common::*;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// Bytes of a file outside the project: no final newline, so a writer that followed a link to it
/// would take all of it for a torn tail.
const OUTSIDE: &[u8] = b"precious outside data, no final newline";

struct Outside {
    dir: tempfile::TempDir,
}

impl Outside {
    fn new() -> Outside {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("data"), OUTSIDE).unwrap();
        Outside { dir }
    }

    fn file(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn assert_untouched(&self) {
        assert_eq!(std::fs::read(self.file()).unwrap(), OUTSIDE);
        let names: Vec<_> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["data"], "nothing was created outside");
    }
}

fn session_folder(fx: &Fixture) -> PathBuf {
    fx.dir.path().join(".a3s-test/agent-sessions/s1")
}

fn assert_unsafe(err: LedgerError, path: &Path) {
    assert_eq!(err.code, ErrorCode::UnsafePath, "{err}");
    assert!(
        err.message.contains(&path.display().to_string()),
        "the message names {}: {err}",
        path.display()
    );
    assert!(!err.message.contains('\n'), "one line: {err}");
}

/// Every ledger operation a caller can reach, each refused.
fn every_operation_is_refused(fx: &Fixture, link: &Path) {
    // A claim of a finding that does not exist is refused by the ledger too — the old writer
    // still cut and copied the torn tail first.
    assert_unsafe(fx.act("nope", Actor::Agent, claim().1).unwrap_err(), link);
    assert_unsafe(fx.act("f1", Actor::Agent, claim().1).unwrap_err(), link);
    assert_unsafe(fx.import(&[finding("f1", "")]).unwrap_err(), link);
    assert_unsafe(fx.ledger.read().unwrap_err(), link);
    let ledgers = read_sessions(fx.dir.path(), Some(&fx.session), &StoreLimits::default()).unwrap();
    let (_, state) = ledgers.into_iter().next().unwrap();
    assert_unsafe(state.unwrap_err(), link);
}

#[test]
fn a_symlinked_ledger_is_refused_and_its_target_kept_byte_identical() {
    let fx = Fixture::new();
    let outside = Outside::new();
    std::fs::create_dir_all(session_folder(&fx)).unwrap();
    let link = session_folder(&fx).join("repairs.jsonl");
    symlink(outside.file(), &link).unwrap();
    every_operation_is_refused(&fx, &link);
    // Listed, so the refusal shows instead of the session silently missing.
    let all = read_sessions(fx.dir.path(), None, &StoreLimits::default()).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].1.as_ref().unwrap_err().code, ErrorCode::UnsafePath);
    assert!(!session_folder(&fx).join("repairs.jsonl.torn").exists());
    outside.assert_untouched();
}

#[test]
fn a_symlinked_state_folder_session_folder_or_sessions_folder_is_refused() {
    for linked in [
        ".a3s-test",
        ".a3s-test/agent-sessions",
        ".a3s-test/agent-sessions/s1",
    ] {
        let fx = Fixture::new();
        let outside = Outside::new();
        let link = fx.dir.path().join(linked);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        symlink(outside.dir.path(), &link).unwrap();
        every_operation_is_refused(&fx, &link);
        if linked != ".a3s-test/agent-sessions/s1" {
            let err = read_sessions(fx.dir.path(), None, &StoreLimits::default()).unwrap_err();
            assert_unsafe(err, &link);
        }
        outside.assert_untouched();
    }
}

#[test]
fn a_hard_linked_ledger_is_never_written_or_cut() {
    let fx = Fixture::new();
    let outside = Outside::new();
    std::fs::create_dir_all(session_folder(&fx)).unwrap();
    let inside = session_folder(&fx).join("repairs.jsonl");
    std::fs::hard_link(outside.file(), &inside).unwrap();
    let err = fx.act("f1", Actor::Agent, claim().1).unwrap_err();
    assert_unsafe(err, &inside);
    let err = fx.import(&[finding("f1", "")]).unwrap_err();
    assert_unsafe(err, &inside);
    assert!(!session_folder(&fx).join("repairs.jsonl.torn").exists());
    outside.assert_untouched();
}

#[test]
fn a_symlinked_torn_file_stops_the_recovery_before_the_ledger_is_cut() {
    let fx = Fixture::new();
    let outside = Outside::new();
    fx.import(&[finding("f1", "")]).unwrap();
    let mut bytes = fx.bytes();
    bytes.extend_from_slice(br#"{"format":1,"seq":2,"at":"#);
    std::fs::write(fx.ledger.path(), &bytes).unwrap();
    let link = session_folder(&fx).join("repairs.jsonl.torn");
    symlink(outside.file(), &link).unwrap();
    let err = fx.act("f1", Actor::Agent, claim().1).unwrap_err();
    assert_unsafe(err, &link);
    assert_eq!(fx.bytes(), bytes, "the ledger keeps its torn tail");
    outside.assert_untouched();
}

#[test]
fn a_request_that_appends_nothing_leaves_a_torn_tail_in_place() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    let mut bytes = fx.bytes();
    bytes.extend_from_slice(br#"{"format":1,"seq":2"#);
    std::fs::write(fx.ledger.path(), &bytes).unwrap();
    // Refused by the ledger (no such finding; then a human verb the status does not allow).
    let err = fx.act("nope", Actor::Agent, claim().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::UnknownFinding);
    let err = fx
        .act("f1", Actor::Human, Action::Reopen { message: None })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidTransition);
    assert_eq!(fx.bytes(), bytes);
    assert!(!session_folder(&fx).join("repairs.jsonl.torn").exists());
    // The next append keeps the tail aside and cuts it.
    let applied = fx.act("f1", Actor::Agent, claim().1).unwrap();
    assert!(applied.recovered_tail.is_some());
    let torn = std::fs::read(session_folder(&fx).join("repairs.jsonl.torn")).unwrap();
    assert_eq!(torn, b"{\"format\":1,\"seq\":2\n");
}

#[test]
fn a_fifo_in_place_of_the_ledger_is_refused_without_blocking() {
    let fx = Fixture::new();
    std::fs::create_dir_all(session_folder(&fx)).unwrap();
    let fifo = session_folder(&fx).join("repairs.jsonl");
    rustix_free_mkfifo(&fifo);
    let ledger = fx.ledger.clone();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send((ledger.read().map(|_| ()), ledger.exists()));
    });
    let (read, exists) = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the reader blocked on the FIFO");
    assert_unsafe(read.unwrap_err(), &fifo);
    assert!(exists.unwrap());
    let err = fx.act("f1", Actor::Agent, claim().1).unwrap_err();
    assert_unsafe(err, &fifo);
}

/// `mkfifo(1)`: the test depends on no FFI crate for one call.
fn rustix_free_mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}
