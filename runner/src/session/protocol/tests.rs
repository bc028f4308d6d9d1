//! The envelope round trip (every reply reads back as itself, with the shared fields), and the
//! clear errors of a foreign-version or malformed line — never a panic.

use super::*;
use crate::session::reply::{CleanupReport, Executed, ExecutedOnWire, Resolved, SessionReport};
use a3s_test_lang::ir::ActionKind;
use a3s_test_ledger::verification::{PageResult, Proof};
use a3s_test_ledger::{Actor, FindingId, RepairStatus};
use proptest::prelude::*;
use serde_json::json;
use std::fmt::Debug;

/// `reply` sent as the supervisor sends it (as [`Replied`]) reads back as `R::Reply`, equal to
/// itself, with the blocked requests and `closing` of the envelope; and the reply's JSON on the
/// wire is exactly the reply's own JSON (the untagged [`Replied`] adds nothing).
fn round_trip<R: Call>(reply: R::Reply, blocked: Vec<String>)
where
    R::Reply: Clone + PartialEq + Debug,
{
    let mut sent = Envelope::<Replied>::reply(reply.clone().into());
    sent.blocked_requests = blocked.clone();
    sent.closing = true;
    let line = String::from_utf8(sent.to_line()).unwrap();
    let wire: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(wire["version"], PROTOCOL_VERSION);
    assert_eq!(wire["reply"], serde_json::to_value(&reply).unwrap());
    let read = Envelope::<R::Reply>::read(&line).unwrap();
    assert_eq!(read.version, PROTOCOL_VERSION);
    assert!(read.closing);
    assert_eq!(read.blocked_requests, blocked);
    assert_eq!(read.outcome, Ok(reply.clone()));
    let mut expected = reply;
    expected.take_blocked(blocked);
    assert_eq!(read.into_result().unwrap(), expected);
}

fn observation() -> Observation {
    let mut o: Observation = serde_json::from_value(json!({
        "observation": 3, "url": "http://127.0.0.1:1/", "untrusted": true, "ref_count": 0,
        "next": "a3s-test agent observe --session s"
    }))
    .unwrap();
    o.inspection = Some(json!({ "revision": 4, "nodes": [{ "id": "n1" }] }));
    o
}

fn executed() -> ExecutedOnWire {
    printed_executed().into()
}

fn printed_executed() -> Executed {
    Executed {
        turn: 2,
        step: ActionKind::Click,
        status: "passed".into(),
        resolved: vec![Resolved {
            reference: "@e1".into(),
            target: "role(\"button\", \"Save\")".into(),
        }],
        evidence: Vec::new(),
        detail: Some(a3s_test_driver::StepDetail::Clicked {
            element: "<button>".into(),
            hit: "<button>".into(),
            x: 1.5,
            y: 2.0,
        }),
        url: "http://127.0.0.1:1/".into(),
        untrusted: true,
        next: Some("a3s-test agent observe --session s".into()),
        blocked_requests: Vec::new(),
        observation: Some(observation()),
        observation_error: None,
    }
}

fn closing() -> Closing {
    Closing {
        report: SessionReport {
            actions: 1,
            cleanup: CleanupReport {
                browser_pgid: 9,
                problems: Vec::new(),
            },
            closed_at_ms: 5,
            format_version: 1,
            goal: None,
            session: "s".into(),
            start_url: "http://127.0.0.1:1/".into(),
            started_at_ms: 1,
            status: "passed".into(),
            steps_passed: 1,
            success: Vec::new(),
            summary: Some("done".into()),
            summary_untrusted: true,
            trace: None,
        },
        next: None,
        blocked_requests: Vec::new(),
    }
}

#[test]
fn every_reply_reads_back_as_itself() {
    for blocked in [Vec::new(), vec!["http://evil.test/x".to_string()]] {
        round_trip::<ViewRequest>(observation(), blocked.clone());
        round_trip::<Inspect>(observation(), blocked.clone());
        round_trip::<Exec>(executed(), blocked.clone());
        let findings = FindingBatch {
            protocol: "a3s.test.repair/1".into(),
            repairs: vec![json!({ "id": "f1", "instruction": "x" })],
        };
        round_trip::<RepairPeek>(findings.clone(), blocked.clone());
        round_trip::<RepairTake>(findings, blocked.clone());
        let actions = ActionBatch {
            protocol: "a3s.test.repair/1".into(),
            actions: vec![json!({ "id": "a1", "repairId": "f1" })],
        };
        round_trip::<RepairActionsPeek>(actions.clone(), blocked.clone());
        round_trip::<RepairActionsTake>(actions, blocked.clone());
        let candidate = CandidateRecord {
            path: "artifacts/repairs/f1/a1/verify/candidate.acl".into(),
            sha256: "sha256:00".into(),
            proof: Proof {
                passed: false,
                code: Some("test.assert.text_mismatch".into()),
                message: Some("no".into()),
                duration_ms: 12,
            },
        };
        round_trip::<RepairProve>(candidate, blocked.clone());
        let baseline = Baseline {
            url: "http://127.0.0.1:1/".into(),
            revision: Some(2),
            console_errors: 1,
            page_errors: 0,
            evidence: Vec::new(),
        };
        round_trip::<RepairBaseline>(baseline, blocked.clone());
        let mark = RepairMark {
            epoch: "e".into(),
            count: 4,
        };
        round_trip::<RepairWait>(Waited::Mark(mark), blocked.clone());
        round_trip::<RepairWait>(Waited::Preempted, blocked.clone());
        round_trip::<RepairApply>(7, blocked.clone());
        let verification = PageVerification {
            revision: Some(5),
            page: PageResult::default(),
            failure: None,
        };
        round_trip::<ObserveRequest>(verification, blocked.clone());
        // The page operations a verification's steps 1–5 read through.
        use crate::session::repair_page::revision::NoRevision;
        use crate::session::repair_page::{Captured, LayoutMiss, LayoutReading, PageText};
        use a3s_test_ledger::verification::{LayoutCheck, LayoutOutcome};
        round_trip::<WaitRevision>(RevisionSeen { accepted: Ok(6) }, blocked.clone());
        let timed_out = NoRevision::TimedOut {
            last: Some(5),
            ready: false,
        };
        round_trip::<WaitRevision>(
            RevisionSeen {
                accepted: Err(timed_out),
            },
            blocked.clone(),
        );
        round_trip::<LocateTarget>(Located::Ambiguous(3), blocked.clone());
        round_trip::<LocateTarget>(Located::Missing, blocked.clone());
        let text = PageText {
            text: Some("Card saved".into()),
        };
        round_trip::<ReadPageText>(text, blocked.clone());
        round_trip::<ReadPageText>(PageText { text: None }, blocked.clone());
        let layout = LayoutReading {
            outcome: LayoutOutcome {
                check: LayoutCheck::Rearrange,
                in_viewport: true,
                occupant: None,
                overlap_px: Some(0),
                passed: false,
            },
            missed: Some(LayoutMiss {
                code: "test.session.repair_layout_not_moved".into(),
                message: "no overlap".into(),
            }),
        };
        round_trip::<MeasureLayout>(layout, blocked.clone());
        let captured = Captured {
            console_errors: 1,
            page_errors: 0,
            last_page_error: None,
            evidence: Vec::new(),
            ui_facts: vec!["@u1 clip @c1 50% visible, cut by region \"Card\"".into()],
            failed: Some(SessionError::new(SessionCode::Io, "no screenshot")),
        };
        round_trip::<CaptureEvidence>(captured, blocked.clone());
        round_trip::<Finish>(closing(), blocked.clone());
        round_trip::<Abort>(closing(), blocked);
    }
}

#[test]
fn only_the_replies_that_show_blocked_requests_take_them() {
    let blocked = vec!["http://evil.test/x".to_string()];
    let mut o = observation();
    o.take_blocked(blocked.clone());
    assert_eq!(o.blocked_requests, blocked);
    let mut e = executed();
    e.take_blocked(blocked.clone());
    assert_eq!(e.blocked_requests, blocked);
    let mut c = closing();
    c.take_blocked(blocked.clone());
    assert_eq!(c.blocked_requests, blocked);
}

#[test]
fn an_error_reads_back_with_its_next_command_in_the_detail() {
    let error = SessionError::new(SessionCode::StaleRef, "@e2 is stale")
        .with(|d| d.statement = Some("click { target = ref(\"@e2\") }".into()));
    let next = "a3s-test agent observe --session s".to_string();
    let line = Envelope::<Replied>::error(error.clone(), Some(next.clone())).to_line();
    let wire: Value = serde_json::from_slice(&line).unwrap();
    assert_eq!(wire["next"], next.as_str());
    assert_eq!(wire["error"]["code"], "test.session.stale_ref");
    assert!(wire.get("reply").is_none() && wire.get("blocked_requests").is_none());
    let read = Envelope::<ExecutedOnWire>::read(std::str::from_utf8(&line).unwrap()).unwrap();
    assert_eq!(
        read.outcome,
        Err(Refusal {
            error: error.clone(),
            next: Some(next.clone())
        })
    );
    let e = read.into_result().unwrap_err();
    assert_eq!(e.next(), Some(next.as_str()));
    assert_eq!(
        serde_json::to_value(&e.detail).unwrap(),
        json!({ "statement": "click { target = ref(\"@e2\") }", "next": next })
    );
    // Without a next command the error is the supervisor's, untouched.
    let line = Envelope::<Replied>::error(error.clone(), None).to_line();
    let read = Envelope::<ExecutedOnWire>::read(std::str::from_utf8(&line).unwrap()).unwrap();
    assert_eq!(read.into_result().unwrap_err(), error);
}

/// The error a line read as an answer gives, which must be `test.session.supervisor`.
fn answer_error(line: &str) -> String {
    let e = Envelope::<ExecutedOnWire>::read(line).unwrap_err();
    assert_eq!(e.code, SessionCode::Supervisor, "{line}: {e}");
    e.message
}

#[test]
fn an_answer_of_another_version_names_both_versions_and_the_way_out() {
    // The unversioned protocol: no `version` field.
    let old = r#"{"ok":true,"body":{"turn":1},"closing":false}"#;
    let m = answer_error(old);
    let ours = format!("this a3s-test speaks version {PROTOCOL_VERSION}");
    assert!(
        m.contains(&format!("speaks session protocol version 1 and {ours}")),
        "{m}"
    );
    assert!(m.contains("restart the session with this a3s-test"), "{m}");
    // Version 2: the typed envelope whose exec answers carried an untagged step detail.
    let two = r#"{"version":2,"reply":{"turn":1,"step":"click","status":"passed","detail":{"index":0}},"closing":false}"#;
    let m = answer_error(two);
    assert!(
        m.contains(&format!("speaks session protocol version 2 and {ours}")),
        "{m}"
    );
    let newer = format!(
        r#"{{"version":{},"reply":{{"anything":true}},"closing":false}}"#,
        PROTOCOL_VERSION + 1
    );
    let m = answer_error(&newer);
    assert!(
        m.contains(&format!("version {}", PROTOCOL_VERSION + 1)) && m.contains(&ours),
        "{m}"
    );
}

#[test]
fn a_malformed_answer_is_a_supervisor_error_not_a_panic() {
    let v = PROTOCOL_VERSION;
    for line in [
        String::new(),
        "not json".into(),
        "[1,2]".into(),
        r#"{"version":"two"}"#.into(),
        format!(r#"{{"version":{v}}}"#),
        format!(r#"{{"version":{v},"closing":false}}"#),
        format!(r#"{{"version":{v},"closing":false,"reply":{{"turn":"one"}}}}"#),
    ] {
        answer_error(&line);
    }
    let both = serde_json::to_string(&json!({
        "version": v, "closing": false, "reply": executed(),
        "error": SessionError::new(SessionCode::Io, "x"),
    }))
    .unwrap();
    assert!(answer_error(&both).contains("neither exactly one reply nor one error"));
}

#[test]
fn requests_carry_the_version_and_log_in_their_old_shape() {
    let exec = Exec {
        observation: Some(2),
        statement: "press \"Enter\"".into(),
        then_observe: None,
    };
    let line = serde_json::to_string(&RequestLine::new(exec.clone().into())).unwrap();
    let wire: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        wire,
        json!({ "version": PROTOCOL_VERSION, "request": {
            "op": "exec", "observation": 2, "statement": "press \"Enter\"" } })
    );
    assert_eq!(RequestLine::read(&line).unwrap(), Request::Exec(exec));
    let observe = Request::from(ViewRequest::default());
    assert_eq!(
        serde_json::to_value(&observe).unwrap(),
        json!({ "op": "observe", "full": false, "form": "text" })
    );
    let apply = RepairApply {
        events: vec![PageRepairEvent {
            actor: Actor::A3sTest,
            at: "2026-01-01T00:00:00Z".into(),
            attempt_id: None,
            repair_id: FindingId::parse("f1").unwrap(),
            request_id: "ledger-3".into(),
            sequence: 3,
            status: RepairStatus::Queued,
        }],
    };
    let line = serde_json::to_string(&RequestLine::new(apply.clone().into())).unwrap();
    assert_eq!(
        RequestLine::read(&line).unwrap(),
        Request::RepairApply(apply)
    );
    // The event prints as the JSON object it replaced (keys sorted).
    let event = serde_json::to_string(&json!({
        "repairId": "f1", "sequence": 3, "status": "queued", "actor": "a3s-test",
        "at": "2026-01-01T00:00:00Z", "requestId": "ledger-3",
    }))
    .unwrap();
    assert!(line.contains(&event), "{line}");
}

#[test]
fn an_exec_asks_for_the_following_observation_only_when_told_to() {
    let with = Exec {
        observation: None,
        statement: "press { key = \"Enter\" }".into(),
        then_observe: Some(ViewRequest {
            since: Some(2),
            form: crate::session::view::Form::Json,
            ..ViewRequest::default()
        }),
    };
    let line = serde_json::to_string(&RequestLine::new(with.clone().into())).unwrap();
    assert!(
        line.contains(r#""then_observe":{"full":false,"since":2,"form":"json"}"#),
        "{line}"
    );
    assert_eq!(RequestLine::read(&line).unwrap(), Request::Exec(with));
}

#[test]
fn a_request_of_another_version_is_refused_in_a_form_both_clients_read() {
    let newer = format!(
        r#"{{"version":{},"request":{{"op":"observe"}}}}"#,
        PROTOCOL_VERSION + 1
    );
    for (line, theirs) in [
        (r#"{"op":"observe","full":false}"#, 1),
        (
            r#"{"version":2,"request":{"op":"observe","full":false}}"#,
            2,
        ),
        (newer.as_str(), PROTOCOL_VERSION + 1),
    ] {
        let e = RequestLine::read(line).unwrap_err();
        assert_eq!(e.code, SessionCode::Supervisor);
        assert!(
            e.message.contains(&format!(
                "speaks session protocol version {theirs} but the session's supervisor speaks \
                 version {PROTOCOL_VERSION}"
            )),
            "{}",
            e.message
        );
        let answer = foreign_answer(&e);
        // An unversioned client reads `ok` and `body`.
        let old: Value = serde_json::from_slice(&answer).unwrap();
        assert_eq!(old["ok"], false);
        assert_eq!(old["closing"], false);
        let body: SessionError = serde_json::from_value(old["body"].clone()).unwrap();
        assert_eq!(body, e);
        // This version reads the error.
        let read = Envelope::<Observation>::read(std::str::from_utf8(&answer).unwrap()).unwrap();
        assert_eq!(read.into_result().unwrap_err(), e);
    }
    let fly = format!(r#"{{"version":{PROTOCOL_VERSION},"request":{{"op":"fly"}}}}"#);
    for line in ["", "nope", fly.as_str()] {
        let e = RequestLine::read(line).unwrap_err();
        assert_eq!(e.code, SessionCode::Schema, "{line}");
    }
}

proptest! {
    /// Any text where an answer line is expected gives a reply or an error, never a panic.
    #[test]
    fn any_answer_line_reads_without_panicking(line in ".{0,200}") {
        let _ = Envelope::<ExecutedOnWire>::read(&line);
        let _ = Envelope::<Waited>::read(&line);
        let _ = RequestLine::read(&line);
    }

    /// The shared fields and free text survive the envelope whatever they hold.
    #[test]
    fn envelopes_round_trip_any_text(
        blocked in proptest::collection::vec(".{0,40}", 0..4),
        message in ".{0,80}",
        next in proptest::option::of(".{0,40}"),
        applied in any::<u32>(),
        epoch in "[a-z0-9]{0,32}",
        count in any::<u64>(),
    ) {
        round_trip::<RepairApply>(applied, blocked.clone());
        round_trip::<RepairWait>(Waited::Mark(RepairMark { epoch, count }), blocked);
        let error = SessionError::new(SessionCode::Policy, message);
        let line = Envelope::<Replied>::error(error.clone(), next.clone()).to_line();
        let read = Envelope::<u32>::read(std::str::from_utf8(&line).unwrap()).unwrap();
        prop_assert_eq!(read.outcome, Err(Refusal { error, next }));
    }
}

/// An exec answer's step detail crosses the socket tagged and reads back as the variant the
/// driver reported (a `wait` that saw something prints like an `expect`'s, and stays a `wait`);
/// printed, it is the untagged object with its keys sorted, as it printed when it was JSON.
#[test]
fn an_exec_answer_carries_its_step_detail_tagged_and_prints_it_untagged() {
    use a3s_test_driver::StepDetail;
    let waited = StepDetail::Waited {
        waited_ms: 40,
        observed: Some(json!({ "text": "Saved" })),
    };
    let checked = StepDetail::Checked {
        element: "checkbox \"Terms\"".into(),
        changed: true,
        verified: None,
        hit: Some("<label>".into()),
    };
    for (detail, printed) in [
        (
            waited,
            r#""detail":{"observed":{"text":"Saved"},"waited_ms":40}"#,
        ),
        (
            checked,
            r#""detail":{"changed":true,"element":"checkbox \"Terms\"","hit":"<label>"}"#,
        ),
    ] {
        let executed = Executed {
            detail: Some(detail.clone()),
            ..printed_executed()
        };
        let sent = Envelope::<Replied>::reply(ExecutedOnWire::from(executed.clone()).into());
        let line = String::from_utf8(sent.to_line()).unwrap();
        let wire: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            wire["reply"]["detail"]["facts"],
            Value::from(detail.clone()),
            "{line}"
        );
        assert!(wire["reply"]["detail"]["kind"].is_string(), "{line}");
        let read = Envelope::<ExecutedOnWire>::read(&line).unwrap();
        let back = Executed::from(read.into_result().unwrap());
        assert_eq!(back.detail, Some(detail));
        assert_eq!(back, executed);
        let text = serde_json::to_string(&back).unwrap();
        assert!(text.contains(printed), "{text}");
    }
}
