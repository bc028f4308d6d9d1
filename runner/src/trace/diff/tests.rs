use super::*;
use crate::result::{ScenarioStatus, StepStatus};
use crate::trace::record::{TraceSource, TRACE_SCHEMA};
use a3s_test_driver::trace::{TraceConsole, TracePageError};

fn request(method: &str, url: &str, status: Option<u16>, failed: Option<&str>) -> TraceRequest {
    TraceRequest {
        method: method.into(),
        url: url.into(),
        status,
        failed: failed.map(str::to_string),
        resource_type: "Fetch".into(),
        duration_ms: Some(3),
        received_bytes: Some(10),
        request_body: None,
        response_body: None,
    }
}

fn step(index: usize, kind: &str, outline: &[&str], network: Vec<TraceRequest>) -> TraceStep {
    TraceStep {
        index,
        kind: kind.into(),
        label: None,
        path: format!("steps[{index}]"),
        line: 3 + index,
        resolved: None,
        locator: None,
        status: StepStatus::Passed,
        duration_ms: 5,
        failure: None,
        candidates: Vec::new(),
        screenshot: None,
        outline: outline.iter().map(|l| l.to_string()).collect(),
        outline_carried: false,
        outline_from_last_green: false,
        page: None,
        console: Vec::new(),
        page_errors: Vec::new(),
        network,
        missing: Vec::new(),
    }
}

fn trace(steps: Vec<TraceStep>) -> Trace {
    Trace {
        schema: TRACE_SCHEMA.into(),
        scenario: "s/sc".into(),
        file: "s.acl".into(),
        attempt: 1,
        status: ScenarioStatus::Passed,
        source: TraceSource {
            first_line: 1,
            lines: Vec::new(),
        },
        steps,
        screenshot_bytes: 0,
        cuts: Vec::new(),
        traced: true,
    }
}

#[test]
fn names_changed_lines_requests_and_errors_and_the_first_differing_step() {
    let green = trace(vec![
        step(
            0,
            "navigate",
            &["heading \"Shop\"", "@e1 button \"Buy\""],
            vec![request("GET", "http://h/", Some(200), None)],
        ),
        step(
            1,
            "click",
            &["heading \"Shop\"", "@e1 button \"Buy\"", "status \"Added\""],
            vec![
                request("POST", "http://h/cart", Some(200), None),
                request("GET", "http://h/stats", Some(200), None),
            ],
        ),
        step(2, "expect", &["status \"Added\""], Vec::new()),
    ]);
    let mut failing = step(
        1,
        "click",
        &[
            "heading \"Shop\"",
            "@e7 button \"Buy\"",
            "alert \"Out of stock\"",
        ],
        vec![
            request("POST", "http://h/cart#x", Some(500), None),
            request("GET", "http://h/recommend", None, Some("net::ERR_FAILED")),
        ],
    );
    failing.console.push(TraceConsole {
        level: "error".into(),
        text: "cart failed".into(),
    });
    failing.console.push(TraceConsole {
        level: "log".into(),
        text: "clicked".into(),
    });
    failing.page_errors.push(TracePageError {
        message: "TypeError: x is undefined".into(),
    });
    let now = trace(vec![
        step(
            0,
            "navigate",
            &["heading \"Shop\"", "@e1 button \"Buy\""],
            vec![request("GET", "http://h/", Some(200), None)],
        ),
        failing,
    ]);
    let diff = compare(&green, &now);
    insta::assert_json_snapshot!(diff);
    assert_eq!(diff.first_difference.as_ref().map(|a| a.index), Some(1));
}

#[test]
fn an_unchanged_run_has_no_change_and_a_new_step_is_marked() {
    let green = trace(vec![step(
        0,
        "navigate",
        &["@e1 link \"Home\""],
        Vec::new(),
    )]);
    let now = trace(vec![
        step(0, "navigate", &["@e4 link \"Home\""], Vec::new()),
        step(1, "click", &[], Vec::new()),
    ]);
    let diff = compare(&green, &now);
    assert_eq!(diff.first_difference, None);
    assert_eq!(diff.steps.len(), 1);
    assert!(diff.steps[0].not_in_last_green);
    assert_eq!(without_ref("@e12 button \"x\""), "button \"x\"");
    assert_eq!(without_ref("@each \"x\""), "@each \"x\"");
}
