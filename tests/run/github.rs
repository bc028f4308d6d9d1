//! `--reporter github` through the real binary and real Chromium: inside GitHub Actions
//! (`GITHUB_ACTIONS=true`) a failed step is annotated on its own line after the summary; an
//! explicit `--reporter terminal` turns that off; with `--json` the annotations go to stderr.

use crate::harness::{command, failing_suite, finish, workdir, Finished, FixtureServer, RUN_BOUND};
use std::path::Path;

const ANNOTATION: &str = "::error file=gh.acl,line=8,col=9,title=test.assert.text_mismatch::";

/// `a3s-test run …` with `GITHUB_ACTIONS=true`, in its own process group, with a deadline.
fn run_in_actions(args: &[&str], cwd: &Path) -> Finished {
    let child = command("run", args, cwd)
        .env("GITHUB_ACTIONS", "true")
        .spawn()
        .unwrap();
    finish(child, RUN_BOUND)
}

#[test]
fn inside_github_actions_a_failed_step_is_annotated_on_its_line() {
    let server = FixtureServer::start();
    let work = workdir(&[("gh.acl", &failing_suite("gh"))]);
    let base = ["gh.acl", "--base-url", server.base_url.as_str()];

    let done = run_in_actions(&base, work.path());
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    let annotations: Vec<&str> = done
        .stdout
        .lines()
        .filter(|l| l.starts_with("::"))
        .collect();
    assert_eq!(annotations.len(), 1, "{}", done.stdout);
    assert!(annotations[0].starts_with(ANNOTATION), "{}", annotations[0]);
    assert!(
        annotations[0]
            .ends_with("%0Ascenario: gh/greets%0Astep: suite.gh.scenario.greets.expect.welcome"),
        "{}",
        annotations[0]
    );
    let summary = done.stdout.find("Summary").unwrap();
    assert!(
        done.stdout.find(ANNOTATION).unwrap() > summary,
        "after the summary"
    );

    let mut args = base.to_vec();
    args.extend(["--reporter", "terminal"]);
    let done = run_in_actions(&args, work.path());
    assert_eq!(done.code, 1);
    assert!(!done.stdout.contains("::error"), "{}", done.stdout);

    let mut args = base.to_vec();
    args.push("--json");
    let done = run_in_actions(&args, work.path());
    assert_eq!(done.code, 1);
    assert!(done.stderr.contains(ANNOTATION), "{}", done.stderr);
    assert_eq!(
        done.json()["counts"]["failed"],
        1,
        "stdout stays one JSON document"
    );
}
