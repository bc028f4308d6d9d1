//! How long the visual comparison of `expect { screenshot }` takes on two screenshots.
//!
//! `cargo run --release -p a3s-test-runner --example visual_compare_cost -- expected.png
//! actual.png [N]` does, `N` times (default 51) after one warm-up, what the runner does with a
//! stable capture: decode both PNGs, compare them at the default threshold, and (when they
//! differ) encode the diff image; it prints the median, the fastest and the slowest, with the
//! pixel counts. Used by `bench/visual-compare.sh` (`docs/benchmarks.md`).

use a3s_test_runner::snapshot::pixels::{compare, decode_png, encode_png};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(expected), Some(actual)) = (args.next(), args.next()) else {
        eprintln!("usage: visual_compare_cost <expected.png> <actual.png> [iterations]");
        std::process::exit(2);
    };
    let n: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(51);
    let expected = std::fs::read(expected).expect("read the expected image");
    let actual = std::fs::read(actual).expect("read the actual image");
    let once = || {
        let started = Instant::now();
        let a = decode_png(&expected).expect("a PNG");
        let b = decode_png(&actual).expect("a PNG");
        let found = compare(&a, &b, 0.2);
        if found.diff_pixels > 0 {
            std::hint::black_box(encode_png(&found.diff));
        }
        (started.elapsed(), found, a.width, a.height)
    };
    let (_, found, width, height) = once();
    let mut times: Vec<Duration> = (0..n).map(|_| once().0).collect();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{width}x{height}: {} differing, {} anti-aliased; median {:.1} ms, fastest {:.1} ms, \
         slowest {:.1} ms over {n}",
        found.diff_pixels,
        found.anti_aliased,
        ms(times[n / 2]),
        ms(times[0]),
        ms(times[n - 1]),
    );
}
