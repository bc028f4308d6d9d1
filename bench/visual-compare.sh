#!/usr/bin/env bash
# A visual expectation on a 1280×720 page (tests/fixtures/web/visual.html: a red box, a clock
# that changes every frame and is masked, a spinner stopped by `animations = "disabled"`), side
# by side with Playwright Test's `toHaveScreenshot` on the same page
# (bench/playwright/visual/visual.spec.js).
#
#   bench/visual-compare.sh                 # 11 rounds, release build
#   ROUNDS=5 BIN=target/debug/a3s-test BUILD=0 bench/visual-compare.sh
#
# Prints: the comparison alone (decode both PNGs, compare, encode the diff — the runner's
# `runner/examples/visual_compare_cost.rs`) on an equal pair and on the red/blue pair; then per
# tool the median duration of the whole expectation step on a page that matches its baseline
# (captures until two in a row are equal, then the comparison), each baseline written first by
# an update run. Both use Debian's Chromium headless shell and one loopback static server.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-11}
PORT=${PORT:-4177}
BROWSER=${BROWSER:-/usr/lib/chromium/chromium-headless-shell}
BIN=${BIN:-target/release/a3s-test}
PROFILE=${PROFILE:-release}
if [ "${BUILD:-1}" = 1 ]; then cargo build --release -q -p a3s-test; fi
cargo build --profile "$PROFILE" -q -p a3s-test-runner --example visual_compare_cost
COST=target/$PROFILE/examples/visual_compare_cost
if [ "$PROFILE" = dev ]; then COST=target/debug/examples/visual_compare_cost; fi
if [ ! -d bench/playwright/node_modules/@playwright/test ]; then
    (cd bench/playwright && npm ci --no-audit --no-fund --loglevel=error)
fi

out=$(mktemp -d)
# The server leads its own process group; the trap stops that group by id, never by name.
setsid "$BIN" serve tests/fixtures/web --port "$PORT" >"$out/serve.log" 2>&1 &
server=$!
trap 'kill -- -"$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 1 100); do grep -q serving "$out/serve.log" && break; sleep 0.05; done
grep -q serving "$out/serve.log" || { echo "the static server did not start" >&2; exit 2; }
base="http://127.0.0.1:$PORT"

suite() { sed "s/box=BOX/box=$1/" tests/fixtures/suites/visual.acl >"$out/work/visual.acl"; }
a3s() {
    (cd "$out/work" && env -u CI timeout --kill-after=10 120 "$OLDPWD/$BIN" run visual.acl --json \
        --browser "$BROWSER" --base-url "$base" --output-dir "$out/runs" "$@")
}
mkdir -p "$out/work"
suite red
a3s --update-snapshots >/dev/null
# The red/blue pair, from a run that fails on purpose.
suite blue
a3s >"$out/blue.json" || true
suite red
shot() { python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['scenarios'][0]['failure']['evidence']; print(next(x['path'] for x in e if x['kind']==sys.argv[2]))" "$1" "$2"; }
expected=$(shot "$out/blue.json" snapshot_expected)
actual=$(shot "$out/blue.json" snapshot_actual)
echo "comparison alone ($PROFILE):"
echo -n "  equal pair:    "; "$COST" "$expected" "$expected" 51
echo -n "  red/blue pair: "; "$COST" "$expected" "$actual" 51

step_ms() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['scenarios'][0]['steps'][1]['duration_ms'])" "$1"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for round in $(seq 1 "$ROUNDS"); do
    a3s >"$out/a3s-$round.json" || { echo "a3s-test failed (round $round)"; exit 1; }
    step_ms "$out/a3s-$round.json"
done | median | xargs -I{} echo "a3s-test expect { screenshot } step, median of $ROUNDS: {} ms"

export BENCH_BASE_URL="$base" BENCH_BROWSER="$BROWSER" BENCH_SNAPSHOTS="$out/pw-snapshots"
(cd bench/playwright && npx playwright test -c visual.config.js --update-snapshots >/dev/null)
pw_ms() {
    python3 -c "
import json,re,sys
r=json.load(sys.stdin)['suites'][0]['specs'][0]['tests'][0]['results'][0]
out=''.join(x.get('text','') for x in r['stdout'])
print(re.search(r'toHaveScreenshot_ms=([0-9.]+)', out).group(1))"
}
for round in $(seq 1 "$ROUNDS"); do
    (cd bench/playwright && npx playwright test -c visual.config.js 2>/dev/null) | pw_ms
done | median | xargs -I{} echo "Playwright toHaveScreenshot step, median of $ROUNDS: {} ms"
