import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getPageContextBridge, installTestKit } from "./install";
import type { PageContextBridge } from "./bridge";
import { fakePlatform, type FakeLayout } from "../testing/fakePlatform";
import { BRIDGE_SYMBOL } from "../version";
import type { NodeRecord, SnapshotResponse } from "../protocol";

const SECRET = "hunter2-very-secret-password";

let bridge: PageContextBridge;
let layout: FakeLayout;

function byTestId(r: SnapshotResponse, testId: string): NodeRecord {
  const n = r.nodes.find((x) => x.testId === testId);
  if (n === undefined) throw new Error(`no node with test id ${testId}`);
  return n;
}

beforeEach(() => {
  document.body.innerHTML = `
    <main>
      <h1>Orders</h1>
      <form>
        <label for="user">User name</label><input id="user" data-testid="user" placeholder="you@example.com">
        <label for="pw">Password</label><input id="pw" type="password" data-testid="pw">
        <button type="submit" data-testid="save">Save</button>
      </form>
      <ul data-testid="list"><li>One</li><li>Two</li></ul>
      <div class="private" data-testid="private"><span>Card 4111 1111 1111 1111</span></div>
      <script>var x = 1</script><style>.a{}</style><template><p>tpl</p></template>
      <div style="display:none" data-testid="hidden"><button>Ghost</button></div>
    </main>`;
  const fake = fakePlatform(window);
  layout = fake.layout;
  const b = installTestKit({ enabled: true, page: { id: "orders" }, redact: [".private"], platform: fake.platform, facts: () => ({ user: "ada", apiToken: "x" }) });
  if (b === null) throw new Error("not installed");
  bridge = b;
});

afterEach(() => {
  bridge.dispose();
  history.replaceState(null, "", "/");
});

describe("install", () => {
  it("installs a non-enumerable bridge under the global symbol and only when enabled === true", () => {
    expect(getPageContextBridge()).toBe(bridge);
    expect(Object.keys(window)).not.toContain(String(BRIDGE_SYMBOL));
    expect(Object.getOwnPropertyDescriptor(window, BRIDGE_SYMBOL)?.enumerable).toBe(false);
    bridge.dispose();
    expect(getPageContextBridge()).toBeNull();
    expect(installTestKit({ enabled: "true" as unknown as boolean, page: { id: "x" } })).toBeNull();
    expect(installTestKit({ enabled: false, page: { id: "x" } })).toBeNull();
    expect(getPageContextBridge()).toBeNull();
  });

  it("rejects bad options", () => {
    bridge.dispose();
    expect(() => installTestKit({ enabled: true, page: { id: "" } })).toThrow(/page.id/);
    expect(() => installTestKit({ enabled: true, page: { id: "p" }, limits: { nodes: 6000 } })).toThrow(/invalid_limits/);
    expect(() => installTestKit({ enabled: true, page: { id: "p" }, repairEndpoint: "https://elsewhere.example/x" })).toThrow(/same-origin/);
    expect(getPageContextBridge()).toBeNull();
  });

  it("handshakes with the documented names", () => {
    const h = bridge.handshake();
    expect(h.protocol).toBe("a3s.test.testkit-handshake/1");
    expect(h.packageName).toBe("@a3s-lab/testkit");
    expect(h.pageContextProtocol).toBe("a3s.test.page-context/1");
    expect(h.capabilities).toContain("snapshot.diff");
    expect(h.limits.max.nodes).toBe(5000);
    // A3S Test reads the page's private regions here.
    expect(h.redact).toEqual([".private"]);
    expect(bridge.probe()).toMatchObject({ revision: 1, pageId: "orders", disposed: false });
  });

  it("never writes attributes into the DOM", () => {
    const before = document.body.innerHTML;
    bridge.snapshot({ detail: "forensic" });
    expect(document.body.innerHTML).toBe(before);
  });
});

describe("snapshot", () => {
  it("returns the documented shape", () => {
    const r = bridge.snapshot();
    expect(r.protocol).toBe("a3s.test.page-context/1");
    expect(r.revision).toBe(1);
    expect(r.page).toMatchObject({ id: "orders", route: "/", viewport: { width: 1000, height: 800, dpr: 2 } });
    expect(r.truncated).toBe(false);
    expect(r.nextCursor).toBeNull();
    expect(r.facts).toEqual({ user: "ada" });
    const save = byTestId(r, "save");
    expect(save).toMatchObject({ tag: "button", role: "button", name: "Save" });
    expect(save.locators.map((l) => l.kind)).toEqual(["role", "testId", "text", "css"]);
    expect(save.geometry?.viewport).toEqual({ x: 0, y: 0, width: 100, height: 20 });
    const user = byTestId(r, "user");
    expect(user.locators.map((l) => l.kind)).toEqual(["role", "label", "testId", "placeholder", "css"]);
    expect(r.nodes.some((n) => n.tag === "script" || n.tag === "style" || n.tag === "template")).toBe(false);
    expect(r.nodes.some((n) => n.testId === "hidden")).toBe(false);
    const ids = r.nodes.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const n of r.nodes) if (n.parentId !== undefined) expect(ids).toContain(n.parentId);
  });

  it("scoped detail keeps hidden elements as invisible; forensic adds safe attributes", () => {
    const scoped = bridge.snapshot({ detail: "scoped" });
    expect(byTestId(scoped, "hidden").state.visible).toBe(false);
    const forensic = bridge.snapshot({ detail: "forensic" });
    const user = byTestId(forensic, "user");
    expect(user.attributes).toMatchObject({ id: "user", placeholder: "you@example.com" });
    expect(user.styles?.display).toBeDefined();
  });

  it("redacts regions and never serializes a password value", () => {
    const pw = document.getElementById("pw") as HTMLInputElement;
    pw.value = SECRET;
    pw.setAttribute("value", SECRET);
    const user = document.getElementById("user") as HTMLInputElement;
    user.value = "ada@example.com";
    const outputs = [
      bridge.snapshot(),
      bridge.snapshot({ detail: "forensic", ui: true }),
      bridge.snapshot({ detail: "scoped" }),
    ];
    for (const o of outputs) {
      const json = JSON.stringify(o);
      expect(json).not.toContain(SECRET);
      expect(json).not.toContain("4111");
      expect(json).not.toContain("apiToken");
    }
    const r = outputs[0] as SnapshotResponse;
    expect(byTestId(r, "pw").state).toMatchObject({ valueRedacted: true });
    expect(byTestId(r, "pw").state.value).toBeUndefined();
    expect(byTestId(r, "user").state.value).toBe("ada@example.com");
    const priv = byTestId(r, "private");
    expect(priv).toMatchObject({ redacted: true, text: "[redacted]" });
    expect(r.nodes.some((n) => n.parentId === priv.id)).toBe(false);
  });

  it("lowers limits per request but never raises them", () => {
    const r = bridge.snapshot({ limits: { nodes: 3 } });
    expect(r.nodes).toHaveLength(3);
    expect(r.truncated).toBe(true);
    expect(r.nextCursor).not.toBeNull();
    expect(bridge.snapshot({ limits: { nodes: 4000 } }).limits.nodes).toBe(500);
    expect(() => bridge.snapshot({ limits: { nodes: 5001 } })).toThrow(/invalid_limits/);
    expect(() => bridge.snapshot({ limits: { nodes: 1.5 } })).toThrow(/invalid_limits/);
  });

  it("pages with revision-bound cursors and rejects stale or foreign ones", async () => {
    const first = bridge.snapshot({ limits: { nodes: 4 } });
    const all = bridge.snapshot();
    const second = bridge.snapshot({ limits: { nodes: 4 }, cursor: first.nextCursor as string });
    expect([...first.nodes, ...second.nodes].map((n) => n.id)).toEqual(all.nodes.slice(0, 8).map((n) => n.id));
    expect(() => bridge.snapshot({ limits: { nodes: 5 }, cursor: first.nextCursor as string })).toThrow(/cursor_mismatch/);
    expect(() => bridge.snapshot({ cursor: "garbage" })).toThrow(/invalid_cursor/);
    document.querySelector("h1")?.append("!");
    await bridge.waitForChange(first.revision, 1000);
    expect(() => bridge.snapshot({ limits: { nodes: 4 }, cursor: first.nextCursor as string })).toThrow(/cursor_stale/);
  });

  it("fits the byte budget by dropping ui first, then trailing nodes", () => {
    const big = bridge.snapshot({ ui: true });
    expect(big.ui).toBeDefined();
    const budget = JSON.stringify({ ...big, ui: undefined }).length - 400;
    const fitted = bridge.snapshot({ ui: true, limits: { responseBytes: Math.max(4096, budget) } });
    expect(fitted.ui).toBeUndefined();
    expect(fitted.truncatedReasons).toContain("ui");
    expect(new TextEncoder().encode(JSON.stringify(fitted)).length).toBeLessThanOrEqual(fitted.limits.responseBytes);
  });

  it("includes UI evidence unless a request says ui: false, and never when not installed", () => {
    expect(bridge.snapshot().ui).toBeDefined();
    expect(bridge.snapshot({ ui: false }).ui).toBeUndefined();
    bridge.dispose();
    const plain = installTestKit({ enabled: true, page: { id: "orders" }, platform: fakePlatform(window).platform, uiUnderstanding: false });
    if (plain === null) throw new Error("not installed");
    bridge = plain; // disposed by afterEach
    expect(plain.snapshot().ui).toBeUndefined();
    expect(plain.snapshot({ ui: true }).ui).toBeUndefined();
  });

  it("computes the encoded size exactly", () => {
    const full = bridge.snapshot({ ui: false });
    const bytes = (r: SnapshotResponse) => new TextEncoder().encode(JSON.stringify(r)).length;
    // Find X with size(response whose limits.responseBytes = X) === X (same digit count).
    const exact = bytes({ ...full, limits: { ...full.limits, responseBytes: 5_000 } });
    expect(String(exact)).toHaveLength(4);
    const fits = bridge.snapshot({ ui: false, limits: { responseBytes: exact } });
    expect(fits.truncated).toBe(false);
    expect(bytes(fits)).toBe(exact);
    const cut = bridge.snapshot({ ui: false, limits: { responseBytes: exact - 1 } });
    expect(cut.truncated).toBe(true);
    expect(bytes(cut)).toBeLessThanOrEqual(exact - 1);
  });

  it("scopes to a node, a component and a region", () => {
    const all = bridge.snapshot();
    const list = byTestId(all, "list");
    const scoped = bridge.snapshot({ scope: { kind: "node", nodeId: list.id } });
    expect(scoped.nodes.map((n) => n.tag)).toEqual(["ul", "li", "li"]);
    expect(() => bridge.snapshot({ scope: { kind: "node", nodeId: "n999999" } })).toThrow(/unknown_node/);
    expect(() => bridge.snapshot({ scope: { kind: "component", componentId: "nope" } })).toThrow(/unknown_component/);
    const save = document.querySelector('[data-testid="save"]') as Element;
    for (const el of Array.from(document.body.querySelectorAll("*"))) layout.rects.set(el, { x: 0, y: 900, width: 10, height: 10 });
    layout.rects.set(save, { x: 10, y: 10, width: 50, height: 20 });
    const region = bridge.snapshot({ scope: { kind: "region", space: "viewport", x: 0, y: 0, width: 100, height: 100 } });
    expect(region.nodes.map((n) => n.testId)).toEqual(["save"]);
    expect(region.nodes[0]?.parentId).toBeUndefined();
  });

  it("resolves node ids to live elements only", () => {
    const r = bridge.snapshot();
    const list = byTestId(r, "list");
    const el = bridge.resolve(list.id);
    expect(el?.getAttribute("data-testid")).toBe("list");
    el?.remove();
    expect(bridge.resolve(list.id)).toBeNull();
  });

  it("reports geometry in three spaces with a separate dpr", () => {
    const save = document.querySelector('[data-testid="save"]') as Element;
    layout.rects.set(save, { x: 100, y: 700, width: 200, height: 200 });
    layout.viewport.scrollY = 300;
    const g = byTestId(bridge.snapshot(), "save").geometry;
    expect(g?.viewport).toEqual({ x: 100, y: 700, width: 200, height: 200 });
    expect(g?.document).toEqual({ x: 100, y: 1000, width: 200, height: 200 });
    expect(g?.normalized).toEqual({ x: 0.1, y: 0.875, width: 0.2, height: 0.25 });
    expect(g?.visibleRatio).toBe(0.5);
    layout.hit = () => document.querySelector("h1");
    expect(byTestId(bridge.snapshot(), "save").geometry?.occluded).toBe(true);
  });
});

describe("revisions", () => {
  it("bumps once per batch of mutations, route changes, input and scroll, and never when idle", async () => {
    const r1 = bridge.probe().revision;
    const idle = await bridge.waitForChange(r1, 30);
    expect(idle.changed).toBe(false);
    const ul = document.querySelector("ul") as Element;
    ul.append(document.createElement("li"));
    ul.append(document.createElement("li"));
    const m = await bridge.waitForChange(r1, 1000);
    expect(m).toMatchObject({ changed: true, revision: r1 + 1, reasons: ["mutation"] });
    history.pushState(null, "", "/next");
    const route = await bridge.waitForChange(m.revision, 1000);
    expect(route.reasons).toEqual(["route"]);
    expect(bridge.snapshot().page.route).toBe("/next");
    document.getElementById("user")?.dispatchEvent(new Event("input", { bubbles: true }));
    const input = await bridge.waitForChange(route.revision, 1000);
    expect(input.reasons).toEqual(["input"]);
    document.dispatchEvent(new Event("scroll"));
    const scroll = await bridge.waitForChange(input.revision, 1000);
    expect(scroll.reasons).toEqual(["scroll"]);
    expect((await bridge.waitForChange(scroll.revision, 20)).changed).toBe(false);
  });

  it("counts a synchronous mutation before a snapshot", () => {
    const r1 = bridge.snapshot().revision;
    document.querySelector("h1")?.append("x");
    expect(bridge.snapshot().revision).toBe(r1 + 1);
  });

  it("notifies subscribers and stops after dispose", async () => {
    const seen: number[] = [];
    const off = bridge.subscribe((c) => seen.push(c.revision));
    document.querySelector("h1")?.append("x");
    await bridge.waitForChange(1, 1000);
    expect(seen).toEqual([2]);
    off();
    const pending = bridge.waitForChange(bridge.probe().revision, 100_000);
    bridge.dispose();
    expect((await pending).changed).toBe(false);
    expect(() => bridge.snapshot()).toThrow(/disposed/);
    expect(history.pushState).toBe(History.prototype.pushState);
  });

  it("rejects out-of-range timeouts instead of clamping", () => {
    expect(() => bridge.waitForChange(1, -1)).toThrow(/invalid_timeout/);
    expect(() => bridge.waitForChange(1, 300_001)).toThrow(/invalid_timeout/);
    expect(() => bridge.waitForChange(1, 1.5)).toThrow(/invalid_timeout/);
    return expect(bridge.waitForDiff({ sinceRevision: 1, timeoutMs: Number.NaN })).rejects.toThrow(/invalid_timeout/);
  });
});

describe("diffs", () => {
  it("lists exactly the changed and removed nodes, disjoint and sorted", async () => {
    const base = bridge.snapshot();
    const items = Array.from(document.querySelectorAll("li"));
    (items[0] as Element).textContent = "Uno";
    (items[1] as Element).remove();
    const d = await bridge.waitForDiff({ sinceRevision: base.revision, timeoutMs: 1000 });
    expect(d.delta?.status).toBe("complete");
    const first = base.nodes.find((n) => n.text === "One");
    const second = base.nodes.find((n) => n.text === "Two");
    expect(d.nodes.map((n) => n.id)).toEqual([first?.id]);
    expect(d.removedNodeIds).toEqual([second?.id]);
    expect(d.delta?.invalidated.nodeIds).toEqual([first?.id, second?.id].sort());
    expect(d.delta?.invalidated).toMatchObject({ all: false, ui: true, page: false, facts: false });
    // The next diff chains from this one.
    const again = bridge.snapshot({ detail: "diff", sinceRevision: d.revision });
    expect(again.delta).toMatchObject({ status: "complete", fromRevision: d.revision, toRevision: d.revision });
    expect(again.delta?.invalidated.ui).toBe(false);
    expect(again.nodes).toEqual([]);
  });

  it("needs a reset without a baseline", async () => {
    document.querySelector("h1")?.append("x");
    await bridge.waitForChange(1, 1000);
    const d = bridge.snapshot({ detail: "diff", sinceRevision: 1 });
    expect(d.delta).toMatchObject({ status: "reset_required", invalidated: { all: true, nodeIds: [], componentIds: [] } });
    expect(d.nodes.length).toBeGreaterThan(5);
    expect(() => bridge.snapshot({ detail: "diff", sinceRevision: 99 })).toThrow(/ahead/);
  });

  it("keeps scrolling out of node identity: only page and ui are invalidated", async () => {
    const base = bridge.snapshot();
    layout.viewport.scrollY = 250;
    for (const el of Array.from(document.body.querySelectorAll("*"))) layout.rects.set(el, { x: 0, y: -250, width: 100, height: 20 });
    document.dispatchEvent(new Event("scroll"));
    const d = await bridge.waitForDiff({ sinceRevision: base.revision, timeoutMs: 1000 });
    expect(d.delta).toMatchObject({ status: "complete", invalidated: { page: true, ui: true, nodeIds: [] } });
  });

  it("returns an empty diff when nothing changed before the timeout", async () => {
    const base = bridge.snapshot();
    const d = await bridge.waitForDiff({ sinceRevision: base.revision, timeoutMs: 10 });
    expect(d.delta).toMatchObject({ status: "complete", fromRevision: base.revision, toRevision: base.revision });
  });
});

describe("registrations", () => {
  it("reports boundaries as components with source candidates", () => {
    const form = document.querySelector("form") as Element;
    const off = bridge.registerBoundary({ id: "login", name: "LoginForm", source: { file: "src/Login.tsx", line: 3 }, roots: () => [form], facts: () => ({ step: 1, password: "x" }) });
    const r = bridge.snapshot();
    expect(r.components).toEqual([{ id: "login", name: "LoginForm", source: { file: "src/Login.tsx", line: 3 }, ready: true, facts: { step: 1 }, boxes: [{ x: 0, y: 0, width: 100, height: 20 }] }]);
    const save = byTestId(r, "save");
    expect(save.componentId).toBe("login");
    expect(save.sourceMapping?.candidates[0]).toMatchObject({ relation: "ancestor", origin: "boundary_hint", registrationId: "login" });
    expect(() => bridge.registerBoundary({ id: "login", name: "Again", roots: () => [] })).toThrow(/already registered/);
    off();
    expect(bridge.snapshot().components).toEqual([]);
  });

  it("maps framework-adapter sources through a registered source map", () => {
    const button = document.querySelector('[data-testid="save"]') as Element;
    bridge.registerSource({ id: "adapter-1", framework: "test", elements: [button], source: { file: "/assets/app.js", line: 1, column: 5 } });
    // Line 1: column 0 → a.tsx 1:1; column 4 → a.tsx 10:3
    bridge.registerSourceMap({ id: "map-1", generatedFile: "http://localhost/assets/app.js?v=1", map: { version: 3, sources: ["src/a.tsx"], names: [], mappings: "AAAA,IASE", sourcesContent: ["secret"] } });
    const save = byTestId(bridge.snapshot(), "save");
    expect(save.sourceMapping?.candidates).toEqual([
      { span: { file: "src/a.tsx", line: 10, column: 3 }, generatedSpan: { file: "/assets/app.js", line: 1, column: 5 }, confidence: 0.95, origin: "source_map", relation: "exact", registrationId: "adapter-1" },
      { span: { file: "/assets/app.js", line: 1, column: 5 }, confidence: 0.475, origin: "generated", relation: "exact", registrationId: "adapter-1" },
    ]);
    expect(JSON.stringify(bridge.snapshot())).not.toContain("sourcesContent");
  });
});

describe("shadow DOM", () => {
  it("walks open shadow roots and observes their mutations", async () => {
    const host = document.createElement("x-widget");
    const root = host.attachShadow({ mode: "open" });
    root.innerHTML = `<button data-testid="inner">Inner</button>`;
    document.body.append(host);
    const r = bridge.snapshot();
    const inner = byTestId(r, "inner");
    expect(inner.inShadowRoot).toBe(true);
    const css = inner.locators.find((l) => l.kind === "css");
    expect(css).toMatchObject({ kind: "css", value: "button", shadowHosts: ["body > x-widget"] });
    (root.querySelector("button") as Element).textContent = "Changed";
    const c = await bridge.waitForChange(r.revision, 1000);
    expect(c.changed).toBe(true);
  });
});
