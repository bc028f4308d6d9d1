// The browser the CDP benchmarks of bench/ measure in (bench/ground-proof.mjs,
// bench/trace-image-cost.mjs): a headless Chromium in its own process group with the tool's
// launch flags (web/src/process.rs) and the caller's extra ones, one page attached over a flat
// session, and a bound of five minutes on the whole benchmark. Written once so every benchmark
// launches, talks to and stops the browser the same way.
//
// The browser is $A3S_TEST_BROWSER, else /usr/lib/chromium/chromium-headless-shell (the tool's
// default).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const BROWSER = process.env.A3S_TEST_BROWSER || "/usr/lib/chromium/chromium-headless-shell";

/**
 * Launch the browser and attach to a new page showing `html`, settled for two frames.
 * Returns `{ call, page, onEvent, pid, stop }`: `call(method, params, sessionId)` on the browser,
 * `page(method, params)` on the page, `onEvent(listener)` for every event (`{ method, params,
 * sessionId }`), `stop()` to end the browser's group and remove its profile (call it in a
 * `finally`).
 */
export async function launch(html, extraFlags = []) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "a3s-bench-cdp-"));
  const chromium = spawn(BROWSER, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--remote-debugging-port=0", "--window-size=1280,720", ...extraFlags,
    `--user-data-dir=${profile}`, "about:blank"], { stdio: ["ignore", "ignore", "pipe"], detached: true });
  const stop = () => {
    clearTimeout(bound);
    try { process.kill(-chromium.pid, "SIGKILL"); } catch { /* already gone */ }
    fs.rmSync(profile, { recursive: true, force: true });
  };
  const bound = setTimeout(() => { console.error("no answer within 5 minutes"); stop(); process.exit(1); }, 300_000);
  let seen = "";
  const url = await new Promise((resolve, reject) => {
    chromium.on("exit", () => reject(new Error("the browser exited")));
    chromium.stderr.on("data", (d) => { seen += d; const m = seen.match(/ws:\/\/\S+/); if (m) resolve(m[0]); });
  });
  const ws = new WebSocket(url);
  await new Promise((resolve) => (ws.onopen = resolve));
  let next = 0;
  const pending = new Map();
  const listeners = [];
  ws.onmessage = (m) => {
    const j = JSON.parse(m.data);
    if (j.id) { pending.get(j.id)?.(j); pending.delete(j.id); return; }
    for (const listener of listeners) listener(j);
  };
  const call = (method, params = {}, sessionId) => new Promise((resolve) => {
    const id = ++next; pending.set(id, resolve); ws.send(JSON.stringify({ id, method, params, sessionId }));
  });
  const { result: { targetId } } = await call("Target.createTarget", { url: "about:blank" });
  const { result: { sessionId } } = await call("Target.attachToTarget", { targetId, flatten: true });
  const page = (method, params) => call(method, params, sessionId);
  await page("Page.enable");
  await page("Page.navigate", { url: "data:text/html;base64," + Buffer.from(html).toString("base64") });
  await page("Runtime.evaluate", { expression: "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", awaitPromise: true });
  return { call, page, onEvent: (listener) => listeners.push(listener), pid: chromium.pid, stop: () => { ws.close(); stop(); } };
}
