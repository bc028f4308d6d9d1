import { describe, expect, it } from "vitest";
import { RevisionClock } from "./clock";

describe("RevisionClock", () => {
  it("starts at 1 and advances once per batch", async () => {
    const clock = new RevisionClock();
    expect(clock.revision).toBe(1);
    clock.signal("mutation");
    clock.signal("scroll");
    clock.signal("mutation");
    const change = await clock.waitForChange(1, 1000);
    expect(change).toEqual({ revision: 2, changed: true, reasons: ["mutation", "scroll"] });
  });
  it("times out unchanged and answers immediately when already past", async () => {
    const clock = new RevisionClock((fn) => fn());
    expect(await clock.waitForChange(1, 5)).toEqual({ revision: 1, changed: false, reasons: [] });
    clock.signal("input");
    clock.signal("route");
    expect(await clock.waitForChange(1, 5)).toEqual({ revision: 3, changed: true, reasons: ["input", "route"] });
  });
  it("keeps delivering when a listener throws", () => {
    const clock = new RevisionClock((fn) => fn());
    const seen: number[] = [];
    clock.subscribe(() => {
      throw new Error("boom");
    });
    clock.subscribe((c) => seen.push(c.revision));
    clock.signal("resize");
    expect(seen).toEqual([2]);
  });
});
