/** The overlay state machine: modes, multi-selection, editing and the Escape order. */
import { describe, expect, it } from "vitest";
import type { RepairTarget } from "../../repair/types";
import { escapeTarget, initialState, isCompact, mergeSelection, reduce, type OverlayEvent, type OverlayState } from "./machine";

const node = (id: string): RepairTarget => ({ kind: "node", nodeIds: [id], region: { x: 0, y: 0, width: 10, height: 10 }, regionScroll: { x: 0, y: 0 } });
const run = (events: OverlayEvent[], from: OverlayState = initialState()) => events.reduce(reduce, from);
const marked = (target: RepairTarget, id = "finding-1"): OverlayEvent => ({ type: "marked", target, id, createdAt: "2026-01-01T00:00:00.000Z" });

describe("overlay state machine", () => {
  it("starts a mode, toggles it off with the same key and switches between modes", () => {
    expect(run([{ type: "start_mode", mode: "element" }]).mode).toBe("element");
    expect(run([{ type: "start_mode", mode: "element" }, { type: "start_mode", mode: "element" }]).mode).toBeNull();
    expect(run([{ type: "start_mode", mode: "element" }, { type: "start_mode", mode: "area" }]).mode).toBe("area");
  });

  it("marking in a single mode opens the editor with a stable id and creation time", () => {
    const s = run([{ type: "start_mode", mode: "text" }, marked(node("n1"), "finding-a")]);
    expect(s.mode).toBeNull();
    expect(s.editing).toMatchObject({ id: "finding-a", createdAt: "2026-01-01T00:00:00.000Z", saved: false, fields: { instruction: "", intent: "fix", severity: "important" } });
    // Editing keeps its identity while fields change.
    const edited = reduce(s, { type: "fields", fields: { instruction: "Make it bigger" } });
    expect(edited.editing?.id).toBe("finding-a");
    expect(edited.editing?.fields.instruction).toBe("Make it bigger");
  });

  it("multi mode adds in order, toggles a repeated node off, and finishes into one node target", () => {
    const s = run([{ type: "start_mode", mode: "multi" }, marked(node("n1")), marked(node("n2")), marked(node("n3")), marked(node("n2"))]);
    expect(s.selection.map((t) => t.nodeIds[0])).toEqual(["n1", "n3"]);
    const done = reduce(s, { type: "finish_multi", id: "finding-m", createdAt: "2026-01-01T00:00:00.000Z" });
    expect(done.mode).toBeNull();
    expect(done.editing?.target).toMatchObject({ kind: "node", nodeIds: ["n1", "n3"] });
  });

  it("finishing an empty multi-selection does nothing", () => {
    const s = run([{ type: "start_mode", mode: "multi" }]);
    expect(reduce(s, { type: "finish_multi", id: "x", createdAt: "y" })).toBe(s);
    expect(mergeSelection([])).toBeNull();
  });

  it("Escape cancels picking, then marking, then editing, then closes the idle panel", () => {
    let s = run([{ type: "start_mode", mode: "element" }, marked(node("n1")), { type: "start_pick", pick: "region" }]);
    expect(escapeTarget(s)).toBe("pick");
    s = reduce(s, { type: "escape" });
    expect(s.picking).toBeNull();
    expect(s.editing).not.toBeNull();
    expect(escapeTarget(s)).toBe("edit");
    s = reduce(s, { type: "escape" });
    expect(s.editing).toBeNull();
    expect(s.open).toBe(true);
    s = reduce(s, { type: "start_mode", mode: "multi" });
    s = reduce(s, marked(node("n4")));
    expect(escapeTarget(s)).toBe("mark");
    s = reduce(s, { type: "escape" });
    expect(s.mode).toBeNull();
    expect(s.selection).toEqual([]);
    expect(escapeTarget(s)).toBe("panel");
    s = reduce(s, { type: "escape" });
    expect(s.open).toBe(false);
    expect(escapeTarget(s)).toBeNull();
    expect(reduce(s, { type: "escape" })).toBe(s);
  });

  it("a closed panel ignores mode keys; new marking waits until the editor is closed", () => {
    const closed = run([{ type: "close" }]);
    expect(reduce(closed, { type: "start_mode", mode: "element" })).toBe(closed);
    expect(reduce(closed, { type: "toggle_pause" })).toBe(closed);
    const editing = run([{ type: "start_mode", mode: "element" }, marked(node("n1"))]);
    expect(reduce(editing, { type: "start_mode", mode: "area" })).toBe(editing);
  });

  it("layout, pause, markers and auto-send are independent toggles that start off", () => {
    const s = initialState();
    expect([s.layout, s.paused, s.markersVisible, s.autoSend]).toEqual([false, false, true, false]);
    const t = run([{ type: "toggle_layout" }, { type: "toggle_pause" }, { type: "toggle_markers" }, { type: "set_auto_send", on: true }]);
    expect([t.layout, t.paused, t.markersVisible, t.autoSend]).toEqual([true, true, false, true]);
  });

  it("editing a saved draft keeps its id, creation time and fields", () => {
    const s = reduce(initialState(), {
      type: "edit",
      draft: { id: "finding-z", createdAt: "2025-12-31T00:00:00.000Z", target: node("n9"), instruction: "Fix the label", criteria: [{ kind: "target_visible", value: "" }], intent: "change", severity: "blocking", conflictsWith: "finding-y", sendError: "x" },
    });
    expect(s.editing).toMatchObject({ id: "finding-z", createdAt: "2025-12-31T00:00:00.000Z", saved: true, fields: { instruction: "Fix the label", intent: "change", severity: "blocking", conflictsWith: "finding-y" } });
    expect(s.editing?.fields).not.toHaveProperty("sendError");
  });
});

describe("panel placement in the state machine", () => {
  const popover = "popover" as const;
  it("docks to a side or cycles, and shrinks to the toolbar while marking unless expanded", () => {
    expect(run([{ type: "dock" }]).dock).toBe("bottom");
    expect(run([{ type: "dock" }, { type: "dock" }, { type: "dock" }]).dock).toBe("right");
    expect(run([{ type: "dock", dock: "left" }]).dock).toBe("left");
    const s = run([{ type: "start_mode", mode: "element" }]);
    expect(isCompact(initialState(), null)).toBe(false);
    expect(isCompact(s, null)).toBe(true);
    // Expanded while marking: until the marking and its popover editor end.
    const peeked = reduce(s, { type: "toggle_collapsed", compact: true, marking: true });
    expect(isCompact(peeked, null)).toBe(false);
    const editing = reduce(peeked, marked(node("n1")));
    expect(isCompact(editing, popover)).toBe(false);
    const done = reduce(editing, { type: "saved" });
    expect(done.peek).toBe(false);
    expect(isCompact(reduce(done, { type: "start_mode", mode: "area" }), null)).toBe(true);
  });

  it("pins collapsed, and an editor that fell back into the panel always gets the whole panel", () => {
    const pinned = reduce(initialState(), { type: "toggle_collapsed", compact: false, marking: false });
    expect(pinned.collapsed).toBe(true);
    expect(isCompact(pinned, null)).toBe(true);
    expect(isCompact(pinned, "panel")).toBe(false);
    expect(isCompact(reduce(pinned, { type: "toggle_layout" }), null)).toBe(false);
    const expanded = reduce(pinned, { type: "toggle_collapsed", compact: true, marking: false });
    expect(expanded).toMatchObject({ collapsed: false, peek: false });
    expect(isCompact(reduce(expanded, { type: "start_mode", mode: "text" }), null)).toBe(true);
  });
});
