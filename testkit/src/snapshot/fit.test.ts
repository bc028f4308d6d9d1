import { describe, expect, it } from "vitest";
import { fitResponse, jsonBytes } from "./fit";
import type { NodeRecord, SnapshotResponse } from "../protocol";
import { DEFAULT_LIMITS } from "../limits";

function draft(nodes: number): SnapshotResponse {
  const list: NodeRecord[] = Array.from({ length: nodes }, (_, i) => ({ id: `n${i}`, tag: "div", text: "x".repeat(200), state: { visible: true }, locators: [] }));
  return {
    protocol: "a3s.test.page-context/1",
    sdkVersion: "0",
    revision: 1,
    detail: "summary",
    page: { id: "p", url: "http://x/", route: "/", title: "", ready: true, viewport: { width: 1, height: 1, dpr: 1 }, document: { width: 1, height: 1 }, scroll: { x: 0, y: 0 }, language: "en", theme: "light" },
    components: [{ id: "c", name: "C", ready: true, facts: { big: "y".repeat(300) }, boxes: [] }],
    nodes: list,
    facts: { f: "z".repeat(300) },
    removedNodeIds: [],
    truncated: false,
    truncatedReasons: [],
    nextCursor: null,
    limits: { ...DEFAULT_LIMITS },
    ui: { marker: "u".repeat(500) } as never,
  };
}

describe("fitResponse", () => {
  const cursor = (kept: number) => (kept < 20 ? `a3s1.1.k.${kept}` : null);
  it("keeps everything that fits", () => {
    const d = draft(20);
    const r = fitResponse(d, 1_000_000, cursor);
    expect(r.keptNodes).toBe(20);
    expect(r.response.truncated).toBe(false);
  });
  it("drops ui first, then trailing nodes, then components and facts", () => {
    const d = draft(20);
    const noUi = jsonBytes({ ...d, ui: undefined });
    const a = fitResponse(d, noUi + 20, cursor);
    expect(a.response.ui).toBeUndefined();
    expect(a.keptNodes).toBe(20);
    const b = fitResponse(d, noUi - 1000, cursor);
    expect(b.response.truncatedReasons).toEqual(["ui", "nodes"]);
    expect(b.keptNodes).toBeLessThan(20);
    expect(b.response.nextCursor).toBe(`a3s1.1.k.${b.keptNodes}`);
    expect(jsonBytes(b.response)).toBeLessThanOrEqual(noUi - 1000);
    const one = draft(1);
    const tight = jsonBytes({ ...one, ui: undefined, facts: {}, components: [] }) + 120;
    const c = fitResponse(one, tight, () => null);
    expect(c.keptNodes).toBe(1);
    expect(c.response.components).toEqual([]);
    expect(c.response.facts).toEqual({});
    expect(() => fitResponse(one, 200, () => null)).toThrow(/budget_too_small/);
  });
});
