// What one traced step's image costs the browser (docs/benchmarks.md, "Step traces", "The
// floor: one image per acting step"). A step trace needs an image of the page after each step
// that acted on it; this measures, in one Chromium launched with the tool's flags, a click that
// changes the page followed by each way of getting that image:
//
//   click only                 the click and the frame it causes (no image): the baseline
//   screenshot 0.5 (the tool)  Page.captureScreenshot, JPEG q55, fast encoder, clipped and scaled to
//                              640 px wide: what `--trace on` takes after an acting step
//   screenshot 1.0 / 0.25      the same at full size and at a quarter: does the size matter?
//   source 320x180             a 320×180 region of the page at scale 1: a sixteenth of the
//                              pixels read — is the cost the pixels or the frame copy?
//   fromSurface false          the 640 px screenshot asked of the view instead of the surface
//   marked screencast frame    the screencast running, an Overlay.highlightRect mark drawn after
//                              the click, and the first frame that arrives after it (the frame
//                              barrier `web/src/trace.rs` does not build; here without decoding
//                              the mark, so a lower bound of its cost)
//
// For each: p50/p95 wall time per round and the CPU the browser's process group spent per round
// (utime + stime of every process whose group is the browser's, from /proc). Rounds are spaced
// by 20 ms so each click's frame is drawn before the next round.
//
// Usage: node --experimental-websocket bench/trace-image-cost.mjs [rounds]   (Node 22+: no flag)
//   The browser is $A3S_TEST_BROWSER, else /usr/lib/chromium/chromium-headless-shell.
import fs from "node:fs";
import { launch } from "./cdp.mjs";

const ROUNDS = Number(process.argv[2] || 30);
const ROWS = Array.from({ length: 40 }, (_, i) => `<li>Row ${i} of a list long enough to fill the viewport</li>`).join("");
const PAGE = `<!doctype html><html><body style="font-family: sans-serif"><h1>Counter</h1>
<p id="count">0</p><button onclick="count.textContent = +count.textContent + 1">Add</button>
<ul>${ROWS}</ul></body></html>`;

const browser = await launch(PAGE);

/** CPU milliseconds the browser's process group has spent so far. */
function browserCpuMs() {
  const tick = 10; // USER_HZ is 100 on Linux
  let ticks = 0;
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try { stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8"); } catch { continue; }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === browser.pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * tick;
}

try {
  const { page, call, onEvent } = browser;
  let onFrame = null;
  onEvent((j) => {
    if (j.method !== "Page.screencastFrame") return;
    call("Page.screencastFrameAck", { sessionId: j.params.sessionId }, j.sessionId);
    const waiting = onFrame; onFrame = null; waiting?.();
  });
  await page("DOM.enable");
  await page("Overlay.enable");

  const click = async () => {
    for (const type of ["mousePressed", "mouseReleased"]) {
      await page("Input.dispatchMouseEvent", { type, x: 30, y: 140, button: "left", clickCount: 1 });
    }
  };
  const shot = (scale) => page("Page.captureScreenshot", {
    format: "jpeg", quality: 55, optimizeForSpeed: true, clip: { x: 0, y: 0, width: 1280, height: 720, scale },
  });
  let red = false;
  const markedFrame = async () => {
    red = !red;
    const arrived = new Promise((resolve) => (onFrame = resolve));
    const color = red ? { r: 255, g: 0, b: 0, a: 1 } : { r: 0, g: 0, b: 255, a: 1 };
    await page("Overlay.highlightRect", { x: 1276, y: 716, width: 4, height: 4, color });
    await arrived;
  };
  const variants = [
    ["click only", async () => { await click(); }],
    ["screenshot 0.5 (the tool)", async () => { await click(); await shot(0.5); }],
    ["screenshot 1.0", async () => { await click(); await shot(1); }],
    ["screenshot 0.25", async () => { await click(); await shot(0.25); }],
    ["source 320x180", async () => {
      await click();
      await page("Page.captureScreenshot", {
        format: "jpeg", quality: 55, optimizeForSpeed: true, clip: { x: 0, y: 0, width: 320, height: 180, scale: 1 },
      });
    }],
    ["fromSurface false", async () => {
      await click();
      await page("Page.captureScreenshot", {
        format: "jpeg", quality: 55, optimizeForSpeed: true, fromSurface: false,
        clip: { x: 0, y: 0, width: 1280, height: 720, scale: 0.5 },
      });
    }],
    ["marked screencast frame", async () => { await click(); await markedFrame(); }],
  ];
  const quantile = (a, p) => a.slice().sort((x, y) => x - y)[Math.floor(p * (a.length - 1))];
  for (const [name, run] of variants) {
    if (name === "marked screencast frame") {
      await page("Page.startScreencast", { format: "jpeg", quality: 55, maxWidth: 640, maxHeight: 640 });
    }
    await run(); // warm-up
    const times = [];
    const cpu0 = browserCpuMs();
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      await run();
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    const cpu = (browserCpuMs() - cpu0) / ROUNDS;
    console.log(`${name.padEnd(28)} p50 ${quantile(times, 0.5).toFixed(1).padStart(6)} ms  p95 ${quantile(times, 0.95).toFixed(1).padStart(6)} ms  browser CPU ${cpu.toFixed(1).padStart(5)} ms a round`);
  }
  console.log(`load ${fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]}, ${ROUNDS} rounds`);
} finally {
  browser.stop();
}
