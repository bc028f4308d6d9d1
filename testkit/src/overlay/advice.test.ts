/**
 * Design advice in the panel (jsdom, the real bridge): advice about the current revision is
 * listed apart from drafts with markers on its targets; reading it and opening a draft from it
 * queue nothing; the draft starts at most *important* and is saved only with the reviewer's
 * instruction; advice about another revision is never shown, and a newer revision clears it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installTestKit, OVERLAY_HOST_TAG, type PageContextBridge } from "@a3s-lab/testkit";
import { mountReviewOverlay } from "./index";
import { ADVICE_PROTOCOL } from "../advice/advice";

let bridge: PageContextBridge;
let unmount: () => void = () => undefined;

const root = () => (document.querySelector(OVERLAY_HOST_TAG) as HTMLElement).shadowRoot as ShadowRoot;
const q = (sel: string) => root().querySelector(sel) as HTMLElement;

function adviceFor(nodeId: string, revision: number) {
  return {
    protocol: ADVICE_PROTOCOL,
    revision,
    provider: "auditor",
    model: "m1",
    items: [
      { id: "colour-1", dimension: "colour", priority: "high", target: { kind: "node", nodeId }, title: "Text contrast 2.37:1 is below 4.5:1", rationale: "White on #9aa6bd", recommendation: "Darken the background" },
      { id: "spacing-2", dimension: "spacing", priority: "low", target: { kind: "region", x: 0, y: 0, width: 40, height: 18.76 }, title: "18.76 px gap is off the 4 px grid", rationale: "Not a multiple of 4", recommendation: "Use 20 px" },
    ],
  };
}

beforeEach(() => {
  document.body.innerHTML = `<main><button id="pay">Pay $42.00</button><p>Total</p></main>`;
  bridge = installTestKit({ enabled: true, page: { id: `advice-${Math.random().toString(36).slice(2)}` } }) as PageContextBridge;
});
afterEach(() => {
  unmount();
  bridge.dispose();
});

describe("advice in the overlay", () => {
  it("lists the current revision's advice apart, and opening it queues nothing", async () => {
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en", repairStorage: "memory" });
    const pay = document.getElementById("pay") as Element;
    const nodeId = bridge.nodeIdOf(pay) as string;
    const revision = bridge.probe().revision;
    expect(bridge.showAdvice(adviceFor(nodeId, revision))).toEqual({ shown: true, revision });
    await vi.waitFor(() => expect(q('[data-part="advice"]')).not.toBeNull());
    const items = q('[data-part="advice"]').querySelectorAll("[data-advice]");
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain("Important");
    expect(items[0]?.textContent).not.toContain("Blocking");
    expect(q('[data-marker="advice-colour-1"]')).not.toBeNull();
    (q('[data-advice="colour-1"] summary') as HTMLElement).click();
    q('[data-focus="advice-draft-colour-1"]').click();
    const severity = root().querySelector('input[name="severity"]:checked') as HTMLInputElement;
    expect(severity.value).toBe("important");
    // Reading and opening advice authorizes nothing: nothing is queued or saved.
    expect(bridge.listRepairs()).toEqual([]);
    expect(bridge.peekRepairBatch().repairs).toEqual([]);
    expect(q('[data-part="drafts"]').querySelectorAll("[data-draft]")).toHaveLength(0);
    // Saving without an instruction is refused; with one, it is a draft — still not sent.
    (root().querySelector('[data-focus="save"]') as HTMLElement | null)?.click();
    expect(q('[data-part="drafts"]').querySelectorAll("[data-draft]")).toHaveLength(0);
    const instruction = root().querySelector("#instruction") as HTMLTextAreaElement;
    instruction.value = "Make the pay button readable while disabled";
    instruction.dispatchEvent(new Event("input", { bubbles: true }));
    (root().querySelector('[data-focus="save"]') as HTMLElement).click();
    await vi.waitFor(() => expect(q('[data-part="drafts"]').querySelectorAll("[data-draft]")).toHaveLength(1));
    expect(bridge.listRepairs()).toEqual([]);
  });

  it("never shows advice about another revision, and a newer revision clears it", async () => {
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en", repairStorage: "memory" });
    const nodeId = bridge.nodeIdOf(document.getElementById("pay") as Element) as string;
    const revision = bridge.probe().revision;
    expect(bridge.showAdvice(adviceFor(nodeId, revision + 5)).shown).toBe(false);
    expect(q('[data-part="advice"]')).toBeNull();
    expect(bridge.showAdvice(adviceFor(nodeId, revision)).shown).toBe(true);
    await vi.waitFor(() => expect(q('[data-part="advice"]')).not.toBeNull());
    document.querySelector("p")!.textContent = "Total: $42.00";
    await vi.waitFor(() => expect(bridge.probe().revision).toBeGreaterThan(revision));
    await vi.waitFor(() => expect(q('[data-part="advice"]')).toBeNull());
    expect(root().querySelector('[data-marker^="advice-"]')).toBeNull();
    expect(bridge.listAdvice()).toBeNull();
  });

  it("refuses advice that carries a verdict or an action", () => {
    const nodeId = bridge.nodeIdOf(document.getElementById("pay") as Element) as string;
    const bad = adviceFor(nodeId, bridge.probe().revision);
    expect(() => bridge.showAdvice({ ...bad, verdict: "failed" })).toThrow(/unknown field/);
    expect(() => bridge.showAdvice({ ...bad, items: [{ ...bad.items[0], action: "click" }] })).toThrow(/unknown field/);
    expect(bridge.listAdvice()).toBeNull();
  });
});
