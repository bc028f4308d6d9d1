//! Language-server benchmark (not a timed test): re-diagnose after a one-character edit in the
//! admission benchmark's file (1,200 scenarios × 8 steps, ~0.9 MB, ~47k lines), the path a
//! keystroke takes once the debounce fires — the incremental change applied to the stored text,
//! then `textDocument/publishDiagnostics` built (admission + conversion to protocol values).
//! Completion and semantic tokens on the same file are measured beside it, and the resident
//! memory of 100 open documents of ~1,000 lines each (read from `/proc/self/status`).
//!
//! `cargo bench -p a3s-test-lsp --bench rediagnose` (release profile). Plain `std::time`, as the
//! `lang` benchmark: a warm-up, then `ITERATIONS` runs on one thread; median and 95th percentile.
//! The budget (docs/benchmarks.md) is a p50 of 50 ms. `LSP_BENCH_ITERATIONS` overrides the count.

#[path = "../../lang/benches/support/suite_gen.rs"]
mod suite_gen;

use a3s_test_lsp::core::features::{completion, tokens};
use a3s_test_lsp::core::store::{Change, Store};
use a3s_test_lsp::core::text::Pos;
use a3s_test_lsp::protocol::publish_diagnostics;
use std::hint::black_box;
use std::time::{Duration, Instant};

const ITERATIONS: usize = 41;
const URI: &str = "file:///bench/suites/bench.acl";

fn main() {
    let iterations = std::env::var("LSP_BENCH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ITERATIONS);
    // First, while the heap is fresh, so freed memory is not reused and the growth is real.
    memory_of_open_documents();
    let source = suite_gen::suite("bench-1", suite_gen::BENCH_SCENARIOS);
    let lines = source.lines().count();
    println!(
        "input: 1 file, {} scenarios x 8 steps, {} bytes, {lines} lines; {iterations} iterations",
        suite_gen::BENCH_SCENARIOS,
        source.len()
    );
    let mut store = Store::default();
    store.open(URI, source.clone(), 1);
    // The edit: one character typed into a label in the middle of the file, then removed, so
    // every iteration diagnoses a file of the same size.
    let middle = (lines / 2) as u32;
    let mut version = 1;
    let rediagnose = measure(iterations, || {
        version += 1;
        let typed = version % 2 == 0;
        let change = Change {
            range: Some(if typed {
                (Pos::new(middle, 4), Pos::new(middle, 4))
            } else {
                (Pos::new(middle, 4), Pos::new(middle, 5))
            }),
            text: if typed {
                "x".to_string()
            } else {
                String::new()
            },
        };
        store
            .change(URI, version, &[change])
            .expect("the document is open");
        black_box(publish_diagnostics(&store, URI));
    });
    report("re-diagnose after a 1-character edit", &rediagnose);
    let text = &store.get(URI).expect("open").text;
    let at = text.len() / 2;
    report(
        "completion in the middle",
        &measure(iterations, || {
            black_box(completion::complete(text, at));
        }),
    );
    report(
        "semantic tokens, whole file",
        &measure(iterations, || {
            black_box(tokens::tokens(text));
        }),
    );
}

/// Resident memory of this process in KiB (`VmRSS`), 0 where `/proc` does not say.
fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// 100 documents of ~1,000 lines opened and diagnosed, as a server does on `didOpen`.
fn memory_of_open_documents() {
    let text = suite_gen::suite("mem", 25);
    let lines = text.lines().count();
    let before = resident_kib();
    let mut store = Store::default();
    for i in 0..100 {
        let uri = format!("file:///bench/suites/{i}.acl");
        store.open(&uri, text.clone(), 1);
        black_box(publish_diagnostics(&store, &uri));
    }
    let after = resident_kib();
    println!(
        "100 open documents of {lines} lines ({} bytes each): resident memory +{:.1} MiB",
        text.len(),
        after.saturating_sub(before) as f64 / 1024.0
    );
    drop(store);
}

fn measure(iterations: usize, mut run: impl FnMut()) -> Vec<Duration> {
    run();
    let mut times: Vec<Duration> = (0..iterations)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .collect();
    times.sort();
    times
}

fn report(what: &str, times: &[Duration]) {
    let p = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{what:<40} p50 {:>8.2} ms   p95 {:>8.2} ms   min {:>8.2} ms",
        p(0.5).as_secs_f64() * 1e3,
        p(0.95).as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3
    );
}
