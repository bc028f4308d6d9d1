import { describe, expect, it } from "vitest";
import { checkCriteria, checkRelations, MAX_CRITERIA, MAX_RELATIONS } from "./criteria";

describe("checkCriteria", () => {
  it("keeps prose and every typed kind as given", () => {
    const all = [
      "Looks calm",
      { kind: "target_text", equals: "Pay now" },
      { kind: "target_text", equals: "" },
      { kind: "page_text", contains: "Saved" },
      { kind: "page_text_absent", contains: "Error" },
      { kind: "target_visible" },
      { kind: "target_hidden" },
      { kind: "target_state", state: "disabled" },
    ];
    expect(checkCriteria(all)).toEqual(all);
    expect(checkCriteria(undefined)).toEqual([]);
  });
  it("refuses unknown kinds, states, fields and unbounded input", () => {
    expect(() => checkCriteria([{ kind: "target_color", equals: "red" }])).toThrow(/kind must be one of/);
    expect(() => checkCriteria([{ kind: "target_state", state: "pressed" }])).toThrow(/state must be one of/);
    expect(() => checkCriteria([{ kind: "target_visible", selector: "#x" }])).toThrow(/unknown field "selector"/);
    expect(() => checkCriteria([{ kind: "page_text", contains: " " }])).toThrow(/must not be empty/);
    expect(() => checkCriteria([{ kind: "target_text" }])).toThrow(/equals must be a string/);
    expect(() => checkCriteria(["x".repeat(2049)])).toThrow(/2,048/);
    expect(() => checkCriteria([""])).toThrow(/must not be empty/);
    expect(() => checkCriteria(Array.from({ length: MAX_CRITERIA + 1 }, () => "ok"))).toThrow(/at most 16/);
    expect(() => checkCriteria([42])).toThrow(/string or a typed criterion/);
    expect(() => checkCriteria("ok")).toThrow(/array/);
  });
});

describe("checkRelations", () => {
  it("keeps conflicts_with relations in the seeds' shape", () => {
    const r = [{ kind: "conflicts_with", findingId: "finding-layout-expanded" }];
    expect(checkRelations(r, "a")).toEqual(r);
    expect(checkRelations(undefined, "a")).toEqual([]);
  });
  it("refuses the old repairId shape, self-relations, repeats, bad ids and too many", () => {
    expect(() => checkRelations([{ kind: "conflicts_with", repairId: "b" }], "a")).toThrow(/unknown field "repairId"/);
    expect(() => checkRelations([{ kind: "depends_on", findingId: "b" }], "a")).toThrow(/conflicts_with/);
    expect(() => checkRelations([{ kind: "conflicts_with", findingId: "a" }], "a")).toThrow(/another finding/);
    const b = { kind: "conflicts_with", findingId: "b" };
    expect(() => checkRelations([b, b], "a")).toThrow(/repeats "b"/);
    expect(() => checkRelations([{ kind: "conflicts_with", findingId: "b c" }], "a")).toThrow(/1-64 characters/);
    expect(() => checkRelations([{ kind: "conflicts_with", findingId: "-b" }], "a")).toThrow(/1-64 characters/);
    const many = Array.from({ length: MAX_RELATIONS + 1 }, (_, i) => ({ kind: "conflicts_with", findingId: `f${i}` }));
    expect(() => checkRelations(many, "a")).toThrow(/at most 16/);
  });
});
