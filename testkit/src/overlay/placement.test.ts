/**
 * The panel placement through a mounted overlay (jsdom, the real bridge): the stored choice is
 * read back per origin, values a page or an older version left there are ignored, K and C change
 * it and write it back, and marking opens the editor in the popover while the panel collapses.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import userEvent from "@testing-library/user-event";
import { installTestKit, OVERLAY_HOST_TAG, type PageContextBridge } from "@a3s-lab/testkit";
import { mountReviewOverlay } from "./index";
import { PANEL_KEY } from "./dom/storage";

let bridge: PageContextBridge;
let unmount: () => void = () => undefined;

const q = (sel: string) => ((document.querySelector(OVERLAY_HOST_TAG) as HTMLElement).shadowRoot as ShadowRoot).querySelector(sel) as HTMLElement | null;
const mount = () => (unmount = mountReviewOverlay({ enabled: true, bridge, locale: "en", repairStorage: "memory" }));

beforeEach(() => {
  localStorage.clear();
  document.body.innerHTML = `<button id="pay">Pay</button>`;
  bridge = installTestKit({ enabled: true, page: { id: `placement-${Math.random()}` } }) as PageContextBridge;
});
afterEach(() => {
  unmount();
  bridge.dispose();
  localStorage.clear();
});

describe("panel placement", () => {
  it("reads the stored choice and ignores bad stored values", () => {
    for (const [stored, dock, compact] of [
      [JSON.stringify({ dock: "left", collapsed: true }), "left", true],
      ["{not json", "right", false],
      [JSON.stringify({ dock: "top", collapsed: "no" }), "right", false],
      [JSON.stringify(["bottom"]), "right", false],
      [JSON.stringify({ dock: "bottom" }), "bottom", false],
    ] as const) {
      localStorage.setItem(PANEL_KEY, stored);
      mount();
      expect(q('[data-part="panel"]')?.dataset.dock, stored).toBe(dock);
      expect(q('[data-part="strip"]') !== null, stored).toBe(compact);
      unmount();
    }
  });

  it("K docks to the next side and C collapses; both are written back", async () => {
    const user = userEvent.setup();
    mount();
    await user.keyboard("k");
    expect(q('[data-part="panel"]')?.dataset.dock).toBe("bottom");
    await user.keyboard("c");
    expect(q('[data-part="strip"]')).not.toBeNull();
    expect(JSON.parse(localStorage.getItem(PANEL_KEY) ?? "null")).toEqual({ dock: "bottom", collapsed: true });
    expect(q('[data-focus="dock-left"]')).toBeNull(); // the collapsed strip has no dock buttons
    await user.click(q('[data-focus="collapse"]') as HTMLElement);
    await user.click(q('[data-focus="dock-left"]') as HTMLElement);
    expect(JSON.parse(localStorage.getItem(PANEL_KEY) ?? "null")).toEqual({ dock: "left", collapsed: false });
  });

  it("collapses while marking, opens the editor as a popover and expands again when it closes", async () => {
    const user = userEvent.setup();
    mount();
    (document.getElementById("pay") as HTMLElement).focus();
    await user.keyboard("e");
    expect(q('[data-part="strip"]')).not.toBeNull();
    await user.keyboard("{Enter}");
    expect(q('[data-part="popover"] [data-part="editor"]')).not.toBeNull();
    expect(q('[data-part="popover"]')?.hidden).toBe(false);
    expect(q('[data-part="strip"]')).not.toBeNull();
    await user.keyboard("{Escape}");
    expect(q('[data-part="popover"]')?.hidden).toBe(true);
    expect(q('[data-part="strip"]')).toBeNull();
    expect(document.activeElement?.id).toBe("pay");
  });
});
