// Real-Chromium tests of the Review Overlay on the review demo page (the documentation's React
// sample): marking in every mode by keys and by pointer, keyboard multi-select, Escape order,
// letters kept by fields, markers after page and nested scroll, drafts that never queue, send
// and batch order, endpoint failure, statuses and actions, zh-CN, axe-core, and a host DOM that
// marking leaves unchanged. Run by `npm run test:browser` (it rebuilds dist and the demo).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { findChromium } from "./harness";
import { serveOverlayDemo, type OverlayServer } from "./overlayServer";
import type { RepairBatch, RepairRecord } from "../src/repair/types";

const O = "a3s-review-overlay";
let browser: Browser;
let server: OverlayServer;
let page: Page;

const part = (name: string) => page.locator(`${O} [data-part="${name}"]`);
const control = (focus: string) => page.locator(`${O} [data-focus="${focus}"]`);
const instruction = () => page.getByRole("textbox", { name: "Instruction" });

async function open(locale: "en" | "zh-CN" = "en"): Promise<Page> {
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.setDefaultTimeout(10_000);
  await page.goto(`${server.url}review.html${locale === "zh-CN" ? "?locale=zh-CN" : ""}`);
  await page.locator(`${O} [data-part="panel"]`).waitFor({ state: "visible" });
  await page.locator("[data-testid=pay]").waitFor();
  return page;
}

async function call<T>(method: string, ...args: unknown[]): Promise<T> {
  return (await page.evaluate(
    async ([m, a]) => {
      const bridge = (window as unknown as Record<symbol, Record<string, (...x: unknown[]) => unknown>>)[Symbol.for("a3s.test.page-context")];
      if (bridge === undefined) throw new Error("no bridge");
      return await (bridge[m as string] as (...x: unknown[]) => unknown)(...(a as unknown[]));
    },
    [method, args] as const,
  )) as T;
}

async function center(testId: string): Promise<{ x: number; y: number }> {
  const b = await page.locator(`[data-testid="${testId}"]`).boundingBox();
  if (b === null) throw new Error(`no box for ${testId}`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

async function clickOn(testId: string): Promise<void> {
  await page.locator(`[data-testid="${testId}"]`).scrollIntoViewIfNeeded();
  const c = await center(testId);
  await page.mouse.click(c.x, c.y);
}

async function drag(from: { x: number; y: number }, to: { x: number; y: number }, steps = 8): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps });
  await page.mouse.up();
}

async function focusHost(testId: string): Promise<void> {
  await page.locator(`[data-testid="${testId}"]`).focus();
}

/** The host page's DOM (without the overlay host), its attributes and inline styles included. */
async function hostDom(): Promise<string> {
  return page.evaluate((tag) => {
    const clone = document.documentElement.cloneNode(true) as HTMLElement;
    clone.querySelectorAll(tag).forEach((n) => n.remove());
    return clone.outerHTML;
  }, O);
}

async function saveDraft(text: string): Promise<string> {
  await instruction().fill(text);
  await page.getByRole("button", { name: "Save draft" }).click();
  const item = page.locator(`${O} [data-draft]`).filter({ hasText: text });
  await item.waitFor();
  return (await item.getAttribute("data-draft")) ?? "";
}

async function targetText(): Promise<string> {
  return (await page.locator(`${O} [data-part="editor"] .target`).textContent()) ?? "";
}

async function markerBox(key: string): Promise<{ x: number; y: number; width: number; height: number } | null> {
  return page.evaluate(
    ([tag, k]) => {
      const el = document.querySelector(tag)?.shadowRoot?.querySelector(`[data-marker="${k}"]`);
      if (el === null || el === undefined) return null;
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    },
    [O, key] as const,
  );
}

async function rectOf(selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.evaluate((s) => {
    const r = (document.querySelector(s) as Element).getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  }, selector);
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
  server.setFailing(false);
  server.refuseActions(null);
  server.posts.length = 0;
  await page?.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("Review Overlay in Chromium", () => {
  it("mounts the documentation's sample in an open shadow root, excluded from snapshots", async () => {
    await open();
    expect(await page.evaluate((tag) => document.querySelector(tag)?.shadowRoot?.mode, O)).toBe("open");
    expect(await page.getByRole("dialog", { name: "Review" }).isVisible()).toBe(true);
    const snap = await call<{ nodes: Array<{ tag: string; name?: string }> }>("snapshot", { detail: "scoped" });
    expect(snap.nodes.some((n) => n.tag === O || n.name === "Save draft" || n.name === "Review")).toBe(false);
  });

  it("marks an element by pointer and by keyboard; saving never queues", async () => {
    await open();
    const before = await hostDom();
    await page.keyboard.press("e");
    expect(await control("mode-element").getAttribute("aria-pressed")).toBe("true");
    await clickOn("pay");
    await instruction().waitFor();
    expect(await page.evaluate((tag) => document.querySelector(tag)?.shadowRoot?.activeElement?.id, O)).toBe("instruction");
    expect(await targetText()).toContain("Pay now");
    await saveDraft("Make the pay button larger");
    await focusHost("help");
    await page.keyboard.press("e");
    await page.keyboard.press("Enter");
    await instruction().waitFor();
    expect(await targetText()).toContain("Need help?");
    await saveDraft("Explain the help button");
    expect(await page.locator(`${O} [data-draft]`).count()).toBe(2);
    expect(await call<RepairRecord[]>("listRepairs")).toEqual([]);
    expect((await call<RepairBatch>("peekRepairBatch")).repairs).toEqual([]);
    expect(server.posts).toEqual([]);
    expect(await hostDom()).toBe(before);
  });

  it("multi-selects by keyboard (Enter adds, Shift+Enter finishes) and by pointer", async () => {
    await open();
    const before = await hostDom();
    await focusHost("name");
    await page.keyboard.press("m"); // a field keeps its letter…
    expect(await page.locator("[data-testid=name]").inputValue()).toBe("m");
    expect(await control("mode-multi").getAttribute("aria-pressed")).toBe("false");
    await page.locator("[data-testid=name]").fill("");
    await focusHost("help");
    await page.keyboard.press("m"); // …a button does not.
    await page.keyboard.press("Enter");
    await focusHost("pay");
    await page.keyboard.press("Enter");
    expect(await part("multi").textContent()).toContain("Selected: 2");
    await page.keyboard.press("Shift+Enter");
    await instruction().waitFor();
    expect(await targetText()).toContain("Elements: 2");
    await saveDraft("Align these two buttons");
    await control("mode-multi").click();
    await clickOn("item-1");
    await clickOn("item-2");
    await clickOn("item-3");
    expect(await part("multi").textContent()).toContain("Selected: 3");
    await control("finish-multi").click();
    expect(await targetText()).toContain("Elements: 3");
    expect(await hostDom()).toBe(before);
  });

  it("marks text, areas and drawings by pointer and by keyboard", async () => {
    await open();
    const before = await hostDom();
    // Text by pointer: a drag selection in the summary paragraph.
    await page.keyboard.press("t");
    const p = await rectOf("[data-testid=summary]");
    await drag({ x: p.x + 2, y: p.y + 8 }, { x: p.x + 220, y: p.y + 8 });
    await instruction().waitFor();
    expect(await targetText()).toMatch(/Text: Your order/);
    await saveDraft("Say when it ships");
    // Text by keyboard: Enter takes the focused element's text.
    await focusHost("help");
    await page.keyboard.press("t");
    await page.keyboard.press("Enter");
    expect(await targetText()).toContain("Text: Need help?");
    await saveDraft("Rename help");
    // Area by pointer and by keyboard.
    await page.keyboard.press("a");
    await drag({ x: 40, y: 60 }, { x: 240, y: 160 });
    expect(await targetText()).toContain("Area 200 × 100");
    await saveDraft("This corner is empty");
    await focusHost("pay");
    await page.keyboard.press("a");
    await page.keyboard.press("Enter");
    expect(await targetText()).toMatch(/Area \d+ × \d+/);
    await saveDraft("Pay area");
    // Drawing by pointer and by keyboard.
    await page.keyboard.press("d");
    await drag({ x: 300, y: 80 }, { x: 420, y: 140 }, 12);
    expect(await targetText()).toMatch(/Drawing \d+ × \d+/);
    await saveDraft("Circled problem");
    await focusHost("pay");
    await page.keyboard.press("d");
    await page.keyboard.press("Enter");
    expect(await targetText()).toMatch(/Drawing \d+ × \d+/);
    await saveDraft("Circled pay");
    expect(await page.locator(`${O} [data-draft]`).count()).toBe(6);
    expect(await hostDom()).toBe(before);
  });

  it("records a Layout Mode placement with a picked destination, by pointer and by keyboard", async () => {
    await open();
    await page.keyboard.press("l");
    expect(await control("layout").getAttribute("aria-pressed")).toBe("true");
    const combo = page.getByRole("combobox", { name: "Component type" });
    await combo.fill("Search field");
    // Layout Mode speaks through the overlay's one announcer (a polite and an assertive region),
    // never through a live region of its own.
    expect(await page.evaluate(() => document.querySelector("a3s-review-overlay")?.shadowRoot?.querySelectorAll("[aria-live]").length)).toBe(2);
    await expect.poll(() => part("announce-polite").textContent()).toMatch(/matching types|No catalog type matches/);
    // Keyboard activation: a pointer press first closes the suggestion list, which moves the button.
    await page.getByRole("button", { name: "Pick destination region" }).focus();
    await page.keyboard.press("Enter");
    expect(await part("hint").textContent()).toContain("Pick the place");
    await drag({ x: 60, y: 200 }, { x: 360, y: 260 });
    await instruction().waitFor();
    expect(await targetText()).toContain("Layout: Search field");
    const id = await saveDraft("Add a search field here");
    await page.locator(`${O} [data-focus="edit-${id}"]`).click();
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect.poll(() => server.posts.length, { timeout: 5_000 }).toBe(1);
    const [sent] = (server.posts[0] as RepairBatch).repairs;
    expect(sent?.target.layout).toMatchObject({ mode: "placement", componentType: "Search field", canvas: "page", destination: { x: 60, y: 200, width: 300, height: 60 } });
    // Keyboard: the destination is the box of a focused page element.
    await combo.fill("Banner");
    await page.getByRole("button", { name: "Pick destination region" }).focus();
    await page.keyboard.press("Enter");
    await focusHost("help");
    await page.keyboard.press("Enter");
    await instruction().waitFor();
    expect(await targetText()).toContain("Layout: Banner");
    await page.keyboard.press("Escape");
    await page.keyboard.press("l");
    expect(await control("layout").getAttribute("aria-pressed")).toBe("false");
  });

  it("records a Layout Mode rearrange from a picked element and destination", async () => {
    await open();
    await page.keyboard.press("l");
    await page.getByRole("radio", { name: "Move something already on the page" }).check();
    await page.getByRole("button", { name: "Pick the element to move" }).click();
    expect(await part("hint").textContent()).toContain("Pick the place");
    await clickOn("pay");
    await page.getByRole("button", { name: "Pick destination region" }).click();
    await drag({ x: 40, y: 20 }, { x: 380, y: 50 });
    await instruction().waitFor();
    await instruction().fill("Move the pay button to the top");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect.poll(() => server.posts.length, { timeout: 5_000 }).toBe(1);
    const [sent] = (server.posts[0] as RepairBatch).repairs;
    const pay = await rectOf("[data-testid=pay]");
    expect(sent?.target.layout).toMatchObject({ mode: "rearrange", destination: { x: 40, y: 20, width: 340, height: 30 }, originalRegion: { x: Math.round(pay.x * 100) / 100, width: Math.round(pay.width * 100) / 100 } });
    const nodeId = (sent?.target.layout as { nodeId?: string } | undefined)?.nodeId ?? "";
    expect(await page.evaluate((id) => {
      const bridge = (window as unknown as Record<symbol, { resolve(id: string): Element | null }>)[Symbol.for("a3s.test.page-context")];
      return bridge?.resolve(id)?.getAttribute("data-testid") ?? null;
    }, nodeId)).toBe("pay");
  });

  it("reaches every panel control with Tab, with a visible focus ring", async () => {
    await open();
    await page.keyboard.press("e");
    await clickOn("pay");
    await instruction().fill("Tab through");
    await page.getByRole("button", { name: "Add criterion" }).click();
    await focusHost("help");
    const seen: string[] = [];
    let ringMissing = "";
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press("Tab");
      const info = await page.evaluate((tag) => {
        const a = document.querySelector(tag)?.shadowRoot?.activeElement as HTMLElement | null | undefined;
        if (a === null || a === undefined) return null;
        const style = getComputedStyle(a);
        return { key: a.dataset.focus ?? a.id ?? a.localName, ring: style.outlineStyle !== "none" && style.outlineWidth !== "0px" };
      }, O);
      if (info === null) continue;
      seen.push(info.key);
      if (!info.ring && ringMissing === "") ringMissing = info.key;
    }
    for (const key of ["close", "mode-element", "mode-multi", "mode-text", "mode-area", "mode-drawing", "layout", "pause", "markers", "instruction", "criterion-kind-0", "criterion-value-0", "criterion-remove-0", "criterion-add", "intent-fix", "severity-important", "conflicts", "save", "send", "cancel"]) {
      expect(seen, key).toContain(key);
    }
    expect(ringMissing).toBe("");
  });

  it("keeps letters in inputs, textareas and contenteditable; Escape cancels marking, then editing, then the panel", async () => {
    await open();
    await focusHost("notes");
    await page.keyboard.type("edmtaplh");
    expect(await page.locator("[data-testid=notes]").inputValue()).toBe("edmtaplh");
    await focusHost("rich");
    await page.keyboard.press("End");
    await page.keyboard.type(" Have fun");
    expect(await page.locator("[data-testid=rich]").textContent()).toContain("Have fun");
    for (const m of ["element", "multi", "text", "area", "drawing"]) expect(await control(`mode-${m}`).getAttribute("aria-pressed")).toBe("false");
    expect(await control("layout").getAttribute("aria-pressed")).toBe("false");

    await focusHost("help");
    await page.keyboard.press("e");
    await page.keyboard.press("Escape");
    expect(await control("mode-element").getAttribute("aria-pressed")).toBe("false");
    expect(await part("panel").isVisible()).toBe(true);
    await page.keyboard.press("e");
    await page.keyboard.press("Enter");
    await instruction().fill("half-written");
    await page.keyboard.press("Escape");
    expect(await part("editor").count()).toBe(0);
    expect(await page.locator(`${O} [data-draft]`).count()).toBe(0);
    await control("mode-text").focus();
    await page.keyboard.press("Escape");
    expect(await part("panel").isVisible()).toBe(false);
    expect(await part("launcher").isVisible()).toBe(true);
    await page.keyboard.press("e"); // closed: the page keeps its keys
    expect(await part("panel").isVisible()).toBe(false);
  });

  it("keeps markers on their nodes after page scroll and nested scroll, clipped to the container; regions follow regionScroll", async () => {
    await open();
    await page.keyboard.press("e");
    await clickOn("item-3");
    const item = await saveDraft("Item three");
    await page.keyboard.press("a");
    await drag({ x: 500, y: 100 }, { x: 600, y: 150 });
    const area = await saveDraft("Area mark");
    const itemMarker = async () => (await markerBox(item))?.y ?? NaN;
    expect(Math.abs((await itemMarker()) - (await rectOf("[data-testid=item-3]")).y)).toBeLessThan(1);

    await page.evaluate(() => window.scrollTo(0, 120));
    await expect.poll(async () => Math.round(await itemMarker()), { timeout: 5_000 }).toBe(Math.round((await rectOf("[data-testid=item-3]")).y));
    await expect.poll(async () => Math.round((await markerBox(area))?.y ?? NaN), { timeout: 5_000 }).toBe(100 - 120);

    await page.evaluate(() => (document.querySelector("[data-testid=items]") as Element).scrollTo(0, 45));
    await expect.poll(async () => Math.round(await itemMarker()), { timeout: 5_000 }).toBe(Math.round((await rectOf("[data-testid=item-3]")).y));
    // Scrolled partly out of its container, the marker keeps only the part the container shows.
    const items = await page.evaluate(() => {
      const list = document.querySelector("[data-testid=items]") as HTMLElement;
      const item = document.querySelector("[data-testid=item-3]") as HTMLElement;
      list.scrollTo(0, item.offsetTop - list.offsetTop - list.clientTop + item.offsetHeight / 2);
      const r = list.getBoundingClientRect();
      return { top: r.top + list.clientTop, height: item.getBoundingClientRect().height };
    });
    await expect.poll(async () => Math.round(await itemMarker()), { timeout: 5_000 }).toBe(Math.round(items.top));
    const clipped = await markerBox(item);
    expect(clipped?.height ?? 0).toBeGreaterThan(0);
    expect(clipped?.height ?? Infinity).toBeLessThan(items.height - 1);
    // Scrolled out entirely, it draws nothing (no box floating over the container's neighbours).
    await page.evaluate(() => (document.querySelector("[data-testid=items]") as Element).scrollTo(0, 2_000));
    await expect.poll(() => markerBox(item), { timeout: 5_000 }).toBeNull();
    await page.evaluate(() => (document.querySelector("[data-testid=items]") as Element).scrollTo(0, 45));
    await expect.poll(async () => Math.round(await itemMarker()), { timeout: 5_000 }).toBe(Math.round((await rectOf("[data-testid=item-3]")).y));
    await page.setViewportSize({ width: 900, height: 700 });
    await expect.poll(async () => Math.round((await markerBox(item))?.x ?? NaN), { timeout: 5_000 }).toBe(Math.round((await rectOf("[data-testid=item-3]")).x));

    await page.keyboard.press("h");
    expect(await part("markers").isVisible()).toBe(false);
    await page.keyboard.press("h");
    expect(await part("markers").isVisible()).toBe(true);
  });

  it("sends one finding, then a batch in visible order, and POSTs them to the endpoint", async () => {
    await open();
    await page.keyboard.press("e");
    await clickOn("pay");
    await instruction().fill("Single one");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect.poll(() => server.posts.length, { timeout: 5_000 }).toBe(1);
    expect((server.posts[0] as RepairBatch).repairs.map((r) => r.instruction)).toEqual(["Single one"]);

    const ids: string[] = [];
    for (const [i, testId] of ["name", "notes", "help"].entries()) {
      await page.keyboard.press("e");
      await clickOn(testId);
      ids.push(await saveDraft(`Batch ${i + 1}`));
    }
    // Move the third draft up: the visible order is now 1, 3, 2.
    await page.locator(`${O} [data-focus="up-${ids[2]}"]`).click();
    await page.getByRole("button", { name: "Send all" }).click();
    await expect.poll(() => server.posts.length, { timeout: 5_000 }).toBe(2);
    const batch = server.posts[1] as RepairBatch;
    expect(batch.protocol).toBe("a3s.test.repair/1");
    expect(batch.repairs.map((r) => r.id)).toEqual([ids[0], ids[2], ids[1]]);
    expect(batch.repairs.every((r) => r.status === "queued" && r.context.untrusted === true && typeof r.context.contextRevision === "number")).toBe(true);
    expect((await call<RepairRecord[]>("listRepairs")).map((r) => r.instruction)).toEqual(["Single one", "Batch 1", "Batch 3", "Batch 2"]);
    await expect.poll(() => page.locator(`${O} [data-repair]`).count()).toBe(4);
    expect(await page.locator(`${O} [data-draft]`).count()).toBe(0);
  });

  it("keeps the page queue when the endpoint fails", async () => {
    await open();
    server.setFailing(true);
    await page.keyboard.press("e");
    await clickOn("pay");
    await instruction().fill("Endpoint down");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect.poll(() => part("announcer").textContent()).toContain("stay in the page queue");
    const queued = await call<RepairBatch>("peekRepairBatch");
    expect(queued.repairs.map((r) => r.instruction)).toEqual(["Endpoint down"]);
    expect(server.posts).toEqual([]);
    expect(await page.locator(`${O} [data-repair] [data-part="status"]`).textContent()).toContain("Queued");
  });

  it("shows statuses as lifecycle events arrive and sends human actions", async () => {
    await open();
    await page.keyboard.press("e");
    await clickOn("pay");
    await instruction().fill("Track me");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const status = page.locator(`${O} [data-repair] [data-part="status"]`);
    await expect.poll(() => status.textContent()).toContain("Queued");
    const [record] = await call<RepairRecord[]>("listRepairs");
    const id = record?.id ?? "";
    const at = new Date().toISOString();
    const steps: Array<[string, string]> = [["claimed", "Claimed"], ["repairing", "Repairing"], ["verifying", "Verifying"], ["review_ready", "Ready for review"]];
    for (const [i, [s, label]] of steps.entries()) {
      await call("applyRepairEvent", { repairId: id, sequence: i + 1, status: s, actor: s === "review_ready" ? "a3s-test" : "agent", at, requestId: `req-${i}` });
      await expect.poll(() => status.textContent(), { timeout: 5_000 }).toContain(label);
      // Only the actions the ledger accepts in this status are offered: none while an agent works.
      const buttons = await page.locator(`${O} [data-repair="${id}"] .actions button`).allTextContents();
      expect(buttons).toEqual(s === "review_ready" ? ["Accept", "Dismiss", "Reopen"] : []);
    }
    // Dismissing a verified repair asks for the reason first; nothing is sent without one.
    await page.locator(`${O} [data-focus="dismiss-${id}"]`).click();
    await expect.poll(() => part("announcer").textContent()).toContain("why you dismiss");
    expect(server.posts.some((p) => JSON.stringify(p).includes('"kind":"dismiss"'))).toBe(false);
    await page.locator(`${O} [data-focus="accept-${id}"]`).click();
    await expect.poll(() => server.posts.some((p) => JSON.stringify(p).includes('"kind":"accept"')), { timeout: 5_000 }).toBe(true);
    // The endpoint's answer shows next to the finding, and the action left the page queue.
    const outcomes = page.locator(`${O} [data-repair="${id}"] [data-part="outcomes"]`);
    await expect.poll(() => outcomes.textContent(), { timeout: 5_000 }).toContain("Accept: applied");
    expect((await call<{ pending: unknown[] }>("listRepairActions")).pending).toEqual([]);
    await call("applyRepairEvent", { repairId: id, sequence: 5, status: "resolved", actor: "human", at, requestId: "req-accept" });
    await expect.poll(() => status.textContent()).toContain("Resolved");
    await page.locator(`${O} [data-focus="message-${id}"]`).fill("Still too small");
    await page.locator(`${O} [data-focus="reopen-${id}"]`).click();
    await expect.poll(() => server.posts.some((p) => JSON.stringify(p).includes('"kind":"reopen"') && JSON.stringify(p).includes("Still too small")), { timeout: 5_000 }).toBe(true);
    server.refuseActions("test.session.repair_invalid_transition");
    await page.locator(`${O} [data-focus="reopen-${id}"]`).click();
    await expect.poll(() => outcomes.textContent(), { timeout: 5_000 }).toContain("Reopen: refused (test.session.repair_invalid_transition)");
    await expect.poll(() => part("announcer").textContent()).toContain("refused");
  });

  it("marks what a person's click sends as human, and what page code queues as page_script", async () => {
    await open();
    server.setFailing(true);
    // A script keeps a trusted click it saw on the page, to pass it off later as its gesture.
    await page.evaluate(() => {
      document.addEventListener("click", (e) => ((window as unknown as { kept?: Event }).kept = e), { capture: true, once: true });
    });
    await clickOn("help");
    await page.keyboard.press("e");
    await clickOn("pay");
    await instruction().fill("Sent by a person");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect.poll(async () => (await call<RepairBatch>("peekRepairBatch")).repairs.length, { timeout: 5_000 }).toBe(1);
    const region = { x: 0, y: 0, width: 10, height: 10 };
    const draft = (id: string) => ({ id, target: { kind: "region", nodeIds: [], region }, instruction: id, intent: "fix", severity: "suggestion" });
    await call("submitRepair", draft("by-script"));
    await page.evaluate(async (d) => {
      const w = window as unknown as Record<symbol, { submitRepair(d: unknown, o: unknown): Promise<unknown> }> & { kept?: Event };
      await w[Symbol.for("a3s.test.page-context")]?.submitRepair(d, { gesture: w.kept });
    }, draft("replayed-click"));
    const sent = await call<RepairBatch>("peekRepairBatch");
    expect(sent.repairs.map((r) => [r.instruction, r.sentBy])).toEqual([
      ["Sent by a person", "human"],
      ["by-script", "page_script"],
      ["replayed-click", "page_script"],
    ]);
    // The reviewer sees which findings page code sent.
    await expect.poll(() => page.locator(`${O} [data-part="sender"]`).count()).toBe(2);
    // The same rule for actions: the overlay's Accept is the person's, a script's is page code's.
    const id = sent.repairs[0]?.id ?? "";
    await call("applyRepairEvent", { repairId: id, sequence: 1, status: "review_ready", actor: "a3s-test", at: new Date().toISOString(), requestId: "req-ready" });
    await page.locator(`${O} [data-focus="accept-${id}"]`).click();
    await call("submitRepairAction", { repairId: id, kind: "accept", requestId: "script-accept" });
    const pending = await call<{ actions: Array<{ kind: string; requestId: string; sentBy: string }> }>("peekRepairActions");
    expect(pending.actions.map((a) => [a.kind, a.requestId === "script-accept" ? "script" : "overlay", a.sentBy])).toEqual([
      ["accept", "overlay", "human"],
      ["accept", "script", "page_script"],
    ]);
  });

  it("updates statuses from bridge notifications with no timer", async () => {
    // Record every interval the page registers from the start, before the overlay mounts.
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.setDefaultTimeout(10_000);
    await page.addInitScript(() => {
      const w = window as unknown as { __intervals: number };
      w.__intervals = 0;
      const real = window.setInterval.bind(window);
      window.setInterval = ((...args: Parameters<typeof setInterval>) => {
        w.__intervals += 1;
        return real(...args);
      }) as typeof setInterval;
    });
    await page.goto(`${server.url}review.html`);
    await page.locator(`${O} [data-part="panel"]`).waitFor({ state: "visible" });
    await page.locator("[data-testid=pay]").waitFor();
    await page.keyboard.press("e");
    await clickOn("pay");
    await instruction().fill("Notify me");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const status = page.locator(`${O} [data-repair] [data-part="status"]`);
    await expect.poll(() => status.textContent()).toContain("Queued");
    // The event and the read of the panel happen in one task: only the microtask notification can update it.
    const shown = await page.evaluate(async (tag) => {
      const bridge = (window as unknown as Record<symbol, { listRepairs(): Array<{ id: string }>; applyRepairEvent(e: object): void }>)[Symbol.for("a3s.test.page-context")];
      const id = bridge?.listRepairs()[0]?.id ?? "";
      bridge?.applyRepairEvent({ repairId: id, sequence: 1, status: "claimed", actor: "agent", at: new Date().toISOString(), requestId: "notify-1" });
      await Promise.resolve();
      await Promise.resolve();
      return document.querySelector(tag)?.shadowRoot?.querySelector('[data-repair] [data-part="status"]')?.textContent ?? "";
    }, O);
    expect(shown).toContain("Claimed");
    expect(await page.evaluate(() => (window as unknown as { __intervals: number }).__intervals)).toBe(0);
  });

  it("recovers saved drafts after a reload with session storage", async () => {
    await open();
    await page.keyboard.press("a");
    await drag({ x: 40, y: 60 }, { x: 140, y: 120 });
    const id = await saveDraft("Keep me");
    await page.reload();
    await page.locator(`${O} [data-draft="${id}"]`).waitFor();
    expect(await page.locator(`${O} [data-repair]`).count()).toBe(0);
    expect(await call<RepairRecord[]>("listRepairs")).toEqual([]);
  });

  it("pauses and resumes page motion without touching host nodes", async () => {
    await open();
    const before = await hostDom();
    const states = () => page.evaluate(() => document.getAnimations().map((a) => a.playState));
    expect(await states()).toContain("running");
    await page.keyboard.press("p");
    expect(await states()).not.toContain("running");
    expect(await control("pause").getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.press("p");
    expect(await states()).toContain("running");
    expect(await hostDom()).toBe(before);
  });

  it("speaks Simplified Chinese with locale zh-CN", async () => {
    await open("zh-CN");
    expect(await control("mode-element").textContent()).toContain("元素");
    await page.keyboard.press("e");
    await clickOn("pay");
    await page.getByRole("textbox", { name: "修改说明" }).fill("把按钮改大");
    await page.getByRole("button", { name: "保存草稿" }).click();
    await page.locator(`${O} [data-draft]`).waitFor();
    expect(await part("drafts").textContent()).toContain("草稿");
    await page.getByRole("button", { name: "全部发送" }).click();
    await expect.poll(() => page.locator(`${O} [data-repair] [data-part="status"]`).textContent()).toContain("已排队");
  });

  it("has no axe-core violations with the editor and both lists open", async () => {
    await open();
    await page.keyboard.press("e");
    await clickOn("pay");
    await saveDraft("Saved one");
    await page.keyboard.press("e");
    await clickOn("help");
    await instruction().fill("Sent one");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.locator(`${O} [data-repair]`).waitFor();
    await page.keyboard.press("e");
    await clickOn("name");
    await page.getByRole("button", { name: "Add criterion" }).click();
    const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
    await page.addScriptTag({ content: await readFile(axePath, "utf8") });
    const violations = await page.evaluate(async (tag) => {
      type AxeResult = Array<{ id: string; nodes: Array<{ target: unknown }> }>;
      const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeResult; passes: AxeResult }> } }).axe;
      const result = await axe.run({ include: [[tag]] }, {});
      // Targets inside a shadow root are nested selector arrays: proof the panel itself was checked.
      const shadowPasses = result.passes.filter((p) => p.nodes.some((n) => Array.isArray((n.target as unknown[])[0]))).length;
      return { shadowPasses, violations: result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`) };
    }, O);
    expect(violations.violations).toEqual([]);
    expect(violations.shadowPasses).toBeGreaterThan(5);
  });
});
