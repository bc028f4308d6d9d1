/**
 * Candidates from the latest run in the panel (jsdom, the real bridge, the feed answered by a
 * stand-in `fetch`): listed apart and labelled as the run's, with a marker on the element the
 * failing step named; reading and opening one queues nothing; it becomes a draft only with the
 * reviewer's instruction; an unreadable feed is said, not hidden.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installTestKit, OVERLAY_HOST_TAG, type PageContextBridge } from "@a3s-lab/testkit";
import { mountReviewOverlay } from "./index";
import { sampleFeed } from "./candidates/sample.testing";

let bridge: PageContextBridge;
let unmount: () => void = () => undefined;
const realFetch = window.fetch;

const root = () => (document.querySelector(OVERLAY_HOST_TAG) as HTMLElement).shadowRoot as ShadowRoot;
const q = (sel: string) => root().querySelector(sel) as HTMLElement;

function answer(status: number, body: unknown): string[] {
  const asked: string[] = [];
  window.fetch = (async (url: string) => {
    asked.push(url);
    return new Response(JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
  return asked;
}

beforeEach(() => {
  document.body.innerHTML = `<main><button id="pay">Pay $42.00</button><button>Cancel</button></main>`;
  bridge = installTestKit({ enabled: true, page: { id: `candidates-${Math.random().toString(36).slice(2)}` } }) as PageContextBridge;
});
afterEach(() => {
  unmount();
  bridge.dispose();
  window.fetch = realFetch;
});

describe("candidates in the overlay", () => {
  it("lists the run's failure on this page with a marker on its element, and reading it queues nothing", async () => {
    const asked = answer(200, sampleFeed());
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en", repairStorage: "memory", candidates: "/__a3s-test/repairs/candidates" });
    await vi.waitFor(() => expect(q('[data-part="candidates"]')).not.toBeNull());
    expect(new URL(asked[0] as string).pathname).toBe("/__a3s-test/repairs/candidates");
    const list = q('[data-part="candidates"]');
    expect(list.querySelector("h3")?.textContent).toBe("Candidates from the latest run (1)");
    expect(list.textContent).toContain("20260101T120000Z-3fa9c2");
    const item = list.querySelector('[data-candidate="shop/pay"]') as HTMLElement;
    expect(item.textContent).toContain("Failed · test.assert.rendered_text_mismatch");
    expect(item.textContent).not.toContain("not on this page");
    // The marker is on the pay button, the one element role("button", "Pay") names.
    const marker = q('[data-marker="candidate-shop/pay"]');
    expect(marker).not.toBeNull();
    expect(marker.textContent).toBe("R1");
    (item.querySelector("summary") as HTMLElement).click();
    q('[data-focus="candidate-draft-shop/pay"]').click();
    expect(root().querySelector("#instruction")).not.toBeNull();
    expect(root().textContent).toContain("Pay $42.00");
    // Reading and opening authorize nothing.
    expect(bridge.listRepairs()).toEqual([]);
    expect(bridge.peekRepairBatch().repairs).toEqual([]);
    expect(q('[data-part="drafts"]').querySelectorAll("[data-draft]")).toHaveLength(0);
    const instruction = root().querySelector("#instruction") as HTMLTextAreaElement;
    instruction.value = "The pay button should confirm payment";
    instruction.dispatchEvent(new Event("input", { bubbles: true }));
    (root().querySelector('[data-focus="save"]') as HTMLElement).click();
    await vi.waitFor(() => expect(q('[data-part="drafts"]').querySelectorAll("[data-draft]")).toHaveLength(1));
    expect(bridge.listRepairs()).toEqual([]);
  });

  it("puts no marker when the element is gone or ambiguous, and says when the feed cannot be read", async () => {
    const feed = sampleFeed();
    const first = feed.candidates[0] as (typeof feed.candidates)[number];
    feed.candidates = [
      { ...first, locator: { kind: "role", role: "button", name: "Refund", mode: "contains" } },
      { ...first, id: "shop/any", locator: { kind: "role", role: "button", mode: "contains" } as never },
    ];
    answer(200, feed);
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "zh-CN", repairStorage: "memory", candidates: "/c" });
    await vi.waitFor(() => expect(q('[data-part="candidates"]')).not.toBeNull());
    expect(q('[data-part="candidates"] h3').textContent).toBe("最近一次运行的候选问题 (2)");
    expect(q('[data-candidate="shop/pay"]').textContent).toContain("其元素当前不在本页");
    expect(root().querySelector('[data-marker^="candidate-"]')).toBeNull();
    unmount();
    answer(500, { error: { code: "test.session.repair_endpoint_candidates_unreadable", message: "x" } });
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en", repairStorage: "memory", candidates: "/c" });
    await vi.waitFor(() => expect(q('[data-part="candidates-error"]')).not.toBeNull());
    expect(q('[data-part="candidates-error"]').textContent).toContain("test.session.repair_endpoint_candidates_unreadable");
    expect(q('[data-part="candidates"]')).toBeNull();
  });

  it("shows no list without a candidates URL", async () => {
    const asked = answer(200, sampleFeed());
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en", repairStorage: "memory" });
    await vi.waitFor(() => expect(q('[data-part="drafts"]')).not.toBeNull());
    expect(q('[data-part="candidates"]')).toBeNull();
    expect(asked).toEqual([]);
  });
});
