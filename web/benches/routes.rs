//! Route benchmark (not a timed test): what a routed request costs the page, on real Chromium.
//!
//! `cargo bench -p a3s-test-web --bench routes` (release profile; `--profile dev` for a quick
//! look). One context on `tests/pages/routes.html`; the page itself times sequential
//! `fetch('/api/users', { cache: 'no-store' })` calls with `performance.now()` (body read
//! included) — unrouted (the loopback server answers), then fulfilled by a `network_route`
//! (`Fetch.requestPaused` → `Fetch.fulfillRequest`, the server never asked), then continued by a
//! `continue = true` route (paused, then sent on). Reported: p50 and p90 of each, per fetch.
//! `ROUTE_BENCH_FETCHES` overrides the count (default 200, after 20 unmeasured).
//! The Playwright side is `bench/playwright/routes/route-cost.spec.js` (docs/benchmarks.md).

#[path = "../tests/common/mod.rs"]
mod common;

use a3s_test_driver::SurfaceContext;
use common::*;
use std::time::Duration;

const FETCHES: u32 = 200;
const WARM_UP: u32 = 20;

/// The page's own timing of `n` sequential fetches: `[p50, p90]` in ms.
fn timing(n: u32) -> String {
    format!(
        "(async () => {{
            const t = [];
            for (let i = 0; i < {n}; i++) {{
                const s = performance.now();
                const r = await fetch('/api/users', {{ cache: 'no-store' }});
                await r.text();
                t.push(performance.now() - s);
            }}
            t.sort((a, b) => a - b);
            return [t[Math.floor(t.length / 2)], t[Math.floor(t.length * 0.9)]];
        }})()"
    )
}

fn main() {
    let fetches = std::env::var("ROUTE_BENCH_FETCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(FETCHES);
    block_on(Duration::from_secs(600), async move {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("routes.html")).await;
        let measure = async |ctx: &mut a3s_test_web::WebContext, label: &str| {
            let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
            ctx.evaluate_json(&timing(WARM_UP), deadline).await.unwrap();
            let v = ctx.evaluate_json(&timing(fetches), deadline).await.unwrap();
            println!(
                "{label:<28} p50 {:>6.3} ms   p90 {:>6.3} ms   ({fetches} fetches)",
                v[0].as_f64().unwrap(),
                v[1].as_f64().unwrap()
            );
        };
        measure(&mut ctx, "unrouted").await;
        let fulfil = r#"network_route {
            pattern = "**/api/users"
            body = "[\"routed\"]"
            content_type = "application/json"
        }"#;
        ok(&mut ctx, &env, fulfil).await;
        measure(&mut ctx, "fulfilled (network_route)").await;
        let cont = r#"network_route {
            pattern = "**/api/users"
            continue = true
        }"#;
        ok(&mut ctx, &env, cont).await;
        measure(&mut ctx, "continued (continue = true)").await;
        ctx.close().await.unwrap();
    });
}
