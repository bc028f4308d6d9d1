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
    tmpdir="$(mktemp -d)"
    dir="$tmpdir"
fi
target/release/examples/gen_bench_suites "$dir" >/dev/null
bytes=$(cat "$dir"/*.acl | wc -c)
lines=$(cat "$dir"/*.acl | wc -l)
echo "folder: $(ls "$dir"/*.acl | wc -l) files, $bytes bytes, $lines lines"

median() {
    sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# Wall time is what a user waits; CPU time (user + sys) is reported beside it because it is far
# less disturbed by other processes on a shared 2-core machine.
TIMEFORMAT='%R %U %S'
err=$(mktemp)
trap 'rm -f "$err"; [[ -n "${tmpdir:-}" ]] && rm -rf "$tmpdir"' EXIT
for threads in 1 2; do
    walls=()
    cpus=()
    for _ in $(seq "$RUNS"); do
        if ! t=$( { time RAYON_NUM_THREADS=$threads "$bin" check "$dir" >/dev/null 2>"$err"; } 2>&1 ); then
            cat "$err" >&2
            echo "check failed" >&2
            exit 1
        fi
        read -r real user sys <<<"$t"
        walls+=("$real")
        cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")
    done
    wall=$(printf '%s\n' "${walls[@]}" | median)
    cpu=$(printf '%s\n' "${cpus[@]}" | median)
    awk -v w="$wall" -v c="$cpu" -v t="$threads" -v b="$bytes" -v l="$lines" -v n="$RUNS" 'BEGIN {
        printf "RAYON_NUM_THREADS=%d: median wall %.0f ms (%.1f MB/s, %.0f lines/s), median CPU %.0f ms, %d runs\n", t, w * 1e3, b / w / 1e6, l / w, c * 1e3, n
    }'
done
