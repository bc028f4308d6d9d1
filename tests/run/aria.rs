//! `expect { aria_snapshot }` in real Chromium through the binary, against `aria.html`: the
//! written outline matches the cart, a changed item fails with a readable diff (the report's
//! text is snapshotted), and `--update-snapshots` writes the page's outline into the suite file —
//! for an empty outline and for one that no longer matches — after which the run passes.

use crate::harness::{command, finish, FixtureServer, RUN_BOUND};
use std::path::Path;

const SUITE: &str = include_str!("../fixtures/suites/aria.acl");

fn suite(fruit: &str) -> String {
    SUITE.replace("fruit=FRUIT", &format!("fruit={fruit}"))
}

/// `a3s-test run aria.acl <extra…>` (CI cleared): exit code, stdout, stderr.
fn run(server: &FixtureServer, work: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["aria.acl", "--base-url", server.base_url.as_str()];
    args.extend(extra);
    let mut cmd = command("run", &args, work);
    cmd.env_remove("CI");
    let done = finish(cmd.spawn().unwrap(), RUN_BOUND);
    (done.code, done.stdout, done.stderr)
}

fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn the_written_outline_matches_the_cart() {
    let server = FixtureServer::start();
    let work = crate::common::workdir(&[("aria.acl", &suite("apples"))]);
    let (code, out, err) = run(&server, work.path(), &["--json"]);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn a_changed_item_fails_with_a_readable_diff() {
    let server = FixtureServer::start();
    let work = crate::common::workdir(&[("aria.acl", &suite("plums"))]);
    let (code, out, _) = run(&server, work.path(), &["--json"]);
    assert_eq!(code, 1, "{out}");
    let failure = &json(&out)["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.assert.aria_snapshot_mismatch");
    let (code, text, _) = run(&server, work.path(), &[]);
    assert_eq!(code, 1);
    let start = text
        .find("aria_snapshot did not match")
        .expect("the diff is reported");
    let report: String = text[start..]
        .lines()
        .take_while(|l| !l.trim().is_empty() && !l.starts_with('─'))
        .collect::<Vec<_>>()
        .join("\n");
    let report = regex::Regex::new(r"within \d+ ms")
        .unwrap()
        .replace_all(&report, "within <ms> ms");
    insta::assert_snapshot!(report);
    assert_eq!(
        std::fs::read_to_string(work.path().join("aria.acl")).unwrap(),
        suite("plums"),
        "a failed run rewrites nothing"
    );
}

#[test]
fn update_snapshots_writes_the_page_outline_into_the_suite() {
    let server = FixtureServer::start();
    // An empty outline is filled in; one that no longer matches is rewritten.
    let empty = suite("plums").replace(
        &SUITE[SUITE.find("\"\"\"").unwrap()..SUITE.rfind("\"\"\"").unwrap() + 3],
        "\"\"\"\"\"\"",
    );
    for source in [empty, suite("plums")] {
        let work = crate::common::workdir(&[("aria.acl", &source)]);
        let (code, out, err) = run(&server, work.path(), &["--update-snapshots", "--json"]);
        assert_eq!(code, 0, "{out}\n{err}");
        let written = std::fs::read_to_string(work.path().join("aria.acl")).unwrap();
        assert!(
            written.contains("aria_snapshot = \"\"\"\n                - main:\n")
                && written.contains("- listitem:\n")
                && written.contains("- text: 3 plums\n")
                && written.contains("- checkbox \"Gift wrap\" [checked]\n"),
            "{written}"
        );
        assert!(
            written.contains("            timeout_ms = 1000\n"),
            "{written}"
        );
        let (code, out, _) = run(&server, work.path(), &["--json"]);
        assert_eq!(code, 0, "the written outline matches: {out}\n{written}");
    }
}

#[test]
fn a_target_scopes_the_outline_to_its_subtree() {
    let server = FixtureServer::start();
    let scoped = |outline: &str| {
        format!(
            "suite \"aria\" {{\n    scenario \"items\" {{\n        surface = \"web\"\n        \
             navigate \"open\" {{ url = \"/aria.html\" }}\n        expect \"list\" {{\n            \
             aria_snapshot = \"{outline}\"\n            target = css(\"ul\")\n            \
             timeout_ms = 1000\n        }}\n    }}\n}}\n"
        )
    };
    // Inside the list: its items. The heading before it is not in its subtree.
    let work = crate::common::workdir(&[(
        "aria.acl",
        &scoped("- list \\\"Items\\\":\\n  - listitem: 3 apples\\n  - listitem: 2 pears"),
    )]);
    let (code, out, err) = run(&server, work.path(), &["--json"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let work = crate::common::workdir(&[("aria.acl", &scoped("- heading \\\"Cart\\\""))]);
    let (code, out, _) = run(&server, work.path(), &["--json"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        json(&out)["scenarios"][0]["failure"]["code"],
        "test.assert.aria_snapshot_mismatch"
    );
}
