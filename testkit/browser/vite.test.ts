// The Vite plugin with a real page: Chromium loads a page from a real Vite dev server running
// a3sTest(), the Test Kit's own queue sends a finding to its repairEndpoint (so the browser sets
// Origin and Sec-Fetch-Site itself), and the plugin forwards it to a loopback stand-in for the
// `a3s-test dev` channel. Without a session the page keeps the finding in its queue.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createServer, type ViteDevServer } from "vite";
import { a3sTest } from "../src/vite/index";
import { startFakeChannel, type FakeChannel } from "../src/vite/loopback.testing";
import { findChromium } from "./harness";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

let browser: Browser;
let page: Page;
let vite: ViteDevServer;
let fake: FakeChannel;
let root: string;

const MAIN = `
import { installTestKit } from "${join(SRC, "index.ts")}";
const bridge = installTestKit({ enabled: true, page: { id: "vite-plugin" }, repairEndpoint: "/__a3s-test/repairs" });
window.sendFinding = async (instruction) => {
  const id = bridge.snapshot().nodes.find((n) => n.testId === "go")?.id;
  const result = await bridge.submitRepair({ target: { kind: "node", nodeIds: [id] }, instruction, intent: "fix", severity: "important" });
  return { delivery: result.delivery, pending: bridge.listRepairs().filter((r) => r.status === "queued").length };
};
window.rawPost = async (body) => {
  const res = await fetch("/__a3s-test/repairs", { method: "POST", headers: { "content-type": "application/json" }, body });
  return { status: res.status, code: (await res.json()).error?.code };
};
window.pageReady = true;
`;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "a3s-vite-page-"));
  writeFileSync(join(root, "index.html"), `<!doctype html><html><body><button data-testid="go">Go</button><script type="module" src="/main.js"></script></body></html>`);
  writeFileSync(join(root, "main.js"), MAIN);
  fake = await startFakeChannel();
  vite = await createServer({
    root,
    configFile: false,
    logLevel: "silent",
    plugins: [a3sTest({ channelFile: join(root, "channel.json") })],
    server: { host: "127.0.0.1", port: 0, strictPort: false, fs: { allow: [root, SRC] } },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await vite.listen();
  browser = await chromium.launch({ executablePath: await findChromium(120_000), args: ["--no-sandbox", "--disable-gpu", "--no-first-run"], timeout: 30_000 });
  page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  const url = vite.resolvedUrls?.local[0];
  if (url === undefined) throw new Error("vite printed no local url");
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true);
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
  await fake?.close();
  rmSync(root, { recursive: true, force: true });
});

type PageFns = { sendFinding: (t: string) => Promise<{ delivery: string; pending: number }>; rawPost: (b: string) => Promise<{ status: number; code?: string }> };
const rawPost = (body: string) => page.evaluate((b) => (window as unknown as PageFns).rawPost(b), body);
const send = (instruction: string) => page.evaluate((text) => (window as unknown as PageFns).sendFinding(text), instruction);

describe("a3sTest() with a real page", () => {
  it("keeps the finding in the page queue while no session runs", async () => {
    const result = await send("No session yet");
    expect(result.delivery).toBe("endpoint_failed");
    expect(result.pending).toBe(1);
    // The browser's own Origin passed the same-origin check: the refusal is the missing session.
    expect(await rawPost(JSON.stringify({ protocol: "a3s.test.repair/1", repairs: [] }))).toEqual({ status: 503, code: "test.session.dev_unavailable" });
    expect(await rawPost(JSON.stringify({ protocol: "other/1" }))).toEqual({ status: 400, code: "test.session.repair_unsupported_protocol" });
    expect(fake.received).toHaveLength(0);
  });

  it("forwards the page's POST to the session once its channel file exists", async () => {
    writeFileSync(join(root, "channel.json"), JSON.stringify({ protocol: "a3s.test.dev-channel/1", url: fake.url, token: "cd".repeat(16), pid: process.pid }), { mode: 0o600 });
    const result = await send("Make Go say Start");
    expect(result.delivery).toBe("endpoint");
    expect(fake.received).toHaveLength(1);
    const got = fake.received[0]!;
    expect(got.headers.authorization).toBe(`Bearer ${"cd".repeat(16)}`);
    const doc = JSON.parse(got.body) as { protocol: string; repairs: { instruction: string; context: { untrusted: boolean } }[] };
    expect(doc.protocol).toBe("a3s.test.repair/1");
    expect(doc.repairs.map((r) => r.instruction)).toContain("Make Go say Start");
    expect(doc.repairs.every((r) => r.context.untrusted)).toBe(true);
  });
});
