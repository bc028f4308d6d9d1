import { afterEach, describe, expect, it } from "vitest";
import { installTestKit } from "../bridge/install";
import { fakePlatform } from "../testing/fakePlatform";
import type { PageContextBridge } from "../bridge/bridge";

let bridge: PageContextBridge | null = null;
afterEach(() => bridge?.dispose());

describe("UI understanding", () => {
  it("builds an intact layout graph within the response's node ids", () => {
    document.body.innerHTML = `<ul style="display:flex;gap:4px;padding:8px">${Array.from({ length: 6 }, (_, i) => `<li class="item" style="margin:2px">Item ${i}</li>`).join("")}</ul>`;
    const fake = fakePlatform(window);
    bridge = installTestKit({ enabled: true, page: { id: "ui" }, platform: fake.platform });
    const r = bridge?.snapshot({ ui: true });
    const ui = r?.ui;
    expect(ui?.protocol).toBe("a3s.test.ui-understanding/1");
    expect(ui?.pageRevision).toBe(r?.revision);
    const ids = new Set(r?.nodes.map((n) => n.id));
    for (const n of ui?.layout.nodes ?? []) expect(ids.has(n.nodeId)).toBe(true);
    for (const e of ui?.layout.edges ?? []) {
      expect(ids.has(e.from)).toBe(true);
      expect(ids.has(e.to)).toBe(true);
    }
    expect(ui?.layout.nodes[0]?.flex).toMatchObject({ direction: "row" });
    expect(ui?.layout.edges.filter((e) => e.kind === "contains")).toHaveLength(6);
    expect(ui?.components[0]?.nodeIds).toHaveLength(6);
    expect(ui?.style.spacing.some((t) => t.value === "2px")).toBe(true);
  });
  it("respects its own node budget and reports the cut", () => {
    document.body.innerHTML = Array.from({ length: 10 }, (_, i) => `<p>P${i}</p>`).join("");
    bridge = installTestKit({ enabled: true, page: { id: "ui" }, platform: fakePlatform(window).platform });
    const ui = bridge?.snapshot({ ui: true, limits: { uiNodes: 3 } }).ui;
    expect(ui?.layout.nodes).toHaveLength(3);
    expect(ui?.budget).toMatchObject({ truncated: true, reasons: ["node_limit"], used: { nodes: 3 } });
    expect(bridge?.snapshot({ ui: true, limits: { uiNodes: 0 } }).ui).toBeUndefined();
  });
  it("is omitted when disabled at install", () => {
    document.body.innerHTML = `<p>x</p>`;
    bridge = installTestKit({ enabled: true, page: { id: "ui" }, uiUnderstanding: false });
    expect(bridge?.snapshot({ ui: true }).ui).toBeUndefined();
    expect(bridge?.handshake().capabilities).not.toContain("ui-understanding");
  });
});
