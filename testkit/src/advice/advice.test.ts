import { describe, expect, it, vi } from "vitest";
import { ADVICE_PROTOCOL, createAdviceBoard, readAdvice, severityOf, type PageAdvice } from "./advice";

function advice(revision = 3, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocol: ADVICE_PROTOCOL,
    revision,
    provider: "auditor",
    model: "m1",
    items: [
      { id: "colour-1", dimension: "colour", priority: "high", target: { kind: "node", nodeId: "n4" }, title: "Low contrast", rationale: "2.4:1", recommendation: "Darken it", ...extra },
      { id: "spacing-2", dimension: "spacing", priority: "low", target: { kind: "region", x: 1, y: 2, width: 30, height: 4 }, title: "Gap", rationale: "18.76 px", recommendation: "Use 20 px" },
    ],
  };
}

describe("advice", () => {
  it("reads a valid report", () => {
    const a = readAdvice(advice());
    expect(a.items).toHaveLength(2);
    expect(a.items[1]?.target).toEqual({ kind: "region", x: 1, y: 2, width: 30, height: 4 });
  });

  it("refuses a verdict, an action or an expected value", () => {
    for (const key of ["verdict", "action", "expected", "outcome"]) {
      expect(() => readAdvice(advice(3, { [key]: "x" }))).toThrow(/unknown field/);
    }
    expect(() => readAdvice({ ...advice(), verdict: "passed" })).toThrow(/unknown field/);
  });

  it("refuses wrong shapes and bounds", () => {
    expect(() => readAdvice({ ...advice(), protocol: "x" })).toThrow(/protocol/);
    expect(() => readAdvice({ ...advice(), revision: 0 })).toThrow(/revision/);
    expect(() => readAdvice(advice(3, { priority: "blocking" }))).toThrow(/priority/);
    expect(() => readAdvice(advice(3, { title: "x".repeat(201) }))).toThrow(/title/);
    expect(() => readAdvice(advice(3, { target: { kind: "region", x: 0, y: 0, width: 0, height: 1 } }))).toThrow(/area/);
    expect(() => readAdvice(advice(3, { id: "spacing-2" }))).toThrow(/twice/);
    expect(() => readAdvice(null)).toThrow();
  });

  it("maps high priority to important at most", () => {
    expect(severityOf("high")).toBe("important");
    expect(severityOf("medium")).toBe("suggestion");
    expect(severityOf("low")).toBe("suggestion");
  });

  it("keeps advice only for the current revision and drops it when the page moves on", () => {
    const board = createAdviceBoard();
    const heard = vi.fn();
    board.subscribe(heard);
    const a = readAdvice(advice(3)) as PageAdvice;
    expect(board.show(a, 4)).toBe(false);
    expect(board.current(4)).toBeNull();
    expect(board.show(a, 3)).toBe(true);
    expect(board.current(3)).toBe(a);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(board.current(5)).toBeNull();
    expect(heard).toHaveBeenCalledTimes(2);
    expect(board.current(3)).toBeNull();
  });
});
