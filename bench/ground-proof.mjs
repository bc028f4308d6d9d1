// Visual grounding's browser work, before and after issue 31's cheaper proof, measured side by
// side in one Chromium so the machine's load weighs on both alike.
//
// Before: each grounding turn captured the viewport with the default PNG encoder while reading
// the private elements and the viewport, and the check turn did the same again before its hit
// test. After: the capture turn uses Chromium's fast PNG encoder (`optimizeForSpeed`); the check
// turn is one fast capture (no page reads: its digest is of the unmasked frame) run together
// with the hit test. Region (the proof since 2026-12-06 20:00): the scroll read, then one fast
// capture clipped to the answer's boxes, with the hit test. The page is bench/ground.py's (a
// canvas "Checkout" in a button), 1280x720.
//
// Usage: node --experimental-websocket bench/ground-proof.mjs [rounds]   (Node 22+: no flag)
//   The browser is $A3S_TEST_BROWSER, else /usr/lib/chromium/chromium-headless-shell (the
//   tool's default). Prints p50/p95 in ms of each variant, and whether the fast encoder gave the
//   same bytes for the same pixels (the proof relies on it).
import os from "node:os";
import path from "node:path";
import { BROWSER, launch } from "./cdp.mjs";

const ROUNDS = Number(process.argv[2] || 25);
const PAGE = `<!doctype html><html><head><style>
body { margin: 0; font-family: sans-serif; background: #fff; }
button { display: block; margin: 24px; padding: 4px; border: 2px solid #333; background: #fff; }
</style></head><body><h1>Shop</h1><button><canvas width="240" height="60"></canvas></button>
<p>Totals, delivery and returns are shown at the next step.</p><script>
const g = document.querySelector("canvas").getContext("2d");
g.fillStyle = "#fff"; g.fillRect(0, 0, 240, 60);
g.fillStyle = "#000"; g.font = "bold 36px sans-serif"; g.fillText("Checkout", 16, 44);
</script></body></html>`;

const browser = await launch(PAGE, ["--disable-frame-rate-limit"]);
try {
  const { page } = browser;

  const evaluate = (expression) => page("Runtime.evaluate", { expression, returnByValue: true });
  const privateRead = () => evaluate("Array.from(document.querySelectorAll('input,textarea,[data-private]')).map(e => e.getBoundingClientRect().x)");
  const viewport = () => evaluate("({ width: innerWidth, height: innerHeight })");
  const hitTest = () => evaluate("[document.elementFromPoint(100, 100)?.tagName]");
  const shot = (fast) => page("Page.captureScreenshot", fast ? { format: "png", optimizeForSpeed: true } : { format: "png" });
  const variants = {
    "capture turn, before": () => Promise.all([shot(false), privateRead(), viewport()]),
    "capture turn, after": () => Promise.all([shot(true), privateRead(), viewport()]),
    "check turn, before": async () => { await Promise.all([shot(false), privateRead(), viewport()]); await hitTest(); },
    "check turn, after": () => Promise.all([shot(true), hitTest()]),
    // Since 2026-12-06 20:00: the page's scroll and pixel ratio, then a fast capture clipped to
    // the answer's boxes (here the canvas word, 180x40 px), beside the hit test.
    "check turn, region": () => Promise.all([
      evaluate("[scrollX, scrollY, devicePixelRatio]").then(({ result: { result: { value: [x, y] } } }) =>
        page("Page.captureScreenshot", { format: "png", optimizeForSpeed: true, clip: { x: 40 + x, y: 100 + y, width: 180, height: 40, scale: 1 } })),
      hitTest(),
    ]),
  };
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, run] of Object.entries(variants)) {
      const t = performance.now();
      await run();
      times[name].push(performance.now() - t);
    }
  }
  const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))]; };
  console.log(`${ROUNDS} rounds, ${path.basename(BROWSER)}, load average ${os.loadavg()[0].toFixed(2)}`);
  console.log("variant".padEnd(24) + "p50 ms".padStart(10) + "p95 ms".padStart(10));
  for (const [name, xs] of Object.entries(times)) {
    console.log(name.padEnd(24) + pct(xs, 0.5).toFixed(1).padStart(10) + pct(xs, 0.95).toFixed(1).padStart(10));
  }
  const [a, b] = [await shot(true), await shot(true)];
  console.log("fast encoder, same pixels -> same bytes:", a.result.data === b.result.data,
    `(${a.result.data.length * 3 / 4 | 0} bytes; default encoder ${(await shot(false)).result.data.length * 3 / 4 | 0})`);
} finally {
  browser.stop();
}
