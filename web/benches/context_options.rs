//! Context-options benchmark (not a timed test): what applying a scenario's context options
//! (`docs/acl.md` §2.4) costs it, on real Chromium.
//!
//! `cargo bench -p a3s-test-web --bench context_options` (release profile; `--profile dev` for a
//! quick look). Each round opens a context (prepared ahead, as the runner asks), applies every
//! option at once — locale, time zone, dark colour scheme, reduced motion, geolocation with its
//! permission, two headers, a device (metrics, touch, user agent) and the clock — navigates to a
//! page of `tests/pages/`, checks its text and closes. Reported: the mean and median time
//! `apply_context` took, and the same navigation without options for comparison.
//! `CONTEXT_BENCH_ROUNDS` overrides the round count. The budget (docs/benchmarks.md) is ≤ 20 ms
//! per scenario.

#[path = "../tests/common/mod.rs"]
mod common;

use a3s_test_driver::{ContextOptions, SurfaceContext, SurfaceDriver};
use a3s_test_lang::ir::{
    ClockInstall, ClockTime, ColorScheme, ContextSettings, Geolocation, HttpHeader, Permission,
    ReducedMotion, TextValue,
};
use common::*;
use std::time::{Duration, Instant};

const ROUNDS: u32 = 20;
const BUDGET: Duration = Duration::from_millis(20);

fn summary(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    (mean, samples[samples.len() / 2])
}

/// Every option a scenario may set, at once.
fn everything() -> ContextSettings {
    ContextSettings {
        locale: Some("de-DE".into()),
        timezone_id: Some("Asia/Tokyo".into()),
        color_scheme: Some(ColorScheme::Dark),
        reduced_motion: Some(ReducedMotion::Reduce),
        geolocation: Some(Geolocation {
            latitude: 52.52,
            longitude: 13.4,
            accuracy: 10.0,
        }),
        permissions: Some(vec![Permission::Geolocation]),
        extra_http_headers: Some(vec![
            HttpHeader {
                name: "X-Suite".into(),
                value: TextValue::literal("bench"),
            },
            HttpHeader {
                name: "X-Round".into(),
                value: TextValue::literal("1"),
            },
        ]),
        device: Some("Pixel 7".into()),
        clock: Some(ClockInstall {
            install_at: ClockTime {
                unix_ms: 1_577_836_800_000,
                text: "2020-01-01T00:00:00Z".into(),
            },
        }),
        ..ContextSettings::default()
    }
}

fn main() {
    let rounds = std::env::var("CONTEXT_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ROUNDS);
    block_on(Duration::from_secs(600), async move {
        let env = Env::new();
        let settings = everything();
        let mut warm = context().await;
        ok(&mut warm, &env, &goto("expect.html")).await;
        warm.close().await.unwrap();
        let (mut apply, mut with, mut without) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            for options in [true, false] {
                let ahead = ContextOptions {
                    ready_ahead: 1,
                    ..ContextOptions::default()
                };
                let mut ctx = driver().await.new_context(ahead).await.unwrap();
                let started = Instant::now();
                if options {
                    ctx.apply_context(
                        &settings,
                        &env.vars,
                        env.deadline
                            .max(tokio::time::Instant::now() + Duration::from_secs(10)),
                    )
                    .await
                    .unwrap();
                    apply.push(started.elapsed());
                }
                ok(&mut ctx, &env, &goto("expect.html")).await;
                ok(&mut ctx, &env, &expect_text("first visit")).await;
                if options {
                    with.push(started.elapsed());
                } else {
                    without.push(started.elapsed());
                }
                ctx.close().await.unwrap();
            }
            let _ = round;
        }
        let (apply_mean, apply_median) = summary(apply);
        let (with_mean, _) = summary(with);
        let (without_mean, _) = summary(without);
        println!("context options: {rounds} rounds on one browser");
        println!(
            "  apply_context  mean {apply_mean:?}, median {apply_median:?} (budget {BUDGET:?}: {})",
            if apply_mean <= BUDGET {
                "met"
            } else {
                "missed"
            }
        );
        println!("  options + navigate + expect  mean {with_mean:?}");
        println!("  navigate + expect alone      mean {without_mean:?}");
    });
}
