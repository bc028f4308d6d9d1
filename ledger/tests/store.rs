//! The on-disk ledger: torn tails are reported, skipped and recovered without losing a complete
//! record; corrupt lines, unknown formats, the size ceiling and a held lock give clear errors
//! and append nothing.

mod common;

use a3s_test_ledger::store::{read_ledger, StoreLimits};
use a3s_test_ledger::*;
use common::*;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::time::Duration;

fn append_raw(fx: &Fixture, bytes: &[u8]) {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(fx.ledger.path())
        .unwrap();
    f.write_all(bytes).unwrap();
}

#[test]
fn a_torn_last_line_is_reported_skipped_and_cut_by_the_next_writer() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", "")]).unwrap();
    let complete = fx.bytes();
    append_raw(&fx, br#"{"format":1,"seq":3,"at":"2026-01-"#);
    let report = read_ledger(fx.ledger.location(), &StoreLimits::default()).unwrap();
    assert_eq!(report.events.len(), 2, "every complete record is kept");
    let torn = report.torn_tail.unwrap();
    assert_eq!(torn.offset, complete.len() as u64);
    let state = fx.ledger.read().unwrap();
    assert!(state.torn_tail.is_some());
    // The next writer keeps the torn bytes aside, cuts them and appends after the last record.
    let applied = fx.act("f1", Actor::Agent, claim().1).unwrap();
    assert_eq!(
        applied.recovered_tail.unwrap().offset,
        complete.len() as u64
    );
    let after = fx.bytes();
    assert!(after.starts_with(&complete));
    let state = fx.ledger.read().unwrap();
    assert_eq!(state.events.len(), 3);
    assert!(state.torn_tail.is_none());
    let mut torn_path = fx.ledger.path().as_os_str().to_owned();
    torn_path.push(".torn");
    let kept = std::fs::read_to_string(torn_path).unwrap();
    assert!(kept.starts_with(r#"{"format":1,"seq":3"#));
}

#[test]
fn a_complete_line_that_does_not_parse_is_corruption_not_skipped() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    append_raw(&fx, b"{not json}\n");
    let before = fx.bytes();
    let err = fx.ledger.read().unwrap_err();
    assert_eq!(err.code, ErrorCode::LedgerCorrupt);
    let err = fx.act("f1", Actor::Agent, claim().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::LedgerCorrupt);
    assert_eq!(fx.bytes(), before);
}

#[test]
fn events_breaking_sequence_or_state_machine_are_corruption() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    let text = String::from_utf8(fx.bytes()).unwrap();
    let dup = format!("{text}{text}");
    std::fs::write(fx.ledger.path(), dup).unwrap();
    assert_eq!(fx.ledger.read().unwrap_err().code, ErrorCode::LedgerCorrupt);
    // A forged jump from queued straight to resolved.
    let forged = format!(
        "{text}{{\"format\":1,\"seq\":2,\"at\":\"x\",\"at_ms\":1,\"actor\":\"human\",\"finding_id\":\"f1\",\"request_id\":\"r\",\"from\":\"queued\",\"to\":\"resolved\",\"action\":{{\"accept\":{{\"message\":null}}}}}}\n"
    );
    std::fs::write(fx.ledger.path(), forged).unwrap();
    let err = fx.ledger.read().unwrap_err();
    assert_eq!(err.code, ErrorCode::LedgerCorrupt, "{err}");
}

#[test]
fn an_unknown_format_version_is_refused() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    let text = String::from_utf8(fx.bytes())
        .unwrap()
        .replace("\"format\":1", "\"format\":2");
    std::fs::write(fx.ledger.path(), text).unwrap();
    assert_eq!(fx.ledger.read().unwrap_err().code, ErrorCode::LedgerFormat);
}

#[test]
fn the_size_ceiling_refuses_an_append_and_writes_nothing() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    let size = fx.bytes().len() as u64;
    let small = fx.ledger.clone().with_limits(StoreLimits {
        max_bytes: size + 100,
        ..StoreLimits::default()
    });
    let err = small
        .intake(
            parse_document(doc(&[finding("f2", "")]).as_bytes()).unwrap(),
            Actor::Human,
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::LedgerFull);
    assert!(err.message.contains("ceiling"));
    assert_eq!(fx.bytes().len() as u64, size);
    let tiny = fx.ledger.clone().with_limits(StoreLimits {
        max_bytes: 10,
        ..StoreLimits::default()
    });
    assert_eq!(tiny.read().unwrap_err().code, ErrorCode::LedgerFull);
}

#[test]
fn a_held_lock_makes_a_writer_fail_busy_after_its_deadline() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    let holder = std::fs::File::open(fx.ledger.path()).unwrap();
    // SAFETY: flock on a file this test opened.
    assert_eq!(unsafe { libc::flock(holder.as_raw_fd(), libc::LOCK_EX) }, 0);
    let impatient = fx.ledger.clone().with_limits(StoreLimits {
        lock_timeout: Duration::from_millis(50),
        ..StoreLimits::default()
    });
    let before = fx.bytes();
    let started = std::time::Instant::now();
    let err = impatient
        .apply(Request {
            finding_id: fid("f1"),
            actor: Actor::Agent,
            request_id: Some(RequestId::parse("r1").unwrap()),
            attempt_id: None,
            action: claim().1,
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::LedgerBusy);
    // A bound on a hang: the 50 ms lock timeout gives up instead of waiting for the holder.
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(impatient.read().unwrap_err().code, ErrorCode::LedgerBusy);
    drop(holder);
    assert_eq!(fx.bytes(), before);
    impatient.read().unwrap();
}

#[test]
fn a_missing_ledger_reads_as_empty() {
    let fx = Fixture::new();
    let state = fx.ledger.read().unwrap();
    assert!(state.findings.is_empty());
}

#[test]
fn the_view_parse_reads_the_same_events_as_the_full_parse() {
    use a3s_test_ledger::store::{parse_ledger, parse_ledger_for_view};
    let fx = Fixture::new();
    let tricky = finding("f2", "").replace(
        "Make the f2 button blue",
        r#"quote \",\"finding\":{\"id\":\"evil\"} and ,"#,
    );
    fx.import(&[finding("f1", ""), tricky]).unwrap();
    fx.drive("f1", RepairStatus::NeedsInput);
    fx.act(
        "f1",
        Actor::Human,
        Action::Answer {
            message: r#"see ,"finding":{"id":"x"} here"#.into(),
        },
    )
    .unwrap();
    let bytes = fx.bytes();
    let full = parse_ledger(&bytes).unwrap();
    let view = parse_ledger_for_view(&bytes).unwrap();
    assert_eq!(full.events.len(), view.events.len());
    for (a, b) in full.events.iter().zip(&view.events) {
        assert_eq!(
            serde_json::to_string(a).unwrap(),
            serde_json::to_string(b).unwrap()
        );
        if a.finding.is_some() {
            assert_eq!(
                a.record().unwrap().instruction,
                b.record().unwrap().instruction
            );
        }
    }
}

#[test]
fn a_corrupt_payload_is_caught_when_a_view_uses_it_and_by_every_writer() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", "")]).unwrap();
    let text = String::from_utf8(fx.bytes()).unwrap();
    // Break f2's payload (a wrongly typed field) but keep the line valid JSON.
    let broken = text.replacen(
        "Make the f2 button blue\"",
        "Make the f2 button blue\",\"intent\":7",
        1,
    );
    std::fs::write(fx.ledger.path(), &broken).unwrap();
    let ledgers = read_sessions(fx.dir.path(), Some(&fx.session), &StoreLimits::default()).unwrap();
    let inbox = build_inbox(
        &ledgers,
        fx.clock.now_ms(),
        InboxOptions::new(10, false).unwrap(),
        &RandomRequestIds::default(),
    );
    assert!(
        inbox
            .warnings
            .iter()
            .any(|w| w.code == "test.session.repair_ledger_corrupt"),
        "{:?}",
        inbox.warnings
    );
    let err = fx.act("f1", Actor::Agent, claim().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::LedgerCorrupt);
    assert_eq!(fx.ledger.read().unwrap_err().code, ErrorCode::LedgerCorrupt);
    assert_eq!(fx.bytes(), broken.as_bytes());
}
