/**
 * Mounting and the keyboard in jsdom with user-event: the mount conditions, the shadow-root
 * host, shortcut keys, letters kept by fields, Escape order with focus return, Tab reaching
 * every panel control, and draft saving that never queues.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import userEvent from "@testing-library/user-event";
import { installTestKit, OVERLAY_HOST_TAG, type PageContextBridge } from "@a3s-lab/testkit";
import { mountReviewOverlay } from "./index";

let bridge: PageContextBridge;
let unmount: () => void = () => undefined;

const shadow = () => (document.querySelector(OVERLAY_HOST_TAG) as HTMLElement).shadowRoot as ShadowRoot;
const q = (sel: string) => shadow().querySelector(sel) as HTMLElement;
const pressed = (focus: string) => q(`[data-focus="${focus}"]`).getAttribute("aria-pressed");

beforeEach(() => {
  document.body.innerHTML = `<button id="before">Before</button><input id="field" aria-label="Field"><p id="para">Some text</p>`;
  bridge = installTestKit({ enabled: true, page: { id: `mount-${Math.random()}` } }) as PageContextBridge;
});
afterEach(() => {
  unmount();
  bridge.dispose();
  vi.restoreAllMocks();
});

describe("mountReviewOverlay", () => {
  it("mounts nothing unless enabled is exactly true and the bridge is live", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    mountReviewOverlay({ enabled: "true" as unknown as boolean, bridge })();
    mountReviewOverlay({ bridge })();
    expect(document.querySelector(OVERLAY_HOST_TAG)).toBeNull();
    const disposed = { probe: () => ({ disposed: true }) } as unknown as PageContextBridge;
    const foreign = { probe: () => ({ disposed: false }), handshake: () => ({ ...bridge.handshake(), packageName: "other-kit" }) } as unknown as PageContextBridge;
    const noQueue = { probe: () => ({ disposed: false }), handshake: () => ({ ...bridge.handshake(), capabilities: ["snapshot.summary"] }) } as unknown as PageContextBridge;
    for (const b of [disposed, foreign, noQueue]) mountReviewOverlay({ enabled: true, bridge: b })();
    expect(document.querySelector(OVERLAY_HOST_TAG)).toBeNull();
    expect(warn.mock.calls.map(([m]) => String(m)).join("\n")).toMatch(/disposed[\s\S]*another protocol[\s\S]*no repair queue/);
    expect(warn.mock.calls.some(([m]) => String(m).startsWith("@a3s-lab/testkit: the Review Overlay was not mounted"))).toBe(true);
  });

  it("mounts once, in an open shadow root, and unmounts cleanly", () => {
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en" });
    const host = document.querySelector(OVERLAY_HOST_TAG);
    expect(host?.shadowRoot?.mode).toBe("open");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    mountReviewOverlay({ enabled: true, bridge })();
    expect(document.querySelectorAll(OVERLAY_HOST_TAG)).toHaveLength(1);
    expect(warn).toHaveBeenCalled();
    unmount();
    expect(document.querySelector(OVERLAY_HOST_TAG)).toBeNull();
  });

  it("takes mode letters outside fields, leaves them to fields, and orders Escape", async () => {
    const user = userEvent.setup();
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en" });
    (document.getElementById("before") as HTMLElement).focus();
    await user.keyboard("e");
    expect(pressed("mode-element")).toBe("true");
    await user.keyboard("a");
    expect(pressed("mode-area")).toBe("true");
    expect(pressed("mode-element")).toBe("false");
    await user.click(document.getElementById("field") as HTMLElement);
    await user.keyboard("temp");
    expect((document.getElementById("field") as HTMLInputElement).value).toBe("temp");
    expect(pressed("mode-area")).toBe("true");
    expect(pressed("mode-text")).toBe("false");
    // Escape: first the marking mode…
    await user.keyboard("{Escape}");
    expect(pressed("mode-area")).toBe("false");
    expect(q('[data-part="panel"]').hidden).toBe(false);
    // …an idle panel closes only from inside it, and focus goes back to the page.
    await user.keyboard("{Escape}");
    expect(q('[data-part="panel"]').hidden).toBe(false);
    q('[data-focus="mode-text"]').focus();
    await user.keyboard("{Escape}");
    expect(q('[data-part="panel"]').hidden).toBe(true);
    expect(q('[data-part="launcher"]').hidden).toBe(false);
    // Closed: letters are the page's again.
    (document.getElementById("before") as HTMLElement).focus();
    await user.keyboard("e");
    expect(q('[data-part="launcher"]').hidden).toBe(false);
  });

  it("shows the hint of the mode and toggles tools from their buttons", async () => {
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en" });
    q('[data-focus="mode-multi"]').click();
    expect(q('[data-part="hint"]').textContent).toContain("Shift+Enter");
    expect(q('[data-part="multi"]').textContent).toContain("Selected: 0");
    q('[data-focus="markers"]').click();
    expect(q('[data-part="markers"]').hidden).toBe(true);
    expect(q('[data-part="announcer"]').textContent).toContain("Markers hidden");
  });

  it("shows zh-CN strings and follows auto", () => {
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "zh-CN" });
    expect(q('[data-focus="mode-element"]').textContent).toContain("元素");
    unmount();
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["zh-CN"]);
    unmount = mountReviewOverlay({ enabled: true, bridge, locale: "auto" });
    expect(q('[data-focus="mode-drawing"]').textContent).toContain("手绘");
  });
});
