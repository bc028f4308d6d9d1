#!/usr/bin/env bash
# The one command that runs every check and test of the project (CI calls exactly this).
# Run ./scripts/setup.sh once first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
logs=target/test-logs
mkdir -p "$logs"

# Run a stage with a time bound, its output shown as it comes and kept in the log file $1.
# The output goes to the file and `tail --pid` streams it, rather than a pipe into `tee`: a
# process a failed test leaves behind that still holds the output could keep a pipe open, and
# this script (and CI) would wait for it forever. `timeout` ends the stage's whole process group.
logged() {
    local log=$1 limit=$2
    shift 2
    : >"$log"
    timeout --kill-after=30 "$limit" "$@" >"$log" 2>&1 &
    local stage=$!
    tail -n +1 -f --pid="$stage" "$log" &
    local streamer=$!
    local rc=0
    wait "$stage" || rc=$?
    wait "$streamer" || true
    [ "$rc" != 124 ] || echo "test.sh: the stage ran longer than ${limit} s and was stopped" >&2
    return "$rc"
}

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings

if command -v tree-sitter >/dev/null; then
    echo "== tree-sitter grammar (CLI): generated parser up to date, corpus, suites"
    ./scripts/tree-sitter.sh
fi

echo "== cargo test"
logged "$logs/cargo-test.log" 2400 cargo test --workspace --quiet
rust_summary=$(grep -E '^test result:' "$logs/cargo-test.log" | awk '{p+=$4; f+=$6} END {print p+0, f+0}')

js_passed=0
if [ -f testkit/package.json ]; then
    echo "== testkit: typecheck, unit tests, browser tests, entry size budgets"
    # `size` reads the dist/ that test:browser has just built.
    logged "$logs/testkit-test.log" 900 bash -c 'cd testkit && export NO_COLOR=1 && npm run --silent typecheck && npm test --silent && npm run --silent test:browser && npm run --silent size'
    js_passed=$(grep -Eo 'Tests +[0-9]+ passed' "$logs/testkit-test.log" | awk '{s+=$2} END {print s+0}')
fi

if [ -f examples/react-vite/package.json ]; then
    echo "== examples/react-vite: typecheck and unit tests (the example's focused verification check)"
    logged "$logs/example-test.log" 300 bash -c 'cd examples/react-vite && export NO_COLOR=1 && npx tsc --noEmit && npm test --silent'
    js_passed=$((js_passed + $(grep -Eo 'Tests +[0-9]+ passed' "$logs/example-test.log" | awk '{s+=$2} END {print s+0}')))
fi

if [ -f editors/vscode/package.json ]; then
    echo "== editors/vscode: the extension's client typechecks (strict) and packages into a .vsix"
    logged "$logs/vscode-test.log" 300 bash -c 'cd editors/vscode && npm run --silent typecheck && npm run --silent package </dev/null'
fi

read -r rust_passed rust_failed <<<"$rust_summary"
echo "tests: $((rust_passed + js_passed)) passed, $rust_failed failed"
