#!/bin/sh
# The cost of step traces (docs/benchmarks.md, "Step traces"): alternating rounds of `run suites/`
# with --trace off, on and retain-on-failure over one shared static server, and the bytes a
# traced step leaves on disk. Each binary and mode keeps its last-green folder across rounds
# (as a project's `.a3s-test/last-green` does): round 1 runs with none (a cold store), later
# rounds with the previous round's record. With BASE set, that binary runs the same modes in
# the same rounds (before/after figures on the same load).
#
#   bench/trace.sh                    # 3 rounds with the debug build, 2 jobs
#   BIN=target/release/a3s-test ROUNDS=5 bench/trace.sh
#   BASE=/tmp/a3s-test-before BIN=target/release/a3s-test ROUNDS=4 bench/trace.sh
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-target/debug/a3s-test}
BASE=${BASE:-}
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
if [ -n "$BASE" ]; then bins="base new"; else bins="new"; fi
for round in $(seq 1 "$ROUNDS"); do
    for which in $bins; do
        if [ "$which" = base ]; then bin=$BASE; else bin=$BIN; fi
        for mode in off on retain-on-failure; do
            rm -rf "$out/$which-$mode"
            t0=$(date +%s.%N)
            # CPU seconds (user + sys) of the run and its reaped children (Chromium included):
            # steadier than wall time on a machine other work loads.
            /usr/bin/time -f '%U %S' -o "$out/cpu" "$bin" run suites/ --jobs "$JOBS" --project bench/project.acl \
                --base-url "http://127.0.0.1:$PORT" --output-dir "$out/$which-$mode" \
                --last-green-dir "$out/green-$which-$mode" --trace "$mode" \
                --json >"$out/$mode.json" 2>"$out/$mode.log" \
                || { echo "$which run --trace $mode failed (round $round)"; tail -20 "$out/$mode.log"; exit 1; }
            t1=$(date +%s.%N)
            printf 'round %d  %-4s --trace %-18s %6.2fs  cpu %6.2fs  load %s\n' "$round" "$which" \
                "$mode" "$(awk "BEGIN {print $t1 - $t0}")" "$(awk '{print $1 + $2}' "$out/cpu")" \
                "$(cut -d' ' -f1 /proc/loadavg)"
        done
    done
done
steps=$(find "$out/new-on" -name trace.json -exec cat {} + | grep -o '"index":' | wc -l)
jpeg=$(find "$out/new-on" -name '*.jpeg' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
json=$(find "$out/new-on" -name trace.json -printf '%s\n' | awk '{s += $1} END {print s + 0}')
reused=$(find "$out/new-on" -name trace.json -exec cat {} + | grep -o '"outline_from_last_green":true' | wc -l)
echo "--trace on (last round): $steps traced steps, $jpeg bytes of JPEG, $json bytes of trace.json"
echo "per step: $(( (jpeg + json) / steps )) bytes ($(( jpeg / steps )) JPEG + $(( json / steps )) JSON)"
echo "outlines reused from the last green run: $reused of $steps"
