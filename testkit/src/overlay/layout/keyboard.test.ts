/**
 * Keyboard-only operation of the Layout Mode editor, with user-event key sequences (jsdom). The
 * editor is mounted in the light DOM here because user-event's tab order does not enter shadow
 * roots; `browser/layout.test.ts` drives the same keys inside a real shadow root in Chromium.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import userEvent from "@testing-library/user-event";
import { translator, type StringKey } from "../i18n";
import { mountLayoutEditor, type LayoutTarget } from "./editor";

beforeAll(() => {
  // jsdom has no CSS.escape, which user-event's arrow-key walk through a radio group calls.
  const g = globalThis as { CSS?: { escape?: (s: string) => string } };
  if (g.CSS?.escape === undefined) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) };
});

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function mount(locale: "en" | "zh-CN") {
  const container = document.createElement("div");
  document.body.append(container);
  const changes: Array<LayoutTarget | null> = [];
  const t = translator(locale);
  const editor = mountLayoutEditor(container, {
    locale,
    strings: (key) => t(key as StringKey),
    onChange: (l) => changes.push(l),
    announce: () => undefined,
    pickRegion: async () => ({ x: 16, y: 32, width: 240, height: 64 }),
    pickNode: async () => ({ nodeId: "n3", region: { x: 0, y: 0, width: 100, height: 40 } }),
  });
  cleanup = () => {
    editor.destroy();
    container.remove();
  };
  const focused = (): Element | null => document.activeElement;
  const label = (el: Element | null): string => {
    if (el === null) return "none";
    const byFor = el.id === "" ? null : container.querySelector(`label[for="${el.id}"]`);
    return (byFor ?? el.closest("label") ?? el).textContent?.trim() ?? "";
  };
  return { root: container, changes, focused, label };
}

// A bound, not a timing check: the machine is shared and jsdom key sequences are slow on it.
describe("Layout Mode by keyboard", { timeout: 30_000 }, () => {
  it("walks the placement form with Tab and Shift+Tab and builds the target", async () => {
    const user = userEvent.setup({ document, delay: null });
    const h = mount("zh-CN");
    const first = h.root.querySelector<HTMLInputElement>("input[type=radio]:checked");
    first?.focus();
    expect(h.label(h.focused())).toBe("放置新组件");
    await user.tab();
    expect(h.focused()?.getAttribute("role")).toBe("combobox");
    await user.keyboard("按钮");
    await user.keyboard("{ArrowDown}{Enter}");
    expect((h.focused() as HTMLInputElement).value).toBe("按钮");
    await user.tab();
    expect(h.label(h.focused())).toBe("放在页面上");
    await user.tab();
    expect(h.label(h.focused())).toBe("页面目的（可选）");
    await user.keyboard("结算");
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    expect(h.focused()?.getAttribute("role")).toBe("combobox");
    await user.tab();
    await user.tab();
    await user.tab();
    expect(h.label(h.focused())).toBe("选择目的区域");
    await user.keyboard("{Enter}");
    await expect.poll(() => h.changes.at(-1)).toEqual({ mode: "placement", componentType: "button", componentSource: "catalog", canvas: "page", purpose: "结算", destination: { x: 16, y: 32, width: 240, height: 64 } });
    expect(h.label(h.focused())).toBe("选择目的区域");
  });

  it("switches to rearrange with the arrow keys and skips the hidden placement fields", async () => {
    const user = userEvent.setup({ document, delay: null });
    const h = mount("en");
    h.root.querySelector<HTMLInputElement>("input[type=radio]:checked")?.focus();
    await user.keyboard("{ArrowDown}");
    expect(h.label(h.focused())).toBe("Move something already on the page");
    await user.tab();
    expect(h.label(h.focused())).toBe("Pick the element to move");
    await user.keyboard("{Enter}");
    await user.tab();
    expect(h.label(h.focused())).toBe("Pick destination region");
    await user.keyboard(" ");
    await expect.poll(() => h.changes.at(-1)).toEqual({ mode: "rearrange", originalRegion: { x: 0, y: 0, width: 100, height: 40 }, nodeId: "n3", destination: { x: 16, y: 32, width: 240, height: 64 } });
  });
});
