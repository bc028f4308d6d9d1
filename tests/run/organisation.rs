//! Suites that scale (`docs/acl.md` §2.1–§2.3, §9.1) through the binary, in real Chromium on
//! loopback pages: hooks around every scenario (`after_each` after a failure and after the
//! deadline, its failure reported apart), a group from another file through the project's
//! `include`, parameters as distinct JUnit cases selected by `--filter` and `--last-failed`,
//! and soft expects that let a scenario go on and fail it at its end.

use crate::common::workdir;
use crate::harness::{read_junit, run_served, scenario, scenario_ids, FixtureServer};

const HOOKS: &str = r#"
suite "hooks" {
    before_each {
        navigate "open" { url = "/forms.html" }
    }
    after_each {
        navigate "tidy" { url = "/index.html" }
    }
    scenario "fails" {
        surface = "web"
        expect "welcome" {
            text = "Welcome, Ada"
            timeout_ms = 300
        }
        fill "never" {
            target = label("Name")
            value = "not typed"
        }
    }
    scenario "times-out" {
        surface = "web"
        timeout_ms = 3000
        navigate "hang" { url = "/hang" }
    }
    scenario "passes" {
        surface = "web"
        expect "title" { visible = role("heading", "Contact form") }
    }
}
"#;

const CLEANUP: &str = r#"
suite "cleanup" {
    after_each {
        expect "signed-out" {
            text = "Signed out"
            timeout_ms = 300
        }
    }
    scenario "works" {
        surface = "web"
        navigate "open" { url = "/forms.html" }
        expect "title" { visible = role("heading", "Contact form") }
    }
    scenario "broken" {
        surface = "web"
        navigate "open" { url = "/forms.html" }
        expect "welcome" {
            text = "Welcome, Ada"
            timeout_ms = 300
        }
    }
}
"#;

fn step_paths(s: &serde_json::Value) -> Vec<(String, String)> {
    s["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| {
            (
                st["path"].as_str().unwrap().to_string(),
                st["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn after_each_runs_after_a_failure_and_the_deadline_and_its_failure_is_reported_apart() {
    let server = FixtureServer::start();
    let requests = server.watch();
    let work = workdir(&[("hooks.acl", HOOKS), ("cleanup.acl", CLEANUP)]);
    let done = run_served(
        &server,
        work.path(),
        &[
            "hooks.acl",
            "cleanup.acl",
            "--jobs",
            "1",
            "--json",
            "--junit",
            "junit.xml",
        ],
    );
    assert_eq!(
        done.code, 124,
        "a timed-out scenario decides the exit code:\n{}",
        done.stderr
    );
    let json = done.json();

    // The scenario's own failure: its next step did not run, after_each did.
    let fails = scenario(&json, "hooks/fails");
    assert_eq!(fails["status"], "failed");
    assert_eq!(fails["failure"]["code"], "test.assert.text_mismatch");
    assert_eq!(
        step_paths(fails),
        [
            (
                "suite.hooks.scenario.fails.before_each.navigate.open".into(),
                "passed".into()
            ),
            (
                "suite.hooks.scenario.fails.expect.welcome".into(),
                "failed".into()
            ),
            (
                "suite.hooks.scenario.fails.after_each.navigate.tidy".into(),
                "passed".into()
            ),
        ]
    );
    assert!(fails.get("hook_failure").is_none(), "{fails}");
    // The deadline cut the hanging navigation off; after_each ran in its own bound.
    let late = scenario(&json, "hooks/times-out");
    assert_eq!(late["status"], "timed_out");
    let last = late["steps"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["path"].as_str(), last["status"].as_str()),
        (
            Some("suite.hooks.scenario.times-out.after_each.navigate.tidy"),
            Some("passed")
        ),
        "{late}"
    );
    assert_eq!(scenario(&json, "hooks/passes")["status"], "passed");
    let groups = &fails["groups"];
    assert_eq!(groups[0]["kind"], "hook");
    assert_eq!(groups[0]["hook"], "before_each");
    // Each of the three scenarios asked for the after_each page once.
    let tidy = requests.try_iter().filter(|p| p == "/index.html").count();
    assert_eq!(tidy, 3, "after_each ran once per scenario");

    // Own steps passed, after_each failed: the scenario fails, marked as the hook's.
    let works = scenario(&json, "cleanup/works");
    assert_eq!(works["status"], "failed");
    assert!(
        works["failure"]["message"]
            .as_str()
            .unwrap()
            .starts_with("after_each failed: "),
        "{works}"
    );
    assert_eq!(
        works["hook_failure"]["step_path"],
        "suite.cleanup.scenario.works.after_each.expect.signed-out"
    );
    // Both failed: the scenario's own failure stays the verdict, the hook's sits beside it.
    let broken = scenario(&json, "cleanup/broken");
    assert_eq!(
        broken["failure"]["step_path"],
        "suite.cleanup.scenario.broken.expect.welcome"
    );
    assert_eq!(
        broken["hook_failure"]["step_path"],
        "suite.cleanup.scenario.broken.after_each.expect.signed-out"
    );
    let evidence = broken["hook_failure"]["evidence"].as_array().unwrap();
    assert!(
        evidence
            .iter()
            .any(|e| e["path"].as_str().unwrap().contains("after-each-failure")),
        "the hook's failure keeps its own evidence: {evidence:?}"
    );
    assert!(
        done.stderr.contains("AFTER_EACH cleanup/broken"),
        "{}",
        done.stderr
    );
    let (_, xml) = read_junit(&work.path().join("junit.xml"));
    assert!(
        xml.contains("after_each: test.assert.text_mismatch"),
        "{xml}"
    );
    assert!(
        xml.contains("  before_each (passed)\n    navigate \"open\" (passed)"),
        "{xml}"
    );
}

#[test]
fn a_group_from_an_included_library_runs_as_one_nested_step() {
    let server = FixtureServer::start();
    let project = r#"project "shop" {
    include = ["shared/*.acl"]
}
"#;
    let library = r#"library "shared" {
    steps "open-form" {
        navigate "open" { url = "/forms.html" }
        expect "title" { visible = role("heading", "Contact form") }
    }
}
"#;
    let suite = r#"suite "uses" {
    scenario "fill" {
        surface = "web"
        use "open-form" {}
        fill "name" {
            target = label("Name")
            value = "Ada"
        }
        use "again" { steps = "open-form" }
    }
}
"#;
    let work = workdir(&[
        (".a3s-test/project.acl", project),
        ("shared/forms.acl", library),
        ("suites/uses.acl", suite),
    ]);
    let done = run_served(&server, work.path(), &["suites/uses.acl", "--json"]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let json = done.json();
    let s = scenario(&json, "uses/fill");
    let p = "suite.uses.scenario.fill";
    assert_eq!(
        step_paths(s)
            .into_iter()
            .map(|(p, _)| p)
            .collect::<Vec<_>>(),
        [
            format!("{p}.use.open-form.navigate.open"),
            format!("{p}.use.open-form.expect.title"),
            format!("{p}.fill.name"),
            format!("{p}.use.again.navigate.open"),
            format!("{p}.use.again.expect.title"),
        ]
    );
    // The included steps point at the `use` that called them.
    assert_eq!(s["steps"][0]["location"], "suites/uses.acl:4:9");
    assert_eq!(s["steps"][0]["group"], 0);
    assert_eq!(s["groups"][1]["label"], "again");
    assert_eq!(s["groups"][1]["group"], "open-form");

    // `check` reads the same include; a name no library has is refused with a hint.
    let checked = crate::harness::command("check", &["suites"], work.path())
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
    crate::common::write(
        work.path(),
        "suites/typo.acl",
        suite
            .replace("use \"open-form\" {}", "use \"open-fom\" {}")
            .replace("\"uses\"", "\"typo\""),
    );
    let checked = crate::harness::command("check", &["suites/typo.acl"], work.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(2), "{text}");
    assert!(
        text.contains("test.spec.unknown_group") && text.contains("did you mean \"open-form\"?"),
        "{text}"
    );
    // Two included files defining one group: which one `use` got would depend on file names.
    crate::common::write(
        work.path(),
        "shared/more.acl",
        library.replace("\"shared\"", "\"more\""),
    );
    let done = run_served(&server, work.path(), &["suites/uses.acl"]);
    assert_eq!(done.code, 2, "{}", done.stderr);
    assert!(
        done.stderr.contains("`shared/more.acl` defines the group \"open-form\" that `shared/forms.acl` already defines"),
        "{}",
        done.stderr
    );
    // An include that finds nothing stops the run before any browser.
    crate::common::write(
        work.path(),
        ".a3s-test/project.acl",
        project.replace("shared/*.acl", "nowhere/*.acl"),
    );
    let done = run_served(&server, work.path(), &["suites/uses.acl"]);
    assert_eq!(done.code, 2, "{}", done.stderr);
    assert!(
        done.stderr
            .contains("include pattern `nowhere/*.acl` matches no .acl file"),
        "{}",
        done.stderr
    );
}

const PARAMS: &str = r#"
suite "params" {
    scenario "checkout" {
        surface = "web"
        each = [
            { user = "alice", shown = "alice" },
            { user = "bob", shown = "nobody" },
        ]
        navigate "open" { url = "/forms.html" }
        fill "who" {
            target = label("Name")
            value = "${user}"
        }
        expect "typed" {
            target = label("Name")
            value = "${shown}"
            timeout_ms = 300
        }
    }
}
"#;

#[test]
fn parameters_expand_to_distinct_cases_that_filter_and_last_failed_select() {
    let server = FixtureServer::start();
    let work = workdir(&[("params.acl", PARAMS)]);
    let done = run_served(
        &server,
        work.path(),
        &["params.acl", "--json", "--junit", "junit.xml"],
    );
    assert_eq!(done.code, 1, "{}", done.stderr);
    let json = done.json();
    assert_eq!(
        scenario_ids(&json),
        ["params/checkout[alice]", "params/checkout[bob]"]
    );
    assert_eq!(
        scenario(&json, "params/checkout[alice]")["status"],
        "passed"
    );
    let bob = scenario(&json, "params/checkout[bob]");
    assert_eq!(bob["status"], "failed");
    assert_eq!(
        bob["failure"]["step_path"],
        "suite.params.scenario.checkout[bob].expect.typed"
    );
    let (counts, xml) = read_junit(&work.path().join("junit.xml"));
    assert_eq!((counts.cases, counts.failures), (2, 1), "{xml}");
    assert!(
        xml.contains("name=\"checkout[alice]\"") && xml.contains("name=\"checkout[bob]\""),
        "{xml}"
    );

    let only = run_served(
        &server,
        work.path(),
        &["params.acl", "--json", "--filter", "checkout[alice]"],
    );
    assert_eq!(only.code, 0, "{}", only.stderr);
    assert_eq!(scenario_ids(&only.json()), ["params/checkout[alice]"]);

    // `--last-failed` reads the last run's record: run both again so bob's failure is on it.
    let again = run_served(&server, work.path(), &["params.acl", "--json"]);
    assert_eq!(again.code, 1);
    let last = run_served(
        &server,
        work.path(),
        &["params.acl", "--json", "--last-failed"],
    );
    assert_eq!(
        scenario_ids(&last.json()),
        ["params/checkout[bob]"],
        "{}",
        last.stderr
    );
}

const SOFT: &str = r#"
suite "soft" {
    scenario "page" {
        surface = "web"
        navigate "open" { url = "/forms.html" }
        expect "greeting" {
            text = "Welcome, Ada"
            timeout_ms = 300
            soft = true
        }
        expect "footer" {
            visible = role("contentinfo")
            timeout_ms = 300
            soft = true
        }
        fill "name" {
            target = label("Name")
            value = "Ada"
        }
        expect "typed" {
            target = label("Name")
            value = "Ada"
        }
    }
}
"#;

#[test]
fn soft_expects_let_the_scenario_go_on_and_fail_it_at_its_end_listing_both() {
    let server = FixtureServer::start();
    let work = workdir(&[("soft.acl", SOFT)]);
    let done = run_served(
        &server,
        work.path(),
        &["soft.acl", "--json", "--junit", "junit.xml"],
    );
    assert_eq!(done.code, 1, "{}", done.stderr);
    let json = done.json();
    let s = scenario(&json, "soft/page");
    assert_eq!(s["status"], "failed");
    let statuses: Vec<&str> = s["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| st["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["passed", "failed", "failed", "passed", "passed"],
        "the scenario went on"
    );
    assert_eq!(s["steps"][1]["soft"], true);
    let soft = s["soft_failures"].as_array().unwrap();
    assert_eq!(soft.len(), 2);
    assert_eq!(soft[0]["code"], "test.assert.text_mismatch");
    assert_eq!(soft[1]["code"], "test.driver.web.target_not_found");
    let message = s["failure"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("2 soft expects failed: 1) suite.soft.scenario.page.expect.greeting: ")
            && message.contains("2) suite.soft.scenario.page.expect.footer: "),
        "{message}"
    );
    for (i, f) in soft.iter().enumerate() {
        let dir = format!("soft-failure-{}", i + 1);
        assert!(
            f["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["path"].as_str().unwrap().contains(&dir)),
            "soft failure {i} keeps its own evidence: {f}"
        );
    }
    let (_, xml) = read_junit(&work.path().join("junit.xml"));
    assert!(
        xml.contains("soft expect 1: test.assert.text_mismatch")
            && xml.contains("soft expect 2: test.driver.web.target_not_found"),
        "{xml}"
    );
}
