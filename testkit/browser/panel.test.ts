// Real-Chromium tests of where the Review Overlay's panel sits, on the repository's example
// checkout (examples/react-vite, built into demo/dist/example.html): docked bottom or left, or
// collapsed to its toolbar, the panel leaves every price uncovered — checked with the browser's
// own hit testing (`elementFromPoint` at each price's centre is the price, not the overlay); the
// choice survives a reload of the same origin and is not seen by another origin; while marking
// the panel shrinks to its toolbar and the finding editor opens as a popover beside the mark,
// never over it, falling back to the docked panel on a narrow viewport; focus goes back where it
// was when the popover closes; axe-core finds nothing docked bottom, collapsed, with the popover
// open and with design advice listed. Keys and pointer alike. Run by `npm run test:browser`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { findChromium } from "./harness";
import { serveOverlayDemo, type OverlayServer } from "./overlayServer";
import { showExampleAdvice } from "./exampleAdvice";

const O = "a3s-review-overlay";
let browser: Browser;
let server: OverlayServer;
let page: Page;

type Box = { x: number; y: number; width: number; height: number };
const part = (name: string) => page.locator(`${O} [data-part="${name}"]`);
const control = (focus: string) => page.locator(`${O} [data-focus="${focus}"]`);

async function open(url = `${server.url}example.html`, viewport = { width: 1200, height: 800 }): Promise<Page> {
  page = await browser.newPage({ viewport });
  page.setDefaultTimeout(10_000);
  await page.goto(url);
  await part("panel").waitFor({ state: "visible" });
  await page.getByRole("heading", { name: "Your cart" }).waitFor();
  return page;
}

/** Every price of the cart, and whether the browser's hit test at its centre reaches it. */
async function prices(): Promise<Array<{ text: string; reached: boolean; hit: string }>> {
  return page.evaluate(() =>
    [...document.querySelectorAll(".lines li > span:last-child, .totals dd")].map((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { text: el.textContent ?? "", reached: hit === el, hit: hit?.localName ?? "none" };
    }),
  );
}

async function priceBoxes(): Promise<Box[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll(".lines li > span:last-child, .totals dd")].map((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
}

/** Whether the browser's hit test at the centre of `selector` reaches that element. */
async function reached(selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (el === null) return false;
    const r = el.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
  }, selector);
}

/** Design advice about the current revision, as `agent audit` hands it to the page. */
async function showAdvice(): Promise<boolean> {
  return page.evaluate(showExampleAdvice);
}

async function allPricesReached(): Promise<void> {
  const list = await prices();
  expect(list.map((p) => p.text)).toEqual(["€29.00", "€9.90", "€38.90", "€4.90", "€43.80"]);
  expect(list.filter((p) => !p.reached)).toEqual([]);
}

async function boxOf(selector: string): Promise<Box> {
  const b = await page.locator(selector).first().boundingBox();
  if (b === null) throw new Error(`no box for ${selector}`);
  return b;
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The element with the focus, through the overlay's shadow root: its focus key, id or tag. */
async function focused(): Promise<string> {
  return page.evaluate((tag) => {
    const a = document.activeElement as HTMLElement | null;
    if (a?.localName === tag) {
      const inner = a.shadowRoot?.activeElement as HTMLElement | null | undefined;
      return `overlay:${inner?.dataset.focus ?? inner?.dataset.part ?? inner?.localName ?? "none"}`;
    }
    return a?.id || a?.localName || "none";
  }, O);
}

async function axe(): Promise<{ violations: string[]; shadowPasses: number }> {
  if (!(await page.evaluate(() => "axe" in window))) {
    const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
    await page.addScriptTag({ content: await readFile(axePath, "utf8") });
  }
  return page.evaluate(async (tag) => {
    type AxeResult = Array<{ id: string; nodes: Array<{ target: unknown }> }>;
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeResult; passes: AxeResult }> } }).axe;
    const result = await axe.run({ include: [[tag]] }, {});
    const shadowPasses = result.passes.filter((p) => p.nodes.some((n) => Array.isArray((n.target as unknown[])[0]))).length;
    return { shadowPasses, violations: result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`) };
  }, O);
}

beforeAll(async () => {
  server = await serveOverlayDemo(fileURLToPath(new URL("../demo/dist/", import.meta.url)));
  browser = await chromium.launch({
    executablePath: await findChromium(120_000),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    timeout: 30_000,
  });
});
afterEach(async () => {
  await page?.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the Review Overlay's panel on the example checkout", () => {
  it("covers prices docked right and expanded (why it docks), none docked bottom or left; K and pointer dock it, and a reload keeps it", async () => {
    await open();
    expect(await part("panel").getAttribute("data-dock")).toBe("right");
    // The starting point the reviewer moves away from: with design advice listed, the
    // right-docked panel grows over the cart and hides prices.
    expect(await showAdvice()).toBe(true);
    await part("advice").waitFor();
    expect((await prices()).filter((p) => !p.reached).map((p) => p.hit)).toContain(O);

    await page.keyboard.press("k");
    expect(await part("panel").getAttribute("data-dock")).toBe("bottom");
    expect(await control("dock-bottom").getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => part("announce-polite").textContent()).toContain("docked at the bottom");
    await allPricesReached();
    await page.reload();
    await part("panel").waitFor({ state: "visible" });
    expect(await part("panel").getAttribute("data-dock")).toBe("bottom");
    await allPricesReached();

    await control("dock-left").click();
    expect(await part("panel").getAttribute("data-dock")).toBe("left");
    await allPricesReached();
    await page.reload();
    await part("panel").waitFor({ state: "visible" });
    expect(await part("panel").getAttribute("data-dock")).toBe("left");
    await allPricesReached();
    // Remembered per origin: the same page under another origin starts docked right.
    const other = server.url.replace("127.0.0.1", "localhost");
    await page.goto(`${other}example.html`);
    await part("panel").waitFor({ state: "visible" });
    expect(await part("panel").getAttribute("data-dock")).toBe("right");
  });

  it("collapses to a small toolbar by C and by pointer, expands again both ways, and a reload keeps it collapsed", async () => {
    await open();
    await page.keyboard.press("c");
    await part("strip").waitFor();
    expect(await control("collapse").getAttribute("aria-expanded")).toBe("false");
    const strip = await boxOf(`${O} [data-part="panel"]`);
    expect(strip.height).toBeLessThan(80);
    expect(strip.width).toBeLessThan(520);
    await allPricesReached();
    await page.reload();
    await part("strip").waitFor();
    await allPricesReached();
    // Expand by pointer, collapse by pointer, expand by key.
    await control("collapse").click();
    expect(await part("strip").count()).toBe(0);
    expect(await part("drafts").isVisible()).toBe(true);
    expect(await focused()).toBe("overlay:collapse");
    await control("collapse").click();
    await part("strip").waitFor();
    await page.keyboard.press("c");
    expect(await part("strip").count()).toBe(0);
    await page.reload();
    await part("panel").waitFor({ state: "visible" });
    expect(await part("strip").count()).toBe(0);
    // Docked bottom and collapsed: a small row at the bottom centre.
    await page.keyboard.press("k");
    await page.keyboard.press("c");
    await part("strip").waitFor();
    const row = await boxOf(`${O} [data-part="panel"]`);
    expect(row.width).toBeLessThan(520);
    expect(Math.abs(row.x + row.width / 2 - 600)).toBeLessThan(2);
    await allPricesReached();
  });

  it("shrinks to its toolbar while marking and opens the editor beside the mark, never over it (pointer)", async () => {
    await open();
    await page.keyboard.press("e");
    await part("strip").waitFor();
    // While marking, the page is under the marking layer: the toolbar's box must miss every price.
    const strip = await boxOf(`${O} [data-part="panel"]`);
    for (const price of await priceBoxes()) expect(overlaps(strip, price)).toBe(false);
    for (const selector of [".totals dd[data-total]", ".lines li:first-child > span:last-child", "#cart-heading"]) {
      const mark = await boxOf(selector);
      await page.mouse.click(mark.x + mark.width / 2, mark.y + mark.height / 2);
      await part("popover").waitFor({ state: "visible" });
      const pop = await boxOf(`${O} [data-part="popover"]`);
      expect(overlaps(pop, mark), selector).toBe(false);
      expect(pop.x >= 0 && pop.y >= 0 && pop.x + pop.width <= 1200 && pop.y + pop.height <= 800, selector).toBe(true);
      // The marked element itself is still what the pointer reaches (no catcher while editing).
      expect(await reached(selector), selector).toBe(true);
      expect(await focused()).toBe("overlay:instruction");
      await page.getByRole("textbox", { name: "Instruction" }).fill(`Fix ${selector}`);
      await page.getByRole("button", { name: "Save draft" }).click();
      await part("popover").waitFor({ state: "hidden" });
      await page.keyboard.press("e");
    }
    await page.keyboard.press("Escape");
    expect(await part("strip").count()).toBe(0);
    expect(await page.locator(`${O} [data-draft]`).count()).toBe(3);
  });

  it("marks by keyboard: the popover opens beside the focused field, Escape closes it and the focus goes back to the field", async () => {
    await open();
    await page.keyboard.press("e");
    await page.getByLabel("Full name").focus();
    await page.keyboard.press("Enter");
    await part("popover").waitFor({ state: "visible" });
    const field = await boxOf("#shipping-name, input[autocomplete=name]");
    expect(overlaps(await boxOf(`${O} [data-part="popover"]`), field)).toBe(false);
    expect(await focused()).toBe("overlay:instruction");
    expect(await page.getByRole("dialog", { name: "Finding" }).isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await part("popover").waitFor({ state: "hidden" });
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.autocomplete)).toBe("name");
    expect(await part("strip").count()).toBe(0);
    // Saving from the popover also gives the focus back to the field.
    await page.keyboard.press("Escape"); // idle panel, focus in the page: the page keeps Escape
    expect(await part("panel").isVisible()).toBe(true);
  });

  it("opens a draft from advice beside the advice's target, and Cancel gives the focus back to its button", async () => {
    await open();
    await control("dock-left").click();
    expect(await showAdvice()).toBe(true);
    await control("advice-draft-spacing-2").click();
    await part("popover").waitFor({ state: "visible" });
    expect(await part("strip").count()).toBe(1);
    const heading = await boxOf("h1");
    expect(overlaps(await boxOf(`${O} [data-part="popover"]`), heading)).toBe(false);
    expect(await focused()).toBe("overlay:instruction");
    await page.getByRole("button", { name: "Cancel" }).click();
    await part("popover").waitFor({ state: "hidden" });
    expect(await focused()).toBe("overlay:advice-draft-spacing-2");
    // Opening advice queued nothing.
    expect(await page.evaluate(() => (window as unknown as Record<symbol, { listRepairs(): unknown[] }>)[Symbol.for("a3s.test.page-context")]?.listRepairs().length)).toBe(0);
  });

  it("follows its mark when the page scrolls and falls back to the docked panel on a narrow viewport", async () => {
    await open(undefined, { width: 1200, height: 600 });
    await page.keyboard.press("e");
    const total = await boxOf(".totals dd[data-total]");
    await page.mouse.click(total.x + total.width / 2, total.y + total.height / 2);
    await part("popover").waitFor({ state: "visible" });
    await page.mouse.wheel(0, 120);
    await expect.poll(async () => Math.round((await boxOf(".totals dd[data-total]")).y)).toBeLessThan(Math.round(total.y));
    const moved = await boxOf(".totals dd[data-total]");
    await expect.poll(async () => overlaps(await boxOf(`${O} [data-part="popover"]`), moved)).toBe(false);
    await page.keyboard.press("Escape");

    await page.setViewportSize({ width: 560, height: 700 });
    await page.keyboard.press("e");
    const name = await boxOf("input[autocomplete=name]");
    await page.mouse.click(name.x + 10, name.y + name.height / 2);
    await page.getByRole("textbox", { name: "Instruction" }).waitFor();
    expect(await part("popover").isVisible()).toBe(false);
    expect(await page.locator(`${O} [data-part="panel"] [data-part="editor"]`).count()).toBe(1);
    expect(await part("strip").count()).toBe(0);
  });

  it("has no axe-core violations docked bottom, collapsed, with the popover open, and with design advice listed", async () => {
    await open();
    await page.keyboard.press("k");
    const bottom = await axe();
    expect(bottom.violations).toEqual([]);
    expect(bottom.shadowPasses).toBeGreaterThan(5);

    await page.keyboard.press("c");
    await part("strip").waitFor();
    expect((await axe()).violations).toEqual([]);

    await page.keyboard.press("e");
    const total = await boxOf(".totals dd[data-total]");
    await page.mouse.click(total.x + total.width / 2, total.y + total.height / 2);
    await part("popover").waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Add criterion" }).click();
    expect((await axe()).violations).toEqual([]);
    await page.keyboard.press("Escape");
    await page.keyboard.press("c");

    expect(await showAdvice()).toBe(true);
    await part("advice").waitFor();
    await page.locator(`${O} [data-advice="contrast-1"] summary`).click();
    const advice = await axe();
    expect(advice.violations).toEqual([]);
    await allPricesReached();
  });
});
