//! Reading conditions with a watch: the answer comes when the page changes, not when the watch
//! runs out; load waits and network idleness, which the driver waits for itself. Waiting for a
//! page condition until it holds is the runner's (runner/src/expect.rs, tests/run/web_first.rs).

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::{ConditionSample, FailureCode, StepDetail, SurfaceContext};
use a3s_test_lang::ir::{ExpectCondition, PageCondition};
use std::time::Duration;

#[test]
fn a_reading_that_watches_answers_when_the_page_changes() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        let url = "/pages/expect.html?appear=300&vanish=300";
        page.ok(&format!("navigate {{ url = {url:?} }}")).await;
        page.ok(r#"wait { load = "domcontentloaded" }"#).await;
        let appeared = ExpectCondition::Page(PageCondition::Text {
            text: "Appeared now".into(),
        });
        // The text is not there yet; the watch would last 20 s, but the page's change at 300 ms
        // ends it (the bound is for a watch that never ends, not a speed check).
        let started = std::time::Instant::now();
        let env = page.env.step_env();
        let first = page
            .ctx
            .check(&appeared, Some(Duration::from_secs(20)), &env)
            .await
            .unwrap();
        assert!(
            matches!(
                first,
                ConditionSample::Fails {
                    code: FailureCode::TextMismatch,
                    ..
                }
            ),
            "{first:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        // What the reading saw is said, page text included.
        let ConditionSample::Fails { seen, .. } = first else {
            unreachable!()
        };
        assert!(seen.contains("it reads"), "{seen}");
        // A URL changed by script (no mutation at all) is reported by the navigation signal.
        let pushed = ExpectCondition::Page(PageCondition::Url {
            url: format!("{}/pages/expect.html?pushed", base_url()),
        });
        page.ctx
            .evaluate_json(
                "setTimeout(() => history.pushState({}, '', '?pushed'), 200), 0",
                env.deadline,
            )
            .await
            .unwrap();
        let started = std::time::Instant::now();
        let reading = page
            .ctx
            .check(&pushed, Some(Duration::from_secs(20)), &env)
            .await
            .unwrap();
        assert!(
            matches!(reading, ConditionSample::Fails { .. }),
            "{reading:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        let reading = page.ctx.check(&pushed, None, &env).await.unwrap();
        assert!(matches!(reading, ConditionSample::Holds(_)), "{reading:?}");
        page.close().await;
    });
}

#[test]
fn load_waits_and_network_idle() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        page.ok(&goto("network.html")).await;
        page.ok(r#"wait { load = "domcontentloaded" }"#).await;
        let slow = r#"click { target = role("button", "Slow request") }"#;
        let idle = r#"wait { load = "networkidle" }"#;
        page.ok(slow).await;
        let out = page.ok(idle).await;
        let waited = detail!(out, StepDetail::Waited { waited_ms, .. } => waited_ms);
        assert!(
            waited >= 1200,
            "networkidle = the 800 ms request plus 500 ms quiet, got {waited}"
        );
        // A request that outlives the deadline keeps the network busy: the wait fails in time.
        // The bound checks that the 700 ms deadline cuts the wait short instead of hanging.
        let started = std::time::Instant::now();
        let mut short = Env::new();
        short.deadline = tokio::time::Instant::now() + Duration::from_millis(700);
        ok(&mut page.ctx, &short, slow).await;
        let m = fails(&mut page.ctx, &short, idle, FailureCode::Timeout).await;
        assert!(m.contains("load = \"networkidle\""), "{m}");
        assert!(started.elapsed() < Duration::from_secs(3));
        page.close().await;
    });
}
