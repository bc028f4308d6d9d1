#!/usr/bin/env bash
# The one command that runs every check and test of the project (CI calls exactly this).
# Run ./scripts/setup.sh once first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
logs=target/test-logs
mkdir -p "$logs"

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== cargo test"
cargo test --workspace --quiet 2>&1 | tee "$logs/cargo-test.log"
rust_summary=$(grep -E '^test result:' "$logs/cargo-test.log" | awk '{p+=$4; f+=$6} END {print p+0, f+0}')

js_passed=0
if [ -f testkit/package.json ]; then
    echo "== testkit: typecheck, unit tests, browser tests, entry size budgets"
    # `size` reads the dist/ that test:browser has just built.
    (cd testkit && export NO_COLOR=1 && npm run --silent typecheck && npm test --silent && npm run --silent test:browser && npm run --silent size) 2>&1 | tee "$logs/testkit-test.log"
    js_passed=$(grep -Eo 'Tests +[0-9]+ passed' "$logs/testkit-test.log" | awk '{s+=$2} END {print s+0}')
fi

if [ -f examples/react-vite/package.json ]; then
    echo "== examples/react-vite: typecheck and unit tests (the example's focused verification check)"
    (cd examples/react-vite && export NO_COLOR=1 && npx tsc --noEmit && npm test --silent) 2>&1 | tee "$logs/example-test.log"
    js_passed=$((js_passed + $(grep -Eo 'Tests +[0-9]+ passed' "$logs/example-test.log" | awk '{s+=$2} END {print s+0}')))
fi

read -r rust_passed rust_failed <<<"$rust_summary"
echo "tests: $((rust_passed + js_passed)) passed, $rust_failed failed"
