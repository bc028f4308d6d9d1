#!/bin/sh
# The cost of step traces (docs/benchmarks.md, "Step traces"): alternating rounds of `run suites/`
# with --trace off, on and retain-on-failure over one shared static server, and the bytes a
# traced step leaves on disk.
#
#   bench/trace.sh                    # 3 rounds with the debug build, 2 jobs
#   BIN=target/release/a3s-test ROUNDS=5 bench/trace.sh
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-target/debug/a3s-test}
ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-2}
# suites/home.acl expects the fixture pages on this port.
PORT=${PORT:-4173}
out=$(mktemp -d)
setsid "$BIN" serve tests/fixtures/web --port "$PORT" >"$out/serve.log" 2>&1 &
server=$!
trap 'kill -- -"$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 1 100); do grep -q serving "$out/serve.log" && break; sleep 0.05; done
grep -q serving "$out/serve.log" || { echo "the static server did not start" >&2; exit 2; }
for round in $(seq 1 "$ROUNDS"); do
    for mode in off on retain-on-failure; do
        rm -rf "$out/$mode"
        t0=$(date +%s.%N)
        "$BIN" run suites/ --jobs "$JOBS" --project bench/project.acl \
            --base-url "http://127.0.0.1:$PORT" --output-dir "$out/$mode" --trace "$mode" \
            --json >"$out/$mode.json" 2>"$out/$mode.log" \
            || { echo "run --trace $mode failed (round $round)"; tail -20 "$out/$mode.log"; exit 1; }
        t1=$(date +%s.%N)
        printf 'round %d  --trace %-18s %6.2fs  load %s\n' "$round" "$mode" \
            "$(awk "BEGIN {print $t1 - $t0}")" "$(cut -d' ' -f1 /proc/loadavg)"
    done
done
steps=$(find "$out/on" -name trace.json -exec cat {} + | grep -o '"index":' | wc -l)
jpeg=$(find "$out/on" -name '*.jpeg' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
json=$(find "$out/on" -name trace.json -printf '%s\n' | awk '{s += $1} END {print s + 0}')
echo "--trace on: $steps traced steps, $jpeg bytes of JPEG, $json bytes of trace.json"
echo "per step: $(( (jpeg + json) / steps )) bytes ($(( jpeg / steps )) JPEG + $(( json / steps )) JSON)"
