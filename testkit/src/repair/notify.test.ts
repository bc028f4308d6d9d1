/** Repair change notifications: coalescing per microtask, isolated listener errors, unsubscribe, and the bridge's wiring. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { installTestKit } from "../bridge/install";
import type { PageContextBridge } from "../bridge/api";
import type { RepairChange, RepairDraft } from "./types";
import { RepairNotifier } from "./notify";

const tick = () => new Promise<void>((ok) => queueMicrotask(ok));

describe("RepairNotifier", () => {
  it("calls each listener once per microtask with every kind that happened, in first-seen order", async () => {
    const n = new RepairNotifier();
    const heard: RepairChange[] = [];
    n.subscribe((c) => heard.push(c));
    n.changed("queued");
    n.changed("status");
    n.changed("queued");
    expect(heard).toEqual([]);
    await tick();
    expect(heard).toEqual([{ sequence: 1, kinds: ["queued", "status"] }]);
    n.changed("taken");
    await tick();
    expect(heard).toEqual([
      { sequence: 1, kinds: ["queued", "status"] },
      { sequence: 2, kinds: ["taken"] },
    ]);
  });

  it("keeps calling the other listeners when one throws, and warns", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const n = new RepairNotifier();
    const after = vi.fn();
    n.subscribe(() => {
      throw new Error("listener bug");
    });
    n.subscribe(after);
    n.changed("action");
    await tick();
    expect(after).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls.some((c) => String(c[0]).includes("listener bug"))).toBe(true);
    n.changed("answered");
    await tick();
    expect(after).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it("stops calling an unsubscribed listener; unsubscribing twice is harmless; stop drops everything", async () => {
    const n = new RepairNotifier();
    const a = vi.fn();
    const b = vi.fn();
    const offA = n.subscribe(a);
    n.subscribe(b);
    offA();
    offA();
    n.changed("queued");
    await tick();
    expect(a).not.toHaveBeenCalled();
    expect(b).toHaveBeenCalledTimes(1);
    n.changed("queued");
    n.stop();
    await tick();
    expect(b).toHaveBeenCalledTimes(1);
  });
});

describe("bridge.subscribeRepairs", () => {
  let bridge: PageContextBridge;
  const draft: RepairDraft = { target: { kind: "region", nodeIds: [], region: { x: 0, y: 0, width: 10, height: 10 } }, instruction: "Fix it", successCriteria: [], intent: "fix", severity: "important" };
  const install = (id: string, storage: "memory" | "session" = "memory") => {
    const b = installTestKit({ enabled: true, page: { id }, repairStorage: storage });
    if (b === null) throw new Error("not installed");
    bridge = b;
  };
  afterEach(() => {
    bridge.dispose();
    sessionStorage.clear();
  });

  it("reports submit, event, take and action in one coalesced call per burst, and nothing for a no-op", async () => {
    install("notify-1");
    const heard: RepairChange[] = [];
    bridge.subscribeRepairs((c) => heard.push(c));
    // No await between the writes: one burst. (Without an endpoint, submitting is synchronous up to its result.)
    const sent = bridge.submitRepair(draft);
    const id = (bridge.listRepairs()[0] as { id: string }).id;
    bridge.applyRepairEvent({ repairId: id, sequence: 1, status: "claimed", actor: "agent", at: "2026-01-01T00:00:00.000Z", requestId: "q1" });
    await sent;
    expect(heard.map((c) => c.kinds)).toEqual([["queued", "status"]]);
    // A repeated event and an empty take change nothing: no notification.
    bridge.applyRepairEvent({ repairId: id, sequence: 1, status: "claimed", actor: "agent", at: "2026-01-01T00:00:00.000Z", requestId: "q1" });
    bridge.takeRepairBatch({ ids: [] });
    await tick();
    expect(heard).toHaveLength(1);
    bridge.takeRepairBatch();
    const acted = bridge.submitRepairAction({ repairId: id, kind: "reply", message: "More contrast" });
    bridge.takeRepairActions();
    await acted;
    expect(heard.map((c) => c.kinds)).toEqual([["queued", "status"], ["taken", "action", "actions_taken"]]);
    expect(heard.map((c) => c.sequence)).toEqual([1, 2]);
  });

  it("reports state recovered from repairStorage to a listener subscribed right after install", async () => {
    install("notify-2", "session");
    await bridge.submitRepair(draft);
    bridge.dispose();
    install("notify-2", "session");
    const heard: RepairChange[] = [];
    bridge.subscribeRepairs((c) => heard.push(c));
    await tick();
    expect(heard).toEqual([{ sequence: 1, kinds: ["recovered"] }]);
  });

  it("refuses a non-function listener and, once disposed, calls nobody", async () => {
    install("notify-3");
    expect(() => bridge.subscribeRepairs(42 as unknown as () => void)).toThrow(/invalid_request/);
    const listener = vi.fn();
    bridge.subscribeRepairs(listener);
    const sent = bridge.submitRepair(draft);
    bridge.dispose();
    await sent;
    await tick();
    expect(listener).not.toHaveBeenCalled();
    expect(() => bridge.subscribeRepairs(listener)).toThrow(/disposed/);
    install("notify-3b");
  });
});
