import { describe, expect, it } from "vitest";
import { fitResponse, jsonBytes } from "./fit";
import { geometryBytesAtMost } from "./geometry";
import type { Geometry, NodeRecord, SnapshotResponse } from "../protocol";
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
  it("settles on upper bounds when they fit and falls back to exact sizes when they do not", () => {
    const d = draft(20);
    const exact = d.nodes.map((n) => jsonBytes(n));
    let exactCalls = 0;
    const sizes = (slack: number) => ({ atMost: exact.map((b) => b + slack), exact: () => (exactCalls++, exact) });
    const roomy = fitResponse(d, 1_000_000, cursor, sizes(100));
    expect(roomy).toEqual(fitResponse(d, 1_000_000, cursor, exact));
    expect(exactCalls).toBe(0);
    const budget = jsonBytes({ ...d, ui: undefined }) + 20;
    const tight = fitResponse(d, budget, cursor, sizes(100));
    expect(exactCalls).toBe(1);
    expect(tight).toEqual(fitResponse(d, budget, cursor, exact));
    expect(tight.keptNodes).toBe(20);
  });
});

describe("geometryBytesAtMost", () => {
  it("bounds the encoded size of any geometry", () => {
    const numbers = [0, 1, -1, 0.1, -2.2250738585072014e-308, 123.45, -98765.43, 1e21, -0.0000012345678901234567, Number.MAX_VALUE, -Number.MIN_VALUE, Number.NaN, Infinity, 1 / 3];
    for (let i = 0; i < 200; i++) {
      const n = () => numbers[(i * 7 + Math.floor(Math.random() * numbers.length)) % numbers.length] as number;
      const rect = () => ({ x: n(), y: n(), width: n(), height: n() });
      const g: Geometry = { viewport: rect(), document: rect(), normalized: rect(), visibleRatio: n(), occluded: i % 2 === 0, position: i % 3 === 0 ? "relative" : "static", transformed: i % 5 === 0 };
      if (i % 4 === 0) g.scrollContainerNodeId = `n${i}\u00e9`;
      expect(jsonBytes(g)).toBeLessThanOrEqual(geometryBytesAtMost(g));
    }
    const worst: Geometry = {
      viewport: { x: -0.0000012345678901234567, y: -0.0000012345678901234567, width: -0.0000012345678901234567, height: -0.0000012345678901234567 },
      document: { x: -0.0000012345678901234567, y: -0.0000012345678901234567, width: -0.0000012345678901234567, height: -0.0000012345678901234567 },
      normalized: { x: -0.0000012345678901234567, y: -0.0000012345678901234567, width: -0.0000012345678901234567, height: -0.0000012345678901234567 },
      visibleRatio: -0.0000012345678901234567,
      occluded: false,
      position: "absolute",
      transformed: false,
      scrollContainerNodeId: "n1",
    };
    expect(geometryBytesAtMost(worst)).toBe(jsonBytes(worst));
  });
});
