/** `nodeIdOf(element)` and the handshake's `repairStorage`: ids only for what snapshots report, never in the DOM. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installTestKit } from "./install";
import type { PageContextBridge } from "./api";
import { OVERLAY_HOST_TAG } from "../snapshot/walk";

let bridge: PageContextBridge;
const $ = (sel: string) => document.querySelector(sel) as Element;

beforeEach(() => {
  document.body.innerHTML = `
    <main>
      <div class="plain"><span data-testid="label">Total</span></div>
      <div class="private"><input data-testid="card"></div>
      <div style="display:none" data-testid="hidden"><button data-testid="ghost">Ghost</button></div>
      <script>var x = 1</script>
      <div data-testid="host"></div>
    </main>`;
  const shadowHost = $("[data-testid=host]");
  shadowHost.attachShadow({ mode: "open" }).innerHTML = `<button data-testid="inner">Inner</button>`;
  const overlay = document.createElement(OVERLAY_HOST_TAG);
  overlay.attachShadow({ mode: "open" }).innerHTML = `<button data-testid="panel-button">Send</button>`;
  document.body.append(overlay);
  const b = installTestKit({ enabled: true, page: { id: "ids" }, redact: [".private"] });
  if (b === null) throw new Error("not installed");
  bridge = b;
});

afterEach(() => {
  bridge.dispose();
  sessionStorage.clear();
});

describe("nodeIdOf", () => {
  it("gives the id a scoped snapshot reports for the element, which resolves back to it", () => {
    const plain = $(".plain");
    const inner = ($("[data-testid=host]").shadowRoot as ShadowRoot).querySelector("button") as Element;
    for (const el of [plain, $("[data-testid=label]"), inner, $("[data-testid=hidden]")]) {
      const id = bridge.nodeIdOf(el);
      expect(id).not.toBeNull();
      expect(bridge.resolve(id as string)).toBe(el);
      const snap = bridge.snapshot({ detail: "scoped", scope: { kind: "node", nodeId: id as string } });
      expect(snap.nodes[0]?.id).toBe(id);
    }
    // Stable: the same element, the same id, the one page snapshots use.
    const label = bridge.nodeIdOf($("[data-testid=label]"));
    expect(bridge.nodeIdOf($("[data-testid=label]"))).toBe(label);
    const page = bridge.snapshot({ detail: "scoped", scope: { kind: "page" } });
    expect(page.nodes.some((n) => n.id === label)).toBe(true);
  });

  it("is null for the overlay host and everything in it", () => {
    const overlay = $(OVERLAY_HOST_TAG);
    expect(bridge.nodeIdOf(overlay)).toBeNull();
    expect(bridge.nodeIdOf((overlay.shadowRoot as ShadowRoot).querySelector("button") as Element)).toBeNull();
  });

  it("is null for redacted regions, skipped tags, children of display:none, body and html", () => {
    expect(bridge.nodeIdOf($(".private"))).toBeNull();
    expect(bridge.nodeIdOf($("[data-testid=card]"))).toBeNull();
    expect(bridge.nodeIdOf($("script"))).toBeNull();
    expect(bridge.nodeIdOf($("[data-testid=ghost]"))).toBeNull();
    expect(bridge.nodeIdOf(document.body)).toBeNull();
    expect(bridge.nodeIdOf(document.documentElement)).toBeNull();
  });

  it("is null for a detached element or one of another document, and writes nothing to the DOM", () => {
    const el = $("[data-testid=label]");
    const before = document.body.innerHTML;
    expect(bridge.nodeIdOf(el)).not.toBeNull();
    expect(document.body.innerHTML).toBe(before);
    el.remove();
    expect(bridge.nodeIdOf(el)).toBeNull();
    expect(bridge.nodeIdOf(document.createElement("p"))).toBeNull();
    const other = document.implementation.createHTMLDocument("other");
    expect(bridge.nodeIdOf(other.body.appendChild(other.createElement("p")))).toBeNull();
  });

  it("refuses what is not an element, and a disposed bridge", () => {
    expect(() => bridge.nodeIdOf(document.createTextNode("x") as unknown as Element)).toThrow(/invalid_request/);
    expect(() => bridge.nodeIdOf(null as unknown as Element)).toThrow(/invalid_request/);
    bridge.dispose();
    expect(() => bridge.nodeIdOf($("main"))).toThrow(/disposed/);
    const again = installTestKit({ enabled: true, page: { id: "ids" } });
    if (again === null) throw new Error("not installed");
    bridge = again;
  });
});

describe("handshake.repairStorage", () => {
  it("reports where the repair queue persists, and the capabilities of the new calls", () => {
    expect(bridge.handshake().repairStorage).toBe("memory");
    expect(bridge.handshake().capabilities).toEqual(expect.arrayContaining(["repair-notify", "node-id-of"]));
    bridge.dispose();
    const session = installTestKit({ enabled: true, page: { id: "ids" }, repairStorage: "session" });
    if (session === null) throw new Error("not installed");
    bridge = session;
    expect(bridge.handshake().repairStorage).toBe("session");
    // The field is plain JSON (the driver reads the handshake as JSON).
    expect(JSON.parse(JSON.stringify(bridge.handshake())).repairStorage).toBe("session");
  });

  it("reports memory when the requested web storage is unavailable", () => {
    bridge.dispose();
    const blocked = new Proxy(window, {
      get(target, key) {
        if (key === "localStorage") throw new DOMException("blocked", "SecurityError");
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const b = installTestKit({ enabled: true, page: { id: "ids-blocked" }, repairStorage: "local", window: blocked });
    if (b === null) throw new Error("not installed");
    bridge = b;
    expect(bridge.handshake().repairStorage).toBe("memory");
  });
});
