#!/usr/bin/env bash
# Wall time of the same scenarios (suites/*.acl and bench/playwright/tests/fixtures.spec.js, one
# Playwright test per ACL scenario) run by `a3s-test run` and by Playwright Test, with the same
# worker count, the same Debian Chromium binary and one shared loopback static server.
#
#   bench/run-vs-playwright.sh            # 3 rounds, jobs = number of cores, release build
#   ROUNDS=5 JOBS=2 PORT=4175 bench/run-vs-playwright.sh
#   BUILD=0 bench/run-vs-playwright.sh     # use the existing target/release/a3s-test
#
# Prints each round, the median of each runner, the ratio (budget: a3s-test <= 0.5x Playwright)
# and the mean browser-context open+close time per scenario (budget: <= 30 ms).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-$(nproc)}
PORT=${PORT:-4173}
PROFILE=${PROFILE:-release}   # or debug
BROWSER=${BROWSER:-/usr/lib/chromium/chromium-headless-shell}

BIN=target/$PROFILE/a3s-test
if [ "${BUILD:-1}" = 1 ]; then
    if [ "$PROFILE" = release ]; then cargo build --release -q -p a3s-test; else cargo build -q -p a3s-test; fi
fi
if [ ! -d bench/playwright/node_modules/@playwright/test ]; then
    (cd bench/playwright && npm ci --no-audit --no-fund --loglevel=error)
fi

out=$(mktemp -d)
# The server leads its own session (and so its own process group), which is what the trap stops:
# by that group id, never by name. Each runner gets a deadline (RUN_TIMEOUT seconds).
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
setsid "$BIN" serve tests/fixtures/web --port "$PORT" >"$out/serve.log" 2>&1 &
server=$!
trap 'kill -- -"$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 1 100); do grep -q serving "$out/serve.log" && break; sleep 0.05; done
grep -q serving "$out/serve.log" || { echo "the static server did not start" >&2; exit 2; }

now() { date +%s.%N; }
a3s_times=()
pw_times=()
for round in $(seq 1 "$ROUNDS"); do
    t0=$(now)
    timeout --kill-after=10 "$RUN_TIMEOUT" "$BIN" run suites/ --jobs "$JOBS" --project bench/project.acl --browser "$BROWSER" \
        --base-url "http://127.0.0.1:$PORT" \
        --output-dir "$out/a3s" --json >"$out/a3s-$round.json" 2>"$out/a3s-$round.log" \
        || { echo "a3s-test run failed (round $round)"; tail -30 "$out/a3s-$round.log"; exit 1; }
    t1=$(now)
    (cd bench/playwright && BENCH_JOBS=$JOBS BENCH_BASE_URL="http://127.0.0.1:$PORT" BENCH_BROWSER="$BROWSER" \
        timeout --kill-after=10 "$RUN_TIMEOUT" npx --no-install playwright test --output "$out/pw-results" >"$out/pw-$round.log" 2>&1) \
        || { echo "playwright test failed (round $round)"; tail -30 "$out/pw-$round.log"; exit 1; }
    t2=$(now)
    a=$(awk "BEGIN {print $t1 - $t0}")
    p=$(awk "BEGIN {print $t2 - $t1}")
    a3s_times+=("$a")
    pw_times+=("$p")
    printf 'round %d: a3s-test %.2fs   playwright %.2fs\n' "$round" "$a" "$p"
done

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
a_med=$(median "${a3s_times[@]}")
p_med=$(median "${pw_times[@]}")
scenarios=$(node -e 'const r=require(process.argv[1]); console.log(r.scenarios.length)' "$out/a3s-1.json")
context=$(node -e '
  const runs = process.argv.slice(1).map((f) => require(f));
  const all = runs.flatMap((r) => r.scenarios.filter((s) => s.context_open_us != null));
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length / 1000;
  console.log(`${mean(all.map((s) => s.context_open_us)).toFixed(1)} ${mean(all.map((s) => s.context_close_us)).toFixed(1)} ${mean(all.map((s) => s.context_open_us + s.context_close_us)).toFixed(1)}`);
' "$out"/a3s-*.json)
read -r open_ms close_ms both_ms <<<"$context"
pw_tests=$(grep -Eo '[0-9]+ passed' "$out/pw-1.log" | head -1)
ratio=$(awk "BEGIN {print $a_med / $p_med}")
echo
echo "scenarios: $scenarios (a3s-test), playwright: $pw_tests; jobs: $JOBS; rounds: $ROUNDS; browser: $BROWSER"
printf 'median wall time: a3s-test %.2fs, playwright %.2fs, ratio %.2f (budget <= 0.50)\n' "$a_med" "$p_med" "$ratio"
printf 'context open %.1f ms + close %.1f ms = %.1f ms per scenario (budget <= 30 ms)\n' "$open_ms" "$close_ms" "$both_ms"
