//! `run --trace`: the real binary, real Chromium, a loopback page that logs, fetches and fails on
//! purpose (`tests/fixtures/web/trace.html`: its second visit per `key` fails). The trace's
//! steps, screenshots, console, page errors and requests match what the page did; a scenario that
//! passed once and then fails names exactly the outline lines and the requests that changed.

use crate::common::workdir;
use crate::harness::{run_served, scenario, trace_file, FixtureServer};
use serde_json::Value;
use std::path::{Path, PathBuf};

const SUITE: &str = include_str!("../fixtures/suites/trace.acl");

/// The trace suite with the page's visit counter keyed by `key`.
fn suite(key: &str) -> String {
    SUITE.replace("KEY", key)
}

fn trace_of(work: &Path, result: &Value) -> (PathBuf, Value) {
    let path = result["scenarios"][0]["trace"]["path"]
        .as_str()
        .unwrap_or_else(|| panic!("no trace in the result: {result:#}"));
    let path = work.join(path);
    let text = std::fs::read_to_string(&path).unwrap();
    (path, serde_json::from_str(&text).unwrap())
}

fn texts<'a>(step: &'a Value, list: &str, field: &str) -> Vec<&'a str> {
    step[list]
        .as_array()
        .map(|a| a.iter().filter_map(|e| e[field].as_str()).collect())
        .unwrap_or_default()
}

#[test]
fn a_failing_scenario_traces_each_step_page_console_and_network() {
    let server = FixtureServer::start();
    let work = workdir(&[("trace.acl", &suite("fails-at-once"))]);
    // The first visit would pass: spend it, so this run fails.
    let spent = run_served(&server, work.path(), &["trace.acl", "--trace", "off"]);
    assert_eq!(spent.code, 0, "{}\n{}", spent.stdout, spent.stderr);
    let done = run_served(
        &server,
        work.path(),
        &["trace.acl", "--json", "--trace", "on"],
    );
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    let (path, trace) = trace_of(work.path(), &done.json());
    assert_eq!(trace["schema"], "a3s.test.trace/1");
    assert_eq!(trace["scenario"], "trace/buy");
    let steps = trace["steps"].as_array().unwrap();
    let kinds: Vec<&str> = steps.iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["navigate", "click", "expect"]);
    let lines: Vec<u64> = steps.iter().map(|s| s["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [5, 6, 7], "each step's ACL line");

    let (open, click, expect) = (&steps[0], &steps[1], &steps[2]);
    assert_eq!(texts(open, "console", "text"), ["shop ready"]);
    let document = &open["network"][0];
    assert_eq!(document["method"], "GET");
    assert!(document["url"]
        .as_str()
        .unwrap()
        .ends_with("/trace.html?key=fails-at-once"));
    assert_eq!(document["status"], 200);
    assert_eq!(document["resource_type"], "Document");
    assert!(document["received_bytes"].as_u64().unwrap() > 0);

    assert_eq!(
        texts(click, "console", "text"),
        ["buy clicked", "cart failed: 404"]
    );
    assert_eq!(texts(click, "console", "level"), ["info", "error"]);
    let errors = texts(click, "page_errors", "message");
    assert!(
        errors.len() == 1 && errors[0].contains("cart exploded"),
        "{errors:?}"
    );
    let requests: Vec<(String, Value)> = click["network"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let url = r["url"].as_str().unwrap();
            let path = url.split_once("://").unwrap().1;
            let path = &path[path.find('/').unwrap()..];
            (
                format!("{} {path}", r["method"].as_str().unwrap()),
                r["status"].clone(),
            )
        })
        .collect();
    assert_eq!(
        requests,
        [
            (
                "GET /counter?key=fails-at-once".to_string(),
                Value::from(200)
            ),
            ("GET /api/sold-out.json".to_string(), Value::from(404)),
        ]
    );
    assert!(
        click["resolved"].as_str().unwrap().contains("button#buy"),
        "{click:#}"
    );
    // How it was found: the locator the step gave the resolver, as ACL writes it.
    assert_eq!(click["locator"], "role(\"button\", \"Buy\")", "{click:#}");
    assert!(open.get("locator").is_none(), "a navigate has no target");
    assert_eq!(
        expect["locator"],
        Value::Null,
        "a text expectation has no target"
    );
    let point = click["screenshot"]["point"]
        .as_array()
        .expect("the click point");
    assert!(point[0].as_f64().unwrap() > 0.0 && point[1].as_f64().unwrap() > 0.0);
    assert!(
        click["outline"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("Out of stock")),
        "{click:#}"
    );

    assert_eq!(expect["status"], "failed");
    assert_eq!(expect["failure"]["code"], "test.assert.text_mismatch");
    assert!(expect.get("screenshot").is_some());

    // Every screenshot is a JPEG within the scenario's budget, beside the trace.
    let folder = path.parent().unwrap();
    let mut total = 0;
    for step in steps {
        let shot = &step["screenshot"];
        let bytes = std::fs::read(folder.join(shot["file"].as_str().unwrap())).unwrap();
        assert_eq!(&bytes[..3], &[0xFF, 0xD8, 0xFF], "a JPEG");
        assert_eq!(bytes.len() as u64, shot["bytes"].as_u64().unwrap());
        assert!(shot["width"].as_u64().unwrap() <= 640);
        total += bytes.len() as u64;
    }
    assert_eq!(trace["screenshot_bytes"].as_u64().unwrap(), total);
}

#[test]
fn a_scenario_that_passed_then_fails_names_what_changed_since_it_was_green() {
    let server = FixtureServer::start();
    let work = workdir(&[("trace.acl", &suite("green-then-red"))]);
    let green = run_served(&server, work.path(), &["trace.acl", "--json"]);
    assert_eq!(green.code, 0, "{}\n{}", green.stdout, green.stderr);
    assert!(
        green.json()["scenarios"][0].get("trace").is_none(),
        "retain-on-failure keeps no trace of a pass"
    );
    let record = work.path().join(".a3s-test/last-green/trace/buy.json");
    let record: Value = serde_json::from_slice(&std::fs::read(record).unwrap()).unwrap();
    // The passing `expect` did not read the page again: it carries the click's outline.
    let steps = record["steps"].as_array().unwrap();
    assert_eq!(steps[2]["outline_carried"], true, "{record:#}");
    assert_eq!(steps[2]["outline"], steps[1]["outline"]);
    assert!(steps[1].get("outline_carried").is_none());
    // Each page read has its fingerprint, which the next run compares before reading again.
    assert!(
        steps[0]["page"].as_str().is_some_and(|h| h.len() == 16),
        "{record:#}"
    );
    assert_ne!(
        steps[0]["page"], steps[1]["page"],
        "the click changed the page"
    );

    let red = run_served(&server, work.path(), &["trace.acl", "--json"]);
    assert_eq!(red.code, 1, "{}\n{}", red.stdout, red.stderr);
    // The summary (on stderr beside `--json`) names the trace and the first differing step.
    assert!(
        red.stderr.contains("/trace/buy/trace.json")
            && red
                .stderr
                .contains("differs   from the last green run after step 2 (line 6)"),
        "{}",
        red.stderr
    );
    let result = red.json();
    // `retain-on-failure` photographs only the step that failed; every step has its outline.
    let (_, trace) = trace_of(work.path(), &result);
    let shots: Vec<bool> = trace["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.get("screenshot").is_some())
        .collect();
    assert_eq!(shots, [false, false, true]);
    assert!(trace["steps"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| !s["outline"].as_array().unwrap().is_empty()));
    // The page after `navigate` is the green run's (same fingerprint): its outline is reused,
    // not read again; after the click the page differs and is read.
    let red_steps = trace["steps"].as_array().unwrap();
    assert_eq!(red_steps[0]["outline_from_last_green"], true, "{trace:#}");
    assert_eq!(red_steps[0]["outline"], steps[0]["outline"]);
    assert!(red_steps[1].get("outline_from_last_green").is_none());
    assert_ne!(red_steps[1]["page"], steps[1]["page"]);
    let diff = &result["scenarios"][0]["trace"]["since_last_green"];
    assert_eq!(diff["first_difference"]["index"], 1, "{diff:#}");
    assert_eq!(diff["first_difference"]["line"], 6);
    let click = diff["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["index"] == 1)
        .unwrap_or_else(|| panic!("{diff:#}"));
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    assert_eq!(
        strings(&click["outline_added"]),
        ["\"Out of stock\""],
        "{click:#}"
    );
    assert_eq!(
        strings(&click["outline_removed"]),
        ["\"Added to cart\""],
        "{click:#}"
    );
    let url = |r: &Value| {
        r["url"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_string()
    };
    let new: Vec<(String, String)> = click["requests_new"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (url(r), r["outcome"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(new, [("sold-out.json".to_string(), "404".to_string())]);
    let gone: Vec<String> = click["requests_gone"]
        .as_array()
        .unwrap()
        .iter()
        .map(url)
        .collect();
    assert_eq!(gone, ["users.json"]);
    assert!(click.get("requests_changed").is_none(), "{click:#}");
    let errors = strings(&click["errors_new"]);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[0], "console.error: cart failed: 404");
    assert!(errors[1].starts_with("page error: Error: cart exploded"));
}

#[test]
fn a_last_green_dir_keeps_the_record_there_and_a_later_failure_compares_with_it() {
    let server = FixtureServer::start();
    let work = workdir(&[("trace.acl", &suite("green-dir"))]);
    let args = ["trace.acl", "--json", "--last-green-dir", "kept/green"];
    let green = run_served(&server, work.path(), &args);
    assert_eq!(green.code, 0, "{}\n{}", green.stdout, green.stderr);
    let record = work.path().join("kept/green/trace/buy.json");
    let record: Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    assert_eq!(record["scenario"], "trace/buy", "{record:#}");
    assert!(
        !work
            .path()
            .join(".a3s-test/last-green/trace/buy.json")
            .exists(),
        "the record is kept where --last-green-dir says, not in the output folder"
    );

    // The page fails on its second visit: compared with the record in that folder alone.
    let red = run_served(&server, work.path(), &args);
    assert_eq!(red.code, 1, "{}\n{}", red.stdout, red.stderr);
    let diff = &red.json()["scenarios"][0]["trace"]["since_last_green"];
    assert_eq!(diff["first_difference"]["index"], 1, "{diff:#}");
    assert_eq!(diff["first_difference"]["line"], 6, "{diff:#}");
}

/// The trace of scenario `id` in a run's JSON result.
fn trace_named(work: &Path, result: &Value, id: &str) -> Value {
    trace_file(work, scenario(result, id))
}

/// (element, reasons) of each candidate the trace lists for the failed step's target.
fn candidates(trace: &Value) -> (Value, Vec<(String, Vec<String>)>) {
    let failed = trace["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["status"] == "failed")
        .unwrap_or_else(|| panic!("no failed step: {trace:#}"));
    let target = &failed["candidates"][0];
    let listed = target["candidates"]
        .as_array()
        .unwrap_or_else(|| panic!("no candidates: {failed:#}"))
        .iter()
        .map(|c| {
            let reasons = c["reasons"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["reason"].as_str().unwrap().to_string())
                .collect();
            (c["element"].as_str().unwrap().to_string(), reasons)
        })
        .collect();
    (target.clone(), listed)
}

#[test]
fn a_step_that_fails_on_its_target_lists_the_candidates_and_why_each_was_not_taken() {
    let (done, work) = crate::harness::run_once(
        &[(
            "candidates.acl",
            include_str!("../fixtures/suites/candidates.acl"),
        )],
        &["candidates.acl", "--json", "--html", "report"],
    );
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    let result = done.json();

    // Two visible "Pay" buttons: each is one of two matches, one is disabled, the other is
    // under a layer; the hidden third one is not a match of a role locator.
    let trace = trace_named(work.path(), &result, "candidates/ambiguous");
    let (target, listed) = candidates(&trace);
    assert_eq!(target["target"], "role(\"button\", \"Pay\")", "{target:#}");
    assert_eq!(target["matches"], 2, "{target:#}");
    assert_eq!(
        listed,
        [
            (
                "<button#pay-off> \"Pay\"".to_string(),
                vec!["ambiguous".to_string(), "disabled".to_string()]
            ),
            (
                "<button#pay-under> \"Pay\"".to_string(),
                vec!["ambiguous".to_string(), "covered".to_string()]
            ),
        ],
        "{target:#}"
    );
    let covered = &target["candidates"][1]["reasons"][1]["detail"];
    assert!(
        covered.as_str().unwrap().contains("<div#lid>"),
        "the layer on top is named: {covered}"
    );

    // Nothing is called "Confirm": the near misses are the page's buttons under their names,
    // and the hidden one is said to be hidden from the accessibility tree.
    let trace = trace_named(work.path(), &result, "candidates/missing");
    let (target, listed) = candidates(&trace);
    assert_eq!(target["matches"], 0, "{target:#}");
    let names: Vec<&str> = listed.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(
        names,
        [
            "<button#pay-off> \"Pay\"",
            "<button#pay-under> \"Pay\"",
            "<button#pay-hidden>",
            "<button#back> \"Back\"",
            "<button#cancel> \"Cancel order\""
        ],
        "{target:#}"
    );
    let reasons: Vec<&str> = listed.iter().map(|(_, r)| r[0].as_str()).collect();
    assert_eq!(
        reasons,
        [
            "other_name",
            "other_name",
            "hidden_from_accessibility",
            "other_name",
            "other_name"
        ]
    );
    assert_eq!(
        target["candidates"][3]["reasons"][0]["detail"],
        "its name is \"Back\""
    );

    // The report's step view lists them too.
    let html = std::fs::read_to_string(work.path().join("report/index.html")).unwrap();
    assert!(
        html.contains("Candidates for <code>role(&quot;button&quot;, &quot;Pay&quot;)</code>"),
        "the report names the target's candidates"
    );
    assert!(html.contains("its name is &quot;Cancel order&quot;"));
}

/// A page that shows a private element (a password field) is never taken from the unmasked
/// screencast: its image is a screenshot with the element painted over (a PNG), whether the
/// capture learns of the element from its own query or from the fingerprint's pass — which
/// spares a public page that query. The next, public page's image is a JPEG again.
#[test]
fn a_page_with_a_private_element_is_photographed_masked_and_a_public_one_from_the_screencast() {
    let suite = r#"suite "private" {
    scenario "pages" {
        surface = "web"
        navigate "form" { url = "/sign-in.html" }
        click "user" { target = label("User") }
        navigate "public" { url = "/trace-colours.html" }
    }
}
"#;
    let server = FixtureServer::start();
    let work = workdir(&[("private.acl", suite)]);
    for round in 0..2 {
        // The second round has a last-green record: outlines reused, images taken as before.
        let done = run_served(
            &server,
            work.path(),
            &["private.acl", "--json", "--trace", "on"],
        );
        assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
        let (path, trace) = trace_of(work.path(), &done.json());
        let folder = path.parent().unwrap();
        let formats: Vec<&str> = trace["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["screenshot"]["format"].as_str().unwrap_or("none"))
            .collect();
        assert_eq!(formats, ["png", "png", "jpeg"], "round {round}: {trace:#}");
        for step in trace["steps"].as_array().unwrap() {
            let bytes =
                std::fs::read(folder.join(step["screenshot"]["file"].as_str().unwrap())).unwrap();
            let png = bytes.starts_with(b"\x89PNG");
            assert_eq!(png, step["screenshot"]["format"] == "png", "{step:#}");
        }
    }
}
