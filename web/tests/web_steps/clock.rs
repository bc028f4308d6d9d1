//! The page clock against real Chromium (`docs/acl.md` §2.4 and §5, "The clock"): installed by
//! the context options before the first document, then moved by the clock steps — intervals,
//! `requestAnimationFrame` and a timeout fire only as the clock moves, `Date` follows it, and the
//! driver's own waits keep working while the page's clock is stopped.

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::SurfaceContext;
use a3s_test_lang::ir::{ClockInstall, ClockTime, ContextSettings};

fn at(text: &str, unix_ms: i64) -> ClockTime {
    ClockTime {
        unix_ms,
        text: text.into(),
    }
}

#[test]
fn timers_frames_and_date_follow_the_clock() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        let settings = ContextSettings {
            clock: Some(ClockInstall {
                install_at: at("2020-01-01T00:00:00Z", 1_577_836_800_000),
            }),
            ..ContextSettings::default()
        };
        page.ctx
            .apply_context(&settings, &page.env.vars, page.env.deadline)
            .await
            .expect("the clock installs");
        page.ok(&goto("clock.html")).await;
        page.ok(&expect_text("year: 2020")).await;
        page.ok(r#"clock_pause_at { time = "2020-01-01T00:00:10Z" }"#)
            .await;
        // Stopped, the page's timers do not run, but a click (with its actionability waits on
        // the real timers) still does.
        page.ok(r#"click { target = role("button", "Start") }"#)
            .await;
        page.ok(&expect_text("ticks: 0")).await;
        page.ok(&expect_text("frames: few")).await;
        page.ok("clock_fast_forward { ms = 3000 }").await;
        page.ok(&expect_text("ticks: 3")).await;
        page.ok(&expect_text("frames: many")).await;
        page.ok(&expect_text("timeout: waiting")).await;
        page.ok("clock_fast_forward { ms = 2000 }").await;
        page.ok(&expect_text("timeout: fired")).await;
        page.ok(&expect_text("ticks: 5")).await;
        // Paused at 00:00:15: Date reads the clock.
        page.ok(r#"click { target = role("button", "Read") }"#)
            .await;
        page.ok(&expect_text("read: 2020-01-01T00:00:15.000Z"))
            .await;
        page.ok(r#"clock_set_fixed_time { time = "2024-02-29T12:00:00Z" }"#)
            .await;
        page.ok(r#"click { target = role("button", "Read") }"#)
            .await;
        page.ok(&expect_text("read: 2024-02-29T12:00:00.000Z / 2024"))
            .await;
        // A reload keeps the clock where it is: fixed, and the year of the clock.
        page.ok(&goto("clock.html")).await;
        page.ok(&expect_text("year: 2024")).await;
        page.ok("clock_resume {}").await;
        page.close().await;
    });
}

#[test]
fn a_clock_step_without_a_clock_installs_one_at_the_real_time() {
    block_on(LIMIT, async {
        let mut page = Page::at("clock.html").await;
        page.ok(r#"clock_pause_at { time = "2031-05-05T05:05:05Z" }"#)
            .await;
        page.ok(r#"click { target = role("button", "Read") }"#)
            .await;
        page.ok(&expect_text("read: 2031-05-05T05:05:05.000Z"))
            .await;
        page.close().await;
    });
}
