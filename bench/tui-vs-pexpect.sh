#!/usr/bin/env bash
# Twenty terminal scenarios on `bc -q` (bench/tui/calc.acl: two calculations each, every answer
# waited for), two ways on the same machine:
#   1. a3s-test run: a fresh bc on an owned pseudoterminal per scenario, admitted suite, full
#      evidence on failure (styled screen, SVG, asciicast, exit status);
#   2. the same steps with pexpect (bench/tui/pexpect_calc.py), a fresh `pexpect.spawn` per
#      scenario, threads for parallel jobs — as written by default, and tuned (TUNED=1: without
#      pexpect's built-in 50 ms pause before each send and 100 ms after close).
#
#   bench/tui-vs-pexpect.sh                 # 5 rounds, jobs 1 and jobs = cores, release build
#   ROUNDS=9 BUILD=0 bench/tui-vs-pexpect.sh
#
# Needs `bc` (Debian) and `pexpect` (PyPI: pip install pexpect). Prints each round and the medians.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
ROUNDS=${ROUNDS:-5}
CORES=$(nproc)
BIN=$repo/target/release/a3s-test
if [ "${BUILD:-1}" = 1 ]; then cargo build --release -q -p a3s-test; fi
python3 -c 'import pexpect' 2>/dev/null || { echo "pexpect is not installed: pip install pexpect" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/.a3s-test"
cp bench/tui/project.acl "$work/.a3s-test/project.acl"
cp bench/tui/calc.acl "$work/calc.acl"

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR+1)/2; if (NR%2) print a[m]; else print (a[NR/2]+a[NR/2+1])/2}'; }

declare -A times
for round in $(seq 1 "$ROUNDS"); do
    line="round $round:"
    for jobs in 1 "$CORES"; do
        t0=$(now)
        (cd "$work" && "$BIN" run calc.acl --jobs "$jobs" >"$work/run.log" 2>&1) \
            || { echo "a3s-test run failed"; tail -20 "$work/run.log"; exit 1; }
        t1=$(now)
        JOBS=$jobs python3 bench/tui/pexpect_calc.py >"$work/pexpect.log" 2>&1 \
            || { echo "pexpect failed"; cat "$work/pexpect.log"; exit 1; }
        t2=$(now)
        TUNED=1 JOBS=$jobs python3 bench/tui/pexpect_calc.py >"$work/pexpect.log" 2>&1 \
            || { echo "tuned pexpect failed"; cat "$work/pexpect.log"; exit 1; }
        t3=$(now)
        a=$(echo "$t1 - $t0" | bc -l); p=$(echo "$t2 - $t1" | bc -l); q=$(echo "$t3 - $t2" | bc -l)
        times[a3s-$jobs]+="$a "; times[pexpect-$jobs]+="$p "; times[tuned-$jobs]+="$q "
        line+=$(printf ' jobs %s: a3s-test %.2f s, pexpect %.2f s, tuned %.2f s;' "$jobs" "$a" "$p" "$q")
    done
    echo "$line"
done
for jobs in 1 "$CORES"; do
    a=$(echo "${times[a3s-$jobs]}" | tr ' ' '\n' | grep . | median)
    p=$(echo "${times[pexpect-$jobs]}" | tr ' ' '\n' | grep . | median)
    q=$(echo "${times[tuned-$jobs]}" | tr ' ' '\n' | grep . | median)
    printf 'median, jobs %s: a3s-test %.3f s, pexpect %.3f s, tuned pexpect %.3f s; ratio to tuned %.2f\n' \
        "$jobs" "$a" "$p" "$q" "$(echo "$a / $q" | bc -l)"
done
