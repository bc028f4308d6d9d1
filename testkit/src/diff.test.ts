import { describe, expect, it } from "vitest";
import { computeDiff, MAX_DIFF_IDS } from "./diff";
import type { ProjectionHashes } from "./snapshot/projection";
import { ProjectionHistory } from "./revisions/history";

function hashes(revision: number, nodes: Array<[string, number]>, page = 1): ProjectionHashes {
  return { revision, page, facts: 1, nodes: new Map(nodes), components: new Map(), overflow: false };
}

describe("computeDiff", () => {
  it("is an empty no-op for the same revision", () => {
    const d = computeDiff(3, undefined, hashes(3, []), 1000);
    expect(d.record).toMatchObject({ status: "complete", fromRevision: 3, toRevision: 3, invalidated: { ui: false, nodeIds: [] } });
  });
  it("lists changed, added and removed ids, sorted and disjoint", () => {
    const d = computeDiff(1, hashes(1, [["n2", 1], ["n10", 1], ["n3", 1]]), hashes(2, [["n2", 2], ["n10", 1], ["n9", 1]], 2), 10_000);
    expect(d.changed).toEqual(["n2", "n9"]);
    expect(d.removed).toEqual(["n3"]);
    expect(d.record.invalidated).toEqual({ all: false, page: true, facts: false, ui: true, nodeIds: ["n2", "n3", "n9"], componentIds: [] });
  });
  it("requires a reset without baseline, above 10,000 ids, or over the byte budget", () => {
    expect(computeDiff(1, undefined, hashes(2, []), 1000).record.status).toBe("reset_required");
    const many = Array.from({ length: MAX_DIFF_IDS + 1 }, (_, i): [string, number] => [`n${i}`, 1]);
    expect(computeDiff(1, hashes(1, []), hashes(2, many), 10_000_000).record.status).toBe("reset_required");
    const some = Array.from({ length: 100 }, (_, i): [string, number] => [`n${i}`, 1]);
    const reset = computeDiff(1, hashes(1, []), hashes(2, some), 200);
    expect(reset.record).toMatchObject({ status: "reset_required", invalidated: { all: true, page: true, facts: true, ui: true, nodeIds: [], componentIds: [] } });
  });
});

describe("ProjectionHistory", () => {
  it("keeps 8 keys × 12 revisions", () => {
    const h = new ProjectionHistory();
    for (let k = 0; k < 10; k++) for (let r = 1; r <= 15; r++) h.record(`k${k}`, hashes(r, []));
    expect(h.size()).toEqual({ keys: 8, revisions: 96 });
    expect(h.get("k0", 15)).toBeUndefined();
    expect(h.get("k9", 3)).toBeUndefined();
    expect(h.get("k9", 4)?.revision).toBe(4);
  });
});
