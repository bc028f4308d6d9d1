/** Drafts: saving never queues, order is the visible workspace order, conversion to the queue form. */
import { describe, expect, it } from "vitest";
import { DraftBook, type DraftStore } from "./drafts";
import { draftProblem, toRepairDraft } from "./toRepair";
import type { Draft } from "./types";

const draft = (id: string, instruction = `Fix ${id}`): Draft => ({
  id,
  createdAt: "2026-01-01T00:00:00.000Z",
  target: { kind: "region", nodeIds: [], region: { x: 1, y: 2, width: 30, height: 40 }, regionScroll: { x: 0, y: 100 } },
  instruction,
  criteria: [],
  intent: "fix",
  severity: "important",
  conflictsWith: null,
});

function memoryStore(initial: unknown = []): DraftStore & { saved: Draft[][] } {
  const saved: Draft[][] = [];
  return { saved, load: () => initial as Draft[], save: (d) => void saved.push([...d]) };
}

describe("DraftBook", () => {
  it("appends new drafts, replaces saved ones in place, and reorders", () => {
    const store = memoryStore();
    const book = new DraftBook(store);
    book.save(draft("a"));
    book.save(draft("b"));
    book.save(draft("c"));
    book.save(draft("a", "Changed"));
    expect(book.list().map((d) => [d.id, d.instruction])).toEqual([["a", "Changed"], ["b", "Fix b"], ["c", "Fix c"]]);
    book.move("c", -1);
    book.move("a", -1); // already first: unchanged
    expect(book.list().map((d) => d.id)).toEqual(["a", "c", "b"]);
    book.remove(["c"]);
    expect(book.list().map((d) => d.id)).toEqual(["a", "b"]);
    expect(store.saved.at(-1)?.map((d) => d.id)).toEqual(["a", "b"]);
  });

  it("drops malformed stored drafts", () => {
    const book = new DraftBook(memoryStore([draft("ok"), { id: 3 }, null, "x"]));
    expect(book.list().map((d) => d.id)).toEqual(["ok"]);
  });
});

describe("toRepairDraft", () => {
  it("keeps id and createdAt, types the criteria and the conflict relation", () => {
    const d: Draft = {
      ...draft("finding-1"),
      criteria: [
        { kind: "text", value: "The button reads Pay" },
        { kind: "target_text", value: "Pay now" },
        { kind: "page_text", value: "Thanks" },
        { kind: "page_text_absent", value: "Error" },
        { kind: "target_visible", value: "ignored" },
        { kind: "target_hidden", value: "" },
        { kind: "target_state", value: "disabled" },
        { kind: "text", value: "   " },
      ],
      conflictsWith: "finding-0",
    };
    expect(toRepairDraft(d)).toEqual({
      id: "finding-1",
      createdAt: "2026-01-01T00:00:00.000Z",
      target: d.target,
      instruction: "Fix finding-1",
      successCriteria: [
        "The button reads Pay",
        { kind: "target_text", equals: "Pay now" },
        { kind: "page_text", contains: "Thanks" },
        { kind: "page_text_absent", contains: "Error" },
        { kind: "target_visible" },
        { kind: "target_hidden" },
        { kind: "target_state", state: "disabled" },
      ],
      intent: "fix",
      severity: "important",
      relations: [{ kind: "conflicts_with", findingId: "finding-0" }],
    });
  });

  it("refuses empty and over-long instructions", () => {
    expect(draftProblem({ instruction: "  " })).toBe("error.instruction");
    expect(draftProblem({ instruction: "x".repeat(8193) })).toBe("error.instructionTooLong");
    expect(draftProblem({ instruction: "x".repeat(8192) })).toBeNull();
    // Characters, not UTF-16 units: 8,192 emoji fit, as they do in the ledger.
    expect(draftProblem({ instruction: "🙂".repeat(8192) })).toBeNull();
    expect(draftProblem({ instruction: "🙂".repeat(8193) })).toBe("error.instructionTooLong");
  });
});
