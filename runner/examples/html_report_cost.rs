//! How long writing the HTML report takes for a real run result, against that run's wall time.
//!
//! `cargo run --release -p a3s-test-runner --example html_report_cost -- result.json out-dir [N]`
//! renders `result.json` (the `--json` output of a run whose artifacts are still on disk) into
//! `out-dir/index.html` once to warm up and then `N` times (default 21) — the same
//! `write_report` that `--html` calls: evidence read, screenshots inlined, HTML rendered, file
//! written, fsynced and renamed — and prints the median and fastest time, the report's size and
//! the median as a share of the run's `duration_ms`. Used by `bench/html-report.sh`.

use a3s_test_runner::merge;
use a3s_test_runner::reporter::html::write_report;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(result), Some(out)) = (args.next(), args.next()) else {
        eprintln!("usage: html_report_cost <result.json> <out-dir> [iterations]");
        std::process::exit(2);
    };
    let iterations: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(21);
    let input = merge::read(&PathBuf::from(&result)).unwrap_or_else(|e| {
        eprintln!("error[{}]: {e}", e.code());
        std::process::exit(2);
    });
    let result = input.result;
    let out = PathBuf::from(out);
    let path = write_report(&out, &result).expect("write the report");
    let mut times: Vec<Duration> = (0..iterations)
        .map(|_| {
            let start = Instant::now();
            write_report(&out, &result).expect("write the report");
            start.elapsed()
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2];
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let images = std::fs::read_to_string(&path)
        .map(|t| t.matches("data:image/png;base64,").count())
        .unwrap_or(0);
    let run_ms = result.duration_ms as f64;
    println!(
        "scenarios: {}, failed: {}, inline screenshots: {images}, report: {:.1} KiB",
        result.counts.total,
        result.counts.total - result.counts.passed,
        size as f64 / 1024.0
    );
    for s in result.scenarios.iter().filter(|s| s.failure.is_some()) {
        let code = s
            .failure
            .as_ref()
            .map(|f| f.code.as_str())
            .unwrap_or_default();
        println!("  not passed: {} ({}, {code})", s.id, s.status.as_str());
    }
    println!(
        "write_report: median {:.2} ms, fastest {:.2} ms ({iterations} runs); run wall time {:.0} ms; share {:.2} % (budget <= 5 %)",
        median.as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0,
        run_ms,
        median.as_secs_f64() * 1000.0 / run_ms * 100.0
    );
}
