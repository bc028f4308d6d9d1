#!/usr/bin/env bash
# What saving and loading IndexedDB in a storage state costs: a set-up scenario writes ROWS
# records (a title, a Date and a 64-byte Uint8Array each) and saves the state with
# `indexed_db = true` (and, for comparison, without); a dependant loads it and counts the rows.
#
#   bench/indexed-db-state.sh                  # 3 rounds of 2,000 rows, release build
#   ROWS=10000 ROUNDS=5 BUILD=0 bench/indexed-db-state.sh
#   BIN=target/debug/a3s-test BUILD=0 bench/indexed-db-state.sh
#
# Prints, per round and variant, the save step's time, the dependant's whole time (its context,
# the state load, the page and the check) and the state file's size; then the medians.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

ROUNDS=${ROUNDS:-3}
ROWS=${ROWS:-2000}
PORT=${PORT:-4177}
BROWSER=${BROWSER:-/usr/lib/chromium/chromium-headless-shell}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
BIN=$(realpath "${BIN:-$repo/target/release/a3s-test}")
if [ "${BUILD:-1}" = 1 ]; then cargo build --release -q -p a3s-test; fi

out=$(mktemp -d)
setsid python3 -m http.server "$PORT" --bind 127.0.0.1 --directory bench/indexed-db \
    >"$out/server.log" 2>&1 &
server=$!
trap 'kill -- -"$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$out"' EXIT
base="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do curl -sf "$base/page.html" >/dev/null && break; sleep 0.05; done
curl -sf "$base/page.html" >/dev/null || { echo "the page server did not start" >&2; exit 2; }

# One run of the suite with indexed_db = $1 (the dependant expects $2 rows); prints
# "save_ms reader_ms state_bytes".
measure() {
    local work
    work=$(mktemp -d "$out/run-XXXX")
    sed -e "s/@ROWS@/$ROWS/g" -e "s/@INDEXED_DB@/$1/" -e "s/@EXPECTED@/$2/" \
        bench/indexed-db/suite.acl.in >"$work/idb.acl"
    (cd "$work" && timeout --kill-after=10 "$RUN_TIMEOUT" "$BIN" run idb.acl --jobs 1 \
        --browser "$BROWSER" --base-url "$base" --trace off --json >result.json 2>log) \
        || { echo "a3s-test failed (indexed_db = $1)"; tail -30 "$work/log"; exit 1; }
    python3 - "$work/result.json" "$work/.a3s-test/state.json" <<'PY'
import json, os, sys
result = json.load(open(sys.argv[1]))
by_id = {s["scenario"]: s for s in result["scenarios"]}
save = by_id["setup"]["steps"][2]["duration_ms"]
print(save, by_id["reader"]["duration_ms"], os.path.getsize(sys.argv[2]))
PY
}
with=(); without=()
for round in $(seq 1 "$ROUNDS"); do
    w=$(measure true "$ROWS")
    p=$(measure false 0)
    echo "round $round: indexed_db = true: $w | false: $p   (save ms, dependant ms, state bytes)"
    with+=("$w"); without+=("$p")
done
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for col in 1 2 3; do
    mw=$(printf '%s\n' "${with[@]}" | awk -v c="$col" '{ print $c }' | median)
    mp=$(printf '%s\n' "${without[@]}" | awk -v c="$col" '{ print $c }' | median)
    case $col in 1) name="save step ms";; 2) name="dependant ms";; 3) name="state bytes";; esac
    echo "median $name: indexed_db = true $mw, false $mp"
done
