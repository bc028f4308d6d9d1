//! Annotations and selection refinements through the binary (`docs/acl.md` §2, "Annotations";
//! `run --grep`, `--grep-invert`, `--exclude-tag`, `--forbid-only`): `skip`/`fixme` scenarios are
//! reported skipped with their reason in the terminal, JSON and JUnit, counted apart from the
//! scenarios no flag selected; `only = true` narrows the run and `--forbid-only` (on when `CI` is
//! set) refuses it with `test.run.forbid_only`; an invalid expression is `test.run.invalid_grep`.
//! Selections are checked with `--list`, which starts no browser.

use crate::harness::{command, finish, run_served, scenario_ids, workdir, Finished, FixtureServer};
use std::path::Path;
use std::time::Duration;

const SUITE: &str = include_str!("../fixtures/suites/annotated.acl");

/// A bound for commands that start no browser.
const QUICK: Duration = Duration::from_secs(30);

/// `a3s-test run annotated.acl --list --json <extra…>` with `ci` as the `CI` variable.
fn list(work: &Path, extra: &[&str], ci: Option<&str>) -> Finished {
    let mut args = vec!["annotated.acl", "--list", "--json"];
    args.extend_from_slice(extra);
    let mut child = command("run", &args, work);
    child.env_remove("CI");
    if let Some(ci) = ci {
        child.env("CI", ci);
    }
    finish(child.spawn().unwrap(), QUICK)
}

fn ids(done: &Finished) -> Vec<String> {
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    scenario_ids(&done.json())
        .into_iter()
        .map(|id| id.trim_start_matches("annotated/").to_string())
        .collect()
}

#[test]
fn grep_grep_invert_and_exclude_tag_refine_the_selection() {
    let work = workdir(&[("annotated.acl", SUITE)]);
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--grep", "^checkout-"],
            &["checkout-card", "checkout-invoice"],
        ),
        // The name is matched too, and the suite id.
        (&["--grep", "by invoice$"], &["checkout-invoice"]),
        (
            &["--grep", "^annotated$", "--grep-invert", "checkout"],
            &["legacy-export", "totals"],
        ),
        (
            &["--exclude-tag", "slow", "--grep", "checkout"],
            &["checkout-card"],
        ),
        (&["--tag", "smoke", "--exclude-tag", "smoke"], &[]),
    ];
    for (flags, expected) in cases {
        assert_eq!(ids(&list(work.path(), flags, None)), *expected, "{flags:?}");
    }
    let bad = list(work.path(), &["--grep", "checkout("], None);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr
            .starts_with("error[test.run.invalid_grep]: --grep \"checkout(\""),
        "{}",
        bad.stderr
    );
    assert!(bad.stderr.contains("hint:"), "{}", bad.stderr);
}

#[test]
fn only_narrows_the_run_and_forbid_only_refuses_it_on_ci() {
    let only = SUITE.replacen(
        "        slow = true\n",
        "        slow = true\n        only = true\n",
        1,
    );
    let work = workdir(&[("annotated.acl", &only)]);
    assert_eq!(ids(&list(work.path(), &[], None)), ["checkout-invoice"]);
    for (flags, ci) in [
        (&["--forbid-only"][..], None),
        (&[][..], Some("true")),
        (&["--forbid-only"][..], Some("")),
    ] {
        let refused = list(work.path(), flags, ci);
        assert_eq!(refused.code, 2, "{flags:?} CI={ci:?}: {}", refused.stderr);
        assert!(
            refused.stderr.starts_with(
                "error[test.run.forbid_only]: `only = true` is forbidden in this run, and 1 \
                 carries it: annotated/checkout-invoice"
            ),
            "{}",
            refused.stderr
        );
    }
    let allowed = list(work.path(), &["--no-forbid-only"], Some("1"));
    assert_eq!(ids(&allowed), ["checkout-invoice"]);
    // Without `only`, CI forbids nothing.
    let plain = workdir(&[("annotated.acl", SUITE)]);
    assert_eq!(ids(&list(plain.path(), &[], Some("1"))).len(), 4);
}

#[test]
fn skip_and_fixme_are_reported_with_their_reason_apart_from_not_selected() {
    let server = FixtureServer::start();
    let work = workdir(&[("annotated.acl", SUITE)]);
    let done = run_served(
        &server,
        work.path(),
        &[
            "annotated.acl",
            "--json",
            "--junit",
            "junit.xml",
            "--grep-invert",
            "invoice",
        ],
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    assert_eq!(json["counts"]["passed"], 1, "{}", json["counts"]);
    assert_eq!(json["counts"]["skipped"], 2);
    assert_eq!(json["skipped"], 1, "not selected: checkout-invoice");
    let skips: Vec<(&str, &str)> = json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == "skipped")
        .map(|s| {
            (
                s["skip"]["kind"].as_str().unwrap(),
                s["skip"]["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        skips,
        [
            ("skip", "the export page is gone"),
            ("fixme", "totals are rounded wrongly (#12)")
        ]
    );
    assert!(
        done.stderr.contains("1 passed, 2 skipped, 1 not selected"),
        "{}",
        done.stderr
    );
    assert!(
        done.stderr
            .contains("fixme: totals are rounded wrongly (#12)"),
        "{}",
        done.stderr
    );
    let junit = std::fs::read_to_string(work.path().join("junit.xml")).unwrap();
    assert!(
        junit.contains("message=\"skip: the export page is gone\""),
        "{junit}"
    );
    assert!(junit.contains("type=\"fixme\""), "{junit}");
}

#[test]
fn a_dependency_in_another_file_is_pulled_in_or_refused_before_any_browser() {
    let auth = "suite \"auth\" {\n    scenario \"sign-in\" {\n        surface = \"web\"\n        navigate \"open\" { url = \"/\" }\n    }\n}\n";
    let shop = "suite \"shop\" {\n    scenario \"cart\" {\n        surface = \"web\"\n        depends_on = [\"auth/sign-in\"]\n        navigate \"open\" { url = \"/\" }\n    }\n}\n";
    let work = workdir(&[("auth.acl", auth), ("shop.acl", shop)]);
    let listed = |paths: &[&str]| {
        let mut args = paths.to_vec();
        args.extend(["--list", "--json", "--filter", "shop/*"]);
        finish(command("run", &args, work.path()).spawn().unwrap(), QUICK)
    };
    let both = listed(&["auth.acl", "shop.acl"]);
    assert_eq!(both.code, 0, "{}", both.stderr);
    assert_eq!(scenario_ids(&both.json()), ["auth/sign-in", "shop/cart"]);
    assert_eq!(both.json()["scenarios"][0]["dependency_only"], true);
    let alone = listed(&["shop.acl"]);
    assert_eq!(alone.code, 2, "{}", alone.stderr);
    assert!(
        alone
            .stderr
            .starts_with("error[test.run.unknown_dependency]: shop/cart (at shop.acl:2:5) depends on `auth/sign-in`"),
        "{}",
        alone.stderr
    );
}

#[test]
fn slow_triples_the_scenario_deadline_and_the_expect_timeout() {
    // "All done" appears 3.2 s after load: past a 1.5 s deadline and a 2 s expect timeout,
    // within 4.5 s and 6 s.
    let suite = |slow: &str| {
        format!(
            "suite \"late\" {{\n    scenario \"waits\" {{\n        surface = \"web\"\n        timeout_ms = 1500\n        expect_timeout_ms = 2000\n{slow}        navigate \"open\" {{ url = \"/late.html\" }}\n        expect \"done\" {{ text = \"All done\" }}\n    }}\n}}\n"
        )
    };
    let server = FixtureServer::start();
    for (slow, code, status) in [
        ("", 124, "timed_out"),
        ("        slow = true\n", 0, "passed"),
    ] {
        let work = workdir(&[("late.acl", &suite(slow))]);
        let done = run_served(&server, work.path(), &["late.acl", "--json"]);
        assert_eq!(done.code, code, "slow {slow:?}: {}", done.stderr);
        assert_eq!(done.json()["scenarios"][0]["status"], status);
    }
}
