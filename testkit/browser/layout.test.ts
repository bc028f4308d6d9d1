// Real-Chromium test of the Layout Mode editor: a small host page with the editor mounted in an
// open shadow root (as the overlay does), operated by keyboard only in zh-CN and en. The page's
// pickers are stand-ins for the overlay's (they hand back the rect the test chose); everything
// else is the real module, bundled by esbuild and served from loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { build } from "esbuild";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findChromium, serveStatic } from "./harness";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Layout fixture</title>
<style>body{font:16px system-ui;margin:0;padding:24px} main{max-width:640px} .promo{height:120px;background:#fde68a;margin:16px 0}</style>
</head><body>
<main id="app"><h1>Checkout</h1><p class="lead">Review your order.</p><div class="promo" data-testid="promo">Promo</div>
<form><label>Email <input name="email"></label><button type="submit">Pay now</button></form></main>
<a3s-review-overlay></a3s-review-overlay>
<script src="./layout.js"></script>
</body></html>`;

// The fixture script: mounts the editor inside the overlay host's shadow root and records changes.
const ENTRY = `
import { mountLayoutEditor } from "./src/overlay/layout/index.ts";
import { translator } from "./src/overlay/i18n/index.ts";
const host = document.querySelector("a3s-review-overlay");
const shadow = host.attachShadow({ mode: "open" });
const panel = document.createElement("div");
panel.setAttribute("style", "position:fixed;z-index:2147483647;top:0;right:0;width:360px;max-height:100vh;overflow:auto;background:#fff;border-left:1px solid #ccc;padding:12px;box-sizing:border-box");
shadow.append(panel);
const state = { changes: [], said: [], nextRegion: null, nextNode: null, editor: null };
window.__layout = state;
window.__mountLayout = (locale) => {
  const t = translator(locale);
  state.editor = mountLayoutEditor(panel, {
    locale,
    strings: (key) => t(key),
    onChange: (layout) => state.changes.push(layout),
    pickRegion: async () => state.nextRegion,
    pickNode: async () => state.nextNode,
    announce: (message) => state.said.push(message),
  });
};
`;

/** Everything about the host page the editor must not change: markup, attributes, boxes. */
const HOST_STATE = () =>
  [...document.body.querySelectorAll("*")]
    .filter((el) => el.tagName !== "A3S-REVIEW-OVERLAY" && el.tagName !== "SCRIPT")
    .map((el) => {
      const r = el.getBoundingClientRect();
      return `${el.outerHTML.length}:${[...el.attributes].map((a) => `${a.name}=${a.value}`).join(",")}:${r.x},${r.y},${r.width},${r.height}`;
    })
    .concat([document.body.outerHTML, document.documentElement.getAttribute("style") ?? ""]);

let browser: Browser;
let server: { url: string; close: () => Promise<void> };
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "a3s-layout-"));
  await build({ stdin: { contents: ENTRY, resolveDir: ROOT, loader: "ts" }, bundle: true, format: "iife", target: "es2021", outfile: join(dir, "layout.js"), logLevel: "warning" });
  await writeFile(join(dir, "index.html"), PAGE);
  server = await serveStatic(dir);
  browser = await chromium.launch({
    executablePath: await findChromium(120_000),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    timeout: 30_000,
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

async function open(locale: "en" | "zh-CN"): Promise<{ page: Page; before: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.setDefaultTimeout(15_000);
  await page.goto(server.url);
  const before = await page.evaluate(HOST_STATE);
  await page.evaluate((l) => (window as unknown as { __mountLayout: (l: string) => void }).__mountLayout(l), locale);
  return { page, before };
}

const changes = (page: Page) => page.evaluate(() => (window as unknown as { __layout: { changes: unknown[] } }).__layout.changes);
const setRegion = (page: Page, region: object) => page.evaluate((r) => ((window as unknown as { __layout: { nextRegion: object } }).__layout.nextRegion = r), region);

describe("Layout Mode editor in Chromium", () => {
  it("places a catalog component by keyboard in zh-CN without touching the host page", async () => {
    const { page, before } = await open("zh-CN");
    try {
      await page.getByRole("radio", { name: "放置新组件" }).focus();
      await page.keyboard.press("Tab");
      const combo = page.getByRole("combobox", { name: "组件类型" });
      await expect.poll(() => combo.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
      await page.keyboard.type("按钮");
      await expect.poll(() => combo.getAttribute("aria-expanded")).toBe("true");
      await page.keyboard.press("ArrowDown");
      const active = await combo.getAttribute("aria-activedescendant");
      expect(await page.locator(`#${active ?? "missing"}`).textContent()).toBe("按钮 Button");
      expect(await page.getByRole("option", { name: "按钮 Button" }).getAttribute("aria-selected")).toBe("true");
      await page.keyboard.press("Enter");
      expect(await combo.inputValue()).toBe("按钮");
      expect(await combo.getAttribute("aria-expanded")).toBe("false");

      await page.keyboard.press("Tab"); // canvas radios
      await page.keyboard.press("ArrowRight"); // wireframe
      expect(await page.getByRole("radio", { name: "以线框表示" }).isChecked()).toBe(true);
      await page.keyboard.press("Tab");
      await page.keyboard.type("结算页");
      await setRegion(page, { x: 40, y: 300, width: 480, height: 100 });
      await page.keyboard.press("Tab");
      await expect.poll(() => page.getByRole("button", { name: "选择目的区域" }).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
      await page.keyboard.press("Enter");
      await expect.poll(() => changes(page)).toContainEqual({ mode: "placement", componentType: "button", componentSource: "catalog", canvas: "wireframe", purpose: "结算页", destination: { x: 40, y: 300, width: 480, height: 100 } });

      // The preview is drawn, pointer-transparent: the page under it still gets the hit.
      const hit = await page.evaluate(() => document.elementFromPoint(280, 350)?.tagName);
      expect(hit).not.toBe("A3S-REVIEW-OVERLAY");
      const preview = await page.evaluate(() => {
        const layer = document.querySelector("a3s-review-overlay")?.shadowRoot?.querySelector<HTMLElement>("[data-a3s-layout-preview]");
        const box = layer?.querySelector<HTMLElement>("[data-part=destination]")?.getBoundingClientRect();
        return { pointer: layer ? getComputedStyle(layer).pointerEvents : "", box: box ? [box.x, box.y, box.width, box.height] : [] };
      });
      expect(preview).toEqual({ pointer: "none", box: [40, 300, 480, 100] });
      expect(await page.evaluate(HOST_STATE)).toEqual(before);
      // caret "initial": Playwright's default caret hiding writes style="" onto the host's text inputs.
      await page.screenshot({ path: join(tmpdir(), "a3s-layout-zh-CN.png"), caret: "initial" });
      expect(await page.evaluate(HOST_STATE)).toEqual(before);
    } finally {
      await page.close();
    }
  });

  it("places by keyboard in en, then keeps a typed project component verbatim", async () => {
    const { page, before } = await open("en");
    try {
      const combo = page.getByRole("combobox", { name: "Component type" });
      await combo.focus();
      await page.keyboard.type("date");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      expect(await combo.inputValue()).toBe("Date picker");
      await setRegion(page, { x: 24, y: 24, width: 300, height: 48 });
      await page.getByRole("button", { name: "Pick destination region" }).focus();
      await page.keyboard.press("Space");
      await expect.poll(() => changes(page)).toContainEqual({ mode: "placement", componentType: "date-picker", componentSource: "catalog", canvas: "page", destination: { x: 24, y: 24, width: 300, height: 48 } });

      await combo.focus();
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type(" AcmePromoStrip v2");
      await page.keyboard.press("Escape"); // closes the suggestions, keeps the text
      expect(await combo.inputValue()).toBe(" AcmePromoStrip v2");
      await expect.poll(async () => (await changes(page)).at(-1)).toEqual({ mode: "placement", componentType: " AcmePromoStrip v2", componentSource: "project", canvas: "page", destination: { x: 24, y: 24, width: 300, height: 48 } });
      expect(await page.evaluate(HOST_STATE)).toEqual(before);
      // caret "initial": Playwright's default caret hiding writes style="" onto the host's text inputs.
      await page.screenshot({ path: join(tmpdir(), "a3s-layout-en.png"), caret: "initial" });
      expect(await page.evaluate(HOST_STATE)).toEqual(before);

      await page.evaluate(() => (window as unknown as { __layout: { editor: { destroy(): void } } }).__layout.editor.destroy());
      expect(await page.evaluate(() => document.querySelector("a3s-review-overlay")?.shadowRoot?.querySelectorAll(".a3s-layout, [data-a3s-layout-preview]").length)).toBe(0);
    } finally {
      await page.close();
    }
  });
});
