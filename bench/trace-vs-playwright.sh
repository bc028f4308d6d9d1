#!/bin/sh
# Step traces side by side (docs/benchmarks.md, "Step traces"): the same scenarios
# (suites/*.acl and bench/playwright/tests/fixtures.spec.js, one Playwright test per ACL scenario)
# run by `a3s-test run --trace off|on` and by Playwright Test with `trace: 'off'|'on'`, alternating
# in each round, with the same worker count, Chromium binary and one shared static server. Prints
# each run's wall time and, for the traced runs, the bytes the traces left on disk.
#
#   BIN=target/release/a3s-test ROUNDS=3 bench/trace-vs-playwright.sh
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/a3s-test}
ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-2}
PORT=${PORT:-4173}
BROWSER=${BROWSER:-/usr/lib/chromium/chromium-headless-shell}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
[ -d bench/playwright/node_modules/@playwright/test ] \
    || (cd bench/playwright && npm ci --no-audit --no-fund --loglevel=error)
out=$(mktemp -d)
setsid "$BIN" serve tests/fixtures/web --port "$PORT" >"$out/serve.log" 2>&1 &
server=$!
trap 'kill -- -"$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 1 100); do grep -q serving "$out/serve.log" && break; sleep 0.05; done
grep -q serving "$out/serve.log" || { echo "the static server did not start" >&2; exit 2; }

for round in $(seq 1 "$ROUNDS"); do
    for mode in off on; do
        rm -rf "$out/a3s-$mode"
        t0=$(date +%s.%N)
        timeout --kill-after=10 "$RUN_TIMEOUT" "$BIN" run suites/ --jobs "$JOBS" \
            --project bench/project.acl --browser "$BROWSER" --base-url "http://127.0.0.1:$PORT" \
            --output-dir "$out/a3s-$mode" --last-green-dir "$out/green" --trace "$mode" \
            >"$out/a3s.log" 2>&1 \
            || { echo "a3s-test --trace $mode failed (round $round)"; tail -20 "$out/a3s.log"; exit 1; }
        t1=$(date +%s.%N)
        rm -rf "$out/pw-$mode"
        (cd bench/playwright && BENCH_TRACE=$mode BENCH_JOBS=$JOBS \
            BENCH_BASE_URL="http://127.0.0.1:$PORT" BENCH_BROWSER="$BROWSER" \
            timeout --kill-after=10 "$RUN_TIMEOUT" npx --no-install playwright test \
            --output "$out/pw-$mode" >"$out/pw.log" 2>&1) \
            || { echo "playwright trace=$mode failed (round $round)"; tail -20 "$out/pw.log"; exit 1; }
        t2=$(date +%s.%N)
        printf 'round %d  trace %-3s  a3s-test %6.2fs   playwright %6.2fs   load %s\n' "$round" "$mode" \
            "$(awk "BEGIN {print $t1 - $t0}")" "$(awk "BEGIN {print $t2 - $t1}")" \
            "$(cut -d' ' -f1 /proc/loadavg)"
    done
done
steps=$(find "$out/a3s-on" -name trace.json -exec cat {} + | grep -o '"index":' | wc -l)
a3s=$(find "$out/a3s-on" \( -name trace.json -o -path '*/trace/step-*' \) -type f -printf '%s\n' \
    | awk '{s += $1} END {print s + 0}')
zips=$(find "$out/pw-on" -name trace.zip | wc -l)
pw=$(find "$out/pw-on" -name trace.zip -printf '%s\n' | awk '{s += $1} END {print s + 0}')
echo "a3s-test --trace on: $a3s bytes for $steps steps: $(( a3s / steps )) bytes per step"
echo "playwright trace on: $pw bytes in $zips trace.zip files: $(( pw / steps )) bytes per (a3s-test) step"
