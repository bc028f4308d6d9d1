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
  it("keeps box sizing, writing mode and direction apart from the edges", () => {
    document.body.innerHTML = `<div dir="rtl" style="box-sizing:border-box;writing-mode:vertical-rl;direction:rtl;padding:3px">Box</div>`;
    const fake = fakePlatform(window);
    fake.layout.inaccessibleStyleSheets = 2;
    bridge = installTestKit({ enabled: true, page: { id: "ui" }, platform: fake.platform });
    const ui = bridge?.snapshot({ ui: true }).ui;
    const box = ui?.layout.nodes.find((n) => n.boxSizing === "border-box");
    expect(box).toMatchObject({ writingMode: "vertical-rl", direction: "rtl", padding: { top: 3, right: 3, bottom: 3, left: 3 } });
    // Cross-origin sheets are only counted.
    expect(ui?.evidence.inaccessibleStyleSheets).toBe(2);
  });
  it("clusters repeated items by structure, never by class names", () => {
    // Alike in tag and children: one cluster, whatever their classes. Alike in class only: none.
    document.body.innerHTML = `<ul>
      <li class="card"><b>A</b></li><li class="card card--sale"><b>B</b></li><li class="other"><b>C</b></li>
    </ul><div><p class="same">x</p><span class="same">y</span></div>`;
    bridge = installTestKit({ enabled: true, page: { id: "ui" }, platform: fakePlatform(window).platform });
    const r = bridge?.snapshot({ ui: true, detail: "scoped" });
    const items = (r?.nodes ?? []).filter((n) => n.tag === "li").map((n) => n.id);
    expect(items).toHaveLength(3);
    const clusters = r?.ui?.components ?? [];
    expect(clusters.find((c) => items.every((id) => c.nodeIds.includes(id)))?.signature).toBe("li(b)");
    for (const c of clusters) expect(c.signature).not.toMatch(/card|same|other/);
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
  it("reports overlapping and clipped boxes and the animations moving record nodes", () => {
    document.body.innerHTML = `<div id="card" style="overflow-x:hidden;overflow-y:hidden"><button id="pay">Pay</button></div>
      <button id="save">Save</button><div id="toast">Saved</div><p id="far">Far</p>`;
    const fake = fakePlatform(window);
    const el = (id: string) => document.getElementById(id) as Element;
    fake.layout.rects.set(el("card"), { x: 0, y: 0, width: 100, height: 50 });
    fake.layout.rects.set(el("pay"), { x: 50, y: 10, width: 100, height: 20 });
    fake.layout.rects.set(el("save"), { x: 0, y: 100, width: 80, height: 30 });
    fake.layout.rects.set(el("toast"), { x: 40, y: 110, width: 200, height: 40 });
    fake.layout.rects.set(el("far"), { x: 500, y: 500, width: 10, height: 10 });
    // The toast is drawn over the button.
    fake.layout.hit = (x, y) => (x >= 40 && y >= 110 ? el("toast") : null);
    fake.layout.animations = [
      { target: el("toast"), kind: "animation", name: "slide-in", state: "running" },
      { target: null, kind: "script", name: "", state: "running" },
    ];
    bridge = installTestKit({ enabled: true, page: { id: "ui" }, platform: fake.platform });
    const r = bridge?.snapshot({ ui: true, detail: "scoped" });
    const idOf = (id: string) => r?.nodes.find((n) => n.tag === el(id).localName && n.name === el(id).textContent)?.id;
    const ui = r?.ui;
    const pay = (r?.nodes ?? []).find((n) => n.name === "Pay")?.id;
    const card = (r?.nodes ?? []).find((n) => n.tag === "div" && n.id !== idOf("toast"))?.id;
    expect(ui?.clips).toEqual([{ nodeId: pay, by: card, visibleRatio: 0.5 }]);
    const save = (r?.nodes ?? []).find((n) => n.name === "Save")?.id;
    const toast = (r?.nodes ?? []).find((n) => n.tag === "div" && n.id !== card)?.id;
    expect(ui?.overlaps).toEqual([{ a: save, b: toast, area: { x: 40, y: 110, width: 40, height: 20 }, above: toast }]);
    expect(ui?.motion.animations).toEqual([{ nodeId: toast, kind: "animation", name: "slide-in", state: "running" }]);
    expect(ui?.motion.runningAnimations).toBe(2);
    // Every id the relations name is a node of this response.
    const ids = new Set(r?.nodes.map((n) => n.id));
    for (const o of ui?.overlaps ?? []) for (const id of [o.a, o.b, o.above]) expect(ids.has(id as string)).toBe(true);
  });
  it("stops the overlap search at its pair bound and says so", () => {
    document.body.innerHTML = Array.from({ length: 8 }, (_, i) => `<p id="p${i}">P${i}</p>`).join("");
    const fake = fakePlatform(window);
    // Every paragraph at the same place: at least 4 paragraphs in a 5-node record make 6 or more
    // overlapping pairs; 5 are reported.
    bridge = installTestKit({ enabled: true, page: { id: "ui" }, platform: fake.platform });
    const ui = bridge?.snapshot({ ui: true, limits: { uiNodes: 5 } }).ui;
    expect(ui?.overlaps).toHaveLength(5);
    expect(ui?.budget.reasons).toEqual(["node_limit", "overlap_limit"]);
    expect(ui?.budget.truncated).toBe(true);
  });
});
