#!/usr/bin/env bash
# The cost of `--html`: the dogfood suites plus bench/html/failing.acl (4 failing scenarios, each
# leaving a screenshot, console messages and page errors) run once with `--json --html`, then the
# report of that result is written again N times by the same code (`write_report`) and timed.
#
#   bench/html-report.sh                 # release build, 21 timed writes
#   PROFILE=debug N=11 bench/html-report.sh
#
# Prints the run's wall time, the median write time and its share of the run (budget <= 5 %).
set -euo pipefail
cd "$(dirname "$0")/.."

PROFILE=${PROFILE:-release}
N=${N:-21}
PORT=${PORT:-4173}   # the dogfood suites name 127.0.0.1:4173 in two URL checks
JOBS=${JOBS:-$(nproc)}
BIN=target/$PROFILE/a3s-test
if [ "$PROFILE" = release ]; then
    cargo build --release -q -p a3s-test -p a3s-test-runner --example html_report_cost
else
    cargo build -q -p a3s-test -p a3s-test-runner --example html_report_cost
fi

out=$(mktemp -d)
# The server leads its own session (its own process group); the trap stops that group by id.
setsid "$BIN" serve tests/fixtures/web --port "$PORT" >"$out/serve.log" 2>&1 &
server=$!
trap 'kill -- -"$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 1 100); do grep -q serving "$out/serve.log" && break; sleep 0.05; done
grep -q serving "$out/serve.log" || { echo "the static server did not start" >&2; exit 2; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
timeout --kill-after=10 600 "$BIN" run suites/ bench/html/ --jobs "$JOBS" --project bench/project.acl \
    --base-url "http://127.0.0.1:$PORT" --output-dir "$out/a3s" --json --html "$out/report" \
    >"$out/result.json" 2>"$out/run.log" || status=$?
[ "$status" = 1 ] || { echo "expected exit 1 (4 failing scenarios), got $status"; tail -30 "$out/run.log"; exit 1; }
"target/$PROFILE/examples/html_report_cost" "$out/result.json" "$out/timed" "$N"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
