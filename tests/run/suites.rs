//! The dogfood suites pass; a failing suite is reported with step, code and screenshot in every
//! output; admission errors stop the run before a browser opens; selection flags select.

use crate::harness::{
    failing_suite, read_junit, repo, run, run_once, run_served, scenario_ids as ids, workdir,
    FixtureServer,
};
use std::time::Duration;

#[test]
fn the_dogfood_suites_pass_with_the_project_dev_server() {
    let out = tempfile::tempdir().unwrap();
    let junit = out.path().join("junit.xml");
    let done = run(
        &[
            "suites/",
            "--jobs",
            "2",
            "--output-dir",
            out.path().to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
        ],
        &repo(),
        Duration::from_secs(240),
    );
    assert_eq!(
        done.code, 0,
        "stdout:\n{}\nstderr:\n{}",
        done.stdout, done.stderr
    );
    assert!(done.stdout.contains("Summary"), "{}", done.stdout);
    assert!(
        done.stdout.contains("Result passed (exit code 0)"),
        "{}",
        done.stdout
    );
    let (counts, xml) = read_junit(&junit);
    let scenarios = done
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("PASS ["))
        .count();
    assert!(counts.suites >= 10, "{counts:?}");
    // Every suite holds at least one scenario: fewer `PASS [` lines means the pattern no longer
    // matches the output, and the equality below would pass with 0 == 0.
    assert!(
        scenarios >= counts.suites,
        "{scenarios} PASS lines for {} suites:\n{}",
        counts.suites,
        done.stdout
    );
    assert_eq!(
        counts.cases, scenarios,
        "one testcase per scenario: {counts:?}"
    );
    assert_eq!((counts.failures, counts.errors), (0, 0), "{xml}");
}

#[test]
fn a_failing_suite_names_the_step_code_and_screenshot_everywhere() {
    let (done, work) = run_once(
        &[("shop.acl", &failing_suite("shop"))],
        &["shop.acl", "--json", "--junit", "report.xml"],
    );
    let junit = work.path().join("report.xml");
    assert_eq!(done.code, 1, "{}", done.stderr);
    let json = done.json();
    assert_eq!(json["format_version"], 1);
    assert_eq!(json["counts"]["passed"], 1);
    assert_eq!(json["counts"]["product"], 1);
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.assert.text_mismatch");
    assert_eq!(failure["failure_class"], "product");
    assert_eq!(
        failure["step_path"],
        "suite.shop.scenario.greets.expect.welcome"
    );
    assert_eq!(failure["location"], "shop.acl:8:9");
    let evidence = crate::common::each_str(&failure["evidence"], "path");
    let shot = evidence
        .iter()
        .find(|p| p.ends_with(".png"))
        .expect("a screenshot");
    assert!(
        shot.contains("/.a3s-test/runs/") && shot.contains("/shop/greets/failure/"),
        "{shot}"
    );
    assert!(std::fs::read(shot).unwrap().starts_with(b"\x89PNG"));
    assert!(
        evidence.len() >= 3,
        "screenshot, accessibility tree, console and page errors: {evidence:?}"
    );

    // The live report went to stderr (stdout carries the JSON) and names step, code and screenshot.
    let live = &done.stderr;
    for needle in [
        "FAIL",
        "shop/greets",
        "test.assert.text_mismatch",
        "suite.shop.scenario.greets.expect.welcome",
        "failure/",
    ] {
        assert!(live.contains(needle), "missing {needle:?} in:\n{live}");
    }
    let (counts, xml) = read_junit(&junit);
    assert_eq!(
        (counts.suites, counts.cases, counts.failures, counts.errors),
        (1, 2, 1, 0),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure type="test.assert.text_mismatch""#),
        "{xml}"
    );
    assert!(
        xml.contains(shot),
        "the JUnit failure lists the screenshot:\n{xml}"
    );
}

#[test]
fn admission_errors_stop_the_run_before_any_browser() {
    let work = workdir(&[("ok.acl", &failing_suite("shop")), ("broken.acl", "suite \"x\" {\n    scenario \"y\" {\n        surface = \"web\"\n        clik \"a\" { target = css(\"b\") }\n    }\n}\n")]);
    let done = run(&["."], work.path(), Duration::from_secs(30));
    assert_eq!(done.code, 2);
    assert!(done.stderr.contains("test.spec."), "{}", done.stderr);
    assert!(done.stderr.contains("broken.acl"), "{}", done.stderr);
    assert!(
        !work.path().join(".a3s-test").exists(),
        "nothing was run, no run folder"
    );
}

const THREE: &str = include_str!("../fixtures/suites/sel.acl");

#[test]
fn filter_tag_and_shard_select_scenarios() {
    let server = FixtureServer::start();
    let work = workdir(&[("sel.acl", THREE)]);
    let with = |extra: &[&str]| {
        let args = [&["sel.acl", "--json"], extra].concat();
        let done = run_served(&server, work.path(), &args);
        assert_eq!(done.code, 0, "{}", done.stderr);
        done.json()
    };
    let filtered = with(&["--filter", "sel/*ta", "--filter", "alpha"]);
    assert_eq!(ids(&filtered), ["sel/alpha", "sel/beta"]);
    assert_eq!(filtered["skipped"], 1);
    assert_eq!(ids(&with(&["--tag", "smoke"])), ["sel/alpha", "sel/gamma"]);
    let mut union = ids(&with(&["--shard", "1/2"]));
    union.extend(ids(&with(&["--shard", "2/2"])));
    union.sort();
    assert_eq!(union, ["sel/alpha", "sel/beta", "sel/gamma"]);
}
