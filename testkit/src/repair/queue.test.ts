import { afterEach, describe, expect, it } from "vitest";
import { RepairQueue } from "./queue";
import { createRepairStore, storageKeyOf } from "./storage";
import { resolveSameOriginEndpoint, type TransportAnswer } from "./endpoint";
import type { RepairAction, RepairActionResult, RepairDraft } from "./types";
import { installTestKit } from "../bridge/install";
import { fakePlatform } from "../testing/fakePlatform";
import { repairContext } from "../testing/repairContext";

const context = () => repairContext(7, 1, 1);

const draft = (over: Partial<RepairDraft> = {}): RepairDraft => ({
  target: { kind: "node", nodeIds: ["n1"] },
  instruction: "Make the button bigger",
  intent: "fix",
  severity: "important",
  ...over,
});

const answer = (ok: boolean, body?: unknown): TransportAnswer => ({ ok, status: ok ? 200 : 503, body });

function queue(transport?: (body: unknown) => Promise<TransportAnswer>) {
  let n = 0;
  return new RepairQueue({
    store: createRepairStore("memory", undefined, "p"),
    ...(transport ? { transport } : {}),
    captureContext: context,
    now: () => new Date("2026-01-01T00:00:00Z"),
    newId: () => `id${++n}`,
  });
}

afterEach(() => sessionStorage.clear());

describe("RepairQueue", () => {
  it("queues findings in order with untrusted context", async () => {
    const q = queue();
    const r = await q.submit([draft({ id: "a" }), draft({ id: "b", severity: "blocking" })]);
    expect(r.delivery).toBe("page_queue");
    expect(r.repairs.map((x) => [x.id, x.status, x.protocol, x.context.untrusted])).toEqual([
      ["a", "queued", "a3s.test.repair/1", true],
      ["b", "queued", "a3s.test.repair/1", true],
    ]);
    expect(q.peekBatch().repairs).toHaveLength(2);
    expect(q.takeBatch({ max: 1 }).repairs.map((x) => x.id)).toEqual(["a"]);
    expect(q.takeBatch().repairs.map((x) => x.id)).toEqual(["b"]);
    expect(q.takeBatch().repairs).toEqual([]);
    expect(q.list()).toHaveLength(2);
    // Same stable id again is idempotent.
    await q.submit(draft({ id: "a" }));
    expect(q.list()).toHaveLength(2);
  });
  it("validates drafts", async () => {
    const q = queue();
    await expect(q.submit(draft({ instruction: "x".repeat(8193) }))).rejects.toThrow(/8192/);
    // Characters, as the ledger counts them: 8,192 emoji (16,384 UTF-16 units) fit, one more does not.
    await expect(q.submit(draft({ id: "emoji", instruction: "🙂".repeat(8192) }))).resolves.toBeDefined();
    await expect(q.submit(draft({ instruction: "🙂".repeat(8193) }))).rejects.toThrow(/8192/);
    await expect(q.submit(draft({ intent: "delete" as never }))).rejects.toThrow(/intent/);
    await expect(q.submit(draft({ target: { kind: "region", nodeIds: [] } }))).rejects.toThrow(/region/);
    await expect(q.submit(draft({ target: { kind: "node", nodeIds: [] } }))).rejects.toThrow(/node id/);
  });
  it("keeps typed criteria and relations on the queued record", async () => {
    const q = queue();
    const successCriteria = ["Reads well", { kind: "target_text" as const, equals: "Pay" }, { kind: "target_state" as const, state: "enabled" as const }];
    const relations = [{ kind: "conflicts_with" as const, findingId: "b" }];
    const [rec] = (await q.submit(draft({ id: "a", successCriteria, relations }))).repairs;
    expect(rec?.successCriteria).toEqual(successCriteria);
    expect(rec?.relations).toEqual(relations);
    expect(q.takeBatch().repairs[0]).toMatchObject({ successCriteria, relations });
    await expect(q.submit(draft({ id: "c", successCriteria: [{ kind: "target_text" } as never] }))).rejects.toThrow(/equals/);
    await expect(q.submit(draft({ id: "d", relations: [{ kind: "conflicts_with", repairId: "b" } as never] }))).rejects.toThrow(/repairId/);
    await expect(q.submit(draft({ id: "bad.id" }))).rejects.toThrow(/1-64 characters/);
    // A refused draft queues nothing, even in a batch.
    await expect(q.submit([draft({ id: "e" }), draft({ id: "f", relations: [{ kind: "conflicts_with", findingId: "f" }] })])).rejects.toThrow(/another finding/);
    expect(q.list().map((r) => r.id)).toEqual(["a"]);
  });
  it("stamps one batch id per send and the context revision on each record", async () => {
    const q = queue();
    const batch = await q.submit([draft({ id: "a" }), draft({ id: "b" })]);
    const single = await q.submit(draft({ id: "c" }));
    const [a, b] = batch.repairs;
    expect(a?.batchId).toBe(b?.batchId);
    expect(single.repairs[0]?.batchId).not.toBe(a?.batchId);
    expect(batch.repairs.map((r) => r.contextRevision)).toEqual([7, 7]);
  });
  it("takes only the listed ids and keeps the rest queued", async () => {
    const q = queue();
    await q.submit([draft({ id: "a" }), draft({ id: "b" }), draft({ id: "c" })]);
    expect(q.takeBatch({ ids: ["c", "a", "zz"] }).repairs.map((r) => r.id)).toEqual(["a", "c"]);
    expect(q.peekBatch().repairs.map((r) => r.id)).toEqual(["b"]);
    expect(() => q.takeBatch({ ids: "b" as never })).toThrow(/ids must be an array/);
    expect(q.takeBatch({ ids: [] }).repairs).toEqual([]);
    expect(q.peekBatch().repairs.map((r) => r.id)).toEqual(["b"]);
  });
  it("applies ledger events monotonically and idempotently", async () => {
    const q = queue();
    await q.submit(draft({ id: "a" }));
    const ev = { repairId: "a", sequence: 2, status: "claimed" as const, actor: "agent" as const, at: "2026-01-01T00:00:01Z", requestId: "q1" };
    expect(q.applyEvent(ev).status).toBe("claimed");
    expect(q.applyEvent({ ...ev, sequence: 1, status: "failed", requestId: "q0" }).status).toBe("claimed");
    expect(q.applyEvent({ ...ev, sequence: 3, status: "repairing" }).status).toBe("claimed");
    expect(q.applyEvent({ ...ev, sequence: 3, status: "repairing", requestId: "q2" }).events).toHaveLength(2);
    expect(() => q.applyEvent({ ...ev, status: "bogus" as never, sequence: 9, requestId: "q9" })).toThrow(/status/);
    expect(() => q.applyEvent({ ...ev, repairId: "zz" })).toThrow(/unknown_repair/);
  });
  it("asks for a reason before dismissing a verified repair", async () => {
    const q = queue();
    await q.submit([draft({ id: "a" }), draft({ id: "b" })]);
    q.applyEvent({ repairId: "a", sequence: 1, status: "review_ready", actor: "a3s-test", at: "2026-01-01T00:00:00Z", requestId: "s1" });
    await expect(q.submitAction({ repairId: "a", kind: "dismiss" })).rejects.toThrow(/reason/);
    await expect(q.submitAction({ repairId: "a", kind: "dismiss", message: " " })).rejects.toThrow(/reason/);
    await expect(q.submitAction({ repairId: "a", kind: "dismiss", message: "Still too small" })).resolves.toMatchObject({ kind: "dismiss" });
    // Cancelling a queued finding needs none.
    await expect(q.submitAction({ repairId: "b", kind: "dismiss" })).resolves.toMatchObject({ kind: "dismiss" });
  });
  it("queues human actions", async () => {
    const q = queue();
    await q.submit(draft({ id: "a" }));
    await q.submitAction({ repairId: "a", kind: "reply", message: "smaller", requestId: "x" });
    await q.submitAction({ repairId: "a", kind: "reply", message: "smaller", requestId: "x" });
    await expect(q.submitAction({ repairId: "a", kind: "reply" })).rejects.toThrow(/message/);
    await expect(q.submitAction({ repairId: "a", kind: "accept", requestId: "has space" })).rejects.toThrow(/requestId/);
    const batch = q.takeActions();
    expect(batch.protocol).toBe("a3s.test.repair/1");
    expect(batch.actions.map((a) => [a.kind, a.requestId])).toEqual([["reply", "x"]]);
    expect(q.takeActions().actions).toEqual([]);
  });
  it("posts to the endpoint and keeps the page queue when the POST fails", async () => {
    const bodies: unknown[] = [];
    const ok = queue(async (b) => (bodies.push(b), answer(true)));
    expect((await ok.submit(draft({ id: "a" }))).delivery).toBe("endpoint");
    expect(bodies).toEqual([{ protocol: "a3s.test.repair/1", repairs: [expect.objectContaining({ id: "a" })] }]);
    expect(ok.peekBatch().repairs).toEqual([]);
    const failing = queue(async () => answer(false));
    expect((await failing.submit(draft({ id: "b" }))).delivery).toBe("endpoint_failed");
    expect(failing.peekBatch().repairs.map((r) => r.id)).toEqual(["b"]);
  });
  it("keeps only the actions whose answer was not final, and records the final ones", async () => {
    const posted: RepairAction[][] = [];
    // The endpoint's per-item answer: applied, refused, or retry (the ledger was busy) by kind.
    const endpoint = async (body: unknown): Promise<TransportAnswer> => {
      const actions = (body as { actions?: RepairAction[] }).actions;
      if (actions === undefined) return answer(true);
      posted.push(actions);
      const items = actions.map((a): RepairActionResult => {
        const base = { id: a.id, findingId: a.repairId, requestId: a.requestId };
        if (a.kind === "accept") return { ...base, outcome: "refused", error: { code: "test.session.repair_invalid_transition", message: "accept is not allowed from queued" } };
        if (a.kind === "reopen" && posted.length < 3) return { ...base, outcome: "retry", error: { code: "test.session.repair_ledger_busy", message: "busy" } };
        return { ...base, outcome: posted.length > 3 ? "duplicate" : "applied", result: { to: a.kind === "dismiss" ? "cancelled" : "reopened", replayed: false } };
      });
      const retry = items.find((i) => i.outcome === "retry");
      return answer(retry === undefined, { protocol: "a3s.test.repair/1", actions: items, ...(retry?.error ? { error: retry.error } : {}) });
    };
    const q = queue(endpoint);
    await q.submit(draft({ id: "a" }));
    await q.submitAction({ repairId: "a", kind: "accept", requestId: "acc" });
    // Refused is final: it left the queue and is not sent again.
    expect(q.listActions().pending).toEqual([]);
    expect(q.listActions().outcomes).toEqual([
      { actionId: "id2", repairId: "a", kind: "accept", requestId: "acc", outcome: "refused", error: { code: "test.session.repair_invalid_transition", message: "accept is not allowed from queued" }, answeredAt: "2026-01-01T00:00:00.000Z" },
    ]);
    await q.submitAction({ repairId: "a", kind: "reopen", requestId: "reo" });
    // Retry keeps it; the next POST carries it again with the new action.
    expect(q.listActions().pending.map((a) => a.requestId)).toEqual(["reo"]);
    await q.submitAction({ repairId: "a", kind: "dismiss", requestId: "dis" });
    expect(posted.map((p) => p.map((a) => a.requestId))).toEqual([["acc"], ["reo"], ["reo", "dis"]]);
    expect(q.listActions().pending).toEqual([]);
    expect(q.listActions().outcomes.map((o) => [o.requestId, o.outcome, o.status])).toEqual([
      ["acc", "refused", undefined],
      ["reo", "applied", "reopened"],
      ["dis", "applied", "cancelled"],
    ]);
  });
  it("keeps every action when the answer is missing, malformed or for other actions", async () => {
    const replies: unknown[] = [
      undefined,
      { protocol: "a3s.test.repair/1", actions: "nope" },
      { protocol: "a3s.test.repair/1", actions: [{ id: "other", findingId: "a", requestId: "r1", outcome: "applied" }] },
      { protocol: "a3s.test.repair/1", actions: [{ id: "id2", findingId: "a", requestId: "r1", outcome: "refused" }] },
      { protocol: "a3s.test.repair/1", actions: [{ id: "id2", findingId: "a", requestId: "r1", outcome: "done" }] },
    ];
    for (const reply of replies) {
      const q = queue(async () => answer(true, reply));
      await q.submit(draft({ id: "a" }));
      await q.submitAction({ repairId: "a", kind: "dismiss", requestId: "r1" });
      expect(q.listActions(), JSON.stringify(reply)).toEqual({ pending: [expect.objectContaining({ requestId: "r1" })], outcomes: [] });
    }
    // A non-2xx answer still lets the items it judged leave (a duplicate, say).
    const q = queue(async () => answer(false, { protocol: "a3s.test.repair/1", actions: [{ id: "id2", findingId: "a", requestId: "r1", outcome: "duplicate", result: { to: "cancelled" } }] }));
    await q.submit(draft({ id: "a" }));
    await q.submitAction({ repairId: "a", kind: "dismiss", requestId: "r1" });
    expect(q.listActions().pending).toEqual([]);
    expect(q.listActions().outcomes[0]).toMatchObject({ outcome: "duplicate", status: "cancelled" });
  });
  it("checks layout targets: component source, optional non-blank purpose, no unknown fields", async () => {
    const q = queue();
    const destination = { x: 0, y: 0, width: 10, height: 10 };
    const region = (layout: unknown): RepairDraft => draft({ target: { kind: "region", nodeIds: [], region: destination, layout: layout as never } });
    const placement = { mode: "placement", componentType: "button", componentSource: "project", canvas: "page", destination };
    await q.submit(region(placement));
    await q.submit(region({ ...placement, componentType: "date-picker", componentSource: "catalog", purpose: "Checkout" }));
    await q.submit(region({ mode: "rearrange", originalRegion: { x: -5, y: 0, width: 20, height: 20 }, nodeId: "n1", destination }));
    await expect(q.submit(region({ ...placement, componentSource: undefined }))).rejects.toThrow(/componentSource/);
    await expect(q.submit(region({ ...placement, componentType: "Button", componentSource: "catalog" }))).rejects.toThrow(/kebab-case/);
    await expect(q.submit(region({ ...placement, purpose: "" }))).rejects.toThrow(/purpose/);
    await expect(q.submit(region({ ...placement, purpose: "   " }))).rejects.toThrow(/purpose/);
    await expect(q.submit(region({ ...placement, colour: "red" }))).rejects.toThrow(/unknown field "colour"/);
    await expect(q.submit(region({ ...placement, destination: { ...destination, width: 0 } }))).rejects.toThrow(/destination/);
    expect(q.list()).toHaveLength(3);
  });
  it("persists in sessionStorage under its own key", async () => {
    let n = 0;
    const deps = { captureContext: context, now: () => new Date(), newId: () => `id${++n}` };
    const q1 = new RepairQueue({ ...deps, store: createRepairStore("session", window, "p") });
    await q1.submit(draft({ id: "a" }));
    expect(sessionStorage.getItem(storageKeyOf("p"))).toContain('"a"');
    const q2 = new RepairQueue({ ...deps, store: createRepairStore("session", window, "p") });
    expect(q2.peekBatch().repairs.map((r) => r.id)).toEqual(["a"]);
  });
  it("marks a send human only when the gesture check accepts its gesture", async () => {
    let n = 0;
    const person = new Event("click");
    const q = new RepairQueue({
      store: createRepairStore("memory", undefined, "p"),
      captureContext: context,
      now: () => new Date("2026-01-01T00:00:00Z"),
      newId: () => `id${++n}`,
      isHumanGesture: (g) => g === person,
    });
    await q.submit(draft({ id: "by-person" }), { gesture: person });
    await q.submit(draft({ id: "by-script" }));
    await q.submit(draft({ id: "other-event" }), { gesture: new Event("click") });
    expect(q.list().map((r) => [r.id, r.sentBy])).toEqual([
      ["by-person", "human"],
      ["by-script", "page_script"],
      ["other-event", "page_script"],
    ]);
    const a = await q.submitAction({ repairId: "by-person", kind: "dismiss" }, { gesture: person });
    const b = await q.submitAction({ repairId: "by-person", kind: "dismiss" });
    expect([a.sentBy, b.sentBy]).toEqual(["human", "page_script"]);
    // A page script cannot pass a mark through the draft or the action either.
    await q.submit({ ...draft({ id: "claims" }), sentBy: "human" } as RepairDraft);
    expect(q.list().find((r) => r.id === "claims")?.sentBy).toBe("page_script");
  });
  it("hands out copies, so a caller cannot rewrite what is queued", async () => {
    const q = queue();
    await q.submit(draft({ id: "a" }));
    await q.submitAction({ repairId: "a", kind: "dismiss", requestId: "d1" });
    for (const r of [...q.list(), ...q.peekBatch().repairs]) r.sentBy = "human";
    for (const act of [...q.listActions().pending, ...q.peekActions().actions]) act.sentBy = "human";
    expect(q.peekBatch().repairs[0]?.sentBy).toBe("page_script");
    expect(q.peekActions().actions[0]?.sentBy).toBe("page_script");
  });
  it("counts what it recovers from storage, still to be delivered, as page code's", async () => {
    let n = 0;
    const deps = { captureContext: context, now: () => new Date(), newId: () => `id${++n}`, isHumanGesture: () => true };
    const q1 = new RepairQueue({ ...deps, store: createRepairStore("session", window, "p") });
    await q1.submit(draft({ id: "a" }), { gesture: new Event("click") });
    await q1.submitAction({ repairId: "a", kind: "dismiss" }, { gesture: new Event("click") });
    expect(q1.peekBatch().repairs[0]?.sentBy).toBe("human");
    // Storage is page-writable: a reload reads back what any script could have written there.
    const q2 = new RepairQueue({ ...deps, store: createRepairStore("session", window, "p") });
    expect(q2.peekBatch().repairs[0]?.sentBy).toBe("page_script");
    expect(q2.peekActions().actions[0]?.sentBy).toBe("page_script");
  });
  it("lets a drain peek actions and take exactly those its ledger answered finally", async () => {
    const q = queue();
    await q.submit(draft({ id: "a" }));
    for (const [kind, requestId] of [["reply", "r1"], ["dismiss", "r2"], ["reopen", "r3"], ["accept", "r4"]] as const) {
      await q.submitAction({ repairId: "a", kind, requestId, ...(kind === "reply" ? { message: "ok" } : {}) });
    }
    expect(q.peekActions({ max: 2 }).actions.map((a) => a.requestId)).toEqual(["r1", "r2"]);
    expect(() => q.peekActions({ max: 0 })).toThrow(/max/);
    const [r1, r2, r3] = q.peekActions().actions;
    if (r1 === undefined || r2 === undefined || r3 === undefined) throw new Error("peeked too few");
    const base = (a: RepairAction) => ({ id: a.id, findingId: a.repairId, requestId: a.requestId });
    const taken = q.takeActions({
      answers: [
        { ...base(r1), outcome: "applied", result: { to: "queued" } },
        { ...base(r2), outcome: "refused", error: { code: "test.session.repair_invalid_transition", message: "no" } },
        { ...base(r3), outcome: "retry", error: { code: "test.session.repair_ledger_busy", message: "busy" } },
      ],
    });
    expect(taken.actions.map((a) => a.requestId)).toEqual(["r1", "r2"]);
    // Retry and unanswered stay queued; final answers are kept for the overlay, as after a POST.
    expect(q.listActions().pending.map((a) => a.requestId)).toEqual(["r3", "r4"]);
    expect(q.listActions().outcomes.map((o) => [o.requestId, o.outcome, o.status ?? o.error?.code])).toEqual([
      ["r1", "applied", "queued"],
      ["r2", "refused", "test.session.repair_invalid_transition"],
    ]);
    expect(() => q.takeActions({ answers: "all" as never })).toThrow(/answers/);
  });
  it("accepts only same-origin endpoints", () => {
    expect(resolveSameOriginEndpoint("/api/repairs", "http://localhost:3000/app")).toBe("http://localhost:3000/api/repairs");
    expect(() => resolveSameOriginEndpoint("http://evil.test/x", "http://localhost:3000/")).toThrow(/same-origin/);
  });
});

describe("bridge repair methods", () => {
  it("capture the target's locators and nearby nodes", async () => {
    document.body.innerHTML = `<section><button data-testid="go">Go</button><p>Near</p></section>`;
    const bridge = installTestKit({ enabled: true, page: { id: "rq" }, platform: fakePlatform(window).platform });
    if (bridge === null) throw new Error("not installed");
    try {
      const snap = bridge.snapshot();
      const go = snap.nodes.find((n) => n.testId === "go");
      const { repairs } = await bridge.submitRepair(draft({ target: { kind: "node", nodeIds: [go?.id ?? ""] } }));
      const ctx = repairs[0]?.context;
      expect(ctx?.contextRevision).toBe(snap.revision);
      expect(ctx?.targetNodes.map((n) => n.testId)).toEqual(["go"]);
      expect(ctx?.locators[0]?.locators[0]).toEqual({ kind: "role", role: "button", name: "Go" });
      expect(ctx?.nearbyNodes.some((n) => n.text === "Near")).toBe(true);
      expect(ctx?.ui?.layout.nodes[0]?.nodeId).toBe(go?.id);
      const region = await bridge.submitRepair(draft({ target: { kind: "region", nodeIds: [], region: { x: 0, y: 0, width: 50, height: 50 } } }));
      expect(region.repairs[0]?.context.nearbyNodes.length).toBeGreaterThan(0);
      expect(bridge.takeRepairBatch().repairs).toHaveLength(2);
      // Capturing context must not evict the driver's diff baseline.
      for (let i = 0; i < 9; i++) await bridge.submitRepair(draft({ target: { kind: "node", nodeIds: [go?.id ?? ""] } }));
      document.querySelector("p")?.append("!");
      const d = await bridge.waitForDiff({ sinceRevision: snap.revision, timeoutMs: 1000 });
      expect(d.delta?.status).toBe("complete");
    } finally {
      bridge.dispose();
    }
  });
});
