#!/usr/bin/env bash
# Twenty scenarios behind a cookie login (bench/sign-in/app.py), three ways, same Chromium, same
# worker count, one loopback app:
#   1. a3s-test, signing in once: `auth-setup` saves the storage state, 20 scenarios depend on it
#      and start from it (bench/sign-in/once.acl);
#   2. a3s-test, signing in through the UI in each of the 20 (bench/sign-in/each.acl);
#   3. Playwright Test with a setup project and `storageState` (bench/playwright/sign-in.config.js).
#
#   bench/sign-in-once.sh                 # 3 rounds, jobs = number of cores, release build
#   ROUNDS=5 JOBS=2 PORT=4176 bench/sign-in-once.sh
#   BUILD=0 bench/sign-in-once.sh         # use the existing target/release/a3s-test
#
# Prints each round, the medians, and how many logins each way made (from the app's counter).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-$(nproc)}
PORT=${PORT:-4176}
BROWSER=${BROWSER:-/usr/lib/chromium/chromium-headless-shell}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
BIN=$repo/target/release/a3s-test
if [ "${BUILD:-1}" = 1 ]; then cargo build --release -q -p a3s-test; fi
if [ ! -d bench/playwright/node_modules/@playwright/test ]; then
    (cd bench/playwright && npm ci --no-audit --no-fund --loglevel=error)
fi

out=$(mktemp -d)
# The app leads its own session (so its own process group), which the trap stops by that id.
setsid python3 bench/sign-in/app.py "$PORT" >"$out/app.log" 2>&1 &
app=$!
trap 'kill -- -"$app" 2>/dev/null; wait "$app" 2>/dev/null; rm -rf "$out"' EXIT
base="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do curl -sf "$base/logins" >/dev/null && break; sleep 0.05; done
curl -sf "$base/logins" >/dev/null || { echo "the login app did not start" >&2; exit 2; }
logins() { curl -sf "$base/logins"; }

now() { date +%s.%N; }
# One a3s-test run of suite $1 in a fresh working folder (the state file goes there).
a3s() {
    local work
    work=$(mktemp -d "$out/a3s-XXXX")
    (cd "$work" && timeout --kill-after=10 "$RUN_TIMEOUT" "$BIN" run "$repo/bench/sign-in/$1" \
        --jobs "$JOBS" --browser "$BROWSER" --base-url "$base" --json >"$work/result.json" 2>"$work/log") \
        || { echo "a3s-test $1 failed"; tail -30 "$work/log"; exit 1; }
}
once_t=(); each_t=(); pw_t=()
for round in $(seq 1 "$ROUNDS"); do
    l0=$(logins); t0=$(now)
    a3s once.acl
    t1=$(now); l1=$(logins)
    a3s each.acl
    t2=$(now); l2=$(logins)
    (cd bench/playwright && BENCH_JOBS=$JOBS BENCH_BASE_URL="$base" BENCH_BROWSER="$BROWSER" \
        BENCH_STATE="$out/pw-auth.json" timeout --kill-after=10 "$RUN_TIMEOUT" \
        npx --no-install playwright test --config sign-in.config.js --output "$out/pw-results" \
        >"$out/pw-$round.log" 2>&1) \
        || { echo "playwright test failed (round $round)"; tail -30 "$out/pw-$round.log"; exit 1; }
    t3=$(now); l3=$(logins)
    once_t+=("$(awk "BEGIN {print $t1 - $t0}")")
    each_t+=("$(awk "BEGIN {print $t2 - $t1}")")
    pw_t+=("$(awk "BEGIN {print $t3 - $t2}")")
    printf 'round %d: a3s-test once %.2fs (%d login)   a3s-test each %.2fs (%d logins)   playwright setup project %.2fs (%d login)\n' \
        "$round" "${once_t[-1]}" $((l1 - l0)) "${each_t[-1]}" $((l2 - l1)) "${pw_t[-1]}" $((l3 - l2))
done

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
pw_tests=$(grep -Eo '[0-9]+ passed' "$out/pw-1.log" | head -1)
echo
echo "20 scenarios behind a login; jobs: $JOBS; rounds: $ROUNDS; browser: $BROWSER; playwright: $pw_tests (setup included)"
printf 'median wall time: a3s-test signing in once %.2fs, through the UI in each %.2fs, Playwright setup project %.2fs\n' \
    "$(median "${once_t[@]}")" "$(median "${each_t[@]}")" "$(median "${pw_t[@]}")"
