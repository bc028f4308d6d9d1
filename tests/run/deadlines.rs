//! Deadlines that behave as a user expects: a `wait` whose condition never holds, and an action
//! whose target never appears while its action timeout is longer than the scenario has left, both
//! run into the scenario deadline. That is a scenario timeout — `test.run.timeout`, exit 124,
//! status `timed_out` — naming what was awaited, not a product assertion.

use crate::harness::run_once;

const SUITE: &str = include_str!("../fixtures/suites/deadline.acl");

#[test]
fn a_wait_or_an_action_that_runs_into_the_scenario_deadline_is_a_scenario_timeout() {
    let (done, _work) = run_once(
        &[("deadline.acl", SUITE)],
        &["deadline.acl", "--json", "--jobs", "1"],
    );
    assert_eq!(done.code, 124, "{}", done.stderr);
    let json = done.json();
    assert_eq!(json["outcome"], "timed_out");
    let expected = [
        (
            "deadline/wait-never",
            "wait",
            r#"waiting for text = "never""#,
        ),
        (
            "deadline/click-never",
            "click",
            r#"waiting for role("button", "Never rendered") to be actionable"#,
        ),
    ];
    for (scenario, (id, kind, awaited)) in
        json["scenarios"].as_array().unwrap().iter().zip(expected)
    {
        assert_eq!(scenario["id"], id);
        assert_eq!(scenario["status"], "timed_out", "{scenario}");
        let failure = &scenario["failure"];
        assert_eq!(failure["code"], "test.run.timeout", "{failure}");
        assert_eq!(failure["failure_class"], "infrastructure");
        let message = failure["message"].as_str().unwrap();
        assert!(
            message.contains("scenario deadline") && message.contains(awaited),
            "{id}: the message names what was awaited: {message}"
        );
        let steps = scenario["steps"].as_array().unwrap();
        assert_eq!(
            steps.last().unwrap()["kind"],
            kind,
            "the {kind} step timed out"
        );
        assert!(
            failure["step_path"]
                .as_str()
                .unwrap()
                .contains(&format!(".{kind}.")),
            "{failure}"
        );
    }
    assert!(
        done.stderr.contains("TIMEOUT") && done.stderr.contains("exit code 124"),
        "{}",
        done.stderr
    );
}

/// A navigation whose server never answers ends at the scenario deadline, and its failure
/// evidence is complete: every kind is either a file or listed missing with the reason.
#[test]
fn a_hung_navigation_ends_at_the_deadline_and_accounts_for_all_its_evidence() {
    let suite = r#"suite "hung" {
    scenario "navigation" {
        surface = "web"
        timeout_ms = 2000
        navigate "hang" { url = "/hang" }
    }
}
"#;
    let (done, _work) = run_once(&[("hung.acl", suite)], &["hung.acl", "--json"]);
    assert_eq!(done.code, 124, "{}", done.stderr);
    let json = done.json();
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.run.timeout", "{failure}");
    let mut kinds: Vec<&str> = failure["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .chain(failure["missing_evidence"].as_array().into_iter().flatten())
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    kinds.sort_unstable();
    assert_eq!(
        kinds,
        ["accessibility", "console", "page_errors", "screenshot"],
        "{failure}"
    );
    for missing in failure["missing_evidence"].as_array().into_iter().flatten() {
        assert!(!missing["reason"].as_str().unwrap().is_empty(), "{missing}");
    }
}
