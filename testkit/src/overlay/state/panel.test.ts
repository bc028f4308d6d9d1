/** The remembered panel placement: bad stored values fall back field by field; the dock cycle. */
import { describe, expect, it } from "vitest";
import { DEFAULT_PREFS, nextDock, sanitizePrefs } from "./panel";

describe("panel placement", () => {
  it("reads back known values and ignores everything else", () => {
    expect(sanitizePrefs({ dock: "bottom", collapsed: true })).toEqual({ dock: "bottom", collapsed: true });
    expect(sanitizePrefs({ dock: "top", collapsed: "yes" })).toEqual(DEFAULT_PREFS);
    expect(sanitizePrefs({ dock: "left", collapsed: 1 })).toEqual({ dock: "left", collapsed: false });
    for (const bad of [null, 42, "bottom", [], ["left"], { dock: { toString: () => "left" } }, undefined]) expect(sanitizePrefs(bad)).toEqual(DEFAULT_PREFS);
  });

  it("cycles right, bottom, left", () => {
    expect([nextDock("right"), nextDock("bottom"), nextDock("left")]).toEqual(["bottom", "left", "right"]);
  });
});
