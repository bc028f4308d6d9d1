/**
 * Sending from the panel in jsdom: "Send all" keeps the visible order, a refused item stays as
 * a draft with its reason while the others are sent (no rollback), and auto-send is a choice of
 * the mounted session only.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import userEvent from "@testing-library/user-event";
import { installTestKit, OVERLAY_HOST_TAG, TestKitError, type PageContextBridge, type RepairDraft } from "@a3s-lab/testkit";
import { mountReviewOverlay } from "./index";
import { draftStore } from "./dom/storage";
import type { Draft } from "./state/types";

let bridge: PageContextBridge;
let unmount: () => void = () => undefined;
let pageId = "";

const q = (sel: string) => (document.querySelector(OVERLAY_HOST_TAG) as HTMLElement).shadowRoot?.querySelector(sel) as HTMLElement;
const draft = (id: string): Draft => ({
  id,
  createdAt: "2026-01-01T00:00:00.000Z",
  target: { kind: "region", nodeIds: [], region: { x: 0, y: 0, width: 20, height: 20 }, regionScroll: { x: 0, y: 0 } },
  instruction: `Do ${id}`,
  criteria: [],
  intent: "fix",
  severity: "suggestion",
  conflictsWith: null,
});

beforeEach(() => {
  pageId = `send-${Math.random().toString(36).slice(2)}`;
  document.body.innerHTML = `<p>page</p>`;
  bridge = installTestKit({ enabled: true, page: { id: pageId } }) as PageContextBridge;
});
afterEach(() => {
  unmount();
  bridge.dispose();
});

describe("sending from the overlay", () => {
  it("sends the batch in visible order and keeps a refused item as a draft with its reason", async () => {
    draftStore("memory", window, pageId).save([draft("f-a"), draft("f-bad"), draft("f-c")]);
    const calls: string[][] = [];
    const real = bridge.submitRepair.bind(bridge);
    const submitRepair = vi.fn(async (input: RepairDraft | readonly RepairDraft[]) => {
      const list = Array.isArray(input) ? input : [input as RepairDraft];
      calls.push(list.map((d) => d.id ?? ""));
      if (list.some((d) => d.id === "f-bad")) throw new TestKitError("invalid_repair", "refused by the queue");
      return real(input);
    });
    unmount = mountReviewOverlay({ enabled: true, bridge: { ...bridge, submitRepair }, locale: "en", repairStorage: "memory" });
    q('[data-focus="down-f-a"]').click(); // visible order: bad, a, c
    q('[data-focus="send-all"]').click();
    await vi.waitFor(() => expect(q('[data-part="drafts"]').querySelectorAll("[data-draft]")).toHaveLength(1));
    expect(calls).toEqual([["f-bad", "f-a", "f-c"], ["f-bad"], ["f-a"], ["f-c"]]);
    expect(bridge.listRepairs().map((r) => r.id)).toEqual(["f-a", "f-c"]);
    expect(q('[data-draft="f-bad"]').textContent).toContain("refused by the queue");
    expect(q('[data-part="announcer"]').textContent).toContain("Findings sent: 2");
    expect(q('[data-part="announcer"]').textContent).toContain("Not sent: 1");
  });

  it("auto-sends saved drafts only after the explicit choice, and forgets it on remount", async () => {
    const user = userEvent.setup();
    draftStore("memory", window, pageId).save([draft("f-one")]);
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en", repairStorage: "memory" });
    // Saving an edited draft without the choice queues nothing.
    await user.click(q('[data-focus="edit-f-one"]'));
    await user.click(q('[data-focus="save"]'));
    expect(bridge.listRepairs()).toEqual([]);
    await user.click(q("#auto-send"));
    await user.click(q('[data-focus="edit-f-one"]'));
    await user.click(q('[data-focus="save"]'));
    await vi.waitFor(() => expect(bridge.listRepairs().map((r) => r.id)).toEqual(["f-one"]));
    unmount();
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en", repairStorage: "memory" });
    expect((q("#auto-send") as HTMLInputElement).checked).toBe(false);
  });
});
