// Screenshots of every Review Overlay mode in both locales, taken in real Chromium on the review
// demo page, and of where the panel sits on the example checkout (docked bottom with design
// advice, collapsed with the editor beside a mark, the Advice list). They go to a temporary folder, or into docs/overlay/ (for docs/overlay.md) when
// A3S_OVERLAY_DOCS=1; each must be a non-trivial PNG.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { fileURLToPath } from "node:url";
import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium } from "./harness";
import { serveOverlayDemo, type OverlayServer } from "./overlayServer";
import { showExampleAdvice } from "./exampleAdvice";

const O = "a3s-review-overlay";
let browser: Browser;
let server: OverlayServer;
let out: string;

async function center(page: Page, testId: string): Promise<{ x: number; y: number }> {
  const b = await page.locator(`[data-testid="${testId}"]`).boundingBox();
  if (b === null) throw new Error(`no box for ${testId}`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 10 });
  await page.mouse.up();
}

async function shot(page: Page, name: string): Promise<void> {
  const file = join(out, `${name}.png`);
  // `caret: "initial"`: hiding the caret adds a style element to the page, a new revision that
  // would clear the design advice being photographed.
  await page.screenshot({ path: file, caret: "initial" });
  const png = await readFile(file);
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect(png.length).toBeGreaterThan(10_000);
}

beforeAll(async () => {
  server = await serveOverlayDemo(fileURLToPath(new URL("../demo/dist/", import.meta.url)));
  browser = await chromium.launch({ executablePath: await findChromium(120_000), args: ["--no-sandbox", "--disable-gpu", "--no-first-run"], timeout: 30_000 });
  if (process.env.A3S_OVERLAY_DOCS === "1") {
    out = fileURLToPath(new URL("../../docs/overlay/", import.meta.url));
    await mkdir(out, { recursive: true });
  } else out = await mkdtemp(join(tmpdir(), "a3s-overlay-shots-"));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.each(["en", "zh-CN"] as const)("overlay screenshots (%s)", (locale) => {
  it("captures every mode", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.setDefaultTimeout(10_000);
    try {
      await page.goto(`${server.url}review.html${locale === "zh-CN" ? "?locale=zh-CN" : ""}`);
      await page.locator(`${O} [data-part="panel"]`).waitFor({ state: "visible" });
      const name = locale === "en" ? "Instruction" : "修改说明";
      const save = locale === "en" ? "Save draft" : "保存草稿";
      const fill = async (text: string) => {
        await page.getByRole("textbox", { name }).fill(text);
      };
      await page.keyboard.press("p"); // steady screenshots: page motion paused

      await page.keyboard.press("e");
      const pay = await center(page, "pay");
      await page.mouse.move(pay.x, pay.y);
      await shot(page, `element-${locale}`);
      await page.mouse.click(pay.x, pay.y);
      await fill(locale === "en" ? "Make the pay button larger" : "把支付按钮放大");
      await shot(page, `editor-${locale}`);
      await page.getByRole("button", { name: save }).click();

      await page.keyboard.press("m");
      for (const id of ["item-1", "item-2", "item-3"]) {
        const c = await center(page, id);
        await page.mouse.click(c.x, c.y);
      }
      await shot(page, `multi-${locale}`);
      await page.keyboard.press("Escape");

      await page.keyboard.press("t");
      const p = await page.locator("[data-testid=summary]").boundingBox();
      if (p === null) throw new Error("no summary");
      await drag(page, { x: p.x + 2, y: p.y + 8 }, { x: p.x + 260, y: p.y + 8 });
      await fill(locale === "en" ? "Say the delivery date" : "写明送达日期");
      await shot(page, `text-${locale}`);
      await page.getByRole("button", { name: save }).click();

      await page.keyboard.press("a");
      await drag(page, { x: 420, y: 150 }, { x: 640, y: 260 });
      await shot(page, `area-${locale}`);
      await page.keyboard.press("Escape");

      await page.keyboard.press("d");
      await page.mouse.move(610, 360);
      await page.mouse.down();
      for (let i = 0; i <= 24; i += 1) {
        const a = (i / 24) * Math.PI * 2;
        await page.mouse.move(520 + 90 * Math.cos(a), 360 + 40 * Math.sin(a));
      }
      await page.mouse.up();
      await shot(page, `drawing-${locale}`);
      await page.keyboard.press("Escape");

      await page.keyboard.press("l");
      await page.locator(`${O} [role=combobox]`).first().fill(locale === "en" ? "Search field" : "搜索框");
      await shot(page, `layout-${locale}`);
      // Focus is in the component field, which keeps its letters: switch off with the button.
      await page.locator(`${O} [data-focus="layout"]`).click();

      await page.getByRole("button", { name: locale === "en" ? "Send all" : "全部发送" }).click();
      await page.locator(`${O} [data-repair]`).first().waitFor();
      const ids = await page.evaluate(() => {
        const bridge = (window as unknown as Record<symbol, { listRepairs(): Array<{ id: string }>; applyRepairEvent(e: object): void }>)[Symbol.for("a3s.test.page-context")];
        const list = bridge?.listRepairs() ?? [];
        const at = new Date().toISOString();
        list[0] && bridge?.applyRepairEvent({ repairId: list[0].id, sequence: 1, status: "review_ready", actor: "a3s-test", at, requestId: "s1" });
        list[1] && bridge?.applyRepairEvent({ repairId: list[1].id, sequence: 1, status: "needs_input", actor: "agent", at, requestId: "s2", message: "Which delivery date format?" });
        return list.map((r) => r.id);
      });
      expect(ids.length).toBe(2);
      await page.locator(`${O} [data-status="needs_input"]`).waitFor();
      await page.locator(`${O} [data-part="sent"]`).scrollIntoViewIfNeeded();
      await shot(page, `statuses-${locale}`);
    } finally {
      await page.close();
    }
  });
});

describe.each(["en", "zh-CN"] as const)("panel placement screenshots (%s)", (locale) => {
  it("captures the example checkout docked bottom, collapsed while editing, and with advice", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.setDefaultTimeout(10_000);
    try {
      await page.goto(`${server.url}example.html${locale === "zh-CN" ? "?locale=zh-CN" : ""}`);
      await page.locator(`${O} [data-part="panel"]`).waitFor({ state: "visible" });
      await page.getByRole("heading", { name: "Your cart" }).waitFor();
      expect(await page.evaluate(showExampleAdvice)).toBe(true);
      await page.locator(`${O} [data-part="advice"]`).waitFor();
      await page.locator(`${O} [data-advice="contrast-1"] summary`).click();
      await shot(page, `advice-${locale}`);
      expect(await page.locator(`${O} [data-advice]`).count()).toBe(3);

      await page.keyboard.press("k");
      await page.locator(`${O} [data-part="panel"][data-dock="bottom"]`).waitFor();
      await shot(page, `docked-bottom-${locale}`);

      await page.keyboard.press("c");
      await page.keyboard.press("e");
      const total = await page.locator(".totals dd[data-total]").boundingBox();
      if (total === null) throw new Error("no total");
      await page.mouse.click(total.x + total.width / 2, total.y + total.height / 2);
      await page.getByRole("textbox", { name: locale === "en" ? "Instruction" : "修改说明" }).fill(locale === "en" ? "Set the total in bold" : "把合计加粗");
      await shot(page, `collapsed-${locale}`);
    } finally {
      await page.close();
    }
  });
});
