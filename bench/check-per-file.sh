#!/usr/bin/env bash
# `check` end to end against in-process admission: the release binary on one generated 1 MB
# suite file and on the 8-file folder (all cores), beside the in-process `admit` median of
# `cargo bench -p a3s-test-lang --bench admit`. Prints medians of RUNS runs (default 11) and the
# two ratios docs/benchmarks.md tracks: binary per file / in-process per file (target <= 2), and
# folder wall / (in-process per file x files / cores) (target <= 1.5).
#
# Usage: bench/check-per-file.sh   (the machine's load is printed: it is shared)
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${RUNS:-11}"
cores=$(nproc)

cargo build --release -q -p a3s-test --bin a3s-test
cargo build --release -q -p a3s-test-lang --example gen_bench_suites
bin=target/release/a3s-test
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
target/release/examples/gen_bench_suites "$dir" >/dev/null
files=$(ls "$dir"/*.acl | wc -l)

median() {
    sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

TIMEFORMAT='%R %U %S'
time_median() {
    local walls=() cpus=()
    for _ in $(seq "$RUNS"); do
        t=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
        read -r real user sys <<<"$t"
        walls+=("$real")
        cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")
    done
    echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${cpus[@]}" | median)"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $cores cores"
inproc_ms=$(ADMIT_BENCH_ITERATIONS="${ADMIT_BENCH_ITERATIONS:-31}" cargo bench -q -p a3s-test-lang --bench admit 2>/dev/null \
    | awk '/admit \(full\)/ { for (i = 1; i < NF; i++) if ($i == "median") { print $(i + 1); exit } }')
read -r one_wall one_cpu <<<"$(time_median "$bin" check "$dir/bench-1.acl")"
read -r all_wall all_cpu <<<"$(time_median "$bin" check "$dir")"
awk -v ip="$inproc_ms" -v ow="$one_wall" -v oc="$one_cpu" -v aw="$all_wall" -v ac="$all_cpu" \
    -v n="$files" -v c="$cores" -v r="$RUNS" 'BEGIN {
    printf "in-process admit (one file, median):   %6.1f ms\n", ip
    printf "binary, one file (median wall / CPU):  %6.1f ms / %.1f ms  -> %.2fx in-process\n", ow * 1e3, oc * 1e3, ow * 1e3 / ip
    ideal = ip * n / c
    printf "binary, %d files (median wall / CPU):   %6.1f ms / %.1f ms  -> %.2fx of %d files on %d cores in-process (%.1f ms)\n", n, aw * 1e3, ac * 1e3, aw * 1e3 / ideal, n, c, ideal
    printf "%d runs each\n", r
}'
