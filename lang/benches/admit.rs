//! Admission benchmark (not a timed test): lex, parse and check measured separately, plus the
//! full `admit`, on one generated suite file of 1,200 scenarios × 8 steps (~0.96 MB, ~48k lines).
//!
//! `cargo bench -p a3s-test-lang --bench admit` (release profile). Plain `std::time`: each phase
//! runs a warm-up and then `ITERATIONS` times on one thread; the median is reported with MB/s and
//! lines/s, and the fastest run beside it. The budget (docs/benchmarks.md) is one such file
//! admitted in ≤ 20 ms on one core.
//! `ADMIT_BENCH_ITERATIONS` overrides the iteration count.

// This target reads the clock and the environment; the I/O bans in `lang/clippy.toml` are for the library only.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

#[path = "support/suite_gen.rs"]
mod suite_gen;

use a3s_test_lang::{admit, checker, lexer, parser};
use std::hint::black_box;
use std::time::{Duration, Instant};

const ITERATIONS: usize = 31;
const BUDGET: Duration = Duration::from_millis(20);

fn main() {
    let iterations = std::env::var("ADMIT_BENCH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ITERATIONS);
    let source = suite_gen::suite("bench-1", suite_gen::BENCH_SCENARIOS);
    let bytes = source.len();
    let lines = source.lines().count();
    let admission = admit(&source);
    assert!(
        admission.is_admitted(),
        "the generated suite must admit; first diagnostic: {:?}",
        admission.diagnostics.first()
    );
    let (document, _) = parser::parse(&source);
    println!(
        "input: 1 file, {} scenarios x 8 steps, {bytes} bytes, {lines} lines; {iterations} iterations, median",
        suite_gen::BENCH_SCENARIOS
    );

    let lex = measure(iterations, || {
        black_box(lexer::lex(black_box(&source)));
    });
    let parse = measure(iterations, || {
        black_box(parser::parse(black_box(&source)));
    });
    let check = measure(iterations, || {
        black_box(checker::check_document(black_box(&document)));
    });
    let full = measure(iterations, || {
        black_box(admit(black_box(&source)));
    });
    report("lex", lex, bytes, lines);
    report("parse (incl. lex)", parse, bytes, lines);
    let parse_only = Timing {
        median: parse.median.saturating_sub(lex.median),
        min: parse.min.saturating_sub(lex.min),
    };
    report("parse only (parse - lex)", parse_only, bytes, lines);
    report("check", check, bytes, lines);
    report("admit (full)", full, bytes, lines);
    let verdict = if full.median <= BUDGET {
        "within"
    } else {
        "OVER"
    };
    println!(
        "budget: median {:.2} ms per file (fastest {:.2} ms): {verdict} the {} ms budget",
        ms(full.median),
        ms(full.min),
        BUDGET.as_millis()
    );
}

/// Median and fastest run of one phase.
#[derive(Clone, Copy)]
struct Timing {
    median: Duration,
    min: Duration,
}

/// Run `f` once to warm up, then `iterations` times; return the median and the fastest run (the
/// fastest is the better estimate on a machine shared with other work).
fn measure(iterations: usize, mut f: impl FnMut()) -> Timing {
    f();
    let mut times: Vec<Duration> = (0..iterations.max(1))
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    Timing {
        median: times[times.len() / 2],
        min: times[0],
    }
}

fn report(phase: &str, t: Timing, bytes: usize, lines: usize) {
    let secs = t.median.as_secs_f64().max(1e-9);
    println!(
        "{phase:<26} median {:>7.2} ms {:>7.1} MB/s {:>10.0} lines/s   (fastest {:>6.2} ms)",
        ms(t.median),
        bytes as f64 / secs / 1e6,
        lines as f64 / secs,
        ms(t.min)
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
