//! An error's facts cross the supervisor socket typed and read back as themselves, whatever they
//! hold; printed, they are the JSON object they were before they were typed (keys sorted at
//! every level).

use super::*;
use crate::session::code::SessionCode;
use crate::session::protocol::{Envelope, Refusal, Replied};
use crate::session::reply::{
    CleanupReport, ClosedReport, ExecutedOnWire, ForcedReport, SessionReport,
};
use a3s_test_driver::{FailureCode, Waited};
use a3s_test_lang::code::{Code, StableCode};
use a3s_test_lang::span::Span;
use a3s_test_ledger::SessionId;
use proptest::prelude::*;
use serde_json::{json, Value};

fn one_of<T: StableCode>() -> impl Strategy<Value = T> {
    prop::sample::select(T::ALL.to_vec())
}

fn text() -> impl Strategy<Value = String> {
    ".{0,16}"
}

fn diagnostic() -> impl Strategy<Value = Diagnostic> {
    (one_of::<Code>(), text(), 0usize..400, 0usize..40, text()).prop_map(
        |(code, path, start, len, message)| {
            Diagnostic::error(code, path, Span::new(start, start + len), message)
        },
    )
}

fn failure() -> impl Strategy<Value = StepFailure> {
    let waited = (any::<u64>(), text()).prop_map(|(waited_ms, last_seen)| Waited {
        waited_ms,
        last_seen,
    });
    (
        one_of::<FailureCode>(),
        text(),
        proptest::option::of(waited),
    )
        .prop_map(|(code, message, waited)| StepFailure {
            waited,
            ..StepFailure::new(code, message)
        })
}

fn class() -> impl Strategy<Value = FailureClass> {
    prop::sample::select(vec![
        FailureClass::Product,
        FailureClass::Specification,
        FailureClass::Infrastructure,
        FailureClass::Cleanup,
    ])
}

fn observation() -> Observation {
    serde_json::from_value(json!({
        "observation": 4, "url": "http://127.0.0.1:1/", "untrusted": true, "ref_count": 0,
        "next": "a3s-test agent observe --session s"
    }))
    .unwrap()
}

fn closed(forced: bool) -> Closed {
    let report = if forced {
        ClosedReport::Forced(ForcedReport {
            cause: Some(SessionError::new(SessionCode::Supervisor, "no answer")),
            forced: true,
            session: SessionId::parse("s1").unwrap(),
            state: crate::session::file::SessionState::Aborted,
        })
    } else {
        ClosedReport::Supervisor(SessionReport {
            actions: 2,
            cleanup: CleanupReport {
                browser_pgid: 77,
                problems: vec!["pid 78 survived".into()],
            },
            closed_at_ms: 9,
            format_version: 1,
            goal: Some("pay".into()),
            session: "s1".into(),
            start_url: "http://127.0.0.1:1/".into(),
            started_at_ms: 1,
            status: "aborted".into(),
            steps_passed: 1,
            success: Vec::new(),
            summary: None,
            summary_untrusted: true,
            trace: None,
        })
    };
    Closed {
        report,
        next: None,
        cleanup_verified: false,
        survivors: vec![78],
        blocked_requests: Vec::new(),
    }
}

/// Any error detail: every field set or unset.
fn detail() -> impl Strategy<Value = ErrorDetail> {
    let refs = prop::collection::vec(
        ("@e[0-9]{1,3}", text()).prop_map(|(reference, target)| Resolved { reference, target }),
        0..3,
    );
    let cause = (one_of::<SessionCode>(), text())
        .prop_map(|(code, message)| Box::new(SessionError::new(code, message)));
    (
        (
            prop::collection::vec(diagnostic(), 0..3),
            proptest::option::of(text()),
            proptest::option::of(failure()),
            proptest::option::of(class()),
            refs,
            any::<bool>(),
        ),
        (
            proptest::option::of(one_of::<DiffRule>()),
            any::<bool>(),
            proptest::option::of(cause),
            proptest::option::of(any::<bool>()),
            proptest::option::of(text()),
        ),
    )
        .prop_map(
            |(
                (diagnostics, statement, failure, class, refs, dispatched),
                (page_context_code, observed, observation_error, closed_forced, next),
            )| ErrorDetail {
                diagnostics,
                statement,
                failure,
                class,
                refs,
                dispatched,
                page_context_code,
                observation: observed.then(|| Box::new(observation())),
                observation_error,
                closed: closed_forced.map(|forced| Box::new(closed(forced))),
                next,
            },
        )
}

/// `error` printed: its code and message in declared order, its detail as a sorted value (how
/// it printed when the detail was a `serde_json::Value`).
fn printed_as_before(error: &SessionError) -> String {
    let mut out = format!(
        r#"{{"code":{},"message":{}"#,
        serde_json::to_string(&error.code).unwrap(),
        serde_json::to_string(&error.message).unwrap()
    );
    if let Some(detail) = &error.detail {
        let sorted = serde_json::to_value(detail).unwrap();
        out.push_str(&format!(r#","detail":{sorted}"#));
    }
    out.push('}');
    out
}

proptest! {
    /// Any error, with any facts, sent as the supervisor sends it reads back as itself, and
    /// prints its detail with the keys sorted at every level.
    #[test]
    fn any_error_detail_crosses_the_socket_as_itself(
        detail in detail(),
        code in one_of::<SessionCode>(),
        message in text(),
        next in proptest::option::of(text()),
    ) {
        let error = SessionError { code, message, detail: Some(Box::new(detail)) };
        let line = Envelope::<Replied>::error(error.clone(), next.clone()).to_line();
        let read = Envelope::<ExecutedOnWire>::read(std::str::from_utf8(&line).unwrap()).unwrap();
        prop_assert_eq!(read.outcome, Err(Refusal { error: error.clone(), next }));
        prop_assert_eq!(serde_json::to_string(&error).unwrap(), printed_as_before(&error));
    }
}

/// A step failure's facts print in the order a `serde_json::Value` printed them, not in the
/// order the struct declares them.
#[test]
fn a_step_failure_prints_its_facts_sorted() {
    let error = SessionError::new(SessionCode::StepFailed, "`click` ran and failed")
        .with(|d| {
            d.statement = Some("click { target = ref(\"@e2\") }".into());
            d.failure = Some(StepFailure::new(FailureCode::TargetNotFound, "no match"));
            d.class = Some(FailureClass::Product);
            d.refs = vec![Resolved {
                reference: "@e2".into(),
                target: "role(\"button\", \"Pay\")".into(),
            }];
        })
        .after_dispatch();
    let printed = serde_json::to_string(&error).unwrap();
    let detail_at = printed.find(r#""detail":"#).unwrap();
    assert_eq!(
        &printed[detail_at..],
        concat!(
            r#""detail":{"class":"product","dispatched":true,"#,
            r#""failure":{"code":"test.driver.web.target_not_found","evidence":[],"message":"no match"},"#,
            r#""refs":[{"ref":"@e2","target":"role(\"button\", \"Pay\")"}],"#,
            r#""statement":"click { target = ref(\"@e2\") }"}}"#
        )
    );
    let back: SessionError = serde_json::from_str(&printed).unwrap();
    assert_eq!(back, error);
    let value: Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(value["detail"]["refs"][0]["ref"], "@e2");
}
