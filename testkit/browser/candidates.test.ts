// Real-Chromium test of the Review Overlay's "Candidates from the latest run" list: a page with
// the built Test Kit and overlay reads a candidates feed from its same-origin endpoint (this
// loopback server stands in for `a3s-test repair-endpoint` behind a dev server's proxy), marks the
// failing step's element, reads nothing into the queue, and passes axe-core with the list and a
// candidate's details open. The Rust end-to-end test (`tests/repair/run_candidates.rs`) runs the
// same path with a real `run` and a real endpoint.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { findChromium } from "./harness";

const O = "a3s-review-overlay";
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
let browser: Browser;
let server: Server;
let url = "";
const asked: string[] = [];

const PAGE = `<!doctype html><html lang="en"><head><title>Checkout</title></head><body>
<main><h1>Checkout</h1><p><button type="button">Cancel order</button></p>
<p><button type="button" data-testid="pay">Pay $42.00</button></p></main>
<script type="importmap">{ "imports": { "@a3s-lab/testkit": "/kit/index.js" } }</script>
<script type="module">
import { installTestKit } from "/kit/index.js";
import { mountReviewOverlay } from "/kit/overlay.js";
installTestKit({ enabled: true, page: { id: "checkout" }, repairStorage: "memory" });
mountReviewOverlay({ enabled: true, locale: new URL(location.href).searchParams.get("locale") ?? "en", candidates: "/__a3s-test/repairs/candidates" });
</script></body></html>`;

function feed(page: string) {
  return {
    protocol: "a3s.test.run-candidates/1",
    run_id: "20260101T120000Z-3fa9c2",
    started_at: "2026-01-01T12:00:00Z",
    page,
    candidates: [
      {
        id: "shop/pay",
        name: "Paying confirms the order",
        status: "failed",
        code: "test.assert.rendered_text_mismatch",
        message: 'expected rendered text "Paid", found "Pay $42.00"',
        target: 'role("button", "Pay")',
        locator: { kind: "role", role: "button", name: "Pay", mode: "contains" },
        location: "shop.acl:8:9",
        page_url: page,
      },
      {
        id: "shop/retry",
        name: "The receipt shows",
        status: "flaky",
        code: "test.assert.not_visible",
        message: "expected testid(\"receipt\") to be visible",
        target: 'testid("receipt")',
        locator: { kind: "test_id", value: "receipt" },
        page_url: page,
      },
    ],
    omitted: 0,
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? "/", "http://127.0.0.1");
      if (u.pathname === "/__a3s-test/repairs/candidates" && req.method === "GET") {
        asked.push(u.search);
        const page = new URL(u.searchParams.get("page") ?? "/", "http://127.0.0.1");
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(feed(`${page.origin}${page.pathname}`)));
        return;
      }
      if (u.pathname.startsWith("/kit/") && /^\/kit\/[\w.-]+\.js$/.test(u.pathname)) {
        try {
          const js = await readFile(`${dist}${u.pathname.slice(5)}`);
          res.writeHead(200, { "content-type": "text/javascript" }).end(js);
        } catch {
          res.writeHead(404).end();
        }
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    })();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await chromium.launch({
    executablePath: await findChromium(120_000),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    timeout: 30_000,
  });
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((ok) => server?.close(() => ok()));
});

describe("candidates from the latest run in Chromium", () => {
  it("lists them with a marker on the failing step's element, queues nothing, and passes axe-core", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.setDefaultTimeout(10_000);
    await page.goto(url);
    const list = page.locator(`${O} [data-part="candidates"]`);
    await list.waitFor();
    expect(await list.locator("h3").textContent()).toBe("Candidates from the latest run (2)");
    expect(new URLSearchParams(asked[0]).get("page")).toBe(url);
    // The pay button has the marker; the receipt is not on this page, and says so.
    const marker = await page.evaluate((tag) => {
      const m = document.querySelector(tag)?.shadowRoot?.querySelector('[data-marker="candidate-shop/pay"]');
      const b = document.querySelector("[data-testid=pay]");
      if (!m || !b) return null;
      const [r, s] = [m.getBoundingClientRect(), b.getBoundingClientRect()];
      return Math.max(Math.abs(r.x - s.x), Math.abs(r.y - s.y), Math.abs(r.width - s.width), Math.abs(r.height - s.height));
    }, O);
    expect(marker).not.toBeNull();
    expect(marker as number).toBeLessThan(4);
    expect(await page.locator(`${O} [data-candidate="shop/retry"]`).textContent()).toContain("its element is not on this page now");
    await page.locator(`${O} [data-candidate="shop/pay"] summary`).click();
    // Reading queues nothing.
    const queued = await page.evaluate(() => {
      const b = (window as unknown as Record<symbol, { peekRepairBatch(): { repairs: unknown[] }; listRepairs(): unknown[] }>)[Symbol.for("a3s.test.page-context")];
      return b ? b.peekRepairBatch().repairs.length + b.listRepairs().length : -1;
    });
    expect(queued).toBe(0);
    const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
    await page.addScriptTag({ content: await readFile(axePath, "utf8") });
    const result = await page.evaluate(async (tag) => {
      type AxeResult = Array<{ id: string; nodes: Array<{ target: unknown }> }>;
      const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeResult; passes: AxeResult }> } }).axe;
      const r = await axe.run({ include: [[tag]] }, {});
      return { violations: r.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`), passes: r.passes.length };
    }, O);
    expect(result.violations).toEqual([]);
    expect(result.passes).toBeGreaterThan(5);
    await page.close();
  });

  it("shows them in Simplified Chinese", async () => {
    const page = await browser.newPage();
    await page.goto(`${url}?locale=zh-CN`);
    const list = page.locator(`${O} [data-part="candidates"]`);
    await list.waitFor();
    expect(await list.locator("h3").textContent()).toBe("最近一次运行的候选问题 (2)");
    expect(await list.textContent()).toContain("失败");
    await page.close();
  });
});
