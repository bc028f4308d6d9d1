//! `wait` conditions poll until they hold, and a wait that cannot hold ends at the scenario
//! deadline with a timeout naming what it waited for.

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::{FailureCode, StepDetail};
use std::time::Duration;

#[test]
fn waits_poll_until_true_or_the_deadline() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        let url = "/pages/expect.html?appear=300&vanish=300";
        page.ok(&format!("navigate {{ url = {url:?} }}")).await;
        for statement in [
            r#"wait { load = "domcontentloaded" }"#,
            r#"wait { text = "Appeared now" }"#,
            r##"wait { visible = css("#appeared") }"##,
            r##"wait { hidden = css("#status") }"##,
            &format!("wait {{ url = \"{}{url}\" }}", base_url()),
        ] {
            page.ok(statement).await;
        }
        page.ok(&goto("network.html")).await;
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
        fails(&mut page.ctx, &short, idle, FailureCode::Timeout).await;
        assert!(started.elapsed() < Duration::from_secs(3));
        page.env.deadline = tokio::time::Instant::now() + Duration::from_millis(600);
        let started = std::time::Instant::now();
        let m = page
            .fails(r#"wait { text = "never there" }"#, FailureCode::Timeout)
            .await;
        assert!(
            m.contains("while waiting for text = \"never there\""),
            "the message names what was awaited: {m}"
        );
        // A deadline bound: the wait ends at the 600 ms deadline, not at some later bound.
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the wait ends at the 600 ms deadline, not at some later bound"
        );
        page.close().await;
    });
}
