#!/usr/bin/env bash
# End-to-end admission benchmark: time `a3s-test check` (release build) over a folder of 8
# generated suite files (1,200 scenarios x 8 steps each, ~0.96 MB per file) with 1 and 2 rayon
# threads. Reports the median of RUNS runs (default 7). Results are recorded in docs/benchmarks.md.
#
# Usage: bench/check-folder.sh [DIR]   (DIR defaults to a fresh temporary folder, removed after)
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${RUNS:-7}"

cargo build --release -q -p a3s-test --bin a3s-test
cargo build --release -q -p a3s-test-lang --example gen_bench_suites
bin=target/release/a3s-test

if [[ $# -ge 1 ]]; then
    dir="$1"
else
    dir="$(mktemp -d)"
    trap 'rm -rf "$dir"' EXIT
fi
target/release/examples/gen_bench_suites "$dir" >/dev/null
bytes=$(cat "$dir"/*.acl | wc -c)
lines=$(cat "$dir"/*.acl | wc -l)
echo "folder: $(ls "$dir"/*.acl | wc -l) files, $bytes bytes, $lines lines"

median_ms() {
    sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

for threads in 1 2; do
    times=()
    for _ in $(seq "$RUNS"); do
        start=$(date +%s%N)
        RAYON_NUM_THREADS=$threads "$bin" check "$dir" >/dev/null 2>/tmp/a3s-check-bench.$$ || {
            cat /tmp/a3s-check-bench.$$ >&2
            rm -f /tmp/a3s-check-bench.$$
            echo "check failed" >&2
            exit 1
        }
        end=$(date +%s%N)
        times+=("$(( (end - start) / 1000 ))")
    done
    rm -f /tmp/a3s-check-bench.$$
    med_us=$(printf '%s\n' "${times[@]}" | median_ms)
    awk -v us="$med_us" -v t="$threads" -v b="$bytes" -v l="$lines" -v n="$RUNS" 'BEGIN {
        s = us / 1e6
        printf "RAYON_NUM_THREADS=%d: median %.1f ms over %d runs, %.1f MB/s, %.0f lines/s\n", t, us / 1e3, n, b / s / 1e6, l / s
    }'
done
