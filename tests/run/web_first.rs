//! Honest, web-first evidence through the binary in real Chromium: an `expect` waits for late
//! content and fails at its expect timeout naming the last value it saw; the scenario deadline
//! first is a timeout (124); a stability window that flips is unstable; `immediate = true`
//! reads once; a click never reports an element something else covers. The passing half — seven
//! late conditions, a cover that goes, right, middle, modified and positioned clicks, a new tab
//! by Control+click — is `suites/late.acl` and `suites/pointer.acl`, run here with their page
//! log checked.

use crate::harness::{repo, run_served, scenario, workdir, FixtureServer};
use serde_json::Value;

const SUITE: &str = include_str!("../fixtures/suites/web-first.acl");

fn message(s: &Value) -> &str {
    s["failure"]["message"].as_str().unwrap()
}

fn waited_ms(s: &Value) -> u64 {
    s["failure"]["waited"]["waited_ms"]
        .as_u64()
        .unwrap_or_else(|| panic!("no waited_ms in {s}"))
}

#[test]
fn late_conditions_and_pointer_actions_pass_as_a_person_sees_them() {
    let server = FixtureServer::start();
    let late = std::fs::read_to_string(repo().join("suites/late.acl")).unwrap();
    let pointer = std::fs::read_to_string(repo().join("suites/pointer.acl")).unwrap();
    let work = workdir(&[("late.acl", &late), ("pointer.acl", &pointer)]);
    let done = run_served(
        &server,
        work.path(),
        // No trace: a capture after each step is time the page's timers keep running in, and
        // this test adds up how long the `expect`s themselves waited.
        &[
            "late.acl",
            "pointer.acl",
            "--json",
            "--jobs",
            "2",
            "--trace",
            "off",
        ],
    );
    let json = done.json();
    assert_eq!(done.code, 0, "{}\n{json}", done.stderr);
    // Each `expect` of the seven waited for its own condition, the last one past 3 s.
    let arrives = scenario(&json, "late/arrives");
    let waited: Vec<u64> = arrives["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "expect")
        .map(|s| s["detail"]["waited_ms"].as_u64().unwrap())
        .collect();
    assert_eq!(waited.len(), 8, "{arrives}");
    assert!(waited.iter().sum::<u64>() >= 3000, "{waited:?}");
    // The click under the cover reports the element it reached, which is the button.
    let under = &scenario(&json, "pointer/cover-goes")["steps"][1]["detail"];
    assert_eq!(under["element"], "<button#under> \"Under\"", "{under}");
    assert_eq!(under["hit"], "<button#under> \"Under\"", "{under}");
    // A checkbox under its styled box is checked through its label: the box was hit.
    let terms = &scenario(&json, "pointer/label-forwards")["steps"][1]["detail"];
    assert_eq!(terms["element"], "<input#terms> \"Terms\"", "{terms}");
    assert_eq!(terms["hit"], "<span#terms-box>", "{terms}");
}

#[test]
fn a_wrong_page_fails_with_what_was_expected_what_was_seen_and_how_long() {
    let server = FixtureServer::start();
    let work = workdir(&[("web-first.acl", SUITE)]);
    let done = run_served(
        &server,
        work.path(),
        &[
            "web-first.acl",
            "--json",
            "--jobs",
            "2",
            "--expect-timeout-ms",
            "1500",
        ],
    );
    let json = done.json();
    assert_eq!(done.code, 124, "a scenario timed out: {}", done.stderr);

    // Never there: the condition's code, after the run's expect timeout, naming the last text.
    let never = scenario(&json, "web-first/never");
    assert_eq!(never["status"], "failed", "{never}");
    assert_eq!(never["failure"]["code"], "test.assert.text_mismatch");
    let m = message(never);
    assert!(
        m.starts_with("text = \"Never shown\" did not hold within 1500 ms; last seen: the visible page text does not contain \"Never shown\"; it reads \"Late content"),
        "{m}"
    );
    assert!((1500..6000).contains(&waited_ms(never)), "{never}");
    let last = never["failure"]["waited"]["last_seen"].as_str().unwrap();
    assert!(
        last.contains("Report ready"),
        "the last reading, not the first: {last}"
    );

    // The step's own timeout beats the run's: it fails before the text arrives at 3 s.
    let early = scenario(&json, "web-first/step-timeout");
    assert_eq!(early["failure"]["code"], "test.assert.text_mismatch");
    assert!(message(early).contains("within 200 ms"), "{early}");
    assert!((200..1500).contains(&waited_ms(early)), "{early}");

    // The scenario deadline before the expect timeout: a scenario timeout, as in A3S Test 1.0.
    let deadline = scenario(&json, "web-first/deadline-first");
    assert_eq!(deadline["status"], "timed_out", "{deadline}");
    assert_eq!(deadline["failure"]["code"], "test.run.timeout");
    assert!(
        message(deadline)
            .starts_with("the scenario deadline passed while expecting text = \"Never shown\""),
        "{deadline}"
    );

    // "Saved" shows at 0.9 s and goes at 2.1 s: the window starts when it holds, then breaks.
    let flips = scenario(&json, "web-first/flips-back");
    assert_eq!(flips["failure"]["code"], "test.assert.unstable", "{flips}");
    assert!(
        message(flips).starts_with("text = \"Saved\" held, then sample"),
        "{flips}"
    );

    // `immediate = true`: one reading, before the text arrives.
    let now = scenario(&json, "web-first/immediate");
    assert_eq!(now["failure"]["code"], "test.assert.text_mismatch");
    assert!(message(now).contains("immediate = true"), "{now}");
    assert!(waited_ms(now) < 600, "{now}");

    // A button under a lid for good: the lid is named, and no click reached the page.
    let buried = scenario(&json, "web-first/buried");
    assert_eq!(buried["failure"]["code"], "test.driver.web.target_covered");
    let m = message(buried);
    assert!(
        m.contains("<div#lid> \"Lid\"")
            && m.contains("is on top of <button#buried> \"Buried\"")
            && m.contains("nothing was dispatched"),
        "{m}"
    );
    let evidence = buried["failure"]["evidence"].as_array().unwrap();
    let tree = evidence
        .iter()
        .find(|e| e["kind"] == "accessibility")
        .map(|e| std::fs::read_to_string(work.path().join(e["path"].as_str().unwrap())).unwrap())
        .expect("accessibility evidence");
    assert!(tree.contains("Covered controls"), "{tree}");
    assert!(!tree.contains("clicked"), "a click was dispatched: {tree}");

    // The centre of a card is an iframe of another origin: the click would land in that frame's
    // document, so it never counts as reaching the card.
    let framed = scenario(&json, "web-first/into-a-frame");
    assert_eq!(framed["failure"]["code"], "test.driver.web.target_covered");
    assert!(
        message(framed).contains("lies in the cross-origin frame <iframe> \"Payment\""),
        "{framed}"
    );
    // A custom element with a closed shadow root over a button is named as such.
    let shaded = scenario(&json, "web-first/closed-shadow");
    assert_eq!(shaded["failure"]["code"], "test.driver.web.target_covered");
    assert!(
        message(shaded).contains("<x-shade#shade>")
            && message(shaded).contains("shadow root, if closed, cannot be looked into"),
        "{shaded}"
    );
}

#[test]
fn the_expect_timeout_comes_from_the_project_unless_the_run_says() {
    let server = FixtureServer::start();
    let project = "project \"p\" {\n    expect_timeout_ms = 700\n}\n";
    let work = workdir(&[("web-first.acl", SUITE), (".a3s-test/project.acl", project)]);
    let never = ["web-first.acl", "--json", "--filter", "never"];
    let done = run_served(&server, work.path(), &never);
    let json = done.json();
    assert_eq!(done.code, 1, "{}", done.stderr);
    assert!(
        message(scenario(&json, "web-first/never")).contains("within 700 ms"),
        "{json}"
    );
    let mut flagged = never.to_vec();
    flagged.extend(["--expect-timeout-ms", "300"]);
    let json = run_served(&server, work.path(), &flagged).json();
    assert!(
        message(scenario(&json, "web-first/never")).contains("within 300 ms"),
        "{json}"
    );
}
