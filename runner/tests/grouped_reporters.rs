//! Snapshot tests of every reporter over a run with hooks, `use` groups, soft expects and an
//! `after_each` failure (`docs/acl.md` §2.1–§2.2, §9.1): groups nest as one step each, every
//! soft failure is listed, and an `after_each` failure stays apart from the scenario's own.

// Not every helper of the shared fixtures is needed here.
#[allow(dead_code)]
mod common;

use a3s_test_driver::FailureCode;
use a3s_test_lang::ir::{GroupKind, Hook, StepGroup};
use a3s_test_lang::Span;
use a3s_test_runner::event::{RunEvent, RunEventKind};
use a3s_test_runner::reporter::github::GithubReporter;
use a3s_test_runner::reporter::html;
use a3s_test_runner::reporter::json::JsonReporter;
use a3s_test_runner::reporter::junit::JunitReporter;
use a3s_test_runner::reporter::terminal::{TerminalOptions, TerminalReporter};
use a3s_test_runner::reporter::Reporter;
use a3s_test_runner::result::{
    FailureRecord, RunResult, ScenarioResult, ScenarioStatus, StepResult,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;

const ROOT: &str = "/work/.a3s-test/runs/20260101T120000Z-abcdef";
const FILE: &str = "suites/shop.acl";

fn group(kind: GroupKind, label: &str, path: String, parent: Option<usize>) -> StepGroup {
    StepGroup {
        kind,
        label: label.into(),
        path,
        parent,
        span: Span::new(0, 0),
    }
}

fn hook(hook: Hook, scenario: &str) -> StepGroup {
    group(
        GroupKind::Hook { hook },
        hook.name(),
        format!("suite.shop.scenario.{scenario}.{}", hook.name()),
        None,
    )
}

fn used(name: &str, label: &str, parent_path: &str, parent: Option<usize>) -> StepGroup {
    group(
        GroupKind::Use { group: name.into() },
        label,
        format!("{parent_path}.use.{label}"),
        parent,
    )
}

/// Step `index` (`kind "label"`) under `base`, in `group`, failed with `failure`.
fn step(
    index: usize,
    kind: &str,
    label: &str,
    base: &str,
    group: Option<usize>,
    failure: Option<FailureRecord>,
) -> StepResult {
    let path = format!("{base}.{kind}.{label}");
    let mut s = common::step(
        index,
        kind,
        label,
        path,
        format!("{FILE}:{}:9", 10 + index),
        failure,
    );
    s.group = group;
    s
}

fn failure(code: FailureCode, message: &str, path: String, line: usize) -> FailureRecord {
    common::located(code, message, path, format!("{FILE}:{line}:9"))
}

fn scenario(
    id: &str,
    status: ScenarioStatus,
    failure: Option<FailureRecord>,
    groups: Vec<StepGroup>,
    steps: Vec<StepResult>,
) -> ScenarioResult {
    let mut s = common::scenario(Path::new(ROOT), "shop", id, status, failure, steps);
    s.groups = groups;
    s
}

fn fixture() -> RunResult {
    // Passed: before_each › use "sign-in" › use "submit", its own step, after_each.
    let p = "suite.shop.scenario.cart";
    let cart = scenario(
        "cart",
        ScenarioStatus::Passed,
        None,
        vec![
            hook(Hook::BeforeEach, "cart"),
            used("sign-in", "sign-in", &format!("{p}.before_each"), Some(0)),
            used(
                "press",
                "submit",
                &format!("{p}.before_each.use.sign-in"),
                Some(1),
            ),
            hook(Hook::AfterEach, "cart"),
        ],
        vec![
            step(
                0,
                "navigate",
                "open",
                &format!("{p}.before_each"),
                Some(0),
                None,
            ),
            step(
                1,
                "fill",
                "user",
                &format!("{p}.before_each.use.sign-in"),
                Some(1),
                None,
            ),
            step(
                2,
                "click",
                "go",
                &format!("{p}.before_each.use.sign-in.use.submit"),
                Some(2),
                None,
            ),
            step(3, "click", "add", p, None, None),
            step(
                4,
                "click",
                "sign-out",
                &format!("{p}.after_each"),
                Some(3),
                None,
            ),
        ],
    );

    // Failed inside a group; after_each then failed too (reported apart).
    let p = "suite.shop.scenario.pay";
    let own = failure(
        FailureCode::TargetNotFound,
        "no element matches role(\"button\", \"Sign in\")",
        format!("{p}.use.sign-in.click.go"),
        11,
    );
    let after = failure(
        FailureCode::TargetNotFound,
        "no element matches role(\"button\", \"Sign out\")",
        format!("{p}.after_each.click.sign-out"),
        12,
    );
    let mut pay = scenario(
        "pay",
        ScenarioStatus::Failed,
        Some(own.clone()),
        vec![
            used("sign-in", "sign-in", p, None),
            hook(Hook::AfterEach, "pay"),
        ],
        vec![
            step(
                0,
                "click",
                "go",
                &format!("{p}.use.sign-in"),
                Some(0),
                Some(own),
            ),
            step(
                1,
                "click",
                "sign-out",
                &format!("{p}.after_each"),
                Some(1),
                Some(after.clone()),
            ),
        ],
    );
    pay.hook_failure = Some(after);

    // Two soft expects failed; the scenario went on and failed at its end.
    let p = "suite.shop.scenario.page";
    let soft = |label: &str, line, msg: &str| {
        failure(
            FailureCode::TextMismatch,
            msg,
            format!("{p}.expect.{label}"),
            line,
        )
    };
    let (first, second) = (
        soft("title", 10, "text = \"Welcome\" did not hold within 50 ms"),
        soft("footer", 11, "text = \"Contact\" did not hold within 50 ms"),
    );
    let mut verdict = first.clone();
    verdict.message = format!(
        "2 soft expects failed: 1) {p}.expect.title: {}; 2) {p}.expect.footer: {}",
        first.message, second.message
    );
    let mut steps = vec![
        step(0, "expect", "title", p, None, Some(first.clone())),
        step(1, "expect", "footer", p, None, Some(second.clone())),
        step(2, "click", "next", p, None, None),
    ];
    steps[0].soft = true;
    steps[1].soft = true;
    let mut page = scenario("page", ScenarioStatus::Failed, Some(verdict), vec![], steps);
    page.soft_failures = vec![first, second];

    // Own steps passed; after_each failed: the verdict is the hook's.
    let p = "suite.shop.scenario.tidy";
    let after = failure(
        FailureCode::TextMismatch,
        "text = \"Signed out\" did not hold within 50 ms",
        format!("{p}.after_each.expect.out"),
        12,
    );
    let mut verdict = after.clone();
    verdict.message = format!("after_each failed: {}", after.message);
    let mut tidy = scenario(
        "tidy",
        ScenarioStatus::Failed,
        Some(verdict),
        vec![hook(Hook::AfterEach, "tidy")],
        vec![
            step(0, "click", "add", p, None, None),
            step(
                1,
                "expect",
                "out",
                &format!("{p}.after_each"),
                Some(0),
                Some(after.clone()),
            ),
        ],
    );
    tidy.hook_failure = Some(after);

    common::run(
        PathBuf::from(ROOT),
        2345,
        vec![cart, pay, page, tidy],
        |_| {},
    )
}

fn events(result: &RunResult) -> Vec<RunEvent> {
    let at = |ms, kind| RunEvent {
        timestamp: OffsetDateTime::UNIX_EPOCH,
        elapsed: Duration::from_millis(ms),
        kind,
    };
    let total = result.scenarios.len();
    let mut events: Vec<RunEvent> = result
        .scenarios
        .iter()
        .enumerate()
        .map(|(i, s)| {
            at(
                400,
                RunEventKind::ScenarioFinished {
                    result: Arc::new(s.clone()),
                    running: 0,
                    finished: i + 1,
                    total,
                },
            )
        })
        .collect();
    events.push(at(
        2345,
        RunEventKind::RunFinished {
            result: Arc::new(result.clone()),
        },
    ));
    events
}

fn render(reporter: &mut dyn Reporter, result: &RunResult) {
    for event in events(result) {
        reporter.report(&event).unwrap();
    }
}

#[test]
fn terminal_lists_groups_soft_failures_and_the_after_each_apart() {
    let options = TerminalOptions {
        colour: false,
        progress: false,
        base_dir: Some(PathBuf::from("/work")),
    };
    let mut reporter = TerminalReporter::new(Vec::new(), options);
    render(&mut reporter, &fixture());
    insta::assert_snapshot!(String::from_utf8(reporter.into_inner()).unwrap());
}

#[test]
fn json_keeps_groups_soft_failures_and_the_hook_failure() {
    let mut out = Vec::new();
    render(&mut JsonReporter::new(&mut out), &fixture());
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["counts"]["failed"], 3);
    insta::assert_json_snapshot!(value);
}

#[test]
fn junit_writes_the_step_tree_and_each_failure_apart() {
    let mut out = Vec::new();
    render(&mut JunitReporter::new(&mut out), &fixture());
    insta::assert_snapshot!(String::from_utf8(out).unwrap());
}

#[test]
fn github_annotates_every_failed_step_with_its_groups() {
    let mut reporter = GithubReporter::new(Vec::new());
    render(&mut reporter, &fixture());
    insta::assert_snapshot!(String::from_utf8(reporter.into_inner()).unwrap());
}

#[test]
fn html_nests_groups_in_the_step_table() {
    let page = html::render(&fixture(), Path::new("/work/report"));
    let start = page.find("<main").expect("a main element");
    let end = page.rfind("</main>").expect("its end");
    insta::assert_snapshot!(page[start..end].replace("><", ">\n<"));
}
