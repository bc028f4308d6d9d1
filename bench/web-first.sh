#!/usr/bin/env bash
# Web-first expectations on a page whose content arrives late (tests/fixtures/web/late.html: seven
# conditions 0.6–3.0 s after load, a last text at 3.2 s), side by side with Playwright Test's
# web-first assertions on the same page (bench/playwright/tests/fixtures.spec.js, `late arrives`).
#
#   bench/web-first.sh               # 5 rounds, release build
#   ROUNDS=10 BUILD=0 bench/web-first.sh
#
# For a3s-test it prints, per round, the scenario's wall time and, per condition, how long after
# its arrival the `expect` that waits for it passed (each step's start is the sum of the earlier
# steps' durations, counted from the end of `navigate`). Budget: the scenario ends within 100 ms
# of the last arrival. For Playwright it prints the test's duration. Both use Debian's Chromium
# headless shell and one loopback static server (`a3s-test serve`). It also runs
# bench/web-first-seven.acl (one scenario per late condition, no `wait`) and prints how many pass
# (`BIN=path/to/an/older/a3s-test BUILD=0` compares an older build).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
PORT=${PORT:-4176}
BROWSER=${BROWSER:-/usr/lib/chromium/chromium-headless-shell}
BIN=${BIN:-target/release/a3s-test}
if [ "${BUILD:-1}" = 1 ]; then cargo build --release -q -p a3s-test; fi
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

for round in $(seq 1 "$ROUNDS"); do
    timeout --kill-after=10 120 "$BIN" run suites/late.acl --filter arrives --jobs 1 --browser "$BROWSER" \
        --project bench/project.acl --base-url "http://127.0.0.1:$PORT" --output-dir "$out/a3s" \
        --json >"$out/a3s-$round.json" 2>"$out/a3s-$round.log" \
        || { echo "a3s-test run failed (round $round)"; tail -20 "$out/a3s-$round.log"; exit 1; }
    (cd bench/playwright && BENCH_JOBS=1 BENCH_BASE_URL="http://127.0.0.1:$PORT" BENCH_BROWSER="$BROWSER" \
        timeout --kill-after=10 120 npx --no-install playwright test -g "late arrives" --reporter=json \
        >"$out/pw-$round.json" 2>"$out/pw-$round.log") \
        || { echo "playwright failed (round $round)"; tail -20 "$out/pw-$round.log"; exit 1; }
done
# One scenario per late condition, each an `expect` right after `navigate`: how many pass.
"$BIN" run bench/web-first-seven.acl --jobs 2 --browser "$BROWSER" --project bench/project.acl \
    --base-url "http://127.0.0.1:$PORT" --output-dir "$out/a3s" --json >"$out/seven.json" 2>/dev/null || true
node -e 'const r = require(process.argv[1]); console.log(`late conditions passed without a wait: ${r.counts.passed} of ${r.counts.total}`)' "$out/seven.json"

node - "$out" "$ROUNDS" <<'EOF'
const fs = require('fs');
const [dir, rounds] = [process.argv[2], Number(process.argv[3])];
// When each condition of late.html arrives, ms after load, in the suite's step order.
const arrivals = { text: 600, items: 900, 'submit-enabled': 1200, 'loading-gone': 1500, city: 1800,
  url: 2400, agreed: 3000, final: 3200 };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const late = {}; const walls = []; const tails = []; const passed = []; const pw = [];
for (let r = 1; r <= rounds; r += 1) {
  const result = JSON.parse(fs.readFileSync(`${dir}/a3s-${r}.json`));
  const s = result.scenarios[0];
  let at = 0;
  for (const step of s.steps.slice(1)) {
    at += step.duration_ms;
    (late[step.label] ||= []).push(at - arrivals[step.label]);
  }
  passed.push(s.steps.filter((st) => st.kind === 'expect' && st.status === 'passed').length);
  walls.push(s.duration_ms);
  tails.push(at - arrivals.final);
  const spec = JSON.parse(fs.readFileSync(`${dir}/pw-${r}.json`));
  const test = spec.suites.flatMap(function all(x) { return [...(x.specs || []), ...(x.suites || []).flatMap(all)]; })
    .find((t) => t.title === 'arrives');
  pw.push(test.tests[0].results[0].duration);
}
console.log(`a3s-test expects passed per round: ${passed.join(' ')} (of 8)`);
for (const [label, xs] of Object.entries(late)) {
  console.log(`  ${label.padEnd(15)} passed ${median(xs).toFixed(0).padStart(4)} ms after it arrived (median; ${xs.join(' ')})`);
}
console.log(`a3s-test scenario wall time: median ${median(walls)} ms (${walls.join(' ')}), ` +
  `last expect ${median(tails)} ms after the last arrival (budget <= 100 ms)`);
console.log(`playwright test duration:   median ${median(pw)} ms (${pw.join(' ')})`);
EOF
