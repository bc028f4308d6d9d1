use super::*;
use crate::result::{AttemptResult, FailureRecord, RunResult, ScenarioResult, ScenarioStatus};
use a3s_test_driver::FailureCode;
use proptest::prelude::*;
use url::Url;

fn failure(code: FailureCode, url: Option<&str>) -> FailureRecord {
    let mut f = FailureRecord::new(code, "expected text \"Paid\", found \"Pay\"");
    f.target = Some(a3s_test_lang::ir::Target::Role {
        role: "button".into(),
        name: Some(a3s_test_lang::ir::TextMatch::contains("Pay")),
    });
    f.location = Some("suites/shop.acl:7:5".into());
    f.page_url = url.map(str::to_string);
    f
}

fn scenario(id: &str, status: ScenarioStatus, f: Option<FailureRecord>) -> ScenarioResult {
    let mut s = ScenarioResult::bare(id, status);
    s.failure = f;
    s
}

fn run(scenarios: Vec<ScenarioResult>) -> RunResult {
    RunResult {
        format_version: crate::result::RESULT_FORMAT_VERSION,
        run_id: "20260101T120000Z-3fa9c2".into(),
        started_at: "2026-01-01T12:00:00Z".into(),
        duration_ms: 1,
        outcome: crate::result::RunOutcome::Failed,
        exit_code: crate::exit::Exit::Failed,
        artifact_root: "/tmp/x".into(),
        skipped: 0,
        counts: Default::default(),
        scenarios,
        cleanup_failures: vec![],
        fail_on_flaky: false,
        shard: None,
        merge: None,
    }
}

fn page(u: &str) -> Url {
    Url::parse(u).unwrap()
}

#[test]
fn failed_and_flaky_scenarios_on_the_page_are_candidates_and_nothing_else() {
    let shop = "http://127.0.0.1:4000/shop?step=2#pay";
    let mut flaky = scenario("shop/retry", ScenarioStatus::Flaky, None);
    flaky.earlier_attempts.push(AttemptResult {
        attempt: 1,
        status: ScenarioStatus::Failed,
        failure: Some(failure(FailureCode::TextMismatch, Some(shop))),
        steps: vec![],
        duration_ms: 1,
        artifact_dir: None,
        trace: None,
    });
    let result = run(vec![
        scenario(
            "shop/pay",
            ScenarioStatus::Failed,
            Some(failure(FailureCode::TextMismatch, Some(shop))),
        ),
        scenario("shop/ok", ScenarioStatus::Passed, None),
        flaky,
        // Another page, no page at all, and a failure that is not the product's.
        scenario(
            "shop/other",
            ScenarioStatus::Failed,
            Some(failure(
                FailureCode::TextMismatch,
                Some("http://127.0.0.1:4000/cart"),
            )),
        ),
        scenario(
            "shop/nourl",
            ScenarioStatus::Failed,
            Some(failure(FailureCode::TextMismatch, None)),
        ),
        scenario(
            "shop/crash",
            ScenarioStatus::Failed,
            Some(failure(FailureCode::BrowserCrashed, Some(shop))),
        ),
    ]);
    let feed = candidates_for(Some(&result), &page("http://127.0.0.1:4000/shop"));
    assert_eq!(feed.protocol, CANDIDATES_PROTOCOL);
    assert_eq!(feed.page, "http://127.0.0.1:4000/shop");
    assert_eq!(feed.run_id.as_deref(), Some("20260101T120000Z-3fa9c2"));
    let got: Vec<_> = feed
        .candidates
        .iter()
        .map(|c| (c.id.as_str(), c.status))
        .collect();
    assert_eq!(
        got,
        vec![
            ("shop/pay", CandidateStatus::Failed),
            ("shop/retry", CandidateStatus::Flaky)
        ]
    );
    assert_eq!(
        feed.candidates[0].target.as_deref(),
        Some("role(\"button\", \"Pay\")")
    );
    assert_eq!(feed.omitted, 0);
    insta::assert_json_snapshot!(feed);
}

#[test]
fn no_run_is_an_empty_feed_and_counts_are_bounded() {
    let empty = candidates_for(None, &page("http://127.0.0.1:4000/"));
    assert!(empty.candidates.is_empty() && empty.run_id.is_none());
    let url = "http://127.0.0.1:4000/";
    let many = (0..MAX_CANDIDATES + 7)
        .map(|i| {
            scenario(
                &format!("s/n{i}"),
                ScenarioStatus::Failed,
                Some(failure(FailureCode::TextMismatch, Some(url))),
            )
        })
        .collect();
    let feed = candidates_for(Some(&run(many)), &page(url));
    assert_eq!((feed.candidates.len(), feed.omitted), (MAX_CANDIDATES, 7));
}

#[test]
fn the_result_file_is_read_back_for_the_run_last_run_names() {
    let dir = tempfile::tempdir().unwrap();
    let output = a3s_test_fsroot::ConfinedPath::new(dir.path(), ".a3s-test");
    assert!(read_latest(&output).unwrap().is_none());
    let result = run(vec![scenario(
        "shop/pay",
        ScenarioStatus::Failed,
        Some(failure(FailureCode::TextMismatch, Some("http://h/"))),
    )]);
    write_result(&output, &result).unwrap();
    // No last-run record yet: no latest run.
    assert!(read_latest(&output).unwrap().is_none());
    crate::last_run::LastRun::of(&result)
        .write(&output)
        .unwrap();
    assert_eq!(read_latest(&output).unwrap(), Some(result.clone()));
    // A record naming a run with a path in its id is refused, not followed.
    let mut bad = crate::last_run::LastRun::of(&result);
    bad.run_id = "../x".into();
    bad.write(&output).unwrap();
    assert!(matches!(
        read_latest(&output),
        Err(CandidatesError::Invalid { .. })
    ));
}

proptest! {
    #[test]
    fn every_feed_is_bounded_and_reads_back(
        message in "\\PC{0,3000}",
        name in "\\PC{0,700}",
        path in "[a-z/]{0,20}",
        n in 0usize..60,
    ) {
        let url = format!("http://127.0.0.1:4000/{path}");
        let scenarios = (0..n).map(|i| {
            let mut f = failure(FailureCode::TextMismatch, Some(&url));
            f.message = message.clone();
            let mut s = scenario(&format!("s/n{i}"), ScenarioStatus::Failed, Some(f));
            s.name = name.clone();
            s
        }).collect();
        let feed = candidates_for(Some(&run(scenarios)), &page(&url));
        prop_assert!(feed.candidates.len() <= MAX_CANDIDATES);
        prop_assert_eq!(feed.candidates.len() + feed.omitted, n);
        for c in &feed.candidates {
            prop_assert!(c.message.chars().count() <= MAX_CANDIDATE_TEXT);
            prop_assert!(c.name.chars().count() <= 500);
        }
        let back: RunCandidates = serde_json::from_slice(&serde_json::to_vec(&feed).unwrap()).unwrap();
        prop_assert_eq!(back, feed);
    }
}

mod schema;
