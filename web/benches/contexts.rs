//! Browser-context benchmark (not a timed test): what opening and closing one context costs, and
//! how long the failure evidence of a step takes to capture, on real Chromium.
//!
//! `cargo bench -p a3s-test-web --bench contexts` (release profile; `--profile dev` for a quick
//! look). Each round opens a context on one shared browser, navigates to a page of
//! `tests/pages/`, checks its text, captures failure evidence and closes the context. Reported:
//! the mean and median time the caller waited to open (prepared ahead) and to close (disposal runs
//! in the background), the mean cold creation of a context, and the evidence capture.
//! `CONTEXT_BENCH_ROUNDS` overrides the round count. The budget (docs/benchmarks.md) is ≤ 30 ms
//! to open and close a context.

#[path = "../tests/common/mod.rs"]
mod common;

use a3s_test_driver::{ContextOptions, SurfaceContext, SurfaceDriver};
use common::*;
use std::time::{Duration, Instant};

const ROUNDS: u32 = 20;
const BUDGET: Duration = Duration::from_millis(30);

/// Mean and median of a set of timings.
fn summary(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    (mean, samples[samples.len() / 2])
}

fn main() {
    let rounds = std::env::var("CONTEXT_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ROUNDS);
    block_on(Duration::from_secs(600), async move {
        let env = Env::new();
        // One warm-up context, so the browser's first renderer is not measured.
        let mut warm = context().await;
        ok(&mut warm, &env, &goto("expect.html")).await;
        warm.close().await.unwrap();
        let (mut open, mut cold, mut close, mut evidence) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            // As the runner does: announce the scenarios still waiting, so the next context is
            // prepared while this one runs.
            let ahead = ContextOptions {
                ready_ahead: (rounds - round - 1).min(1) as usize,
                ..ContextOptions::default()
            };
            let mut ctx = driver().await.new_context(ahead).await.unwrap();
            open.push(ctx.opened_in());
            cold.push(ctx.cold_open());
            ok(&mut ctx, &env, &goto("expect.html")).await;
            ok(&mut ctx, &env, &expect_text("first visit")).await;
            let started = Instant::now();
            let bound = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
            let captured = ctx
                .capture_failure_evidence(&env.artifact_dir(&format!("failure-{round}")), bound)
                .await;
            evidence.push(started.elapsed());
            assert_eq!(captured.files.len(), 4, "failure evidence holds four files");
            let started = Instant::now();
            ctx.close().await.unwrap();
            close.push(started.elapsed());
        }
        let (open_mean, open_median) = summary(open);
        let (close_mean, close_median) = summary(close);
        let (cold_mean, _) = summary(cold);
        let (evidence_mean, evidence_median) = summary(evidence);
        let total = open_mean + close_mean;
        println!("contexts: {rounds} rounds on one browser");
        println!("  open waited   mean {open_mean:?}, median {open_median:?}");
        println!("  close waited  mean {close_mean:?}, median {close_median:?}");
        println!(
            "  open + close  mean {total:?} (budget {BUDGET:?}: {})",
            if total <= BUDGET { "met" } else { "missed" }
        );
        println!("  cold creation mean {cold_mean:?} (in the background when prepared ahead)");
        println!("  failure evidence mean {evidence_mean:?}, median {evidence_median:?}");
    });
}
