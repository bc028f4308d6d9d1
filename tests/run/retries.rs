//! `--retries` and `--fail-on-flaky` through the binary: `flaky.html` is ready only from its
//! second visit (the fixture server counts visits per key), so its scenario fails on the first
//! attempt and passes on the retry, in real Chromium.

use crate::harness::{read_junit, run_once, run_served, workdir, FixtureServer};
use std::path::Path;

/// A suite whose `flaky` scenario needs two visits of `flaky.html?key=<key>`, beside one that
/// always passes.
pub(crate) fn suite(key: &str) -> String {
    format!(
        r#"
suite "retry" {{
    scenario "steady" {{
        surface = "web"
        navigate "open" {{ url = "/forms.html" }}
        expect "title" {{ visible = role("heading", "Contact form") }}
    }}
    scenario "flaky" {{
        surface = "web"
        timeout_ms = 20000
        navigate "open" {{ url = "/flaky.html?key={key}" }}
        wait "counted" {{ text = "Visit" }}
        expect "ready" {{ text = "ready" }}
    }}
}}
"#
    )
}

#[test]
fn a_scenario_that_passes_on_a_retry_is_flaky_in_every_output() {
    let (done, work) = run_once(
        &[("retry.acl", &suite("every-output"))],
        &[
            "retry.acl",
            "--retries",
            "2",
            "--jobs",
            "1",
            "--json",
            "--junit",
            // A user-named path whose folders do not exist yet: they are created.
            "reports/ci/report.xml",
        ],
    );
    assert_eq!(
        done.code, 0,
        "a flaky scenario passes the run:\n{}",
        done.stderr
    );
    let json = done.json();
    assert_eq!(
        (
            json["counts"]["passed"].as_u64(),
            json["counts"]["flaky"].as_u64()
        ),
        (Some(1), Some(1)),
        "flaky is never counted as a pass: {}",
        json["counts"]
    );
    let flaky = &json["scenarios"][1];
    assert_eq!(flaky["status"], "flaky");
    let attempts = flaky["earlier_attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 1, "passed on the second attempt");
    let first = &attempts[0];
    assert_eq!(first["attempt"], 1);
    assert_eq!(first["failure"]["code"], "test.assert.text_mismatch");
    assert!(
        first["failure"]["message"]
            .as_str()
            .unwrap()
            .contains("\"ready\""),
        "{}",
        first["failure"]
    );
    // Each attempt has its own evidence folder; the failed one keeps its screenshot.
    let first_dir = first["artifact_dir"].as_str().unwrap();
    let last_dir = flaky["artifact_dir"].as_str().unwrap();
    assert!(first_dir.ends_with("/retry/flaky"), "{first_dir}");
    assert!(last_dir.ends_with("/retry/flaky.retry-1"), "{last_dir}");
    // The failed attempt keeps its step trace (the default `retain-on-failure`); the passing
    // retry keeps none.
    let trace = first["trace"]["path"]
        .as_str()
        .expect("the failed attempt's trace");
    assert!(
        trace.starts_with(first_dir) && Path::new(trace).is_file(),
        "{trace}"
    );
    assert!(flaky.get("trace").is_none(), "{flaky}");
    let shot = std::path::Path::new(first_dir).join("failure/screenshot.png");
    assert!(std::fs::read(&shot).unwrap().starts_with(b"\x89PNG"));
    assert!(std::path::Path::new(last_dir).is_dir());

    let live = &done.stderr;
    assert!(live.contains("RETRY"), "{live}");
    assert!(
        live.contains("FLAKY [") && live.contains("retry/flaky (passed on attempt 2)"),
        "{live}"
    );
    assert!(
        live.contains("Result passed with 1 flaky (exit code 0)"),
        "{live}"
    );

    let (counts, xml) = read_junit(&work.path().join("reports/ci/report.xml"));
    assert_eq!(
        (counts.cases, counts.failures, counts.errors),
        (2, 0, 0),
        "{xml}"
    );
    assert!(xml.contains("flaky: passed on attempt 2 of 2"), "{xml}");
    assert!(xml.contains("test.assert.text_mismatch"), "{xml}");
}

#[test]
fn fail_on_flaky_fails_the_run_and_no_retries_means_a_plain_failure() {
    let server = FixtureServer::start();
    let work = workdir(&[
        ("strict.acl", &suite("strict")),
        ("once.acl", &suite("once").replace("\"retry\"", "\"once\"")),
    ]);
    let strict = run_served(
        &server,
        work.path(),
        &["strict.acl", "--retries", "1", "--fail-on-flaky", "--json"],
    );
    assert_eq!(strict.code, 1, "{}", strict.stderr);
    let json = strict.json();
    assert_eq!(json["scenarios"][1]["status"], "flaky");
    assert_eq!(json["fail_on_flaky"], true);
    assert_eq!(json["outcome"], "failed");

    let once = run_served(&server, work.path(), &["once.acl", "--json"]);
    assert_eq!(once.code, 1, "{}", once.stderr);
    let json = once.json();
    let scenario = &json["scenarios"][1];
    assert_eq!(scenario["status"], "failed");
    assert!(scenario.get("earlier_attempts").is_none(), "{scenario}");
    assert!(!once.stderr.contains("RETRY"), "{}", once.stderr);
}
